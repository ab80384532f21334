/*
 * cmd_sweep.c (cli) - `joulecast sweep [MODEL.onnx] [options]`: one job (the
 * workload options of `estimate`, src/cli/jobopts.c) over a grid of
 * devices x regions x batch sizes x precisions (jc_sweep_run), sorted by
 * emissions, energy, time or cost, with the Pareto front of time vs emissions.
 * Without --devices (and without --device/--host) the grid takes every
 * gpu, tpu and accelerator; without --regions (and without --region/--ci)
 * every cloud region.  Sweep's own options are parsed and checked by the
 * library (jci_sweep_opts_set, jci_sweep_spec_from_opts:
 * src/workflows/sweep_opts.c), as the binding parses them.
 */
#include "cli/jobopts.h"
#include "joulecast/html.h"
#include "workflows/sweep_opts.h"
#include "joulecast/model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static jc_status set_lib(void *o, const char *key, const char *val, jc_diag *d)
{
    return jci_sweep_opts_set(o, key, val, d);
}

/* The command's rows: the library's sweep keys (jci_command_opt_keys,
 * parsed by jci_sweep_opts_set), then --json, --csv and --html. */
const jo_spec sweep_spec = {"sweep", JO_TAKES_LIB | JO_TAKES_ALL, set_lib, NULL, 0};

/* sweep --generate: devices x counts x tp x concurrency x weights
 * (jc_serving_sweep_run). */
static int sweep_generation(const jci_sweep_opts *o, jobopts *c, const jc_serving_sweep_spec *sp, jc_hwdb *db)
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
    if (c->out.json) {
        if ((rc = cli_emit_json(jc_report_serving_sweep_json(s)))) goto out;
    } else if (c->out.csv) {
        rc = cli_written(jc_report_serving_sweep_csv(s, stdout));
    } else {
        rc = cli_written(jc_report_serving_sweep_text(s, (size_t)o->top, stdout));
    }
out:
    jc_serving_sweep_free(s);
    jc_arch_free(arch);
    return rc;
}

int cmd_sweep(int argc, char **argv)
{
    jci_sweep_opts o;
    jobopts c;
    jc_diag d;
    if (jci_sweep_opts_init(&o, &d)) {
        fprintf(stderr, "joulecast: sweep: out of memory\n");
        return JC_ERR_NOMEM;
    }
    jo_init_spec(&c, &sweep_spec, NULL, &o);
    jc_hwdb *db = NULL;
    jc_model *m = NULL;
    jc_sweep *s = NULL;
    jci_sweep_plan plan;
    int rc = 0;

    if ((rc = jo_parse(&c, argc, argv, NULL, NULL)) || (rc = jo_out_check(&c, 0))) goto out;
    const jo_out *fmt = &c.out;
    if (jci_sweep_spec_from_opts(&o, &c.job, fmt->json + fmt->csv > 0, fmt->html != NULL, &plan, &d)) {
        rc = d.status == JC_ERR_RANGE ? cli_range("sweep", "%s", d.msg) : cli_usage("sweep", "%s", d.msg);
        goto out;
    }
    if ((rc = cli_hwdb_open(c.rs.layers, c.rs.n_layers, &db))) goto out;
    if (plan.generation) {
        rc = sweep_generation(&o, &c, &plan.serving, db);
        goto out;
    }
    jc_request rq;
    jo_request(&c, &rq);
    if (c.rs.model && jc_request_load(&rq, &m, &d)) { rc = cli_fail(&d); goto out; }

    if (jc_sweep_run(&plan.spec, &rq, m, db, &s, &d)) { rc = cli_fail(&d); goto out; }

    if (fmt->html) {
        FILE *hf = jo_html_open(fmt->html, &rc);
        if (!hf) goto out;
        jc_status hs = jc_report_sweep_html(s, o.top_given ? (size_t)o.top : 100, hf);
        if ((rc = jo_html_close(hf, fmt->html, hs))) goto out;
        if (!strcmp(fmt->html, "-")) goto out;
    }
    if (fmt->json) {
        if ((rc = cli_emit_json(jc_report_sweep_json(s)))) goto out;
    } else if (fmt->csv) {
        rc = cli_written(jc_report_sweep_csv(s, stdout));
    } else {
        jc_status st = jc_report_sweep_text(s, (size_t)o.top, stdout);
        if (st) rc = st;
    }
out:
    jc_sweep_free(s);
    jc_model_free(m);
    jc_hwdb_free(db);
    jo_free(&c);
    jci_sweep_opts_release(&o);
    return rc;
}
