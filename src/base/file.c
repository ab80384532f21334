/*
 * file.c (base) - reading a whole stream into memory with a size cap: the one
 * loop the CSV, JSON, TensorProto and standard-input readers share
 * (base/jc_internal.h, jci_read_stream; callers word their own errors),
 * and a named file read whole with the messages worded once
 * (jci_read_file); the rule that an output is none of the inputs
 * (jc_same_file, jci_output_not_input).
 */
#include "base/jc_internal.h"
#include "joulecast/hwdb.h"
#include "joulecast/bind.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int jc_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (!a || !b || !strcmp(a, "-") || !strcmp(b, "-") || stat(a, &sa) || stat(b, &sb)) return 0;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

jc_status jci_output_not_input(const char *out, const char *opt, const char *const *inputs, size_t n,
                               const jc_hwdb *db, jc_diag *d)
{
    for (size_t i = 0; i < n + (db ? db->n_files : 0); i++) {
        const char *in = i < n ? inputs[i] : db->files[i - n];
        if (jc_same_file(out, in))
            return jci_diag_set(d, JC_ERR_USAGE, "%s %s is %s, an input of this run: writing it would replace "
                                "it; give another file", opt, out, in);
    }
    return JC_OK;
}

jci_read_result jci_read_stream(FILE *f, size_t max, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            if (cap > max) {
                free(buf);
                return JCI_READ_TOO_BIG;
            }
            /* grows to max + 1 bytes at most: one byte past the cap
             * refuses the stream (not a doubling to twice the cap) */
            size_t lim = max < SIZE_MAX - 1 ? max + 1 : SIZE_MAX - 1;
            size_t nc = !cap ? 65536 : cap > lim / 2 ? lim : cap * 2;
            if (nc > lim) nc = lim;
            char *nb = realloc(buf, nc + 1);
            if (!nb) {
                free(buf);
                return JCI_READ_NOMEM;
            }
            buf = nb;
            cap = nc;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    if (ferror(f)) {
        free(buf);
        return JCI_READ_IO;
    }
    if (n > max) {
        free(buf);
        return JCI_READ_TOO_BIG;
    }
    buf[n] = 0;
    *out = buf;
    *len = n;
    return JCI_READ_OK;
}

jc_status jci_read_file(const char *path, size_t max, const char *too_big, char **out, size_t *len, jc_diag *d)
{
    *out = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return jci_diag_set(d, JC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    jc_status st = JC_OK;
    switch (jci_read_stream(f, max, out, len)) {
    case JCI_READ_OK: break;
    case JCI_READ_TOO_BIG:
        st = jci_diag_set(d, JC_ERR_USAGE, "%s: larger than %zu MiB%s", path, max >> 20, too_big ? too_big : "");
        break;
    case JCI_READ_NOMEM: st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory"); break;
    case JCI_READ_IO: st = jci_diag_set(d, JC_ERR_IO, "%s: read error", path); break;
    }
    fclose(f);
    return st;
}
