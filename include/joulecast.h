/*
 * joulecast.h - the one public header of libjoulecast.
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
    JC_ERR_INCOMPLETE = 9,/* result partial (unknown dims/ops) and --strict */
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
    uint64_t ext_offset, ext_length;    /* external: as declared */
    /* Values kept for small tensors only (<= JC_SMALL_TENSOR elements) of
     * integer, bool or floating dtypes: shape inference needs them. */
    int64_t n_vals;     /* -1 when values were not kept */
    int64_t *ivals;     /* integer/bool values (floats truncated) */
    double *fvals;      /* the same values as doubles */
} jc_value;

#define JC_SMALL_TENSOR 4096

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
/* Shapes and cost (stage: shapes + cost; owner src/shape.c, src/ops/)  */
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

/* Reads a serialized TensorProto file (the backend suite's *.pb) and gives
 * its dtype and dims (up to cap of them; *rank is the true rank).  Errors:
 * JC_ERR_IO, JC_ERR_MODEL. */
jc_status jc_tensor_file_dims(const char *path, int *dtype, int64_t *dims,
                              int cap, int *rank, jc_diag *diag);

/* Writes the `count` report of an analysis: text (per_node adds the
 * per-node table; top = number of top nodes by MACs, 0 for none). */
jc_status jc_report_count_text(const jc_analysis *a, FILE *f, int per_node,
                               int top);
/* The `count` report as JSON (schema: docs/json-schemas.md "count"),
 * malloc'ed (caller frees); NULL on out-of-memory. */
char *jc_report_count_json(const jc_analysis *a);
/* The per-node table as CSV (header line first). */
jc_status jc_report_count_csv(const jc_analysis *a, FILE *f);

/* ------------------------------------------------------------------ */
/* Hardware database (stage: hwdb; owner src/hwdb.c)                    */
/* ------------------------------------------------------------------ */
/* (section owned by the hwdb work) */

/* ------------------------------------------------------------------ */
/* Green-Algorithms mode (owner src/ga.c; docs/green-algorithms.md)     */
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
} jc_ga_input;

/* Fills *in with the calculator's defaults: usages 1, PSF 1, PUE and CI
 * unset, platform default, every count 0 and every string NULL. */
void jc_ga_input_init(jc_ga_input *in);

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
    double power_w;          /* idle + (tdp - idle) * usage, times count
                                (CPU: idle of whole sockets, dynamic per
                                core used), before PUE */
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
/* The same as a JSON document (docs/green-algorithms.md), malloc'ed,
 * freed by the caller; NULL on out-of-memory. */
char *jc_report_ga_json(const jc_ga_result *r);

/* ------------------------------------------------------------------ */
/* Reports (owner src/report/)                                          */
/* ------------------------------------------------------------------ */

/* Writes the `inspect` view of a model as text to `f`.  Never fails on a
 * loaded model except for I/O; returns JC_ERR_IO if writing failed. */
jc_status jc_report_inspect_text(const jc_model *m, FILE *f);

/* Returns the `inspect` view as a JSON document (schema in
 * docs/json-schemas.md), malloc'ed; the caller frees it with free().
 * NULL on out-of-memory. */
char *jc_report_inspect_json(const jc_model *m);

#ifdef __cplusplus
}
#endif
#endif /* JOULECAST_H */
