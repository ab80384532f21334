/*
 * cmd_count.c - `joulecast count MODEL.onnx ...`: shapes and cost of every
 * node (jc_analyze), reported as text, JSON or CSV.  Parses the options
 * into jc_analyze_opts; all arithmetic lives in the library.
 */
#include "cli/cli.h"
#include "cli/jobopts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void help_count(FILE *f)
{
    fprintf(f,
        "usage: joulecast count MODEL.onnx [options]\n\n"
        "Infers every tensor's shape and counts MACs, FLOPs, special ops\n"
        "(transcendentals), bytes and parameters per node (docs/counting.md).\n"
        "Unknown dims, unsupported ops and data-dependent sizes are listed\n"
        "first and never counted as zero.\n\n"
        "  --dim NAME=N         bind a symbolic dim (repeatable)\n"
        "  --input NAME=AxBxC   give an input's full shape (repeatable)\n"
        "  --batch N            bind the first dim of every symbolic input\n"
        "  --input-value NAME=V,V,...\n"
        "                       the values of an input whose value decides a\n"
        "                       shape (Reshape shape, Slice starts, TopK k,\n"
        "                       Resize scales...; repeatable)\n"
        "  --assume NAME=N      bound for a data-dependent size or trip count\n"
        "                       (names as the report prints them)\n"
        "  --per-node           add the per-node table\n"
        "  --top N              top nodes by MACs (default 10, 0: none)\n"
        "  --json | --csv       machine-readable output (docs/json-schemas.md)\n"
        "  --convention C       joulecast|torchvision|flops2x|fvcore|onnx-tool\n"
        "  --op-rules FILE      YAML cost rules for custom ops\n"
        "  --strict             exit %d when the result is partial\n", JC_ERR_INCOMPLETE);
}

/* NAME=v1,v2,...: numbers as doubles (integers as written when they are
 * integers).  An empty list (NAME=) binds an empty tensor.  false on a
 * syntax error or out-of-memory. */
static bool parse_value(const char *s, jc_value_binding *b)
{
    const char *eq = strchr(s, '=');
    if (!eq || eq == s) return false;
    size_t n = 0, len = strlen(eq + 1);
    for (size_t i = 0; i < len; i++) n += eq[1 + i] == ',';
    n = len ? n + 1 : 0;
    char *name = malloc((size_t)(eq - s) + 1);
    int64_t *iv = calloc(n ? n : 1, sizeof *iv);
    double *fv = calloc(n ? n : 1, sizeof *fv);
    if (!name || !iv || !fv) goto bad;
    memcpy(name, s, (size_t)(eq - s));
    name[eq - s] = 0;
    const char *p = eq + 1;
    for (size_t k = 0; k < n; k++) {
        const char *comma = strchr(p, ',');
        size_t l = comma ? (size_t)(comma - p) : strlen(p);
        char tmp[64];
        if (!l || l >= sizeof tmp) goto bad;
        memcpy(tmp, p, l);
        tmp[l] = 0;
        int neg = tmp[0] == '-';
        if (cli_parse_i64(tmp + neg, &iv[k])) {
            if (neg) iv[k] = -iv[k];
            fv[k] = (double)iv[k];
        } else {
            char *end;
            double x = strtod(tmp, &end);
            if (*end || !(x > -9.2e18 && x < 9.2e18)) goto bad;
            fv[k] = x;
            iv[k] = (int64_t)x;
        }
        p = comma ? comma + 1 : p + l;
    }
    b->name = name;
    b->n = (int64_t)n;
    b->ivals = iv;
    b->fvals = fv;
    return true;
bad:
    free(name);
    free(iv);
    free(fv);
    return false;
}

int cmd_count(int argc, char **argv)
{
    const char *path = NULL, *v;
    int json = 0, csv = 0, per_node = 0, strict = 0, top = 10, err = 0, rc = 0;
    jc_analyze_opts o;
    memset(&o, 0, sizeof o);
    jc_dim_binding *dims = calloc((size_t)argc, sizeof *dims), *assume = calloc((size_t)argc, sizeof *assume);
    jc_input_binding *inputs = calloc((size_t)argc, sizeof *inputs);
    jc_value_binding *values = calloc((size_t)argc, sizeof *values);
    size_t nd = 0, na = 0, ni = 0, nv = 0;
    if (!dims || !assume || !inputs || !values) {
        fprintf(stderr, "joulecast: out of memory\n");
        rc = JC_ERR_NOMEM;
        goto out;
    }
    for (int i = 1; i < argc && !rc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--json")) json = 1;
        else if (!strcmp(a, "--csv")) csv = 1;
        else if (!strcmp(a, "--per-node")) per_node = 1;
        else if (!strcmp(a, "--strict")) strict = 1;
        else if (cli_opt(argc, argv, &i, "--dim", &v, &err)) {
            if (err) rc = JC_ERR_USAGE;
            else if (!(rc = jo_parse_dim("count", "command line", "dim", v, 1, &dims[nd]))) nd++;
        } else if (cli_opt(argc, argv, &i, "--assume", &v, &err)) {
            if (err) rc = JC_ERR_USAGE;
            else if (!(rc = jo_parse_dim("count", "command line", "assume", v, 0, &assume[na]))) na++;
        } else if (cli_opt(argc, argv, &i, "--input-value", &v, &err)) {
            if (err) rc = JC_ERR_USAGE;
            else if (!parse_value(v, &values[nv]))
                rc = cli_usage("count", "--input-value expects NAME=V,V,... (e.g. shape=1,-1,768), got '%s'", v);
            else nv++;
        } else if (cli_opt(argc, argv, &i, "--input", &v, &err)) {
            if (err) rc = JC_ERR_USAGE;
            else {
                int64_t *d = calloc(JO_MAX_RANK, sizeof *d);
                if (!d) rc = JC_ERR_NOMEM;
                else if ((rc = jo_parse_input("count", "command line", v, d, JO_MAX_RANK, &inputs[ni])))
                    free(d);
                else ni++;
            }
        } else if (cli_opt(argc, argv, &i, "--batch", &v, &err)) {
            double bv;
            if (err) rc = JC_ERR_USAGE;
            else if (!cli_parse_f64(v, &bv) || bv < 1 || bv != floor(bv))
                rc = cli_usage("count", "--batch expects a positive integer, got '%s'", v);
            else if (bv > *jc_job_key_max("batch"))
                rc = cli_range("count", "--batch %s is out of range: at most %g", v, *jc_job_key_max("batch"));
            else o.batch = (int64_t)bv;
        } else if (cli_opt(argc, argv, &i, "--top", &v, &err)) {
            int64_t t;
            if (err) rc = JC_ERR_USAGE;
            else if (!cli_parse_i64(v, &t) || t > 100000) rc = cli_usage("count", "--top expects a count, got '%s'", v);
            else top = (int)t;
        } else if (cli_opt(argc, argv, &i, "--convention", &v, &err)) {
            if (err) rc = JC_ERR_USAGE;
            else if (jc_convention_parse(v, &o.convention))
                rc = cli_usage("count", "unknown convention '%s' (joulecast, torchvision, flops2x, fvcore, onnx-tool)", v);
        } else if (cli_opt(argc, argv, &i, "--op-rules", &v, &err)) {
            if (err) rc = JC_ERR_USAGE;
            else o.op_rules_path = v;
        } else if (a[0] == '-' && a[1]) rc = cli_usage("count", "unknown option '%s'", a);
        else if (path) rc = cli_usage("count", "one model at a time ('%s' and '%s')", path, a);
        else path = a;
    }
    if (!rc && !path) rc = cli_usage("count", "missing MODEL.onnx");
    if (!rc && json && csv) rc = cli_usage("count", "--json and --csv are exclusive");
    if (rc) goto out;
    o.dims = dims;
    o.n_dims = nd;
    o.assume = assume;
    o.n_assume = na;
    o.inputs = inputs;
    o.n_inputs = ni;
    o.values = values;
    o.n_values = nv;
    jc_diag d;
    jc_model *m;
    if (cli_model_load(path, &m, &d)) {
        rc = cli_fail(&d);
        goto out;
    }
    /* --batch binds the first dim of every symbolic input: a --dim or
     * --input that binds one of those to another value would lose */
    const jc_graph *g = m->graph;
    for (size_t i = 0; o.batch > 0 && !rc && i < g->n_inputs; i++) {
        const jc_value *gv = &g->values[g->inputs[i]];
        if (gv->rank < 1 || gv->dims[0].v >= 0) continue;
        for (size_t k = 0; !rc && gv->dims[0].sym && k < nd; k++)
            if (!strcmp(dims[k].name, gv->dims[0].sym) && dims[k].value != o.batch)
                rc = cli_usage("count", "--batch %lld and --dim %s=%lld disagree on input '%s''s first dim; "
                               "give one", (long long)o.batch, dims[k].name, (long long)dims[k].value, gv->name);
        for (size_t k = 0; !rc && k < ni; k++)
            if (!strcmp(inputs[k].name, gv->name) && inputs[k].rank > 0 && inputs[k].dims[0] != o.batch)
                rc = cli_usage("count", "--batch %lld and --input %s disagree on its first dim (%lld); give one",
                               (long long)o.batch, gv->name, (long long)inputs[k].dims[0]);
    }
    if (rc) {
        jc_model_free(m);
        goto out;
    }
    jc_analysis *an;
    if (jc_analyze(m, &o, &an, &d)) {
        rc = cli_fail(&d);
        jc_model_free(m);
        goto out;
    }
    if (json) {
        char *s = jc_report_count_json(an);
        if (!s) {
            fprintf(stderr, "joulecast: out of memory\n");
            rc = JC_ERR_NOMEM;
        } else {
            fputs(s, stdout);
            fputc('\n', stdout);
            free(s);
        }
    } else if (csv) {
        rc = jc_report_count_csv(an, stdout);
    } else {
        rc = jc_report_count_text(an, stdout, per_node, top);
    }
    if (!rc && strict && an->partial) {
        fprintf(stderr, "joulecast: the count is partial (--strict)\n");
        rc = JC_ERR_INCOMPLETE;
    }
    jc_analysis_free(an);
    jc_model_free(m);
out:
    for (size_t i = 0; dims && i < nd; i++) free((char *)dims[i].name);
    for (size_t i = 0; assume && i < na; i++) free((char *)assume[i].name);
    for (size_t i = 0; inputs && i < ni; i++) {
        free((char *)inputs[i].name);
        free((int64_t *)inputs[i].dims);
    }
    for (size_t i = 0; values && i < nv; i++) {
        free((char *)values[i].name);
        free((int64_t *)values[i].ivals);
        free((double *)values[i].fvals);
    }
    free(dims);
    free(assume);
    free(inputs);
    free(values);
    return rc;
}
