/*
 * reqset.c (job) - the one key->field setter of the request's keys and the
 * one job-file layering, shared by the CLI (src/cli/jobopts.c,
 * src/cli/cmd_count.c) and the bindings (src/bind/bind.c): which field a
 * key sets, how its value is checked (src/job/reqparse.c's grammar,
 * jc_job_set's bounds), which keys repeat, when two pairs clash, and how a
 * job file's pairs go beneath the caller's.  Contracts: src/job/reqset.h.
 */
#include "job/reqset.h"
#include "base/jc_internal.h"
#include "joulecast/analysis.h"

#include <stdlib.h>
#include <string.h>

#define RS_MAX_RANK 64   /* dims of one input binding */

void jci_reqset_init(jci_reqset *r, jc_job *job)
{
    memset(r, 0, sizeof *r);
    r->job = job;
    r->arena = jci_arena_new();
}

void jci_reqset_free(jci_reqset *r)
{
    jci_arena_free(r->arena);
    r->arena = NULL;
}

static jc_status nomem(jc_diag *d)
{
    return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
}

/* Room for one more entry in every array (they share one capacity). */
static jc_status grow(jci_reqset *r, jc_diag *d)
{
    size_t need = r->n_layers;
    if (r->n_dims > need) need = r->n_dims;
    if (r->n_inputs > need) need = r->n_inputs;
    if (r->n_assume > need) need = r->n_assume;
    if (r->n_values > need) need = r->n_values;
    if (need < r->cap) return JC_OK;
    size_t cap = r->cap ? 2 * r->cap : 16;
    jci_arena *a = r->arena;
    const char **l = jci_arena_calloc(a, cap, sizeof *l);
    jc_dim_binding *dm = jci_arena_calloc(a, cap, sizeof *dm), *as = jci_arena_calloc(a, cap, sizeof *as);
    jc_input_binding *in = jci_arena_calloc(a, cap, sizeof *in);
    jc_value_binding *va = jci_arena_calloc(a, cap, sizeof *va);
    unsigned char *du = jci_arena_calloc(a, cap, 1), *iu = jci_arena_calloc(a, cap, 1);
    if (!l || !dm || !as || !in || !va || !du || !iu) return nomem(d);
    if (r->cap) {
        memcpy(l, r->layers, r->n_layers * sizeof *l);
        memcpy(dm, r->dims, r->n_dims * sizeof *dm);
        memcpy(as, r->assume, r->n_assume * sizeof *as);
        memcpy(in, r->inputs, r->n_inputs * sizeof *in);
        memcpy(va, r->values, r->n_values * sizeof *va);
        memcpy(du, r->dim_under, r->n_dims);
        memcpy(iu, r->input_under, r->n_inputs);
    }
    r->layers = l;
    r->dims = dm;
    r->assume = as;
    r->inputs = in;
    r->values = va;
    r->dim_under = du;
    r->input_under = iu;
    r->cap = cap;
    return JC_OK;
}

/* A file name: not empty (a job file's 'model:' with no value names
 * nothing). */
static jc_status file_name(const char *key, const char *val, const char **out, jc_diag *d)
{
    if (!val || !*val) return jci_diag_set(d, JC_ERR_USAGE, "%s expects a file name, got nothing", key);
    *out = val;
    return JC_OK;
}

/* The layering of repeated bindings: a caller's binding of NAME removes a
 * job file's binding of NAME; a file's binding of a NAME the caller bound
 * already is skipped (1).  names are the binding names, under their flags. */
static int layer_binding(const char *val, void *arr, size_t sz, unsigned char *under, size_t *n,
                         const char *(*name_at)(const void *, size_t), int r_under)
{
    const char *eq = val ? strchr(val, '=') : NULL;
    size_t l = eq ? (size_t)(eq - val) : 0;
    if (!l) return 0;
    char *a = arr;
    for (size_t i = 0; i < *n; i++) {
        const char *nm = name_at(arr, i);
        if (!nm || strlen(nm) != l || strncmp(nm, val, l)) continue;
        if (r_under && !under[i]) return 1;
        if (r_under || !under[i]) continue;
        memmove(a + i * sz, a + (i + 1) * sz, (*n - i - 1) * sz);
        memmove(under + i, under + i + 1, *n - i - 1);
        under[--*n] = 0;
        i--;
    }
    return 0;
}

static const char *dim_name(const void *arr, size_t i)
{
    return ((const jc_dim_binding *)arr)[i].name;
}

static const char *input_name(const void *arr, size_t i)
{
    return ((const jc_input_binding *)arr)[i].name;
}

/* NAME=V with V >= lo (jc_parse_binding) appended to b[*n]. */
static jc_status set_binding(jci_reqset *r, const char *key, const char *val, int64_t lo, jc_dim_binding *b,
                             size_t *n, jc_diag *d)
{
    size_t nl;
    jc_status st = jc_parse_binding(key, val, lo, &nl, &b[*n].value, d);
    if (st) return st;
    if (!(b[*n].name = jci_arena_strndup(r->arena, val, nl))) return nomem(d);
    ++*n;
    return JC_OK;
}

static jc_status set_dim(jci_reqset *r, const char *key, const char *val, jc_diag *d)
{
    if (layer_binding(val, r->dims, sizeof *r->dims, r->dim_under, &r->n_dims, dim_name, r->under)) return JC_OK;
    r->dim_under[r->n_dims] = (unsigned char)r->under;
    return set_binding(r, key, val, 1, r->dims, &r->n_dims, d);
}

/* NAME=AxBxC (jc_parse_shape_binding). */
static jc_status set_input(jci_reqset *r, const char *key, const char *val, jc_diag *d)
{
    if (layer_binding(val, r->inputs, sizeof *r->inputs, r->input_under, &r->n_inputs, input_name, r->under))
        return JC_OK;
    jc_input_binding *b = &r->inputs[r->n_inputs];
    int64_t *dims = jci_arena_calloc(r->arena, RS_MAX_RANK, sizeof *dims);
    if (!dims) return nomem(d);
    size_t nl;
    jc_status st = jc_parse_shape_binding(key, val, dims, RS_MAX_RANK, &b->rank, &nl, d);
    if (st) return st;
    if (!(b->name = jci_arena_strndup(r->arena, val, nl))) return nomem(d);
    b->dims = dims;
    r->input_under[r->n_inputs++] = (unsigned char)r->under;
    return JC_OK;
}

/* NAME=v1,v2,... (jc_parse_values_binding; "NAME=" binds an empty
 * tensor), at most JC_VALUE_BINDING_MAX values. */
static jc_status set_values(jci_reqset *r, const char *key, const char *val, jc_diag *d)
{
    size_t n = jc_parse_values_count(val), nl;
    if (n > JC_VALUE_BINDING_MAX) n = JC_VALUE_BINDING_MAX;
    int64_t *iv = jci_arena_calloc(r->arena, n ? n : 1, sizeof *iv);
    double *fv = jci_arena_calloc(r->arena, n ? n : 1, sizeof *fv);
    if (!iv || !fv) return nomem(d);
    jc_status st = jc_parse_values_binding(key, val, iv, fv, JC_VALUE_BINDING_MAX, &n, &nl, d);
    if (st) return st;
    jc_value_binding *b = &r->values[r->n_values];
    if (!(b->name = jci_arena_strndup(r->arena, val, nl))) return nomem(d);
    b->n = (int64_t)n;
    b->ivals = iv;
    b->fvals = fv;
    r->n_values++;
    return JC_OK;
}

static jc_status set_flag(jci_reqset *r, const char *key, const char *val, jc_diag *d)
{
    int on = 1;
    jc_status st = jc_parse_flag(key, val, &on, d);
    if (st) return st;
    if (!strcmp(key, "hash-weights")) {
        r->hash_weights = on;
    } else if (!strcmp(key, "strict")) {
        r->strict = on;
        if (on) r->allow_partial = 0;
    } else {
        r->allow_partial = on;
    }
    return JC_OK;
}

jc_status jci_reqset_set(jci_reqset *r, const char *key, const char *val, jc_diag *d)
{
    if (!r->arena) return nomem(d);
    if (!key) return jci_diag_set(d, JC_ERR_NOTFOUND, "(null): no such key");
    if (grow(r, d)) return JC_ERR_NOMEM;
    if (!strcmp(key, "model")) return file_name(key, val, &r->model, d);
    if (!strcmp(key, "op-rules")) return file_name(key, val, &r->op_rules, d);
    if (!strcmp(key, "hwdb-snapshot")) return file_name(key, val, &r->snapshot, d);
    if (!strcmp(key, "hwdb")) {   /* a job file's layers beneath the caller's */
        const char *p = NULL;
        jc_status st = file_name(key, val, &p, d);
        if (st) return st;
        size_t at = r->under ? r->n_layers_under++ : r->n_layers;
        memmove(&r->layers[at + 1], &r->layers[at], (r->n_layers++ - at) * sizeof *r->layers);
        r->layers[at] = p;
        return JC_OK;
    }
    if (!strcmp(key, "dim")) return set_dim(r, key, val, d);
    if (!strcmp(key, "assume")) return set_binding(r, key, val, 0, r->assume, &r->n_assume, d);
    if (!strcmp(key, "input")) return set_input(r, key, val, d);
    if (!strcmp(key, "input-value")) return set_values(r, key, val, d);
    if (!strcmp(key, "convention")) {
        if (!val || jc_convention_parse(val, &r->convention))
            return jci_diag_set(d, JC_ERR_USAGE, "convention expects joulecast, torchvision, flops2x, fvcore or "
                                "onnx-tool, got '%s'", val ? val : "");
        return JC_OK;
    }
    if (!strcmp(key, "strict") || !strcmp(key, "allow-partial") || !strcmp(key, "hash-weights"))
        return set_flag(r, key, val, d);
    return jc_job_set(r->job, key, val, d);
}

void jci_reqset_request(const jci_reqset *r, jc_request *rq)
{
    jc_request_init(rq);
    rq->job = r->job;
    rq->model = r->model;
    rq->dims = r->dims;
    rq->n_dims = r->n_dims;
    rq->inputs = r->inputs;
    rq->n_inputs = r->n_inputs;
    rq->assume = r->assume;
    rq->n_assume = r->n_assume;
    rq->values = r->values;
    rq->n_values = r->n_values;
    rq->op_rules = r->op_rules;
    rq->convention = r->convention;
    rq->allow_partial = r->allow_partial;
    rq->hash_weights = r->hash_weights;
}

int jci_key_repeatable(const char *key)
{
    static const char *const rep[] = {"dim", "input", "hwdb", "assume", "input-value"};
    for (size_t i = 0; key && i < sizeof rep / sizeof rep[0]; i++)
        if (!strcmp(key, rep[i])) return 1;
    return 0;
}

int jci_key_is_flag(const char *key)
{
    size_t n;
    const jc_job_key *t = jc_job_keys(&n);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(t[i].name, key)) return t[i].arg == NULL;
    return !strcmp(key, "strict") || !strcmp(key, "allow-partial") || !strcmp(key, "hash-weights");
}

const char *jci_key_mode(const char *key, const char *val)
{
    static const char *const flags[][2] = {{"train", "training"}, {"infer", "inference"}, {"generate", "generation"}};
    for (size_t i = 0; !strcmp(key, "mode") && i < 3; i++)   /* the mode's short names too */
        if (val && (!strcmp(val, flags[i][0]) || !strcmp(val, flags[i][1]))) return flags[i][1];
    if (!strcmp(key, "mode")) return val ? val : "";
    for (size_t i = 0; i < 3; i++)
        if (!strcmp(key, flags[i][0])) {
            int on = 1;
            return jc_parse_flag(key, val, &on, NULL) || on ? flags[i][1] : NULL;
        }
    return NULL;
}

long jci_pairs_clash(const char *const *keys, const char *const *values, size_t lo, size_t i, int *mode)
{
    const char *k = keys[i], *v = values[i] ? values[i] : "";
    *mode = 0;
    if (!k || jci_key_repeatable(k)) return -1;
    const char *ck = jc_job_key_canonical(k), *mk = jci_key_mode(k, values[i]);
    for (size_t j = lo; j < i; j++) {
        if (!keys[j]) continue;
        const char *mj = jci_key_mode(keys[j], values[j]);
        if (mk || mj || (ck && !strcmp(ck, "mode"))) {
            if (mk && mj && strcmp(mk, mj)) {
                *mode = 1;
                return (long)j;
            }
            continue;
        }
        const char *cj = jc_job_key_canonical(keys[j]);
        int same = !strcmp(keys[j], k) || (ck && cj && !strcmp(ck, cj));
        if (same && strcmp(values[j] ? values[j] : "", v)) return (long)j;
    }
    return -1;
}

jc_status jci_jobfile_pairs(jci_arena *a, const jc_jobfile *jf, const char *const *keys,
                            const char *const *values, size_t n, const char *skip, const char ***ok,
                            const char ***ov, size_t *on, jc_diag *d)
{
    const char **k2 = jci_arena_calloc(a, jf->n + n + 1, sizeof *k2);
    const char **v2 = jci_arena_calloc(a, jf->n + n + 1, sizeof *v2);
    if (!k2 || !v2) return nomem(d);
    for (size_t i = 0; i < jf->n; i++) {
        const char *v = jf->values[i];
        k2[i] = jf->keys[i];
        /* a path read from the file's folder (jc_jobfile_path) */
        size_t len = strlen(jf->path) + 1 + (v ? strlen(v) : 0) + 1;
        char *p = jci_arena_alloc(a, len);
        if (!p) return nomem(d);
        v2[i] = jc_jobfile_path(jf->path, jf->keys[i], v, p, len);
    }
    size_t m = jf->n;
    for (size_t i = 0; i < n; i++) {
        if (skip && keys[i] && !strcmp(keys[i], skip)) continue;
        k2[m] = keys[i];
        v2[m++] = values[i];
    }
    *ok = k2;
    *ov = v2;
    *on = m;
    return JC_OK;
}
