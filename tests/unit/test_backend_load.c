/*
 * test_backend_load.c - every model.onnx of ONNX's own backend test suite
 * (Debian's libonnx-testdata) must load without error.  The folder is
 * walked (no hand-kept list); each model is one PASS/FAIL case, and the
 * test fails if the suite is missing or holds fewer than 1,000 models, so
 * a broken install cannot pass silently.
 */
#define _XOPEN_SOURCE 700
#include "check.h"
#include "joulecast.h"

#include <ftw.h>
#include <stdlib.h>

#define BACKEND "/usr/share/libonnx-testdata/data"

static int n_models;

static int visit(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)sb;
    if (type != FTW_F) return 0;
    const char *base = path + ftw->base;
    if (strcmp(base, "model.onnx") != 0) return 0;
    n_models++;
    jc_model *m;
    jc_diag d;
    jc_status st = jc_model_load(path, &m, &d);
    char name[600];
    snprintf(name, sizeof name, "load %s", path + strlen(BACKEND) + 1);
    if (st) printf("  %s\n", d.msg);
    check_case(name, st != JC_OK);
    jc_model_free(m);
    return 0;
}

int main(void)
{
    if (nftw(BACKEND, visit, 16, FTW_PHYS) != 0) {
        printf("  cannot walk %s (is libonnx-testdata installed?)\n", BACKEND);
        check_case("backend suite present", 1);
        return 1;
    }
    printf("  %d backend models\n", n_models);
    check_case("backend suite holds >= 1000 models", n_models < 1000);
    return check_summary();
}
