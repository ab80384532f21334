/*
 * ops_shape.c (analysis/ops) - shape arithmetic, views and data movement: Reshape, Shape,
 * Size, Flatten, (Un)Squeeze, Constant(OfShape), Range, Transpose,
 * Concat, Split, Slice, Gather(Elements/ND), Expand, Tile, Pad,
 * CenterCropPad, Depth/SpaceToDepth, OneHot, EyeLike and the
 * data-dependent Compress/NonZero/Unique/NonMaxSuppression/TopK.
 *
 * These rules carry the constant folding of PyTorch's dynamic-axis
 * chains (Shape -> Gather -> Unsqueeze -> Concat -> Reshape): a folded
 * integer tensor keeps, per element, either a known value or the symbol
 * of the dim it came from (isyms), so that `sequence` flows through a
 * Reshape and stays `sequence`.  Attributes that became inputs (Reshape 5,
 * Slice 10, Pad 11, Squeeze/Unsqueeze/Split 13, TopK 10) are honoured.
 */
#include "analysis/ops/actx.h"

#include <math.h>
#include <string.h>

#define MAXR 64
static const char UNK[] = "?";   /* isyms marker: element unknown, no name */

static jc_dim elem_dim(const jc_tshape *t, int64_t i)
{
    if (t->isyms && t->isyms[i]) return (jc_dim){-1, t->isyms[i] == UNK ? NULL : t->isyms[i]};
    return (jc_dim){t->ivals[i], NULL};
}

/* values of input k as dims (known or symbolic); false when not folded */
static bool in_dimvals(opctx *c, int k, jc_dim *d, int64_t *n, int64_t cap)
{
    if (k >= c->nin || !c->in[k] || c->in[k]->n_vals < 0 || c->in[k]->n_vals > cap) return false;
    const jc_tshape *t = c->in[k];
    for (int64_t i = 0; i < t->n_vals; i++) d[i] = elem_dim(t, i);
    *n = t->n_vals;
    return true;
}

static jc_status set_dimvals(opctx *c, int k, const jc_dim *d, int64_t n)
{
    int64_t v[MAXR];
    const char *s[MAXR];
    bool any = false;
    if (n > MAXR) return JC_OK;
    for (int64_t i = 0; i < n; i++) {
        v[i] = d[i].v;
        s[i] = d[i].v >= 0 ? NULL : d[i].sym ? d[i].sym : UNK;
        if (s[i]) any = true;
    }
    return op_set_vals(c, k, v, any ? s : NULL, n);
}

static jc_status copy_vals(opctx *c, int k, const jc_tshape *t)
{
    if (!t || t->n_vals < 0) return JC_OK;
    jc_status st = op_set_vals(c, k, t->ivals, t->isyms, t->n_vals);
    if (st || !c->out[k] || !t->fvals || c->out[k]->n_vals < 0) return st;
    for (int64_t i = 0; i < t->n_vals; i++) c->out[k]->fvals[i] = t->fvals[i];
    return JC_OK;
}

static bool same_dim(jc_dim a, jc_dim b)
{
    if (a.v >= 0 || b.v >= 0) return a.v == b.v;
    return a.sym && b.sym && !strcmp(a.sym, b.sym);
}

/* ---- Shape, Size, Constant --------------------------------------------------- */

jc_status sh_shape(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    if (!x) return op_set_out(c, 0, JC_DT_INT64, 1, NULL);
    if (x->rank < 0) return op_set_out(c, 0, JC_DT_INT64, 1, NULL); /* unknown rank: unknown length */
    int64_t s = op_attr_i(c, "start", 0), e = op_attr_i(c, "end", x->rank);
    if (s < 0) s += x->rank;
    if (e < 0) e += x->rank;
    if (s < 0) s = 0;
    if (s > x->rank) s = x->rank;      /* start is clamped to [0, rank] too
                                          (fuzzing: start = 2^63 - 10) */
    if (e > x->rank) e = x->rank;
    if (e < s) e = s;
    jc_dim n = {e - s, NULL};
    jc_status st = op_set_out(c, 0, JC_DT_INT64, 1, &n);
    /* a scalar has no dims array: no pointer arithmetic on NULL */
    if (!st) st = set_dimvals(c, 0, e > s ? x->dims + s : NULL, e - s);
    return st;
}

jc_status sh_size(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    jc_status st = op_set_out(c, 0, JC_DT_INT64, 0, NULL);
    if (st || !x) return st;
    int64_t n = 1;
    for (int i = 0; i < x->rank; i++)
        if (x->dims[i].v < 0 || !jci_mul_ok(n, x->dims[i].v, &n)) return JC_OK;
    return op_set_vals(c, 0, &n, NULL, 1);
}

jc_status sh_constant(opctx *c)
{
    const jc_attr *a;
    if ((a = op_attr(c, "value")) && a->type == JC_ATTR_TENSOR && a->t) {
        const jc_value *t = a->t;
        jc_status st = op_set_out(c, 0, t->dtype, t->rank, t->dims);
        if (st || t->n_vals < 0 || !t->ivals) return st;
        st = op_set_vals(c, 0, t->ivals, NULL, t->n_vals);
        if (!st && c->out[0] && c->out[0]->n_vals >= 0 && t->fvals)
            for (int64_t i = 0; i < t->n_vals; i++) c->out[0]->fvals[i] = t->fvals[i];
        return st;
    }
    if ((a = op_attr(c, "value_int"))) {
        jc_status st = op_set_out(c, 0, JC_DT_INT64, 0, NULL);
        return st ? st : op_set_vals(c, 0, &a->i, NULL, 1);
    }
    if ((a = op_attr(c, "value_ints"))) {
        jc_dim n = {(int64_t)a->n, NULL};
        jc_status st = op_set_out(c, 0, JC_DT_INT64, 1, &n);
        return st ? st : op_set_vals(c, 0, a->ints, NULL, (int64_t)a->n);
    }
    if ((a = op_attr(c, "value_float"))) {
        jc_status st = op_set_out(c, 0, JC_DT_FLOAT, 0, NULL);
        int64_t iv = (int64_t)a->f;
        if (!st) st = op_set_vals(c, 0, &iv, NULL, 1);
        if (!st && c->out[0] && c->out[0]->fvals) c->out[0]->fvals[0] = a->f;
        return st;
    }
    if ((a = op_attr(c, "value_floats"))) {
        jc_dim n = {(int64_t)a->n, NULL};
        return op_set_out(c, 0, JC_DT_FLOAT, 1, &n);
    }
    if ((a = op_attr(c, "value_string"))) return op_set_out(c, 0, JC_DT_STRING, 0, NULL);
    if ((a = op_attr(c, "value_strings"))) {
        jc_dim n = {(int64_t)a->n, NULL};
        return op_set_out(c, 0, JC_DT_STRING, 1, &n);
    }
    if ((a = op_attr(c, "sparse_value")) && a->t) return op_set_out(c, 0, a->t->dtype, a->t->rank, a->t->dims);
    return op_set_out(c, 0, 0, -1, NULL);
}

jc_status sh_constofshape(opctx *c)
{
    jc_dim d[MAXR];
    int64_t n;
    const jc_attr *a = op_attr(c, "value");
    int dt = a && a->t ? a->t->dtype : JC_DT_FLOAT;
    if (!in_dimvals(c, 0, d, &n, MAXR)) {
        const jc_tshape *s = op_in(c, 0);
        if (s && s->rank == 1 && s->dims[0].v >= 0 && s->dims[0].v <= MAXR)
            return op_set_out(c, 0, dt, (int)s->dims[0].v, NULL);
        return op_set_out(c, 0, dt, -1, NULL);
    }
    jc_status st = op_set_out(c, 0, dt, (int)n, d);
    if (st) return st;
    int64_t total = 1;
    for (int64_t i = 0; i < n; i++)
        if (d[i].v < 0 || !jci_mul_ok(total, d[i].v, &total)) return JC_OK;
    if (total > JCI_SMALL_TENSOR) return JC_OK;
    int64_t fill = a && a->t && a->t->n_vals > 0 ? a->t->ivals[0] : 0;
    double ffill = a && a->t && a->t->n_vals > 0 && a->t->fvals ? a->t->fvals[0] : 0;
    int64_t v[JCI_SMALL_TENSOR];
    for (int64_t i = 0; i < total; i++) v[i] = fill;
    st = op_set_vals(c, 0, v, NULL, total);
    if (!st && c->out[0]->fvals)
        for (int64_t i = 0; i < total; i++) c->out[0]->fvals[i] = ffill;
    return st;
}

jc_status sh_range(opctx *c)
{
    int dt = c->nin && c->in[0] ? c->in[0]->dtype : JC_DT_INT64;
    const jc_tshape *s = c->nin > 0 ? c->in[0] : NULL, *l = c->nin > 1 ? c->in[1] : NULL,
                    *dl = c->nin > 2 ? c->in[2] : NULL;
    if (!s || !l || !dl || s->n_vals != 1 || l->n_vals != 1 || dl->n_vals != 1)
        return op_set_out(c, 0, dt, 1, NULL);
    double fs = s->fvals ? s->fvals[0] : (double)s->ivals[0];
    double fd = dl->fvals ? dl->fvals[0] : (double)dl->ivals[0];
    bool ssym = s->isyms && s->isyms[0], dsym = dl->isyms && dl->isyms[0];
    if (l->isyms && l->isyms[0]) {
        /* Range(0, sym, 1) has length sym */
        jc_dim d = {-1, l->isyms[0] == UNK ? NULL : l->isyms[0]};
        if (ssym || dsym || fs != 0 || fd != 1) d.sym = NULL;
        return op_set_out(c, 0, dt, 1, &d);
    }
    if (ssym || dsym || fd == 0) return op_set_out(c, 0, dt, 1, NULL);
    double fl = l->fvals ? l->fvals[0] : (double)l->ivals[0];
    double cnt = ceil((fl - fs) / fd);
    if (!(cnt >= 0)) cnt = 0;
    if (cnt > 1e15) return op_set_out(c, 0, dt, 1, NULL);
    jc_dim d = {(int64_t)cnt, NULL};
    jc_status st = op_set_out(c, 0, dt, 1, &d);
    if (st || d.v > JCI_SMALL_TENSOR) return st;
    int64_t v[JCI_SMALL_TENSOR];
    for (int64_t i = 0; i < d.v; i++) v[i] = (int64_t)(fs + fd * (double)i);
    st = op_set_vals(c, 0, v, NULL, d.v);
    if (!st && c->out[0] && c->out[0]->fvals)
        for (int64_t i = 0; i < d.v; i++) c->out[0]->fvals[i] = fs + fd * (double)i;
    return st;
}

jc_status sh_eyelike(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int dt = (int)op_attr_i(c, "dtype", x ? x->dtype : JC_DT_FLOAT);
    return op_copy_out(c, 0, x, dt);
}

/* ---- Reshape, Flatten, Squeeze, Unsqueeze ------------------------------------ */

jc_status sh_reshape(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int dt = c->nin && c->in[0] ? c->in[0]->dtype : 0;
    jc_dim d[MAXR];
    int64_t n;
    if (c->opset < 5) {
        const int64_t *v;
        n = (int64_t)op_attr_ints(c, "shape", &v);
        if (n > MAXR) return op_set_out(c, 0, dt, -1, NULL);
        for (int64_t i = 0; i < n; i++) d[i] = (jc_dim){v[i], NULL};
    } else if (!in_dimvals(c, 1, d, &n, MAXR)) {
        const jc_tshape *s = op_in(c, 1);
        if (s && s->rank == 1 && s->dims[0].v >= 0 && s->dims[0].v <= MAXR)
            return op_set_out(c, 0, dt, (int)s->dims[0].v, NULL);
        return op_set_out(c, 0, dt, -1, NULL);
    }
    bool allowzero = op_attr_i(c, "allowzero", 0) != 0;
    int neg = -1;
    for (int64_t i = 0; i < n; i++) {
        if (d[i].v == 0 && !d[i].sym && !allowzero) {
            d[i] = x && i < x->rank ? x->dims[i] : (jc_dim){-1, NULL};
        } else if (d[i].v == -1 && !d[i].sym) {
            neg = (int)i;
        } else if (d[i].v < -1) {
            d[i] = (jc_dim){-1, NULL};
        }
    }
    if (neg >= 0) {
        d[neg] = (jc_dim){-1, NULL};
        if (x) {
            /* cancel equal factors, then divide the known products */
            const char *in_s[MAXR], *out_s[MAXR];
            int nis = 0, nos = 0;
            int64_t pin = 1, pout = 1;
            bool anon = false;
            for (int i = 0; i < x->rank; i++) {
                if (x->dims[i].v >= 0) {
                    if (!jci_mul_ok(pin, x->dims[i].v, &pin)) anon = true;  /* absurd: leave -1 unknown */
                } else if (x->dims[i].sym) in_s[nis++] = x->dims[i].sym;
                else anon = true;
            }
            for (int64_t i = 0; i < n; i++) {
                if (i == neg) continue;
                if (d[i].v >= 0) {
                    if (!jci_mul_ok(pout, d[i].v, &pout)) anon = true;
                } else if (d[i].sym) out_s[nos++] = d[i].sym;
                else anon = true;
            }
            for (int i = 0; i < nos; i++)
                for (int j = 0; j < nis; j++)
                    if (in_s[j] && !strcmp(in_s[j], out_s[i])) {
                        in_s[j] = NULL;
                        out_s[i] = NULL;
                        break;
                    }
            int rin = 0, rout = 0;
            const char *last = NULL;
            for (int j = 0; j < nis; j++)
                if (in_s[j]) {
                    rin++;
                    last = in_s[j];
                }
            for (int i = 0; i < nos; i++) rout += out_s[i] != NULL;
            if (!anon && !rout && pout > 0) {
                if (!rin) d[neg].v = pin / pout;
                else if (rin == 1 && pin == pout) d[neg].sym = last;
            }
        }
    }
    jc_status st = op_set_out(c, 0, dt, (int)n, d);
    if (!st && x && x->n_vals >= 0) st = copy_vals(c, 0, x);
    return st;
}

jc_status sh_flatten(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int dt = c->nin && c->in[0] ? c->in[0]->dtype : 0;
    if (!x) return op_set_out(c, 0, dt, 2, NULL);
    int a;
    int64_t axis = op_attr_i(c, "axis", 1);
    if (axis < 0) axis += x->rank;
    if (axis < 0 || axis > x->rank) return op_set_out(c, 0, dt, 2, NULL);
    a = (int)axis;
    jc_dim d[2] = {{1, NULL}, {1, NULL}};
    for (int i = 0; i < x->rank; i++) d[i < a ? 0 : 1] = dim_mul(d[i < a ? 0 : 1], x->dims[i]);
    jc_status st = op_set_out(c, 0, dt, 2, d);
    if (!st) st = copy_vals(c, 0, x);
    return st;
}

jc_status sh_squeeze(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int dt = c->nin && c->in[0] ? c->in[0]->dtype : 0;
    const int64_t *ax;
    int64_t na;
    bool present;
    if (!op_ints_in_or_attr(c, 1, 13, "axes", &ax, &na, &present) || !x)
        return op_set_out(c, 0, dt, -1, NULL);
    bool drop[MAXR] = {0};
    if (x->rank > MAXR) return op_set_out(c, 0, dt, -1, NULL);
    if (!present || na == 0) {
        for (int i = 0; i < x->rank; i++) {
            if (x->dims[i].v < 0) return op_set_out(c, 0, dt, -1, NULL);
            drop[i] = x->dims[i].v == 1;
        }
    } else {
        for (int64_t i = 0; i < na; i++) {
            int a;
            if (!op_axis(ax[i], x->rank, &a)) return op_set_out(c, 0, dt, -1, NULL);
            drop[a] = true;
        }
    }
    jc_dim d[MAXR];
    int r = 0;
    for (int i = 0; i < x->rank; i++)
        if (!drop[i]) d[r++] = x->dims[i];
    jc_status st = op_set_out(c, 0, dt, r, d);
    if (!st) st = copy_vals(c, 0, x);
    return st;
}

jc_status sh_unsqueeze(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int dt = c->nin && c->in[0] ? c->in[0]->dtype : 0;
    const int64_t *ax;
    int64_t na;
    bool present;
    if (!op_ints_in_or_attr(c, 1, 13, "axes", &ax, &na, &present) || !x || !present ||
        x->rank + na > MAXR)
        return op_set_out(c, 0, dt, -1, NULL);
    int r = x->rank + (int)na;
    bool ins[MAXR] = {0};
    for (int64_t i = 0; i < na; i++) {
        int a;
        if (!op_axis(ax[i], r, &a)) return op_set_out(c, 0, dt, -1, NULL);
        if (ins[a]) return op_invalid(c, "axes name axis %d twice", a);
        ins[a] = true;
    }
    jc_dim d[MAXR];
    for (int i = 0, j = 0; i < r; i++) d[i] = ins[i] ? (jc_dim){1, NULL} : x->dims[j++];
    jc_status st = op_set_out(c, 0, dt, r, d);
    if (!st) st = copy_vals(c, 0, x);
    return st;
}

/* ---- Transpose, Concat, Split, Slice -------------------------------------------- */

jc_status sh_transpose(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int dt = c->nin && c->in[0] ? c->in[0]->dtype : 0;
    if (!x || x->rank > MAXR) return op_set_out(c, 0, dt, -1, NULL);
    const int64_t *p;
    size_t np = op_attr_ints(c, "perm", &p);
    jc_dim d[MAXR];
    int perm[MAXR];
    for (int i = 0; i < x->rank; i++) {
        int a = x->rank - 1 - i;
        if (np == (size_t)x->rank && !op_axis(p[i], x->rank, &a)) return op_set_out(c, 0, dt, -1, NULL);
        d[i] = x->dims[a];
        perm[i] = a;
    }
    jc_status st = op_set_out(c, 0, dt, x->rank, d);
    if (!st && x->rank <= 1) st = copy_vals(c, 0, x);
    else if (!st) st = fold_transpose(c, x, perm);
    return st;
}

jc_status sh_concat(opctx *c)
{
    const jc_tshape *f = NULL;
    int dt = 0;
    for (int i = 0; i < c->nin; i++) {
        if (c->in[i] && !dt) dt = c->in[i]->dtype;
        if (op_in(c, i)) {
            f = c->in[i];
            break;
        }
    }
    if (!f || f->rank > MAXR || f->rank == 0) return op_set_out(c, 0, dt, f ? f->rank : -1, NULL);
    int a;
    if (!op_axis(op_attr_i(c, "axis", 0), f->rank, &a)) return op_set_out(c, 0, dt, -1, NULL);
    jc_dim d[MAXR];
    if (f->rank > 0) memcpy(d, f->dims, sizeof(jc_dim) * (size_t)f->rank);
    jc_dim sum = {0, NULL};
    const char *onesym = NULL;
    int nsym = 0;
    bool allvals = true;
    int64_t total = 0;
    for (int i = 0; i < c->nin; i++) {
        const jc_tshape *t = c->in[i];
        if (!t) continue;
        if (t->rank != f->rank) return op_set_out(c, 0, dt, t->rank < 0 ? -1 : f->rank, NULL);
        for (int j = 0; j < t->rank; j++)
            if (j != a) d[j] = dim_broadcast(d[j], t->dims[j]).v == -1 && !same_dim(d[j], t->dims[j])
                                   ? (d[j].v >= 0 ? d[j] : t->dims[j])
                                   : dim_broadcast(d[j], t->dims[j]);
        jc_dim x = t->dims[a];
        if (x.v >= 0 && sum.v >= 0) sum.v += x.v;
        else if (x.v == 0) {
        } else if (x.sym) {
            nsym++;
            onesym = x.sym;
            sum.v = sum.v >= 0 ? sum.v : -1;
        } else sum.v = -2;
        if (t->n_vals < 0) allvals = false;
        else total += t->n_vals;
    }
    if (sum.v == -2) sum = (jc_dim){-1, NULL};
    else if (nsym == 1 && sum.v == 0) sum = (jc_dim){-1, onesym};
    else if (nsym) sum = (jc_dim){-1, NULL};
    d[a] = sum;
    jc_status st = op_set_out(c, 0, dt, f->rank, d);
    if (!st && allvals && f->rank > 1) return fold_concat(c, a);
    if (st || !allvals || f->rank != 1 || total > JCI_SMALL_TENSOR) return st;
    int64_t v[JCI_SMALL_TENSOR];
    const char *s[JCI_SMALL_TENSOR];
    double fv[JCI_SMALL_TENSOR];
    bool any = false;
    int64_t k = 0;
    for (int i = 0; i < c->nin; i++) {
        const jc_tshape *t = c->in[i];
        if (!t) continue;
        for (int64_t j = 0; j < t->n_vals; j++, k++) {
            v[k] = t->ivals[j];
            fv[k] = t->fvals ? t->fvals[j] : (double)v[k];
            s[k] = t->isyms ? t->isyms[j] : NULL;
            if (s[k]) any = true;
        }
    }
    st = op_set_vals(c, 0, v, any ? s : NULL, k);
    if (!st && c->out[0] && c->out[0]->fvals)
        for (int64_t i = 0; i < k; i++) c->out[0]->fvals[i] = fv[i];
    return st;
}

jc_status sh_split(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int dt = c->nin && c->in[0] ? c->in[0]->dtype : 0;
    jc_status st = JC_OK;
    if (!x || x->rank > MAXR || x->rank == 0) {
        for (int k = 0; k < c->nout && !st; k++) st = op_set_out(c, k, dt, x ? x->rank : -1, NULL);
        return st;
    }
    int a;
    if (!op_axis(op_attr_i(c, "axis", 0), x->rank, &a)) {
        for (int k = 0; k < c->nout && !st; k++) st = op_set_out(c, k, dt, -1, NULL);
        return st;
    }
    const int64_t *sp;
    int64_t ns;
    bool present;
    bool got = op_ints_in_or_attr(c, 1, 13, "split", &sp, &ns, &present);
    int64_t sizes[256];
    bool known = false;
    jc_dim ad = x->dims[a];
    if (got && present && ns == c->nout) {
        for (int k = 0; k < c->nout; k++) sizes[k] = sp[k];
        known = true;
    } else if (!present && ad.v >= 0 && c->nout > 0) {
        int64_t parts = c->nout, chunk = (ad.v + parts - 1) / parts;
        if (c->opset >= 18 && op_attr(c, "num_outputs")) {
            for (int k = 0; k < c->nout; k++) {
                int64_t left = ad.v - chunk * k;
                sizes[k] = left < chunk ? (left > 0 ? left : 0) : chunk;
            }
        } else {
            for (int k = 0; k < c->nout; k++) sizes[k] = ad.v / parts;
        }
        known = true;
    }
    for (int k = 0; k < c->nout && !st; k++) {
        jc_dim d[MAXR];
        if (x->rank > 0) memcpy(d, x->dims, sizeof(jc_dim) * (size_t)x->rank);
        d[a] = known ? (jc_dim){sizes[k], NULL} : (jc_dim){-1, NULL};
        st = op_set_out(c, k, dt, x->rank, d);
    }
    if (!st && known && x->rank > 1) return fold_split(c, x, a, sizes);
    if (!st && known && x->rank == 1 && x->n_vals >= 0) {
        int64_t off = 0;
        for (int k = 0; k < c->nout && !st; k++) {
            if (off + sizes[k] > x->n_vals) break;
            st = op_set_vals(c, k, x->ivals + off, x->isyms ? x->isyms + off : NULL, sizes[k]);
            off += sizes[k];
        }
    }
    return st;
}

static int64_t clampi(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

jc_status sh_slice(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int dt = c->nin && c->in[0] ? c->in[0]->dtype : 0;
    if (!x || x->rank > MAXR) return op_set_out(c, 0, dt, x ? x->rank : -1, NULL);
    const int64_t *st_, *en, *ax = NULL, *sp = NULL;
    int64_t ns, ne, na = 0, nsp = 0;
    jc_dim d[MAXR];
    if (x->rank > 0) memcpy(d, x->dims, sizeof(jc_dim) * (size_t)x->rank);
    if (c->opset < 10) {
        ns = (int64_t)op_attr_ints(c, "starts", &st_);
        ne = (int64_t)op_attr_ints(c, "ends", &en);
        na = (int64_t)op_attr_ints(c, "axes", &ax);
    } else {
        if (!op_in_ints(c, 1, &st_, &ns) || !op_in_ints(c, 2, &en, &ne))
            return op_set_out(c, 0, dt, x->rank, NULL);
        if (c->nin > 3 && c->in[3] && !op_in_ints(c, 3, &ax, &na)) return op_set_out(c, 0, dt, x->rank, NULL);
        if (c->nin > 4 && c->in[4] && !op_in_ints(c, 4, &sp, &nsp)) return op_set_out(c, 0, dt, x->rank, NULL);
    }
    if (ns != ne || (ax && na != ns) || (sp && nsp != ns)) return op_set_out(c, 0, dt, x->rank, NULL);
    int64_t fs[MAXR], fst[MAXR];
    bool touched[MAXR] = {0};
    for (int i = 0; i < x->rank; i++) {
        fs[i] = 0;
        fst[i] = 1;
    }
    for (int64_t i = 0; i < ns; i++) {
        int a = (int)i;
        if (ax && !op_axis(ax[i], x->rank, &a)) return op_set_out(c, 0, dt, x->rank, NULL);
        if (!ax && i >= x->rank) return op_set_out(c, 0, dt, x->rank, NULL);
        int64_t step = sp ? sp[i] : 1;
        if (step == 0) return op_set_out(c, 0, dt, x->rank, NULL);
        touched[a] = true;
        int64_t dim = x->dims[a].v;
        if (dim < 0) {
            /* [0:INT_MAX:1] keeps a symbolic dim */
            if (step == 1 && st_[i] == 0 && en[i] >= INT32_MAX) continue;
            d[a] = (jc_dim){-1, NULL};
            continue;
        }
        int64_t s = st_[i], e = en[i];
        if (s < 0) s += dim;
        if (e < 0) e += dim;
        int64_t len;
        if (dim == 0) {   /* an empty axis stays empty: the negative step's clamp ranges are empty */
            len = 0;
            s = 0;
        } else if (step > 0) {
            s = clampi(s, 0, dim);
            e = clampi(e, 0, dim);
            len = e > s ? 1 + (e - s - 1) / step : 0;   /* (e-s+step-1)/step without overflow */
        } else {
            s = clampi(s, 0, dim - 1);
            e = clampi(e, -1, dim - 1);
            /* |step| as unsigned: step may be INT64_MIN */
            len = s > e ? 1 + (int64_t)((uint64_t)(s - e - 1) / (0 - (uint64_t)step)) : 0;
        }
        d[a] = (jc_dim){len, NULL};
        fs[a] = s;
        fst[a] = step;
    }
    jc_status st = op_set_out(c, 0, dt, x->rank, d);
    if (!st && x->rank > 1) return fold_slice(c, x, fs, fst);
    if (st || x->rank != 1 || x->n_vals < 0 || d[0].v < 0) return st;
    int64_t v[MAXR * 4];
    const char *sy[MAXR * 4];
    bool any = false;
    if (d[0].v > MAXR * 4) return JC_OK;
    for (int64_t i = 0; i < d[0].v; i++) {
        int64_t j = touched[0] ? fs[0] + i * fst[0] : i;
        if (j < 0 || j >= x->n_vals) return JC_OK;
        v[i] = x->ivals[j];
        sy[i] = x->isyms ? x->isyms[j] : NULL;
        if (sy[i]) any = true;
    }
    return op_set_vals(c, 0, v, any ? sy : NULL, d[0].v);
}

/* ---- Gather family --------------------------------------------------------------- */

jc_status sh_gather(opctx *c)
{
    const jc_tshape *x = op_in(c, 0), *ix = op_in(c, 1);
    int dt = c->nin && c->in[0] ? c->in[0]->dtype : 0;
    if (!x || !ix || x->rank + ix->rank > MAXR + 1 || x->rank == 0) return op_set_out(c, 0, dt, -1, NULL);
    int a;
    if (!op_axis(op_attr_i(c, "axis", 0), x->rank, &a)) return op_set_out(c, 0, dt, -1, NULL);
    jc_dim d[MAXR * 2];
    int r = 0;
    for (int i = 0; i < a; i++) d[r++] = x->dims[i];
    for (int i = 0; i < ix->rank; i++) d[r++] = ix->dims[i];
    for (int i = a + 1; i < x->rank; i++) d[r++] = x->dims[i];
    jc_status st = op_set_out(c, 0, dt, r, d);
    if (!st && x->rank > 1) return fold_gather(c, x, ix, a);
    if (st || x->rank != 1 || x->n_vals < 0 || ix->n_vals < 0 || ix->n_vals > MAXR * 4) return st;
    int64_t v[MAXR * 4];
    const char *sy[MAXR * 4];
    double fv[MAXR * 4];
    bool any = false;
    for (int64_t i = 0; i < ix->n_vals; i++) {
        if (ix->isyms && ix->isyms[i]) return JC_OK;
        int64_t j = ix->ivals[i];
        if (j < 0) j += x->n_vals;
        if (j < 0 || j >= x->n_vals) return JC_OK;
        v[i] = x->ivals[j];
        fv[i] = x->fvals ? x->fvals[j] : (double)v[i];
        sy[i] = x->isyms ? x->isyms[j] : NULL;
        if (sy[i]) any = true;
    }
    st = op_set_vals(c, 0, v, any ? sy : NULL, ix->n_vals);
    if (!st && c->out[0] && c->out[0]->fvals)
        for (int64_t i = 0; i < ix->n_vals; i++) c->out[0]->fvals[i] = fv[i];
    return st;
}

jc_status sh_gatherelements(opctx *c)
{
    const jc_tshape *x = c->nin ? c->in[0] : NULL;
    return op_copy_out(c, 0, op_in(c, 1), x ? x->dtype : 0);
}

jc_status sh_gathernd(opctx *c)
{
    const jc_tshape *x = op_in(c, 0), *ix = op_in(c, 1);
    int dt = c->nin && c->in[0] ? c->in[0]->dtype : 0;
    int64_t b = op_attr_i(c, "batch_dims", 0);
    if (!x || !ix || ix->rank < 1 || ix->dims[ix->rank - 1].v < 0) return op_set_out(c, 0, dt, -1, NULL);
    int64_t last = ix->dims[ix->rank - 1].v;
    if (b < 0 || b >= ix->rank || b >= x->rank)
        return op_invalid(c, "batch_dims %lld is outside 0..%d (the ranks of data and indices, less 1)",
                          (long long)b, (x->rank < ix->rank ? x->rank : ix->rank) - 1);
    if (last < 1 || last > x->rank - b)
        return op_invalid(c, "indices' last dim %lld is outside 1..%lld (rank of data less batch_dims)",
                          (long long)last, (long long)(x->rank - b));
    jc_dim d[MAXR * 2];
    int r = 0;
    if (ix->rank - 1 + x->rank > MAXR * 2) return op_set_out(c, 0, dt, -1, NULL);
    for (int i = 0; i < ix->rank - 1; i++) d[r++] = ix->dims[i];
    for (int64_t i = b + last; i < x->rank; i++) d[r++] = x->dims[i];
    return op_set_out(c, 0, dt, r, d);
}

/* Gather: only the gathered rows move: numel(Y) read + written, plus the
 * indices. */
jc_status co_gather(opctx *c)
{
    int64_t ny, ni;
    c->cost.cls = JC_CLASS_MEMORY;
    c->bytes_set = 1;
    if (!op_numel(c, c->out[0], &ny) || !op_numel(c, op_in(c, 1), &ni)) return JC_OK;
    int64_t es = (jc_dtype_bits(c->out[0]->dtype) + 7) / 8, is = (jc_dtype_bits(c->in[1]->dtype) + 7) / 8;
    int64_t by, bi;
    if (!op_mul(c, ny, es, &by) || !op_mul(c, ni, is, &bi)) return op_overflow(c);
    if (op_in_is_weight(c, 0)) c->cost.weight_bytes_read = by;
    else c->cost.bytes_read = by;
    if (!op_add(c, c->cost.bytes_read, bi, &c->cost.bytes_read)) return op_overflow(c);
    c->cost.bytes_written = by;
    return JC_OK;
}

jc_status co_scatter(opctx *c)
{
    c->cost.cls = JC_CLASS_MEMORY;
    const char *red = op_attr_s(c, "reduction", "none");
    if (strcmp(red, "none")) {
        int64_t nu;
        if (!op_numel(c, op_in(c, 2), &nu)) return JC_OK;
        c->cost.cls = JC_CLASS_VECTOR;
        return op_flops(c, nu, 1) ? JC_OK : op_overflow(c);
    }
    return JC_OK;
}

/* ---- Expand, Tile, Pad, CenterCropPad --------------------------------------------- */

jc_status sh_expand(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int dt = c->nin && c->in[0] ? c->in[0]->dtype : 0;
    jc_dim s[MAXR];
    int64_t n;
    if (!x || !in_dimvals(c, 1, s, &n, MAXR)) {
        const jc_tshape *sh = op_in(c, 1);
        if (x && sh && sh->rank == 1 && sh->dims[0].v >= 0 && sh->dims[0].v <= MAXR)
            return op_set_out(c, 0, dt, (int)(sh->dims[0].v > x->rank ? sh->dims[0].v : x->rank), NULL);
        return op_set_out(c, 0, dt, -1, NULL);
    }
    int r = (int)n > x->rank ? (int)n : x->rank;
    jc_dim d[MAXR];
    for (int i = 0; i < r; i++) {
        int ia = i - (r - x->rank), is = i - (r - (int)n);
        jc_dim a = ia >= 0 ? x->dims[ia] : (jc_dim){1, NULL};
        jc_dim b = is >= 0 ? s[is] : (jc_dim){1, NULL};
        d[i] = dim_broadcast(a, b);
    }
    jc_status st = op_set_out(c, 0, dt, r, d);
    return st ? st : fold_expand(c, x);
}

jc_status sh_tile(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int dt = c->nin && c->in[0] ? c->in[0]->dtype : 0;
    const int64_t *rp;
    int64_t n;
    if (!x || x->rank > MAXR) return op_set_out(c, 0, dt, -1, NULL);
    if (c->opset < 6 || !op_in_ints(c, 1, &rp, &n) || n != x->rank) return op_set_out(c, 0, dt, x->rank, NULL);
    jc_dim d[MAXR];
    for (int i = 0; i < x->rank; i++) d[i] = dim_mul(x->dims[i], (jc_dim){rp[i], NULL});
    jc_status st = op_set_out(c, 0, dt, x->rank, d);
    return st ? st : fold_tile(c, x);
}

jc_status sh_pad(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int dt = c->nin && c->in[0] ? c->in[0]->dtype : 0;
    const int64_t *p, *ax = NULL;
    int64_t np, na = 0;
    if (!x || x->rank > MAXR) return op_set_out(c, 0, dt, -1, NULL);
    if (c->opset < 11) {
        np = (int64_t)op_attr_ints(c, "pads", &p);
        if (!np) np = (int64_t)op_attr_ints(c, "paddings", &p);
    } else if (!op_in_ints(c, 1, &p, &np)) {
        return op_set_out(c, 0, dt, x->rank, NULL);
    }
    if (c->opset >= 18 && c->nin > 3 && c->in[3] && !op_in_ints(c, 3, &ax, &na))
        return op_set_out(c, 0, dt, x->rank, NULL);
    int naxes = ax ? (int)na : x->rank;
    if (np != 2 * naxes) return op_set_out(c, 0, dt, x->rank, NULL);
    jc_dim d[MAXR];
    if (x->rank > 0) memcpy(d, x->dims, sizeof(jc_dim) * (size_t)x->rank);
    for (int i = 0; i < naxes; i++) {
        int a = i;
        if (ax && !op_axis(ax[i], x->rank, &a)) return op_set_out(c, 0, dt, x->rank, NULL);
        int64_t add;
        if (!jci_add_ok(p[i], p[naxes + i], &add) || (d[a].v >= 0 && !jci_add_ok(d[a].v, add, &d[a].v)))
            return ax_shape_overflow(c, "pads");
        if (d[a].v < 0 && add != 0) d[a].sym = NULL;
    }
    return op_set_out(c, 0, dt, x->rank, d);
}

jc_status sh_centercrop(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int dt = c->nin && c->in[0] ? c->in[0]->dtype : 0;
    const int64_t *s, *ax;
    int64_t ns;
    if (!x || x->rank > MAXR || !op_in_ints(c, 1, &s, &ns)) return op_set_out(c, 0, dt, x ? x->rank : -1, NULL);
    size_t na = op_attr_ints(c, "axes", &ax);
    jc_dim d[MAXR];
    if (x->rank) memcpy(d, x->dims, sizeof(jc_dim) * (size_t)x->rank);
    for (int64_t i = 0; i < ns; i++) {
        int a = (int)i;
        if (na && (i >= (int64_t)na || !op_axis(ax[i], x->rank, &a))) return op_set_out(c, 0, dt, x->rank, NULL);
        if (!na && i >= x->rank) break;
        d[a] = (jc_dim){s[i], NULL};
    }
    return op_set_out(c, 0, dt, x->rank, d);
}

jc_status sh_depthtospace(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int64_t b = op_attr_i(c, "blocksize", 1);
    if (!x || x->rank != 4 || b <= 0) return op_set_out(c, 0, x ? x->dtype : 0, 4, NULL);
    int64_t bb = op_smul(c, b, b, "blocksize");
    if (bb < 0) return JC_OK;
    jc_dim d[4] = {x->dims[0], {x->dims[1].v >= 0 ? x->dims[1].v / bb : -1, NULL},
                   {x->dims[2].v >= 0 ? op_smul(c, x->dims[2].v, b, "blocksize") : -1, NULL},
                   {x->dims[3].v >= 0 ? op_smul(c, x->dims[3].v, b, "blocksize") : -1, NULL}};
    return op_set_out(c, 0, x->dtype, 4, d);
}

jc_status sh_spacetodepth(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int64_t b = op_attr_i(c, "blocksize", 1);
    if (!x || x->rank != 4 || b <= 0) return op_set_out(c, 0, x ? x->dtype : 0, 4, NULL);
    int64_t bb = op_smul(c, b, b, "blocksize");
    if (bb < 0) return JC_OK;
    jc_dim d[4] = {x->dims[0], {x->dims[1].v >= 0 ? op_smul(c, x->dims[1].v, bb, "blocksize") : -1, NULL},
                   {x->dims[2].v >= 0 ? x->dims[2].v / b : -1, NULL},
                   {x->dims[3].v >= 0 ? x->dims[3].v / b : -1, NULL}};
    return op_set_out(c, 0, x->dtype, 4, d);
}

jc_status sh_onehot(opctx *c)
{
    const jc_tshape *ix = op_in(c, 0), *vals = c->nin > 2 ? c->in[2] : NULL;
    int dt = vals ? vals->dtype : JC_DT_FLOAT;
    if (!ix || ix->rank >= MAXR) return op_set_out(c, 0, dt, -1, NULL);
    int r = ix->rank + 1, a;
    if (!op_axis(op_attr_i(c, "axis", -1), r, &a)) return op_set_out(c, 0, dt, r, NULL);
    jc_dim depth = {-1, NULL};
    const jc_tshape *dp = c->nin > 1 ? c->in[1] : NULL;
    if (dp && dp->n_vals == 1 && !(dp->isyms && dp->isyms[0]))
        depth.v = dp->fvals ? (int64_t)dp->fvals[0] : dp->ivals[0];
    jc_dim d[MAXR];
    for (int i = 0, j = 0; i < r; i++) d[i] = i == a ? depth : ix->dims[j++];
    return op_set_out(c, 0, dt, r, d);
}

/* ---- data-dependent sizes ----------------------------------------------------------- */

static int64_t count_nonzero(const jc_tshape *t)
{
    if (!t || t->n_vals < 0 || t->isyms) return -1;
    int64_t n = 0;
    for (int64_t i = 0; i < t->n_vals; i++) n += t->fvals ? t->fvals[i] != 0 : t->ivals[i] != 0;
    return n;
}

jc_status sh_compress(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int dt = c->nin && c->in[0] ? c->in[0]->dtype : 0;
    int64_t nz = count_nonzero(c->nin > 1 ? c->in[1] : NULL);
    jc_dim dd = nz >= 0 ? (jc_dim){nz, NULL} : op_data_dim(c, 0, 0);
    const jc_attr *aa = op_attr(c, "axis");
    if (!aa) return op_set_out(c, 0, dt, 1, &dd);
    if (!x || x->rank > MAXR) return op_set_out(c, 0, dt, -1, NULL);
    int a;
    if (!op_axis(aa->i, x->rank, &a)) return op_set_out(c, 0, dt, x->rank, NULL);
    jc_dim d[MAXR];
    if (x->rank > 0) memcpy(d, x->dims, sizeof(jc_dim) * (size_t)x->rank);
    if (nz < 0) dd = op_data_dim(c, 0, a);
    d[a] = dd;
    return op_set_out(c, 0, dt, x->rank, d);
}

jc_status sh_nonzero(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int64_t nz = count_nonzero(c->nin ? c->in[0] : NULL);
    jc_dim d[2] = {{x ? x->rank : -1, NULL}, {nz, NULL}};
    if (nz < 0) d[1] = op_data_dim(c, 0, 1);
    return op_set_out(c, 0, JC_DT_INT64, 2, d);
}

jc_status sh_unique(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int dt = c->nin && c->in[0] ? c->in[0]->dtype : 0;
    const jc_attr *aa = op_attr(c, "axis");
    jc_dim u = op_data_dim(c, 0, 0);
    jc_status st;
    if (!aa || !x) {
        st = op_set_out(c, 0, dt, 1, &u);
        if (!st && c->nout > 1) st = op_set_out(c, 1, JC_DT_INT64, 1, &u);
        if (!st && c->nout > 2) {
            jc_dim n = {1, NULL};
            for (int i = 0; x && i < x->rank; i++) n = dim_mul(n, x->dims[i]);
            if (!x) n.v = -1;
            st = op_set_out(c, 2, JC_DT_INT64, 1, &n);
        }
        if (!st && c->nout > 3) st = op_set_out(c, 3, JC_DT_INT64, 1, &u);
        return st;
    }
    int a;
    if (x->rank > MAXR || !op_axis(aa->i, x->rank, &a)) return op_set_out(c, 0, dt, -1, NULL);
    jc_dim d[MAXR];
    if (x->rank > 0) memcpy(d, x->dims, sizeof(jc_dim) * (size_t)x->rank);
    d[a] = op_data_dim(c, 0, a);
    st = op_set_out(c, 0, dt, x->rank, d);
    if (!st && c->nout > 1) st = op_set_out(c, 1, JC_DT_INT64, 1, &d[a]);
    if (!st && c->nout > 2) st = op_set_out(c, 2, JC_DT_INT64, 1, &x->dims[a]);
    if (!st && c->nout > 3) st = op_set_out(c, 3, JC_DT_INT64, 1, &d[a]);
    return st;
}

jc_status sh_nms(opctx *c)
{
    jc_dim d[2] = {op_data_dim(c, 0, 0), {3, NULL}};
    return op_set_out(c, 0, JC_DT_INT64, 2, d);
}

jc_status sh_topk(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int dt = c->nin && c->in[0] ? c->in[0]->dtype : 0;
    jc_status st;
    if (!x || x->rank > MAXR || x->rank == 0) {
        st = op_set_out(c, 0, dt, x ? x->rank : -1, NULL);
        if (!st && c->nout > 1) st = op_set_out(c, 1, JC_DT_INT64, x ? x->rank : -1, NULL);
        return st;
    }
    int a;
    if (!op_axis(op_attr_i(c, "axis", -1), x->rank, &a)) return op_set_out(c, 0, dt, -1, NULL);
    jc_dim d[MAXR];
    if (x->rank > 0) memcpy(d, x->dims, sizeof(jc_dim) * (size_t)x->rank);
    const int64_t *k;
    int64_t nk;
    if (c->opset < 10) d[a] = (jc_dim){op_attr_i(c, "k", -1), NULL};
    else if (op_in_ints(c, 1, &k, &nk) && nk == 1) d[a] = (jc_dim){k[0], NULL};
    else d[a] = op_data_dim(c, 0, a);
    st = op_set_out(c, 0, dt, x->rank, d);
    if (!st && c->nout > 1) st = op_set_out(c, 1, JC_DT_INT64, x->rank, d);
    return st;
}

/* TopK: numel(X) compares (COUNTING.md). */
jc_status co_topk(opctx *c)
{
    int64_t n;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!op_numel(c, op_in(c, 0), &n)) return JC_OK;
    return op_flops(c, n, 1) ? JC_OK : op_overflow(c);
}
