/*
 * ops_attention.c (analysis/ops) - fused attention: opset-23 Attention and
 * RotaryEmbedding, com.microsoft Attention / MultiHeadAttention /
 * GroupQueryAttention / RotaryEmbedding.  MACs per COUNTING.md:
 * QK^T = B*h*Sq*Skv*dk, PV = B*h*Sq*Skv*dv (the full square even when
 * causal); com.microsoft.Attention adds its input projection B*S*Din*3D.
 * Softmax over the scores: 4 FLOPs + 1 exp per score, plus 1 scale mul.
 */
#include "analysis/ops/actx.h"

#include <string.h>

static jc_status score_cost(opctx *c, int64_t scores, int64_t dk, int64_t dv)
{
    int64_t m;
    if (!op_mul(c, scores, dk + dv, &m) || !op_macs(c, m) || !op_flops(c, scores, 5) ||
        !op_specials(c, scores, 1))
        return op_overflow(c);
    return JC_OK;
}

static bool known(jc_dim d) { return d.v >= 0; }

/* dims -> product with the unknown reported */
static bool prod(opctx *c, const jc_dim *d, int n, int64_t *p)
{
    jc_tshape t = {0};
    t.rank = n;
    t.dims = (jc_dim *)d;
    return op_numel(c, &t, p);
}

jc_status sh_attention23(opctx *c)
{
    const jc_tshape *q = op_in(c, 0), *k = op_in(c, 1), *v = op_in(c, 2), *pk = op_in(c, 4);
    int dt = q ? q->dtype : 0;
    jc_status st;
    if (q && q->rank != 3 && q->rank != 4)
        return op_invalid(c, "Attention needs a Q of rank 3 or 4 (got rank %d)", q->rank);
    if (!q || !k || !v) {
        for (int i = 0; i < c->nout; i++)
            if ((st = op_set_out(c, i, dt, -1, NULL))) return st;
        return JC_OK;
    }
    int64_t qh = op_attr_i(c, "q_num_heads", 0), kvh = op_attr_i(c, "kv_num_heads", 0);
    jc_dim B = q->dims[0], Sq, Skv, H, Hkv, dk = {-1, NULL}, dv = {-1, NULL};
    if (q->rank == 4) {
        H = q->dims[1];
        Sq = q->dims[2];
        dk = q->dims[3];
        Hkv = k->rank == 4 ? k->dims[1] : (jc_dim){-1, NULL};
        Skv = k->rank == 4 ? k->dims[2] : (jc_dim){-1, NULL};
        if (v->rank == 4) dv = v->dims[3];
    } else {
        H = (jc_dim){qh, NULL};
        Hkv = (jc_dim){kvh, NULL};
        Sq = q->dims[1];
        Skv = k->rank == 3 ? k->dims[1] : (jc_dim){-1, NULL};
        if (qh > 0 && known(q->dims[2])) dk.v = q->dims[2].v / qh;
        if (kvh > 0 && v->rank == 3 && known(v->dims[2])) dv.v = v->dims[2].v / kvh;
    }
    jc_dim T = Skv;
    if (pk && pk->rank == 4) {
        T = known(Skv) && known(pk->dims[2]) ? (jc_dim){op_sadd(c, Skv.v, pk->dims[2].v, "input past_key"), NULL}
                                             : (jc_dim){-1, NULL};
    }
    jc_dim y[4];
    if (q->rank == 4) {
        y[0] = B; y[1] = H; y[2] = Sq; y[3] = dv;
        st = op_set_out(c, 0, dt, 4, y);
    } else {
        y[0] = B; y[1] = Sq;
        y[2] = known(H) && known(dv) ? (jc_dim){op_smul(c, H.v, dv.v, "q_num_heads"), NULL} : (jc_dim){-1, NULL};
        st = op_set_out(c, 0, dt, 3, y);
    }
    jc_dim p[4] = {B, Hkv, T, dk};
    if (!st && c->nout > 1) st = op_set_out(c, 1, dt, 4, p);
    p[3] = dv;
    if (!st && c->nout > 2) st = op_set_out(c, 2, dt, 4, p);
    jc_dim s[4] = {B, H, Sq, T};
    if (!st && c->nout > 3) st = op_set_out(c, 3, dt, 4, s);
    return st;
}

jc_status co_attention23(opctx *c)
{
    const jc_tshape *q = op_in(c, 0), *y = c->out[0];
    c->cost.cls = JC_CLASS_MATRIX;
    if (!q || !y || c->nout < 1 || (q->rank != 3 && q->rank != 4)) return op_unknown(c);
    /* scores = B*H*Sq*T: read from the present_key shape when there, else
     * from the inputs */
    const jc_tshape *k = op_in(c, 1), *v = op_in(c, 2);
    jc_dim B = q->dims[0], H, Sq, T, dk, dv;
    int64_t qh = op_attr_i(c, "q_num_heads", 0), kvh = op_attr_i(c, "kv_num_heads", 0);
    if (q->rank == 4) {
        H = q->dims[1]; Sq = q->dims[2]; dk = q->dims[3];
        dv = v && v->rank == 4 ? v->dims[3] : (jc_dim){-1, NULL};
        T = k && k->rank == 4 ? k->dims[2] : (jc_dim){-1, NULL};
    } else {
        H = (jc_dim){qh, NULL}; Sq = q->dims[1];
        dk = qh > 0 && known(q->dims[2]) ? (jc_dim){q->dims[2].v / qh, NULL} : (jc_dim){-1, NULL};
        dv = kvh > 0 && v && v->rank == 3 && known(v->dims[2]) ? (jc_dim){v->dims[2].v / kvh, NULL}
                                                                 : (jc_dim){-1, NULL};
        T = k && k->rank == 3 ? k->dims[1] : (jc_dim){-1, NULL};
    }
    const jc_tshape *pk = op_in(c, 4);
    if (pk && pk->rank == 4)
        T = known(T) && known(pk->dims[2]) ? (jc_dim){op_sadd(c, T.v, pk->dims[2].v, "input past_key"), NULL}
                                           : (jc_dim){-1, NULL};
    jc_dim sd[4] = {B, H, Sq, T}, kd[2] = {dk, dv};
    int64_t scores, tmp;
    if (!prod(c, sd, 4, &scores) || !prod(c, kd, 2, &tmp)) return JC_OK;
    return score_cost(c, scores, dk.v, dv.v);
}

jc_status co_rotary(opctx *c)
{
    int64_t n;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!op_numel(c, c->out[0], &n)) return JC_OK;
    return op_flops(c, n, 3) ? JC_OK : op_overflow(c);
}

/* com.microsoft.Attention: input [B,S,Din], weights [Din, 3D] (or
 * qkv_hidden_sizes), past [2,B,h,P,dh]. */
jc_status sh_msattention(opctx *c)
{
    const jc_tshape *x = op_in(c, 0), *w = op_in(c, 1), *past = op_in(c, 4);
    int dt = x ? x->dtype : 0;
    int64_t h = op_attr_i(c, "num_heads", 0);
    const int64_t *qkv;
    size_t nq = op_attr_ints(c, "qkv_hidden_sizes", &qkv);
    jc_dim D = {-1, NULL}, Dv = {-1, NULL};
    if (nq == 3) {
        D.v = qkv[0];
        Dv.v = qkv[2];
    } else if (w && w->rank == 2 && known(w->dims[1])) {
        D.v = Dv.v = w->dims[1].v / 3;
    }
    jc_dim B = x && x->rank == 3 ? x->dims[0] : (jc_dim){-1, NULL};
    jc_dim S = x && x->rank == 3 ? x->dims[1] : (jc_dim){-1, NULL};
    jc_dim y[3] = {B, S, Dv};
    jc_status st = op_set_out(c, 0, dt, 3, y);
    if (!st && c->nout > 1) {
        jc_dim T = S;
        if (past && past->rank == 5) T = known(S) && known(past->dims[3]) ? (jc_dim){S.v + past->dims[3].v, NULL}
                                                                         : (jc_dim){-1, NULL};
        jc_dim p[5] = {{2, NULL}, B, {h, NULL}, T, {h > 0 && known(D) ? D.v / h : -1, NULL}};
        st = op_set_out(c, 1, dt, 5, p);
    }
    return st;
}

jc_status co_msattention(opctx *c)
{
    const jc_tshape *x = op_in(c, 0), *w = op_in(c, 1), *past = op_in(c, 4);
    int64_t nx, nw, din, proj, scores;
    c->cost.cls = JC_CLASS_MATRIX;
    if (!op_numel(c, x, &nx) || !op_numel(c, w, &nw) || x->rank != 3 || w->rank != 2) return op_unknown(c);
    din = w->dims[0].v;
    int64_t n3 = w->dims[1].v, h = op_attr_i(c, "num_heads", 1);
    if (din <= 0 || h <= 0) return op_unknown(c);
    /* projection: B*S*Din*3D = numel(X)/Din * numel(W) */
    if (!op_mul(c, nx / din, nw, &proj) || !op_macs(c, proj)) return op_overflow(c);
    if (c->nin > 2 && c->in[2] && !op_flops(c, nx / din * n3, 1)) return op_overflow(c);
    const int64_t *qkv;
    size_t nq = op_attr_ints(c, "qkv_hidden_sizes", &qkv);
    int64_t D = nq == 3 ? qkv[0] : n3 / 3, Dv = nq == 3 ? qkv[2] : n3 / 3;
    int64_t T = x->dims[1].v;
    if (past && past->rank == 5) {
        if (!known(past->dims[3])) return op_unknown(c);
        T += past->dims[3].v;
    }
    /* scores = B*h*S*T; per-head dk = D/h */
    if (!op_mul(c, nx / din, T, &scores) || !op_mul(c, scores, h, &scores)) return op_overflow(c);
    return score_cost(c, scores, D / h, Dv / h);
}

/* MultiHeadAttention: query [B,S,D], key [B,L,D] / [B,h,L,dh], value. */
jc_status sh_mha(opctx *c)
{
    const jc_tshape *q = op_in(c, 0), *v = op_in(c, 2);
    int dt = q ? q->dtype : 0;
    jc_dim y[3] = {{-1, NULL}, {-1, NULL}, {-1, NULL}};
    if (q && q->rank == 3) {
        y[0] = q->dims[0];
        y[1] = q->dims[1];
        y[2] = q->dims[2];
    }
    if (v && v->rank == 3) y[2] = v->dims[2];
    int64_t h = op_attr_i(c, "num_heads", 0);
    if (v && v->rank == 4 && known(v->dims[1]) && known(v->dims[3]) &&
        !op_mul(c, v->dims[1].v, v->dims[3].v, &y[2].v))
        return op_overflow(c);
    jc_status st = op_set_out(c, 0, dt, 3, y);
    (void)h;
    for (int k = 1; k < c->nout && !st; k++) st = op_set_out(c, k, dt, 4, NULL);
    return st;
}

jc_status co_mha(opctx *c)
{
    const jc_tshape *q = op_in(c, 0), *k = op_in(c, 1), *y = c->out[0];
    int64_t nq, L, scores;
    c->cost.cls = JC_CLASS_MATRIX;
    if (!op_numel(c, q, &nq) || !k || q->rank != 3 || !y || y->rank != 3) return op_unknown(c);
    int64_t h = op_attr_i(c, "num_heads", 1), D = q->dims[2].v, Dv = y->dims[2].v;
    L = k->rank == 3 ? k->dims[1].v : k->rank == 4 ? k->dims[2].v : -1;
    if (L < 0 || Dv < 0 || h <= 0) return op_unknown(c);
    if (D == 0) return score_cost(c, 0, 0, Dv / h); /* an empty query: no scores (nq is 0 too) */
    /* scores = B*h*S*L = numel(Q)/D * h * L */
    if (!op_mul(c, nq / D, L, &scores) || !op_mul(c, scores, h, &scores)) return op_overflow(c);
    return score_cost(c, scores, D / h, Dv / h);
}

/* GroupQueryAttention: query [B,S,D] (or packed QKV), past_key
 * [B,kvh,P,dh]; outputs [B,S,D], present_key/value [B,kvh,P+S,dh]. */
jc_status sh_gqa(opctx *c)
{
    const jc_tshape *q = op_in(c, 0), *pk = op_in(c, 3);
    int dt = q ? q->dtype : 0;
    int64_t h = op_attr_i(c, "num_heads", 0), kvh = op_attr_i(c, "kv_num_heads", 0);
    jc_dim B = {-1, NULL}, S = {-1, NULL}, D = {-1, NULL}, dh = {-1, NULL};
    bool packed = c->nin < 2 || !c->in[1];
    if (q && q->rank == 3) {
        B = q->dims[0];
        S = q->dims[1];
        D = q->dims[2];
        /* packed QKV: D = (h + 2 kvh) dh; the sum is checked (kv_num_heads is untrusted) */
        int64_t all = packed && h >= 0 && kvh >= 0
                          ? op_sadd(c, h, op_smul(c, kvh, 2, "kv_num_heads"), "kv_num_heads") : -1;
        if (packed && known(D) && all > 0) {
            dh.v = D.v / all;
            D.v = dh.v * h;
        } else if (known(D) && h > 0) dh.v = D.v / h;
    }
    jc_dim y[3] = {B, S, D};
    jc_status st = op_set_out(c, 0, dt, 3, y);
    jc_dim T = S;
    if (pk && pk->rank == 4)
        T = known(S) && known(pk->dims[2]) ? (jc_dim){op_sadd(c, S.v, pk->dims[2].v, "input past_key"), NULL}
                                           : (jc_dim){-1, NULL};
    jc_dim p[4] = {B, {kvh >= 0 ? kvh : -1, NULL}, T, dh};
    for (int k = 1; k < 3 && k < c->nout && !st; k++) st = op_set_out(c, k, dt, 4, p);
    return st;
}

jc_status co_gqa(opctx *c)
{
    const jc_tshape *y = c->out[0], *pk = c->nout > 1 ? c->out[1] : NULL;
    int64_t ny, scores;
    c->cost.cls = JC_CLASS_MATRIX;
    if (!op_numel(c, y, &ny)) return JC_OK;
    int64_t h = op_attr_i(c, "num_heads", 1);
    int64_t D = y->dims[2].v;
    if (!pk || pk->rank != 4 || !known(pk->dims[2]) || h <= 0 || D <= 0) return op_unknown(c);
    /* scores = B*h*S*T = numel(Y)/D * h * T; dk = dv = D/h */
    if (!op_mul(c, ny / D, h, &scores) || !op_mul(c, scores, pk->dims[2].v, &scores)) return op_overflow(c);
    op_note(c, "GroupQueryAttention: full square counted (causal masking not discounted)");
    return score_cost(c, scores, D / h, D / h);
}
