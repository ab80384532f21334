/*
 * fold.c (analysis/ops) - constant folding of small N-D tensors through data movement
 * (Transpose, Slice, Concat, Gather, Split, Expand, Tile).  Each output
 * element is a copy of one input element: its integer value, its symbol
 * (isyms) and its double.  The shape rules of ops_shape.c call these after
 * they have set the output shape, so shape arithmetic that an exporter
 * writes in 2-D folds like the 1-D chains do.  Example: torchvision's Swin
 * computes its window pads as Concat -> Reshape [-1, 2] -> Slice (step -1)
 * -> Transpose -> Reshape -> Cast -> Pad; without N-D folding the pads
 * stay unknown and every node after the first window partition is blocked.
 *
 * Nothing here fails the analysis: a tensor that is not fully known (an
 * unknown dim, values not kept, more than JCI_SMALL_TENSOR elements) is
 * simply left unfolded.  Only JC_ERR_NOMEM is returned.
 */
#include "analysis/ops/actx.h"

#include <string.h>

#define FMAXR 64

bool fold_numel(const jc_tshape *t, int64_t *n)
{
    if (!t || t->n_vals < 0 || t->rank < 0 || t->rank > FMAXR) return false;
    int64_t p = 1;
    for (int i = 0; i < t->rank; i++)
        if (t->dims[i].v < 0 || !jci_mul_ok(p, t->dims[i].v, &p)) return false;
    if (p != t->n_vals) return false;
    *n = p;
    return true;
}

/* numel of output k when its shape is fully known and small */
static bool out_numel(opctx *c, int k, int64_t *n)
{
    if (k >= c->nout || !c->out[k] || c->out[k]->rank < 0 || c->out[k]->rank > FMAXR) return false;
    const jc_tshape *o = c->out[k];
    int64_t p = 1;
    for (int i = 0; i < o->rank; i++)
        if (o->dims[i].v < 0 || !jci_mul_ok(p, o->dims[i].v, &p)) return false;
    if (p > JCI_SMALL_TENSOR) return false;
    *n = p;
    return true;
}

static void unravel(int64_t e, const jc_dim *d, int r, int64_t *coord)
{
    for (int i = r - 1; i >= 0; i--) {
        coord[i] = d[i].v ? e % d[i].v : 0;
        e = d[i].v ? e / d[i].v : 0;
    }
}

static int64_t ravel(const int64_t *coord, const jc_dim *d, int r)
{
    int64_t e = 0;
    for (int i = 0; i < r; i++) e = e * d[i].v + coord[i];
    return e;
}

/* Output k gets element e = src[which[e]] at index idx[e]. */
static jc_status copy_mapped(opctx *c, int k, const jc_tshape *const *src, const int *which,
                             const int64_t *idx, int64_t n)
{
    jci_arena *a = ax_arena(c->ax);
    int64_t *v = jci_arena_calloc(a, (size_t)(n ? n : 1), sizeof(int64_t));
    const char **s = jci_arena_calloc(a, (size_t)(n ? n : 1), sizeof(char *));
    if (!v || !s) return JC_ERR_NOMEM;
    bool any = false;
    for (int64_t e = 0; e < n; e++) {
        const jc_tshape *t = src[which ? which[e] : 0];
        if (idx[e] < 0 || idx[e] >= t->n_vals) return JC_OK;
        v[e] = t->ivals[idx[e]];
        s[e] = t->isyms ? t->isyms[idx[e]] : NULL;
        if (s[e]) any = true;
    }
    jc_status st = op_set_vals(c, k, v, any ? s : NULL, n);
    if (st || !c->out[k] || c->out[k]->n_vals != n) return st;
    for (int64_t e = 0; e < n; e++) {
        const jc_tshape *t = src[which ? which[e] : 0];
        if (t->fvals) c->out[k]->fvals[e] = t->fvals[idx[e]];
    }
    return JC_OK;
}

/* scratch index array of n entries */
static int64_t *scratch(opctx *c, int64_t n)
{
    return jci_arena_calloc(ax_arena(c->ax), (size_t)(n ? n : 1), sizeof(int64_t));
}

jc_status fold_transpose(opctx *c, const jc_tshape *x, const int *perm)
{
    int64_t nx, n;
    if (!fold_numel(x, &nx) || !out_numel(c, 0, &n) || n != nx) return JC_OK;
    const jc_tshape *o = c->out[0];
    int64_t *idx = scratch(c, n), oc[FMAXR], ic[FMAXR];
    if (!idx) return JC_ERR_NOMEM;
    for (int64_t e = 0; e < n; e++) {
        unravel(e, o->dims, o->rank, oc);
        for (int i = 0; i < o->rank; i++) ic[perm[i]] = oc[i];
        idx[e] = ravel(ic, x->dims, x->rank);
    }
    return copy_mapped(c, 0, &x, NULL, idx, n);
}

jc_status fold_slice(opctx *c, const jc_tshape *x, const int64_t *start, const int64_t *step)
{
    int64_t nx, n;
    if (!fold_numel(x, &nx) || !out_numel(c, 0, &n) || c->out[0]->rank != x->rank) return JC_OK;
    const jc_tshape *o = c->out[0];
    int64_t *idx = scratch(c, n), oc[FMAXR], ic[FMAXR];
    if (!idx) return JC_ERR_NOMEM;
    for (int64_t e = 0; e < n; e++) {
        unravel(e, o->dims, o->rank, oc);
        for (int i = 0; i < o->rank; i++) {
            ic[i] = start[i] + oc[i] * step[i];
            if (ic[i] < 0 || ic[i] >= x->dims[i].v) return JC_OK;
        }
        idx[e] = ravel(ic, x->dims, x->rank);
    }
    return copy_mapped(c, 0, &x, NULL, idx, n);
}

jc_status fold_concat(opctx *c, int axis)
{
    int64_t n, nt;
    if (!out_numel(c, 0, &n)) return JC_OK;
    const jc_tshape *o = c->out[0];
    const jc_tshape *src[256];
    int64_t off[257];
    int ns = 0;
    off[0] = 0;
    for (int i = 0; i < c->nin; i++) {
        const jc_tshape *t = c->in[i];
        if (!t) continue;
        if (ns == 256 || !fold_numel(t, &nt) || t->rank != o->rank) return JC_OK;
        src[ns] = t;
        off[ns + 1] = off[ns] + t->dims[axis].v;
        ns++;
    }
    if (!ns || off[ns] != o->dims[axis].v) return JC_OK;
    int64_t *idx = scratch(c, n), oc[FMAXR];
    int *which = jci_arena_calloc(ax_arena(c->ax), (size_t)(n ? n : 1), sizeof(int));
    if (!idx || !which) return JC_ERR_NOMEM;
    for (int64_t e = 0; e < n; e++) {
        unravel(e, o->dims, o->rank, oc);
        int q = 0;
        while (q + 1 < ns && oc[axis] >= off[q + 1]) q++;
        oc[axis] -= off[q];
        which[e] = q;
        idx[e] = ravel(oc, src[q]->dims, src[q]->rank);
    }
    return copy_mapped(c, 0, src, which, idx, n);
}

jc_status fold_gather(opctx *c, const jc_tshape *x, const jc_tshape *ix, int axis)
{
    int64_t nx, ni, n;
    if (!fold_numel(x, &nx) || !fold_numel(ix, &ni) || ix->isyms || !out_numel(c, 0, &n)) return JC_OK;
    const jc_tshape *o = c->out[0];
    if (o->rank != x->rank - 1 + ix->rank) return JC_OK;
    int64_t *idx = scratch(c, n), oc[FMAXR * 2], ic[FMAXR];
    if (!idx) return JC_ERR_NOMEM;
    for (int64_t e = 0; e < n; e++) {
        unravel(e, o->dims, o->rank, oc);
        int64_t j = ravel(oc + axis, ix->dims, ix->rank), g = ix->ivals[j];
        if (g < 0) g += x->dims[axis].v;
        if (g < 0 || g >= x->dims[axis].v) return JC_OK;
        for (int i = 0; i < axis; i++) ic[i] = oc[i];
        ic[axis] = g;
        for (int i = axis + 1; i < x->rank; i++) ic[i] = oc[i - 1 + ix->rank];
        idx[e] = ravel(ic, x->dims, x->rank);
    }
    return copy_mapped(c, 0, &x, NULL, idx, n);
}

jc_status fold_split(opctx *c, const jc_tshape *x, int axis, const int64_t *sizes)
{
    int64_t nx, off = 0;
    if (!fold_numel(x, &nx)) return JC_OK;
    for (int k = 0; k < c->nout; k++) {
        int64_t n, oc[FMAXR];
        int64_t here = off;
        off += sizes[k];
        if (!out_numel(c, k, &n) || c->out[k]->rank != x->rank) continue;
        const jc_tshape *o = c->out[k];
        int64_t *idx = scratch(c, n);
        if (!idx) return JC_ERR_NOMEM;
        bool ok = true;
        for (int64_t e = 0; e < n && ok; e++) {
            unravel(e, o->dims, o->rank, oc);
            oc[axis] += here;
            ok = oc[axis] < x->dims[axis].v;
            idx[e] = ravel(oc, x->dims, x->rank);
        }
        jc_status st = ok ? copy_mapped(c, k, &x, NULL, idx, n) : JC_OK;
        if (st) return st;
    }
    return JC_OK;
}

/* Expand (numpy broadcast of x to the output) and Tile (coordinates
 * modulo x's dims): both read x at a coordinate derived per axis. */
static jc_status fold_repeat(opctx *c, const jc_tshape *x, bool tile)
{
    int64_t nx, n;
    if (!fold_numel(x, &nx) || !out_numel(c, 0, &n)) return JC_OK;
    const jc_tshape *o = c->out[0];
    if (x->rank > o->rank) return JC_OK;
    int64_t *idx = scratch(c, n), oc[FMAXR], ic[FMAXR];
    if (!idx) return JC_ERR_NOMEM;
    int lead = o->rank - x->rank;
    for (int64_t e = 0; e < n; e++) {
        unravel(e, o->dims, o->rank, oc);
        for (int i = 0; i < x->rank; i++) {
            int64_t xd = x->dims[i].v, v = oc[i + lead];
            ic[i] = tile ? (xd ? v % xd : 0) : (xd == 1 ? 0 : v);
        }
        idx[e] = ravel(ic, x->dims, x->rank);
    }
    return copy_mapped(c, 0, &x, NULL, idx, n);
}

jc_status fold_expand(opctx *c, const jc_tshape *x) { return fold_repeat(c, x, false); }

jc_status fold_tile(opctx *c, const jc_tshape *x) { return fold_repeat(c, x, true); }
