/*
 * test_load.c - unit tests of the ONNX loader: what it decodes from real
 * exports, that weights are never copied, and that malformed input of every
 * kind (truncation at every byte, corrupted tags and lengths, random bytes,
 * deep nesting, lengths far past the end) gives a clean error.
 */
#include "check.h"
#include "joulecast.h"
#include "onnx/onnx_internal.h"

#include <stdlib.h>
#include <sys/stat.h>

#define BACKEND "/usr/share/libonnx-testdata/data"

static void test_schema_field_numbers(void)
{
    char why[256];
    int bad = jci_onnx_schema_selfcheck(why, sizeof why);
    if (bad) printf("  %s\n", why);
    CHECK_I64(bad, 0);
}

static void test_tiny_cnn_weights_inside(void)
{
    jc_model *m;
    jc_diag d;
    jc_status st = jc_model_load("models/tiny_cnn.onnx", &m, &d);
    CHECK_I64(st, JC_OK);
    if (st) { printf("  %s\n", d.msg); return; }
    CHECK(m->ir_version >= 7);
    CHECK_I64(jc_model_opset(m, ""), 14);
    CHECK_STR(m->producer_name, "pytorch");
    CHECK(m->graph->n_inputs == 1);
    CHECK(m->n_ext_files == 0);
    CHECK(m->n_params > 0);
    /* every initializer's payload is inline and within the file */
    for (size_t i = 0; i < m->graph->n_initializers; i++) {
        const jc_value *v = &m->graph->values[m->graph->initializers[i]];
        CHECK(v->data_loc == JC_DATA_INLINE);
        CHECK(v->data_offset + v->data_length <= m->file_size);
        CHECK(jc_graph_find(m->graph, v->name) == m->graph->initializers[i]);
    }
    const jc_value *in = &m->graph->values[m->graph->inputs[0]];
    CHECK_I64(in->dtype, JC_DT_FLOAT);
    CHECK_I64(in->rank, 4);
    jc_model_free(m);
}

static void test_resnet50_graph_only(void)
{
    jc_model *m;
    jc_diag d;
    jc_status st = jc_model_load("models/resnet50.onnx", &m, &d);
    CHECK_I64(st, JC_OK);
    if (st) { printf("  %s\n", d.msg); return; }
    /* torchvision's 25,557,032 less the 53 folded BatchNorms' weight and
     * bias (26,560 elements), which became conv biases of half the size */
    CHECK_I64(m->n_params, 25530472);
    CHECK_I64(m->weight_bytes, 25530472LL * 4);
    CHECK_I64(m->n_ext_files, 1);
    CHECK_STR(m->ext_files[0], "resnet50.weights");
    CHECK_I64(m->graph->n_nodes, 122);
    const jc_value *in = &m->graph->values[m->graph->inputs[0]];
    CHECK_STR(in->name, "input");
    CHECK_I64(in->rank, 4);
    CHECK(in->dims[0].v < 0 && in->dims[0].sym && !strcmp(in->dims[0].sym, "batch"));
    CHECK_I64(in->dims[1].v, 3);
    /* node inputs resolve to initializers */
    const jc_node *conv = &m->graph->nodes[0];
    CHECK_STR(conv->op_type, "Conv");
    CHECK(conv->n_inputs == 3);
    CHECK(m->graph->values[conv->inputs[1]].kind == JC_V_INITIALIZER);
    CHECK(m->graph->values[conv->inputs[1]].data_loc == JC_DATA_EXTERNAL);
    const jc_attr *k = jc_node_attr(conv, "kernel_shape");
    CHECK(k && k->type == JC_ATTR_INTS && k->n == 2 && k->ints[0] == 7);
    jc_model_free(m);
}

static void test_small_int_values_kept(void)
{
    /* Reshape's shape input in a backend test is a small int64 tensor */
    jc_model *m;
    jc_diag d;
    jc_status st = jc_model_load(BACKEND "/node/test_reshape_reordered_all_dims/model.onnx", &m, &d);
    CHECK_I64(st, JC_OK);
    if (st) return;
    CHECK_I64(m->graph->n_nodes, 1);
    jc_model_free(m);
    st = jc_model_load(BACKEND "/node/test_constant/model.onnx", &m, &d);
    CHECK_I64(st, JC_OK);
    if (st) return;
    const jc_attr *a = jc_node_attr(&m->graph->nodes[0], "value");
    CHECK(a && a->type == JC_ATTR_TENSOR && a->t);
    if (a && a->t) {
        CHECK_I64(a->t->rank, 2);
        CHECK(a->t->n_vals == a->t->dims[0].v * a->t->dims[1].v);
    }
    jc_model_free(m);
}

static void test_subgraphs_and_outer_refs(void)
{
    jc_model *m;
    jc_diag d;
    jc_status st = jc_model_load(BACKEND "/node/test_loop11/model.onnx", &m, &d);
    CHECK_I64(st, JC_OK);
    if (st) return;
    CHECK(m->graph->n_subgraphs_total == 1);
    const jc_attr *body = jc_node_attr(&m->graph->nodes[0], "body");
    CHECK(body && body->type == JC_ATTR_GRAPH && body->g[0]->parent == m->graph);
    jc_model_free(m);
}

static void expect_model_error(const unsigned char *b, size_t n, const char *what)
{
    jc_model *m = (jc_model *)1;
    jc_diag d;
    jc_status st = jc_model_load_buffer(b, n, "buf.onnx", &m, &d);
    if (st == JC_OK) {
        printf("  %s: accepted\n", what);
        check_cur_fail_ = 1;
        jc_model_free(m);
        return;
    }
    CHECK(m == NULL);
    CHECK(st == JC_ERR_MODEL);
    CHECK(strstr(d.msg, "buf.onnx") != NULL);
}

static void test_truncation_every_byte(void)
{
    static const char *small[] = {
        BACKEND "/node/test_conv_with_strides_padding/model.onnx",
        BACKEND "/node/test_lstm_with_peepholes/model.onnx",
        BACKEND "/node/test_if/model.onnx",
        BACKEND "/node/test_loop11/model.onnx",
        BACKEND "/node/test_constant/model.onnx",
    };
    for (size_t k = 0; k < sizeof small / sizeof small[0]; k++) {
        size_t n;
        unsigned char *b = check_slurp(small[k], &n);
        CHECK(b != NULL);
        if (!b) continue;
        int accepted_short = 0;
        for (size_t cut = 0; cut < n; cut++) {
            jc_model *m;
            jc_diag d;
            jc_status st = jc_model_load_buffer(b, cut, "cut.onnx", &m, &d);
            /* a prefix that ends on a field boundary can be a valid,
             * smaller message; it must then load cleanly */
            if (st == JC_OK) {
                accepted_short++;
                jc_model_free(m);
            } else {
                CHECK(st == JC_ERR_MODEL);
                CHECK(m == NULL);
            }
        }
        jc_model *m;
        CHECK_I64(jc_model_load_buffer(b, n, "full.onnx", &m, NULL), JC_OK);
        jc_model_free(m);
        free(b);
    }
}

static void test_corrupted_bytes(void)
{
    size_t n;
    unsigned char *b = check_slurp(BACKEND "/node/test_lstm_with_peepholes/model.onnx", &n);
    CHECK(b != NULL);
    if (!b) return;
    unsigned char *c = malloc(n);
    static const unsigned char vals[] = {0x00, 0x7f, 0x80, 0xff, 0x0a, 0x12};
    for (size_t i = 0; i < n; i++) {
        for (size_t v = 0; v < sizeof vals; v++) {
            memcpy(c, b, n);
            c[i] = vals[v];
            jc_model *m;
            jc_diag d;
            jc_status st = jc_model_load_buffer(c, n, "x.onnx", &m, &d);
            CHECK(st == JC_OK || st == JC_ERR_MODEL);
            if (st == JC_OK) jc_model_free(m);
            else CHECK(d.msg[0] != 0);
        }
    }
    free(c);
    free(b);
}

static void test_random_bytes(void)
{
    unsigned char buf[4096];
    uint32_t x = 12345;
    for (int round = 0; round < 500; round++) {
        size_t n = 1 + (size_t)(x % sizeof buf);
        for (size_t i = 0; i < n; i++) {
            x ^= x << 13; x ^= x >> 17; x ^= x << 5;
            buf[i] = (unsigned char)x;
        }
        jc_model *m;
        jc_diag d;
        jc_status st = jc_model_load_buffer(buf, n, "rnd", &m, &d);
        CHECK(st == JC_OK || st == JC_ERR_MODEL);
        if (st == JC_OK) jc_model_free(m);
    }
}

/* appends a varint */
static size_t put_varint(unsigned char *p, uint64_t v)
{
    size_t n = 0;
    do {
        p[n++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    return n;
}

static void test_length_past_end(void)
{
    /* ir_version 7, then graph with a declared length of 2^40 */
    unsigned char b[32];
    size_t n = 0;
    b[n++] = 0x08; b[n++] = 7;
    b[n++] = 0x3a;
    n += put_varint(b + n, (uint64_t)1 << 40);
    b[n++] = 0;
    expect_model_error(b, n, "length 2^40");
    /* a varint of 11 bytes */
    unsigned char v[16] = {0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                           0xff, 0xff, 0xff, 0x01};
    expect_model_error(v, 12, "11-byte varint");
    /* a group wire type */
    unsigned char g[] = {0x08, 7, 0x3b};
    expect_model_error(g, sizeof g, "group");
    /* wrong wire type for ir_version (a string) */
    unsigned char w[] = {0x0a, 1, 'x'};
    expect_model_error(w, sizeof w, "wrong wire type");
    /* valid protobuf but no graph */
    unsigned char ng[] = {0x08, 7};
    expect_model_error(ng, sizeof ng, "no graph");
}

/* Builds a model whose graph nests If-subgraphs `depth` deep. */
static size_t nested(unsigned char *out, int depth)
{
    /* innermost graph: empty */
    unsigned char *tmp = malloc(1 << 16), *cur = malloc(1 << 16);
    size_t len = 0;
    for (int i = 0; i < depth; i++) {
        /* attribute: name "g" (field 1), g (field 6) = cur, type GRAPH (20)=5 */
        size_t a = 0;
        tmp[a++] = 0x0a; tmp[a++] = 1; tmp[a++] = 'g';
        tmp[a++] = 0x32; a += put_varint(tmp + a, len);
        memcpy(tmp + a, cur, len); a += len;
        tmp[a++] = 0xa0; tmp[a++] = 0x01; tmp[a++] = 5;
        /* node: op_type "If" (4), attribute (5) */
        unsigned char *node = malloc(a + 32);
        size_t nn = 0;
        node[nn++] = 0x22; node[nn++] = 2; node[nn++] = 'I'; node[nn++] = 'f';
        node[nn++] = 0x2a; nn += put_varint(node + nn, a);
        memcpy(node + nn, tmp, a); nn += a;
        /* graph: node (1) */
        len = 0;
        cur[len++] = 0x0a; len += put_varint(cur + len, nn);
        memcpy(cur + len, node, nn); len += nn;
        free(node);
    }
    size_t n = 0;
    out[n++] = 0x08; out[n++] = 7;
    out[n++] = 0x42; out[n++] = 2; out[n++] = 0x10; out[n++] = 17;   /* opset_import: default domain, 17 */
    out[n++] = 0x3a; n += put_varint(out + n, len);
    memcpy(out + n, cur, len); n += len;
    free(tmp);
    free(cur);
    return n;
}

static void test_deep_nesting(void)
{
    unsigned char *b = malloc(1 << 16);
    size_t n = nested(b, 10);
    jc_model *m;
    jc_diag d;
    CHECK_I64(jc_model_load_buffer(b, n, "nest10", &m, &d), JC_OK);
    if (m) {
        CHECK_I64(m->graph->n_subgraphs_total, 10);
        jc_model_free(m);
    }
    n = nested(b, 100);
    jc_status st = jc_model_load_buffer(b, n, "nest100", &m, &d);
    CHECK_I64(st, JC_ERR_MODEL);
    CHECK(strstr(d.msg, "deeper than 64") != NULL);
    free(b);
}

static void test_file_errors(void)
{
    jc_model *m;
    jc_diag d;
    CHECK_I64(jc_model_load("/nonexistent/x.onnx", &m, &d), JC_ERR_IO);
    CHECK(strstr(d.msg, "/nonexistent/x.onnx") && strstr(d.msg, "No such file"));
    CHECK_I64(jc_model_load("models", &m, &d), JC_ERR_IO);
    CHECK(strstr(d.msg, "directory") != NULL);
    FILE *f = fopen("build/empty.onnx", "wb");
    if (f) fclose(f);
    CHECK_I64(jc_model_load("build/empty.onnx", &m, &d), JC_ERR_MODEL);
    CHECK(strstr(d.msg, "empty") != NULL);
    CHECK_I64(jc_model_load("Makefile", &m, &d), JC_ERR_MODEL);
}

int main(void)
{
    RUN(test_schema_field_numbers);
    RUN(test_tiny_cnn_weights_inside);
    RUN(test_resnet50_graph_only);
    RUN(test_small_int_values_kept);
    RUN(test_subgraphs_and_outer_refs);
    RUN(test_truncation_every_byte);
    RUN(test_corrupted_bytes);
    RUN(test_random_bytes);
    RUN(test_length_past_end);
    RUN(test_deep_nesting);
    RUN(test_file_errors);
    return check_summary();
}
