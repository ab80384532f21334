/*
 * test_backend_load.c - every model.onnx of ONNX's own backend test suite
 * (Debian's libonnx-testdata) must load without error, and load as
 * python3-onnx reads it: tests/backend/structure.tsv (written by
 * tools/backend_structure.py, checked against the installed suite by
 * tests/backend_structure.sh) gives each model's IR version, ai.onnx opset,
 * function count, main-graph node, input (non-initializer), output,
 * initializer and nested-subgraph counts and its op types with their
 * counts; the loaded jc_model must give the same line.  The folder is
 * walked (no hand-kept list); each model is one PASS/FAIL case; a model
 * the table lacks, a table row no model matched, a missing suite or one of
 * fewer than 1,000 models fails, so a broken install cannot pass silently.
 */
#define _XOPEN_SOURCE 700
#include "check.h"
#include "joulecast.h"

#include <ftw.h>
#include <stdlib.h>

#define BACKEND "/usr/share/libonnx-testdata/data"
#define TABLE "tests/backend/structure.tsv"

typedef struct row { char *line; int seen; } row;
static row *rows;
static size_t n_rows;
static int n_models;

/* Reads TABLE's data lines (each kept whole, without its newline). */
static int load_table(void)
{
    FILE *f = fopen(TABLE, "r");
    char line[8192];
    if (!f) return 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (line[0] == '#' || !line[0]) continue;
        row *nr = realloc(rows, (n_rows + 1) * sizeof *rows);
        if (!nr) break;
        rows = nr;
        rows[n_rows].line = strdup(line);
        rows[n_rows++].seen = 0;
    }
    fclose(f);
    return n_rows > 0;
}

/* The row whose first field is path, or NULL. */
static row *find_row(const char *path)
{
    size_t n = strlen(path);
    for (size_t i = 0; i < n_rows; i++)
        if (!strncmp(rows[i].line, path, n) && rows[i].line[n] == '\t') return &rows[i];
    return NULL;
}

static int cmp_op(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The table's line for a loaded model, into buf (the fields of
 * tools/backend_structure.py, in its order). */
static void describe(const jc_model *m, const char *path, char *buf, size_t cap)
{
    const jc_graph *g = m->graph;
    int k = snprintf(buf, cap, "%s\t%lld\t%lld\t%zu\t%zu\t%zu\t%zu\t%zu\t%zu\t", path,
                     (long long)m->ir_version, (long long)jc_model_opset(m, ""),
                     m->n_functions, g->n_nodes, g->n_inputs, g->n_outputs,
                     g->n_initializers, g->n_subgraphs_total);
    const char **ops = malloc((g->n_nodes + 1) * sizeof *ops);
    if (!ops || k < 0 || (size_t)k >= cap) { free(ops); return; }
    for (size_t i = 0; i < g->n_nodes; i++) ops[i] = g->nodes[i].op_type;
    qsort(ops, g->n_nodes, sizeof *ops, cmp_op);
    size_t used = (size_t)k;
    for (size_t i = 0; i < g->n_nodes && used < cap; ) {
        size_t j = i;
        while (j < g->n_nodes && !strcmp(ops[j], ops[i])) j++;
        used += (size_t)snprintf(buf + used, cap - used, "%s%s:%zu", i ? "," : "", ops[i], j - i);
        i = j;
    }
    if (!g->n_nodes) snprintf(buf + used, cap - used, "-");
    free(ops);
}

static int visit(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
    (void)sb;
    if (type != FTW_F) return 0;
    const char *base = path + ftw->base;
    if (strcmp(base, "model.onnx") != 0) return 0;
    n_models++;
    const char *rel = path + strlen(BACKEND) + 1;
    jc_model *m;
    jc_diag d;
    jc_status st = jc_model_load(path, &m, &d);
    char name[600];
    snprintf(name, sizeof name, "load %s", rel);
    int bad = st != JC_OK;
    if (st) printf("  %s\n", d.msg);
    row *r = find_row(rel);
    if (!r) {
        printf("  %s is not in %s (rerun tools/backend_structure.py)\n", rel, TABLE);
        bad = 1;
    } else if (!st) {
        static char got[8192];
        r->seen = 1;
        describe(m, rel, got, sizeof got);
        if (strcmp(got, r->line)) {
            printf("  loaded:  %s\n  python3-onnx: %s\n", got, r->line);
            bad = 1;
        }
    }
    check_case(name, bad);
    jc_model_free(m);
    return 0;
}

int main(void)
{
    if (!load_table()) {
        printf("  cannot read %s (run from the repository root)\n", TABLE);
        check_case("backend structure table present", 1);
        return 1;
    }
    if (nftw(BACKEND, visit, 16, FTW_PHYS) != 0) {
        printf("  cannot walk %s (is libonnx-testdata installed?)\n", BACKEND);
        check_case("backend suite present", 1);
        return 1;
    }
    printf("  %d backend models\n", n_models);
    check_case("backend suite holds >= 1000 models", n_models < 1000);
    int unseen = 0;
    for (size_t i = 0; i < n_rows; i++) {
        if (!rows[i].seen) { unseen++; printf("  table row matched no loaded model: %.200s\n", rows[i].line); }
        free(rows[i].line);
    }
    free(rows);
    check_case("every table row is a model of the suite", unseen > 0);
    return check_summary();
}
