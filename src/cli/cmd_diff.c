/*
 * cmd_diff.c (cli) - `joulecast diff OLD.json NEW.json [--max-increase 20%]
 * [--on central|high] [--json]`: compares two `estimate --json` outputs
 * (schema joulecast-estimate/1) and, with --max-increase, exits 10
 * (JC_ERR_BUDGET) when facility energy or location-based emissions rose
 * by more than allowed: the energy gate of a CI pipeline.  Reading and
 * comparing are src/workflows/diff.c, the rendering
 * src/report/estimate_read.c.
 */
#include "cli/workflow.h"
#include "joulecast/workflows.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int cmd_diff(int argc, char **argv)
{
    const char *files[2] = {NULL, NULL};
    size_t nf = 0;
    double maxinc = NAN;
    int on_high = 0, json = 0, err = 0;
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        if (cli_opt_once(argc, argv, &i, "diff", "--max-increase", &v, &err)) {
            if (err) return JC_ERR_USAGE;
            if (!wf_parse_percent(v, &maxinc))
                return cli_usage("diff", "--max-increase expects a percentage such as 20%%, got '%s'", v);
        } else if (cli_opt_once(argc, argv, &i, "diff", "--on", &v, &err)) {
            if (err) return JC_ERR_USAGE;
            if (!strcmp(v, "central")) on_high = 0;
            else if (!strcmp(v, "high")) on_high = 1;
            else return cli_usage("diff", "--on must be central or high, got '%s'", v);
        } else if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage("diff", "unknown option '%s'", argv[i]);
        } else {
            if (nf == 2) return cli_usage("diff", "two estimate files, old and new (a third: '%s')", argv[i]);
            files[nf++] = argv[i];
        }
    }
    if (nf != 2) return cli_usage("diff", "give two estimate JSON files: OLD.json NEW.json");
    jc_estimate_summary *s = calloc(2, sizeof *s);
    jc_diff *df = calloc(1, sizeof *df);
    jc_diag d;
    int rc = 0;
    if (!s || !df) { rc = JC_ERR_NOMEM; goto out; }
    for (int k = 0; k < 2; k++)
        if (jc_read_estimate_json(files[k], &s[k], &d)) { rc = cli_fail(&d); goto out; }
    jc_status st = jc_estimate_diff(&s[0], &s[1], maxinc, on_high, df, &d);
    if (st && st != JC_ERR_BUDGET) { rc = cli_fail(&d); goto out; }
    rc = json ? cli_emit_json(jc_report_diff_json(df)) : cli_written(jc_report_diff_text(df, stdout));
    if (rc) goto out;
    if (st == JC_ERR_BUDGET) {
        fflush(stdout);
        rc = cli_fail(&d);
    }
out:
    free(s);
    free(df);
    return rc;
}
