/*
 * workflow.c (cli) - helpers shared by the workflow commands (statement,
 * calibrate, diff, estimate's codecarbon row): see workflow.h.
 */
#include "cli/workflow.h"
#include "joulecast/bind.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

char *wf_reproduce(int argc, char **argv, const char *const *skip, const char *skip_pos)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    fputs("joulecast estimate", f);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (skip_pos && !strcmp(a, skip_pos)) continue;
        int drop = 0;
        for (const char *const *k = skip; k && *k && a[0] == '-' && a[1] == '-'; k++) {
            size_t kl = strlen(*k);
            if (!strncmp(a + 2, *k, kl) && (a[2 + kl] == 0 || a[2 + kl] == '=')) {
                drop = 1;
                if (a[2 + kl] == 0) i++;   /* the value follows */
                break;
            }
        }
        if (!drop) jc_shell_arg_put(f, a);
    }
    if (fclose(f)) {
        free(buf);
        return NULL;
    }
    return buf;
}

bool wf_parse_percent(const char *s, double *frac)
{
    if (!s || !*s) return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || strcmp(end, "%") || !isfinite(v) || v < 0) return false;
    *frac = v / 100;
    return true;
}
