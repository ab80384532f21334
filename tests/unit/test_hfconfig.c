/*
 * test_hfconfig.c - the Hugging Face config reader (jc_arch_load_hf) on
 * hostile and degenerate configs (issue 43): a product of two keys past
 * 64 bits refused (it was a signed overflow), keys bounded by the limit of
 * the option that says the same (num_nextn_predict_layers by --mtp-heads,
 * num_hidden_layers by --layers, ...), a mixture-of-experts config with no
 * experts and an MLA config with no head size refused naming the key, and
 * a layer list (mlp_only_layers) read once, not once per layer (CPU time
 * of a 100,000-layer config against a bound far below the old quadratic
 * walk's).  The published families and their parameter counts are
 * test_serving.c's (test_configs) and this file's test_families.
 */
#include "joulecast.h"
#include "check.h"

#include <time.h>

#define TMP "build/test_hfconfig.json"

static int write_tmp(const char *json)
{
    FILE *f = fopen(TMP, "w");
    if (!f) return 0;
    fputs(json, f);
    return fclose(f) == 0;
}

/* Loads json; checks the status and that the message holds every needle
 * (NULL-terminated).  Returns the architecture on success (caller frees). */
static jc_arch *expect(const char *json, jc_status want, const char *n1, const char *n2)
{
    if (!write_tmp(json)) { CHECK(0); return NULL; }
    jc_arch *a = NULL;
    jc_diag d;
    jc_status st = jc_arch_load_hf(TMP, &a, &d);
    CHECK_I64(st, want);
    if (st != JC_OK) {
        CHECK(a == NULL);
        const char *n[2] = {n1, n2};
        for (int i = 0; i < 2; i++)
            if (n[i] && !strstr(d.msg, n[i])) {
                printf("  message '%s' lacks '%s'\n", d.msg, n[i]);
                check_cur_fail_ = 1;
            }
    }
    return a;
}

#define DS_BASE "{\"model_type\": \"deepseek_v3\", \"num_hidden_layers\": 2, \"hidden_size\": 64, " \
    "\"num_attention_heads\": 4, \"vocab_size\": 100, \"kv_lora_rank\": 16, \"v_head_dim\": 8, " \
    "\"intermediate_size\": 128, \"n_routed_experts\": 4, \"num_experts_per_tok\": 2, "
#define LLAMA_BASE "{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"hidden_size\": 64, " \
    "\"num_attention_heads\": 4, \"vocab_size\": 100, \"intermediate_size\": 128, "

/* issue 43 item 2: n_shared_experts x moe_intermediate_size */
static void test_product_overflow(void)
{
    expect(DS_BASE "\"qk_nope_head_dim\": 8, \"qk_rope_head_dim\": 8, \"moe_intermediate_size\": 1e12, "
                   "\"n_shared_experts\": 1e12}", JC_ERR_RANGE, "n_shared_experts", "moe_intermediate_size");
    jc_arch *a = expect(DS_BASE "\"qk_nope_head_dim\": 8, \"qk_rope_head_dim\": 8, \"moe_intermediate_size\": 32, "
                                "\"n_shared_experts\": 2}", JC_OK, NULL, NULL);
    if (a) CHECK_I64(a->shared_ffn, 64);
    jc_arch_free(a);
}

/* issue 43 item 10: a key takes the limit of its option (job_keys.def) */
static void test_option_limits(void)
{
    expect(LLAMA_BASE "\"num_nextn_predict_layers\": 1e12}", JC_ERR_RANGE, "'num_nextn_predict_layers'",
           "--mtp-heads: at most 64");
    expect(LLAMA_BASE "\"num_nextn_predict_layers\": 65}", JC_ERR_RANGE, "--mtp-heads", NULL);
    jc_arch *a = expect(LLAMA_BASE "\"num_nextn_predict_layers\": 64}", JC_OK, NULL, NULL);
    if (a) CHECK_I64(a->mtp_layers, 64);
    jc_arch_free(a);
    expect("{\"model_type\": \"llama\", \"num_hidden_layers\": 100001, \"hidden_size\": 64, "
           "\"num_attention_heads\": 4, \"vocab_size\": 100, \"intermediate_size\": 128}",
           JC_ERR_RANGE, "'num_hidden_layers'", "--layers: at most 100000");
    expect("{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"hidden_size\": 2e6, "
           "\"num_attention_heads\": 4, \"vocab_size\": 100, \"intermediate_size\": 128}",
           JC_ERR_RANGE, "'hidden_size'", "--hidden: at most 1e+06");
    expect("{\"model_type\": \"gpt2\", \"n_layer\": 2, \"n_embd\": 64, \"n_head\": 4e5, \"vocab_size\": 100}",
           JC_ERR_RANGE, "'n_head'", "--heads");
    expect(LLAMA_BASE "\"max_position_embeddings\": 1e10}", JC_ERR_RANGE, "'max_position_embeddings'",
           "--seq");
}

/* issue 43 item 11: a model that is not one */
static void test_not_a_model(void)
{
    expect("{\"model_type\": \"mixtral\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
           "\"num_attention_heads\": 4, \"vocab_size\": 100, \"intermediate_size\": 128, "
           "\"num_local_experts\": 0, \"num_experts_per_tok\": 0}", JC_ERR_MODEL, "'num_local_experts'", ">= 1");
    expect("{\"model_type\": \"qwen3_moe\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
           "\"num_attention_heads\": 4, \"vocab_size\": 100, \"moe_intermediate_size\": 32, "
           "\"num_experts\": 0, \"num_experts_per_tok\": 2}", JC_ERR_MODEL, "'num_experts'", ">= 1");
    expect(DS_BASE "\"qk_nope_head_dim\": 0, \"qk_rope_head_dim\": 0, \"moe_intermediate_size\": 32}",
           JC_ERR_MODEL, "'qk_nope_head_dim'", ">= 1");
    expect(LLAMA_BASE "\"num_key_value_heads\": 0}", JC_ERR_MODEL, "num_key_value_heads", NULL);
    expect(LLAMA_BASE "\"num_key_value_heads\": 3}", JC_ERR_MODEL, "divide", NULL);
}

/* issue 43 item 5: mlp_only_layers read once.  100,000 layers and a list of
 * 100,000 entries: the walk per layer was 1e10 list steps (30 CPU s and
 * more under ASan); once it is 200,000. */
static void test_layer_list_once(void)
{
    enum { L = 100000 };
    size_t cap = (size_t)L * 8 + 512, n = 0;
    char *j = malloc(cap);
    if (!j) { CHECK(0); return; }
    n += (size_t)snprintf(j + n, cap - n, "{\"model_type\": \"qwen3_moe\", \"num_hidden_layers\": %d, "
                          "\"hidden_size\": 64, \"num_attention_heads\": 4, \"vocab_size\": 100, "
                          "\"intermediate_size\": 128, \"moe_intermediate_size\": 32, \"num_experts\": 4, "
                          "\"num_experts_per_tok\": 2, \"mlp_only_layers\": [", L);
    for (int i = 0; i < L; i += 2) n += (size_t)snprintf(j + n, cap - n, "%s%d", i ? ", " : "", i);
    for (int i = 0; i < L; i += 2) n += (size_t)snprintf(j + n, cap - n, ", %d", i);   /* listed twice */
    snprintf(j + n, cap - n, "]}");
    clock_t t0 = clock();
    jc_arch *a = expect(j, JC_OK, NULL, NULL);
    double cpu = (double)(clock() - t0) / CLOCKS_PER_SEC;
    free(j);
    if (a) {
        CHECK(!a->layer[0].moe && a->layer[1].moe && !a->layer[L - 2].moe && a->layer[L - 1].moe);
        jc_arch_free(a);
    }
    if (cpu > 5) {
        printf("  %d layers took %.1f CPU s\n", L, cpu);
        check_cur_fail_ = 1;
    }
    expect("{\"model_type\": \"qwen3_moe\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
           "\"num_attention_heads\": 4, \"vocab_size\": 100, \"intermediate_size\": 128, "
           "\"moe_intermediate_size\": 32, \"num_experts\": 4, \"num_experts_per_tok\": 2, "
           "\"mlp_only_layers\": [1e300]}", JC_ERR_MODEL, "'mlp_only_layers'", "0 to 1");
}

int main(void)
{
    RUN(test_product_overflow);
    RUN(test_option_limits);
    RUN(test_not_a_model);
    RUN(test_layer_list_once);
    remove(TMP);
    return check_summary();
}
