/*
 * file.c (base) - reading a whole stream into memory with a size cap: the one
 * loop the CSV, JSON, TensorProto and standard-input readers share
 * (base/jc_internal.h, jci_read_stream; callers word their own errors),
 * and a named file read whole with the messages worded once
 * (jci_read_file).
 */
#include "base/jc_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
            size_t nc = cap ? cap * 2 : 65536;
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
