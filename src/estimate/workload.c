/*
 * workload.c (estimate) - the work of an estimate: counted nodes of the model (or a
 * FLOP figure, or parameters x tokens), the batch, forward passes or
 * training steps, samples, tokens, how many of the devices a job keeps
 * busy at once, the optimizer's extra work, and the memory-capacity check.  Part of the estimate stage (estimate_int.h);
 * docs/energy-model.md section 1 is the arithmetic.
 */
#include "estimate/estimate_int.h"
#include "joulecast/model.h"

#include <stdio.h>
#include <string.h>

/* Training: backward factor and activation recomputation. */
static jc_status resolve_training(est *s)
{
    const jc_job *j = s->b.job;
    jc_status st;
    const jc_constant *c;
    if (given(j->backward_factor)) {
        s->beta = jci_bld_assume(&s->b, "backward_factor", "backward FLOPs / forward FLOPs", R1(j->backward_factor),
                         "", JC_ORIGIN_USER, "--backward-factor").central;
    } else {
        if ((st = jci_bld_need_const(&s->b, "backward_factor", &c))) return st;
        s->beta = jci_bld_const(&s->b, "backward_factor", "backward FLOPs / forward FLOPs", c).central;
    }
    s->rc = j->recompute ? 1 : 0;
    if (j->recompute)
        jci_bld_assume(&s->b, "recompute", "activation recomputation: extra forward passes", R1(1), "",
               JC_ORIGIN_USER, "--recompute");
    return JC_OK;
}

/* The factor that takes bytes stored at dtype dt to the run precision:
 * run bits / stored bits when the run is narrower, else 1; integer and
 * bool tensors (indices, shapes, masks) stay as stored. */
static double dtype_scale(const est *s, int dt)
{
    if (!jci_dtype_is_float(dt)) return 1;
    double run = jci_est_prec_bits(s->prec), bits = jc_dtype_bits(dt);
    return bits > 0 && run < bits ? run / bits : 1;
}

double jci_est_node_byte_scale(const est *s, const jc_counted_node *n)
{
    return dtype_scale(s, n->cost.arith_dtype);
}

/* The work of a counted model: one forward pass's FLOPs and bytes; a
 * partial count warns, or fails when no work is known. */
static jc_status resolve_counted(est *s)
{
    const jc_job *j = s->b.job;
    const jc_analysis *an = s->an;
    if (given(j->flops) || given(j->params))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "a model and --flops/--params both give the work; choose one");
    double f = 0, b = 0, scaled = 0;
    double by_dtype[JC_DT_COUNT_] = {0};   /* bytes per stored floating dtype */
    for (size_t i = 0; i < an->n_nodes; i++) {
        const jc_counted_node *n = &an->nodes[i];
        if (!n->counted) continue;
        double rep = n->cost.repeat > 0 ? (double)n->cost.repeat : 1;
        f += rep * ((double)n->cost.flops + (double)n->cost.special_ops);
        double nb = rep * ((double)n->cost.bytes_read + (double)n->cost.weight_bytes_read +
                           (double)n->cost.bytes_written);
        b += nb;
        scaled += nb * jci_est_node_byte_scale(s, n);
        int dt = n->cost.arith_dtype;
        if (dt > 0 && dt < JC_DT_COUNT_ && jci_dtype_is_float(dt)) by_dtype[dt] += nb;
    }
    int stored = 0;   /* the floating dtype most bytes are stored in */
    for (int dt = 1; dt < JC_DT_COUNT_; dt++)
        if (by_dtype[dt] > (stored ? by_dtype[stored] : 0)) stored = dt;
    if (an->partial) {
        /* every reason named, each with its remedy (never "partial ()") */
        char why[600];
        jc_analysis_partial_words(an, why, sizeof why);
        if (f <= 0)
            return jci_bld_fail(&s->b, JC_ERR_INCOMPLETE, "the model's work is unknown (%s)", why);
        jci_bld_warn(&s->b, "the count is partial (%s): the estimate is a lower bound of the work", why);
    }
    s->have_nodes = 1;
    s->fwd_flops = f;
    s->params = an->totals.params > 0 ? (double)an->totals.params : 0;
    jci_bld_assume(&s->b, "work.forward_flops", "FLOPs of one forward pass (2 x MACs + other arithmetic + transcendentals)",
           R1(f), "FLOP", JC_ORIGIN_MODEL, jci_bld_str(&s->b, "%s, counted", an->model->path));
    /* bytes: counted at the dtypes the file stores; each node's scaled
     * down to the run precision when it is stored wider (never up, never
     * twice: an fp16 model run at fp16 moves its bytes as counted) */
    s->byte_scale = stored ? dtype_scale(s, stored) : 1;   /* weights (memory check) */
    s->fwd_bytes = scaled;
    double ratio = b > 0 ? scaled / b : 1;
    const char *label = "bytes moved by one forward pass";
    if (ratio != 1)
        label = jci_bld_str(&s->b, "bytes moved by one forward pass (counted at %s, x%s for %s)",
                             stored ? jc_dtype_name(stored) : "the stored dtypes", FMT_N(ratio), jc_precision_name(s->prec));
    else if (stored && stored != JC_DT_FLOAT)
        label = jci_bld_str(&s->b, "bytes moved by one forward pass (counted at %s, as run at %s)",
                             jc_dtype_name(stored), jc_precision_name(s->prec));
    jci_bld_assume(&s->b, "work.forward_bytes", label, R1(s->fwd_bytes), "B", JC_ORIGIN_MODEL, "counted");
    s->e->flops_per_pass = f;
    return JC_OK;
}

double jci_est_steps(const est *s)
{
    return given(s->dev_batch) ? s->passes / s->G : s->passes;
}

double jci_est_parallel_devices(const est *s)
{
    double G = s->G;
    /* training: a step's batch has a sample per data-parallel replica at
     * least (jci_dp_batch_check refuses fewer), so every device works */
    if (!s->have_nodes || !(s->passes >= 1) || !given(s->batch) || s->b.job->mode == JC_MODE_TRAINING) return G;
    /* --scenario singlestream / multistream: the next query is issued when
     * the last one completes, so one pass runs at a time (issue 41) */
    if (jc_scenario_serial(s->b.job->scenario)) return 1;
    return s->passes / ceil(s->passes / G);   /* passes per wave */
}

/* The work given directly: --flops F, or --params N with tokens. */
static jc_status resolve_given(est *s)
{
    const jc_job *j = s->b.job;
    int train = j->mode == JC_MODE_TRAINING;
    if (given(j->flops)) {
        if (given(j->params)) return jci_bld_fail(&s->b, JC_ERR_USAGE, "--flops and --params both give the work; choose one");
        s->total_flops = jci_bld_assume(&s->b, "work.total_flops", "total FLOPs of the job (given)", R1(j->flops),
                                "FLOP", JC_ORIGIN_USER, "--flops").central;
    } else if (given(j->params)) {
        double N = given(j->active_params) ? j->active_params : j->params;
        double D = j->tokens;
        if (!given(D) && !train && given(j->requests) && given(j->tokens_per_request))
            D = j->requests * j->tokens_per_request;
        if (!given(D) || !(D > 0))
            return jci_bld_fail(&s->b, JC_ERR_USAGE, "--params needs --tokens D (tokens processed), or for inference "
                        "--requests R --tokens-per-request T");
        double per_tok = train ? 2 * (1 + s->beta) : 2;
        s->params = j->params;
        s->tokens = D;
        jci_bld_assume(&s->b, "work.params", given(j->active_params) ? "active parameters (MoE)" : "parameters",
               R1(N), "", JC_ORIGIN_USER, given(j->active_params) ? "--active-params" : "--params");
        jci_bld_assume(&s->b, "work.tokens", "tokens", R1(D), "", given(j->tokens) ? JC_ORIGIN_USER : JC_ORIGIN_DERIVED,
               given(j->tokens) ? "--tokens" : "--requests x --tokens-per-request");
        s->total_flops = jci_bld_assume(&s->b, "work.total_flops",
                                train ? jci_bld_str(&s->b, "%s x N x D (2 forward + 2 x %s backward)", FMT_N(per_tok), FMT_N(s->beta))
                                      : "2 x N x D (forward only)",
                                R1(per_tok * N * D), "FLOP", JC_ORIGIN_DERIVED,
                                "Kaplan et al. 2020 approximation, attention FLOPs excluded").central;
        if (train && given(j->batch)) {
            /* the global batch: B samples of L tokens per optimizer step */
            if (!given(j->seq))
                return jci_bld_fail(&s->b, JC_ERR_USAGE, "--batch with --params needs --seq L (tokens per sample)");
            s->batch = jci_bld_assume(&s->b, "batch", "global batch: samples per optimizer step", R1(j->batch), "",
                                      JC_ORIGIN_USER, "--batch").central;
            s->e->batch = s->batch;
            s->passes = ceil(D / (j->batch * j->seq));
            jci_bld_assume(&s->b, "steps", "optimizer steps = ceil(tokens / (batch x seq))", R1(s->passes), "",
                           JC_ORIGIN_DERIVED, "--tokens / (--batch x --seq)");
        }
    } else if (!given(s->known_T)) {
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "no work: give a MODEL.onnx, --flops F, or --params N --tokens D "
                    "(or a known runtime with --hours / --device-hours)");
    }
    return JC_OK;
}

/* The batch: --batch, or the one the model was counted at (its first
 * input's first dim), or 1. */
static jc_status resolve_batch(est *s, double *out)
{
    const jc_job *j = s->b.job;
    const jc_analysis *an = s->an;
    /* the batch the model was counted at: its first input's first dim */
    const jc_graph *g = an->model->graph;
    const jc_value *in0 = g->n_inputs ? &g->values[g->inputs[0]] : NULL;
    const jc_tshape *t0 = in0 && an->n_insts ? &an->insts[0].values[g->inputs[0]] : NULL;
    double counted = t0 && t0->rank > 0 && t0->dims[0].v > 0 ? (double)t0->dims[0].v : NAN;
    const char *bsym = in0 && in0->rank > 0 ? in0->dims[0].sym : NULL;
    double b;
    int dflt = 0;   /* the batch is the default 1, no option gave it */
    if (given(j->batch)) {
        b = j->batch;
        double db = jc_job_device_batch(j);
        if (given(counted) && counted == db && db != b) {
            /* data-parallel training: the graph counted at one device's share */
            s->dev_batch = db;
            jci_bld_assume(&s->b, "batch.device", "samples per device per step (the graph's kernels are timed at "
                           "this batch)", R1(db), "", JC_ORIGIN_DERIVED,
                           jci_bld_str(&s->b, "ceil(--batch %s / --count %s): data parallelism splits each step's "
                                       "batch over the devices", FMT_N(b), FMT_N(s->G)));
        } else if (given(counted) && counted != b)
            return jci_bld_fail(&s->b, JC_ERR_USAGE, "--batch %s, but the model was counted with its input '%s' at "
                        "batch %s (a --dim or --input binding?): give one batch size", FMT_N(b), in0->name, FMT_N(counted));
        jci_bld_assume(&s->b, "batch", "batch size", R1(b), "", JC_ORIGIN_USER, "--batch");
    } else if (given(jc_scenario_batch(j->scenario))) {
        b = jc_scenario_batch(j->scenario);
        if (given(counted) && counted != b)
            return jci_bld_fail(&s->b, JC_ERR_USAGE, "--scenario %s runs batch %s, but the model was counted with its "
                                "input '%s' at batch %s (a --dim or --input binding?): give one batch size", j->scenario,
                                FMT_N(b), in0->name, FMT_N(counted));
        jci_bld_assume(&s->b, "batch", jci_bld_str(&s->b, "batch size: samples per query of MLPerf's %s scenario",
                                                   j->scenario),
                       R1(b), "", JC_ORIGIN_DERIVED, jci_bld_str(&s->b, "--scenario %s (MLPerf Inference rules: "
                                                                 "SingleStream 1, MultiStream 8 samples per query)",
                                                                 j->scenario));
    } else if (given(counted) && bsym && an->batch_defaulted) {
        b = counted;
        dflt = 1;
        jci_bld_assume(&s->b, "batch", jci_bld_str(&s->b, "batch size: input '%s' dim '%s' counted at 1", in0->name, bsym),
               R1(b), "", JC_ORIGIN_DEFAULT, "1: neither --batch nor a --dim/--input binding gives it (give --batch B)");
    } else if (given(counted) && bsym) {
        b = counted;
        jci_bld_assume(&s->b, "batch", jci_bld_str(&s->b, "batch size: input '%s' dim '%s' as counted", in0->name, bsym), R1(b), "",
               JC_ORIGIN_USER, "a --dim/--input binding");
    } else if (given(counted)) {
        b = counted;
        jci_bld_assume(&s->b, "batch", jci_bld_str(&s->b, "batch size: input '%s' has a fixed batch dim", in0->name), R1(b), "",
               JC_ORIGIN_MODEL, "the model file");
    } else {
        b = 1;
        dflt = 1;
        jci_bld_assume(&s->b, "batch", "batch size", R1(1), "", JC_ORIGIN_DEFAULT, "1 (give --batch)");
    }
    if (dflt && j->mode == JC_MODE_TRAINING)   /* said, not silent */
        jci_bld_warn(&s->b, "no --batch: training at batch 1 is assumed (one sample per optimizer step, far below "
                     "what a training run uses); give --batch B");
    s->e->batch = b;
    *out = b;
    return JC_OK;
}

/* Training steps of a counted model: samples (or tokens / seq) and epochs. */
static jc_status resolve_steps(est *s, double b)
{
    const jc_job *j = s->b.job;
    double S = j->samples;
    if (!given(S) && given(j->tokens)) {
        if (!given(j->seq) || j->seq < 1)
            return jci_bld_fail(&s->b, JC_ERR_USAGE, "--tokens with a model needs --seq L (tokens per sample)");
        S = j->tokens / j->seq;
        s->tokens = j->tokens;
        jci_bld_assume(&s->b, "samples", "samples = tokens / seq", R1(S), "", JC_ORIGIN_DERIVED, "--tokens / --seq");
    } else if (given(S)) {
        jci_bld_assume(&s->b, "samples", "training samples per epoch", R1(S), "", JC_ORIGIN_USER, "--samples");
    }
    if (!given(S)) {
        if (!given(s->known_T))
            return jci_bld_fail(&s->b, JC_ERR_USAGE, "training needs --samples S (or --tokens T --seq L)");
        S = b;
    }
    if (S < b) jci_bld_warn(&s->b, "batch %s is larger than the %s samples of the data set", FMT_N(b), FMT_N(S));
    double E = given(j->epochs) ? j->epochs : 1;
    jci_bld_assume(&s->b, "epochs", "epochs", R1(E), "", given(j->epochs) ? JC_ORIGIN_USER : JC_ORIGIN_DEFAULT,
           given(j->epochs) ? "--epochs" : "1 (give --epochs)");
    double steps = ceil(S / b) * E;
    s->samples = S * E;
    jci_bld_assume(&s->b, "steps", "optimizer steps = ceil(samples / batch) x epochs", R1(steps), "",
           JC_ORIGIN_DERIVED, "");
    /* passes of the counted graph: one per device per step where it is
     * counted at one device's batch (jci_est_steps) */
    s->passes = given(s->dev_batch) ? steps * s->G : steps;
    return JC_OK;
}

/* Forward passes of a counted model: requests / batch. */
static jc_status resolve_passes(est *s, double b)
{
    const jc_job *j = s->b.job;
    double Rq = given(j->requests) ? j->requests : b;
    jci_bld_assume(&s->b, "requests", "inference requests", R1(Rq), "",
           given(j->requests) ? JC_ORIGIN_USER : JC_ORIGIN_DEFAULT,
           given(j->requests) ? "--requests" : "one batch (give --requests)");
    if (!given(j->requests) && !given(s->known_T))   /* said, not silent */
        jci_bld_warn(&s->b, "no --requests: one batch of %s request%s (one forward pass) is estimated; give "
                     "--requests N for the job's count", FMT_N(Rq), Rq == 1 ? "" : "s");
    s->passes = ceil(Rq / b);
    s->samples = Rq;
    if (given(j->tokens_per_request)) s->tokens = Rq * j->tokens_per_request;
    jci_bld_assume(&s->b, "passes", "forward passes = ceil(requests / batch)", R1(s->passes), "",
           JC_ORIGIN_DERIVED, "");
    return JC_OK;
}

/* Training with a model or parameters: the optimizer's FLOPs and bytes per
 * parameter per step. */
static jc_status resolve_optimizer(est *s)
{
    const jc_job *j = s->b.job;
    jc_status st;
    const char *opt = j->optimizer ? j->optimizer : "adamw";
    const char *fid, *bid;
    if (!jci_strcasecmp(opt, "adamw") || !jci_strcasecmp(opt, "adam")) {
        fid = "optimizer_adamw_flops_per_param";
        bid = "optimizer_adamw_bytes_per_param";
    } else if (!jci_strcasecmp(opt, "sgd")) {
        fid = "optimizer_sgd_flops_per_param";
        bid = "optimizer_sgd_bytes_per_param";
    } else if (!jci_strcasecmp(opt, "none")) {
        fid = bid = NULL;
    } else {
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--optimizer must be adamw, adam, sgd or none (got '%s')", opt);
    }
    if (fid) {
        const jc_constant *c;
        if ((st = jci_bld_need_const(&s->b, fid, &c))) return st;
        s->opt_flops_pp = jci_bld_const(&s->b, fid, jci_bld_str(&s->b, "%s FLOPs per parameter per step", opt), c).central;
        if ((st = jci_bld_need_const(&s->b, bid, &c))) return st;
        s->opt_bytes_pp = jci_bld_const(&s->b, bid, jci_bld_str(&s->b, "%s bytes per parameter per step", opt), c).central;
    }
    return JC_OK;
}

/* The work: counted nodes, or a FLOP figure; then passes / steps and the
 * optimizer. */
jc_status jci_est_resolve_work(est *s)
{
    const jc_job *j = s->b.job;
    jc_status st;
    int train = j->mode == JC_MODE_TRAINING;

    if (train && (st = resolve_training(s))) return st;
    if (jci_est_step_wanted(j)) {
        /* the training step model: the optimizer's bytes first (its step) */
        if ((st = resolve_optimizer(s))) return st;
        return jci_est_resolve_step(s);
    }
    if (s->an) {
        if ((st = resolve_counted(s))) return st;
    } else if ((st = resolve_given(s))) {
        return st;
    }

    /* passes / steps */
    if (s->have_nodes) {
        double b = 1;
        if ((st = resolve_batch(s, &b))) return st;
        s->batch = b;
        if ((st = train ? resolve_steps(s, b) : resolve_passes(s, b))) return st;
    } else if (given(s->total_flops)) {
    if (train && given(j->samples)) s->samples = j->samples * (given(j->epochs) ? j->epochs : 1);
    if (!train && given(j->requests)) s->samples = j->requests;
    if (!train && given(j->requests) && given(j->tokens_per_request))
        s->tokens = j->requests * j->tokens_per_request;
    }

    /* optimizer (training with a model or params) */
    if (train && (s->have_nodes || given(j->params)) && (st = resolve_optimizer(s))) return st;
    if (train && (st = jci_est_resolve_overhead(s, s->params, 0))) return st;   /* evaluation, checkpoints */
    return JC_OK;
}

/* Device memory the job needs, in every mode that knows the parameter
 * count (a model, or --params): weights at the run's precision; for
 * training also gradients (same size) and the optimizer state: an fp32
 * master copy below fp32 plus Adam's two moments or SGD's momentum, in
 * fp32 (for mixed-precision Adam 2 + 2 + 12 = 16 bytes per parameter:
 * Rajbhandari et al., "ZeRO", SC'20, arXiv:1910.02054, section 3.1); with
 * a model, the peak activations too (twice for training: kept for the
 * backward pass).  A warning when it exceeds the devices' memory. */
void jci_est_check_memory(est *s)
{
    const jc_job *job = s->b.job;
    const jc_analysis *an = s->an;
    double G = s->G;
    if (!s->dev->memory_gb.present || !(s->params > 0) || s->step_on) return;   /* the step model lays it out */
    int train = job->mode == JC_MODE_TRAINING;
    double bits = jci_est_prec_bits(s->prec), wpp = bits / 8;
    double P = s->params;
    double weights = s->have_nodes ? (double)an->totals.weight_bytes * s->byte_scale : P * wpp;
    double grads = 0, opt = 0, act = 0;
    const char *opt_name = job->optimizer ? job->optimizer : "adamw";
    if (train) {
        grads = weights;
        double master = bits < 32 ? 4 : 0, moments = 0;
        if (!jci_strcasecmp(opt_name, "adamw") || !jci_strcasecmp(opt_name, "adam")) moments = 8;
        else if (!jci_strcasecmp(opt_name, "sgd")) moments = 4;
        else master = 0;   /* none: no optimizer state */
        opt = P * (master + moments);
    }
    if (s->have_nodes && an->totals.peak_activation_bytes > 0)
        act = (double)an->totals.peak_activation_bytes * s->byte_scale * (train ? 2 : 1);
    double need = weights + grads + opt + act;
    double cap = s->dev->memory_gb.value * 1e9 * G;
    if (need > cap) {
        char parts[256];
        int k = snprintf(parts, sizeof parts, "weights %.1f GB (%s)", weights / 1e9, jc_precision_name(s->prec));
        if (train)
            k += snprintf(parts + k, sizeof parts - (size_t)k, " + gradients %.1f GB + %s state %.1f GB",
                          grads / 1e9, opt_name, opt / 1e9);
        if (act > 0) snprintf(parts + k, sizeof parts - (size_t)k, " + activations %.1f GB", act / 1e9);
        jci_bld_warn(&s->b, "memory: %s = %.1f GB, but %s x %s hold %.1f GB: at least %.0f devices%s would be "
                        "needed%s",
                     parts, need / 1e9, FMT_N(G), s->dev->id, cap / 1e9, ceil(need / (s->dev->memory_gb.value * 1e9)),
                     s->have_nodes ? " (or a smaller batch)" : "",
                     train ? " (training state per ZeRO, Rajbhandari et al. 2020, section 3.1)" : "");
    }
}

/* The options that do nothing in this job, refused by name. */
jc_status jci_est_check_options(est *s)
{
    const jc_job *j = s->b.job;
    int train = j->mode == JC_MODE_TRAINING;
    int known_T = given(j->hours) || given(j->device_hours);
    /* --train --params: --batch with --seq counts the steps (optimizer,
     * gradient all-reduce) */
    int step_batch = (train && given(j->params) && given(j->seq)) || jci_est_step_wanted(j);
    if (!s->an && given(j->batch) && (given(j->flops) || given(j->params)) && !step_batch)
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--batch has no effect with --%s: the work given does not depend on "
                            "the batch size (give a MODEL.onnx to use one%s)", given(j->flops) ? "flops" : "params",
                            given(j->params) && train ? ", or --seq L with --train --params: B x L tokens per "
                                                        "step count the steps" : "");
    if (!s->an && given(j->params) && given(j->seq) && !(train && given(j->batch)) && !jci_est_step_wanted(j))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--seq with --params only sizes a training step: give --train --batch B "
                            "too (B x L tokens per step), or drop it");
    /* with a known runtime, the utilisation and scaling only shape the
     * busy fraction of known work (#18 item 1); without work they do
     * nothing */
    int work = s->an || given(j->flops) || given(j->params);
    if (known_T && !work && given(j->utilization))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--utilization has no effect with --%s and no work (model, --flops "
                            "or --params): nothing for the devices to be busy with",
                            given(j->hours) ? "hours" : "device-hours");
    if (known_T && !work && given(j->scaling))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--scaling has no effect with --%s and no work (model, --flops "
                            "or --params)", given(j->hours) ? "hours" : "device-hours");
    jc_diag md;
    if (jc_job_check_mode(j, &md)) return jci_bld_fail(&s->b, JC_ERR_USAGE, "%s", md.msg);
    if (train && !jci_est_step_wanted(j)) {
        /* the training step model's own options do nothing elsewhere */
        static const char *const names[] = {"heads", "total-params", "ep", "cp", "zero", "virtual-stages",
                                            "distill-teacher", "mtp-heads", "long-seq", "long-tokens", "goodput"};
        const double v[] = {j->heads, j->total_params, j->ep, j->cp, j->zero, j->virtual_stages,
                            j->distill_teacher, j->mtp_heads, j->long_seq, j->long_tokens, j->goodput};
        for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
            if (given(v[i]))
                return jci_bld_fail(&s->b, JC_ERR_USAGE, "--%s is an option of the training step model: give "
                                    "--hf-config FILE, or --params N --layers L --hidden H --heads A --seq S",
                                    names[i]);
    }
    if (j->mode != JC_MODE_GENERATION && (j->prompt_dim || j->past_dim))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--%s names a dim of an ONNX decoder for the serving model: add "
                            "--generate (--mode generation), or bind dims with --dim NAME=V",
                            j->prompt_dim ? "prompt-dim" : "past-dim");
    if (given(j->ci) && j->ci_dataset)
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--ci-dataset has no effect with --ci: the intensity is given");
    if (j->per_node && !s->an)
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--per-node needs a MODEL.onnx: without one there are no nodes");
    if (given(j->lifetime_years) && !j->embodied)
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--lifetime only amortises embodied emissions: add --embodied, or drop it");
    if (train && !jci_est_step_wanted(j) && s->an && j->finetune && !strcmp(j->finetune, "full"))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--finetune full of a MODEL.onnx is --train itself (its counted "
                            "training pass on the samples given): drop --finetune; LoRA and QLoRA need the "
                            "architecture (--hf-config FILE or --params N)");
    if (train && !jci_est_step_wanted(j) && (j->finetune || j->lora_targets || given(j->lora_rank)))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--%s is an option of the training step model: give --hf-config "
                            "FILE or --params N (without --utilization or a runtime)",
                            j->finetune ? "finetune" : j->lora_targets ? "lora-targets" : "lora-rank");
    if (given(j->seq) && !given(j->tokens) && !(j->finetune && given(j->samples)))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--seq only turns --tokens into samples: give --tokens T too, or drop it");
    return JC_OK;
}

/* ---- the scenario's latency (issue 41) ---------------------------------------------- */

/* With --scenario, the latency of one query: the wall time of one forward
 * pass at the scenario's batch on one device (the job's wall time over
 * its waves of passes, one pass a wave for singlestream and multistream;
 * queueing while a Server batch forms is not modelled).  --latency-bound (server): a query slower than the bound is
 * refused (JC_ERR_USAGE), naming the latency and the batch. */
jc_status jci_est_scenario_latency(est *s)
{
    const jc_job *j = s->b.job;
    jc_estimate *e = s->e;
    e->scenario = j->scenario;
    e->latency_s = R1(NAN);
    if (!j->scenario) return JC_OK;
    if (!s->have_nodes || !(s->passes >= 1))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--scenario %s needs a model's forward passes (a MODEL.onnx with "
                            "--requests): the latency of a query is one pass's time", j->scenario);
    double waves = s->passes / jci_est_parallel_devices(s);
    e->latency_s = (jc_range){e->wall_hours.low * JCI_S_PER_H / waves, e->wall_hours.central * JCI_S_PER_H / waves,
                              e->wall_hours.high * JCI_S_PER_H / waves};
    if (given(j->latency_bound_ms) && e->latency_s.central * 1e3 > j->latency_bound_ms)
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--scenario server: a query at batch %s takes %.4g ms, over "
                            "--latency-bound %s ms: give a smaller --batch", FMT_N(s->batch),
                            e->latency_s.central * 1e3, FMT_N(j->latency_bound_ms));
    return JC_OK;
}
