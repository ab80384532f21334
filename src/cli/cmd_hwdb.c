/*
 * cmd_hwdb.c - `joulecast hwdb check [DIR...]` (validate a database or an
 * override folder), and the --hwdb option parser the hwdb commands
 * share.  Finding the bundled folder is src/cli/hwdb_open.c's job.
 */
#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>

int cli_hwdb_layer_opt(int argc, char **argv, int *i, const char **layers,
                       size_t *n_layers, int *err)
{
    const char *v;
    if (!cli_opt(argc, argv, i, "--hwdb", &v, err)) return 0;
    if (!*err) layers[(*n_layers)++] = v;
    return 1;
}

void help_hwdb(FILE *f)
{
    fprintf(f,
        "usage: joulecast hwdb check [DIR...] [--alone] [--hwdb DIR]...\n\n"
        "Validates a hardware database (schema: docs/hwdb-schema.md) and prints\n"
        "the number of entries of each kind.  Without DIR: the bundled database\n"
        "with the --hwdb and $JOULECAST_HWDB layers.  With DIR (a folder or a\n"
        "single .yaml file): DIR checked as an override layer on top of the\n"
        "bundled database, or as a database of its own with --alone.\n"
        "Every error names file:line:column.  Exit status 5 on an invalid\n"
        "database, 3 when a folder or file cannot be read.\n\n"
        "  --alone      check DIR... without the bundled database\n"
        "  --hwdb DIR   an override layer (repeatable)\n");
}

int cmd_hwdb(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "check"))
        return cli_usage("hwdb", "expected 'hwdb check [DIR...]'");
    const char **layers = calloc((size_t)argc, sizeof *layers);
    if (!layers) return JC_ERR_NOMEM;
    size_t n = 0;
    int alone = 0, err = 0, rc = 0;
    for (int i = 2; i < argc; i++) {
        if (cli_hwdb_layer_opt(argc, argv, &i, layers, &n, &err)) {
            if (err) { rc = JC_ERR_USAGE; break; }
        } else if (!strcmp(argv[i], "--alone")) {
            alone = 1;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            rc = cli_usage("hwdb", "unknown option '%s'", argv[i]);
            break;
        } else {
            layers[n++] = argv[i];
        }
    }
    jc_hwdb *db = NULL;
    if (!rc) {
        if (alone) {
            jc_diag d;
            if (!n) rc = cli_usage("hwdb", "--alone needs a DIR");
            else if (jc_hwdb_load(NULL, layers, n, NULL, &db, &d)) rc = cli_fail(&d);
        } else {
            rc = cli_hwdb_open(layers, n, &db);
        }
    }
    if (!rc) {
        printf("ok: %zu files, %zu sources\n", db->n_files, db->n_sources);
        printf("  %-12s %zu\n", "devices", db->n_devices);
        printf("  %-12s %zu\n", "hosts", db->n_hosts);
        printf("  %-12s %zu\n", "regions", db->n_regions);
        printf("  %-12s %zu\n", "datasets", db->n_datasets);
        printf("  %-12s %zu\n", "providers", db->n_providers);
        printf("  %-12s %zu\n", "constants", db->n_constants);
        printf("  %-12s %zu\n", "ga versions", db->n_ga);
    }
    jc_hwdb_free(db);
    free(layers);
    return rc;
}
