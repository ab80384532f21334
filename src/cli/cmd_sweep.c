/*
 * cmd_sweep.c - `joulecast sweep [MODEL.onnx] [options]`: one job (the
 * workload options of `estimate`, src/cli/jobopts.c) over a grid of
 * devices x regions x batch sizes x precisions (jc_sweep_run), sorted by
 * emissions, energy or time, with the Pareto front of time vs emissions.
 * Without --devices (and without --device/--host) the grid takes every
 * gpu, tpu and accelerator; without --regions (and without --region/--ci)
 * every cloud region.  Sweep's own options are parsed and checked by the
 * library (jc_sweep_opts_set, jc_sweep_spec_from_opts:
 * src/workflows/sweep_opts.c), as the binding parses them.
 */
#include "cli/jobopts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct sweep_cli {
    jc_sweep_opts o;    /* sweep's own options, parsed by the library */
    int json, csv;
    const char *html;
} sweep_cli;

enum { S_LIB = 1, S_JSON, S_CSV, S_HTML };

/* The output rows of the command line; sweep's other options are the
 * library's (jc_sweep_opt_keys), parsed by jc_sweep_opts_set. */
static const jo_opt out_rows[] = {
    {"json", JO_OUT, S_JSON, NULL, "JSON output (docs/json-schemas.md \"sweep\")"},
    {"csv", JO_OUT, S_CSV, NULL, "CSV: one row per entry, skipped entries last with their reason"},
    {"html", JO_OUT, S_HTML, "FILE", "also write a self-contained HTML report with the scatter ('-': to stdout)"},
};
#define N_OUT (sizeof out_rows / sizeof out_rows[0])

/* The command's rows: the library's sweep keys, then the output rows
 * (malloc'ed; NULL when out of memory). */
static jo_opt *sweep_rows(size_t *n)
{
    size_t nk;
    const jc_cmd_key *k = jc_sweep_opt_keys(&nk);
    jo_opt *r = calloc(nk + N_OUT, sizeof *r);
    if (!r) return NULL;
    for (size_t i = 0; i < nk; i++) {
        r[i].name = k[i].name;
        r[i].type = k[i].output ? JO_OUT : JO_CMD;
        r[i].off = S_LIB;
        r[i].arg = k[i].arg;
        r[i].help = k[i].help;
    }
    memcpy(r + nk, out_rows, sizeof out_rows);
    *n = nk + N_OUT;
    return r;
}

void help_sweep(FILE *f)
{
    fprintf(f, "usage: joulecast sweep [JOB.yaml] [MODEL.onnx] [options]\n\n"
               "Estimates one job over devices x regions x batch sizes x precisions (each a\n"
               "comma list), sorts the entries and marks the Pareto front of wall time against\n"
               "emissions.  Entries that cannot be estimated are listed as skipped with the\n"
               "reason.  Without --devices (or --device) every gpu, tpu and accelerator is\n"
               "swept; without --regions (or --region/--ci) every cloud region.  The other\n"
               "options are those of `joulecast estimate`.\n\n");
    size_t n = 0;
    jo_opt *rows = sweep_rows(&n);
    jo_help(f, rows, n);
    free(rows);
    fprintf(f, "\nexamples:\n"
               "  joulecast sweep models/resnet50.onnx --batch 64 --requests 1000000\n"
               "  joulecast sweep models/bert_base.onnx --dim sequence=128 --batches 8,32,128 \\\n"
               "      --devices a100,h100,l4 --regions aws:all --precisions bf16,fp8 --sort energy\n"
               "  joulecast sweep --generate --hf-config llama-3.1-8b.json --prompt-tokens 500 --output-tokens 300 \\\n"
               "      --devices h100,l40s --counts 1,2 --concurrencies 8,64,256 --weights-list bf16,fp8 --max-itl 50ms\n");
}

static int apply_out(void *ctx, const jo_opt *o, const char *val, const char *where)
{
    sweep_cli *c = ctx;
    switch (o->off) {
    case S_LIB: {
        jc_diag d;
        jc_status st = jc_sweep_opts_set(&c->o, o->name, val, &d);
        if (st == JC_ERR_RANGE) return cli_range("sweep", "%s: --%s", where, d.msg);
        if (st) return cli_usage("sweep", "%s: --%s", where, d.msg);
        return 0;
    }
    case S_JSON: c->json = 1; return 0;
    case S_CSV: c->csv = 1; return 0;
    case S_HTML: c->html = val; return 0;
    }
    return JC_ERR_INTERNAL;
}

/* sweep --generate: devices x counts x tp x concurrency x weights
 * (jc_serving_sweep_run). */
static int sweep_generation(sweep_cli *sc, jobopts *c, const jc_serving_sweep_spec *sp, jc_hwdb *db)
{
    jc_arch *arch = NULL;
    jc_serving_sweep *s = NULL;
    jc_diag d;
    int rc = 0;
    jc_request rq;
    jo_request(c, &rq);
    if (jc_generation_arch(&rq, &arch, &d))
        return d.status == JC_ERR_USAGE ? cli_usage("sweep", "%s", d.msg) : cli_fail(&d);
    if (jc_serving_sweep_run(sp, &c->job, arch, db, &s, &d)) { rc = cli_fail(&d); goto out; }
    if (sc->json) {
        if ((rc = cli_emit_json(jc_report_serving_sweep_json(s)))) goto out;
    } else if (sc->csv) {
        if (jc_report_serving_sweep_csv(s, stdout)) rc = JC_ERR_IO;
    } else if (jc_report_serving_sweep_text(s, (size_t)sc->o.top, stdout)) {
        rc = JC_ERR_IO;
    }
out:
    jc_serving_sweep_free(s);
    jc_arch_free(arch);
    return rc;
}

int cmd_sweep(int argc, char **argv)
{
    sweep_cli sc;
    jobopts c;
    jc_diag d;
    memset(&sc, 0, sizeof sc);
    size_t n_rows = 0;
    jo_opt *rows = sweep_rows(&n_rows);
    if (!rows || jc_sweep_opts_init(&sc.o, &d)) {
        free(rows);
        fprintf(stderr, "joulecast: sweep: out of memory\n");
        return JC_ERR_NOMEM;
    }
    jo_init(&c, "sweep", rows, n_rows, apply_out, &sc);
    jc_hwdb *db = NULL;
    jc_model *m = NULL;
    jc_sweep *s = NULL;
    jc_sweep_plan plan;
    int rc = 0;

    if ((rc = jo_parse(&c, argc, argv, NULL, NULL))) goto out;
    if (sc.json + sc.csv > 1) { rc = cli_usage("sweep", "--json and --csv are exclusive"); goto out; }
    if (sc.html && !strcmp(sc.html, "-") && sc.json + sc.csv) {
        rc = cli_usage("sweep", "--html - writes the HTML to stdout: it cannot be combined with another format");
        goto out;
    }
    if (jc_sweep_spec_from_opts(&sc.o, &c.job, sc.json + sc.csv > 0, sc.html != NULL, &plan, &d)) {
        rc = d.status == JC_ERR_RANGE ? cli_range("sweep", "%s", d.msg) : cli_usage("sweep", "%s", d.msg);
        goto out;
    }
    if ((rc = cli_hwdb_open(c.layers, c.n_layers, &db))) goto out;
    if (plan.generation) {
        rc = sweep_generation(&sc, &c, &plan.serving, db);
        goto out;
    }
    jc_request rq;
    jo_request(&c, &rq);
    if (c.model && jc_request_load(&rq, &m, &d)) { rc = cli_fail(&d); goto out; }

    if (jc_sweep_run(&plan.spec, &rq, m, db, &s, &d)) { rc = cli_fail(&d); goto out; }

    if (sc.html) {
        FILE *hf = jo_html_open(sc.html, &rc);
        if (!hf) goto out;
        jc_status hs = jc_report_sweep_html(s, sc.o.top_given ? (size_t)sc.o.top : 100, hf);
        if ((rc = jo_html_close(hf, sc.html, hs))) goto out;
        if (!strcmp(sc.html, "-")) goto out;
    }
    if (sc.json) {
        if ((rc = cli_emit_json(jc_report_sweep_json(s)))) goto out;
    } else if (sc.csv) {
        if (jc_report_sweep_csv(s, stdout)) rc = JC_ERR_IO;
    } else {
        jc_status st = jc_report_sweep_text(s, (size_t)sc.o.top, stdout);
        if (st) rc = st;
    }
out:
    jc_sweep_free(s);
    jc_model_free(m);
    jc_hwdb_free(db);
    jo_free(&c);
    jc_sweep_opts_release(&sc.o);
    free(rows);
    return rc;
}
