/*
 * efficiency.c (estimate) - size-aware efficiency per node and the runtime profiles
 * (eager / compiled / engine): the time one counted node takes on one
 * device, or that it costs no kernel at all.  Equations: efficiency.h and
 * docs/energy-model.md section 2; constants: hwdb/energy-model.yaml.
 */
#include "estimate/efficiency.h"
#include "estimate/parallel.h"
#include "joulecast/analysis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The profiles (runtimes.def rows), in enum order, and the former
 * names kept as aliases. */
static const struct rt_row {
    const char *name;
    jci_rt_kind kind;
    unsigned devices, modes;
    const char *ids[4];        /* matrix, vector, bandwidth, launch constants */
    const char *cpu_ids[2];    /* the CPU kernel path's matrix and call cost; NULL: none */
    const char *software;
} RT_ROWS[JCI_RUNTIME_COUNT] = {
#define RT(e, name, kind, devices, modes, mx, ln, cmx, cln, sw) \
    {name, JCI_RTK_##kind, devices, modes, {mx, "kernel_eta_vector", "kernel_eta_bw", ln}, {cmx, cln}, sw},
#include "estimate/runtimes.def"
};
static const struct { const char *name; jci_runtime r; } RT_ALIASES[] = {
#define RT_ALIAS(name, e) {name, JCI_RUNTIME_##e},
#include "estimate/runtimes.def"
};
#define RT_ALIASES_N (sizeof RT_ALIASES / sizeof RT_ALIASES[0])

static const jci_rt_train RT_TRAIN_DEFAULT = {"train_step_eta", NULL, RT_LOWP_NONE, RT_MP_ANY};
static const struct { jci_runtime r; jci_rt_train t; } RT_TRAINS[] = {
#define RT_STEP(e, eta, ov, lowp, mp) {JCI_RUNTIME_##e, {eta, ov, lowp, mp}},
#include "estimate/runtimes.def"
};

static const struct { jci_runtime r; const char *ids[5]; } RT_OPCOSTS[] = {
#define RT_OPCOST(e, conv, gconv, matrix, vector, memory) {JCI_RUNTIME_##e, {conv, gconv, matrix, vector, memory}},
#include "estimate/runtimes.def"
};
#define RT_OPCOSTS_N (sizeof RT_OPCOSTS / sizeof RT_OPCOSTS[0])

static const struct { jci_runtime r; const char *id; } RT_TENSORS[] = {
#define RT_TENSOR(e, id) {JCI_RUNTIME_##e, id},
#include "estimate/runtimes.def"
};

jc_status jci_eff_tensor_matrix(const jc_hwdb *db, int bits, jci_eff_model *m, jc_diag *d)
{
    if (bits > 16 || m->cpu_path) return JC_OK;
    for (size_t i = 0; i < sizeof RT_TENSORS / sizeof RT_TENSORS[0]; i++) {
        if (RT_TENSORS[i].r != m->runtime) continue;
        const jc_constant *c;
        jc_diag tmp;
        if (jc_hwdb_constant(db, RT_TENSORS[i].id, &c, &tmp) != JC_OK)
            return jci_diag_set(d, JC_ERR_HWDB, "estimate: the hardware database has no constant '%s' (runtime "
                                "profile %s)", RT_TENSORS[i].id, RT_ROWS[m->runtime].name);
        const jc_sourced *v = &c->value;
        m->v[JCI_EFF_ETA_MATRIX].central = v->value;
        m->v[JCI_EFF_ETA_MATRIX].low = v->has_range ? v->low : v->value;
        m->v[JCI_EFF_ETA_MATRIX].high = v->has_range ? v->high : v->value;
        m->src[JCI_EFF_ETA_MATRIX] = c;
        m->id[JCI_EFF_ETA_MATRIX] = RT_TENSORS[i].id;
    }
    return JC_OK;
}

const jci_rt_train *jci_runtime_train(jci_runtime r)
{
    for (size_t i = 0; i < sizeof RT_TRAINS / sizeof RT_TRAINS[0]; i++)
        if (RT_TRAINS[i].r == r) return &RT_TRAINS[i].t;
    return &RT_TRAIN_DEFAULT;
}

const char *jci_runtime_name(jci_runtime r)
{
    return (unsigned)r < JCI_RUNTIME_COUNT ? RT_ROWS[r].name : NULL;
}

const char *jci_runtime_software(jci_runtime r)
{
    return (unsigned)r < JCI_RUNTIME_COUNT ? RT_ROWS[r].software : NULL;
}

jci_rt_kind jci_runtime_kind(jci_runtime r)
{
    return (unsigned)r < JCI_RUNTIME_COUNT ? RT_ROWS[r].kind : JCI_RTK_EAGER;
}

int jci_runtime_fastest_kernels(const char *runtime, int train)
{
    return !train && runtime && jci_runtime_kind(jci_runtime_parse(runtime)) == JCI_RTK_ENGINE;
}

jci_runtime jci_runtime_parse(const char *s)
{
    for (int i = 0; s && i < JCI_RUNTIME_COUNT; i++)
        if (!jci_strcasecmp(s, RT_ROWS[i].name)) return (jci_runtime)i;
    for (size_t i = 0; s && i < RT_ALIASES_N; i++)
        if (!jci_strcasecmp(s, RT_ALIASES[i].name)) return RT_ALIASES[i].r;
    return JCI_RUNTIME_COUNT;
}

int jci_runtime_is_alias(const char *s)
{
    for (size_t i = 0; s && i < RT_ALIASES_N; i++)
        if (!jci_strcasecmp(s, RT_ALIASES[i].name)) return 1;
    return 0;
}

int jci_runtime_fits(jci_runtime r, int device_kind, int train)
{
    if ((unsigned)r >= JCI_RUNTIME_COUNT || device_kind < 0 || device_kind > 4) return 0;
    return (RT_ROWS[r].devices & (1u << device_kind)) && (RT_ROWS[r].modes & (train ? RT_TRAIN : RT_INFER));
}

const char *jci_runtime_list_except(int device_kind, int train, int except, char *buf, size_t cap)
{
    int last = -1;
    for (int i = 0; i < JCI_RUNTIME_COUNT; i++)
        if (i != except && jci_runtime_fits((jci_runtime)i, device_kind, train)) last = i;
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0, k = 0; i < JCI_RUNTIME_COUNT && at < cap; i++) {
        if (i == except || !jci_runtime_fits((jci_runtime)i, device_kind, train)) continue;
        int w = snprintf(buf + at, cap - at, "%s%s", k == 0 ? "" : i == last ? " or " : ", ", RT_ROWS[i].name);
        at += w > 0 ? (size_t)w : 0;
        k++;
    }
    return buf;
}

const char *jci_runtime_list(int device_kind, int train, char *buf, size_t cap)
{
    return jci_runtime_list_except(device_kind, train, -1, buf, cap);
}

const char *jci_runtime_numbered(char *buf, size_t cap)
{
    size_t at = 0;
    buf[0] = 0;
    for (int i = 0; i < JCI_RUNTIME_COUNT && at < cap; i++) {
        int w = snprintf(buf + at, cap - at, "%s%d %s", i ? ", " : "", i, RT_ROWS[i].name);
        at += w > 0 ? (size_t)w : 0;
    }
    return buf;
}

const char *jci_runtime_aliases(char *buf, size_t cap)
{
    size_t at = 0;
    buf[0] = 0;
    for (size_t i = 0; i < RT_ALIASES_N && at < cap; i++) {
        int w = snprintf(buf + at, cap - at, "%s%s", i ? ", " : "", RT_ALIASES[i].name);
        at += w > 0 ? (size_t)w : 0;
    }
    return buf;
}

/* The constant ids of a profile are its row's: the framework runtimes
 * (eager PyTorch 2 and 1.x, torch.compile) share kernel_eta_matrix (the
 * same cuBLAS/cuDNN/generated GEMMs), differing in what they fuse
 * (fusion.c) and in their dispatch cost; TensorRT's matrix kernels (int8
 * implicit-GEMM convolutions and IMMA GEMMs with their requantising
 * epilogues) have their own, runtime_engine_eta_matrix; every profile runs
 * its vector and memory-bound kernels at the one set of kernel
 * efficiencies (kernel_eta_vector, kernel_eta_bw). */
static const char *const SHARED_IDS[] = {"eff_fill_s", "eff_memory_latency_s", "eff_tile_m",
                                         "eff_tile_n", "eff_unaligned_factor", "kernel_eta_backward"};

/* The CPU kernel path (oneDNN/MKL and generated C++ kernels on the
 * cores): its own matrix efficiency, and a per-kernel call cost in place
 * of the GPU's launch floor (efficiency.h); NULL for the other ids or a
 * profile without a CPU path. */
static const char *cpu_id(jci_runtime r, int i)
{
    return i == JCI_EFF_ETA_MATRIX ? RT_ROWS[r].cpu_ids[0] : i == JCI_EFF_LAUNCH_S ? RT_ROWS[r].cpu_ids[1] : NULL;
}

/* The constant id of index i of profile r on a GPU: its row's four, the
 * shared ones, and the per-op host costs of its RT_OPCOST row (without
 * one: its launch constant, so a kernel's floor is the launch alone). */
static const char *gpu_id(jci_runtime r, int i, int *op_costs)
{
    if (i < 4) return RT_ROWS[r].ids[i];
    if (i < JCI_EFF_OP_CONV) return SHARED_IDS[i - 4];
    for (size_t k = 0; k < RT_OPCOSTS_N; k++)
        if (RT_OPCOSTS[k].r == r) {
            *op_costs = 1;
            return RT_OPCOSTS[k].ids[i - JCI_EFF_OP_CONV];
        }
    return RT_ROWS[r].ids[JCI_EFF_LAUNCH_S];
}

jc_status jci_eff_resolve(const jc_hwdb *db, jci_runtime r, int cpu, jci_eff_model *m, jc_diag *d)
{
    memset(m, 0, sizeof *m);
    if ((unsigned)r >= JCI_RUNTIME_COUNT)
        return jci_diag_set(d, JC_ERR_USAGE, "unknown runtime profile");
    m->runtime = r;
    m->kind = RT_ROWS[r].kind;
    m->cpu_path = cpu && cpu_id(r, JCI_EFF_LAUNCH_S);
    for (int i = 0; i < JCI_EFF_N; i++) {
        const char *id = gpu_id(r, i, &m->op_costs);
        if (m->cpu_path && cpu_id(r, i)) id = cpu_id(r, i);
        const jc_constant *c;
        jc_diag tmp;
        if (jc_hwdb_constant(db, id, &c, &tmp) != JC_OK)
            return jci_diag_set(d, JC_ERR_HWDB,
                               "estimate: the hardware database has no constant '%s' (runtime "
                               "profile %s; hwdb/energy-model.yaml or an override layer must define it)",
                               id, RT_ROWS[r].name);
        const jc_sourced *v = &c->value;
        m->v[i].central = v->value;
        m->v[i].low = v->has_range ? v->low : v->value;
        m->v[i].high = v->has_range ? v->high : v->value;
        m->src[i] = c;
        m->id[i] = id;
    }
    m->fuse_vector_memory = m->kind == JCI_RTK_ENGINE;
    return JC_OK;
}

double jci_eff_kernels(const jc_analysis *an, const jc_counted_node *n)
{
    (void)an;
    /* serial steps from the node's cost (the time steps of a recurrent
     * node: analysis/ops/ops_rnn.c) */
    return n->cost.serial_steps > 0 ? (double)n->cost.serial_steps : 1;
}

double jci_eff_gemm_compute_s(const jci_eff_model *m, const jci_eff_device *dv, const jc_gemm_shape *g,
                             int sc)
{
    double grp = g->batch >= 1 ? g->batch : 1;
    double f = 2 * g->m * g->n * g->k * grp;
    if (!(f > 0)) return 0;
    if (dv->granule > 0 && (g->n < dv->granule || g->k < dv->granule)) {
        /* too narrow for a tensor-core tile (depthwise): CUDA cores */
        double ev = jci_pick(m->v[JCI_EFF_ETA_VECTOR], sc, JCI_LOWERS);
        return dv->vpeak > 0 && ev > 0 ? f / (dv->vpeak * ev) : 0;
    }
    if (!(dv->peak > 0)) return 0;
    double q = 1, al = 1;
    double tmn = m->v[JCI_EFF_TILE_M].central, tnn = m->v[JCI_EFF_TILE_N].central;
    /* thread-block tiles: none on the CPU kernel path (its kernels block
     * registers, not output tiles over SMs) */
    if (!m->cpu_path && tmn >= 1 && tnn >= 1) {
        double tiles = grp * ceil(g->m / tmn) * ceil(g->n / tnn);
        q = (g->m * g->n * grp) / (tiles * tmn * tnn);
        /* the last wave of tiles over the SMs (one partial wave of a small
         * kernel is the fill term's) */
        if (dv->sms >= 1 && tiles >= dv->sms) q *= jci_wave_factor(tiles, dv->sms);
    }
    if (dv->granule > 0 && (fmod(g->k, dv->granule) != 0 || fmod(g->n, dv->granule) != 0))
        al = jci_pick(m->v[JCI_EFF_UNALIGNED], sc, JCI_LOWERS);
    double p = dv->peak * jci_pick(m->v[JCI_EFF_ETA_MATRIX], sc, JCI_LOWERS);
    /* the padded tiles' work, then the fill: a latency, not scaled by
     * the tiles' padding */
    return (f / (q * al) + p * jci_pick(m->v[JCI_EFF_FILL_S], sc, JCI_RAISES)) / p;
}

static double call_s(const jci_eff_model *m, int sc);

double jci_eff_gemm_s(const jci_eff_model *m, const jci_eff_device *dv, double M, double N, double K, double count,
                      int sc)
{
    if (!(M > 0) || !(N > 0) || !(K > 0) || !(count > 0)) return 0;
    /* each GEMM its own tiles, waves and fill term */
    jc_gemm_shape g = {M, N, K, 1};
    double t = count * jci_eff_gemm_compute_s(m, dv, &g, sc);
    double launch = dv->gpu ? jci_pick(m->v[JCI_EFF_LAUNCH_S], sc, JCI_RAISES) : 0;   /* one (grouped) kernel */
    return (t > launch ? t : launch) + call_s(m, sc);
}

/* The CPU kernel path's call cost of one kernel (it adds to the kernel:
 * the cores that dispatch it are the cores that run it); 0 elsewhere. */
static double call_s(const jci_eff_model *m, int sc)
{
    return m->cpu_path ? jci_pick(m->v[JCI_EFF_LAUNCH_S], sc, JCI_RAISES) : 0;
}

double jci_eff_bw(const jci_eff_model *m, const jci_eff_device *dv, int sc)
{
    if (dv->bw_sustained > 0) return dv->bw_sustained;
    return dv->bw > 0 ? dv->bw * jci_pick(m->v[JCI_EFF_ETA_BW], sc, JCI_LOWERS) : 0;
}

/* Time of `kernels` memory-bound transfers of b bytes in all, at the
 * achieved bandwidth of a large transfer (jci_eff_bw); each kernel adds
 * the datasheet bandwidth x eff_memory_latency_s bytes' worth. */
static double mem_s(const jci_eff_model *m, const jci_eff_device *dv, double b, double kernels, int sc)
{
    double bw = jci_eff_bw(m, dv, sc);
    if (!(dv->bw > 0) || !(bw > 0) || !(b > 0)) return 0;
    return (b + dv->bw * jci_pick(m->v[JCI_EFF_LAT_S], sc, JCI_RAISES) * kernels) / bw;
}

static double launch_s(const jci_eff_model *m, const jci_eff_device *dv, int sc)
{
    return dv->gpu ? jci_pick(m->v[JCI_EFF_LAUNCH_S], sc, JCI_RAISES) : 0;
}

/* The floor of one kernel of node n (its plan role): the launch floor,
 * or, where the profile carries per-op host costs (RT_OPCOST), the host's
 * cost of issuing n's op when that is larger: an eager framework issues
 * each op from Python, and a kernel cannot start before its op is issued
 * (side kernels: vector, as an activation op). */
static double op_floor_s(const jci_eff_model *m, const jci_eff_device *dv, const jc_counted_node *n, int role,
                         int sc)
{
    double tl = launch_s(m, dv, sc);
    if (!m->op_costs || !dv->gpu) return tl;
    int k = JCI_EFF_OP_VECTOR;
    if (!n)
        ;   /* a side kernel */
    else if (n->kernel == JC_KERNEL_CONV || n->kernel == JC_KERNEL_CONV_TRANSPOSE)
        k = n->has_gemm && n->gemm.batch > 1 ? JCI_EFF_OP_GCONV : JCI_EFF_OP_CONV;
    else if (role == JCI_PLAN_ATTN || n->cost.cls == JC_CLASS_MATRIX)
        k = JCI_EFF_OP_MATRIX;
    else if (role != JCI_PLAN_GROUP && n->cost.cls == JC_CLASS_MEMORY)
        k = JCI_EFF_OP_MEMORY;
    double h = jci_pick(m->v[k], sc, JCI_RAISES);
    return h > tl ? h : tl;
}

/* t = max(tc, tm, launch floor); bound and eta from the winner. */
static void finish(const jci_eff_device *dv, double tc, double tm, double floor_t, int matrix,
                   jci_node_time *out)
{
    double t = tc > tm ? tc : tm;
    out->bound = tm > tc ? JCI_BOUND_MEMORY : JCI_BOUND_COMPUTE;
    if (floor_t > t) {
        t = floor_t;
        out->bound = JCI_BOUND_LAUNCH;
    }
    out->t = t;
    if (t > 0)
        out->eta = out->bound == JCI_BOUND_MEMORY ? out->bytes / (t * dv->bw)
                 : matrix ? (dv->peak > 0 ? out->flops / (t * dv->peak) : 0)
                 : dv->vpeak > 0 ? out->flops / (t * dv->vpeak) : 0;
}

void jci_eff_gemm_time(const jci_eff_model *m, const jci_eff_device *dv, const jc_gemm_shape *g,
                      double bytes, double elt_bytes, int sc, jci_node_time *out)
{
    memset(out, 0, sizeof *out);
    double grp = g->batch >= 1 ? g->batch : 1;
    if (bytes < 0) bytes = grp * (g->m * g->k + g->k * g->n + g->m * g->n) * elt_bytes;
    out->flops = 2 * g->m * g->n * g->k * grp;
    out->bytes = bytes;
    finish(dv, jci_eff_gemm_compute_s(m, dv, g, sc), mem_s(m, dv, bytes, 1, sc), launch_s(m, dv, sc), 1, out);
    out->t += call_s(m, sc);
}

/* Compute time and FLOPs of matrix node i (forward, or its backward:
 * the input-gradient GEMM m x k over n and the weight-gradient GEMM
 * k x n over m, each with its own tiles), from the GEMM shape the
 * analysis stage gives the node; without one, its FLOPs at the matrix
 * efficiency. */
static double matrix_s(const jci_eff_model *m, const jci_eff_device *dv, const jc_analysis *an, size_t i,
                       double f, int sc, int backward)
{
    const jc_counted_node *n = &an->nodes[i];
    jc_gemm_shape g = n->gemm;   /* the analysis stage's view of the node */
    if (n->has_gemm) {
        if (!backward) return jci_eff_gemm_compute_s(m, dv, &g, sc);
        jc_gemm_shape dx = {g.m, g.k, g.n, g.batch}, dw = {g.k, g.n, g.m, g.batch};
        return jci_eff_gemm_compute_s(m, dv, &dx, sc) + jci_eff_gemm_compute_s(m, dv, &dw, sc);
    }
    if (!(dv->peak > 0)) return 0;
    double p = dv->peak * jci_pick(m->v[JCI_EFF_ETA_MATRIX], sc, JCI_LOWERS);
    return (backward ? 2 : 1) * (f + p * jci_pick(m->v[JCI_EFF_FILL_S], sc, JCI_RAISES)) / p;
}

int jci_eff_engine_fuses(const jc_counted_node *n)
{
    jc_op_class cls = n->cost.cls;
    return cls != JC_CLASS_MATRIX && cls != JC_CLASS_NONE &&
           (cls == JC_CLASS_MEMORY || n->fusion == JC_FUSION_POINTWISE || n->kernel == JC_KERNEL_SOFTMAX);
}

void jci_eff_node_time(const jci_eff_model *m, const jci_eff_device *dv, const jc_analysis *an,
                      const jci_eff_plan *plan, size_t i, double byte_scale, int sc, int backward,
                      jci_node_time *out)
{
    const jc_counted_node *n = &an->nodes[i];
    memset(out, 0, sizeof *out);
    double rep = n->cost.repeat > 0 ? (double)n->cost.repeat : 1;
    double f = rep * ((double)n->cost.flops + (double)n->cost.special_ops);
    double b = rep * ((double)n->cost.bytes_read + (double)n->cost.weight_bytes_read +
                      (double)n->cost.bytes_written) * byte_scale;
    double ob = rep * (double)n->cost.bytes_written * byte_scale;
    jc_op_class cls = n->cost.cls;
    int role = plan ? plan->role[i] : JCI_PLAN_OWN;
    if (cls == JC_CLASS_NONE) {
        out->bound = JCI_BOUND_NONE;
        return;
    }
    /* engine: elementwise (ops.def's fusable column), data movement and
     * softmax run inside the producer's kernel */
    if (role == JCI_PLAN_FUSED || (!plan && m->fuse_vector_memory && jci_eff_engine_fuses(n))) {
        out->flops = f;
        out->bytes = b;
        out->bound = JCI_BOUND_FUSED;
        return;
    }
    double kern = jci_eff_kernels(an, n) * (backward && cls == JC_CLASS_MATRIX ? 2 : 1);
    double tc = 0;
    int matrix = cls == JC_CLASS_MATRIX;
    if (role == JCI_PLAN_GROUP) {
        f = rep * plan->flops[i];
        b = rep * plan->bytes[i];
        ob = rep * plan->out_bytes[i];
        matrix = 0;
    } else if (role == JCI_PLAN_ATTN) {
        const jc_counted_node *a = &an->nodes[plan->partner[i]];
        double fa = rep * ((double)a->cost.flops + (double)a->cost.special_ops);
        /* flash backward: both products' gradients and Q K^T recomputed */
        double k = backward ? 2.5 : 1;
        tc = k * rep * (matrix_s(m, dv, an, (size_t)plan->partner[i], fa / rep, sc, 0) +
                        matrix_s(m, dv, an, i, f / rep, sc, 0));
        f = k * (f + fa) + rep * plan->flops[i];
        b = rep * plan->bytes[i] * (backward ? 2 : 1);
        ob = 0;
    } else if (matrix) {
        tc = rep * matrix_s(m, dv, an, i, f / rep, sc, backward);
        if (backward) {
            f *= 2;
            b *= 2;
            ob = 0;
        }
    }
    if (role == JCI_PLAN_GROUP || (!matrix && role == JCI_PLAN_OWN)) {
        if (cls == JC_CLASS_VECTOR || role == JCI_PLAN_GROUP) {
            double ev = jci_pick(m->v[JCI_EFF_ETA_VECTOR], sc, JCI_LOWERS);
            tc = dv->vpeak > 0 && ev > 0 ? f / (dv->vpeak * ev) : 0;
        }
        /* backward: read the output gradient and the saved inputs, write
         * the input gradients; a normalisation's parameter-gradient (or
         * statistics) reduction reads dy and x once more, a kernel of its
         * own (PyTorch's layer_norm / batch_norm backward) */
        if (backward) b += ob;
        if (backward && role == JCI_PLAN_GROUP && plan->norm_bytes[i] > 0) {
            b += rep * plan->norm_bytes[i];
            kern += 1;
        }
    }
    /* forward: an input the previous kernel wrote is still in the L2 when
     * it fits there, and is not read from DRAM (the L2's bandwidth is
     * several times DRAM's: counted free) */
    if (!backward && plan && rep == 1 && dv->gpu && dv->l2 > 0 && plan->l2_bytes[i] > 0 && plan->l2_max[i] <= dv->l2)
        b -= plan->l2_bytes[i] < b ? plan->l2_bytes[i] : b;
    /* a dataflow accelerator (not a GPU, dv->l2 its on-chip memory over
     * the pass, energy.c): the compiled program keeps a kernel's
     * activations, read and written, on chip when they fit; its weights
     * stream from DRAM */
    if (!backward && !dv->gpu && dv->l2 > 0) {
        double act = rep * ((double)n->cost.bytes_read + (double)n->cost.bytes_written) * byte_scale;
        if (act <= dv->l2) b -= act < b ? act : b;
    }
    out->flops = f;
    out->bytes = b;
    double tl = op_floor_s(m, dv, n, role, sc);
    finish(dv, tc, mem_s(m, dv, b, rep * kern, sc), tl * rep * kern, matrix, out);
    out->t += call_s(m, sc) * rep * kern;
    if (plan && plan->side_kernels[i] > 0) {
        double sk = rep * plan->side_kernels[i], sb = rep * plan->side_bytes[i];
        if (backward && plan->bn_bytes[i] > 0) {
            /* batch norm in training mode: the forward's statistics pass
             * (read x), the backward's reduction (read dy, x) and input
             * gradient (read dy, x, write dx) */
            sb += rep * 6 * plan->bn_bytes[i];
            sk += rep * 2;
        }
        if (backward && plan->xform_bytes[i] > 0) {
            /* NCHW <-> NHWC: the data gradient transforms dy in and dx
             * out, the weight gradient x and dy in: twice the forward's */
            sb += rep * plan->xform_bytes[i];
            sk += rep * 2;
        }
        double ts = mem_s(m, dv, sb, sk, sc), ts_floor = op_floor_s(m, dv, NULL, JCI_PLAN_OWN, sc);
        out->t += (ts > ts_floor * sk ? ts : ts_floor * sk) + call_s(m, sc) * sk;
        out->bytes += sb;
    }
    /* the backward's kernels (data- and weight-gradient GEMMs with their
     * split reductions, autograd's multi-input elementwise kernels) reach
     * a fraction of the forward kernel model's speed */
    double eb = backward ? jci_pick(m->v[JCI_EFF_ETA_BWD], sc, JCI_LOWERS) : 1;
    if (eb > 0 && eb < 1e9) {
        out->t /= eb;
        out->eta *= eb;
    }
}
