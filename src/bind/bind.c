/*
 * bind.c - the library's entry points for language bindings: options as
 * key/value strings in, the CLI's JSON document out (joulecast.h
 * "Bindings").  Keys are the long option names of `joulecast count`,
 * `estimate` and `ga` without the dashes, the same as job-file keys, so a
 * binding never lays out a C struct and stays correct when fields are
 * added.  tests/python.sh checks that every option the CLI's --help lists
 * (except output formats) is a key here.
 */
#include "base/jc_internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void jc_free(void *p)
{
    free(p);
}

/* ---- value parsing -------------------------------------------------------- */

static jc_status bad(jc_diag *d, const char *key, const char *want, const char *val)
{
    return jci_diag_set(d, JC_ERR_USAGE, "option '%s' expects %s, got '%s'", key, want,
                       val ? val : "(null)");
}

static jc_status num(const char *key, const char *val, double *out, jc_diag *d)
{
    if (!val || !*val) return bad(d, key, "a number", val);
    char *end;
    errno = 0;
    double v = strtod(val, &end);
    if (errno || *end || !isfinite(v)) return bad(d, key, "a number", val);
    *out = v;
    return JC_OK;
}

/* A flag: absent value, "", 1/true/yes/on turn it on; 0/false/no/off off. */
static jc_status flag(const char *key, const char *val, int *out, jc_diag *d)
{
    if (!val || !*val || !strcmp(val, "1") || !strcmp(val, "true") || !strcmp(val, "yes") ||
        !strcmp(val, "on"))
        *out = 1;
    else if (!strcmp(val, "0") || !strcmp(val, "false") || !strcmp(val, "no") || !strcmp(val, "off"))
        *out = 0;
    else
        return bad(d, key, "true or false", val);
    return JC_OK;
}

static jc_status i64(const char *key, const char *val, int64_t lo, int64_t *out, jc_diag *d)
{
    if (!val || !*val) return bad(d, key, "a whole number", val);
    char *end;
    errno = 0;
    long long v = strtoll(val, &end, 10);
    if (errno || *end || v < lo) return bad(d, key, "a whole number", val);
    *out = v;
    return JC_OK;
}

/* NAME=V with V >= lo. */
static jc_status binding(jci_arena *a, const char *key, const char *val, int64_t lo,
                         jc_dim_binding *b, jc_diag *d)
{
    const char *eq = val ? strchr(val, '=') : NULL;
    if (!eq || eq == val) return bad(d, key, "NAME=VALUE", val);
    if (i64(key, eq + 1, lo, &b->value, d)) return d ? d->status : JC_ERR_USAGE;
    b->name = jci_arena_strndup(a, val, (size_t)(eq - val));
    return b->name ? JC_OK : jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
}

/* NAME=AxBxC (x or , between dims). */
static jc_status input(jci_arena *a, const char *key, const char *val, jc_input_binding *b,
                       jc_diag *d)
{
    const char *eq = val ? strchr(val, '=') : NULL;
    if (!eq || eq == val || !eq[1]) return bad(d, key, "NAME=AxBxC", val);
    int64_t *dims = jci_arena_calloc(a, 64, sizeof *dims);
    char *name = jci_arena_strndup(a, val, (size_t)(eq - val));
    if (!dims || !name) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    int r = 0;
    const char *p = eq + 1;
    while (*p) {
        char *end;
        errno = 0;
        long long v = strtoll(p, &end, 10);
        if (end == p || errno || v < 0 || r >= 64) return bad(d, key, "NAME=AxBxC", val);
        dims[r++] = v;
        if (*end == 'x' || *end == 'X' || *end == ',') {
            p = end + 1;
            if (!*p) return bad(d, key, "NAME=AxBxC", val);
        } else if (*end) {
            return bad(d, key, "NAME=AxBxC", val);
        } else {
            p = end;
        }
    }
    b->name = name;
    b->rank = r;
    b->dims = dims;
    return JC_OK;
}

/* NAME=v1,v2,... (numbers; "NAME=" binds an empty tensor). */
static jc_status values(jci_arena *a, const char *key, const char *val, jc_value_binding *b,
                        jc_diag *d)
{
    const char *eq = val ? strchr(val, '=') : NULL;
    if (!eq || eq == val) return bad(d, key, "NAME=V,V,...", val);
    size_t n = 0, len = strlen(eq + 1);
    for (size_t i = 0; i < len; i++) n += eq[1 + i] == ',';
    n = len ? n + 1 : 0;
    if (n > JCI_SMALL_TENSOR) return bad(d, key, "at most 4096 values", val);
    int64_t *iv = jci_arena_calloc(a, n ? n : 1, sizeof *iv);
    double *fv = jci_arena_calloc(a, n ? n : 1, sizeof *fv);
    char *name = jci_arena_strndup(a, val, (size_t)(eq - val));
    if (!iv || !fv || !name) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    const char *p = eq + 1;
    for (size_t k = 0; k < n; k++) {
        char *end;
        errno = 0;
        double x = strtod(p, &end);
        if (end == p || errno || !(x > -9.2e18 && x < 9.2e18) || (*end != ',' && *end))
            return bad(d, key, "NAME=V,V,...", val);
        fv[k] = x;
        iv[k] = (int64_t)x;
        p = *end ? end + 1 : end;
    }
    b->name = name;
    b->n = (int64_t)n;
    b->ivals = iv;
    b->fvals = fv;
    return JC_OK;
}

static jc_status unknown(jc_diag *d, const char *cmd, const char *key)
{
    return jci_diag_set(d, JC_ERR_USAGE, "%s: unknown option '%s' (keys are the long option "
                       "names of 'joulecast %s' without the dashes)", cmd, key ? key : "(null)", cmd);
}

static jc_status check_out(char **json, jc_diag *d)
{
    if (!json) return jci_diag_set(d, JC_ERR_USAGE, "json output pointer is NULL");
    *json = NULL;
    jci_diag_clear(d);
    return JC_OK;
}

/* ---- count ---------------------------------------------------------------- */

static const char *const count_keys[] = {
    "dim", "input", "input-value", "batch", "assume", "convention", "op-rules", "strict", NULL
};

typedef struct analyze_args {
    jc_analyze_opts o;
    jc_dim_binding *dims, *assume;
    jc_input_binding *inputs;
    jc_value_binding *values;
    int strict;
} analyze_args;

/* Applies one analysis key (count's keys; estimate shares dim and input).
 * Returns 1 when the key was one of them (status in *st), 0 otherwise. */
static int analyze_key(jci_arena *a, analyze_args *x, const char *k, const char *v, jc_status *st,
                       jc_diag *d)
{
    *st = JC_OK;
    if (!strcmp(k, "dim")) {
        *st = binding(a, k, v, 1, &x->dims[x->o.n_dims], d);
        if (!*st) x->o.n_dims++;
    } else if (!strcmp(k, "assume")) {
        *st = binding(a, k, v, 0, &x->assume[x->o.n_assume], d);
        if (!*st) x->o.n_assume++;
    } else if (!strcmp(k, "input-value")) {
        *st = values(a, k, v, &x->values[x->o.n_values], d);
        if (!*st) x->o.n_values++;
    } else if (!strcmp(k, "input")) {
        *st = input(a, k, v, &x->inputs[x->o.n_inputs], d);
        if (!*st) x->o.n_inputs++;
    } else {
        return 0;
    }
    return 1;
}

static jc_status analyze_args_init(jci_arena *a, analyze_args *x, size_t n, jc_diag *d)
{
    memset(x, 0, sizeof *x);
    x->dims = jci_arena_calloc(a, n + 1, sizeof *x->dims);
    x->assume = jci_arena_calloc(a, n + 1, sizeof *x->assume);
    x->inputs = jci_arena_calloc(a, n + 1, sizeof *x->inputs);
    x->values = jci_arena_calloc(a, n + 1, sizeof *x->values);
    if (!x->dims || !x->assume || !x->inputs || !x->values) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    x->o.dims = x->dims;
    x->o.assume = x->assume;
    x->o.inputs = x->inputs;
    x->o.values = x->values;
    return JC_OK;
}

static jc_status strict_check(const jc_analysis *an, int strict, const char *path, jc_diag *d)
{
    if (an->partial && strict)
        return jci_diag_set(d, JC_ERR_INCOMPLETE, "%s: the count is partial (see joulecast count) "
                           "and strict was given", path);
    return JC_OK;
}

jc_status jc_run_count_json(const char *model_path, const char *const *keys,
                        const char *const *values, size_t n, char **json, jc_diag *d)
{
    if (check_out(json, d)) return JC_ERR_USAGE;
    if (!model_path) return jci_diag_set(d, JC_ERR_USAGE, "count: no model path");
    if (n && (!keys || !values)) return jci_diag_set(d, JC_ERR_USAGE, "count: NULL keys or values");
    jci_arena *a = jci_arena_new();
    if (!a) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    jc_model *m = NULL;
    jc_analysis *an = NULL;
    analyze_args x;
    jc_status st = analyze_args_init(a, &x, n, d);
    for (size_t i = 0; i < n && !st; i++) {
        const char *k = keys[i], *v = values[i];
        if (k && analyze_key(a, &x, k, v, &st, d)) continue;
        if (!k) st = unknown(d, "count", k);
        else if (!strcmp(k, "batch")) st = i64(k, v, 1, &x.o.batch, d);
        else if (!strcmp(k, "convention")) {
            if (!v || jc_convention_parse(v, &x.o.convention))
                st = bad(d, k, "joulecast, torchvision, flops2x, fvcore or onnx-tool", v);
        } else if (!strcmp(k, "op-rules")) x.o.op_rules_path = v;
        else if (!strcmp(k, "strict")) st = flag(k, v, &x.strict, d);
        else st = unknown(d, "count", k);
    }
    if (!st) st = jc_model_load(model_path, &m, d);
    if (!st) st = jc_analyze(m, &x.o, &an, d);
    if (!st) st = strict_check(an, x.strict, model_path, d);
    if (!st) {
        *json = jc_report_count_json(an);
        if (!*json) st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    }
    jc_analysis_free(an);
    jc_model_free(m);
    jci_arena_free(a);
    return st;
}

/* The database: the snapshot of hwdb_dir when one is given, there are no
 * layers and it is fresh (src/hwdb/snapshot.c), else the YAML. */
static jc_status open_hwdb(const char *hwdb_dir, const char *snapshot,
                           const char *const *layers, size_t n_layers, jc_hwdb **db,
                           jc_diag *d)
{
    if (snapshot && hwdb_dir && !n_layers &&
        jc_hwdb_snapshot_open(snapshot, hwdb_dir, 0, db, d) == JC_OK)
        return JC_OK;
    return jc_hwdb_load(hwdb_dir, layers, n_layers, NULL, db, d);
}

/* ---- estimate --------------------------------------------------------------- */

/* The keys jc_bind_keys("estimate") lists: every key of a jc_job (the
 * library's table, src/job/job_keys.def), then the binding's own. */
#define JOB_KEY(name, kind, field, arg, help) name,
static const char *const est_key_names[] = {
#include "job/job_keys.def"
    "model", "dim", "input", "op-rules", "hwdb", "hwdb-snapshot", "strict", "allow-partial", NULL
};
#undef JOB_KEY

jc_status jc_run_estimate_json(const char *hwdb_dir, const char *const *keys,
                           const char *const *values, size_t n, char **json, jc_diag *d)
{
    if (check_out(json, d)) return JC_ERR_USAGE;
    if (n && (!keys || !values)) return jci_diag_set(d, JC_ERR_USAGE, "estimate: NULL keys or values");
    jci_arena *a = jci_arena_new();
    if (!a) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    jc_job job;
    jc_job_init(&job);
    const char *model = NULL, *snapshot = NULL;
    const char **layers = jci_arena_calloc(a, n + 1, sizeof *layers);
    size_t n_layers = 0;
    jc_prepared *p = NULL;
    jc_hwdb *db = NULL;
    jc_estimate *e = NULL;
    int allow_partial = 0;
    analyze_args x;
    jc_status st = layers ? analyze_args_init(a, &x, n, d) : jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n && !st; i++) {
        const char *k = keys[i], *v = values[i];
        if (!k) {
            st = unknown(d, "estimate", "(null)");
        } else if (!strcmp(k, "model")) {
            if (!v || !*v) st = bad(d, k, "a file name", v);
            else model = v;
        } else if (!strcmp(k, "dim") || !strcmp(k, "input")) {
            analyze_key(a, &x, k, v, &st, d);
        } else if (!strcmp(k, "hwdb")) {
            if (!v || !*v) st = bad(d, k, "a folder or .yaml file", v);
            else layers[n_layers++] = v;
        } else if (!strcmp(k, "hwdb-snapshot")) {
            if (!v || !*v) st = bad(d, k, "a snapshot file", v);
            else snapshot = v;
        } else if (!strcmp(k, "strict")) {
            st = flag(k, v, &x.strict, d);
        } else if (!strcmp(k, "allow-partial")) {
            st = flag(k, v, &allow_partial, d);
        } else if (!strcmp(k, "op-rules")) {
            if (!v || !*v) st = bad(d, k, "a file name", v);
            else x.o.op_rules_path = v;
        } else {
            st = jc_job_set(&job, k, v, d);
            if (st == JC_ERR_NOTFOUND) st = unknown(d, "estimate", k);
        }
    }
    if (!st && !hwdb_dir && !n_layers)
        st = jci_diag_set(d, JC_ERR_USAGE, "estimate: no hardware database (give its folder, "
                         "or an hwdb layer)");
    if (!st) st = open_hwdb(hwdb_dir, snapshot, layers, n_layers, &db, d);
    if (!st && x.strict && allow_partial)
        st = jci_diag_set(d, JC_ERR_USAGE, "estimate: strict and allow-partial contradict each other; give one");
    if (!st) {
        /* the library's one request path, as the CLI takes it */
        jc_request rq;
        jc_request_init(&rq);
        rq.job = &job;
        rq.model = model;
        rq.dims = x.o.dims;
        rq.n_dims = x.o.n_dims;
        rq.inputs = x.o.inputs;
        rq.n_inputs = x.o.n_inputs;
        rq.op_rules = x.o.op_rules_path;
        rq.allow_partial = allow_partial;
        st = jc_request_prepare(&rq, &p, d);
    }
    if (!st) st = jc_estimate_run(&job, p->analysis, db, &e, d);
    if (!st) {
        *json = jc_report_estimate_json(e);
        if (!*json) st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    }
    jc_estimate_free(e);
    jc_prepared_free(p);
    jc_hwdb_free(db);
    jci_arena_free(a);
    return st;
}

/* ---- ga ----------------------------------------------------------------------- */

static const char *const ga_keys[] = {
    "runtime", "cores", "cpu", "tdp-per-core", "cpu-usage", "gpus", "gpu", "gpu-tdp",
    "gpu-usage", "memory", "region", "ci", "pue", "platform", "provider", "datacenter",
    "psf", "ga-version", "hwdb", "hwdb-snapshot", NULL
};

jc_status jc_run_ga_json(const char *hwdb_dir, const char *const *keys, const char *const *values,
                     size_t n, char **json, jc_diag *d)
{
    if (check_out(json, d)) return JC_ERR_USAGE;
    if (n && (!keys || !values)) return jci_diag_set(d, JC_ERR_USAGE, "ga: NULL keys or values");
    jci_arena *a = jci_arena_new();
    const char **layers = a ? jci_arena_calloc(a, n + 1, sizeof *layers) : NULL;
    const char *snapshot = NULL;
    if (!layers) {
        jci_arena_free(a);
        return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    }
    size_t n_layers = 0;
    jc_ga_input in;
    jc_ga_input_init(&in);
    int have_runtime = 0;
    jc_status st = JC_OK;
    for (size_t i = 0; i < n && !st; i++) {
        const char *k = keys[i], *v = values[i];
        int64_t c;
        if (!k) st = unknown(d, "ga", k);
        else if (!strcmp(k, "runtime")) {
            if (!v || jc_ga_parse_runtime(v, &in.runtime_h, d)) st = bad(d, k, "a duration (12h30m)", v);
            else have_runtime = 1;
        } else if (!strcmp(k, "cores") || !strcmp(k, "gpus")) {
            if (!(st = i64(k, v, 0, &c, d))) {
                if (c > 1000000) st = bad(d, k, "a count up to 1000000", v);
                else if (k[0] == 'c') in.n_cores = (int)c;
                else in.n_gpus = (int)c;
            }
        } else if (!strcmp(k, "cpu")) in.cpu_model = v;
        else if (!strcmp(k, "gpu")) in.gpu_model = v;
        else if (!strcmp(k, "tdp-per-core")) st = num(k, v, &in.tdp_per_core_w, d);
        else if (!strcmp(k, "gpu-tdp")) st = num(k, v, &in.gpu_tdp_w, d);
        else if (!strcmp(k, "cpu-usage")) st = num(k, v, &in.cpu_usage, d);
        else if (!strcmp(k, "gpu-usage")) st = num(k, v, &in.gpu_usage, d);
        else if (!strcmp(k, "memory")) st = num(k, v, &in.memory_gb, d);
        else if (!strcmp(k, "region")) in.region = v;
        else if (!strcmp(k, "ci")) st = num(k, v, &in.ci, d);
        else if (!strcmp(k, "pue")) st = num(k, v, &in.pue, d);
        else if (!strcmp(k, "psf")) st = num(k, v, &in.psf, d);
        else if (!strcmp(k, "provider")) in.provider = v;
        else if (!strcmp(k, "datacenter")) in.datacenter = v;
        else if (!strcmp(k, "ga-version")) in.version = v;
        else if (!strcmp(k, "hwdb")) {
            if (!v || !*v) st = bad(d, k, "a folder or .yaml file", v);
            else layers[n_layers++] = v;
        } else if (!strcmp(k, "hwdb-snapshot")) {
            if (!v || !*v) st = bad(d, k, "a snapshot file", v);
            else snapshot = v;
        } else if (!strcmp(k, "platform")) {
            if (v && !strcmp(v, "personal")) in.platform = JC_GA_PERSONAL;
            else if (v && !strcmp(v, "local")) in.platform = JC_GA_LOCAL;
            else if (v && !strcmp(v, "cloud")) in.platform = JC_GA_CLOUD;
            else st = bad(d, k, "personal, local or cloud", v);
        } else st = unknown(d, "ga", k);
    }
    if (!st && !have_runtime) st = jci_diag_set(d, JC_ERR_USAGE, "ga: runtime is required (e.g. 12h30m)");
    jc_hwdb *db = NULL;
    jc_ga_result *r = NULL;
    if (!st && !hwdb_dir && !n_layers)
        st = jci_diag_set(d, JC_ERR_USAGE, "ga: no hardware database (give its folder, or an hwdb layer)");
    if (!st) st = open_hwdb(hwdb_dir, snapshot, layers, n_layers, &db, d);
    if (!st) st = jc_ga_compute(db, &in, &r, d);
    if (!st) {
        *json = jc_report_ga_json(r);
        if (!*json) st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    }
    jc_ga_result_free(r);
    jc_hwdb_free(db);
    jci_arena_free(a);
    return st;
}

const char *const *jc_bind_keys(const char *command)
{
    if (!command) return NULL;
    if (!strcmp(command, "count")) return count_keys;
    if (!strcmp(command, "ga")) return ga_keys;
    if (!strcmp(command, "estimate")) return est_key_names;
    return NULL;
}
