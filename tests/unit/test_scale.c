/*
 * test_scale.c - 64-bit offsets and sizes in the loader: a ModelProto of
 * more than 5 GiB (one float32 initializer whose raw_data spans 5 GiB,
 * then a node, the graph name and the inputs after the 4 GiB mark) is
 * built in an anonymous mapping that is never touched except at its two
 * ends (no memory is used for the payload), loaded from the buffer and
 * from a sparse file, and every offset, length and count that passes
 * 2^31 and 2^32 must come out exact; an error placed beyond 4 GiB must
 * report its true byte offset.  A 32-bit truncation anywhere on the path
 * (varint lengths, spans, offsets, file size) fails these checks.
 */
#include "joulecast.h"
#include "check.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define ROWS ((uint64_t)20971520)           /* 2^24 + 2^22 rows of 64 floats */
#define RAW_LEN (ROWS * 64 * 4)              /* 5 GiB: past 2^31 and 2^32 */

typedef struct bytes { uint8_t b[512]; size_t n; } bytes;

static void put(bytes *x, const void *p, size_t n) { memcpy(x->b + x->n, p, n); x->n += n; }
static void varint(bytes *x, uint64_t v)
{
    do {
        uint8_t c = (uint8_t)(v & 0x7f);
        v >>= 7;
        if (v) c |= 0x80;
        x->b[x->n++] = c;
    } while (v);
}
static void tag(bytes *x, unsigned field, unsigned wt) { varint(x, (uint64_t)field << 3 | wt); }
static void lenfield(bytes *x, unsigned field, const bytes *inner)
{
    tag(x, field, 2);
    varint(x, inner->n);
    put(x, inner->b, inner->n);
}
static void strfield(bytes *x, unsigned field, const char *s)
{
    tag(x, field, 2);
    varint(x, strlen(s));
    put(x, s, strlen(s));
}

/* ValueInfoProto name: float [d0, d1] */
static void value_info(bytes *x, unsigned field, const char *name, uint64_t d0, uint64_t d1)
{
    bytes dim0 = {{0}, 0}, dim1 = {{0}, 0}, shape = {{0}, 0}, tt = {{0}, 0}, ty = {{0}, 0}, vi = {{0}, 0};
    tag(&dim0, 1, 0); varint(&dim0, d0);
    tag(&dim1, 1, 0); varint(&dim1, d1);
    lenfield(&shape, 1, &dim0);
    lenfield(&shape, 1, &dim1);
    tag(&tt, 1, 0); varint(&tt, 1);          /* elem_type float */
    lenfield(&tt, 2, &shape);
    lenfield(&ty, 1, &tt);                   /* tensor_type */
    strfield(&vi, 1, name);
    lenfield(&vi, 2, &ty);
    lenfield(x, field, &vi);
}

typedef struct layout {
    bytes head, tail;
    uint64_t raw_off;      /* first payload byte */
    uint64_t tail_off;     /* first byte after the payload */
    uint64_t bad_off;      /* where the corrupt test puts a bad tag */
    uint64_t total;
} layout;

/* head = ModelProto fields up to the raw_data length; tail = the rest of
 * the graph.  corrupt: the graph-name tag gets the invalid wire type 7. */
static void build(layout *L, int corrupt)
{
    memset(L, 0, sizeof *L);
    bytes tensor_head = {{0}, 0}, node = {{0}, 0}, opset = {{0}, 0};
    tag(&tensor_head, 1, 0); varint(&tensor_head, ROWS);
    tag(&tensor_head, 1, 0); varint(&tensor_head, 64);
    tag(&tensor_head, 2, 0); varint(&tensor_head, 1);     /* float */
    strfield(&tensor_head, 8, "W");
    tag(&tensor_head, 9, 2); varint(&tensor_head, RAW_LEN);
    uint64_t tensor_len = tensor_head.n + RAW_LEN;

    strfield(&node, 1, "x");
    strfield(&node, 1, "W");
    strfield(&node, 2, "y");
    strfield(&node, 3, "far_node");
    strfield(&node, 4, "MatMul");
    lenfield(&L->tail, 1, &node);
    size_t name_at = L->tail.n;
    strfield(&L->tail, 2, "beyond_4GiB");
    if (corrupt) L->tail.b[name_at] = (uint8_t)(2 << 3 | 7);
    value_info(&L->tail, 11, "x", 1, ROWS);
    value_info(&L->tail, 12, "y", 1, 64);

    bytes init_hdr = {{0}, 0};
    tag(&init_hdr, 5, 2); varint(&init_hdr, tensor_len);
    uint64_t graph_len = init_hdr.n + tensor_len + L->tail.n;

    tag(&opset, 2, 0); varint(&opset, 14);
    tag(&L->head, 1, 0); varint(&L->head, 8);             /* ir_version */
    lenfield(&L->head, 8, &opset);
    tag(&L->head, 7, 2); varint(&L->head, graph_len);
    put(&L->head, init_hdr.b, init_hdr.n);
    put(&L->head, tensor_head.b, tensor_head.n);
    L->raw_off = L->head.n;
    L->tail_off = L->raw_off + RAW_LEN;
    L->bad_off = L->tail_off + name_at;
    L->total = L->tail_off + L->tail.n;
}

static void check_model(const jc_model *m, const layout *L)
{
    CHECK_I64(m->file_size, L->total);
    CHECK_I64(m->graph->n_nodes, 1);
    CHECK_STR(m->graph->nodes[0].name, "far_node");
    CHECK_STR(m->graph->name, "beyond_4GiB");
    CHECK_I64(m->graph->n_initializers, 1);
    const jc_value *w = &m->graph->values[m->graph->initializers[0]];
    CHECK_STR(w->name, "W");
    CHECK_I64(w->data_loc, JC_DATA_INLINE);
    CHECK_I64(w->data_offset, L->raw_off);
    CHECK_I64(w->data_length, RAW_LEN);
    CHECK_I64(w->dims[0].v, ROWS);
    CHECK_I64(m->n_params, ROWS * 64);
    CHECK_I64(m->weight_bytes, RAW_LEN);
    jc_analysis *an = NULL;
    jc_diag d;
    CHECK_I64(jc_analyze(m, NULL, &an, &d), JC_OK);
    if (an) {
        CHECK_I64(an->totals.macs, ROWS * 64);
        CHECK_I64(an->totals.params, ROWS * 64);
        jc_analysis_free(an);
    }
}

/* Maps total bytes of zeros (untouched: no memory) and writes head/tail. */
static uint8_t *synth(const layout *L)
{
    void *p = mmap(NULL, L->total, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return NULL;
    memcpy(p, L->head.b, L->head.n);
    memcpy((uint8_t *)p + L->tail_off, L->tail.b, L->tail.n);
    return p;
}

static void test_buffer_over_4gib(void)
{
    layout L;
    build(&L, 0);
    CHECK(L.tail_off > ((uint64_t)1 << 32));
    uint8_t *p = synth(&L);
    CHECK(p != NULL);
    if (!p) return;
    jc_model *m = NULL;
    jc_diag d;
    jc_status st = jc_model_load_buffer(p, L.total, "synthetic", &m, &d);
    CHECK_I64(st, JC_OK);
    if (st) printf("  %s\n", d.msg);
    if (m) check_model(m, &L);
    jc_model_free(m);
    munmap(p, L.total);
}

static void test_error_offset_over_4gib(void)
{
    layout L;
    build(&L, 1);
    uint8_t *p = synth(&L);
    CHECK(p != NULL);
    if (!p) return;
    jc_model *m = NULL;
    jc_diag d;
    jc_status st = jc_model_load_buffer(p, L.total, "synthetic", &m, &d);
    CHECK_I64(st, JC_ERR_MODEL);
    CHECK(m == NULL);
    CHECK_I64(d.offset, L.bad_off);
    CHECK(d.offset > ((int64_t)1 << 32));
    char want[64];
    snprintf(want, sizeof want, "byte %lld", (long long)L.bad_off);
    CHECK(strstr(d.msg, want) != NULL);
    jc_model_free(m);
    munmap(p, L.total);
}

/* The same bytes as a sparse file through jc_model_load (mmap path). */
static void test_sparse_file_over_4gib(void)
{
    layout L;
    build(&L, 0);
    const char *dir = getenv("TMPDIR");
    char path[512];
    snprintf(path, sizeof path, "%s/jc_scale_XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0) return;
    int ok = ftruncate(fd, (off_t)L.total) == 0 &&
             pwrite(fd, L.head.b, L.head.n, 0) == (ssize_t)L.head.n &&
             pwrite(fd, L.tail.b, L.tail.n, (off_t)L.tail_off) == (ssize_t)L.tail.n;
    close(fd);
    CHECK(ok);
    if (ok) {
        jc_model *m = NULL;
        jc_diag d;
        jc_status st = jc_model_load(path, &m, &d);
        CHECK_I64(st, JC_OK);
        if (st) printf("  %s\n", d.msg);
        if (m) check_model(m, &L);
        jc_model_free(m);
    }
    unlink(path);
}

int main(void)
{
    RUN(test_buffer_over_4gib);
    RUN(test_error_offset_over_4gib);
    RUN(test_sparse_file_over_4gib);
    return check_summary();
}
