/*
 * cmd_ga.c (cli) - `joulecast ga`: the Green-Algorithms calculator's figure for
 * a job described by runtime, cores, GPUs, memory, place and platform,
 * exactly as green-algorithms.org computes it, then what it leaves out and
 * joulecast's own estimate beside it.  Parsing and validation of options
 * here; the arithmetic is src/workflows/ga.c, the report src/report/ga_report.c.
 */
#include "cli/cli.h"
#include "joulecast/ga.h"
#include "joulecast/hwdb.h"

#include <stdlib.h>
#include <string.h>

int cmd_ga(int argc, char **argv)
{
    jc_ga_input in;
    jc_ga_input_init(&in);
    const char *layers[16];
    size_t n_layers = 0;
    int json = 0, err = 0, have_runtime = 0;
    const char *v;
    const char *const *names = jc_ga_input_keys();
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--json")) {
            json = 1;
            continue;
        }
        if (cli_opt(argc, argv, &i, "--hwdb", &v, &err)) {
            if (err) return JC_ERR_USAGE;
            if (n_layers >= sizeof layers / sizeof layers[0]) return cli_usage("ga", "too many --hwdb layers");
            layers[n_layers++] = v;
            continue;
        }
        /* an input of the calculator, by the library's key table */
        size_t kl = a[0] == '-' && a[1] == '-' ? strcspn(a + 2, "=") : 0, k = 0;
        while (kl && names[k] && (strlen(names[k]) != kl || strncmp(a + 2, names[k], kl))) k++;
        if (!kl || !names[k]) return cli_usage("ga", "unknown option '%s'", a);
        char opt[64];
        snprintf(opt, sizeof opt, "--%s", names[k]);
        if (!cli_opt_once(argc, argv, &i, "ga", opt, &v, &err) || err) return JC_ERR_USAGE;
        jc_diag kd;
        if (jc_ga_input_set(&in, names[k], v, &kd)) return cli_usage("ga", "%s", kd.msg);
        if (!strcmp(names[k], "runtime")) have_runtime = 1;
    }
    if (!have_runtime) return cli_usage("ga", "missing --runtime (e.g. --runtime 12h30m)");
    if (in.cpu_model && in.tdp_per_core_w > 0)
        fprintf(stderr, "joulecast: ga: note: --tdp-per-core overrides --cpu's power\n");

    jc_diag d;
    jc_hwdb *db;
    int orc = cli_hwdb_open(layers, n_layers, &db);
    if (orc) return orc;
    jc_ga_result *r;
    if (jc_ga_compute(db, &in, &r, &d)) {
        jc_hwdb_free(db);
        return cli_fail(&d);
    }
    int rc = json ? cli_emit_json(jc_report_ga_json(r)) : cli_written(jc_report_ga_text(r, stdout));
    jc_ga_result_free(r);
    jc_hwdb_free(db);
    return rc;
}
