/*
 * jobfile.c (job) - reads a job file (the YAML form of `joulecast estimate`'s
 * options, docs/job-file.md) into located key/value pairs.  The YAML is
 * parsed by the shared located reader (hw_parse_file in src/base/yaml.c, the one
 * libyaml user), so job files get the same limits and the same
 * file:line:column errors as the database.
 */
#include "base/yaml_tree.h"
#include "joulecast/estimate.h"

#include <stdlib.h>
#include <string.h>

typedef struct kvbuild {
    jc_jobfile *jf;
    size_t cap;
    jci_arena *a;
} kvbuild;

/* Appends the pair (key k, value v at line:col), locating the key too. */
static int push(kvbuild *b, const hnode *k, const char *v, int line, int col)
{
    jc_jobfile *jf = b->jf;
    if (jf->n == b->cap) {
        size_t nc = b->cap ? b->cap * 2 : 16;
        const char **nk = jci_arena_calloc(b->a, nc, sizeof *nk);
        const char **nv = jci_arena_calloc(b->a, nc, sizeof *nv);
        int *pos[4];
        for (int i = 0; i < 4; i++) pos[i] = jci_arena_calloc(b->a, nc, sizeof(int));
        if (!nk || !nv || !pos[0] || !pos[1] || !pos[2] || !pos[3]) return -1;
        int **old[4] = {&jf->lines, &jf->cols, &jf->key_lines, &jf->key_cols};
        if (jf->n) {
            memcpy(nk, jf->keys, jf->n * sizeof *nk);
            memcpy(nv, jf->values, jf->n * sizeof *nv);
            for (int i = 0; i < 4; i++) memcpy(pos[i], *old[i], jf->n * sizeof(int));
        }
        jf->keys = nk; jf->values = nv;
        for (int i = 0; i < 4; i++) *old[i] = pos[i];
        b->cap = nc;
    }
    jf->keys[jf->n] = k->s;
    jf->values[jf->n] = v;
    jf->lines[jf->n] = line;
    jf->cols[jf->n] = col;
    jf->key_lines[jf->n] = k->line;
    jf->key_cols[jf->n] = k->col;
    jf->n++;
    return 0;
}

jc_status jc_jobfile_load(const char *path, jc_jobfile **out, jc_diag *d)
{
    if (!path || !out) return jci_diag_set(d, JC_ERR_USAGE, "jc_jobfile_load: NULL argument");
    *out = NULL;
    jci_diag_clear(d);
    jci_arena *a = jci_arena_new(), *scratch = jci_arena_new();
    jc_status st = JC_OK;
    if (!a || !scratch) { st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto out; }
    jc_jobfile *jf = jci_arena_alloc(a, sizeof *jf);
    hw_file *hf = jci_arena_alloc(a, sizeof *hf);
    if (!jf || !hf) { st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto out; }
    jf->internal_ = a;   /* the arena that holds it all */
    hf->job = 1;   /* errors: JC_ERR_USAGE (exit 2), job-file wording */
    jf->path = hf->path = jci_arena_strdup(a, path);
    if (!jf->path) { st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto out; }
    hnode *root = NULL;
    if ((st = hw_parse_file(scratch, a, hf, &root, d))) goto out;
    if (!root || root->kind != HN_MAP) {
        st = jci_diag_yaml(d, JC_ERR_USAGE, path, root ? root->line : 1, root ? root->col : 1,
                          "a job file is a mapping of option names to values (docs/job-file.md)");
        goto out;
    }
    kvbuild b = {jf, 0, a};
    for (size_t i = 0; i < root->n; i++) {
        const hnode *k = root->keys[i], *v = root->vals[i];
        if (v->kind == HN_SCALAR) {
            if (push(&b, k, v->s, v->line, v->col)) goto oom;
        } else if (v->kind == HN_SEQ) {
            for (size_t j = 0; j < v->n; j++) {
                const hnode *it = v->vals[j];
                if (it->kind != HN_SCALAR) {
                    st = jci_diag_yaml(d, JC_ERR_USAGE, path, it->line, it->col,
                                      "'%s': expected a list of plain values", k->s);
                    goto out;
                }
                if (push(&b, k, it->s, it->line, it->col)) goto oom;
            }
        } else {
            for (size_t j = 0; j < v->n; j++) {
                const hnode *mk = v->keys[j], *mv = v->vals[j];
                if (mv->kind != HN_SCALAR) {
                    st = jci_diag_yaml(d, JC_ERR_USAGE, path, mv->line, mv->col,
                                      "'%s.%s': expected a plain value", k->s, mk->s);
                    goto out;
                }
                size_t n = strlen(mk->s) + strlen(mv->s) + 2;
                char *kv = jci_arena_alloc(a, n);
                if (!kv) goto oom;
                snprintf(kv, n, "%s=%s", mk->s, mv->s);
                if (push(&b, k, kv, mv->line, mv->col)) goto oom;
            }
        }
    }
    *out = jf;
    jci_arena_free(scratch);
    return JC_OK;
oom:
    st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
out:
    jci_arena_free(scratch);
    jci_arena_free(a);
    return st;
}

void jc_jobfile_free(jc_jobfile *jf)
{
    if (jf) jci_arena_free(jf->internal_);
}
