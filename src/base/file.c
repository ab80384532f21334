/*
 * file.c - reading a whole stream into memory with a size cap: the one
 * loop the CSV, JSON, TensorProto and standard-input readers share
 * (base/jc_internal.h, jci_read_stream).  Callers word their own errors.
 */
#include "base/jc_internal.h"

#include <stdlib.h>

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
