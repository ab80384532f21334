/*
 * io.c - the CLI's conventions shared by every command that are not
 * option parsing: a model given as "-" is read from standard input, and
 * `joulecast --version` reports the program's version together with the
 * hardware database it would use and that database's data version (the
 * first line of its VERSION file, see hwdb/README.md "Data version").
 */
#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>

/* Largest model accepted on standard input (a file has no such limit:
 * it is mapped, not read). */
#define STDIN_MAX ((size_t)1 << 31)

jc_status cli_model_load(const char *path, jc_model **out, jc_diag *d)
{
    if (!path || strcmp(path, "-")) return jc_model_load(path, out, d);
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    if (!buf) goto nomem;
    for (;;) {
        if (len == cap) {
            if (cap >= STDIN_MAX) {
                free(buf);
                *out = NULL;
                d->status = JC_ERR_RANGE;
                snprintf(d->msg, sizeof d->msg,
                         "<stdin>: model larger than %zu bytes; give it as a file instead", STDIN_MAX);
                return JC_ERR_RANGE;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) goto nomem;
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len, stdin);
        len += got;
        if (got == 0) break;
    }
    if (ferror(stdin)) {
        free(buf);
        *out = NULL;
        d->status = JC_ERR_IO;
        snprintf(d->msg, sizeof d->msg, "<stdin>: read error");
        return JC_ERR_IO;
    }
    if (len == 0) {
        free(buf);
        *out = NULL;
        d->status = JC_ERR_MODEL;
        snprintf(d->msg, sizeof d->msg, "<stdin>: empty input: not an ONNX model");
        return JC_ERR_MODEL;
    }
    jc_status st = jc_model_load_buffer(buf, len, "<stdin>", out, d);
    free(buf);
    return st;
nomem:
    free(buf);
    *out = NULL;
    d->status = JC_ERR_NOMEM;
    snprintf(d->msg, sizeof d->msg, "<stdin>: out of memory reading the model");
    return JC_ERR_NOMEM;
}

int cli_version(FILE *f)
{
    char buf[4200];
    fprintf(f, "joulecast %s\n", JC_VERSION);
    const char *dir = cli_bundled_hwdb(buf, sizeof buf);
    if (!dir) {
        fprintf(f, "hwdb      not found (set JOULECAST_HWDB_DIR or pass --hwdb DIR)\n");
        return 0;
    }
    char vpath[4400], line[256] = "";
    snprintf(vpath, sizeof vpath, "%s/VERSION", dir);
    FILE *vf = fopen(vpath, "r");
    if (vf) {
        if (!fgets(line, sizeof line, vf)) line[0] = 0;
        fclose(vf);
        line[strcspn(line, "\r\n")] = 0;
    }
    fprintf(f, "hwdb      %s\n", line[0] ? line : "(no VERSION file)");
    char real[4096];
    fprintf(f, "hwdb-dir  %s\n", realpath(dir, real) ? real : dir);
    return 0;
}
