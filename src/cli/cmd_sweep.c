/*
 * cmd_sweep.c - `joulecast sweep [MODEL.onnx] [options]`: one job (the
 * workload options of `estimate`, src/cli/jobopts.c) over a grid of
 * devices x regions x batch sizes x precisions (jc_sweep_run), sorted by
 * emissions, energy or time, with the Pareto front of time vs emissions.
 * Without --devices (and without --device/--host) the grid takes every
 * gpu, tpu and accelerator; without --regions (and without --region/--ci)
 * every cloud region (jc_sweep_spec_resolve, src/workflows/sweep_grid.c,
 * which the binding calls too).
 */
#include "cli/jobopts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_AXIS 512

typedef struct axis_list {
    const char *items[MAX_AXIS];
    size_t n;
    char *bufs[16];       /* strdup'ed copies the items point into */
    size_t n_bufs;
} axis_list;

typedef struct sweep_cli {
    axis_list devices, regions, batches, precisions;
    axis_list counts, tps, concurrencies, weights;   /* --generate */
    double max_itl_s, max_ttft_s;
    jc_sweep_sort sort;
    int64_t top;
    int top_given;
    int json, csv;
    const char *html;
} sweep_cli;

enum { S_DEVICES = 1, S_REGIONS, S_BATCHES, S_PRECISIONS, S_SORT, S_TOP, S_JSON, S_CSV, S_HTML,
       S_COUNTS, S_TPS, S_CONCS, S_WEIGHTS, S_MAXITL, S_MAXTTFT };

static const jo_opt opts[] = {
    {"devices", JO_CMD, S_DEVICES, "LIST", "devices to sweep: ids, or all (gpu+tpu+accelerator), gpu, tpu, ..."},
    {"regions", JO_CMD, S_REGIONS, "LIST", "regions to sweep: codes, or cloud, aws:all, gcp:all, country, all"},
    {"batches", JO_CMD, S_BATCHES, "LIST", "batch sizes to sweep (the model is counted once per size)"},
    {"precisions", JO_CMD, S_PRECISIONS, "LIST", "precisions to sweep: fp32 tf32 fp16 bf16 fp8 int8, or all"},
    {"sort", JO_CMD, S_SORT, "KEY", "emissions (default), energy or time (central values)"},
    {"top", JO_OUT, S_TOP, "N", "rows of the ranked table in text and HTML (0: all; HTML default 100)"},
    {"json", JO_OUT, S_JSON, NULL, "JSON output (docs/json-schemas.md \"sweep\")"},
    {"csv", JO_OUT, S_CSV, NULL, "CSV: one row per entry, skipped entries last with their reason"},
    {"html", JO_OUT, S_HTML, "FILE", "also write a self-contained HTML report with the scatter ('-': to stdout)"},
    {"counts", JO_CMD, S_COUNTS, "LIST", "--generate: device counts to sweep"},
    {"tps", JO_CMD, S_TPS, "LIST", "--generate: tensor-parallel sizes to sweep (default: the smallest that fits)"},
    {"concurrencies", JO_CMD, S_CONCS, "LIST", "--generate: running sequences per replica to sweep"},
    {"weights-list", JO_CMD, S_WEIGHTS, "LIST", "--generate: weight formats to sweep (bf16 fp8 int4 mxfp4 ...)"},
    {"max-itl", JO_CMD, S_MAXITL, "T", "--generate: keep configurations whose inter-token latency <= T (50ms, 0.05s)"},
    {"max-ttft", JO_CMD, S_MAXTTFT, "T", "--generate: keep configurations whose time to first token <= T"},
};
#define N_OPTS (sizeof opts / sizeof opts[0])

void help_sweep(FILE *f)
{
    fprintf(f, "usage: joulecast sweep [JOB.yaml] [MODEL.onnx] [options]\n\n"
               "Estimates one job over devices x regions x batch sizes x precisions (each a\n"
               "comma list), sorts the entries and marks the Pareto front of wall time against\n"
               "emissions.  Entries that cannot be estimated are listed as skipped with the\n"
               "reason.  Without --devices (or --device) every gpu, tpu and accelerator is\n"
               "swept; without --regions (or --region/--ci) every cloud region.  The other\n"
               "options are those of `joulecast estimate`.\n\n");
    jo_help(f, opts, N_OPTS);
    fprintf(f, "\nexamples:\n"
               "  joulecast sweep models/resnet50.onnx --batch 64 --requests 1000000\n"
               "  joulecast sweep models/bert_base.onnx --dim sequence=128 --batches 8,32,128 \\\n"
               "      --devices a100,h100,l4 --regions aws:all --precisions bf16,fp8 --sort energy\n"
               "  joulecast sweep --generate --hf-config llama-3.1-8b.json --prompt-tokens 500 --output-tokens 300 \\\n"
               "      --devices h100,l40s --counts 1,2 --concurrencies 8,64,256 --weights-list bf16,fp8 --max-itl 50ms\n");
}

static int split(axis_list *l, const char *val, const char *name, const char *where)
{
    if (l->n_bufs >= sizeof l->bufs / sizeof l->bufs[0])
        return cli_usage("sweep", "%s: --%s given too often", where, name);
    char *b = strdup(val);
    if (!b) return JC_ERR_NOMEM;
    l->bufs[l->n_bufs++] = b;
    int n = jc_split_list(b, l->items + l->n, MAX_AXIS - l->n);
    if (n == -1) return cli_usage("sweep", "%s: --%s has an empty item in '%s'", where, name, val);
    if (n < 0) return cli_usage("sweep", "%s: --%s lists more than %d items", where, name, MAX_AXIS);
    l->n += (size_t)n;
    return 0;
}

static int apply_out(void *ctx, const jo_opt *o, const char *val, const char *where)
{
    sweep_cli *c = ctx;
    switch (o->off) {
    case S_DEVICES: return split(&c->devices, val, o->name, where);
    case S_REGIONS: return split(&c->regions, val, o->name, where);
    case S_BATCHES: return split(&c->batches, val, o->name, where);
    case S_PRECISIONS: return split(&c->precisions, val, o->name, where);
    case S_SORT:
        if (jc_sweep_sort_parse(val, &c->sort))
            return cli_usage("sweep", "%s: --sort must be emissions, energy or time, got '%s'", where, val);
        return 0;
    case S_TOP:
        if (!cli_parse_i64(val, &c->top)) return cli_usage("sweep", "%s: --top expects N >= 0, got '%s'", where, val);
        c->top_given = 1;
        return 0;
    case S_JSON: c->json = 1; return 0;
    case S_CSV: c->csv = 1; return 0;
    case S_HTML: c->html = val; return 0;
    case S_COUNTS: return split(&c->counts, val, o->name, where);
    case S_TPS: return split(&c->tps, val, o->name, where);
    case S_CONCS: return split(&c->concurrencies, val, o->name, where);
    case S_WEIGHTS: return split(&c->weights, val, o->name, where);
    case S_MAXITL:
    case S_MAXTTFT: {
        /* a duration: 50ms, 0.05s or 0.05 (seconds) */
        double v;
        if (!jc_serving_latency_parse(val, &v))
            return cli_usage("sweep", "%s: --%s expects a duration > 0 such as 50ms or 0.05s, got '%s'", where, o->name, val);
        if (o->off == S_MAXITL) c->max_itl_s = v;
        else c->max_ttft_s = v;
        return 0;
    }
    }
    return JC_ERR_INTERNAL;
}

static void free_axis(axis_list *l)
{
    for (size_t i = 0; i < l->n_bufs; i++) free(l->bufs[i]);
}

static int numbers(const axis_list *l, const char *name, double *out)
{
    for (size_t i = 0; i < l->n; i++) {
        double v;
        if (!jc_serving_axis_parse(l->items[i], &v))
            return cli_usage("sweep", "--%s takes whole numbers >= 1, got '%s'", name, l->items[i]);
        out[i] = v;
    }
    return 0;
}

/* sweep --generate: devices x counts x tp x concurrency x weights
 * (jc_serving_sweep_run). */
static int sweep_generation(sweep_cli *sc, jobopts *c, jc_hwdb *db)
{
    static double counts[MAX_AXIS], tps[MAX_AXIS], concs[MAX_AXIS];
    jc_arch *arch = NULL;
    jc_serving_sweep *s = NULL;
    jc_diag d;
    int rc = 0;
    if (sc->regions.n || sc->batches.n || sc->precisions.n || sc->html)
        return cli_usage("sweep", "--regions, --batches, --precisions and --html do not apply to --generate "
                         "(give --region; sweep --concurrencies and --weights-list)");
    if (sc->devices.n && c->job.device)
        return cli_usage("sweep", "--device and --devices both name the hardware; give the list to --devices");
    if ((rc = numbers(&sc->counts, "counts", counts)) || (rc = numbers(&sc->tps, "tps", tps)) ||
        (rc = numbers(&sc->concurrencies, "concurrencies", concs)))
        return rc;
    jc_request rq;
    jo_request(c, &rq);
    if (jc_generation_arch(&rq, &arch, &d))
        return d.status == JC_ERR_USAGE ? cli_usage("sweep", "%s", d.msg) : cli_fail(&d);
    jc_serving_sweep_spec sp = {sc->devices.items, sc->devices.n, counts, sc->counts.n, tps, sc->tps.n,
                                concs, sc->concurrencies.n, sc->weights.items, sc->weights.n,
                                sc->max_itl_s, sc->max_ttft_s};
    if (jc_serving_sweep_run(&sp, &c->job, arch, db, &s, &d)) { rc = cli_fail(&d); goto out; }
    if (sc->json) {
        if ((rc = cli_emit_json(jc_report_serving_sweep_json(s)))) goto out;
    } else if (sc->csv) {
        if (jc_report_serving_sweep_csv(s, stdout)) rc = JC_ERR_IO;
    } else if (jc_report_serving_sweep_text(s, (size_t)sc->top, stdout)) {
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
    memset(&sc, 0, sizeof sc);
    sc.max_itl_s = sc.max_ttft_s = NAN;
    jo_init(&c, "sweep", opts, N_OPTS, apply_out, &sc);
    jc_hwdb *db = NULL;
    jc_model *m = NULL;
    jc_sweep *s = NULL;
    jc_diag d;
    int rc = 0;
    double batches[MAX_AXIS];

    if ((rc = jo_parse(&c, argc, argv, NULL, NULL))) goto out;
    if (sc.json + sc.csv > 1) { rc = cli_usage("sweep", "--json and --csv are exclusive"); goto out; }
    if (sc.top_given && sc.json + sc.csv && !sc.html) {
        rc = cli_usage("sweep", "%s", "--top limits the rows of the text and HTML tables; JSON and CSV list every entry: drop it, or add --html");
        goto out;
    }
    if (sc.html && !strcmp(sc.html, "-") && sc.json + sc.csv) {
        rc = cli_usage("sweep", "--html - writes the HTML to stdout: it cannot be combined with another format");
        goto out;
    }
    if (c.job.mode == JC_MODE_GENERATION) {
        if ((rc = cli_hwdb_open(c.layers, c.n_layers, &db))) goto out;
        rc = sweep_generation(&sc, &c, db);
        goto out;
    }
    if (sc.counts.n || sc.tps.n || sc.concurrencies.n || sc.weights.n || !isnan(sc.max_itl_s) ||
        !isnan(sc.max_ttft_s)) {
        rc = cli_usage("sweep", "--counts, --tps, --concurrencies, --weights-list, --max-itl and --max-ttft "
                       "need --generate");
        goto out;
    }
    jc_sweep_spec sp;
    memset(&sp, 0, sizeof sp);
    sp.devices = sc.devices.items;
    sp.n_devices = sc.devices.n;
    sp.regions = sc.regions.items;
    sp.n_regions = sc.regions.n;
    sp.batches = batches;
    sp.n_batches = sc.batches.n;
    sp.precisions = sc.precisions.items;
    sp.n_precisions = sc.precisions.n;
    sp.sort = sc.sort;
    if (jc_sweep_spec_resolve(&sp, &c.job, &d)) { rc = cli_usage("sweep", "%s", d.msg); goto out; }
    if (jc_sweep_batches_parse(sc.batches.items, sc.batches.n, batches, &d)) {
        rc = d.status == JC_ERR_RANGE ? cli_range("sweep", "%s", d.msg) : cli_usage("sweep", "%s", d.msg);
        goto out;
    }
    if (jc_batch_check(c.job.batch, "--batch", &d)) { rc = cli_fail(&d); goto out; }
    if ((rc = cli_hwdb_open(c.layers, c.n_layers, &db))) goto out;
    jc_request rq;
    jo_request(&c, &rq);
    if (c.model && jc_request_load(&rq, &m, &d)) { rc = cli_fail(&d); goto out; }

    if (jc_sweep_run(&sp, &rq, m, db, &s, &d)) { rc = cli_fail(&d); goto out; }

    if (sc.html) {
        FILE *hf = jo_html_open(sc.html, &rc);
        if (!hf) goto out;
        jc_status hs = jc_report_sweep_html(s, sc.top_given ? (size_t)sc.top : 100, hf);
        if ((rc = jo_html_close(hf, sc.html, hs))) goto out;
        if (!strcmp(sc.html, "-")) goto out;
    }
    if (sc.json) {
        if ((rc = cli_emit_json(jc_report_sweep_json(s)))) goto out;
    } else if (sc.csv) {
        if (jc_report_sweep_csv(s, stdout)) rc = JC_ERR_IO;
    } else {
        jc_status st = jc_report_sweep_text(s, (size_t)sc.top, stdout);
        if (st) rc = st;
    }
out:
    jc_sweep_free(s);
    jc_model_free(m);
    jc_hwdb_free(db);
    jo_free(&c);
    free_axis(&sc.devices);
    free_axis(&sc.regions);
    free_axis(&sc.batches);
    free_axis(&sc.precisions);
    free_axis(&sc.counts);
    free_axis(&sc.tps);
    free_axis(&sc.concurrencies);
    free_axis(&sc.weights);
    return rc;
}
