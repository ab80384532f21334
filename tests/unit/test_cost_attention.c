/*
 * test_cost_attention.c - hand-computed counts of the fused attention
 * ops (opset-23 Attention, com.microsoft Attention / MultiHeadAttention /
 * GroupQueryAttention), rotary embeddings, the layer / RMS norms and
 * softmax, on one-node models of tests/models/cost written by
 * tests/models/gen_attention_models.py.  Each expected figure is worked
 * out below from the model's shapes and the rules of docs/counting.md:
 *   attention: QK^T = B*h*Sq*T*dk MACs, PV = B*h*Sq*T*dv MACs, softmax over
 *   the scores 4 FLOPs + 1 exp per score plus 1 scale multiply (5 FLOPs,
 *   1 special per score); com.microsoft Attention adds its projection
 *   B*S*Din*3D MACs and 1 bias add per projected value; 1 MAC = 2 FLOPs.
 * A committed model that is missing fails (check_need), never skips.
 */
#include "check.h"

#include "joulecast.h"

typedef struct want { const char *name; int64_t macs, flops, special; } want;

static void check_model(const want *w)
{
    char path[256];
    snprintf(path, sizeof path, "tests/models/cost/%s.onnx", w->name);
    if (!check_need(path)) return;
    jc_model *m = NULL;
    jc_analysis *a = NULL;
    jc_diag d;
    if (jc_model_load(path, &m, &d)) {
        printf("  load %s: %s\n", path, d.msg);
        check_cur_fail_ = 1;
        return;
    }
    if (jc_analyze(m, NULL, &a, &d)) {
        printf("  analyze %s: %s\n", path, d.msg);
        check_cur_fail_ = 1;
        jc_model_free(m);
        return;
    }
    if (a->partial) printf("  %s: partial count\n", w->name);
    CHECK(!a->partial);
    if (a->totals.macs != w->macs || a->totals.flops != w->flops || a->totals.special_ops != w->special)
        printf("  %s: macs %lld flops %lld special %lld\n", w->name, (long long)a->totals.macs,
               (long long)a->totals.flops, (long long)a->totals.special_ops);
    CHECK_I64(a->totals.macs, w->macs);
    CHECK_I64(a->totals.flops, w->flops);
    CHECK_I64(a->totals.special_ops, w->special);
    jc_analysis_free(a);
    jc_model_free(m);
}

/* X [B=2, S=4, Din=8], W [8, 24] (D = 8), 2 heads: dk = dv = 4.
 * projection 2*4*8*24 = 1536 MACs, bias 2*4*24 = 192 adds;
 * scores B*h*S*T = 2*2*4*4 = 64: 64*(4+4) = 512 MACs, 64*5 FLOPs, 64 exp.
 * MACs 2048; FLOPs 2*2048 + 192 + 320 = 4608; special 64. */
static void test_ms_attention(void)
{
    want w = {"ms_attention", 2048, 4608, 64};
    check_model(&w);
}

/* Q [2, 4, 8], K/V [2, 6, 8], 2 heads: scores 2*2*4*6 = 96, dk = dv = 4:
 * MACs 96*8 = 768; FLOPs 1536 + 96*5 = 2016; special 96. */
static void test_ms_mha(void)
{
    want w = {"ms_mha", 768, 2016, 96};
    check_model(&w);
}

/* Q [1, 3, 8], 2 query heads, 1 kv head, past length 2: T = 2 + 3 = 5;
 * scores B*h*S*T = 1*2*3*5 = 30, dk = dv = 8/2 = 4 (the full square:
 * causal masking not discounted): MACs 30*8 = 240; FLOPs 480 + 150 = 630;
 * special 30. */
static void test_ms_gqa(void)
{
    want w = {"ms_gqa", 240, 630, 30};
    check_model(&w);
}

/* Rotary embedding of X [1, 3, 8]: 3 FLOPs per output element (two
 * multiplies and an add), no MACs: 24*3 = 72. */
static void test_rotary(void)
{
    want w = {"ms_rotary", 0, 72, 0};
    check_model(&w);
}

/* Attention (opset 23), Q [1, 2, 3, 4], K/V [1, 2, 5, 4]: scores
 * 1*2*3*5 = 30, dk = dv = 4: MACs 240; FLOPs 480 + 150 = 630; special 30. */
static void test_attention23(void)
{
    want w = {"attention23", 240, 630, 30};
    check_model(&w);
}

/* Norms over X [2, 3, 4]: 24 elements in 6 rows of 4.
 * LayerNormalization: 7 FLOPs per element + 3 per row (2 div, 1 add) +
 * 1 sqrt per row: 168 + 18 = 186, special 6.
 * RMS forms (RMSNormalization, SimplifiedLayerNormalization): 4 per
 * element + 2 per row + 1 sqrt: 96 + 12 = 108, special 6. */
static void test_norms(void)
{
    want ln = {"layernorm", 0, 186, 6}, rms = {"rmsnorm23", 0, 108, 6}, sln = {"ms_simplified_ln", 0, 108, 6};
    check_model(&ln);
    check_model(&rms);
    check_model(&sln);
}

/* Softmax over X [2, 5]: 4 FLOPs + 1 exp per element: 40 FLOPs, 10
 * special; LogSoftmax adds 1 log per row (2 rows): 12 special. */
static void test_softmax(void)
{
    want sm = {"softmax", 0, 40, 10}, lsm = {"logsoftmax", 0, 40, 12};
    check_model(&sm);
    check_model(&lsm);
}

int main(void)
{
    RUN(test_ms_attention);
    RUN(test_ms_mha);
    RUN(test_ms_gqa);
    RUN(test_rotary);
    RUN(test_attention23);
    RUN(test_norms);
    RUN(test_softmax);
    return check_summary();
}
