/*
 * decoder.c (workflows) - an ONNX decoder export (past key/value inputs, as torch and
 * optimum write them) as an architecture for the serving model
 * (jc_arch_load_onnx, joulecast.h): finds or is told the prompt and past
 * dims, counts the graph through the request path (jc_request_analyze) at
 * the dims of a prefill and of decode steps, and reads the KV cache per
 * token from the past inputs' shapes and dtypes and the weights from the
 * initializers.  src/estimate/serving.c turns the counts into time and
 * energy exactly as it does for a Hugging Face config.
 */
#include "base/jc_internal.h"
#include "joulecast/model.h"
#include "joulecast/analysis.h"
#include "joulecast/job.h"
#include "joulecast/estimate.h"
#include "joulecast/serving.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct dctx {
    const jc_request *rq;
    const jc_model *m;
    const jc_graph *g;
    const char *path;
    jci_arena *ar;
    jc_arch *a;
    jc_arch_counted *k;
    jc_diag *d;
    const char *batch_sym;
    int32_t tok;               /* the token input (input_ids / inputs_embeds), -1 */
    int32_t mask;              /* the attention-mask input's value, -1 */
} dctx;

static int starts(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

static const jc_value *input(const dctx *c, size_t i) { return &c->g->values[c->g->inputs[i]]; }

static int has_sym(const jc_value *v, const char *sym)
{
    for (int k = 0; k < v->rank; k++)
        if (v->dims[k].v < 0 && v->dims[k].sym && !strcmp(v->dims[k].sym, sym)) return 1;
    return 0;
}

static int is_past_name(const char *n) { return starts(n, "past_key_values") || starts(n, "past_"); }

/* "input_ids [batch, sequence], past_key_values.0.key [batch, 4, past, 16], ..." */
static const char *inputs_words(dctx *c)
{
    char buf[900];
    size_t k = 0;
    buf[0] = 0;
    for (size_t i = 0; i < c->g->n_inputs && k + 80 < sizeof buf; i++) {
        const jc_value *v = input(c, i);
        k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%s [", i ? ", " : "", v->name);
        for (int q = 0; q < v->rank && k + 40 < sizeof buf; q++) {
            if (v->dims[q].v >= 0) k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%lld", q ? ", " : "", (long long)v->dims[q].v);
            else k += (size_t)snprintf(buf + k, sizeof buf - k, "%s%.30s", q ? ", " : "", v->dims[q].sym ? v->dims[q].sym : "?");
        }
        k += (size_t)snprintf(buf + k, sizeof buf - k, "]");
    }
    if (k + 80 >= sizeof buf) snprintf(buf + sizeof buf - 5, 5, "...");
    const char *r = jci_arena_strdup(c->ar, buf);
    return r ? r : "";
}

/* A --prompt-dim / --past-dim: the model must have it on one of its
 * inputs; *dim and *how are set from it. */
static jc_status named_dim(dctx *c, const char *opt, const char *sym, const char **dim, const char **how)
{
    for (size_t i = 0; i < c->g->n_inputs; i++)
        if (has_sym(input(c, i), sym)) {
            *dim = sym;
            *how = opt;
            return JC_OK;
        }
    return jci_diag_set(c->d, JC_ERR_NOTFOUND, "%s: %s %s: no input of the model has a dim named '%s' (inputs: %s)",
                        c->path, opt, sym, sym, inputs_words(c));
}

/* The prompt dim: --prompt-dim, else the sequence dim (dim 1) of
 * input_ids or inputs_embeds. */
static jc_status find_prompt(dctx *c)
{
    const jc_job *j = c->rq->job;
    c->tok = -1;
    for (size_t i = 0; i < c->g->n_inputs && c->tok < 0; i++)
        if (!strcmp(input(c, i)->name, "input_ids") || !strcmp(input(c, i)->name, "inputs_embeds"))
            c->tok = (int32_t)i;
    /* other names: with --prompt-dim, the first input whose dim 1 it is */
    for (size_t i = 0; i < c->g->n_inputs && c->tok < 0 && j->prompt_dim; i++) {
        const jc_value *v = input(c, i);
        if (v->rank >= 2 && v->dims[1].v < 0 && v->dims[1].sym && !strcmp(v->dims[1].sym, j->prompt_dim))
            c->tok = (int32_t)i;
    }
    const jc_value *t = c->tok >= 0 ? input(c, (size_t)c->tok) : NULL;
    if (t && t->rank >= 1 && t->dims[0].v < 0) c->batch_sym = t->dims[0].sym;
    if (j->prompt_dim) return named_dim(c, "--prompt-dim", j->prompt_dim, &c->k->prompt_dim, &c->k->prompt_how);
    if (!t || t->rank < 2 || t->dims[1].v >= 0 || !t->dims[1].sym)
        return jci_diag_set(c->d, JC_ERR_USAGE, "%s: cannot find the prompt dim of this decoder: no input named input_ids "
                            "or inputs_embeds with a symbolic sequence dim (dim 1) (inputs: %s); name it with "
                            "--prompt-dim NAME (and the cache's with --past-dim NAME)", c->path, inputs_words(c));
    c->k->prompt_dim = t->dims[1].sym;
    c->k->prompt_how = jci_arena_strdup(c->ar, t->name);
    return JC_OK;
}

/* The past dim: --past-dim, else the one symbolic dim other than the
 * batch of the inputs named past_key_values* / past_*. */
static jc_status find_past(dctx *c)
{
    const jc_job *j = c->rq->job;
    if (j->past_dim) return named_dim(c, "--past-dim", j->past_dim, &c->k->past_dim, &c->k->past_how);
    const char *sym = NULL, *first = NULL;
    for (size_t i = 0; i < c->g->n_inputs; i++) {
        const jc_value *v = input(c, i);
        if (!is_past_name(v->name)) continue;
        for (int q = 1; q < v->rank; q++) {
            const char *s = v->dims[q].v < 0 ? v->dims[q].sym : NULL;
            if (!s || (c->batch_sym && !strcmp(s, c->batch_sym))) continue;
            if (sym && strcmp(sym, s))
                return jci_diag_set(c->d, JC_ERR_USAGE, "%s: the past inputs name two different dims ('%s' on %s, "
                                    "'%s' on %s): say which is the cached context with --past-dim NAME",
                                    c->path, sym, first, s, v->name);
            if (!sym) first = v->name;
            sym = s;
        }
    }
    if (!sym)
        return jci_diag_set(c->d, JC_ERR_USAGE, "%s: cannot find the past (KV-cache) dim of this decoder: no input named "
                            "past_key_values* or past_* with a symbolic dim (inputs: %s); export it with its cache "
                            "(use_cache, past_key_values as inputs) or name the dim with --past-dim NAME",
                            c->path, inputs_words(c));
    c->k->past_dim = sym;
    c->k->past_how = jci_arena_strdup(c->ar, first);
    return JC_OK;
}

/* The KV cache: every input with the past dim (past inputs, not the
 * attention mask): elements per token of context, dtype, heads, size. */
static jc_status read_cache(dctx *c)
{
    jc_arch_counted *k = c->k;
    int64_t heads = 0, hd = 0;
    double per = -1;
    for (size_t i = 0; i < c->g->n_inputs; i++) {
        const jc_value *v = input(c, i);
        if (!has_sym(v, k->past_dim) || (int32_t)i == c->tok || c->g->inputs[i] == c->mask) continue;
        double e = 1;
        int q_past = -1;
        for (int q = 0; q < v->rank; q++) {
            if (v->dims[q].v < 0 && v->dims[q].sym && !strcmp(v->dims[q].sym, k->past_dim)) { q_past = q; continue; }
            if (q == 0) continue;   /* the batch */
            if (v->dims[q].v < 0)
                return jci_diag_set(c->d, JC_ERR_MODEL, "%s: past input '%s': dim %d is not a number, so the KV "
                                    "cache per token is not known (bind it with --dim or export it fixed)",
                                    c->path, v->name, q);
            e *= (double)v->dims[q].v;
        }
        if (per >= 0 && e != per)
            return jci_diag_set(c->d, JC_ERR_MODEL, "%s: past input '%s' holds %g elements per token, another %g: "
                                "past inputs of different shapes are not supported", c->path, v->name, e, per);
        per = e;
        int bits = jc_dtype_bits(v->dtype);
        if (bits < 8 || (v->dtype != JC_DT_FLOAT && v->dtype != JC_DT_FLOAT16 && v->dtype != JC_DT_BFLOAT16))
            return jci_diag_set(c->d, JC_ERR_MODEL, "%s: past input '%s' is %s: a KV cache of float32, float16 or "
                                "bfloat16 is expected", c->path, v->name, jc_dtype_name(v->dtype));
        k->kv_dtype = v->dtype == JC_DT_FLOAT ? "fp32" : v->dtype == JC_DT_FLOAT16 ? "fp16" : "bf16";
        k->kv_dtype_bytes = bits / 8;
        k->kv_elems_per_token += e;
        k->n_past++;
        if (v->rank == 4 && q_past == 2) {
            heads = v->dims[1].v;
            hd = v->dims[3].v;
        }
    }
    if (k->n_past < 2 || k->n_past % 2)
        return jci_diag_set(c->d, JC_ERR_MODEL, "%s: %zu inputs carry the past dim '%s': a key and a value per layer "
                            "(an even number, at least 2) are expected", c->path, k->n_past, k->past_dim);
    jc_arch *a = c->a;
    a->n_layers = (int64_t)(k->n_past / 2);
    /* [batch, kv_heads, past, head_dim] (torch / optimum); another layout:
     * one head of the whole per-token size */
    a->kv_heads = heads > 0 ? heads : 1;
    a->head_dim = heads > 0 ? hd : (int64_t)per;
    a->heads = a->kv_heads;
    return JC_OK;
}

/* Initializers: floating-point elements, their dtype; the hidden size
 * from the table the token input gathers from. */
static void read_weights(dctx *c)
{
    jc_arch_counted *k = c->k;
    double by_dt[32] = {0};
    for (size_t i = 0; i < c->g->n_initializers; i++) {
        const jc_value *v = &c->g->values[c->g->initializers[i]];
        int dt = v->dtype;
        if (dt != JC_DT_FLOAT && dt != JC_DT_FLOAT16 && dt != JC_DT_BFLOAT16 && dt != JC_DT_DOUBLE) continue;
        double e = 1;
        for (int q = 0; q < v->rank; q++) e *= v->dims[q].v >= 0 ? (double)v->dims[q].v : 0;
        k->params += e;
        by_dt[dt] += e;
    }
    int best = JC_DT_FLOAT;
    for (int dt = 0; dt < 32; dt++) if (by_dt[dt] > by_dt[best]) best = dt;
    k->weight_dtype = best == JC_DT_FLOAT16 ? "fp16" : best == JC_DT_BFLOAT16 ? "bf16" : "fp32";
    k->weight_dtype_bytes = jc_dtype_bits(best) / 8;
    if (c->tok < 0) return;
    int32_t tv = c->g->inputs[c->tok];
    const jc_value *t = &c->g->values[tv];
    if (!strcmp(t->name, "inputs_embeds") && t->rank == 3 && t->dims[2].v > 0) c->a->hidden = t->dims[2].v;
    for (size_t i = 0; i < c->g->n_nodes && !c->a->hidden; i++) {
        const jc_node *n = &c->g->nodes[i];
        if (strcmp(n->op_type, "Gather") || n->n_inputs < 2 || n->inputs[1] != tv || n->inputs[0] < 0) continue;
        const jc_value *w = &c->g->values[n->inputs[0]];
        if (w->kind == JC_V_INITIALIZER && w->rank == 2 && w->dims[1].v > 0) {
            c->a->hidden = w->dims[1].v;
            c->a->vocab = w->dims[0].v;
        }
    }
}

/* The counted nodes of a decode-step analysis, copied into the arena. */
static jc_status keep_nodes(dctx *c, const jc_analysis *an, double ctx)
{
    jc_arch_counted_node *v = jci_arena_calloc(c->ar, an->n_nodes ? an->n_nodes : 1, sizeof *v);
    if (!v) return jci_diag_set(c->d, JC_ERR_NOMEM, "out of memory");
    size_t m = 0;
    for (size_t i = 0; i < an->n_nodes; i++) {
        const jc_counted_node *n = &an->nodes[i];
        const jc_node_cost *k = &n->cost;
        double r = (double)k->repeat;
        if (!n->counted || (!k->flops && !k->weight_bytes_read && !k->bytes_read && !k->bytes_written)) continue;
        v[m].name = jci_arena_strdup(c->ar, n->name);
        v[m].op = jci_arena_strdup(c->ar, n->op);
        if (!v[m].name || !v[m].op) return jci_diag_set(c->d, JC_ERR_NOMEM, "out of memory");
        v[m].flops = (double)k->flops * r;
        v[m].weight_bytes = (double)k->weight_bytes_read * r;
        v[m].act_bytes = (double)(k->bytes_read + k->bytes_written) * r;
        m++;
    }
    c->k->nodes = v;
    c->k->n_nodes = m;
    c->k->nodes_ctx = ctx;
    return JC_OK;
}

/* One count at batch 1: the prompt dim = s, the past dim = p; with
 * keep, the nodes are kept (keep_nodes). */
static jc_status count_at(dctx *c, double s, double p, int keep, jc_totals *t)
{
    const jc_request *rq = c->rq;
    jc_dim_binding *dims = calloc(rq->n_dims + 3, sizeof *dims);
    if (!dims) return jci_diag_set(c->d, JC_ERR_NOMEM, "out of memory");
    if (rq->n_dims) memcpy(dims, rq->dims, rq->n_dims * sizeof *dims);
    size_t n = rq->n_dims;
    dims[n].name = c->k->prompt_dim;
    dims[n++].value = (int64_t)s;
    dims[n].name = c->k->past_dim;
    dims[n++].value = (int64_t)p;
    if (c->k->total_dim) {
        dims[n].name = c->k->total_dim;
        dims[n++].value = (int64_t)(s + p);
    }
    jc_job jj = *rq->job;
    jj.batch = NAN;
    jj.seq = NAN;
    jc_request r = *rq;
    r.job = &jj;
    r.dims = dims;
    r.n_dims = n;
    jc_analysis *an = NULL;
    jc_status st = jc_request_analyze(&r, c->m, 1, &an, NULL, c->d);
    free(dims);
    if (st) return st;
    *t = an->totals;
    if (keep) st = keep_nodes(c, an, p);
    jc_analysis_free(an);
    return st;
}

/* The attention mask [batch, total] (the input attention_mask, else the
 * first rank-2 input whose name holds "mask"): its dim 1, when neither
 * prompt nor past, is bound to their sum. */
static jc_status find_total(dctx *c)
{
    c->mask = jc_graph_find(c->g, "attention_mask");
    if (c->mask >= 0 && c->g->values[c->mask].kind != JC_V_INPUT) c->mask = -1;
    for (size_t i = 0; i < c->g->n_inputs && c->mask < 0; i++)
        if (input(c, i)->rank == 2 && strstr(input(c, i)->name, "mask")) c->mask = c->g->inputs[i];
    const jc_value *v = c->mask >= 0 ? &c->g->values[c->mask] : NULL;
    if (v && v->rank == 2 && v->dims[1].v < 0 && v->dims[1].sym && strcmp(v->dims[1].sym, c->k->prompt_dim) &&
        strcmp(v->dims[1].sym, c->k->past_dim))
        c->k->total_dim = v->dims[1].sym;
    /* the user's --dim must not fight the serving model's bindings */
    const char *own[] = {c->k->prompt_dim, c->k->past_dim, c->k->total_dim};
    for (size_t i = 0; i < c->rq->n_dims; i++)
        for (int q = 0; q < 3; q++)
            if (own[q] && !strcmp(c->rq->dims[i].name, own[q]))
                return jci_diag_set(c->d, JC_ERR_USAGE, "%s: --dim %s: the serving model binds '%s' itself (prompt "
                                    "tokens, context per step): drop the --dim", c->path, own[q], own[q]);
    return JC_OK;
}

/* Prefill at P with an empty cache; decode steps at P and P + O - 1 (and
 * the midpoint, to check the line). */
static jc_status count_all(dctx *c)
{
    jc_arch_counted *k = c->k;
    const jc_job *j = c->rq->job;
    double P = j->prompt_tokens, O = j->output_tokens;
    jc_status st;   /* their limits (job_keys.def), then what the decoder needs */
    if ((st = jc_job_check_value("prompt-tokens", NULL, P, c->d)) ||
        (st = jc_job_check_value("output-tokens", NULL, O, c->d)))
        return st;
    if (isnan(P) || P < 1 || P != floor(P))
        return jci_diag_set(c->d, JC_ERR_USAGE, "estimate --generate: needs --prompt-tokens P (a whole number >= 1) to "
                            "count the decoder's prefill");
    if (isnan(O) || O < 1)
        return jci_diag_set(c->d, JC_ERR_USAGE, "estimate --generate: needs --output-tokens O (mean output tokens per "
                            "request, >= 1)");
    jc_totals t;
    k->prompt_tokens = P;
    if ((st = count_at(c, P, 0, 0, &t))) return st;
    k->prefill_flops = (double)t.flops;
    k->prefill_macs = (double)t.macs;
    k->ctx[0] = P;
    k->ctx[1] = O > 1 ? floor(P + O - 1) : P + 1;
    for (int i = 0; i < 2; i++) {
        if ((st = count_at(c, 1, k->ctx[i], i == 0, &t))) return st;
        k->decode_flops[i] = (double)t.flops;
        k->decode_macs[i] = (double)t.macs;
        if (i == 0) k->weight_elems_step = (double)t.weight_bytes_read / k->weight_dtype_bytes;
    }
    double dc = k->ctx[1] - k->ctx[0];
    k->decode_flops_per_ctx = (k->decode_flops[1] - k->decode_flops[0]) / dc;
    k->decode_flops0 = k->decode_flops[0] - k->decode_flops_per_ctx * k->ctx[0];
    k->decode_macs_per_ctx = (k->decode_macs[1] - k->decode_macs[0]) / dc;
    k->decode_macs0 = k->decode_macs[0] - k->decode_macs_per_ctx * k->ctx[0];
    k->mid_ctx = floor((k->ctx[0] + k->ctx[1]) / 2);
    if (k->mid_ctx > k->ctx[0] && k->mid_ctx < k->ctx[1]) {
        if ((st = count_at(c, 1, k->mid_ctx, 1, &t))) return st;
        double line = k->decode_flops0 + k->decode_flops_per_ctx * k->mid_ctx;
        k->mid_error = line > 0 ? fabs((double)t.flops - line) / line : 0;
    }
    return JC_OK;
}

jc_status jc_arch_load_onnx(const jc_request *rq, jc_arch **out, jc_diag *d)
{
    if (!rq || !out || !rq->job || !rq->model) return jci_diag_set(d, JC_ERR_USAGE, "jc_arch_load_onnx: NULL argument");
    *out = NULL;
    jc_model *m = NULL;
    jc_status st = jc_request_load(rq, &m, d);
    if (st) return st;
    dctx C = {0}, *c = &C;
    c->rq = rq;
    c->m = m;
    c->g = m->graph;
    c->d = d;
    c->path = rq->model;
    c->mask = -1;
    c->a = jci_arch_new(&c->ar);
    c->k = c->a ? jci_arena_calloc(c->ar, 1, sizeof *c->k) : NULL;
    if (!c->k) { st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto done; }
    jc_arch *a = c->a;
    a->counted = c->k;
    a->path = c->k->model = jci_arena_strdup(c->ar, rq->model);
    a->model_type = "onnx";
    c->k->sha256 = jci_arena_strdup(c->ar, m->sha256);
    c->k->graph_sha256 = jci_arena_strdup(c->ar, m->graph_sha256);
    c->k->file_size = (double)m->file_size;
    if ((st = find_prompt(c)) || (st = find_past(c))) goto done;
    if (!strcmp(c->k->prompt_dim, c->k->past_dim)) {
        st = jci_diag_set(d, JC_ERR_USAGE, "%s: the prompt and past dims are both '%s': give two different dims "
                          "(--prompt-dim, --past-dim)", c->path, c->k->prompt_dim);
        goto done;
    }
    if ((st = find_total(c)) || (st = read_cache(c))) goto done;
    read_weights(c);
    if ((st = count_all(c))) goto done;
    a->layer = jci_arena_calloc(c->ar, (size_t)a->n_layers, sizeof *a->layer);
    /* the arena owns every string the result borrows from the model */
    const char **s[] = {&c->k->prompt_dim, &c->k->past_dim, &c->k->total_dim};
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++)
        if (*s[i] && !(*s[i] = jci_arena_strdup(c->ar, *s[i]))) a->layer = NULL;
    if (!a->layer || !a->path) { st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto done; }
    a->weight_format = c->k->weight_dtype;
    a->format_note = jci_arena_strdup(c->ar, "the initializers' dtype");
    *out = a;
done:
    jc_model_free(m);
    if (st && c->a) jc_arch_free(c->a);
    return st;
}
