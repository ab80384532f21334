/*
 * hwdb_open.c (cli) - how the CLI finds and loads the hardware database: the
 * bundled folder, then --hwdb layers, then $JOULECAST_HWDB.
 *
 * The bundled folder and its snapshot are found by the one search order
 * of the CLI and the bindings (jc_hwdb_find_dir, jc_hwdb_find_snapshot:
 * src/hwdb/locate.c), anchored at the executable's folder, with the
 * source tree's hwdb/ (JC_HWDB_DIR, set at build time) last.
 *
 * With no override layer, the bundled folder is opened from a snapshot
 * (src/hwdb/snapshot.c) when one is found and fresh - the first that exists
 * of $JOULECAST_HWDB_SNAPSHOT ("off": none), <exe dir>/hwdb.snap (build
 * tree) and <exe dir>/../share/joulecast/hwdb.snap (installed) - else the
 * YAML is parsed.  Both give the same database; only the time differs
 * (`joulecast hwdb info` says which one a run uses and why).
 */
#include "cli/cli.h"
#include "joulecast/hwdb.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The CLI's anchor for the one search order (jc_hwdb_find_dir): its
 * executable's folder; 0 when it cannot be read. */
static int exe_dir(char *buf, size_t cap)
{
    ssize_t n = readlink("/proc/self/exe", buf, cap - 1);
    if (n <= 0) return 0;
    buf[n] = 0;
    char *slash = strrchr(buf, '/');
    if (!slash) return 0;
    *slash = 0;
    return 1;
}

const char *cli_bundled_hwdb(char *buf, size_t cap)
{
    char exe[4096];
    const char *anchors[] = {exe};
#ifdef JC_HWDB_DIR
    const char *fallback = JC_HWDB_DIR;
#else
    const char *fallback = NULL;
#endif
    return jc_hwdb_find_dir(anchors, exe_dir(exe, sizeof exe), fallback, 1, buf, cap);
}

const char *cli_hwdb_snapshot_path(char *buf, size_t cap, int for_display)
{
    char exe[4096];
    const char *anchors[] = {exe};
    return jc_hwdb_find_snapshot(anchors, exe_dir(exe, sizeof exe), for_display, buf, cap);
}

static int env_has_layers(void)
{
    const char *env = getenv("JOULECAST_HWDB");
    for (const char *p = env ? env : ""; *p; p++)
        if (*p != ':') return 1;
    return 0;
}

int cli_hwdb_open_from(const char *const *layers, size_t n_layers, int snapshot,
                       jc_hwdb **db)
{
    char buf[4200];
    const char *dir = cli_bundled_hwdb(buf, sizeof buf);
    if (!dir && !n_layers) {
        fprintf(stderr, "joulecast: cannot find the bundled hardware database (hwdb/); "
                        "set JOULECAST_HWDB_DIR or pass --hwdb DIR\n");
        return JC_ERR_IO;
    }
    jc_diag d;
    if (snapshot && dir && !n_layers && !env_has_layers()) {
        char sbuf[4200];
        const char *snap = cli_hwdb_snapshot_path(sbuf, sizeof sbuf, 0);
        jc_status st = snap ? jc_hwdb_snapshot_open(snap, dir, 0, db, &d) : JC_ERR_IO;
        if (st == JC_OK) return 0;
        /* stale or absent: the normal state after editing hwdb/; a broken
         * file is a broken build or install, worth a word */
        if (st == JC_ERR_HWDB)
            fprintf(stderr, "joulecast: note: not using the hwdb snapshot %s; parsing the YAML "
                            "instead (same numbers, slower)\n", d.msg);
    }
    if (jc_hwdb_load(dir, layers, n_layers, getenv("JOULECAST_HWDB"), db, &d))
        return cli_fail(&d);
    return 0;
}

int cli_hwdb_open(const char *const *layers, size_t n_layers, jc_hwdb **db)
{
    return cli_hwdb_open_from(layers, n_layers, 1, db);
}
