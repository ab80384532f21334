/*
 * ops_conv.c (analysis/ops) - convolution and pooling: Conv (param 0), ConvInteger (1),
 * QLinearConv (2), DeformConv (3), ConvTranspose, Max/Average/LpPool,
 * the global pools, MaxUnpool, RoiAlign/MaxRoiPool, Col2Im.
 * MAC rules per COUNTING.md: Conv numel(Y)*(C/g)*prod(k) (= W[1]);
 * ConvTranspose numel(X)*(M/g)*prod(k) with W = [C, M/g, k...].
 */
#include "analysis/ops/actx.h"

#include <string.h>

#define MAXR 16

typedef struct geom {
    int ns;                 /* spatial rank */
    int64_t k[MAXR], s[MAXR], d[MAXR], pb[MAXR], pe[MAXR];
    bool kknown;
    const char *autopad;
} geom;

static void read_geom(opctx *c, geom *g, int ns, const jc_tshape *w, int kfrom)
{
    const int64_t *v;
    size_t n;
    memset(g, 0, sizeof *g);
    g->ns = ns;
    g->kknown = true;
    n = op_attr_ints(c, "kernel_shape", &v);
    for (int i = 0; i < ns; i++) {
        if ((size_t)i < n) g->k[i] = v[i];
        else if (w && w->rank == ns + kfrom && w->dims[kfrom + i].v >= 0) g->k[i] = w->dims[kfrom + i].v;
        else g->kknown = false;
        g->s[i] = 1;
        g->d[i] = 1;
    }
    n = op_attr_ints(c, "strides", &v);
    for (int i = 0; i < ns && (size_t)i < n; i++) g->s[i] = v[i] > 0 ? v[i] : 1;
    n = op_attr_ints(c, "dilations", &v);
    for (int i = 0; i < ns && (size_t)i < n; i++) g->d[i] = v[i] > 0 ? v[i] : 1;
    n = op_attr_ints(c, "pads", &v);
    if (n == (size_t)(2 * ns))
        for (int i = 0; i < ns; i++) {
            g->pb[i] = v[i];
            g->pe[i] = v[ns + i];
        }
    g->autopad = op_attr_s(c, "auto_pad", "NOTSET");
}

/* ceiling division of a >= 0 by b > 0, without overflow */
static int64_t cdiv(int64_t a, int64_t b) { return a / b + (a % b != 0); }

/* The kernel extent (k-1)*d+1 along axis i, checked; -1 after a recorded
 * overflow or a refused kernel size. */
static int64_t extent(opctx *c, const geom *g, int i)
{
    if (g->k[i] < 1) {
        op_invalid(c, "kernel_shape[%d] = %lld is not positive", i, (long long)g->k[i]);
        return -1;
    }
    int64_t e = op_smul(c, g->k[i] - 1, g->d[i], "dilations");
    return e < 0 ? -1 : op_sadd(c, e, 1, "kernel_shape");
}

/* output spatial size of a sliding window along axis i (attribute
 * arithmetic checked: an overflow is recorded naming the attribute) */
static jc_dim out_dim(opctx *c, const geom *g, int i, jc_dim in, bool ceil_mode)
{
    jc_dim r = {-1, NULL};
    if (in.v < 0 || !g->kknown) return r;
    if (!strcmp(g->autopad, "SAME_UPPER") || !strcmp(g->autopad, "SAME_LOWER")) {
        r.v = cdiv(in.v, g->s[i]);
        return r;
    }
    int64_t ek = extent(c, g, i);
    if (ek < 0) return r;
    if (!strcmp(g->autopad, "VALID")) {
        r.v = in.v >= ek ? cdiv(in.v - ek + 1, g->s[i]) : 0;
        return r;
    }
    int64_t padded, span;
    if (!jci_add_ok(in.v, g->pb[i], &padded) || !jci_add_ok(padded, g->pe[i], &span) ||
        !jci_add_ok(span, -ek, &span)) {
        ax_shape_overflow(c, "pads");
        return r;
    }
    if (span < 0) {
        r.v = 0;
        return r;
    }
    if (ceil_mode) {
        r.v = cdiv(span, g->s[i]) + 1;
        int64_t t;
        if (__builtin_mul_overflow(r.v - 1, g->s[i], &t) || t >= padded) r.v--;
    } else {
        r.v = span / g->s[i] + 1;
    }
    return r;
}

jc_status sh_conv(opctx *c)
{
    int xi = c->param == 2 ? 0 : 0, wi = c->param == 2 ? 3 : 1;
    const jc_tshape *x = op_in(c, xi), *w = op_in(c, wi);
    int dt = c->param == 1 ? JC_DT_INT32 : c->param == 2 ? (c->nin > 7 && c->in[7] ? c->in[7]->dtype : (x ? x->dtype : 0))
                                                         : (x ? x->dtype : 0);
    if (!x || x->rank < 3 || x->rank - 2 > MAXR) return op_set_out(c, 0, dt, x ? x->rank : -1, NULL);
    int ns = x->rank - 2;
    geom g;
    read_geom(c, &g, ns, w, 2);
    jc_dim d[MAXR + 2];
    d[0] = x->dims[0];
    d[1] = w && w->rank > 0 ? w->dims[0] : (jc_dim){-1, NULL};
    for (int i = 0; i < ns; i++) d[2 + i] = out_dim(c, &g, i, x->dims[2 + i], false);
    return op_set_out(c, 0, dt, x->rank, d);
}

jc_status co_conv(opctx *c)
{
    int wi = c->param == 2 ? 3 : 1;
    int bi = c->param == 2 ? 8 : c->param == 3 ? 3 : c->param == 1 ? -1 : 2;
    const jc_tshape *w = op_in(c, wi), *y = c->out[0];
    int64_t ny, mac, k = 1;
    c->cost.cls = JC_CLASS_MATRIX;
    if (c->param == 1 || c->param == 2) c->cost.arith_dtype = c->in[0] ? c->in[0]->dtype : JC_DT_INT8;
    if (!op_numel(c, y, &ny) || !op_numel(c, w, &mac)) return JC_OK;
    if (w->rank < 2 || w->dims[0].v == 0) return op_unknown(c);
    /* W = [M, C/g, k...]: numel(W)/M = (C/g)*prod(k) */
    k = mac / w->dims[0].v;
    if (!op_mul(c, ny, k, &mac) || !op_macs(c, mac)) return op_overflow(c);
    if (bi >= 0 && bi < c->nin && c->in[bi] && !op_flops(c, ny, 1)) return op_overflow(c);
    if (c->param == 3) {
        /* deformable sampling: bilinear interpolation per kernel tap */
        int64_t taps;
        if (!op_mul(c, ny, k, &taps) || !op_flops(c, taps, 7)) return op_overflow(c);
        op_note(c, "DeformConv: +7 FLOPs per sampled tap (bilinear)");
    }
    return JC_OK;
}

jc_status sh_convtranspose(opctx *c)
{
    const jc_tshape *x = op_in(c, 0), *w = op_in(c, 1);
    int dt = x ? x->dtype : 0;
    if (!x || x->rank < 3 || x->rank - 2 > MAXR) return op_set_out(c, 0, dt, x ? x->rank : -1, NULL);
    int ns = x->rank - 2;
    geom g;
    read_geom(c, &g, ns, w, 2);
    int64_t grp = op_attr_i(c, "group", 1);
    jc_dim d[MAXR + 2];
    d[0] = x->dims[0];
    d[1] = w && w->rank > 1 && w->dims[1].v >= 0 ? (jc_dim){op_smul(c, w->dims[1].v, grp, "group"), NULL}
                                                 : (jc_dim){-1, NULL};
    const int64_t *os, *op;
    size_t nos = op_attr_ints(c, "output_shape", &os);
    size_t nop = op_attr_ints(c, "output_padding", &op);
    for (int i = 0; i < ns; i++) {
        jc_dim in = x->dims[2 + i];
        d[2 + i] = (jc_dim){-1, NULL};
        if (nos >= (size_t)ns) {
            d[2 + i].v = os[nos - ns + i];
            continue;
        }
        if (in.v < 0 || !g.kknown) continue;
        int64_t opad = (size_t)i < nop ? op[i] : 0;
        if (!strcmp(g.autopad, "SAME_UPPER") || !strcmp(g.autopad, "SAME_LOWER")) {
            d[2 + i].v = op_smul(c, in.v, g.s[i], "strides");
            continue;
        }
        /* s*(in-1) + output_padding + (k-1)*d + 1 - pads, each step checked */
        int64_t ek = extent(c, &g, i), v;
        if (ek < 0) continue;
        const char *bad = __builtin_mul_overflow(g.s[i], in.v - 1, &v) ? "strides"
                        : __builtin_add_overflow(v, opad, &v) ? "output_padding"
                        : __builtin_add_overflow(v, ek, &v) ? "kernel_shape"
                        : __builtin_sub_overflow(v, g.pb[i], &v) || __builtin_sub_overflow(v, g.pe[i], &v) ? "pads"
                        : NULL;
        if (bad) return ax_shape_overflow(c, bad);
        d[2 + i].v = v;
    }
    return op_set_out(c, 0, dt, x->rank, d);
}

jc_status co_convtranspose(opctx *c)
{
    const jc_tshape *x = op_in(c, 0), *w = op_in(c, 1);
    int64_t nx, nw, ny, mac;
    c->cost.cls = JC_CLASS_MATRIX;
    if (!op_numel(c, x, &nx) || !op_numel(c, w, &nw)) return JC_OK;
    if (w->rank < 2 || w->dims[0].v == 0) return op_unknown(c);
    /* W = [C, M/g, k...]: numel(W)/C = (M/g)*prod(k) */
    if (!op_mul(c, nx, nw / w->dims[0].v, &mac) || !op_macs(c, mac)) return op_overflow(c);
    if (c->nin > 2 && c->in[2]) {
        if (!op_numel(c, c->out[0], &ny)) return JC_OK;
        if (!op_flops(c, ny, 1)) return op_overflow(c);
    }
    return JC_OK;
}

jc_status sh_pool(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int dt = x ? x->dtype : 0;
    jc_status st;
    if (!x || x->rank < 3 || x->rank - 2 > MAXR) {
        st = op_set_out(c, 0, dt, x ? x->rank : -1, NULL);
        if (!st && c->nout > 1) st = op_set_out(c, 1, JC_DT_INT64, x ? x->rank : -1, NULL);
        return st;
    }
    int ns = x->rank - 2;
    geom g;
    read_geom(c, &g, ns, NULL, 2);
    bool ceil_mode = op_attr_i(c, "ceil_mode", 0) != 0;
    jc_dim d[MAXR + 2];
    d[0] = x->dims[0];
    d[1] = x->dims[1];
    for (int i = 0; i < ns; i++) d[2 + i] = out_dim(c, &g, i, x->dims[2 + i], ceil_mode);
    st = op_set_out(c, 0, dt, x->rank, d);
    if (!st && c->nout > 1) st = op_set_out(c, 1, JC_DT_INT64, x->rank, d);
    return st;
}

jc_status co_pool(opctx *c)
{
    int64_t ny, k = 1;
    c->cost.cls = JC_CLASS_VECTOR;
    const jc_tshape *x = op_in(c, 0);
    if (!op_numel(c, c->out[0], &ny) || !x) return JC_OK;
    geom g;
    read_geom(c, &g, x->rank - 2 > MAXR ? MAXR : x->rank - 2, NULL, 2);
    for (int i = 0; i < g.ns; i++)
        if (!op_mul(c, k, g.k[i], &k)) return op_overflow(c);
    int64_t k2m1; /* 2k - 1, checked: a kernel near 2^62 is hostile, not a pool */
    if (!op_mul(c, k, 2, &k2m1) || !op_add(c, k2m1, -1, &k2m1)) return op_overflow(c);
    if (c->param == 0) return op_flops(c, ny, k2m1 - k) ? JC_OK : op_overflow(c);
    if (c->param == 1) return op_flops(c, ny, k) ? JC_OK : op_overflow(c);
    /* LpPool: |x|^p per tap, sum, root */
    if (!op_flops(c, ny, k2m1) || !op_specials(c, ny, 1)) return op_overflow(c);
    return JC_OK;
}

jc_status sh_gpool(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    if (!x || x->rank < 2 || x->rank > MAXR) return op_set_out(c, 0, x ? x->dtype : 0, x ? x->rank : -1, NULL);
    jc_dim d[MAXR];
    for (int i = 0; i < x->rank; i++) d[i] = i < 2 ? x->dims[i] : (jc_dim){1, NULL};
    return op_set_out(c, 0, x->dtype, x->rank, d);
}

jc_status co_gpool(opctx *c)
{
    int64_t nx, ny;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!op_numel(c, op_in(c, 0), &nx) || !op_numel(c, c->out[0], &ny)) return JC_OK;
    if (c->param == 0) return op_flops(c, nx - ny, 1) ? JC_OK : op_overflow(c);
    if (c->param == 1) {
        int64_t e;
        if (!op_flops(c, nx - ny, 1) || !op_flops(c, ny, 1)) return op_overflow(c);
        if (!op_add(c, c->cost.fvcore_extra, nx, &e)) return op_overflow(c);
        c->cost.fvcore_extra = e;
        return JC_OK;
    }
    if (!op_flops(c, nx, 2) || !op_specials(c, ny, 1)) return op_overflow(c);
    return JC_OK;
}

jc_status sh_maxunpool(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    if (!x || x->rank < 3 || x->rank - 2 > MAXR) return op_set_out(c, 0, x ? x->dtype : 0, -1, NULL);
    const int64_t *v;
    int64_t n;
    if (op_in_ints(c, 2, &v, &n) && n == x->rank) {
        jc_dim d[MAXR + 2];
        for (int i = 0; i < x->rank; i++) d[i] = (jc_dim){v[i], NULL};
        return op_set_out(c, 0, x->dtype, x->rank, d);
    }
    int ns = x->rank - 2;
    geom g;
    read_geom(c, &g, ns, NULL, 2);
    jc_dim d[MAXR + 2];
    d[0] = x->dims[0];
    d[1] = x->dims[1];
    for (int i = 0; i < ns; i++) {
        jc_dim in = x->dims[2 + i];
        d[2 + i] = (jc_dim){-1, NULL};
        if (in.v < 0 || !g.kknown) continue;
        /* (in-1)*s + k - pads, each step checked */
        int64_t o;
        const char *bad = __builtin_mul_overflow(in.v - 1, g.s[i], &o) ? "strides"
                        : __builtin_add_overflow(o, g.k[i], &o) ? "kernel_shape"
                        : __builtin_sub_overflow(o, g.pb[i], &o) || __builtin_sub_overflow(o, g.pe[i], &o) ? "pads"
                        : NULL;
        if (bad) return ax_shape_overflow(c, bad);
        d[2 + i].v = o;
    }
    return op_set_out(c, 0, x->dtype, x->rank, d);
}

jc_status sh_roipool(opctx *c)
{
    const jc_tshape *x = op_in(c, 0), *r = op_in(c, 1);
    jc_dim d[4] = {{-1, NULL}, {-1, NULL}, {-1, NULL}, {-1, NULL}};
    if (r && r->rank == 2) d[0] = r->dims[0];
    if (x && x->rank == 4) d[1] = x->dims[1];
    if (c->param == 0) {
        const int64_t *ps;
        size_t n = op_attr_ints(c, "pooled_shape", &ps);
        if (n == 2) {
            d[2].v = ps[0];
            d[3].v = ps[1];
        }
    } else {
        d[2].v = op_attr_i(c, "output_height", 1);
        d[3].v = op_attr_i(c, "output_width", 1);
    }
    return op_set_out(c, 0, x ? x->dtype : 0, 4, d);
}

jc_status co_roipool(opctx *c)
{
    int64_t ny;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!op_numel(c, c->out[0], &ny)) return JC_OK;
    if (c->param == 1) {
        int64_t sr = op_attr_i(c, "sampling_ratio", 0);
        if (sr <= 0) {
            sr = 2;
            op_note(c, "RoiAlign: adaptive sampling_ratio counted as 2x2 samples per bin");
        }
        /* per sample: bilinear (7 FLOPs) + accumulate (1), then 1 scale */
        int64_t per;
        if (!op_mul(c, sr, sr, &per) || !op_mul(c, per, 8, &per) || !op_add(c, per, 1, &per) ||
            !op_flops(c, ny, per))
            return op_overflow(c);
        return JC_OK;
    }
    /* MaxRoiPool: bins cover the input on average once per roi */
    const jc_tshape *x = op_in(c, 0);
    int64_t nx, nr;
    if (!x || x->rank != 4 || !op_numel(c, x, &nx) || !c->out[0] || c->out[0]->dims[0].v < 0) return op_unknown(c);
    nr = c->out[0]->dims[0].v;
    if (x->dims[0].v > 0) nx /= x->dims[0].v;
    if (!op_mul(c, nx, nr, &nx) || !op_flops(c, nx, 1)) return op_overflow(c);
    op_note(c, "MaxRoiPool: one compare per input element per roi (bins cover the map)");
    return JC_OK;
}

jc_status sh_col2im(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    const int64_t *im, *bl;
    int64_t nim, nbl;
    if (!x || x->rank != 3 || !op_in_ints(c, 1, &im, &nim) || !op_in_ints(c, 2, &bl, &nbl) ||
        nim > MAXR || nim != nbl)
        return op_set_out(c, 0, x ? x->dtype : 0, -1, NULL);
    jc_dim d[MAXR + 2];
    int64_t p = 1;
    for (int64_t i = 0; i < nbl; i++)
        if ((p = op_smul(c, p, bl[i] > 0 ? bl[i] : 1, "input block_shape")) < 0) return JC_OK;
    d[0] = x->dims[0];
    d[1] = x->dims[1].v >= 0 ? (jc_dim){x->dims[1].v / p, NULL} : (jc_dim){-1, NULL};
    for (int64_t i = 0; i < nim; i++) d[2 + i] = (jc_dim){im[i], NULL};
    return op_set_out(c, 0, x->dtype, (int)nim + 2, d);
}

jc_status co_col2im(opctx *c)
{
    int64_t nx;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!op_numel(c, op_in(c, 0), &nx)) return JC_OK;
    return op_flops(c, nx, 1) ? JC_OK : op_overflow(c);
}
