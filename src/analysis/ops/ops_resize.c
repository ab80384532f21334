/*
 * ops_resize.c (analysis/ops) - resampling: Resize (opset 10: scales input; 11+: roi,
 * scales, sizes; 18: axes), Upsample (param 1; scales attribute before
 * opset 9), GridSample, AffineGrid.  Cost (COUNTING.md): nearest is data
 * movement; linear over d resized axes (2*2^d - 1) FLOPs per output;
 * cubic (2*4^d - 1).  Coordinate arithmetic is not counted.
 */
#include "analysis/ops/actx.h"

#include <math.h>
#include <string.h>

#define MAXR 16

jc_status sh_resize(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int dt = c->nin && c->in[0] ? c->in[0]->dtype : 0;
    if (!x || x->rank > MAXR) return op_set_out(c, 0, dt, -1, NULL);
    jc_dim d[MAXR];
    if (x->rank > 0) memcpy(d, x->dims, sizeof(jc_dim) * (size_t)x->rank);
    int64_t axes[MAXR];
    int na = x->rank;
    for (int i = 0; i < na; i++) axes[i] = i;
    const int64_t *av;
    size_t nav = op_attr_ints(c, "axes", &av);
    if (nav && nav <= MAXR) {
        na = (int)nav;
        for (int i = 0; i < na; i++) {
            int a;
            if (!op_axis(av[i], x->rank, &a)) return op_set_out(c, 0, dt, x->rank, NULL);
            axes[i] = a;
        }
    }
    /* sizes (opset 11+: input 3) */
    const jc_tshape *sz = c->param == 0 && c->opset >= 11 && c->nin > 3 ? c->in[3] : NULL;
    if (sz && sz->rank >= 0 && !(sz->rank == 1 && sz->dims[0].v == 0)) {
        const int64_t *s;
        int64_t n;
        if (!op_in_ints(c, 3, &s, &n) || n != na) return op_set_out(c, 0, dt, x->rank, NULL);
        const char *policy = op_attr_s(c, "keep_aspect_ratio_policy", "stretch");
        if (strcmp(policy, "stretch")) {
            double sc = strcmp(policy, "not_larger") ? 0 : 1e300;
            for (int i = 0; i < na; i++) {
                if (d[axes[i]].v <= 0) return op_set_out(c, 0, dt, x->rank, NULL);
                double r = (double)s[i] / (double)d[axes[i]].v;
                if (!strcmp(policy, "not_larger") ? r < sc : r > sc) sc = r;
            }
            for (int i = 0; i < na; i++)
                d[axes[i]].v = op_sdim(c, floor((double)d[axes[i]].v * sc + 0.5), "input sizes");
        } else {
            for (int i = 0; i < na; i++) d[axes[i]] = (jc_dim){s[i], NULL};
        }
        return op_set_out(c, 0, dt, x->rank, d);
    }
    /* scales: attribute (Upsample < 9), input 1 (Resize 10, Upsample 9),
     * input 2 (Resize 11+) */
    const double *sc = NULL;
    int64_t ns = 0;
    double tmp[MAXR];
    if (c->param == 1 && c->opset < 9) {
        const jc_attr *a = op_attr(c, "scales");
        if (a && a->type == JC_ATTR_FLOATS && a->n <= MAXR) {
            for (size_t i = 0; i < a->n; i++) tmp[i] = a->floats[i];
            sc = tmp;
            ns = (int64_t)a->n;
        }
    } else {
        int k = c->param == 1 || c->opset < 11 ? 1 : 2;
        const jc_tshape *s = k < c->nin ? c->in[k] : NULL;
        if (s && s->n_vals >= 0 && s->fvals) {
            sc = s->fvals;
            ns = s->n_vals;
        }
    }
    if (!sc || ns != na) return op_set_out(c, 0, dt, x->rank, NULL);
    for (int i = 0; i < na; i++) {
        jc_dim *o = &d[axes[i]];
        if (sc[i] == 1.0) continue;
        o->v = o->v >= 0 ? op_sdim(c, floor((double)o->v * sc[i] + 1e-9), "scales") : -1;
        o->sym = NULL;
    }
    return op_set_out(c, 0, dt, x->rank, d);
}

jc_status co_resize(opctx *c)
{
    int64_t ny;
    const jc_tshape *x = op_in(c, 0), *y = c->out[0];
    c->cost.cls = JC_CLASS_MEMORY;
    if (!op_numel(c, y, &ny) || !x) return JC_OK;
    const char *mode = op_attr_s(c, "mode", "nearest");
    int d = 0;
    for (int i = 0; i < x->rank && i < y->rank; i++) d += x->dims[i].v != y->dims[i].v;
    int64_t per = 0, fv = 1;
    if (!strcmp(mode, "linear") || !strcmp(mode, "bilinear") || !strcmp(mode, "trilinear")) {
        per = 2 * (1LL << d) - 1;
        fv = 4;
    } else if (!strcmp(mode, "cubic")) {
        per = 2 * (1LL << (2 * d)) - 1;
        fv = 4;
    }
    if (per) c->cost.cls = JC_CLASS_VECTOR;
    int64_t e;
    if (!op_flops(c, ny, per) || !op_mul(c, ny, fv, &e) ||
        !op_add(c, c->cost.fvcore_extra, e, &c->cost.fvcore_extra))
        return op_overflow(c);
    return JC_OK;
}

jc_status sh_gridsample(opctx *c)
{
    const jc_tshape *x = op_in(c, 0), *g = op_in(c, 1);
    int dt = x ? x->dtype : 0;
    if (x && (x->rank < 3 || x->rank > MAXR))
        return op_invalid(c, "GridSample of an input of rank %d (joulecast counts ranks 3 to %d)", x->rank, MAXR);
    if (!x || !g || g->rank != x->rank) return op_set_out(c, 0, dt, x ? x->rank : -1, NULL);
    jc_dim d[MAXR];
    d[0] = x->dims[0];
    d[1] = x->dims[1];
    for (int i = 2; i < x->rank; i++) d[i] = g->dims[i - 1];
    return op_set_out(c, 0, dt, x->rank, d);
}

jc_status co_gridsample(opctx *c)
{
    int64_t ny;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!op_numel(c, c->out[0], &ny)) return JC_OK;
    const char *mode = op_attr_s(c, "mode", c->opset >= 20 ? "linear" : "bilinear");
    int d = c->out[0]->rank - 2;
    int64_t per = 0;
    if (d < 1 || d > MAXR - 2) return op_unknown(c);
    if (!strcmp(mode, "linear") || !strcmp(mode, "bilinear")) per = 2 * (1LL << d) - 1;
    else if (!strcmp(mode, "cubic") || !strcmp(mode, "bicubic")) per = 2 * (1LL << (2 * d)) - 1;
    else c->cost.cls = JC_CLASS_MEMORY;
    return op_flops(c, ny, per) ? JC_OK : op_overflow(c);
}

jc_status sh_affinegrid(opctx *c)
{
    const jc_tshape *th = op_in(c, 0);
    const int64_t *s;
    int64_t n;
    int dt = th ? th->dtype : JC_DT_FLOAT;
    if (!op_in_ints(c, 1, &s, &n) || n < 3 || n > MAXR) return op_set_out(c, 0, dt, -1, NULL);
    jc_dim d[MAXR];
    int r = 0;
    d[r++] = (jc_dim){s[0], NULL};
    for (int64_t i = 2; i < n; i++) d[r++] = (jc_dim){s[i], NULL};
    d[r++] = (jc_dim){n - 2, NULL};
    return op_set_out(c, 0, dt, r, d);
}

jc_status co_affinegrid(opctx *c)
{
    int64_t ny, m;
    const jc_tshape *y = c->out[0];
    c->cost.cls = JC_CLASS_MATRIX;
    if (!op_numel(c, y, &ny)) return JC_OK;
    int64_t k = y->dims[y->rank - 1].v + 1;   /* homogeneous coordinates */
    if (!op_mul(c, ny, k, &m) || !op_macs(c, m)) return op_overflow(c);
    return JC_OK;
}
