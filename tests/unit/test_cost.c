/*
 * test_cost.c - hand-computed counts per op family (on tiny models of the
 * ONNX backend suite, whose shapes are fixed, and on the tiny models of
 * tests/models/cost made by tests/models/gen_cost_models.py) and the
 * COUNTING.md reference MACs on the exports in models/.
 *
 * Reference MACs must match exactly.  Parameters: the ONNX exports fold
 * BatchNorm into the convolutions, so their initializers differ from
 * torchvision's count (resnet50: 25,530,472 = 25,557,032 - 26,560 BN
 * weights/biases turned into conv biases); the figures checked here are
 * the exports' own.
 */
#include "check.h"
#include "joulecast.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SUITE "/usr/share/libonnx-testdata/data/"

typedef struct want { int64_t macs, flops, special; } want;

/* Analyses a model and returns the totals; 0 on failure. */
static int totals(const char *path, const jc_dim_binding *b, size_t nb, jc_totals *t, int *partial)
{
    jc_model *m;
    jc_analysis *a;
    jc_diag d;
    struct stat sb;
    if (stat(path, &sb) != 0) return -1;
    if (jc_model_load(path, &m, &d)) {
        printf("  load %s: %s\n", path, d.msg);
        return 0;
    }
    jc_analyze_opts o = {0};
    o.dims = b;
    o.n_dims = nb;
    if (jc_analyze(m, &o, &a, &d)) {
        printf("  analyze %s: %s\n", path, d.msg);
        jc_model_free(m);
        return 0;
    }
    *t = a->totals;
    *partial = a->partial;
    jc_analysis_free(a);
    jc_model_free(m);
    return 1;
}

static void check_counts(const char *test, want w)
{
    char path[512];
    jc_totals t;
    int partial;
    snprintf(path, sizeof path, SUITE "%s/model.onnx", test);
    if (!check_need(path)) return;   /* the installed suite: a failure when absent */
    int r = totals(path, NULL, 0, &t, &partial);
    CHECK(r == 1);
    if (r != 1) return;
    CHECK(!partial);
    if (t.macs != w.macs || t.flops != w.flops || t.special_ops != w.special)
        printf("  %s: macs %lld flops %lld special %lld\n", test, (long long)t.macs, (long long)t.flops,
               (long long)t.special_ops);
    CHECK_I64(t.macs, w.macs);
    CHECK_I64(t.flops, w.flops);
    CHECK_I64(t.special_ops, w.special);
}

/* The same on a model of tests/models/cost (gen_cost_models.py). */
static void check_local(const char *name, want w)
{
    char path[512];
    jc_totals t;
    int partial;
    snprintf(path, sizeof path, "tests/models/cost/%s.onnx", name);
    int r = totals(path, NULL, 0, &t, &partial);
    CHECK(r == 1);   /* committed next to the test: never skipped */
    if (r != 1) return;
    CHECK(!partial);
    if (t.macs != w.macs || t.flops != w.flops || t.special_ops != w.special)
        printf("  %s: macs %lld flops %lld special %lld\n", name, (long long)t.macs, (long long)t.flops,
               (long long)t.special_ops);
    CHECK_I64(t.macs, w.macs);
    CHECK_I64(t.flops, w.flops);
    CHECK_I64(t.special_ops, w.special);
}

static void test_conv(void)
{
    /* Y 1x1x4x3, C/g*k = 9: 108 MACs, no bias */
    check_counts("node/test_conv_with_strides_padding", (want){108, 216, 0});
    /* grouped: Y 2x6x4x4 = 192 outputs x (4/2)*3*2 = 2304 MACs; bias +192 */
    check_counts("pytorch-converted/test_Conv2d_groups", (want){2304, 4800, 0});
    /* dilated: Y 2x2x3x3 = 36 x 27 = 972 MACs; bias +36 */
    check_counts("pytorch-converted/test_Conv2d_dilated", (want){972, 1980, 0});
    /* grouped + dilated + padded: X 1x4x6x6, W 6x2x3x3, g2, d2, p2 ->
     * Y 1x6x6x6 = 216 outputs x (4/2)*9 = 3,888 MACs; bias +216 */
    check_local("conv_group_dilated", (want){3888, 2 * 3888 + 216, 0});
}

static void test_convtranspose(void)
{
    /* COUNTING.md: X 1x3x7x6 (126) x (M/g=4) x 9 = 4,536 MACs, +960 bias */
    check_counts("pytorch-converted/test_ConvTranspose2d", (want){4536, 2 * 4536 + 960, 0});
    /* grouped, stride 2: X 1x4x3x3 (36) x (M/g = 4/2) x 9 = 648 MACs; Y 7x7 */
    check_local("convtranspose_grouped", (want){648, 1296, 0});
}

static void test_gemm(void)
{
    /* transA/transB: A^T 3x4, B^T 4x5: 60 MACs; C add 15, beta 15, alpha 15 */
    check_counts("node/test_gemm_all_attributes", (want){60, 165, 0});
    /* transA: A^T 3x6, B 6x4: 72 MACs; C add 12 */
    check_counts("node/test_gemm_transposeA", (want){72, 156, 0});
    /* alpha 0.5, beta 2, C[4] broadcast, transB: 2x3 @ (4x3)^T = 24 MACs;
     * 8 outputs x (alpha + beta + add) = 24 */
    check_local("gemm_alpha_beta", (want){24, 48 + 24, 0});
    /* no C, alpha = beta = 1: MACs only */
    check_local("gemm_no_c", (want){24, 48, 0});
}

static void test_matmul(void)
{
    check_counts("node/test_matmul_2d", (want){36, 72, 0});
    /* batched: 2x3x4 @ 2x4x3 -> Y 2x3x3 (18) x K 4 = 72 MACs */
    check_counts("node/test_matmul_3d", (want){72, 144, 0});
    /* 1-D: [3]@[3,4] -> [4]: 12; [2,3,4]@[4] -> [2,3]: 6 x 4 = 24;
     * [4]@[4] -> scalar: 4 */
    check_local("matmul_1d", (want){40, 80, 0});
}

/* The GEMM shape and kinds the analysis hands the estimate stage
 * (jc_counted_node.gemm, .kernel, .fusion) of the first node whose op is
 * `op` in model `path`: 1 when found. */
static int node_view(const char *path, const char *op, jc_counted_node *out)
{
    jc_model *m;
    jc_analysis *a;
    jc_diag d;
    if (!check_need(path) || jc_model_load(path, &m, &d)) return 0;
    jc_analyze_opts o = {0};
    int found = 0;
    if (jc_analyze(m, &o, &a, &d) == JC_OK) {
        for (size_t i = 0; i < a->n_nodes && !found; i++)
            if (!strcmp(a->nodes[i].op, op)) {
                *out = a->nodes[i];
                found = 1;
            }
        jc_analysis_free(a);
    }
    jc_model_free(m);
    return found;
}

static void check_gemm(const char *path, const char *op, double m, double n, double k, double batch)
{
    jc_counted_node c;
    CHECK(node_view(path, op, &c));
    CHECK(c.has_gemm);
    CHECK_NEAR(c.gemm.m, m, 1e-12);
    CHECK_NEAR(c.gemm.n, n, 1e-12);
    CHECK_NEAR(c.gemm.k, k, 1e-12);
    CHECK_NEAR(c.gemm.batch, batch, 1e-12);
}

/* issue 38 item 3: the shapes the GEMM kernel model reads, from the
 * analysis (the estimate stage reads no attribute and no op name) */
static void test_gemm_shapes(void)
{
    /* grouped conv: Y 1x6x6x6, g 2: 2 GEMMs of N 6/2, M 216/6, K 3888/216 */
    check_gemm("tests/models/cost/conv_group_dilated.onnx", "Conv", 36, 3, 18, 2);
    /* ConvTranspose, g 2: Y 1x4x7x7 (196), N 4/2, M 196/4, K 648/196 */
    check_gemm("tests/models/cost/convtranspose_grouped.onnx", "ConvTranspose", 49, 2, 648.0 / 196, 2);
    /* Gemm 2x3 by (4x3)^T: one 2 x 4 product over K 3 */
    check_gemm("tests/models/cost/gemm_no_c.onnx", "Gemm", 2, 4, 3, 1);
    /* a product of two activations 2x3x4 @ 2x4x3: one GEMM per batch element */
    check_gemm(SUITE "node/test_matmul_3d/model.onnx", "MatMul", 3, 3, 4, 2);
    jc_counted_node c;
    CHECK(node_view("tests/models/cost/conv_group_dilated.onnx", "Conv", &c));
    CHECK(c.kernel == JC_KERNEL_CONV && c.fusion == JC_FUSION_NONE);
    CHECK(node_view("tests/models/cost/softmax.onnx", "Softmax", &c));
    CHECK(c.kernel == JC_KERNEL_SOFTMAX && c.fusion == JC_FUSION_REDUCTION && !c.has_gemm);
    CHECK(node_view("tests/models/cost/logsoftmax.onnx", "LogSoftmax", &c));
    CHECK(c.kernel == JC_KERNEL_LOG_SOFTMAX && c.fusion == JC_FUSION_REDUCTION);
    /* another domain: no kernel kind, however its op is named */
    CHECK(node_view("tests/models/cost/ms_attention.onnx", "com.microsoft:Attention", &c));
    CHECK(c.kernel == JC_KERNEL_OTHER && !c.has_gemm);
}

static void test_einsum(void)
{
    /* two operands: b=5 i=2 j=3 k=4: 120 MACs */
    check_counts("node/test_einsum_batch_matmul", (want){120, 240, 0});
    /* one operand ij->i: 0 MACs, 12-3 = 9 adds */
    check_counts("node/test_einsum_sum", (want){0, 9, 0});
    /* i,i: 5 MACs */
    check_counts("node/test_einsum_inner_prod", (want){5, 10, 0});
    /* three operands ij,jk,kl->il, i2 j3 k4 l5, left to right:
     * (ij,jk->ik) 2*3*4 = 24, (ik,kl->il) 2*4*5 = 40 */
    check_local("einsum_3ops", (want){64, 128, 0});
}

static void test_resize(void)
{
    /* X 1x3x4x4 -> 1x3x8x8 = 192 outputs, 2 resized axes: nearest copies
     * (0 FLOPs); linear blends 2^2 = 4 neighbours (4 mul + 3 add = 7);
     * cubic 4^2 = 16 (16 mul + 15 add = 31) */
    check_local("resize_nearest", (want){0, 0, 0});
    check_local("resize_linear", (want){0, 192 * 7, 0});
    check_local("resize_cubic", (want){0, 192 * 31, 0});
}

static void test_rnn(void)
{
    /* LSTM S1 N3 I2 H3: 3*12*(2+3) = 180 MACs; 9 units x (4 + 3 sigmoids
     * x 3) FLOPs, 5 specials each */
    check_counts("node/test_lstm_defaults", (want){180, 360 + 9 * 13, 45});
    /* with bias: N3 I3 H4: 3*16*7 = 336 MACs; 12 units x (8 + 4 + 9) */
    check_counts("node/test_lstm_with_initial_bias", (want){336, 672 + 12 * 21, 60});
    /* GRU N3 I2 H5: 3*15*7 = 315; 15 units x (5 + 2 sigmoids x 3) */
    check_counts("node/test_gru_defaults", (want){315, 630 + 15 * 11, 45});
    /* RNN S2 N3 I3 H5 with bias: 2*3*5*8 = 240; 30 units x 2 bias adds,
     * 1 tanh (x W^T + h R^T sums inside the MACs) */
    check_counts("node/test_rnn_seq_length", (want){240, 480 + 30 * 2, 30});
    /* tests/models/cost: S2 N1 I3 H4, 8 units (S*N*H); MACs = S*N*gH*(I+H) */
    /* RNN g1: 2*4*7 = 56; bias 2 adds/unit; 1 tanh/unit */
    check_local("rnn_nobias", (want){56, 112, 8});
    check_local("rnn_bias", (want){56, 112 + 8 * 2, 8});
    /* GRU g3: 2*12*7 = 168; per unit (1-z) 1 + 2 mul + 1 add + r*h 1 = 5,
     * 2 sigmoids x 3 = 6 (+6 bias adds); specials 2 sigmoid + 1 tanh */
    check_local("gru_nobias", (want){168, 336 + 8 * 11, 24});
    check_local("gru_bias", (want){168, 336 + 8 * 17, 24});
    /* LSTM g4: 2*16*7 = 224; per unit c = f*c + i*g (3), h = o*tanh(c) (1),
     * 3 sigmoids x 3 (+8 bias adds); specials 3 sigmoid + 2 tanh */
    check_local("lstm_nobias", (want){224, 448 + 8 * 13, 40});
    check_local("lstm_bias", (want){224, 448 + 8 * 21, 40});
}

static void test_pool(void)
{
    /* ceil_mode: 4x4, k3 s2 -> 2x2; 4 outputs x 8 compares */
    check_counts("node/test_maxpool_2d_ceil", (want){0, 32, 0});
    /* pads 2: 28 -> 30; 2700 outputs x (8 adds + 1 scale) */
    check_counts("node/test_averagepool_2d_pads", (want){0, 24300, 0});
    /* pads 1 + ceil_mode: 6 -> 8, k3 s2: ceil(5/2)+1 = 4; 2x4x4 = 32
     * outputs x 8 compares */
    check_local("maxpool_pads_ceil", (want){0, 256, 0});
    /* pads 1, k2 s1: 4 -> 5; 25 outputs x (3 adds + 1 scale) */
    check_local("avgpool_pads", (want){0, 100, 0});
}

typedef struct ref { const char *file; int64_t macs, params; int seq; } ref;

static void test_reference_macs(void)
{
    static const ref refs[] = {
        {"models/resnet50.onnx", 4089184256LL, 25530472, 0},   /* BN folded: 25,557,032 - 26,560 */
        {"models/resnet18.onnx", 1814073344LL, 11684712, 0},   /* BN folded */
        {"models/mobilenet_v2.onnx", 300774272LL, 3487816, 0}, /* BN folded */
        {"models/vgg16.onnx", 15470264320LL, 138357544, 0},
        {"models/vit_b_16.onnx", 17563828224LL, 86567656, 0},
        {"models/bert_base.onnx", 11174215680LL, 109482240, 128},
        {"models/gpt2_small.onnx", 145824153600LL, 124439808, 1024},
    };
    for (size_t i = 0; i < sizeof refs / sizeof refs[0]; i++) {
        jc_dim_binding b[2] = {{"batch", 1}, {"sequence", refs[i].seq}};
        jc_totals t;
        int partial;
        if (!check_need(refs[i].file)) continue;   /* committed: a failure when absent */
        int r = totals(refs[i].file, b, refs[i].seq ? 2 : 1, &t, &partial);
        CHECK(r == 1);
        if (r != 1) continue;
        CHECK(!partial);
        CHECK_I64(t.macs, refs[i].macs);
        CHECK_I64(t.params, refs[i].params);
    }
}

static void test_unbound_is_partial(void)
{
    jc_totals t;
    int partial;
    if (totals("models/bert_base.onnx", NULL, 0, &t, &partial) != 1) return;
    CHECK(partial);          /* never a silent zero */
}

/* #18 item 6: ViT-B/16 at batch 1 computes its patch grid and reshape
 * targets with 281 scalar Gather/Concat/Cast/Div/Mul/Add/Equal/Where/
 * ConstantOfShape nodes whose values the analysis folds.  A runtime folds
 * them too: they cost nothing and have class none (no launch floor),
 * while a Gather on an activation (the class token) keeps its cost. */
static void test_folded_shape_arith_free(void)
{
    static const char *ops[] = {"Gather", "Concat", "Cast", "Div", "Mul", "Add",
                                "Equal", "Where", "ConstantOfShape"};
    jc_model *m;
    jc_analysis *a;
    jc_diag d;
    if (jc_model_load("models/vit_b_16.onnx", &m, &d)) {
        CHECK(0);
        return;
    }
    jc_dim_binding b[1] = {{"batch", 1}};
    jc_analyze_opts o = {0};
    o.dims = b;
    o.n_dims = 1;
    if (jc_analyze(m, &o, &a, &d)) {
        CHECK(0);
        jc_model_free(m);
        return;
    }
    int folded = 0, costly = 0, moved_gathers = 0;
    for (size_t i = 0; i < a->n_nodes; i++) {
        const jc_counted_node *n = &a->nodes[i];
        bool listed = false;
        for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) listed |= !strcmp(n->op, ops[k]);
        if (!listed) continue;
        if (n->cost.cls == JC_CLASS_NONE) {
            folded++;
            if (n->cost.flops || n->cost.bytes_read || n->cost.bytes_written ||
                n->cost.weight_bytes_read)
                costly++;
        } else if (!strcmp(n->op, "Gather")) {
            moved_gathers++;
            CHECK(n->cost.bytes_read > 0);
        }
    }
    CHECK_I64(folded, 281);
    CHECK_I64(costly, 0);
    CHECK(moved_gathers >= 1);
    jc_analysis_free(a);
    jc_model_free(m);
}

/* #18 item 9: a Loop body that multiplies by the main graph's W[4,4]
 * (an outer-scope initializer) twice per trip: W's 16 params (+ the trip
 * count M, 1 int64) count once, as inspect lists them; the body's
 * MatMuls read W as weight bytes; 3 trips x 2 x 16 MACs. */
static void test_subgraph_outer_weights(void)
{
    jc_model *m;
    jc_analysis *a;
    jc_diag d;
    if (jc_model_load("tests/models/cost/loop_outer_weight.onnx", &m, &d)) {
        CHECK(0);
        return;
    }
    jc_analyze_opts o = {0};
    if (jc_analyze(m, &o, &a, &d)) {
        CHECK(0);
        jc_model_free(m);
        return;
    }
    CHECK(!a->partial);
    CHECK_I64(a->totals.macs, 96);
    CHECK_I64(a->totals.params, 17);
    CHECK_I64(a->totals.weight_bytes, 72);
    int matmuls = 0;
    for (size_t i = 0; i < a->n_nodes; i++)
        if (!strcmp(a->nodes[i].op, "MatMul")) {
            matmuls++;
            CHECK_I64(a->nodes[i].cost.weight_bytes_read, 64);
            CHECK_I64(a->nodes[i].cost.repeat, 3);
        }
    CHECK_I64(matmuls, 2);
    jc_analysis_free(a);
    jc_model_free(m);
}

/* jc_cost_view: one node's headline figure under each convention, times
 * its repeat when asked, -1 on overflow (docs/counting.md). */
static void test_cost_view(void)
{
    jc_node_cost c;
    memset(&c, 0, sizeof c);
    c.macs = 10;
    c.flops = 25;
    c.special_ops = 4;
    c.other_flops_weighted = 7;
    c.fvcore_extra = 3;
    c.repeat = 3;
    CHECK_I64(jc_cost_view(&c, JC_CONV_TORCHVISION, 0), 10);
    CHECK_I64(jc_cost_view(&c, JC_CONV_FLOPS2X, 0), 20);
    CHECK_I64(jc_cost_view(&c, JC_CONV_FLOPS2X, 1), 60);
    CHECK_I64(jc_cost_view(&c, JC_CONV_FVCORE, 0), 13);
    CHECK_I64(jc_cost_view(&c, JC_CONV_ONNX_TOOL, 0), 17);
    CHECK_I64(jc_cost_view(&c, JC_CONV_JOULECAST, 1), 75);
    c.macs = INT64_MAX / 2 + 1;
    CHECK_I64(jc_cost_view(&c, JC_CONV_FLOPS2X, 0), -1);
    c.macs = INT64_MAX / 4;
    CHECK_I64(jc_cost_view(&c, JC_CONV_FLOPS2X, 1), -1);   /* x repeat overflows */
}

int main(void)
{
    RUN(test_conv);
    RUN(test_cost_view);
    RUN(test_convtranspose);
    RUN(test_gemm);
    RUN(test_matmul);
    RUN(test_gemm_shapes);
    RUN(test_einsum);
    RUN(test_resize);
    RUN(test_rnn);
    RUN(test_pool);
    RUN(test_reference_macs);
    RUN(test_unbound_is_partial);
    RUN(test_folded_shape_arith_free);
    RUN(test_subgraph_outer_weights);
    return check_summary();
}
