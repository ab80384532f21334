/*
 * joulecast.h (public API) - the one public header of libjoulecast.
 *
 * joulecast predicts the time, energy (kWh) and emissions (kgCO2e) of
 * training or running a neural network from its ONNX file, a hardware
 * database and a workload description, before any code runs.
 *
 * The library is a one-directional pipeline; each stage reads the previous
 * stage's output and nothing later:
 *
 *   jc_model_load()   file bytes      -> jc_model (graph, tensors, attributes)
 *   jc_analyze()      jc_model + dims -> jc_analysis (shapes, per-node cost)
 *   jc_hwdb_load()    YAML folders    -> jc_hwdb (devices, hosts, regions, ...)
 *   jc_estimate_run() analysis + hwdb + workload config -> jc_estimate
 *   jc_report_*()     any result      -> text / JSON / CSV
 *
 * Conventions, stated once for the whole API:
 *
 *  - Errors.  Every fallible function returns a jc_status and, when the
 *    caller passes a non-NULL jc_diag, fills it with a message that names
 *    where the problem is (file, byte offset, node name, YAML line:column).
 *    The library never prints, never exits and never aborts on bad input.
 *    The status values double as the CLI's exit codes (documented in README).
 *  - Ownership.  Every loaded object (model, analysis, hwdb, estimate) owns
 *    one arena and is released by exactly one *_free() call.  Pointers you
 *    get from an object (names, arrays, nested structs) are borrowed: valid
 *    until that object is freed, never to be freed by you.  Structs declared
 *    here are read-only for clients.
 *  - Returned strings.  A `char *` that a function returns (every *_json
 *    document, every rendered string) is the caller's: release it with
 *    jc_free(), once.  Nothing else the library hands out is yours to free.
 *  - Units.  Counts are exact 64-bit integers (overflow is an error, never a
 *    wrap).  1 MAC = 2 FLOPs.  Energy in joules/kWh as named, power in W,
 *    carbon in gCO2e/kgCO2e as named.  No function depends on the locale.
 */
#ifndef JOULECAST_H
#define JOULECAST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Exports.  libjoulecast is built with -fvisibility=hidden: of all its
 * symbols, only the functions declared in this header are exported from
 * libjoulecast.so (the stage-internal jci_, op_, hw_ ... functions and the
 * bundled protobuf-c code stay private, so they cannot clash with a
 * client's own).  The pragma gives every declaration below default
 * visibility, so a function added here is exported without more ado. */
#if defined(__GNUC__) && !defined(JC_NO_VISIBILITY)
#pragma GCC visibility push(default)
#endif

#define JC_VERSION "0.1.0"

/* ------------------------------------------------------------------ */
/* Status and diagnostics                                               */
/* ------------------------------------------------------------------ */

/* Status codes.  Also the CLI's exit codes; keep README/man in step. */
typedef enum jc_status {
    JC_OK = 0,
    JC_ERR_INTERNAL = 1,  /* a bug in joulecast: please report */
    JC_ERR_USAGE = 2,     /* bad command line or API argument */
    JC_ERR_IO = 3,        /* cannot open, map or read a file */
    JC_ERR_MODEL = 4,     /* the file is not a well-formed ONNX model */
    JC_ERR_HWDB = 5,      /* hardware database YAML invalid */
    JC_ERR_NOTFOUND = 6,  /* unknown device, host, region, op, dim name */
    JC_ERR_RANGE = 7,     /* arithmetic overflow or absurd value */
    JC_ERR_NOMEM = 8,     /* out of memory */
    JC_ERR_INCOMPLETE = 9,/* a partial count (unbound dim, unsupported op)
                             refused: by every request (jc_request) unless
                             allow_partial, by count only with --strict */
    JC_ERR_BUDGET = 10    /* an energy/emission budget was exceeded */
} jc_status;

/* A diagnostic: the first error of a call, with its location.  Fields that
 * do not apply are empty strings / -1.  `msg` is the complete, printable
 * message including the location prefix. */
typedef struct jc_diag {
    jc_status status;
    char msg[1024];
    char file[512];
    int64_t offset;   /* byte offset in the file, or -1 */
    int line, col;    /* 1-based YAML position, or 0 */
    char node[256];   /* ONNX node name (or op type), or "" */
} jc_diag;

/* Human-readable name of a status ("model error", ...).  Static string. */
const char *jc_status_name(jc_status st);

/* ------------------------------------------------------------------ */
/* ONNX model (stage: load; owner src/onnx/)                           */
/* ------------------------------------------------------------------ */

/* Element types, numbered as ONNX's TensorProto.DataType. */
typedef enum jc_dtype {
    JC_DT_UNDEFINED = 0, JC_DT_FLOAT = 1, JC_DT_UINT8 = 2, JC_DT_INT8 = 3,
    JC_DT_UINT16 = 4, JC_DT_INT16 = 5, JC_DT_INT32 = 6, JC_DT_INT64 = 7,
    JC_DT_STRING = 8, JC_DT_BOOL = 9, JC_DT_FLOAT16 = 10, JC_DT_DOUBLE = 11,
    JC_DT_UINT32 = 12, JC_DT_UINT64 = 13, JC_DT_COMPLEX64 = 14,
    JC_DT_COMPLEX128 = 15, JC_DT_BFLOAT16 = 16, JC_DT_FLOAT8E4M3FN = 17,
    JC_DT_FLOAT8E4M3FNUZ = 18, JC_DT_FLOAT8E5M2 = 19,
    JC_DT_FLOAT8E5M2FNUZ = 20, JC_DT_UINT4 = 21, JC_DT_INT4 = 22,
    JC_DT_FLOAT4E2M1 = 23,
    JC_DT_COUNT_ = 24
} jc_dtype;

/* "float32", "int64", ...; "dtype(N)" style names are not returned: an
 * unknown code gives "unknown". Static string. */
const char *jc_dtype_name(int dtype);
/* Size of one element in bits (4 for int4, 0 for string/undefined). */
int jc_dtype_bits(int dtype);

/* One dimension: v >= 0 is known; v < 0 is unknown, and then `sym` names
 * the symbolic dim (dim_param) when the file gave one, else NULL. */
typedef struct jc_dim {
    int64_t v;
    const char *sym;
} jc_dim;

/* Value kinds: what a named value of a graph is. */
typedef enum jc_vkind {
    JC_V_INTERMEDIATE = 0, /* produced by a node */
    JC_V_INPUT = 1,        /* graph input (not an initializer) */
    JC_V_INITIALIZER = 2,  /* initializer (weights, constants) */
    JC_V_OUTER = 3         /* subgraph reference to an enclosing scope */
} jc_vkind;

/* Where a tensor's payload lives (payloads themselves are never copied). */
typedef enum jc_data_loc {
    JC_DATA_NONE = 0,      /* no payload (value info only) */
    JC_DATA_INLINE = 1,    /* inside the .onnx file (offset/length in file) */
    JC_DATA_EXTERNAL = 2   /* external file (never opened by joulecast) */
} jc_data_loc;

/* A named tensor value of a graph.  Declared type/shape come from the file
 * (input/output/value_info or an initializer's dims); inferred shapes live
 * in jc_analysis, never here. */
typedef struct jc_value {
    const char *name;
    jc_vkind kind;
    int dtype;          /* jc_dtype, 0 when the file does not say */
    int rank;           /* -1: rank unknown */
    jc_dim *dims;       /* rank entries */
    int is_sparse;      /* a sparse initializer */
    int non_tensor;     /* a sequence/map/optional type (dims meaningless) */
    /* payload location for initializers and Constant tensors */
    jc_data_loc data_loc;
    uint64_t data_offset, data_length;  /* inline: in the model file */
    const char *ext_location;           /* external: relative path */
    uint64_t ext_offset, ext_length;    /* external: as declared; for a
                                           sparse tensor (is_sparse),
                                           ext_offset holds instead the
                                           count of stored (non-zero)
                                           values, ext_length 0 */
    /* Values kept for small tensors only (shape inference needs them):
     * int64, int32 and bool tensors of <= 4096 elements, other
     * integer and floating tensors of <= 64 elements (those
     * are weights far more often than shape operands). */
    int64_t n_vals;     /* -1 when values were not kept */
    int64_t *ivals;     /* integer/bool values (floats truncated) */
    double *fvals;      /* the same values as doubles */
} jc_value;

typedef enum jc_attr_type {
    JC_ATTR_UNDEFINED = 0, JC_ATTR_FLOAT = 1, JC_ATTR_INT = 2,
    JC_ATTR_STRING = 3, JC_ATTR_TENSOR = 4, JC_ATTR_GRAPH = 5,
    JC_ATTR_FLOATS = 6, JC_ATTR_INTS = 7, JC_ATTR_STRINGS = 8,
    JC_ATTR_TENSORS = 9, JC_ATTR_GRAPHS = 10, JC_ATTR_SPARSE_TENSOR = 11,
    JC_ATTR_SPARSE_TENSORS = 12, JC_ATTR_TYPE_PROTO = 13,
    JC_ATTR_TYPE_PROTOS = 14
} jc_attr_type;

struct jc_graph;

/* A node attribute.  Only the fields of `type` are meaningful.  Strings
 * are NUL-terminated copies (s_len gives the length for binary strings). */
typedef struct jc_attr {
    const char *name;
    jc_attr_type type;
    const char *ref_attr_name;  /* inside functions: attribute reference */
    double f;
    int64_t i;
    const char *s;
    size_t s_len;
    size_t n;                   /* element count of the list forms */
    double *floats;
    int64_t *ints;
    const char **strings;
    jc_value *t;                /* TENSOR: t; TENSORS: t[0..n) */
    struct jc_graph **g;        /* GRAPH: g[0]; GRAPHS: g[0..n) */
} jc_attr;

/* A node.  inputs/outputs index the owning graph's values; -1 marks an
 * omitted optional input or output (empty name in the file). */
typedef struct jc_node {
    const char *name;     /* may be "" when the file gives none */
    const char *op_type;
    const char *domain;   /* "" for the default ONNX domain */
    int opset;            /* the opset version in force for its domain, 0 if none */
    size_t n_inputs, n_outputs, n_attrs;
    int32_t *inputs, *outputs;
    jc_attr *attrs;
} jc_node;

/* A graph (the main graph, a subgraph of If/Loop/Scan, or a function
 * body).  values holds every named value: inputs, initializers,
 * intermediates and outer-scope references, each once. */
typedef struct jc_graph {
    const char *name;
    const char *doc_string;
    struct jc_graph *parent;   /* enclosing graph of a subgraph, else NULL */
    size_t n_values, n_nodes, n_inputs, n_outputs, n_initializers;
    jc_value *values;
    jc_node *nodes;            /* in file order */
    int32_t *inputs;           /* graph inputs that are not initializers */
    int32_t *outputs;
    int32_t *initializers;
    size_t n_subgraphs_total;  /* subgraphs nested below, recursively */
} jc_graph;

typedef struct jc_opset {
    const char *domain;  /* "" or "ai.onnx" for the default domain */
    int64_t version;
} jc_opset;

/* A model-local function (FunctionProto). */
typedef struct jc_function {
    const char *name, *domain;
    size_t n_inputs, n_outputs, n_attributes, n_opsets;
    const char **inputs, **outputs, **attributes;
    jc_opset *opsets;
    jc_graph *body;  /* nodes; values named after the function's formals */
} jc_function;

typedef struct jc_string_pair { const char *key, *value; } jc_string_pair;

/* A loaded model.  Everything hangs off one arena owned by the model. */
typedef struct jc_model {
    const char *path;
    uint64_t file_size;
    int64_t ir_version;
    const char *producer_name, *producer_version, *domain, *doc_string;
    int64_t model_version;
    size_t n_opsets, n_functions, n_metadata, n_training_info;
    jc_opset *opsets;
    jc_function *functions;
    jc_string_pair *metadata;
    jc_graph *graph;
    /* Totals over the main graph's initializers (params = elements). */
    int64_t n_params;          /* -1 if an initializer had unknown dims */
    int64_t weight_bytes;      /* at each initializer's dtype */
    size_t n_ext_files;        /* distinct external data files referenced */
    const char **ext_files;
    char sha256[65];           /* SHA-256 of the .onnx file's bytes (64 hex
                                  digits) when jc_request_load was asked
                                  for it (jc_request.hash_weights), else ""
                                  (external data not included) */
    char graph_sha256[65];     /* the graph identity, set by every load:
                                  SHA-256 over the file size (8 bytes, big
                                  endian) and the file's bytes without the
                                  payloads of the tensors whose values are
                                  not read (docs/json-schemas.md); reading
                                  it costs the structure, not the weights */
    void *internal_;           /* arena and file mapping; do not touch */
} jc_model;

/* Loads an ONNX model from `path`.  The file is mapped read-only and
 * decoded at the wire level; weight payloads are never copied (only small
 * integer/float tensors' values are kept) and external data files are
 * never opened.  On success *out owns everything (free with
 * jc_model_free).  On failure *out is NULL and diag (if non-NULL) says
 * what was wrong and where.  Errors: JC_ERR_IO, JC_ERR_MODEL,
 * JC_ERR_NOMEM, JC_ERR_USAGE. */
jc_status jc_model_load(const char *path, jc_model **out, jc_diag *diag);

/* Same, from a caller-owned buffer (copied only as needed: small values
 * and names; the buffer must stay valid during the call only). */
jc_status jc_model_load_buffer(const void *buf, size_t len, const char *name,
                               jc_model **out, jc_diag *diag);

/* Releases a model and everything borrowed from it.  NULL is a no-op. */
void jc_model_free(jc_model *m);

/* The opset version the model imports for `domain` ("" = ai.onnx), or 0. */
int64_t jc_model_opset(const jc_model *m, const char *domain);

/* Looks up a value of graph `g` by name; -1 when absent.  O(1). */
int32_t jc_graph_find(const jc_graph *g, const char *name);

/* Finds an attribute of a node by name; NULL when absent. */
const jc_attr *jc_node_attr(const jc_node *n, const char *name);

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

/* Compatibility views: other aggregations of the same buckets
 * (docs/counting.md). */
typedef enum jc_convention {
    JC_CONV_JOULECAST = 0, /* macs, flops, special_ops apart (default) */
    JC_CONV_TORCHVISION,   /* macs only (torchvision's "GFLOPS") */
    JC_CONV_FLOPS2X,       /* 2 x macs (torch.utils.flop_counter, MLPerf) */
    JC_CONV_FVCORE,        /* macs + norm/upsample/adaptive-pool terms */
    JC_CONV_ONNX_TOOL      /* macs + weighted non-MAC work (onnx-tool) */
} jc_convention;

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
typedef struct jc_value_binding {
    const char *name;
    int64_t n;                 /* 0 .. 4096 */
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

/* Writes v into buf (cap bytes) by the one number rule of the text and
 * HTML reports (docs/json-schemas.md, "Numbers in text and HTML"): four
 * significant digits with trailing zeros dropped, a whole number in full,
 * thousands separators from 1,000 on, an exponent only below 1e-4 or from
 * 1e15 on, "n/a" for a NaN or an infinity.  Returns buf.  For a client
 * that prints a figure of its own next to a report's. */
const char *jc_format_number(char *buf, size_t cap, double v);

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

/* ------------------------------------------------------------------ */
/* Hardware database (stage: hwdb; owner src/hwdb/)                    */
/* ------------------------------------------------------------------ */
/* The database is a folder of YAML files (schema: docs/hwdb-schema.md)
 * loaded into one jc_hwdb that owns everything below.  Records are sorted
 * by id/code (byte order of the lower-cased id), so listings are
 * deterministic.  Optional strings are NULL when absent; optional numbers
 * are 0 when absent; a jc_sourced that is absent has present == 0. */

/* A bibliographic source: one entry of a file's `sources` mapping. */
typedef struct jc_source {
    const char *id;        /* local to its file */
    const char *citation;  /* who/what (paper + table where relevant) */
    const char *url, *date, *licence, *note;  /* date: YYYY[-MM[-DD]] */
    const char *file_licence;  /* the file's top-level `licence`, or NULL */
    int year;              /* `year`, else the year of `date` */
    const char *file;
    int line, col;
} jc_source;

/* A number with its provenance.  low == high == value unless has_range.
 * year: the value's own `year`, else its source's year.  derived and
 * measured say how it was obtained (both NULL: as published).  file, line
 * and col locate the written value (an override layer's file when a layer
 * replaced it). */
typedef struct jc_sourced {
    int present;
    double value, low, high;
    int has_range;
    int year;
    const jc_source *source;
    const char *derived, *measured, *note;
    const char *file;
    int line, col;
} jc_sourced;

typedef enum jc_device_kind {
    JC_DEVICE_GPU = 0, JC_DEVICE_CPU = 1, JC_DEVICE_TPU = 2,
    JC_DEVICE_ACCELERATOR = 3, JC_DEVICE_SOC = 4
} jc_device_kind;

/* Precisions of peak throughput and energy per operation (int8/int4 in
 * TOPS). */
typedef enum jc_precision {
    JC_PREC_FP64 = 0, JC_PREC_FP32, JC_PREC_TF32, JC_PREC_FP16,
    JC_PREC_BF16, JC_PREC_FP8, JC_PREC_INT8, JC_PREC_INT4,
    JC_PREC_COUNT
} jc_precision;

/* "gpu", "cpu", ... / "fp64", "fp32", ...: static strings ("?" when out of
 * range). */
const char *jc_device_kind_name(jc_device_kind k);
const char *jc_precision_name(jc_precision p);

/* The Green-Algorithms calculator's own figures for a device. */
typedef struct jc_device_ga {
    const char *name;            /* the calculator's exact model string; NULL: none */
    jc_sourced tdp_per_core_w;   /* CPUs */
    jc_sourced tdp_w;            /* GPUs */
    int cores;
} jc_device_ga;

/* A device: one GPU card, CPU socket, TPU chip, accelerator or SoC. */
typedef struct jc_device {
    const char *id;
    const char **aliases;
    size_t n_aliases;
    jc_device_kind kind;
    const char *vendor, *name, *variant, *form_factor, *architecture,
               *process_node, *note;
    int release_year;
    jc_sourced tdp_w;       /* may be absent (no published power figure) */
    jc_sourced idle_w;
    jc_sourced peak_tflops[JC_PREC_COUNT];         /* dense */
    jc_sourced peak_tflops_sparse[JC_PREC_COUNT];  /* structured sparsity */
    jc_sourced memory_gb, memory_bw_gbs;
    jc_sourced memory_bw_sustained_gbs;   /* measured sustained bandwidth; absent: none published */
    jc_sourced peak_tflops_acc32[JC_PREC_COUNT];   /* dense, fp32 accumulate,
                                                      where it differs */
    jc_sourced sm_count;        /* SMs / CUs / cores (a whole number) */
    const char *memory_type;    /* "HBM3", "GDDR6X", "unified", ... or NULL */
    jc_sourced l2_mb;           /* L2 / last-level cache, MB */
    jc_sourced power_limit_w;   /* default; low/high the configurable range */
    jc_sourced boost_power_w;   /* the die's power holding its boost clock in a dense load */
    const char *interconnect;   /* device-to-device link, or NULL */
    jc_sourced interconnect_gbs; /* per device, one direction */
    jc_sourced node_devices;     /* devices per link domain of the reference system */
    jc_sourced node_network_gbs; /* inter-node network per device, one direction */
    jc_sourced pj_per_flop[JC_PREC_COUNT];         /* energy.pj_per_flop */
    jc_sourced pj_per_byte;                        /* energy.pj_per_byte */
    jc_sourced util_training, util_inference;      /* with low/high */
    jc_sourced embodied_kgco2e;
    const char *embodied_scope;
    int cores, threads;
    double base_ghz, boost_ghz;
    jc_sourced tdp_per_core_w;
    jc_device_ga ga;
    const char *file;
    int line, col;
} jc_device;

typedef enum jc_host_kind {
    JC_HOST_SERVER = 0, JC_HOST_CLOUD_INSTANCE = 1
} jc_host_kind;
/* "server" / "cloud-instance": static strings. */
const char *jc_host_kind_name(jc_host_kind k);

/* A server or cloud instance type. */
typedef struct jc_host {
    const char *id;
    const char **aliases;
    size_t n_aliases;
    const char *name, *vendor, *provider, *note;
    jc_host_kind kind;
    const jc_device *accel;   /* NULL when the host has no accelerators */
    int n_accel;
    const jc_device *cpu;     /* the CPU device when `cpu.device` names one */
    const char *cpu_name;     /* the CPU's name (the device's when cpu != NULL) */
    int n_cpu;                /* sockets; 0 when `cpu` is absent */
    int vcpus;
    jc_sourced memory_gb, host_power_w, host_idle_w, max_power_w;
    const char *file;
    int line, col;
} jc_host;

/* One grid-intensity dataset (an `intensities` file). */
typedef struct jc_dataset {
    const char *id, *name, *basis, *note;
    const jc_source *source;
    int precedence;           /* lower wins when choosing a default */
    const char *superseded_by; /* the dataset that replaces this one (a
                                  later calculator table, a later year of
                                  a yearly series), or NULL: a superseded
                                  dataset is shown, never widens a range */
    size_t n_values;
    const char *file;
    int line, col;
} jc_dataset;

/* One intensity value of a region, gCO2e/kWh. */
typedef struct jc_intensity {
    const char *dataset_id;
    const jc_dataset *dataset;  /* NULL for an inline dataset that no
                                   `intensities` file defines */
    const char *basis;          /* the value's basis (else its dataset's) */
    jc_sourced value;           /* value.year: the year it refers to */
} jc_intensity;

typedef enum jc_region_type {
    JC_REGION_WORLD = 0, JC_REGION_AGGREGATE, JC_REGION_COUNTRY,
    JC_REGION_SUBNATIONAL, JC_REGION_GRID, JC_REGION_CLOUD
} jc_region_type;
/* "world", "aggregate", "country", ...: static strings. */
const char *jc_region_type_name(jc_region_type t);

/* A region: country, sub-national zone, grid, aggregate or cloud region.
 *
 * Default intensity (default_intensity / default_from / default_reason),
 * chosen at load time:
 *  1. the region's own `default_dataset` (it must have a value here), with
 *     the region's `why`;
 *  2. else the dataset of lowest `precedence` that has a value for the
 *     region (ties: dataset id order; an inline dataset that no
 *     `intensities` file defines ranks after every defined one); for a
 *     cloud region the grid zone's default competes too, and wins when its
 *     dataset's precedence is lower (default_from is then the grid zone);
 *  3. else, for a cloud region, its grid zone's default (default_from is
 *     then the grid region, and default_reason says so);
 *  4. else none: default_intensity is NULL.
 * Within the chosen dataset the value of the latest year is used. */
typedef struct jc_region {
    const char *code;
    const char **aliases;
    size_t n_aliases;
    const char *name, *country, *provider, *note;
    jc_region_type type;
    const char *grid;                /* as written (cloud regions) */
    const struct jc_region *grid_region;
    jc_sourced pue, market_gco2e_per_kwh;
    size_t n_intensity;
    jc_intensity *intensity;  /* by precedence, dataset id, newest year first */
    const char *default_dataset, *why;   /* as written, or NULL */
    const jc_intensity *default_intensity;
    const struct jc_region *default_from;
    const char *default_reason;
    const char *file;
    int line, col;
} jc_region;

typedef struct jc_pue_year {
    int year;
    jc_sourced value;
} jc_pue_year;

/* A data-centre operator (or a default such as `personal`). */
typedef struct jc_provider {
    const char *id, *name, *note;
    jc_sourced pue;
    size_t n_pue_by_year;
    jc_pue_year *pue_by_year;   /* in file order */
    const char *file;
    int line, col;
} jc_provider;

/* A named constant (memory W/GB, car gCO2e/km, ...). */
typedef struct jc_constant {
    const char *id, *unit;
    jc_sourced value;
} jc_constant;

/* Green-Algorithms calculator tables of one version (rows in CSV order;
 * every number carries its row's source). */
typedef struct jc_ga_pue_default {
    const char *provider;
    jc_sourced value;
} jc_ga_pue_default;
typedef struct jc_ga_provider {
    const char *code, *name, *platform_type, *platform_name;
} jc_ga_provider;
typedef struct jc_ga_datacenter {
    const char *provider, *name, *location, *details, *place;
    jc_sourced pue;             /* absent: the provider's default */
    const jc_source *source;
} jc_ga_datacenter;
typedef struct jc_ga_hw {       /* a row of TDP_cpu.csv or TDP_gpu.csv */
    const char *name, *note;
    jc_sourced tdp_w, tdp_per_core_w;
    int cores, release_year;
} jc_ga_hw;
typedef struct jc_ga_location {
    const char *code, *continent, *country, *region, *type, *note;
    jc_sourced value;           /* gCO2e/kWh */
    const jc_region *resolved;  /* the database region of `code` */
} jc_ga_location;
typedef struct jc_ga_constant {
    const char *id;
    jc_sourced value;
} jc_ga_constant;
typedef struct jc_ga_version {
    const char *version;        /* "3.0" */
    const jc_source *source;
    size_t n_pue_defaults, n_providers, n_datacenters, n_cpus, n_gpus,
           n_constants, n_locations;
    jc_ga_pue_default *pue_defaults;
    jc_ga_provider *providers;
    jc_ga_datacenter *datacenters;
    jc_ga_hw *cpus, *gpus;
    jc_ga_constant *constants;
    jc_ga_location *locations;
    const char *file;
    int line, col;
} jc_ga_version;

/* A loaded database.  Arrays are sorted by id/code (ga: by version). */
typedef struct jc_hwdb {
    size_t n_devices, n_hosts, n_regions, n_datasets, n_providers,
           n_constants, n_ga, n_sources, n_files;
    jc_device *devices;
    jc_host *hosts;
    jc_region *regions;
    jc_dataset *datasets;
    jc_provider *providers;
    jc_constant *constants;
    jc_ga_version *ga;
    const char **files;       /* every file loaded, in load order */
    const char *data_version; /* the first line of the bundled folder's
                                 VERSION file ("2026.11 (2026-11-30)"), or
                                 NULL when there is none */
    void *internal_;          /* arena and name indexes; do not touch */
} jc_hwdb;

/* Loads a database.  Layers, in order: every *.yaml under `bundled_dir`
 * (recursively, sorted by path; NULL: no bundled layer), then each of
 * layers[0..n_layers) (a folder or one .yaml file), then each entry of
 * `env_layers` (a colon-separated list as in $JOULECAST_HWDB; NULL or ""
 * for none; empty entries are skipped).  A later layer adds entries or
 * overrides fields of an entry with the same id (case-insensitive):
 * scalar and sourced fields are replaced, the mappings peak_tflops,
 * peak_tflops_sparse, energy, pj_per_flop, utilization and ga (of a
 * device) merge key by key, and keyed lists merge by key (intensity
 * `values` by region+year, a region's `intensity` by dataset+year,
 * `pue_by_year` by year); any other list is replaced.  Validation (types,
 * ranges, required keys, references, duplicates) runs on the merged
 * entries.  Errors name file:line:column: JC_ERR_HWDB (invalid YAML or
 * schema violation, a file over 64 MiB: refused unread), JC_ERR_IO
 * (missing folder, unreadable file), JC_ERR_NOMEM, JC_ERR_USAGE (no layer at all).  On success
 * *out owns everything (jc_hwdb_free); on failure *out is NULL. */
jc_status jc_hwdb_load(const char *bundled_dir, const char *const *layers,
                       size_t n_layers, const char *env_layers,
                       jc_hwdb **out, jc_diag *diag);

/* Releases a database and everything borrowed from it.  NULL: no-op. */
void jc_hwdb_free(jc_hwdb *db);

/* Snapshots of the bundled layer.  Parsing the bundled YAML with libyaml
 * takes about 20 ms, far more than an estimate itself; a snapshot is the
 * loaded database written as one file that opens in tens of microseconds
 * (mapped at a fixed address, else read and relocated).  `make` writes
 * build/hwdb.snap, `make install` PREFIX/share/joulecast/hwdb.snap, and
 * `joulecast hwdb snapshot` any other.  Only the bundled layer alone can
 * be snapshotted: override layers are merged from YAML by jc_hwdb_load.
 *
 * jc_hwdb_snapshot_write loads every *.yaml under bundled_dir (as
 * jc_hwdb_load(bundled_dir, NULL, 0, NULL, ...) does, same errors),
 * records each file's name, size and modification time, and writes the
 * snapshot to `path` (atomically: a temporary file renamed).  `path` is
 * a new path or a regular file; a symlink is kept and the file it ends at
 * written.  Errors: those of jc_hwdb_load, JC_ERR_IO (cannot write; path
 * a FIFO, a device, a folder or a socket, never replaced), JC_ERR_RANGE
 * (over 1 GiB, more than 4096 files, a path of 512 bytes or more),
 * JC_ERR_USAGE (a 32-bit build; path one of the YAML files loaded). */
jc_status jc_hwdb_snapshot_write(const char *bundled_dir, const char *path,
                                 jc_diag *diag);

/* Opens the snapshot at `path` as the database of bundled_dir: the result
 * is the same database jc_hwdb_load(bundled_dir, NULL, 0, NULL, ...) would
 * give, file paths spelled from bundled_dir as that call would.  Errors
 * (*out NULL; callers then load the YAML): JC_ERR_IO (cannot open or
 * read), JC_ERR_NOTFOUND (stale: the folder's *.yaml names, sizes or
 * modification times differ from those recorded; the message names the
 * first file that differs), JC_ERR_HWDB (not a snapshot, written by a
 * build with another record layout, truncated, or - when relocating -
 * corrupt: checksum or a pointer outside the file), JC_ERR_NOMEM.
 * *out is released with jc_hwdb_free like any database. */
jc_status jc_hwdb_snapshot_open(const char *path, const char *bundled_dir,
                                unsigned flags, jc_hwdb **out, jc_diag *diag);

/* How db was loaded: 0 parsed from YAML, 1 a relocated snapshot copy,
 * 2 a snapshot mapped in place. */
int jc_hwdb_from_snapshot(const jc_hwdb *db);

/* The display name of a device: vendor, name and variant, the vendor left
 * out when the name already starts with it ("Intel Xeon Gold 6148", never
 * "Intel Intel Xeon ...").  Writes at most cap bytes (NUL included) to
 * buf and returns buf. */
char *jc_device_label(const jc_device *d, char *buf, size_t cap);

/* Lookups: case-insensitive over ids (codes) and aliases, O(1).  On a
 * miss they return JC_ERR_NOTFOUND, set *out to NULL and fill diag with
 * "no device named 'x'; did you mean a, b, c?" (the closest three names
 * by edit distance or substring).  There is never a fallback to a generic
 * entry. */
jc_status jc_hwdb_device(const jc_hwdb *db, const char *name,
                         const jc_device **out, jc_diag *diag);
jc_status jc_hwdb_host(const jc_hwdb *db, const char *name,
                       const jc_host **out, jc_diag *diag);
/* Devices and hosts share one namespace: sets exactly one of *dev, *host
 * on success. */
jc_status jc_hwdb_hardware(const jc_hwdb *db, const char *name,
                           const jc_device **dev, const jc_host **host,
                           jc_diag *diag);
jc_status jc_hwdb_region(const jc_hwdb *db, const char *code,
                         const jc_region **out, jc_diag *diag);
jc_status jc_hwdb_provider(const jc_hwdb *db, const char *id,
                           const jc_provider **out, jc_diag *diag);
jc_status jc_hwdb_constant(const jc_hwdb *db, const char *id,
                           const jc_constant **out, jc_diag *diag);
jc_status jc_hwdb_dataset(const jc_hwdb *db, const char *id,
                          const jc_dataset **out, jc_diag *diag);
/* A Green-Algorithms version ("3.0"); NULL or "latest": the highest. */
jc_status jc_hwdb_ga(const jc_hwdb *db, const char *version,
                     const jc_ga_version **out, jc_diag *diag);

/* The value of `region` in `dataset` (latest year when year is 0, else
 * that year); NULL when it has none. */
const jc_intensity *jc_region_intensity(const jc_region *region,
                                        const char *dataset, int year);

/* The filters of `region list` (NULL: not given): JC_ERR_USAGE for a
 * type that is not a region type name, or a provider and a type that no
 * region has together (a provider's regions are cloud regions: the list
 * would be empty for a reason the user did not ask about);
 * JC_ERR_NOTFOUND (with suggestions) for an unknown provider.  The CLI
 * and the binding call it before listing. */
jc_status jc_region_list_check(const jc_hwdb *db, const char *provider, const char *type, jc_diag *diag);

/* The filters of `hw list`; a zeroed filter (or NULL) lists everything.
 * kind: a device kind name ("gpu" ...) or "host" (hosts only); vendor:
 * the entry's vendor (devices and hosts), case-insensitive; form_factor:
 * a case-insensitive substring of a device's form factor ("SXM", "PCIe");
 * year_min / year_max: a device's release year range (0: open).  Devices
 * with no form factor or release year do not match a filter on it. */
typedef struct jc_hw_filter {
    const char *kind, *vendor, *form_factor;
    int year_min, year_max;
} jc_hw_filter;

/* Whether device d passes filter f (NULL: yes); hosts pass by kind and
 * vendor (jc_hw_filter_host). */
int jc_hw_filter_device(const jc_hw_filter *f, const jc_device *d);
int jc_hw_filter_host(const jc_hw_filter *f, const jc_host *h);
/* Checks filter f against db before a listing (the CLI and any binding
 * call it): JC_ERR_USAGE naming the option for an unknown kind, a year
 * range with min above max, or --form-factor / --year with hosts only;
 * JC_ERR_NOTFOUND (with suggestions) for a vendor no entry has. */
jc_status jc_hw_list_check(const jc_hwdb *db, const jc_hw_filter *f, jc_diag *diag);
/* Sets f's year range from "2023", "2020-2024", "2022-" or "-2019" (years
 * 1900-2100); JC_ERR_USAGE otherwise, the message starting with the key
 * ("year expects a year ..."). */
jc_status jc_hw_filter_years(const char *s, jc_hw_filter *f, jc_diag *diag);

/* Writes `hw list` / `hw show` / `region list` / `region show` views as
 * text to f (deterministic, C locale).  filter / provider / type filter
 * the lists (NULL: all; kind "host" lists hosts).  JC_ERR_IO if writing
 * failed. */
jc_status jc_report_hw_list_text(const jc_hwdb *db, const jc_hw_filter *filter, FILE *f);
jc_status jc_report_device_text(const jc_device *d, FILE *f);
jc_status jc_report_host_text(const jc_host *h, FILE *f);
jc_status jc_report_region_list_text(const jc_hwdb *db, const char *provider,
                                     const char *type, FILE *f);
jc_status jc_report_region_text(const jc_region *r, FILE *f);
/* The same views as JSON documents (schemas: docs/json-schemas.md),
 * released with jc_free(); NULL on out-of-memory. */
char *jc_report_hw_list_json(const jc_hwdb *db, const jc_hw_filter *filter);
char *jc_report_device_json(const jc_device *d);
char *jc_report_host_json(const jc_host *h);
char *jc_report_region_list_json(const jc_hwdb *db, const char *provider,
                                 const char *type);
char *jc_report_region_json(const jc_region *r);
/* The hwdb schema the loader enforces (the field tables of
 * src/hwdb/fields_<kind>.def): the table of record kind `kind` ("device";
 * NULL: every kind with a table) as Markdown to f (docs/hwdb-schema.md
 * embeds it), or every table as one JSON document (tools/hwdb_fields.json,
 * read by tools/check_hwdb.py) released with jc_free(), NULL on
 * out-of-memory.  JC_ERR_NOTFOUND for an unknown kind, JC_ERR_IO when
 * writing failed. */
jc_status jc_report_hwdb_schema_md(const char *kind, FILE *f, jc_diag *d);
char *jc_report_hwdb_schema_json(void);

/* ------------------------------------------------------------------ */
/* Estimate (stages: workload + energy; owner src/estimate/estimate.c)           */
/* ------------------------------------------------------------------ */
/* The energy model is docs/energy-model.md; every number an estimate
 * uses is recorded as a jc_assumption with its origin. */

typedef enum jc_mode { JC_MODE_INFERENCE = 0, JC_MODE_TRAINING = 1,
                       JC_MODE_GENERATION = 2 /* LLM serving: jc_serving_run */ } jc_mode;

typedef enum jc_method {
    JC_METHOD_ROOFLINE = 0,      /* per-node roofline time, activity power */
    JC_METHOD_JOULES_PER_OP = 1, /* idle floor + energy per FLOP and byte */
    JC_METHOD_TDP = 2            /* device-hours x TDP, as model cards do */
} jc_method;

/* "roofline", "joules-per-op", "tdp" / "inference", "training". */
const char *jc_method_name(jc_method m);
const char *jc_mode_name(jc_mode m);

/* A job: what runs, where, how much.  Doubles left NAN (and pointers
 * NULL) are "not given"; jc_job_init() sets that state.  Every field
 * maps to one command-line option or job-file key (docs/job-file.md). */
typedef struct jc_job {
    jc_mode mode;
    jc_method method;
    const char *precision;   /* fp32 tf32 bf16 fp16 fp8 int8; NULL: default */
    const char *runtime;     /* eager compiled engine; NULL: eager */
    /* the work, when no model is given */
    double flops;            /* total job FLOPs */
    double params, active_params;  /* N (MoE: active) with tokens: 6ND/2ND */
    double tokens;           /* tokens processed (training: with seq) */
    /* inference */
    double requests, batch, tokens_per_request;
    /* training */
    double samples, epochs, seq;
    const char *optimizer;   /* adamw, adam, sgd, none; NULL: adamw */
    double backward_factor;  /* beta; NAN: hwdb constant backward_factor */
    int recompute;           /* activation recomputation: +1 forward */
    /* known runtime and measured power */
    double hours;            /* wall clock */
    double device_hours;
    double avg_power_w;      /* measured average power per device */
    double power_limit_w;    /* device power limit (cap), W; NAN: the device's default */
    /* hardware */
    const char *device;      /* device id/alias, or NULL with host */
    const char *host;        /* server / cloud instance id */
    double count;            /* devices (default: the host's, else 1) */
    double hosts;            /* servers (with host) */
    double utilization;      /* MFU override (0, 1] */
    double host_power_w;     /* host power override, W per host */
    double scaling;          /* scaling efficiency override (0, 1] */
    /* place */
    const char *region;
    const char *ci_dataset;  /* intensity dataset for the region (its grid
                                zone's value for a cloud region without
                                one); NULL or "default": the region's own
                                default dataset */
    double ci;               /* gCO2e/kWh override */
    double pue;
    int embodied;            /* add the embodied line */
    double lifetime_years;
    int per_node;            /* keep per-node time/energy shares */
    /* measured runs (docs/traces.md) */
    double gpu_usage;        /* with a known runtime: busy fraction of the devices, 0..1 */
    double cpu_usage;        /* with a known runtime: busy fraction of the host CPUs, 0..1 */
    const char *measured;    /* a power trace of the run (jc_trace_load) */
    const char *trace_format;  /* its format name; NULL: detected */
    const char *trace_scope;   /* device, host or wall: a plain timestamp,watts trace */
    double trace_gap_s;        /* its gap threshold, s; NAN: 5 x median interval */
    double trace_idle_w;       /* its idle threshold, W; NAN: by utilisation / power span */
    double trace_interval_s;   /* its sampling period without timestamps, s; NAN: default */
    /* generation (LLM serving, mode JC_MODE_GENERATION) */
    const char *hf_config;   /* Hugging Face config.json */
    double prompt_tokens, output_tokens; /* mean per request */
    double concurrency;      /* running sequences per replica */
    double tp, pp, ep;       /* tensor / pipeline / expert parallel sizes */
    const char *weights;     /* stored weight format; NULL: the config's */
    const char *kv_format;   /* KV-cache format; NULL: bf16 */
    const char *serving_runtime; /* vllm (default), vllm-0.5, sglang, trt-llm, tgi, hf-generate */
    const char *prompt_dim;  /* generation, ONNX decoder: the symbolic dim
                                of the new tokens (NULL: found) */
    const char *past_dim;    /* ... and of the cached context (NULL: found) */
    /* multi-device training (tp, pp above; docs/energy-model.md) */
    double micro_batches;    /* micro-batches per step with pp > 1 */
    double hidden;           /* --params jobs: model width d_model (tensor parallel) */
    /* the training step model (src/estimate/train_step.c) */
    double layers, heads;    /* --params jobs: the shape with hidden and seq */
    double total_params;     /* MoE: all parameters (params is then the active) */
    double cp, zero, virtual_stages;  /* context parallel, ZeRO stage, interleaving */
    double distill_teacher;  /* teacher parameters (forward per token) */
    double mtp_heads;        /* multi-token-prediction modules */
    double long_seq, long_tokens;  /* a long-context stage */
} jc_job;

/* Sets every field of *job to "not given" (NAN / NULL / 0) with mode
 * inference and method roofline. */
void jc_job_init(jc_job *job);

/* One key of a job: the long option name without dashes (also the job
 * file's key and the bindings' key), the placeholder of its value (NULL
 * for a flag) and a one-line help. */
typedef struct jc_job_key {
    const char *name, *arg, *help;
} jc_job_key;

/* Every key jc_job_set accepts, in a fixed order; *n receives the count.
 * A static table: never freed. */
const jc_job_key *jc_job_keys(size_t *n);

/* The largest value a size key ("batch", "count", "requests", ...) may
 * take, or NULL for a key without such a limit.  jc_job_set refuses a
 * larger value with JC_ERR_RANGE.  Points into a static table. */
const double *jc_job_key_max(const char *key);

/* Checks every number of a filled-in job (one not given is NAN) against
 * its key's row of the table: the range (> 0, >= 0, a whole number >= 1
 * or >= 0) and the limit that jc_job_set applies to a value given as
 * text, so a job built field by field is refused as the command line
 * would refuse it.  JC_ERR_RANGE above a limit, JC_ERR_USAGE otherwise;
 * the message names the option ("--count must be a whole number >= 1
 * (got 8.5 devices)").  The estimate and the serving model call it
 * first. */
jc_status jc_job_check(const jc_job *job, jc_diag *diag);

/* The same check for one value v of the number key `key` (NAN: not
 * given, JC_OK); `label` names it in the message (e.g. "--batch", or an
 * axis of a sweep), NULL for "--KEY".  JC_ERR_INTERNAL for a key that is
 * not a number key. */
jc_status jc_job_check_value(const char *key, const char *label, double v, jc_diag *diag);

/* The first key of the table that sets the same field as `key` (an alias
 * such as "mfu" gives "utilization"; a key gives itself), or NULL for an
 * unknown key.  Points into the static table. */
const char *jc_job_key_canonical(const char *key);

/* The job key closest to `name` by the rule of jc_closest_name, for "did
 * you mean" messages; NULL when none is close.  A static string.  A name
 * other tools give an option (jc_job_key_meant) comes first. */
const char *jc_job_key_closest(const char *name);

/* The job key that a name other tools or people use means ("gpu" and
 * "accelerator": device, "gpus" and "num-gpus": count, "location":
 * region, ...), from a table in src/job/job.c; NULL for other names. */
const char *jc_job_key_meant(const char *name);
/* jc_job_key_meant read with the value given (NULL: unknown): a name
 * where a number was meant ("--devices a100", "gpus: h100") means the
 * device, a number ("--devices 8") the count. */
const char *jc_job_key_meant_for(const char *name, const char *value);

/* Of the n names, the one closest to `want` for a "did you mean" message,
 * or NULL when none is close (want or names NULL: NULL).  The library's
 * one rule (src/base/suggest.c): ASCII case folded; an edit distance of
 * at most 1 for up to 3 typed characters, 2 for up to 5, then a third of
 * the length plus one, at most 4; a name that the typed text starts a
 * word of (or holds, or is held in) also counts; equal ranks go to the
 * smaller edit distance, then the name.  Returns one of names (borrowed). */
const char *jc_closest_name(const char *want, const char *const *names, size_t n);
/* Of the n option or key names (borrowed), the one a "did you mean"
 * offers for the unknown key `name` given with `value` (NULL when
 * unknown): the key it means (jc_job_key_meant_for) when that is among
 * the names, else jc_closest_name's; NULL when none is close. */
const char *jc_closest_key(const char *name, const char *value, const char *const *names, size_t n);

/* Sets the field of `key` from its text: numbers in the C locale's
 * format, names borrowed (they must outlive the job), flags as NULL (on)
 * or true/false/yes/no/1/0, mode and method by name.  Errors:
 * JC_ERR_NOTFOUND (no such key, with the closest one suggested),
 * JC_ERR_USAGE (a value of the wrong form), JC_ERR_RANGE (a size above
 * its limit, jc_job_key_max; the message names the key and the limit). */
jc_status jc_job_set(jc_job *job, const char *key, const char *value, jc_diag *diag);

/* Refuses a key that does nothing in the job's mode (JC_ERR_USAGE naming
 * the key, what it belongs to and what to do): training keys (--samples,
 * --epochs, --optimizer, ...) outside training, serving keys
 * (--prompt-tokens, --concurrency, --weights, ...) outside generation,
 * --runtime/--precision/--tokens-per-request in generation.  The
 * estimate and the serving model call it; JC_OK when every key set
 * applies. */
jc_status jc_job_check_mode(const jc_job *job, jc_diag *diag);

/* The grid-intensity dataset every estimate reads a region's intensity
 * from unless the job's ci-dataset says otherwise: one basis (lifecycle,
 * consumption-based) for every region and provider, so that neither a
 * provider's own accounting nor an older table ranks a region.  A region
 * without a value in it (nor its grid zone) falls back to its own
 * default dataset, and the estimate says so (assumption grid.ci_basis,
 * a warning). */
#define JC_CI_BASIS "electricitymaps-2025"

/* The dataset the job reads intensities from: its ci-dataset, else
 * JC_CI_BASIS; NULL when it gives --ci or asks for each region's own
 * default (ci-dataset "default").  A static or borrowed string. */
const char *jc_job_ci_basis(const jc_job *job);

/* A batch dim the model cannot take: the first graph input whose first
 * dim is fixed at a value other than `batch`.  Returns that value and sets
 * *input to the input's name (borrowed from m), or returns 0. */
int64_t jc_model_fixed_batch(const jc_model *m, double batch, const char **input);

/* ------------------------------------------------------------------ */
/* Requests: job + bindings + model source -> model + analysis          */
/* (owner src/job/request.c)                                            */
/* ------------------------------------------------------------------ */
/* The one path from what a user asks for to a counted model: every CLI
 * command, the bindings and the workflows (compare, sweep, calibrate)
 * build a jc_request and call jc_request_prepare (or, to count one model
 * at several batch sizes, jc_request_load once and jc_request_analyze per
 * size).  The rules live here once:
 *  - model source: a path, or "-" for standard input; the graph identity
 *    (jc_model.graph_sha256) is always recorded, the whole file's SHA-256
 *    (jc_model.sha256) only with hash_weights, since it reads every weight;
 *  - batch: job->batch must be a whole number >= 1 (at most its limit,
 *    jc_job_key_max); it binds the
 *    first dim of every main-graph input whose first dim is symbolic; a
 *    fixed first dim that differs is refused (JC_ERR_USAGE naming the
 *    input and its dim: estimate, compare, sweep, calibrate and the
 *    binding alike), and a batch that binds no input (the model has none,
 *    only scalars, or a fixed first dim of 0) is JC_ERR_USAGE;
 *    without job->batch a symbolic batch dim that no --dim or --input
 *    binds is counted at 1 (the estimate names that default);
 *  - sequence: job->seq must agree with the sequence length the model's
 *    token input was counted at (its second dim), else JC_ERR_USAGE;
 *  - op rules, --assume bounds, --input-value values, the convention;
 *  - partial counts: refused with JC_ERR_INCOMPLETE (exit 9), the message
 *    naming each unbound dim and unsupported op, unless allow_partial;
 *    then every report of the estimate says "lower bound". */

typedef struct jc_request {
    const jc_job *job;          /* the workload (batch, seq); NULL: none */
    const char *model;          /* a path, "-" (standard input), or NULL */
    FILE *in;                   /* the stream "-" reads; NULL: stdin */
    const jc_dim_binding *dims;      size_t n_dims;     /* --dim */
    const jc_input_binding *inputs;  size_t n_inputs;   /* --input */
    const jc_value_binding *values;  size_t n_values;   /* --input-value */
    const jc_dim_binding *assume;    size_t n_assume;   /* --assume */
    const char *op_rules;       /* --op-rules FILE, or NULL */
    jc_convention convention;
    int allow_partial;          /* 1: a partial count passes (lower bound) */
    int bindings_if_present;    /* 1: a --dim/--input the model lacks is
                                   skipped (compare: models differ) */
    int no_default_batch;       /* 1: without job->batch a symbolic batch
                                   dim stays unbound (count reports it)
                                   instead of being counted at 1 */
    int hash_weights;           /* 1: also hash the whole file, weights
                                   included (jc_model.sha256; --hash-weights,
                                   and always in statement) */
} jc_request;

/* Zeroes *rq: no model, no bindings, partial counts refused, a fixed
 * batch dim that disagrees refused. */
void jc_request_init(jc_request *rq);

/* What jc_request_analyze decided besides the analysis. */
typedef struct jc_request_info {
    double batch;               /* the batch counted at (NAN: not bound) */
    int partial;                /* the count is partial (allow_partial) */
    unsigned char *dim_used, *input_used;  /* caller's arrays of n_dims /
                                   n_inputs entries, or NULL: set to 1 for
                                   each binding the model took */
} jc_request_info;

/* Loads the request's model: rq->model as a path, or "-" read from rq->in
 * (else stdin; at most 2 GiB).  Sets m->graph_sha256, and m->sha256 when
 * rq->hash_weights.  Errors: those of
 * jc_model_load, JC_ERR_USAGE (no model in the request), JC_ERR_RANGE
 * (standard input over the limit). */
jc_status jc_request_load(const jc_request *rq, jc_model **out, jc_diag *diag);

/* Counts m at `batch` (NAN: rq->job's batch, or the default above) with
 * the request's bindings and policy.  info may be NULL.  Errors:
 * JC_ERR_USAGE (a malformed batch, a fixed batch dim refused, --seq that
 * disagrees with the count), JC_ERR_INCOMPLETE (a partial count refused:
 * the message names what is missing), and every error of jc_analyze.  On
 * success *out owns the analysis (jc_analysis_free). */
jc_status jc_request_analyze(const jc_request *rq, const jc_model *m, double batch,
                             jc_analysis **out, jc_request_info *info,
                             jc_diag *diag);

/* A prepared request: the model and its analysis (both NULL without a
 * model), and what the analysis decided. */
typedef struct jc_prepared {
    jc_model *model;
    jc_analysis *analysis;
    jc_request_info info;
    void *internal_;
} jc_prepared;

/* jc_request_load + jc_request_analyze at the job's batch.  A request
 * without a model gives an empty jc_prepared (the work then comes from
 * --flops or --params).  Errors: those of the two.  On success *out owns
 * everything (jc_prepared_free). */
jc_status jc_request_prepare(const jc_request *rq, jc_prepared **out, jc_diag *diag);
/* Releases a prepared request (model and analysis).  NULL is a no-op. */
void jc_prepared_free(jc_prepared *p);

/* Checks a batch size: NAN (not given) or a whole number from 1 to
 * jc_job_key_max("batch"); `what` names it in the message ("--batch").
 * JC_ERR_RANGE above the limit (the message names it), JC_ERR_USAGE for
 * any other value. */
jc_status jc_batch_check(double batch, const char *what, jc_diag *diag);

/* What a partial analysis lacks, in a few words ("unknown dim 'sequence'
 * (bind it with --dim sequence=N), unsupported op Foo x2"), into buf
 * (always NUL-terminated); "" when the analysis is complete. */
void jc_analysis_partial_words(const jc_analysis *an, char *buf, size_t cap);

/* low <= central <= high. */
typedef struct jc_range { double low, central, high; } jc_range;

typedef enum jc_origin {
    JC_ORIGIN_USER = 0,     /* a command-line option or job-file key */
    JC_ORIGIN_HWDB = 1,     /* an hwdb entry (source attached) */
    JC_ORIGIN_MODEL = 2,    /* counted from the ONNX model */
    JC_ORIGIN_DERIVED = 3,  /* computed from other assumptions */
    JC_ORIGIN_DEFAULT = 4   /* a documented default of joulecast */
} jc_origin;
const char *jc_origin_name(jc_origin o);

/* One number an estimate used, with where it came from. */
typedef struct jc_assumption {
    const char *key;         /* stable id, e.g. "device.tdp_w" */
    const char *label;       /* human wording */
    jc_range value;          /* low == central == high when exact */
    const char *unit;
    jc_origin origin;
    const char *source;      /* "--pue", "hwdb/devices/nvidia.yaml:966
                                (NVIDIA A100 datasheet, 2020)", ... */
} jc_assumption;

/* One node's share of a pass, on the chosen device. */
typedef struct jc_est_node {
    const char *name, *op;
    double flops, bytes;     /* one forward pass */
    double time_s;           /* one forward pass, one device, central */
    double energy_j;         /* one forward pass, device energy, central */
    int memory_bound;        /* 1: bandwidth- or launch-bound on this device
                                (a node the runtime profile fuses has
                                time_s 0) */
    int launch_bound;        /* 1: held at the kernel-launch floor (the
                                device waits on the host; memory_bound is
                                1 too) */
} jc_est_node;

/* The training step model (src/estimate/train_step.c, docs/energy-model.md
 * "Training step model"): a transformer's training job from its
 * architecture (--hf-config, or --params with --layers --hidden --heads
 * --seq), laid out on the devices, one optimizer step timed by mechanism
 * on one device.  Times are seconds per step, central scenario. */
typedef struct jc_train_part {
    const char *name;        /* "gemm", "attention", ... (stable, JSON key) */
    const char *what;        /* one line: what the time is */
    double s;                /* seconds per step, central */
} jc_train_part;

typedef struct jc_train_step {
    const char *arch;        /* the config's path, or "--params" */
    const char *model_type;  /* the config's model_type, or "dense" */
    double params_total, params_active;  /* parameters (active: per token) */
    double layers, hidden, heads, seq;
    double experts, top_k;   /* 0 for a dense model */
    /* the layout: every size, and why each was chosen ("--tp" when given) */
    double tp, pp, dp, cp, ep, zero, virtual_stages;
    double micro_batch_seqs, micro_batches;   /* per data-parallel rank and step */
    double global_batch_tokens, steps;
    /* a long-context stage (--long-seq --long-tokens): its sequence,
     * context-parallel and data-parallel sizes, steps and step time; 0
     * without one */
    double long_seq, long_cp, long_dp, long_steps, long_step_s;
    const char *why_recompute;   /* set when the layout turned full recompute on */
    const char *why_tp, *why_pp, *why_dp, *why_cp, *why_ep, *why_zero, *why_batch, *why_micro;
    double memory_gb;        /* per device: weights + gradients + optimizer + activations */
    double memory_cap_gb;    /* usable per device */
    size_t n_parts;
    const jc_train_part *parts;   /* the step's time by mechanism */
    double step_s;           /* their sum: one step's wall time */
    double model_flops_step; /* (1 + backward factor) x forward FLOPs of a step, all devices */
    jc_range mfu;            /* model_flops_step / (G x peak x step_s) */
    jc_range goodput;        /* share of device time in productive steps */
    jc_range utilization;    /* mfu x goodput: the job's utilisation */
} jc_train_step;

/* The result.  Ranges are low / central / high (see docs/energy-model.md
 * "Ranges": corner cases of every parameter that has a range). */
typedef struct jc_trace jc_trace;   /* a power trace ("Power traces" below) */

typedef struct jc_estimate {
    jc_mode mode;
    jc_method method;
    const char *precision;   /* jc_precision_name(prec) */
    const char *device_id, *device_name, *host_id, *region_code, *region_name;
    const char *host_class;  /* system class assumed without --host
                                ("desktop-workstation", "server-4", ...,
                                "none" for a CPU); NULL when a host, a
                                host power or no host term applies */
    const char *host_assumed;  /* the host in words, for every report's
                                first lines: "gcp:g2-standard-4 x 1 (the
                                provider's instance for ...)", "0.5 x
                                system class 'server-2' (a share: ...)",
                                "none (...)"; never NULL after a run */
    int host_given;          /* 1: the user named the host (--host) or
                                its power (--host-power); 0: assumed */
    const char *device_alias; /* the name the job gave for the device when
                                it is an alias, not the id ("v100" for
                                nvidia-v100-sxm2-32gb), else NULL */
    double devices, hosts;   /* hosts: servers / instances, or the share
                                of a system-class server (0.5) */
    /* What the estimate is of and what it used, as typed fields: consumers
     * (reports, sweep, statement, calibrate, diff) read these, never an
     * assumption by its key, and never the hardware database again. */
    jc_precision prec;
    const char *model_path;       /* the counted model ("<stdin>"), or NULL */
    uint64_t model_size_bytes;    /* its file size; 0 without a model */
    const char *model_sha256;     /* the whole file's SHA-256 (64 hex digits;
                                     --hash-weights); NULL when not recorded */
    const char *model_graph_sha256; /* the graph identity (jc_model.
                                     graph_sha256); NULL without a model */
    const char *hwdb_version;     /* jc_hwdb.data_version, or NULL */
    double batch;                 /* the batch counted at; NAN without a model */
    int lower_bound;              /* 1: the count was partial (allowed):
                                     every figure is a lower bound */
    const jc_device *device;      /* the device record (borrowed from the
                                     database, as every name here is) */
    const char *device_file;      /* the device's hwdb entry */
    int device_line;
    const jc_region *region;      /* the region record (borrowed from the
                                     database); NULL with --ci and no --region */
    const jc_region *region_country; /* the country the region lies in (the
                                     region itself for a country; its
                                     `country` entry otherwise), or NULL */
    jc_range utilization;         /* the MFU the time model used (--utilization,
                                     a calibrated or published figure); 0 when
                                     the runtime profile or a known runtime
                                     gives the time */
    jc_range pue;                 /* the PUE used */
    const char *pue_source;       /* "--pue" or hwdb file:line (citation) */
    jc_range ci;                  /* location-based gCO2e/kWh used */
    const char *ci_source;
    const char *ci_dataset_id;    /* the dataset the hwdb value is from;
                                     NULL with --ci */
    const char *ci_dataset_name, *ci_basis;
    int ci_year;                  /* the year of that value; 0 with --ci */
    double ci_region_default;     /* on a common basis (jc_job_ci_basis):
                                     the region's own default intensity
                                     when it differs from the value used
                                     (not used); else NAN */
    int ci_basis_fallback;        /* 1: the region has no value in the
                                     common basis, its own default is used
                                     (another basis than other regions) */
    /* work */
    double flops_per_pass;   /* forward, at the bound batch; 0 without model */
    double passes;           /* forward passes (inference) or steps (training) */
    double samples, tokens;  /* processed; 0 when unknown */
    double flops_total;      /* all work of the job */
    double bytes_total;
    /* results */
    jc_range wall_hours, device_hours;
    jc_range energy_device_kwh;   /* devices: idle floor + dynamic */
    jc_range energy_idle_kwh;     /* the devices' idle floor */
    jc_range energy_dynamic_kwh;  /* above idle: marginal */
    jc_range energy_host_kwh;
    jc_range energy_it_kwh;       /* device + host */
    jc_range energy_facility_kwh; /* IT x PUE: the total */
    jc_range co2_kg;              /* location-based operational */
    int has_market;
    jc_range co2_market_kg;
    int has_embodied;
    jc_range co2_embodied_kg;
    jc_range implied_utilization; /* flops_total / (G x peak x T) */
    jc_range avg_power_w;         /* per device, device energy / time */
    jc_range j_per_sample, j_per_token, samples_per_kwh; /* 0: n/a */
    size_t n_assumptions;  jc_assumption *assumptions;
    size_t n_warnings;     const char **warnings;
    size_t n_nodes;        jc_est_node *nodes;   /* with job.per_node */
    /* equivalences of the central emissions, each with its constant's
     * source (value = the equivalent amount; unit names it) */
    size_t n_equivalences; jc_assumption *equivalences;
    void *internal_;
    const char *host_absent;     /* why no host term is added (tdp method,
                                    --avg-power, a wall trace), else NULL */
    /* a measured run (job.measured): the trace's figures replaced the
     * model's for its scope; has_measured 0 otherwise */
    int has_measured;
    const jc_trace *trace;       /* the trace read; owned by the estimate */
    const char *measured_scope;  /* "device", "host", "device+host", "wall" */
    double measured_hours;       /* the duration used (the devices' active window) */
    double measured_kwh;         /* the measured energy used, IT side */
    /* the model's own prediction of the same job without the trace and
     * without a given runtime; NAN: not predictable (no work given) */
    double predicted_hours, predicted_device_kwh, predicted_it_kwh;
    /* training from an architecture: its layout, step and utilisation;
     * NULL otherwise (owned by the estimate) */
    const jc_train_step *train_step;
} jc_estimate;

/* A job file (YAML, docs/job-file.md): a mapping whose keys are the long
 * option names of `joulecast estimate` without the dashes.  Read into
 * key/value pairs in file order: a scalar gives one pair; a sequence
 * gives one pair per item (repeatable options such as hwdb); a mapping
 * gives one "K=V" pair per entry (dim: {batch: 8} -> dim "batch=8").
 * lines/cols locate each value, key_lines/key_cols its key, for error
 * messages.  Errors: JC_ERR_IO,
 * JC_ERR_USAGE (not a mapping, nested too deep; located). */
typedef struct jc_jobfile {
    const char *path;
    size_t n;
    const char **keys, **values;
    int *lines, *cols;           /* where each value is */
    int *key_lines, *key_cols;   /* where each pair's key is (an unknown key is named there) */
    void *internal_;
} jc_jobfile;
jc_status jc_jobfile_load(const char *path, jc_jobfile **out, jc_diag *diag);
void jc_jobfile_free(jc_jobfile *jf);

/* Estimates a job.  `an` is the analysis of the model at the job's batch
 * (NULL when the work is given by flops or params x tokens); db the
 * hardware database.  Every value used is recorded in the result's
 * assumptions.  Errors: JC_ERR_USAGE (contradictory or missing inputs:
 * no work, no device, zero devices, utilisation above 1, ...),
 * JC_ERR_NOTFOUND (unknown device, host or region, with suggestions),
 * JC_ERR_INCOMPLETE (the analysis is partial and the work cannot be
 * bounded), JC_ERR_NOMEM.  On success *out owns the result
 * (jc_estimate_free). */
jc_status jc_estimate_run(const jc_job *job, const jc_analysis *an,
                          const jc_hwdb *db, jc_estimate **out,
                          jc_diag *diag);

/* Releases an estimate.  NULL is a no-op. */
void jc_estimate_free(jc_estimate *e);

/* Parses a precision name ("bf16", case-insensitive) into *out; the one
 * name -> enum conversion (jc_precision_name is the other way).
 * JC_ERR_USAGE (and *out untouched) for an unknown name. */
jc_status jc_precision_parse(const char *s, jc_precision *out);
/* The precision a device runs at when none is given: the lowest of bf16,
 * fp16, fp32 with a published dense peak (fp32 when none has one). */
jc_precision jc_device_default_precision(const jc_device *dev);

/* Why a device cannot be estimated for a job (src/estimate/checks.c):
 * jc_estimate_run refuses exactly these cases, and sweep lists them. */
typedef enum jc_refusal {
    JC_REFUSAL_NONE = 0,          /* it can be estimated */
    JC_REFUSAL_PRECISION,         /* not one of fp32 tf32 bf16 fp16 fp8 int8 */
    JC_REFUSAL_NO_PEAK,           /* no published dense peak at the precision
                                     (and the time is modelled, or the
                                     joules-per-op method needs it) */
    JC_REFUSAL_NO_TDP,            /* no published TDP and no --avg-power */
    JC_REFUSAL_NO_PJ_PER_FLOP     /* joules-per-op without an energy per FLOP */
} jc_refusal;
/* "none", "no-peak", ...: static strings. */
const char *jc_refusal_name(jc_refusal r);
/* The refusal of `dev` for `job` at `precision` (NULL: job->precision,
 * else jc_device_default_precision); *used (may be NULL) receives the
 * precision the estimate runs at; buf (may be NULL) a short reason
 * ("no published dense peak at fp8"). */
jc_refusal jc_estimate_refusal(const jc_job *job, const jc_device *dev, const char *precision,
                               jc_precision *used, char *buf, size_t cap);

/* Writes the estimate as text; with per-node figures (job.per_node) the
 * table lists the JC_PER_NODE_TOP_DEFAULT nodes of most energy, then one
 * line for the rest.  Errors: JC_ERR_IO, JC_ERR_NOMEM. */
#define JC_PER_NODE_TOP_DEFAULT 10
jc_status jc_report_estimate_text(const jc_estimate *e, FILE *f);
/* The same with the per-node table cut at the `top` nodes of most
 * energy (0: every node), most energy first, ties in graph order; names
 * longer than 60 characters keep their start and end around "...". */
jc_status jc_report_estimate_text_top(const jc_estimate *e, FILE *f, int top);
/* As JSON (schema: docs/json-schemas.md "estimate"), released with
 * jc_free(); NULL on out-of-memory. */
char *jc_report_estimate_json(const jc_estimate *e);
/* As CSV: header line (when header) and one row. */
jc_status jc_report_estimate_csv(const jc_estimate *e, FILE *f, int header);

/* ------------------------------------------------------------------ */
/* Green-Algorithms mode (owner src/workflows/ga.c; docs/green-algorithms.md)     */
/* ------------------------------------------------------------------ */
/* `joulecast ga` reproduces the green-algorithms.org calculator
 * (Lannelongue, Grealey, Inouye 2021) for the same inputs, from the
 * calculator's own tables (hwdb `ga` entries, one per calculator version):
 *
 *   power_W  = PUE*n_cores*P_core*u_cpu + PUE*n_gpus*P_gpu*u_gpu
 *              + PUE*(mem_GB*memoryPower)
 *   E_kWh    = runtime_h * power_W * PSF / 1000
 *   C_g      = E_kWh * CI_g_per_kWh
 *
 * in the calculator's order of operations, then shows what that figure
 * leaves out and, when the hardware is in the database with TDP and idle
 * power, joulecast's own simple estimate of the same job beside it. */

/* Where the job ran; decides the PUE when none is given. */
typedef enum jc_ga_platform {
    JC_GA_PLATFORM_DEFAULT = 0, /* the calculator's default: local server */
    JC_GA_PERSONAL = 1,         /* personal computer: PUE 1 */
    JC_GA_LOCAL = 2,            /* local server: the "Unknown" PUE default */
    JC_GA_CLOUD = 3             /* cloud: data centre's PUE, else provider's */
} jc_ga_platform;
/* "default" / "personal" / "local" / "cloud": static strings. */
const char *jc_ga_platform_name(jc_ga_platform p);

/* The calculator's inputs.  Set defaults with jc_ga_input_init first.
 * Strings are borrowed for the duration of jc_ga_compute. */
typedef struct jc_ga_input {
    double runtime_h;        /* > 0 (see jc_ga_parse_runtime) */
    int n_cores;             /* CPU cores (not threads); 0: no CPU */
    const char *cpu_model;   /* the calculator's model name or a hwdb
                                device; NULL: "Any" (unless tdp given) */
    double tdp_per_core_w;   /* > 0: power per core, overrides cpu_model */
    double cpu_usage;        /* 0..1, default 1 */
    int n_gpus;              /* 0: no GPU */
    const char *gpu_model;   /* NULL: "Any" (unless gpu_tdp_w given) */
    double gpu_tdp_w;        /* > 0: power per GPU, overrides gpu_model */
    double gpu_usage;        /* 0..1, default 1 */
    double memory_gb;        /* memory requested, >= 0 */
    const char *region;      /* a location code of the calculator (CI
                                table), or a hwdb region/alias of one;
                                NULL: WORLD unless a data centre says */
    double ci;               /* >= 0: gCO2e/kWh given directly; < 0 unset */
    double pue;              /* >= 1: given PUE; < 0 unset */
    jc_ga_platform platform;
    const char *provider;    /* cloud: gcp, aws, azure, ... or "other" */
    const char *datacenter;  /* cloud: the data centre's name */
    double psf;              /* pragmatic scaling factor, >= 1, default 1 */
    const char *version;     /* "3.0", "2.2", ...; NULL: latest */
    unsigned given;          /* the keys jc_ga_input_set set (bit i: key i
                                of jc_ga_input_keys); 0 when filled by hand */
} jc_ga_input;

/* Fills *in with the calculator's defaults: usages 1, PSF 1, PUE and CI
 * unset, platform default, every count 0 and every string NULL. */
void jc_ga_input_init(jc_ga_input *in);

/* The inputs by key: the long option names of `joulecast ga` without the
 * dashes (runtime, cores, cpu, tdp-per-core, cpu-usage, gpus, gpu,
 * gpu-tdp, gpu-usage, memory, region, ci, pue, platform, provider,
 * datacenter, psf, ga-version), NULL-terminated; a static array. */
const char *const *jc_ga_input_keys(void);

/* Sets the field of `key` from its text (runtime as jc_ga_parse_runtime,
 * counts whole >= 0, numbers in the C locale, names borrowed: they must
 * outlive the input) and marks it given.  Ranges are checked by
 * jc_ga_compute.  Errors: JC_ERR_NOTFOUND (no such key), JC_ERR_USAGE (a
 * value of the wrong form, named). */
jc_status jc_ga_input_set(jc_ga_input *in, const char *key, const char *value, jc_diag *diag);

/* The rules between inputs, checked by jc_ga_compute: something to
 * compute (cores or GPUs), and no input without effect (a CPU model,
 * power or usage without cores, the same for GPUs, --region with --ci).
 * JC_ERR_USAGE naming the input. */
jc_status jc_ga_input_check(const jc_ga_input *in, jc_diag *diag);

/* One constant the result used, with its provenance. */
typedef struct jc_ga_used {
    const char *what;        /* "PUE", "memoryPower", "treeYear", ... */
    double value;
    const char *unit;        /* "W/GB", "gCO2e/kWh", "" ... */
    const char *from;        /* how it was chosen ("data centre gcp
                                europe-west1", "given with --pue", ...) */
    const char *source;      /* citation and/or URL; NULL when given */
} jc_ga_used;

/* One device of joulecast's comparison estimate. */
typedef struct jc_ga_own_part {
    const char *device_id;   /* hwdb device id */
    const char *role;        /* "cpu" / "gpu" */
    double count;            /* sockets or cards */
    double idle_w, tdp_w, usage;
    double share;            /* the share of the dynamic range in use:
                                CPU cores used / cores per socket (4 of
                                20: 0.2), GPUs: count */
    double cores_used, cores_per_socket;  /* CPU; 0 for a GPU */
    double power_w;          /* count x idle + (tdp - idle) x share x
                                usage (CPU: idle of whole sockets,
                                dynamic per core used), before PUE */
    const char *idle_source, *tdp_source;
} jc_ga_own_part;

/* The result.  Energies in Wh, carbon in gCO2e, powers in W (powers
 * include PUE, as the calculator's "power needed" does). */
typedef struct jc_ga_result {
    const char *version;               /* the calculator version used */
    double runtime_h;
    int n_cores, n_gpus;
    const char *cpu_model, *gpu_model; /* the calculator's row, or NULL
                                          when power was given */
    double cpu_w_per_core, gpu_w, cpu_usage, gpu_usage;
    double memory_gb, memory_w_per_gb;
    double pue, psf, ci;
    const char *location;              /* CI table code, NULL with --ci */
    jc_ga_platform platform;
    const char *provider, *datacenter; /* as resolved, or NULL */
    double power_cpu_w, power_gpu_w, power_memory_w, power_w;
    double energy_cpu_wh, energy_gpu_wh, energy_memory_wh, energy_wh;
    double carbon_cpu_g, carbon_gpu_g, carbon_memory_g, carbon_g;
    /* Equivalences (the calculator's): carbon / constant. */
    double tree_months;                /* carbon / treeYear * 12 */
    double car_km_eu, car_km_us, train_km;
    const char *flight_label;          /* "Paris-London" (v3.0:
                                          "Paris-Dublin"), "NYC-San
                                          Francisco" or "NYC-Melbourne" */
    double flight_fraction;            /* carbon / that flight's gCO2e */
    size_t n_used;     jc_ga_used *used;
    size_t n_warnings; const char **warnings;
    size_t n_notes;    const char **notes;  /* what the figure leaves out */
    /* joulecast's own estimate of the same job, for comparison (has_own
     * = 0 when a device is not in the hwdb with both TDP and idle power;
     * own_reason says which). */
    int has_own;
    const char *own_reason;
    size_t n_own_parts; jc_ga_own_part *own_parts;
    double own_power_w;                /* devices + memory, times PUE */
    double own_energy_wh, own_carbon_g;
    void *internal_;
} jc_ga_result;

/* Computes the calculator's figure for `in` with the tables of the
 * calculator version in->version from `db` (jc_hwdb_ga), resolving model
 * names, region, data centre and PUE as the calculator does.  On success
 * *out owns the result (jc_ga_result_free).  Errors (diag says which
 * input and, for unknown names, suggests the closest): JC_ERR_USAGE (bad
 * value: runtime <= 0, usage outside 0..1, PUE < 1, PSF < 1, nothing to
 * compute, conflicting options), JC_ERR_NOTFOUND (unknown version, CPU,
 * GPU, region, provider or data centre), JC_ERR_HWDB (a table lacks a
 * constant the formula needs), JC_ERR_NOMEM.  On failure *out is NULL. */
jc_status jc_ga_compute(const jc_hwdb *db, const jc_ga_input *in,
                        jc_ga_result **out, jc_diag *diag);

/* The same with the tables given directly (in->version is ignored); db
 * may be NULL (then model names are only matched against the tables, and
 * there is no thread warning and no comparison estimate). */
jc_status jc_ga_compute_tables(const jc_ga_version *tables,
                               const jc_hwdb *db, const jc_ga_input *in,
                               jc_ga_result **out, jc_diag *diag);

/* Releases a result.  NULL is a no-op. */
void jc_ga_result_free(jc_ga_result *r);

/* Parses a duration into hours: "90m", "1.5h", "12h30m", "2d", "1d6h",
 * "45s", or a plain number of hours ("2.5").  Units d/h/m/s, each at most
 * once, in that order, each with a non-negative decimal number.
 * JC_ERR_USAGE (and *hours untouched) on a negative, empty, malformed or
 * non-finite value. */
jc_status jc_ga_parse_runtime(const char *s, double *hours, jc_diag *diag);

/* Writes the `ga` report as text (C locale): energy, carbon, split,
 * constants with sources, equivalences, warnings, notes, comparison.
 * JC_ERR_IO if writing failed. */
jc_status jc_report_ga_text(const jc_ga_result *r, FILE *f);
/* The same as a JSON document (docs/green-algorithms.md), released with
 * jc_free(); NULL on out-of-memory. */
char *jc_report_ga_json(const jc_ga_result *r);

/* ------------------------------------------------------------------ */
/* Reports (owner src/report/)                                          */
/* ------------------------------------------------------------------ */

/* Writes the `inspect` view of a model as text to `f`.  Never fails on a
 * loaded model except for I/O; returns JC_ERR_IO if writing failed. */
jc_status jc_report_inspect_text(const jc_model *m, FILE *f);

/* Returns the `inspect` view as a JSON document (schema in
 * docs/json-schemas.md), released with jc_free().
 * NULL on out-of-memory. */
char *jc_report_inspect_json(const jc_model *m);

/* ------------------------------------------------------------------ */
/* Workflows: paper statement, CodeCarbon row, budget gate, diff,      */
/* calibration (owners src/report/statement.c, src/report/codecarbon.c, */
/* src/workflows/budget.c, src/workflows/diff.c (the diff's reading)  */
/* and src/report/estimate_read.c (its text and JSON),                */
/* src/workflows/calibrate.c; the measurement CSV src/trace/measurements.c) */
/* ------------------------------------------------------------------ */

/* Formats of `joulecast statement`. */
typedef enum jc_statement_format {
    JC_STMT_MARKDOWN = 0,  /* a paragraph with numbered footnotes */
    JC_STMT_LATEX = 1,     /* the same paragraph with \footnote{...} */
    JC_STMT_HF = 2         /* the Hugging Face model-card co2_eq_emissions block */
} jc_statement_format;

/* Parses statement's "format" option (src/workflows/cmd_opts.c), the one parse of --format
 * and the binding's key: markdown (md), latex (tex), hf, or all; *mask
 * receives 1 << each jc_statement_format named.  JC_ERR_USAGE ("format
 * expects markdown, latex, hf or all, got 'x'") otherwise. */
jc_status jc_statement_formats_parse(const char *s, unsigned *mask, jc_diag *diag);

/* What the statement says besides the estimate.  Every pointer is
 * borrowed for the call; NULL means "not given". */
typedef struct jc_statement_opts {
    const jc_hwdb *db;          /* the database the estimate used: gives the grid
                                   dataset's name and year (NULL: taken from the
                                   assumption's label only) */
    const char *reproduce;      /* command line or job file that reproduces it */
    const char *model;          /* the model file, or NULL */
    const char *training_type;  /* HF: "pre-training" (default) or "fine-tuning" */
    const char *location;       /* HF geographical_location; NULL: region name (code) */
} jc_statement_opts;

/* Writes a ready-to-paste carbon statement of an estimate: hardware and
 * device count, wall hours, facility energy (with its range), PUE, grid
 * intensity with dataset and year, location-based emissions with range,
 * method and joulecast version, and what reproduces it.  Every figure
 * carries its source (a footnote in Markdown and LaTeX; the HF block's
 * `source` names joulecast and the method).  C locale, deterministic.
 * Errors: JC_ERR_USAGE (NULL argument; JC_STMT_HF for an inference
 * estimate: the model-card block describes training; o->training_type or
 * o->location, the HF block's own fields, with another format; an empty
 * o->location), JC_ERR_IO (write failed). */
jc_status jc_report_statement(const jc_estimate *e, const jc_statement_opts *o,
                              jc_statement_format fmt, FILE *f, jc_diag *diag);

/* Extra columns of a CodeCarbon row (borrowed; NULL: empty/default). */
typedef struct jc_codecarbon_opts {
    const char *timestamp;      /* "YYYY-MM-DDTHH:MM:SS" (CodeCarbon's format) */
    const char *project_name;   /* NULL: "joulecast-prediction" */
    const char *run_id;
} jc_codecarbon_opts;

/* Writes the estimate as one row of CodeCarbon's emissions.csv schema
 * (31 columns, as written by codecarbon 2.4; header line first when
 * `header`).  Predicted columns: duration (s), emissions (kg),
 * emissions_rate, gpu_power/cpu_power (W, averages), gpu_energy/cpu_energy
 * (kWh, times PUE as CodeCarbon does), energy_consumed (facility kWh),
 * pue.  The host term of joulecast (CPUs, DRAM, fans, NICs) goes into the
 * cpu_* columns; ram_*, os, python_version, codecarbon_version, longitude,
 * latitude, ram_total_size stay empty (README "CodeCarbon format").
 * The country, its ISO alpha-3 code, the sub-national region and the
 * cloud provider come from e->region and e->region_country.
 * JC_ERR_IO if writing failed. */
jc_status jc_report_estimate_codecarbon(const jc_estimate *e,
                                        const jc_codecarbon_opts *o,
                                        FILE *f, int header);

/* An energy / emissions budget.  NAN: no budget on that quantity. */
typedef struct jc_budget {
    double max_kwh;        /* facility energy, kWh */
    double max_kgco2e;     /* location-based operational emissions, kg */
    int on_high;           /* 1: test the high end of the range, 0: central */
} jc_budget;

/* Checks an estimate against a budget.  JC_OK when within it;
 * JC_ERR_BUDGET when exceeded, with diag->msg naming every budget
 * exceeded, the figure, the limit and the excess (absolute and %);
 * JC_ERR_USAGE for a negative or non-finite limit. */
jc_status jc_budget_check(const jc_estimate *e, const jc_budget *b, jc_diag *diag);

/* The figures of an estimate read back from its JSON output (schema
 * joulecast-estimate/1).  Strings are copied (truncated to the buffer). */
#define JC_SUMMARY_METRICS 9
typedef struct jc_estimate_summary {
    char path[512];
    char mode[16], method[16], precision[16], device[128], host[128], region[128];
    char model[512];          /* model.path; "" without a model */
    char model_sha256[65];    /* model.sha256; "" when not recorded */
    char model_graph_sha256[65]; /* model.graph_sha256; "" when not recorded */
    char hwdb_version[64];    /* hwdb_version; "" when not recorded */
    char figures[16];         /* "estimate" or "lower bound" ("" in files
                                 written before the key existed) */
    double devices;
    /* metrics in a fixed order: wall_hours, device_hours,
     * energy_device_kwh, energy_host_kwh, energy_facility_kwh,
     * co2_location_kg, co2_market_kg, co2_embodied_kg, j_per_sample */
    int present[JC_SUMMARY_METRICS];      /* 0: null or absent in the file */
    jc_range metric[JC_SUMMARY_METRICS];
} jc_estimate_summary;

/* Key, label and unit of summary metric i (static strings, NULL when i is
 * out of range). */
const char *jc_summary_metric_key(int i);
const char *jc_summary_metric_label(int i);
const char *jc_summary_metric_unit(int i);

/* Reads an `estimate --json` file into *out.  Errors: JC_ERR_IO (cannot
 * read), JC_ERR_USAGE (not JSON, not schema joulecast-estimate/1, a
 * required figure missing or not a {low, central, high} object: the
 * message names the file and the key), JC_ERR_NOMEM. */
jc_status jc_read_estimate_json(const char *path, jc_estimate_summary *out,
                                jc_diag *diag);

/* One line of a diff. */
typedef struct jc_diff_row {
    const char *key, *label, *unit;
    int present_old, present_new;
    double old_v, new_v;       /* central (or high with on_high) */
    double change;             /* (new - old) / old; NAN when old is 0 or absent */
    int gated;                 /* counted by the gate (energy, emissions) */
    int exceeded;              /* gated and change > max_increase */
} jc_diff_row;

/* The comparison of two estimates. */
typedef struct jc_diff {
    const jc_estimate_summary *old_e, *new_e;   /* borrowed */
    double max_increase;       /* fraction (0.2 = 20%); NAN: no gate */
    int on_high;
    size_t n;
    jc_diff_row rows[JC_SUMMARY_METRICS];
    int exceeded;              /* any gated row exceeded */
    size_t n_changes;          /* settings that differ (device, region, ...) */
    char changes[12][300];
} jc_diff;

/* Compares two estimates metric by metric.  The gate covers facility
 * energy and location-based emissions.  Returns JC_OK (no gate, or within
 * it), JC_ERR_BUDGET (a gated figure rose by more than max_increase; the
 * table is filled all the same), JC_ERR_USAGE (NULL argument, negative
 * max_increase). */
jc_status jc_estimate_diff(const jc_estimate_summary *old_e,
                           const jc_estimate_summary *new_e,
                           double max_increase, int on_high, jc_diff *out,
                           jc_diag *diag);
/* Writes the diff as a text table / as JSON (docs/json-schemas.md "diff",
 * released with jc_free(), NULL on out-of-memory).  JC_ERR_IO if writing failed. */
jc_status jc_report_diff_text(const jc_diff *df, FILE *f);
char *jc_report_diff_json(const jc_diff *df);

/* One measured run (a row of a measurement file).  Numbers are NAN when
 * the file does not give them; strings are "" when absent. */
typedef struct jc_measurement {
    int line;                  /* 1-based line in the file */
    char date[11];             /* YYYY-MM-DD of the run, or "" */
    double duration_s;         /* wall-clock seconds */
    double device_kwh;         /* accelerators' energy, IT side (no PUE) */
    double cpu_kwh, ram_kwh;   /* CodeCarbon cpu/ram energy, IT side */
    double total_kwh;          /* everything measured, IT side */
    double pue;                /* the PUE the tool applied (CodeCarbon), else NAN */
    double avg_power_w;        /* average power per device (simple CSV) */
    double devices;            /* device count */
    char device[160];          /* device name as written ("N x " removed) */
    char job[512], model[512]; /* simple CSV: job file / model (as written) */
} jc_measurement;

/* A measurement file. */
typedef struct jc_measurements {
    const char *path;
    const char *format;        /* "codecarbon" or "simple"; a trace's
                                  format name (jc_trace_format_name) when
                                  built by jc_trace_measurements */
    const char *detail;        /* NULL, or (a trace) what the override file
                                  names instead of "line N": format, time
                                  window and samples */
    size_t n;
    jc_measurement *rows;      /* in file order */
    void *internal_;
} jc_measurements;

/* Reads a measurement CSV: CodeCarbon's emissions.csv (any version whose
 * header has `duration` and `energy_consumed`; every energy column is
 * divided by the row's `pue`, which CodeCarbon multiplies in) or the simple
 * form with a header of some of job, model, device, count, hours,
 * device_kwh, avg_watts, date (device_kwh, or avg_watts with hours, gives
 * the energy).  RFC 4180 quoting.  Errors name file:line: JC_ERR_IO,
 * JC_ERR_USAGE (unknown header, a malformed number, no data row),
 * JC_ERR_NOMEM.  On success *out owns everything (jc_measurements_free). */
jc_status jc_measurements_load(const char *path, jc_measurements **out,
                               jc_diag *diag);
void jc_measurements_free(jc_measurements *m);

/* A prediction set beside a measurement. */
typedef struct jc_calib_check {
    double hours;              /* predicted wall hours (roofline, central) */
    double device_kwh;         /* predicted device energy, roofline */
    double device_kwh_jpo;     /* the same, joules-per-op method; NAN when
                                  the device has no energy per FLOP */
    double err_hours, err_kwh, err_kwh_jpo;  /* (pred - meas) / meas; NAN: n/a */
} jc_calib_check;

/* The device power model fitted to a power trace's samples (calibrate
 * TRACE; docs/traces.md "Power fit"): power against utilisation by least
 * squares, P = idle + (TDP - idle)(1 - exp(-(k_c u + k_m um))) with u, um
 * the trace's utilisation columns (nvidia-smi utilization.gpu / .memory,
 * dcgmi GPUTL / DRAMA or MCPY), TDP the database's, the idle power the mean
 * of the samples at 0 % utilisation; the coefficients are then put on the
 * model's scale (u_c = achieved FLOP/s / peak, u_m = bytes/s / bandwidth)
 * by matching the exponent at the run's mean operating point. */
typedef struct jc_power_fit {
    int attempted;            /* the measurement was a trace of the devices */
    int fitted;               /* k_c fitted (and written) */
    size_t samples, idle_samples, mem_samples;  /* with a utilisation; at 0 %; with um */
    double tdp_w;             /* the database's TDP used as the ceiling, W */
    int fit_idle;
    double idle_before, idle_after;     /* W per device */
    int fit_km;
    double kc_trace, km_trace;          /* on the trace's utilisation scale */
    double kc_trace_se, km_trace_se;    /* their standard errors (linearised) */
    double kc_before, kc_after;         /* on the model's scale (hwdb ids below) */
    double km_before, km_after;         /* km_after = km_before when not fitted */
    double u_mean, um_mean;             /* the trace's mean utilisations over the active window */
    double uc_run, um_run;              /* the run's FLOP/s / peak, bytes/s / bandwidth over it */
    double rms_w, rms_before_w;         /* fit residual (RMS of sample - model, W): fitted, database's */
    const char *kc_id, *km_id;          /* "power_k_compute_gpu", ... (static) */
    char note[300];           /* why nothing was fitted ("" when fitted) */
    char idle_note[200];      /* why the idle power was not fitted */
    char km_note[300];        /* why k_m was not fitted */
    const char *pj_byte_note; /* why the energy per byte is not fitted (static; set
                                 whenever attempted) */
    char detail[400];         /* trace, format, window, samples and residual (the layer's measured:) */
} jc_power_fit;

/* The result of a calibration. */
typedef struct jc_calibration {
    char device_id[128];
    jc_mode mode;
    jc_precision precision;
    double devices;
    double meas_hours, meas_device_kwh;   /* NAN when not measured */
    int fit_util;                         /* utilisation fitted */
    double util_before, util_after;       /* util_before: hwdb central; NAN when
                                             the hwdb has none (a graph: the runtime
                                             profile sets it; n/a, null in JSON) */
    double util_low, util_high;           /* the range written: the hwdb's
                                             relative spread around util_after,
                                             capped at 1 */
    char util_from[16];                   /* "duration" or "energy" */
    int fit_pj;                           /* energy per FLOP fitted */
    double pj_before, pj_after;           /* pJ/FLOP at `precision` */
    char pj_note[300];                    /* why energy per FLOP was not fitted */
    jc_calib_check before;                /* with the database as loaded */
    jc_power_fit power;                   /* a trace's power fit (jc_calibrate_run) */
} jc_calibration;

/* Fits the effective utilisation (MFU) of the job's device and mode to a
 * measured run: from its duration when measured (the roofline's wall time
 * is matched), else from its device energy (the roofline's device energy
 * is matched).  With both duration and device energy, also fits the
 * device's energy per FLOP at the job's precision (the joules-per-op
 * method's device energy is matched at the fitted utilisation).  `job`
 * describes the measured run (model analysis `an`, or --flops etc.); its
 * utilisation must not be given.  Errors: JC_ERR_USAGE (nothing to fit
 * from, --utilization given), JC_ERR_RANGE (no utilisation in (0, 1]
 * reproduces the measurement: the message says which way), and every
 * error of jc_estimate_run. */
jc_status jc_calibrate(const jc_job *job, const jc_analysis *an,
                       const jc_hwdb *db, const jc_measurement *m,
                       jc_calibration *out, jc_diag *diag);

/* Predicts the measured run with `db` (for the before/after table). */
jc_status jc_calibrate_check(const jc_job *job, const jc_analysis *an,
                             const jc_hwdb *db, const jc_measurement *m,
                             jc_calib_check *out, jc_diag *diag);

/* Writes the fitted values as an hwdb override layer (schema
 * joulecast-hwdb/1): the device entry with utilization.<mode> and
 * energy.pj_per_flop.<precision>, each `measured:` with the measurement
 * file, its row and the date; the source's date is the run's date, else
 * `date` (YYYY-MM-DD).  JC_ERR_USAGE without a date; JC_ERR_IO if writing
 * failed. */
/* Writes a trace's fitted power coefficients (c->power, fitted) as a
 * layer of constants (power_k_compute_*, power_k_memory_* when fitted),
 * each `measured:` with the trace, format, window, samples and residual.
 * JC_ERR_USAGE when nothing was fitted or without a date; JC_ERR_IO if
 * writing failed. */
jc_status jc_calibration_write_power_yaml(const jc_calibration *c, const char *date, FILE *f,
                                          jc_diag *diag);

jc_status jc_calibration_write_yaml(const jc_calibration *c,
                                    const jc_measurements *ms,
                                    const jc_measurement *m,
                                    const char *date, FILE *f, jc_diag *diag);

/* ------------------------------------------------------------------ */
/* Power traces (owner src/trace/: trace.c, trace_formats.c)           */
/* ------------------------------------------------------------------ */
/* Measured runs from the meters people already use, read as a stream
 * (memory does not grow with the trace) and integrated per channel
 * (one GPU, the CPU package, the host, a wall meter): trapezoid energy,
 * gaps above a threshold reported and not bridged, duration, average and
 * peak power, average utilisation, leading/trailing idle phases and the
 * marginal (above-idle) energy.  docs/traces.md describes every format. */

typedef enum jc_trace_format {
    JC_TRACE_AUTO = 0,        /* detected from the first lines */
    JC_TRACE_NVIDIA_SMI,      /* nvidia-smi --query-gpu=... --format=csv[,nounits] */
    JC_TRACE_DCGMI,           /* dcgmi dmon (entity id, POWER, GPUTL, ...) */
    JC_TRACE_CODECARBON,      /* CodeCarbon emissions.csv (run totals) */
    JC_TRACE_CARBONTRACKER,   /* Carbontracker log lines (per-epoch averages) */
    JC_TRACE_POWERJOULAR,     /* PowerJoular CSV */
    JC_TRACE_SCAPHANDRE,      /* Scaphandre JSON exporter (microwatts) */
    JC_TRACE_WATTS,           /* plain timestamp,watts CSV (plug, IPMI, Redfish) */
    JC_TRACE_FORMAT_COUNT
} jc_trace_format;

/* What a channel measured: the accelerators, the host (CPUs, DRAM, ...
 * without the accelerators) or the whole server at the wall. */
typedef enum jc_trace_scope {
    JC_TRACE_DEVICE = 0, JC_TRACE_HOST = 1, JC_TRACE_WALL = 2, JC_TRACE_SCOPE_COUNT = 3
} jc_trace_scope;

/* "nvidia-smi", "dcgmi", "codecarbon", "carbontracker", "powerjoular",
 * "scaphandre", "watts" ("auto" for JC_TRACE_AUTO) / "device", "host",
 * "wall".  Static strings. */
const char *jc_trace_format_name(jc_trace_format f);
const char *jc_trace_scope_name(jc_trace_scope s);
/* Name -> value; JC_ERR_USAGE (listing the names) for an unknown name. */
jc_status jc_trace_format_parse(const char *name, jc_trace_format *f, jc_diag *diag);
jc_status jc_trace_scope_parse(const char *name, jc_trace_scope *s, jc_diag *diag);

typedef struct jc_trace_opts {
    jc_trace_format format;   /* JC_TRACE_AUTO: from the header */
    int scope;                /* a jc_trace_scope for the plain watts CSV
                                 (required there); -1: not given */
    double gap_s;             /* an interval longer than this is a gap; NAN:
                                 5 x the channel's median interval */
    double idle_w;            /* a sample at or below is idle; NAN: by
                                 utilisation when logged (0 %), else the
                                 lowest 10% of the channel's power span */
    double interval_s;        /* dcgmi dmon's sampling delay; NAN: 1 s (its default) */
    size_t row;               /* codecarbon: the data row, 1 = first; 0: the last */
    size_t chart_points;      /* points kept per channel for a chart; 0: 512 */
} jc_trace_opts;

/* Defaults: auto format, scope not given, NAN thresholds, last row. */
void jc_trace_opts_init(jc_trace_opts *o);

/* The trace options of a job (keys trace-format, scope, gap, idle-w,
 * interval: one path for trace, calibrate and estimate --measured) on top
 * of o (initialised by the caller); *given (may be NULL) is set to 1 when
 * the job gives any of them.  Errors (JC_ERR_USAGE, message naming the
 * option): an unknown format or scope name, gap, idle-w or interval not a
 * number > 0. */
jc_status jc_trace_opts_from_job(const jc_job *job, jc_trace_opts *o, int *given, jc_diag *diag);
/* Clears those keys of job (calibrate: read once, so the estimates of the
 * fit see no trace option). */
void jc_trace_job_clear(jc_job *job);

/* One chart point: seconds since the trace's start, the channel's average
 * power over the point's time bucket (NAN: a gap). */
typedef struct jc_trace_point { double t, w; } jc_trace_point;

typedef struct jc_trace_channel {
    char name[160];           /* "GPU 0 NVIDIA A100-SXM4-40GB", "CPU", "host", "wall" */
    int index;                /* device index, or -1 */
    jc_trace_scope scope;
    size_t samples;           /* samples integrated */
    size_t repeated;          /* samples at an already seen timestamp */
    size_t n_gaps;            /* intervals above the gap threshold (not bridged) */
    double gap_threshold_s, gap_s;   /* the threshold used; time in gaps */
    double t_first, t_last;   /* seconds since the trace's start */
    double covered_s;         /* time integrated (span minus gaps) */
    double energy_j;          /* trapezoid over the covered intervals */
    double avg_w, peak_w, min_w;
    double avg_util;          /* time-weighted, 0..1; NAN when not logged */
    int idle_found;           /* an idle phase at the start or the end */
    const char *idle_rule;    /* how idle samples were told apart (static) */
    double idle_w;            /* mean power in the idle phases; NAN: none */
    double lead_idle_s, trail_idle_s, idle_energy_j;
    int idle_capped;          /* an idle phase longer than the samples kept
                                 to find it (4096): its length is a lower bound */
    double marginal_j;        /* energy_j - idle_w x covered_s; NAN: no idle phase */
    jc_trace_point *chart;    /* n_chart points, time order; NULL: no series */
    size_t n_chart;
} jc_trace_channel;

typedef struct jc_trace_issue { int line; char msg[200]; } jc_trace_issue;
#define JC_TRACE_MAX_ISSUES 20

struct jc_trace {
    const char *path;
    jc_trace_format format;
    const char *format_label;        /* "nvidia-smi --query-gpu CSV", ... */
    size_t rows;                     /* data rows read */
    size_t n_bad;                    /* rows that could not be read (none used) */
    jc_trace_issue bad[JC_TRACE_MAX_ISSUES];   /* the first of them, by line */
    size_t n_notes;
    const char *notes[8];            /* assumptions the reader made (static or owned) */
    size_t n_gaps;                   /* gaps over every channel */
    jc_trace_issue gaps[JC_TRACE_MAX_ISSUES];  /* the first of them */
    double epoch_start;              /* the first timestamp, s since 1970 (UTC
                                        assumed without an offset); NAN: relative */
    char start[32], end[32];         /* ISO 8601 of the window, or "" */
    double duration_s;               /* first to last sample over all channels */
    size_t n_channels;
    jc_trace_channel *channels;
    size_t n_devices;                /* channels of scope device */
    char device_name[160];           /* the devices' model as the trace names it, or "" */
    /* in all, per scope (index jc_trace_scope); 0 with no channel there */
    double energy_j[JC_TRACE_SCOPE_COUNT];
    double marginal_j[JC_TRACE_SCOPE_COUNT];   /* NAN when a channel has no idle phase */
    int has_scope[JC_TRACE_SCOPE_COUNT];
    double device_avg_w;             /* device energy / duration (all devices) */
    double device_peak_w;            /* peak of the sum of the devices' latest samples */
    double device_avg_util;          /* mean over devices; NAN when not logged */
    /* the active window: the span without the idle phases every channel
     * of the scope shares at the start and the end (= duration_s and
     * energy_j when none is found) */
    double active_s[JC_TRACE_SCOPE_COUNT];
    double active_energy_j[JC_TRACE_SCOPE_COUNT];
    void *internal_;
};

/* The format of the file at `path` as detected from its first lines
 * (JC_TRACE_AUTO when none matches, e.g. the simple measurement CSV).
 * JC_ERR_IO when it cannot be read. */
jc_status jc_trace_detect(const char *path, jc_trace_format *f, jc_diag *diag);

/* Reads and integrates the trace at `path` (o NULL: defaults).  Rows that
 * cannot be read are skipped and listed by line (n_bad counts them all);
 * more bad rows than good ones, no usable sample, or an unknown header is
 * an error.  Errors name file:line: JC_ERR_IO, JC_ERR_USAGE (format,
 * malformed file, --scope missing for a plain CSV), JC_ERR_NOMEM.  On
 * success *out owns everything (jc_trace_free). */
jc_status jc_trace_load(const char *path, const jc_trace_opts *o, jc_trace **out,
                        jc_diag *diag);
void jc_trace_free(jc_trace *t);

/* The trace as one measured run for calibrate: the device scope's active
 * window (duration and energy without the shared idle ends; IT side, no
 * PUE), host energy, device count, device name and date; ms->detail names
 * the format, window and samples.  ms borrows
 * from t (keep t alive; do not call jc_measurements_free on ms). */
void jc_trace_measurements(const jc_trace *t, jc_measurements *ms, jc_measurement *row);

/* Writes the trace summary as text / as JSON (schema joulecast-trace/1,
 * malloc'ed, NULL on out-of-memory).  JC_ERR_IO if writing failed. */
jc_status jc_report_trace_text(const jc_trace *t, FILE *f);
char *jc_report_trace_json(const jc_trace *t);

/* ------------------------------------------------------------------ */
/* The calibrate flow (owner src/workflows/calibrate_run.c)            */
/* ------------------------------------------------------------------ */
/* What `joulecast calibrate` and jc_run_calibrate_json share: the
 * measurement source and its row, the row's device, then the fit, the
 * override layer written, loaded back and checked.  Front ends parse
 * options (and apply the row's job file, job_path, beneath their own)
 * and render a jc_calib_result (jc_report_calibrate_json). */

/* A calibration's measurement: the file read and the row chosen. */
typedef struct jc_calib_source {
    const char *path;               /* the measurement file (borrowed) */
    const jc_measurements *ms;      /* its rows */
    const jc_measurement *row;      /* the row chosen */
    const jc_trace *trace;          /* the power trace, or NULL for a CSV */
    char job_path[1024];            /* the row's job file beside the file; "" */
    char model_path[1024];          /* the row's model beside the file; "" */
    void *internal_;
} jc_calib_source;

/* Reads `path`: a power trace (format detected unless topts names one;
 * integrated with topts, NULL: defaults), which must measure the devices,
 * or a measurement CSV (jc_measurements_load); trace_opt says a trace
 * option was given (an error for a CSV: it would have no effect).  row is
 * the 1-based data row, NAN: the last.  *usage is set to 1 when the
 * failure is a misuse of the options (the CLI adds its usage hint), else
 * 0.  Errors: JC_ERR_USAGE, and those of jc_trace_detect/jc_trace_load/
 * jc_measurements_load.  On success *out owns everything
 * (jc_calib_source_free); path must outlive it. */
jc_status jc_calib_source_open(const char *path, const jc_trace_opts *topts, int trace_opt,
                               double row, jc_calib_source **out, int *usage, jc_diag *diag);
void jc_calib_source_free(jc_calib_source *s);

/* The device the row names (for a job that names no device or host),
 * checked against db; *device borrows from s.  Errors: JC_ERR_USAGE with
 * *usage = 1 (the row names none), the status of jc_hwdb_hardware (not
 * in db; the message names file:line). */
jc_status jc_calib_source_device(const jc_calib_source *s, const jc_hwdb *db, const char **device,
                                 int *usage, jc_diag *diag);

/* Opens the database with the written layers[0..n) on top of the
 * caller's layers (the CLI's cli_hwdb_open, the binding's hwdb keys):
 * the override layer, then the power layer when a trace's power fit
 * wrote one. */
typedef jc_status (*jc_calib_reopen_fn)(void *ctx, const char *const *layers, size_t n,
                                        jc_hwdb **db, jc_diag *diag);

/* The result of jc_calibrate_run. */
typedef struct jc_calib_result {
    const jc_calib_source *src;     /* borrowed */
    jc_calibration cal;             /* the fit, and the check before */
    jc_calib_check after;           /* the check with the written layer */
    char out_path[1024];            /* the layer written */
    char power_path[1024];          /* the power fit's constants layer written
                                       beside it (OUT.power.yaml: a layer file
                                       holds one kind of entry), or "" */
    char date[16];                  /* the date given, else today (UTC;
                                       SOURCE_DATE_EPOCH when set) */
} jc_calib_result;

/* jc_calibrate of src's row for `job` (model analysis an, database db);
 * for a trace, the device power fit too (res->cal.power; the energy per
 * FLOP solved again with the fitted idle power); the layer written to
 * out_path (jc_calibration_write_yaml, date NULL: today) and, when the
 * power fit gave coefficients, the power layer to res->power_path
 * (jc_calibration_write_power_yaml), reopened through reopen(ctx, layers,
 * n, ...) and the measured run predicted with them (jc_calibrate_check).  Errors: those of
 * jc_calibrate, JC_ERR_IO (out_path cannot be written; message names
 * it), those of reopen and jc_calibrate_check. */
jc_status jc_calibrate_run(const jc_job *job, const jc_analysis *an, const jc_hwdb *db,
                           const jc_calib_source *src, const char *out_path, const char *date,
                           jc_calib_reopen_fn reopen, void *ctx, jc_calib_result *res,
                           jc_diag *diag);

/* The result as JSON (schema joulecast-calibrate/1, docs/json-schemas.md;
 * unknown figures null), malloc'ed (jc_free), NULL on out-of-memory. */
char *jc_report_calibrate_json(const jc_calib_result *r);

/* calibrate's own options (src/workflows/calibrate_run.c), parsed once
 * for the CLI, job files and the binding: the measurement file, the layer
 * to write, the data row (NAN: the last), the date when the file has none.
 * Strings are borrowed. */
typedef struct jc_calibrate_opts {
    const char *measurements, *out, *date;
    double row;
} jc_calibrate_opts;

/* Nothing given (row NAN). */
void jc_calibrate_opts_init(jc_calibrate_opts *o);
/* Sets "measurements", "out", "date" (each a non-empty value) or "row" (a
 * whole number >= 1) from its text; the message starts with the key, the
 * caller says where it came from.  JC_ERR_NOTFOUND for another key,
 * JC_ERR_USAGE for a bad value. */
jc_status jc_calibrate_opts_set(jc_calibrate_opts *o, const char *key, const char *value, jc_diag *diag);
/* The rules before a calibration, for every front end: the measurements
 * and out are given; the job's "measured" (estimate's trace) is refused:
 * the trace is the measurement itself; the job's trace keys become *topts
 * (jc_trace_opts_from_job; *trace_opt 1 when one was given) and are
 * cleared from the job (jc_trace_job_clear), so the fit's estimates do not
 * read them.  JC_ERR_USAGE with the message. */
jc_status jc_calibrate_opts_check(const jc_calibrate_opts *o, jc_job *job, jc_trace_opts *topts, int *trace_opt,
                                  jc_diag *diag);

/* ------------------------------------------------------------------ */
/* Bindings: options as strings in, JSON out (owner src/bind/bind.c)         */
/* ------------------------------------------------------------------ */
/* For language bindings (python/joulecast calls these through ctypes)
 * and any caller that would rather not lay out the structs above.  Every
 * option is a key/value string pair whose key is a long option name of
 * the matching CLI command without the dashes (the same keys as a job
 * file: "device", "count", "dim" = "batch=8", "train" = "true"), given
 * in order; repeatable keys (dim, input, assume, hwdb) may appear more
 * than once.  Flags take "true"/"false" (also 1/0, yes/no, on/off; an
 * empty value is "true").  The result is the JSON document the CLI's
 * --json prints (docs/json-schemas.md), released with jc_free().  The library never reads the environment:
 * the hardware database folder is an argument (NULL with an "hwdb" key:
 * that layer alone); the key "hwdb-snapshot" names a snapshot of that
 * folder (jc_hwdb_snapshot_open), used when there is no "hwdb" layer and
 * it is fresh, else the YAML is parsed.  Errors: JC_ERR_USAGE (unknown key, malformed
 * value, missing input; diag names the key), and every error of the
 * functions each one calls (jc_model_load, jc_analyze, jc_hwdb_load,
 * jc_estimate_run, jc_ga_compute).  On failure *json is NULL. */

/* Releases a string the library returned (the rule of the header's top:
 * every char * a function returns, every *_json document).  Bindings and
 * programs use this rather than their own free(), which may belong to
 * another C runtime.  NULL is a no-op. */
void jc_free(void *p);

/* Appends " s" to the NUL-terminated command line in buf (capacity cap
 * bytes), single-quoted for a POSIX shell when s is empty or holds
 * anything but letters, digits and -_=./:,+%@.  What does not fit is cut
 * (buf stays NUL-terminated).  The reproducing command lines of
 * `statement` (the CLI's and jc_run_statement_text's) follow the same
 * quoting, built without a cap.  Never fails; buf is the caller's. */
void jc_shell_arg_append(char *buf, size_t cap, const char *s);
/* 1 when paths a and b name one existing file (the same device and
 * inode: a hard link, a symlink or another spelling of one path), else 0
 * ("-", NULL or a path that cannot be read: 0).  The rule that refuses
 * an output onto an input (estimate --html, calibrate --out, hwdb
 * snapshot -o) and compare's model given twice. */
int jc_same_file(const char *a, const char *b);

/* Writes " s" to f with the quoting of jc_shell_arg_append, whole: the
 * reproducing command lines of `statement` are built with it, without a
 * cap.  Errors: f's error flag (ferror). */
void jc_shell_arg_put(FILE *f, const char *s);

/* Writes the current UTC time into buf (capacity cap): "YYYY-MM-DD" when
 * date_only, else "YYYY-MM-DDTHH:MM:SS" (CodeCarbon's timestamp).  The
 * time is SOURCE_DATE_EPOCH when that environment variable is set and not
 * empty (reproducible outputs and tests), else now.  The calibrated
 * layer's date and the codecarbon row use it.  buf is the caller's ("" on
 * failure).  Errors: JC_ERR_USAGE (SOURCE_DATE_EPOCH not a whole number of
 * seconds; no buffer or one too small), JC_ERR_RANGE (SOURCE_DATE_EPOCH
 * before 1970 or after 9999-12-31T23:59:59 UTC, 253402300799). */
jc_status jc_utc_timestamp(char *buf, size_t cap, int date_only, jc_diag *diag);

/* Splits the comma list s in place ("a100, h100,l4": the commas become
 * NULs, the spaces around each item are cut) into items[0..cap), which
 * point into s.  Returns the item count, -1 when an item is empty ("a,,b",
 * "" or "a,"), -2 when there are more than cap.  The axes of `sweep` (the
 * CLI's and the binding's) are read with it. */
int jc_split_list(char *s, const char **items, size_t cap);

/* `joulecast count MODEL --json`: keys dim, input, input-value, batch,
 * assume, convention, op-rules, strict. */
jc_status jc_run_count_json(const char *model_path, const char *const *keys,
                        const char *const *values, size_t n, char **json,
                        jc_diag *diag);

/* `joulecast estimate --json`: every option of `joulecast estimate`
 * except the output formats (json, csv) — model, dim, input, op-rules,
 * hwdb, strict, allow-partial and the job's keys (train, device, count,
 * region, ...).  The model goes through jc_request_prepare, the same
 * request path as the CLI's (same batch default, same partial policy). */
jc_status jc_run_estimate_json(const char *hwdb_dir, const char *const *keys,
                           const char *const *values, size_t n, char **json,
                           jc_diag *diag);

/* `joulecast ga --json`: every option of `joulecast ga` except json. */
jc_status jc_run_ga_json(const char *hwdb_dir, const char *const *keys,
                     const char *const *values, size_t n, char **json,
                     jc_diag *diag);

/* `joulecast statement --format F`: the statement's text exactly as the
 * CLI prints it for one format (key "format": markdown, the default,
 * latex or hf), with the keys of estimate plus training-type and
 * location; its "reproduce" command line is built from the pairs. */
jc_status jc_run_statement_text(const char *hwdb_dir, const char *const *keys,
                            const char *const *values, size_t n, char **text,
                            jc_diag *diag);

/* The command line that gives the same result as `command` ("estimate",
 * "compare", "sweep", ... any command jc_bind_keys lists) called with the
 * pairs: "joulecast COMMAND MODEL --key value ...", each argument quoted
 * for a POSIX shell (jc_shell_arg_append); "model" values are the
 * positional files, a flag given false and the statement's own keys
 * (format, training-type, location) and hwdb-snapshot are left out.  The
 * statement's "reproduce" line is this line for "estimate"; the web page
 * offers it as a download.  Writes into buf (capacity cap); a line that
 * does not fit is never cut (it would not reproduce anything): buf gets ""
 * and JC_ERR_RANGE names the bytes needed.  Errors: JC_ERR_USAGE (no
 * buffer, an unknown command, a NULL key), JC_ERR_RANGE, JC_ERR_NOMEM. */
jc_status jc_command_line(const char *command, const char *const *keys,
                          const char *const *values, size_t n, char *buf, size_t cap,
                          jc_diag *diag);

/* `joulecast compare A B ... --json`: the keys of estimate, "model"
 * repeated once per model (two or more, in order). */
jc_status jc_run_compare_json(const char *hwdb_dir, const char *const *keys,
                          const char *const *values, size_t n, char **json,
                          jc_diag *diag);

/* `joulecast sweep --json`: the keys of estimate plus devices, regions,
 * batches, precisions (comma lists; repeating a key appends), sort and
 * top (for the HTML's table). */
jc_status jc_run_sweep_json(const char *hwdb_dir, const char *const *keys,
                        const char *const *values, size_t n, char **json,
                        jc_diag *diag);

/* `joulecast calibrate MEASUREMENTS [JOB] [MODEL] ... --out FILE --json`:
 * the keys of estimate plus "measurements" (the measurement CSV or power
 * trace; required), "out" (the override layer to write; required), "row"
 * (1-based data row; default the last), "date" (YYYY-MM-DD when the file
 * has none); the job keys trace-format, scope, gap, idle-w and interval
 * read the trace (jc_trace_opts_from_job).  The row's job file (simple
 * CSV column job) goes beneath the keys, which win, as on the command
 * line; the row's device when the keys name none.  Runs
 * jc_calib_source_open + jc_calibrate_run, the layers loaded back on top
 * of the "hwdb" layers (a trace's power layer too); the result is
 * jc_report_calibrate_json. */
jc_status jc_run_calibrate_json(const char *hwdb_dir, const char *const *keys,
                            const char *const *values, size_t n, char **json,
                            jc_diag *diag);

/* `joulecast hw list [--kind K] --json`, or with key "show" = ID `hw show
 * ID --json`.  Keys: show, kind, hwdb, hwdb-snapshot. */
jc_status jc_run_hw_json(const char *hwdb_dir, const char *const *keys,
                     const char *const *values, size_t n, char **json,
                     jc_diag *diag);

/* `joulecast region list [--provider P] [--type T] --json`, or with key
 * "show" = CODE `region show CODE --json`.  Keys: show, provider, type,
 * hwdb, hwdb-snapshot. */
jc_status jc_run_region_json(const char *hwdb_dir, const char *const *keys,
                         const char *const *values, size_t n, char **json,
                         jc_diag *diag);

/* The key "html" ("true") of estimate, compare and sweep makes the result
 * the HTML report the CLI's --html writes (src/report/html.c) instead of
 * the JSON. */

/* The keys each entry point accepts ("count", "estimate", "ga",
 * "statement", "compare", "sweep", "calibrate", "hw", "region"), as a static
 * NULL-terminated list; NULL for another command. */
const char *const *jc_bind_keys(const char *command);

/* ------------------------------------------------------------------ */
/* Compare and sweep (owners src/workflows/sweep.c, src/report/compare.c,         */
/* src/report/sweep.c)                                                  */
/* ------------------------------------------------------------------ */
/* `joulecast compare A.onnx B.onnx ...` estimates one job per model and
 * puts them side by side; `joulecast sweep` estimates one job over a grid
 * of devices x regions x batch sizes x precisions and marks the Pareto
 * front of time against emissions. */

struct jc_serving;
struct jc_generation;
/* One model of a comparison: the caller's estimate of the shared job for
 * that model.  Every pointer is borrowed for the call. */
typedef struct jc_compare_item {
    const char *label;          /* the model file (or a name) */
    const jc_estimate *est;     /* the estimate of the job for this model */
    int64_t macs, params;       /* analysis totals; -1 when unknown */
    double batch;               /* the batch the model was counted at */
    int partial;                /* 1: the count is partial (lower bound) */
    const char *note;           /* NULL, or a plain-words remark (a fixed
                                   batch dim, what the partial count lacks) */
    const struct jc_serving *serving; /* compare --generate: the serving figures
                                   (est is serving->estimate); else NULL */
} jc_compare_item;

/* Writes the comparison as text: one row per model with MACs, params,
 * wall hours, facility kWh, kgCO2e and J/sample, then each figure as a
 * ratio against the first model, then the notes.  Items with serving
 * figures (compare --generate): params, devices, tp, running sequences,
 * TTFT, ITL, tokens/s per device, J per output token (devices, facility),
 * J per request, facility kWh and kgCO2e instead; the JSON and CSV add
 * those keys (docs/json-schemas.md "compare"), mode "generation".  JC_ERR_USAGE when n is
 * 0 or an item has no estimate; JC_ERR_IO if writing failed. */
jc_status jc_report_compare_text(const jc_compare_item *items, size_t n,
                                 FILE *f);
/* The same as JSON (schema joulecast-compare/1, docs/json-schemas.md),
 * released with jc_free(); NULL on out-of-memory or bad input. */
char *jc_report_compare_json(const jc_compare_item *items, size_t n);
/* The same as CSV: a header line and one row per model. */
jc_status jc_report_compare_csv(const jc_compare_item *items, size_t n,
                                FILE *f);

/* A comparison: items[i] for paths[i], each with its estimate.  The
 * underscored fields own what items point into. */
typedef struct jc_compare {
    size_t n;
    jc_compare_item *items;
    jc_model **models_;
    jc_analysis **analyses_;
    jc_estimate **estimates_;
    char **notes_;
    struct jc_generation *gens_;   /* compare --generate: one run per config */
} jc_compare;

/* `joulecast compare`: counts each of the n >= 2 models with the request
 * (its job, bindings, op rules and partial policy; rq->model is ignored)
 * and estimates its job on db (src/workflows/compare.c).  Each --dim or
 * --input applies to the models that have it; a model whose batch dim is
 * fixed to another value than the job's batch is counted at its own
 * batch, with a note; a partial count that the request allows gets a note
 * saying what was not counted; a model counted at another batch than the
 * first says so.  Errors: JC_ERR_USAGE (fewer than two models, a --dim or
 * --input no model has), those of jc_batch_check, and every error of
 * jc_request_load, jc_request_analyze and jc_estimate_run (an estimate's
 * message starts with the model's path).  Generation mode (job mode
 * JC_MODE_GENERATION, `compare --generate`): each path is a Hugging Face
 * config.json or (ending .onnx) an ONNX decoder export (job.hf_config,
 * when set, comes first), run as jc_generation_run runs `estimate
 * --generate`; items carry the serving figures (item.serving) and a
 * memory-bound batch gets a note; --dim and --input are refused
 * (JC_ERR_USAGE), and every error of jc_generation_run is the model's.  On success *out owns the result
 * (jc_compare_free). */
jc_status jc_compare_run(const jc_request *rq, const char *const *paths, size_t n,
                         const jc_hwdb *db, jc_compare **out, jc_diag *diag);
/* Releases a comparison.  NULL is a no-op. */
void jc_compare_free(jc_compare *c);

typedef enum jc_sweep_sort {
    JC_SWEEP_BY_EMISSIONS = 0,  /* location-based kgCO2e, central */
    JC_SWEEP_BY_ENERGY = 1,     /* facility kWh, central */
    JC_SWEEP_BY_TIME = 2        /* wall hours, central */
} jc_sweep_sort;
/* "emissions" / "energy" / "time": static strings. */
const char *jc_sweep_sort_name(jc_sweep_sort s);
/* Parses a sort key name; JC_ERR_USAGE (and *out untouched) if unknown. */
jc_status jc_sweep_sort_parse(const char *s, jc_sweep_sort *out);

/* The grid.  Each axis is a list of names; an empty axis (n = 0) keeps
 * the job's own value (job->device or job->host, job->region or job->ci,
 * job->batch, job->precision).  Words that expand to a hwdb kind:
 *   devices:    "all" (every gpu, tpu and accelerator), "gpu", "tpu",
 *               "accelerator", "cpu", "soc"; anything else is a device id
 *               or alias;
 *   regions:    "all" (every region), "cloud", "country", "subnational",
 *               "grid", "aggregate", "PROVIDER:all" (every cloud region of
 *               aws, gcp, azure, ...); anything else is a region code or
 *               alias;
 *   precisions: "all" (fp32 tf32 fp16 bf16 fp8 int8) or names.
 * Duplicates (an id and its alias) are evaluated once.  Pointers are
 * borrowed for the call. */
typedef struct jc_sweep_spec {
    const char *const *devices;    size_t n_devices;
    const char *const *regions;    size_t n_regions;
    const double *batches;         size_t n_batches;  /* whole numbers >= 1 */
    const char *const *precisions; size_t n_precisions;
    jc_sweep_sort sort;
    double max_points;   /* the most grid points (devices x regions x
                            precisions x batches) built; 0: the default,
                            JC_SWEEP_MAX_POINTS; a larger grid is
                            JC_ERR_RANGE before any estimate */
} jc_sweep_spec;

/* The default cap of jc_sweep_spec.max_points: well above the grid of
 * every device and every region (~170,000 points) and, at about 4 KB a
 * point with the JSON document (jc_report_sweep_json), within 2 GB; and
 * the largest cap max_points may name. */
#define JC_SWEEP_MAX_POINTS 400000
#define JC_SWEEP_MAX_POINTS_LIMIT 1000000000

/* One grid point.  Estimated entries carry figures; skipped ones a reason.
 * A skipped entry whose reason does not depend on the region has
 * region_code NULL (it stands for every region of the grid); one whose
 * reason does not depend on the device has device_id NULL. */
typedef struct jc_sweep_entry {
    const char *device_id, *device_name;
    const char *region_code;    /* estimated: the region used, or NULL with
                                   the job's --ci and no region */
    const char *precision;      /* as used (the device default resolved) */
    double batch;               /* 0 without a model (skipped entries: 0
                                   stands for every batch size) */
    const char *reason;         /* skipped entries: why; else NULL */
    jc_refusal refusal;         /* skipped for what the device lacks (the
                                   estimator's own rule, jc_estimate_refusal);
                                   JC_REFUSAL_NONE for other reasons */
    int pareto;                 /* on the time-vs-emissions Pareto front */
    jc_range wall_hours, energy_kwh, co2_kg;  /* facility kWh, location kg */
    double ci, pue;             /* central values the estimate used */
    double ci_region_default;   /* the region's own default intensity (e.g.
                                   the provider's figure for a GCP region)
                                   when the sweep's common basis differs
                                   from it; NAN otherwise */
    const char *ci_dataset;     /* the dataset of the intensity used (NULL
                                   with --ci) */
    int ci_basis_fallback;      /* 1: the region has no value in the common
                                   basis; its own default (ci_dataset) is
                                   used (jc_estimate.ci_basis_fallback) */
    double j_per_sample;        /* facility J per sample, central; 0: n/a */
    const char *host;           /* the host assumed: a host id (the cloud
                                   provider's instance, or --host), or a
                                   system class ("server-2"); NULL: none */
    double hosts;               /* how many (a class share: 0.5) */
} jc_sweep_entry;

typedef struct jc_sweep {
    jc_mode mode;
    jc_method method;
    jc_sweep_sort sort;
    const char *model;          /* the model's path, or NULL */
    size_t n_devices, n_regions, n_batches, n_precisions; /* expanded axes */
    size_t n_points;            /* grid points: the product of the axes */
    size_t n_entries;  jc_sweep_entry *entries;  /* estimated, sorted by
                                   the sort key (ties: device, region,
                                   precision, batch) */
    size_t n_skipped;  jc_sweep_entry *skipped;  /* grid order */
    size_t n_skipped_points;    /* grid points the skipped entries cover */
    size_t n_pareto;
    size_t n_analyses;          /* model analyses run (one per batch) */
    size_t n_notes;    const char **notes;  /* partial counts, fixed batch
                                   dims, the job's own warnings (once) */
    const char *ci_basis;       /* the intensity dataset every region is
                                   compared on (JC_CI_BASIS unless the
                                   job names one), or NULL: each region's
                                   own default ("default", or --ci) */
    double ci_given;            /* the job's --ci, gCO2e/kWh, every entry's
                                   intensity; NAN when not given */
    void *internal_;
} jc_sweep;


/* Estimates the request's job (rq->job) at every point of the grid.  The
 * model (NULL when the job gives --flops or --params; loaded with
 * jc_request_load) is counted once per batch size by jc_request_analyze
 * with the request's bindings, op rules and partial policy; the database
 * is used as given.  A point that cannot be estimated (no dense peak at the
 * precision, no TDP, no utilisation figure, a region without intensity,
 * a batch the model's fixed batch dim refuses, any estimate error) is a
 * skipped entry with the reason; it is never dropped.  Errors:
 * JC_ERR_INCOMPLETE (the count is partial and rq->allow_partial is 0),
 * JC_ERR_USAGE (NULL argument, an empty grid, a malformed batch or
 * precision, --host with a device axis), JC_ERR_NOTFOUND (an unknown
 * device or region name, with suggestions), every error of jc_analyze,
 * JC_ERR_NOMEM.  On success *out owns the result (jc_sweep_free). */
jc_status jc_sweep_run(const jc_sweep_spec *spec, const jc_request *rq,
                       const jc_model *model, const jc_hwdb *db,
                       jc_sweep **out, jc_diag *diag);
/* Releases a sweep.  NULL is a no-op. */
void jc_sweep_free(jc_sweep *s);

/* The rules `joulecast sweep` applies before jc_sweep_run
 * (src/workflows/sweep_grid.c): an axis and the job's own value of it
 * (device, region, batch, precision) are exclusive, and so are a region
 * axis and --ci (every region would get one intensity); an empty device axis becomes "all" unless
 * the job names a device or host, an empty region axis "cloud" unless it
 * names a region or --ci (static lists).  JC_ERR_USAGE otherwise.  (The
 * job's own batch is jc_batch_check's.) */
jc_status jc_sweep_spec_resolve(jc_sweep_spec *spec, const jc_job *job,
                                jc_diag *diag);
/* Parses the batch axis: n strings, each a batch jc_batch_check accepts,
 * into out[0..n).  JC_ERR_RANGE above jc_job_key_max("batch"),
 * JC_ERR_USAGE otherwise, naming the first bad item. */
jc_status jc_sweep_batches_parse(const char *const *items, size_t n,
                                 double *out, jc_diag *diag);

/* Writes the sweep as text: the grid, the ranked entries (top: the first
 * N, 0 for all; Pareto entries are marked '*'), then the skipped entries
 * with their reasons.  JC_ERR_IO if writing failed. */
jc_status jc_report_sweep_text(const jc_sweep *s, size_t top, FILE *f);
/* As JSON (schema joulecast-sweep/1), released with jc_free(); NULL on
 * out-of-memory. */
char *jc_report_sweep_json(const jc_sweep *s);
/* As CSV: a header, one row per estimated entry (rank order), then one
 * per skipped entry (empty figures, the reason in the last column). */
jc_status jc_report_sweep_csv(const jc_sweep *s, FILE *f);

/* ------------------------------------------------------------------ */
/* HTML reports (owner src/report/html/)                                */
/* ------------------------------------------------------------------ */
/* One self-contained HTML file per report: inline CSS, charts drawn as
 * inline SVG, no script, no network, no external font.  Every string that
 * comes from a model file or the hardware database is escaped.  Every
 * figure shown carries data-key (its path in the matching --json output,
 * e.g. "results.energy_facility_kwh.central") and data-value (the number,
 * %.17g) so a test can compare the two. */

/* The estimate report: summary, energy split (device dynamic / device
 * idle / host / facility overhead), low-central-high ranges, emissions by
 * component, energy per node (the top_nodes largest, the rest grouped;
 * needs job.per_node), the per-node table, equivalences, warnings and
 * every assumption with its source.  model: the model's path shown in the
 * title (NULL: none).  JC_ERR_IO if writing failed. */
jc_status jc_report_estimate_html(const jc_estimate *e, const char *model,
                                  size_t top_nodes, FILE *f);
/* The comparison: a bar chart per figure (one bar per model) and the
 * table of jc_report_compare_text; items with serving figures (compare
 * --generate, every item or none) chart TTFT, ITL, tokens/s per device,
 * J per output token, energy and emissions.  JC_ERR_USAGE for items that
 * mix the two; otherwise errors as jc_report_compare_text. */
jc_status jc_report_compare_html(const jc_compare_item *items, size_t n,
                                 FILE *f);
/* The sweep: a time-vs-emissions scatter of every estimated entry with the
 * Pareto front marked and joined, the ranked table (top: first N rows, 0
 * for all; Pareto entries are always listed) and the skipped entries.
 * JC_ERR_IO if writing failed. */
jc_status jc_report_sweep_html(const jc_sweep *s, size_t top, FILE *f);

/* ------------------------------------------------------------------ */
/* LLM serving (owner src/analysis/hfconfig.c, src/estimate/serving.c)  */
/* ------------------------------------------------------------------ */
/* A decoder-only transformer as its Hugging Face config.json describes
 * it, and the serving model of docs/workflow-serving.md: prefill over the
 * prompt, decode with a KV cache over the growing context, continuous
 * batching, tensor/pipeline/expert parallelism, mixture of experts and
 * stored weight formats.  The energy of the whole workload goes through
 * the same energy stage as every estimate (jc_estimate_run). */

/* One decoder layer. */
typedef struct jc_arch_layer {
    int64_t window;   /* sliding or chunked local attention span, tokens;
                         0: global attention over the whole context */
    int moe;          /* 1: routed experts replace the dense MLP */
} jc_arch_layer;

typedef struct jc_arch {
    const char *path, *model_type;
    int64_t n_layers, hidden, heads, kv_heads, head_dim, vocab;
    int64_t ffn;          /* dense MLP intermediate size (0: none) */
    int64_t max_ctx;      /* max_position_embeddings (0: not given) */
    int gated;            /* 1: gate + up + down projections; 0: up + down */
    int tied;             /* LM head shares the embedding matrix */
    int64_t learned_pos;  /* learned position rows (gpt2), else 0 */
    int mla;              /* multi-head latent attention (DeepSeek-V3) */
    int64_t q_lora, kv_lora, qk_nope, qk_rope, v_head;
    int64_t n_experts, top_k, expert_ffn;
    int64_t shared_ffn;   /* always-active shared expert(s) of MoE layers,
                             intermediate size summed; 0: none */
    int64_t mtp_layers;   /* multi-token-prediction modules the config
                             declares (num_nextn_predict_layers); 0: none.
                             Training only: serving ignores them */
    const char *weight_format;  /* "bf16", "fp8", ... the config declares;
                                   NULL: not said */
    const char *expert_format;  /* experts only (gpt-oss mxfp4); NULL */
    const char *format_note;    /* how the format was read, or NULL */
    jc_arch_layer *layer;       /* n_layers entries */
    const struct jc_arch_counted *counted; /* an ONNX decoder's counted work
                                   (jc_arch_load_onnx); NULL: a config */
    void *internal_;
} jc_arch;

/* One counted node of an ONNX decoder's decode step (one sequence, at
 * jc_arch_counted.nodes_ctx): FLOPs, bytes of initializers read at their
 * stored dtype, bytes of activations read and written. */
typedef struct jc_arch_counted_node {
    const char *name, *op;
    double flops, weight_bytes, act_bytes;
} jc_arch_counted_node;

/* The work of an ONNX decoder export as the request path counted it
 * (jc_arch_load_onnx): per sequence, at the dims bound for a prefill
 * (prompt dim = P, past dim = 0) and for one decode step (prompt dim = 1,
 * past dim = c).  A decode step's figures are linear in the context c:
 * counted at ctx[0] and ctx[1], the serving model takes the line through
 * them (x0 + x1 c) at every step. */
typedef struct jc_arch_counted {
    const char *model;                 /* the ONNX path */
    const char *sha256;                /* of its bytes (64 hex digits; "" unless
                                          jc_request.hash_weights) */
    const char *graph_sha256;          /* its graph identity (jc_model) */
    double file_size;                  /* bytes */
    const char *prompt_dim, *past_dim; /* the symbolic dims bound */
    const char *prompt_how, *past_how; /* how each was found, or the option */
    const char *total_dim;             /* the attention mask's dim bound to
                                          past + prompt, or NULL */
    double prompt_tokens;              /* P the prefill was counted at */
    double prefill_flops, prefill_macs;        /* one sequence */
    double ctx[2];                             /* decode contexts counted */
    double decode_flops[2], decode_macs[2];    /* one token at ctx[i] */
    double decode_flops0, decode_flops_per_ctx;/* the line through them */
    double decode_macs0, decode_macs_per_ctx;
    double mid_ctx, mid_error;         /* a third count at mid_ctx and the
                                          line's relative error there */
    double params;                     /* floating-point initializer elements */
    const char *weight_dtype;          /* their (most common) dtype */
    double weight_dtype_bytes;
    double weight_elems_step;          /* weight elements a decode step
                                          reads (Gather tables: the rows) */
    size_t n_past;                     /* past key/value inputs */
    double kv_elems_per_token;         /* summed over them */
    const char *kv_dtype;              /* their dtype */
    double kv_dtype_bytes;
    size_t n_nodes;                    /* the counted nodes of one decode */
    const jc_arch_counted_node *nodes; /* step at context nodes_ctx (the */
    double nodes_ctx;                  /* midpoint count, else ctx[0]) */
} jc_arch_counted;

/* Reads a config.json.  On success *out owns the architecture
 * (jc_arch_free).  Errors: JC_ERR_IO (cannot read), JC_ERR_MODEL (not
 * JSON, or a key the family needs is missing or malformed: the message
 * names the key), JC_ERR_NOTFOUND (model_type not supported: the message
 * lists the supported ones), JC_ERR_NOMEM. */
jc_status jc_arch_load_hf(const char *path, jc_arch **out, jc_diag *diag);
void jc_arch_free(jc_arch *a);

/* Reads an ONNX decoder export (rq->model; the bindings, op rules and
 * partial-count policy of rq apply) as an architecture for the serving
 * model, counting it through jc_request_analyze at batch 1: a prefill of
 * rq->job->prompt_tokens tokens with an empty cache and a decode step of
 * one token at the first and last context of the request (P and
 * P + O - 1; a third count at the midpoint checks the line).  The dims:
 * rq->job->prompt_dim / past_dim, else the sequence dim of the input
 * input_ids (or inputs_embeds) and the one symbolic non-batch dim of the
 * inputs named past_key_values* / past_*; the dim 1 of the attention mask
 * (attention_mask, else a rank-2 input whose name holds "mask") that is
 * neither is bound to past + prompt.  The KV cache per token is the past
 * inputs' elements (all dims but batch and past) at their dtype; the
 * layers are the past inputs / 2, the KV heads and head size their dims 1
 * and 3.  Errors: JC_ERR_USAGE (the dims cannot be found: the message
 * names the inputs and asks for --prompt-dim / --past-dim; a --dim that
 * binds one of them), JC_ERR_NOTFOUND (a --prompt-dim / --past-dim the
 * model lacks, named), JC_ERR_MODEL (past inputs whose per-token shape is
 * not known or differs), those of jc_request_load and jc_request_analyze
 * (JC_ERR_INCOMPLETE: another dim unbound).  On success *out owns the
 * architecture (jc_arch_free). */
jc_status jc_arch_load_onnx(const jc_request *rq, jc_arch **out, jc_diag *diag);

/* Parameter counts of an architecture: every weight (total) and the
 * weights one token uses (active: top-k routed + shared experts). */
void jc_arch_params(const jc_arch *a, double *total, double *active);

/* KV-cache bytes per token of context, summed over layers, at `kv_bytes`
 * per element (MLA: the latent kv_lora + qk_rope per layer).  Counts every
 * layer at full context; serving caps sliding layers at their window. */
double jc_arch_kv_bytes_per_token(const jc_arch *a, double kv_bytes);

/* Serving figures (per request; ranges low / central / high). */
typedef struct jc_serving {
    jc_estimate *estimate;         /* energy of the workload (owned) */
    const char *model;             /* config path, or "--params" */
    const char *model_type;
    double params_total, params_active;
    double prompt_tokens, output_tokens, requests;
    double concurrency_asked;      /* --concurrency */
    double concurrency;            /* running sequences per replica used */
    int memory_limited;            /* 1: the KV memory, not --concurrency,
                                      bounds the running sequences */
    double tp, pp, ep, replicas, devices;
    const char *weights, *kv_format, *compute_precision;
    const char *expert_weights;    /* the routed experts' stored format when
                                      it differs from weights (gpt-oss:
                                      mxfp4), else NULL */
    double weight_bytes;           /* stored weights, whole model */
    double kv_bytes_per_token;     /* all layers, at the KV format */
    double kv_bytes;               /* KV cache of the running sequences at
                                      the mean context P + O/2 (per replica) */
    double memory_per_device, memory_capacity; /* bytes used / held */
    double prefill_flops;          /* one request's prefill */
    double decode_flops_per_token; /* mean over the request's steps */
    double decode_bytes_per_step;  /* mean, per replica */
    double experts_touched;        /* mean distinct experts per MoE layer
                                      per decode step (0: dense) */
    double collective_s_per_step;  /* tensor-parallel all-reduces */
    double decode_flop_util, decode_bw_util; /* achieved / peak while the
                                      device computes, central (what decode
                                      power follows) */
    double prefill_flop_util;      /* central */
    double prefill_time_share;     /* of a replica's busy time, central */
    double decode_busy_share;      /* of a decode step the device computes
                                      (the rest: the runtime's overhead) */
    jc_range ttft_s, itl_s;
    jc_range tokens_per_s;             /* output tokens/s, all devices */
    jc_range tokens_per_s_per_device, tokens_per_s_per_seq;
    jc_range j_per_output_token;       /* facility energy */
    jc_range j_per_output_token_device;/* device (GPU) energy only */
    jc_range j_per_request;            /* facility energy */
    double prefill_energy_share;       /* of device energy, central */
    jc_range power_prefill_w, power_decode_w; /* per device */
    size_t n_nodes; jc_est_node *nodes; /* one decode step (per_node) */
    void *internal_;
} jc_serving;

/* Runs the serving model for `job` (mode generation) on the architecture
 * `arch` (NULL: the coarse path of job.params / job.active_params).  The
 * energy of job.requests requests goes through jc_estimate_run.
 * Errors: JC_ERR_USAGE (a missing or bad option: prompt/output tokens,
 * concurrency, parallelism that does not divide the devices, a weight or
 * KV format not known), JC_ERR_RANGE (the weights do not fit the devices
 * at any count given: the message says how many are needed), every error
 * of jc_estimate_run.  On success *out owns the result
 * (jc_serving_free). */
jc_status jc_serving_run(const jc_job *job, const jc_arch *arch,
                         const jc_hwdb *db, jc_serving **out, jc_diag *diag);
void jc_serving_free(jc_serving *s);

/* A serving request run (owner src/workflows/generation.c): the
 * architecture read and the serving figures computed from it. */
typedef struct jc_generation {
    jc_arch *arch;                 /* job.hf_config or the ONNX decoder
                                      read, or NULL (owned) */
    jc_serving *serving;           /* the result (owned) */
} jc_generation;

/* The architecture of a serving request (estimate and sweep --generate):
 * the refusals and the reading of jc_generation_run below, without the
 * serving model.  *out is NULL for the coarse --params path.  Errors: as
 * jc_generation_run's before jc_serving_run.  On success *out is owned by
 * the caller (jc_arch_free). */
jc_status jc_generation_arch(const jc_request *rq, jc_arch **out, jc_diag *diag);

/* Does the job go to the serving request (jc_generation_run) rather than
 * jc_estimate_run?  Mode generation, or a serving-only input (an ONNX
 * decoder's --prompt-dim / --past-dim, or --hf-config outside training:
 * a training job reads its config in the training step model).  Every
 * front end dispatches by it. */
int jc_job_is_serving(const jc_job *job);

/* Does an HTML report of the job (the CLI's --html, the binding's html
 * key) list energy per node?  When the job has nodes: a MODEL.onnx, or
 * the decoder a serving --hf-config describes; a training --hf-config is
 * read by the training step model, which has none (there --per-node is
 * refused).  Every front end turns job->per_node on by it. */
int jc_job_html_per_node(const jc_job *job, const char *model);

/* The serving request as `joulecast estimate --generate` (and the
 * binding jc_run_estimate_json) runs it: rq->job in mode generation; the
 * architecture from rq->job->hf_config (jc_arch_load_hf), or from the
 * ONNX decoder rq->model (jc_arch_load_onnx, with rq's bindings), or
 * neither (the coarse --params path); then jc_serving_run.  Errors:
 * JC_ERR_USAGE (both a model and hf_config; hf_config, prompt_dim or
 * past_dim without mode generation; prompt_dim / past_dim without a
 * model; not a generation job), those of jc_arch_load_hf,
 * jc_arch_load_onnx and jc_serving_run.  On success *out owns both
 * (jc_generation_release); on failure it is empty. */
jc_status jc_generation_run(const jc_request *rq, const jc_hwdb *db,
                            jc_generation *out, jc_diag *diag);
void jc_generation_release(jc_generation *g);

/* sweep --generate: axes of the grid (an empty axis: the job's own value;
 * tps entries NAN: the smallest group that fits) and the latency targets
 * (NAN: none).  Pointers borrowed for the call. */
typedef struct jc_serving_sweep_spec {
    const char *const *devices;  size_t n_devices;
    const double *counts;        size_t n_counts;
    const double *tps;           size_t n_tps;
    const double *concurrencies; size_t n_concurrencies;
    const char *const *weights;  size_t n_weights;
    double max_itl_s, max_ttft_s;
} jc_serving_sweep_spec;

/* One grid point: estimated (figures, central) or not (reason). */
typedef struct jc_serving_sweep_entry {
    const char *device_id, *weights;
    double count, tp, concurrency_asked, concurrency;
    int memory_limited, estimated, meets, pareto;
    double ttft_s, itl_s, tokens_per_s;
    double j_per_output_token;          /* device (GPU) energy */
    double j_per_output_token_facility, co2_kg;
    const char *reason;                 /* not estimated, or a missed target */
} jc_serving_sweep_entry;

typedef struct jc_serving_sweep {
    size_t n_entries; jc_serving_sweep_entry *entries; /* estimated first:
                                          meeting the targets by J/token,
                                          then the rest; then unestimated */
    size_t n_estimated, n_meeting, n_pareto;
    double max_itl_s, max_ttft_s;
    void *internal_;
} jc_serving_sweep;

/* Runs jc_serving_run at every grid point of `spec` (at most 100000).
 * Errors: JC_ERR_USAGE (NULL argument, no device, a grid too large),
 * JC_ERR_NOMEM; a point that fails is an entry with its reason.  On
 * success *out owns the result (jc_serving_sweep_free). */
jc_status jc_serving_sweep_run(const jc_serving_sweep_spec *spec, const jc_job *job,
                               const jc_arch *arch, const jc_hwdb *db,
                               jc_serving_sweep **out, jc_diag *diag);
void jc_serving_sweep_free(jc_serving_sweep *s);
/* Parses a latency target of `sweep --generate --max-itl/--max-ttft`:
 * "50ms", "20us", "0.05s" or "0.05" (seconds).  Returns 1 and sets
 * *seconds (> 0, finite) on success, 0 on anything else.  Shared by the
 * CLI and the binding so both accept the same spellings. */
int jc_serving_latency_parse(const char *s, double *seconds);
/* Parses one item of a --counts / --tps / --concurrencies axis: a whole
 * number from 1 to 1e6.  Returns 1 and sets *v on success, else 0. */
int jc_serving_axis_parse(const char *s, double *v);

/* ---- a command's own options, parsed once (src/workflows/sweep_opts.c,
 * src/workflows/cmd_opts.c) ---- */

/* One option of a command beyond the job's keys: its name (the long
 * option without dashes, a job-file key, a binding key), its argument
 * (NULL: a flag), the --help line, output 1 where it shapes the output
 * only (the command line takes it; a job file's is ignored), and
 * argument 1 where the command line takes it as an argument rather than
 * --name (hw show ID, calibrate MEASUREMENTS.csv). */
typedef struct jc_cmd_key {
    const char *name, *arg, *help;
    int output;
    int argument;
} jc_cmd_key;

/* The own options of `command` that the library parses, in --help order:
 * those of "sweep" (jc_sweep_opt_keys), "statement" (jc_statement_keys_set),
 * "calibrate" (jc_calibrate_opts_set), "hw" and "region"
 * (jc_lookup_opts_set).  Static rows; NULL and *n 0 for another command. */
const jc_cmd_key *jc_command_opt_keys(const char *command, size_t *n);

/* `joulecast statement`'s own options: the formats asked for (1 <<
 * jc_statement_format each; 0: none given), the HF block's training type
 * and location (borrowed; NULL: not given). */
typedef struct jc_statement_keys {
    unsigned formats;
    const char *training_type, *location;
} jc_statement_keys;
/* Sets "format" (adds its formats, jc_statement_formats_parse),
 * "training-type" or "location" (non-empty) from its text; the message
 * starts with the key.  JC_ERR_NOTFOUND for another key, JC_ERR_USAGE for
 * a bad value.  Zero o before the first call. */
jc_status jc_statement_keys_set(jc_statement_keys *o, const char *key, const char *value, jc_diag *diag);

/* The options of `joulecast hw` (show, kind, vendor, form-factor, year)
 * and `region` (show, provider, type), borrowed; NULL: not given. */
typedef struct jc_lookup_opts {
    const char *show, *kind, *vendor, *form_factor, *year;
    const char *provider, *type;
} jc_lookup_opts;
/* Sets option `key` of `command` ("hw" or "region") from its text (year
 * checked as jc_hw_filter_years reads it).  JC_ERR_NOTFOUND for a key
 * the command does not take, JC_ERR_USAGE for a bad value.  Zero o before
 * the first call. */
jc_status jc_lookup_opts_set(jc_lookup_opts *o, const char *command, const char *key, const char *value,
                             jc_diag *diag);
/* The rules between them, for every front end: a filter of the list with
 * show (one entry) is refused; hw's filter into *f (zeroed for region,
 * whose filters are o->provider and o->type).  JC_ERR_USAGE. */
jc_status jc_lookup_opts_check(const jc_lookup_opts *o, const char *command, jc_hw_filter *f, jc_diag *diag);

/* One comma-list axis as given: items (trimmed), and for a numeric axis
 * each item's value (NAN for a name axis). */
typedef struct jc_sweep_axis {
    const char **items;
    double *values;
    size_t n;
} jc_sweep_axis;

/* The options of `joulecast sweep` beyond the job's: the axes of the
 * model grid and of the serving grid (--generate), the latency targets
 * (NAN: none), the ranking and --top.  Each key given twice appends. */
typedef struct jc_sweep_opts {
    jc_sweep_axis devices, regions, batches, precisions;
    jc_sweep_axis counts, tps, concurrencies, weights;   /* --generate */
    double max_itl_s, max_ttft_s;
    jc_sweep_sort sort;
    int64_t top;
    int top_given;
    double max_points;   /* 0: the default cap (jc_sweep_spec.max_points) */
    void *internal_;
} jc_sweep_opts;

/* The keys jc_sweep_opts_set takes, in --help order (static; *n the
 * count). */
const jc_cmd_key *jc_sweep_opt_keys(size_t *n);

/* Prepares o (nothing given); release with jc_sweep_opts_release.
 * JC_ERR_NOMEM. */
jc_status jc_sweep_opts_init(jc_sweep_opts *o, jc_diag *diag);
void jc_sweep_opts_release(jc_sweep_opts *o);

/* Sets sweep option `key` from its text, the one parse the CLI, job files
 * and the binding share: a comma list appended to its axis (an empty item
 * refused; --batches items as jc_sweep_batches_parse, --counts / --tps /
 * --concurrencies as jc_serving_axis_parse), a duration
 * (jc_serving_latency_parse), a sort key, a row count >= 0.  The message
 * starts with the key ("sort expects emissions, energy or time, got
 * 'x'"); the caller says where it came from.  JC_ERR_NOTFOUND for a key
 * that is not sweep's, JC_ERR_RANGE for a batch above its limit,
 * JC_ERR_USAGE otherwise. */
jc_status jc_sweep_opts_set(jc_sweep_opts *o, const char *key, const char *value, jc_diag *diag);

/* What jc_sweep_spec_from_opts resolves: the model grid (jc_sweep_run) or,
 * generation set, the serving grid (jc_serving_sweep_run); pointers into
 * the options. */
typedef struct jc_sweep_plan {
    int generation;
    jc_sweep_spec spec;
    jc_serving_sweep_spec serving;
} jc_sweep_plan;

/* The rules between sweep's options, the job and the output, applied
 * once for every front end: --top with a machine output (machine: JSON
 * or CSV) and no HTML (html) is refused; in generation mode the model
 * grid's axes and HTML are refused and --device with --devices; outside
 * it the serving grid's options are refused, then the grid is resolved
 * (jc_sweep_spec_resolve) and the job's batch checked (jc_batch_check).
 * JC_ERR_USAGE or JC_ERR_RANGE with the message. */
jc_status jc_sweep_spec_from_opts(const jc_sweep_opts *o, const jc_job *job, int machine, int html,
                                  jc_sweep_plan *plan, jc_diag *diag);
/* Text (top: rows of the ranked table, 0 for all), JSON (malloc'ed; NULL on
 * out-of-memory) and CSV of a serving sweep. */
jc_status jc_report_serving_sweep_text(const jc_serving_sweep *s, size_t top, FILE *f);
char *jc_report_serving_sweep_json(const jc_serving_sweep *s);
jc_status jc_report_serving_sweep_csv(const jc_serving_sweep *s, FILE *f);

/* Reports: the estimate's figures plus the serving section. */
jc_status jc_report_serving_text(const jc_serving *s, FILE *f);
char *jc_report_serving_json(const jc_serving *s);
jc_status jc_report_serving_csv(const jc_serving *s, FILE *f, int header);
/* The serving page (src/report/html/serving.c): the serving figures
 * (TTFT, ITL, tokens/s, J per output token and per request with the
 * prefill share, power per device by phase, memory and what bounds the
 * running sequences, one decode step per node when s has nodes), then the
 * workload's energy, emissions and assumptions as the estimate page shows
 * them.  Every figure's data-key is its path in jc_report_serving_json.
 * Errors: JC_ERR_USAGE (NULL argument), JC_ERR_NOMEM, JC_ERR_IO. */
jc_status jc_report_serving_html(const jc_serving *s, FILE *f);
/* The carbon statement of a serving estimate (src/report/statement.c):
 * model, workload (requests, prompt and output tokens), hardware and
 * parallelism, serving time, facility energy with its range, J per output
 * token (facility and devices), J per request with the prefill share,
 * PUE, grid intensity with dataset and year, emissions, joulecast and
 * hwdb versions and what reproduces it, every figure with its source in
 * a footnote; o as jc_report_statement (o->model: the config shown, NULL:
 * s->model).  Errors: JC_ERR_USAGE (NULL argument; JC_STMT_HF: the
 * model-card block describes training), JC_ERR_IO (write failed). */
jc_status jc_report_serving_statement(const jc_serving *s, const jc_statement_opts *o,
                                      jc_statement_format fmt, FILE *f, jc_diag *diag);

/* ------------------------------------------------------------------ */
/* Terminal-safe text and CSV cells (owner src/base/safetext.c)        */
/* ------------------------------------------------------------------ */
/* Strings from models, traces, hwdb layers and JSON files are untrusted.
 * jc_text_escape writes s to f with every control byte (newline and tab
 * included), C1 control, bidi override or isolate (U+202A-U+202E,
 * U+2066-U+2069, U+200E/U+200F/U+061C) and non-UTF-8 byte escaped as
 * "\xHH" (a byte) / "\uHHHH" (a code point: "\u202e"); NULL writes nothing.  jc_text_is_safe: s needs no
 * escape (NULL: true). */
void jc_text_escape(FILE *f, const char *s);
int jc_text_is_safe(const char *s);
/* A stream writing to file descriptor fd through the same rule, newlines
 * and tabs kept (the CLI's stdout and stderr: every text report and
 * diagnostic); buffered or not.  NULL where the C library has no
 * fopencookie (then write raw) or out of memory.  fclose flushes it.  A
 * failed write (a full disk) is kept, not reported by each write: fclose
 * returns EOF with errno of the first failure (ferror stays clear). */
FILE *jc_safe_stream(int fd, int buffered);
/* CSV string cells starting with = + - @ TAB or CR are written with a
 * leading "'" so that a spreadsheet shows them instead of running them
 * (OWASP CSV injection).  jc_csv_raw(1) turns that off for the calling
 * thread (count/compare/estimate --csv-raw), jc_csv_raw(0) back on. */
void jc_csv_raw(int raw);

#if defined(__GNUC__) && !defined(JC_NO_VISIBILITY)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif /* JOULECAST_H */
