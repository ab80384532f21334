/*
 * ops_misc.c (analysis/ops) - quantisation, signal processing, random generators,
 * losses, string ops, training optimizers and sequence/optional values.
 * DFT/STFT are counted as radix-2 FFTs: 5*n*log2(n) FLOPs per transform
 * (a named fallback, reported on the node).
 */
#include "analysis/ops/actx.h"

#include <math.h>
#include <string.h>

#define MAXR 64

jc_status sh_quant(opctx *c)
{
    int dt = c->nin > 2 && c->in[2] ? c->in[2]->dtype : JC_DT_UINT8;
    dt = (int)op_attr_i(c, "output_dtype", dt);
    if (!dt) dt = JC_DT_UINT8;
    return op_copy_out(c, 0, c->nin ? c->in[0] : NULL, dt);
}

jc_status sh_dequant(opctx *c)
{
    int dt = c->nin > 1 && c->in[1] ? c->in[1]->dtype : JC_DT_FLOAT;
    dt = (int)op_attr_i(c, "output_dtype", dt);
    if (!dt) dt = JC_DT_FLOAT;
    return op_copy_out(c, 0, c->nin ? c->in[0] : NULL, dt);
}

jc_status sh_dynquant(opctx *c)
{
    jc_status st = op_copy_out(c, 0, c->nin ? c->in[0] : NULL, JC_DT_UINT8);
    if (!st && c->nout > 1) st = op_set_out(c, 1, JC_DT_FLOAT, 0, NULL);
    if (!st && c->nout > 2) st = op_set_out(c, 2, JC_DT_UINT8, 0, NULL);
    return st;
}

jc_status co_dynquant(opctx *c)
{
    int64_t n;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!op_numel(c, op_in(c, 0), &n)) return JC_OK;
    return op_flops(c, n, 4) ? JC_OK : op_overflow(c);   /* min, max, scale, round */
}

static int64_t scalar_in(opctx *c, int k)
{
    const int64_t *v;
    int64_t n;
    if (!op_in_ints(c, k, &v, &n) || n != 1) return -1;
    return v[0];
}

jc_status sh_dft(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int dt = x ? x->dtype : JC_DT_FLOAT;
    if (!x || x->rank < 2 || x->rank > MAXR) return op_set_out(c, 0, dt, x ? x->rank : -1, NULL);
    int64_t axis = c->opset >= 20 ? (c->nin > 2 && c->in[2] ? scalar_in(c, 2) : -2) : op_attr_i(c, "axis", 1);
    int a;
    if (c->opset >= 20 && c->nin > 2 && c->in[2] && axis == -1 && c->in[2]->n_vals < 0)
        return op_set_out(c, 0, dt, x->rank, NULL);
    if (!op_axis(axis, x->rank, &a) || a == x->rank - 1) return op_set_out(c, 0, dt, x->rank, NULL);
    jc_dim d[MAXR];
    if (x->rank > 0) memcpy(d, x->dims, sizeof(jc_dim) * (size_t)x->rank);
    int64_t len = c->nin > 1 && c->in[1] ? scalar_in(c, 1) : d[a].v;
    if (c->nin > 1 && c->in[1] && len < 0) d[a] = (jc_dim){-1, NULL};
    else d[a] = (jc_dim){len, len < 0 ? d[a].sym : NULL};
    if (op_attr_i(c, "onesided", 0) && d[a].v >= 0) d[a].v = d[a].v / 2 + 1;
    d[x->rank - 1] = (jc_dim){2, NULL};
    return op_set_out(c, 0, dt, x->rank, d);
}

static bool fft_cost(opctx *c, int64_t transforms, int64_t n)
{
    if (n <= 1) return true;
    int64_t lg = 0;
    while (lg < 63 && (INT64_C(1) << lg) < n) lg++;   /* ceil(log2 n); n <= 2^63 - 1 */
    int64_t per;
    return op_mul(c, n, 5, &per) && op_mul(c, per, lg, &per) && op_flops(c, transforms, per);
}

jc_status co_dft(opctx *c)
{
    const jc_tshape *y = c->out[0];
    int64_t ny;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!op_numel(c, y, &ny)) return JC_OK;
    const jc_tshape *x = op_in(c, 0);
    int64_t n = 0;
    for (int i = 1; i < y->rank - 1; i++)
        if (x && x->dims[i].v != y->dims[i].v) n = x->dims[i].v;
    if (!n && x) {
        int a;
        if (op_axis(c->opset >= 20 ? -2 : op_attr_i(c, "axis", 1), x->rank, &a)) n = x->dims[a].v;
    }
    if (n <= 0) return JC_OK;
    op_note(c, "DFT counted as FFT: 5 n log2 n FLOPs per transform");
    int64_t tr = ny / 2 / (y->dims[y->rank - 2].v > 0 ? y->dims[y->rank - 2].v : 1);
    return fft_cost(c, tr, n) ? JC_OK : op_overflow(c);
}

jc_status sh_stft(opctx *c)
{
    const jc_tshape *x = op_in(c, 0), *w = op_in(c, 2);
    int dt = x ? x->dtype : JC_DT_FLOAT;
    int64_t step = scalar_in(c, 1), fl = c->nin > 3 && c->in[3] ? scalar_in(c, 3) : -1;
    if (fl < 0 && w && w->rank == 1) fl = w->dims[0].v;
    jc_dim d[4] = {{-1, NULL}, {-1, NULL}, {-1, NULL}, {2, NULL}};
    if (x && x->rank >= 2) {
        d[0] = x->dims[0];
        if (x->dims[1].v >= 0 && step > 0 && fl > 0) d[1].v = (x->dims[1].v - fl) / step + 1;
    }
    if (fl > 0) d[2].v = op_attr_i(c, "onesided", 1) ? fl / 2 + 1 : fl;
    return op_set_out(c, 0, dt, 4, d);
}

jc_status co_stft(opctx *c)
{
    const jc_tshape *y = c->out[0];
    int64_t ny;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!op_numel(c, y, &ny)) return JC_OK;
    const jc_tshape *w = op_in(c, 2);
    int64_t fl = c->nin > 3 && c->in[3] ? scalar_in(c, 3) : (w && w->rank == 1 ? w->dims[0].v : -1);
    if (fl <= 0) return op_unknown(c);
    int64_t frames, t;
    if (!op_mul(c, y->dims[0].v, y->dims[1].v, &frames)) return op_overflow(c);  /* numel may be 0 */
    op_note(c, "STFT counted as FFT per frame (5 n log2 n) + window multiply");
    if (!fft_cost(c, frames, fl) || !op_mul(c, frames, fl, &t) || !op_flops(c, t, 1)) return op_overflow(c);
    return JC_OK;
}

jc_status sh_window(opctx *c)
{
    int dt = (int)op_attr_i(c, "output_datatype", JC_DT_FLOAT);
    jc_dim d = {scalar_in(c, 0), NULL};
    return op_set_out(c, 0, dt, 1, &d);
}

jc_status co_window(opctx *c)
{
    int64_t n;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!op_numel(c, c->out[0], &n)) return JC_OK;
    int sp = !strcmp(c->n->op_type, "BlackmanWindow") ? 2 : 1;
    return op_flops(c, n, 3 * sp) && op_specials(c, n, sp) ? JC_OK : op_overflow(c);
}

jc_status sh_melweight(opctx *c)
{
    int dt = (int)op_attr_i(c, "output_datatype", JC_DT_FLOAT);
    int64_t bins = scalar_in(c, 0), dftl = scalar_in(c, 1);
    jc_dim d[2] = {{dftl >= 0 ? dftl / 2 + 1 : -1, NULL}, {bins, NULL}};
    return op_set_out(c, 0, dt, 2, d);
}

jc_status sh_random(opctx *c)
{
    int dt = (int)op_attr_i(c, "dtype", JC_DT_FLOAT);
    const int64_t *s;
    size_t n = op_attr_ints(c, "shape", &s);
    jc_dim d[MAXR];
    if (n > MAXR) return op_set_out(c, 0, dt, -1, NULL);
    for (size_t i = 0; i < n; i++) d[i] = (jc_dim){s[i], NULL};
    return op_set_out(c, 0, dt, (int)n, d);
}

jc_status sh_randomlike(opctx *c)
{
    const jc_tshape *x = c->nin ? c->in[0] : NULL;
    int dt = (int)op_attr_i(c, "dtype", x ? x->dtype : JC_DT_FLOAT);
    return op_copy_out(c, 0, x, dt);
}

jc_status sh_multinomial(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int dt = (int)op_attr_i(c, "dtype", JC_DT_INT32);
    jc_dim d[2] = {x && x->rank == 2 ? x->dims[0] : (jc_dim){-1, NULL}, {op_attr_i(c, "sample_size", 1), NULL}};
    return op_set_out(c, 0, dt, 2, d);
}

/* Random generators: one FLOP per generated element (the transform of a
 * uniform draw); Multinomial one compare per class per sample. */
jc_status co_random(opctx *c)
{
    int64_t n;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!op_numel(c, c->out[0], &n)) return JC_OK;
    if (!strcmp(c->n->op_type, "Multinomial")) {
        const jc_tshape *x = op_in(c, 0);
        if (!x || x->rank != 2 || x->dims[1].v < 0) return op_unknown(c);
        if (!op_mul(c, n, x->dims[1].v, &n)) return op_overflow(c);
    }
    return op_flops(c, n, 1) ? JC_OK : op_overflow(c);
}

jc_status sh_nllloss(opctx *c)
{
    const jc_tshape *x = op_in(c, 0), *t = op_in(c, 1);
    int dt = x ? x->dtype : JC_DT_FLOAT;
    if (strcmp(op_attr_s(c, "reduction", "mean"), "none")) return op_set_out(c, 0, dt, 0, NULL);
    return op_copy_out(c, 0, t, dt);
}

jc_status sh_sceloss(opctx *c)
{
    jc_status st = sh_nllloss(c);
    if (!st && c->nout > 1) st = op_copy_out(c, 1, op_in(c, 0), 0);
    return st;
}

/* NLL: one gather+add per target; SCE: log-softmax over the scores
 * (4 FLOPs + 1 exp per score, 1 log per row) then NLL. */
jc_status co_loss(opctx *c)
{
    int64_t nt, nx;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!op_numel(c, op_in(c, 1), &nt)) return JC_OK;
    if (!op_flops(c, nt, 2)) return op_overflow(c);
    if (c->param == 1) {
        if (!op_numel(c, op_in(c, 0), &nx)) return JC_OK;
        if (!op_flops(c, nx, 4) || !op_specials(c, nx, 1) || !op_specials(c, nt, 1)) return op_overflow(c);
    }
    return JC_OK;
}

jc_status sh_strnorm(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    if (!x) return op_set_out(c, 0, JC_DT_STRING, -1, NULL);
    if (op_attr(c, "stopwords")) {
        jc_dim d[2] = {{1, NULL}, op_data_dim(c, 0, x->rank - 1)};
        if (x->rank == 1) return op_set_out(c, 0, JC_DT_STRING, 1, &d[1]);
        return op_set_out(c, 0, JC_DT_STRING, 2, d);
    }
    return op_copy_out(c, 0, x, JC_DT_STRING);
}

jc_status sh_tfidf(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    const int64_t *ix;
    size_t n = op_attr_ints(c, "ngram_indexes", &ix);
    int64_t m = -1;
    for (size_t i = 0; i < n; i++)
        if (ix[i] > m) m = ix[i];
    jc_dim o = {op_sadd(c, m, 1, "ngram_indexes"), NULL};
    if (!x) return op_set_out(c, 0, JC_DT_FLOAT, -1, NULL);
    if (x->rank <= 1) return op_set_out(c, 0, JC_DT_FLOAT, 1, &o);
    jc_dim d[2] = {x->dims[0], o};
    return op_set_out(c, 0, JC_DT_FLOAT, 2, d);
}

/* Optimizers (ai.onnx.preview.training): inputs R, T, then groups of n
 * tensors (X, G, [V], [H]); outputs the updated groups.  param: FLOPs per
 * parameter element (Momentum 3, Adagrad 6 with 1 sqrt, Adam 10 with 1
 * sqrt). */
static int opt_groups(opctx *c) { return c->param == 10 ? 4 : 3; }

jc_status sh_optimizer(opctx *c)
{
    int gi = opt_groups(c);
    int n = (c->nin - 2) / gi;
    jc_status st = JC_OK;
    if (n <= 0) return JC_OK;
    for (int k = 0; k < c->nout && !st; k++) {
        int grp = k / n, i = k % n;
        int ing = grp == 0 ? 0 : grp + 1;
        if (c->param == 6 && grp == 1) ing = 2;   /* Adagrad: X, G, H -> X, H */
        st = op_copy_out(c, k, op_in(c, 2 + ing * n + i), 0);
    }
    return st;
}

jc_status co_optimizer(opctx *c)
{
    int gi = opt_groups(c);
    int n = (c->nin - 2) / gi;
    c->cost.cls = JC_CLASS_VECTOR;
    for (int i = 0; i < n; i++) {
        int64_t e;
        if (!op_numel(c, op_in(c, 2 + i), &e)) return JC_OK;
        if (!op_flops(c, e, c->param)) return op_overflow(c);
        if (c->param != 3 && !op_specials(c, e, 1)) return op_overflow(c);
    }
    return JC_OK;
}

/* ---- sequences and optionals: no tensor work of their own ---------------------- */

jc_status sh_nontensor(opctx *c)
{
    for (int k = 0; k < c->nout; k++)
        if (c->out[k]) {
            jc_status st = op_set_out(c, k, 0, -1, NULL);
            if (st) return st;
            c->out[k]->non_tensor = 1;
        }
    return JC_OK;
}

jc_status sh_unknown(opctx *c)
{
    for (int k = 0; k < c->nout; k++) {
        jc_status st = op_set_out(c, k, 0, -1, NULL);
        if (st) return st;
    }
    return JC_OK;
}

jc_status sh_seqat(opctx *c)
{
    return sh_unknown(c);
}

jc_status sh_seqlen(opctx *c)
{
    return op_set_out(c, 0, JC_DT_INT64, 0, NULL);
}

jc_status sh_optional_has(opctx *c)
{
    return op_set_out(c, 0, JC_DT_BOOL, 0, NULL);
}

jc_status sh_optional_get(opctx *c)
{
    const jc_tshape *x = c->nin ? c->in[0] : NULL;
    if (x && !x->non_tensor && x->rank >= 0) return op_copy_out(c, 0, x, 0);
    return sh_unknown(c);
}
