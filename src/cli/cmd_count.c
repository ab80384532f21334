/*
 * cmd_count.c (cli) - `joulecast count MODEL.onnx ...`: shapes and cost of every
 * node, reported as text, JSON or CSV.  The options are rows of the
 * shared table (jobopts.c: dim, input, op-rules) plus
 * count's own; the model and its analysis come from the library's one
 * request path (jc_request_load / jc_request_analyze).
 */
#include "cli/cli.h"
#include "cli/jobopts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The shared rows count takes (jobopts.c, job_keys.def); its own below. */
static const char *const shared[] = {"model", "dim", "input", "op-rules", NULL};

enum { CO_BATCH, CO_VALUE, CO_ASSUME, CO_PER_NODE, CO_TOP, CO_JSON, CO_CSV, CO_CONVENTION, CO_STRICT };
static const jo_opt own[] = {
    {"batch", JO_CMD, CO_BATCH, "B", "bind the first dim of every symbolic input (the job key batch; at most 1e+09)"},
    {"input-value", JO_CMD_EACH, CO_VALUE, "NAME=V,V,...", "the values of an input whose value decides a shape "
     "(Reshape shape, Slice starts, TopK k, Resize scales...; repeatable)"},
    {"assume", JO_CMD_EACH, CO_ASSUME, "NAME=N", "bound for a data-dependent size or trip count (names as the report prints them; repeatable)"},
    {"per-node", JO_OUT, CO_PER_NODE, NULL, "add the per-node table"},
    {"top", JO_OUT, CO_TOP, "N", "top nodes by MACs (default 10, 0: none)"},
    {"json", JO_OUT, CO_JSON, NULL, "machine-readable output (docs/json-schemas.md)"},
    {"csv", JO_OUT, CO_CSV, NULL, "one CSV row per node"},
    {"convention", JO_CMD, CO_CONVENTION, "C", "joulecast|torchvision|flops2x|fvcore|onnx-tool"},
    {"strict", JO_CMD, CO_STRICT, NULL, "exit 9 when the count is partial (it is printed first)"},
};
#define N_OWN (sizeof own / sizeof own[0])

/* count's rows: the shared ones it takes, then its own. */
void count_help_rows(FILE *f, const char *cmd)
{
    (void)cmd;
    jo_help_only(f, shared, own, N_OWN);
}

/* NAME=v1,v2,... by the library's one grammar (jc_parse_values_binding;
 * "NAME=" binds an empty tensor), at most as many values as the analysis
 * keeps (JC_VALUE_BINDING_MAX).  0, or the exit code with the message at `where`. */
static int parse_value(const char *where, const char *s, jc_value_binding *b)
{
    size_t n = jc_parse_values_count(s), nl;
    if (n > JC_VALUE_BINDING_MAX) n = JC_VALUE_BINDING_MAX;
    int64_t *iv = calloc(n ? n : 1, sizeof *iv);
    double *fv = calloc(n ? n : 1, sizeof *fv);
    jc_diag d;
    jc_status st = iv && fv ? jc_parse_values_binding("input-value", s, iv, fv, JC_VALUE_BINDING_MAX, &n, &nl, &d) : JC_ERR_NOMEM;
    char *name = st ? NULL : strndup(s, nl);
    if (st || !name) {
        free(iv);
        free(fv);
        if (st == JC_ERR_USAGE) return cli_usage("count", "%s: --%s", where, d.msg);
        fprintf(stderr, "joulecast: count: out of memory\n");
        return JC_ERR_NOMEM;
    }
    b->name = name;
    b->n = (int64_t)n;
    b->ivals = iv;
    b->fvals = fv;
    return 0;
}

typedef struct count_cli {
    jc_job *job;                /* the jobopts' job: --batch is its key */
    jc_value_binding values[JO_MAX_BIND];
    size_t n_values;
    jc_dim_binding assume[JO_MAX_BIND];
    size_t n_assume;
    jc_convention convention;
    int json, csv, strict, per_node, top, top_given;
} count_cli;

static int apply_own(void *ctx, const jo_opt *o, const char *val, const char *where)
{
    count_cli *k = ctx;
    int64_t t;
    switch (o->off) {
    case CO_BATCH: {   /* the job key, set as jobopts sets it */
        jc_diag d;
        jc_status st = jc_job_set(k->job, "batch", val, &d);
        if (st == JC_ERR_RANGE) return cli_range("count", "%s: --%s", where, d.msg);
        if (st) return cli_usage("count", "%s: --%s", where, d.msg);
        return 0;
    }
    case CO_VALUE: {
        if (k->n_values >= JO_MAX_BIND) return cli_usage("count", "too many --input-value bindings");
        int rc = parse_value(where, val, &k->values[k->n_values]);
        if (!rc) k->n_values++;
        return rc;
    }
    case CO_ASSUME: {
        if (k->n_assume >= JO_MAX_BIND) return cli_usage("count", "too many --assume bounds");
        int rc = jo_parse_dim("count", where, "assume", val, 0, &k->assume[k->n_assume]);
        if (!rc) k->n_assume++;
        return rc;
    }
    case CO_TOP:
        if (!cli_parse_i64(val, &t) || t > 100000) return cli_usage("count", "--top expects a count, got '%s'", val);
        k->top = (int)t;
        k->top_given = 1;
        return 0;
    case CO_PER_NODE: k->per_node = 1; return 0;
    case CO_JSON: k->json = 1; return 0;
    case CO_CSV: k->csv = 1; return 0;
    case CO_CONVENTION:
        if (jc_convention_parse(val, &k->convention))
            return cli_usage("count", "unknown convention '%s' (joulecast, torchvision, flops2x, fvcore, onnx-tool)", val);
        return 0;
    case CO_STRICT: k->strict = 1; return 0;
    }
    return JC_ERR_INTERNAL;
}

static int print_count(const count_cli *k, const jc_analysis *an)
{
    if (k->json) return cli_emit_json(jc_report_count_json_nodes(an, k->per_node));
    if (k->csv) return jc_report_count_csv(an, stdout);
    return jc_report_count_text(an, stdout, k->per_node, k->top);
}

int cmd_count(int argc, char **argv)
{
    count_cli k;
    jobopts c;
    memset(&k, 0, sizeof k);
    k.top = 10;
    jo_init(&c, "count", own, N_OWN, apply_own, &k);
    k.job = &c.job;
    jo_only(&c, shared);
    jc_model *m = NULL;
    jc_analysis *an = NULL;
    jc_diag d;
    int rc = jo_parse(&c, argc, argv, NULL, NULL);
    if (!rc && !c.model) rc = cli_usage("count", "missing MODEL.onnx");
    if (!rc && k.json && k.csv) rc = cli_usage("count", "--json and --csv are exclusive");
    /* an option that would have no effect is refused, never ignored */
    if (!rc && ((k.per_node && k.csv) || (k.top_given && (k.json || k.csv))))
        rc = cli_usage("count", "--%s shapes the text report: --csv lists every node, --json too (past %d "
                       "nodes with --per-node)", k.top_given ? "top" : "per-node", JC_NODE_DETAIL_MAX);
    if (rc) goto out;
    /* the one request path, with count's policy: a partial count is
     * reported (--strict: exit 9 after it), an unbound batch stays unbound */
    jc_request rq;
    jo_request(&c, &rq);
    rq.values = k.values;
    rq.n_values = k.n_values;
    rq.assume = k.assume;
    rq.n_assume = k.n_assume;
    rq.convention = k.convention;
    rq.allow_partial = 1;
    rq.no_default_batch = 1;
    if ((rc = jc_batch_check(c.job.batch, "--batch", &d) ? cli_fail(&d) : 0)) goto out;
    if (jc_request_load(&rq, &m, &d)) { rc = cli_fail(&d); goto out; }
    if (jc_request_analyze(&rq, m, NAN, &an, NULL, &d)) { rc = cli_fail(&d); goto out; }
    rc = print_count(&k, an);
    if (!rc && k.strict && an->partial) {
        fprintf(stderr, "joulecast: the count is partial (--strict)\n");
        rc = JC_ERR_INCOMPLETE;
    }
out:
    jc_analysis_free(an);
    jc_model_free(m);
    for (size_t i = 0; i < k.n_assume; i++) free((char *)k.assume[i].name);
    for (size_t i = 0; i < k.n_values; i++) {
        free((char *)k.values[i].name);
        free((int64_t *)k.values[i].ivals);
        free((double *)k.values[i].fvals);
    }
    jo_free(&c);
    return rc;
}
