/*
 * listing.c (hwdb) - the files of a hardware-database folder: the *.yaml files
 * under it (recursively, hidden entries skipped, sorted by path), and the
 * same listing with sizes and modification times that a snapshot records
 * to know it is fresh.
 */
#include "hwdb/hwdb_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- folder listing ------------------------------------------------------- */

typedef struct plist {
    jci_arena *a;
    hw_file_meta *v;
    size_t n, cap;
} plist;

static bool plist_add(plist *l, const char *s, const struct stat *sb, int is_dir)
{
    if (l->n == l->cap) {
        size_t nc = l->cap ? l->cap * 2 : 64;
        hw_file_meta *nv = jci_arena_calloc(l->a, nc, sizeof *nv);
        if (!nv) return false;
        if (l->n) memcpy(nv, l->v, l->n * sizeof *nv);
        l->v = nv;
        l->cap = nc;
    }
    char *c = jci_arena_strdup(l->a, s);
    if (!c) return false;
    l->v[l->n].path = c;
    l->v[l->n].size = (int64_t)sb->st_size;
    l->v[l->n].mtime_s = (int64_t)sb->st_mtim.tv_sec;
    l->v[l->n].mtime_ns = (int64_t)sb->st_mtim.tv_nsec;
    l->v[l->n].is_dir = is_dir;
    l->n++;
    return true;
}

static int cmp_path(const void *a, const void *b)
{
    return strcmp(((const hw_file_meta *)a)->path, ((const hw_file_meta *)b)->path);
}

static bool is_yaml(const char *name)
{
    size_t nl = strlen(name);
    return nl > 5 && !strcmp(name + nl - 5, ".yaml");
}

/* Lists dir (open as fd, which walk closes).  Entries are looked up
 * relative to the folder (fstatat), and names that cannot be YAML files
 * or folders are skipped unlooked-at when readdir gives their type. */
static jc_status walk(plist *l, int fd, const char *dir, int depth, jc_diag *d)
{
    if (depth > HW_MAX_DIR_DEPTH) {
        close(fd);
        return jci_diag_at(d, JC_ERR_IO, dir, -1,
                          "folders nested deeper than %d levels (a symlink loop?)",
                          HW_MAX_DIR_DEPTH);
    }
    struct stat dsb;
    if (fstat(fd, &dsb) != 0 || !plist_add(l, dir, &dsb, 1)) {
        close(fd);
        return jci_diag_at(d, JC_ERR_IO, dir, -1, "cannot open hwdb folder: %s",
                          strerror(errno));
    }
    DIR *dp = fdopendir(fd);
    if (!dp) {
        close(fd);
        return jci_diag_at(d, JC_ERR_IO, dir, -1, "cannot open hwdb folder: %s",
                          strerror(errno));
    }
    jc_status st = JC_OK;
    struct dirent *de;
    char path[4096];
    while ((de = readdir(dp))) {
        if (de->d_name[0] == '.') continue;
        if (de->d_type == DT_REG && !is_yaml(de->d_name)) continue;
        int w = snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (w < 0 || (size_t)w >= sizeof path) {
            st = jci_diag_at(d, JC_ERR_IO, dir, -1, "path too long under this folder");
            break;
        }
        struct stat sb;
        if (fstatat(dirfd(dp), de->d_name, &sb, 0) != 0) continue;   /* dangling symlink */
        if (S_ISDIR(sb.st_mode)) {
            int sub = openat(dirfd(dp), de->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (sub < 0) {
                st = jci_diag_at(d, JC_ERR_IO, path, -1, "cannot open hwdb folder: %s",
                                strerror(errno));
                break;
            }
            st = walk(l, sub, path, depth + 1, d);
            if (st) break;
        } else if (S_ISREG(sb.st_mode) && is_yaml(de->d_name)) {
            if (!plist_add(l, path, &sb, 0)) {
                st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
                break;
            }
        }
    }
    closedir(dp);
    return st;
}

jc_status hw_list_files_meta(jci_arena *scratch, const char *dir, hw_file_meta **files,
                             size_t *n, jc_diag *d)
{
    plist l = {scratch, NULL, 0, 0};
    struct stat sb;
    if (stat(dir, &sb) != 0)
        return jci_diag_at(d, JC_ERR_IO, dir, -1, "cannot open hwdb folder: %s",
                          strerror(errno));
    if (S_ISREG(sb.st_mode)) {
        if (!plist_add(&l, dir, &sb, 0)) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    } else {
        /* strip trailing slashes so paths read "dir/file.yaml" */
        char clean[4096];
        size_t len = strlen(dir);
        if (len >= sizeof clean)
            return jci_diag_at(d, JC_ERR_IO, dir, -1, "path too long");
        memcpy(clean, dir, len + 1);
        while (len > 1 && clean[len - 1] == '/') clean[--len] = 0;
        int fd = open(clean, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
            return jci_diag_at(d, JC_ERR_IO, dir, -1, "cannot open hwdb folder: %s",
                              strerror(errno));
        jc_status st = walk(&l, fd, clean, 0, d);
        if (st) return st;
        size_t nf = 0;
        for (size_t i = 0; i < l.n; i++) nf += !l.v[i].is_dir;
        if (nf == 0)
            return jci_diag_at(d, JC_ERR_IO, dir, -1, "no *.yaml file in this hwdb folder");
    }
    if (l.n > 1) qsort(l.v, l.n, sizeof *l.v, cmp_path);
    *files = l.v;
    *n = l.n;
    return JC_OK;
}

jc_status hw_list_files(jci_arena *scratch, const char *dir,
                        const char ***paths, size_t *n, jc_diag *d)
{
    hw_file_meta *m;
    size_t nm;
    jc_status st = hw_list_files_meta(scratch, dir, &m, &nm, d);
    if (st) return st;
    const char **v = jci_arena_calloc(scratch, nm ? nm : 1, sizeof *v);
    if (!v) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    *n = 0;
    for (size_t i = 0; i < nm; i++)
        if (!m[i].is_dir) v[(*n)++] = m[i].path;
    *paths = v;
    return JC_OK;
}
