/*
 * ops_reduce.c (analysis/ops) - reductions: ReduceSum (param 0), Mean (1), Max/Min (2),
 * Prod (3), L1 (4), L2 (5), SumSquare (6), LogSum (7), LogSumExp (8),
 * ArgMax/ArgMin.  Axes are an attribute before opset 18 (ReduceSum: 13)
 * and an input from then on; keepdims and noop_with_empty_axes honoured.
 * Cost per COUNTING.md: numel(X) - numel(Y) accumulations plus the
 * per-kind extras.
 */
#include "analysis/ops/actx.h"

#include <string.h>

#define MAXR 64

jc_status sh_reduce(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int dt = c->nin && c->in[0] ? c->in[0]->dtype : 0;
    if (!x || x->rank > MAXR) return op_set_out(c, 0, dt, -1, NULL);
    int since = c->param == 0 ? 13 : 18;
    const int64_t *ax;
    int64_t na;
    bool present;
    if (!op_ints_in_or_attr(c, 1, since, "axes", &ax, &na, &present)) {
        bool kd = op_attr_i(c, "keepdims", 1) != 0;
        return op_set_out(c, 0, dt, kd ? x->rank : -1, NULL);
    }
    bool keep = op_attr_i(c, "keepdims", 1) != 0;
    bool red[MAXR] = {0};
    if (!present || na == 0) {
        if (c->opset >= since && op_attr_i(c, "noop_with_empty_axes", 0)) {
            jc_status st = op_copy_out(c, 0, x, 0);
            return st;
        }
        for (int i = 0; i < x->rank; i++) red[i] = true;
    } else {
        for (int64_t i = 0; i < na; i++) {
            int a;
            if (!op_axis(ax[i], x->rank, &a)) return op_set_out(c, 0, dt, -1, NULL);
            red[a] = true;
        }
    }
    jc_dim d[MAXR];
    int r = 0;
    for (int i = 0; i < x->rank; i++) {
        if (!red[i]) d[r++] = x->dims[i];
        else if (keep) d[r++] = (jc_dim){1, NULL};
    }
    return op_set_out(c, 0, dt, r, d);
}

jc_status co_reduce(opctx *c)
{
    int64_t nx, ny;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!op_numel(c, op_in(c, 0), &nx) || !op_numel(c, c->out[0], &ny)) return JC_OK;
    int64_t acc = nx > ny ? nx - ny : 0;
    bool ok = op_flops(c, acc, 1);
    switch (c->param) {
    case 1: ok = ok && op_flops(c, ny, 1); break;                                 /* mean scale */
    case 3: break;
    case 4: ok = ok && op_flops(c, nx, 1); break;                                 /* abs */
    case 5: ok = ok && op_flops(c, nx, 1) && op_specials(c, ny, 1); break;        /* sq, sqrt */
    case 6: ok = ok && op_flops(c, nx, 1); break;                                 /* square */
    case 7: ok = ok && op_specials(c, ny, 1); break;                              /* log */
    case 8: ok = ok && op_specials(c, nx, 1) && op_specials(c, ny, 1); break;     /* exp, log */
    default: break;
    }
    return ok ? JC_OK : op_overflow(c);
}

jc_status sh_argreduce(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    if (!x || x->rank > MAXR) return op_set_out(c, 0, JC_DT_INT64, -1, NULL);
    int a;
    if (!op_axis(op_attr_i(c, "axis", 0), x->rank, &a)) return op_set_out(c, 0, JC_DT_INT64, -1, NULL);
    bool keep = op_attr_i(c, "keepdims", 1) != 0;
    jc_dim d[MAXR];
    int r = 0;
    for (int i = 0; i < x->rank; i++) {
        if (i != a) d[r++] = x->dims[i];
        else if (keep) d[r++] = (jc_dim){1, NULL};
    }
    return op_set_out(c, 0, JC_DT_INT64, r, d);
}

/* ArgMax/ArgMin: numel(X) compares (COUNTING.md). */
jc_status co_argreduce(opctx *c)
{
    int64_t nx;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!op_numel(c, op_in(c, 0), &nx)) return JC_OK;
    return op_flops(c, nx, 1) ? JC_OK : op_overflow(c);
}
