/*
 * ops_core.c (analysis/ops) - the operator registry (built from ops.def) and the helpers
 * every family rule uses: attribute access, input values, output shapes,
 * dim algebra (broadcast with symbols), and checked cost accumulation.
 */
#include "analysis/ops/ops.h"
#include "analysis/ops/actx.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const op_rule registry[] = {
#define OP(dom, name, since, shp, cst, prm, fus) {dom, name, since, shp, cst, prm, fus},
#include "analysis/ops/ops.def"
#undef OP
};
#define N_RULES (sizeof registry / sizeof registry[0])


static bool same_domain(const char *a, const char *b)
{
    bool da = !*a || !strcmp(a, "ai.onnx"), db = !*b || !strcmp(b, "ai.onnx");
    if (da || db) return da && db;
    return !strcmp(a, b);
}

const op_rule *op_find(const char *domain, const char *op, int opset)
{
    const op_rule *best = NULL, *lowest = NULL;
    for (size_t i = 0; i < N_RULES; i++) {
        const op_rule *r = &registry[i];
        /* first character before strcmp: most rules differ there */
        if (r->op[0] != op[0] || strcmp(r->op, op) || !same_domain(r->domain, domain)) continue;
        if (!lowest || r->since < lowest->since) lowest = r;
        if (r->since <= opset && (!best || r->since > best->since)) best = r;
    }
    return best ? best : lowest;
}

jc_fusion_class op_fusable_of(const jc_node *n)
{
    const op_rule *r = op_find(n->domain, n->op_type, n->opset);
    return r ? r->fusable : FUSE_NO;
}

static const struct {
    const char *op;
    jc_kernel_kind kind;
} KERNELS[] = {
#define KERNEL(op, kind) {op, kind},
#include "analysis/ops/kernels.def"
#undef KERNEL
};

jc_kernel_kind op_kernel_of(const jc_node *n)
{
    if (*n->domain) return JC_KERNEL_OTHER;
    for (size_t i = 0; i < sizeof KERNELS / sizeof KERNELS[0]; i++)
        if (!strcmp(n->op_type, KERNELS[i].op)) return KERNELS[i].kind;
    return JC_KERNEL_OTHER;
}

static int dim_of(const jc_tshape *t, int i, double *v)
{
    if (!t || t->rank <= i || i < 0 || t->dims[i].v <= 0) return 0;
    *v = (double)t->dims[i].v;
    return 1;
}

int op_gemm_shape(const jc_analysis *an, const jc_counted_node *n, jc_gemm_shape *g)
{
    const jc_node *nd = n->node;
    jc_kernel_kind kk = op_kernel_of(nd);
    int conv = kk == JC_KERNEL_CONV || kk == JC_KERNEL_CONV_TRANSPOSE;
    int mm = kk == JC_KERNEL_MATMUL;
    if (!(conv || mm || kk == JC_KERNEL_GEMM)) return 0;
    if (!nd->n_outputs || nd->outputs[0] < 0 || n->cost.macs <= 0) return 0;
    const jc_graph_inst *in = &an->insts[n->inst];
    const jc_tshape *o = &in->values[nd->outputs[0]];
    if (o->rank < 2) return 0;
    double numel = 1, d;
    for (int i = 0; i < o->rank; i++) {
        if (!dim_of(o, i, &d)) return 0;
        numel *= d;
    }
    memset(g, 0, sizeof *g);
    g->batch = 1;
    if (conv) {
        double c, grp = 1;
        if (!dim_of(o, 1, &c)) return 0;
        const jc_attr *a = jc_node_attr(nd, "group");
        if (a && a->type == JC_ATTR_INT && a->i > 1 && (double)a->i <= c) grp = (double)a->i;
        g->n = c / grp;
        g->m = numel / c;
        g->batch = grp;
    } else {
        if (!dim_of(o, o->rank - 1, &g->n)) return 0;
        /* a batched product of two activations (attention): one GEMM per
         * batch element; a product with a weight folds the batch into M */
        const jc_tshape *b = nd->n_inputs > 1 && nd->inputs[1] >= 0 ? &in->values[nd->inputs[1]] : NULL;
        int batched = mm && b && b->rank >= 3 && in->graph->values[nd->inputs[1]].kind != JC_V_INITIALIZER;
        if (batched && dim_of(o, o->rank - 2, &g->m)) {
            g->batch = numel / (g->m * g->n);
        } else {
            g->m = numel / g->n;
        }
    }
    g->k = (double)n->cost.macs / numel;
    return g->m > 0 && g->n > 0 && g->k > 0;
}

/* ---- attributes ---------------------------------------------------------- */

const jc_attr *op_attr(opctx *c, const char *name)
{
    if (c->attr_lookup) return c->attr_lookup(c, name);
    return jc_node_attr(c->n, name);
}

int64_t op_attr_i(opctx *c, const char *name, int64_t def)
{
    const jc_attr *a = op_attr(c, name);
    if (!a) return def;
    if (a->type == JC_ATTR_INT) return a->i;
    if (a->type == JC_ATTR_FLOAT) return (int64_t)a->f;
    return def;
}

double op_attr_f(opctx *c, const char *name, double def)
{
    const jc_attr *a = op_attr(c, name);
    if (!a) return def;
    if (a->type == JC_ATTR_FLOAT) return a->f;
    if (a->type == JC_ATTR_INT) return (double)a->i;
    return def;
}

const char *op_attr_s(opctx *c, const char *name, const char *def)
{
    const jc_attr *a = op_attr(c, name);
    return a && a->type == JC_ATTR_STRING && a->s ? a->s : def;
}

size_t op_attr_ints(opctx *c, const char *name, const int64_t **v)
{
    const jc_attr *a = op_attr(c, name);
    if (!a || a->type != JC_ATTR_INTS) {
        *v = NULL;
        return 0;
    }
    *v = a->ints;
    return a->n;
}

/* ---- inputs ---------------------------------------------------------------- */

jc_tshape *op_in(opctx *c, int k)
{
    if (k < 0 || k >= c->nin || !c->in[k] || c->in[k]->rank < 0) return NULL;
    return c->in[k];
}

bool op_in_ints(opctx *c, int k, const int64_t **v, int64_t *n)
{
    if (k < 0 || k >= c->nin || !c->in[k] || c->in[k]->n_vals < 0) return false;
    const jc_tshape *t = c->in[k];
    if (t->isyms)
        for (int64_t i = 0; i < t->n_vals; i++)
            if (t->isyms[i] || t->ivals[i] == INT64_MIN) return false;
    *v = t->ivals;
    *n = t->n_vals;
    return true;
}

bool op_ints_in_or_attr(opctx *c, int k, int since, const char *attr,
                        const int64_t **v, int64_t *n, bool *present)
{
    if (c->opset >= since) {
        *present = k < c->nin && c->in[k] != NULL;
        if (!*present) return true;
        return op_in_ints(c, k, v, n);
    }
    size_t m = op_attr_ints(c, attr, v);
    *present = op_attr(c, attr) != NULL;
    *n = (int64_t)m;
    return true;
}

bool op_in_is_weight(opctx *c, int k)
{
    return k >= 0 && k < c->nin && c->vin[k] && c->vin[k]->kind == JC_V_INITIALIZER;
}

/* ---- outputs ---------------------------------------------------------------- */

jc_status op_set_out(opctx *c, int k, int dtype, int rank, const jc_dim *d)
{
    if (k >= c->nout || !c->out[k]) return JC_OK;
    jc_tshape *t = c->out[k];
    jc_dim *nd = NULL;
    if (rank > 0) {
        nd = jci_arena_calloc(ax_arena(c->ax), (size_t)rank, sizeof *nd);
        if (!nd) return JC_ERR_NOMEM;
        for (int i = 0; i < rank; i++) {
            if (d) nd[i] = d[i];
            else nd[i].v = -1;
            if (nd[i].v < 0) nd[i].v = -1;
        }
    }
    t->dtype = dtype;
    t->rank = rank;
    t->dims = nd;
    t->n_vals = -1;
    t->ivals = NULL;
    t->fvals = NULL;
    t->isyms = NULL;
    return JC_OK;
}

jc_status op_copy_out(opctx *c, int k, const jc_tshape *t, int dtype)
{
    if (!t) return op_set_out(c, k, dtype, -1, NULL);
    return op_set_out(c, k, dtype > 0 ? dtype : t->dtype, t->rank, t->dims);
}

jc_status op_set_vals(opctx *c, int k, const int64_t *v, const char **syms,
                      int64_t n)
{
    if (k >= c->nout || !c->out[k] || n < 0 || n > JCI_SMALL_TENSOR) return JC_OK;
    jc_tshape *t = c->out[k];
    jci_arena *a = ax_arena(c->ax);
    t->ivals = jci_arena_calloc(a, (size_t)(n ? n : 1), sizeof(int64_t));
    t->fvals = jci_arena_calloc(a, (size_t)(n ? n : 1), sizeof(double));
    if (!t->ivals || !t->fvals) return JC_ERR_NOMEM;
    bool anysym = false;
    for (int64_t i = 0; i < n; i++) {
        t->ivals[i] = v[i];
        t->fvals[i] = (double)v[i];
        if (syms && syms[i]) anysym = true;
    }
    if (anysym) {
        t->isyms = jci_arena_calloc(a, (size_t)n, sizeof(char *));
        if (!t->isyms) return JC_ERR_NOMEM;
        for (int64_t i = 0; i < n; i++) t->isyms[i] = syms[i];
    }
    t->n_vals = n;
    return JC_OK;
}

jc_dim op_data_dim(opctx *c, int k, int i)
{
    char buf[512];
    const char *oname = ax_value_name(c, k);
    snprintf(buf, sizeof buf, "%s:%d", oname, i);
    jc_dim d = {-1, jci_arena_strdup(ax_arena(c->ax), buf)};
    int64_t v;
    if (ax_assumed(c->ax, d.sym, &v)) d.v = v;
    else op_data_dependent(c, d.sym);
    return d;
}

void op_data_dependent(opctx *c, const char *sym)
{
    ax_data_dependent(c, sym);
}

/* ---- cost helpers ------------------------------------------------------------- */

static void block(opctx *c, const char *sym)
{
    if (!sym) {
        c->anon_blocked = 1;
        return;
    }
    for (int i = 0; i < c->n_blocked; i++)
        if (!strcmp(c->blocked[i], sym)) return;
    if (c->n_blocked < 8) c->blocked[c->n_blocked++] = sym;
}

bool op_numel(opctx *c, const jc_tshape *t, int64_t *n)
{
    if (!t || t->rank < 0) {
        if (c->cost.state == JC_COST_OK) c->cost.state = JC_COST_UNKNOWN_DIMS;
        block(c, NULL);
        return false;
    }
    int64_t p = 1;
    bool ok = true;
    for (int i = 0; i < t->rank; i++) {
        if (t->dims[i].v < 0) {
            ok = false;
            block(c, t->dims[i].sym);
        } else if (ok && !jci_mul_ok(p, t->dims[i].v, &p)) {
            /* overflow of a numel: reported by the caller's arithmetic */
            p = INT64_MAX;
        }
    }
    if (!ok) {
        if (c->cost.state == JC_COST_OK) c->cost.state = JC_COST_UNKNOWN_DIMS;
        return false;
    }
    if (p == INT64_MAX) {
        op_overflow(c);
        return false;
    }
    *n = p;
    return true;
}

jc_status op_overflow(opctx *c)
{
    return ax_overflow(c);
}

bool op_mul(opctx *c, int64_t a, int64_t b, int64_t *r)
{
    if (jci_mul_ok(a, b, r)) return true;
    op_overflow(c);
    return false;
}

bool op_add(opctx *c, int64_t a, int64_t b, int64_t *r)
{
    if (jci_add_ok(a, b, r)) return true;
    op_overflow(c);
    return false;
}

bool op_flops(opctx *c, int64_t n, int64_t per)
{
    int64_t t;
    return op_mul(c, n, per, &t) && op_add(c, c->cost.flops, t, &c->cost.flops) &&
           op_weighted(c, n, per);
}

bool op_specials(opctx *c, int64_t n, int64_t per)
{
    int64_t t;
    return op_mul(c, n, per, &t) && op_add(c, c->cost.special_ops, t, &c->cost.special_ops) &&
           op_weighted(c, t, 32);
}

bool op_macs(opctx *c, int64_t macs)
{
    int64_t f;
    return op_add(c, c->cost.macs, macs, &c->cost.macs) && op_mul(c, macs, 2, &f) &&
           op_add(c, c->cost.flops, f, &c->cost.flops);
}

bool op_weighted(opctx *c, int64_t n, int64_t per)
{
    int64_t t;
    return op_mul(c, n, per, &t) &&
           op_add(c, c->cost.other_flops_weighted, t, &c->cost.other_flops_weighted);
}

void op_note(opctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    c->note = jci_arena_vprintf(ax_arena(c->ax), fmt, ap);
    va_end(ap);
}

jc_status op_unknown(opctx *c)
{
    if (c->cost.state == JC_COST_OK) c->cost.state = JC_COST_UNKNOWN_DIMS;
    return JC_OK;
}

int64_t op_smul(opctx *c, int64_t a, int64_t b, const char *what)
{
    int64_t r;
    if (!__builtin_mul_overflow(a, b, &r)) return r;
    ax_shape_overflow(c, what);
    return -1;
}

int64_t op_sadd(opctx *c, int64_t a, int64_t b, const char *what)
{
    int64_t r;
    if (!__builtin_add_overflow(a, b, &r)) return r;
    ax_shape_overflow(c, what);
    return -1;
}

int64_t op_sdim(opctx *c, double v, const char *what)
{
    if (v != v || v < 0) return -1;
    if (v >= 9223372036854775807.0) {
        ax_shape_overflow(c, what);
        return -1;
    }
    return (int64_t)v;
}

jc_status op_invalid(opctx *c, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return ax_rule_error(c, buf);
}

/* ---- dims ---------------------------------------------------------------------- */

jc_dim dim_broadcast(jc_dim a, jc_dim b)
{
    if (a.v == 1) return b;
    if (b.v == 1) return a;
    if (a.v >= 0) return a;   /* b is then equal (or 1, handled) */
    if (b.v >= 0) return b;
    if (a.sym && b.sym && !strcmp(a.sym, b.sym)) return a;
    jc_dim u = {-1, NULL};
    return u;
}

jc_dim dim_mul(jc_dim a, jc_dim b)
{
    jc_dim u = {-1, NULL};
    if (a.v == 1) return b;
    if (b.v == 1) return a;
    if (a.v >= 0 && b.v >= 0 && jci_mul_ok(a.v, b.v, &u.v)) return u;
    if (a.v == 0 || b.v == 0) {
        u.v = 0;
        return u;
    }
    u.v = -1;
    return u;
}

bool op_axis(int64_t a, int r, int *out)
{
    if (a < 0) a += r;
    if (a < 0 || a >= r) return false;
    *out = (int)a;
    return true;
}

jc_status op_broadcast_out(opctx *c, int k, int first, int last, int dtype)
{
    int r = 0;
    for (int i = first; i <= last && i < c->nin; i++) {
        if (!c->in[i]) continue;
        if (c->in[i]->rank < 0) return op_set_out(c, k, dtype, -1, NULL);
        if (c->in[i]->rank > r) r = c->in[i]->rank;
    }
    jc_dim d[64];
    if (r > 64) return op_set_out(c, k, dtype, -1, NULL);
    for (int j = 0; j < r; j++) d[j] = (jc_dim){1, NULL};
    for (int i = first; i <= last && i < c->nin; i++) {
        const jc_tshape *t = c->in[i];
        if (!t) continue;
        for (int j = 0; j < t->rank; j++) {
            int o = r - t->rank + j;
            d[o] = dim_broadcast(d[o], t->dims[j]);
        }
    }
    return op_set_out(c, k, dtype, r, d);
}
