/*
 * estimate_int.h (estimate) - private to src/estimate/: the state (struct est) that the
 * estimate's stages share while they turn a job, an analysis and the
 * hardware database into a jc_estimate.  Its first member is the result
 * builder of builder.h (arena, diagnostic, assumptions, warnings,
 * citations, failures "estimate: ..."), the one the serving model
 * (serving.c) embeds as well; the stages call jci_bld_*(&s->b, ...).
 *
 *   estimate.c   entry point jc_estimate_run, hardware and precision, the
 *                known runtime;
 *   timing.c     the kernel plan, per-node time and power, busy devices;
 *   workload.c   the work: counted nodes or a FLOP figure, batch, passes
 *                and training steps, tokens, optimizer, memory capacity;
 *   energy.c     time, power, energy, emissions and their low-central-high
 *                ranges: device numbers, host power, region (carbon
 *                intensity, PUE), the per-scenario arithmetic, equivalences.
 *
 * Symbols here use the internal prefix jci_est_; none is exported by the
 * public header.
 */
#ifndef JCI_ESTIMATE_INT_H
#define JCI_ESTIMATE_INT_H

#include "base/fmt.h"
#include "base/jc_internal.h"
#include "estimate/builder.h"
#include "estimate/efficiency.h"
#include "estimate/power.h"
#include "estimate/site.h"
#include "joulecast/analysis.h"
#include "joulecast/hwdb.h"
#include "joulecast/job.h"
#include "joulecast/estimate.h"
/* held by pointer only: a file that reads them includes trace.h / serving.h */
typedef struct jc_arch jc_arch;

#include <math.h>

/* ---- the estimate's state -------------------------------------------------- */

typedef struct est {
    jci_builder b;               /* arena, diagnostic, assumptions, warnings (builder.h) */
    jc_estimate *e;
    const jc_analysis *an;

    /* resolved inputs */
    const jc_device *dev;
    const jc_host *host;
    struct jci_vm *vm;           /* a CPU VM (vm.h): dev is its vCPUs' share; NULL otherwise */
    const jc_region *region;
    jc_precision prec;
    double G, K;                 /* devices, hosts */
    double peak, vpeak, bw;      /* FLOP/s matrix, FLOP/s vector, B/s */
    double bw_sus;               /* B/s, measured sustained bandwidth; 0: none published */
    jc_range util, act, act_mem, idle, tdp, host_w, pue, ci, mem_eff, vec_eff;
    jc_range overhead;           /* per-kernel time floor, s (GPUs) */
    double scaling;
    double e_flop, e_byte;       /* J per FLOP / per byte (joules-per-op) */
    jc_range e_flop_r;           /* pJ per FLOP with its range (measured values carry one) */
    jc_range jop_static;         /* W, the joules-per-op static term in place of idle; central 0: idle */
    int host_on;
    double avg_power;            /* measured W per device, or NAN */
    double known_T;              /* s, NAN when modelled */
    /* work */
    int have_nodes;
    double beta, rc;             /* backward factor, recompute forwards */
    double opt_flops_pp, opt_bytes_pp, params;
    double byte_scale;           /* weights: the dominant stored dtype to the
                                    run precision (jci_est_node_byte_scale
                                    scales each node's traffic) */
    double passes;               /* forward passes or training steps */
    double batch;                /* the batch of one pass / step (model), else NAN */
    double ov_eval;              /* evaluation: share of the forward time added (train_overhead.c) */
    double ov_ckpt_step_s;       /* checkpoints: seconds added per step */
    double dev_batch;            /* data-parallel training: the batch one device
                                    runs per step, the graph counted at it (then
                                    passes = steps x G); else NAN */
    double fwd_flops, fwd_bytes; /* one forward pass */
    double total_flops;          /* given directly (flops / params mode) */
    double samples, tokens;
    /* measured runs (measured.c) */
    jc_trace *trace;             /* job.measured, loaded; owned by the result */
    double m_dev, m_host, m_wall;  /* measured J per scope; NAN: not measured */
    double m_idle_w;             /* the devices' measured idle power in all; NAN: none */
    double usage;                /* --gpu-usage, or NAN */
    double host_factor;          /* --cpu-usage: host power scale; 1 without */
    /* runtime profile and power model (efficiency.h, power.h) */
    jci_eff_model eff;            /* resolved when the time is modelled */
    int eff_on;
    int util_user;               /* --utilization replaces the matrix efficiency */
    jci_power_model pw;           /* roofline power from utilisation */
    int pw_on;
    int pw_clk;                  /* the other methods: pw set up for the clocks at the
                                    power limit only (their power is their own) */
    double tdp_charge;           /* W per device the tdp method charges: the TDP, or a
                                    --power-limit below it (resolve_limit_charge) */
    double jop_limit;            /* joules-per-op: the --power-limit, W (checked against
                                    the device's range); 0: none (jop_limit_note) */
    double size_factor;          /* params mode: u x 1 / (1 + N_half / N) */
    double sms;                  /* SM count (wave quantisation); 0: unknown */
    double l2;                   /* L2 bytes (device l2_mb; kernels' L2-resident inputs); 0: unknown */
    const jci_eff_plan *plan;     /* the runtime's kernels (fusion.c; own or the share's) */
    int plan_state;              /* 0 not built, 1 built, -1 none */
    jci_est_share *share;        /* what a grid's estimates share, or NULL */
    /* multi-device training (train_parallel.c) */
    int par_on;                  /* G > 1 training: the layout is modelled */
    double tp, pp, dp, micro;    /* parallel sizes, micro-batches per step */
    double layers, hidden;       /* --params --tp: the shape behind the activations */
    double per_node;             /* devices of one node (the ring crosses nodes above it) */
    double dp_steps;             /* gradient all-reduces (steps); 0: not modelled */
    double grad_params;          /* parameters whose gradients are reduced */
    jc_range link_bw, net_bw, overlap, grad_bytes;  /* GB/s, GB/s, 1, B per parameter */
    jc_range dp_lat;             /* s: latency of one gradient all-reduce (coll_latency.c) */
    /* the training step model (train_step.c) */
    int step_on;                 /* the step model gave the utilisation */
    int frozen_base;             /* LoRA / QLoRA: the base's GEMMs skip their weight gradients */
    jc_arch *arch;               /* job.hf_config read (owned; freed by jc_estimate_run) */
} est;

/* The three scenarios compute() runs are SC_LOW, SC_CENTRAL, SC_HIGH
 * (base/jc_internal.h, with jci_pick). */

/* One scenario's results (compute()). */
typedef struct outv {
    double T;                 /* wall seconds */
    double e_dev, e_idle, e_host;  /* J: devices, their idle floor, hosts */
    double flops;
    double busy;              /* known runtime: fraction of device-time busy; NAN: modelled time */
    double jop_w;             /* joules-per-op: its energy's average W per device before any
                                 --power-limit cap; NAN: another method */
} outv;

/* ---- helpers ------------------------------------------------------------- */

/* names.c: bits of a precision (32 for an unknown one). */
double jci_est_prec_bits(jc_precision p);
/* timing.c: the runtime's kernel plan over s->an at run_bytes per floating-point
 * element (tensor_cores: the NCHW transforms apply): the share's when it
 * holds one for these, else built (into the share when it has room, else
 * into the estimate's arena).  NULL when it cannot be built. */
const jci_eff_plan *jci_est_plan(est *s, double run_bytes, int tensor_cores);

/* ---- stages ----------------------------------------------------------------- */

/* workload.c: the work (counted nodes, a FLOP figure or parameters x
 * tokens), batch, passes or steps, samples, tokens, optimizer. */
jc_status jci_est_resolve_work(est *s);

/* With --scenario (issue 41), e->scenario and e->latency_s, one query's
 * latency (one forward pass at the scenario's batch on one device; waves
 * of passes over the devices); a Server query over --latency-bound is
 * refused (JC_ERR_USAGE).  Runs after the summary (wall time known). */
jc_status jci_est_scenario_latency(est *s);
/* workload.c: the factor that takes node n's counted bytes (at the dtype
 * the file stores) to the run precision: run bits / stored bits when the
 * run is narrower, else 1 (integer tensors stay as stored). */
double jci_est_node_byte_scale(const est *s, const jc_counted_node *n);
/* workload.c: warns when weights, optimizer state and activations do not
 * fit the devices' memory. */
void jci_est_check_memory(est *s);
/* workload.c: refuses (JC_ERR_USAGE) an option the job would ignore: an
 * option that has no effect is an error, never silent. */
jc_status jci_est_check_options(est *s);

/* workload.c: how many of the G devices can work at once (G, or fewer when
 * an inference's passes are fewer than the devices, or passes come in
 * waves; a training step's batch always covers the devices:
 * jci_dp_batch_check; 1 under --scenario singlestream or multistream, whose
 * queries run one after another); the wall time divides the
 * device-seconds by it. */
double jci_est_parallel_devices(const est *s);
/* workload.c: the optimizer steps of a training job (its passes, or its
 * passes / G where the graph is counted at one device's batch). */
double jci_est_steps(const est *s);
/* train_overhead.c: --eval-every / --eval-samples and --checkpoint-every /
 * --checkpoint-gb / --storage-gbs of a training job, checked and recorded
 * (assumptions train.eval, train.checkpoint_gb, train.checkpoint_s):
 * s->ov_eval (the share of the forward time evaluation adds) and
 * s->ov_ckpt_step_s (seconds per step); trainable: the parameters a
 * checkpoint saves by default; step_model: 1 from the training step
 * model (else a MODEL.onnx or a FLOP figure; a MODEL.onnx's goodput of 1
 * is recorded as train.goodput).  JC_ERR_USAGE for a key without its
 * partner, with a known runtime, or without a forward pass to time. */
jc_status jci_est_resolve_overhead(est *s, double trainable, int step_model);
/* timing.c: busy time (s) and dynamic energy above idle (J) of one
 * forward pass on one device, scenario sc, and of its backward pass when
 * t_bwd and e_bwd are non-NULL (training: each node's backward kernels,
 * efficiency.h); per-node figures go to nodes when non-NULL (forward and
 * backward together, roofline power).  ps, when non-NULL, accumulates
 * what the pass's kernels were bound by.  Cannot fail: without a plan the
 * nodes are timed one kernel each. */
typedef struct jci_pass_stats {
    double cap_t, cap_t_clock;   /* the compute-bound kernels' time, and that
                                    time x their clock ratio under the power
                                    limit */
    double bound_t[3];           /* kernel time by what bound it (jci_node_bound:
                                    compute, memory, launch) */
} jci_pass_stats;
void jci_est_pass_nodes(est *s, int sc, double *t_busy, double *e_dyn, double *t_bwd, double *e_bwd,
                        jc_est_node *nodes, jci_pass_stats *ps);

/* energy.c: peaks, bandwidth, TDP, idle, energy per op, utilisation,
 * efficiencies, scaling and power activity of the device. */
jc_status jci_est_resolve_device_numbers(est *s);

/* The device's power fixed by the job rather than modelled: --avg-power, or
 * a CPU VM's vCPUs at their usage (vm.h); NAN when the power model applies. */
double jci_est_fixed_power(const est *s);
/* energy.c: the estimate's site (site.h) from its state, and back. */
jci_site jci_est_site(const est *s);
void jci_est_site_set(est *s, const jci_site *x);
/* energy.c: the host power, the host CPUs' usage, the region, carbon
 * intensity and PUE (site.h: jci_site_host, jci_site_cpu_usage,
 * jci_site_place) into s. */
jc_status jci_est_resolve_site(est *s);
/* energy.c: the arithmetic of scenario sc (SC_LOW, SC_CENTRAL, SC_HIGH). */
void jci_est_compute(est *s, int sc, outv *o);
/* energy.c: the result from the three scenarios: the account (account.h:
 * energy, emissions, ranges, average power, implied utilisation, per
 * sample and per token) with its warnings, embodied emissions and the
 * per-node energy.  kept (may be NULL) receives the account's inputs (the
 * sensitivity reruns the account alone for an input that enters only it). */
struct jci_account_in;
jc_status jci_est_summarise(est *s, const outv o[3], struct jci_account_in *kept);
/* measured.c: --gpu-usage / --cpu-usage checks, and the trace of
 * --measured read into s->trace with its figures per scope (the known
 * runtime becomes its devices' active window). */
jc_status jci_est_resolve_measured(est *s);
/* measured.c: scenario o with the trace's figures in place of the model's
 * for its scope. */
void jci_est_apply_measured(const est *s, outv *o);
/* measured.c: the busy-fraction assumption of a known runtime.  (For a
 * measured run, estimate.c runs the model's own prediction of the job,
 * without the trace and without a runtime, beside the measurement.) */
jc_status jci_est_measured_summary(est *s, const outv o[3]);

/* train_parallel.c: the multi-device layout of a training job (--tp,
 * --pp, --micro-batches, --hidden; data parallel over the rest), its
 * interconnect and the steps whose gradients are all-reduced.  Refuses
 * (JC_ERR_USAGE) the options that would have no effect. */
jc_status jci_est_resolve_parallel(est *s);
/* train_parallel.c: the wall time of a training job whose compute alone
 * takes T_compute s on its devices, scenario sc: pipeline bubble,
 * tensor-parallel all-reduces, the exposed part of the data-parallel
 * gradient all-reduce.  *comm_s (may be NULL) receives the time added. */
double jci_est_parallel_wall(const est *s, int sc, double T_compute, double *comm_s);

/* train_step.c: does the job ask for the training step model (training
 * with --hf-config, or --params with --layers)? */
int jci_est_step_wanted(const jc_job *j);
/* train_step.c: the step model: the architecture, the layout, one step
 * timed by mechanism per scenario; sets the work (params, tokens, total
 * FLOPs, steps) and the utilisation s->util, and the result's
 * train_step.  Errors: JC_ERR_USAGE (options that contradict it or have
 * no effect), JC_ERR_RANGE (no layout fits the devices), those of
 * jc_arch_load_hf, JC_ERR_HWDB (a constant missing). */
jc_status jci_est_resolve_step(est *s);


/* ---- shared with the serving model (serving.c) -------------------------------- */

/* estimate.c: an empty estimate in arena a (mode, method, the database's
 * version; batch and the region's default intensity unknown), released
 * with a (jc_estimate_free releases nothing of it); NULL on
 * out-of-memory. */
jc_estimate *jci_estimate_new(jci_arena *a, const jc_hwdb *db, jc_mode mode, jc_method method);
/* estimate.c: e's device and host identity (id, label, hwdb entry). */
void jci_est_name_hardware(jci_builder *b, jc_estimate *e, const jc_device *dev, const jc_host *host);
/* estimate.c: every result is finite or refused (issue 27): an input that
 * passes its own check but makes a figure overflow (--utilization
 * 1e-300: an infinite wall time) is JC_ERR_RANGE naming the figure.  NAN
 * is "unknown" (null / n/a) and stays. */
jc_status jci_est_finite(const jc_estimate *e, jc_diag *d);

#endif /* JCI_ESTIMATE_INT_H */
