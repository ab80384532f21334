/*
 * cmd_count.c (cli) - `joulecast count MODEL.onnx ...`: shapes and cost of every
 * node, reported as text, JSON or CSV.  The options are rows of the
 * shared table (jobopts.c: dim, input, op-rules) plus
 * count's own; the model and its analysis come from the library's one
 * request path (jc_request_load / jc_request_analyze).
 */
#include "cli/cli.h"
#include "cli/jobopts.h"
#include "joulecast/model.h"
#include "joulecast/analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The shared rows count takes (jobopts.c, job_keys.def); its own below. */
static const char *const shared[] = {"model", "dim", "input", "op-rules", NULL};

enum { CO_BATCH, CO_VALUE, CO_ASSUME, CO_PER_NODE, CO_TOP, CO_JSON, CO_CSV, CO_CONVENTION, CO_STRICT };
static const jo_opt own[] = {
    {"batch", JO_REQ, CO_BATCH, "B", "bind the first dim of every symbolic input (the job key batch; at most 1e+09)"},
    {"input-value", JO_REQ, CO_VALUE, "NAME=V,V,...", "the values of an input whose value decides a shape "
     "(Reshape shape, Slice starts, TopK k, Resize scales...; repeatable)"},
    {"assume", JO_REQ, CO_ASSUME, "NAME=N", "bound for a data-dependent size or trip count (names as the report prints them; repeatable)"},
    {"per-node", JO_OUT, CO_PER_NODE, NULL, "add the per-node table"},
    {"top", JO_OUT, CO_TOP, "N", "top nodes by MACs (default 10, 0: none)"},
    {"json", JO_OUT, CO_JSON, NULL, "machine-readable output (docs/json-schemas.md)"},
    {"csv", JO_OUT, CO_CSV, NULL, "one CSV row per node"},
    {"convention", JO_REQ, CO_CONVENTION, "C", "joulecast|torchvision|flops2x|fvcore|onnx-tool"},
    {"strict", JO_REQ, CO_STRICT, NULL, "exit 9 when the count is partial (it is printed first)"},
};
#define N_OWN (sizeof own / sizeof own[0])

/* count's rows: the shared ones it takes, then its own. */
void count_help_rows(FILE *f, const char *cmd)
{
    (void)cmd;
    jo_help_only(f, shared, own, N_OWN);
}

/* count's own output options; its request keys (batch, input-value,
 * assume, convention, strict) are set by the library's one setter
 * (jci_reqset_set, through jobopts). */
typedef struct count_cli {
    int json, csv, per_node, top, top_given;
} count_cli;

static int apply_own(void *ctx, const jo_opt *o, const char *val, const char *where)
{
    count_cli *k = ctx;
    int64_t t;
    switch (o->off) {
    case CO_TOP:
        if (!cli_parse_i64(val, &t) || t > 100000) return cli_usage("count", "--top expects a count, got '%s'", val);
        k->top = (int)t;
        k->top_given = 1;
        return 0;
    case CO_PER_NODE: k->per_node = 1; return 0;
    case CO_JSON: k->json = 1; return 0;
    case CO_CSV: k->csv = 1; return 0;
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
    jo_only(&c, shared);
    jc_model *m = NULL;
    jc_analysis *an = NULL;
    jc_diag d;
    int rc = jo_parse(&c, argc, argv, NULL, NULL);
    if (!rc && !c.rs.model) rc = cli_usage("count", "missing MODEL.onnx");
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
    rq.allow_partial = 1;
    rq.no_default_batch = 1;
    if ((rc = jc_batch_check(c.job.batch, "--batch", &d) ? cli_fail(&d) : 0)) goto out;
    if (jc_request_load(&rq, &m, &d)) { rc = cli_fail(&d); goto out; }
    if (jc_request_analyze(&rq, m, NAN, &an, NULL, &d)) { rc = cli_fail(&d); goto out; }
    rc = print_count(&k, an);
    if (!rc && c.rs.strict && an->partial) {
        fprintf(stderr, "joulecast: the count is partial (--strict)\n");
        rc = JC_ERR_INCOMPLETE;
    }
out:
    jc_analysis_free(an);
    jc_model_free(m);
    jo_free(&c);
    return rc;
}
