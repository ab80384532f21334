/*
 * cmd_compare.c (cli) - `joulecast compare A.onnx B.onnx ... [options]`: the same
 * job (the workload options of `estimate`, src/cli/jobopts.c), estimated
 * for each model on the same device and region, side by side with ratios
 * against the first model.  A model whose batch dim is fixed to another
 * value than --batch is refused, as by estimate; a partial
 * count is said plainly (or refused with --strict).  --dim and --input
 * bindings apply to the models that have the dim or input.  The work is
 * jc_compare_run (src/workflows/compare.c), which the binding calls too.
 */
#include "cli/jobopts.h"
#include "joulecast/html.h"
#include "joulecast/sweep.h"
#include "joulecast/hwdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MODELS 64

typedef struct cmp_cli {
    const char *models[MAX_MODELS];
    size_t n;
} cmp_cli;

/* The rows: --json, --csv and --html (jobopts applies them). */
const jo_spec compare_spec = {"compare", JO_TAKES_ALL, NULL, NULL, 0};

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
    jo_init_spec(&c, &compare_spec, NULL, NULL);
    jc_hwdb *db = NULL;
    jc_compare *cmp = NULL;
    const char *paths[MAX_MODELS + 1];
    size_t n = 0;
    jc_request rq;
    jc_diag d;
    int rc = 0;

    if ((rc = jo_parse(&c, argc, argv, add_model, &cc)) || (rc = jo_out_check(&c, 0))) goto out;
    const jo_out *fmt = &c.out;
    if (c.rs.model) paths[n++] = c.rs.model;
    for (size_t i = 0; i < cc.n; i++) paths[n++] = cc.models[i];
    if (c.job.mode == JC_MODE_GENERATION) {
        /* the configs (--hf-config first): jc_compare_run checks them */
    } else if (n < 2 && !c.job.hf_config) {   /* --hf-config alone: jc_compare_run says what it needs */
        rc = cli_usage("compare", "give two or more models (A.onnx B.onnx ...)");
        goto out;
    }
    if (jc_batch_check(c.job.batch, "--batch", &d)) { rc = cli_fail(&d); goto out; }
    if ((rc = cli_hwdb_open(c.rs.layers, c.rs.n_layers, &db))) goto out;
    jo_request(&c, &rq);
    if (jc_compare_run(&rq, paths, n, db, &cmp, &d)) {
        rc = d.status == JC_ERR_USAGE ? cli_usage("compare", "%s", d.msg) : cli_fail(&d);
        goto out;
    }

    if (fmt->html) {
        FILE *hf = jo_html_open(fmt->html, &rc);
        if (!hf) goto out;
        jc_status hs = jc_report_compare_html(cmp->items, cmp->n, hf);
        if ((rc = jo_html_close(hf, fmt->html, hs))) goto out;
        if (!strcmp(fmt->html, "-")) goto out;
    }
    if (fmt->json) {
        if ((rc = cli_emit_json(jc_report_compare_json(cmp->items, cmp->n)))) goto out;
    } else if (fmt->csv) {
        rc = cli_written(jc_report_compare_csv(cmp->items, cmp->n, stdout));
    } else {
        rc = cli_written(jc_report_compare_text(cmp->items, cmp->n, stdout));
    }
out:
    jc_compare_free(cmp);
    jc_hwdb_free(db);
    jo_free(&c);
    return rc;
}
