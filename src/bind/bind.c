/*
 * bind.c (bind) - the library's entry points for language bindings: options as
 * key/value strings in, the CLI's JSON document out (joulecast.h
 * "Bindings").  Keys are the long option names of `joulecast count`,
 * `estimate` and `ga` without the dashes, the same as job-file keys, so a
 * binding never lays out a C struct and stays correct when fields are
 * added.  tests/python.sh checks that every option the CLI's --help lists
 * (except output formats) is a key here.  The request the estimate-like
 * commands share (bind_req_*, src/bind/bind_int.h: their keys set by the
 * one setter and job-file layering of src/job/reqset.c, as the CLI's, into
 * a jc_request, src/job/request.c) is built here; statement, compare,
 * sweep, hw and region are in src/bind/bind_workflows.c.
 */
#include "bind/bind_int.h"
#include "joulecast/serving.h"
#include "joulecast/ga.h"
#include "joulecast/html.h"
#include "joulecast/bind.h"
#include "joulecast/model.h"
#include "joulecast/analysis.h"

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

jc_status bind_once(const char *cmd, const char *const *keys, const char *const *values, size_t i,
                    size_t n_under, jc_diag *d)
{
    int mode;
    long j = jci_pairs_clash(keys, values, i < n_under ? 0 : n_under, i, &mode);   /* the caller's override a file's */
    if (j < 0) return JC_OK;
    const char *k = keys[i], *v = values[i] ? values[i] : "", *vj = values[j] ? values[j] : "";
    if (mode)
        return jci_diag_set(d, JC_ERR_USAGE, "%s: '%s' and '%s' ask for different modes (%s and %s); give one", cmd,
                            keys[j], k, jci_key_mode(keys[j], values[j]), jci_key_mode(k, values[i]));
    return jci_diag_set(d, JC_ERR_USAGE, "%s: %s=%s and %s=%s: one value is lost; give the option once (a list is "
                        "for a repeatable option)", cmd, keys[j], vj, k, v);
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

static int count_key(const char *k)
{
    for (size_t i = 0; count_keys[i]; i++)
        if (!strcmp(count_keys[i], k)) return 1;
    return 0;
}

/* A request key of count's that the estimate-like commands do not take. */
static int count_only(const char *k)
{
    return !strcmp(k, "convention") || !strcmp(k, "assume") || !strcmp(k, "input-value");
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
    jc_model *m = NULL;
    jc_analysis *an = NULL;
    jc_job job;
    jc_job_init(&job);
    jci_reqset rs;
    jci_reqset_init(&rs, &job);
    jc_status st = JC_OK;
    for (size_t i = 0; i < n && !st; i++) {
        const char *k = keys[i], *v = values[i];
        if (!k || !count_key(k)) st = bind_unknown(d, "count", k);
        else if (!(st = bind_once("count", keys, values, i, 0, d))) st = jci_reqset_set(&rs, k, v, d);
    }
    /* the one request path, with count's policy (as `joulecast count`): a
     * partial count is reported (strict: refused after it), an unbound
     * batch stays unbound */
    jc_request rq;
    jci_reqset_request(&rs, &rq);
    rq.model = model_path;
    rq.allow_partial = 1;
    rq.no_default_batch = 1;
    if (!st) st = jc_batch_check(job.batch, "--batch", d);
    if (!st) st = jc_request_load(&rq, &m, d);
    if (!st) st = jc_request_analyze(&rq, m, NAN, &an, NULL, d);
    if (!st) st = strict_check(an, rs.strict, model_path, d);
    if (!st) st = bind_json(jc_report_count_json(an), json, d);
    jc_analysis_free(an);
    jc_model_free(m);
    jci_reqset_free(&rs);
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
    if (!st) st = jci_jobfile_pairs(a, jf, keys, values, n, "job", &k2, &v2, &n2, d);
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
    jci_reqset_init(&r->rs, &r->job);
    if (n && (!keys || !values)) return jci_diag_set(d, JC_ERR_USAGE, "%s: NULL keys or values", cmd);
    int takes_html = 0;
    for (const char *const *t = jc_bind_keys(cmd); t && *t && !takes_html; t++) takes_html = !strcmp(*t, "html");
    jc_status st = JC_OK;
    for (size_t i = 0; i < n && !st; i++) {
        const char *k = keys[i], *v = values[i];
        r->rs.under = i < n_under;
        if (!k) {
            st = bind_unknown(d, cmd, "(null)");
        } else if (own && own(ctx, k, v, &st, d)) {
            /* the command's own key */
        } else if (!strcmp(k, "html") && takes_html) {
            st = jc_parse_flag(k, v, &r->html, d);
        } else if (count_only(k)) {
            st = bind_unknown_value(d, cmd, k, v);
        } else if (!(st = bind_once(cmd, keys, values, i, n_under, d))) {
            /* the request's key (src/job/reqset.c), or the job's */
            st = jci_reqset_set(&r->rs, k, v, d);
            if (st == JC_ERR_NOTFOUND) st = bind_unknown_value(d, cmd, k, v);
        }
    }
    r->rs.under = 0;
    r->model = r->rs.model;
    r->snapshot = r->rs.snapshot;
    r->layers = r->rs.layers;
    r->n_layers = r->rs.n_layers;
    if (!st && !hwdb_dir && !r->n_layers)
        st = jci_diag_set(d, JC_ERR_USAGE, "%s: no hardware database (give its folder, "
                         "or an hwdb layer)", cmd);
    if (!st) st = bind_open_hwdb(hwdb_dir, r->snapshot, r->layers, r->n_layers, &r->db, d);
    if (!st && r->rs.strict && r->rs.allow_partial)
        st = jci_diag_set(d, JC_ERR_USAGE, "%s: strict and allow-partial contradict each other; give one", cmd);
    /* the library's one request path, as the CLI takes it */
    jci_reqset_request(&r->rs, &r->rq);
    /* a statement names the file it is of, weights included (as the CLI's) */
    r->rq.hash_weights = r->rs.hash_weights || !strcmp(cmd, "statement");
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
    jci_reqset_free(&r->rs);
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
    jc_job job;   /* unused: ga takes no job key */
    jc_job_init(&job);
    jci_reqset rs;
    jci_reqset_init(&rs, &job);
    jc_ga_input in;
    jc_ga_input_init(&in);
    int have_runtime = 0;
    jc_status st = JC_OK;
    for (size_t i = 0; i < n && !st; i++) {
        const char *k = keys[i], *v = values[i];
        if (!k) {
            st = bind_unknown(d, "ga", k);
        } else if (!strcmp(k, "hwdb") || !strcmp(k, "hwdb-snapshot")) {
            st = jci_reqset_set(&rs, k, v, d);   /* the request's database keys */
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
    if (!st && !hwdb_dir && !rs.n_layers)
        st = jci_diag_set(d, JC_ERR_USAGE, "ga: no hardware database (give its folder, or an hwdb layer)");
    if (!st) st = bind_open_hwdb(hwdb_dir, rs.snapshot, rs.layers, rs.n_layers, &db, d);
    if (!st) st = jc_ga_compute(db, &in, &r, d);
    if (!st) st = bind_json(jc_report_ga_json(r), json, d);
    jc_ga_result_free(r);
    jc_hwdb_free(db);
    jci_reqset_free(&rs);
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
