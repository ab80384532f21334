/*
 * ops_rnn.c (analysis/ops) - recurrent layers: RNN (param 1 gate), GRU (3), LSTM (4).
 * X [S, N, I] (layout 0) or [N, S, I] (layout 1); W [D, gH, I];
 * R [D, gH, H].  MACs = D*S*N*gH*(I+H) (COUNTING.md).  Elementwise work
 * per (D, S, N, hidden unit): LSTM 8 bias adds (with B) + 4 (+3 with
 * peepholes), 3 sigmoid + 2 tanh; GRU 6 bias adds + 5, 2 sigmoid + 1
 * tanh; RNN 2 bias adds, 1 tanh.  The sum of the input and recurrent
 * products is part of the MAC accumulation (K = I+H), never counted
 * again.  A sigmoid here counts as 1 special + 3 FLOPs, as the Sigmoid op
 * does.  The S time steps run one after another: cost.serial_steps = S,
 * which the time model reads for its per-kernel floor.
 */
#include "analysis/ops/actx.h"

jc_status sh_rnn(opctx *c)
{
    const jc_tshape *x = op_in(c, 0), *w = op_in(c, 1);
    int dt = x ? x->dtype : 0;
    int64_t layout = op_attr_i(c, "layout", 0);
    const char *dir = op_attr_s(c, "direction", "forward");
    jc_dim D = {dir[0] == 'b' ? 2 : 1, NULL};
    jc_dim H = {op_attr_i(c, "hidden_size", -1), NULL};
    if (H.v < 0 && w && w->rank == 3 && w->dims[1].v >= 0) H.v = w->dims[1].v / c->param;
    jc_dim S = {-1, NULL}, N = {-1, NULL};
    if (x && x->rank == 3) {
        S = x->dims[layout ? 1 : 0];
        N = x->dims[layout ? 0 : 1];
    }
    jc_status st = JC_OK;
    if (c->nout > 0) {
        jc_dim y[4];
        if (layout) { y[0] = N; y[1] = S; y[2] = D; y[3] = H; }
        else { y[0] = S; y[1] = D; y[2] = N; y[3] = H; }
        st = op_set_out(c, 0, dt, 4, y);
    }
    for (int k = 1; k < c->nout && k < 3 && !st; k++) {
        jc_dim h[3];
        if (layout) { h[0] = N; h[1] = D; h[2] = H; }
        else { h[0] = D; h[1] = N; h[2] = H; }
        st = op_set_out(c, k, dt, 3, h);
    }
    return st;
}

jc_status co_rnn(opctx *c)
{
    const jc_tshape *x = op_in(c, 0), *w = op_in(c, 1), *r = op_in(c, 2);
    int64_t nw, nr, units, mac, steps;
    c->cost.cls = JC_CLASS_MATRIX;
    int64_t layout = op_attr_i(c, "layout", 0);
    if (!op_numel(c, w, &nw) || !op_numel(c, r, &nr) || !x || x->rank != 3) return op_unknown(c);
    jc_dim S = x->dims[layout ? 1 : 0], N = x->dims[layout ? 0 : 1];
    jc_tshape t = {0};
    jc_dim sn[2] = {S, N};
    t.rank = 2;
    t.dims = sn;
    if (!op_numel(c, &t, &steps)) return JC_OK;   /* S*N */
    c->cost.serial_steps = S.v > 0 ? S.v : 1;     /* the time steps run in order */
    /* W and R hold D*gH*(I+H) weights: MACs per step and batch row */
    if (!op_add(c, nw, nr, &mac) || !op_mul(c, mac, steps, &mac) || !op_macs(c, mac)) return op_overflow(c);
    int64_t g = c->param;
    if (w->rank != 3 || w->dims[1].v < 0) return op_unknown(c);
    int64_t dh = w->dims[0].v * (w->dims[1].v / g);   /* D*H */
    if (!op_mul(c, steps, dh, &units)) return op_overflow(c);
    bool bias = c->nin > 3 && c->in[3] != NULL;
    bool peep = g == 4 && c->nin > 7 && c->in[7] != NULL;
    int64_t flops, specials;
    if (g == 4) { flops = (bias ? 8 : 0) + 4 + (peep ? 3 : 0) + 3 * 3; specials = 5; }
    else if (g == 3) { flops = (bias ? 6 : 0) + 5 + 2 * 3; specials = 3; }
    else { flops = bias ? 2 : 0; specials = 1; }   /* x W^T + h R^T sums inside the MACs */
    if (!op_flops(c, units, flops) || !op_specials(c, units, specials)) return op_overflow(c);
    return JC_OK;
}
