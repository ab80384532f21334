/*
 * model.h (public API) - the loaded ONNX model (stage load, src/onnx/).
 * Part of the public API; include <joulecast.h>, which states the
 * conventions (errors, ownership, units) that hold here too.
 */
#ifndef JOULECAST_MODEL_H
#define JOULECAST_MODEL_H

#include "base.h"

JC_BEGIN_DECLS

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

JC_END_DECLS
#endif /* JOULECAST_MODEL_H */
