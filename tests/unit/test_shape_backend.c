/*
 * test_shape_backend.c - shape inference against the ONNX backend suite.
 *
 * Walks /usr/share/libonnx-testdata/data/{node,pytorch-converted,
 * pytorch-operator} (discovered, no hand list), analyses each model.onnx
 * with the file's declared output shapes ignored, and compares every
 * graph output's inferred dtype-independent dims with the dims stored in
 * test_data_set_0/output_<i>.pb.  tests/backend/shape_expect.tsv lists the
 * tests not matching yet ("suite/name<TAB>reason"); a listed test that
 * matches is an unexpected pass and fails, like an unlisted mismatch.
 * Also checks that no backend model has an op without a rule.  Prints
 * the match rate over the tests whose outputs are not data-dependent.
 */
#include "check.h"
#include "joulecast.h"
#include "onnx/onnx_internal.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define ROOT "/usr/share/libonnx-testdata/data"
#define VALS_CAP 4096   /* values kept per input (JCI_SMALL_TENSOR) */

typedef struct expect { char name[1024]; int seen; } expect;
static expect *ex;
static size_t n_ex;

static void load_expect(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[1024];
    if (!f) return;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        char *tab = strchr(line, '\t');
        if (!tab) continue;
        *tab = 0;
        expect *nx = realloc(ex, (n_ex + 1) * sizeof *ex);
        if (!nx) break;
        ex = nx;
        snprintf(ex[n_ex].name, sizeof ex[n_ex].name, "%.1000s", line);
        ex[n_ex].seen = 0;
        n_ex++;
    }
    fclose(f);
}

static expect *find_expect(const char *name)
{
    for (size_t i = 0; i < n_ex; i++)
        if (!strcmp(ex[i].name, name)) return &ex[i];
    return NULL;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int total, matched, matched_nondd, dd_tests, unsupported_models;
/* the target: node + pytorch-converted, data-dependent excluded */
static int core_nondd, core_matched_nondd;

/* 1 match, 0 mismatch (why filled) */
static int check_model(const char *dir, char *why, size_t cap, int *data_dep)
{
    char path[1024];
    jc_model *m;
    jc_diag d;
    jc_analysis *a;
    snprintf(path, sizeof path, "%.900s/model.onnx", dir);
    *data_dep = 0;
    if (jc_model_load(path, &m, &d)) {
        snprintf(why, cap, "load: %.900s", d.msg);
        return 0;
    }
    jc_analyze_opts o;
    memset(&o, 0, sizeof o);
    o.ignore_declared = 1;
    /* Bind the values of small integer inputs (and tiny float ones: Resize
     * scales, Range bounds) from test_data_set_0/input_<i>.pb, as a user
     * would with --input-value: their values decide output shapes. */
    size_t nin = m->graph->n_inputs;
    jc_value_binding *vb = calloc(nin ? nin : 1, sizeof *vb);
    int64_t *iv = calloc((nin ? nin : 1) * VALS_CAP, sizeof *iv);
    double *fv = calloc((nin ? nin : 1) * VALS_CAP, sizeof *fv);
    if (!vb || !iv || !fv) {
        snprintf(why, cap, "out of memory");
        free(vb), free(iv), free(fv);
        jc_model_free(m);
        return 0;
    }
    for (size_t k = 0; k < nin; k++) {
        const jc_value *in = &m->graph->values[m->graph->inputs[k]];
        int dt, rank;
        int64_t dims[64], n;
        snprintf(path, sizeof path, "%.900s/test_data_set_0/input_%zu.pb", dir, k);
        if (in->non_tensor ||
            jci_tensor_file_values(path, &dt, dims, 64, &rank, iv + k * VALS_CAP, fv + k * VALS_CAP, VALS_CAP, &n,
                                  &d) ||
            n < 0)
            continue;
        /* a data file that disagrees with the declared shape (castlike's
         * 1-element `like`) is not bound: the declaration is what is tested */
        int agree = in->rank < 0 || in->rank == rank;
        for (int q = 0; agree && q < rank && in->rank >= 0; q++)
            agree = in->dims[q].v < 0 || in->dims[q].v == dims[q];
        if (!agree) continue;
        int is_float = dt == JC_DT_FLOAT || dt == JC_DT_DOUBLE || dt == JC_DT_FLOAT16 || dt == JC_DT_BFLOAT16;
        if (is_float && n > 16) continue;
        vb[o.n_values].name = in->name;
        vb[o.n_values].n = n;
        vb[o.n_values].ivals = iv + k * VALS_CAP;
        vb[o.n_values].fvals = fv + k * VALS_CAP;
        o.n_values++;
    }
    o.values = vb;
    jc_status ast = jc_analyze(m, &o, &a, &d);
    free(vb);
    free(iv);
    free(fv);
    if (ast) {
        snprintf(why, cap, "analyze: %.900s", d.msg);
        jc_model_free(m);
        return 0;
    }
    int ok = 1;
    if (a->n_data_dependent) *data_dep = 1;
    if (a->n_unsupported) {
        unsupported_models++;
        printf("  unsupported op %s in %s\n", a->unsupported[0].op, dir);
    }
    const jc_graph *g = m->graph;
    for (size_t k = 0; k < g->n_outputs && ok; k++) {
        snprintf(path, sizeof path, "%.900s/test_data_set_0/output_%zu.pb", dir, k);
        struct stat sb;
        if (stat(path, &sb) != 0) continue;
        int dt, rank;
        int64_t dims[64];
        if (jci_tensor_file_dims(path, &dt, dims, 64, &rank, &d)) {
            /* a sequence or optional output: not a TensorProto */
            const jc_tshape *t = &a->insts[0].values[g->outputs[k]];
            if (!t->non_tensor && !g->values[g->outputs[k]].non_tensor) {
                snprintf(why, cap, "output %zu: expected file unreadable: %.700s", k, d.msg);
                ok = 0;
            }
            continue;
        }
        const jc_tshape *t = &a->insts[0].values[g->outputs[k]];
        if (g->values[g->outputs[k]].non_tensor) continue;
        int same = t->rank == rank;
        for (int i = 0; same && i < rank; i++) same = t->dims[i].v == dims[i];
        if (!same) {
            char got[256] = "", want[256] = "";
            size_t p = 0;
            if (t->rank < 0) snprintf(got, sizeof got, "unknown rank");
            for (int i = 0; i < t->rank && p + 24 < sizeof got; i++)
                p += (size_t)snprintf(got + p, sizeof got - p, "%s%lld", i ? "x" : "", (long long)t->dims[i].v);
            p = 0;
            for (int i = 0; i < rank && p + 24 < sizeof want; i++)
                p += (size_t)snprintf(want + p, sizeof want - p, "%s%lld", i ? "x" : "", (long long)dims[i]);
            snprintf(why, cap, "output %zu: got [%.400s] want [%.400s]", k, got, want);
            ok = 0;
        }
    }
    jc_analysis_free(a);
    jc_model_free(m);
    return ok;
}

static void walk(const char *suite)
{
    char dirp[512];
    snprintf(dirp, sizeof dirp, "%s/%s", ROOT, suite);
    DIR *dp = opendir(dirp);
    if (!dp) return;
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(dp))) {
        if (e->d_name[0] == '.') continue;
        char **nn = realloc(names, (n + 1) * sizeof *names);
        if (!nn) break;
        names = nn;
        names[n++] = strdup(e->d_name);
    }
    closedir(dp);
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        char dir[1024], mp[1100], name[1024], why[1024] = "";
        struct stat sb;
        snprintf(dir, sizeof dir, "%.500s/%.400s", dirp, names[i]);
        snprintf(mp, sizeof mp, "%.1000s/model.onnx", dir);
        if (stat(mp, &sb) != 0) {
            free(names[i]);
            continue;
        }
        snprintf(name, sizeof name, "%.100s/%.400s", suite, names[i]);
        int dd;
        int ok = check_model(dir, why, sizeof why, &dd);
        expect *x = find_expect(name);
        total++;
        if (dd) dd_tests++;
        if (ok) matched++;
        if (ok && !dd) matched_nondd++;
        if (strcmp(suite, "pytorch-operator") && !dd) {
            core_nondd++;
            core_matched_nondd += ok;
        }
        if (x) x->seen = 1;
        if (ok && x) {
            printf("FAIL backend/%s (unexpected pass: remove it from shape_expect.tsv)\n", name);
            check_failed_++;
        } else if (!ok && !x) {
            printf("FAIL backend/%s: %s\n", name, why);
            check_failed_++;
        } else {
            check_passed_++;
            printf("PASS backend/%s%s\n", name, ok ? "" : " (expected mismatch)");
            if (!ok && getenv("JC_BACKEND_VERBOSE"))
                printf("  expected mismatch %s%s: %s\n", name, dd ? " (data-dependent)" : "", why);
        }
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv)
{
    struct stat sb;
    if (stat(ROOT, &sb) != 0) {   /* the one skip policy (check.h): never a silent pass */
        printf("  %s is not installed (make deps installs libonnx-testdata)\nFAIL backend\n", ROOT);
        return 1;
    }
    load_expect(argc > 1 ? argv[1] : "tests/backend/shape_expect.tsv");
    walk("node");
    walk("pytorch-converted");
    walk("pytorch-operator");
    for (size_t i = 0; i < n_ex; i++)
        if (!ex[i].seen) {
            printf("FAIL backend/%s (listed in shape_expect.tsv but not in the suite)\n", ex[i].name);
            check_failed_++;
        }
    check_case("backend/no_unsupported_ops", unsupported_models != 0);
    int nondd = total - dd_tests;
    printf("backend shape match: %d of %d tests (%.2f%%); data-dependent excluded from the rate: %d\n", matched,
           total, nondd ? 100.0 * matched_nondd / nondd : 0.0, dd_tests);
    printf("node + pytorch-converted, not data-dependent: %d of %d match (%.2f%%)\n", core_matched_nondd,
           core_nondd, core_nondd ? 100.0 * core_matched_nondd / core_nondd : 0.0);
    /* the bar: at least 97% */
    check_case("backend/core_rate_at_least_97pct", core_nondd && core_matched_nondd * 100 < core_nondd * 97);
    free(ex);
    return check_summary();
}
