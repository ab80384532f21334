/*
 * cmd_region.c - `joulecast region list [--provider P] [--type T] [--json]`
 * and `joulecast region show CODE [--json]`: grid regions and cloud
 * regions with every dataset's intensity, the default and why.
 */
#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>

void help_region(FILE *f)
{
    fprintf(f,
        "usage: joulecast region list [--provider aws|gcp|azure|...] [--type TYPE] [--json]\n"
        "       joulecast region show CODE [--json]\n\n"
        "Lists the regions of the hardware database with their default grid\n"
        "carbon intensity (gCO2e/kWh), or shows one region (code or alias,\n"
        "case-insensitive) with every dataset's value, year, basis and source,\n"
        "the default and why it was chosen.  TYPE: world, aggregate, country,\n"
        "subnational, grid or cloud.\n\n"
        "  --json       JSON output (schema: docs/json-schemas.md)\n"
        "  --hwdb DIR   an override layer on top of the bundled database\n"
        "               (repeatable; $JOULECAST_HWDB adds more)\n");
}

int cmd_region(int argc, char **argv)
{
    if (argc < 2 || (strcmp(argv[1], "list") && strcmp(argv[1], "show")))
        return cli_usage("region", "expected 'region list' or 'region show CODE'");
    bool show = !strcmp(argv[1], "show");
    const char **layers = calloc((size_t)argc, sizeof *layers);
    if (!layers) return JC_ERR_NOMEM;
    size_t n = 0;
    const char *provider = NULL, *type = NULL, *code = NULL;
    int json = 0, err = 0, rc = 0;
    for (int i = 2; i < argc && !rc; i++) {
        const char *v;
        if (cli_hwdb_layer_opt(argc, argv, &i, layers, &n, &err)) {
            if (err) rc = JC_ERR_USAGE;
        } else if (!show && cli_opt_once(argc, argv, &i, "region", "--provider", &v, &err)) {
            if (err) rc = JC_ERR_USAGE;
            provider = v;
        } else if (!show && cli_opt_once(argc, argv, &i, "region", "--type", &v, &err)) {
            if (err) rc = JC_ERR_USAGE;
            type = v;
        } else if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            rc = cli_usage("region", "unknown option '%s'", argv[i]);
        } else if (show && !code) {
            code = argv[i];
        } else {
            rc = cli_usage("region", "unexpected argument '%s'", argv[i]);
        }
    }
    if (!rc && show && !code) rc = cli_usage("region", "missing CODE (see 'joulecast region list')");
    jc_hwdb *db = NULL;
    if (!rc) rc = cli_hwdb_open(layers, n, &db);
    if (!rc && !show) {
        jc_diag d;
        if (jc_region_list_check(db, provider, type, &d))
            rc = d.status == JC_ERR_USAGE ? cli_usage("region", "%s", d.msg) : cli_fail(&d);
    }
    if (!rc && !show) {
        if (json) rc = cli_emit_json(jc_report_region_list_json(db, provider, type));
        else if (jc_report_region_list_text(db, provider, type, stdout)) rc = JC_ERR_IO;
    } else if (!rc) {
        const jc_region *r;
        jc_diag d;
        if (jc_hwdb_region(db, code, &r, &d)) rc = cli_fail(&d);
        else if (json) rc = cli_emit_json(jc_report_region_json(r));
        else if (jc_report_region_text(r, stdout)) rc = JC_ERR_IO;
    }
    jc_hwdb_free(db);
    free(layers);
    return rc;
}
