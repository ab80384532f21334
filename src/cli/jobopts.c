/*
 * jobopts.c (cli) - the workload option table shared by `estimate`, `compare`
 * and `sweep`, and the parsing around it: job file first, then the
 * command line (which overrides it), --help text from the same rows, and
 * the request the commands hand to the library (jc_request_prepare).
 * See jobopts.h.
 */
#include "cli/jobopts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The command line's own rows; every key of a jc_job (jc_job_keys(), the
 * library's table) is an option too, applied with jc_job_set. */
static const jo_opt opts[] = {
    {"model", JO_STR, 0, "FILE", "the ONNX model (or give it as an argument)"},
    {"dim", JO_DIM, 0, "NAME=V", "bind a symbolic dim (repeatable)"},
    {"input", JO_INPUT, 0, "NAME=AxB", "bind an input's full shape (repeatable)"},
    {"op-rules", JO_OPRULES, 0, "FILE", "YAML cost rules for custom ops (as in count)"},
    {"hwdb", JO_HWDB, 0, "DIR", "hardware-database override layer (repeatable)"},
    {"allow-partial", JO_ALLOW_PARTIAL, 0, NULL,
     "report a partial count (unbound dim, unknown op) as a lower bound instead of refusing it (exit 9)"},
    {"strict", JO_STRICT, 0, NULL, "refuse a partial count with exit 9 (the default; overrides a job file's allow-partial)"},
    {"hash-weights", JO_HASH_WEIGHTS, 0, NULL,
     "also record the SHA-256 of the whole model file, weights included (reads every byte; the graph identity never does)"},
};
#define N_OPTS (sizeof opts / sizeof opts[0])

void jo_init(jobopts *c, const char *cmd, const jo_opt *extra, size_t n_extra,
             jo_handler handler, void *ctx)
{
    memset(c, 0, sizeof *c);
    jc_job_init(&c->job);
    c->cmd = cmd;
    c->extra = extra;
    c->n_extra = n_extra;
    c->handler = handler;
    c->ctx = ctx;
    size_t n;
    const jc_job_key *k = jc_job_keys(&n);
    c->jobrows = calloc(n ? n : 1, sizeof *c->jobrows);
    if (!c->jobrows) {
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

/* A value parsed by the library's one grammar (jc_parse_*): 0, or the
 * message at `where`, "--" before its key. */
static int grammar_status(const char *cmd, const char *where, jc_status st, const jc_diag *d)
{
    return st ? cli_usage(cmd, "%s: --%s", where, d->msg) : 0;
}

int jo_parse_dim(const char *cmd, const char *where, const char *opt, const char *val,
                 int64_t min, jc_dim_binding *b)
{
    jc_diag d;
    size_t nl;
    int rc = grammar_status(cmd, where, jc_parse_binding(opt, val, min, &nl, &b->value, &d), &d);
    if (rc) return rc;
    char *name = strndup(val, nl);
    if (!name) return JC_ERR_NOMEM;
    b->name = name;
    return 0;
}

int jo_parse_input(const char *cmd, const char *where, const char *val, int64_t *dims, int cap,
                   jc_input_binding *b)
{
    jc_diag d;
    size_t nl;
    int r = 0;
    int rc = grammar_status(cmd, where, jc_parse_shape_binding("input", val, dims, cap, &r, &nl, &d), &d);
    if (rc) return rc;
    char *name = strndup(val, nl);
    if (!name) return JC_ERR_NOMEM;
    b->name = name;
    b->dims = dims;
    b->rank = r;
    return 0;
}

/* Applies one option; `where` names its origin for errors. 0 ok, else exit code. */
static int apply(jobopts *c, const jo_opt *o, const char *val, const char *where)
{
    jc_job *j = &c->job;
    const char *cmd = c->cmd;
    switch (o->type) {
    case JO_JOB: {
        jc_diag d;
        jc_status st = jc_job_set(j, o->name, val, &d);
        if (st == JC_ERR_RANGE) return cli_range(cmd, "%s: --%s", where, d.msg);
        if (st) return cli_usage(cmd, "%s: --%s", where, d.msg);
        return 0;
    }
    case JO_STR:
    case JO_OPRULES:
    case JO_HWDB:
        /* a file name: an empty one (a job file's 'model:' with no value)
         * names nothing */
        if (!val || !*val) return cli_usage(cmd, "%s: --%s expects a file name, got nothing", where, o->name);
        if (o->type == JO_STR) {
            c->model = val;
            return 0;
        }
        if (o->type == JO_OPRULES) {
            c->op_rules = val;
            return 0;
        }
        if (c->n_layers >= JO_MAX_LAYERS) return cli_usage(cmd, "too many --hwdb layers");
        c->layers[c->n_layers++] = val;
        return 0;
    case JO_DIM: {
        if (c->n_dims >= JO_MAX_BIND) return cli_usage(cmd, "too many --dim bindings");
        int rc = jo_parse_dim(cmd, where, "dim", val, 1, &c->dims[c->n_dims]);
        if (!rc) c->n_dims++;
        return rc;
    }
    case JO_INPUT: {
        if (c->n_inputs >= JO_MAX_BIND) return cli_usage(cmd, "too many --input bindings");
        int rc = jo_parse_input(cmd, where, val, c->input_dims[c->n_inputs], JO_MAX_RANK,
                                &c->inputs[c->n_inputs]);
        if (!rc) c->n_inputs++;
        return rc;
    }
    case JO_HASH_WEIGHTS:
    case JO_ALLOW_PARTIAL:
    case JO_STRICT: {
        jc_diag d;
        int on = 1;
        int rc = grammar_status(cmd, where, jc_parse_flag(o->name, val, &on, &d), &d);
        if (rc) return rc;
        if (o->type == JO_HASH_WEIGHTS) {
            c->hash_weights = on;
        } else if (o->type == JO_STRICT) {
            c->strict_given = on;
            if (on) c->allow_partial = 0;
        } else {
            c->allow_partial = on;
        }
        return 0;
    }
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

/* A job file's model, op-rules or hwdb path, taken from the file's
 * folder (jc_jobfile_path); NULL (keep p) when it stays as written. */
static const char *beside(const char *jf_path, const char *key, const char *p, char *buf, size_t cap)
{
    const char *r = jc_jobfile_path(jf_path, key, p, buf, cap);
    return r == buf ? r : NULL;
}

static int was_given(const jobopts *c, const jo_opt *o)
{
    for (size_t i = 0; i < c->n_given; i++)
        if (c->given[i] == o) return 1;
    return 0;
}

static int repeatable(const jo_opt *o)
{
    return o->type == JO_DIM || o->type == JO_INPUT || o->type == JO_HWDB || o->type == JO_CMD_EACH;
}

/* The command line's earlier value for the field o sets (o itself, or an
 * alias of the same job field), or NULL; *name receives its option. */
static const char *earlier_value(const jobopts *c, const jo_opt *o, const char **name)
{
    for (size_t i = 0; i < c->n_given; i++) {
        const jo_opt *g = c->given[i];
        int same = g == o;
        if (!same && g->type == JO_JOB && o->type == JO_JOB) {
            const char *a = jc_job_key_canonical(g->name), *b = jc_job_key_canonical(o->name);
            same = a && b && !strcmp(a, b);
        }
        if (same && c->given_val[i]) {
            *name = g->name;
            return c->given_val[i];
        }
    }
    return NULL;
}

/* Moves the last of n entries of size sz in arr to index pos. */
static void to_front(void *arr, size_t n, size_t pos, size_t sz)
{
    char *a = arr, tmp[sizeof(int64_t) * JO_MAX_RANK];
    if (n < 1 || pos >= n - 1 || sz > sizeof tmp) return;
    memcpy(tmp, a + (n - 1) * sz, sz);
    memmove(a + (pos + 1) * sz, a + pos * sz, (n - 1 - pos) * sz);
    memcpy(a + pos * sz, tmp, sz);
}

/* The length of a binding's name (NAME=...). */
static size_t bind_name_len(const char *val)
{
    const char *eq = val ? strchr(val, '=') : NULL;
    return eq ? (size_t)(eq - val) : 0;
}

static int same_name(const char *name, const char *val)
{
    size_t l = bind_name_len(val);
    return l && name && strlen(name) == l && !strncmp(name, val, l);
}

/* The command line's --dim/--input NAME=... replaces the job file's
 * binding of the same NAME (the command line overrides the file): the
 * file's entry is removed.  A binding of the file that the command line
 * already gave (calibrate applies its file after the command line) is
 * skipped: *skip is set. */
static void override_binding(jobopts *c, const jo_opt *o, const char *val, int from_file, int *skip)
{
    *skip = 0;
    if (o->type != JO_DIM && o->type != JO_INPUT) return;
    int in = o->type == JO_INPUT;
    size_t *n = in ? &c->n_inputs : &c->n_dims;
    unsigned char *ff = in ? c->input_from_file : c->dim_from_file;
    for (size_t i = 0; i < *n; i++) {
        const char *name = in ? c->inputs[i].name : c->dims[i].name;
        if (!same_name(name, val)) continue;
        if (from_file && !ff[i]) {
            *skip = 1;
            return;
        }
        if (from_file || !ff[i]) continue;
        free((char *)name);
        size_t rest = *n - i - 1;
        if (in) {
            memmove(&c->inputs[i], &c->inputs[i + 1], rest * sizeof c->inputs[0]);
            memmove(&c->input_dims[i], &c->input_dims[i + 1], rest * sizeof c->input_dims[0]);
        } else {
            memmove(&c->dims[i], &c->dims[i + 1], rest * sizeof c->dims[0]);
        }
        memmove(&ff[i], &ff[i + 1], rest);
        ff[--*n] = 0;
        for (size_t k = 0; in && k < *n; k++) c->inputs[k].dims = c->input_dims[k];
        i--;
    }
}

static int is_mode_key(const char *name)
{
    return !strcmp(name, "train") || !strcmp(name, "infer") || !strcmp(name, "mode");
}

/* The file's earlier entry k of the field o sets (o itself, or an alias of
 * the same job field) with another value than entry i, or -1: a list for
 * a key that takes one value, or two aliases (mfu, utilization). */
static long file_conflict(const jobopts *c, const jc_jobfile *jf, size_t i, const jo_opt *o)
{
    for (size_t k = 0; k < i; k++) {
        const jo_opt *g = find_opt(c, jf->keys[k]);
        int same = g == o;
        if (!same && g && g->arg && g->type == JO_JOB && o->type == JO_JOB) {
            const char *a = jc_job_key_canonical(g->name), *b = jc_job_key_canonical(o->name);
            same = a && b && !strcmp(a, b);
        }
        if (same && strcmp(jf->values[k] ? jf->values[k] : "", jf->values[i] ? jf->values[i] : ""))
            return (long)k;
    }
    return -1;
}

int jo_apply_jobfile(jobopts *c, const char *path)
{
    jc_diag d;
    if (c->jf) return cli_usage(c->cmd, "one job file at a time");
    if (jc_jobfile_load(path, &c->jf, &d)) return cli_fail(&d);
    jc_jobfile *jf = c->jf;
    const char *file_model = NULL, *file_rules = NULL, *mode_by = NULL;
    int mode_was = 0;
    size_t nd = 0, ni = 0, nl = 0;   /* the file's entries go first */
    for (size_t k = 0; k < jf->n; k++) {
        char where[600];
        snprintf(where, sizeof where, "%s:%d:%d", jf->path, jf->lines[k], jf->cols[k]);
        const jo_opt *o = find_opt(c, jf->keys[k]);
        if (!o && not_taken(c, jf->keys[k])) {   /* said, not silent */
            fprintf(stderr, "joulecast: %s: warning: '%s' has no effect on %s (a key of estimate jobs); "
                    "ignored\n", where, jf->keys[k], c->cmd);
            continue;
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
            continue;
        }
        long prev = repeatable(o) || !o->arg ? -1 : file_conflict(c, jf, k, o);
        if (prev >= 0)
            return cli_usage(c->cmd, "%s: '%s: %s' and '%s: %s' (line %d): '%s' takes one value and one would be "
                             "lost; give it once", where, jf->keys[prev], jf->values[prev], jf->keys[k],
                             jf->values[k], jf->lines[prev], o->name);
        if (!repeatable(o) && was_given(c, o)) continue;   /* the command line wins */
        if (o->type == JO_STR && c->model) continue;        /* a model given as an argument */
        int skip;
        override_binding(c, o, jf->values[k], 1, &skip);
        if (skip) continue;                                  /* the command line's binding wins */
        size_t before = o->type == JO_DIM ? c->n_dims : o->type == JO_INPUT ? c->n_inputs : c->n_layers;
        const char *val = jf->values[k];
        if (o->type == JO_HWDB) {
            char buf[4096];
            const char *rel = beside(jf->path, "hwdb", val, buf, sizeof buf);
            if (rel) {
                if (c->n_owned >= JO_MAX_LAYERS || !(c->owned[c->n_owned] = strdup(rel))) return JC_ERR_NOMEM;
                val = c->owned[c->n_owned++];
            }
        }
        int rc = apply(c, o, val, where);
        if (rc) return rc;
        if (o->type == JO_JOB && is_mode_key(o->name)) {
            /* train / infer / mode entries that ask for different modes */
            if (mode_by && (int)c->job.mode != mode_was)
                return cli_usage(c->cmd, "%s: '%s' and '%s' ask for different modes; give one", where, mode_by,
                                 o->name);
            mode_by = o->name;
            mode_was = (int)c->job.mode;
        }
        if (o->type == JO_STR) file_model = c->model;
        if (o->type == JO_OPRULES) file_rules = c->op_rules;
        /* a repeatable entry of the file goes before the command line's */
        if (o->type == JO_DIM && c->n_dims > before) {
            c->dim_from_file[c->n_dims - 1] = 1;
            to_front(c->dims, c->n_dims, nd, sizeof c->dims[0]);
            to_front(c->dim_from_file, c->n_dims, nd++, 1);
        }
        if (o->type == JO_HWDB && c->n_layers > before)
            to_front(c->layers, c->n_layers, nl++, sizeof c->layers[0]);
        if (o->type == JO_INPUT && c->n_inputs > before) {
            c->input_from_file[c->n_inputs - 1] = 1;
            to_front(c->inputs, c->n_inputs, ni, sizeof c->inputs[0]);
            to_front(c->input_dims, c->n_inputs, ni, sizeof c->input_dims[0]);
            to_front(c->input_from_file, c->n_inputs, ni++, 1);
            for (size_t i = 0; i < c->n_inputs; i++) c->inputs[i].dims = c->input_dims[i];
        }
    }
    /* the command line's job keys once more: aliases (train / mode, mfu /
     * utilization) write the same field as a file key of another name */
    for (size_t i = 0; i < c->n_given; i++)
        if (c->given[i]->type == JO_JOB) {
            int rc = apply(c, c->given[i], c->given_val[i], "command line");
            if (rc) return rc;
        }
    /* relative model and op-rules paths in a job file are relative to the file */
    const char *rel;
    if (file_model && c->model == file_model &&
        (rel = beside(jf->path, "model", c->model, c->modelbuf, sizeof c->modelbuf)))
        c->model = rel;
    if (file_rules && c->op_rules == file_rules &&
        (rel = beside(jf->path, "op-rules", c->op_rules, c->rulesbuf, sizeof c->rulesbuf)))
        c->op_rules = rel;
    return 0;
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
        if (!g || !gv) {
            fprintf(stderr, "joulecast: %s: out of memory\n", c->cmd);
            return JC_ERR_NOMEM;
        }
        c->cap_given = cap;
    }
    c->given_val[c->n_given] = val;
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
    const char *mode_by = NULL;   /* the command-line option that set the mode */
    int mode_was = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] != '-' || !a[2]) {
            if (a[0] == '-' && a[1]) return cli_usage(c->cmd, "unknown option '%s'", a);
            if (is_jobfile(a)) continue;
            if (pos) {
                if ((rc = pos(pctx, a))) return rc;
                continue;
            }
            if (c->model && strcmp(c->model, a))
                return cli_usage(c->cmd, "one model at a time ('%s' and '%s')", c->model, a);
            c->model = a;
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
        if (o->arg && !repeatable(o)) {
            /* the same option twice with two values: one would be lost */
            const char *pn = NULL, *prev = earlier_value(c, o, &pn);
            if (prev && strcmp(prev, val))
                return cli_usage(c->cmd, "--%s %s and --%s %s: one value is lost; give the option once",
                                 pn, prev, o->name, val);
        }
        int skip;
        override_binding(c, o, val, 0, &skip);
        if ((rc = apply(c, o, val, "command line"))) return rc;
        if (o->type == JO_JOB && is_mode_key(o->name)) {
            /* two options that set different modes: one of them would be
             * silently ignored */
            if (mode_by && (int)c->job.mode != mode_was)
                return cli_usage(c->cmd, "--%s and --%s ask for different modes (training and inference); "
                                 "give one", mode_by, o->name);
            mode_by = o->name;
            mode_was = (int)c->job.mode;
        }
        if ((rc = remember(c, o, val))) return rc;
    }
    if (c->strict_given && c->allow_partial)
        return cli_usage(c->cmd, "--strict and --allow-partial contradict each other; give one");
    return 0;
}

void jo_request(const jobopts *c, jc_request *rq)
{
    /* what a job file named is an input too (an output must not be one) */
    cli_note_input(c->model);
    cli_note_input(c->op_rules);
    cli_note_input(c->job.hf_config);
    jc_request_init(rq);
    rq->job = &c->job;
    rq->model = c->model;
    rq->dims = c->dims;
    rq->n_dims = c->n_dims;
    rq->inputs = c->inputs;
    rq->n_inputs = c->n_inputs;
    rq->op_rules = c->op_rules;
    rq->allow_partial = c->allow_partial;
    rq->hash_weights = c->hash_weights;
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
    for (size_t i = 0; i < c->n_dims; i++) free((char *)c->dims[i].name);
    for (size_t i = 0; i < c->n_inputs; i++) free((char *)c->inputs[i].name);
    c->n_dims = c->n_inputs = 0;
    for (size_t i = 0; i < c->n_owned; i++) free(c->owned[i]);
    c->n_owned = 0;
    jc_jobfile_free(c->jf);
    c->jf = NULL;
    free(c->jobrows);
    c->jobrows = NULL;
    free(c->spec_rows);
    c->spec_rows = NULL;
    c->n_jobrows = 0;
    free(c->given);
    free(c->given_val);
    c->given = NULL;
    c->given_val = NULL;
    c->n_given = c->cap_given = 0;
}
