/*
 * cmd_statement.c (cli) - `joulecast statement [JOB.yaml] [MODEL.onnx]
 * [estimate options] [--format markdown|latex|hf|sentence|all]`: runs the estimate
 * the options describe and prints a ready-to-paste carbon statement for a
 * paper (Markdown or LaTeX, every figure with its source in a footnote)
 * and the Hugging Face model-card `co2_eq_emissions` block, with the
 * command line that reproduces it (src/report/statement.c renders).
 */
#include "cli/workflow.h"
#include "joulecast/workflows.h"
#include "joulecast/serving.h"
#include "workflows/cmd_opts.h"
#include "joulecast/model.h"   /* the model's fields */

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* format, training-type, location: the library's parse, as the binding's. */
static jc_status set_lib(void *keys, const char *key, const char *val, jc_diag *d)
{
    return jci_statement_keys_set(keys, key, val, d);
}

/* The rows: format, training-type and location, the library's
 * (jci_command_opt_keys, parsed by jci_statement_keys_set). */
const jo_spec statement_spec = {"statement", JO_TAKES_LIB, set_lib, NULL, 0};

/* The reproducing `joulecast estimate` command (malloc'd, NULL when out
 * of memory): argv without statement's own options. */
static char *reproduce(int argc, char **argv)
{
    size_t n = 0;
    const jci_cmd_key *k = jci_command_opt_keys("statement", &n);
    const char *own[8] = {NULL};
    for (size_t i = 0; i < n && i + 1 < sizeof own / sizeof own[0]; i++) own[i] = k[i].name;
    return wf_reproduce(argc, argv, own, NULL);
}

int cmd_statement(int argc, char **argv)
{
    jci_statement_keys s;
    jobopts c;
    memset(&s, 0, sizeof s);
    jo_init_spec(&c, &statement_spec, NULL, &s);
    jc_prepared *p = NULL;
    jc_hwdb *db = NULL;
    jc_estimate *own_e = NULL;
    const jc_estimate *e = NULL;
    jc_generation g;
    jc_diag d;
    int rc = 0;
    char *repro = NULL;
    memset(&g, 0, sizeof g);

    if ((rc = jo_parse(&c, argc, argv, NULL, NULL))) goto out;
    c.rs.hash_weights = 1;   /* a statement names the file it is of, weights included */
    if (!s.formats) s.formats = 1u << JC_STMT_MARKDOWN;
    if ((rc = cli_hwdb_open(c.rs.layers, c.rs.n_layers, &db))) goto out;
    if (jc_job_is_serving(&c.job)) {
        jc_request rq;
        jo_request(&c, &rq);
        if (jc_generation_run(&rq, db, &g, &d)) {
            rc = d.status == JC_ERR_USAGE ? cli_usage("statement", "%s", d.msg) : cli_fail(&d);
            goto out;
        }
        e = g.serving->estimate;
    } else {
        if ((rc = jo_prepare(&c, &p))) goto out;
        if (jc_statement_estimate(&c.job, p->analysis, db, &own_e, &d)) { rc = cli_fail(&d); goto out; }
        e = own_e;
    }

    if (!(repro = reproduce(argc, argv))) {
        fprintf(stderr, "joulecast: out of memory\n");
        rc = JC_ERR_NOMEM;
        goto out;
    }
    jc_statement_opts so = {db, repro, p && p->model ? p->model->path : c.job.hf_config ? c.job.hf_config : c.rs.model,
                            s.training_type, s.location};
    int hf = !!(s.formats & 1u << JC_STMT_HF);
    int many = (s.formats & (s.formats - 1)) != 0;
    static const struct { jc_statement_format fmt; const char *title; } parts[] = {
        {JC_STMT_MARKDOWN, "Markdown"},
        {JC_STMT_LATEX, "LaTeX"},
        {JC_STMT_HF, "Hugging Face model card (README.md front matter)"},
        {JC_STMT_SENTENCE, "One sentence"},
    };
    int first = 1;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        if (!(s.formats & 1u << parts[i].fmt)) continue;
        if (many) printf("%s==== %s ====\n\n", first ? "" : "\n", parts[i].title);
        first = 0;
        /* the HF block's own options go to it alone (--format all) */
        jc_statement_opts po = so;
        if (parts[i].fmt != JC_STMT_HF && hf) po.training_type = po.location = NULL;
        jc_status st = g.serving ? jc_report_serving_statement(g.serving, &po, parts[i].fmt, stdout, &d)
                                 : jc_report_statement(e, &po, parts[i].fmt, stdout, &d);
        if (st) { rc = cli_fail(&d); goto out; }
    }
    for (size_t i = 0; i < e->n_warnings; i++) fprintf(stderr, "joulecast: warning: %s\n", e->warnings[i]);
out:
    free(repro);
    jc_estimate_free(own_e);
    jc_generation_release(&g);
    jc_prepared_free(p);
    jc_hwdb_free(db);
    jo_free(&c);
    return rc;
}
