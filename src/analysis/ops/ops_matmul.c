/*
 * ops_matmul.c (analysis/ops) - matrix products: MatMul (param 0), MatMulInteger (1),
 * QLinearMatMul (2), com.microsoft FusedMatMul (3) and MatMulNBits, Gemm,
 * Einsum (1, 2 and N operands; pairwise left-to-right), Det.
 * MatMul MACs = numel(Y)*K after numpy broadcasting (1-D operands get a
 * 1 prepended/appended as ONNX does); Gemm MACs = M*N*K plus the C/alpha/
 * beta FLOPs of COUNTING.md.
 */
#include "analysis/ops/actx.h"

#include <math.h>
#include <string.h>

#define MAXR 32

static int a_index(opctx *c) { (void)c; return 0; }
static int b_index(opctx *c) { return c->param == 2 ? 3 : 1; }

/* The K of a matmul, or -1 when unknown. */
static jc_dim mm_k(opctx *c)
{
    const jc_tshape *a = op_in(c, a_index(c));
    if (!a || a->rank < 1) return (jc_dim){-1, NULL};
    bool ta = c->param == 3 && op_attr_i(c, "transA", 0);
    if (a->rank == 1) return a->dims[0];
    return ta ? a->dims[a->rank - 2] : a->dims[a->rank - 1];
}

/* The type and shape rules of a matrix product (the ONNX checker's
 * type constraints; shape inference's inner dimension): input ia or ib of
 * type string or bool, or inner dimensions ka (of A) and kb (of B) both
 * known and unequal, refuse the node (exit 4) naming the inputs. */
static jc_status mm_valid(opctx *c, int ia, int ib, jc_dim ka, jc_dim kb)
{
    for (int i = 0; i < 2; i++) {
        int k = i ? ib : ia;
        const jc_tshape *t = op_in(c, k);
        if (t && (t->dtype == JC_DT_STRING || t->dtype == JC_DT_BOOL))
            return op_invalid(c, "input '%s' is a %s tensor: %s multiplies numbers", ax_input_name(c, k),
                              jc_dtype_name(t->dtype), c->n->op_type);
    }
    if (ka.v >= 0 && kb.v >= 0 && ka.v != kb.v)
        return op_invalid(c, "inner dimensions disagree: '%s' has %lld columns, '%s' %lld rows",
                          ax_input_name(c, ia), (long long)ka.v, ax_input_name(c, ib), (long long)kb.v);
    return JC_OK;
}

/* A scaling attribute (alpha, beta) that is NaN or infinite refuses the
 * node (exit 4): no product is scaled by it. */
static jc_status finite_scale(opctx *c, const char *name)
{
    double v = op_attr_f(c, name, 1.0);
    if (isfinite(v)) return JC_OK;
    return op_invalid(c, "attribute '%s' is %s: not a number to scale by", name, isnan(v) ? "NaN" : "infinite");
}

jc_status sh_matmul(opctx *c)
{
    const jc_tshape *a = op_in(c, a_index(c)), *b = op_in(c, b_index(c));
    int dt = a ? a->dtype : 0;
    if (c->param == 1) dt = JC_DT_INT32;
    if (c->param == 2) dt = c->nin > 7 && c->in[7] ? c->in[7]->dtype : JC_DT_UINT8;
    if (!a || !b || a->rank < 1 || b->rank < 1 || a->rank > MAXR || b->rank > MAXR)
        return op_set_out(c, 0, dt, -1, NULL);
    bool ta = c->param == 3 && op_attr_i(c, "transA", 0);
    bool tb = c->param == 3 && op_attr_i(c, "transB", 0);
    jc_dim ad[MAXR + 1], bd[MAXR + 1];
    int ar = a->rank, br = b->rank;
    memcpy(ad, a->dims, sizeof(jc_dim) * (size_t)ar);
    memcpy(bd, b->dims, sizeof(jc_dim) * (size_t)br);
    if (ta && ar >= 2) {
        jc_dim t = ad[ar - 1];
        ad[ar - 1] = ad[ar - 2];
        ad[ar - 2] = t;
    }
    if (tb && br >= 2) {
        jc_dim t = bd[br - 1];
        bd[br - 1] = bd[br - 2];
        bd[br - 2] = t;
    }
    bool a1 = ar == 1, b1 = br == 1;
    if (a1) {
        ad[1] = ad[0];
        ad[0] = (jc_dim){1, NULL};
        ar = 2;
    }
    if (b1) {
        bd[1] = (jc_dim){1, NULL};
        br = 2;
    }
    jc_status st;
    if (c->param == 0 || c->param == 3) {   /* the quantised forms take integer operands of their own rules */
        if ((st = mm_valid(c, a_index(c), b_index(c), ad[ar - 1], bd[br - 2]))) return st;
        if (c->param == 3 && (st = finite_scale(c, "alpha"))) return st;
    }
    int batch = (ar > br ? ar : br) - 2;
    jc_dim d[MAXR + 2];
    int r = 0;
    for (int i = 0; i < batch; i++) {
        int ia = i - (batch - (ar - 2)), ib = i - (batch - (br - 2));
        jc_dim x = ia >= 0 ? ad[ia] : (jc_dim){1, NULL};
        jc_dim y = ib >= 0 ? bd[ib] : (jc_dim){1, NULL};
        d[r++] = dim_broadcast(x, y);
    }
    if (!a1) d[r++] = ad[ar - 2];
    if (!b1) d[r++] = bd[br - 1];
    return op_set_out(c, 0, dt, r, d);
}

jc_status co_matmul(opctx *c)
{
    int64_t ny, mac;
    c->cost.cls = JC_CLASS_MATRIX;
    if (c->param == 1 || c->param == 2) {
        const jc_tshape *a = op_in(c, 0);
        c->cost.arith_dtype = a ? a->dtype : JC_DT_INT8;
    }
    jc_dim k = mm_k(c);
    if (!op_numel(c, c->out[0], &ny)) return JC_OK;
    if (k.v < 0) {
        jc_tshape t = {0};
        t.rank = 1;
        t.dims = &k;
        int64_t dummy;
        op_numel(c, &t, &dummy);
        return JC_OK;
    }
    if (!op_mul(c, ny, k.v, &mac) || !op_macs(c, mac)) return op_overflow(c);
    if (c->param == 3 && op_attr_f(c, "alpha", 1.0) != 1.0 && !op_flops(c, ny, 1)) return op_overflow(c);
    return JC_OK;
}

jc_status sh_matmulnbits(opctx *c)
{
    const jc_tshape *a = op_in(c, 0);
    int64_t n = op_attr_i(c, "N", -1);
    if (!a || a->rank < 1 || a->rank > MAXR) return op_set_out(c, 0, a ? a->dtype : 0, -1, NULL);
    jc_dim d[MAXR];
    if (a->rank > 0) memcpy(d, a->dims, sizeof(jc_dim) * (size_t)a->rank);
    d[a->rank - 1] = (jc_dim){n, NULL};
    return op_set_out(c, 0, a->dtype, a->rank, d);
}

jc_status co_matmulnbits(opctx *c)
{
    int64_t ny, mac, kn;
    int64_t k = op_attr_i(c, "K", -1), n = op_attr_i(c, "N", -1);
    int bits = (int)op_attr_i(c, "bits", 4);
    c->cost.cls = JC_CLASS_MATRIX;
    c->cost.arith_dtype = bits == 4 ? JC_DT_INT4 : JC_DT_UINT8;
    if (!op_numel(c, c->out[0], &ny)) return JC_OK;
    if (k < 0 || n < 0) return op_unknown(c);
    if (!op_mul(c, ny, k, &mac) || !op_macs(c, mac)) return op_overflow(c);
    /* dequantising the weights: scale and zero-point per element */
    if (!op_mul(c, k, n, &kn) || !op_flops(c, kn, 2)) return op_overflow(c);
    op_note(c, "MatMulNBits: %d-bit weights, dequantisation counted as 2 FLOPs per weight", bits);
    return JC_OK;
}

jc_status sh_gemm(opctx *c)
{
    const jc_tshape *a = op_in(c, 0), *b = op_in(c, 1);
    int dt = a ? a->dtype : 0;
    jc_dim d[2] = {{-1, NULL}, {-1, NULL}};
    bool ta = op_attr_i(c, "transA", 0), tb = op_attr_i(c, "transB", 0);
    jc_dim ka = {-1, NULL}, kb = {-1, NULL};
    if (a && a->rank == 2) d[0] = a->dims[ta ? 1 : 0], ka = a->dims[ta ? 0 : 1];
    if (b && b->rank == 2) d[1] = b->dims[tb ? 0 : 1], kb = b->dims[tb ? 1 : 0];
    jc_status st = mm_valid(c, 0, 1, ka, kb);
    if (st) return st;
    if ((st = finite_scale(c, "alpha")) || (st = finite_scale(c, "beta"))) return st;
    return op_set_out(c, 0, dt, 2, d);
}

jc_status co_gemm(opctx *c)
{
    const jc_tshape *a = op_in(c, 0);
    int64_t ny, mac;
    c->cost.cls = JC_CLASS_MATRIX;
    if (!op_numel(c, c->out[0], &ny)) return JC_OK;
    if (!a || a->rank != 2) return op_unknown(c);
    bool ta = op_attr_i(c, "transA", 0);
    jc_dim k = a->dims[ta ? 0 : 1];
    if (k.v < 0) {
        jc_tshape t = {0};
        int64_t dummy;
        t.rank = 1;
        t.dims = &k;
        op_numel(c, &t, &dummy);
        return JC_OK;
    }
    if (!op_mul(c, ny, k.v, &mac) || !op_macs(c, mac)) return op_overflow(c);
    if (c->nin > 2 && c->in[2]) {
        if (!op_flops(c, ny, 1)) return op_overflow(c);
        if (op_attr_f(c, "beta", 1.0) != 1.0 && !op_flops(c, ny, 1)) return op_overflow(c);
    }
    if (op_attr_f(c, "alpha", 1.0) != 1.0 && !op_flops(c, ny, 1)) return op_overflow(c);
    return JC_OK;
}

/* ---- Einsum -------------------------------------------------------------------- */

#define NLAB 96   /* 52 letters + ellipsis dims */
#define MAXOPS 16

typedef struct einsum {
    int nops;
    int lab[MAXOPS][MAXR];   /* label ids per operand axis */
    int nlab[MAXOPS];
    int out[MAXR], nout;
    jc_dim size[NLAB];
    bool ok;
} einsum;

static int lab_id(char ch)
{
    if (ch >= 'a' && ch <= 'z') return ch - 'a';
    if (ch >= 'A' && ch <= 'Z') return 26 + ch - 'A';
    return -1;
}

/* Parses the equation against the input ranks; ellipsis dims get ids
 * 52.. aligned from the right. */
static bool einsum_parse(opctx *c, einsum *e)
{
    const char *eq = op_attr_s(c, "equation", NULL);
    memset(e, 0, sizeof *e);
    if (!eq) return false;
    for (int i = 0; i < NLAB; i++) e->size[i] = (jc_dim){-1, NULL};
    int maxell = 0;
    const char *p = eq;
    int k = 0;
    int ellpos[MAXOPS];
    for (;;) {
        if (k >= MAXOPS || k >= c->nin) return false;
        const jc_tshape *t = op_in(c, k);
        if (!t) return false;
        int n = 0, letters = 0;
        ellpos[k] = -1;
        const char *q = p;
        for (; *q && *q != ',' && *q != '-'; q++) {
            if (*q == ' ') continue;
            if (*q == '.') {
                if (q[1] != '.' || q[2] != '.') return false;
                if (ellpos[k] >= 0) {
                    op_invalid(c, "equation: more than one '...' in the term of input %d", k);
                    return false;
                }
                ellpos[k] = letters;
                q += 2;
                continue;
            }
            if (lab_id(*q) < 0) return false;
            if (++letters > t->rank) {
                op_invalid(c, "equation: the term of input %d has more labels than its rank %d", k, t->rank);
                return false;
            }
        }
        int ell = ellpos[k] >= 0 ? t->rank - letters : 0;
        if (ell < 0 || t->rank > MAXR) return false;
        if (ell > maxell) maxell = ell;
        for (q = p; *q && *q != ',' && *q != '-'; q++) {
            if (*q == ' ') continue;
            if (*q == '.') {
                for (int j = 0; j < ell; j++) e->lab[k][n++] = 52 + (ell - 1 - j);
                q += 2;
                continue;
            }
            e->lab[k][n++] = lab_id(*q);
        }
        if (n != t->rank) return false;
        e->nlab[k] = n;
        k++;
        p = q;
        if (*p == ',') {
            p++;
            continue;
        }
        break;
    }
    e->nops = k;
    /* sizes */
    for (int o = 0; o < k; o++) {
        const jc_tshape *t = op_in(c, o);
        for (int j = 0; j < e->nlab[o]; j++) {
            int id = e->lab[o][j];
            if (id >= NLAB) return false;
            jc_dim d = t->dims[j];
            if (e->size[id].v < 0 && !e->size[id].sym) e->size[id] = d;
            else e->size[id] = dim_broadcast(e->size[id], d);
        }
    }
    /* output */
    if (p[0] == '-' && p[1] == '>') {
        p += 2;
        bool ell_out = false;
        for (; *p; p++) {
            if (*p == ' ') continue;
            if (*p == '.') {
                if (p[1] != '.' || p[2] != '.') return false;
                if (ell_out || e->nout + maxell > MAXR) {
                    op_invalid(c, "equation: more than one '...' or more than %d labels in the output", MAXR);
                    return false;
                }
                ell_out = true;
                for (int j = 0; j < maxell; j++) e->out[e->nout++] = 52 + (maxell - 1 - j);
                p += 2;
                continue;
            }
            int id = lab_id(*p);
            if (id < 0 || e->nout >= MAXR) return false;
            e->out[e->nout++] = id;
        }
    } else {
        for (int j = 0; j < maxell; j++) e->out[e->nout++] = 52 + (maxell - 1 - j);
        for (int id = 0; id < 52; id++) {
            int cnt = 0;
            for (int o = 0; o < k; o++)
                for (int j = 0; j < e->nlab[o]; j++) cnt += e->lab[o][j] == id;
            if (cnt == 1 && e->nout < MAXR) e->out[e->nout++] = id;
        }
    }
    e->ok = true;
    return true;
}

jc_status sh_einsum(opctx *c)
{
    einsum e;
    int dt = c->nin && c->in[0] ? c->in[0]->dtype : 0;
    if (!einsum_parse(c, &e)) return op_set_out(c, 0, dt, -1, NULL);
    jc_dim d[MAXR];
    for (int i = 0; i < e.nout; i++) d[i] = e.size[e.out[i]];
    return op_set_out(c, 0, dt, e.nout, d);
}

static bool lab_product(opctx *c, const einsum *e, const bool *set, int64_t *p)
{
    *p = 1;
    for (int id = 0; id < NLAB; id++) {
        if (!set[id]) continue;
        if (e->size[id].v < 0) {
            jc_tshape t = {0};
            jc_dim d = e->size[id];
            int64_t dummy;
            t.rank = 1;
            t.dims = &d;
            op_numel(c, &t, &dummy);
            return false;
        }
        if (!op_mul(c, *p, e->size[id].v, p)) return false;
    }
    return true;
}

jc_status co_einsum(opctx *c)
{
    einsum e;
    c->cost.cls = JC_CLASS_MATRIX;
    if (!einsum_parse(c, &e)) return op_unknown(c);
    if (e.nops == 1) {
        int64_t nx, ny;
        c->cost.cls = JC_CLASS_VECTOR;
        if (!op_numel(c, op_in(c, 0), &nx) || !op_numel(c, c->out[0], &ny)) return JC_OK;
        return op_flops(c, nx > ny ? nx - ny : 0, 1) ? JC_OK : op_overflow(c);
    }
    /* pairwise left to right: the running operand keeps the labels still
     * needed by a later operand or the output */
    bool cur[NLAB] = {0};
    for (int j = 0; j < e.nlab[0]; j++) cur[e.lab[0][j]] = true;
    for (int o = 1; o < e.nops; o++) {
        bool all[NLAB];
        memcpy(all, cur, sizeof all);
        for (int j = 0; j < e.nlab[o]; j++) all[e.lab[o][j]] = true;
        int64_t mac;
        if (!lab_product(c, &e, all, &mac))
            return c->cost.state == JC_COST_UNKNOWN_DIMS ? JC_OK : JC_ERR_RANGE;
        if (!op_macs(c, mac)) return op_overflow(c);
        bool next[NLAB] = {0};
        for (int id = 0; id < NLAB; id++) {
            if (!all[id]) continue;
            bool need = false;
            for (int q = o + 1; q < e.nops && !need; q++)
                for (int j = 0; j < e.nlab[q]; j++) need |= e.lab[q][j] == id;
            for (int j = 0; j < e.nout && !need; j++) need |= e.out[j] == id;
            next[id] = need;
        }
        memcpy(cur, next, sizeof cur);
    }
    return JC_OK;
}

/* ---- Det ------------------------------------------------------------------------- */

jc_status sh_det(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    if (x && x->rank < 2) return op_invalid(c, "Det needs an input of rank 2 or more (got rank %d)", x->rank);
    if (!x) return op_set_out(c, 0, 0, -1, NULL);
    return op_set_out(c, 0, x->dtype, x->rank - 2, x->dims);
}

jc_status co_det(opctx *c)
{
    const jc_tshape *x = op_in(c, 0);
    int64_t nx, m, mac;
    c->cost.cls = JC_CLASS_MATRIX;
    if (!op_numel(c, x, &nx)) return JC_OK;
    if (x->rank < 2) return op_invalid(c, "Det needs an input of rank 2 or more (got rank %d)", x->rank);
    m = x->dims[x->rank - 1].v;
    if (m <= 0) return JC_OK;
    /* LU factorisation: ~m^3/3 MACs per matrix = numel/m^2 * m^3/3 */
    int64_t m2, m3;
    if (!op_mul(c, m, m, &m2) || !op_mul(c, m2, m, &m3) || !op_mul(c, nx / m2, m3 / 3, &mac) || !op_macs(c, mac))
        return op_overflow(c);
    op_note(c, "Det: LU factorisation, m^3/3 MACs per matrix");
    return JC_OK;
}
