/*
 * ops_norm.c (analysis/ops) - normalisation and softmax: BatchNormalization, Layer/RMS
 * normalisation (default domain and com.microsoft, param 1 = RMS form),
 * Skip(Simplified)LayerNormalization, EmbedLayerNormalization,
 * Instance/Group/Lp normalisation, LRN, MeanVarianceNormalization,
 * Softmax/LogSoftmax (param 1)/Hardmax (param 2).
 * Per COUNTING.md: BN inference 2 FLOPs/elt + 4 per channel (1 sqrt);
 * LayerNorm 7 FLOPs/elt + per row 2 div, 1 add, 1 sqrt.
 */
#include "analysis/ops/actx.h"

#include <string.h>

/* numel of x and the number of rows when the trailing dims from `axis`
 * form a row */
static bool rows_of(opctx *c, const jc_tshape *x, int64_t axis, int64_t *n, int64_t *rows)
{
    if (!op_numel(c, x, n)) return false;
    int a;
    if (!op_axis(axis, x->rank, &a) && !(axis == x->rank && (a = x->rank, true))) return op_unknown(c), false;
    int64_t r = 1;
    for (int i = 0; i < a; i++)
        if (!jci_mul_ok(r, x->dims[i].v, &r)) return op_overflow(c), false;
    *rows = r;
    return true;
}

static jc_status add_fvcore(opctx *c, int64_t n, int64_t per)
{
    int64_t t;
    if (!op_mul(c, n, per, &t) || !op_add(c, c->cost.fvcore_extra, t, &c->cost.fvcore_extra))
        return op_overflow(c);
    return JC_OK;
}

jc_status sh_batchnorm(opctx *c)
{
    const jc_tshape *x = op_in(c, 0), *s = op_in(c, 1);
    jc_status st = op_copy_out(c, 0, x, 0);
    for (int k = 1; k < c->nout && !st; k++) st = op_copy_out(c, k, s, 0);
    return st;
}

jc_status co_batchnorm(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int64_t n, ch;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!op_numel(c, x, &n)) return JC_OK;
    ch = x->rank > 1 ? x->dims[1].v : 1;
    bool training = c->opset >= 14 ? op_attr_i(c, "training_mode", 0) != 0
                                   : (c->nout > 1 && c->out[1] != NULL && c->opset < 9 ? false : c->nout > 1);
    if (!op_flops(c, n, training ? 6 : 2) || !op_flops(c, ch, 3) || !op_specials(c, ch, 1))
        return op_overflow(c);
    return add_fvcore(c, n, training ? 5 : 2);
}

jc_status sh_layernorm(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    jc_status st = op_copy_out(c, 0, x, 0);
    if (st || !x) return st;
    int a;
    int64_t axis = op_attr_i(c, "axis", -1);
    jc_dim d[64];
    if (x->rank > 64 || !op_axis(axis, x->rank, &a)) {
        for (int k = 1; k < c->nout && !st; k++) st = op_set_out(c, k, JC_DT_FLOAT, -1, NULL);
        return st;
    }
    for (int i = 0; i < x->rank; i++) d[i] = i < a ? x->dims[i] : (jc_dim){1, NULL};
    int sdt = (int)op_attr_i(c, "stash_type", JC_DT_FLOAT);
    for (int k = 1; k < c->nout && !st; k++) st = op_set_out(c, k, sdt, x->rank, d);
    return st;
}

/* row statistics: param 0 LayerNorm (7/elt, 3 + 1 sqrt per row),
 * 1 RMS (4/elt, 2 + 1 sqrt per row) */
static jc_status ln_cost(opctx *c, int64_t n, int64_t rows, int rms)
{
    if (!op_flops(c, n, rms ? 4 : 7) || !op_flops(c, rows, rms ? 2 : 3) || !op_specials(c, rows, 1))
        return op_overflow(c);
    return add_fvcore(c, n, 5);
}

jc_status co_layernorm(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int64_t n, rows;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!rows_of(c, x, op_attr_i(c, "axis", -1), &n, &rows)) return JC_OK;
    return ln_cost(c, n, rows, c->param);
}

jc_status sh_skipln(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    jc_status st = op_copy_out(c, 0, x, 0);
    if (st || !x || x->rank > 64) return st;
    jc_dim d[64];
    for (int i = 0; i < x->rank; i++) d[i] = i < x->rank - 1 ? x->dims[i] : (jc_dim){1, NULL};
    if (c->nout > 1) st = op_set_out(c, 1, JC_DT_FLOAT, x->rank, d);
    if (!st && c->nout > 2) st = op_set_out(c, 2, JC_DT_FLOAT, x->rank, d);
    if (!st && c->nout > 3) st = op_copy_out(c, 3, x, 0);
    return st;
}

jc_status co_skipln(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int64_t n, rows;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!rows_of(c, x, -1, &n, &rows)) return JC_OK;
    int adds = 1 + (c->nin > 4 && c->in[4] != NULL);
    if (!op_flops(c, n, adds)) return op_overflow(c);
    return ln_cost(c, n, rows, c->param);
}

jc_status sh_embedln(opctx *c)
{
    const jc_tshape *ids = op_in(c, 0), *w = op_in(c, 2);
    jc_dim d[3] = {{-1, NULL}, {-1, NULL}, {-1, NULL}};
    if (ids && ids->rank == 2) {
        d[0] = ids->dims[0];
        d[1] = ids->dims[1];
    }
    if (w && w->rank == 2) d[2] = w->dims[1];
    jc_status st = op_set_out(c, 0, w ? w->dtype : JC_DT_FLOAT, 3, d);
    if (!st && c->nout > 1) st = op_set_out(c, 1, JC_DT_INT32, 1, d);
    if (!st && c->nout > 2) st = op_set_out(c, 2, w ? w->dtype : JC_DT_FLOAT, 3, d);
    return st;
}

jc_status co_embedln(opctx *c)
{
    int64_t n, rows;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!rows_of(c, c->out[0], -1, &n, &rows)) return JC_OK;
    int adds = 1 + (c->nin > 4 && c->in[4] != NULL);  /* position (+ segment) */
    if (!op_flops(c, n, adds)) return op_overflow(c);
    return ln_cost(c, n, rows, 0);
}

jc_status co_instnorm(opctx *c)
{
    int64_t n, rows;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!rows_of(c, op_in(c, 0), 2, &n, &rows)) return JC_OK;
    return ln_cost(c, n, rows, 0);
}

jc_status co_groupnorm(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int64_t n, rows, g = op_attr_i(c, "num_groups", 1);
    c->cost.cls = JC_CLASS_VECTOR;
    if (!rows_of(c, x, 1, &n, &rows)) return JC_OK;
    if (!op_mul(c, rows, g, &rows)) return op_overflow(c);
    return ln_cost(c, n, rows, 0);
}

jc_status co_lpnorm(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int64_t n;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!op_numel(c, x, &n)) return JC_OK;
    int a;
    if (!op_axis(op_attr_i(c, "axis", -1), x->rank, &a) || x->dims[a].v <= 0) return JC_OK;
    int64_t rows = n / x->dims[a].v;
    if (!op_flops(c, n, 3) || !op_specials(c, rows, 1)) return op_overflow(c);
    return JC_OK;
}

jc_status co_lrn(opctx *c)
{
    int64_t n, size = op_attr_i(c, "size", 1);
    c->cost.cls = JC_CLASS_VECTOR;
    if (!op_numel(c, op_in(c, 0), &n)) return JC_OK;
    if (size < 1 || size > 1 << 20) size = 1;
    if (!op_flops(c, n, 2 * size + 3) || !op_specials(c, n, 1)) return op_overflow(c);
    return JC_OK;
}

jc_status co_mvn(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int64_t n, red = 1;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!op_numel(c, x, &n)) return JC_OK;
    const int64_t *ax;
    size_t na = op_attr_ints(c, "axes", &ax);
    static const int64_t def[3] = {0, 2, 3};
    if (!na) {
        ax = def;
        na = 3;
    }
    for (size_t i = 0; i < na; i++) {
        int a;
        if (op_axis(ax[i], x->rank, &a) && !jci_mul_ok(red, x->dims[a].v, &red)) return op_overflow(c);
    }
    int64_t rows = red > 0 ? n / red : 0;
    if (!op_flops(c, n, 6) || !op_specials(c, rows, 1)) return op_overflow(c);
    return JC_OK;
}

jc_status co_softmax(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int64_t n;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!op_numel(c, x, &n)) return JC_OK;
    if (c->param == 2) return op_flops(c, n, 1) ? JC_OK : op_overflow(c);
    if (c->param == 0) {
        if (!op_flops(c, n, 4) || !op_specials(c, n, 1) || !op_weighted(c, n, 3)) return op_overflow(c);
        return JC_OK;
    }
    int64_t axis = op_attr_i(c, "axis", c->opset >= 13 ? -1 : 1), rows;
    int a;
    if (!op_axis(axis, x->rank, &a)) return JC_OK;
    rows = 1;
    if (c->opset >= 13) {
        for (int i = 0; i < x->rank; i++)
            if (i != a && !jci_mul_ok(rows, x->dims[i].v, &rows)) return op_overflow(c);
    } else {
        for (int i = 0; i < a; i++)
            if (!jci_mul_ok(rows, x->dims[i].v, &rows)) return op_overflow(c);
    }
    if (!op_flops(c, n, 4) || !op_specials(c, n, 1) || !op_specials(c, rows, 1)) return op_overflow(c);
    return JC_OK;
}
