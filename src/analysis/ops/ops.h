/*
 * ops.h (analysis/ops) - the contract between the analysis driver (src/analysis/analyze.c) and the
 * per-family operator rules (src/analysis/ops/ops_*.c).  One registry line per op
 * in ops.def names a shape rule and a cost rule; both receive an opctx
 * that gives the node, its attributes (function attribute references
 * resolved), the inferred input shapes and the output shapes to fill.
 *
 * A shape rule fills c->out[k] (dtype, rank, dims, folded values) as far
 * as it can: unknown dims stay unknown (v < 0, sym NULL or a symbol), and
 * the rule returns JC_OK.  A cost rule fills c->cost (macs, flops,
 * special_ops, cls, arith_dtype; bytes are filled by the driver from the
 * class unless the rule sets c->bytes_set).  A cost rule that needs an
 * unknown size calls op_numel(), which marks the cost JC_COST_UNKNOWN_DIMS
 * and records the blocking symbols; arithmetic overflow is reported with
 * op_overflow(), which returns JC_ERR_RANGE naming the node.
 */
#ifndef JCI_OPS_H
#define JCI_OPS_H

#include "base/jc_internal.h"
#include "joulecast/model.h"
#include "joulecast/analysis.h"

struct actx;
struct opctx;

typedef jc_status (*op_shape_fn)(struct opctx *c);
typedef jc_status (*op_cost_fn)(struct opctx *c);

/* How runtimes that fuse kernels treat an op (ops.def's last column):
 * the public jc_fusion_class under the table's short names. */
#define FUSE_NO JC_FUSION_NONE
#define FUSE_PW JC_FUSION_POINTWISE
#define FUSE_RED JC_FUSION_REDUCTION
#define FUSE_MOVE JC_FUSION_MOVEMENT

typedef struct op_rule {
    const char *domain, *op;
    int since;              /* first opset version of this form */
    op_shape_fn shape;
    op_cost_fn cost;
    int param;              /* family-specific selector */
    jc_fusion_class fusable;
} op_rule;

/* Finds the rule of domain:op in force at `opset` (highest since <= opset;
 * when opset is 0 or below every since, the lowest form).  NULL if none. */
const op_rule *op_find(const char *domain, const char *op, int opset);
/* The fusable class of a node's op (FUSE_NO for an op without a rule). */
jc_fusion_class op_fusable_of(const jc_node *n);
/* The kernel kind of a node's op (src/analysis/ops/kernels.def: ops of
 * the standard domain written "" only; JC_KERNEL_OTHER for the rest). */
jc_kernel_kind op_kernel_of(const jc_node *n);
/* The matrix-product view of counted node n of analysis an (Conv,
 * ConvTranspose, MatMul, Gemm of the standard domain written "", every
 * output dim known, MACs > 0): 1 and *g filled, else 0. */
int op_gemm_shape(const jc_analysis *an, const jc_counted_node *n, jc_gemm_shape *g);

typedef struct opctx {
    struct actx *ax;
    const jc_node *n;
    const op_rule *rule;
    int opset, param;
    int nin, nout;
    jc_tshape **in;          /* NULL entries: omitted optional inputs */
    const jc_value **vin;    /* graph values of the inputs (or NULL) */
    jc_tshape **out;         /* NULL entries: omitted outputs */
    jc_node_cost cost;
    int bytes_set;           /* the cost rule filled the byte fields */
    const char *note;        /* a remark on this node (arena string) */
    const char *blocked[8];  /* symbols that block the cost */
    int n_blocked;
    int anon_blocked;
    int inst;                /* graph instance of the node */
    const jc_attr *(*attr_lookup)(struct opctx *, const char *);
    void *scope;             /* function call chain, for ref_attr_name */
} opctx;

/* ---- attributes ---------------------------------------------------------- */
const jc_attr *op_attr(opctx *c, const char *name);
int64_t op_attr_i(opctx *c, const char *name, int64_t def);
double op_attr_f(opctx *c, const char *name, double def);
const char *op_attr_s(opctx *c, const char *name, const char *def);
/* ints list: returns count (0 when absent) and *v the values. */
size_t op_attr_ints(opctx *c, const char *name, const int64_t **v);

/* ---- inputs ---------------------------------------------------------------- */
/* input k if present and of known rank, else NULL */
jc_tshape *op_in(opctx *c, int k);
/* true when input k's integer values are known (all elements); *v, *n */
bool op_in_ints(opctx *c, int k, const int64_t **v, int64_t *n);
/* integer values from input k (opset >= since) or attribute name else */
bool op_ints_in_or_attr(opctx *c, int k, int since, const char *attr,
                        const int64_t **v, int64_t *n, bool *present);
/* true when input k is a (main-graph) initializer */
bool op_in_is_weight(opctx *c, int k);

/* ---- outputs ---------------------------------------------------------------- */
/* Sets output k's type: rank r (-1 unknown) with dims copied from d (may be
 * NULL: all unknown).  No-op for omitted outputs. */
jc_status op_set_out(opctx *c, int k, int dtype, int rank, const jc_dim *d);
/* Copies the shape of t (dtype may be overridden when dtype > 0). */
jc_status op_copy_out(opctx *c, int k, const jc_tshape *t, int dtype);
/* Sets folded integer values of output k (n elements, syms may be NULL). */
jc_status op_set_vals(opctx *c, int k, const int64_t *v, const char **syms,
                      int64_t n);
/* A fresh data-dependent dim named after output k ("<name>:<i>"),
 * honouring --assume for that name. */
jc_dim op_data_dim(opctx *c, int k, int i);
/* Marks the node data-dependent. */
void op_data_dependent(opctx *c, const char *sym);

/* ---- cost helpers ------------------------------------------------------------- */
/* numel of t; false (and the cost marked unknown with its blocking
 * symbols) when t or one of its dims is unknown. */
bool op_numel(opctx *c, const jc_tshape *t, int64_t *n);
/* checked arithmetic on the cost: on overflow returns false after setting
 * the diagnostic (op_overflow). */
bool op_mul(opctx *c, int64_t a, int64_t b, int64_t *r);
bool op_add(opctx *c, int64_t a, int64_t b, int64_t *r);
jc_status op_overflow(opctx *c);
/* cost += k FLOPs per element of n (checked); false on overflow */
bool op_flops(opctx *c, int64_t n, int64_t per);
bool op_specials(opctx *c, int64_t n, int64_t per);
bool op_macs(opctx *c, int64_t macs);
/* weighted non-MAC work for the onnx-tool view */
bool op_weighted(opctx *c, int64_t n, int64_t per);
/* Sets a remark on the node (printf style, arena copy). */
void op_note(opctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Unknown cost of a shape-only unknown: mark state, return JC_OK. */
jc_status op_unknown(opctx *c);

/* checked shape arithmetic (attribute and input values are untrusted):
 * a*b, a+b, a-b, or -1 (an unknown dim) after recording JC_ERR_RANGE
 * naming the node and `what` (ax_shape_overflow); the driver stops the
 * analysis once the rule returns.  Operands may be negative. */
int64_t op_smul(opctx *c, int64_t a, int64_t b, const char *what);
int64_t op_sadd(opctx *c, int64_t a, int64_t b, const char *what);
/* A dim computed in floating point (a Resize scale times a size): v as an
 * int64, -1 (unknown) when v is negative or NaN, and a recorded overflow
 * naming `what` when it is infinite or past 2^63. */
int64_t op_sdim(opctx *c, double v, const char *what);
/* Refuses the node: JC_ERR_MODEL naming it, with the printf-style reason
 * (a rank or an attribute the op's definition does not allow). */
jc_status op_invalid(opctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- dims ---------------------------------------------------------------------- */
static inline bool dim_known(jc_dim d) { return d.v >= 0; }
/* Broadcast two dims (numpy rules, symbols kept where provably equal). */
jc_dim dim_broadcast(jc_dim a, jc_dim b);
/* Product of two dims (known*known, else anonymous unknown). */
jc_dim dim_mul(jc_dim a, jc_dim b);
/* Normalises axis a for rank r; false if out of range. */
bool op_axis(int64_t a, int r, int *out);
/* numpy broadcast of all present inputs into out[k] */
jc_status op_broadcast_out(opctx *c, int k, int first, int last, int dtype);

/* ---- folding of small N-D tensors through data movement (fold.c) --------------- */
/* numel of t when every dim is known and all its values are folded. */
bool fold_numel(const jc_tshape *t, int64_t *n);
/* Each sets output 0 (Split: every output) values from the input's, once
 * the output shape is set; a tensor not fully known is left unfolded.
 * perm[i]: input axis of output axis i.  start/step: per input axis.
 * Errors: JC_ERR_NOMEM only. */
jc_status fold_transpose(opctx *c, const jc_tshape *x, const int *perm);
jc_status fold_slice(opctx *c, const jc_tshape *x, const int64_t *start, const int64_t *step);
jc_status fold_concat(opctx *c, int axis);
jc_status fold_gather(opctx *c, const jc_tshape *x, const jc_tshape *ix, int axis);
jc_status fold_split(opctx *c, const jc_tshape *x, int axis, const int64_t *sizes);
jc_status fold_expand(opctx *c, const jc_tshape *x);
jc_status fold_tile(opctx *c, const jc_tshape *x);

/* ---- registry handlers (declared per family) ------------------------------------ */
#define OP(dom, name, since, shp, cst, prm, fus) \
    jc_status shp(opctx *); jc_status cst(opctx *);
#include "analysis/ops/ops.def"
#undef OP

/* family parameter codes used in ops.def */
enum { EW_ADD = 1, EW_MUL, EW_CMP, EW_LOGIC, EW_DIV, EW_POW, EW_MOD,
       EW_BITSHIFT, EW_SUM, EW_MAX, EW_MEAN, EW_WHERE };

#endif
