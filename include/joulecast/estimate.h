/*
 * estimate.h (public API) - requests, the estimate result and job files (src/job/, src/estimate/).
 * Part of the public API; include <joulecast.h>, which states the
 * conventions (errors, ownership, units) that hold here too.
 */
#ifndef JOULECAST_ESTIMATE_H
#define JOULECAST_ESTIMATE_H

#include "base.h"
#include "job.h"

/* named by pointer only here: their headers define them (C11 allows the
 * typedef twice), so a change to those headers does not rebuild the
 * files that include only this one */
typedef struct jc_analysis jc_analysis;
typedef struct jc_device jc_device;
typedef struct jc_dim_binding jc_dim_binding;
typedef struct jc_input_binding jc_input_binding;
typedef struct jc_value_binding jc_value_binding;
typedef struct jc_hwdb jc_hwdb;
typedef struct jc_region jc_region;

JC_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* Requests: job + bindings + model source -> model + analysis          */
/* (owner src/job/request.c)                                            */
/* ------------------------------------------------------------------ */
/* The one path from what a user asks for to a counted model: every CLI
 * command, the bindings and the workflows (compare, sweep, calibrate)
 * build a jc_request and call jc_request_prepare (or, to count one model
 * at several batch sizes, jc_request_load once and jc_request_analyze per
 * size).  The rules live here once:
 *  - model source: a path, or "-" for standard input; the graph identity
 *    (jc_model.graph_sha256) is always recorded, the whole file's SHA-256
 *    (jc_model.sha256) only with hash_weights, since it reads every weight;
 *  - batch: job->batch must be a whole number >= 1 (at most its limit,
 *    jc_job_key_max); it binds the
 *    first dim of every main-graph input whose first dim is symbolic; a
 *    fixed first dim that differs is refused (JC_ERR_USAGE naming the
 *    input and its dim: estimate, compare, sweep, calibrate and the
 *    binding alike), and a batch that binds no input (the model has none,
 *    only scalars, or a fixed first dim of 0) is JC_ERR_USAGE;
 *    without job->batch a symbolic batch dim that no --dim or --input
 *    binds is counted at 1 (the estimate names that default);
 *  - sequence: job->seq must agree with the sequence length the model's
 *    token input was counted at (its second dim), else JC_ERR_USAGE;
 *  - op rules, --assume bounds, --input-value values, the convention;
 *  - partial counts: refused with JC_ERR_INCOMPLETE (exit 9), the message
 *    naming each unbound dim and unsupported op, unless allow_partial;
 *    then every report of the estimate says "lower bound". */

typedef struct jc_request {
    const jc_job *job;          /* the workload (batch, seq); NULL: none */
    const char *model;          /* a path, "-" (standard input), or NULL */
    FILE *in;                   /* the stream "-" reads; NULL: stdin */
    const jc_dim_binding *dims;      size_t n_dims;     /* --dim */
    const jc_input_binding *inputs;  size_t n_inputs;   /* --input */
    const jc_value_binding *values;  size_t n_values;   /* --input-value */
    const jc_dim_binding *assume;    size_t n_assume;   /* --assume */
    const char *op_rules;       /* --op-rules FILE, or NULL */
    jc_convention convention;
    int allow_partial;          /* 1: a partial count passes (lower bound) */
    int bindings_if_present;    /* 1: a --dim/--input the model lacks is
                                   skipped (compare: models differ) */
    int no_default_batch;       /* 1: without job->batch a symbolic batch
                                   dim stays unbound (count reports it)
                                   instead of being counted at 1 */
    int hash_weights;           /* 1: also hash the whole file, weights
                                   included (jc_model.sha256; --hash-weights,
                                   and always in statement) */
} jc_request;

/* Zeroes *rq: no model, no bindings, partial counts refused, a fixed
 * batch dim that disagrees refused. */
void jc_request_init(jc_request *rq);

/* What jc_request_analyze decided besides the analysis. */
typedef struct jc_request_info {
    double batch;               /* the batch counted at (NAN: not bound) */
    int partial;                /* the count is partial (allow_partial) */
    unsigned char *dim_used, *input_used;  /* caller's arrays of n_dims /
                                   n_inputs entries, or NULL: set to 1 for
                                   each binding the model took */
} jc_request_info;

/* Loads the request's model: rq->model as a path, or "-" read from rq->in
 * (else stdin; at most 2 GiB).  Sets m->graph_sha256, and m->sha256 when
 * rq->hash_weights.  Errors: those of
 * jc_model_load, JC_ERR_USAGE (no model in the request), JC_ERR_RANGE
 * (standard input over the limit). */
jc_status jc_request_load(const jc_request *rq, jc_model **out, jc_diag *diag);

/* Counts m at `batch` (NAN: rq->job's batch; or the default above); for
 * data-parallel training at the batch one device runs of that step batch
 * (jc_job_device_batch), unless a batch dim is fixed; with
 * the request's bindings and policy.  info may be NULL.  Errors:
 * JC_ERR_USAGE (a malformed batch, a fixed batch dim refused, --seq that
 * disagrees with the count), JC_ERR_INCOMPLETE (a partial count refused:
 * the message names what is missing), and every error of jc_analyze.  On
 * success *out owns the analysis (jc_analysis_free). */
jc_status jc_request_analyze(const jc_request *rq, const jc_model *m, double batch,
                             jc_analysis **out, jc_request_info *info,
                             jc_diag *diag);

/* A prepared request: the model and its analysis (both NULL without a
 * model), and what the analysis decided. */
typedef struct jc_prepared {
    jc_model *model;
    jc_analysis *analysis;
    jc_request_info info;
    void *internal_;
} jc_prepared;

/* jc_request_load + jc_request_analyze at the job's batch.  A request
 * without a model gives an empty jc_prepared (the work then comes from
 * --flops or --params).  Errors: those of the two.  On success *out owns
 * everything (jc_prepared_free). */
jc_status jc_request_prepare(const jc_request *rq, jc_prepared **out, jc_diag *diag);
/* Releases a prepared request (model and analysis).  NULL is a no-op. */
void jc_prepared_free(jc_prepared *p);

/* Checks a batch size: NAN (not given) or a whole number from 1 to
 * jc_job_key_max("batch"); `what` names it in the message ("--batch").
 * JC_ERR_RANGE above the limit (the message names it), JC_ERR_USAGE for
 * any other value. */
jc_status jc_batch_check(double batch, const char *what, jc_diag *diag);

/* What a partial analysis lacks, in a few words ("unknown dim 'sequence'
 * (bind it with --dim sequence=N), unsupported op Foo x2"), into buf
 * (always NUL-terminated); "" when the analysis is complete. */
void jc_analysis_partial_words(const jc_analysis *an, char *buf, size_t cap);

/* jc_range: include/joulecast/base.h */

typedef enum jc_origin {
    JC_ORIGIN_USER = 0,     /* a command-line option or job-file key */
    JC_ORIGIN_HWDB = 1,     /* an hwdb entry (source attached) */
    JC_ORIGIN_MODEL = 2,    /* counted from the ONNX model */
    JC_ORIGIN_DERIVED = 3,  /* computed from other assumptions */
    JC_ORIGIN_DEFAULT = 4   /* a documented default of joulecast */
} jc_origin;
const char *jc_origin_name(jc_origin o);

/* One number an estimate used, with where it came from. */
typedef struct jc_assumption {
    const char *key;         /* stable id, e.g. "device.tdp_w" */
    const char *label;       /* human wording */
    jc_range value;          /* low == central == high when exact */
    const char *unit;
    jc_origin origin;
    const char *source;      /* "--pue", "hwdb/devices/nvidia.yaml:966
                                (NVIDIA A100 datasheet, 2020)", ... */
} jc_assumption;

/* One node's share of a pass, on the chosen device. */
typedef struct jc_est_node {
    const char *name, *op;
    double flops, bytes;     /* one forward pass */
    double time_s;           /* one forward pass, one device, central */
    double energy_j;         /* one forward pass, device energy, central */
    int memory_bound;        /* 1: bandwidth- or launch-bound on this device
                                (a node the runtime profile fuses has
                                time_s 0) */
    int launch_bound;        /* 1: held at the kernel-launch floor (the
                                device waits on the host; memory_bound is
                                1 too) */
} jc_est_node;

/* The training step model (src/estimate/train_step.c, docs/energy-model.md
 * "Training step model"): a transformer's training job from its
 * architecture (--hf-config, or --params with --layers --hidden --heads
 * --seq), laid out on the devices, one optimizer step timed by mechanism
 * on one device.  Times are seconds per step, central scenario. */
typedef struct jc_train_part {
    const char *name;        /* "gemm", "attention", ... (stable, JSON key) */
    const char *what;        /* one line: what the time is */
    double s;                /* seconds per step, central */
} jc_train_part;

typedef struct jc_train_step {
    const char *arch;        /* the config's path, or "--params" */
    const char *model_type;  /* the config's model_type, or "dense" */
    double params_total, params_active;  /* parameters (active: per token) */
    double layers, hidden, heads, seq;
    double experts, top_k;   /* 0 for a dense model */
    /* the layout: every size, and why each was chosen ("--tp" when given) */
    double tp, pp, dp, cp, ep, zero, virtual_stages;
    double micro_batch_seqs, micro_batches;   /* per data-parallel rank and step */
    double global_batch_tokens, steps;
    /* a long-context stage (--long-seq --long-tokens): its sequence,
     * context-parallel and data-parallel sizes, steps and step time; 0
     * without one */
    double long_seq, long_cp, long_dp, long_steps, long_step_s;
    const char *why_recompute;   /* set when the layout turned full recompute on */
    const char *why_tp, *why_pp, *why_dp, *why_cp, *why_ep, *why_zero, *why_batch, *why_micro;
    double memory_gb;        /* per device: weights + gradients + optimizer + activations */
    double memory_cap_gb;    /* usable per device */
    /* memory_gb by part (GB per device); reserve: the device's memory the
     * layout leaves to the framework (1 - train_memory_usable) */
    double mem_weights_gb, mem_grads_gb, mem_optimizer_gb, mem_activations_gb, mem_reserve_gb;
    /* fine-tuning (--finetune, src/estimate/finetune.c): "lora", "qlora",
     * "full", or NULL for pre-training; trainable parameters have
     * gradients and optimizer state, frozen ones neither (pre-training:
     * all trainable, 0 frozen) */
    const char *finetune;
    double lora_rank;        /* 0 without adapters */
    const char *lora_targets;  /* the adapted projections, or NULL */
    double params_trainable, params_frozen;
    double base_bytes_per_param;  /* the frozen base's storage (2 bf16; NF4 + double quantisation 0.516) */
    size_t n_parts;
    const jc_train_part *parts;   /* the step's time by mechanism */
    double step_s;           /* their sum: one step's wall time */
    double model_flops_step; /* (1 + backward factor) x forward FLOPs of a step, all devices */
    jc_range mfu;            /* model_flops_step / (G x peak x step_s) */
    jc_range goodput;        /* share of device time in productive steps */
    const char *why_goodput; /* "--goodput", or the run-length rule and its sources */
    const char *fabric;      /* the scale-up domain and scale-out network the collectives cross, in words, with sources */
    jc_range utilization;    /* mfu x goodput: the job's utilisation */
} jc_train_step;

/* One row of the sensitivity table (job.sensitivity, issue 45): a ranged
 * assumption moved alone from its low to its high (--pin KEY=low, then
 * KEY=high) with every other input at its central value; the figures
 * are the central results of those two runs. */
typedef struct jc_sensitivity {
    const char *key, *label, *unit;   /* the assumption, as the list names it */
    double low, central, high;        /* its bounds and central value */
    double co2_low, co2_high;         /* kgCO2e, location-based, at low / at high */
    double kwh_low, kwh_high;         /* facility kWh */
    double hours_low, hours_high;     /* wall hours */
} jc_sensitivity;

/* One input of the Monte Carlo percentiles (job.draws, issue 45): the
 * distribution its range is read as and why, and the group of inputs
 * drawn together (one uniform number for the group: they share a cause). */
typedef struct jc_mc_input {
    const char *key;
    const char *distribution;   /* "uniform", "triangular", "log-normal" */
    const char *reason;
    const char *group;          /* NULL: drawn on its own */
} jc_mc_input;

/* Percentiles (p5, p50, p95) of a figure over the draws. */
typedef struct jc_pct { double p5, p50, p95; } jc_pct;

/* The result.  Ranges are low / central / high (see docs/energy-model.md
 * "Ranges": corner cases of every parameter that has a range). */
typedef struct jc_trace jc_trace;   /* a power trace ("Power traces" below) */

typedef struct jc_estimate {
    jc_mode mode;
    jc_method method;
    const char *precision;   /* jc_precision_name(prec) */
    const char *device_id, *device_name, *host_id, *region_code, *region_name;
    const char *host_class;  /* system class assumed without --host
                                ("desktop-workstation", "server-4", ...,
                                "none" for a CPU); NULL when a host, a
                                host power or no host term applies */
    const char *host_assumed;  /* the host in words, for every report's
                                first lines: "gcp:g2-standard-4 x 1 (the
                                provider's instance for ...)", "0.5 x
                                system class 'server-2' (a share: ...)",
                                "none (...)"; never NULL after a run */
    /* a CPU VM (a CPU-only cloud instance, or --vcpus; issue 42), else
     * vm_cpu NULL and the numbers NAN: the CPU, its vCPUs and their share
     * of one package, the vCPUs' and the memory's power (W), and Green
     * Algorithms' facility energy for the same VM (kWh, central) */
    const char *vm_cpu;
    double vm_vcpus, vm_share, vm_cpu_w, vm_memory_w, vm_ga_facility_kwh;
    /* a CPU device timed on a CPU runtime's kernel path (issue 42): the
     * physical cores its threads use and the unit its matrix kernels run
     * on; NAN and NULL otherwise */
    double cpu_cores_used;
    const char *cpu_matrix_unit;
    int host_given;          /* 1: the user named the host (--host) or
                                its power (--host-power); 0: assumed */
    const char *device_alias; /* the name the job gave for the device when
                                it is an alias, not the id ("v100" for
                                nvidia-v100-sxm2-32gb), else NULL */
    double devices, hosts;   /* hosts: servers / instances, or the share
                                of a system-class server (0.5) */
    /* What the estimate is of and what it used, as typed fields: consumers
     * (reports, sweep, statement, calibrate, diff) read these, never an
     * assumption by its key, and never the hardware database again. */
    jc_precision prec;
    const char *model_path;       /* the counted model ("<stdin>"), or NULL */
    uint64_t model_size_bytes;    /* its file size; 0 without a model */
    const char *model_sha256;     /* the whole file's SHA-256 (64 hex digits;
                                     --hash-weights); NULL when not recorded */
    const char *model_graph_sha256; /* the graph identity (jc_model.
                                     graph_sha256); NULL without a model */
    const char *hwdb_version;     /* jc_hwdb.data_version, or NULL */
    double batch;                 /* the batch counted at; NAN without a model */
    int lower_bound;              /* 1: the count was partial (allowed):
                                     every figure is a lower bound */
    const jc_device *device;      /* the device record (borrowed from the
                                     database, as every name here is) */
    const char *device_file;      /* the device's hwdb entry */
    int device_line;
    const jc_region *region;      /* the region record (borrowed from the
                                     database); NULL with --ci and no --region */
    const jc_region *region_country; /* the country the region lies in (the
                                     region itself for a country; its
                                     `country` entry otherwise), or NULL */
    jc_range utilization;         /* the MFU the time model used (--utilization,
                                     a calibrated or published figure); 0 when
                                     the runtime profile or a known runtime
                                     gives the time */
    jc_range pue;                 /* the PUE used */
    const char *pue_source;       /* "--pue" or hwdb file:line (citation) */
    jc_range ci;                  /* location-based gCO2e/kWh used */
    const char *ci_source;
    const char *ci_dataset_id;    /* the dataset the hwdb value is from;
                                     NULL with --ci */
    const char *ci_dataset_name, *ci_basis;
    int ci_year;                  /* the year of that value; 0 with --ci */
    double ci_region_default;     /* on a common basis (jc_job_ci_basis):
                                     the region's own default intensity
                                     when it differs from the value used
                                     (not used); else NAN */
    int ci_basis_fallback;        /* 1: the region has no value in the
                                     common basis, its own default is used
                                     (another basis than other regions) */
    /* work */
    double flops_per_pass;   /* forward, at the bound batch; 0 without model */
    double passes;           /* forward passes (inference) or steps (training) */
    double samples, tokens;  /* processed; 0 when unknown */
    double flops_total;      /* all work of the job */
    double bytes_total;
    /* results */
    jc_range wall_hours, device_hours;
    jc_range energy_device_kwh;   /* devices: idle floor + dynamic */
    jc_range energy_idle_kwh;     /* the devices' idle floor */
    jc_range energy_dynamic_kwh;  /* above idle: marginal */
    jc_range energy_host_kwh;
    jc_range energy_it_kwh;       /* device + host */
    jc_range energy_facility_kwh; /* IT x PUE: the total */
    jc_range co2_kg;              /* location-based operational */
    int has_market;
    jc_range co2_market_kg;
    int has_embodied;
    jc_range co2_embodied_kg;
    jc_range implied_utilization; /* flops_total / (G x peak x T) */
    double bound_share[3];        /* what sets the time: the shares of one
                                     modelled pass (forward, and backward in
                                     training) spent in compute-bound,
                                     memory-bound and launch-bound kernels,
                                     in that order, central; NaN without a
                                     graph timed node by node */
    jc_range avg_power_w;         /* per device, device energy / time */
    jc_range j_per_sample, j_per_token, samples_per_kwh; /* 0: n/a */
    const char *scenario;         /* --scenario (MLPerf), NULL without */
    jc_range latency_s;           /* with scenario: one query's latency, one
                                     forward pass at its batch; NaN without */
    size_t n_assumptions;  jc_assumption *assumptions;
    size_t n_warnings;     const char **warnings;
    size_t n_nodes;        jc_est_node *nodes;   /* with job.per_node */
    /* equivalences of the central emissions, each with its constant's
     * source (value = the equivalent amount; unit names it) */
    size_t n_equivalences; jc_assumption *equivalences;
    void *internal_;
    const char *host_absent;     /* why no host term is added (tdp method,
                                    --avg-power, a wall trace), else NULL */
    /* a measured run (job.measured): the trace's figures replaced the
     * model's for its scope; has_measured 0 otherwise */
    int has_measured;
    const jc_trace *trace;       /* the trace read; owned by the estimate */
    const char *measured_scope;  /* "device", "host", "device+host", "wall" */
    double measured_hours;       /* the duration used (the devices' active window) */
    double measured_kwh;         /* the measured energy used, IT side */
    /* the model's own prediction of the same job without the trace and
     * without a given runtime; NAN: not predictable (no work given) */
    double predicted_hours, predicted_device_kwh, predicted_it_kwh;
    /* training from an architecture: its layout, step and utilisation;
     * NULL otherwise (owned by the estimate) */
    const jc_train_step *train_step;
    /* issue 45: the ranged assumptions by swing of the emissions (then of
     * the facility energy, then of the time), largest first; 0 rows
     * without job.sensitivity.  One run per bound (2 per row). */
    size_t n_sensitivity;  jc_sensitivity *sensitivity;
    /* issue 45: with job.draws, the percentiles of the central figures over
     * that many draws of the ranged inputs (docs/energy-model.md "Monte
     * Carlo"); has_mc 0 otherwise */
    int has_mc;
    double mc_draws, mc_seed;
    jc_pct mc_co2_kg, mc_energy_facility_kwh, mc_wall_hours;
    size_t n_mc_inputs;    jc_mc_input *mc_inputs;
    /* issue 45: what the job costs (src/estimate/cost.c, docs/energy-model.md
     * "Cost and water"): instance-hours x a price per instance-hour, or
     * facility kWh x an electricity price; low/central/high follow the
     * wall time or the facility energy.  has_cost 0: unknown (null / n/a,
     * never 0), cost_absent says why. */
    int has_cost;
    jc_range cost;
    const char *cost_currency;   /* ISO 4217: "USD", or --currency */
    const char *cost_basis;      /* "on-demand", "committed-1y", "price"
                                    (--price), "electricity" */
    double cost_rate;            /* the price used: per instance-hour, or per kWh */
    const char *cost_rate_unit;  /* "USD/instance-hour", "USD/kWh" */
    double cost_units;           /* instances whose hours are paid (cost = rate
                                    x units x wall hours), or NAN for electricity */
    const char *cost_source;     /* "--price", "--electricity-price", or the
                                    hwdb value's citation (file:line (source)) */
    const char *cost_date;       /* the price's date (its source's date, else
                                    year); NULL for an option's */
    const char *cost_region;     /* the region the price is for, or NULL */
    const char *cost_absent;     /* has_cost 0: why; else NULL */
    /* issue 45: water consumed (litres): on-site (IT kWh x WUE) and
     * off-site (facility kWh x the grid's water per kWh generated); a part
     * without a factor is NaN (null / n/a) and water_l is the sum of the
     * known parts, water_basis naming them.  has_water 0: neither known. */
    int has_water;
    jc_range water_l, water_onsite_l, water_offsite_l;
    double wue_l_per_kwh, grid_water_l_per_kwh;   /* NAN: none */
    const char *wue_source, *grid_water_source;   /* NULL: none */
    const char *water_basis;     /* "on-site + off-site", "off-site only (...)" ... */
    const char *water_absent;    /* has_water 0: why; else NULL */
} jc_estimate;

/* A job file (YAML, docs/job-file.md): a mapping whose keys are the long
 * option names of `joulecast estimate` without the dashes.  Read into
 * key/value pairs in file order: a scalar gives one pair; a sequence
 * gives one pair per item (repeatable options such as hwdb); a mapping
 * gives one "K=V" pair per entry (dim: {batch: 8} -> dim "batch=8").
 * lines/cols locate each value, key_lines/key_cols its key, for error
 * messages.  Errors: JC_ERR_IO,
 * JC_ERR_USAGE (not a mapping, nested too deep; located). */
typedef struct jc_jobfile {
    const char *path;
    size_t n;
    const char **keys, **values;
    int *lines, *cols;           /* where each value is */
    int *key_lines, *key_cols;   /* where each pair's key is (an unknown key is named there) */
    void *internal_;
} jc_jobfile;
jc_status jc_jobfile_load(const char *path, jc_jobfile **out, jc_diag *diag);
void jc_jobfile_free(jc_jobfile *jf);

/* Estimates a job.  `an` is the analysis of the model at the job's batch
 * (NULL when the work is given by flops or params x tokens); db the
 * hardware database.  Every value used is recorded in the result's
 * assumptions.  Errors: JC_ERR_USAGE (contradictory or missing inputs:
 * no work, no device, zero devices, utilisation above 1, ...),
 * JC_ERR_NOTFOUND (unknown device, host or region, with suggestions),
 * JC_ERR_INCOMPLETE (the analysis is partial and the work cannot be
 * bounded), JC_ERR_NOMEM.  On success *out owns the result
 * (jc_estimate_free). */
jc_status jc_estimate_run(const jc_job *job, const jc_analysis *an,
                          const jc_hwdb *db, jc_estimate **out,
                          jc_diag *diag);

/* Releases an estimate.  NULL is a no-op. */
void jc_estimate_free(jc_estimate *e);

/* Parses a precision name ("bf16", case-insensitive) into *out; the one
 * name -> enum conversion (jc_precision_name is the other way).
 * JC_ERR_USAGE (and *out untouched) for an unknown name. */
jc_status jc_precision_parse(const char *s, jc_precision *out);
/* The precision a device runs at when none is given: the lowest of bf16,
 * fp16, fp32 with a published dense peak (fp32 when none has one). */
jc_precision jc_device_default_precision(const jc_device *dev);

/* Why a device cannot be estimated for a job (src/estimate/checks.c):
 * jc_estimate_run refuses exactly these cases, and sweep lists them. */
typedef enum jc_refusal {
    JC_REFUSAL_NONE = 0,          /* it can be estimated */
    JC_REFUSAL_PRECISION,         /* not one of fp32 tf32 bf16 fp16 fp8 int8 */
    JC_REFUSAL_NO_PEAK,           /* no published dense peak at the precision
                                     (and the time is modelled, or the
                                     joules-per-op method needs it) */
    JC_REFUSAL_NO_TDP,            /* no published TDP and no --avg-power */
    JC_REFUSAL_NO_PJ_PER_FLOP     /* joules-per-op without an energy per FLOP */
} jc_refusal;
/* "none", "no-peak", ...: static strings. */
const char *jc_refusal_name(jc_refusal r);
/* The refusal of `dev` for `job` at `precision` (NULL: job->precision,
 * else jc_device_default_precision); *used (may be NULL) receives the
 * precision the estimate runs at; buf (may be NULL) a short reason
 * ("no published dense peak at fp8"). */
jc_refusal jc_estimate_refusal(const jc_job *job, const jc_device *dev, const char *precision,
                               jc_precision *used, char *buf, size_t cap);

/* Writes the estimate as text; with per-node figures (job.per_node) the
 * table lists the JC_PER_NODE_TOP_DEFAULT nodes of most energy, then one
 * line for the rest.  Errors: JC_ERR_IO, JC_ERR_NOMEM. */
#define JC_PER_NODE_TOP_DEFAULT 10
jc_status jc_report_estimate_text(const jc_estimate *e, FILE *f);
/* The same with the per-node table cut at the `top` nodes of most
 * energy (0: every node), most energy first, ties in graph order; names
 * longer than 60 characters keep their start and end around "...". */
jc_status jc_report_estimate_text_top(const jc_estimate *e, FILE *f, int top);
/* As JSON (schema: docs/json-schemas.md "estimate"), released with
 * jc_free(); NULL on out-of-memory. */
char *jc_report_estimate_json(const jc_estimate *e);
/* As CSV: header line (when header) and one row. */
jc_status jc_report_estimate_csv(const jc_estimate *e, FILE *f, int header);

JC_END_DECLS
#endif /* JOULECAST_ESTIMATE_H */
