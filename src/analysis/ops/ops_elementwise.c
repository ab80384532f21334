/*
 * ops_elementwise.c (analysis/ops) - elementwise operators: unary (param = FLOPs*16 +
 * special ops per output element), binary and variadic with numpy
 * broadcasting, Clip, Pow, Where, Cast, Identity, Dropout.  Shape rules
 * constant-fold small integer tensors (the arithmetic of shape chains:
 * Add/Sub/Mul/Div/Mod/Equal/Less/Greater/Where/Max/Min/Cast, and the
 * unary Neg/Abs/Relu/Sign/Ceil/Floor/Round), keeping a symbol where an
 * element is a known symbolic dim passed through; small floating tensors
 * are folded in doubles (Range bounds and sizes computed in float).
 */
#include "analysis/ops/actx.h"

#include <math.h>
#include <string.h>

/* ---- shape rules ----------------------------------------------------------- */

static bool is_float_dtype(int dt);
static jc_status set_fvals(opctx *c, const double *f, int64_t n);

static jc_status copy_vals(opctx *c, int k, const jc_tshape *t)
{
    if (!t || t->n_vals < 0) return JC_OK;
    jc_status st = op_set_vals(c, k, t->ivals, t->isyms, t->n_vals);
    if (st || !c->out[k] || !t->fvals) return st;
    for (int64_t i = 0; i < t->n_vals; i++) c->out[k]->fvals[i] = t->fvals[i];
    return JC_OK;
}

jc_status sh_same(opctx *c)
{
    return op_copy_out(c, 0, c->nin ? c->in[0] : NULL, 0);
}

jc_status sh_first(opctx *c)
{
    return sh_same(c);
}

/* Elementwise unary ops with folded values (Neg of a constant axis list,
 * Ceil/Relu of a float Range length, ...): integers stay exact, floating
 * values are computed in doubles. */
jc_status sh_unary(opctx *c)
{
    jc_status st = sh_same(c);
    const jc_tshape *t = c->nin ? c->in[0] : NULL;
    if (st || !t || t->n_vals < 0 || t->isyms || !c->out[0]) return st;
    const char *op = c->n->op_type;
    int64_t n = t->n_vals;
    if (!is_float_dtype(t->dtype)) {
        int64_t v[JCI_SMALL_TENSOR];
        for (int64_t e = 0; e < n; e++) {
            int64_t x = t->ivals[e];
            if (x == INT64_MIN) return JC_OK;
            if (!strcmp(op, "Neg")) v[e] = -x;
            else if (!strcmp(op, "Abs")) v[e] = x < 0 ? -x : x;
            else if (!strcmp(op, "Relu")) v[e] = x < 0 ? 0 : x;
            else if (!strcmp(op, "Sign")) v[e] = (x > 0) - (x < 0);
            else if (!strcmp(op, "Ceil") || !strcmp(op, "Floor") || !strcmp(op, "Round")) v[e] = x;
            else return JC_OK;
        }
        return op_set_vals(c, 0, v, NULL, n);
    }
    if (!t->fvals) return JC_OK;
    double f[JCI_SMALL_TENSOR];
    for (int64_t e = 0; e < n; e++) {
        double x = t->fvals[e];
        if (!strcmp(op, "Neg")) f[e] = -x;
        else if (!strcmp(op, "Abs")) f[e] = fabs(x);
        else if (!strcmp(op, "Relu")) f[e] = x < 0 ? 0 : x;
        else if (!strcmp(op, "Sign")) f[e] = (x > 0) - (x < 0);
        else if (!strcmp(op, "Ceil")) f[e] = ceil(x);
        else if (!strcmp(op, "Floor")) f[e] = floor(x);
        else if (!strcmp(op, "Round")) f[e] = nearbyint(x);
        else if (!strcmp(op, "Sqrt")) f[e] = sqrt(x);
        else if (!strcmp(op, "Reciprocal")) f[e] = 1.0 / x;
        else return JC_OK;
    }
    return set_fvals(c, f, n);
}

jc_status sh_bool(opctx *c)
{
    return op_copy_out(c, 0, c->nin ? c->in[0] : NULL, JC_DT_BOOL);
}

jc_status sh_identity(opctx *c)
{
    jc_status st = sh_same(c);
    if (st) return st;
    if (c->nin && c->in[0] && c->nout && c->out[0]) c->out[0]->non_tensor = c->in[0]->non_tensor;
    return c->nin ? copy_vals(c, 0, c->in[0]) : JC_OK;
}

jc_status sh_dropout(opctx *c)
{
    jc_status st = sh_identity(c);
    if (!st && c->nout > 1) st = op_copy_out(c, 1, c->in[0], JC_DT_BOOL);
    return st;
}

static bool is_int_dtype(int dt)
{
    return dt == JC_DT_INT64 || dt == JC_DT_INT32 || dt == JC_DT_INT16 || dt == JC_DT_INT8 ||
           dt == JC_DT_UINT8 || dt == JC_DT_UINT16 || dt == JC_DT_UINT32 || dt == JC_DT_UINT64 ||
           dt == JC_DT_BOOL;
}

jc_status sh_cast(opctx *c)
{
    int to = (int)op_attr_i(c, "to", 0);
    jc_status st = op_copy_out(c, 0, c->nin ? c->in[0] : NULL, to);
    if (st || !c->nin || !c->in[0] || c->in[0]->n_vals < 0) return st;
    const jc_tshape *t = c->in[0];
    if (!is_int_dtype(to) && !is_float_dtype(to)) return JC_OK;
    if (is_float_dtype(to) && t->isyms) return JC_OK;  /* a symbol stays an integer */
    st = copy_vals(c, 0, t);
    if (st || !c->out[0] || c->out[0]->n_vals < 0) return st;
    for (int64_t i = 0; i < t->n_vals; i++) {
        double f = t->fvals ? t->fvals[i] : (double)t->ivals[i];
        if (to == JC_DT_BOOL) c->out[0]->ivals[i] = f != 0;
        else if (is_int_dtype(to)) c->out[0]->ivals[i] = t->ivals[i];
        c->out[0]->fvals[i] = is_int_dtype(to) ? (double)c->out[0]->ivals[i] : f;
    }
    return JC_OK;
}

jc_status sh_castlike(opctx *c)
{
    int to = c->nin > 1 && c->in[1] ? c->in[1]->dtype : 0;
    jc_status st = op_copy_out(c, 0, c->in[0], to);
    if (!st && to && is_int_dtype(to)) st = copy_vals(c, 0, c->in[0]);
    return st;
}

/* Folds an elementwise function of broadcast integer inputs. */
typedef bool (*fold_fn)(opctx *c, int64_t *a, int64_t x, int64_t y, int64_t z);

static bool f_binop(opctx *c, int64_t *r, int64_t x, int64_t y, int64_t z)
{
    const char *op = c->n->op_type;
    (void)z;
    switch (op[0]) {
    case 'A': if (op[1] == 'd') return jci_add_ok(x, y, r); *r = x && y; return true;
    case 'S': if (op[1] == 'u' && op[2] == 'b') return !__builtin_sub_overflow(x, y, r);
              return jci_add_ok(x, y, r);  /* Sum */
    case 'M':
        if (!strcmp(op, "Mul")) return jci_mul_ok(x, y, r);
        if (!strcmp(op, "Mod")) {
            if (y == 0) return false;
            *r = y == -1 ? 0 : x % y;   /* INT64_MIN % -1 traps on x86 */
            if (!op_attr_i(c, "fmod", 0) && *r && ((*r < 0) != (y < 0))) *r += y;
            return true;
        }
        if (!strcmp(op, "Max")) { *r = x > y ? x : y; return true; }
        if (!strcmp(op, "Min")) { *r = x < y ? x : y; return true; }
        return false;
    case 'D':
        if (y == 0 || (x == INT64_MIN && y == -1)) return false;
        *r = x / y;
        if ((x % y != 0) && ((x < 0) != (y < 0))) (*r)--; /* floor like numpy int */
        return true;
    case 'E': *r = x == y; return true;
    case 'L': *r = op[4] ? x <= y : x < y; return true;
    case 'G': *r = op[7] ? x >= y : x > y; return true;
    case 'O': *r = x || y; return true;
    case 'X': *r = (!!x) ^ (!!y); return true;
    case 'W': *r = x ? y : z; return true;
    default: return false;
    }
}

/* A dtype whose values are folded in doubles: a floating one of 16 bits or
 * more (the loader keeps no values of 8- and 4-bit floats, and a Cast to
 * one is not folded: its rounding is not modelled). */
static bool is_float_dtype(int dt)
{
    return jci_dtype_is_float(dt) && jc_dtype_bits(dt) >= 16;
}

/* Element e of the broadcast output o: index into each of the nt inputs. */
static void bcast_idx(const jc_tshape *o, const jc_tshape *const *t, int nt, int64_t e, int64_t *idx)
{
    int64_t rem = e;
    for (int q = 0; q < nt; q++) idx[q] = 0;
    for (int d = o->rank - 1; d >= 0; d--) {
        int64_t od = o->dims[d].v, coord = rem % od;
        rem /= od;
        for (int q = 0; q < nt; q++) {
            int td = d - (o->rank - t[q]->rank);
            if (td < 0) continue;
            int64_t s = 1;
            for (int w = t[q]->rank - 1; w > td; w--) s *= t[q]->dims[w].v;
            idx[q] += (t[q]->dims[td].v == 1 ? 0 : coord) * s;
        }
    }
}

/* Stores folded floating values of output 0 (ivals truncated toward 0);
 * leaves the output unfolded when a value is not finite or too large. */
static jc_status set_fvals(opctx *c, const double *f, int64_t n)
{
    int64_t iv[JCI_SMALL_TENSOR];
    for (int64_t e = 0; e < n; e++) {
        if (!(f[e] > -9.2e18 && f[e] < 9.2e18)) return JC_OK;
        iv[e] = (int64_t)f[e];
    }
    jc_status st = op_set_vals(c, 0, iv, NULL, n);
    if (st || !c->out[0] || c->out[0]->n_vals != n) return st;
    for (int64_t e = 0; e < n; e++) c->out[0]->fvals[e] = f[e];
    return JC_OK;
}

/* Folds a binary/ternary op in doubles, for floating outputs (Range
 * bounds, window sizes and Resize scales computed in float). */
static jc_status fold_float(opctx *c, const jc_tshape *const *t, int nt, int64_t n)
{
    const jc_tshape *o = c->out[0];
    const char *op = c->n->op_type;
    double r[JCI_SMALL_TENSOR];
    for (int q = 0; q < nt; q++)
        if (!t[q]->fvals || t[q]->isyms) return JC_OK;
    for (int64_t e = 0; e < n; e++) {
        int64_t idx[3];
        double x[3] = {0, 0, 0};
        bcast_idx(o, t, nt, e, idx);
        for (int q = 0; q < nt; q++) {
            if (idx[q] >= t[q]->n_vals) return JC_OK;
            x[q] = t[q]->fvals[idx[q]];
        }
        if (!strcmp(op, "Add") || !strcmp(op, "Sum")) r[e] = x[0] + x[1];
        else if (!strcmp(op, "Sub")) r[e] = x[0] - x[1];
        else if (!strcmp(op, "Mul")) r[e] = x[0] * x[1];
        else if (!strcmp(op, "Div")) {
            if (x[1] == 0) return JC_OK;
            r[e] = x[0] / x[1];
        } else if (!strcmp(op, "Max")) r[e] = x[0] > x[1] ? x[0] : x[1];
        else if (!strcmp(op, "Min")) r[e] = x[0] < x[1] ? x[0] : x[1];
        else if (!strcmp(op, "Pow")) r[e] = pow(x[0], x[1]);
        else if (!strcmp(op, "Where")) r[e] = x[0] != 0 ? x[1] : x[2];
        else return JC_OK;
    }
    return set_fvals(c, r, n);
}

static jc_status fold(opctx *c, int first, int last)
{
    jc_tshape *o = c->nout ? c->out[0] : NULL;
    if (!o || o->rank < 0) return JC_OK;
    int64_t n = 1;
    for (int i = 0; i < o->rank; i++)
        if (o->dims[i].v < 0 || !jci_mul_ok(n, o->dims[i].v, &n)) return JC_OK;
    if (n > JCI_SMALL_TENSOR) return JC_OK;
    const jc_tshape *t[3] = {0};
    for (int i = first; i <= last; i++) {
        if (i >= c->nin || !c->in[i] || c->in[i]->n_vals < 0 || c->in[i]->rank < 0) return JC_OK;
        t[i - first] = c->in[i];
    }
    if (is_float_dtype(o->dtype)) return fold_float(c, t, last - first + 1, n);
    bool is_div = !strcmp(c->n->op_type, "Div");
    int64_t v[JCI_SMALL_TENSOR];
    const char *syms[JCI_SMALL_TENSOR];
    bool anysym = false;
    for (int64_t e = 0; e < n; e++) {
        int64_t x[3] = {0, 0, 0};
        const char *xs[3] = {0};
        int64_t rem = e;
        int64_t idx[3] = {0, 0, 0};
        int64_t stride = 1;
        for (int d = o->rank - 1; d >= 0; d--) {
            int64_t od = o->dims[d].v, coord = rem % od;
            rem /= od;
            (void)stride;
            for (int q = 0; q <= last - first; q++) {
                int td = d - (o->rank - t[q]->rank);
                if (td < 0) continue;
                int64_t s = 1;
                for (int w = t[q]->rank - 1; w > td; w--) s *= t[q]->dims[w].v;
                idx[q] += (t[q]->dims[td].v == 1 ? 0 : coord) * s;
            }
        }
        for (int q = 0; q <= last - first; q++) {
            if (idx[q] >= t[q]->n_vals) return JC_OK;
            x[q] = t[q]->ivals[idx[q]];
            xs[q] = t[q]->isyms ? t[q]->isyms[idx[q]] : NULL;
            if (t[q]->fvals && !is_int_dtype(t[q]->dtype) && t[q]->fvals[idx[q]] != (double)x[q])
                return JC_OK;   /* non-integer float: not folded */
        }
        syms[e] = NULL;
        bool w = c->n->op_type[0] == 'W';
        /* symbols pass through identity arithmetic and selects */
        if (w) {
            if (xs[0]) return JC_OK;
            syms[e] = x[0] ? xs[1] : xs[2];
        } else if (xs[0] || xs[1]) {
            const char *op = c->n->op_type;
            if ((!strcmp(op, "Mul") || (is_div && !xs[1])) && !xs[1] && x[1] == 1) syms[e] = xs[0];
            else if (!strcmp(op, "Mul") && !xs[0] && x[0] == 1) syms[e] = xs[1];
            else if ((!strcmp(op, "Add") || !strcmp(op, "Sub")) && !xs[1] && x[1] == 0) syms[e] = xs[0];
            else if (!strcmp(op, "Add") && !xs[0] && x[0] == 0) syms[e] = xs[1];
            else return JC_OK;
            v[e] = -1;
            anysym = true;
            continue;
        }
        if (syms[e]) anysym = true;
        if (!f_binop(c, &v[e], x[0], x[1], x[2])) return JC_OK;
        if (is_div && !is_int_dtype(o->dtype) && x[1] != 0 && x[0] % x[1] != 0) return JC_OK;
    }
    return op_set_vals(c, 0, v, anysym ? syms : NULL, n);
}

jc_status sh_binary(opctx *c)
{
    int dt = c->in[0] ? c->in[0]->dtype : (c->nin > 1 && c->in[1] ? c->in[1]->dtype : 0);
    jc_status st = op_broadcast_out(c, 0, 0, c->nin - 1, dt);
    if (!st && c->nin == 2 && strcmp(c->n->domain, "com.microsoft")) st = fold(c, 0, 1);
    return st;
}

jc_status sh_compare(opctx *c)
{
    jc_status st = op_broadcast_out(c, 0, 0, c->nin - 1, JC_DT_BOOL);
    if (!st && c->nin == 2) st = fold(c, 0, 1);
    return st;
}

jc_status sh_where(opctx *c)
{
    int dt = c->nin > 1 && c->in[1] ? c->in[1]->dtype : 0;
    jc_status st = op_broadcast_out(c, 0, 0, 2, dt);
    if (!st && c->nin == 3) st = fold(c, 0, 2);
    return st;
}

jc_status sh_variadic(opctx *c)
{
    int dt = c->nin && c->in[0] ? c->in[0]->dtype : 0;
    jc_status st = op_broadcast_out(c, 0, 0, c->nin - 1, dt);
    if (!st && c->nin == 2 && strcmp(c->n->op_type, "Mean")) st = fold(c, 0, 1);
    if (!st && c->nin == 1) st = copy_vals(c, 0, c->in[0]);
    return st;
}

/* ---- cost rules --------------------------------------------------------------- */

jc_status co_none(opctx *c)
{
    c->cost.cls = JC_CLASS_NONE;
    return JC_OK;
}

jc_status co_memory(opctx *c)
{
    c->cost.cls = JC_CLASS_MEMORY;
    return JC_OK;
}

/* Sequence producers: only the tensor inputs are read / outputs written. */
jc_status co_memory_in(opctx *c)
{
    return co_memory(c);
}

jc_status co_memory_out(opctx *c)
{
    return co_memory(c);
}

jc_status co_cast(opctx *c)
{
    c->cost.cls = JC_CLASS_MEMORY;
    return JC_OK;
}

jc_status co_unary(opctx *c)
{
    int64_t n;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!op_numel(c, c->nout ? c->out[0] : NULL, &n)) return JC_OK;
    int f = c->param / 16, s = c->param % 16;
    if (!op_flops(c, n, f) || !op_specials(c, n, s)) return op_overflow(c);
    return JC_OK;
}

jc_status co_clip(opctx *c)
{
    int64_t n;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!op_numel(c, c->out[0], &n)) return JC_OK;
    int bounds;
    if (c->opset >= 11)
        bounds = (c->nin > 1 && c->in[1] != NULL) + (c->nin > 2 && c->in[2] != NULL);
    else
        bounds = (op_attr(c, "min") != NULL) + (op_attr(c, "max") != NULL);
    if (c->opset < 11 && bounds == 0) bounds = 2; /* defaults are +-FLT_MAX */
    if (!op_flops(c, n, bounds)) return op_overflow(c);
    return JC_OK;
}

jc_status co_binary(opctx *c)
{
    int64_t n;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!op_numel(c, c->out[0], &n)) return JC_OK;
    if (!op_flops(c, n, 1)) return op_overflow(c);
    if (c->param == EW_DIV && !op_weighted(c, n, 3)) return op_overflow(c);
    return JC_OK;
}

jc_status co_variadic(opctx *c)
{
    int64_t n;
    int present = 0;
    for (int i = 0; i < c->nin; i++) present += c->in[i] != NULL;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!op_numel(c, c->out[0], &n)) return JC_OK;
    int per = present > 1 ? present - 1 : 0;
    if (!op_flops(c, n, per)) return op_overflow(c);
    if (c->param == EW_MEAN && !op_flops(c, n, 1)) return op_overflow(c);
    return JC_OK;
}

/* Pow: a constant exponent 2 -> 1 FLOP (mul), 0.5 -> 1 special (sqrt),
 * 1 -> 0, anything else -> 1 special (exp(log)) + 1 FLOP. */
jc_status co_pow(opctx *c)
{
    int64_t n;
    c->cost.cls = JC_CLASS_VECTOR;
    if (!op_numel(c, c->out[0], &n)) return JC_OK;
    const jc_tshape *e = c->nin > 1 ? c->in[1] : NULL;
    if (e && e->n_vals == 1 && e->fvals) {
        double x = e->fvals[0];
        if (x == 2.0) return op_flops(c, n, 1) ? JC_OK : op_overflow(c);
        if (x == 0.5) return op_specials(c, n, 1) ? JC_OK : op_overflow(c);
        if (x == 1.0) return JC_OK;
    }
    if (!op_flops(c, n, 1) || !op_specials(c, n, 1)) return op_overflow(c);
    return JC_OK;
}
