/*
 * energy.c (estimate) - time, power and energy of a graph's estimate: the device's
 * numbers (peaks, bandwidth, TDP, idle, utilisation, activity), host
 * power, the place (carbon intensity and its spread, PUE), the
 * per-scenario arithmetic (the nodes' time and power from timing.c, the
 * devices' and hosts' energy), and the result from the three scenarios
 * through the account (account.c: facility energy, emissions, ranges).
 * Part of the estimate stage (estimate_int.h); the equations are
 * docs/energy-model.md.
 */
#include "estimate/estimate_int.h"
#include "estimate/account.h"
#include "estimate/parallel.h"
#include "estimate/vm.h"

#include <stdio.h>
#include <string.h>

/* ---- device, host, place ------------------------------------------------------ */

/* The end-to-end utilisation (MFU) of a job without a graph, or the
 * user's override; in params mode scaled by the model size. */
static jc_status resolve_util(est *s)
{
    const jc_job *j = s->b.job;
    const jc_device *dev = s->dev;
    jc_status st;
    /* a known runtime without any work figure: nothing to model */
    if (given(s->known_T) && !s->an && !given(j->flops) && !given(j->params)) return JC_OK;
    if (jci_est_step_wanted(j)) return JC_OK;   /* the training step model gives it (train_step.c) */
    if (given(j->utilization)) {
        /* in [1e-6, 1] (job_keys.def): below 1e-6 (0.0001 % of peak) no
         * measured job runs, such a value only makes the times absurd */
        s->util = jci_bld_assume(&s->b, "utilization",
                                 s->an ? "achieved fraction of dense peak on matrix nodes (MFU; replaces the runtime profile's)"
                                       : "achieved fraction of dense peak (MFU)",
                                 R1(j->utilization), "", JC_ORIGIN_USER, "--utilization");
        s->util_user = 1;
        return JC_OK;
    }
    const jc_sourced *u = j->mode == JC_MODE_TRAINING ? &dev->util_training : &dev->util_inference;
    if (s->an) {
        /* the graph and the runtime profile give the time; a calibrated
         * (measured) device utilisation replaces the matrix efficiency,
         * as --utilization does */
        if (u->present && u->measured) {
            s->util = jci_bld_assume(&s->b, "utilization",
                                     jci_bld_str(&s->b, "achieved fraction of dense peak on matrix nodes, %s, calibrated "
                                                  "(replaces the runtime profile's)", jc_mode_name(j->mode)),
                                     jci_sourced_range(u), "", JC_ORIGIN_HWDB, jci_bld_cite(&s->b, u));
            s->util_user = 1;
        }
        return JC_OK;
    }
    jc_range r;
    if (u->present) {
        r = jci_bld_assume(&s->b, "utilization", jci_bld_str(&s->b, "achieved fraction of dense peak, %s, large models (MFU)", jc_mode_name(j->mode)),
                           jci_sourced_range(u), "", JC_ORIGIN_HWDB, jci_bld_cite(&s->b, u));
    } else {
        /* a named fallback: the class default with a wide range */
        const char *id = j->mode == JC_MODE_TRAINING ? "utilization_training_default"
                                                      : "utilization_inference_default";
        const jc_constant *c;
        if ((st = jci_bld_need_const(&s->b, id, &c))) return st;
        r = jci_bld_const(&s->b, "utilization",
                                jci_bld_str(&s->b, "achieved fraction of dense peak, %s: FALLBACK (%s has no published figure)",
                                             jc_mode_name(j->mode), dev->id), c);
        jci_bld_warn(&s->b, "device %s has no published %s utilisation: the database's fallback %.2f [%.2f-%.2f] is used "
                     "(give --utilization, or calibrate)", dev->id, jc_mode_name(j->mode), r.central, r.low, r.high);
    }
    s->size_factor = 1;
    if (given(j->params) && j->params > 0) {
        /* smaller models run further below peak: u x 1 / (1 + N_half / N) */
        const jc_constant *c;
        if ((st = jci_bld_need_const(&s->b, "utilization_size_half_params", &c))) return st;
        double nh = jci_bld_const(&s->b, "utilization_size_half_params",
                                        "model size at which the utilisation is half its large-model value", c).central;
        double N = given(j->active_params) ? j->active_params : j->params;
        s->size_factor = 1 / (1 + nh / N);
        jci_bld_assume(&s->b, "utilization.size_factor",
                       jci_bld_str(&s->b, "utilisation size factor 1 / (1 + N_half / N) at N = %s", FMT_N(N)),
                       R1(s->size_factor), "", JC_ORIGIN_DERIVED, "utilization_size_half_params and --params");
        r.low *= s->size_factor;
        r.central *= s->size_factor;
        r.high *= s->size_factor;
    }
    s->util = r;
    return JC_OK;
}

/* The runtime profile (--runtime): which nodes cost a kernel, the launch
 * cost and the achievable efficiencies. */
static jc_status resolve_runtime(est *s)
{
    const jc_job *j = s->b.job;
    jc_status st;
    jci_runtime r = JCI_RUNTIME_EAGER;
    int train = j->mode == JC_MODE_TRAINING;
    char list[512], others[512] = "", nums[512] = "", aliases[128];
    if (j->runtime) {
        jci_runtime_list((int)s->dev->kind, train, list, sizeof list);   /* the refusals' text */
        r = jci_runtime_parse(j->runtime);
        if (r == JCI_RUNTIME_COUNT)
            return jci_bld_fail(&s->b, JC_ERR_USAGE, "--runtime must be %s for %s on %s (former names: %s) (got "
                                "'%s')", list, train ? "training" : "inference", s->dev->id,
                                jci_runtime_aliases(aliases, sizeof aliases), j->runtime);
        if (!jci_runtime_fits(r, (int)s->dev->kind, train))
            return jci_bld_fail(&s->b, JC_ERR_USAGE, "--runtime %s (%s) does not run %s on %s: give %s",
                                j->runtime, jci_runtime_software(r), train ? "training" : "inference", s->dev->id,
                                list);
    }
    if (given(s->known_T) && !s->an && !given(j->flops) && !given(j->params)) {
        if (j->runtime)
            jci_bld_warn(&s->b, "--runtime %s has no effect with a known runtime and no work (--hours / --device-hours "
                         "without a model, --flops or --params)", j->runtime);
        return JC_OK;
    }
    if ((st = jci_eff_resolve(s->b.db, r, s->dev->kind == JC_DEVICE_CPU, &s->eff, s->b.d)) ||
        (st = jci_eff_tensor_matrix(s->b.db, (int)jci_est_prec_bits(s->prec), &s->eff, s->b.d)))
        return st;
    s->eff_on = 1;
    if (!s->b.quiet) {   /* the assumption's text: a quiet run (builder.h) reads its figures alone */
        jci_runtime_list_except((int)s->dev->kind, train, r, others, sizeof others);
        jci_runtime_numbered(nums, sizeof nums);
    }
    jci_bld_assume(&s->b, "runtime", jci_bld_str(&s->b, "runtime profile: %s, %s (%s)", jci_runtime_name(r),
                                                 jci_runtime_software(r), nums),
                   R1((double)r), "", j->runtime ? JC_ORIGIN_USER : JC_ORIGIN_DEFAULT,
                   !j->runtime ? jci_bld_str(&s->b, "pytorch by default: op-by-op framework execution (give --runtime "
                                             "%s)", others)
                   : jci_runtime_is_alias(j->runtime)
                       ? jci_bld_str(&s->b, "--runtime %s: the former name of %s (an alias)", j->runtime, jci_runtime_name(r))
                       : "--runtime");
    const char *const labels[JCI_EFF_N] = {
        "achievable fraction of dense peak, large matrix kernels", "achievable fraction of vector peak",
        "achievable fraction of memory bandwidth, large transfers",
        s->eff.cpu_path ? "per-kernel call cost on the CPU (added to each kernel's time)"
                               : "floor on one kernel's time (launch)",
        "work (as time at peak) a matrix kernel needs to fill the device",
        "memory latency per kernel (achieved bandwidth vs transfer size)", "tile of the output's M dim",
        "tile of the output's N dim", "efficiency factor for K or N off the Tensor Core granule",
        "backward kernels' achieved fraction of the forward kernel model's speed",
        "host cost of issuing one dense convolution op (a floor on its kernel)",
        "host cost of issuing one grouped or depthwise convolution op (a floor on its kernel)",
        "host cost of issuing one matrix-product op (a floor on its kernel)",
        "host cost of issuing one activation, elementwise or reduction op or side kernel (a floor on its kernel)",
        "host cost of issuing one data-movement op that runs a kernel (a floor on its kernel)"};
    int step = jci_est_step_wanted(j);   /* the training step model times GEMMs at their shapes */
    for (int i = 0; i < JCI_EFF_N; i++) {
        /* without a graph: the optimizer's traffic and the memory-bound share */
        if (!s->an && !step && i != JCI_EFF_ETA_BW && i != JCI_EFF_ETA_MATRIX) continue;
        if ((step && (i == JCI_EFF_ETA_VECTOR || i == JCI_EFF_LAT_S)) || (i == JCI_EFF_LAUNCH_S && s->dev->kind != JC_DEVICE_GPU && !s->eff.cpu_path)) continue;
        if (i >= JCI_EFF_OP_CONV && !(s->an && s->eff.op_costs && s->dev->kind == JC_DEVICE_GPU && !s->util_user))
            continue;
        if (i == JCI_EFF_ETA_BWD && !(s->an && j->mode == JC_MODE_TRAINING && !s->util_user &&
                                     s->eff.kind != JCI_RTK_ENGINE)) continue;
        if (s->util_user && (i == JCI_EFF_ETA_MATRIX || i == JCI_EFF_FILL_S || i == JCI_EFF_TILE_M ||
                             i == JCI_EFF_TILE_N || i == JCI_EFF_UNALIGNED)) continue;
        s->eff.v[i] = jci_bld_const(&s->b, s->eff.id[i], labels[i], s->eff.src[i]);   /* as --pin sets it */
    }
    if ((s->an || step) && !s->util_user && s->dev->kind == JC_DEVICE_GPU) {
        /* wave quantisation needs the SM count (the device's sm_count) */
        if (s->dev->sm_count.present)
            s->sms = jci_bld_assume(&s->b, "device.sm_count", "streaming multiprocessors (wave quantisation of matrix kernels)",
                                    R1(s->dev->sm_count.value), "SMs", JC_ORIGIN_HWDB,
                                    jci_bld_cite(&s->b, &s->dev->sm_count)).central;
        else
            jci_bld_warn(&s->b, "device %s has no sm_count in the database: matrix kernels carry no wave "
                         "quantisation", s->dev->id);
        /* a kernel reads an input its predecessor wrote from the L2 when
         * it fits there (the device's l2_mb), a framework's or an engine's */
        if (s->an && s->dev->l2_mb.present)
            s->l2 = jci_bld_assume(&s->b, "device.l2_mb", "L2 cache (an input the previous kernel wrote and no "
                                   "larger than this is read from it, not from DRAM)",
                                   R1(s->dev->l2_mb.value), "MB", JC_ORIGIN_HWDB,
                                   jci_bld_cite(&s->b, &s->dev->l2_mb)).central * 1048576.0;
    }
    /* a dataflow accelerator's compiled program keeps a kernel's
     * activations in its on-chip memory (the device's l2_mb: the Cloud AI
     * 100's VTCM and L2), running the batch in sub-batches whose
     * activations fit there (timing.c, efficiency.c) */
    if (s->an && !s->util_user && s->dev->kind == JC_DEVICE_ACCELERATOR && s->eff.kind == JCI_RTK_ENGINE &&
        s->dev->l2_mb.present)
        s->l2 = jci_bld_assume(&s->b, "device.l2_mb", "on-chip memory (a kernel's activations, per sample no larger "
                               "than this, stay on chip: the compiled program runs the batch in sub-batches that "
                               "fit; weights stream from DRAM)", R1(s->dev->l2_mb.value), "MB", JC_ORIGIN_HWDB,
                               jci_bld_cite(&s->b, &s->dev->l2_mb)).central * 1048576.0;
    if (given(j->scaling)) {
        s->scaling = jci_bld_assume(&s->b, "scaling", "multi-device scaling efficiency", R1(j->scaling), "",
                                    JC_ORIGIN_USER, "--scaling").central;
    } else {
        s->scaling = jci_bld_assume(&s->b, "scaling", "multi-device scaling efficiency", R1(1), "",
                                    JC_ORIGIN_DEFAULT,
                                    "1: published utilisation figures are end to end, scaling losses included").central;
    }
    return JC_OK;
}

/* The power model of the roofline method: power from utilisation, with
 * the activity fallback for a known runtime without any work figure.  The
 * other methods with a graph's kernels take it for the clocks the power
 * limit leaves (the time is the same whatever charges the energy). */
static jc_status resolve_power(est *s)
{
    if (given(jci_est_fixed_power(s))) return JC_OK;
    const jc_job *j = s->b.job;
    const jc_device *dev = s->dev;
    jc_status st;
    if (j->method != JC_METHOD_ROOFLINE) {
        /* a graph's kernels, or a job given by its FLOPs (given_flops_time) */
        int work = s->an ? s->eff_on : given(j->flops) || given(j->params);
        if (!work || s->util_user || dev->kind != JC_DEVICE_GPU || !(s->tdp.central > 0)) return JC_OK;
        if ((st = jci_power_setup(&s->b, s->b.db, dev, s->bw, s->idle, s->tdp, j->power_limit_w, 0, &s->pw))) return st;
        s->pw_clk = 1;
        return JC_OK;
    }
    if ((st = jci_power_setup(&s->b, s->b.db, dev, s->bw, s->idle, s->tdp, j->power_limit_w,
                              s->an && dev->kind == JC_DEVICE_GPU, &s->pw))) return st;
    s->pw_on = 1;
    if (given(s->known_T) && !s->an && !given(j->flops) && !given(j->params) && !given(j->gpu_usage)) {
        /* nothing says how busy the device is: the published activity
         * (--gpu-usage says it: the power model at that usage instead) */
        const char *id = j->mode == JC_MODE_TRAINING
            ? (dev->kind == JC_DEVICE_TPU ? "activity_training_tpu" : "activity_training_gpu")
            : "activity_inference_gpu";
        const jc_constant *c;
        if ((st = jci_bld_need_const(&s->b, id, &c))) return st;
        s->act = jci_bld_const(&s->b, id, "power activity: (P - idle) / (TDP - idle) (no work figure: "
                                     "published average for the workload class)", c);
    }
    return JC_OK;
}

/* What --power-limit does to the methods that charge their own power:
 * the tdp method's power per device is its TDP, or the limit where that
 * is lower (a capped device draws no more than its cap, whatever the
 * mode); the joules-per-op method keeps the limit (s->jop_limit) for
 * jop_limit_note.  The limit is checked against the device's range, by
 * the power model where resolve_power set one up for the clocks, else
 * here. */
static jc_status resolve_limit_charge(est *s)
{
    const jc_job *j = s->b.job;
    s->tdp_charge = s->tdp.central;
    s->jop_limit = 0;
    if (j->method == JC_METHOD_ROOFLINE || !given(j->power_limit_w) || given(jci_est_fixed_power(s))) return JC_OK;
    double lim = s->pw.limit_w;
    jc_status st;
    if (!s->pw_clk && (st = jci_power_limit(&s->b, s->dev, s->idle.central, s->tdp.central, j->power_limit_w, &lim)))
        return st;
    if (j->method == JC_METHOD_JOULES_PER_OP) s->jop_limit = lim;
    else if (lim < s->tdp.central)
        s->tdp_charge = jci_bld_assume(&s->b, "power.tdp_method_w", jci_bld_str(&s->b, "the tdp method's power per "
                                       "device: the %s W power limit, below the %s W TDP (a capped device draws no "
                                       "more)", FMT_N(lim), FMT_N(s->tdp.central)), R1(lim), "W", JC_ORIGIN_USER,
                                       "--power-limit").central;
    return JC_OK;
}

/* The joules-per-op method's energy per FLOP at the run's precision.  A
 * device's energy of its matrix instruction (energy.pj_per_flop_tensor)
 * measured on its own die, or its own measured energy per FLOP, is charged
 * as it is (one transferred from another die is named in a warning and
 * not charged); one derived from its specs ((TDP - idle) /
 * dense peak) is scaled by jop_op_energy_scale, the one constant fitted
 * over every device's MLPerf rows (tools/fit_jop.py), and a precision
 * other than int8 (the rows' precision) is warned about. */
static jc_status jop_flop(est *s)
{
    const jc_device *dev = s->dev;
    const jc_sourced *et = &dev->pj_per_flop_tensor[s->prec];
    const jc_sourced *ef = &dev->pj_per_flop[s->prec];
    if (et->present && !et->measured)   /* a transfer from another die: named, not charged */
        jci_bld_warn(&s->b, "joules-per-op: %s carries a per-instruction energy at %s transferred from another die "
                     "(%s pJ/FLOP, %s), not measured on its own: it is not charged (on the MLPerf rows of such "
                     "devices it is further from the measured energy than the derived energy x jop_op_energy_scale; "
                     "docs/accuracy/mlperf_jop.md)", dev->id, jc_precision_name(s->prec), FMT_N(et->value),
                     et->source ? et->source->id : "hwdb");
    if (et->present && et->measured) {
        s->e_flop_r = jci_bld_assume(&s->b, "device.pj_per_flop_tensor", jci_bld_str(&s->b, "energy per FLOP of the "
                                     "matrix instruction, %s, every FLOP of the run charged at it, without "
                                     "jop_op_energy_scale: %s (%s)", jc_precision_name(s->prec),
                                     et->measured ? "measured" : "derived", et->source ? et->source->id : "hwdb"),
                                     jci_sourced_range(et), "pJ/FLOP", JC_ORIGIN_HWDB, jci_bld_cite(&s->b, et));
        return JC_OK;
    }
    jc_range e = jci_bld_assume(&s->b, "device.pj_per_flop", jci_bld_str(&s->b, "energy per FLOP, %s",
                                jc_precision_name(s->prec)), jci_sourced_range(ef), "pJ/FLOP", JC_ORIGIN_HWDB,
                                jci_bld_cite(&s->b, ef));
    if (!ef->measured) {
        const jc_constant *c;
        jc_status st = jci_bld_need_const(&s->b, "jop_op_energy_scale", &c);
        if (st) return st;
        jc_range k = jci_bld_const(&s->b, "jop_op_energy_scale", "dynamic energy of a counted operation in measured "
                                   "systems / the device's spec-derived energy per operation (one value for every "
                                   "device)", c);
        e = jci_bld_assume(&s->b, "jop.pj_per_flop", "energy per FLOP charged: device.pj_per_flop x "
                           "jop_op_energy_scale", R3(e.low * k.low, e.central * k.central, e.high * k.high),
                           "pJ/FLOP", JC_ORIGIN_DERIVED, "device.pj_per_flop x jop_op_energy_scale");
        jci_bld_warn(&s->b, "joules-per-op: the energy per FLOP of %s is its (TDP - idle) / peak scaled by the pooled "
                     "jop_op_energy_scale %s, fitted to saturated int8 inference (MLPerf v1.1)%s; a run far below "
                     "peak costs more per operation than this (use --method roofline)", dev->id, FMT_N(k.central),
                     s->prec == JC_PREC_INT8 ? "" : jci_bld_str(&s->b, ": at %s it is an extrapolation",
                                                                jc_precision_name(s->prec)));
    }
    s->e_flop_r = e;
    return JC_OK;
}

/* The joules-per-op method's energies: per FLOP (jop_flop), per byte of
 * memory traffic (a fitted power model's DRAM energy, else the device's,
 * else its memory type's) and, where the device has one, a fitted power
 * model's static power in place of its idle power. */
static jc_status resolve_jop(est *s, jc_refusal why)
{
    const jc_device *dev = s->dev;
    if (why == JC_REFUSAL_NO_PJ_PER_FLOP && !dev->pj_per_flop_tensor[s->prec].present)
        return jci_bld_fail(&s->b, JC_ERR_NOTFOUND, "device %s has no energy per FLOP at %s: use --method roofline",
                            dev->id, jc_precision_name(s->prec));
    jc_status st = jop_flop(s);
    if (st) return st;
    s->e_flop = s->e_flop_r.central * 1e-12;
    const jc_constant *mc = jci_power_mem_constant(s->b.db, dev);
    if (dev->dram_pj_per_byte.present)
        s->e_byte = jci_bld_assume(&s->b, "device.dram_pj_per_byte", "energy per byte of memory traffic: a power "
                                   "model's DRAM energy fitted to measured power", R1(dev->dram_pj_per_byte.value),
                                   "pJ/B", JC_ORIGIN_HWDB, jci_bld_cite(&s->b, &dev->dram_pj_per_byte)).central * 1e-12;
    else if (dev->pj_per_byte.present)
        s->e_byte = jci_bld_assume(&s->b, "device.pj_per_byte", "energy per byte of memory traffic",
                                   R1(dev->pj_per_byte.value), "pJ/B", JC_ORIGIN_HWDB,
                                   jci_bld_cite(&s->b, &dev->pj_per_byte)).central * 1e-12;
    else if (mc)   /* the memory type's DRAM energy, as the roofline's power model charges it */
        s->e_byte = jci_bld_assume(&s->b, "jop.pj_per_byte", jci_bld_str(&s->b, "energy per byte of memory traffic: "
                                   "%s's %s x 8 bit", dev->memory_type, mc->id), R1(8 * mc->value.value), "pJ/B",
                                   JC_ORIGIN_DERIVED, jci_bld_cite(&s->b, &mc->value)).central * 1e-12;
    else
        jci_bld_warn(&s->b, "device %s has no energy per byte and its memory type %s has no energy per bit in the "
                     "database: memory traffic adds no energy above idle in the joules-per-op method", dev->id,
                     dev->memory_type ? dev->memory_type : "(unknown)");
    if (dev->static_w.present && !given(jci_est_fixed_power(s)))
        s->jop_static = jci_bld_assume(&s->b, "device.static_w", "static power while kernels run (charged x time in "
                                       "place of device.idle_w): a power model's constant and static terms fitted to "
                                       "measured power", jci_sourced_range(&dev->static_w), "W", JC_ORIGIN_HWDB,
                                       jci_bld_cite(&s->b, &dev->static_w));
    return JC_OK;
}

jc_status jci_est_resolve_device_numbers(est *s)
{
    const jc_device *dev = s->dev;
    jc_status st;
    /* what the device must publish: the one rule (checks.c) that sweep lists */
    jc_refusal why = jc_estimate_refusal(s->b.job, dev, jc_precision_name(s->prec), NULL, NULL, 0);
    bool acc32;
    int fastest = jci_runtime_fastest_kernels(s->b.job->runtime, s->b.job->mode == JC_MODE_TRAINING);
    const jc_sourced *pk = jci_device_peak(dev, s->prec, fastest, &acc32);
    bool reduced = fastest && !acc32 && dev->peak_tflops_acc32[s->prec].present;   /* the engine's faster rate */
    if (pk->present) {
        s->peak = jci_bld_assume(&s->b, "device.peak_flops", jci_bld_str(&s->b, "dense peak, %s%s", jc_precision_name(s->prec),
                                                                          acc32 ? " with fp32 accumulate" : reduced ?
                                                                          " with reduced-precision accumulate (an "
                                                                          "inference engine keeps the faster kernels)" : ""),
                         R1(pk->value), "TFLOP/s", JC_ORIGIN_HWDB, jci_bld_cite(&s->b, pk)).central * 1e12;
    } else if (why == JC_REFUSAL_NO_PEAK) {
        char have[200] = "";
        size_t n = 0;
        for (int i = 0; i < JC_PREC_COUNT; i++)
            if (dev->peak_tflops[i].present)
                n += (size_t)snprintf(have + n, sizeof have - n, "%s%s", n ? ", " : "",
                                      jc_precision_name((jc_precision)i));
        return jci_bld_fail(&s->b, JC_ERR_NOTFOUND, "device %s has no published dense peak at %s (it has: %s); "
                    "choose --precision or give --hours", dev->id, jc_precision_name(s->prec),
                    n ? have : "none");
    }
    const jc_sourced *vp = &dev->peak_tflops[JC_PREC_FP32];
    if (vp->present && s->prec != JC_PREC_FP32 && s->prec != JC_PREC_TF32)
        s->vpeak = jci_bld_assume(&s->b, "device.vector_flops", "vector (non-matrix) peak: fp32",
                          R1(vp->value), "TFLOP/s", JC_ORIGIN_HWDB, jci_bld_cite(&s->b, vp)).central * 1e12;
    else
        s->vpeak = s->peak;
    if (dev->memory_bw_gbs.present)
        s->bw = jci_bld_assume(&s->b, "device.memory_bw", "memory bandwidth", R1(dev->memory_bw_gbs.value),
                       "GB/s", JC_ORIGIN_HWDB, jci_bld_cite(&s->b, &dev->memory_bw_gbs)).central * 1e9;
    if (dev->memory_bw_sustained_gbs.present && s->bw > 0)
        s->bw_sus = jci_bld_assume(&s->b, "device.memory_bw_sustained", "measured sustained memory bandwidth (what a "
                                   "large memory-bound kernel reaches, in place of memory_bw x kernel_eta_bw)",
                                   R1(dev->memory_bw_sustained_gbs.value), "GB/s", JC_ORIGIN_HWDB,
                                   jci_bld_cite(&s->b, &dev->memory_bw_sustained_gbs)).central * 1e9;

    /* power */
    if (dev->tdp_w.present)
        s->tdp = jci_bld_assume(&s->b, "device.tdp_w", "device TDP", R1(dev->tdp_w.value), "W",
                        JC_ORIGIN_HWDB, jci_bld_cite(&s->b, &dev->tdp_w));
    else if (why == JC_REFUSAL_NO_TDP)
        return jci_bld_fail(&s->b, JC_ERR_NOTFOUND, "device %s has no published TDP; give --avg-power W", dev->id);
    if (dev->idle_w.present) {
        s->idle = jci_bld_assume(&s->b, "device.idle_w", "device idle power", jci_sourced_range(&dev->idle_w), "W",
                         JC_ORIGIN_HWDB, jci_bld_cite(&s->b, &dev->idle_w));
    } else if (dev->tdp_w.present) {
        const jc_constant *c;
        if ((st = jci_bld_need_const(&s->b, "idle_fraction_of_tdp_gpu", &c))) return st;
        jc_range f = jci_sourced_range(&c->value);
        s->idle = jci_bld_assume(&s->b, "device.idle_w", "device idle power (no published figure)",
                         R3(f.low * s->tdp.central, f.central * s->tdp.central, f.high * s->tdp.central),
                         "W", JC_ORIGIN_DERIVED,
                         jci_bld_str(&s->b, "TDP x idle_fraction_of_tdp_gpu (%s)", jci_bld_cite(&s->b, &c->value)));
    }
    if (s->b.job->method == JC_METHOD_JOULES_PER_OP && (st = resolve_jop(s, why))) return st;

    if ((st = resolve_util(s))) return st;
    if ((st = resolve_runtime(s))) return st;
    if ((st = resolve_power(s))) return st;
    return resolve_limit_charge(s);
}






double jci_est_fixed_power(const est *s)
{
    return given(s->avg_power) ? s->avg_power : s->vm ? s->vm->cpu_w : NAN;
}

jci_site jci_est_site(const est *s)
{
    jci_site x = {s->dev, s->host, s->G, s->K, s->avg_power, s->m_host, s->m_wall,
                  given(s->b.job->host_power_w), s->host_on, s->host_w, s->host_factor, s->region, s->ci, s->pue};
    return x;
}

void jci_est_site_set(est *s, const jci_site *x)
{
    s->host = x->host;
    s->G = x->G;
    s->K = x->K;
    s->host_on = x->host_on;
    s->host_w = x->host_w;
    s->host_factor = x->host_factor;
    s->region = x->region;
    s->ci = x->ci;
    s->pue = x->pue;
}

jc_status jci_est_resolve_site(est *s)
{
    jci_site x = jci_est_site(s);
    jc_status st;
    if ((st = jci_site_host(&s->b, &x, s->e)) || (st = jci_site_cpu_usage(&s->b, &x)) ||
        (st = jci_site_place(&s->b, &x, s->e)))
        return st;
    jci_est_site_set(s, &x);
    return JC_OK;
}

/* Dynamic power above idle of a device at compute utilisation uc and
 * memory utilisation um (roofline method), scenario sc. */
static double dyn_w(est *s, double uc, double um, int sc)
{
    return jci_power_device_w(&s->pw, uc, um, JCI_POWER_BUSY, sc) - jci_pick(s->idle, sc, JCI_RAISES);
}

/* The power a device draws whatever its kernels compute: the
 * joules-per-op method's fitted static power where the device has one
 * (resolve_jop), else its idle power. */
static jc_range est_idle(const est *s)
{
    return s->jop_static.central > 0 ? s->jop_static : s->idle;
}

/* Without a graph, an end-to-end utilisation u below the profile's
 * matrix efficiency means the rest of the time goes to memory-bound work
 * (elementwise, normalisation, optimizer, communication kernels): its
 * memory utilisation, eta_bw x (1 - u / eta_matrix). */
static double rest_um(est *s, double u, int sc)
{
    if (!s->eff_on) return 0;
    double em = jci_pick(s->eff.v[JCI_EFF_ETA_MATRIX], sc, JCI_LOWERS), eb = jci_pick(s->eff.v[JCI_EFF_ETA_BW], sc, JCI_LOWERS);
    double f = em > 0 ? 1 - u / em : 0;
    return f > 0 ? eb * f : 0;
}

/* Busy time and dynamic energy of a job given by its FLOPs, t0 its time
 * at utilisation u.  A published or fallback u was achieved at the
 * device's default power limit, so only a --power-limit moves the clocks:
 * the matrix work runs at r = clock(limit) / clock(default) as long, as a
 * graph's compute-bound kernels do (timing.c), and the memory-bound rest
 * (rest_um) keeps its time.  With a runtime profile the matrix work is the
 * share u / eta_matrix of t0 at utilisation eta_matrix, without one the
 * whole of t0 at u.  The dynamic power is the model's at the utilisations
 * averaged over the busy time (capped at the limit). */
static void given_flops_time(est *s, int sc, double t0, double u, double *t_busy, double *e_dyn)
{
    double um = rest_um(s, u, sc), r = 1, r_lim = 1;
    /* --utilization states the rate achieved, at whatever clocks it ran;
     * the training step model timed its kernels at the limit's clocks */
    if ((s->pw_on || s->pw_clk) && !s->util_user && !s->step_on && given(s->b.job->power_limit_w)) {
        double em = s->eff_on ? jci_pick(s->eff.v[JCI_EFF_ETA_MATRIX], sc, JCI_LOWERS) : 0;
        int split = em > u;                                 /* matrix work at eta_matrix, then the rest */
        double phi = split ? u / em : 1, uc = split ? em : u, umc = split ? 0 : um;
        jci_power_model dflt = s->pw;
        dflt.limit_w = s->dev->power_limit_w.present ? s->dev->power_limit_w.value : s->tdp.central;
        r_lim = jci_power_cap_clock(&s->pw, uc, umc, sc);
        r = r_lim / jci_power_cap_clock(&dflt, uc, umc, sc);
        t0 *= phi / r + 1 - phi;
        u *= 1 / (phi / r + 1 - phi);
        um *= 1 / (phi / r + 1 - phi);
    }
    *t_busy = t0;
    if (s->pw_on) *e_dyn = t0 * dyn_w(s, u, um, sc);
    if (r_lim < 1 && sc == SC_CENTRAL) jci_power_record_cap_clock(&s->b, s->dev, &s->pw, r_lim);
}

void jci_est_compute(est *s, int sc, outv *o)
{
    const jc_job *j = s->b.job;
    int train = j->mode == JC_MODE_TRAINING;
    double G = s->G;
    double u = jci_pick(s->util, sc, JCI_LOWERS);         /* higher utilisation: less energy */
    double eb = s->eff_on ? jci_pick(s->eff.v[JCI_EFF_ETA_BW], sc, JCI_LOWERS) : 1;
    double idle = jci_pick(est_idle(s), sc, JCI_RAISES), tdp = s->tdp.central;
    double mult = train ? 1 + s->beta + s->rc : 1;
    double t_busy = 0, e_dyn = 0;  /* device-seconds and dynamic J of the whole job */
    double t_fwd = 0, e_fwd = 0;   /* ... of its forward passes (evaluation: train_overhead.c) */
    double flops = 0, bytes = 0;

    if (s->have_nodes) {
        double tp = 0, ep = 0, tb = 0, eb_ = 0;
        /* training with a runtime plan: the backward by its own kernels;
         * otherwise backward_factor x the forward */
        int own_bwd = train && s->eff_on && !s->util_user && s->eff.kind != JCI_RTK_ENGINE;
        jci_pass_stats ps = {0, 0, {0, 0, 0}};
        if (s->eff_on || s->pw_on || s->pw_clk)
            jci_est_pass_nodes(s, sc, &tp, &ep, own_bwd ? &tb : NULL, own_bwd ? &eb_ : NULL,
                       sc == SC_CENTRAL && j->per_node ? s->e->nodes : NULL, sc == SC_CENTRAL ? &ps : NULL);
        if (ps.cap_t_clock < ps.cap_t * (1 - 1e-9))
            jci_power_record_cap_clock(&s->b, s->dev, &s->pw, ps.cap_t_clock / ps.cap_t);
        double tsum = ps.bound_t[0] + ps.bound_t[1] + ps.bound_t[2];
        if (tsum > 0)
            for (int k = 0; k < 3; k++) s->e->bound_share[k] = ps.bound_t[k] / tsum;
        t_fwd = tp * s->passes;
        e_fwd = ep * s->passes;
        if (own_bwd) {
            t_busy = (tp * (1 + s->rc) + tb) * s->passes;
            e_dyn = (ep * (1 + s->rc) + eb_) * s->passes;
        } else {
            t_busy = tp * mult * s->passes;
            e_dyn = ep * mult * s->passes;
        }
        flops = s->fwd_flops * mult * s->passes;
        bytes = s->fwd_bytes * (train ? 1 + s->beta : 1) * s->passes;
    } else if (given(s->total_flops)) {
        flops = s->total_flops;
        if (s->peak > 0 && u > 0) given_flops_time(s, sc, flops / (s->peak * u), u, &t_busy, &e_dyn);
    }
    if (train && s->params > 0) {
        double of = s->opt_flops_pp * s->params * jci_est_steps(s);
        double ob = s->opt_bytes_pp * s->params * jci_est_steps(s);
        flops += of;
        bytes += ob;
        if (s->bw > 0 && !s->step_on) {   /* the step model timed its optimizer */
            double t_opt = ob / (s->bw * eb);
            t_busy += t_opt;
            if (s->pw_on) e_dyn += t_opt * dyn_w(s, 0, eb, sc);
        }
    }
    o->flops = flops;

    double T;
    o->busy = NAN;
    if (given(s->known_T)) {
        T = s->known_T;
        /* a known runtime: the devices are busy for the model's time of the
         * work (at most the whole runtime: the run was then faster than
         * modelled), or for --gpu-usage of it; idle the rest.  The busy
         * time keeps the modelled work's power profile. */
        double avail = T * G, busy;
        int work = t_busy > 0 && isfinite(t_busy);
        if (given(s->usage)) busy = s->usage * avail;
        else if (work) busy = t_busy < avail ? t_busy : avail;
        else busy = avail;
        if (s->pw_on) {
            if (work) e_dyn *= busy / t_busy;
            else if (given(s->usage)) e_dyn = avail * dyn_w(s, s->usage, 0, sc);   /* the power model at u */
            else e_dyn = busy * (tdp - idle) * jci_pick(s->act, sc, JCI_RAISES);
        }
        o->busy = avail > 0 ? busy / avail : NAN;
    } else {
        /* devices that can work at once: a forward pass is never split
         * across devices (inference: whole passes per device, in waves;
         * a training step's batch covers its replicas: jci_dp_batch_check);
         * the others wait at idle power for the whole wall time */
        T = t_busy / (jci_est_parallel_devices(s) * s->scaling);
        /* multi-device training: bubble and communication the compute
         * does not hide; the devices wait at idle power meanwhile */
        double comm = 0;
        T = jci_est_parallel_wall(s, sc, T, &comm);
        /* the job's evaluations (forward passes on the same devices) and
         * checkpoints (the steps wait for each write): train_overhead.c */
        if (train) {
            T += s->ov_eval * t_fwd / (jci_est_parallel_devices(s) * s->scaling) +
                 s->ov_ckpt_step_s * jci_est_steps(s);
            e_dyn += s->ov_eval * e_fwd;
        }
        if (sc == SC_CENTRAL && s->par_on)
            jci_bld_assume(&s->b, "parallel.overhead", "share of the wall time not computing (pipeline bubble, tensor-"
                           "parallel all-reduces, exposed gradient all-reduce; devices at idle power meanwhile)",
                           R1(T > 0 ? comm / T : 0), "", JC_ORIGIN_DERIVED, "the multi-device model (train_parallel.c)");
    }
    o->T = T;

    /* device energy (J) */
    /* with a measured average power the idle floor is still told apart
     * (at most that power), so the table keeps the idle/dynamic split */
    double fixed = jci_est_fixed_power(s);
    double e_idle = G * T * (given(fixed) ? fmin(idle, fixed) : idle);
    double e_dev;
    o->jop_w = NAN;
    if (given(fixed)) {
        e_dev = fixed * G * T;
    } else if (j->method == JC_METHOD_TDP) {
        e_dev = s->tdp_charge * G * T;
    } else if (j->method == JC_METHOD_JOULES_PER_OP) {
        e_dev = e_idle + flops * jci_pick(s->e_flop_r, sc, JCI_RAISES) * 1e-12 + bytes * s->e_byte;
        o->jop_w = G * T > 0 ? e_dev / (G * T) : NAN;
    } else {
        e_dev = e_idle + e_dyn;
    }
    o->e_idle = e_idle;
    o->e_dev = e_dev;
    o->e_host = s->host_on ? jci_pick(s->host_w, sc, JCI_RAISES) * s->host_factor * T : 0;
    jci_est_apply_measured(s, o);
}

/* ---- the result: the account of the three scenarios --------------------------- */

/* The warnings of the account's average power and implied utilisation. */
static void range_warnings(est *s)
{
    jc_estimate *e = s->e;
    if (s->peak > 0 && e->flops_total > 0 && given(s->known_T) && e->implied_utilization.central > 1)
        jci_bld_warn(&s->b, "the given runtime implies a utilisation of %.2f of dense peak: more work than the devices can do "
                "in that time (check --hours, --count and the work)", e->implied_utilization.central);
    jci_account_warn_tdp(&s->b, s->dev, e);
}

/* Embodied emissions (--embodied): the device's share over its lifetime. */
static jc_status embodied(est *s, const outv o[3])
{
    double T[3] = {o[SC_LOW].T, o[SC_CENTRAL].T, o[SC_HIGH].T};
    return jci_site_embodied(&s->b, s->dev, s->G, T, s->e);
}

/* Per-node energy (central) by the run's method; the roofline's was set
 * by jci_est_pass_nodes from each node's power. */
static void node_energy(est *s)
{
    const jc_job *job = s->b.job;
    jc_estimate *e = s->e;
    double idle = est_idle(s).central;
    for (size_t i = 0; i < e->n_nodes; i++) {
        jc_est_node *x = &e->nodes[i];
        if (given(jci_est_fixed_power(s))) x->energy_j = x->time_s * jci_est_fixed_power(s);
        else if (job->method == JC_METHOD_TDP) x->energy_j = x->time_s * s->tdp_charge;
        else if (job->method == JC_METHOD_JOULES_PER_OP)
            x->energy_j = x->time_s * idle + x->flops * s->e_flop + x->bytes * s->e_byte;
    }
}

/* A --power-limit the joules-per-op figure does not depend on, said: the
 * method charges energies per operation (a limit reaches its figure only
 * through the clocks of a modelled time, resolve_power), so where the
 * run's time is known or given the limit has no effect; where the charge
 * averages more than the limit, the warning says so too. */
static void jop_limit_note(est *s, const outv o[3])
{
    if (!(s->jop_limit > 0) || (s->pw_clk && !given(s->known_T))) return;
    double most = 0;
    for (int sc = SC_LOW; sc <= SC_HIGH; sc++)
        if (o[sc].jop_w > most) most = o[sc].jop_w;
    const char *lim = FMT_N(s->jop_limit);
    jci_bld_warn(&s->b, "--power-limit %s W has no effect on this joules-per-op estimate: the method charges energy "
                 "per operation, and the run's time does not depend on the limit (%s); %s", lim,
                 given(s->known_T) ? "a known runtime" : s->util_user ? "--utilization sets it" :
                 "no power model of this device's clocks",
                 most > s->jop_limit ? jci_bld_str(&s->b, "its energy averages up to %s W per device, more than a "
                                                   "device capped at %s W draws (--method tdp or roofline charge "
                                                   "the cap)", FMT_N(most), lim)
                                     : jci_bld_str(&s->b, "its energy averages at most %s W per device, under the "
                                                   "limit", FMT_N(most)));
}

jc_status jci_est_summarise(est *s, const outv o[3], jci_account_in *kept)
{
    jc_status st;
    jc_estimate *e = s->e;
    jci_account_in in = {.G = s->G, .peak = s->peak, .samples = s->samples, .tokens = s->tokens};
    for (int sc = SC_LOW; sc <= SC_HIGH; sc++)
        in.sc[sc] = (jci_acct_scn){o[sc].T, o[sc].e_dev, o[sc].e_idle, o[sc].e_host, o[sc].flops};
    in.place = (jci_acct_place){s->pue, s->ci, e->has_market,
                                e->has_market ? s->region->market_gco2e_per_kwh.value : 0};
    e->passes = jci_est_steps(s);   /* steps, where the graph is counted per device */
    if (given(s->dev_batch)) e->flops_per_pass *= s->G;   /* a step's forward over the devices */
    e->samples = s->samples;
    e->tokens = s->tokens;
    e->bytes_total = s->have_nodes ? s->fwd_bytes * s->passes : 0;
    jci_account_run(&in, e);
    if (kept) *kept = in;
    range_warnings(s);
    if (s->b.job->embodied && (st = embodied(s, o))) return st;
    node_energy(s);
    jop_limit_note(s, o);
    return JC_OK;
}
