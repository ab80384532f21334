/*
 * timing.c (estimate) - the time of a graph's work on one device, in one place: the
 * runtime's kernel plan over the counted nodes (fusion.c, built once per
 * estimate or shared by a grid's estimates), each node's time, bound and
 * power (efficiency.h, power.h) per scenario.  energy.c sums these into
 * device-seconds (over jci_est_parallel_devices, workload.c) and
 * power; the account (account.c) turns those into energy.
 */
#include "estimate/estimate_int.h"

#include <stdlib.h>

/* ---- what a grid's estimates share ------------------------------------------ */

#define SHARE_PLANS 8   /* runtimes x element widths a grid visits; more are built per estimate */

struct jci_est_share {
    const jc_analysis *an;
    jci_arena *a;         /* the plans' arrays */
    size_t n;
    struct { jci_runtime runtime; double run_bytes; int tensor_cores; jci_eff_plan plan; } p[SHARE_PLANS];
};

jci_est_share *jci_est_share_new(const jc_analysis *an)
{
    jci_est_share *sh = calloc(1, sizeof *sh);
    if (!sh) return NULL;
    sh->an = an;
    if (!(sh->a = jci_arena_new())) {
        free(sh);
        return NULL;
    }
    return sh;
}

void jci_est_share_free(jci_est_share *sh)
{
    if (!sh) return;
    jci_arena_free(sh->a);
    free(sh);
}

const jci_eff_plan *jci_est_plan(est *s, double run_bytes, int tensor_cores)
{
    /* the plan reads the analysis, the runtime and these two alone (fusion.c) */
    jci_est_share *sh = s->share && s->share->an == s->an ? s->share : NULL;
    for (size_t i = 0; sh && i < sh->n; i++)
        if (sh->p[i].runtime == s->eff.runtime && sh->p[i].run_bytes == run_bytes &&
            sh->p[i].tensor_cores == tensor_cores)
            return &sh->p[i].plan;
    int keep = sh && sh->n < SHARE_PLANS;
    jci_eff_plan *p = keep ? &sh->p[sh->n].plan : jci_arena_alloc(s->b.a, sizeof *p);
    if (!p || jci_eff_plan_build(&s->eff, s->an, run_bytes, tensor_cores, keep ? sh->a : s->b.a, p) != JC_OK)
        return NULL;
    if (keep) {
        sh->p[sh->n].runtime = s->eff.runtime;
        sh->p[sh->n].run_bytes = run_bytes;
        sh->p[sh->n].tensor_cores = tensor_cores;
        sh->n++;
    }
    return p;
}

/* The runtime's kernels over the graph (fusion.c), built once per
 * estimate or taken from the grid's share; NULL for the engine profile or
 * a user's utilisation. */
static const jci_eff_plan *plan_of(est *s)
{
    if (s->plan_state == 0) {
        s->plan_state = -1;
        int bits = (int)jci_est_prec_bits(s->prec);
        /* an engine's plan holds its L2 candidates, read on a GPU alone */
        if ((s->eff.kind != JCI_RTK_ENGINE || s->dev->kind == JC_DEVICE_GPU) && !s->util_user &&
            (s->plan = jci_est_plan(s, bits / 8.0, s->dev->kind == JC_DEVICE_GPU && bits <= 16)))
            s->plan_state = 1;
    }
    return s->plan_state == 1 ? s->plan : NULL;
}

/* Busy time and dynamic energy of one forward pass on one device
 * (scenario sc), and of its backward pass when bwd is non-NULL
 * (training: each node's backward kernels, efficiency.h); per-node shares
 * go to nodes when non-NULL (central; forward and backward together).
 * ps, when non-NULL, accumulates what bound the kernels (estimate_int.h). */
void jci_est_pass_nodes(est *s, int sc, double *t_busy, double *e_dyn, double *t_bwd, double *e_bwd,
                        jc_est_node *nodes, jci_pass_stats *ps)
{
    const jc_analysis *an = s->an;
    jci_eff_device dv = {s->peak, s->vpeak, s->bw, s->dev->kind == JC_DEVICE_GPU, 0, s->util_user ? 0 : s->sms,
                        s->util_user ? 0 : s->l2, s->bw_sus};
    /* an accelerator's on-chip memory holds one sample's activations: its
     * compiled program runs the batch in sub-batches that fit (energy.c) */
    if (!dv.gpu && dv.l2 > 0 && s->batch > 1) dv.l2 *= s->batch;
    int bits = (int)jci_est_prec_bits(s->prec);
    dv.granule = bits == 16 ? 8 : bits == 8 ? 16 : 0;
    jci_eff_model m = s->eff;
    if (s->util_user) {
        /* the user's (or a calibration's) MFU is the achieved fraction of
         * matrix nodes */
        m.v[JCI_EFF_ETA_MATRIX] = s->util;
        m.v[JCI_EFF_FILL_S] = R1(0);
        m.v[JCI_EFF_TILE_M] = m.v[JCI_EFF_TILE_N] = R1(0);
        m.v[JCI_EFF_UNALIGNED] = R1(1);
    }
    const jci_eff_plan *plan = plan_of(s);
    double idle = jci_pick(s->idle, sc, JCI_RAISES);
    *t_busy = *e_dyn = 0;
    if (t_bwd) *t_bwd = *e_bwd = 0;
    size_t k = 0;
    for (size_t i = 0; i < an->n_nodes; i++) {
        const jc_counted_node *n = &an->nodes[i];
        if (!n->counted) continue;
        double tn = 0, en = 0, fl = 0, by = 0;
        int mem = 0, floor_bound = 0;
        for (int back = 0; back <= (t_bwd ? 1 : 0); back++) {
            jci_node_time nt;
            jci_eff_node_time(&m, &dv, an, plan, i, jci_est_node_byte_scale(s, n), sc, back, &nt);
            double p = idle;
            if (nt.t > 0 && (s->pw_on || s->pw_clk)) {
                double pc = n->cost.cls == JC_CLASS_MATRIX ? s->peak : s->vpeak;
                double uc = pc > 0 ? nt.flops / (nt.t * pc) : 0;
                double um = s->bw > 0 ? nt.bytes / (nt.t * s->bw) : 0;
                int launch = nt.bound == JCI_BOUND_LAUNCH;
                if (s->pw_on) p = jci_power_device_w(&s->pw, uc, um, launch ? JCI_POWER_LAUNCH : JCI_POWER_BUSY, sc);
                /* where the die's draw at boost clock exceeds the power
                 * limit a compute-bound kernel runs at the clocks the cap
                 * leaves, drawing the limit (power.h) */
                double r = !launch && nt.bound == JCI_BOUND_COMPUTE ? jci_power_cap_clock(&s->pw, uc, um, sc) : 1;
                if (r < 1) {
                    nt.t /= r;
                    if (s->pw_on) p = s->pw.limit_w;
                    if (ps) {
                        ps->cap_t += nt.t;
                        ps->cap_t_clock += nt.t * r;
                    }
                } else if (ps && nt.bound == JCI_BOUND_COMPUTE) {
                    ps->cap_t += nt.t;
                    ps->cap_t_clock += nt.t;
                }
            }
            if (ps && nt.bound >= JCI_BOUND_COMPUTE && nt.bound <= JCI_BOUND_LAUNCH) ps->bound_t[nt.bound] += nt.t;
            *(back ? t_bwd : t_busy) += nt.t;
            *(back ? e_bwd : e_dyn) += nt.t * (p - idle);
            tn += nt.t;
            en += nt.t * p;
            if (!back) {
                fl = nt.flops;
                by = nt.bytes;
                mem = nt.bound == JCI_BOUND_MEMORY || nt.bound == JCI_BOUND_LAUNCH;
                floor_bound = nt.bound == JCI_BOUND_LAUNCH;
            }
        }
        if (nodes) {
            jc_est_node *x = &nodes[k++];
            x->name = n->name;
            x->op = n->op;
            x->flops = fl;
            x->bytes = by;
            x->time_s = tn;
            x->memory_bound = mem;
            x->launch_bound = floor_bound;
            x->energy_j = en;   /* roofline power; the other methods redo it in per_unit() */
        }
    }
}

