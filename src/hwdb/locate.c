/*
 * locate.c (hwdb) - where a front end finds the hardware database when the
 * user names none: the one search order of the CLI (src/cli/hwdb_open.c)
 * and the Python package (python/joulecast/_native.py), each giving its
 * own anchor folders (the CLI its executable's folder; Python its package
 * folder, then the loaded library's).  Contracts: jc_hwdb_find_dir and
 * jc_hwdb_find_snapshot in joulecast/hwdb.h.
 */
#include "base/jc_internal.h"
#include "joulecast/hwdb.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_dir(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static int is_file(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* buf in canonical form, relative to the working directory when below it
 * (reports then cite "hwdb/devices/nvidia.yaml:966"); unchanged when it
 * cannot be resolved. */
static const char *tidy(char *buf, size_t cap)
{
    char real[PATH_MAX], cwd[PATH_MAX];
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

/* The first A<rel[j]> over anchors A (anchor by anchor) for which ok()
 * holds, in buf; NULL when none does. */
static const char *first_of(const char *const *anchors, size_t n_anchors, const char *const *rel,
                            size_t n_rel, int (*ok)(const char *), char *buf, size_t cap)
{
    for (size_t i = 0; anchors && i < n_anchors; i++) {
        if (!anchors[i] || !*anchors[i]) continue;
        for (size_t j = 0; j < n_rel; j++) {
            int w = snprintf(buf, cap, "%s%s", anchors[i], rel[j]);
            if (w > 0 && (size_t)w < cap && ok(buf)) return buf;
        }
    }
    return NULL;
}

const char *jc_hwdb_find_dir(const char *const *anchors, size_t n_anchors, const char *fallback,
                             int tidy_it, char *buf, size_t cap)
{
    if (!buf || !cap) return NULL;
    const char *env = getenv("JOULECAST_HWDB_DIR");
    /* a pip package's own copy, an installed prefix, a build tree, a
     * source tree */
    static const char *const rel[] = {"/hwdb", "/../share/joulecast/hwdb", "/../hwdb", "/../../hwdb"};
    const char *p = NULL;
    if (env && *env) {
        snprintf(buf, cap, "%s", env);
        p = buf;
    } else if (first_of(anchors, n_anchors, rel, sizeof rel / sizeof rel[0], is_dir, buf, cap)) {
        p = buf;
    } else if (fallback && is_dir(fallback)) {
        snprintf(buf, cap, "%s", fallback);
        p = buf;
    }
    return p && tidy_it ? tidy(buf, cap) : p;
}

const char *jc_hwdb_find_snapshot(const char *const *anchors, size_t n_anchors, int tidy_it, char *buf,
                                  size_t cap)
{
    if (!buf || !cap) return NULL;
    const char *env = getenv("JOULECAST_HWDB_SNAPSHOT");
    if (env && *env) {
        if (!strcmp(env, "off")) return NULL;
        snprintf(buf, cap, "%s", env);
        return buf;
    }
    /* beside the anchor (a build tree, a pip package), an installed prefix */
    static const char *const rel[] = {"/hwdb.snap", "/../share/joulecast/hwdb.snap"};
    const char *p = first_of(anchors, n_anchors, rel, sizeof rel / sizeof rel[0], is_file, buf, cap);
    return p && tidy_it ? tidy(buf, cap) : p;
}
