/*
 * hwdb_open.c - how the CLI finds and loads the hardware database: the
 * bundled folder, then --hwdb layers, then $JOULECAST_HWDB.
 *
 * The bundled folder is the first that exists of:
 *   $JOULECAST_HWDB_DIR                       (explicit override)
 *   <exe dir>/../share/joulecast/hwdb         (installed: PREFIX/bin/joulecast)
 *   <exe dir>/../hwdb, <exe dir>/../../hwdb   (build tree: build/joulecast)
 *   JC_HWDB_DIR                               (source tree, set at build time)
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

const char *cli_bundled_hwdb(char *buf, size_t cap)
{
    const char *env = getenv("JOULECAST_HWDB_DIR");
    if (env && *env) return env;
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            static const char *rel[] = {"/../share/joulecast/hwdb", "/../hwdb", "/../../hwdb"};
            for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
                snprintf(buf, cap, "%s%s", exe, rel[i]);
                if (is_dir(buf)) return tidy(buf, cap);
            }
        }
    }
#ifdef JC_HWDB_DIR
    if (is_dir(JC_HWDB_DIR)) {
        snprintf(buf, cap, "%s", JC_HWDB_DIR);
        return tidy(buf, cap);
    }
#endif
    return NULL;
}

int cli_hwdb_open(const char *const *layers, size_t n_layers, jc_hwdb **db)
{
    char buf[4200];
    const char *dir = cli_bundled_hwdb(buf, sizeof buf);
    if (!dir && !n_layers) {
        fprintf(stderr, "joulecast: cannot find the bundled hardware database (hwdb/); "
                        "set JOULECAST_HWDB_DIR or pass --hwdb DIR\n");
        return JC_ERR_IO;
    }
    jc_diag d;
    if (jc_hwdb_load(dir, layers, n_layers, getenv("JOULECAST_HWDB"), db, &d))
        return cli_fail(&d);
    return 0;
}
