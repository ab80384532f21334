/*
 * bind.c (bind) - the library's entry points for language bindings: options as
 * key/value strings in, the CLI's JSON document out (joulecast.h
 * "Bindings").  Keys are the long option names of `joulecast count`,
 * `estimate` and `ga` without the dashes, the same as job-file keys, so a
 * binding never lays out a C struct and stays correct when fields are
 * added.  tests/python.sh checks that every option the CLI's --help lists
 * (except output formats) is a key here.  The request the estimate-like
 * commands share (bind_req_*, src/bind/bind_int.h: their keys parsed into
 * a jc_request, src/job/request.c) is built here; statement, compare,
 * sweep, hw and region are in src/bind/bind_workflows.c.
 */
#include "bind/bind_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void jc_free(void *p)
{
    free(p);
}

/* ---- value parsing -------------------------------------------------------- */

jc_status bind_bad(jc_diag *d, const char *key, const char *want, const char *val)
{
    return jci_diag_set(d, JC_ERR_USAGE, "option '%s' expects %s, got '%s'", key, want,
                       val ? val : "(null)");
}

/* The mode a mode key asks for (train, infer, generate: on; mode: its
 * value), or NULL: not a mode key, or a flag turned off. */
static const char *mode_of(const char *k, const char *v)
{
    static const char *const flags[][2] = {{"train", "training"}, {"infer", "inference"}, {"generate", "generation"}};
    if (!strcmp(k, "mode")) return v;
    for (size_t i = 0; i < 3; i++)
        if (!strcmp(k, flags[i][0])) {
            int on = 1;
            return jc_parse_flag(k, v, &on, NULL) || on ? flags[i][1] : NULL;
        }
    return NULL;
}

jc_status bind_once(const char *cmd, const char *const *keys, const char *const *values, size_t i,
                    size_t n_under, jc_diag *d)
{
    const char *k = keys[i], *v = values[i] ? values[i] : "";
    const char *ck = jc_job_key_canonical(k);
    const char *mk = mode_of(k, v);
    for (size_t j = 0; j < i; j++) {
        if ((j < n_under) != (i < n_under) || !keys[j]) continue;   /* the caller's pairs override a file's */
        const char *mj = mode_of(keys[j], values[j] ? values[j] : "");
        if (mk || mj || (ck && !strcmp(ck, "mode"))) {
            if (mk && mj && strcmp(mk, mj))
                return jci_diag_set(d, JC_ERR_USAGE, "%s: '%s' and '%s' ask for different modes (%s and %s); give "
                                   "one", cmd, keys[j], k, mj, mk);
            continue;
        }
        const char *cj = jc_job_key_canonical(keys[j]);
        int same = !strcmp(keys[j], k) || (ck && cj && !strcmp(ck, cj));
        if (same && strcmp(values[j] ? values[j] : "", v))
            return jci_diag_set(d, JC_ERR_USAGE, "%s: %s=%s and %s=%s: one value is lost; give the option once "
                               "(a list is for a repeatable option)", cmd, keys[j], values[j] ? values[j] : "", k, v);
    }
    return JC_OK;
}

/* NAME=V with V >= lo (the grammar: jc_parse_binding), the name copied
 * into arena a. */
static jc_status binding(jci_arena *a, const char *key, const char *val, int64_t lo,
                         jc_dim_binding *b, jc_diag *d)
{
    size_t nl;
    jc_status st = jc_parse_binding(key, val, lo, &nl, &b->value, d);
    if (st) return st;
    b->name = jci_arena_strndup(a, val, nl);
    return b->name ? JC_OK : jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
}

/* NAME=AxBxC (jc_parse_shape_binding), in arena a. */
static jc_status input(jci_arena *a, const char *key, const char *val, jc_input_binding *b,
                       jc_diag *d)
{
    int64_t *dims = jci_arena_calloc(a, 64, sizeof *dims);
    if (!dims) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    size_t nl;
    jc_status st = jc_parse_shape_binding(key, val, dims, 64, &b->rank, &nl, d);
    if (st) return st;
    b->name = jci_arena_strndup(a, val, nl);
    b->dims = dims;
    return b->name ? JC_OK : jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
}

/* NAME=v1,v2,... (jc_parse_values_binding; "NAME=" binds an empty
 * tensor), at most JCI_SMALL_TENSOR values, in arena a. */
static jc_status values(jci_arena *a, const char *key, const char *val, jc_value_binding *b,
                        jc_diag *d)
{
    size_t n = jc_parse_values_count(val), nl;
    if (n > JCI_SMALL_TENSOR) n = JCI_SMALL_TENSOR;
    int64_t *iv = jci_arena_calloc(a, n ? n : 1, sizeof *iv);
    double *fv = jci_arena_calloc(a, n ? n : 1, sizeof *fv);
    if (!iv || !fv) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    jc_status st = jc_parse_values_binding(key, val, iv, fv, JCI_SMALL_TENSOR, &n, &nl, d);
    if (st) return st;
    b->name = jci_arena_strndup(a, val, nl);
    b->n = (int64_t)n;
    b->ivals = iv;
    b->fvals = fv;
    return b->name ? JC_OK : jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
}

jc_status bind_unknown_value(jc_diag *d, const char *cmd, const char *key, const char *value)
{
    const char *const *names = key ? jc_bind_keys(cmd) : NULL;
    size_t n = 0;
    while (names && names[n]) n++;
    const char *near = names ? jc_closest_key(key, value, names, n) : NULL;
    return jci_diag_set(d, JC_ERR_USAGE, "%s: unknown option '%s'%s%s%s (keys are the long option "
                       "names of 'joulecast %s' without the dashes)", cmd, key ? key : "(null)",
                       near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "", cmd);
}

jc_status bind_unknown(jc_diag *d, const char *cmd, const char *key)
{
    return bind_unknown_value(d, cmd, key, NULL);
}

jc_status bind_check_out(char **json, jc_diag *d)
{
    if (!json) return jci_diag_set(d, JC_ERR_USAGE, "json output pointer is NULL");
    *json = NULL;
    jci_diag_clear(d);
    return JC_OK;
}

jc_status bind_json(char *doc, char **out, jc_diag *d)
{
    *out = doc;
    return doc ? JC_OK : jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
}

/* ---- count ---------------------------------------------------------------- */

static const char *const count_keys[] = {
    "dim", "input", "input-value", "batch", "assume", "convention", "op-rules", "strict", NULL
};

/* The analysis keys as the request's bindings (src/job/request.c). */
typedef struct analyze_args {
    jc_request rq;
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
        *st = binding(a, k, v, 1, &x->dims[x->rq.n_dims], d);
        if (!*st) x->rq.n_dims++;
    } else if (!strcmp(k, "assume")) {
        *st = binding(a, k, v, 0, &x->assume[x->rq.n_assume], d);
        if (!*st) x->rq.n_assume++;
    } else if (!strcmp(k, "input-value")) {
        *st = values(a, k, v, &x->values[x->rq.n_values], d);
        if (!*st) x->rq.n_values++;
    } else if (!strcmp(k, "input")) {
        *st = input(a, k, v, &x->inputs[x->rq.n_inputs], d);
        if (!*st) x->rq.n_inputs++;
    } else {
        return 0;
    }
    return 1;
}

static jc_status analyze_args_init(jci_arena *a, analyze_args *x, size_t n, jc_diag *d)
{
    memset(x, 0, sizeof *x);
    jc_request_init(&x->rq);
    x->dims = jci_arena_calloc(a, n + 1, sizeof *x->dims);
    x->assume = jci_arena_calloc(a, n + 1, sizeof *x->assume);
    x->inputs = jci_arena_calloc(a, n + 1, sizeof *x->inputs);
    x->values = jci_arena_calloc(a, n + 1, sizeof *x->values);
    if (!x->dims || !x->assume || !x->inputs || !x->values) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    x->rq.dims = x->dims;
    x->rq.assume = x->assume;
    x->rq.inputs = x->inputs;
    x->rq.values = x->values;
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
    if (bind_check_out(json, d)) return JC_ERR_USAGE;
    if (!model_path) return jci_diag_set(d, JC_ERR_USAGE, "count: no model path");
    if (n && (!keys || !values)) return jci_diag_set(d, JC_ERR_USAGE, "count: NULL keys or values");
    jci_arena *a = jci_arena_new();
    if (!a) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    jc_model *m = NULL;
    jc_analysis *an = NULL;
    jc_job job;
    jc_job_init(&job);
    analyze_args x;
    jc_status st = analyze_args_init(a, &x, n, d);
    for (size_t i = 0; i < n && !st; i++) {
        const char *k = keys[i], *v = values[i];
        if (k && analyze_key(a, &x, k, v, &st, d)) continue;
        if (!k) st = bind_unknown(d, "count", k);
        else if ((st = bind_once("count", keys, values, i, 0, d))) break;
        else if (!strcmp(k, "batch")) st = jc_job_set(&job, k, v, d);   /* the job key's own limits */
        else if (!strcmp(k, "convention")) {
            if (!v || jc_convention_parse(v, &x.rq.convention))
                st = bind_bad(d, k, "joulecast, torchvision, flops2x, fvcore or onnx-tool", v);
        } else if (!strcmp(k, "op-rules")) x.rq.op_rules = v;
        else if (!strcmp(k, "strict")) st = jc_parse_flag(k, v, &x.strict, d);
        else st = bind_unknown(d, "count", k);
    }
    /* the one request path, with count's policy (as `joulecast count`): a
     * partial count is reported (strict: refused after it), an unbound
     * batch stays unbound */
    x.rq.job = &job;
    x.rq.model = model_path;
    x.rq.allow_partial = 1;
    x.rq.no_default_batch = 1;
    if (!st) st = jc_batch_check(job.batch, "--batch", d);
    if (!st) st = jc_request_load(&x.rq, &m, d);
    if (!st) st = jc_request_analyze(&x.rq, m, NAN, &an, NULL, d);
    if (!st) st = strict_check(an, x.strict, model_path, d);
    if (!st) st = bind_json(jc_report_count_json(an), json, d);
    jc_analysis_free(an);
    jc_model_free(m);
    jci_arena_free(a);
    return st;
}

jc_status bind_open_hwdb(const char *hwdb_dir, const char *snapshot,
                         const char *const *layers, size_t n_layers, jc_hwdb **db,
                         jc_diag *d)
{
    if (snapshot && hwdb_dir && !n_layers &&
        jc_hwdb_snapshot_open(snapshot, hwdb_dir, 0, db, d) == JC_OK)
        return JC_OK;
    return jc_hwdb_load(hwdb_dir, layers, n_layers, NULL, db, d);
}

/* ---- the request of estimate-like commands ---------------------------------- */

jc_status bind_with_jobfile(jci_arena *a, const jc_jobfile *jf, const char *const *keys,
                            const char *const *values, size_t n, const char *skip, const char ***ok,
                            const char ***ov, size_t *on, jc_diag *d)
{
    const char **k2 = jci_arena_calloc(a, jf->n + n + 1, sizeof *k2);
    const char **v2 = jci_arena_calloc(a, jf->n + n + 1, sizeof *v2);
    if (!k2 || !v2) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < jf->n; i++) {
        const char *k = jf->keys[i], *v = jf->values[i];
        k2[i] = k;
        v2[i] = v;
        /* a path read from the file's folder (jc_jobfile_path) */
        size_t len = strlen(jf->path) + 1 + (v ? strlen(v) : 0) + 1;
        char *p = jci_arena_alloc(a, len);
        if (!p) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
        v2[i] = jc_jobfile_path(jf->path, k, v, p, len);
    }
    size_t m = jf->n;
    for (size_t i = 0; i < n; i++) {
        if (skip && keys[i] && !strcmp(keys[i], skip)) continue;
        k2[m] = keys[i];
        v2[m++] = values[i];
    }
    *ok = k2;
    *ov = v2;
    *on = m;
    return JC_OK;
}

jc_status bind_req_open(bind_req *r, const char *cmd, const char *hwdb_dir,
                        const char *const *keys, const char *const *values, size_t n,
                        bind_own_fn own, void *ctx, jc_diag *d)
{
    const char *job = NULL;
    for (size_t i = 0; keys && values && i < n; i++) {
        if (!keys[i] || strcmp(keys[i], "job")) continue;
        if (job || !values[i] || !*values[i]) {
            memset(r, 0, sizeof *r);
            return job ? jci_diag_set(d, JC_ERR_USAGE, "%s: one job file at a time", cmd)
                       : bind_bad(d, "job", "a job file (YAML)", values[i]);
        }
        job = values[i];
    }
    if (!job) return bind_req_open_over(r, cmd, hwdb_dir, keys, values, n, 0, own, ctx, d);
    /* the file's pairs beneath the caller's, as `joulecast CMD JOB.yaml ...` */
    jc_jobfile *jf = NULL;
    jci_arena *a = jci_arena_new();
    const char **k2 = NULL, **v2 = NULL;
    size_t n2 = 0;
    jc_status st = a ? jc_jobfile_load(job, &jf, d) : jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    if (!st) st = bind_with_jobfile(a, jf, keys, values, n, "job", &k2, &v2, &n2, d);
    if (!st) st = bind_req_open_over(r, cmd, hwdb_dir, k2, v2, n2, jf->n, own, ctx, d);
    else memset(r, 0, sizeof *r);
    r->jf = jf;
    r->jf_arena = a;
    return st;
}

jc_status bind_req_open_over(bind_req *r, const char *cmd, const char *hwdb_dir,
                             const char *const *keys, const char *const *values, size_t n, size_t n_under,
                             bind_own_fn own, void *ctx, jc_diag *d)
{
    memset(r, 0, sizeof *r);
    jc_job_init(&r->job);
    jc_request_init(&r->rq);
    if (n && (!keys || !values)) return jci_diag_set(d, JC_ERR_USAGE, "%s: NULL keys or values", cmd);
    r->arena = jci_arena_new();
    r->layers = r->arena ? jci_arena_calloc(r->arena, n + 1, sizeof *r->layers) : NULL;
    if (!r->layers) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    analyze_args x;
    int strict = 0, allow_partial = 0, hash_weights = 0, takes_html = 0;
    for (const char *const *t = jc_bind_keys(cmd); t && *t && !takes_html; t++) takes_html = !strcmp(*t, "html");
    jc_status st = analyze_args_init(r->arena, &x, n, d);
    for (size_t i = 0; i < n && !st; i++) {
        const char *k = keys[i], *v = values[i];
        if (!k) {
            st = bind_unknown(d, cmd, "(null)");
        } else if (own && own(ctx, k, v, &st, d)) {
            /* the command's own key */
        } else if (!strcmp(k, "html") && takes_html) {
            st = jc_parse_flag(k, v, &r->html, d);
        } else if (strcmp(k, "dim") && strcmp(k, "input") && strcmp(k, "hwdb") &&
                   (st = bind_once(cmd, keys, values, i, n_under, d))) {
            /* a one-value key given twice with two values */
        } else if (!strcmp(k, "model")) {
            if (!v || !*v) st = bind_bad(d, k, "a file name", v);
            else r->model = v;
        } else if (!strcmp(k, "dim") || !strcmp(k, "input")) {
            analyze_key(r->arena, &x, k, v, &st, d);
        } else if (!strcmp(k, "hwdb")) {
            if (!v || !*v) st = bind_bad(d, k, "a folder or .yaml file", v);
            else r->layers[r->n_layers++] = v;
        } else if (!strcmp(k, "hwdb-snapshot")) {
            if (!v || !*v) st = bind_bad(d, k, "a snapshot file", v);
            else r->snapshot = v;
        } else if (!strcmp(k, "strict")) {
            st = jc_parse_flag(k, v, &strict, d);
        } else if (!strcmp(k, "allow-partial")) {
            st = jc_parse_flag(k, v, &allow_partial, d);
        } else if (!strcmp(k, "hash-weights")) {
            st = jc_parse_flag(k, v, &hash_weights, d);
        } else if (!strcmp(k, "op-rules")) {
            if (!v || !*v) st = bind_bad(d, k, "a file name", v);
            else x.rq.op_rules = v;
        } else {
            st = jc_job_set(&r->job, k, v, d);
            if (st == JC_ERR_NOTFOUND) st = bind_unknown_value(d, cmd, k, v);
        }
    }
    if (!st && !hwdb_dir && !r->n_layers)
        st = jci_diag_set(d, JC_ERR_USAGE, "%s: no hardware database (give its folder, "
                         "or an hwdb layer)", cmd);
    if (!st) st = bind_open_hwdb(hwdb_dir, r->snapshot, r->layers, r->n_layers, &r->db, d);
    if (!st && strict && allow_partial)
        st = jci_diag_set(d, JC_ERR_USAGE, "%s: strict and allow-partial contradict each other; give one", cmd);
    /* the library's one request path, as the CLI takes it */
    r->rq = x.rq;
    r->rq.job = &r->job;
    r->rq.model = r->model;
    r->rq.allow_partial = allow_partial;
    /* a statement names the file it is of, weights included (as the CLI's) */
    r->rq.hash_weights = hash_weights || !strcmp(cmd, "statement");
    return st;
}

jc_status bind_req_model(bind_req *r, jc_diag *d)
{
    return jc_request_prepare(&r->rq, &r->p, d);
}

void bind_req_close(bind_req *r)
{
    jc_prepared_free(r->p);
    jc_hwdb_free(r->db);
    jci_arena_free(r->arena);
    jc_jobfile_free(r->jf);
    jci_arena_free(r->jf_arena);
    memset(r, 0, sizeof *r);
}

FILE *bind_stream(char **buf, size_t *len)
{
    *buf = NULL;
    *len = 0;
    return open_memstream(buf, len);
}

jc_status bind_stream_done(FILE *f, char **buf, jc_status st, char **out, jc_diag *d)
{
    if (!f) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    int bad = fclose(f) != 0;
    if (!st && bad) st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    if (st) {
        free(*buf);
        *buf = NULL;
        if (!d || !d->status) jci_diag_set(d, st, "writing the report failed");
        return st;
    }
    *out = *buf;
    return JC_OK;
}

/* ---- estimate --------------------------------------------------------------- */

/* The keys jc_bind_keys("estimate") lists: every key of a jc_job (the
 * library's table, src/job/job_keys.def), then the binding's own. */
#define JOB_KEY(name, ...) name,
static const char *const est_key_names[] = {
#include "job/job_keys.def"
    BIND_REQ_KEYS, "html", NULL
};
#undef JOB_KEY

/* estimate --generate --json (or --html -): jc_generation_run, then the
 * serving JSON or the HTML of its estimate. */
static jc_status gen_json(bind_req *r, char **json, jc_diag *d)
{
    jc_generation g;
    jc_status st = jc_generation_run(&r->rq, r->db, &g, d);
    if (!st && r->html) {
        char *buf;
        size_t len;
        FILE *f = bind_stream(&buf, &len);
        st = bind_stream_done(f, &buf, f ? jc_report_serving_html(g.serving, f)
                                         : JC_OK, json, d);
    } else if (!st) {
        st = bind_json(jc_report_serving_json(g.serving), json, d);
    }
    jc_generation_release(&g);
    return st;
}

jc_status jc_run_estimate_json(const char *hwdb_dir, const char *const *keys,
                           const char *const *values, size_t n, char **json, jc_diag *d)
{
    if (bind_check_out(json, d)) return JC_ERR_USAGE;
    bind_req r;
    jc_estimate *e = NULL;
    jc_status st = bind_req_open(&r, "estimate", hwdb_dir, keys, values, n, NULL, NULL, d);
    if (!st && r.html && jc_job_html_per_node(&r.job, r.model)) r.job.per_node = 1;
    if (!st && (jc_job_is_serving(&r.job))) {
        /* the serving request, as estimate --generate runs it */
        st = gen_json(&r, json, d);
        bind_req_close(&r);
        return st;
    }
    if (!st) st = bind_req_model(&r, d);
    if (!st) st = jc_estimate_run(&r.job, r.p->analysis, r.db, &e, d);
    if (!st && r.html) {
        char *buf;
        size_t len;
        FILE *f = bind_stream(&buf, &len);
        st = bind_stream_done(f, &buf, f ? jc_report_estimate_html(e, r.model, 0, f) : JC_OK,
                              json, d);
    } else if (!st) {
        st = bind_json(jc_report_estimate_json(e), json, d);
    }
    jc_estimate_free(e);
    bind_req_close(&r);
    return st;
}

/* ---- ga ----------------------------------------------------------------------- */

/* ga's keys: the calculator's inputs (jc_ga_input_keys) and the hwdb. */
static const char *const *ga_keys(void)
{
    static const char *all[40];
    if (!all[0]) {
        const char *const *k = jc_ga_input_keys();
        size_t n = 0;
        while (k[n] && n < sizeof all / sizeof all[0] - 3) {
            all[n] = k[n];
            n++;
        }
        all[n++] = "hwdb";
        all[n++] = "hwdb-snapshot";
    }
    return all;
}

jc_status jc_run_ga_json(const char *hwdb_dir, const char *const *keys, const char *const *values,
                     size_t n, char **json, jc_diag *d)
{
    if (bind_check_out(json, d)) return JC_ERR_USAGE;
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
        if (!k) {
            st = bind_unknown(d, "ga", k);
        } else if (!strcmp(k, "hwdb")) {
            if (!v || !*v) st = bind_bad(d, k, "a folder or .yaml file", v);
            else layers[n_layers++] = v;
        } else if (!strcmp(k, "hwdb-snapshot")) {
            if (!v || !*v) st = bind_bad(d, k, "a snapshot file", v);
            else snapshot = v;
        } else {
            /* an input of the calculator, as `joulecast ga` reads it */
            st = jc_ga_input_set(&in, k, v, d);
            if (st == JC_ERR_NOTFOUND) st = bind_unknown(d, "ga", k);
            if (!st && !strcmp(k, "runtime")) have_runtime = 1;
        }
    }
    if (!st && !have_runtime) st = jci_diag_set(d, JC_ERR_USAGE, "ga: runtime is required (e.g. 12h30m)");
    jc_hwdb *db = NULL;
    jc_ga_result *r = NULL;
    if (!st && !hwdb_dir && !n_layers)
        st = jci_diag_set(d, JC_ERR_USAGE, "ga: no hardware database (give its folder, or an hwdb layer)");
    if (!st) st = bind_open_hwdb(hwdb_dir, snapshot, layers, n_layers, &db, d);
    if (!st) st = jc_ga_compute(db, &in, &r, d);
    if (!st) st = bind_json(jc_report_ga_json(r), json, d);
    jc_ga_result_free(r);
    jc_hwdb_free(db);
    jci_arena_free(a);
    return st;
}

const char *const *jc_bind_keys(const char *command)
{
    if (!command) return NULL;
    if (!strcmp(command, "count")) return count_keys;
    if (!strcmp(command, "ga")) return ga_keys();
    if (!strcmp(command, "estimate")) return est_key_names;
    return bind_workflow_keys(command);
}
