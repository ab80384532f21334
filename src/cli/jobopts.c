/*
 * jobopts.c (cli) - the workload option table shared by `estimate`, `compare`
 * and `sweep`, and the parsing around it: job file first, then the
 * command line (which overrides it), --help text from the same rows, and
 * the request the commands hand to the library (jc_request_prepare).  The
 * request's and the job's keys are set, and a job file layered beneath the
 * command line, by the library's one setter (src/job/reqset.c), which the
 * bindings use too.  See jobopts.h.
 */
#include "cli/jobopts.h"
#include "workflows/cmd_opts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The command line's rows of the request's keys; every key of a jc_job
 * (jc_job_keys(), the library's table) is an option too.  Both are set by
 * the library's one setter (jci_reqset_set, src/job/reqset.c). */
static const jo_opt opts[] = {
    {"model", JO_REQ, 0, "FILE", "the ONNX model (or give it as an argument)"},
    {"dim", JO_REQ, 0, "NAME=V", "bind a symbolic dim (repeatable)"},
    {"input", JO_REQ, 0, "NAME=AxB", "bind an input's full shape (repeatable)"},
    {"op-rules", JO_REQ, 0, "FILE", "YAML cost rules for custom ops (as in count)"},
    {"hwdb", JO_REQ, 0, "DIR", "hardware-database override layer (repeatable)"},
    {"allow-partial", JO_REQ, 0, NULL,
     "report a partial count (unbound dim, unknown op) as a lower bound instead of refusing it (exit 9)"},
    {"strict", JO_REQ, 0, NULL, "refuse a partial count with exit 9 (the default; overrides a job file's allow-partial)"},
    {"hash-weights", JO_REQ, 0, NULL,
     "also record the SHA-256 of the whole model file, weights included (reads every byte; the graph identity never does)"},
};
#define N_OPTS (sizeof opts / sizeof opts[0])

void jo_init(jobopts *c, const char *cmd, const jo_opt *extra, size_t n_extra,
             jo_handler handler, void *ctx)
{
    memset(c, 0, sizeof *c);
    jc_job_init(&c->job);
    jci_reqset_init(&c->rs, &c->job);
    c->cmd = cmd;
    c->extra = extra;
    c->n_extra = n_extra;
    c->handler = handler;
    c->ctx = ctx;
    size_t n;
    const jc_job_key *k = jc_job_keys(&n);
    c->jobrows = calloc(n ? n : 1, sizeof *c->jobrows);
    if (!c->jobrows || !c->rs.arena) {
        c->nomem = 1;
        return;
    }
    for (size_t i = 0; i < n; i++) {
        c->jobrows[i].name = k[i].name;
        c->jobrows[i].type = JO_JOB;
        c->jobrows[i].arg = k[i].arg;
        c->jobrows[i].help = k[i].help;
    }
    c->n_jobrows = n;
}

void jo_only(jobopts *c, const char *const *only)
{
    c->only = only;
}

/* Does the command take shared row o (jo_only)? */
static int takes(const char *const *only, const jo_opt *o)
{
    if (!only) return 1;
    for (size_t i = 0; only[i]; i++)
        if (!strcmp(only[i], o->name)) return 1;
    return 0;
}

static void help_rows(FILE *f, const jo_opt *o, size_t n, const char *const *only)
{
    for (size_t i = 0; i < n; i++) {
        if (!takes(only, &o[i])) continue;
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", o[i].name, o[i].arg ? " " : "",
                 o[i].arg ? o[i].arg : "");
        const double *max = o[i].type == JO_JOB ? jc_job_key_max(o[i].name) : NULL;
        if (max) fprintf(f, "  %-26s %s (at most %s)\n", left, o[i].help, CLI_NUM(*max));
        else fprintf(f, "  %-26s %s\n", left, o[i].help);
    }
}

void jo_help_only(FILE *f, const char *const *only, const jo_opt *extra, size_t n_extra)
{
    jobopts c;
    jo_init(&c, "", NULL, 0, NULL, NULL);
    help_rows(f, c.jobrows, c.n_jobrows, only);
    help_rows(f, opts, N_OPTS, only);
    if (n_extra) help_rows(f, extra, n_extra, NULL);
    jo_free(&c);
}

void jo_help(FILE *f, const jo_opt *extra, size_t n_extra)
{
    jo_help_only(f, NULL, extra, n_extra);
}

void jo_help_rows(FILE *f, const jo_opt *rows, size_t n)
{
    help_rows(f, rows, n, NULL);
}

/* The library's rows and the shared output rows (jo_spec.takes), ids
 * above every command's. */
enum { ID_LIB = 1000, ID_JSON, ID_CSV, ID_HTML };
static const jo_opt out_rows[] = {
    {"json", JO_OUT, ID_JSON, NULL, "JSON output (docs/json-schemas.md: the command's section)"},
    {"csv", JO_OUT, ID_CSV, NULL, "CSV output: a header row, then one row per estimate (model, entry)"},
    {"html", JO_OUT, ID_HTML, "FILE", "also write a self-contained HTML report with charts ('-': to stdout, instead "
     "of the text)"},
};

jo_opt *jo_spec_rows(const jo_spec *s, size_t *n)
{
    size_t nk = 0, m = 0;
    const jci_cmd_key *k = s->takes & JO_TAKES_LIB ? jci_command_opt_keys(s->cmd, &nk) : NULL;
    jo_opt *r = calloc(nk + 3 + s->n_extra + 1, sizeof *r);
    if (!r) return NULL;
    for (size_t i = 0; i < nk; i++)
        if (!k[i].argument) r[m++] = (jo_opt){k[i].name, k[i].output ? JO_OUT : JO_CMD, ID_LIB, k[i].arg, k[i].help};
    for (size_t i = 0; i < 3; i++)
        if (s->takes & 1u << i) r[m++] = out_rows[i];
    if (s->n_extra) memcpy(r + m, s->extra, s->n_extra * sizeof *r);
    *n = m + s->n_extra;
    return r;
}

void jo_init_spec(jobopts *c, const jo_spec *s, jo_handler handler, void *ctx)
{
    size_t n = 0;
    jo_opt *rows = jo_spec_rows(s, &n);
    jo_init(c, s->cmd, rows, n, handler, ctx);
    c->lib = s->lib;
    c->spec_rows = rows;
    if (!rows) c->nomem = 1;
}

void jo_help_spec(FILE *f, const jo_spec *s)
{
    size_t n = 0;
    jo_opt *rows = jo_spec_rows(s, &n);
    if (rows) jo_help(f, rows, n);
    free(rows);
}

int jo_out_check(const jobopts *c, int others)
{
    if (c->out.json + c->out.csv > 1) return cli_usage(c->cmd, "--json and --csv are exclusive");
    if (c->out.html && !strcmp(c->out.html, "-") && c->out.json + c->out.csv + others)
        return cli_usage(c->cmd, "--html - writes the HTML to stdout: it cannot be combined with another format");
    return 0;
}

int jo_lib_status(const char *cmd, const char *where, jc_status st, const jc_diag *d)
{
    if (st == JC_OK) return 0;
    if (st == JC_ERR_RANGE) return cli_range(cmd, "%s: --%s", where, d->msg);
    return cli_usage(cmd, "%s: --%s", where, d->msg);
}

int jo_req_set(jobopts *c, const char *key, const char *val, const char *where)
{
    jc_diag d;
    jc_status st = jci_reqset_set(&c->rs, key, val, &d);
    if (st == JC_ERR_NOMEM) {
        fprintf(stderr, "joulecast: %s: out of memory\n", c->cmd);
        return JC_ERR_NOMEM;
    }
    return jo_lib_status(c->cmd, where, st, &d);
}

/* Applies one option; `where` names its origin for errors. 0 ok, else exit code. */
static int apply(jobopts *c, const jo_opt *o, const char *val, const char *where)
{
    switch (o->type) {
    case JO_JOB:
    case JO_REQ:
        return jo_req_set(c, o->name, val, where);
    case JO_OUT:
        if (o->off == ID_JSON || o->off == ID_CSV) {
            *(o->off == ID_JSON ? &c->out.json : &c->out.csv) = 1;
            return 0;
        }
        if (o->off == ID_HTML) {
            c->out.html = val;
            return 0;
        }
        /* fall through */
    case JO_CMD:
    case JO_CMD_EACH:
        if (o->off == ID_LIB && c->lib) {
            jc_diag d;
            return jo_lib_status(c->cmd, where, c->lib(c->ctx, o->name, val, &d), &d);
        }
        return c->handler ? c->handler(c->ctx, o, val, where) : JC_ERR_INTERNAL;
    }
    return JC_ERR_INTERNAL;
}

static const jo_opt *find_opt(const jobopts *c, const char *name)
{
    for (size_t i = 0; i < c->n_jobrows; i++)
        if (!strcmp(c->jobrows[i].name, name) && takes(c->only, &c->jobrows[i])) return &c->jobrows[i];
    for (size_t i = 0; i < N_OPTS; i++)
        if (!strcmp(opts[i].name, name) && takes(c->only, &opts[i])) return &opts[i];
    for (size_t i = 0; i < c->n_extra; i++)
        if (!strcmp(c->extra[i].name, name)) return &c->extra[i];
    return NULL;
}

/* Is name a shared row the command does not take (jo_only)?  count reads
 * an estimate's job file: its estimate keys are named and skipped. */
static int not_taken(const jobopts *c, const char *name)
{
    if (!c->only) return 0;
    for (size_t i = 0; i < c->n_jobrows; i++)
        if (!strcmp(c->jobrows[i].name, name)) return 1;
    for (size_t i = 0; i < N_OPTS; i++)
        if (!strcmp(opts[i].name, name)) return 1;
    return 0;
}

/* The option the command takes that is closest to name, given with value
 * (NULL: none), for "did you mean" ('gpu' means the device). */
static const char *closest_opt(const jobopts *c, const char *name, const char *value)
{
    const char **names = calloc(c->n_jobrows + N_OPTS + c->n_extra + 1, sizeof *names);
    if (!names) return NULL;   /* no suggestion; the option is still refused */
    size_t n = 0;
    for (size_t i = 0; i < c->n_jobrows; i++)
        if (takes(c->only, &c->jobrows[i])) names[n++] = c->jobrows[i].name;
    for (size_t i = 0; i < N_OPTS; i++)
        if (takes(c->only, &opts[i])) names[n++] = opts[i].name;
    for (size_t i = 0; i < c->n_extra; i++) names[n++] = c->extra[i].name;
    const char *best = jc_closest_key(name, value, names, n);
    free(names);
    return best;
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

static int is_jobfile(const char *s)
{
    return ends_with(s, ".yaml") || ends_with(s, ".yml");
}

static int was_given(const jobopts *c, const jo_opt *o)
{
    for (size_t i = 0; i < c->n_given; i++)
        if (c->given[i] == o) return 1;
    return 0;
}

static int repeatable(const jo_opt *o)
{
    return o->type == JO_CMD_EACH || (o->type == JO_REQ && jci_key_repeatable(o->name));
}

/* Entry k of the job file (its pairs keys/vals: paths made relative to
 * it), beneath the command line.  0, or the exit code (printed). */
static int file_entry(jobopts *c, const char *const *keys, const char *const *vals, size_t k)
{
    const jc_jobfile *jf = c->jf;
    char where[600];
    snprintf(where, sizeof where, "%s:%d:%d", jf->path, jf->lines[k], jf->cols[k]);
    const jo_opt *o = find_opt(c, jf->keys[k]);
    if (!o && not_taken(c, jf->keys[k])) {   /* said, not silent */
        fprintf(stderr, "joulecast: %s: warning: '%s' has no effect on %s (a key of estimate jobs); "
                "ignored\n", where, jf->keys[k], c->cmd);
        return 0;
    }
    if (!o) {   /* named at the key, not at its value */
        const char *near = closest_opt(c, jf->keys[k], jf->values[k]);
        return cli_usage(c->cmd, "%s:%d:%d: unknown key '%s'%s%s%s (keys are the long option names)",
                         jf->path, jf->key_lines[k], jf->key_cols[k], jf->keys[k], near ? "; did you mean '" : "",
                         near ? near : "", near ? "'?" : "");
    }
    if (o->type == JO_OUT) {   /* output options stay on the command line: said, not silent */
        fprintf(stderr, "joulecast: %s: warning: '%s' is an output option of the command line; the job "
                "file's is ignored (give --%s on the command line)\n", where, jf->keys[k], o->name);
        return 0;
    }
    int mode = 0;
    long prev = repeatable(o) ? -1 : jci_pairs_clash(keys, vals, 0, k, &mode);
    if (prev >= 0 && !mode)
        return cli_usage(c->cmd, "%s: '%s: %s' and '%s: %s' (line %d): '%s' takes one value and one would be "
                         "lost; give it once", where, jf->keys[prev], jf->values[prev], jf->keys[k],
                         jf->values[k], jf->lines[prev], o->name);
    if (!repeatable(o) && was_given(c, o)) return 0;    /* the command line wins */
    if (o->type == JO_REQ && !strcmp(o->name, "model") && c->rs.model) return 0;   /* given as an argument */
    int rc = apply(c, o, vals[k], where);
    if (!rc && prev >= 0)   /* train / infer / mode entries that ask for different modes */
        rc = cli_usage(c->cmd, "%s: '%s' and '%s' ask for different modes; give one", where, jf->keys[prev], o->name);
    return rc;
}

int jo_apply_jobfile(jobopts *c, const char *path)
{
    jc_diag d;
    if (c->jf) return cli_usage(c->cmd, "one job file at a time");
    if (jc_jobfile_load(path, &c->jf, &d)) return cli_fail(&d);
    /* the file's pairs beneath the command line's (src/job/reqset.c) */
    const char **keys = NULL, **vals = NULL;
    size_t n = 0;
    if (jci_jobfile_pairs(c->rs.arena, c->jf, NULL, NULL, 0, NULL, &keys, &vals, &n, &d)) {
        fprintf(stderr, "joulecast: %s: out of memory\n", c->cmd);
        return JC_ERR_NOMEM;
    }
    c->rs.under = 1;
    int rc = 0;
    for (size_t k = 0; k < n && !rc; k++) rc = file_entry(c, keys, vals, k);
    c->rs.under = 0;
    /* the command line's job keys once more: aliases (train / mode, mfu /
     * utilization) write the same field as a file key of another name */
    for (size_t i = 0; i < c->n_given && !rc; i++)
        if (c->given[i]->type == JO_JOB) rc = apply(c, c->given[i], c->given_val[i], "command line");
    return rc;
}

/* The job file named among argv, applied before the command line. */
static int load_jobfile(jobopts *c, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-') {
            const jo_opt *o = argv[i][1] == '-' ? find_opt(c, argv[i] + 2) : NULL;
            if (o && o->arg && !strchr(argv[i], '=')) i++;
            continue;
        }
        if (!is_jobfile(argv[i])) continue;
        int rc = jo_apply_jobfile(c, argv[i]);
        if (rc) return rc;
    }
    return 0;
}

/* Records an option of the command line (every one: a later value of the
 * same option is compared with it, a job file's key yields to it). */
static int remember(jobopts *c, const jo_opt *o, const char *val)
{
    if (c->n_given == c->cap_given) {
        size_t cap = c->cap_given ? 2 * c->cap_given : 32;
        const jo_opt **g = realloc(c->given, cap * sizeof *g);
        if (g) c->given = g;
        const char **gv = g ? realloc(c->given_val, cap * sizeof *gv) : NULL;
        if (gv) c->given_val = gv;
        const char **gk = gv ? realloc(c->given_key, cap * sizeof *gk) : NULL;
        if (gk) c->given_key = gk;
        if (!g || !gv || !gk) {
            fprintf(stderr, "joulecast: %s: out of memory\n", c->cmd);
            return JC_ERR_NOMEM;
        }
        c->cap_given = cap;
    }
    c->given_val[c->n_given] = val;
    c->given_key[c->n_given] = o->name;
    c->given[c->n_given++] = o;
    return 0;
}

int jo_parse(jobopts *c, int argc, char **argv, jo_positional pos, void *pctx)
{
    if (c->nomem) {
        fprintf(stderr, "joulecast: %s: out of memory\n", c->cmd);
        return JC_ERR_NOMEM;
    }
    int rc = load_jobfile(c, argc, argv);
    if (rc) return rc;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] != '-' || !a[2]) {
            if (a[0] == '-' && a[1]) return cli_usage(c->cmd, "unknown option '%s'", a);
            if (is_jobfile(a)) continue;
            if (pos) {
                if ((rc = pos(pctx, a))) return rc;
                continue;
            }
            if (c->rs.model && strcmp(c->rs.model, a))
                return cli_usage(c->cmd, "one model at a time ('%s' and '%s')", c->rs.model, a);
            c->rs.model = a;
            continue;
        }
        const char *name = a + 2, *eq = strchr(name, '=');
        char key[64];
        size_t kl = eq ? (size_t)(eq - name) : strlen(name);
        if (kl >= sizeof key) return cli_usage(c->cmd, "unknown option '%s'", a);
        memcpy(key, name, kl);
        key[kl] = 0;
        const jo_opt *o = find_opt(c, key);
        if (!o) {
            const char *near = closest_opt(c, key, eq ? eq + 1 : i + 1 < argc ? argv[i + 1] : NULL);
            if (near) return cli_usage(c->cmd, "unknown option '--%s'; did you mean '--%s'?", key, near);
            return cli_usage(c->cmd, "unknown option '--%s'", key);
        }
        const char *val = NULL;
        if (o->arg) {
            if (eq) val = eq + 1;
            else if (i + 1 < argc) val = argv[++i];
            else return cli_usage(c->cmd, "option --%s needs a value", key);
        } else if (eq) {
            return cli_usage(c->cmd, "option --%s takes no value", key);
        }
        /* the same option twice with two values, or two modes: one would
         * be lost (src/job/reqset.c's rule) */
        if ((rc = remember(c, o, val))) return rc;
        int mode = 0;
        long prev = repeatable(o) ? -1 : jci_pairs_clash(c->given_key, c->given_val, 0, c->n_given - 1, &mode);
        if (prev >= 0 && !mode)
            return cli_usage(c->cmd, "--%s %s and --%s %s: one value is lost; give the option once",
                             c->given_key[prev], c->given_val[prev], o->name, val);
        if ((rc = apply(c, o, val, "command line"))) return rc;
        if (prev >= 0)
            return cli_usage(c->cmd, "--%s and --%s ask for different modes (%s and %s); give one",
                             c->given_key[prev], o->name, jci_key_mode(c->given_key[prev], c->given_val[prev]),
                             jci_key_mode(o->name, val));
    }
    if (c->rs.strict && c->rs.allow_partial)
        return cli_usage(c->cmd, "--strict and --allow-partial contradict each other; give one");
    return 0;
}

void jo_request(const jobopts *c, jc_request *rq)
{
    /* what a job file named is an input too (an output must not be one) */
    cli_note_input(c->rs.model);
    cli_note_input(c->rs.op_rules);
    cli_note_input(c->job.hf_config);
    jci_reqset_request(&c->rs, rq);
}

int jo_prepare(const jobopts *c, jc_prepared **p)
{
    jc_request rq;
    jc_diag d;
    jo_request(c, &rq);
    if (jc_request_prepare(&rq, p, &d)) return cli_fail(&d);
    return 0;
}

FILE *jo_html_open(const char *path, int *rc)
{
    if (!strcmp(path, "-")) return stdout;
    if ((*rc = cli_output_check("--html", path))) return NULL;
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "joulecast: %s: cannot write the HTML report: %s\n", path, strerror(errno));
        *rc = JC_ERR_IO;
    }
    return f;
}

int jo_html_close(FILE *f, const char *path, jc_status st)
{
    int bad = f == stdout ? fflush(f) != 0 : fclose(f) != 0;
    if (st == JC_ERR_NOMEM) {
        fprintf(stderr, "joulecast: out of memory while writing the HTML report\n");
        return JC_ERR_NOMEM;
    }
    if (st || bad) {
        fprintf(stderr, "joulecast: %s: writing the HTML report failed\n", path);
        return st && st != JC_ERR_IO ? (int)st : JC_ERR_IO;
    }
    return 0;
}

void jo_free(jobopts *c)
{
    jci_reqset_free(&c->rs);
    jc_jobfile_free(c->jf);
    c->jf = NULL;
    free(c->jobrows);
    c->jobrows = NULL;
    free(c->spec_rows);
    c->spec_rows = NULL;
    c->n_jobrows = 0;
    free(c->given);
    free(c->given_val);
    free(c->given_key);
    c->given_key = NULL;
    c->given = NULL;
    c->given_val = NULL;
    c->n_given = c->cap_given = 0;
}
