/*
 * job.h (public API) - the job: modes, methods, the job record and its keys (src/job/).
 * Part of the public API; include <joulecast.h>, which states the
 * conventions (errors, ownership, units) that hold here too.
 */
#ifndef JOULECAST_JOB_H
#define JOULECAST_JOB_H

#include "base.h"

/* named by pointer only here: their headers define them (C11 allows the
 * typedef twice), so a change to those headers does not rebuild the
 * files that include only this one */
typedef struct jc_model jc_model;

JC_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* The job (owner src/job/job.c: its keys and jc_job_init)          */
/* ------------------------------------------------------------------ */
/* The energy model is docs/energy-model.md; every number an estimate
 * uses is recorded as a jc_assumption with its origin. */

typedef enum jc_mode { JC_MODE_INFERENCE = 0, JC_MODE_TRAINING = 1,
                       JC_MODE_GENERATION = 2 /* LLM serving: jc_serving_run */ } jc_mode;

typedef enum jc_method {
    JC_METHOD_ROOFLINE = 0,      /* per-node roofline time, activity power */
    JC_METHOD_JOULES_PER_OP = 1, /* idle floor + energy per FLOP and byte */
    JC_METHOD_TDP = 2            /* device-hours x TDP, as model cards do */
} jc_method;

/* "roofline", "joules-per-op", "tdp" / "inference", "training". */
const char *jc_method_name(jc_method m);
const char *jc_mode_name(jc_mode m);

/* A job: what runs, where, how much.  Doubles left NAN (and pointers
 * NULL) are "not given"; jc_job_init() sets that state.  Every field
 * maps to one command-line option or job-file key (docs/job-file.md). */
typedef struct jc_job {
    jc_mode mode;
    jc_method method;
    const char *precision;   /* fp32 tf32 bf16 fp16 fp8 int8; NULL: default */
    const char *runtime;     /* eager compiled engine; NULL: eager */
    /* the work, when no model is given */
    double flops;            /* total job FLOPs */
    double params, active_params;  /* N (MoE: active) with tokens: 6ND/2ND */
    double tokens;           /* tokens processed (training: with seq) */
    /* inference */
    double requests, batch, tokens_per_request;
    /* training */
    double samples, epochs, seq;
    const char *optimizer;   /* adamw, adam, sgd, none; NULL: adamw */
    double backward_factor;  /* beta; NAN: hwdb constant backward_factor */
    int recompute;           /* activation recomputation: +1 forward */
    /* known runtime and measured power */
    double hours;            /* wall clock */
    double device_hours;
    double avg_power_w;      /* measured average power per device */
    double power_limit_w;    /* device power limit (cap), W; NAN: the device's default */
    /* hardware */
    const char *device;      /* device id/alias, or NULL with host */
    const char *host;        /* server / cloud instance id */
    double count;            /* devices (default: the host's, else 1) */
    double hosts;            /* servers (with host) */
    double utilization;      /* MFU override (0, 1] */
    double host_power_w;     /* host power override, W per host */
    double scaling;          /* scaling efficiency override (0, 1] */
    /* place */
    const char *region;
    const char *ci_dataset;  /* intensity dataset for the region (its grid
                                zone's value for a cloud region without
                                one); NULL or "default": the region's own
                                default dataset */
    double ci;               /* gCO2e/kWh override */
    double pue;
    int embodied;            /* add the embodied line */
    double lifetime_years;
    int per_node;            /* keep per-node time/energy shares */
    /* measured runs (docs/traces.md) */
    double gpu_usage;        /* with a known runtime: busy fraction of the devices, 0..1 */
    double cpu_usage;        /* with a known runtime: busy fraction of the host CPUs, 0..1 */
    double vcpus;            /* a VM's vCPUs of the CPU --device names (issue 42); NAN: none */
    double threads;          /* a CPU runtime's intra-op threads (issue 42); NAN: one per physical core */
    const char *measured;    /* a power trace of the run (jc_trace_load) */
    const char *trace_format;  /* its format name; NULL: detected */
    const char *trace_scope;   /* device, host or wall: a plain timestamp,watts trace */
    double trace_gap_s;        /* its gap threshold, s; NAN: 5 x median interval */
    double trace_idle_w;       /* its idle threshold, W; NAN: by utilisation / power span */
    double trace_interval_s;   /* its sampling period without timestamps, s; NAN: default */
    /* generation (LLM serving, mode JC_MODE_GENERATION) */
    const char *hf_config;   /* Hugging Face config.json */
    double prompt_tokens, output_tokens; /* mean per request */
    double concurrency;      /* running sequences per replica */
    double tp, pp, ep;       /* tensor / pipeline / expert parallel sizes */
    const char *weights;     /* stored weight format; NULL: the config's */
    const char *kv_format;   /* KV-cache format; NULL: bf16 */
    const char *serving_runtime; /* vllm (default), vllm-0.5, sglang, trt-llm, tgi, hf-generate */
    const char *prompt_dim;  /* generation, ONNX decoder: the symbolic dim
                                of the new tokens (NULL: found) */
    const char *past_dim;    /* ... and of the cached context (NULL: found) */
    /* multi-device training (tp, pp above; docs/energy-model.md) */
    double micro_batches;    /* micro-batches per step with pp > 1 */
    double hidden;           /* --params jobs: model width d_model (tensor parallel) */
    /* the training step model (src/estimate/train_step.c) */
    double layers, heads;    /* --params jobs: the shape with hidden and seq */
    double total_params;     /* MoE: all parameters (params is then the active) */
    double cp, zero, virtual_stages;  /* context parallel, ZeRO stage, interleaving */
    double distill_teacher;  /* teacher parameters (forward per token) */
    double mtp_heads;        /* multi-token-prediction modules */
    double long_seq, long_tokens;  /* a long-context stage */
    double goodput;          /* share of wall time in productive steps (step model) */
    /* fine-tuning (src/estimate/finetune.c) */
    const char *finetune;    /* "lora", "qlora", "full"; NULL: pre-training */
    double lora_rank;        /* adapters' rank (default 16) */
    const char *lora_targets;  /* adapted projections, comma-separated
                                  (default q_proj,k_proj,v_proj,o_proj) */
    /* MLPerf scenario (issue 41; src/estimate/workload.c) */
    const char *scenario;    /* offline server singlestream multistream; NULL: none */
    double latency_bound_ms; /* --scenario server: a query's latency bound, ms */
    /* issue 45: which assumption matters (src/estimate/sensitivity.c) */
    int sensitivity;         /* rank the ranged assumptions by the swing of
                                the result, each alone low -> high */
    const char *pin;         /* "KEY=V[,KEY=V...]": ranged assumptions set to
                                one value (V a number in the assumption's
                                range, or low, central, high); NULL: none */
    double draws;            /* Monte Carlo draws (NAN: none) */
    double seed;             /* their generator's seed (NAN: 0) */
    /* issue 39 (h39): evaluation and checkpoints of a training job
     * (src/estimate/train_overhead.c); NAN: not given */
    double eval_every;       /* training samples between evaluations */
    double eval_samples;     /* samples of one evaluation (forward only) */
    double checkpoint_every; /* optimizer steps between checkpoints */
    double checkpoint_gb;    /* one checkpoint's size (GB; default from the parameters) */
    double storage_gbs;      /* the storage's write bandwidth for the job (GB/s) */
    double dp_overlap;       /* share of the backward the data-parallel gradient
                                all-reduce runs beside (NAN: the hwdb's) */
    /* issue 45: cost and water (src/estimate/cost.c) */
    const char *price;       /* one instance-hour's price (a number, in
                                currency), or the hwdb's plan "on-demand"
                                (the default) or "committed-1y"; NULL: none */
    const char *electricity_price;  /* per kWh (a number, in currency), or
                                "region" (the region's hwdb price); NULL */
    const char *currency;    /* ISO 4217 code of price / electricity_price
                                given as numbers (default USD) */
    double wue;              /* on-site water usage effectiveness, L per IT
                                kWh (NAN: the hwdb's) */
    double grid_water;       /* water consumed per kWh generated, L/kWh
                                (NAN: the hwdb's) */
} jc_job;

/* MLPerf scenarios (issue 41).  jc_scenario_batch: the batch a scenario
 * decides (singlestream 1, multistream 8 samples per query), NAN for
 * offline, server (the job's --batch), an unknown name or NULL.
 * jc_job_batch: the batch a job runs, --batch or its scenario's (NAN:
 * neither).  jc_job_scenario_check: JC_ERR_USAGE (through d) for an
 * unknown --scenario, a --batch that conflicts with the scenario's, or a
 * --latency-bound without --scenario server. */
double jc_scenario_batch(const char *scenario);
/* jc_scenario_serial: 1 where the scenario issues each query when the last
 * one completes (singlestream, multistream: one query in flight), else 0
 * (offline, server, an unknown name or NULL). */
int jc_scenario_serial(const char *scenario);
double jc_job_batch(const jc_job *job);
/* jc_job_device_batch: the samples one device runs per optimizer step of
 * a data-parallel training job (--train --batch B --count G, B >= G > 1):
 * ceil(B / G), the batch a model's graph is counted at so its kernels are
 * timed at the shapes each device runs (issue 39); NAN for any other job. */
double jc_job_device_batch(const jc_job *job);
jc_status jc_job_scenario_check(const jc_job *job, jc_diag *d);

/* Sets every field of *job to "not given" (NAN / NULL / 0) with mode
 * inference and method roofline. */
void jc_job_init(jc_job *job);

/* One key of a job: the long option name without dashes (also the job
 * file's key and the bindings' key), the placeholder of its value (NULL
 * for a flag) and a one-line help. */
typedef struct jc_job_key {
    const char *name, *arg, *help;
} jc_job_key;

/* Every key jc_job_set accepts, in a fixed order; *n receives the count.
 * A static table: never freed. */
const jc_job_key *jc_job_keys(size_t *n);

/* The largest value a size key ("batch", "count", "requests", ...) may
 * take, or NULL for a key without such a limit.  jc_job_set refuses a
 * larger value with JC_ERR_RANGE.  Points into a static table. */
const double *jc_job_key_max(const char *key);

/* Checks every number of a filled-in job (one not given is NAN) against
 * its key's row of src/job/job_keys.def, the one place an option's bounds
 * are written: > min, >= min, a whole number >= min, in [min, max] or in
 * (min, max], and the limit that jc_job_set applies to a value given as
 * text, so a job built field by field is refused as the command line
 * would refuse it; and the one bound between two keys, --active-params
 * at most --params.  JC_ERR_RANGE above a size limit, JC_ERR_USAGE
 * otherwise; the message names the option ("--count must be a whole
 * number >= 1 (got 8.5 devices)").  The estimate and the serving model
 * call it first, and check none of these again. */
jc_status jc_job_check(const jc_job *job, jc_diag *diag);

/* The same check for one value v of the number key `key` (NAN: not
 * given, JC_OK); `label` names it in the message (e.g. "--batch", or an
 * axis of a sweep), NULL for "--KEY".  JC_ERR_INTERNAL for a key that is
 * not a number key. */
jc_status jc_job_check_value(const char *key, const char *label, double v, jc_diag *diag);

/* The first key of the table that sets the same field as `key` (an alias
 * such as "mfu" gives "utilization"; a key gives itself), or NULL for an
 * unknown key.  Points into the static table. */
const char *jc_job_key_canonical(const char *key);

/* The job key closest to `name` by the rule of jc_closest_name, for "did
 * you mean" messages; NULL when none is close.  A static string.  A name
 * other tools give an option (jc_job_key_meant) comes first. */
const char *jc_job_key_closest(const char *name);

/* The job key that a name other tools or people use means ("gpu" and
 * "accelerator": device, "gpus" and "num-gpus": count, "location":
 * region, ...), from a table in src/job/job.c; NULL for other names. */
const char *jc_job_key_meant(const char *name);
/* jc_job_key_meant read with the value given (NULL: unknown): a name
 * where a number was meant ("--devices a100", "gpus: h100") means the
 * device, a number ("--devices 8") the count. */
const char *jc_job_key_meant_for(const char *name, const char *value);

/* Of the n names, the one closest to `want` for a "did you mean" message,
 * or NULL when none is close (want or names NULL: NULL).  The library's
 * one rule (src/base/suggest.c): ASCII case folded; an edit distance of
 * at most 1 for up to 3 typed characters, 2 for up to 5, then a third of
 * the length plus one, at most 4; a name that the typed text starts a
 * word of (or holds, or is held in) also counts; equal ranks go to the
 * smaller edit distance, then the name.  Returns one of names (borrowed). */
const char *jc_closest_name(const char *want, const char *const *names, size_t n);
/* Of the n option or key names (borrowed), the one a "did you mean"
 * offers for the unknown key `name` given with `value` (NULL when
 * unknown): the key it means (jc_job_key_meant_for) when that is among
 * the names, else jc_closest_name's; NULL when none is close. */
const char *jc_closest_key(const char *name, const char *value, const char *const *names, size_t n);

/* Sets the field of `key` from its text: numbers in the C locale's
 * format, names borrowed (they must outlive the job), flags as NULL (on)
 * or true/false/yes/no/1/0, mode and method by name.  Errors:
 * JC_ERR_NOTFOUND (no such key, with the closest one suggested),
 * JC_ERR_USAGE (a value of the wrong form), JC_ERR_RANGE (a size above
 * its limit, jc_job_key_max; the message names the key and the limit). */
jc_status jc_job_set(jc_job *job, const char *key, const char *value, jc_diag *diag);

/* ---- the request keys' values: one grammar for every front end (src/job/reqparse.c) ----
 * The CLI's options and job files and the bindings' key/value pairs parse
 * their values here.  Each error is JC_ERR_USAGE with a message that
 * starts with the key ("dim expects NAME=VALUE with VALUE >= 1, got
 * 'x'"); the caller says where the value came from. */

/* NAME=V with V a whole number >= lo (a --dim: lo 1; an --assume bound:
 * lo 0): *name_len the length of NAME at the start of val, *value V. */
jc_status jc_parse_binding(const char *key, const char *val, int64_t lo, size_t *name_len, int64_t *value,
                           jc_diag *diag);
/* NAME=AxBxC ('x', 'X' or ',' between dims, each a whole number >= 0, at
 * most cap of them): dims[0 .. *rank), *name_len as above. */
jc_status jc_parse_shape_binding(const char *key, const char *val, int64_t *dims, int cap, int *rank,
                                 size_t *name_len, jc_diag *diag);
/* The number of values of NAME=V,V,... ("NAME=": 0, an empty tensor). */
size_t jc_parse_values_count(const char *val);
/* NAME=V,V,...: each a whole number kept exact (a sign allowed) or
 * another number of magnitude below 9.2e18 (iv its truncation), at most
 * cap of them: iv/fv[0 .. *n), *name_len as above. */
jc_status jc_parse_values_binding(const char *key, const char *val, int64_t *iv, double *fv, size_t cap,
                                  size_t *n, size_t *name_len, jc_diag *diag);
/* A flag: NULL or "" (given without a value), true/yes/on/1 turn it on,
 * false/no/off/0 off; *on set. */
jc_status jc_parse_flag(const char *key, const char *val, int *on, jc_diag *diag);
/* A job file's entry KEY: VAL read from the file's folder: for model,
 * op-rules and hwdb, a relative VAL becomes "<folder of jf_path>/VAL"
 * in buf (cap bytes); any other key, an absolute path or a file without
 * a folder part: VAL itself.  NULL when buf is too small. */
const char *jc_jobfile_path(const char *jf_path, const char *key, const char *val, char *buf, size_t cap);

/* Refuses a key that does nothing in the job's mode (JC_ERR_USAGE naming
 * the key, what it belongs to and what to do): training keys (--samples,
 * --epochs, --optimizer, ...) outside training, serving keys
 * (--prompt-tokens, --concurrency, --weights, ...) outside generation,
 * --runtime/--precision/--tokens-per-request in generation.  The
 * estimate and the serving model call it; JC_OK when every key set
 * applies. */
jc_status jc_job_check_mode(const jc_job *job, jc_diag *diag);

/* The grid-intensity dataset every estimate reads a region's intensity
 * from unless the job's ci-dataset says otherwise: one basis (lifecycle,
 * consumption-based) for every region and provider, so that neither a
 * provider's own accounting nor an older table ranks a region.  A region
 * without a value in it (nor its grid zone) falls back to its own
 * default dataset, and the estimate says so (assumption grid.ci_basis,
 * a warning). */
#define JC_CI_BASIS "electricitymaps-2025"

/* The dataset the job reads intensities from: its ci-dataset, else
 * JC_CI_BASIS; NULL when it gives --ci or asks for each region's own
 * default (ci-dataset "default").  A static or borrowed string. */
const char *jc_job_ci_basis(const jc_job *job);

/* A batch dim the model cannot take: the first graph input whose first
 * dim is fixed at a value other than `batch`.  Returns that value and sets
 * *input to the input's name (borrowed from m), or returns 0. */
int64_t jc_model_fixed_batch(const jc_model *m, double batch, const char **input);

JC_END_DECLS
#endif /* JOULECAST_JOB_H */
