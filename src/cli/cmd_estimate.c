/*
 * cmd_estimate.c (cli) - `joulecast estimate [JOB.yaml] [MODEL.onnx] [options]`:
 * time, energy and emissions of a training or inference job.
 *
 * The workload options live in the table shared with `compare` and
 * `sweep` (src/cli/jobopts.c), which serves the command line, the job file
 * (keys = long option names without dashes) and --help.  This command's
 * own rows (output formats and checks) are in opts[] below.  Command-line
 * options override the job file's values.
 */
#include "cli/jobopts.h"
#include "cli/workflow.h"
#include "joulecast/html.h"
#include "joulecast/bind.h"
#include "joulecast/workflows.h"
#include "joulecast/serving.h"
#include "joulecast/hwdb.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct est_out {
    jo_out *fmt;             /* jobopts' --json, --csv, --html: --format json/csv sets them too */
    int codecarbon;          /* --format codecarbon */
    const char *project;     /* its project_name */
    jc_budget budget;        /* --max-kwh, --max-kgco2e, --on */
    int top;                 /* --top N; -1: not given */
    int text;                /* --format text given */
} est_out;

enum { OUT_FORMAT = 1, OUT_PROJECT, OUT_MAXKWH, OUT_MAXKG, OUT_ON, OUT_TOP };

/* After --json, --csv and --html (jobopts'), this command's own rows. */
static const jo_opt opts[] = {
    {"format", JO_OUT, OUT_FORMAT, "F", "text (default), json, csv, or codecarbon: a row of CodeCarbon's emissions.csv"},
    {"project", JO_OUT, OUT_PROJECT, "NAME", "project_name of the codecarbon row (default joulecast-prediction)"},
    {"max-kwh", JO_CMD, OUT_MAXKWH, "X", "budget: exit 10 when the facility energy exceeds X kWh"},
    {"max-kgco2e", JO_CMD, OUT_MAXKG, "Y", "budget: exit 10 when location-based emissions exceed Y kgCO2e"},
    {"on", JO_CMD, OUT_ON, "WHICH", "the figure budgets test: central (default) or high"},
    {"top", JO_OUT, OUT_TOP, "N", "with --per-node, text: the N nodes of most energy (default 10; 0: all)"},
};
#define N_OPTS (sizeof opts / sizeof opts[0])
const jo_spec estimate_spec = {"estimate", JO_TAKES_ALL, NULL, opts, N_OPTS};

/* This command's own rows. */
static int apply_out(void *ctx, const jo_opt *o, const char *val, const char *where)
{
    est_out *out = ctx;
    switch (o->off) {
    case OUT_FORMAT:
        if (!strcmp(val, "json")) out->fmt->json = 1;
        else if (!strcmp(val, "csv")) out->fmt->csv = 1;
        else if (!strcmp(val, "codecarbon")) out->codecarbon = 1;
        else if (!strcmp(val, "text")) out->text = 1;
        else
            return cli_usage("estimate", "%s: --format must be text, json, csv or codecarbon, got '%s'", where, val);
        return 0;
    case OUT_PROJECT: out->project = val; return 0;
    case OUT_TOP: {
        int64_t t;
        if (!cli_parse_i64(val, &t) || t > 1000000)
            return cli_usage("estimate", "%s: --top expects a count of nodes (0: all), got '%s'", where, val);
        out->top = (int)t;
        return 0;
    }
    case OUT_MAXKWH:
    case OUT_MAXKG: {
        double v;
        if (!cli_parse_f64(val, &v) || v < 0)
            return cli_usage("estimate", "%s: --%s expects a number >= 0, got '%s'", where, o->name, val);
        if (o->off == OUT_MAXKWH) out->budget.max_kwh = v;
        else out->budget.max_kgco2e = v;
        return 0;
    }
    case OUT_ON:
        if (!strcmp(val, "central")) out->budget.on_high = 0;
        else if (!strcmp(val, "high")) out->budget.on_high = 1;
        else return cli_usage("estimate", "%s: --on must be central or high, got '%s'", where, val);
        return 0;
    }
    return JC_ERR_INTERNAL;
}

/* --generate (or --hf-config): the serving request (src/workflows/generation.c). */
static int run_generation(jobopts *c, const est_out *out, const jc_hwdb *db)
{
    jc_diag d;
    jc_generation g;
    jc_request rq;
    int rc = 0;
    if (c->job.mode == JC_MODE_GENERATION && out->codecarbon)
        return cli_usage("estimate", "--format codecarbon is not available with --generate");
    jo_request(c, &rq);
    if (jc_generation_run(&rq, db, &g, &d))
        return d.status == JC_ERR_USAGE ? cli_usage("estimate", "%s", d.msg) : cli_fail(&d);
    const jc_serving *s = g.serving;
    if (c->out.html) {
        FILE *hf = jo_html_open(c->out.html, &rc);
        if (!hf) goto done;
        jc_status hs = jc_report_serving_html(s, hf);
        if ((rc = jo_html_close(hf, c->out.html, hs))) goto done;
    }
    if (c->out.html && !strcmp(c->out.html, "-")) {
        /* the HTML was the output */
    } else if (c->out.json) {
        if ((rc = cli_emit_json(jc_report_serving_json(s)))) goto done;
    } else if (c->out.csv) {
        rc = cli_written(jc_report_serving_csv(s, stdout, 1));
    } else {
        rc = cli_written(jc_report_serving_text(s, stdout));
    }
    if (!rc && jc_budget_check(s->estimate, &out->budget, &d)) {
        fflush(stdout);
        rc = cli_fail(&d);
    }
done:
    jc_generation_release(&g);
    return rc;
}

int cmd_estimate(int argc, char **argv)
{
    est_out out;
    jobopts c;
    memset(&out, 0, sizeof out);
    out.budget.max_kwh = out.budget.max_kgco2e = NAN;
    out.top = -1;
    jo_init_spec(&c, &estimate_spec, apply_out, &out);
    out.fmt = &c.out;
    jc_prepared *p = NULL;
    jc_hwdb *db = NULL;
    jc_estimate *e = NULL;
    jc_diag d;
    int rc = 0;

    if ((rc = jo_parse(&c, argc, argv, NULL, NULL))) goto out;
    if (c.out.json + c.out.csv + out.codecarbon + out.text > 1) {
        rc = cli_usage("estimate", "--json, --csv, --format text and --format codecarbon are exclusive: "
                       "choose one output format");
        goto out;
    }
    /* an option that would have no effect is refused, never ignored */
    if (out.project && !out.codecarbon) {
        rc = cli_usage("estimate", "--project names the codecarbon row: it needs --format codecarbon");
        goto out;
    }
    if (out.top >= 0 && (!c.job.per_node || c.out.json + c.out.csv + out.codecarbon)) {
        rc = cli_usage("estimate", "--top cuts the text report's per-node table: it needs --per-node "
                       "(--json and --csv always list every node)");
        goto out;
    }

    if ((rc = jo_out_check(&c, out.codecarbon))) goto out;
    if (c.out.html && jc_job_html_per_node(&c.job, c.rs.model)) c.job.per_node = 1;

    if ((rc = cli_hwdb_open(c.rs.layers, c.rs.n_layers, &db))) goto out;

    if (jc_job_is_serving(&c.job)) {
        rc = run_generation(&c, &out, db);
        goto out;
    }
    if ((rc = jo_prepare(&c, &p))) goto out;
    if (jc_estimate_run(&c.job, p->analysis, db, &e, &d)) { rc = cli_fail(&d); goto out; }
    if (c.out.html) {
        FILE *hf = jo_html_open(c.out.html, &rc);
        if (!hf) goto out;
        jc_status hs = jc_report_estimate_html(e, c.rs.model, 0, hf);
        if ((rc = jo_html_close(hf, c.out.html, hs))) goto out;
    }
    if (c.out.html && !strcmp(c.out.html, "-")) {
        /* the HTML was the output */
    } else if (c.out.json) {
        if ((rc = cli_emit_json(jc_report_estimate_json(e)))) goto out;
    } else if (c.out.csv) {
        rc = cli_written(jc_report_estimate_csv(e, stdout, 1));
    } else if (out.codecarbon) {
        char ts[32];
        if (jc_utc_timestamp(ts, sizeof ts, 0, &d)) { rc = cli_fail(&d); goto out; }
        jc_codecarbon_opts co = {ts, out.project, NULL};
        rc = cli_written(jc_report_estimate_codecarbon(e, &co, stdout, 1));
    } else {
        if (c.rs.model) printf("model      %s\n", c.rs.model);
        rc = cli_written(jc_report_estimate_text_top(e, stdout, out.top >= 0 ? out.top : JC_PER_NODE_TOP_DEFAULT));
    }
    /* the budget gate: after the report, so CI logs show the figures */
    if (!rc && jc_budget_check(e, &out.budget, &d)) {
        fflush(stdout);
        rc = cli_fail(&d);
    }
out:
    jc_estimate_free(e);
    jc_prepared_free(p);
    jc_hwdb_free(db);
    jo_free(&c);
    return rc;
}
