/*
 * bind_workflows.c (bind) - the binding entry points of `joulecast statement`,
 * `compare`, `sweep`, `calibrate`, `hw` and `region` (joulecast.h "Bindings"): key/value
 * strings in, the document the CLI prints out (JSON, or the statement's
 * text, or with the key "html" the HTML report).  Each calls the library
 * functions its CLI command calls (jc_compare_run, jc_sweep_spec_resolve +
 * jc_sweep_run, jc_report_statement, jc_report_hw_* / region_*), with the
 * request of src/bind/bind.c (bind_req_*: a jc_request, src/job/request.c)
 * for the workload keys, so the keys are the CLI's long options and a job
 * file's keys.
 */
#include "bind/bind_int.h"
#include "joulecast/workflows.h"
#include "joulecast/trace.h"
#include "joulecast/serving.h"
#include "joulecast/sweep.h"
#include "joulecast/calibrate.h"
#include "joulecast/html.h"
#include "joulecast/bind.h"
#include "workflows/cmd_opts.h"
#include "workflows/sweep_opts.h"
#include "joulecast/model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The keys of every estimate-like command: the job's, then the request's,
 * then the command's own (the library's tables: sweep_opts.def,
 * cmd_opts.def, whose CMD_OPT lines each list keeps by command). */
#define JOB_KEY(name, ...) name,
#define SWEEP_OPT(name, ...) name,
#define CMD_OPT(command, name, ...) OWN_##command(name)
#define OWN_hw(name)
#define OWN_region(name)
#define OWN_statement(name) name,
#define OWN_calibrate(name)
static const char *const statement_keys[] = {
#include "job/job_keys.def"
    BIND_REQ_KEYS,
#include "workflows/cmd_opts.def"
    NULL
};
#undef OWN_statement
#define OWN_statement(name)
#undef OWN_calibrate
#define OWN_calibrate(name) name,
static const char *const calibrate_keys[] = {
#include "job/job_keys.def"
    BIND_REQ_KEYS,
#include "workflows/cmd_opts.def"
    NULL
};
#undef OWN_calibrate
#define OWN_calibrate(name)
static const char *const compare_keys[] = {
#include "job/job_keys.def"
    BIND_REQ_KEYS, "html", NULL
};
static const char *const sweep_keys[] = {
#include "job/job_keys.def"
#include "workflows/sweep_opts.def"
    BIND_REQ_KEYS, "html", NULL
};
#undef JOB_KEY
#undef SWEEP_OPT
#undef OWN_hw
#define OWN_hw(name) name,
static const char *const hw_keys[] = {
#include "workflows/cmd_opts.def"
    "hwdb", "hwdb-snapshot", NULL
};
#undef OWN_hw
#define OWN_hw(name)
#undef OWN_region
#define OWN_region(name) name,
static const char *const region_keys[] = {
#include "workflows/cmd_opts.def"
    "hwdb", "hwdb-snapshot", NULL
};
#undef OWN_region
#undef OWN_hw
#undef OWN_statement
#undef OWN_calibrate
#undef CMD_OPT

const char *const *bind_workflow_keys(const char *command)
{
    static const struct { const char *cmd; const char *const *keys; } t[] = {
        {"statement", statement_keys}, {"compare", compare_keys}, {"sweep", sweep_keys},
        {"hw", hw_keys}, {"region", region_keys}, {"calibrate", calibrate_keys},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (!strcmp(command, t[i].cmd)) return t[i].keys;
    return NULL;
}

/* A key through a command's library setter: 1 when the key is the
 * command's (its status in *st), 0 (JC_ERR_NOTFOUND) to pass it on. */
static int lib_key(jc_status set, jc_status *st)
{
    *st = set == JC_ERR_NOTFOUND ? JC_OK : set;
    return set != JC_ERR_NOTFOUND;
}

/* Is key one of command's own (jci_command_opt_keys)? */
static int own_key(const char *command, const char *key)
{
    size_t n = 0;
    const jci_cmd_key *t = jci_command_opt_keys(command, &n);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(t[i].name, key)) return 1;
    return 0;
}

/* ---- statement ------------------------------------------------------------- */

/* format, training-type, location: jci_statement_keys_set, the CLI's parse. */
static int stmt_key(void *ctx, const char *k, const char *v, jc_status *st, jc_diag *d)
{
    return lib_key(jci_statement_keys_set(ctx, k, v, d), st);
}

/* The command line of jc_command_line in a string of its own length
 * (malloc'd, *out; NULL on failure): no cap, so a long path or many
 * options never cut what reproduces the result. */
static jc_status command_line_alloc(const char *command, const char *const *keys,
                                    const char *const *values, size_t n, char **out, jc_diag *d)
{
    *out = NULL;
    if (!command || !jc_bind_keys(command))
        return jci_diag_set(d, JC_ERR_USAGE, "command line: unknown command '%s'",
                            command ? command : "(null)");
    if (n && (!keys || !values)) return jci_diag_set(d, JC_ERR_USAGE, "command line: NULL keys or values");
    size_t len = 0;
    FILE *f = open_memstream(out, &len);
    if (!f) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    fprintf(f, "joulecast %s", command);
    jc_status st = JC_OK;
    for (size_t i = 0; i < n && !st; i++) {
        const char *k = keys[i], *v = values[i] ? values[i] : "";
        if (!k) {
            st = bind_unknown(d, command, "(null)");
            break;
        }
        if (own_key("statement", k) || !strcmp(k, "hwdb-snapshot")) continue;   /* not estimate's */
        if (!strcmp(k, "model")) {
            jc_shell_arg_put(f, v);
            continue;
        }
        char opt[80];
        snprintf(opt, sizeof opt, "--%s", k);
        if (jci_key_is_flag(k)) {
            int on = 1;
            if (jc_parse_flag(k, v, &on, NULL) == JC_OK && on) jc_shell_arg_put(f, opt);
            continue;
        }
        jc_shell_arg_put(f, opt);
        jc_shell_arg_put(f, v);
    }
    if (fclose(f) && !st) st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    if (st) {
        free(*out);
        *out = NULL;
    }
    return st;
}

jc_status jc_command_line(const char *command, const char *const *keys,
                          const char *const *values, size_t n, char *buf, size_t cap,
                          jc_diag *d)
{
    if (!buf || !cap) return jci_diag_set(d, JC_ERR_USAGE, "command line: no buffer");
    *buf = 0;
    char *line = NULL;
    jc_status st = command_line_alloc(command, keys, values, n, &line, d);
    if (st) return st;
    size_t len = strlen(line);
    if (len >= cap)
        st = jci_diag_set(d, JC_ERR_RANGE, "command line: %zu bytes do not fit the buffer of %zu (a cut line "
                          "would not reproduce the result)", len + 1, cap);
    else memcpy(buf, line, len + 1);
    free(line);
    return st;
}

jc_status jc_run_statement_text(const char *hwdb_dir, const char *const *keys,
                            const char *const *values, size_t n, char **text, jc_diag *d)
{
    if (bind_check_out(text, d)) return JC_ERR_USAGE;
    jci_statement_keys own = {0, NULL, NULL};
    bind_req r;
    jc_estimate *e = NULL;
    jc_statement_format fmt = JC_STMT_MARKDOWN;
    jc_status st = bind_req_open(&r, "statement", hwdb_dir, keys, values, n, stmt_key, &own, d);
    unsigned mask = own.formats ? own.formats : 1u << JC_STMT_MARKDOWN;
    if (!st && (mask & (mask - 1)))   /* one text per call: the Python package's format="all" makes four */
        st = jci_diag_set(d, JC_ERR_USAGE, "format: give one of markdown, latex, hf or sentence per call (all, or "
                          "format given twice, asks for more)");
    while (!st && !(mask & 1u << fmt)) fmt++;   /* the one format asked for */
    /* --generate: the serving request, as `statement --generate` runs it */
    jc_generation g;
    memset(&g, 0, sizeof g);
    int gen = !st && (jc_job_is_serving(&r.job));
    if (gen) st = jc_generation_run(&r.rq, r.db, &g, d);
    if (!st && !gen) st = bind_req_model(&r, d);
    if (!st && !gen) st = jc_statement_estimate(&r.job, r.p->analysis, r.db, &e, d);
    char *repro = NULL;
    if (!st) st = command_line_alloc("estimate", keys, values, n, &repro, d);
    if (!st) {
        char *buf;
        size_t len;
        jc_statement_opts so = {r.db, repro, gen && r.job.hf_config ? r.job.hf_config : r.model, own.training_type,
                                own.location};
        FILE *f = bind_stream(&buf, &len);
        jc_status ws = JC_OK;
        if (f) ws = gen ? jc_report_serving_statement(g.serving, &so, fmt, f, d)
                        : jc_report_statement(e, &so, fmt, f, d);
        st = bind_stream_done(f, &buf, ws, text, d);
    }
    free(repro);
    jc_generation_release(&g);
    jc_estimate_free(e);
    bind_req_close(&r);
    return st;
}

/* ---- compare ---------------------------------------------------------------- */

/* compare's "model" keys: every one a model, in order. */
typedef struct cmp_models {
    const char **paths;
    size_t n;
} cmp_models;

static int cmp_key(void *ctx, const char *k, const char *v, jc_status *st, jc_diag *d)
{
    cmp_models *c = ctx;
    if (strcmp(k, "model")) return 0;
    *st = JC_OK;
    if (!v || !*v) *st = bind_bad(d, k, "a file name", v);
    else c->paths[c->n++] = v;
    return 1;
}

jc_status jc_run_compare_json(const char *hwdb_dir, const char *const *keys,
                          const char *const *values, size_t n, char **json, jc_diag *d)
{
    if (bind_check_out(json, d)) return JC_ERR_USAGE;
    cmp_models own = {calloc(n + 1, sizeof(char *)), 0};
    if (!own.paths) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    bind_req r;
    jc_compare *c = NULL;
    jc_status st = bind_req_open(&r, "compare", hwdb_dir, keys, values, n, cmp_key, &own, d);
    if (!st) st = jc_compare_run(&r.rq, own.paths, own.n, r.db, &c, d);
    if (!st && r.html) {
        char *buf;
        size_t len;
        FILE *f = bind_stream(&buf, &len);
        st = bind_stream_done(f, &buf, f ? jc_report_compare_html(c->items, c->n, f) : JC_OK, json, d);
    } else if (!st) {
        st = bind_json(jc_report_compare_json(c->items, c->n), json, d);
    }
    jc_compare_free(c);
    bind_req_close(&r);
    free(own.paths);
    return st;
}

/* ---- sweep ------------------------------------------------------------------ */

/* sweep's own keys: the library's (jci_sweep_opts_set). */
static int sweep_key(void *ctx, const char *k, const char *v, jc_status *st, jc_diag *d)
{
    return lib_key(jci_sweep_opts_set(ctx, k, v, d), st);
}

/* sweep with generate=True: the serving grid of `joulecast sweep
 * --generate` (jc_serving_sweep_run). */
static jc_status sweep_generation(bind_req *r, const jc_serving_sweep_spec *sp, char **json, jc_diag *d)
{
    jc_arch *arch = NULL;
    jc_serving_sweep *s = NULL;
    jc_status st = jc_generation_arch(&r->rq, &arch, d);
    if (!st) st = jc_serving_sweep_run(sp, &r->job, arch, r->db, &s, d);
    if (!st) st = bind_json(jc_report_serving_sweep_json(s), json, d);
    jc_serving_sweep_free(s);
    jc_arch_free(arch);
    return st;
}

/* The model grid (jc_sweep_run), as JSON or (html) the HTML report. */
static jc_status sweep_grid(bind_req *r, const jci_sweep_opts *o, const jc_sweep_spec *sp, char **json, jc_diag *d)
{
    jc_sweep *s = NULL;
    jc_model *m = NULL;
    jc_status st = JC_OK;
    if (r->model) st = jc_request_load(&r->rq, &m, d);
    if (!st) st = jc_sweep_run(sp, &r->rq, m, r->db, &s, d);
    if (!st && r->html) {
        char *buf;
        size_t len;
        FILE *f = bind_stream(&buf, &len);
        size_t top = o->top_given ? (size_t)o->top : 100;
        st = bind_stream_done(f, &buf, f ? jc_report_sweep_html(s, top, f) : JC_OK, json, d);
    } else if (!st) {
        st = bind_json(jc_report_sweep_json(s), json, d);
    }
    jc_sweep_free(s);
    jc_model_free(m);
    return st;
}

jc_status jc_run_sweep_json(const char *hwdb_dir, const char *const *keys,
                        const char *const *values, size_t n, char **json, jc_diag *d)
{
    if (bind_check_out(json, d)) return JC_ERR_USAGE;
    jci_sweep_opts o;
    jc_status st = jci_sweep_opts_init(&o, d);
    if (st) return st;
    bind_req r;
    jci_sweep_plan plan;
    st = bind_req_open(&r, "sweep", hwdb_dir, keys, values, n, sweep_key, &o, d);
    /* the result is JSON (a machine output) unless html */
    if (!st) st = jci_sweep_spec_from_opts(&o, &r.job, !r.html, r.html, &plan, d);
    if (!st) st = plan.generation ? sweep_generation(&r, &plan.serving, json, d) : sweep_grid(&r, &o, &plan.spec, json, d);
    bind_req_close(&r);
    jci_sweep_opts_release(&o);
    return st;
}

/* ---- hw and region ---------------------------------------------------------- */

typedef struct lookup_args {
    jci_lookup_opts o;           /* the library's parse, as the CLI's */
    jc_hw_filter filter;        /* hw's, by jci_lookup_opts_check */
    jc_job job;                 /* unused: hw and region take no job key */
    jci_reqset rs;              /* hwdb and hwdb-snapshot (src/job/reqset.c) */
} lookup_args;

/* Parses the keys of hw or region (the library's, jci_lookup_opts_set;
 * hwdb and hwdb-snapshot here), checks them and opens the database. */
static jc_status lookup_open(const char *cmd, const char *hwdb_dir, const char *const *keys,
                             const char *const *values, size_t n, lookup_args *x, jc_hwdb **db, jc_diag *d)
{
    memset(x, 0, sizeof *x);
    jc_job_init(&x->job);
    jci_reqset_init(&x->rs, &x->job);
    *db = NULL;
    if (n && (!keys || !values)) return jci_diag_set(d, JC_ERR_USAGE, "%s: NULL keys or values", cmd);
    for (size_t i = 0; i < n; i++) {
        const char *k = keys[i], *v = values[i];
        jc_status st = JC_OK;
        if (!k) return bind_unknown(d, cmd, "(null)");
        if (lib_key(jci_lookup_opts_set(&x->o, cmd, k, v, d), &st)) {
            if (st) return st;
            continue;
        }
        if (strcmp(k, "hwdb") && strcmp(k, "hwdb-snapshot")) return bind_unknown(d, cmd, k);
        if ((st = jci_reqset_set(&x->rs, k, v, d))) return st;
    }
    jc_status st = jci_lookup_opts_check(&x->o, cmd, &x->filter, d);
    if (st) return st;
    if (!hwdb_dir && !x->rs.n_layers)
        return jci_diag_set(d, JC_ERR_USAGE, "%s: no hardware database (give its folder, or an hwdb layer)", cmd);
    return bind_open_hwdb(hwdb_dir, x->rs.snapshot, x->rs.layers, x->rs.n_layers, db, d);
}

/* hw's document: the device or host x->o.show names, or the list. */
static jc_status hw_doc(const jc_hwdb *db, const lookup_args *x, char **json, jc_diag *d)
{
    if (x->o.show) {
        const jc_device *dev;
        const jc_host *host;
        jc_status st = jc_hwdb_hardware(db, x->o.show, &dev, &host, d);
        return st ? st : bind_json(dev ? jc_report_device_json(dev) : jc_report_host_json(host), json, d);
    }
    jc_status st = jc_hw_list_check(db, &x->filter, d);
    return st ? st : bind_json(jc_report_hw_list_json(db, &x->filter), json, d);
}

/* region's document: the region x->o.show names, or the list. */
static jc_status region_doc(const jc_hwdb *db, const lookup_args *x, char **json, jc_diag *d)
{
    if (x->o.show) {
        const jc_region *reg;
        jc_status st = jc_hwdb_region(db, x->o.show, &reg, d);
        return st ? st : bind_json(jc_report_region_json(reg), json, d);
    }
    jc_status st = jc_region_list_check(db, x->o.provider, x->o.type, d);
    return st ? st : bind_json(jc_report_region_list_json(db, x->o.provider, x->o.type), json, d);
}

/* hw or region: the keys parsed and checked, the database opened, then
 * the command's document. */
static jc_status lookup_json(const char *cmd, const char *hwdb_dir, const char *const *keys,
                             const char *const *values, size_t n, char **json, jc_diag *d)
{
    if (bind_check_out(json, d)) return JC_ERR_USAGE;
    lookup_args x;
    jc_hwdb *db = NULL;
    jc_status st = lookup_open(cmd, hwdb_dir, keys, values, n, &x, &db, d);
    if (!st) st = (!strcmp(cmd, "hw") ? hw_doc : region_doc)(db, &x, json, d);
    jc_hwdb_free(db);
    jci_reqset_free(&x.rs);
    return st;
}

jc_status jc_run_hw_json(const char *hwdb_dir, const char *const *keys, const char *const *values,
                     size_t n, char **json, jc_diag *d)
{
    return lookup_json("hw", hwdb_dir, keys, values, n, json, d);
}

jc_status jc_run_region_json(const char *hwdb_dir, const char *const *keys, const char *const *values,
                         size_t n, char **json, jc_diag *d)
{
    return lookup_json("region", hwdb_dir, keys, values, n, json, d);
}

/* ---- calibrate --------------------------------------------------------------- */

typedef struct cal_own {
    jc_calibrate_opts o;        /* calibrate's own keys (cmd_opts.def): the library's parse */
    jc_trace_opts topts;
    int trace_opt;              /* a trace key given (trace-format, scope, gap, idle-w, interval) */
    int skip_out_keys;          /* a job file's pass: its output keys are skipped */
} cal_own;

static int cal_key(void *ctx, const char *k, const char *v, jc_status *st, jc_diag *d)
{
    cal_own *c = ctx;
    *st = JC_OK;
    int is_own = own_key("calibrate", k);
    if (!is_own && strcmp(k, "json") && strcmp(k, "html")) return 0;
    if (c->skip_out_keys < 0) return 1;                 /* a job file's output option: the CLI skips it */
    if (!is_own) { *st = bind_unknown(d, "calibrate", k); return 1; }
    *st = jc_calibrate_opts_set(&c->o, k, v, d);
    return 1;
}

typedef struct cal_reopen {
    const char *hwdb_dir;
    const bind_req *r;
} cal_reopen;

/* The written layer on top of the request's hwdb layers (never the
 * snapshot: the layer changes the database). */
static jc_status cal_reopen_db(void *ctx, const char *const *layer, size_t n, jc_hwdb **db, jc_diag *d)
{
    const cal_reopen *x = ctx;
    const char **layers = calloc(x->r->n_layers + n, sizeof *layers);
    if (!layers) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < x->r->n_layers; i++) layers[i] = x->r->layers[i];
    for (size_t i = 0; i < n; i++) layers[x->r->n_layers + i] = layer[i];
    jc_status st = bind_open_hwdb(x->hwdb_dir, NULL, layers, x->r->n_layers + n, db, d);
    free(layers);
    return st;
}

/* Opens the request: the caller's keys, then (when the row names a job
 * file and the keys name none) once more with the file's keys beneath. */
static jc_status cal_open(bind_req *r, cal_own *own, const char *hwdb_dir, const char *const *keys,
                          const char *const *values, size_t n, jc_calib_source **src, jci_arena *a,
                          jc_jobfile **jf, jc_diag *d)
{
    jc_status st = bind_req_open(r, "calibrate", hwdb_dir, keys, values, n, cal_key, own, d);
    if (!st) st = jc_calibrate_opts_check(&own->o, &r->job, &own->topts, &own->trace_opt, d);
    if (!st) st = jc_calib_source_open(own->o.measurements, &own->topts, own->trace_opt, own->o.row, src, NULL, d);
    if (!st && (*src)->job_path[0]) {
        const char **k2 = NULL, **v2 = NULL;
        size_t n2 = 0;
        st = jc_jobfile_load((*src)->job_path, jf, d);
        if (!st) st = jci_jobfile_pairs(a, *jf, keys, values, n, NULL, &k2, &v2, &n2, d);
        if (!st) {
            bind_req_close(r);
            own->skip_out_keys = -1;   /* the file's: skipped; the caller's were read above */
            st = bind_req_open_over(r, "calibrate", hwdb_dir, k2, v2, n2, (*jf)->n, cal_key, own, d);
        }
    }
    if (!st) jc_trace_job_clear(&r->job);   /* the job file's, read with the caller's above */
    if (!st && !r->model && (*src)->model_path[0]) r->model = r->rq.model = (*src)->model_path;
    if (!st && !r->job.device && !r->job.host) st = jc_calib_source_device(*src, r->db, &r->job.device, NULL, d);
    /* the row's devices before the count: a data-parallel training job is
     * counted at one device's batch (jc_job_device_batch), as estimate counts it */
    if (!st && isnan(r->job.count) && !r->job.host && (*src)->row->devices >= 1) r->job.count = (*src)->row->devices;
    return st;
}

jc_status jc_run_calibrate_json(const char *hwdb_dir, const char *const *keys, const char *const *values,
                                size_t n, char **json, jc_diag *d)
{
    if (bind_check_out(json, d)) return JC_ERR_USAGE;
    cal_own own;
    memset(&own, 0, sizeof own);
    jc_calibrate_opts_init(&own.o);
    jc_trace_opts_init(&own.topts);
    bind_req r;
    jc_calib_source *src = NULL;
    jc_jobfile *jf = NULL;
    jci_arena *a = jci_arena_new();
    jc_status st = a ? cal_open(&r, &own, hwdb_dir, keys, values, n, &src, a, &jf, d)
                     : jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    if (!a) memset(&r, 0, sizeof r);
    if (!st) st = bind_req_model(&r, d);
    jc_calib_result res;
    cal_reopen rx = {hwdb_dir, &r};
    if (!st) st = jc_calibrate_run(&r.job, r.p->analysis, r.db, src, own.o.out, own.o.date, cal_reopen_db, &rx, &res, d);
    if (!st) st = bind_json(jc_report_calibrate_json(&res), json, d);
    bind_req_close(&r);
    jc_calib_source_free(src);
    jc_jobfile_free(jf);
    jci_arena_free(a);
    return st;
}
