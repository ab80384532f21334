/*
 * job.c (job) - a jc_job's keys as data: the option table (src/job/job_keys.def)
 * that the command line, job files and the bindings share, and the one
 * place that turns a key and its text into a field of the job; and
 * jc_job_init, a job with nothing given.  (What a job does to a model -
 * batch rules, bindings - is src/job/request.c.)
 */
#include "base/jc_internal.h"
#include "joulecast/job.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum { K_NUM, K_NAME, K_FLAG, K_MODE, K_TRAIN, K_INFER, K_GEN, K_METHOD };
enum { R_ANY, R_GT, R_GE, R_WHOLE, R_IN, R_INGT };

typedef struct key_row {
    jc_job_key pub;
    int kind;
    size_t off;
    int range;          /* R_*: job_keys.def's range column */
    double min, max;    /* its bounds (max 0: none) */
    const char *unit;
    unsigned modes;     /* JM_*: the kinds of estimate it acts in */
    const char *gen_hint;   /* in a serving estimate: what to give instead */
} key_row;

/* job_keys.def's modes column, as a set of (1 << jc_mode). */
enum {
    JM_INF = 1 << JC_MODE_INFERENCE, JM_TRAIN = 1 << JC_MODE_TRAINING, JM_GEN = 1 << JC_MODE_GENERATION,
    JM_INF_TRAIN = JM_INF | JM_TRAIN, JM_INF_GEN = JM_INF | JM_GEN, JM_TRAIN_GEN = JM_TRAIN | JM_GEN,
    JM_ALL = JM_INF | JM_TRAIN | JM_GEN
};

#define JOB_KEY(name, kind, field, arg, range, min, max, unit, modes, hint, help) \
    {{name, arg, help}, K_##kind, offsetof(jc_job, field), R_##range, min, max, unit, JM_##modes, hint},
static const key_row rows[] = {
#include "job/job_keys.def"
};
#undef JOB_KEY
#define N_ROWS (sizeof rows / sizeof rows[0])

/* The public view: the jc_job_key parts of rows[], in order. */
#define JOB_KEY(name, kind, field, arg, range, min, max, unit, modes, hint, help) {name, arg, help},
static const jc_job_key pub_keys[] = {
#include "job/job_keys.def"
};
#undef JOB_KEY

const jc_job_key *jc_job_keys(size_t *n)
{
    if (n) *n = N_ROWS;
    return pub_keys;
}

const char *jc_job_key_canonical(const char *key)
{
    for (size_t i = 0; key && i < N_ROWS; i++) {
        if (strcmp(rows[i].pub.name, key)) continue;
        for (size_t k = 0; k <= i; k++)
            if (rows[k].off == rows[i].off) return rows[k].pub.name;
    }
    return NULL;
}

/* Names other tools (and people) give these options, as data: the key
 * they mean, ahead of the nearest spelling ('gpu' is the device, not
 * gpu-usage); named: the key meant when the value given is a name, not a
 * number ('--devices a100' is the device, '--devices 8' the count). */
static const struct { const char *said, *key, *named; } meant[] = {
    {"gpu", "device", NULL}, {"gpus", "count", "device"}, {"accelerator", "device", NULL},
    {"hardware", "device", NULL}, {"gpu-type", "device", NULL}, {"gpu-model", "device", NULL},
    {"num-gpus", "count", NULL}, {"gpu-count", "count", NULL}, {"n-gpus", "count", NULL},
    {"devices", "count", "device"}, {"location", "region", NULL}, {"country", "region", NULL},
    {"zone", "region", NULL}, {"runtime-hours", "hours", NULL}, {"duration", "hours", NULL},
};

const char *jc_job_key_meant(const char *name)
{
    return jc_job_key_meant_for(name, NULL);
}

const char *jc_job_key_meant_for(const char *name, const char *value)
{
    for (size_t i = 0; name && i < sizeof meant / sizeof meant[0]; i++) {
        if (strcmp(meant[i].said, name)) continue;
        char *end = NULL;
        if (meant[i].named && value && *value) (void)strtod(value, &end);
        return end && *end ? meant[i].named : meant[i].key;
    }
    return NULL;
}

const char *jc_closest_key(const char *name, const char *value, const char *const *names, size_t n)
{
    const char *m = jc_job_key_meant_for(name, value);   /* 'gpu' means the device */
    for (size_t i = 0; m && i < n; i++)
        if (names[i] && !strcmp(names[i], m)) return m;
    return jc_closest_name(name, names, n);
}

const char *jc_job_key_closest(const char *name)
{
    if (jc_job_key_meant(name)) return jc_job_key_meant(name);
    jci_suggest sg;
    jci_suggest_init(&sg, name, 1);
    for (size_t i = 0; name && i < N_ROWS; i++) jci_suggest_add(&sg, rows[i].pub.name, NULL);
    return jci_suggest_best(&sg);
}

static jc_status bad(jc_diag *d, const char *key, const char *want, const char *got)
{
    return jci_diag_set(d, JC_ERR_USAGE, "%s expects %s, got '%s'", key, want, got ? got : "(nothing)");
}

/* A decimal number as a YAML job file writes one: digits, one '.', an
 * exponent; no hex ("0x10", which strtod reads as 16), no "inf"/"nan",
 * no leading space. */
static bool decimal_syntax(const char *s)
{
    if (*s == '+' || *s == '-') s++;
    if (!((*s >= '0' && *s <= '9') || *s == '.')) return false;
    for (; *s; s++)
        if (!((*s >= '0' && *s <= '9') || *s == '.' || *s == 'e' || *s == 'E' || *s == '+' || *s == '-'))
            return false;
    return true;
}

static int parse_num(const char *s, double *out)
{
    if (!s || !*s || !decimal_syntax(s)) return -1;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*end) return -1;
    if (errno == ERANGE && fabs(v) == HUGE_VAL) return -2;
    if (errno || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

static const key_row *row_of(const char *key)
{
    for (size_t i = 0; key && i < N_ROWS; i++)
        if (!strcmp(rows[i].pub.name, key)) return &rows[i];
    return NULL;
}

const double *jc_job_key_max(const char *key)
{
    const key_row *r = row_of(key);
    /* a size limit (JC_ERR_RANGE above it), not the end of an interval */
    return r && r->max > 0 && r->range != R_IN && r->range != R_INGT ? &r->max : NULL;
}

/* The one check of a number against its row (job_keys.def's range, min,
 * max and unit): a fraction or factor (IN, INGT) outside its interval is a
 * usage error; another number above max is out of range, below its lower
 * bound (or not whole for a count of things) a usage error.  `dash` is
 * "--" where the message names the key as an option of a filled-in job
 * (jc_job_check), "" where the caller adds its own prefix (jc_job_set: the
 * CLI says "--", a job file its file:line:col). */
static jc_status check_row(jc_diag *d, const key_row *r, const char *dash, const char *label, double v)
{
    if (r->range == R_ANY) return JC_OK;
    const char *name = label ? label : r->pub.name;
    const char *sp = r->unit && *r->unit ? " " : "", *unit = r->unit ? r->unit : "";
    if (r->range == R_IN || r->range == R_INGT) {
        if (r->range == R_IN ? v >= r->min && v <= r->max : v > r->min && v <= r->max) return JC_OK;
        return jci_diag_set(d, JC_ERR_USAGE, "%s%s must be in %s%g, %g]%s%s (got %g)", dash, name,
                            r->range == R_IN ? "[" : "(", r->min, r->max, sp, unit, v);
    }
    if (r->max > 0 && fabs(v) > r->max)
        return jci_diag_set(d, JC_ERR_RANGE, "%s%s %g is out of range: at most %g %s", dash, name, v, r->max, unit);
    if (r->range == R_WHOLE && (v != floor(v) || v < r->min))
        return jci_diag_set(d, JC_ERR_USAGE, "%s%s must be a whole number >= %g (got %g %s)", dash, name, r->min, v,
                            unit);
    if (r->range == R_GT ? !(v > r->min) : !(v >= r->min))
        return jci_diag_set(d, JC_ERR_USAGE, "%s%s must be %s %g (got %g %s)", dash, name,
                            r->range == R_GT ? ">" : ">=", r->min, v, unit);
    return JC_OK;
}

jc_status jc_job_check_value(const char *key, const char *label, double v, jc_diag *d)
{
    const key_row *r = row_of(key);
    if (!r || r->kind != K_NUM) return jci_diag_set(d, JC_ERR_INTERNAL, "jc_job_check_value: '%s' is not a number key",
                                                   key ? key : "(null)");
    if (isnan(v)) return JC_OK;
    return check_row(d, r, label ? "" : "--", label, v);
}

jc_status jc_job_check(const jc_job *job, jc_diag *d)
{
    if (!job) return jci_diag_set(d, JC_ERR_USAGE, "jc_job_check: NULL job");
    const char *base = (const char *)job;
    for (size_t i = 0; i < N_ROWS; i++) {
        if (rows[i].kind != K_NUM) continue;
        double v = *(const double *)(base + rows[i].off);
        if (isnan(v)) continue;
        jc_status st = check_row(d, &rows[i], "--", NULL, v);
        if (st) return st;
    }
    /* the one bound between two keys: the active share of the parameters */
    if (job->active_params > job->params)   /* false when either is NAN */
        return jci_diag_set(d, JC_ERR_USAGE, "--active-params %g is above --params %g", job->active_params, job->params);
    return jc_job_scenario_check(job, d);   /* the scenario's name, batch and bound (request.c) */
}

jc_status jc_job_set(jc_job *job, const char *key, const char *value, jc_diag *d)
{
    if (!job || !key) return jci_diag_set(d, JC_ERR_USAGE, "jc_job_set: NULL argument");
    const key_row *r = row_of(key);
    if (!r) {
        const char *best = jc_job_key_closest(key);
        if (best) return jci_diag_set(d, JC_ERR_NOTFOUND, "unknown key '%s'; did you mean '%s'?", key, best);
        return jci_diag_set(d, JC_ERR_NOTFOUND, "unknown key '%s'", key);
    }
    char *base = (char *)job;
    int on;
    switch (r->kind) {
    case K_NUM: {
        double v;
        int pr = parse_num(value, &v);
        if (pr == -2) /* too large for a double: out of range, not malformed */
            return jci_diag_set(d, JC_ERR_RANGE, "%s %s is out of range%s", key, value,
                               r->max > 0 ? " (too large)" : "");
        if (pr) return bad(d, key, "a number", value);
        jc_status lst = check_row(d, r, "", NULL, v);
        if (lst) return lst;
        *(double *)(base + r->off) = v;
        return JC_OK;
    }
    case K_NAME:
        if (!value || !*value) return bad(d, key, "a name", value);
        *(const char **)(base + r->off) = value;
        return JC_OK;
    case K_FLAG:
        if (jc_parse_flag(key, value, &on, d)) return JC_ERR_USAGE;
        *(int *)(base + r->off) = on;
        return JC_OK;
    case K_TRAIN: case K_INFER: case K_GEN:
        if (jc_parse_flag(key, value, &on, d)) return JC_ERR_USAGE;
        if (on) job->mode = r->kind == K_TRAIN ? JC_MODE_TRAINING
                          : r->kind == K_GEN ? JC_MODE_GENERATION : JC_MODE_INFERENCE;
        return JC_OK;
    case K_MODE:
        if (value && (!strcmp(value, "training") || !strcmp(value, "train"))) job->mode = JC_MODE_TRAINING;
        else if (value && (!strcmp(value, "inference") || !strcmp(value, "infer"))) job->mode = JC_MODE_INFERENCE;
        else if (value && (!strcmp(value, "generation") || !strcmp(value, "generate"))) job->mode = JC_MODE_GENERATION;
        else return bad(d, key, "training, inference or generation", value);
        return JC_OK;
    case K_METHOD:
        if (value && !strcmp(value, "roofline")) job->method = JC_METHOD_ROOFLINE;
        else if (value && !strcmp(value, "joules-per-op")) job->method = JC_METHOD_JOULES_PER_OP;
        else if (value && !strcmp(value, "tdp")) job->method = JC_METHOD_TDP;
        else return bad(d, key, "roofline, joules-per-op or tdp", value);
        return JC_OK;
    }
    return jci_diag_set(d, JC_ERR_INTERNAL, "jc_job_set: bad key table");
}

/* ---- keys that belong to one kind of estimate -------------------------------- */

/* The keys that do something in some modes only are job_keys.def's with
 * a modes column other than ALL (every other key applies to all, or is
 * checked where its use is); gen_hint says what to give instead in a
 * serving estimate. */

/* Is row r's field set in the job (not at jc_job_init's "not given")? */
static int key_given(const jc_job *job, const key_row *r)
{
    const char *base = (const char *)job;
    switch (r->kind) {
    case K_NUM: return !isnan(*(const double *)(base + r->off));
    case K_NAME: return *(const char *const *)(base + r->off) != NULL;
    case K_FLAG: return *(const int *)(base + r->off) != 0;
    default: return 0;
    }
}

static const char *kind_of(unsigned modes)
{
    switch (modes) {
    case JM_TRAIN: return "a training option";
    case JM_INF: return "an inference option";
    case JM_GEN: return "a serving option (--generate)";
    case JM_INF_GEN: return "an inference and serving option";
    case JM_TRAIN_GEN: return "a training and serving option";
    default: return "an option of inference and training estimates";
    }
}

jc_status jc_job_check_mode(const jc_job *job, jc_diag *d)
{
    if (!job) return jci_diag_set(d, JC_ERR_USAGE, "jc_job_check_mode: NULL job");
    unsigned m = 1u << job->mode;
    for (size_t i = 0; i < N_ROWS; i++) {
        const key_row *r = &rows[i];
        if ((r->modes & m) || !key_given(job, r)) continue;
        const char *what = job->mode == JC_MODE_TRAINING ? "a training estimate"
                         : job->mode == JC_MODE_GENERATION ? "a serving estimate (--generate)"
                                                           : "an inference estimate (the default mode)";
        const char *fix;
        if (job->mode == JC_MODE_GENERATION) fix = r->gen_hint ? r->gen_hint : "";
        else if (r->modes == JM_GEN) fix = ": add --generate (--mode generation), or drop it";
        else if (job->mode == JC_MODE_TRAINING) fix = ": drop it, or estimate inference without --train";
        else fix = ": add --train, or drop it";
        return jci_diag_set(d, JC_ERR_USAGE, "--%s is %s and has no effect on %s%s%s", r->pub.name, kind_of(r->modes), what,
                           job->mode == JC_MODE_GENERATION ? ": drop it" : "", fix);
    }
    return JC_OK;
}

const char *jc_job_ci_basis(const jc_job *job)
{
    if (!job || !isnan(job->ci)) return NULL;
    if (!job->ci_dataset) return JC_CI_BASIS;
    return strcmp(job->ci_dataset, "default") ? job->ci_dataset : NULL;
}

/* ---- a job with nothing given ---------------------------------------------- */

void jc_job_init(jc_job *j)
{
    memset(j, 0, sizeof *j);
    j->mode = JC_MODE_INFERENCE;
    j->method = JC_METHOD_ROOFLINE;
    j->flops = j->params = j->active_params = j->tokens = NAN;
    j->requests = j->batch = j->tokens_per_request = NAN;
    j->samples = j->epochs = j->seq = NAN;
    j->backward_factor = NAN;
    j->hours = j->device_hours = j->avg_power_w = j->power_limit_w = NAN;
    j->gpu_usage = j->cpu_usage = NAN;
    j->trace_gap_s = j->trace_idle_w = j->trace_interval_s = NAN;
    j->count = j->hosts = j->utilization = j->host_power_w = j->scaling = NAN;
    j->ci = j->pue = j->lifetime_years = NAN;
    j->prompt_tokens = j->output_tokens = j->concurrency = NAN;
    j->tp = j->pp = j->ep = NAN;
    j->micro_batches = j->hidden = NAN;
    j->layers = j->heads = j->total_params = j->cp = j->zero = j->virtual_stages = NAN;
    j->distill_teacher = j->mtp_heads = j->long_seq = j->long_tokens = j->goodput = NAN;
    j->lora_rank = NAN;
    j->latency_bound_ms = NAN;
    j->vcpus = j->threads = NAN;
    j->draws = j->seed = NAN;   /* issue 45 */
    j->eval_every = j->eval_samples = j->checkpoint_every = j->checkpoint_gb = j->storage_gbs = j->dp_overlap = NAN;   /* issue 39 */
    j->wue = j->grid_water = NAN;   /* issue 45: cost and water */
}
