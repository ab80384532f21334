/*
 * fusion.c (estimate) - the kernels a runtime runs for a counted graph (eager
 * PyTorch, torch.compile, an inference engine): which nodes fuse into one
 * kernel, the traffic of each fused kernel, attention as one SDPA kernel,
 * the side kernels eager execution adds (bias add, NCHW transforms,
 * autocast casts), and each kernel's inputs the previous kernel wrote
 * (read from the L2 where they fit).
 * Contract and rules: efficiency.h (jci_eff_plan, jci_eff_plan_build); it
 * reads what the analysis stage hands each counted node: its fusion class
 * (ops.def's `fusable` column), its kernel kind (analysis/ops/kernels.def)
 * and its GEMM shape, never an op name or an attribute.
 */
#include "estimate/efficiency.h"
#include "joulecast/model.h"
#include "joulecast/analysis.h"

#include <string.h>

typedef struct pctx {
    const jc_analysis *an;
    const jci_eff_model *m;
    jci_eff_plan *p;
    size_t *vbase;     /* per instance: first global value id */
    size_t nv;
    int *prod;         /* per global value: producing counted node, -1 */
    int *cstart, *clist;  /* consumers (CSR); a graph output is consumer -2 */
    int *grp;          /* per node: its group's head, -1 */
    int *seed;         /* per head (eager): the group's one input value */
    int *stamp;        /* per global value: last head that counted it */
    unsigned char *ban;   /* per node: runs alone (head of a split eager group) */
    double run_bytes;
    int eager, sdpa, tensor_cores;
} pctx;

static size_t gid(const pctx *c, int inst, int32_t v) { return c->vbase[inst] + (size_t)v; }

static size_t inst_of(const pctx *c, size_t g)
{
    size_t lo = 0, hi = c->an->n_insts;   /* vbase[lo] <= g < vbase[hi] */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (c->vbase[mid] <= g) lo = mid; else hi = mid;
    }
    return lo;
}

static const jc_tshape *shape_of(const pctx *c, size_t g)
{
    size_t inst = inst_of(c, g);
    return &c->an->insts[inst].values[g - c->vbase[inst]];
}

/* Bytes of a value at the run's precision (floating-point elements at
 * elt bytes, others at their own width); 0 when a dim is unknown. */
static double vbytes(const pctx *c, size_t g, double elt)
{
    const jc_tshape *t = shape_of(c, g);
    if (!t || t->rank < 0 || t->non_tensor) return 0;
    double n = 1;
    for (int i = 0; i < t->rank; i++) {
        if (t->dims[i].v < 0) return 0;
        n *= (double)t->dims[i].v;
    }
    /* a floating tensor of 16 bits or more is moved at the run precision;
     * 8- and 4-bit floats (quantised storage) and integers as stored */
    int bits = jc_dtype_bits(t->dtype);
    int fl = jci_dtype_is_float(t->dtype) && bits >= 16;
    return n * (fl && elt > 0 ? elt : (bits > 0 ? bits : 8) / 8.0);
}

static int is_view(const pctx *c, int node)
{
    return node >= 0 && c->an->nodes[node].cost.cls == JC_CLASS_NONE;
}

/* The value behind views (Reshape, Squeeze ...: class none, one input). */
static size_t root(const pctx *c, size_t g)
{
    for (int guard = 0; guard < 64; guard++) {
        int p = c->prod[g];
        if (!is_view(c, p)) break;
        const jc_counted_node *n = &c->an->nodes[p];
        if (n->node->n_inputs < 1 || n->node->inputs[0] < 0) break;
        size_t up = gid(c, n->inst, n->node->inputs[0]);
        const jc_value *v = &c->an->insts[n->inst].graph->values[n->node->inputs[0]];
        if (v->kind == JC_V_INITIALIZER) break;
        g = up;
    }
    return g;
}

/* An activation: produced by a node with work, or a graph input. */
static int is_act(const pctx *c, size_t g)
{
    int p = c->prod[g];
    if (p >= 0) return c->an->nodes[p].cost.cls != JC_CLASS_NONE;
    size_t inst = inst_of(c, g);
    jc_vkind k = c->an->insts[inst].graph->values[g - c->vbase[inst]].kind;
    return k == JC_V_INPUT || k == JC_V_OUTER;
}

static int fusable(const pctx *c, int i)
{
    const jc_counted_node *n = &c->an->nodes[i];
    if (!n->counted || n->cost.cls == JC_CLASS_NONE || n->cost.cls == JC_CLASS_MATRIX) return 0;
    if (n->cost.serial_steps > 1 || n->cost.repeat > 1) return 0;
    jc_fusion_class f = n->fusion;
    return f == JC_FUSION_POINTWISE || f == JC_FUSION_REDUCTION || (!c->eager && f == JC_FUSION_MOVEMENT);
}

/* Activation inputs of node i (roots, distinct), at most cap. */
static int acts_of(const pctx *c, int i, size_t *out, int cap)
{
    const jc_counted_node *n = &c->an->nodes[i];
    int k = 0;
    for (size_t j = 0; j < n->node->n_inputs && k < cap; j++) {
        if (n->node->inputs[j] < 0) continue;
        size_t g = root(c, gid(c, n->inst, n->node->inputs[j]));
        if (!is_act(c, g)) continue;
        int dup = 0;
        for (int q = 0; q < k; q++) dup |= out[q] == g;
        if (!dup) out[k++] = g;
    }
    return k;
}

/* Whether value g is read outside group h (through views), or is a
 * graph output. */
static int escapes(const pctx *c, size_t g, int h, int depth)
{
    for (int q = c->cstart[g]; q < c->cstart[g + 1]; q++) {
        int u = c->clist[q];
        if (u == -2) return 1;
        if (u >= 0 && c->grp[u] == h) continue;
        if (is_view(c, u) && depth < 64) {
            const jc_counted_node *n = &c->an->nodes[u];
            for (size_t o = 0; o < n->node->n_outputs; o++)
                if (n->node->outputs[o] >= 0 && escapes(c, gid(c, n->inst, n->node->outputs[o]), h, depth + 1))
                    return 1;
            continue;
        }
        return 1;
    }
    return 0;
}

/* The one consumer of g through views (node index), or -1. */
static int sole_consumer(const pctx *c, size_t g, size_t *via)
{
    int found = -1;
    for (int guard = 0; guard < 64; guard++) {
        if (c->cstart[g + 1] - c->cstart[g] != 1) return -1;
        int u = c->clist[c->cstart[g]];
        if (u < 0) return -1;
        if (!is_view(c, u)) {
            found = u;
            break;
        }
        const jc_counted_node *n = &c->an->nodes[u];
        if (n->node->n_outputs != 1 || n->node->outputs[0] < 0) return -1;
        g = gid(c, n->inst, n->node->outputs[0]);
    }
    *via = g;
    return found;
}

static int is_kind(const pctx *c, int i, jc_kernel_kind k)
{
    return c->an->nodes[i].kernel == k;
}

static jc_status index_values(pctx *c, jci_arena *a)
{
    const jc_analysis *an = c->an;
    c->vbase = jci_arena_calloc(a, an->n_insts + 1, sizeof *c->vbase);
    if (!c->vbase) return JC_ERR_NOMEM;
    for (size_t i = 0; i < an->n_insts; i++) c->vbase[i + 1] = c->vbase[i] + an->insts[i].graph->n_values;
    c->nv = c->vbase[an->n_insts];
    c->prod = jci_arena_calloc(a, c->nv + 1, sizeof *c->prod);
    c->cstart = jci_arena_calloc(a, c->nv + 2, sizeof *c->cstart);
    c->stamp = jci_arena_calloc(a, c->nv + 1, sizeof *c->stamp);
    if (!c->prod || !c->cstart || !c->stamp) return JC_ERR_NOMEM;
    for (size_t g = 0; g < c->nv; g++) c->prod[g] = -1, c->stamp[g] = -1;
    size_t total = 0;
    for (int pass = 0; pass < 2; pass++) {
        int *fill = NULL;
        if (pass == 1) {
            for (size_t g = 0; g < c->nv; g++) c->cstart[g + 1] += c->cstart[g];
            total = (size_t)c->cstart[c->nv];
            c->clist = jci_arena_calloc(a, total + 1, sizeof *c->clist);
            fill = jci_arena_calloc(a, c->nv + 1, sizeof *fill);
            if (!c->clist || !fill) return JC_ERR_NOMEM;
        }
        for (size_t i = 0; i < an->n_nodes; i++) {
            const jc_counted_node *n = &an->nodes[i];
            for (size_t j = 0; j < n->node->n_inputs; j++) {
                if (n->node->inputs[j] < 0) continue;
                size_t g = gid(c, n->inst, n->node->inputs[j]);
                if (pass == 0) c->cstart[g + 1]++;
                else c->clist[c->cstart[g] + fill[g]++] = (int)i;
            }
            if (pass == 0)
                for (size_t o = 0; o < n->node->n_outputs; o++)
                    if (n->node->outputs[o] >= 0) c->prod[gid(c, n->inst, n->node->outputs[o])] = (int)i;
        }
        for (size_t k = 0; k < an->n_insts; k++) {
            const jc_graph *gr = an->insts[k].graph;
            for (size_t o = 0; o < gr->n_outputs; o++) {
                size_t g = gid(c, (int)k, gr->outputs[o]);
                if (pass == 0) c->cstart[g + 1]++;
                else c->clist[c->cstart[g] + fill[g]++] = -2;
            }
        }
    }
    return JC_OK;
}

/* Softmax s between two MatMuls (Q K^T, scale/mask, Softmax, . V): one
 * attention kernel headed by the second MatMul; 1 when found. */
static int attention_at(pctx *c, int s)
{
    const jc_counted_node *sn = &c->an->nodes[s];
    if (sn->node->n_inputs < 1 || sn->node->inputs[0] < 0 || sn->node->n_outputs < 1) return 0;
    int chain[16], nch = 0, a = -1, b = -1;
    double extra = 0, cf = (double)sn->cost.flops + (double)sn->cost.special_ops;
    size_t v = root(c, gid(c, sn->inst, sn->node->inputs[0]));
    for (int guard = 0; guard < 16 && a < 0; guard++) {
        int p = c->prod[v];
        size_t via;
        if (p < 0 || c->an->nodes[p].inst != sn->inst) return 0;
        if (is_kind(c, p, JC_KERNEL_MATMUL)) {
            if (sole_consumer(c, gid(c, sn->inst, c->an->nodes[p].node->outputs[0]), &via) < 0) return 0;
            a = p;
            break;
        }
        if (c->an->nodes[p].fusion != JC_FUSION_POINTWISE || nch >= 16) return 0;
        size_t ins[4];
        int k = acts_of(c, p, ins, 4), next = -1;
        for (int q = 0; q < k; q++) {
            int pq = c->prod[ins[q]];
            if (next < 0 && pq >= 0 && (is_kind(c, pq, JC_KERNEL_MATMUL) || c->an->nodes[pq].fusion == JC_FUSION_POINTWISE))
                next = q;
            else
                extra += vbytes(c, ins[q], c->run_bytes);
        }
        if (next < 0) return 0;
        chain[nch++] = p;
        cf += (double)c->an->nodes[p].cost.flops + (double)c->an->nodes[p].cost.special_ops;
        v = ins[next];
    }
    size_t w = gid(c, sn->inst, sn->node->outputs[0]), via;
    for (int guard = 0; guard < 16 && b < 0; guard++) {
        int u = sole_consumer(c, w, &via);
        if (u < 0) return 0;
        const jc_counted_node *un = &c->an->nodes[u];
        if (is_kind(c, u, JC_KERNEL_MATMUL)) {
            if (un->node->n_inputs < 2 || root(c, gid(c, un->inst, un->node->inputs[0])) != root(c, via)) return 0;
            b = u;
        } else if (un->fusion == JC_FUSION_POINTWISE && nch < 16 && un->node->n_outputs == 1) {
            chain[nch++] = u;
            cf += (double)un->cost.flops + (double)un->cost.special_ops;
            w = gid(c, un->inst, un->node->outputs[0]);
        } else {
            return 0;
        }
    }
    if (a < 0 || b < 0) return 0;
    const jc_counted_node *an_ = &c->an->nodes[a], *bn = &c->an->nodes[b];
    double bytes = extra;
    for (int q = 0; q < 2 && q < (int)an_->node->n_inputs; q++)
        if (an_->node->inputs[q] >= 0) bytes += vbytes(c, gid(c, an_->inst, an_->node->inputs[q]), c->run_bytes);
    if (bn->node->inputs[1] >= 0) bytes += vbytes(c, gid(c, bn->inst, bn->node->inputs[1]), c->run_bytes);
    if (bn->node->outputs[0] >= 0) bytes += vbytes(c, gid(c, bn->inst, bn->node->outputs[0]), c->run_bytes);
    jci_eff_plan *p = c->p;
    p->role[b] = JCI_PLAN_ATTN;
    p->partner[b] = a;
    p->bytes[b] = bytes;
    p->flops[b] = cf;
    p->role[a] = p->role[s] = JCI_PLAN_FUSED;
    for (int q = 0; q < nch; q++) p->role[chain[q]] = JCI_PLAN_FUSED;
    return 1;
}

/* Whether node i may join group h (its other inputs: in the group, the
 * eager group's seed, or - compiled - ready before the group began). */
static int can_join(const pctx *c, int i, int h, const size_t *acts, int k)
{
    for (int q = 0; q < k; q++) {
        int p = c->prod[acts[q]];
        if (p >= 0 && c->grp[p] == h) continue;
        if (c->eager ? (size_t)c->seed[h] == acts[q] : p < h) continue;
        return 0;
    }
    return 1;
}

static void assign_groups(pctx *c)
{
    const jc_analysis *an = c->an;
    for (size_t i = 0; i < an->n_nodes; i++) {
        c->grp[i] = -1;
        if (c->p->role[i] != JCI_PLAN_OWN || c->ban[i] || !fusable(c, (int)i)) continue;
        size_t acts[8];
        int k = acts_of(c, (int)i, acts, 8), h = -1;
        for (int q = 0; q < k && h < 0; q++) {
            int p = c->prod[acts[q]];
            if (p >= 0 && c->grp[p] >= 0 && an->nodes[p].inst == an->nodes[i].inst &&
                can_join(c, (int)i, c->grp[p], acts, k))
                h = c->grp[p];
        }
        if (h >= 0) {
            c->grp[i] = h;
        } else if (!c->eager || k == 1) {
            c->grp[i] = (int)i;
            c->seed[i] = k == 1 ? (int)acts[0] : -1;
        }
    }
}

/* Traffic of group h: inputs read from outside once, values that leave
 * written once; eager autocast runs a normalisation in fp32 with a cast
 * kernel before and after.  Returns 0 when an eager group must split
 * (more than one value leaves it); check_only: only that test. */
static int group_traffic(pctx *c, int h, int check_only)
{
    const jc_analysis *an = c->an;
    jci_eff_plan *p = c->p;
    int red = 0, soft = 0, bn = 0, outs = 0;
    for (size_t i = (size_t)h; i < an->n_nodes; i++) {
        if (c->grp[i] != h) continue;
        bn |= is_kind(c, (int)i, JC_KERNEL_BATCH_NORM);
        if (an->nodes[i].fusion == JC_FUSION_REDUCTION) {
            red = 1;
            soft |= is_kind(c, (int)i, JC_KERNEL_SOFTMAX) || is_kind(c, (int)i, JC_KERNEL_LOG_SOFTMAX);
        }
    }
    int fp32 = c->eager && c->tensor_cores && red;
    double elt = fp32 ? 4 : c->run_bytes, in = 0, out = 0, fl = 0, act_in = 0;
    for (size_t i = (size_t)h; i < an->n_nodes; i++) {
        if (c->grp[i] != h) continue;
        const jc_counted_node *n = &an->nodes[i];
        fl += (double)n->cost.flops + (double)n->cost.special_ops;
        for (size_t j = 0; j < n->node->n_inputs; j++) {
            if (n->node->inputs[j] < 0) continue;
            size_t g = root(c, gid(c, n->inst, n->node->inputs[j]));
            int pr = c->prod[g];
            if ((pr >= 0 && c->grp[pr] == h) || c->stamp[g] == h) continue;
            c->stamp[g] = h;
            double bb = vbytes(c, g, elt);
            in += bb;
            if (is_act(c, g)) act_in += bb;
        }
        for (size_t o = 0; o < n->node->n_outputs; o++) {
            if (n->node->outputs[o] < 0) continue;
            size_t g = gid(c, n->inst, n->node->outputs[o]);
            if (escapes(c, g, h, 0)) {
                out += vbytes(c, g, elt);
                outs++;
            }
        }
    }
    if (c->eager && outs > 1) return 0;
    if (check_only) return 1;
    p->role[h] = JCI_PLAN_GROUP;
    p->bytes[h] = in + out;
    p->in_bytes[h] = in;
    p->out_bytes[h] = out;
    p->flops[h] = fl;
    /* training: a normalisation's parameter-gradient reduction (read dy,
     * x); a batch norm in training mode also its statistics pass */
    p->norm_bytes[h] = bn ? 3 * out : red && !soft ? 2 * out : 0;
    if (fp32) {
        /* to fp32 (read 2, write 4 per element) and back (read 4, write 2) */
        p->side_bytes[h] += 1.5 * (act_in + out);
        p->side_kernels[h] += 2;
    }
    for (size_t i = (size_t)h + 1; i < an->n_nodes; i++)
        if (c->grp[i] == h) p->role[i] = JCI_PLAN_FUSED;
    return 1;
}

/* A MatMul whose one consumer adds a constant bias (the export of a
 * Linear layer with bias): the add runs in the GEMM's epilogue, as
 * PyTorch's linear (addmm / cuBLASLt bias epilogue) does. */
static void bias_epilogue(pctx *c, int i)
{
    const jc_counted_node *n = &c->an->nodes[i];
    size_t via;
    if (!is_kind(c, i, JC_KERNEL_MATMUL) || n->node->n_outputs < 1 || n->node->outputs[0] < 0) return;
    int u = sole_consumer(c, gid(c, n->inst, n->node->outputs[0]), &via);
    if (u < 0 || !is_kind(c, u, JC_KERNEL_ADD) || c->p->role[u] != JCI_PLAN_OWN) return;
    size_t acts[4];
    if (acts_of(c, u, acts, 4) != 1) return;   /* the other operand is a constant */
    c->p->role[u] = JCI_PLAN_FUSED;
}

/* Slice and Split are views in PyTorch (narrow), and a Transpose read
 * only by matrix products is a strided operand (cuBLAS transposes,
 * SDPA's strided inputs): no kernel of their own. */
static void strided_view(pctx *c, int i)
{
    if (is_kind(c, i, JC_KERNEL_NARROW)) {
        c->p->role[i] = JCI_PLAN_FUSED;
        return;
    }
    if (!is_kind(c, i, JC_KERNEL_TRANSPOSE)) return;
    const jc_counted_node *n = &c->an->nodes[i];
    if (n->node->n_outputs != 1 || n->node->outputs[0] < 0) return;
    size_t g = gid(c, n->inst, n->node->outputs[0]);
    if (c->cstart[g + 1] == c->cstart[g]) return;
    for (int q = c->cstart[g]; q < c->cstart[g + 1]; q++) {
        int u = c->clist[q];
        if (u < 0 || (!is_kind(c, u, JC_KERNEL_MATMUL) && !is_kind(c, u, JC_KERNEL_GEMM))) return;
    }
    c->p->role[i] = JCI_PLAN_FUSED;
}

/* Host-side work and views, no kernel: shape arithmetic (Shape, Gather,
 * Unsqueeze, Concat ... whose outputs are integer tensors of rank 0 or 1:
 * sizes a framework computes on the host as integers, when the analysis
 * could not fold them), an Expand (torch's expand: a broadcast view its
 * consumer reads) and a Gather at one index (torch's select: a view). */
static void host_side(pctx *c, int i)
{
    const jc_counted_node *n = &c->an->nodes[i];
    if (n->cost.cls != JC_CLASS_MEMORY || c->p->role[i] != JCI_PLAN_OWN || n->node->n_outputs < 1) return;
    int shape_only = 1;
    for (size_t o = 0; o < n->node->n_outputs && shape_only; o++) {
        const jc_tshape *t = n->node->outputs[o] >= 0 ? shape_of(c, gid(c, n->inst, n->node->outputs[o])) : NULL;
        shape_only = t && t->rank >= 0 && t->rank <= 1 && !t->non_tensor && !jci_dtype_is_float(t->dtype);
    }
    const jc_tshape *idx = is_kind(c, i, JC_KERNEL_GATHER) && n->node->n_inputs > 1 && n->node->inputs[1] >= 0
                         ? shape_of(c, gid(c, n->inst, n->node->inputs[1])) : NULL;
    if (shape_only || is_kind(c, i, JC_KERNEL_EXPAND) || (idx && idx->rank == 0))
        c->p->role[i] = JCI_PLAN_FUSED;
}

/* Eager side kernels of a convolution: the bias add (PyTorch adds a
 * convolution's bias, or the batch norm the export folded into it, in a
 * kernel of its own) and, on tensor cores, cuDNN's NCHW <-> NHWC
 * transforms of its input and output. */
static void conv_sides(pctx *c, int i)
{
    const jc_counted_node *n = &c->an->nodes[i];
    if (!is_kind(c, i, JC_KERNEL_CONV) || n->node->n_outputs < 1 || n->node->outputs[0] < 0) return;
    double ob = vbytes(c, gid(c, n->inst, n->node->outputs[0]), c->run_bytes);
    double ib = n->node->inputs[0] >= 0 ? vbytes(c, gid(c, n->inst, n->node->inputs[0]), c->run_bytes) : 0;
    if (n->node->n_inputs >= 3 && n->node->inputs[2] >= 0) {
        c->p->side_bytes[i] += 2 * ob;
        c->p->side_kernels[i] += 1;
        c->p->bn_bytes[i] = ob;
    }
    const jc_gemm_shape *g = &n->gemm;
    if (c->tensor_cores && n->has_gemm && g->n >= 8 && g->k >= 8) {
        c->p->side_bytes[i] += 2 * (ib + ob);
        c->p->xform_bytes[i] = 2 * (ib + ob);
        c->p->side_kernels[i] += 2;
    }
}

/* L2 candidates: the activation inputs of each kernel written by the
 * kernel just before it (its producer at or after the previous kernel's
 * head, in node order: that kernel or a node fused into it). */
static void l2_candidates(pctx *c)
{
    const jc_analysis *an = c->an;
    jci_eff_plan *p = c->p;
    int prev = -1;
    for (size_t i = 0; i < an->n_nodes; i++) {
        const jc_counted_node *n = &an->nodes[i];
        if (!n->counted || n->cost.cls == JC_CLASS_NONE || p->role[i] == JCI_PLAN_FUSED) continue;
        size_t acts[8];
        int k = prev < 0 ? 0 : acts_of(c, (int)i, acts, 8);
        for (int q = 0; q < k; q++) {
            int pr = c->prod[acts[q]];
            if (pr < prev || pr >= (int)i) continue;
            double b = vbytes(c, acts[q], c->run_bytes);
            p->l2_bytes[i] += b;
            if (b > p->l2_max[i]) p->l2_max[i] = b;
        }
        prev = (int)i;
    }
}

/* The plan's per-node arrays and the builder's own, zeroed, n + 1 each
 * in arena a: a table of slots by element type.  JC_ERR_NOMEM when one
 * fails. */
static jc_status alloc_arrays(pctx *c, jci_arena *a, size_t n)
{
    jci_eff_plan *p = c->p;
    double **dbl[] = {&p->bytes, &p->flops, &p->side_bytes, &p->side_kernels, &p->out_bytes, &p->in_bytes,
                      &p->bn_bytes, &p->xform_bytes, &p->norm_bytes, &p->l2_bytes, &p->l2_max};
    int **ints[] = {&p->partner, &c->grp, &c->seed};
    unsigned char **flags[] = {&p->role, &c->ban};
    int ok = 1;
    for (size_t i = 0; i < sizeof dbl / sizeof dbl[0]; i++)
        ok &= (*dbl[i] = jci_arena_calloc(a, n + 1, sizeof **dbl[i])) != NULL;
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        ok &= (*ints[i] = jci_arena_calloc(a, n + 1, sizeof **ints[i])) != NULL;
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        ok &= (*flags[i] = jci_arena_calloc(a, n + 1, sizeof **flags[i])) != NULL;
    return ok ? JC_OK : JC_ERR_NOMEM;
}

jc_status jci_eff_plan_build(const jci_eff_model *m, const jc_analysis *an, double run_bytes,
                            int tensor_cores, jci_arena *a, jci_eff_plan *p)
{
    memset(p, 0, sizeof *p);
    size_t n = an->n_nodes;
    pctx c = {an, m, p, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, NULL, run_bytes,
              m->kind != JCI_RTK_COMPILED && m->kind != JCI_RTK_LAZY,
              m->kind != JCI_RTK_EAGER_PT1 && m->kind != JCI_RTK_LAZY, tensor_cores};
    p->n = n;
    if (alloc_arrays(&c, a, n)) return JC_ERR_NOMEM;
    jc_status st = index_values(&c, a);
    if (st) return st;
    if (m->kind == JCI_RTK_ENGINE) {
        /* an engine's kernels: every node that does not fuse into its
         * producer (jci_eff_node_time times them as without a plan) */
        for (size_t i = 0; i < n; i++)
            if (an->nodes[i].counted && jci_eff_engine_fuses(&an->nodes[i])) p->role[i] = JCI_PLAN_FUSED;
        l2_candidates(&c);
        return JC_OK;
    }
    for (size_t i = 0; i < n; i++) p->partner[i] = -1;
    for (size_t i = 0; i < n; i++)
        if (an->nodes[i].counted) {
            bias_epilogue(&c, (int)i);
            strided_view(&c, (int)i);
            host_side(&c, (int)i);
        }
    if (c.sdpa)
        for (size_t i = 0; i < n; i++)
            if (an->nodes[i].counted && is_kind(&c, (int)i, JC_KERNEL_SOFTMAX) && p->role[i] == JCI_PLAN_OWN)
                attention_at(&c, (int)i);
    /* an eager group that more than one value leaves is split: its head
     * runs alone and the rest regroup (a residual add before a layer
     * norm: the add is its own kernel, the norm one kernel) */
    for (int round = 0, split = 1; split && round < 8; round++) {
        split = 0;
        assign_groups(&c);
        for (size_t i = 0; i < n; i++)
            if (c.grp[i] == (int)i && c.eager && !group_traffic(&c, (int)i, 1)) {
                c.ban[i] = 1;
                split = 1;
            }
    }
    for (size_t i = 0; i < n; i++)
        if (c.grp[i] == (int)i && !group_traffic(&c, (int)i, 0))
            for (size_t j = i; j < n; j++)
                if (c.grp[j] == (int)i) c.grp[j] = -1;
    if (c.eager)
        for (size_t i = 0; i < n; i++)
            if (an->nodes[i].counted && p->role[i] == JCI_PLAN_OWN) conv_sides(&c, (int)i);
    l2_candidates(&c);
    return JC_OK;
}
