/*
 * test_serving.c - the serving model's arithmetic against hand-computed
 * values (KV-cache bytes, one decode step's bytes and FLOPs at a given
 * context and batch, the touched-experts occupancy, the MoE step's
 * routed part, tile padding and expert-parallel imbalance; the all-reduce
 * time is test_parallel.c), the runtime profiles' mechanisms (chunked
 * prefill, host overlap), the device power model it shares with the
 * estimate (the same constants, the DRAM's energy, the limit),
 * the clocks a power limit leaves a compute-bound step (the estimate's
 * jci_power_cap_clock, hand-computed; --power-limit and power.cap_clock),
 * the Hugging Face config reader (layer patterns, parameter counts, errors
 * naming the key) and the memory-fit refusal of jc_serving_run.
 */
#include "joulecast.h"
#include "check.h"
#include "estimate/power.h"
#include "estimate/serving_int.h"

static jc_hwdb *db;

/* A 2-layer toy decoder: d 64, 4 heads of 16 (2 KV heads), gated MLP 128,
 * vocabulary 100, untied. */
static jc_arch_layer toy_layers[2];
static jc_arch toy(void)
{
    jc_arch a;
    memset(&a, 0, sizeof a);
    a.model_type = "llama";
    a.n_layers = 2;
    a.hidden = 64;
    a.heads = 4;
    a.kv_heads = 2;
    a.head_dim = 16;
    a.vocab = 100;
    a.ffn = 128;
    a.gated = 1;
    memset(toy_layers, 0, sizeof toy_layers);
    a.layer = toy_layers;
    return a;
}

static void test_params_and_kv(void)
{
    jc_arch a = toy();
    double tot, act;
    jc_arch_params(&a, &tot, &act);
    /* per layer: attention 64*64 + 2*64*32 + 64*64 = 12288, MLP 3*64*128 =
     * 24576; two layers 73728; embeddings and LM head 2 * 6400 */
    CHECK_NEAR(tot, 86528, 1e-12);
    CHECK_NEAR(act, 86528, 1e-12);
    /* KV per token: 2 layers x 2 (K, V) x 2 heads x 16 x 2 bytes = 256 */
    CHECK_NEAR(jc_arch_kv_bytes_per_token(&a, 2), 256, 1e-12);
    CHECK_NEAR(jc_arch_kv_bytes_per_token(&a, 1), 128, 1e-12);
}

static void test_decode_step(void)
{
    jc_arch a = toy();
    jci_sv_work w;
    /* batch 4 at context 10, bf16 weights and KV */
    jci_sv_step_work(&a, 2, 2, 2, 4, 4, 10, 4, &w);
    /* 2 x 4 tokens x 73728 + 2 x 4 x 100 x 64 (LM head) */
    CHECK_NEAR(w.lin_flops, 641024, 1e-12);
    /* 4 tokens x 4 x 4 heads x 16 x 10 positions x 2 layers */
    CHECK_NEAR(w.att_flops, 20480, 1e-12);
    /* 73728 x 2 + embedding rows 4 x 64 x 2 + LM head 100 x 64 x 2 */
    CHECK_NEAR(w.w_bytes, 160768, 1e-12);
    /* per layer 4 seqs x 10 x 128 B read + 4 x 128 B written; 2 layers */
    CHECK_NEAR(w.kv_bytes, 11264, 1e-12);
    CHECK_NEAR(w.experts, 0, 0);
    /* a sliding window of 8 on layer 0 caps its context */
    toy_layers[0].window = 8;
    jci_sv_step_work(&a, 2, 2, 2, 4, 4, 10, 4, &w);
    CHECK_NEAR(w.att_flops, 4.0 * 256 * (8 + 10), 1e-12);
    CHECK_NEAR(w.kv_bytes, (4 * 8 * 128 + 512) + (4 * 10 * 128 + 512), 1e-12);
    /* 4-bit weights: the weight bytes follow the format */
    toy_layers[0].window = 0;
    jci_sv_step_work(&a, 0.53125, 0.53125, 1, 4, 4, 10, 4, &w);
    CHECK_NEAR(w.w_bytes, 73728 * 0.53125 + 512 + 12800, 1e-12);
    CHECK_NEAR(w.kv_bytes, 11264 / 2.0, 1e-12);
}

static void test_moe_step(void)
{
    jc_arch a = toy();
    a.n_experts = 8;
    a.top_k = 2;
    a.expert_ffn = 32;
    toy_layers[0].moe = toy_layers[1].moe = 1;
    jci_sv_work w;
    /* one token touches k = 2 experts: 2 x 3 x 64 x 32 = 12288 expert
     * weights per layer, plus the router 64 x 8 */
    jci_sv_step_work(&a, 2, 2, 2, 1, 1, 10, 1, &w);
    CHECK_NEAR(w.experts, 2, 1e-12);
    CHECK_NEAR(w.w_bytes, 2 * (12288 + 12288 + 512) * 2.0 + 64 * 2 + 12800, 1e-12);
    /* two tokens touch 8 (1 - (6/8)^2) = 3.5 experts in expectation */
    jci_sv_step_work(&a, 2, 2, 2, 2, 2, 10, 2, &w);
    CHECK_NEAR(w.experts, 3.5, 1e-12);
    CHECK_NEAR(w.lin_flops, 2 * 2 * 2 * (12288 + 2 * 6144 + 512) + 2 * 2 * 6400, 1e-12);
    /* the routed part: 2 tokens x top-2 x 6144 expert weights x 2 FLOPs per
     * layer; 3.5 experts' weights; 4 token-expert slots per MoE layer; the
     * permute and unpermute move 8 bytes per slot per hidden unit */
    CHECK_NEAR(w.exp_flops, 2 * (2 * 2 * 2 * 6144.0), 1e-12);
    CHECK_NEAR(w.exp_bytes, 2 * 3.5 * 6144 * 2.0, 1e-12);
    CHECK_NEAR(w.exp_slots, 4, 1e-12);
    CHECK_NEAR(w.perm_bytes, 2 * 8 * 4 * 64.0, 1e-12);
    CHECK_NEAR(w.moe_layers, 2, 0);
    CHECK_NEAR(w.kernels, 4 + 2 * 13, 0);   /* per step + 13 per MoE layer */
    toy_layers[0].moe = toy_layers[1].moe = 0;
    jci_sv_step_work(&a, 2, 2, 2, 2, 2, 10, 2, &w);
    CHECK_NEAR(w.kernels, 4 + 2 * 9, 0);
    CHECK_NEAR(w.exp_flops, 0, 0);
}

static void test_moe_padding_imbalance(void)
{
    /* 4 slots over 3.5 experts: each expert's rows padded to 16 */
    CHECK_NEAR(jci_sv_padded_tokens(4, 3.5, 16), 3.5 * 16, 1e-12);
    /* 512 slots over 8 experts: 64 each, already a multiple of 16 */
    CHECK_NEAR(jci_sv_padded_tokens(512, 8, 16), 512, 1e-9);
    CHECK_NEAR(jci_sv_padded_tokens(520, 8, 16), 8 * 80, 1e-9);   /* 65 -> 80 */
    CHECK_NEAR(jci_sv_padded_tokens(0, 8, 16), 0, 0);
    /* no expert parallelism: balanced; 8 devices with 64 slots each:
     * 1 + sqrt(2 ln 8 / 64) */
    CHECK_NEAR(jci_sv_imbalance(100, 1), 1, 0);
    CHECK_NEAR(jci_sv_imbalance(512, 8), 1 + sqrt(2 * log(8.0) / 64), 1e-12);
    CHECK_NEAR(jci_sv_imbalance(0.5, 8), 8, 0);   /* under one slot per device: capped at ep */
    CHECK(jci_sv_imbalance(64, 8) > jci_sv_imbalance(4096, 8));   /* more tokens even out */
}

static void test_occupancy(void)
{
    CHECK_NEAR(jci_sv_touched_experts(8, 2, 1), 2, 1e-12);
    CHECK_NEAR(jci_sv_touched_experts(8, 2, 2), 3.5, 1e-12);
    CHECK_NEAR(jci_sv_touched_experts(8, 2, 3), 4.625, 1e-12);       /* 8 (1 - 0.421875) */
    CHECK_NEAR(jci_sv_touched_experts(128, 8, 1), 8, 1e-12);
    CHECK_NEAR(jci_sv_touched_experts(128, 8, 1e6), 128, 1e-12);     /* every expert */
    CHECK_NEAR(jci_sv_touched_experts(0, 0, 5), 0, 0);
}

static jc_arch *load(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "tests/serving/configs/%s", name);
    jc_arch *a = NULL;
    jc_diag d;
    if (jc_arch_load_hf(path, &a, &d)) {
        printf("  %s: %s\n", path, d.msg);
        check_cur_fail_ = 1;
    }
    return a;
}

static void test_configs(void)
{
    double tot, act;
    jc_arch *a = load("llama-3.1-8b.json");
    if (a) {
        jc_arch_params(a, &tot, &act);
        /* 32 x (41,943,040 + 176,160,768) + 2 x 128256 x 4096 (norm weights not counted) */
        CHECK_NEAR(tot, 8029995008.0, 1e-12);
        CHECK_NEAR(jc_arch_kv_bytes_per_token(a, 2), 131072, 1e-12);   /* 32 x 2 x 8 x 128 x 2 */
        CHECK_STR(a->weight_format, "bf16");
    }
    jc_arch_free(a);
    a = load("deepseek-v3.json");
    if (a) {
        CHECK(a->mla);
        CHECK_NEAR(jc_arch_kv_bytes_per_token(a, 2), 61.0 * (512 + 64) * 2, 1e-12);   /* latent + rope key */
        CHECK(!a->layer[0].moe && !a->layer[2].moe && a->layer[3].moe && a->layer[60].moe);
        CHECK_STR(a->weight_format, "fp8");
        jc_arch_params(a, &tot, &act);
        CHECK(tot > 670e9 && tot < 672e9);   /* 671 B published (MTP module excluded) */
        CHECK(act > 37e9 && act < 38e9);     /* 37 B active published */
    }
    jc_arch_free(a);
    a = load("gpt-oss-120b.json");
    if (a) {
        CHECK(a->layer[0].window == 128 && a->layer[1].window == 0 && a->layer[34].window == 128);
        CHECK_STR(a->expert_format, "mxfp4");
        CHECK(a->weight_format == NULL || !strcmp(a->weight_format, "bf16"));
    }
    jc_arch_free(a);
    a = load("gemma-2-9b.json");
    if (a) CHECK(a->layer[0].window == 4096 && a->layer[1].window == 0 && a->tied);
    jc_arch_free(a);
    a = load("gemma-3-27b.json");
    if (a) CHECK(a->n_layers == 62 && a->layer[4].window == 1024 && a->layer[5].window == 0);
    jc_arch_free(a);
    a = load("llama-4-scout.json");
    if (a) {
        CHECK(a->n_layers == 48 && a->layer[0].moe && a->n_experts == 16 && a->top_k == 1);
        CHECK(a->layer[0].window == 8192 && a->layer[3].window == 0);
        jc_arch_params(a, &tot, &act);
        CHECK(tot > 107e9 && tot < 110e9 && act > 16.5e9 && act < 17.5e9);   /* 109 B / 17 B published */
    }
    jc_arch_free(a);
    a = load("gpt2.json");
    if (a) {
        jc_arch_params(a, &tot, &act);
        /* 12 x (4 x 768^2 + 2 x 768 x 3072) + 50257 x 768 + 1024 x 768 (biases, norms not counted) */
        CHECK_NEAR(tot, 12.0 * (4 * 768 * 768 + 2 * 768 * 3072) + 50257.0 * 768 + 1024.0 * 768, 1e-12);
        CHECK(!a->gated && a->tied);
    }
    jc_arch_free(a);
    a = load("qwen3-30b-a3b.json");
    if (a) {
        jc_arch_params(a, &tot, &act);
        CHECK(tot > 30e9 && tot < 31e9 && act > 3.0e9 && act < 3.5e9);   /* 30.5 B / 3.3 B published */
    }
    jc_arch_free(a);
}

static void test_config_errors(void)
{
    const char *p = "build/test_serving_bad.json";
    struct { const char *json; jc_status st; const char *needle; } c[] = {
        {"{\"model_type\": \"llama\", \"num_hidden_layers\": 2}", JC_ERR_MODEL, "'hidden_size'"},
        {"{\"model_type\": \"rwkv\"}", JC_ERR_NOTFOUND, "'rwkv' is not supported"},
        {"{\"hidden_size\": 4}", JC_ERR_MODEL, "'model_type'"},
        {"{\"model_type\": \"mixtral\", \"num_hidden_layers\": 2, \"hidden_size\": 8, \"num_attention_heads\": 2,"
         " \"vocab_size\": 10, \"intermediate_size\": 4}", JC_ERR_MODEL, "'num_local_experts'"},
        {"{\"model_type\": \"llama\", \"num_hidden_layers\": -3}", JC_ERR_MODEL, "'num_hidden_layers'"},
        {"[1, 2", JC_ERR_MODEL, "not valid JSON"},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        FILE *f = fopen(p, "w");
        if (!f) { CHECK(0); return; }
        fputs(c[i].json, f);
        fclose(f);
        jc_arch *a = NULL;
        jc_diag d;
        jc_status st = jc_arch_load_hf(p, &a, &d);
        CHECK_I64(st, c[i].st);
        CHECK(a == NULL);
        if (!strstr(d.msg, c[i].needle)) {
            printf("  message '%s' lacks '%s'\n", d.msg, c[i].needle);
            check_cur_fail_ = 1;
        }
    }
    remove(p);
    jc_arch *a = NULL;
    jc_diag d;
    CHECK_I64(jc_arch_load_hf("tests/serving/configs/no-such-file.json", &a, &d), JC_ERR_IO);
}

static void job_for(jc_job *j, double count)
{
    jc_job_init(j);
    j->mode = JC_MODE_GENERATION;
    j->device = "h100";
    j->prompt_tokens = 500;
    j->output_tokens = 300;
    j->concurrency = 64;
    j->requests = 1000;
    j->ci = 400;
    j->pue = 1.2;
    j->count = count;
}

static void test_memory_fit(void)
{
    jc_arch *a = load("llama-3.1-70b.json");
    if (!a) return;
    jc_job j;
    jc_serving *s = NULL;
    jc_diag d;
    /* 70B bf16 (141 GB) on one 80 GB device: refused, naming the count */
    job_for(&j, 1);
    CHECK_I64(jc_serving_run(&j, a, db, &s, &d), JC_ERR_RANGE);
    CHECK(strstr(d.msg, "at least 2 devices") != NULL);
    /* no --count: the smallest tensor-parallel group whose memory holds
     * the weights and the 64 sequences' KV (4: at tp 2 the 70 GB of
     * weights per device leave room for about 13), said */
    job_for(&j, NAN);
    CHECK_I64(jc_serving_run(&j, a, db, &s, &d), JC_OK);
    if (s) {
        CHECK_NEAR(s->tp, 4, 0);
        CHECK_NEAR(s->devices, 4, 0);
        int said = 0;
        for (size_t i = 0; i < s->estimate->n_warnings; i++)
            said |= strstr(s->estimate->warnings[i], "and the KV cache of 64 sequences do not fit one") != NULL;
        CHECK(said);
        CHECK(!s->memory_limited);
        CHECK_NEAR(s->concurrency, 64, 0);
    }
    jc_serving_free(s);
    s = NULL;
    /* --count 2: no group within it holds the 64 sequences, so tp 2 (the
     * weights fit) and the KV memory caps the batch */
    job_for(&j, 2);
    CHECK_I64(jc_serving_run(&j, a, db, &s, &d), JC_OK);
    if (s) {
        CHECK_NEAR(s->tp, 2, 0);
        CHECK(s->memory_limited);   /* 64 sequences' KV does not fit beside 70 GB of weights per device */
        CHECK(s->concurrency < 64);
        /* the figures hold together: J/token x output tokens = J/request */
        CHECK_NEAR(s->j_per_request.central, s->j_per_output_token.central * 300, 1e-9);
        CHECK(s->j_per_output_token_device.central < s->j_per_output_token.central);
        CHECK(s->ttft_s.low <= s->ttft_s.central && s->ttft_s.central <= s->ttft_s.high);
    }
    jc_serving_free(s);
    s = NULL;
    /* four devices: tp 4 (given), no memory limit at 64 */
    job_for(&j, 4);
    j.tp = 4;
    CHECK_I64(jc_serving_run(&j, a, db, &s, &d), JC_OK);
    if (s) {
        CHECK(!s->memory_limited);
        CHECK(s->collective_s_per_step > 0);
    }
    jc_serving_free(s);
    s = NULL;
    /* --tp that does not divide --count */
    job_for(&j, 6);
    j.tp = 4;
    CHECK_I64(jc_serving_run(&j, a, db, &s, &d), JC_ERR_USAGE);
    jc_arch_free(a);
}

/* The runtime profiles' mechanisms on Llama-3.1-8B, 1 x H100: chunked
 * prefill (vllm) hides prompt work under the decode steps' weight reads,
 * so it is faster than separate prefill steps with serial host work
 * (vllm-0.5); an unknown profile is refused naming the known ones. */
static void test_runtime_profiles(void)
{
    jc_arch *a = load("llama-3.1-8b.json");
    if (!a) return;
    jc_job j;
    jc_serving *s = NULL, *s5 = NULL, *hf = NULL;
    jc_diag d;
    job_for(&j, 1);
    CHECK_I64(jc_serving_run(&j, a, db, &s, &d), JC_OK);
    j.serving_runtime = "vllm-0.5";
    CHECK_I64(jc_serving_run(&j, a, db, &s5, &d), JC_OK);
    j.serving_runtime = "hf-generate";
    CHECK_I64(jc_serving_run(&j, a, db, &hf, &d), JC_OK);
    if (s && s5 && hf) {
        CHECK(s->tokens_per_s.central > s5->tokens_per_s.central);
        CHECK(hf->tokens_per_s.central < s->tokens_per_s.central);   /* eager launches, static batch */
        /* chunks ride in the decode steps: their marginal share of the time */
        CHECK(s->prefill_time_share > 0 && s->prefill_time_share < s5->prefill_time_share);
        CHECK(s5->prefill_time_share > 0);
        CHECK(s->j_per_output_token_device.low < s->j_per_output_token_device.central &&
              s->j_per_output_token_device.central < s->j_per_output_token_device.high);
    }
    jc_serving_free(s);
    jc_serving_free(s5);
    jc_serving_free(hf);
    j.serving_runtime = "vllm-0.11";
    CHECK_I64(jc_serving_run(&j, a, db, &s, &d), JC_ERR_USAGE);
    CHECK(strstr(d.msg, "vllm (default), vllm-0.5, sglang") != NULL);
    jc_arch_free(a);
}

static const jc_assumption *assumed(const jc_serving *s, const char *key)
{
    for (size_t i = 0; s && s->estimate && i < s->estimate->n_assumptions; i++)
        if (!strcmp(s->estimate->assumptions[i].key, key)) return &s->estimate->assumptions[i];
    return NULL;
}

/* Serving's device power is the estimate's model with the estimate's
 * constants (one set for every path, issue #30 item 4): the coefficients
 * are the hwdb's power_k_*_gpu, the DRAM's energy per byte of the
 * device's memory type is added, the power limit is the device's, and a
 * user limit is refused (the step times are at the design clocks). */
static void test_shared_power_model(void)
{
    jc_arch *a = load("llama-3.1-8b.json");
    if (!a) return;
    jc_job j;
    jc_serving *s = NULL;
    jc_diag d;
    job_for(&j, 1);
    CHECK_I64(jc_serving_run(&j, a, db, &s, &d), JC_OK);
    const jc_constant *kc = NULL, *hbm = NULL;
    jc_diag tmp;
    CHECK_I64(jc_hwdb_constant(db, "power_k_compute_gpu", &kc, &tmp), JC_OK);
    CHECK_I64(jc_hwdb_constant(db, "mem_pj_per_bit_hbm", &hbm, &tmp), JC_OK);
    const jc_assumption *k = assumed(s, "power_k_compute_gpu"), *m = assumed(s, "power.memory_w"),
                        *bw = assumed(s, "device.memory_bw"), *lim = assumed(s, "power.limit_w"),
                        *tdp = assumed(s, "device.tdp_w");
    CHECK(k && m && bw && lim && tdp && kc && hbm);
    CHECK(assumed(s, "activity_launch_bound") != NULL);
    CHECK(assumed(s, "serving_power_k_compute") == NULL);
    if (k && m && bw && lim && tdp && kc && hbm && s) {
        CHECK_NEAR(k->value.central, kc->value.value, 1e-12);
        /* H100 SXM5 HBM3: pJ/bit x 8 bit x GB/s */
        CHECK_NEAR(m->value.central, hbm->value.value * 8e-12 * bw->value.central * 1e9, 1e-6);
        CHECK(lim->value.central > 0);
        CHECK(s->power_decode_w.central <= lim->value.central + 1e-9);
        CHECK(s->power_prefill_w.central <= lim->value.central + 1e-9);
    }
    /* the H100 holds its boost clock at its default limit (no
     * boost_power_w: B is its TDP, the limit) */
    CHECK(assumed(s, "power.cap_clock") == NULL);
    jc_serving_free(s);
    s = NULL;
    j.power_limit_w = 6000;   /* outside the job key's range */
    CHECK(jc_serving_run(&j, a, db, &s, &d) != JC_OK);
    jc_serving_free(s);
    jc_arch_free(a);
}

/* One class of a step's kernels under a power limit (jci_sv_part_time):
 * idle 50 W, TDP 400 W, B 500 W, k_c 4 ln 2, k_m 0, at u_c 0.5: activity
 * 1 - e^(-ln 4) = 0.75, P_b = 50 + 450 x 0.75 = 387.5 W. */
static void test_part_time_at_cap(void)
{
    jci_power_model pm;
    memset(&pm, 0, sizeof pm);
    pm.idle_w = (jc_range){50, 50, 50};
    pm.tdp_w = (jc_range){400, 400, 400};
    pm.k[JCI_PW_K_COMPUTE] = (jc_range){4 * log(2), 4 * log(2), 4 * log(2)};
    pm.boost_w = 500;
    pm.limit_w = 200;
    double r, peak = 1e12, bw = 1e12;
    /* compute-bound (1 s against 0.5 s), 5e11 FLOPs: u_c 0.5; at 200 W
     * r = (150 / 337.5)^(1/3) = 0.763143, 1 / r = 1.310371 s */
    CHECK_NEAR(jci_sv_part_time(&pm, 1, 0.5, 5e11, 0, peak, bw, &r), 1.310370697, 1e-8);
    CHECK_NEAR(r, 0.763142828, 1e-8);
    /* memory-bound: its time, whatever the limit */
    CHECK_NEAR(jci_sv_part_time(&pm, 0.4, 0.5, 2e11, 5e11, peak, bw, &r), 0.5, 1e-15);
    CHECK_NEAR(r, 1, 1e-15);
    /* the DRAM term: 100 W at full bandwidth, u_m 0.5 -> P_b 437.5 W,
     * r = (150 / 387.5)^(1/3) = 0.728797, 1 / r = 1.372124 s */
    pm.mem_w = 100;
    CHECK_NEAR(jci_sv_part_time(&pm, 1, 0.5, 5e11, 5e11, peak, bw, &r), 1.372124385, 1e-8);
    pm.mem_w = 0;
    /* 400 W is above P_b: boost clock */
    pm.limit_w = 400;
    CHECK_NEAR(jci_sv_part_time(&pm, 1, 0.5, 5e11, 0, peak, bw, &r), 1, 1e-15);
    CHECK_NEAR(r, 1, 1e-15);
    /* no power model: the roofline */
    CHECK_NEAR(jci_sv_part_time(NULL, 1, 0.5, 5e11, 0, peak, bw, &r), 1, 1e-15);
}

/* The serving job takes the clocks the limit leaves as the estimate does:
 * the A100's die draws more than its 400 W at its boost clock
 * (boost_power_w 500 W), so its compute-bound kernels run below 1,410
 * MHz (power.cap_clock), and a lower --power-limit lowers them further and
 * lengthens the steps; the busy power stays at most the limit. */
static void test_serving_cap_clock(void)
{
    jc_arch *a = load("llama-3.1-8b.json");
    if (!a) return;
    jc_job j;
    jc_serving *s0 = NULL, *s1 = NULL;
    jc_diag d;
    job_for(&j, 1);
    j.device = "nvidia-a100-sxm4-40gb";
    CHECK_I64(jc_serving_run(&j, a, db, &s0, &d), JC_OK);
    j.power_limit_w = 250;
    CHECK_I64(jc_serving_run(&j, a, db, &s1, &d), JC_OK);
    const jc_assumption *c0 = assumed(s0, "power.cap_clock"), *c1 = assumed(s1, "power.cap_clock"),
                        *l1 = assumed(s1, "power.limit_w");
    CHECK(c0 && c1 && l1);
    if (c0 && c1 && l1) {
        CHECK(c0->value.central < 1410 && c1->value.central < c0->value.central);
        CHECK(strstr(c1->label, "250 W power cap") != NULL);
        CHECK(l1->origin == JC_ORIGIN_USER);
        CHECK(s1->ttft_s.central > s0->ttft_s.central);
        CHECK(s1->power_prefill_w.central <= 250 + 1e-9);
    }
    jc_serving_free(s0);
    jc_serving_free(s1);
    jc_arch_free(a);
}

int main(void)
{
    if (!(db = check_bundled_hwdb())) return 1;
    RUN(test_params_and_kv);
    RUN(test_decode_step);
    RUN(test_moe_step);
    RUN(test_occupancy);
    RUN(test_moe_padding_imbalance);
    RUN(test_runtime_profiles);
    RUN(test_shared_power_model);
    RUN(test_part_time_at_cap);
    RUN(test_serving_cap_clock);
    RUN(test_configs);
    RUN(test_config_errors);
    RUN(test_memory_fit);
    jc_hwdb_free(db);
    return check_summary();
}
