/*
 * cmd_compare.c - `joulecast compare A.onnx B.onnx ... [options]`: the same
 * job (the workload options of `estimate`, src/cli/jobopts.c), estimated
 * for each model on the same device and region, side by side with ratios
 * against the first model.  A model whose batch dim is fixed to another
 * value than --batch is counted at its own batch and says so; a partial
 * count is said plainly (or refused with --strict).  --dim and --input
 * bindings apply to the models that have the dim or input.
 */
#include "cli/jobopts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MODELS 64

typedef struct cmp_cli {
    const char *models[MAX_MODELS];
    size_t n;
    int json, csv;
    const char *html;
} cmp_cli;

enum { C_JSON = 1, C_CSV, C_HTML };

static const jo_opt opts[] = {
    {"json", JO_OUT, C_JSON, NULL, "JSON output (docs/json-schemas.md \"compare\")"},
    {"csv", JO_OUT, C_CSV, NULL, "CSV: a header and one row per model"},
    {"html", JO_OUT, C_HTML, "FILE", "also write a self-contained HTML report with charts ('-': to stdout)"},
};
#define N_OPTS (sizeof opts / sizeof opts[0])

void help_compare(FILE *f)
{
    fprintf(f, "usage: joulecast compare A.onnx B.onnx ... [JOB.yaml] [options]\n\n"
               "Estimates the same job (workload, device, region) for each model and prints\n"
               "MACs, parameters, wall time, facility energy, emissions and J/sample side by\n"
               "side, then each as a ratio against the first model.  Options are those of\n"
               "`joulecast estimate`; a job file's model (if any) comes first.\n\n");
    jo_help(f, opts, N_OPTS);
    fprintf(f, "\nexample:\n"
               "  joulecast compare models/resnet50.onnx models/resnet18.onnx models/mobilenet_v2.onnx \\\n"
               "      --batch 64 --requests 1000000 --device a100 --region FR\n");
}

static int apply_out(void *ctx, const jo_opt *o, const char *val, const char *where)
{
    cmp_cli *c = ctx;
    (void)where;
    switch (o->off) {
    case C_JSON: c->json = 1; return 0;
    case C_CSV: c->csv = 1; return 0;
    case C_HTML: c->html = val; return 0;
    }
    return JC_ERR_INTERNAL;
}

static int add_model(void *ctx, const char *arg)
{
    cmp_cli *c = ctx;
    if (c->n >= MAX_MODELS) return cli_usage("compare", "at most %d models", MAX_MODELS);
    c->models[c->n++] = arg;
    return 0;
}

int cmd_compare(int argc, char **argv)
{
    cmp_cli cc;
    jobopts c;
    memset(&cc, 0, sizeof cc);
    jo_init(&c, "compare", opts, N_OPTS, apply_out, &cc);
    jc_hwdb *db = NULL;
    jc_model *ms[MAX_MODELS + 1] = {0};
    jc_analysis *ans[MAX_MODELS + 1] = {0};
    jc_estimate *es[MAX_MODELS + 1] = {0};
    char *notes[MAX_MODELS + 1] = {0};
    jc_compare_item items[MAX_MODELS + 1];
    const char *paths[MAX_MODELS + 1];
    size_t n = 0;
    unsigned char dim_used[JO_MAX_BIND] = {0}, input_used[JO_MAX_BIND] = {0};
    jc_request rq;
    jc_diag d;
    int rc = 0;

    if ((rc = jo_parse(&c, argc, argv, add_model, &cc))) goto out;
    if (cc.json + cc.csv > 1) { rc = cli_usage("compare", "--json and --csv are exclusive"); goto out; }
    if (cc.html && !strcmp(cc.html, "-") && cc.json + cc.csv) {
        rc = cli_usage("compare", "--html - writes the HTML to stdout: it cannot be combined with another format");
        goto out;
    }
    if (c.model) paths[n++] = c.model;
    for (size_t i = 0; i < cc.n; i++) paths[n++] = cc.models[i];
    if (n < 2) { rc = cli_usage("compare", "give two or more models (A.onnx B.onnx ...)"); goto out; }
    if (jc_batch_check(c.job.batch, "--batch", &d)) { rc = cli_fail(&d); goto out; }
    if ((rc = cli_hwdb_open(c.layers, c.n_layers, &db))) goto out;
    /* models differ: a binding is applied to the models that have the dim
     * or input (one that no model uses is refused below), and a model whose
     * batch dim is fixed is counted at its own batch */
    jo_request(&c, &rq);
    rq.bindings_if_present = 1;
    rq.fixed_batch = JC_FIXED_BATCH_MODEL;

    for (size_t i = 0; i < n; i++) {
        rq.model = paths[i];
        if (jc_request_load(&rq, &ms[i], &d)) { rc = cli_fail(&d); goto out; }
        jc_request_info info;
        memset(&info, 0, sizeof info);
        info.dim_used = dim_used;
        info.input_used = input_used;
        if (jc_request_analyze(&rq, ms[i], NAN, &ans[i], &info, &d)) { rc = cli_fail(&d); goto out; }
        jc_job job = c.job;
        char note[1200] = "";
        size_t k = 0;
        if (info.fixed_batch) {
            k += (size_t)snprintf(note + k, sizeof note - k,
                                  "input '%s' has a fixed batch dim of %lld, so it is counted at batch %lld, "
                                  "not %g: totals cover the same samples, per-pass figures do not compare",
                                  info.fixed_input, (long long)info.fixed_batch, (long long)info.fixed_batch,
                                  job.batch);
            job.batch = (double)info.fixed_batch;
        }
        if (info.partial && k < sizeof note) {
            char what[700];
            jc_analysis_partial_words(ans[i], what, sizeof what);
            k += (size_t)snprintf(note + k, sizeof note - k, "%spartial count (%s): its figures are lower bounds",
                                  k ? "; " : "", what);
        }
        if (jc_estimate_run(&job, ans[i], db, &es[i], &d)) {
            fprintf(stderr, "joulecast: %s: %s\n", paths[i], d.msg[0] ? d.msg : jc_status_name(d.status));
            rc = d.status ? (int)d.status : JC_ERR_INTERNAL;
            goto out;
        }
        if (note[0] && !(notes[i] = strdup(note))) { rc = JC_ERR_NOMEM; goto out; }
        items[i].label = paths[i];
        items[i].est = es[i];
        items[i].macs = ans[i]->totals.macs;   /* a lower bound when partial */
        items[i].params = ans[i]->totals.params;
        items[i].batch = isnan(info.batch) ? 1 : info.batch;
        items[i].partial = ans[i]->partial;
        items[i].note = notes[i];
    }
    for (size_t i = 0; i < c.n_dims; i++)
        if (!dim_used[i]) {
            rc = cli_usage("compare", "--dim %s: no model has a dim named '%s'", c.dims[i].name, c.dims[i].name);
            goto out;
        }
    for (size_t i = 0; i < c.n_inputs; i++)
        if (!input_used[i]) {
            rc = cli_usage("compare", "--input %s: no model has an input named '%s'", c.inputs[i].name,
                           c.inputs[i].name);
            goto out;
        }
    /* different batch sizes, said once more where the table is read */
    for (size_t i = 1; i < n; i++)
        if (items[i].batch != items[0].batch && !notes[i]) {
            char note[300];
            snprintf(note, sizeof note, "counted at batch %g, the first model at batch %g", items[i].batch,
                     items[0].batch);
            if (!(notes[i] = strdup(note))) { rc = JC_ERR_NOMEM; goto out; }
            items[i].note = notes[i];
        }

    if (cc.html) {
        FILE *hf = jo_html_open(cc.html, &rc);
        if (!hf) goto out;
        jc_status hs = jc_report_compare_html(items, n, hf);
        if ((rc = jo_html_close(hf, cc.html, hs))) goto out;
        if (!strcmp(cc.html, "-")) goto out;
    }
    if (cc.json) {
        char *s = jc_report_compare_json(items, n);
        if (!s) { rc = JC_ERR_NOMEM; goto out; }
        puts(s);
        free(s);
    } else if (cc.csv) {
        if (jc_report_compare_csv(items, n, stdout)) rc = JC_ERR_IO;
    } else {
        if (jc_report_compare_text(items, n, stdout)) rc = JC_ERR_IO;
    }
out:
    for (size_t i = 0; i <= MAX_MODELS; i++) {
        jc_estimate_free(es[i]);
        jc_analysis_free(ans[i]);
        jc_model_free(ms[i]);
        free(notes[i]);
    }
    jc_hwdb_free(db);
    jo_free(&c);
    return rc;
}
