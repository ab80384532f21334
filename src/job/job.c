/*
 * job.c - a jc_job's keys as data: the option table (src/job/job_keys.def)
 * that the command line, job files and the bindings share, and the one
 * place that turns a key and its text into a field of the job.  (What a
 * job does to a model - batch rules, bindings - is src/job/request.c.)
 */
#include "base/jc_internal.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum { K_NUM, K_NAME, K_FLAG, K_MODE, K_TRAIN, K_INFER, K_GEN, K_METHOD };

typedef struct key_row {
    jc_job_key pub;
    int kind;
    size_t off;
} key_row;

#define JOB_KEY(name, kind, field, arg, help) {{name, arg, help}, K_##kind, offsetof(jc_job, field)},
static const key_row rows[] = {
#include "job/job_keys.def"
};
#undef JOB_KEY
#define N_ROWS (sizeof rows / sizeof rows[0])

/* The public view: the jc_job_key parts of rows[], in order. */
#define JOB_KEY(name, kind, field, arg, help) {name, arg, help},
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
 * gpu-usage). */
static const struct { const char *said, *key; } meant[] = {
    {"gpu", "device"}, {"gpus", "count"}, {"accelerator", "device"}, {"hardware", "device"},
    {"gpu-type", "device"}, {"gpu-model", "device"}, {"num-gpus", "count"}, {"gpu-count", "count"},
    {"n-gpus", "count"}, {"devices", "count"}, {"location", "region"}, {"country", "region"},
    {"zone", "region"}, {"runtime-hours", "hours"}, {"duration", "hours"},
};

const char *jc_job_key_meant(const char *name)
{
    for (size_t i = 0; name && i < sizeof meant / sizeof meant[0]; i++)
        if (!strcmp(meant[i].said, name)) return meant[i].key;
    return NULL;
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

/* The largest value a size option may take: beyond it the figures would be
 * astronomical, not a job anyone runs (the largest published training runs
 * use ~1e5 devices, ~4e13 tokens, ~5e25 FLOPs).  A value above its limit is
 * refused with JC_ERR_RANGE naming the option and the limit. */
static const struct size_limit {
    const char *key;
    double max;
    const char *unit;
    int zero_ok;     /* 1: 0 is a value (no host power); else sizes are > 0 */
    int whole;       /* 1: a count of things, a whole number (8.5 devices
                        is refused where it is given, file:line:col) */
} size_limits[] = {
    {"batch", 1e9, "samples per batch", 0, 1},
    {"flops", 1e30, "FLOPs", 0, 0},
    {"params", 1e15, "parameters", 0, 0},
    {"active-params", 1e15, "parameters", 0, 0},
    {"tokens", 1e18, "tokens", 0, 0},
    {"seq", 1e9, "tokens per sample", 0, 0},
    {"requests", 1e18, "requests", 0, 0},
    {"tokens-per-request", 1e9, "tokens", 0, 0},
    {"samples", 1e15, "samples per epoch", 0, 0},
    {"epochs", 1e6, "epochs", 0, 0},
    {"backward-factor", 100, "x forward", 0, 0},
    {"hours", 1e6, "hours", 0, 0},
    {"device-hours", 1e12, "device-hours", 0, 0},
    {"avg-power", 1e5, "W per device", 0, 0},
    {"count", 1e8, "devices", 0, 1},
    {"hosts", 1e7, "hosts", 0, 1},
    {"host-power", 1e6, "W per host", 1, 0},
    {"lifetime", 100, "years", 0, 0},
    {"prompt-tokens", 1e7, "tokens per request", 0, 0},
    {"output-tokens", 1e6, "tokens per request", 0, 0},
    {"concurrency", 1e6, "running sequences", 0, 1},
    {"tp", 1e5, "devices", 0, 1},
    {"pp", 1e4, "stages", 0, 1},
    {"ep", 1e5, "devices", 0, 1},
    {"micro-batches", 1e6, "micro-batches", 0, 1},
    {"hidden", 1e6, "dimensions", 0, 0},
    {"layers", 1e5, "layers", 0, 1},
    {"heads", 1e5, "heads", 0, 1},
    {"total-params", 1e15, "parameters", 0, 0},
    {"cp", 1e5, "devices", 0, 1},
    {"zero", 3, "(ZeRO stage)", 1, 1},
    {"virtual-stages", 1e3, "stages per device", 0, 1},
    {"distill-teacher", 1e15, "parameters", 0, 0},
    {"mtp-heads", 64, "modules", 1, 1},
    {"long-seq", 1e9, "tokens per sample", 0, 0},
    {"long-tokens", 1e18, "tokens", 0, 0},
};

const double *jc_job_key_max(const char *key)
{
    for (size_t i = 0; key && i < sizeof size_limits / sizeof size_limits[0]; i++)
        if (!strcmp(size_limits[i].key, key)) return &size_limits[i].max;
    return NULL;
}

/* A size is a count or an amount of something: above its limit it is out
 * of range, and it must be positive (>= 0 where the table says zero_ok)
 * and, for a count of things, whole. */
static jc_status check_limit(jc_diag *d, const char *key, double v)
{
    for (size_t i = 0; i < sizeof size_limits / sizeof size_limits[0]; i++) {
        if (strcmp(size_limits[i].key, key)) continue;
        if (fabs(v) > size_limits[i].max)
            return jci_diag_set(d, JC_ERR_RANGE, "%s %g is out of range: at most %g %s", key, v,
                               size_limits[i].max, size_limits[i].unit);
        int zero_ok = size_limits[i].zero_ok;
        if (v < 0 || (v == 0 && !zero_ok))
            return jci_diag_set(d, JC_ERR_USAGE, "%s must be %s (got %g %s)", key, zero_ok ? ">= 0" : "> 0", v,
                               size_limits[i].unit);
        if (size_limits[i].whole && v != floor(v))
            return jci_diag_set(d, JC_ERR_USAGE, "%s must be a whole number (got %g %s)", key, v,
                               size_limits[i].unit);
    }
    return JC_OK;
}

static int parse_flag(const char *s, int *on)
{
    if (!s || !strcmp(s, "true") || !strcmp(s, "yes") || !strcmp(s, "1") || !strcmp(s, "on")) {
        *on = 1;
        return 0;
    }
    if (!strcmp(s, "false") || !strcmp(s, "no") || !strcmp(s, "0") || !strcmp(s, "off")) {
        *on = 0;
        return 0;
    }
    return -1;
}

jc_status jc_job_set(jc_job *job, const char *key, const char *value, jc_diag *d)
{
    if (!job || !key) return jci_diag_set(d, JC_ERR_USAGE, "jc_job_set: NULL argument");
    const key_row *r = NULL;
    for (size_t i = 0; i < N_ROWS && !r; i++)
        if (!strcmp(rows[i].pub.name, key)) r = &rows[i];
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
                               jc_job_key_max(key) ? " (too large)" : "");
        if (pr) return bad(d, key, "a number", value);
        jc_status lst = check_limit(d, key, v);
        if (lst) return lst;
        *(double *)(base + r->off) = v;
        return JC_OK;
    }
    case K_NAME:
        if (!value || !*value) return bad(d, key, "a name", value);
        *(const char **)(base + r->off) = value;
        return JC_OK;
    case K_FLAG:
        if (parse_flag(value, &on)) return bad(d, key, "true or false", value);
        *(int *)(base + r->off) = on;
        return JC_OK;
    case K_TRAIN: case K_INFER: case K_GEN:
        if (parse_flag(value, &on)) return bad(d, key, "true or false", value);
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

enum { M_INF = 1 << JC_MODE_INFERENCE, M_TRAIN = 1 << JC_MODE_TRAINING, M_GEN = 1 << JC_MODE_GENERATION };

/* The keys that do something in some modes only (every other key applies
 * to all, or is checked where its use is: --tp/--pp/--hidden by the
 * layout, --hf-config and the decoder dims by the serving request), and
 * what to say in a mode where the key does nothing. */
static const struct mode_row {
    const char *key;
    unsigned modes;
    const char *gen_hint;   /* in a serving estimate: what to give instead */
} mode_rows[] = {
    {"samples", M_TRAIN, NULL},
    {"epochs", M_TRAIN, NULL},
    {"optimizer", M_TRAIN, NULL},
    {"backward-factor", M_TRAIN, NULL},
    {"recompute", M_TRAIN, NULL},
    {"micro-batches", M_TRAIN, NULL},
    {"layers", M_TRAIN, NULL},
    {"heads", M_TRAIN, NULL},
    {"total-params", M_TRAIN, NULL},
    {"cp", M_TRAIN, NULL},
    {"zero", M_TRAIN, NULL},
    {"virtual-stages", M_TRAIN, NULL},
    {"distill-teacher", M_TRAIN, NULL},
    {"mtp-heads", M_TRAIN, NULL},
    {"long-seq", M_TRAIN, NULL},
    {"long-tokens", M_TRAIN, NULL},
    {"ep", M_GEN | M_TRAIN, NULL},
    {"requests", M_INF | M_GEN, NULL},
    {"tokens-per-request", M_INF, " (give --output-tokens)"},
    {"runtime", M_INF | M_TRAIN, " (the serving runtime is --serving-runtime)"},
    {"precision", M_INF | M_TRAIN, " (the arithmetic precision follows --weights)"},
    {"prompt-tokens", M_GEN, NULL},
    {"output-tokens", M_GEN, NULL},
    {"concurrency", M_GEN, NULL},
    {"weights", M_GEN, NULL},
    {"kv-format", M_GEN, NULL},
    {"serving-runtime", M_GEN, NULL},
};

/* Is the key set in the job (not at jc_job_init's "not given")? */
static int key_given(const jc_job *job, const char *key)
{
    const char *base = (const char *)job;
    for (size_t i = 0; i < N_ROWS; i++) {
        if (strcmp(rows[i].pub.name, key)) continue;
        switch (rows[i].kind) {
        case K_NUM: return !isnan(*(const double *)(base + rows[i].off));
        case K_NAME: return *(const char *const *)(base + rows[i].off) != NULL;
        case K_FLAG: return *(const int *)(base + rows[i].off) != 0;
        default: return 0;
        }
    }
    return 0;
}

static const char *kind_of(unsigned modes)
{
    switch (modes) {
    case M_TRAIN: return "a training option";
    case M_INF: return "an inference option";
    case M_GEN: return "a serving option (--generate)";
    case M_INF | M_GEN: return "an inference and serving option";
    case M_TRAIN | M_GEN: return "a training and serving option";
    default: return "an option of inference and training estimates";
    }
}

jc_status jc_job_check_mode(const jc_job *job, jc_diag *d)
{
    if (!job) return jci_diag_set(d, JC_ERR_USAGE, "jc_job_check_mode: NULL job");
    unsigned m = 1u << job->mode;
    for (size_t i = 0; i < sizeof mode_rows / sizeof mode_rows[0]; i++) {
        const struct mode_row *r = &mode_rows[i];
        if ((r->modes & m) || !key_given(job, r->key)) continue;
        const char *what = job->mode == JC_MODE_TRAINING ? "a training estimate"
                         : job->mode == JC_MODE_GENERATION ? "a serving estimate (--generate)"
                                                           : "an inference estimate (the default mode)";
        const char *fix;
        if (job->mode == JC_MODE_GENERATION) fix = r->gen_hint ? r->gen_hint : "";
        else if (r->modes == M_GEN) fix = ": add --generate (--mode generation), or drop it";
        else if (job->mode == JC_MODE_TRAINING) fix = ": drop it, or estimate inference without --train";
        else fix = ": add --train, or drop it";
        return jci_diag_set(d, JC_ERR_USAGE, "--%s is %s and has no effect on %s%s%s", r->key, kind_of(r->modes), what,
                           job->mode == JC_MODE_GENERATION ? ": drop it" : "", fix);
    }
    return JC_OK;
}
