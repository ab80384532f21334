/*
 * load.c (onnx) - turns an ONNX file into joulecast's own graph (jc_model).
 *
 * The file is mapped read-only.  The big, recursive messages (ModelProto,
 * GraphProto, NodeProto, AttributeProto, TensorProto, FunctionProto,
 * ValueInfoProto/TypeProto) are decoded field by field at the wire level so
 * that weight payloads are never copied: an initializer keeps its name,
 * dtype, dims and the byte range of its data, and only small integer and
 * floating tensors keep their values (shape inference needs them).  The
 * small flat messages (OperatorSetIdProto, StringStringEntryProto) are
 * unpacked with protobuf-c, and every field's wire type is checked against
 * the protobuf-c descriptors generated from Debian's onnx.proto, so the
 * schema has one source of truth.
 *
 * This is the only code that includes the generated onnx.pb-c.h; no
 * protobuf-c type leaves src/onnx/.  Every length and count in the file is
 * untrusted: reads are bounds-checked, allocations are proportional to the
 * bytes actually present, and nesting depth is limited.
 */
#include "base/jc_internal.h"
#include "onnx/wire.h"

#include "onnx.pb-c.h"
#include "joulecast/model.h"
#include "joulecast/analysis.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Field numbers of onnx.proto (checked against the protobuf-c descriptors
 * by tests/unit/test_load.c). */
enum {
    MP_IR_VERSION = 1, MP_PRODUCER_NAME = 2, MP_PRODUCER_VERSION = 3,
    MP_DOMAIN = 4, MP_MODEL_VERSION = 5, MP_DOC_STRING = 6, MP_GRAPH = 7,
    MP_OPSET_IMPORT = 8, MP_METADATA_PROPS = 14, MP_TRAINING_INFO = 20,
    MP_FUNCTIONS = 25,

    GP_NODE = 1, GP_NAME = 2, GP_INITIALIZER = 5, GP_DOC_STRING = 10,
    GP_INPUT = 11, GP_OUTPUT = 12, GP_VALUE_INFO = 13,
    GP_SPARSE_INITIALIZER = 15,

    NP_INPUT = 1, NP_OUTPUT = 2, NP_NAME = 3, NP_OP_TYPE = 4,
    NP_ATTRIBUTE = 5, NP_DOMAIN = 7,

    AP_NAME = 1, AP_F = 2, AP_I = 3, AP_S = 4, AP_T = 5, AP_G = 6,
    AP_FLOATS = 7, AP_INTS = 8, AP_STRINGS = 9, AP_TENSORS = 10,
    AP_GRAPHS = 11, AP_TP = 14, AP_TYPE_PROTOS = 15, AP_TYPE = 20,
    AP_REF_ATTR_NAME = 21, AP_SPARSE_TENSOR = 22, AP_SPARSE_TENSORS = 23,

    TP_DIMS = 1, TP_DATA_TYPE = 2, TP_FLOAT_DATA = 4, TP_INT32_DATA = 5,
    TP_STRING_DATA = 6, TP_INT64_DATA = 7, TP_NAME = 8, TP_RAW_DATA = 9,
    TP_DOUBLE_DATA = 10, TP_UINT64_DATA = 11, TP_EXTERNAL_DATA = 13,
    TP_DATA_LOCATION = 14,

    STP_VALUES = 1, STP_INDICES = 2, STP_DIMS = 3,

    VI_NAME = 1, VI_TYPE = 2,

    TY_TENSOR = 1, TY_SEQUENCE = 4, TY_MAP = 5, TY_SPARSE = 8,
    TY_OPTIONAL = 9,
    TT_ELEM_TYPE = 1, TT_SHAPE = 2,
    SH_DIM = 1,
    DIM_VALUE = 1, DIM_PARAM = 2,

    FP_NAME = 1, FP_INPUT = 4, FP_OUTPUT = 5, FP_ATTRIBUTE = 6, FP_NODE = 7,
    FP_OPSET_IMPORT = 9, FP_DOMAIN = 10
};

#define MAX_GRAPH_DEPTH 64
#define MAX_OPSET 1000   /* an operator set version (ONNX's default domain is at 23 in 2025) */
#define MAX_TYPE_DEPTH 32

typedef struct loader {
    jc_model *m;
    jci_arena *a;
    const uint8_t *base;
    size_t size;
    const char *path;
    jc_diag *d;
    int depth;
    /* opsets in force while decoding (model's, or a function's) */
    const jc_opset *opsets;
    size_t n_opsets;
    /* distinct external files */
    jci_strmap ext_map;
    size_t n_ext, cap_ext;
    const char **ext;
    int failed;
    struct gbuild *cur;        /* the graph being read (a subgraph's enclosing scope) */
    /* file mapping (NULL for buffers): pages behind the decoder are
     * released as it goes so the resident set stays near the graph size */
    const uint8_t *map;
    size_t map_len;
    const uint8_t *released;
    size_t total_nodes;        /* nodes of every graph so far (the node cap) */
    /* byte ranges of the tensor payloads the decoder does not read (the
     * graph identity hashes everything else, graph_identity) */
    struct payload_range { size_t off, len; } *pay;
    size_t n_pay, cap_pay;
} loader;

/* The node cap (docs/counting.md "Limits"): a model of more nodes, over
 * all its graphs and subgraphs, is refused before it is decoded further
 * (2^20 nested If nodes took 6 GB and 21 s).  JOULECAST_MAX_NODES=N
 * raises or lowers it. */
#define JCI_MAX_NODES_DEFAULT 1000000

static size_t max_nodes(void)
{
    const char *e = getenv("JOULECAST_MAX_NODES");
    if (e && *e) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(e, &end, 10);
        if (!errno && !*end && v > 0 && *e != '-') return (size_t)v;
    }
    return JCI_MAX_NODES_DEFAULT;
}

/* A graph with its name map; jc_graph is the first member so that
 * jc_graph_find can reach the map from the public struct. */
typedef struct graph_ext {
    jc_graph g;
    jci_strmap map;
} graph_ext;

typedef struct model_internal {
    jci_arena *arena;
    void *map;
    size_t map_len;
} model_internal;

/* Releases the mapped pages before `upto` once more than 4 MiB of them
 * lie behind the last release.  Pages are re-read from the page cache if
 * touched again, so this changes memory use, never results. */
static void release_behind(loader *L, const uint8_t *upto)
{
    if (!L->map || upto < L->map || upto > L->map + L->map_len) return;
    const size_t page = 4096, window = (size_t)4 << 20;
    if (!L->released || upto < L->released) {
        L->released = upto; /* a new pass over earlier bytes */
        return;
    }
    if ((size_t)(upto - L->released) < window) return;
    size_t end = (size_t)(upto - L->map) & ~(page - 1);
    size_t start = (size_t)(L->released - L->map) & ~(page - 1);
    if (end > start) madvise((void *)(L->map + start), end - start, MADV_DONTNEED);
    L->released = L->map + end;
}

/* Records [p, p + len) as a payload the graph identity leaves out.
 * Returns 0, or -1 when out of memory. */
static int skip_payload(loader *L, const uint8_t *p, size_t len)
{
    if (!len || p < L->base || p + len > L->base + L->size) return 0;
    if (L->n_pay == L->cap_pay) {
        size_t cap = L->cap_pay ? 2 * L->cap_pay : 64;
        void *np = realloc(L->pay, cap * sizeof *L->pay);
        if (!np) return -1;
        L->pay = np;
        L->cap_pay = cap;
    }
    L->pay[L->n_pay].off = (size_t)(p - L->base);
    L->pay[L->n_pay].len = len;
    L->n_pay++;
    return 0;
}

static int cmp_range(const void *a, const void *b)
{
    const struct payload_range *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off;
}

/* The graph identity (jc_model.graph_sha256): SHA-256 over the file size
 * as 8 bytes, most significant first, then every byte of the file except
 * the payloads of the tensors whose values the decoder does not read
 * (raw_data or one packed typed field of a tensor too big for its values
 * to be kept).  Only the structure's pages are touched, so the cost
 * follows the graph, not the weights; the pages are released behind. */
static void graph_identity(loader *L, char out[65])
{
    jci_sha256 h;
    jci_sha256_init(&h);
    unsigned char sz[8];
    for (int i = 0; i < 8; i++) sz[i] = (unsigned char)((uint64_t)L->size >> (56 - 8 * i));
    jci_sha256_update(&h, sz, sizeof sz);
    if (L->n_pay) qsort(L->pay, L->n_pay, sizeof *L->pay, cmp_range);
    size_t at = 0;
    L->released = NULL;
    for (size_t i = 0; i <= L->n_pay; i++) {
        size_t end = i < L->n_pay ? L->pay[i].off : L->size;
        for (size_t k = at; k < end;) {       /* in 1 MiB steps, releasing behind */
            size_t n = end - k < ((size_t)1 << 20) ? end - k : (size_t)1 << 20;
            jci_sha256_update(&h, L->base + k, n);
            k += n;
            release_behind(L, L->base + k);
        }
        if (i < L->n_pay && L->pay[i].off + L->pay[i].len > at) at = L->pay[i].off + L->pay[i].len;
        if (at < end) at = end;
    }
    jci_sha256_hex(&h, out);
}

/* ---- errors -------------------------------------------------------------- */

static jc_status fail_at(loader *L, const uint8_t *at, const char *what,
                         const char *why)
{
    if (L->failed) return L->d ? L->d->status : JC_ERR_MODEL;
    L->failed = 1;
    int64_t off = at ? (int64_t)(at - L->base) : -1;
    return jci_diag_at(L->d, JC_ERR_MODEL, L->path, off, "%s: %s", what, why);
}

static jc_status oom(loader *L)
{
    if (L->failed) return L->d ? L->d->status : JC_ERR_NOMEM;
    L->failed = 1;
    return jci_diag_set(L->d, JC_ERR_NOMEM, "%s: out of memory while loading",
                       L->path);
}

/* Checks a field's wire type against the protobuf-c descriptor of its
 * message.  Unknown field numbers are accepted (skipped by the caller: a
 * newer schema).  Packed repeated scalars may come as WT_LEN. */
static int wt_ok(const ProtobufCMessageDescriptor *desc, const wfield *f)
{
    const ProtobufCFieldDescriptor *fd =
        protobuf_c_message_descriptor_get_field(desc, f->num);
    if (!fd) return 1;
    int want;
    switch (fd->type) {
    case PROTOBUF_C_TYPE_INT32: case PROTOBUF_C_TYPE_SINT32:
    case PROTOBUF_C_TYPE_UINT32: case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64: case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_BOOL: case PROTOBUF_C_TYPE_ENUM:
        want = WT_VARINT; break;
    case PROTOBUF_C_TYPE_SFIXED32: case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_FLOAT:
        want = WT_I32; break;
    case PROTOBUF_C_TYPE_SFIXED64: case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_DOUBLE:
        want = WT_I64; break;
    default:
        want = WT_LEN; break;
    }
    if (f->wt == want) return 1;
    return fd->label == PROTOBUF_C_LABEL_REPEATED && want != WT_LEN &&
           f->wt == WT_LEN;
}

#define CHECK_WT(desc, f, what)                                              \
    do {                                                                     \
        if (!wt_ok(&(desc), &(f)))                                           \
            return fail_at(L, (f).start, (what),                             \
                           "field has the wrong wire type for onnx.proto");  \
    } while (0)

/* ---- small helpers ---------------------------------------------------------- */

static const char *dup_str(loader *L, const wfield *f)
{
    return jci_arena_strndup(L->a, (const char *)f->data, f->len);
}

/* A name (value, node, op, domain, graph, function, producer, metadata):
 * control bytes and bidi overrides escaped once here (jci_text_escaped),
 * so that no report line can be forged or recoloured by a model. */
static const char *dup_name(loader *L, const wfield *f)
{
    const char *s = dup_str(L, f);
    return s ? jci_text_escaped(L->a, s) : NULL;
}

/* Counts the varints in a packed span; -1 if malformed. */
static int64_t count_varints(const uint8_t *p, size_t len)
{
    int64_t n = 0;
    for (size_t i = 0; i < len; i++)
        if (!(p[i] & 0x80)) n++;
    if (len && (p[len - 1] & 0x80)) return -1;
    return n;
}

/* Appends repeated int64 values (packed or not) to a growing array held in
 * scratch memory: first call with arr == NULL counts.  Used for dims and
 * attribute ints. */
typedef struct i64vec { int64_t *v; size_t n, cap; } i64vec;

static int i64vec_push(i64vec *x, int64_t v)
{
    if (x->n == x->cap) {
        size_t nc = x->cap ? x->cap * 2 : 8;
        int64_t *nv = realloc(x->v, nc * sizeof *nv);
        if (!nv) return -1;
        x->v = nv;
        x->cap = nc;
    }
    x->v[x->n++] = v;
    return 0;
}

/* Reads an int64 scalar or packed run into x. -1 malformed, -2 OOM. */
static int read_ints(const wfield *f, i64vec *x)
{
    if (f->wt == WT_VARINT) return i64vec_push(x, (int64_t)f->u) ? -2 : 0;
    if (f->wt != WT_LEN) return -1;
    wire w = {f->data, f->data + f->len};
    while (w.p < w.end) {
        uint64_t v;
        if (wire_varint(&w, &v) < 0) return -1;
        if (i64vec_push(x, (int64_t)v)) return -2;
    }
    return 0;
}

static int64_t *i64vec_to_arena(loader *L, i64vec *x)
{
    int64_t *p = jci_arena_calloc(L->a, x->n ? x->n : 1, sizeof *p);
    if (p && x->n) memcpy(p, x->v, x->n * sizeof *p);
    return p;
}

static float f32_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static double f64_of(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

static double half_to_double(uint16_t h)
{
    int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    double v;
    if (e == 0) v = m / 1024.0 / 16384.0;
    else if (e == 31) v = m ? 0.0 / 0.0 : 1.0 / 0.0;
    else {
        v = 1.0 + m / 1024.0;
        int ex = e - 15;
        while (ex > 0) { v *= 2; ex--; }
        while (ex < 0) { v /= 2; ex++; }
    }
    return s ? -v : v;
}

static double bf16_to_double(uint16_t h)
{
    return (double)f32_of((uint32_t)h << 16);
}

/* ---- tensors ---------------------------------------------------------------- */

static int is_numeric_small(int dt)
{
    switch (dt) {
    case JC_DT_FLOAT: case JC_DT_UINT8: case JC_DT_INT8: case JC_DT_UINT16:
    case JC_DT_INT16: case JC_DT_INT32: case JC_DT_INT64: case JC_DT_BOOL:
    case JC_DT_FLOAT16: case JC_DT_DOUBLE: case JC_DT_UINT32:
    case JC_DT_UINT64: case JC_DT_BFLOAT16:
        return 1;
    default:
        return 0;
    }
}

/* Decodes element i of raw little-endian data of dtype dt. */
static double raw_elem(const uint8_t *p, int dt, int64_t i)
{
    uint64_t u = 0;
    switch (dt) {
    case JC_DT_FLOAT: memcpy(&u, p + 4 * i, 4); return f32_of((uint32_t)u);
    case JC_DT_DOUBLE: memcpy(&u, p + 8 * i, 8); return f64_of(u);
    case JC_DT_FLOAT16: memcpy(&u, p + 2 * i, 2); return half_to_double((uint16_t)u);
    case JC_DT_BFLOAT16: memcpy(&u, p + 2 * i, 2); return bf16_to_double((uint16_t)u);
    case JC_DT_UINT8: case JC_DT_BOOL: return p[i];
    case JC_DT_INT8: return (int8_t)p[i];
    case JC_DT_UINT16: { uint16_t v; memcpy(&v, p + 2 * i, 2); return v; }
    case JC_DT_INT16: { int16_t v; memcpy(&v, p + 2 * i, 2); return v; }
    case JC_DT_UINT32: { uint32_t v; memcpy(&v, p + 4 * i, 4); return v; }
    case JC_DT_INT32: { int32_t v; memcpy(&v, p + 4 * i, 4); return v; }
    case JC_DT_UINT64: { uint64_t v; memcpy(&v, p + 8 * i, 8); return (double)v; }
    case JC_DT_INT64: { int64_t v; memcpy(&v, p + 8 * i, 8); return (double)v; }
    }
    return 0;
}

static int64_t raw_elem_i(const uint8_t *p, int dt, int64_t i)
{
    switch (dt) {
    case JC_DT_INT64: { int64_t v; memcpy(&v, p + 8 * i, 8); return v; }
    case JC_DT_UINT64: { uint64_t v; memcpy(&v, p + 8 * i, 8); return (int64_t)v; }
    default: {
        double d = raw_elem(p, dt, i);
        if (d != d) return 0;
        if (d >= 9.2e18) return INT64_MAX;
        if (d <= -9.2e18) return INT64_MIN;
        return (int64_t)d;
    }
    }
}

static int alloc_vals(loader *L, jc_value *v, int64_t n)
{
    v->n_vals = n;
    v->ivals = jci_arena_calloc(L->a, (size_t)(n ? n : 1), sizeof(int64_t));
    v->fvals = jci_arena_calloc(L->a, (size_t)(n ? n : 1), sizeof(double));
    return v->ivals && v->fvals ? 0 : -1;
}

/* Decodes a TensorProto span into *v (name, dtype, dims, data location,
 * small values).  `what` prefixes error messages. */
/* One external_data entry (location, offset, length) of a TensorProto. */
static jc_status tensor_external_entry(loader *L, const wfield *f, jc_value *v, const char *what)
{
    Onnx__StringStringEntryProto *e =
        onnx__string_string_entry_proto__unpack(NULL, f->len, f->data);
    if (!e) return fail_at(L, f->start, what, "malformed external_data entry");
    const char *k = e->key ? e->key : "", *val = e->value ? e->value : "";
    if (strcmp(k, "location") == 0) {
        v->ext_location = jci_arena_strdup(L->a, val);
        if (!v->ext_location) { onnx__string_string_entry_proto__free_unpacked(e, NULL); return oom(L); }
    } else if (strcmp(k, "offset") == 0 || strcmp(k, "length") == 0) {
        char *end = NULL;
        errno = 0;
        unsigned long long x = strtoull(val, &end, 10);
        if (errno || !end || *end || !*val) {
            onnx__string_string_entry_proto__free_unpacked(e, NULL);
            return fail_at(L, f->start, what, "external_data offset/length is not a number");
        }
        if (k[0] == 'o') v->ext_offset = x; else v->ext_length = x;
    }
    onnx__string_string_entry_proto__free_unpacked(e, NULL);
    return JC_OK;
}

/* The values of a small tensor stored in a typed field (float_data,
 * int32_data, ...): a second walk over the message, into v->fvals and
 * v->ivals (allocated for numel values). */
static void tensor_typed_values(jc_value *v, const uint8_t *data, size_t len, int typed_field,
                                int64_t numel)
{
    wfield f;
    const char *why = NULL;
    wire w2 = {data, data + len};
    int64_t k = 0;
    while (wire_next(&w2, &f, &why) > 0 && k < numel) {
        if ((int)f.num != typed_field) continue;
        if (f.wt == WT_LEN) {
            wire pw = {f.data, f.data + f.len};
            while (pw.p < pw.end && k < numel) {
                uint64_t u = 0;
                if (typed_field == TP_FLOAT_DATA) {
                    memcpy(&u, pw.p, 4); pw.p += 4;
                    v->fvals[k] = f32_of((uint32_t)u);
                } else if (typed_field == TP_DOUBLE_DATA) {
                    memcpy(&u, pw.p, 8); pw.p += 8;
                    v->fvals[k] = f64_of(u);
                } else {
                    if (wire_varint(&pw, &u) < 0) break;
                    if (typed_field == TP_INT32_DATA) {
                        int32_t s = (int32_t)(uint32_t)u;
                        if (v->dtype == JC_DT_FLOAT16) v->fvals[k] = half_to_double((uint16_t)u);
                        else if (v->dtype == JC_DT_BFLOAT16) v->fvals[k] = bf16_to_double((uint16_t)u);
                        else v->fvals[k] = s;
                    } else if (typed_field == TP_UINT64_DATA) {
                        v->fvals[k] = (double)u;
                    } else {
                        v->fvals[k] = (double)(int64_t)u;
                        v->ivals[k] = (int64_t)u;
                        k++;
                        continue;
                    }
                }
                double d = v->fvals[k];
                v->ivals[k] = (d != d) ? 0 : d >= 9.2e18 ? INT64_MAX
                            : d <= -9.2e18 ? INT64_MIN : (int64_t)d;
                k++;
            }
        } else {
            uint64_t u = f.u;
            double d;
            if (typed_field == TP_FLOAT_DATA) d = f32_of((uint32_t)u);
            else if (typed_field == TP_DOUBLE_DATA) d = f64_of(u);
            else if (typed_field == TP_INT64_DATA) { v->ivals[k] = (int64_t)u; v->fvals[k] = (double)(int64_t)u; k++; continue; }
            else if (typed_field == TP_INT32_DATA) d = (int32_t)(uint32_t)u;
            else d = (double)u;
            v->fvals[k] = d;
            v->ivals[k] = (d != d) ? 0 : d >= 9.2e18 ? INT64_MAX
                        : d <= -9.2e18 ? INT64_MIN : (int64_t)d;
            k++;
        }
    }
}

/* Where a tensor's payload is (external, raw_data, typed fields) and
 * whether its size agrees with dims x dtype. */
static jc_status tensor_payload(loader *L, jc_value *v, const uint8_t *data, const char *what,
                                int64_t numel, int bits, int loc, const uint8_t *raw,
                                size_t raw_len, const uint8_t *typed, int typed_field,
                                int64_t n_typed, const uint8_t *payload_start,
                                const uint8_t *payload_end)
{
    if (loc == 1 /* EXTERNAL */) {
        v->data_loc = JC_DATA_EXTERNAL;
        if (!v->ext_location) return fail_at(L, data, what, "external data without a location");
    } else if (raw) {
        v->data_loc = JC_DATA_INLINE;
        v->data_offset = (uint64_t)(raw - L->base);
        v->data_length = raw_len;
        if (bits > 0 && v->dtype != JC_DT_STRING) {
            int64_t want;
            if (!jci_mul_ok(numel, bits, &want)) return fail_at(L, data, what, "byte size overflows");
            want = (want + 7) / 8;
            if ((uint64_t)want != raw_len) {
                char msg[160];
                snprintf(msg, sizeof msg, "raw_data holds %zu bytes but dims x dtype need %lld",
                         raw_len, (long long)want);
                return fail_at(L, raw, what, msg);
            }
        }
    } else if (typed) {
        v->data_loc = JC_DATA_INLINE;
        v->data_offset = (uint64_t)(payload_start - L->base);
        v->data_length = (uint64_t)(payload_end - payload_start);
        /* complex types store two floats per element */
        int64_t per = (v->dtype == JC_DT_COMPLEX64 || v->dtype == JC_DT_COMPLEX128) ? 2 : 1;
        int64_t want;
        if (typed_field != TP_STRING_DATA && jci_mul_ok(numel, per, &want) &&
            n_typed != want && !(typed_field == TP_INT32_DATA &&
            (v->dtype == JC_DT_FLOAT16 || v->dtype == JC_DT_BFLOAT16 ||
             jc_dtype_bits(v->dtype) <= 8) && n_typed * 2 >= want && n_typed <= want)) {
            char msg[160];
            snprintf(msg, sizeof msg, "typed data holds %lld elements but dims say %lld",
                     (long long)n_typed, (long long)numel);
            return fail_at(L, typed, what, msg);
        }
    }
    return JC_OK;
}

static jc_status parse_tensor(loader *L, const uint8_t *data, size_t len,
                              jc_value *v, const char *what)
{
    wire w = {data, data + len};
    wfield f;
    const char *why = NULL;
    int r;
    i64vec dims = {0};
    const uint8_t *raw = NULL, *typed = NULL;
    size_t raw_len = 0, typed_len = 0;
    int typed_field = 0, ntyped_fields = 0;
    int64_t n_typed = 0;
    const uint8_t *payload_start = NULL, *payload_end = NULL;
    const uint8_t *packed = NULL;   /* the one packed typed field's bytes */
    size_t packed_len = 0;
    int loc = 0;
    jc_status st = JC_OK;

    v->data_loc = JC_DATA_NONE;
    v->n_vals = -1;
    while ((r = wire_next(&w, &f, &why)) > 0) {
        if (!wt_ok(&onnx__tensor_proto__descriptor, &f)) {
            st = fail_at(L, f.start, what, "TensorProto field has the wrong wire type");
            goto out;
        }
        switch (f.num) {
        case TP_DIMS: {
            int rr = read_ints(&f, &dims);
            if (rr == -2) { st = oom(L); goto out; }
            if (rr < 0) { st = fail_at(L, f.start, what, "malformed dims"); goto out; }
            break;
        }
        case TP_DATA_TYPE: v->dtype = (int)(int32_t)f.u; break;
        case TP_NAME:
            if (!(v->name = dup_str(L, &f))) { st = oom(L); goto out; }
            break;
        case TP_RAW_DATA:
            raw = f.data; raw_len = f.len;
            break;
        case TP_FLOAT_DATA: case TP_INT32_DATA: case TP_INT64_DATA:
        case TP_DOUBLE_DATA: case TP_UINT64_DATA: case TP_STRING_DATA: {
            int64_t k;
            if (f.num == TP_STRING_DATA) k = 1;
            else if (f.wt != WT_LEN) k = 1;
            else if (f.num == TP_FLOAT_DATA) {
                if (f.len % 4) { st = fail_at(L, f.start, what, "float_data length is not a multiple of 4"); goto out; }
                k = (int64_t)(f.len / 4);
            } else if (f.num == TP_DOUBLE_DATA) {
                if (f.len % 8) { st = fail_at(L, f.start, what, "double_data length is not a multiple of 8"); goto out; }
                k = (int64_t)(f.len / 8);
            } else {
                k = count_varints(f.data, f.len);
                if (k < 0) { st = fail_at(L, f.start, what, "malformed packed integers"); goto out; }
            }
            if (typed_field && typed_field != (int)f.num) {
                st = fail_at(L, f.start, what, "tensor has data in two different typed fields");
                goto out;
            }
            typed_field = (int)f.num;
            if (!typed) typed = f.start;
            typed_len = (size_t)(f.data ? f.data + f.len - typed : f.start + 1 - typed);
            n_typed += k;
            ntyped_fields++;
            if (f.wt == WT_LEN && f.num != TP_STRING_DATA) { packed = f.data; packed_len = f.len; }
            if (!payload_start) payload_start = f.start;
            payload_end = w.p;
            break;
        }
        case TP_EXTERNAL_DATA:
            if ((st = tensor_external_entry(L, &f, v, what))) goto out;
            break;
        case TP_DATA_LOCATION: loc = (int)f.u; break;
        default: break;
        }
    }
    if (r < 0) { st = fail_at(L, f.start, what, why); goto out; }

    /* dims and element count */
    v->rank = (int)dims.n;
    if (dims.n > 1024) { st = fail_at(L, data, what, "tensor has more than 1024 dims"); goto out; }
    v->dims = jci_arena_calloc(L->a, dims.n ? dims.n : 1, sizeof(jc_dim));
    if (!v->dims) { st = oom(L); goto out; }
    int64_t numel = 1;
    for (size_t i = 0; i < dims.n; i++) {
        if (dims.v[i] < 0) { st = fail_at(L, data, what, "negative dimension in tensor dims"); goto out; }
        v->dims[i].v = dims.v[i];
        if (!jci_mul_ok(numel, dims.v[i], &numel)) {
            st = fail_at(L, data, what, "element count overflows 64 bits");
            goto out;
        }
    }
    if (v->dtype < 0 || v->dtype >= JC_DT_COUNT_) {
        st = fail_at(L, data, what, "unknown data_type");
        goto out;
    }
    int bits = jc_dtype_bits(v->dtype);

    (void)typed_len;
    (void)ntyped_fields;
    if ((st = tensor_payload(L, v, data, what, numel, bits, loc, raw, raw_len, typed, typed_field,
                             n_typed, payload_start, payload_end)))
        goto out;

    /* keep values of small numeric tensors: shape-typed ones (int64,
     * int32, bool) up to JCI_SMALL_TENSOR elements, the others (floats,
     * 8/16-bit integers: weights far more often than shape operands) up
     * to JCI_SMALL_VALUES, so memory follows the graph, not the weights */
    if (is_numeric_small(v->dtype) &&
        numel <= (v->dtype == JC_DT_INT64 || v->dtype == JC_DT_INT32 ||
                  v->dtype == JC_DT_BOOL ? JCI_SMALL_TENSOR : JCI_SMALL_VALUES) &&
        v->data_loc != JC_DATA_EXTERNAL) {
        if (raw) {
            if (alloc_vals(L, v, numel)) { st = oom(L); goto out; }
            for (int64_t i = 0; i < numel; i++) {
                v->fvals[i] = raw_elem(raw, v->dtype, i);
                v->ivals[i] = raw_elem_i(raw, v->dtype, i);
            }
        } else if (typed && typed_field != TP_STRING_DATA && n_typed == numel) {
            if (alloc_vals(L, v, numel)) { st = oom(L); goto out; }
            tensor_typed_values(v, data, len, typed_field, numel);
        } else if (!raw && !typed && numel == 0) {
            if (alloc_vals(L, v, 0)) { st = oom(L); goto out; }
        }
    }
    /* a payload whose values were not read is left out of the identity */
    if (!v->fvals && v->data_loc == JC_DATA_INLINE &&
        skip_payload(L, raw ? raw : packed, raw ? raw_len : ntyped_fields == 1 ? packed_len : 0)) {
        st = oom(L);
        goto out;
    }
out:
    free(dims.v);
    return st;
}

static jc_status parse_sparse_tensor(loader *L, const uint8_t *data, size_t len,
                                     jc_value *v, const char *what)
{
    wire w = {data, data + len};
    wfield f;
    const char *why = NULL;
    int r;
    i64vec dims = {0};
    jc_status st = JC_OK;
    jc_value vals = {0}, idx = {0};
    while ((r = wire_next(&w, &f, &why)) > 0) {
        if (!wt_ok(&onnx__sparse_tensor_proto__descriptor, &f)) {
            st = fail_at(L, f.start, what, "SparseTensorProto field has the wrong wire type");
            goto out;
        }
        if (f.num == STP_VALUES) {
            if ((st = parse_tensor(L, f.data, f.len, &vals, what))) goto out;
        } else if (f.num == STP_INDICES) {
            if ((st = parse_tensor(L, f.data, f.len, &idx, what))) goto out;
        } else if (f.num == STP_DIMS) {
            int rr = read_ints(&f, &dims);
            if (rr == -2) { st = oom(L); goto out; }
            if (rr < 0) { st = fail_at(L, f.start, what, "malformed dims"); goto out; }
        }
    }
    if (r < 0) { st = fail_at(L, f.start, what, why); goto out; }
    if (dims.n > 1024) { st = fail_at(L, data, what, "too many dims"); goto out; }
    v->name = vals.name;
    v->dtype = vals.dtype;
    v->is_sparse = 1;
    v->rank = (int)dims.n;
    v->dims = jci_arena_calloc(L->a, dims.n ? dims.n : 1, sizeof(jc_dim));
    if (!v->dims) { st = oom(L); goto out; }
    for (size_t i = 0; i < dims.n; i++) {
        if (dims.v[i] < 0) { st = fail_at(L, data, what, "negative dimension"); goto out; }
        v->dims[i].v = dims.v[i];
    }
    v->data_loc = vals.data_loc;
    v->data_offset = vals.data_offset;
    v->data_length = vals.data_length + idx.data_length;
    v->ext_location = vals.ext_location;
    v->n_vals = -1;
    /* number of stored (non-zero) values: the values tensor's element count */
    v->ext_length = 0;
    {
        int64_t nnz = 1;
        for (int i = 0; i < vals.rank; i++)
            if (!jci_mul_ok(nnz, vals.dims[i].v, &nnz)) { nnz = -1; break; }
        v->ext_offset = (uint64_t)(nnz < 0 ? 0 : nnz); /* nnz kept here */
    }
out:
    free(dims.v);
    return st;
}

/* ---- value info / types ---------------------------------------------------- */

static jc_status parse_shape(loader *L, const uint8_t *data, size_t len,
                             jc_value *v, const char *what)
{
    /* count dims first */
    wire w = {data, data + len};
    wfield f;
    const char *why = NULL;
    int r;
    size_t n = 0;
    while ((r = wire_next(&w, &f, &why)) > 0)
        if (f.num == SH_DIM) n++;
    if (r < 0) return fail_at(L, f.start, what, why);
    if (n > 1024) return fail_at(L, data, what, "shape has more than 1024 dims");
    v->rank = (int)n;
    v->dims = jci_arena_calloc(L->a, n ? n : 1, sizeof(jc_dim));
    if (!v->dims) return oom(L);
    w.p = data;
    size_t i = 0;
    while ((r = wire_next(&w, &f, &why)) > 0) {
        if (f.num != SH_DIM) continue;
        if (f.wt != WT_LEN) return fail_at(L, f.start, what, "shape dim is not a message");
        jc_dim *dd = &v->dims[i++];
        dd->v = -1;
        wire dw = {f.data, f.data + f.len};
        wfield g;
        int rr;
        while ((rr = wire_next(&dw, &g, &why)) > 0) {
            if (!wt_ok(&onnx__tensor_shape_proto__dimension__descriptor, &g))
                return fail_at(L, g.start, what, "dimension field has the wrong wire type");
            if (g.num == DIM_VALUE) {
                int64_t x = (int64_t)g.u;
                dd->v = x >= 0 ? x : -1;
            } else if (g.num == DIM_PARAM) {
                if (g.len && !(dd->sym = dup_name(L, &g))) return oom(L);
            }
        }
        if (rr < 0) return fail_at(L, g.start, what, why);
    }
    return JC_OK;
}

static jc_status parse_type(loader *L, const uint8_t *data, size_t len,
                            jc_value *v, const char *what, int depth)
{
    if (depth > MAX_TYPE_DEPTH)
        return fail_at(L, data, what, "type nesting deeper than 32 levels");
    wire w = {data, data + len};
    wfield f;
    const char *why = NULL;
    int r;
    while ((r = wire_next(&w, &f, &why)) > 0) {
        if (!wt_ok(&onnx__type_proto__descriptor, &f))
            return fail_at(L, f.start, what, "TypeProto field has the wrong wire type");
        if (f.num == TY_TENSOR || f.num == TY_SPARSE) {
            wire tw = {f.data, f.data + f.len};
            wfield g;
            int rr;
            while ((rr = wire_next(&tw, &g, &why)) > 0) {
                if (!wt_ok(&onnx__type_proto__tensor__descriptor, &g))
                    return fail_at(L, g.start, what, "tensor type field has the wrong wire type");
                if (g.num == TT_ELEM_TYPE) v->dtype = (int)(int32_t)g.u;
                else if (g.num == TT_SHAPE) {
                    jc_status st = parse_shape(L, g.data, g.len, v, what);
                    if (st) return st;
                }
            }
            if (rr < 0) return fail_at(L, g.start, what, why);
            if (f.num == TY_SPARSE) v->is_sparse = 1;
        } else if (f.num == TY_SEQUENCE || f.num == TY_MAP || f.num == TY_OPTIONAL) {
            v->non_tensor = f.num == TY_OPTIONAL ? 0 : 1;
            /* element type: decode for depth checking; an optional's tensor
             * shape is the value's shape */
            wire tw = {f.data, f.data + f.len};
            wfield g;
            int rr;
            while ((rr = wire_next(&tw, &g, &why)) > 0) {
                if (g.wt == WT_LEN && ((f.num != TY_MAP && g.num == 1) ||
                                       (f.num == TY_MAP && g.num == 2))) {
                    jc_value inner = {0};
                    inner.rank = -1;
                    jc_status st = parse_type(L, g.data, g.len, &inner, what, depth + 1);
                    if (st) return st;
                    if (f.num == TY_OPTIONAL && inner.non_tensor) v->non_tensor = 1;
                    if (f.num == TY_OPTIONAL && !inner.non_tensor) {
                        v->dtype = inner.dtype;
                        v->rank = inner.rank;
                        v->dims = inner.dims;
                    }
                }
            }
            if (rr < 0) return fail_at(L, g.start, what, why);
        }
    }
    if (r < 0) return fail_at(L, f.start, what, why);
    if (v->dtype < 0 || v->dtype >= JC_DT_COUNT_)
        return fail_at(L, data, what, "unknown elem_type");
    return JC_OK;
}

/* ---- graphs ------------------------------------------------------------------ */

/* Building state of one graph: values grow in malloc'd memory and move to
 * the arena when the graph is complete. */
typedef struct gbuild {
    jc_graph *g;
    jc_value *vals;
    size_t n, cap;
    jci_strmap map;
    /* the SSA check (graph_defined): the node that writes each of the
     * first n_prod values (-1: none), and the enclosing graph's build
     * while a subgraph is read (NULL for the main graph and functions) */
    int32_t *prod;
    size_t n_prod;
    struct gbuild *up;
} gbuild;

static int gb_grow_map(loader *L, gbuild *b)
{
    if (b->map.len + 1 <= b->map.cap / 2 && b->map.cap) return 0;
    jci_strmap nm;
    if (!jci_strmap_init(&nm, L->a, b->map.cap ? b->map.cap : 16)) return -1;
    for (size_t i = 0; i < b->map.cap; i++)
        if (b->map.keys[i]) jci_strmap_put(&nm, b->map.keys[i], b->map.vals[i]);
    b->map = nm;
    return 0;
}

/* Returns the index of value `name` (len bytes), creating it with kind k
 * if absent.  -1 on OOM. */
static int32_t gb_value(loader *L, gbuild *b, const char *name, size_t len,
                        jc_vkind k, int *created)
{
    char stackbuf[256];
    char *key = len < sizeof stackbuf ? stackbuf : malloc(len + 1);
    if (!key) return -1;
    memcpy(key, name, len);
    key[len] = 0;
    /* values are keyed and shown by their escaped name (jci_text_escaped:
     * the same for every reference, so edges still match) */
    const char *ekey = jc_text_is_safe(key) ? key : jci_text_escaped(L->a, key);
    if (!ekey) goto fail;
    int32_t idx = jci_strmap_get(&b->map, ekey);
    if (created) *created = 0;
    if (idx < 0) {
        if (b->n >= INT32_MAX - 1 || gb_grow_map(L, b)) goto fail;
        if (b->n == b->cap) {
            size_t nc = b->cap ? b->cap * 2 : 64;
            jc_value *nv = realloc(b->vals, nc * sizeof *nv);
            if (!nv) goto fail;
            b->vals = nv;
            b->cap = nc;
        }
        const char *copy = ekey != key ? ekey : jci_arena_strndup(L->a, name, len);
        if (!copy) goto fail;
        idx = (int32_t)b->n++;
        jc_value *v = &b->vals[idx];
        memset(v, 0, sizeof *v);
        v->name = copy;
        v->kind = k;
        v->rank = -1;
        v->n_vals = -1;
        jci_strmap_put(&b->map, copy, idx);
        if (created) *created = 1;
    }
    if (key != stackbuf) free(key);
    return idx;
fail:
    if (key != stackbuf) free(key);
    return -1;
}

static jc_status parse_graph(loader *L, const uint8_t *data, size_t len,
                             jc_graph *parent, jc_graph **out);

static jc_status parse_value_info(loader *L, gbuild *b, const wfield *vf,
                                  jc_vkind kind, int32_t *idx_out)
{
    wire w = {vf->data, vf->data + vf->len};
    wfield f;
    const char *why = NULL;
    int r;
    const uint8_t *name = NULL, *type = NULL;
    size_t name_len = 0, type_len = 0;
    while ((r = wire_next(&w, &f, &why)) > 0) {
        CHECK_WT(onnx__value_info_proto__descriptor, f, "value info");
        if (f.num == VI_NAME) { name = f.data; name_len = f.len; }
        else if (f.num == VI_TYPE) { type = f.data; type_len = f.len; }
    }
    if (r < 0) return fail_at(L, f.start, "value info", why);
    if (!name || !name_len) return fail_at(L, vf->start, "value info", "has no name");
    int created;
    int32_t idx = gb_value(L, b, (const char *)name, name_len, kind, &created);
    if (idx < 0) return oom(L);
    if (idx_out) *idx_out = idx;
    if (type) {
        jc_value tmp = {0};
        tmp.rank = -1;
        char what[300];
        snprintf(what, sizeof what, "type of '%.200s'", b->vals[idx].name);
        jc_status st = parse_type(L, type, type_len, &tmp, what, 0);
        if (st) return st;
        jc_value *v = &b->vals[idx];
        /* an initializer's own dims win over a declared input type */
        if (v->kind != JC_V_INITIALIZER) {
            if (tmp.dtype) v->dtype = tmp.dtype;
            if (tmp.rank >= 0) { v->rank = tmp.rank; v->dims = tmp.dims; }
            v->non_tensor = tmp.non_tensor;
            if (tmp.is_sparse) v->is_sparse = 1;
        }
    }
    return JC_OK;
}

/* Pass 2 of an attribute: the lists, tensors and graphs counted by pass 1
 * (nf floats, ns strings, nt tensors, ng graphs; slot0 / gslot0: a single
 * tensor / graph field came first), then the element count by type. */
static jc_status attr_lists(loader *L, const uint8_t *data, size_t len, jc_graph *g, jc_attr *at,
                            const char *node_what, size_t nf, size_t ns, size_t nt, size_t ng,
                            size_t slot0, size_t gslot0)
{
    /* pass 2: lists, tensors, graphs */
    wire w = {data, data + len};
    wfield f;
    const char *why = NULL;
    int r;
    jc_status st;
    size_t kf = 0, ks = 0, kt = 0, kg = 0;
    char what[700];
    snprintf(what, sizeof what, "%.400s, attribute '%.100s'", node_what, at->name);
    while ((r = wire_next(&w, &f, &why)) > 0) {
        switch (f.num) {
        case AP_FLOATS:
            if (f.wt == WT_LEN) {
                for (size_t i = 0; i + 4 <= f.len && kf < nf; i += 4) {
                    uint32_t u;
                    memcpy(&u, f.data + i, 4);
                    at->floats[kf++] = f32_of(u);
                }
            } else if (kf < nf) {
                at->floats[kf++] = f32_of((uint32_t)f.u);
            }
            break;
        case AP_STRINGS:
            if (!(at->strings[ks++] = dup_str(L, &f))) return oom(L);
            break;
        case AP_T: case AP_SPARSE_TENSOR: {
            jc_value *tv = &at->t[0];
            memset(tv, 0, sizeof *tv);
            tv->rank = -1;
            tv->kind = JC_V_INITIALIZER;
            st = f.num == AP_T ? parse_tensor(L, f.data, f.len, tv, what)
                               : parse_sparse_tensor(L, f.data, f.len, tv, what);
            if (st) return st;
            if (!tv->name) tv->name = "";
            break;
        }
        case AP_TENSORS: case AP_SPARSE_TENSORS: {
            jc_value *tv = &at->t[slot0 + kt++];
            memset(tv, 0, sizeof *tv);
            tv->rank = -1;
            tv->kind = JC_V_INITIALIZER;
            st = f.num == AP_TENSORS ? parse_tensor(L, f.data, f.len, tv, what)
                                     : parse_sparse_tensor(L, f.data, f.len, tv, what);
            if (st) return st;
            if (!tv->name) tv->name = "";
            break;
        }
        case AP_G:
            if ((st = parse_graph(L, f.data, f.len, g, &at->g[0]))) return st;
            break;
        case AP_GRAPHS:
            if ((st = parse_graph(L, f.data, f.len, g, &at->g[gslot0 + kg++]))) return st;
            break;
        default: break;
        }
    }
    if (at->type == JC_ATTR_FLOATS) at->n = nf;
    else if (at->type == JC_ATTR_STRINGS) at->n = ns;
    else if (at->type == JC_ATTR_TENSORS || at->type == JC_ATTR_SPARSE_TENSORS) {
        at->n = nt;
        if (slot0) at->t++; /* a stray single tensor before the list */
    } else if (at->type == JC_ATTR_GRAPHS) {
        at->n = ng;
        if (gslot0) at->g++;
    } else if (at->type == JC_ATTR_TENSOR || at->type == JC_ATTR_SPARSE_TENSOR) {
        if (!slot0) return fail_at(L, data, what, "tensor attribute without a tensor");
        at->n = 1;
    } else if (at->type == JC_ATTR_GRAPH) {
        if (!gslot0) return fail_at(L, data, what, "graph attribute without a graph");
        at->n = 1;
    }    (void)r;
    return JC_OK;
}

static jc_status parse_attr(loader *L, const uint8_t *data, size_t len,
                            jc_graph *g, jc_attr *at, const char *node_what)
{
    wire w = {data, data + len};
    wfield f;
    const char *why = NULL;
    int r;
    size_t nf = 0, ns = 0, nt = 0, ng = 0;
    i64vec ints = {0};
    int has_type = 0, seen_f = 0, seen_i = 0, seen_s = 0, seen_t = 0, seen_g = 0,
        seen_st = 0, seen_tp = 0, seen_sts = 0, seen_tps = 0;
    jc_status st = JC_OK;

    /* pass 1: counts and scalars */
    while ((r = wire_next(&w, &f, &why)) > 0) {
        if (!wt_ok(&onnx__attribute_proto__descriptor, &f)) {
            st = fail_at(L, f.start, node_what, "AttributeProto field has the wrong wire type");
            goto out;
        }
        switch (f.num) {
        case AP_NAME: if (!(at->name = dup_str(L, &f))) { st = oom(L); goto out; } break;
        case AP_REF_ATTR_NAME: if (!(at->ref_attr_name = dup_str(L, &f))) { st = oom(L); goto out; } break;
        case AP_TYPE: at->type = (jc_attr_type)(int)f.u; has_type = 1; break;
        case AP_F: at->f = f32_of((uint32_t)f.u); seen_f = 1; break;
        case AP_I: at->i = (int64_t)f.u; seen_i = 1; break;
        case AP_S:
            if (!(at->s = dup_str(L, &f))) { st = oom(L); goto out; }
            at->s_len = f.len; seen_s = 1;
            break;
        case AP_T: seen_t = 1; break;
        case AP_G: seen_g = 1; break;
        case AP_SPARSE_TENSOR: seen_st = 1; break;
        case AP_TP: seen_tp = 1; break;
        case AP_FLOATS: nf += f.wt == WT_LEN ? f.len / 4 : 1;
            if (f.wt == WT_LEN && f.len % 4) { st = fail_at(L, f.start, node_what, "packed floats length is not a multiple of 4"); goto out; }
            break;
        case AP_INTS: {
            int rr = read_ints(&f, &ints);
            if (rr == -2) { st = oom(L); goto out; }
            if (rr < 0) { st = fail_at(L, f.start, node_what, "malformed ints"); goto out; }
            break;
        }
        case AP_STRINGS: ns++; break;
        case AP_TENSORS: nt++; break;
        case AP_GRAPHS: ng++; break;
        case AP_SPARSE_TENSORS: seen_sts = 1; nt++; break;
        case AP_TYPE_PROTOS: seen_tps = 1; break;
        default: break;
        }
    }
    if (r < 0) { st = fail_at(L, f.start, node_what, why); goto out; }
    if (!at->name) at->name = "";
    if (!has_type || at->type == JC_ATTR_UNDEFINED) {
        /* IR < 3 files: infer the type from the field present */
        at->type = seen_g ? JC_ATTR_GRAPH : seen_t ? JC_ATTR_TENSOR
                 : seen_st ? JC_ATTR_SPARSE_TENSOR : seen_tp ? JC_ATTR_TYPE_PROTO
                 : seen_s ? JC_ATTR_STRING : seen_f ? JC_ATTR_FLOAT
                 : seen_i ? JC_ATTR_INT : ng ? JC_ATTR_GRAPHS
                 : seen_sts ? JC_ATTR_SPARSE_TENSORS : nt ? JC_ATTR_TENSORS
                 : ns ? JC_ATTR_STRINGS : nf ? JC_ATTR_FLOATS
                 : ints.n ? JC_ATTR_INTS : seen_tps ? JC_ATTR_TYPE_PROTOS
                 : JC_ATTR_UNDEFINED;
    }
    if (at->type > JC_ATTR_TYPE_PROTOS || (int)at->type < 0) {
        st = fail_at(L, data, node_what, "attribute has an unknown type");
        goto out;
    }
    if (ints.n) {
        at->ints = i64vec_to_arena(L, &ints);
        if (!at->ints) { st = oom(L); goto out; }
        if (at->type == JC_ATTR_INTS) at->n = ints.n;
    }
    if (nf) {
        at->floats = jci_arena_calloc(L->a, nf, sizeof(double));
        if (!at->floats) { st = oom(L); goto out; }
    }
    if (ns) {
        at->strings = jci_arena_calloc(L->a, ns, sizeof(char *));
        if (!at->strings) { st = oom(L); goto out; }
    }
    size_t ntot = nt + (seen_t || seen_st ? 1 : 0);
    if (ntot) {
        at->t = jci_arena_calloc(L->a, ntot, sizeof(jc_value));
        if (!at->t) { st = oom(L); goto out; }
    }
    size_t gtot = ng + (seen_g ? 1 : 0);
    if (gtot) {
        at->g = jci_arena_calloc(L->a, gtot, sizeof(jc_graph *));
        if (!at->g) { st = oom(L); goto out; }
    }

    /* pass 2: lists, tensors, graphs */
    st = attr_lists(L, data, len, g, at, node_what, nf, ns, nt, ng, (seen_t || seen_st) ? 1 : 0,
                    seen_g ? 1 : 0);

out:
    free(ints.v);
    return st;
}

static int64_t opset_for(loader *L, const char *domain)
{
    int def = !*domain || strcmp(domain, "ai.onnx") == 0;
    for (size_t i = 0; i < L->n_opsets; i++) {
        const char *d = L->opsets[i].domain;
        int ddef = !*d || strcmp(d, "ai.onnx") == 0;
        if ((def && ddef) || strcmp(d, domain) == 0) return L->opsets[i].version;
    }
    return 0;
}

static jc_status parse_node(loader *L, gbuild *b, const wfield *nf, jc_node *n)
{
    wire w = {nf->data, nf->data + nf->len};
    wfield f;
    const char *why = NULL;
    int r;
    size_t ni = 0, no = 0, na = 0;
    /* pass 1: scalars and counts */
    while ((r = wire_next(&w, &f, &why)) > 0) {
        CHECK_WT(onnx__node_proto__descriptor, f, "node");
        switch (f.num) {
        case NP_INPUT: ni++; break;
        case NP_OUTPUT: no++; break;
        case NP_ATTRIBUTE: na++; break;
        case NP_NAME: if (!(n->name = dup_name(L, &f))) return oom(L); break;
        case NP_OP_TYPE: if (!(n->op_type = dup_name(L, &f))) return oom(L); break;
        case NP_DOMAIN: if (!(n->domain = dup_name(L, &f))) return oom(L); break;
        default: break;
        }
    }
    if (r < 0) return fail_at(L, f.start, "node", why);
    if (!n->name) n->name = "";
    if (!n->domain) n->domain = "";
    char what[400];
    snprintf(what, sizeof what, "node '%.150s' (%.100s)", n->name,
             n->op_type ? n->op_type : "?");
    if (!n->op_type || !*n->op_type)
        return fail_at(L, nf->start, what, "node has no op_type");
    if (!strcmp(n->domain, "ai.onnx")) n->domain = "";
    n->opset = (int)opset_for(L, n->domain);
    if (!n->opset && !*n->domain)
        return fail_at(L, nf->start, what, "the model imports no opset for the default ONNX domain (opset_import): "
                       "the operator's version is unknown");
    n->n_inputs = ni;
    n->n_outputs = no;
    n->n_attrs = na;
    n->inputs = jci_arena_calloc(L->a, ni ? ni : 1, sizeof(int32_t));
    n->outputs = jci_arena_calloc(L->a, no ? no : 1, sizeof(int32_t));
    n->attrs = jci_arena_calloc(L->a, na ? na : 1, sizeof(jc_attr));
    if (!n->inputs || !n->outputs || !n->attrs) return oom(L);
    /* pass 2: inputs (outer references created on demand), attributes */
    w.p = nf->data;
    size_t ki = 0, ka = 0;
    while ((r = wire_next(&w, &f, &why)) > 0) {
        if (f.num == NP_INPUT) {
            if (!f.len) { n->inputs[ki++] = -1; continue; }
            int32_t idx = gb_value(L, b, (const char *)f.data, f.len,
                                   JC_V_OUTER, NULL);
            if (idx < 0) return oom(L);
            n->inputs[ki++] = idx;
        } else if (f.num == NP_ATTRIBUTE) {
            jc_status st = parse_attr(L, f.data, f.len, b->g, &n->attrs[ka++], what);
            if (st) return st;
        }
    }
    return JC_OK;
}

/* Outputs of nodes are created in a pass of their own, before any node's
 * inputs are resolved, so a value used before the node that makes it (a
 * non-topological file) is still an intermediate, not an outer reference. */
static jc_status node_outputs(loader *L, gbuild *b, const wfield *nf, jc_node *n)
{
    wire w = {nf->data, nf->data + nf->len};
    wfield f;
    const char *why = NULL;
    size_t k = 0;
    while (wire_next(&w, &f, &why) > 0) {
        if (f.num != NP_OUTPUT) continue;
        if (!f.len) { n->outputs[k++] = -1; continue; }
        int created;
        int32_t idx = gb_value(L, b, (const char *)f.data, f.len,
                               JC_V_INTERMEDIATE, &created);
        if (idx < 0) return oom(L);
        if (!created && b->vals[idx].kind == JC_V_OUTER)
            b->vals[idx].kind = JC_V_INTERMEDIATE;
        n->outputs[k++] = idx;
    }
    return JC_OK;
}

/* Pass 1 of a graph: its initializers (dense and sparse), each a named
 * value of the graph; a duplicate name is an error. */
static jc_status graph_initializers(loader *L, gbuild *b, jc_graph *g, const wfield *fs, size_t nfs)
{
    wfield f;
    jc_status st;
    for (size_t q = 0; q < nfs; q++) {
        f = fs[q];
        if (f.num != GP_INITIALIZER && f.num != GP_SPARSE_INITIALIZER) continue;
        jc_value tmp = {0};
        tmp.rank = -1;
        tmp.kind = JC_V_INITIALIZER;
        char what[64];
        snprintf(what, sizeof what, "initializer #%zu", g->n_initializers + 1);
        st = f.num == GP_INITIALIZER ? parse_tensor(L, f.data, f.len, &tmp, what)
                                     : parse_sparse_tensor(L, f.data, f.len, &tmp, what);
        if (st) return st;
        if (!tmp.name || !*tmp.name) return fail_at(L, f.start, what, "initializer has no name");
        int created;
        int32_t idx = gb_value(L, b, tmp.name, strlen(tmp.name), JC_V_INITIALIZER, &created);
        if (idx < 0) return oom(L);
        if (!created) {
            char msg[300];
            snprintf(msg, sizeof msg, "duplicate initializer '%.200s'", tmp.name);
            return fail_at(L, f.start, what, msg);
        }
        tmp.name = b->vals[idx].name;
        b->vals[idx] = tmp;
        g->initializers[g->n_initializers++] = idx;
        release_behind(L, f.data + f.len);
    }
    return JC_OK;
}

/* Records the external data files the graph's values name (once each). */
static jc_status graph_external_files(loader *L, const jc_graph *g)
{
    for (size_t i = 0; i < g->n_values; i++) {
        const char *loc = g->values[i].ext_location;
        if (g->values[i].data_loc != JC_DATA_EXTERNAL || !loc) continue;
        if (jci_strmap_get(&L->ext_map, loc) >= 0) continue;
        if (L->n_ext == L->cap_ext) {
            size_t nc = L->cap_ext ? L->cap_ext * 2 : 4;
            const char **ne = jci_arena_calloc(L->a, nc, sizeof *ne);
            jci_strmap nm;
            if (!ne || !jci_strmap_init(&nm, L->a, nc)) return oom(L);
            if (L->n_ext) memcpy(ne, L->ext, L->n_ext * sizeof *ne);
            for (size_t q = 0; q < L->n_ext; q++) jci_strmap_put(&nm, ne[q], (int32_t)q);
            L->ext = ne;
            L->cap_ext = nc;
            L->ext_map = nm;
        }
        L->ext[L->n_ext] = loc;
        jci_strmap_put(&L->ext_map, loc, (int32_t)L->n_ext);
        L->n_ext++;
    }
    return JC_OK;
}

/* ---- the graph's values are defined once and before use (the ONNX
 * checker's SSA and defined-input rules) -------------------------------- */

/* Value idx of b is defined in b: a graph input, an initializer, or
 * written by one of b's nodes. */
static bool defined_here(const gbuild *b, int32_t idx)
{
    const jc_value *v = &b->vals[idx];
    return v->kind == JC_V_INPUT || v->kind == JC_V_INITIALIZER ||
           ((size_t)idx < b->n_prod && b->prod[idx] >= 0);
}

/* Name defined in b or in a graph enclosing it. */
static bool defined_in_scope(const gbuild *b, const char *name)
{
    for (; b; b = b->up) {
        int32_t j = jci_strmap_get(&b->map, name);
        if (j >= 0 && defined_here(b, j)) return true;
    }
    return false;
}

/* Step 3's record: which node writes each value.  A value written by two
 * nodes, or a node writing a graph input or an initializer, is refused
 * (exit 4) naming both writers; node names are read by then (step 4). */
static jc_status graph_producers(loader *L, gbuild *b, const wfield *const *nodef)
{
    const jc_graph *g = b->g;
    for (size_t k = 0; k < g->n_nodes; k++) {
        const jc_node *n = &g->nodes[k];
        for (size_t o = 0; o < n->n_outputs; o++) {
            int32_t idx = n->outputs[o];
            if (idx < 0) continue;
            const jc_value *v = &b->vals[idx];
            char what[400], why[600];
            snprintf(what, sizeof what, "node '%.150s' (%.100s)", n->name, n->op_type);
            if (v->kind == JC_V_INPUT || v->kind == JC_V_INITIALIZER) {
                snprintf(why, sizeof why, "output '%.200s' is a graph %s too: a value has one definition (SSA)",
                         v->name, v->kind == JC_V_INPUT ? "input" : "initializer");
                return fail_at(L, nodef[k]->start, what, why);
            }
            int32_t first = b->prod[idx];
            if (first >= 0 && (size_t)first != k) {
                const jc_node *m = &g->nodes[first];
                snprintf(why, sizeof why, "output '%.200s' is written by node '%.100s' (%.60s) too: a value has "
                         "one producer (SSA)", v->name, m->name, m->op_type);
                return fail_at(L, nodef[k]->start, what, why);
            }
        }
    }
    return JC_OK;
}

/* After step 4: every node input is defined in the graph or an enclosing
 * one, and every graph output in the graph or an enclosing one; else
 * refused (exit 4) naming the node (or the output) and the value. */
static jc_status graph_defined(loader *L, gbuild *b, const wfield *const *nodef, const wfield *outf)
{
    const jc_graph *g = b->g;
    char what[400], why[600];
    for (size_t k = 0; k < g->n_nodes; k++) {
        const jc_node *n = &g->nodes[k];
        for (size_t i = 0; i < n->n_inputs; i++) {
            int32_t idx = n->inputs[i];
            if (idx < 0 || defined_here(b, idx) || defined_in_scope(b->up, b->vals[idx].name)) continue;
            snprintf(what, sizeof what, "node '%.150s' (%.100s)", n->name, n->op_type);
            snprintf(why, sizeof why, "input '%.200s' is defined nowhere: no node, graph input or initializer "
                     "of this graph%s writes it", b->vals[idx].name, b->up ? " or an enclosing one" : "");
            return fail_at(L, nodef[k]->start, what, why);
        }
    }
    for (size_t i = 0; i < g->n_outputs; i++) {
        int32_t idx = g->outputs[i];
        if (defined_here(b, idx) || defined_in_scope(b->up, b->vals[idx].name)) continue;
        snprintf(why, sizeof why, "'%.200s' is produced by no node and is no graph input or initializer",
                 b->vals[idx].name);
        return fail_at(L, outf ? outf->start : NULL, "graph output", why);
    }
    return JC_OK;
}

/* b->prod[v]: the first node (of g's n_nodes, their outputs known) that
 * writes value v, or -1.  Errors: JC_ERR_NOMEM. */
static jc_status graph_writers(loader *L, gbuild *b, const jc_graph *g, size_t n_nodes)
{
    b->prod = malloc((b->n ? b->n : 1) * sizeof *b->prod);
    if (!b->prod) return oom(L);
    b->n_prod = b->n;
    for (size_t i = 0; i < b->n; i++) b->prod[i] = -1;
    for (size_t i = 0; i < n_nodes; i++)
        for (size_t o = 0; o < g->nodes[i].n_outputs; o++) {
            int32_t idx = g->nodes[i].outputs[o];
            if (idx >= 0 && b->prod[idx] < 0) b->prod[idx] = (int32_t)i;
        }
    return JC_OK;
}

/* g->n_subgraphs_total: its nodes' subgraphs, each with its own total. */
static void graph_subgraph_totals(jc_graph *g)
{
    for (size_t i = 0; i < g->n_nodes; i++)
        for (size_t j = 0; j < g->nodes[i].n_attrs; j++) {
            const jc_attr *at = &g->nodes[i].attrs[j];
            if (at->type == JC_ATTR_GRAPH || at->type == JC_ATTR_GRAPHS)
                for (size_t q = 0; q < at->n; q++)
                    g->n_subgraphs_total += 1 + at->g[q]->n_subgraphs_total;
        }
}

static jc_status parse_graph(loader *L, const uint8_t *data, size_t len,
                             jc_graph *parent, jc_graph **out)
{
    if (L->depth >= MAX_GRAPH_DEPTH)
        return fail_at(L, data, "graph", "subgraphs nested deeper than 64 levels");
    L->depth++;
    jc_status st = JC_OK;
    gbuild b = {0};
    wfield *fs = NULL;
    const wfield **nodef = NULL;   /* node k's field */
    const wfield *outf = NULL;     /* the first graph output's field */
    gbuild *enclosing = L->cur;
    b.up = parent ? enclosing : NULL;   /* a function body sees no outer scope */
    L->cur = &b;
    graph_ext *ge = jci_arena_alloc(L->a, sizeof *ge);
    if (!ge) { st = oom(L); goto out; }
    jc_graph *g = &ge->g;
    g->parent = parent;
    b.g = g;

    /* One walk over the graph's fields records the spans of the repeated
     * fields; the passes below iterate over the spans, so an initializer's
     * pages are touched once (by pass 1) however many passes there are. */
    wire w = {data, data + len};
    wfield f;
    const char *why = NULL;
    int r;
    size_t n_nodes = 0, n_in = 0, n_out = 0, n_init = 0, nfs = 0, capfs = 0;
    while ((r = wire_next(&w, &f, &why)) > 0) {
        if (!wt_ok(&onnx__graph_proto__descriptor, &f)) {
            st = fail_at(L, f.start, "graph", "field has the wrong wire type for onnx.proto");
            goto out;
        }
        switch (f.num) {
        case GP_NODE: n_nodes++; break;
        case GP_INPUT: n_in++; break;
        case GP_OUTPUT: n_out++; break;
        case GP_INITIALIZER: case GP_SPARSE_INITIALIZER: n_init++; break;
        case GP_VALUE_INFO: break;
        case GP_NAME: if (!(g->name = dup_name(L, &f))) { st = oom(L); goto out; } continue;
        case GP_DOC_STRING: if (!(g->doc_string = dup_str(L, &f))) { st = oom(L); goto out; } continue;
        default: continue;
        }
        if (nfs == capfs) {
            size_t nc = capfs ? capfs * 2 : 64;
            wfield *nf = realloc(fs, nc * sizeof *nf);
            if (!nf) { st = oom(L); goto out; }
            fs = nf;
            capfs = nc;
        }
        fs[nfs++] = f;
        release_behind(L, w.p);
    }
    if (r < 0) { st = fail_at(L, f.start, "graph", why); goto out; }
    L->total_nodes += n_nodes;
    if (L->total_nodes > max_nodes()) {
        st = jci_diag_at(L->d, JC_ERR_RANGE, L->path, -1, "the model has more than %zu nodes (over all its graphs "
                         "and subgraphs): refused unread; JOULECAST_MAX_NODES=N raises the cap", max_nodes());
        L->failed = 1;
        goto out;
    }
    if (!g->name) g->name = "";
    g->nodes = jci_arena_calloc(L->a, n_nodes ? n_nodes : 1, sizeof(jc_node));
    g->inputs = jci_arena_calloc(L->a, n_in ? n_in : 1, sizeof(int32_t));
    g->outputs = jci_arena_calloc(L->a, n_out ? n_out : 1, sizeof(int32_t));
    g->initializers = jci_arena_calloc(L->a, n_init ? n_init : 1, sizeof(int32_t));
    if (!g->nodes || !g->inputs || !g->outputs || !g->initializers) { st = oom(L); goto out; }

    /* 1: initializers */
    if ((st = graph_initializers(L, &b, g, fs, nfs))) goto out;
    /* 2: inputs, outputs, value_info */
    for (size_t q = 0; q < nfs; q++) {
        f = fs[q];
        int32_t idx;
        if (f.num == GP_INPUT) {
            if ((st = parse_value_info(L, &b, &f, JC_V_INPUT, &idx))) goto out;
            if (b.vals[idx].kind == JC_V_OUTER) b.vals[idx].kind = JC_V_INPUT;
            if (b.vals[idx].kind == JC_V_INPUT) g->inputs[g->n_inputs++] = idx;
        } else if (f.num == GP_OUTPUT) {
            if (!outf) outf = &fs[q];
            if ((st = parse_value_info(L, &b, &f, JC_V_INTERMEDIATE, &idx))) goto out;
            g->outputs[g->n_outputs++] = idx;
        } else if (f.num == GP_VALUE_INFO) {
            if ((st = parse_value_info(L, &b, &f, JC_V_INTERMEDIATE, &idx))) goto out;
        }
    }
    /* 3: node outputs, then 4: nodes */
    nodef = malloc((n_nodes ? n_nodes : 1) * sizeof *nodef);
    if (!nodef) { st = oom(L); goto out; }
    size_t k = 0;
    for (size_t q = 0; q < nfs; q++) {
        f = fs[q];
        if (f.num != GP_NODE) continue;
        nodef[k] = &fs[q];
        jc_node *n = &g->nodes[k++];
        /* count outputs first */
        wire nw = {f.data, f.data + f.len};
        wfield h;
        int rr;
        size_t no = 0;
        while ((rr = wire_next(&nw, &h, &why)) > 0)
            if (h.num == NP_OUTPUT) no++;
        if (rr < 0) { st = fail_at(L, h.start, "node", why); goto out; }
        n->outputs = jci_arena_calloc(L->a, no ? no : 1, sizeof(int32_t));
        if (!n->outputs) { st = oom(L); goto out; }
        n->n_outputs = no;
        if ((st = node_outputs(L, &b, &f, n))) goto out;
    }
    /* which node writes each value (before step 4: a subgraph resolves
     * its outer references against it) */
    if ((st = graph_writers(L, &b, g, n_nodes))) goto out;
    k = 0;
    for (size_t q = 0; q < nfs; q++) {
        f = fs[q];
        if (f.num != GP_NODE) continue;
        jc_node *n = &g->nodes[k++];
        int32_t *outs = n->outputs;
        if ((st = parse_node(L, &b, &f, n))) goto out;
        memcpy(n->outputs, outs, n->n_outputs * sizeof(int32_t));
        g->n_nodes = k;
    }
    g->n_nodes = n_nodes;
    if ((st = graph_producers(L, &b, nodef)) || (st = graph_defined(L, &b, nodef, outf))) goto out;
    graph_subgraph_totals(g);
    /* move values into the arena */
    g->n_values = b.n;
    g->values = jci_arena_calloc(L->a, b.n ? b.n : 1, sizeof(jc_value));
    if (!g->values) { st = oom(L); goto out; }
    if (b.n) memcpy(g->values, b.vals, b.n * sizeof(jc_value));
    ge->map = b.map; /* kept for jc_graph_find */
    if (!g->doc_string) g->doc_string = "";
    /* external files */
    if ((st = graph_external_files(L, g))) goto out;
    *out = g;
out:
    free(b.vals);
    free(b.prod);
    free(nodef);
    free(fs);
    L->cur = enclosing;
    L->depth--;
    return st;
}

/* ---- functions and the model ------------------------------------------------ */

static jc_status parse_opset(loader *L, const wfield *f, jc_opset *o)
{
    Onnx__OperatorSetIdProto *p =
        onnx__operator_set_id_proto__unpack(NULL, f->len, f->data);
    if (!p) return fail_at(L, f->start, "opset_import", "malformed OperatorSetIdProto");
    o->domain = jci_arena_strdup(L->a, p->domain ? p->domain : "");
    o->version = p->has_version ? p->version : 0;
    onnx__operator_set_id_proto__free_unpacked(p, NULL);
    if (!o->domain) return oom(L);
    if (!strcmp(o->domain, "ai.onnx")) o->domain = "";
    if (o->version < 1 || o->version > MAX_OPSET) {   /* an int in every node: 2^63-1 wrapped to -1 */
        char why[300];
        snprintf(why, sizeof why, "domain '%.100s' version %lld is outside 1..%d (no ONNX release has it)",
                 jc_text_is_safe(o->domain) ? o->domain : "?", (long long)o->version, MAX_OPSET);
        return fail_at(L, f->start, "opset_import", why);
    }
    return JC_OK;
}

static jc_status parse_function(loader *L, const wfield *ff, jc_function *fn)
{
    wire w = {ff->data, ff->data + ff->len};
    wfield f;
    const char *why = NULL;
    int r;
    size_t ni = 0, no = 0, na = 0, nop = 0;
    while ((r = wire_next(&w, &f, &why)) > 0) {
        CHECK_WT(onnx__function_proto__descriptor, f, "function");
        switch (f.num) {
        case FP_NAME: if (!(fn->name = dup_name(L, &f))) return oom(L); break;
        case FP_DOMAIN: if (!(fn->domain = dup_name(L, &f))) return oom(L); break;
        case FP_INPUT: ni++; break;
        case FP_OUTPUT: no++; break;
        case FP_ATTRIBUTE: na++; break;
        case FP_OPSET_IMPORT: nop++; break;
        default: break;
        }
    }
    if (r < 0) return fail_at(L, f.start, "function", why);
    if (!fn->name) fn->name = "";
    if (!fn->domain) fn->domain = "";
    fn->inputs = jci_arena_calloc(L->a, ni ? ni : 1, sizeof(char *));
    fn->outputs = jci_arena_calloc(L->a, no ? no : 1, sizeof(char *));
    fn->attributes = jci_arena_calloc(L->a, na ? na : 1, sizeof(char *));
    fn->opsets = jci_arena_calloc(L->a, nop ? nop : 1, sizeof(jc_opset));
    if (!fn->inputs || !fn->outputs || !fn->attributes || !fn->opsets) return oom(L);
    w.p = ff->data;
    while ((r = wire_next(&w, &f, &why)) > 0) {
        const char **slot = NULL;
        if (f.num == FP_INPUT) slot = &fn->inputs[fn->n_inputs++];
        else if (f.num == FP_OUTPUT) slot = &fn->outputs[fn->n_outputs++];
        else if (f.num == FP_ATTRIBUTE) slot = &fn->attributes[fn->n_attributes++];
        else if (f.num == FP_OPSET_IMPORT) {
            jc_status st = parse_opset(L, &f, &fn->opsets[fn->n_opsets++]);
            if (st) return st;
        }
        if (slot && !(*slot = dup_str(L, &f))) return oom(L);
    }
    /* The body is decoded as a graph whose nodes are the function's nodes:
     * wrap them by reusing parse_graph over the same span (FP_NODE == 7 is
     * not GP_NODE == 1), so build a synthetic GraphProto in scratch memory:
     * node fields re-tagged as field 1, inputs as value infos. */
    size_t cap = ff->len + 16 * (ni + no + 1);
    uint8_t *buf = malloc(cap ? cap : 1), *q = buf;
    if (!buf) return oom(L);
    w.p = ff->data;
    while (wire_next(&w, &f, &why) > 0) {
        if (f.num != FP_NODE && f.num != FP_INPUT && f.num != FP_OUTPUT) continue;
        uint32_t tag = (uint32_t)((f.num == FP_NODE ? GP_NODE
                                   : f.num == FP_INPUT ? GP_INPUT : GP_OUTPUT) << 3 | WT_LEN);
        size_t inner = f.len;
        if (f.num != FP_NODE) inner = f.len + 2 + (f.len >= 128 ? 4 : 0);
        /* tag */
        *q++ = (uint8_t)tag;
        /* length varint */
        size_t x = inner;
        uint8_t lenbuf[10];
        int nl = 0;
        /* for value infos, inner = [0x0a len name] */
        if (f.num != FP_NODE) {
            size_t nlen = f.len, y = nlen;
            uint8_t nb[10];
            int nn = 0;
            do { nb[nn++] = (uint8_t)((y & 0x7f) | (y > 0x7f ? 0x80 : 0)); y >>= 7; } while (y);
            inner = 1 + (size_t)nn + nlen;
            x = inner;
            do { lenbuf[nl++] = (uint8_t)((x & 0x7f) | (x > 0x7f ? 0x80 : 0)); x >>= 7; } while (x);
            memcpy(q, lenbuf, (size_t)nl); q += nl;
            *q++ = (uint8_t)(VI_NAME << 3 | WT_LEN);
            memcpy(q, nb, (size_t)nn); q += nn;
            memcpy(q, f.data, nlen); q += nlen;
        } else {
            do { lenbuf[nl++] = (uint8_t)((x & 0x7f) | (x > 0x7f ? 0x80 : 0)); x >>= 7; } while (x);
            memcpy(q, lenbuf, (size_t)nl); q += nl;
            memcpy(q, f.data, f.len); q += f.len;
        }
    }
    /* decode with the function's opsets in force; offsets in errors refer
     * to the function as a whole */
    const jc_opset *save_o = L->opsets;
    size_t save_n = L->n_opsets;
    const uint8_t *save_base = L->base;
    if (fn->n_opsets) { L->opsets = fn->opsets; L->n_opsets = fn->n_opsets; }
    L->base = buf;
    jc_status st = parse_graph(L, buf, (size_t)(q - buf), NULL, &fn->body);
    L->opsets = save_o;
    L->n_opsets = save_n;
    L->base = save_base;
    free(buf);
    if (st && L->d && st != JC_ERR_NOMEM) {
        /* report the function's own position, not the scratch copy's */
        char inner[sizeof L->d->msg];
        const char *p = strstr(L->d->msg, ": byte ");
        p = p ? strchr(p + 7, ':') : NULL;
        snprintf(inner, sizeof inner, "%s", p ? p + 2 : L->d->msg);
        jci_diag_at(L->d, st, L->path, (int64_t)(ff->start - L->base),
                   "function '%.100s': %s", fn->name, inner);
    }
    return st;
}

/* What a file that failed to decode looks like instead of ONNX: JSON, a
 * zip archive or plain text (its first 256 bytes all printable), else
 * NULL.  Asked only after a decoding error, so a valid model is never
 * judged by its first bytes. */
static const char *other_kind(const uint8_t *b, size_t size)
{
    size_t i = 0;
    while (i < size && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n')) i++;
    if (i < size && (b[i] == '{' || b[i] == '['))
        return "it looks like JSON: a Hugging Face config.json goes to --hf-config, with --generate";
    if (size >= 4 && !memcmp(b, "PK\003\004", 4))
        return "it looks like a zip archive, such as a PyTorch checkpoint: export the model to ONNX first";
    size_t n = size < 256 ? size : 256, text = 0;
    for (i = 0; i < n; i++) text += (b[i] >= 0x20 && b[i] < 0x7f) || b[i] == '\n' || b[i] == '\t' || b[i] == '\r';
    return n && text == n ? "it looks like text: a job file ends in .yaml or .yml" : NULL;
}

/* Why the top-level ModelProto could not be read: a field that claims
 * more bytes than the file has left is a cut-off file, said with the
 * file's size and the size it would need; else the wire-level reason. */
static jc_status model_unreadable(loader *L, const wfield *f, const char *why)
{
    const uint8_t *end = L->base + L->size;
    if (f->wt == WT_LEN && strstr(why, "runs past")) {
        wire w = {f->start, end};
        uint64_t tag, n;
        if (wire_varint(&w, &tag) == 0 && wire_varint(&w, &n) == 0) {
            L->failed = 1;
            return jci_diag_at(L->d, JC_ERR_MODEL, L->path, (int64_t)(f->start - L->base),
                               "truncated at byte %zu of %llu: the file ends inside a field of the model (a copy "
                               "or download cut short?)", L->size,
                               (unsigned long long)((uint64_t)(w.p - L->base) + n));
        }
    }
    if (strstr(why, "truncated")) {
        L->failed = 1;
        return jci_diag_at(L->d, JC_ERR_MODEL, L->path, (int64_t)(f->start - L->base),
                           "truncated at byte %zu: the file ends inside a field of the model (%s)", L->size, why);
    }
    return fail_at(L, f->start, "model", why);
}

static jc_status parse_model(loader *L, const uint8_t *data, size_t len)
{
    jc_model *m = L->m;
    wire w = {data, data + len};
    wfield f;
    const char *why = NULL;
    int r;
    size_t nop = 0, nmeta = 0, nfun = 0;
    const uint8_t *graph = NULL;
    size_t graph_len = 0;
    int fields = 0;
    while ((r = wire_next(&w, &f, &why)) > 0) {
        fields++;
        CHECK_WT(onnx__model_proto__descriptor, f, "model");
        switch (f.num) {
        case MP_IR_VERSION: m->ir_version = (int64_t)f.u; break;
        case MP_MODEL_VERSION: m->model_version = (int64_t)f.u; break;
        case MP_PRODUCER_NAME: if (!(m->producer_name = dup_name(L, &f))) return oom(L); break;
        case MP_PRODUCER_VERSION: if (!(m->producer_version = dup_name(L, &f))) return oom(L); break;
        case MP_DOMAIN: if (!(m->domain = dup_name(L, &f))) return oom(L); break;
        case MP_DOC_STRING: if (!(m->doc_string = dup_str(L, &f))) return oom(L); break;
        case MP_GRAPH: graph = f.data; graph_len = f.len; break;
        case MP_OPSET_IMPORT: nop++; break;
        case MP_METADATA_PROPS: nmeta++; break;
        case MP_FUNCTIONS: nfun++; break;
        case MP_TRAINING_INFO: m->n_training_info++; break;
        default: break;
        }
    }
    if (r < 0) return model_unreadable(L, &f, why);
    if (!fields) return fail_at(L, data, "model", "empty file: not an ONNX model");
    if (!graph) return fail_at(L, data, "model", "no graph (field 7 of ModelProto): not an ONNX model");
    if (m->ir_version <= 0 || m->ir_version > 100)
        return fail_at(L, data, "model", "ir_version missing or out of range: not an ONNX model");
    if (!m->producer_name) m->producer_name = "";
    if (!m->producer_version) m->producer_version = "";
    if (!m->domain) m->domain = "";
    if (!m->doc_string) m->doc_string = "";
    m->opsets = jci_arena_calloc(L->a, nop ? nop : 1, sizeof(jc_opset));
    m->metadata = jci_arena_calloc(L->a, nmeta ? nmeta : 1, sizeof(jc_string_pair));
    m->functions = jci_arena_calloc(L->a, nfun ? nfun : 1, sizeof(jc_function));
    if (!m->opsets || !m->metadata || !m->functions) return oom(L);
    w.p = data;
    while (wire_next(&w, &f, &why) > 0) {
        if (f.num == MP_OPSET_IMPORT) {
            jc_status st = parse_opset(L, &f, &m->opsets[m->n_opsets++]);
            if (st) return st;
        } else if (f.num == MP_METADATA_PROPS) {
            Onnx__StringStringEntryProto *e =
                onnx__string_string_entry_proto__unpack(NULL, f.len, f.data);
            if (!e) return fail_at(L, f.start, "metadata_props", "malformed entry");
            jc_string_pair *sp = &m->metadata[m->n_metadata++];
            sp->key = jci_text_escaped(L->a, jci_arena_strdup(L->a, e->key ? e->key : ""));
            sp->value = jci_text_escaped(L->a, jci_arena_strdup(L->a, e->value ? e->value : ""));
            onnx__string_string_entry_proto__free_unpacked(e, NULL);
            if (!sp->key || !sp->value) return oom(L);
        }
    }
    L->opsets = m->opsets;
    L->n_opsets = m->n_opsets;
    jc_status st = parse_graph(L, graph, graph_len, NULL, &m->graph);
    if (st) return st;
    w.p = data;
    while (wire_next(&w, &f, &why) > 0) {
        if (f.num != MP_FUNCTIONS) continue;
        st = parse_function(L, &f, &m->functions[m->n_functions++]);
        if (st) return st;
    }
    /* totals */
    int64_t params = 0, bytes = 0;
    for (size_t i = 0; i < m->graph->n_initializers; i++) {
        const jc_value *v = &m->graph->values[m->graph->initializers[i]];
        int64_t n = 1;
        if (v->is_sparse) n = (int64_t)v->ext_offset;
        else
            for (int d = 0; d < v->rank; d++)
                if (!jci_mul_ok(n, v->dims[d].v, &n)) { n = -1; break; }
        if (n < 0 || params < 0) { params = -1; continue; }
        int64_t b;
        if (!jci_add_ok(params, n, &params)) { params = -1; continue; }
        if (jci_mul_ok(n, jc_dtype_bits(v->dtype), &b)) jci_add_ok(bytes, (b + 7) / 8, &bytes);
    }
    m->n_params = params;
    m->weight_bytes = bytes;
    m->n_ext_files = L->n_ext;
    m->ext_files = L->ext;
    return JC_OK;
}

/* ---- lookups ---------------------------------------------------------------- */

int32_t jc_graph_find(const jc_graph *g, const char *name)
{
    if (!g || !name) return -1;
    const graph_ext *ge = (const graph_ext *)g;
    return jci_strmap_get(&ge->map, name);
}

const jc_attr *jc_node_attr(const jc_node *n, const char *name)
{
    for (size_t i = 0; i < n->n_attrs; i++)
        if (strcmp(n->attrs[i].name, name) == 0) return &n->attrs[i];
    return NULL;
}

int64_t jc_model_opset(const jc_model *m, const char *domain)
{
    if (!domain) domain = "";
    int def = !*domain || strcmp(domain, "ai.onnx") == 0;
    for (size_t i = 0; i < m->n_opsets; i++) {
        const char *d = m->opsets[i].domain;
        if ((def && !*d) || strcmp(d, domain) == 0) return m->opsets[i].version;
    }
    return 0;
}

/* ---- entry points ------------------------------------------------------------- */

static jc_status load_bytes(const uint8_t *data, size_t len, const char *name,
                            jc_model **out, jc_diag *d, void *map, size_t map_len)
{
    jci_arena *a = jci_arena_new();
    if (!a) return jci_diag_set(d, JC_ERR_NOMEM, "%s: out of memory", name);
    jc_model *m = jci_arena_alloc(a, sizeof *m);
    model_internal *mi = jci_arena_alloc(a, sizeof *mi);
    if (!m || !mi) {
        jci_arena_free(a);
        return jci_diag_set(d, JC_ERR_NOMEM, "%s: out of memory", name);
    }
    mi->arena = a;
    mi->map = map;
    mi->map_len = map_len;
    m->internal_ = mi;
    m->path = jci_arena_strdup(a, name);
    m->file_size = len;
    loader L = {0};
    L.m = m;
    L.a = a;
    L.base = data;
    L.size = len;
    L.path = name;
    L.d = d;
    L.map = map;
    L.map_len = map_len;
    jc_status st = m->path ? parse_model(&L, data, len) : oom(&L);
    const char *kind = st == JC_ERR_MODEL ? other_kind(data, len) : NULL;
    if (kind) st = jci_diag_at(d, JC_ERR_MODEL, name, 0, "not an ONNX file (%s)", kind);
    if (!st) graph_identity(&L, m->graph_sha256);
    free(L.pay);
    if (st) {
        m->internal_ = mi;
        jc_model_free(m);
        *out = NULL;
        return st;
    }
    *out = m;
    return JC_OK;
}

jc_status jc_model_load_buffer(const void *buf, size_t len, const char *name,
                               jc_model **out, jc_diag *d)
{
    if (!out) return jci_diag_set(d, JC_ERR_USAGE, "jc_model_load_buffer: out is NULL");
    *out = NULL;
    if (!buf && len) return jci_diag_set(d, JC_ERR_USAGE, "jc_model_load_buffer: NULL buffer");
    jci_diag_clear(d);
    return load_bytes(buf, len, name ? name : "(buffer)", out, d, NULL, 0);
}

jc_status jc_model_load(const char *path, jc_model **out, jc_diag *d)
{
    if (!out || !path) return jci_diag_set(d, JC_ERR_USAGE, "jc_model_load: NULL argument");
    *out = NULL;
    jci_diag_clear(d);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return jci_diag_at(d, JC_ERR_IO, path, -1, "cannot open: %s", strerror(errno));
    struct stat sb;
    if (fstat(fd, &sb) < 0) {
        int e = errno;
        close(fd);
        return jci_diag_at(d, JC_ERR_IO, path, -1, "cannot stat: %s", strerror(e));
    }
    if (S_ISDIR(sb.st_mode)) {
        close(fd);
        return jci_diag_at(d, JC_ERR_IO, path, -1, "is a directory, expected an .onnx file");
    }
    if (!S_ISREG(sb.st_mode)) {
        close(fd);
        return jci_diag_at(d, JC_ERR_IO, path, -1, "not a regular file");
    }
    if (sb.st_size == 0) {
        close(fd);
        return jci_diag_at(d, JC_ERR_MODEL, path, 0, "empty file: not an ONNX model");
    }
    if ((uint64_t)sb.st_size > ((uint64_t)1 << 40)) {
        close(fd);
        return jci_diag_at(d, JC_ERR_MODEL, path, -1, "file larger than 1 TiB");
    }
    size_t len = (size_t)sb.st_size;
    void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    int e = errno;
    close(fd);
    if (map == MAP_FAILED)
        return jci_diag_at(d, JC_ERR_IO, path, -1, "cannot map: %s", strerror(e));
    /* Only the structure is read; payload pages are skipped, so avoid
     * read-ahead faulting them in. */
    madvise(map, len, MADV_RANDOM);
    jc_status st = load_bytes(map, len, path, out, d, map, len);
    if (st) return st;
    /* The decoded model holds no pointer into the mapping: release it now
     * so the resident set follows the graph, not the file. */
    munmap(map, len);
    ((model_internal *)(*out)->internal_)->map = NULL;
    return JC_OK;
}

void jc_model_free(jc_model *m)
{
    if (!m) return;
    model_internal *mi = m->internal_;
    if (mi->map) munmap(mi->map, mi->map_len);
    jci_arena_free(mi->arena);
}

/* ---- schema self-check (tests) -------------------------------------------- */

#include "onnx/onnx_internal.h"

int jci_onnx_schema_selfcheck(char *buf, size_t cap)
{
    static const struct {
        const ProtobufCMessageDescriptor *d;
        const char *field;
        unsigned num;
    } expect[] = {
        {&onnx__model_proto__descriptor, "ir_version", MP_IR_VERSION},
        {&onnx__model_proto__descriptor, "producer_name", MP_PRODUCER_NAME},
        {&onnx__model_proto__descriptor, "producer_version", MP_PRODUCER_VERSION},
        {&onnx__model_proto__descriptor, "domain", MP_DOMAIN},
        {&onnx__model_proto__descriptor, "model_version", MP_MODEL_VERSION},
        {&onnx__model_proto__descriptor, "doc_string", MP_DOC_STRING},
        {&onnx__model_proto__descriptor, "graph", MP_GRAPH},
        {&onnx__model_proto__descriptor, "opset_import", MP_OPSET_IMPORT},
        {&onnx__model_proto__descriptor, "metadata_props", MP_METADATA_PROPS},
        {&onnx__model_proto__descriptor, "training_info", MP_TRAINING_INFO},
        {&onnx__model_proto__descriptor, "functions", MP_FUNCTIONS},
        {&onnx__graph_proto__descriptor, "node", GP_NODE},
        {&onnx__graph_proto__descriptor, "name", GP_NAME},
        {&onnx__graph_proto__descriptor, "initializer", GP_INITIALIZER},
        {&onnx__graph_proto__descriptor, "sparse_initializer", GP_SPARSE_INITIALIZER},
        {&onnx__graph_proto__descriptor, "doc_string", GP_DOC_STRING},
        {&onnx__graph_proto__descriptor, "input", GP_INPUT},
        {&onnx__graph_proto__descriptor, "output", GP_OUTPUT},
        {&onnx__graph_proto__descriptor, "value_info", GP_VALUE_INFO},
        {&onnx__node_proto__descriptor, "input", NP_INPUT},
        {&onnx__node_proto__descriptor, "output", NP_OUTPUT},
        {&onnx__node_proto__descriptor, "name", NP_NAME},
        {&onnx__node_proto__descriptor, "op_type", NP_OP_TYPE},
        {&onnx__node_proto__descriptor, "attribute", NP_ATTRIBUTE},
        {&onnx__node_proto__descriptor, "domain", NP_DOMAIN},
        {&onnx__attribute_proto__descriptor, "name", AP_NAME},
        {&onnx__attribute_proto__descriptor, "f", AP_F},
        {&onnx__attribute_proto__descriptor, "i", AP_I},
        {&onnx__attribute_proto__descriptor, "s", AP_S},
        {&onnx__attribute_proto__descriptor, "t", AP_T},
        {&onnx__attribute_proto__descriptor, "g", AP_G},
        {&onnx__attribute_proto__descriptor, "floats", AP_FLOATS},
        {&onnx__attribute_proto__descriptor, "ints", AP_INTS},
        {&onnx__attribute_proto__descriptor, "strings", AP_STRINGS},
        {&onnx__attribute_proto__descriptor, "tensors", AP_TENSORS},
        {&onnx__attribute_proto__descriptor, "graphs", AP_GRAPHS},
        {&onnx__attribute_proto__descriptor, "tp", AP_TP},
        {&onnx__attribute_proto__descriptor, "type_protos", AP_TYPE_PROTOS},
        {&onnx__attribute_proto__descriptor, "type", AP_TYPE},
        {&onnx__attribute_proto__descriptor, "ref_attr_name", AP_REF_ATTR_NAME},
        {&onnx__attribute_proto__descriptor, "sparse_tensor", AP_SPARSE_TENSOR},
        {&onnx__attribute_proto__descriptor, "sparse_tensors", AP_SPARSE_TENSORS},
        {&onnx__tensor_proto__descriptor, "dims", TP_DIMS},
        {&onnx__tensor_proto__descriptor, "data_type", TP_DATA_TYPE},
        {&onnx__tensor_proto__descriptor, "float_data", TP_FLOAT_DATA},
        {&onnx__tensor_proto__descriptor, "int32_data", TP_INT32_DATA},
        {&onnx__tensor_proto__descriptor, "string_data", TP_STRING_DATA},
        {&onnx__tensor_proto__descriptor, "int64_data", TP_INT64_DATA},
        {&onnx__tensor_proto__descriptor, "name", TP_NAME},
        {&onnx__tensor_proto__descriptor, "raw_data", TP_RAW_DATA},
        {&onnx__tensor_proto__descriptor, "double_data", TP_DOUBLE_DATA},
        {&onnx__tensor_proto__descriptor, "uint64_data", TP_UINT64_DATA},
        {&onnx__tensor_proto__descriptor, "external_data", TP_EXTERNAL_DATA},
        {&onnx__tensor_proto__descriptor, "data_location", TP_DATA_LOCATION},
        {&onnx__sparse_tensor_proto__descriptor, "values", STP_VALUES},
        {&onnx__sparse_tensor_proto__descriptor, "indices", STP_INDICES},
        {&onnx__sparse_tensor_proto__descriptor, "dims", STP_DIMS},
        {&onnx__value_info_proto__descriptor, "name", VI_NAME},
        {&onnx__value_info_proto__descriptor, "type", VI_TYPE},
        {&onnx__type_proto__descriptor, "tensor_type", TY_TENSOR},
        {&onnx__type_proto__descriptor, "sequence_type", TY_SEQUENCE},
        {&onnx__type_proto__descriptor, "map_type", TY_MAP},
        {&onnx__type_proto__descriptor, "sparse_tensor_type", TY_SPARSE},
        {&onnx__type_proto__descriptor, "optional_type", TY_OPTIONAL},
        {&onnx__type_proto__tensor__descriptor, "elem_type", TT_ELEM_TYPE},
        {&onnx__type_proto__tensor__descriptor, "shape", TT_SHAPE},
        {&onnx__tensor_shape_proto__descriptor, "dim", SH_DIM},
        {&onnx__tensor_shape_proto__dimension__descriptor, "dim_value", DIM_VALUE},
        {&onnx__tensor_shape_proto__dimension__descriptor, "dim_param", DIM_PARAM},
        {&onnx__function_proto__descriptor, "name", FP_NAME},
        {&onnx__function_proto__descriptor, "input", FP_INPUT},
        {&onnx__function_proto__descriptor, "output", FP_OUTPUT},
        {&onnx__function_proto__descriptor, "attribute", FP_ATTRIBUTE},
        {&onnx__function_proto__descriptor, "node", FP_NODE},
        {&onnx__function_proto__descriptor, "opset_import", FP_OPSET_IMPORT},
        {&onnx__function_proto__descriptor, "domain", FP_DOMAIN},
    };
    int bad = 0;
    if (cap) buf[0] = 0;
    for (size_t i = 0; i < sizeof expect / sizeof expect[0]; i++) {
        const ProtobufCFieldDescriptor *fd =
            protobuf_c_message_descriptor_get_field_by_name(expect[i].d, expect[i].field);
        if (!fd || fd->id != expect[i].num) {
            if (!bad && cap)
                snprintf(buf, cap, "%s.%s: decoder uses %u, schema says %d",
                         expect[i].d->name, expect[i].field, expect[i].num,
                         fd ? (int)fd->id : -1);
            bad++;
        }
    }
    return bad;
}

/* ---- a lone TensorProto file (the backend suite's *.pb) ------------------ */

jc_status jci_tensor_file_dims(const char *path, int *dtype, int64_t *dims, int cap,
                              int *rank, jc_diag *d)
{
    return jci_tensor_file_values(path, dtype, dims, cap, rank, NULL, NULL, 0, NULL, d);
}

/* Reads a lone TensorProto: dtype, dims and (when kept by parse_tensor and
 * at most vcap of them) the small values. */
jc_status jci_tensor_file_values(const char *path, int *dtype, int64_t *dims, int cap,
                                int *rank, int64_t *ivals, double *fvals, int64_t vcap,
                                int64_t *n_vals, jc_diag *d)
{
    if (!path || !dtype || !rank || (cap > 0 && !dims))
        return jci_diag_set(d, JC_ERR_USAGE, "jci_tensor_file_values: NULL argument");
    if (n_vals) *n_vals = -1;
    jci_diag_clear(d);
    FILE *f = fopen(path, "rb");
    if (!f) return jci_diag_at(d, JC_ERR_IO, path, -1, "cannot open: %s", strerror(errno));
    char *cbuf = NULL;
    size_t len = 0;
    jci_read_result rr = jci_read_stream(f, (size_t)1 << 31, &cbuf, &len);
    fclose(f);
    if (rr == JCI_READ_IO) return jci_diag_at(d, JC_ERR_IO, path, -1, "read error");
    if (rr != JCI_READ_OK) return jci_diag_set(d, JC_ERR_NOMEM, "%s: out of memory", path);
    uint8_t *buf = (uint8_t *)cbuf;
    jci_arena *a = jci_arena_new();
    if (!a) {
        free(buf);
        return jci_diag_set(d, JC_ERR_NOMEM, "%s: out of memory", path);
    }
    loader L = {0};
    L.a = a;
    L.base = buf;
    L.size = len;
    L.path = path;
    L.d = d;
    jc_value v = {0};
    jc_status st = parse_tensor(&L, buf, len, &v, "TensorProto");
    free(L.pay);   /* no identity for a lone tensor */
    if (!st) {
        *dtype = v.dtype;
        *rank = v.rank;
        for (int i = 0; i < v.rank && i < cap; i++) dims[i] = v.dims[i].v;
        if (n_vals && v.n_vals >= 0 && v.ivals && v.n_vals <= vcap) {
            for (int64_t i = 0; i < v.n_vals; i++) {
                if (ivals) ivals[i] = v.ivals[i];
                if (fvals) fvals[i] = v.fvals[i];
            }
            *n_vals = v.n_vals;
        } else if (n_vals && v.rank >= 0 && v.data_loc != JC_DATA_EXTERNAL &&
                   is_numeric_small(v.dtype)) {
            int64_t numel = 1;   /* an empty tensor has no data field at all */
            for (int i = 0; i < v.rank; i++) numel = v.dims[i].v == 0 ? 0 : numel;
            if (numel == 0) *n_vals = 0;
        }
    }
    jci_arena_free(a);
    free(buf);
    return st;
}
