/*
 * cmd_hw.c - `joulecast hw list [--kind K] [--vendor V] [--form-factor F]
 * [--year Y|Y1-Y2] [--json]` and `joulecast hw show ID [--json]`: the
 * devices and hosts of the hardware database, every value with its source.
 */
#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>

void help_hw(FILE *f)
{
    fprintf(f,
        "usage: joulecast hw list [--kind gpu|cpu|tpu|accelerator|soc|host] [--vendor V]\n"
        "                         [--form-factor F] [--year Y|Y1-Y2] [--json]\n"
        "       joulecast hw show ID [--json]\n\n"
        "Lists the devices and hosts of the hardware database, or shows one\n"
        "(by id or alias, case-insensitive) with every value, its range, year,\n"
        "source and the file:line:column it comes from; a value computed from\n"
        "published figures is marked (derived) and says how.\n\n"
        "  --kind K         list only devices of kind K, or hosts (host)\n"
        "  --vendor V       only entries of vendor V (case-insensitive: NVIDIA, AMD ...)\n"
        "  --form-factor F  only devices whose form factor holds F (SXM, PCIe, OAM ...)\n"
        "  --year Y         only devices released in Y; Y1-Y2 a range, Y- or -Y open\n"
        "  --json       JSON output (schema: docs/json-schemas.md)\n"
        "  --hwdb DIR   an override layer on top of the bundled database\n"
        "               (repeatable; $JOULECAST_HWDB adds more)\n");
}

int cmd_hw(int argc, char **argv)
{
    if (argc < 2 || (strcmp(argv[1], "list") && strcmp(argv[1], "show")))
        return cli_usage("hw", "expected 'hw list' or 'hw show ID'");
    bool show = !strcmp(argv[1], "show");
    const char **layers = calloc((size_t)argc, sizeof *layers);
    if (!layers) return JC_ERR_NOMEM;
    size_t n = 0;
    const char *kind = NULL, *id = NULL, *year = NULL;
    jc_hw_filter flt = {0};
    int json = 0, err = 0, rc = 0;
    for (int i = 2; i < argc && !rc; i++) {
        const char *v;
        if (cli_hwdb_layer_opt(argc, argv, &i, layers, &n, &err)) {
            if (err) rc = JC_ERR_USAGE;
        } else if (!show && cli_opt_once(argc, argv, &i, "hw", "--kind", &v, &err)) {
            if (err) rc = JC_ERR_USAGE;
            kind = v;
        } else if (!show && cli_opt_once(argc, argv, &i, "hw", "--vendor", &v, &err)) {
            if (err) rc = JC_ERR_USAGE;
            flt.vendor = v;
        } else if (!show && cli_opt_once(argc, argv, &i, "hw", "--form-factor", &v, &err)) {
            if (err) rc = JC_ERR_USAGE;
            flt.form_factor = v;
        } else if (!show && cli_opt_once(argc, argv, &i, "hw", "--year", &v, &err)) {
            if (err) rc = JC_ERR_USAGE;
            year = v;
        } else if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            rc = cli_usage("hw", "unknown option '%s'", argv[i]);
        } else if (show && !id) {
            id = argv[i];
        } else {
            rc = cli_usage("hw", "unexpected argument '%s'", argv[i]);
        }
    }
    flt.kind = kind;
    jc_diag yd;
    if (!rc && year && jc_hw_filter_years(year, &flt, &yd)) rc = cli_usage("hw", "%s", yd.msg);
    if (!rc && show && !id) rc = cli_usage("hw", "missing ID (see 'joulecast hw list')");
    jc_hwdb *db = NULL;
    if (!rc) rc = cli_hwdb_open(layers, n, &db);
    if (!rc && !show) {
        jc_diag d;
        if (jc_hw_list_check(db, &flt, &d)) rc = cli_fail(&d);
        else if (json) rc = cli_emit_json(jc_report_hw_list_json(db, &flt));
        else if (jc_report_hw_list_text(db, &flt, stdout)) rc = JC_ERR_IO;
    } else if (!rc) {
        const jc_device *dev;
        const jc_host *host;
        jc_diag d;
        if (jc_hwdb_hardware(db, id, &dev, &host, &d)) {
            rc = cli_fail(&d);
        } else if (json) {
            rc = cli_emit_json(dev ? jc_report_device_json(dev) : jc_report_host_json(host));
        } else if (dev ? jc_report_device_text(dev, stdout) : jc_report_host_text(host, stdout)) {
            rc = JC_ERR_IO;
        }
    }
    jc_hwdb_free(db);
    free(layers);
    return rc;
}
