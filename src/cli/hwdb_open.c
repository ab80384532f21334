/*
 * hwdb_open.c (cli) - how the CLI finds and loads the hardware database: the
 * bundled folder, then --hwdb layers, then $JOULECAST_HWDB.
 *
 * The bundled folder is the first that exists of:
 *   $JOULECAST_HWDB_DIR                       (explicit override)
 *   <exe dir>/../share/joulecast/hwdb         (installed: PREFIX/bin/joulecast)
 *   <exe dir>/../hwdb, <exe dir>/../../hwdb   (build tree: build/joulecast)
 *   JC_HWDB_DIR                               (source tree, set at build time)
 *
 * With no override layer, the bundled folder is opened from a snapshot
 * (src/hwdb/snapshot.c) when one is found and fresh - the first that exists
 * of $JOULECAST_HWDB_SNAPSHOT ("off": none), <exe dir>/hwdb.snap (build
 * tree) and <exe dir>/../share/joulecast/hwdb.snap (installed) - else the
 * YAML is parsed.  Both give the same database; only the time differs
 * (`joulecast hwdb info` says which one a run uses and why).
 */
#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_dir(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* Canonical form of a found folder, relative to the working directory
 * when below it, so reports cite "hwdb/devices/nvidia.yaml:966". */
static const char *tidy(char *buf, size_t cap)
{
    char real[4096], cwd[4096];
    if (!realpath(buf, real)) return buf;
    if (getcwd(cwd, sizeof cwd)) {
        size_t n = strlen(cwd);
        if (!strncmp(real, cwd, n) && real[n] == '/') {
            snprintf(buf, cap, "%s", real + n + 1);
            return buf;
        }
    }
    snprintf(buf, cap, "%s", real);
    return buf;
}

/* The first of <exe dir><rel[i]> for which ok() holds, in buf (tidied
 * when tidy_it); NULL when none does. */
static const char *next_to_exe(const char *const *rel, size_t n_rel,
                               int (*ok)(const char *), int tidy_it, char *buf, size_t cap)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return NULL;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash) return NULL;
    *slash = 0;
    for (size_t i = 0; i < n_rel; i++) {
        snprintf(buf, cap, "%s%s", exe, rel[i]);
        if (ok(buf)) return tidy_it ? tidy(buf, cap) : buf;
    }
    return NULL;
}

static int is_file(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 && S_ISREG(sb.st_mode);
}

const char *cli_bundled_hwdb(char *buf, size_t cap)
{
    /* the override is cited as every found folder is (tidy), so the CLI
     * and the Python package name the same files the same way */
    const char *env = getenv("JOULECAST_HWDB_DIR");
    if (env && *env) {
        snprintf(buf, cap, "%s", env);
        return tidy(buf, cap);
    }
    static const char *const rel[] = {"/../share/joulecast/hwdb", "/../hwdb", "/../../hwdb"};
    const char *found = next_to_exe(rel, sizeof rel / sizeof rel[0], is_dir, 1, buf, cap);
    if (found) return found;
#ifdef JC_HWDB_DIR
    if (is_dir(JC_HWDB_DIR)) {
        snprintf(buf, cap, "%s", JC_HWDB_DIR);
        return tidy(buf, cap);
    }
#endif
    return NULL;
}

const char *cli_hwdb_snapshot_path(char *buf, size_t cap, int for_display)
{
    const char *env = getenv("JOULECAST_HWDB_SNAPSHOT");
    if (env && *env) return strcmp(env, "off") ? env : NULL;
    static const char *const rel[] = {"/hwdb.snap", "/../share/joulecast/hwdb.snap"};
    return next_to_exe(rel, sizeof rel / sizeof rel[0], is_file, for_display, buf, cap);
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
