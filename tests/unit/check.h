/*
 * check.h - the unit-test harness: a few macros, no framework.
 *
 * A test file defines `static void test_xxx(void)` functions and a main()
 * that calls RUN(test_xxx) for each, then returns check_summary().  Every
 * RUN prints "PASS name" or "FAIL name" (after the failing checks, each
 * with file:line); tests/run.sh counts those lines.  A check that fails
 * never stops the binary, so one run reports every failure.
 */
#ifndef JC_CHECK_H
#define JC_CHECK_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_passed_, check_failed_;
static int check_cur_fail_ __attribute__((unused));

#define CHECK(cond)                                                         \
    do {                                                                    \
        if (!(cond)) {                                                      \
            printf("  %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__,       \
                   #cond);                                                  \
            check_cur_fail_ = 1;                                            \
        }                                                                   \
    } while (0)

#define CHECK_I64(a, b)                                                     \
    do {                                                                    \
        long long a_ = (long long)(a), b_ = (long long)(b);                 \
        if (a_ != b_) {                                                     \
            printf("  %s:%d: %s == %lld, expected %s == %lld\n", __FILE__,  \
                   __LINE__, #a, a_, #b, b_);                               \
            check_cur_fail_ = 1;                                            \
        }                                                                   \
    } while (0)

#define CHECK_STR(a, b)                                                     \
    do {                                                                    \
        const char *a_ = (a), *b_ = (b);                                    \
        if (!a_ || !b_ || strcmp(a_, b_) != 0) {                            \
            printf("  %s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__,    \
                   __LINE__, #a, a_ ? a_ : "(null)", b_ ? b_ : "(null)");   \
            check_cur_fail_ = 1;                                            \
        }                                                                   \
    } while (0)

/* |a-b| <= rel*|b| (rel = relative tolerance) */
#define CHECK_NEAR(a, b, rel)                                               \
    do {                                                                    \
        double a_ = (double)(a), b_ = (double)(b);                          \
        if (!(fabs(a_ - b_) <= (rel) * fabs(b_))) {                         \
            printf("  %s:%d: %s == %.9g, expected %.9g (rel tol %g)\n",     \
                   __FILE__, __LINE__, #a, a_, b_, (double)(rel));          \
            check_cur_fail_ = 1;                                            \
        }                                                                   \
    } while (0)

/* Report one named case (for data-driven tests such as folder walks). */
static inline void check_case(const char *name, int failed)
{
    if (failed) {
        check_failed_++;
        printf("FAIL %s\n", name);
    } else {
        check_passed_++;
        printf("PASS %s\n", name);
    }
    fflush(stdout);
}

#define RUN(fn)                                                             \
    do {                                                                    \
        check_cur_fail_ = 0;                                                \
        fn();                                                               \
        check_case(#fn, check_cur_fail_);                                   \
    } while (0)

/* The one skip policy: a test input that is committed to the repository
 * or installed by `make deps` (the ONNX backend suite of
 * libonnx-testdata) must be there; a missing one fails the current test
 * with its path, it never passes silently.  Returns 1 when path exists. */
#include <sys/stat.h>
static int check_need(const char *path) __attribute__((unused));
static int check_need(const char *path)
{
    struct stat sb_;
    if (stat(path, &sb_) == 0) return 1;
    printf("  %s is missing: a committed model or an installed test suite (make deps) is required, "
           "never skipped\n", path);
    check_cur_fail_ = 1;
    return 0;
}

static inline int check_summary(void)
{
    return check_failed_ ? 1 : 0;
}


/* The whole file at path, malloc'ed (*len bytes); NULL if it cannot be
 * read. */
static unsigned char *check_slurp(const char *path, size_t *len) __attribute__((unused));
static unsigned char *check_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = n >= 0 ? malloc(n > 0 ? (size_t)n : 1) : NULL;
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = n > 0 ? (size_t)n : 0;
    return b;
}

#ifdef JOULECAST_ESTIMATE_H   /* joulecast/estimate.h, by itself or through joulecast.h */
/* The bundled hardware database (hwdb/, tests run from the repository
 * root) for a test binary's main(); on failure the case "load bundled
 * hwdb" is reported failed and NULL returned. */
static jc_hwdb *check_bundled_hwdb(void) __attribute__((unused));
static jc_hwdb *check_bundled_hwdb(void)
{
    jc_hwdb *db = NULL;
    jc_diag d;
    if (jc_hwdb_load("hwdb", NULL, 0, NULL, &db, &d) == JC_OK) return db;
    printf("  cannot load hwdb/: %s\n", d.msg);
    check_case("load bundled hwdb", 1);
    return NULL;
}

/* jc_estimate_run that the test expects to succeed: on failure the
 * diagnostic is printed and the check fails.  Returns the estimate (the
 * caller frees it with jc_estimate_free), NULL on failure. */
static jc_estimate *check_estimate(const jc_job *j, const jc_analysis *an, const jc_hwdb *db)
    __attribute__((unused));
static jc_estimate *check_estimate(const jc_job *j, const jc_analysis *an, const jc_hwdb *db)
{
    jc_estimate *e = NULL;
    jc_diag d;
    jc_status st = jc_estimate_run(j, an, db, &e, &d);
    if (st) printf("  estimate failed: %s\n", d.msg);
    CHECK_I64(st, JC_OK);
    return e;
}

/* The small dense job of the training step model the tests share: a
 * --params transformer of 2 layers of d 4096 (32 heads, 402,653,184
 * parameters), 4 sequences of 2048 tokens a step, 10 steps, on one
 * `device`, at 400 gCO2e/kWh. */
static void check_step_job(jc_job *j, const char *device) __attribute__((unused));
static void check_step_job(jc_job *j, const char *device)
{
    jc_job_init(j);
    j->mode = JC_MODE_TRAINING;
    j->device = device;
    j->params = 402653184;
    j->layers = 2;
    j->hidden = 4096;
    j->heads = 32;
    j->seq = 2048;
    j->batch = 4;
    j->tokens = 2048 * 4 * 10;
    j->ci = 400;
}
#endif

#if defined(JOULECAST_ESTIMATE_H) && defined(JOULECAST_ANALYSIS_H) && defined(JOULECAST_MODEL_H)
/* The model at `path` loaded and analysed with its dim "batch" bound to
 * `batch`, into *m and *an (the caller frees both).  On failure the
 * diagnostic is printed, the check fails, nothing is left to free and 0
 * is returned. */
static int check_analysis(const char *path, int64_t batch, jc_model **m, jc_analysis **an) __attribute__((unused));
static int check_analysis(const char *path, int64_t batch, jc_model **m, jc_analysis **an)
{
    jc_diag d;
    jc_dim_binding b = {"batch", batch};
    jc_analyze_opts o = {0};
    o.dims = &b;
    o.n_dims = 1;
    *m = NULL;
    *an = NULL;
    if (jc_model_load(path, m, &d) == JC_OK && jc_analyze(*m, &o, an, &d) == JC_OK) return 1;
    printf("  %s: %s\n", path, d.msg);
    CHECK(0);
    jc_model_free(*m);
    *m = NULL;
    return 0;
}
#endif

#endif
