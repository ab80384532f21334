/*
 * train_parallel.c (estimate) - multi-device training (issue #17 item 5): the layout
 * of G devices as tensor parallel (--tp) x pipeline stages (--pp) x data
 * parallel (the rest), the interconnect it runs on (the device's node figures, jci_node_figure),
 * and the time the layout adds to the compute: the pipeline bubble
 * (p-1)/(m+p-1), the tensor-parallel all-reduces of activations (4 per
 * layer per token: Shoeybi et al. 2019, Megatron-LM, section 3) and the
 * part of the data-parallel gradient all-reduce the backward pass does not
 * hide.  The arithmetic is parallel.c (shared with serving); the
 * equations are docs/energy-model.md "Multi-device training".
 */
#include "estimate/estimate_int.h"
#include "estimate/parallel.h"

#include <stdio.h>
#include <string.h>

/* The options of the layout, checked: what each needs (their sizes are
 * whole numbers by job_keys.def, checked by jc_job_check). */
static jc_status check_layout(est *s)
{
    const jc_job *j = s->b.job;
    static const char *const names[] = {"tp", "pp", "micro-batches", "hidden", "dp-overlap"};
    const double v[] = {j->tp, j->pp, j->micro_batches, j->hidden, j->dp_overlap};
    for (int i = 0; i < 5; i++) {
        if (!given(v[i])) continue;
        if (j->mode != JC_MODE_TRAINING)
            return jci_bld_fail(&s->b, JC_ERR_USAGE, "--%s is a training (--train) or generation (--generate) option "
                                "and has no effect on an inference estimate", names[i]);
        if (given(s->known_T))
            return jci_bld_fail(&s->b, JC_ERR_USAGE, "--%s has no effect with a known runtime (--hours / "
                                "--device-hours): the layout only shapes modelled time", names[i]);
        /* whole numbers >= 1: jc_job_check, at the estimate's start */
    }
    if (s->an && ((given(j->tp) && j->tp > 1) || (given(j->pp) && j->pp > 1) || given(j->hidden)))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--tp / --pp / --hidden are not modelled for a MODEL.onnx training "
                            "estimate (the graph's layers are not identified): give --params N --tokens D instead");
    double tp = given(j->tp) ? j->tp : 1, pp = given(j->pp) ? j->pp : 1;
    if (given(j->micro_batches) && pp <= 1)
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--micro-batches only sets the pipeline bubble: give --pp P > 1 too");
    if (pp > 1 && !given(j->micro_batches))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--pp %s needs --micro-batches M: the pipeline bubble (p-1)/(m+p-1) "
                            "depends on it", FMT_N(pp));
    if (given(j->hidden) && tp <= 1)
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--hidden only sizes the tensor-parallel activations: give --tp T > 1 too");
    if (tp > 1 && !given(j->hidden))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--tp %s with --train --params needs --hidden H (the model width: each "
                            "layer all-reduces its activations of H values per token)", FMT_N(tp));
    if ((tp > 1 || pp > 1) && fmod(s->G, tp * pp) != 0)
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--count %s is not a multiple of tp x pp = %s", FMT_N(s->G), FMT_N(tp * pp));
    s->tp = tp;
    s->pp = pp;
    s->micro = given(j->micro_batches) ? j->micro_batches : 1;
    s->dp = s->G / (tp * pp);
    return JC_OK;
}

/* The steps whose gradients are all-reduced, and the parameters. */
static void dp_work(est *s)
{
    if (s->dp <= 1) return;
    s->grad_params = s->params;
    if (s->params > 0 && s->passes >= 1) {
        s->dp_steps = jci_est_steps(s);
        return;
    }
    jci_bld_warn(&s->b, "multi-device: the data-parallel gradient all-reduce of %s devices is not modelled: %s",
                 FMT_N(s->dp), s->params > 0 ? "give --batch B --seq L (the global batch of one step) to count the steps"
                                      : "--flops gives no parameter count (give --params N --tokens D)");
}

/* Ranks of one data-parallel group per node: tensor parallel fills a
 * node first (Megatron's order tp, dp, pp). */
static double dp_per_node(const est *s)
{
    double k = floor(s->per_node / s->tp);
    if (k < 1) k = 1;
    return k > s->dp ? s->dp : k;
}

/* The latency of one gradient all-reduce over the data-parallel group on
 * the host's fabric (coll_latency.c). */
static jc_status dp_latency(est *s)
{
    const jc_host *h = s->host;
    int up = h && h->up_reduce.present && h->up_reduce.value > 0;
    int out = h && h->out_reduce.present && h->out_reduce.value > 0;
    return jci_coll_latency(&s->b, s->dev, s->dp, dp_per_node(s), up, out, "parallel.dp_allreduce_latency_s",
                            "data-parallel gradient", &s->dp_lat);
}

jc_status jci_est_resolve_parallel(est *s)
{
    jc_status st;
    s->tp = s->pp = s->dp = s->micro = 1;
    if (s->step_on) return JC_OK;   /* the training step model (train_step.c) lays the job out */
    if ((st = check_layout(s))) return st;
    if (s->b.job->mode != JC_MODE_TRAINING || given(s->known_T)) return JC_OK;
    /* every micro-batch of every data-parallel replica takes a sample of the step's batch */
    if (given(s->batch) && (st = jci_dp_batch_check(&s->b, s->batch, "sample", s->G, s->tp, s->pp, 1, s->micro,
                                                     !s->an, given(s->b.job->batch) ? NULL
                                                     : " (no --batch: the model's batch dim, else 1)")))
        return st;
    if (s->G > 1) dp_work(s);
    if (given(s->b.job->dp_overlap) && !(s->dp_steps > 0))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--dp-overlap has no effect: the job has no data-parallel gradient "
                            "all-reduce (%s)", s->G > 1 ? "its steps or parameters are not known: give --batch B with "
                            "a model, or --params N --tokens D" : "one device: give --count G > 1");
    if (!(s->G > 1)) return JC_OK;
    if (s->tp <= 1 && s->pp <= 1 && s->dp_steps <= 0) return JC_OK;
    s->par_on = 1;
    if (s->tp > 1) jci_bld_assume(&s->b, "parallel.tp", "tensor-parallel size", R1(s->tp), "", JC_ORIGIN_USER, "--tp");
    if (s->pp > 1) jci_bld_assume(&s->b, "parallel.pp", "pipeline stages", R1(s->pp), "", JC_ORIGIN_USER, "--pp");
    jci_bld_assume(&s->b, "parallel.dp", "data-parallel size = devices / (tp x pp)", R1(s->dp), "", JC_ORIGIN_DERIVED,
                   "--count / (--tp x --pp)");
    if (s->pp > 1) {
        jci_bld_assume(&s->b, "parallel.micro_batches", "micro-batches per step", R1(s->micro), "", JC_ORIGIN_USER,
                       "--micro-batches");
        jci_bld_assume(&s->b, "parallel.pp_bubble", "pipeline bubble (p-1)/(m+p-1): stages idle this share of a step",
                       R1(jci_pp_bubble(s->pp, s->micro)), "", JC_ORIGIN_DERIVED,
                       "GPipe / 1F1B schedules (Huang et al. 2019; Narayanan et al. 2021, section 2.2)");
    }
    const jc_constant *c;
    if (s->host && s->host->n_accel > 0) {
        s->per_node = jci_bld_assume(&s->b, "parallel.per_node", jci_bld_str(&s->b, "devices per node: %s", s->host->id),
                                     R1(s->host->n_accel), "", JC_ORIGIN_HWDB, "the host's accelerators").central;
    } else {
        jc_range r;
        if ((st = jci_node_figure(&s->b, s->b.db, s->dev, JCI_NODE_DEVICES, "multi-device", &r))) return st;
        s->per_node = r.central;
    }
    /* the host's fabric where it has one (a PCIe server's GPUs through
     * its CPUs), else the device's node figures, else the fallbacks */
    const char *from;
    if ((st = jci_fabric_figure(&s->b, s->b.db, s->host, s->dev, JCI_LINK_BW, "multi-device", &s->link_bw, &from)))
        return st;
    if (s->G > s->per_node &&
        (st = jci_fabric_figure(&s->b, s->b.db, s->host, s->dev, JCI_NETWORK_BW, "multi-device", &s->net_bw, &from)))
        return st;
    if (s->tp > 1) {
        s->hidden = s->b.job->hidden;
        s->layers = s->params / (12 * s->hidden * s->hidden);
        jci_bld_assume(&s->b, "parallel.layers", jci_bld_str(&s->b, "layers = N / (12 d^2) at d = %s", FMT_N(s->hidden)),
                       R1(s->layers), "", JC_ORIGIN_DERIVED,
                       "Kaplan et al. 2020, eq. 2.1 (N = 12 n_layer d_model^2 for a dense transformer) and --hidden");
    }
    if (s->dp_steps > 0) {
        if ((st = jci_dp_overlap(&s->b, s->b.job->dp_overlap, "share of the backward pass the gradient all-reduce runs beside",
                                 &s->overlap)))
            return st;
        if ((st = dp_latency(s))) return st;
        if ((st = jci_bld_need_const(&s->b, "allreduce_grad_bytes_per_param", &c))) return st;
        if (jci_est_prec_bits(s->prec) >= 32)
            s->grad_bytes = jci_bld_assume(&s->b, "parallel.grad_bytes", "gradient bytes per parameter reduced (fp32 run)",
                                           R1(4), "B", JC_ORIGIN_DERIVED, "the run precision");
        else
            s->grad_bytes = jci_bld_const(&s->b, "allreduce_grad_bytes_per_param",
                                                "gradient bytes per parameter reduced", c);
    }
    return JC_OK;
}

/* Tensor-parallel all-reduces of the whole job on one device, s. */
static double tp_time(const est *s, int sc)
{
    if (s->tp <= 1 || !(s->tokens > 0)) return 0;
    double ab = jci_est_prec_bits(s->prec) / 8;
    double bw = jci_ring_bw(s->tp, s->per_node, jci_pick(s->link_bw, sc, JCI_LOWERS) * 1e9, jci_pick(s->net_bw, sc, JCI_LOWERS) * 1e9);
    /* every token of a data-parallel replica passes each of the stage's
     * layers: 2 all-reduces forward, 2 backward, of d values each */
    double bytes = s->tokens / s->dp * s->hidden * ab;
    return s->layers / s->pp * 4 * jci_allreduce_ring_s(s->tp, bytes, bw, 0);
}

double jci_est_parallel_wall(const est *s, int sc, double T_compute, double *comm_s)
{
    double T = T_compute;
    if (s->par_on) {
        double f = 1 / (1 - jci_pp_bubble(s->pp, s->micro));
        T = (T_compute + tp_time(s, sc)) * f;
        if (s->dp_steps > 0) {
            double k = dp_per_node(s);
            double bw = jci_ring_bw(s->dp, k, jci_pick(s->link_bw, sc, JCI_LOWERS) * 1e9, jci_pick(s->net_bw, sc, JCI_LOWERS) * 1e9);
            double bytes = s->grad_params * jci_pick(s->grad_bytes, sc, JCI_RAISES) / (s->tp * s->pp);
            double t_ar = jci_allreduce_ring_s(s->dp, bytes, bw, jci_pick(s->dp_lat, sc, JCI_RAISES));
            double bwd = T_compute / s->dp_steps * s->beta / (1 + s->beta + s->rc);
            T += s->dp_steps * jci_exposed_s(t_ar, bwd, jci_pick(s->overlap, sc, JCI_LOWERS));
        }
    }
    if (comm_s) *comm_s = T - T_compute;
    return T;
}
