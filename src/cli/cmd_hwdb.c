/*
 * cmd_hwdb.c (cli) - `joulecast hwdb check [DIR...]` (validate a database or an
 * override folder), `hwdb snapshot` (write a snapshot of a folder: see
 * src/hwdb/snapshot.c), `hwdb info` (which folder and snapshot a run uses,
 * and why), `hwdb schema` (the field tables the loader enforces), and the
 * --hwdb option parser the hwdb commands share.
 * Finding the bundled folder is src/cli/hwdb_open.c's job.
 */
#include "cli/cli.h"
#include "joulecast/hwdb.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

int cli_hwdb_layer_opt(int argc, char **argv, int *i, const char **layers,
                       size_t *n_layers, int *err)
{
    const char *v;
    if (!cli_opt(argc, argv, i, "--hwdb", &v, err)) return 0;
    if (!*err) layers[(*n_layers)++] = v;
    return 1;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static int hwdb_snapshot(int argc, char **argv)
{
    const char *dir = NULL, *out = NULL;
    int err = 0;
    for (int i = 2; i < argc; i++) {
        if (cli_opt(argc, argv, &i, "-o", &out, &err) ||
            cli_opt(argc, argv, &i, "--output", &out, &err)) {
            if (err) return JC_ERR_USAGE;
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return cli_usage("hwdb", "unknown option '%s'", argv[i]);
        } else if (dir) {
            return cli_usage("hwdb", "hwdb snapshot takes one folder");
        } else {
            dir = argv[i];
        }
    }
    if (!out) return cli_usage("hwdb", "hwdb snapshot needs -o FILE");
    char buf[4200];
    if (!dir) dir = cli_bundled_hwdb(buf, sizeof buf);
    if (!dir) {
        fprintf(stderr, "joulecast: cannot find the bundled hardware database (hwdb/); "
                        "name a folder: joulecast hwdb snapshot DIR -o FILE\n");
        return JC_ERR_IO;
    }
    jc_diag d;
    if (jc_hwdb_snapshot_write(dir, out, &d)) return cli_fail(&d);
    printf("wrote %s (snapshot of %s)\n", out, dir);
    return 0;
}

static int hwdb_info(int argc, char **argv)
{
    if (argc > 2) return cli_usage("hwdb", "hwdb info takes no argument");
    char buf[4200], sbuf[4200];
    const char *dir = cli_bundled_hwdb(buf, sizeof buf);
    const char *snap = cli_hwdb_snapshot_path(sbuf, sizeof sbuf, 1);
    const char *env = getenv("JOULECAST_HWDB_SNAPSHOT");
    printf("bundled folder  %s\n", dir ? dir : "(not found)");
    if (!snap)
        printf("snapshot        none (%s)\n", env && !strcmp(env, "off")
               ? "JOULECAST_HWDB_SNAPSHOT=off" : "no hwdb.snap next to the program");
    else
        printf("snapshot        %s\n", snap);
    if (!dir) return JC_ERR_IO;
    jc_diag d;
    jc_hwdb *db = NULL;
    if (snap) {
        double t0 = now_s();
        jc_status st = jc_hwdb_snapshot_open(snap, dir, 0, &db, &d);
        double t1 = now_s();
        if (st)
            printf("state           not used: %s\n", d.msg);
        else
            printf("state           used (%s): opened in %s ms\n",
                   jc_hwdb_from_snapshot(db) == 2 ? "mapped in place" : "read and relocated",
                   CLI_NUM((t1 - t0) * 1e3));
        jc_hwdb_free(db);
        db = NULL;
    }
    double t0 = now_s();
    if (jc_hwdb_load(dir, NULL, 0, NULL, &db, &d)) return cli_fail(&d);
    double t1 = now_s();
    printf("yaml            %zu files parsed in %s ms\n", db->n_files, CLI_NUM((t1 - t0) * 1e3));
    jc_hwdb_free(db);
    const char *layers = getenv("JOULECAST_HWDB");
    if (layers && *layers)
        printf("note            JOULECAST_HWDB layers are set: runs parse the YAML\n");
    return 0;
}

static int hwdb_schema(int argc, char **argv)
{
    const char *kind = NULL;
    int json = 0;
    int i = cli_json_and_arg("hwdb", argc, argv, 2, &kind, &json);
    if (i < 0) return JC_ERR_USAGE;
    if (i) return cli_usage("hwdb", "hwdb schema takes one KIND");
    if (json) {
        if (kind) return cli_usage("hwdb", "hwdb schema --json prints every kind: no KIND");
        return cli_emit_json(jc_report_hwdb_schema_json());
    }
    jc_diag d;
    if (jc_report_hwdb_schema_md(kind, stdout, &d)) return cli_fail(&d);
    return 0;
}

int cmd_hwdb(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "schema")) return hwdb_schema(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "snapshot")) return hwdb_snapshot(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "info")) return hwdb_info(argc, argv);
    if (argc < 2 || strcmp(argv[1], "check"))
        return cli_usage("hwdb", "expected 'hwdb check [DIR...]', 'hwdb snapshot', 'hwdb info' or "
                         "'hwdb schema'");
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
            rc = cli_hwdb_open_from(layers, n, 0, &db);
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
