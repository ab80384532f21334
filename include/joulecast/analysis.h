/*
 * analysis.h (public API) - shapes and per-node cost (stage analysis, src/analysis/).
 * Part of the public API; include <joulecast.h>, which states the
 * conventions (errors, ownership, units) that hold here too.
 */
#ifndef JOULECAST_ANALYSIS_H
#define JOULECAST_ANALYSIS_H

#include "base.h"

/* named by pointer only here: their headers define them (C11 allows the
 * typedef twice), so a change to those headers does not rebuild the
 * files that include only this one */
typedef struct jc_dim jc_dim;
typedef struct jc_graph jc_graph;
typedef struct jc_model jc_model;
typedef struct jc_node jc_node;

JC_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* Shapes and cost (stage: shapes + cost; owner src/analysis/analyze.c, src/analysis/ops/)  */
/* ------------------------------------------------------------------ */
/* The analysis contract below is what later stages (workload, energy,
 * reports) rely on; the counting work may add fields, not remove them. */

/* What kind of work a node does, for the roofline and energy models. */
typedef enum jc_op_class {
    JC_CLASS_NONE = 0,    /* no work: views, shape arithmetic, constants */
    JC_CLASS_MATRIX = 1,  /* GEMM-like: Conv, MatMul, Gemm, attention, RNN */
    JC_CLASS_VECTOR = 2,  /* elementwise, norms, pooling, reductions */
    JC_CLASS_MEMORY = 3   /* data movement only (Transpose, Concat, Gather) */
} jc_op_class;

/* Why a node's cost is (not) known. */
typedef enum jc_cost_state {
    JC_COST_OK = 0,
    JC_COST_UNKNOWN_DIMS = 1,   /* an input shape stays unknown */
    JC_COST_UNSUPPORTED = 2,    /* no rule for domain:op */
    JC_COST_DATA_DEPENDENT = 3  /* output size depends on data (NonZero...) */
} jc_cost_state;

/* How a runtime that fuses kernels may treat a node (the `fusable`
 * column of src/analysis/ops/ops.def). */
typedef enum jc_fusion_class {
    JC_FUSION_NONE = 0,       /* a kernel of its own */
    JC_FUSION_POINTWISE = 1,  /* one read and one write per element: joins
                                 an elementwise chain */
    JC_FUSION_REDUCTION = 2,  /* a reduction or normalisation along an axis */
    JC_FUSION_MOVEMENT = 3    /* data movement a compiler folds into its
                                 neighbours' indexing */
} jc_fusion_class;

/* The few ops of the standard ONNX domain a runtime's kernel plan treats
 * apart (src/analysis/ops/kernels.def); JC_KERNEL_OTHER for every other
 * op and for any op of another domain. */
typedef enum jc_kernel_kind {
    JC_KERNEL_OTHER = 0,
    JC_KERNEL_MATMUL,          /* MatMul: attention's products, a Linear
                                  layer (its bias add in the epilogue) */
    JC_KERNEL_GEMM,            /* Gemm */
    JC_KERNEL_CONV,            /* Conv: eager side kernels (bias, layout) */
    JC_KERNEL_CONV_TRANSPOSE,  /* ConvTranspose */
    JC_KERNEL_SOFTMAX,         /* Softmax: the core of attention */
    JC_KERNEL_LOG_SOFTMAX,     /* LogSoftmax */
    JC_KERNEL_BATCH_NORM,      /* BatchNormalization */
    JC_KERNEL_ADD,             /* Add: a bias add after a MatMul */
    JC_KERNEL_NARROW,          /* Slice, Split: a view in PyTorch */
    JC_KERNEL_TRANSPOSE,       /* Transpose: a strided operand of a GEMM */
    JC_KERNEL_EXPAND,          /* Expand: a broadcast view in PyTorch */
    JC_KERNEL_GATHER           /* Gather: at one index, a view (select) */
} jc_kernel_kind;

/* A node's matrix-product view: `batch` independent products of an
 * m x k by a k x n matrix (the batch of a product of two activations,
 * the groups of a grouped convolution; a product with a weight folds its
 * batch into m).  FLOPs = 2 m n k batch. */
typedef struct jc_gemm_shape {
    double m, n, k, batch;
} jc_gemm_shape;

/* Cost of one node for one execution, at the dims bound by the caller.
 * macs: multiply-accumulates of GEMM-like work only; flops = 2*macs + every
 * other scalar arithmetic op; special_ops: transcendentals, counted apart;
 * bytes at each tensor's dtype. */
typedef struct jc_node_cost {
    int64_t macs, flops, special_ops;
    int64_t bytes_read;         /* activations read */
    int64_t weight_bytes_read;  /* initializers read */
    int64_t bytes_written;
    int64_t params;             /* initializer elements first used here */
    jc_op_class cls;
    int arith_dtype;            /* dtype the arithmetic runs in (jc_dtype) */
    jc_cost_state state;
    int64_t repeat;             /* executions per forward pass (Loop/Scan
                                   bodies: trip count; else 1) */
    int64_t other_flops_weighted; /* onnx-tool view: non-MAC work with its
                                   weights (transcendental 32, other 1) */
    int64_t fvcore_extra;       /* fvcore view: its norm/upsample/pool terms */
    int64_t serial_steps;       /* steps one execution runs one after
                                   another, each at least one kernel launch
                                   (recurrent nodes: the sequence length;
                                   else 1) */
} jc_node_cost;

/* jc_convention, the compatibility views (other aggregations of the same
 * buckets): include/joulecast/base.h */

/* "joulecast", "torchvision", ...; static string. */
const char *jc_convention_name(jc_convention c);
/* Parses a convention name; JC_ERR_USAGE (and *out untouched) if unknown. */
jc_status jc_convention_parse(const char *s, jc_convention *out);

/* A NAME=VALUE binding of a symbolic dim (or of a data-dependent dim). */
typedef struct jc_dim_binding {
    const char *name;
    int64_t value;
} jc_dim_binding;

/* A full shape for a graph input: NAME=1x3x224x224. */
typedef struct jc_input_binding {
    const char *name;
    int rank;
    const int64_t *dims;
} jc_input_binding;

/* The values of a graph input, for inputs whose VALUE decides a shape
 * (a runtime Reshape shape, Slice starts, Resize scales, TopK k, ...):
 * NAME=1,2,3.  n elements, given as integers (ivals) or as doubles
 * (fvals); when one of the two is NULL it is derived from the other
 * (doubles truncated toward zero, as the loader does for kept tensors). */
#define JC_VALUE_BINDING_MAX 4096   /* values of one binding, at most */
typedef struct jc_value_binding {
    const char *name;
    int64_t n;                 /* 0 .. JC_VALUE_BINDING_MAX */
    const int64_t *ivals;      /* n integers, or NULL */
    const double *fvals;       /* n doubles, or NULL */
} jc_value_binding;

/* Options of jc_analyze.  Zero-initialised means: no bindings, joulecast
 * convention.  Every pointer is borrowed for the duration of the call. */
typedef struct jc_analyze_opts {
    const jc_dim_binding *dims;  size_t n_dims;     /* --dim NAME=V */
    const jc_input_binding *inputs; size_t n_inputs;/* --input NAME=AxB */
    int64_t batch;         /* --batch N (> 0): binds the first dim of every
                              main-graph input whose first dim is symbolic */
    const jc_dim_binding *assume; size_t n_assume;  /* --assume NAME=V: bounds
                              for data-dependent dims and trip counts, named
                              as the analysis reports them */
    const char *op_rules_path;   /* --op-rules FILE (YAML) or NULL */
    jc_convention convention;
    int ignore_declared;   /* 1: do not fall back on value_info/output
                              shapes of the file (tests of the inference) */
    const jc_value_binding *values; size_t n_values; /* --input-value
                              NAME=1,2,3: values of main-graph inputs; the
                              input's declared shape must hold n elements
                              (a 1-D input of unknown length takes n) */
} jc_analyze_opts;

/* Inferred type of one value (per graph instance).  dims as jc_dim: v >= 0
 * known, else sym names the symbol (NULL: anonymous unknown).  Small
 * integer tensors whose values are known after constant folding keep them
 * in ivals (n_vals elements; -1 when unknown); isyms, when non-NULL, names
 * the symbol of an element whose ivals entry is negative-unknown. */
typedef struct jc_tshape {
    int dtype;
    int rank;          /* -1: unknown rank */
    jc_dim *dims;
    int64_t n_vals;
    int64_t *ivals;
    double *fvals;     /* the same values as doubles (n_vals of them) */
    const char **isyms;
    int non_tensor;    /* sequence/optional value */
} jc_tshape;

/* One instantiation of a graph: the main graph, an If branch, a Loop/Scan
 * body or an expanded model-local function, with the shapes of all its
 * values (indexed like graph->values). */
typedef struct jc_graph_inst {
    const jc_graph *graph;
    const char *path;      /* "" for the main graph, else "node/attr" */
    int parent;            /* enclosing instance, -1 for the main graph */
    int64_t repeat;        /* executions per forward pass */
    jc_tshape *values;
} jc_graph_inst;

/* One node as counted, in a flattened topological order: main graph
 * nodes, with every subgraph/function body's nodes right after the node
 * that contains them. */
typedef struct jc_counted_node {
    const jc_node *node;
    int inst;              /* index in jc_analysis.insts */
    int depth;             /* 0 main graph, +1 per nesting level */
    const char *name;      /* display name: path + node name (or op#index) */
    const char *op;        /* "Conv" or "com.microsoft:Attention" */
    jc_node_cost cost;     /* one execution; totals use cost.repeat */
    int counted;           /* 1 when summed in totals; 0: the smaller If
                              branch (reported, not counted) or a container */
    const char *note;      /* NULL, or a named fallback / remark */
    const char **blocked_by; size_t n_blocked_by; /* unknown dim symbols */
    jc_fusion_class fusion; /* how a fusing runtime may treat it */
    jc_kernel_kind kernel;  /* the op, where a kernel plan treats it apart */
    int has_gemm;          /* 1: gemm holds its matrix-product view (Conv,
                              ConvTranspose, MatMul, Gemm with every output
                              dim known and MACs > 0) */
    jc_gemm_shape gemm;    /* m, n, k, batch; zero without one */
} jc_counted_node;

/* Totals over counted nodes, each node times its repeat. */
typedef struct jc_totals {
    int64_t macs, flops, special_ops;
    int64_t bytes_read, weight_bytes_read, bytes_written;
    int64_t params;            /* distinct initializers used by nodes */
    int64_t weight_bytes;      /* their bytes at their dtypes */
    int64_t activation_bytes;  /* main-graph inputs + node outputs */
    int64_t peak_activation_bytes; /* max live activations, topological
                                  order; -1 when a size is unknown */
    int64_t other_flops_weighted, fvcore_extra;
} jc_totals;

/* An unsupported op or an unknown dim symbol, with how often / what. */
typedef struct jc_op_tally { const char *op; int64_t count; } jc_op_tally;
typedef struct jc_sym_report {
    const char *sym;
    size_t n_nodes;
    const char **nodes;        /* display names of the nodes it blocks */
} jc_sym_report;

/* The result of jc_analyze.  Everything lives in one arena. */
typedef struct jc_analysis {
    const jc_model *model;
    jc_convention convention;
    size_t n_insts;  jc_graph_inst *insts;
    size_t n_nodes;  jc_counted_node *nodes;
    jc_totals totals;
    int partial;     /* 1 when some node's cost is not known */
    size_t n_unsupported;    jc_op_tally *unsupported;
    size_t n_unknown_syms;   jc_sym_report *unknown_syms;
    size_t n_data_dependent; const char **data_dependent; /* "node: sym" */
    size_t n_unknown_other;  /* nodes blocked by anonymous unknown dims */
    size_t n_warnings;       const char **warnings;
    int batch_defaulted;     /* 1: the request counted a symbolic batch dim
                                at 1 because neither a batch nor a --dim /
                                --input binding gave it (jc_request_analyze) */
    void *internal_;
} jc_analysis;

/* Infers dtypes and shapes of every value of every graph of m (opset
 * aware, constant-folding small integer tensors), expands model-local
 * functions and subgraphs, and counts every node per COUNTING.md.  opts
 * may be NULL.  On success *out owns the result (jc_analysis_free), which
 * may be partial (a->partial): unknown dims, unsupported ops and
 * data-dependent sizes are listed, never counted as zero.  Errors:
 * JC_ERR_USAGE (bad binding, e.g. an input name the model lacks),
 * JC_ERR_NOTFOUND (unknown --dim name), JC_ERR_RANGE (a count overflows
 * 64 bits; the diag names the node), JC_ERR_NOMEM, JC_ERR_IO/JC_ERR_MODEL
 * for the op-rules file.  On failure *out is NULL. */
jc_status jc_analyze(const jc_model *m, const jc_analyze_opts *opts,
                     jc_analysis **out, jc_diag *diag);

/* Releases an analysis.  NULL is a no-op. */
void jc_analysis_free(jc_analysis *a);

/* The headline work figure of node cost c (times its repeat when
 * with_repeat) under convention conv: macs, 2*macs, flops, ...  Returns
 * -1 on overflow. */
int64_t jc_cost_view(const jc_node_cost *c, jc_convention conv,
                     int with_repeat);
/* The same over the analysis totals. */
int64_t jc_totals_view(const jc_totals *t, jc_convention conv);

/* Writes the `count` report of an analysis: text (per_node adds the
 * per-node table; top = number of top nodes by MACs, 0 for none). */
jc_status jc_report_count_text(const jc_analysis *a, FILE *f, int per_node,
                               int top);
/* The `count` report as JSON (schema: docs/json-schemas.md "count"),
 * released with jc_free(); NULL on out-of-memory.  Past
 * JC_NODE_DETAIL_MAX nodes the per-node list is summarised (an empty
 * `nodes`, `nodes_omitted` = their number; `by_op` and the totals stay)
 * so that the document stays bounded; jc_report_count_json_nodes(a, 1)
 * lists every node whatever the size (count --json --per-node). */
#define JC_NODE_DETAIL_MAX 100000
char *jc_report_count_json(const jc_analysis *a);
char *jc_report_count_json_nodes(const jc_analysis *a, int all_nodes);
/* The per-node table as CSV (header line first). */
jc_status jc_report_count_csv(const jc_analysis *a, FILE *f);

JC_END_DECLS
#endif /* JOULECAST_ANALYSIS_H */
