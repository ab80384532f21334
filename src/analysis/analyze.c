/*
 * analyze.c (analysis) - the analysis driver: jc_analyze().  Walks the main graph in
 * topological order, gives every value an inferred dtype/shape (with
 * folded values for small integer tensors), expands model-local functions
 * and If/Loop/Scan bodies into graph instances, calls each node's shape
 * and cost rule from the op registry (src/analysis/ops/ops.def), and sums the
 * totals.  Everything unknown is recorded by name: unsupported ops with
 * their counts, unknown dim symbols with the nodes they block, and
 * data-dependent sizes.  Counting rules live in src/analysis/ops/, not here.
 */
#include "analysis/ops/actx.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fscope {
    const jc_node *call;       /* the function call node */
    const struct fscope *up;   /* the caller's scope */
} fscope;

typedef struct symrec {
    const char *sym;
    const char **nodes;
    size_t n, cap;
} symrec;

typedef struct actx {
    jci_arena *ar;
    const jc_model *m;
    jc_analyze_opts o;
    jc_diag *d;
    jc_status err;
    jc_graph_inst *insts; size_t n_insts, cap_insts;
    jc_counted_node *nodes; size_t n_nodes, cap_nodes;
    struct { const jc_graph *g; uint8_t *used; } *seen; size_t n_seen, cap_seen;
    jc_op_tally *uns; size_t n_uns, cap_uns;
    symrec *syms; size_t n_syms, cap_syms;
    const char **dd; size_t n_dd, cap_dd;
    const char **warn; size_t n_warn, cap_warn;
    size_t n_unknown_other;
    int fdepth;
    size_t max_nodes;          /* expansion budget (see file_nodes) */
    const char *cur_name;      /* display name of the node being analysed */
    int64_t params, weight_bytes;
    const oprules *rules;      /* --op-rules, or NULL */
    uint8_t *assume_used;      /* o.n_assume flags: the bound was consulted */
} actx;

static bool grow(void **p, size_t *cap, size_t n, size_t sz)
{
    if (n < *cap) return true;
    size_t nc = *cap ? *cap * 2 : 16;
    void *q = realloc(*p, nc * sz);
    if (!q) return false;
    memset((char *)q + *cap * sz, 0, (nc - *cap) * sz);
    *p = q;
    *cap = nc;
    return true;
}

static jc_status nomem(actx *ax)
{
    if (!ax->err) ax->err = jci_diag_set(ax->d, JC_ERR_NOMEM, "out of memory during analysis");
    return ax->err;
}

/* ---- services for the rules (actx.h) -------------------------------------- */

jci_arena *ax_arena(actx *ax) { return ax->ar; }

const oprules *ax_rules(actx *ax) { return ax->rules; }

jc_status ax_rule_error(opctx *c, const char *msg)
{
    actx *ax = c->ax;
    if (!msg) return nomem(ax);
    if (!ax->err)
        ax->err = jci_diag_node(ax->d, JC_ERR_MODEL, ax->cur_name ? ax->cur_name : "", c->n->op_type, "%s", msg);
    return ax->err;
}

static const jc_graph *cur_graph(opctx *c) { return c->ax->insts[c->inst].graph; }

const char *ax_value_name(opctx *c, int k)
{
    if (k < 0 || k >= (int)c->n->n_outputs || c->n->outputs[k] < 0) return "";
    return cur_graph(c)->values[c->n->outputs[k]].name;
}

const char *ax_input_name(opctx *c, int k)
{
    if (k < 0 || k >= (int)c->n->n_inputs || c->n->inputs[k] < 0) return "";
    return cur_graph(c)->values[c->n->inputs[k]].name;
}

static bool find_binding(const jc_dim_binding *b, size_t n, const char *sym, int64_t *v)
{
    for (size_t i = 0; i < n; i++)
        if (b[i].name && !strcmp(b[i].name, sym)) {
            *v = b[i].value;
            return true;
        }
    return false;
}

bool ax_assumed(actx *ax, const char *sym, int64_t *v)
{
    if (!sym) return false;
    bool found = false;
    for (size_t i = 0; i < ax->o.n_assume; i++)
        if (ax->o.assume[i].name && !strcmp(ax->o.assume[i].name, sym)) {
            if (ax->assume_used) ax->assume_used[i] = 1;   /* repeats hold the same value */
            if (!found) *v = ax->o.assume[i].value;
            found = true;
        }
    return found || find_binding(ax->o.dims, ax->o.n_dims, sym, v);
}

void ax_data_dependent(opctx *c, const char *sym)
{
    actx *ax = c->ax;
    char buf[768];
    snprintf(buf, sizeof buf, "%s (%s): size '%s' depends on data (bind with --assume %s=N)",
             ax->cur_name ? ax->cur_name : "?", c->n->op_type, sym, sym);
    for (size_t i = 0; i < ax->n_dd; i++)
        if (!strcmp(ax->dd[i], buf)) return;
    if (!grow((void **)&ax->dd, &ax->cap_dd, ax->n_dd, sizeof(char *))) {
        nomem(ax);
        return;
    }
    ax->dd[ax->n_dd] = jci_arena_strdup(ax->ar, buf);
    if (!ax->dd[ax->n_dd]) nomem(ax);
    else ax->n_dd++;
}

/* A warning of the analysis (jc_analysis.warnings), once per text. */
static jc_status ax_warn(actx *ax, const char *text)
{
    for (size_t i = 0; i < ax->n_warn; i++)
        if (!strcmp(ax->warn[i], text)) return JC_OK;
    if (!grow((void **)&ax->warn, &ax->cap_warn, ax->n_warn, sizeof(char *))) return nomem(ax);
    if (!(ax->warn[ax->n_warn] = jci_arena_strdup(ax->ar, text))) return nomem(ax);
    ax->n_warn++;
    return JC_OK;
}

jc_status ax_overflow(opctx *c)
{
    actx *ax = c->ax;
    if (!ax->err)
        ax->err = jci_diag_node(ax->d, JC_ERR_RANGE, ax->cur_name ? ax->cur_name : "",
                               c->n->op_type, "a count overflows 64 bits");
    return ax->err;
}

jc_status ax_shape_overflow(opctx *c, const char *what)
{
    actx *ax = c->ax;
    if (!ax->err)
        ax->err = jci_diag_node(ax->d, JC_ERR_RANGE, ax->cur_name ? ax->cur_name : "", c->n->op_type,
                               "%s '%s': the output shape overflows 64 bits",
                               what && !strncmp(what, "input ", 6) ? "input" : "attribute",
                               what && !strncmp(what, "input ", 6) ? what + 6 : what ? what : "?");
    return ax->err;
}

/* ---- values -------------------------------------------------------------- */

static void bind_dim(actx *ax, jc_dim *d)
{
    int64_t v;
    if (d->v < 0 && d->sym && find_binding(ax->o.dims, ax->o.n_dims, d->sym, &v)) d->v = v;
}

/* Shape of a value as the file declares it (initializers: their dims and
 * kept values). */
static jc_status declared(actx *ax, const jc_value *v, jc_tshape *t)
{
    memset(t, 0, sizeof *t);
    t->dtype = v->dtype;
    t->rank = v->non_tensor ? -1 : v->rank;
    t->non_tensor = v->non_tensor;
    t->n_vals = -1;
    if (t->rank > 0) {
        t->dims = jci_arena_calloc(ax->ar, (size_t)t->rank, sizeof(jc_dim));
        if (!t->dims) return nomem(ax);
        for (int i = 0; i < t->rank; i++) {
            t->dims[i] = v->dims[i];
            if (t->dims[i].v < 0) t->dims[i].v = -1;
            bind_dim(ax, &t->dims[i]);
        }
    }
    if (v->n_vals >= 0 && v->ivals) {
        t->n_vals = v->n_vals;
        t->ivals = v->ivals;
        t->fvals = v->fvals;
    }
    return JC_OK;
}

static bool shape_known(const jc_tshape *t)
{
    if (t->rank < 0) return false;
    for (int i = 0; i < t->rank; i++)
        if (t->dims[i].v < 0) return false;
    return true;
}

static bool numel_of(const jc_tshape *t, int64_t *n)
{
    int64_t p = 1;
    if (!shape_known(t)) return false;
    for (int i = 0; i < t->rank; i++)
        if (!jci_mul_ok(p, t->dims[i].v, &p)) return false;
    *n = p;
    return true;
}

static bool bytes_of(const jc_tshape *t, int64_t *b)
{
    int64_t n;
    if (!numel_of(t, &n)) return false;
    int bits = jc_dtype_bits(t->dtype);
    if (bits == 0) bits = 8;
    int64_t x;
    if (!jci_mul_ok(n, bits, &x)) return false;
    *b = (x + 7) / 8;
    return true;
}

static int new_inst(actx *ax, const jc_graph *g, const char *path, int parent, int64_t repeat)
{
    if (!grow((void **)&ax->insts, &ax->cap_insts, ax->n_insts, sizeof *ax->insts)) {
        nomem(ax);
        return -1;
    }
    jc_graph_inst *gi = &ax->insts[ax->n_insts];
    gi->graph = g;
    gi->path = jci_arena_strdup(ax->ar, path);
    gi->parent = parent;
    gi->repeat = repeat;
    gi->values = jci_arena_calloc(ax->ar, g->n_values ? g->n_values : 1, sizeof(jc_tshape));
    if (!gi->values || !gi->path) {
        nomem(ax);
        return -1;
    }
    for (size_t i = 0; i < g->n_values; i++) {
        gi->values[i].rank = -1;
        gi->values[i].n_vals = -1;
    }
    return (int)ax->n_insts++;
}

/* Resolves an outer-scope value of instance `inst` through its parents. */
/* The value an outer-scope reference of instance inst names: its inferred
 * shape, and (when og/oi are given) the enclosing graph that defines it
 * and its index there (a Loop body's use of a main-graph initializer is
 * that initializer: a weight, counted once). */
static jc_tshape *outer_def(actx *ax, int inst, const char *name, const jc_graph **og, int32_t *oi)
{
    int p = ax->insts[inst].parent;
    while (p >= 0) {
        const jc_graph *g = ax->insts[p].graph;
        int32_t k = jc_graph_find(g, name);
        if (k >= 0 && g->values[k].kind != JC_V_OUTER) {
            if (og) *og = g;
            if (oi) *oi = k;
            return &ax->insts[p].values[k];
        }
        p = ax->insts[p].parent;
    }
    return NULL;
}

static jc_tshape *outer_value(actx *ax, int inst, const char *name)
{
    return outer_def(ax, inst, name, NULL, NULL);
}

/* ---- params ----------------------------------------------------------------- */

static jc_status count_param(actx *ax, const jc_graph *g, int32_t vi, jc_node_cost *cost)
{
    size_t s;
    for (s = 0; s < ax->n_seen; s++)
        if (ax->seen[s].g == g) break;
    if (s == ax->n_seen) {
        if (!grow((void **)&ax->seen, &ax->cap_seen, ax->n_seen, sizeof *ax->seen)) return nomem(ax);
        ax->seen[s].g = g;
        ax->seen[s].used = jci_arena_calloc(ax->ar, g->n_values ? g->n_values : 1, 1);
        if (!ax->seen[s].used) return nomem(ax);
        ax->n_seen++;
    }
    if (ax->seen[s].used[vi]) return JC_OK;
    ax->seen[s].used[vi] = 1;
    const jc_value *v = &g->values[vi];
    int64_t n = 1;
    for (int i = 0; i < v->rank; i++)
        if (v->dims[i].v < 0 || !jci_mul_ok(n, v->dims[i].v, &n)) return JC_OK;
    int bits = jc_dtype_bits(v->dtype);
    int64_t b;
    if (!jci_mul_ok(n, bits, &b) || !jci_add_ok(cost->params, n, &cost->params) ||
        !jci_add_ok(ax->params, n, &ax->params) ||
        !jci_add_ok(ax->weight_bytes, (b + 7) / 8, &ax->weight_bytes))
        return ax->err = jci_diag_set(ax->d, JC_ERR_RANGE, "parameter count overflows 64 bits");
    return JC_OK;
}

/* ---- node records --------------------------------------------------------------- */

/* Nodes written in the file (graphs, subgraphs, function bodies).  The
 * analysis may expand at most this many plus JCI_EXPAND_BUDGET nodes: a
 * function called twice by a function called twice ... is otherwise an
 * exponential expansion of a tiny file (fuzzing/review finding). */
#define JCI_EXPAND_BUDGET 500000
static size_t file_nodes(const jc_graph *g, int depth)
{
    size_t n = g->n_nodes;
    if (depth > 64) return n;
    for (size_t i = 0; i < g->n_nodes; i++)
        for (size_t j = 0; j < g->nodes[i].n_attrs; j++) {
            const jc_attr *at = &g->nodes[i].attrs[j];
            if (at->type == JC_ATTR_GRAPH || at->type == JC_ATTR_GRAPHS)
                for (size_t q = 0; q < at->n; q++) n += file_nodes(at->g[q], depth + 1);
        }
    return n;
}

static int push_node(actx *ax, const jc_node *n, int inst, int depth, const char *name,
                     const jc_node_cost *cost)
{
    if (ax->n_nodes >= ax->max_nodes) {
        ax->err = jci_diag_node(ax->d, JC_ERR_RANGE, name, n->op_type,
                               "the model expands to more than %zu nodes (model-local functions "
                               "or subgraphs instantiated too many times)", ax->max_nodes);
        return -1;
    }
    if (!grow((void **)&ax->nodes, &ax->cap_nodes, ax->n_nodes, sizeof *ax->nodes)) {
        nomem(ax);
        return -1;
    }
    jc_counted_node *cn = &ax->nodes[ax->n_nodes];
    cn->node = n;
    cn->inst = inst;
    cn->depth = depth;
    cn->name = name;
    char buf[512];
    if (*n->domain && strcmp(n->domain, "ai.onnx"))
        snprintf(buf, sizeof buf, "%s:%s", n->domain, n->op_type);
    else
        snprintf(buf, sizeof buf, "%s", n->op_type);
    cn->op = jci_arena_strdup(ax->ar, buf);
    cn->cost = *cost;
    cn->counted = 1;
    cn->fusion = op_fusable_of(n);
    cn->kernel = op_kernel_of(n);
    if (!cn->op) {
        nomem(ax);
        return -1;
    }
    return (int)ax->n_nodes++;
}

static void tally_unsupported(actx *ax, const char *op)
{
    for (size_t i = 0; i < ax->n_uns; i++)
        if (!strcmp(ax->uns[i].op, op)) {
            ax->uns[i].count++;
            return;
        }
    if (!grow((void **)&ax->uns, &ax->cap_uns, ax->n_uns, sizeof *ax->uns)) {
        nomem(ax);
        return;
    }
    ax->uns[ax->n_uns].op = op;
    ax->uns[ax->n_uns].count = 1;
    ax->n_uns++;
}

static void record_sym(actx *ax, const char *sym, const char *node)
{
    size_t i;
    for (i = 0; i < ax->n_syms; i++)
        if (!strcmp(ax->syms[i].sym, sym)) break;
    if (i == ax->n_syms) {
        if (!grow((void **)&ax->syms, &ax->cap_syms, ax->n_syms, sizeof *ax->syms)) {
            nomem(ax);
            return;
        }
        ax->syms[i].sym = sym;
        ax->n_syms++;
    }
    symrec *r = &ax->syms[i];
    if (!grow((void **)&r->nodes, &r->cap, r->n, sizeof(char *))) {
        nomem(ax);
        return;
    }
    r->nodes[r->n++] = node;
}

/* ---- attribute lookup through function scopes -------------------------------- */

static const jc_attr *scoped_attr(const jc_node *n, const fscope *s, const char *name)
{
    const jc_attr *a = jc_node_attr(n, name);
    while (a && a->ref_attr_name && s) {
        a = jc_node_attr(s->call, a->ref_attr_name);
        n = s->call;
        s = s->up;
    }
    if (a && a->ref_attr_name) return NULL;
    return a;
}

static const jc_attr *ctx_attr(opctx *c, const char *name)
{
    return scoped_attr(c->n, (const fscope *)c->scope, name);
}

/* ---- the walk ---------------------------------------------------------------------- */

static jc_status run_graph(actx *ax, int inst, const fscope *scope, int depth);

static const char *display_name(actx *ax, int inst, const jc_node *n, size_t idx)
{
    char buf[768];
    const char *path = ax->insts[inst].path;
    if (*n->name)
        snprintf(buf, sizeof buf, "%s%s%s", path, *path ? "/" : "", n->name);
    else
        snprintf(buf, sizeof buf, "%s%s%s#%zu", path, *path ? "/" : "", n->op_type, idx);
    return jci_arena_strdup(ax->ar, buf);
}

static const jc_function *find_function(actx *ax, const jc_node *n)
{
    for (size_t i = 0; i < ax->m->n_functions; i++) {
        const jc_function *f = &ax->m->functions[i];
        if (!strcmp(f->name, n->op_type) && !strcmp(f->domain ? f->domain : "", n->domain))
            return f;
    }
    return NULL;
}

static const jc_graph *graph_attr(const jc_node *n, const char *name)
{
    const jc_attr *a = jc_node_attr(n, name);
    return a && a->type == JC_ATTR_GRAPH && a->g ? a->g[0] : NULL;
}

static int64_t branch_work(actx *ax, size_t from, size_t to)
{
    int64_t s = 0, w;
    for (size_t i = from; i < to; i++) {
        const jc_node_cost *c = &ax->nodes[i].cost;
        w = c->flops + c->special_ops;
        if (!jci_mul_ok(w, c->repeat, &w) || !jci_add_ok(s, w, &s)) return INT64_MAX;
    }
    return s;
}

/* If / Loop / Scan / function call: a subgraph instance is analysed right
 * after the container node's record. */
/* If: both branches are analysed; the one the constant condition picks, or
 * the larger, is counted; outputs merge the two when the condition is not
 * known. */
static jc_status run_if(actx *ax, opctx *c, int inst, const fscope *scope, int depth,
                        int rec, const char *name)
{
    const jc_node *n = c->n;
    jc_graph_inst *gi;
    char path[600];
    int64_t rep = ax->insts[inst].repeat;
    const jc_graph *tg = graph_attr(n, "then_branch"), *eg = graph_attr(n, "else_branch");
    if (!tg || !eg) return jci_diag_node(ax->d, JC_ERR_MODEL, name, "If", "missing branch graph");
    int bi[2];
    size_t from[2], to[2];
    for (int b = 0; b < 2; b++) {
        snprintf(path, sizeof path, "%s/%s", name, b ? "else_branch" : "then_branch");
        from[b] = ax->n_nodes;
        bi[b] = new_inst(ax, b ? eg : tg, path, inst, rep);
        if (bi[b] < 0) return ax->err;
        jc_status st = run_graph(ax, bi[b], scope, depth + 1);
        if (st) return st;
        to[b] = ax->n_nodes;
    }
    int64_t w0 = branch_work(ax, from[0], to[0]), w1 = branch_work(ax, from[1], to[1]);
    const int64_t *cv;
    int64_t cn;
    int take = w1 > w0 ? 1 : 0;
    bool cond_known = op_in_ints(c, 0, &cv, &cn) && cn == 1;
    if (cond_known) take = cv[0] ? 0 : 1;
    for (size_t i = from[1 - take]; i < to[1 - take]; i++) ax->nodes[i].counted = 0;
    ax->nodes[rec].note = jci_arena_strdup(
        ax->ar, cond_known ? (take ? "condition constant false: else_branch counted"
                                   : "condition constant true: then_branch counted")
                           : (take ? "both branches reported; else_branch counted (larger)"
                                   : "both branches reported; then_branch counted (larger)"));
    /* outputs: the counted branch's outputs, merged with the other's */
    gi = &ax->insts[bi[take]];
    const jc_graph_inst *go = &ax->insts[bi[1 - take]];
    for (int k = 0; k < c->nout && k < (int)gi->graph->n_outputs; k++) {
        if (!c->out[k]) continue;
        const jc_tshape *t = &gi->values[gi->graph->outputs[k]];
        *c->out[k] = *t;
        if (!cond_known && k < (int)go->graph->n_outputs) {
            const jc_tshape *u = &go->values[go->graph->outputs[k]];
            if (u->rank != t->rank) c->out[k]->rank = -1;
            else {
                jc_status st = op_copy_out(c, k, t, 0);
                if (st) return nomem(ax);
                for (int i = 0; i < t->rank; i++)
                    if (u->dims[i].v != t->dims[i].v ||
                        (t->dims[i].v < 0 && (!u->dims[i].sym || !t->dims[i].sym ||
                                              strcmp(u->dims[i].sym, t->dims[i].sym))))
                        c->out[k]->dims[i] = (jc_dim){-1, NULL};
            }
        }
    }
    return JC_OK;
}

/* A Loop or Scan: its trip count (an input, the scanned axis, an
 * assumption, or unknown: the body counted once). */
typedef struct loop_info {
    bool loop;
    int64_t trips;
    const char *tsym;
    int nsi, nstate;
} loop_info;

/* Shapes of the body's inputs from the node's inputs. */
static jc_status loop_body_inputs(actx *ax, opctx *c, const jc_graph *body, jc_graph_inst *gi,
                                  const loop_info *li)
{
    bool loop = li->loop;
    int nstate = li->nstate;
    for (size_t i = 0; i < body->n_inputs; i++) {
        jc_tshape *bt = &gi->values[body->inputs[i]];
        const jc_value *bv = &body->values[body->inputs[i]];
        jc_status st = declared(ax, bv, bt);
        if (st) return st;
        const jc_tshape *src = NULL;
        if (loop) {
            if (i == 0) {
                bt->dtype = JC_DT_INT64;
                bt->rank = 0;
            } else if (i == 1) {
                bt->dtype = JC_DT_BOOL;
                bt->rank = 0;
            } else src = (int)i < c->nin ? c->in[i] : NULL;
        } else {
            int base = c->opset < 9 ? 1 : 0;
            if ((int)i < nstate) src = c->in[base + (int)i];
            else if (base + (int)i < c->nin && c->in[base + (int)i]) {
                const jc_tshape *s = c->in[base + (int)i];
                const int64_t *ax_in;
                size_t nax = op_attr_ints(c, "scan_input_axes", &ax_in);
                int a = c->opset < 9 ? 1 : 0;
                size_t j = i - (size_t)nstate;
                if (j < nax && s->rank > 0) op_axis(ax_in[j], s->rank, &a);
                if (s->rank > 0) {
                    *bt = *s;
                    bt->n_vals = -1;
                    bt->isyms = NULL;
                    bt->rank = s->rank - 1;
                    bt->dims = jci_arena_calloc(ax->ar, (size_t)s->rank, sizeof(jc_dim));
                    if (!bt->dims) return nomem(ax);
                    for (int q = 0, o = 0; q < s->rank; q++)
                        if (q != a && !(c->opset < 9 && q == 0)) bt->dims[o++] = s->dims[q];
                    if (c->opset < 9) {
                        bt->rank = s->rank - 1;
                        bt->dims[0] = s->dims[0];
                        for (int q = 2, o = 1; q < s->rank; q++) bt->dims[o++] = s->dims[q];
                    }
                }
            }
        }
        if (src && src->rank >= 0) {
            *bt = *src;
            if (loop) {   /* carried values change: keep shape only */
                bt->n_vals = -1;
                bt->isyms = NULL;
            }
        }
    }
    return JC_OK;
}

/* The node's outputs from the body's: carried state as is, scan outputs
 * with the trip count as a new axis. */
static jc_status loop_outputs(actx *ax, opctx *c, const jc_graph *body, const jc_graph_inst *gi,
                              const loop_info *li)
{
    bool loop = li->loop;
    int nstate = li->nstate;
    int64_t trips = li->trips;
    const char *tsym = li->tsym;
    jc_status st;
    /* outputs */
    int body_first = loop ? 1 : 0;  /* Loop body output 0 is cond */
    for (int k = 0; k < c->nout; k++) {
        if (!c->out[k]) continue;
        int bo = body_first + k;
        if (bo >= (int)body->n_outputs) continue;
        const jc_tshape *t = &gi->values[body->outputs[bo]];
        if (k < nstate) {
            if ((st = op_copy_out(c, k, t, 0))) return nomem(ax);
            continue;
        }
        if (t->rank < 0) {
            if ((st = op_set_out(c, k, t->dtype, -1, NULL))) return nomem(ax);
            continue;
        }
        jc_dim d[65];
        if (t->rank > 63) continue;
        int oa = 0;
        if (!loop) {
            const int64_t *oax;
            size_t no = op_attr_ints(c, "scan_output_axes", &oax);
            size_t j = (size_t)(k - nstate);
            if (j < no) op_axis(oax[j], t->rank + 1, &oa);
            if (c->opset < 9) oa = 1;
        }
        jc_dim td = {trips, tsym};
        for (int q = 0, o = 0; q <= t->rank; q++) {
            if (q == oa) d[q] = td;
            else d[q] = t->dims[o++];
        }
        if (c->opset < 9 && !loop) d[0] = c->in[nstate + 1] && c->in[nstate + 1]->rank > 0
                                              ? c->in[nstate + 1]->dims[0]
                                              : (jc_dim){-1, NULL};
        if ((st = op_set_out(c, k, t->dtype, t->rank + 1, d))) return nomem(ax);
    }
    return JC_OK;
}

/* A Loop's trip count: M when it is a folded constant and the loop runs
 * exactly M times (no condition, or a constant-true condition the body
 * passes through unchanged), or M as the count when M is an ordinary
 * number; a huge M (>= 2^62) with a live condition is PyTorch's while-loop
 * bound: -1 (data-dependent), *bound = M.  -1 when M is not known. */
static int64_t loop_trips(opctx *c, const jc_graph *body, int64_t *bound)
{
    const int64_t *v, *cv;
    int64_t cnt, ccnt;
    if (!op_in_ints(c, 0, &v, &cnt) || cnt != 1 || v[0] < 0) return -1;
    bool cond_given = c->nin > 1 && c->in[1];
    bool cond_fixed = !cond_given;
    if (cond_given && op_in_ints(c, 1, &cv, &ccnt) && ccnt == 1 && cv[0] && body->n_inputs > 1 &&
        body->n_outputs > 0) {
        int32_t co = body->outputs[0], ci = body->inputs[1];
        cond_fixed = co == ci;
        for (size_t i = 0; i < body->n_nodes && !cond_fixed; i++) {
            const jc_node *bn = &body->nodes[i];
            cond_fixed = !strcmp(bn->op_type, "Identity") && bn->n_outputs == 1 &&
                         bn->outputs[0] == co && bn->n_inputs == 1 && bn->inputs[0] == ci;
        }
    }
    if (cond_fixed || v[0] < ((int64_t)1 << 62)) return v[0];
    *bound = v[0];
    return -1;
}

static jc_status run_loop(actx *ax, opctx *c, int inst, const fscope *scope, int depth,
                          int rec, const char *name)
{
    const jc_node *n = c->n;
    jc_graph_inst *gi;
    char path[600];
    int64_t rep = ax->insts[inst].repeat;
    bool loop = n->op_type[0] == 'L';
    const jc_graph *body = graph_attr(n, "body");
    if (!body) return jci_diag_node(ax->d, JC_ERR_MODEL, name, n->op_type, "missing body graph");
    int64_t trips = -1, bound = -1;
    const char *tsym = NULL;
    int nsi = 0, nstate = 0;
    if (loop) {
        trips = loop_trips(c, body, &bound);
        nstate = c->nin > 2 ? c->nin - 2 : 0;
    } else {
        int64_t nsi64 = op_attr_i(c, "num_scan_inputs", 1);
        int lead = c->opset < 9 ? 1 : 0;   /* opset 8: sequence_lens first */
        if (nsi64 < 1 || nsi64 > c->nin - lead)
            return jci_diag_node(ax->d, JC_ERR_MODEL, name, n->op_type,
                                "num_scan_inputs %lld: expected 1 to %d (the node has %d "
                                "input%s)", (long long)nsi64, c->nin - lead, c->nin,
                                c->nin == 1 ? "" : "s");
        nsi = (int)nsi64;
        nstate = c->nin - nsi - lead;
        const int64_t *ax_in;
        size_t nax = op_attr_ints(c, "scan_input_axes", &ax_in);
        int first = c->nin - nsi;
        const jc_tshape *t = op_in(c, first);
        int a = 0;
        if (c->opset < 9) a = 1;
        else if (nax > 0 && t) op_axis(ax_in[0], t->rank, &a);
        if (t && a < t->rank && t->dims[a].v >= 0) trips = t->dims[a].v;
    }
    char tname[600];
    snprintf(tname, sizeof tname, "%s:trips", name);
    if (trips < 0) {
        int64_t v;
        if (ax_assumed(ax, tname, &v)) trips = v;
    }
    if (trips < 0) {
        tsym = jci_arena_strdup(ax->ar, tname);
        ax_data_dependent(c, tsym);
        ax->nodes[rec].cost.state = JC_COST_DATA_DEPENDENT;
        char why[200];
        if (bound >= 0)
            snprintf(why, sizeof why, "the loop condition decides the trip count (M = %lld is only "
                     "a bound): body counted once", (long long)bound);
        else
            snprintf(why, sizeof why, "trip count unknown: body counted once");
        ax->nodes[rec].note = jci_arena_strdup(ax->ar, why);
    }
    int64_t brep;
    if (!jci_mul_ok(rep, trips < 0 ? 1 : trips, &brep))
        return jci_diag_node(ax->d, JC_ERR_RANGE, name, n->op_type, "repeat count overflows");
    snprintf(path, sizeof path, "%s/body", name);
    int bi = new_inst(ax, body, path, inst, brep);
    if (bi < 0) return ax->err;
    gi = &ax->insts[bi];
    loop_info li = {loop, trips, tsym, nsi, nstate};
    jc_status st = loop_body_inputs(ax, c, body, gi, &li);
    if (st) return st;
    st = run_graph(ax, bi, scope, depth + 1);
    if (st) return st;
    gi = &ax->insts[bi];
    if ((st = loop_outputs(ax, c, body, gi, &li))) return st;
    if (trips >= 0) {
        snprintf(tname, sizeof tname, "body repeated %lld times", (long long)trips);
        ax->nodes[rec].note = jci_arena_strdup(ax->ar, tname);
    }
    return JC_OK;
}

/* A call of a model-local function: its body expanded in place. */
static jc_status run_function(actx *ax, opctx *c, int inst, const fscope *scope, int depth,
                              int rec, const char *name, const jc_function *fn)
{
    const jc_node *n = c->n;
    jc_graph_inst *gi;
    char path[600];
    int64_t rep = ax->insts[inst].repeat;
    if (ax->fdepth > 32)
        return jci_diag_node(ax->d, JC_ERR_MODEL, name, n->op_type, "function nesting too deep");
    snprintf(path, sizeof path, "%s", name);
    int bi = new_inst(ax, fn->body, path, inst, rep);
    if (bi < 0) return ax->err;
    gi = &ax->insts[bi];
    for (size_t i = 0; i < fn->n_inputs; i++) {
        int32_t k = jc_graph_find(fn->body, fn->inputs[i]);
        if (k < 0) continue;
        if ((int)i < c->nin && c->in[i]) gi->values[k] = *c->in[i];
    }
    fscope fs = {n, scope};
    ax->fdepth++;
    jc_status st = run_graph(ax, bi, &fs, depth + 1);
    ax->fdepth--;
    if (st) return st;
    gi = &ax->insts[bi];
    for (size_t k = 0; k < fn->n_outputs && (int)k < c->nout; k++) {
        int32_t v = jc_graph_find(fn->body, fn->outputs[k]);
        if (v >= 0 && c->out[k]) *c->out[k] = gi->values[v];
    }
    ax->nodes[rec].note = jci_arena_strdup(ax->ar, "model-local function: body expanded");
    return JC_OK;
}

static jc_status run_container(actx *ax, opctx *c, int inst, const fscope *scope, int depth,
                               int rec, const char *name, bool *handled)
{
    const jc_node *n = c->n;
    *handled = true;
    bool is_def = !*n->domain || !strcmp(n->domain, "ai.onnx");
    if (is_def && !strcmp(n->op_type, "If")) return run_if(ax, c, inst, scope, depth, rec, name);
    if (is_def && (!strcmp(n->op_type, "Loop") || !strcmp(n->op_type, "Scan")))
        return run_loop(ax, c, inst, scope, depth, rec, name);
    const jc_function *fn = find_function(ax, n);
    if (fn && fn->body) return run_function(ax, c, inst, scope, depth, rec, name, fn);
    *handled = false;
    return JC_OK;
}

/* A node whose every output value the analysis folded to numbers (shape
 * arithmetic: scalar Gather/Concat/Cast/Div... on Shape results) is
 * constant-folded by any runtime: it costs nothing and has class none, as
 * Shape and Constant do, so no kernel-launch floor applies to it.  Its
 * parameters still count. */
static void free_if_folded(opctx *c)
{
    int outs = 0;
    for (int k = 0; k < c->nout; k++) {
        const jc_tshape *o = c->out[k];
        if (!o) continue;
        if (o->non_tensor || o->n_vals < 0 || o->isyms) return;
        outs++;
    }
    if (!outs || c->cost.state != JC_COST_OK || c->cost.cls == JC_CLASS_NONE) return;
    c->cost.macs = c->cost.flops = c->cost.special_ops = 0;
    c->cost.other_flops_weighted = c->cost.fvcore_extra = 0;
    c->cost.bytes_read = c->cost.weight_bytes_read = c->cost.bytes_written = 0;
    c->cost.cls = JC_CLASS_NONE;
    c->bytes_set = 1;
    if (!c->note) op_note(c, "constant-folded (values known)");
}

/* Where inference left an output's shape unknown, the file's declared
 * shape fills it (unless the options say to ignore declarations). */
static jc_status declared_fallback(actx *ax, opctx *c, const jc_graph *g, const jc_node *n)
{
    jc_status st;
    /* fall back on the file's declared shapes where inference could not */
    for (int k = 0; k < c->nout; k++) {
        if (!c->out[k]) continue;
        const jc_value *v = &g->values[n->outputs[k]];
        if (!ax->o.ignore_declared && v->rank >= 0 && !v->non_tensor &&
            (c->out[k]->rank < 0 || (c->out[k]->rank == v->rank && !shape_known(c->out[k])))) {
            jc_tshape dt;
            if ((st = declared(ax, v, &dt))) return st;
            if (c->out[k]->rank < 0) {
                int64_t nv = c->out[k]->n_vals;
                int64_t *iv = c->out[k]->ivals;
                double *fv = c->out[k]->fvals;
                *c->out[k] = dt;
                if (nv >= 0) {
                    c->out[k]->n_vals = nv;
                    c->out[k]->ivals = iv;
                    c->out[k]->fvals = fv;
                }
            } else {
                for (int i = 0; i < v->rank; i++)
                    if (c->out[k]->dims[i].v < 0 && dt.dims[i].v >= 0) c->out[k]->dims[i] = dt.dims[i];
                    else if (c->out[k]->dims[i].v < 0 && !c->out[k]->dims[i].sym)
                        c->out[k]->dims[i] = dt.dims[i];
            }
            if (!c->out[k]->dtype) c->out[k]->dtype = dt.dtype;
        }
        if (v->non_tensor) c->out[k]->non_tensor = 1;
    }
    return JC_OK;
}

/* Bytes read and written by a counted node, from its tensors' sizes
 * (unless its rule set them). */
static jc_status tally_bytes(actx *ax, opctx *c)
{
    if (c->cost.state == JC_COST_UNSUPPORTED) {
        /* nothing more to count */
    } else if (c->cost.cls != JC_CLASS_NONE && !c->bytes_set) {
        for (int k = 0; k < c->nin; k++) {
            if (!c->in[k] || c->in[k]->non_tensor) continue;
            int64_t b;
            if (!bytes_of(c->in[k], &b)) {
                int64_t dummy;   /* elements known: the bytes overflow */
                if (op_numel(c, c->in[k], &dummy)) return op_overflow(c);
                if (ax->err) return ax->err;
                continue;
            }
            int64_t *dst = op_in_is_weight(c, k) ? &c->cost.weight_bytes_read : &c->cost.bytes_read;
            if (!op_add(c, *dst, b, dst)) return ax->err;
        }
        for (int k = 0; k < c->nout; k++) {
            if (!c->out[k] || c->out[k]->non_tensor) continue;
            int64_t b;
            if (!bytes_of(c->out[k], &b)) {
                int64_t dummy;   /* elements known: the bytes overflow */
                if (op_numel(c, c->out[k], &dummy)) return op_overflow(c);
                if (ax->err) return ax->err;
                continue;
            }
            if (!op_add(c, c->cost.bytes_written, b, &c->cost.bytes_written)) return ax->err;
        }
    }
    return JC_OK;
}

static jc_status run_node(actx *ax, int inst, const fscope *scope, int depth, size_t idx)
{
    const jc_graph *g = ax->insts[inst].graph;
    const jc_node *n = &g->nodes[idx];
    jc_tshape *vals = ax->insts[inst].values;
    jc_tshape *in[256], *out[256];
    const jc_value *vin[256];
    const jc_graph *ving[256];   /* graph defining input i (outer scope resolved) */
    int32_t vini[256];
    jc_tshape none[1];
    memset(none, 0, sizeof none);
    /* rules read in[0..]/out[0] without checking nin/nout: slots a node
     * lacks (a file may give none) read as omitted (fuzzing finding) */
    for (int i = 0; i < 8; i++) in[i] = out[i] = NULL, vin[i] = NULL;
    if (n->n_inputs > 256 || n->n_outputs > 256)
        return jci_diag_node(ax->d, JC_ERR_MODEL, n->name, n->op_type, "too many inputs/outputs");
    const char *name = display_name(ax, inst, n, idx);
    if (!name) return nomem(ax);
    ax->cur_name = name;
    opctx c;
    memset(&c, 0, sizeof c);
    c.ax = ax;
    c.n = n;
    c.opset = n->opset;
    c.nin = (int)n->n_inputs;
    c.nout = (int)n->n_outputs;
    c.in = in;
    c.out = out;
    c.vin = vin;
    c.inst = inst;
    c.scope = (void *)scope;
    c.attr_lookup = ctx_attr;
    c.cost.repeat = ax->insts[inst].repeat;
    c.cost.serial_steps = 1;
    for (size_t i = 0; i < n->n_inputs; i++) {
        int32_t k = n->inputs[i];
        in[i] = NULL;
        vin[i] = NULL;
        if (k < 0) continue;
        vin[i] = &g->values[k];
        in[i] = &vals[k];
        ving[i] = g;
        vini[i] = k;
        if (g->values[k].kind == JC_V_OUTER) {
            const jc_graph *og = NULL;
            int32_t oi = -1;
            jc_tshape *o = outer_def(ax, inst, g->values[k].name, &og, &oi);
            if (o) {
                in[i] = o;
                vin[i] = &og->values[oi];
                ving[i] = og;
                vini[i] = oi;
            }
        }
    }
    for (size_t i = 0; i < n->n_outputs; i++) {
        int32_t k = n->outputs[i];
        out[i] = k < 0 ? NULL : &vals[k];
        if (out[i]) {
            memset(out[i], 0, sizeof *out[i]);
            out[i]->rank = -1;
            out[i]->n_vals = -1;
        }
    }
    int rec = push_node(ax, n, inst, depth, name, &c.cost);
    if (rec < 0) return ax->err;
    bool handled = false;
    jc_status st = run_container(ax, &c, inst, scope, depth, rec, name, &handled);
    if (st) return st;
    ax->cur_name = name;
    jc_counted_node *cn;
    if (handled) {
        /* the container's own initializer inputs (a Loop's trip count M)
         * are parameters like any other initializer */
        for (int k = 0; k < c.nin; k++)
            if (op_in_is_weight(&c, k) && (st = count_param(ax, ving[k], vini[k], &ax->nodes[rec].cost)))
                return st;
        cn = &ax->nodes[rec];
        cn->cost.cls = JC_CLASS_NONE;
        cn->counted = 0;
    } else {
        const op_rule *r = op_find(n->domain, n->op_type, n->opset);
        c.rule = r;
        /* a user rule (--op-rules) takes precedence over the registry */
        bool custom = ax_custom_rule(&c);
        if (ax->err) return ax->err;
        if (custom && r) {
            /* the user's rule replaced a built-in one: said once per op,
             * as the node notes only show in the per-node views */
            char buf[1024];
            snprintf(buf, sizeof buf, "%s:%s is counted by --op-rules %s, which replaces joulecast's built-in "
                     "rule for it", *n->domain ? n->domain : "ai.onnx", n->op_type,
                     ax->o.op_rules_path ? ax->o.op_rules_path : "");
            if ((st = ax_warn(ax, buf))) return st;
        } else if (custom) {
            /* shapes and cost filled by the rule */
        } else if (!r) {
            char buf[512];
            snprintf(buf, sizeof buf, "%s:%s", *n->domain ? n->domain : "ai.onnx", n->op_type);
            const char *op = jci_arena_strdup(ax->ar, buf);
            if (!op) return nomem(ax);
            tally_unsupported(ax, op);
            c.cost.state = JC_COST_UNSUPPORTED;
        } else {
            c.param = r->param;
            if ((st = r->shape(&c))) {
                if (st == JC_ERR_NOMEM) return nomem(ax);
                return ax->err ? ax->err : st;
            }
            if (ax->err) return ax->err;   /* a checked shape overflow or a refused input */
            if ((st = r->cost(&c))) {
                if (st == JC_ERR_NOMEM) return nomem(ax);
                return ax->err ? ax->err : st;
            }
            if (ax->err) return ax->err;
            free_if_folded(&c);
        }
        if ((st = declared_fallback(ax, &c, g, n))) return st;
        if ((st = tally_bytes(ax, &c))) return st;
        if (ax->err) return ax->err;
        for (int k = 0; k < c.nin; k++)
            if (op_in_is_weight(&c, k) && (st = count_param(ax, ving[k], vini[k], &c.cost)))
                return st;
        if (!c.cost.arith_dtype) {
            for (int k = 0; k < c.nin && !c.cost.arith_dtype; k++)
                if (in[k]) c.cost.arith_dtype = in[k]->dtype;
        }
        cn = &ax->nodes[rec];
        jc_node_cost keep = cn->cost;
        cn->cost = c.cost;
        if (keep.state == JC_COST_DATA_DEPENDENT) cn->cost.state = keep.state;
        if (c.note) cn->note = c.note;
        if (cn->cost.state == JC_COST_UNKNOWN_DIMS) {
            if (c.n_blocked) {
                cn->blocked_by = jci_arena_calloc(ax->ar, (size_t)c.n_blocked, sizeof(char *));
                if (!cn->blocked_by) return nomem(ax);
                for (int i = 0; i < c.n_blocked; i++) {
                    cn->blocked_by[i] = c.blocked[i];
                    record_sym(ax, c.blocked[i], name);
                }
                cn->n_blocked_by = (size_t)c.n_blocked;
            } else {
                ax->n_unknown_other++;
            }
        }
    }
    (void)none;
    return ax->err;
}

static jc_status run_graph(actx *ax, int inst, const fscope *scope, int depth)
{
    if (depth > 64) return jci_diag_set(ax->d, JC_ERR_MODEL, "subgraphs nested too deep");
    const jc_graph *g = ax->insts[inst].graph;
    jc_tshape *vals = ax->insts[inst].values;
    for (size_t i = 0; i < g->n_values; i++) {
        const jc_value *v = &g->values[i];
        if (v->kind == JC_V_INITIALIZER) {
            jc_status st = declared(ax, v, &vals[i]);
            if (st) return st;
        } else if (v->kind == JC_V_OUTER) {
            jc_tshape *o = outer_value(ax, inst, v->name);
            if (o) vals[i] = *o;
        } else if (v->kind == JC_V_INPUT && vals[i].rank < 0 && !vals[i].dtype) {
            jc_status st = declared(ax, v, &vals[i]);
            if (st) return st;
        }
    }
    /* topological order: file order, deferring a node whose inputs are
     * produced later in the file */
    size_t nn = g->n_nodes;
    uint8_t *done = calloc(nn ? nn : 1, 1);
    int32_t *producer = malloc((g->n_values ? g->n_values : 1) * sizeof(int32_t));
    if (!done || !producer) {
        free(done);
        free(producer);
        return nomem(ax);
    }
    for (size_t i = 0; i < g->n_values; i++) producer[i] = -1;
    for (size_t i = 0; i < nn; i++)
        for (size_t k = 0; k < g->nodes[i].n_outputs; k++)
            if (g->nodes[i].outputs[k] >= 0) producer[g->nodes[i].outputs[k]] = (int32_t)i;
    size_t left = nn;
    jc_status st = JC_OK;
    while (left && !st) {
        size_t progressed = 0;
        for (size_t i = 0; i < nn && !st; i++) {
            if (done[i]) continue;
            const jc_node *n = &g->nodes[i];
            bool ready = true;
            for (size_t k = 0; k < n->n_inputs; k++) {
                int32_t v = n->inputs[k];
                if (v >= 0 && producer[v] >= 0 && !done[producer[v]]) ready = false;
            }
            if (!ready) continue;
            st = run_node(ax, inst, scope, depth, i);
            vals = ax->insts[inst].values;
            done[i] = 1;
            left--;
            progressed++;
        }
        if (!progressed && left && !st) {
            /* a cycle: ONNX graphs are acyclic; name a node on it */
            size_t i = 0;
            while (done[i]) i++;
            const jc_node *n = &g->nodes[i];
            const char *nm = display_name(ax, inst, n, i);
            st = jci_diag_node(ax->d, JC_ERR_MODEL, nm ? nm : "", n->op_type,
                               "graph '%s' has a cycle: %zu node%s, this one among them, wait on "
                               "each other's outputs (ONNX graphs are acyclic)",
                               g->name ? g->name : "", left, left == 1 ? "" : "s");
        }
    }
    free(done);
    free(producer);
    return st;
}

/* ---- inputs and bindings ----------------------------------------------------------- */

static bool model_has_sym(const jc_graph *g, const char *s)
{
    for (size_t i = 0; i < g->n_values; i++) {
        const jc_value *v = &g->values[i];
        for (int k = 0; k < v->rank; k++)
            if (v->dims[k].sym && !strcmp(v->dims[k].sym, s)) return true;
    }
    return false;
}

/* --input-value NAME=v,...: gives a main-graph input its values (and, for
 * a 1-D input of unknown length or an input of unknown rank, its length). */
static jc_status bind_value(actx *ax, const jc_graph *g, jc_tshape *vals, const jc_value_binding *b)
{
    const char *nm = b->name ? b->name : "";
    int32_t k = *nm ? jc_graph_find(g, nm) : -1;
    if (k < 0 || g->values[k].kind != JC_V_INPUT)
        return jci_diag_set(ax->d, JC_ERR_USAGE, "--input-value %s: the model has no input named '%s'", nm, nm);
    if (b->n < 0 || b->n > JCI_SMALL_TENSOR || (b->n > 0 && !b->ivals && !b->fvals))
        return jci_diag_set(ax->d, JC_ERR_USAGE, "--input-value %s: %lld values (0 to %d expected)", nm,
                           (long long)b->n, JCI_SMALL_TENSOR);
    jc_tshape *t = &vals[k];
    if (t->non_tensor)
        return jci_diag_set(ax->d, JC_ERR_USAGE, "--input-value %s: the input is not a tensor", nm);
    int bits = jc_dtype_bits(t->dtype);
    if (t->dtype == JC_DT_STRING || (t->dtype && bits == 0))
        return jci_diag_set(ax->d, JC_ERR_USAGE, "--input-value %s: a %s input cannot be bound to numbers", nm,
                           jc_dtype_name(t->dtype));
    if (t->rank < 0 || (t->rank == 1 && t->dims[0].v < 0)) {
        jc_dim *d = jci_arena_calloc(ax->ar, 1, sizeof *d);
        if (!d) return nomem(ax);
        d[0].v = b->n;
        d[0].sym = t->rank == 1 ? t->dims[0].sym : NULL;
        t->rank = 1;
        t->dims = d;
    }
    int64_t numel;
    if (!numel_of(t, &numel))
        return jci_diag_set(ax->d, JC_ERR_USAGE,
                           "--input-value %s: the input's shape is not fully known; give it with --input", nm);
    if (numel != b->n)
        return jci_diag_set(ax->d, JC_ERR_USAGE, "--input-value %s: %lld values given, the input holds %lld", nm,
                           (long long)b->n, (long long)numel);
    int64_t *iv = jci_arena_calloc(ax->ar, (size_t)(b->n ? b->n : 1), sizeof *iv);
    double *fv = jci_arena_calloc(ax->ar, (size_t)(b->n ? b->n : 1), sizeof *fv);
    if (!iv || !fv) return nomem(ax);
    for (int64_t i = 0; i < b->n; i++) {
        if (b->ivals) {
            iv[i] = b->ivals[i];
            fv[i] = b->fvals ? b->fvals[i] : (double)b->ivals[i];
        } else {
            double x = b->fvals[i];
            if (!(x > -9.2e18 && x < 9.2e18))
                return jci_diag_set(ax->d, JC_ERR_USAGE, "--input-value %s: value %lld is out of range", nm,
                                   (long long)i);
            fv[i] = x;
            iv[i] = (int64_t)x;
        }
    }
    t->n_vals = b->n;
    t->ivals = iv;
    t->fvals = fv;
    t->isyms = NULL;
    return JC_OK;
}

/* The same dim, bound, input or input value given twice with two values:
 * the analysis would take one and lose the other, so it refuses. */
static jc_status check_repeats(actx *ax)
{
    const jc_analyze_opts *o = &ax->o;
    for (size_t i = 0; i < o->n_dims; i++)
        for (size_t k = 0; k < i; k++)
            if (o->dims[k].name && o->dims[i].name && !strcmp(o->dims[k].name, o->dims[i].name) &&
                o->dims[k].value != o->dims[i].value)
                return jci_diag_set(ax->d, JC_ERR_USAGE, "--dim %s=%lld and --dim %s=%lld: one value is lost; "
                                   "bind the dim once", o->dims[k].name, (long long)o->dims[k].value,
                                   o->dims[i].name, (long long)o->dims[i].value);
    for (size_t i = 0; i < o->n_assume; i++) {
        const char *s = o->assume[i].name;
        if (!s || !*s) return jci_diag_set(ax->d, JC_ERR_USAGE, "--assume: empty name");
        if (o->assume[i].value < 0)
            return jci_diag_set(ax->d, JC_ERR_USAGE, "--assume %s: negative value", s);
        for (size_t k = 0; k < i; k++)
            if (o->assume[k].name && !strcmp(o->assume[k].name, s) && o->assume[k].value != o->assume[i].value)
                return jci_diag_set(ax->d, JC_ERR_USAGE, "--assume %s=%lld and --assume %s=%lld: one value is "
                                   "lost; give the bound once", s, (long long)o->assume[k].value, s,
                                   (long long)o->assume[i].value);
    }
    for (size_t i = 0; i < o->n_inputs; i++)
        for (size_t k = 0; k < i; k++) {
            const jc_input_binding *a = &o->inputs[k], *b = &o->inputs[i];
            if (!a->name || !b->name || strcmp(a->name, b->name)) continue;
            bool same = a->rank == b->rank;
            for (int q = 0; same && q < a->rank; q++) same = a->dims[q] == b->dims[q];
            if (!same)
                return jci_diag_set(ax->d, JC_ERR_USAGE, "--input %s is given twice with two shapes: one is "
                                   "lost; bind the input once", b->name);
        }
    for (size_t i = 0; i < o->n_values; i++)
        for (size_t k = 0; k < i; k++)
            if (o->values[k].name && o->values[i].name && !strcmp(o->values[k].name, o->values[i].name))
                return jci_diag_set(ax->d, JC_ERR_USAGE, "--input-value %s is given twice: give the input's "
                                   "values once", o->values[i].name);
    return JC_OK;
}

/* An --assume bound that no data-dependent size or trip count of the
 * model took: it names nothing, and its value would be silently unused. */
static jc_status check_assume_used(actx *ax)
{
    for (size_t i = 0; i < ax->o.n_assume; i++) {
        if (ax->assume_used && ax->assume_used[i]) continue;
        const char *s = ax->o.assume[i].name;
        bool partial = ax->n_uns || ax->n_syms || ax->n_unknown_other;
        return jci_diag_set(ax->d, JC_ERR_NOTFOUND, "--assume %s: the model has no data-dependent size or "
                           "trip count named '%s'%s (the names are those the count lists under "
                           "\"data-dependent\")", s, s,
                           partial ? " among the nodes counted; unknown dims or unsupported ops may hide "
                                     "it: bind them first" : "");
    }
    return JC_OK;
}

static jc_status bind_inputs(actx *ax, int inst)
{
    const jc_graph *g = ax->m->graph;
    jc_tshape *vals = ax->insts[inst].values;
    jc_status rst = check_repeats(ax);
    if (rst) return rst;
    for (size_t i = 0; i < ax->o.n_dims; i++) {
        const char *s = ax->o.dims[i].name;
        if (!s || !*s) return jci_diag_set(ax->d, JC_ERR_USAGE, "--dim: empty name");
        if (ax->o.dims[i].value < 0)   /* 0: the serving request's empty past */
            return jci_diag_set(ax->d, JC_ERR_USAGE, "--dim %s: negative value", s);
        if (!model_has_sym(g, s)) {
            jci_suggest sg;
            jci_suggest_init(&sg, s, 1);
            for (size_t k = 0; k < g->n_values; k++)
                for (int q = 0; q < g->values[k].rank; q++)
                    if (g->values[k].dims[q].sym) jci_suggest_add(&sg, g->values[k].dims[q].sym, NULL);
            const char *best = jci_suggest_best(&sg);
            if (best)
                return jci_diag_set(ax->d, JC_ERR_NOTFOUND,
                                   "--dim %s: the model has no dim named '%s' (did you mean '%s'?)", s, s, best);
            return jci_diag_set(ax->d, JC_ERR_NOTFOUND, "--dim %s: the model has no dim named '%s'", s, s);
        }
    }
    for (size_t i = 0; i < g->n_inputs; i++) {
        int32_t k = g->inputs[i];
        jc_status st = declared(ax, &g->values[k], &vals[k]);
        if (st) return st;
        if (ax->o.batch > 0 && vals[k].rank > 0 && vals[k].dims[0].v < 0) {
            vals[k].dims[0].v = ax->o.batch;
        }
    }
    for (size_t j = 0; j < ax->o.n_inputs; j++) {
        const jc_input_binding *b = &ax->o.inputs[j];
        int32_t k = b->name ? jc_graph_find(g, b->name) : -1;
        if (k < 0 || g->values[k].kind != JC_V_INPUT)
            return jci_diag_set(ax->d, JC_ERR_USAGE, "--input %s: the model has no input named '%s'",
                               b->name ? b->name : "", b->name ? b->name : "");
        if (b->rank < 0 || b->rank > 64)
            return jci_diag_set(ax->d, JC_ERR_USAGE, "--input %s: bad rank", b->name);
        jc_tshape *t = &vals[k];
        if (t->rank >= 0 && t->rank != b->rank)
            return jci_diag_set(ax->d, JC_ERR_USAGE, "--input %s: rank %d given, the model declares rank %d",
                               b->name, b->rank, t->rank);
        jc_dim *d = jci_arena_calloc(ax->ar, (size_t)(b->rank ? b->rank : 1), sizeof *d);
        if (!d) return nomem(ax);
        for (int q = 0; q < b->rank; q++) {
            int64_t bound = 0;
            const char *sym = g->values[k].rank > q ? g->values[k].dims[q].sym : NULL;
            bool by_dim = sym && g->values[k].dims[q].v < 0 && find_binding(ax->o.dims, ax->o.n_dims, sym, &bound);
            if (t->rank > 0 && t->dims[q].v >= 0 && t->dims[q].v != b->dims[q] && by_dim)
                return jci_diag_set(ax->d, JC_ERR_USAGE, "--input %s: dim %d is %s, bound to %lld by --dim %s=%lld; "
                                   "%lld given", b->name, q, sym, (long long)bound, sym, (long long)bound,
                                   (long long)b->dims[q]);
            if (t->rank > 0 && t->dims[q].v >= 0 && t->dims[q].v != b->dims[q])
                return jci_diag_set(ax->d, JC_ERR_USAGE,
                                   "--input %s: dim %d is %lld in the model, %lld given", b->name, q,
                                   (long long)t->dims[q].v, (long long)b->dims[q]);
            if (b->dims[q] < 1 && !(t->rank > 0 && t->dims[q].v == b->dims[q]))
                return jci_diag_set(ax->d, JC_ERR_USAGE, "--input %s: dim %d given as %lld: a bound dim must be "
                                   ">= 1", b->name, q, (long long)b->dims[q]);
            d[q].v = b->dims[q];
            d[q].sym = t->rank > 0 ? t->dims[q].sym : NULL;
        }
        t->rank = b->rank;
        t->dims = d;
    }
    for (size_t j = 0; j < ax->o.n_values; j++) {
        jc_status st = bind_value(ax, g, vals, &ax->o.values[j]);
        if (st) return st;
    }
    return JC_OK;
}

/* ---- totals --------------------------------------------------------------------------- */

static jc_status totals(actx *ax, jc_analysis *a)
{
    jc_totals *t = &a->totals;
    memset(t, 0, sizeof *t);
    bool ok = true;
    for (size_t i = 0; i < ax->n_nodes; i++) {
        const jc_counted_node *cn = &ax->nodes[i];
        if (cn->cost.state != JC_COST_OK) a->partial = 1;
        if (!cn->counted || cn->cost.state != JC_COST_OK) continue;
        const jc_node_cost *c = &cn->cost;
        int64_t r = c->repeat, x;
#define ACC(field)                                                 \
        ok = ok && jci_mul_ok(c->field, r, &x) && jci_add_ok(t->field, x, &t->field)
        ACC(macs);
        ACC(flops);
        ACC(special_ops);
        ACC(bytes_read);
        ACC(weight_bytes_read);
        ACC(bytes_written);
        ACC(other_flops_weighted);
        ACC(fvcore_extra);
#undef ACC
        if (c->cls != JC_CLASS_NONE) {
            for (size_t k = 0; k < cn->node->n_outputs; k++) {
                int32_t v = cn->node->outputs[k];
                int64_t b;
                if (v >= 0 && bytes_of(&ax->insts[cn->inst].values[v], &b))
                    ok = ok && jci_mul_ok(b, r, &x) && jci_add_ok(t->activation_bytes, x, &t->activation_bytes);
            }
        }
        if (!ok && r > 1)
            return jci_diag_node(ax->d, JC_ERR_RANGE, cn->name, cn->node->op_type,
                                 "the total overflows 64 bits (the node runs %lld times: loop trip "
                                 "counts multiplied)", (long long)r);
        if (!ok)
            return jci_diag_node(ax->d, JC_ERR_RANGE, cn->name, cn->node->op_type,
                                "the total overflows 64 bits");
    }
    t->params = ax->params;
    t->weight_bytes = ax->weight_bytes;
    /* peak live activations along the main graph's order */
    const jc_graph *g = ax->m->graph;
    jc_tshape *vals = ax->insts[0].values;
    size_t nv = g->n_values;
    int64_t *last = malloc((nv ? nv : 1) * sizeof *last);
    if (!last) return nomem(ax);
    for (size_t i = 0; i < nv; i++) last[i] = -1;
    int64_t step = 0;
    for (size_t i = 0; i < ax->n_nodes; i++) {
        if (ax->nodes[i].inst != 0) continue;
        const jc_node *n = ax->nodes[i].node;
        for (size_t k = 0; k < n->n_inputs; k++)
            if (n->inputs[k] >= 0) last[n->inputs[k]] = step;
        step++;
    }
    for (size_t i = 0; i < g->n_outputs; i++) last[g->outputs[i]] = step;
    int64_t live = 0, peak = 0, b;
    bool known = true;
    for (size_t i = 0; i < g->n_inputs; i++) {
        int32_t v = g->inputs[i];
        if (!bytes_of(&vals[v], &b)) known = false;
        else if (!jci_add_ok(live, b, &live) || !jci_add_ok(t->activation_bytes, b, &t->activation_bytes))
            known = false;
    }
    peak = live;
    step = 0;
    uint8_t *freed = calloc(nv ? nv : 1, 1);
    if (!freed) {
        free(last);
        return nomem(ax);
    }
    for (size_t i = 0; i < ax->n_nodes && known; i++) {
        if (ax->nodes[i].inst != 0) continue;
        const jc_node *n = ax->nodes[i].node;
        for (size_t k = 0; k < n->n_outputs; k++) {
            int32_t v = n->outputs[k];
            if (v < 0) continue;
            if (!bytes_of(&vals[v], &b) || !jci_add_ok(live, b, &live)) known = false;
        }
        if (live > peak) peak = live;
        for (size_t k = 0; k < n->n_inputs; k++) {
            int32_t v = n->inputs[k];
            if (v < 0 || g->values[v].kind == JC_V_INITIALIZER || freed[v] || last[v] != step) continue;
            if (bytes_of(&vals[v], &b)) live -= b;
            freed[v] = 1;
        }
        for (size_t k = 0; k < n->n_outputs; k++) {
            int32_t v = n->outputs[k];
            if (v >= 0 && last[v] < 0 && !freed[v]) {   /* never used */
                if (bytes_of(&vals[v], &b)) live -= b;
                freed[v] = 1;
            }
        }
        step++;
    }
    free(last);
    free(freed);
    t->peak_activation_bytes = known ? peak : -1;
    return JC_OK;
}

/* Each node's matrix-product view, from the final shapes and costs (the
 * estimate stage's kernel model reads it, never the node's attributes). */
static void gemm_shapes(jc_analysis *a)
{
    for (size_t i = 0; i < a->n_nodes; i++) {
        jc_counted_node *cn = &a->nodes[i];
        jc_gemm_shape g;
        cn->has_gemm = op_gemm_shape(a, cn, &g);
        if (cn->has_gemm) cn->gemm = g;
    }
}

static void free_ctx(actx *ax)
{
    free(ax->assume_used);
    free(ax->insts);
    free(ax->nodes);
    free(ax->seen);
    free(ax->uns);
    for (size_t i = 0; i < ax->n_syms; i++) free(ax->syms[i].nodes);
    free(ax->syms);
    free(ax->dd);
    free(ax->warn);
}

static int cmp_tally(const void *x, const void *y)
{
    const jc_op_tally *a = x, *b = y;
    if (a->count != b->count) return a->count < b->count ? 1 : -1;
    return strcmp(a->op, b->op);
}

jc_status jc_analyze(const jc_model *m, const jc_analyze_opts *opts, jc_analysis **out,
                     jc_diag *d)
{
    if (!out || !m) return jci_diag_set(d, JC_ERR_USAGE, "jc_analyze: NULL argument");
    *out = NULL;
    jci_diag_clear(d);
    actx ax;
    memset(&ax, 0, sizeof ax);
    ax.m = m;
    ax.max_nodes = JCI_EXPAND_BUDGET + file_nodes(m->graph, 0);
    for (size_t i = 0; i < m->n_functions; i++)
        if (m->functions[i].body) ax.max_nodes += file_nodes(m->functions[i].body, 0);
    ax.d = d;
    if (opts) ax.o = *opts;
    ax.ar = jci_arena_new();
    if (!ax.ar) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    jc_analysis *a = jci_arena_alloc(ax.ar, sizeof *a);
    jc_status st = a ? JC_OK : nomem(&ax);
    if (!st && ax.o.op_rules_path) st = oprules_load(ax.ar, ax.o.op_rules_path, &ax.rules, d);
    if (!st && !m->graph) st = jci_diag_set(d, JC_ERR_MODEL, "%s: the model has no graph", m->path);
    int root = -1;
    if (!st) {
        root = new_inst(&ax, m->graph, "", -1, 1);
        if (root < 0) st = ax.err;
    }
    if (!st && ax.o.n_assume && !(ax.assume_used = calloc(ax.o.n_assume, 1))) st = nomem(&ax);
    if (!st) st = bind_inputs(&ax, root);
    if (!st) st = run_graph(&ax, root, NULL, 0);
    if (!st && ax.err) st = ax.err;
    if (!st) st = check_assume_used(&ax);
    if (!st) st = totals(&ax, a);
    if (!st) {
        a->model = m;
        a->convention = ax.o.convention;
        a->n_insts = ax.n_insts;
        a->insts = jci_arena_calloc(ax.ar, ax.n_insts ? ax.n_insts : 1, sizeof *a->insts);
        a->n_nodes = ax.n_nodes;
        a->nodes = jci_arena_calloc(ax.ar, ax.n_nodes ? ax.n_nodes : 1, sizeof *a->nodes);
        a->unsupported = jci_arena_calloc(ax.ar, ax.n_uns ? ax.n_uns : 1, sizeof *a->unsupported);
        a->unknown_syms = jci_arena_calloc(ax.ar, ax.n_syms ? ax.n_syms : 1, sizeof *a->unknown_syms);
        a->data_dependent = jci_arena_calloc(ax.ar, ax.n_dd ? ax.n_dd : 1, sizeof(char *));
        a->warnings = jci_arena_calloc(ax.ar, ax.n_warn ? ax.n_warn : 1, sizeof(char *));
        if (!a->insts || !a->nodes || !a->unsupported || !a->unknown_syms || !a->data_dependent ||
            !a->warnings)
            st = nomem(&ax);
    }
    if (!st) {
        if (ax.n_insts) memcpy(a->insts, ax.insts, ax.n_insts * sizeof *a->insts);
        if (ax.n_nodes) memcpy(a->nodes, ax.nodes, ax.n_nodes * sizeof *a->nodes);
        gemm_shapes(a);
        if (ax.n_uns) memcpy(a->unsupported, ax.uns, ax.n_uns * sizeof *a->unsupported);
        qsort(a->unsupported, ax.n_uns, sizeof *a->unsupported, cmp_tally);
        a->n_unsupported = ax.n_uns;
        for (size_t i = 0; i < ax.n_syms && !st; i++) {
            jc_sym_report *r = &a->unknown_syms[i];
            r->sym = ax.syms[i].sym;
            r->n_nodes = ax.syms[i].n;
            r->nodes = jci_arena_calloc(ax.ar, r->n_nodes ? r->n_nodes : 1, sizeof(char *));
            if (!r->nodes) st = nomem(&ax);
            else if (r->n_nodes) memcpy(r->nodes, ax.syms[i].nodes, r->n_nodes * sizeof(char *));
        }
        a->n_unknown_syms = ax.n_syms;
        if (ax.n_dd) memcpy(a->data_dependent, ax.dd, ax.n_dd * sizeof(char *));
        a->n_data_dependent = ax.n_dd;
        if (ax.n_warn) memcpy(a->warnings, ax.warn, ax.n_warn * sizeof(char *));
        a->n_warnings = ax.n_warn;
        a->n_unknown_other = ax.n_unknown_other;
        if (ax.n_uns || ax.n_syms || ax.n_dd || ax.n_unknown_other) a->partial = 1;
        a->internal_ = ax.ar;
    }
    free_ctx(&ax);
    if (st) {
        jci_arena_free(ax.ar);
        return st;
    }
    *out = a;
    return JC_OK;
}

void jc_analysis_free(jc_analysis *a)
{
    if (!a) return;
    jci_arena_free((jci_arena *)a->internal_);
}

/* ---- conventions -------------------------------------------------------------------- */

static const char *const conv_names[] = {"joulecast", "torchvision", "flops2x", "fvcore",
                                         "onnx-tool"};

const char *jc_convention_name(jc_convention c)
{
    return (unsigned)c < 5 ? conv_names[c] : "unknown";
}

jc_status jc_convention_parse(const char *s, jc_convention *out)
{
    for (int i = 0; s && i < 5; i++)
        if (!strcmp(s, conv_names[i])) {
            *out = (jc_convention)i;
            return JC_OK;
        }
    return JC_ERR_USAGE;
}
