/*
 * test_decoder.c - the ONNX decoder path of the serving model
 * (jc_arch_load_onnx) on tests/models/decoder/tiny_gpt2_past.onnx, a
 * GPT-2-shaped decoder with a past key/value cache exported by
 * tools/export_decoder.py (vocab V 1000, hidden d 64, L 2 layers, h 4
 * heads of 16, MLP f 256, learned positions 256, untied LM head): the
 * dims found, the counted prefill and decode-step MACs and the weights a
 * step reads against the hand formula of that architecture, the serving
 * figures against the Hugging Face config of the same architecture
 * (tests/models/decoder/tiny-gpt2.config.json), the per-node view of a
 * decode step, and the refusals.
 */
#include "joulecast.h"
#include "check.h"

static jc_hwdb *db;

#define MODEL "tests/models/decoder/tiny_gpt2_past.onnx"
#define CONFIG "tests/models/decoder/tiny-gpt2.config.json"
static const double V = 1000, D = 64, L = 2, H = 4, DH = 16, F = 256, NPOS = 256;

static void job_for(jc_job *j)
{
    jc_job_init(j);
    j->mode = JC_MODE_GENERATION;
    j->prompt_tokens = 32;
    j->output_tokens = 16;
    j->concurrency = 8;
    j->requests = 1000;
    j->device = "h100";
    j->ci = 400;
    j->pue = 1.2;
}

static void request_for(jc_request *rq, const jc_job *j, const char *model)
{
    jc_request_init(rq);
    rq->job = j;
    rq->model = model;
}

/* Matrix MACs per token outside attention: QKV 3 d^2, out d^2, MLP 2 d f
 * per layer, LM head d V. */
static double lin_macs(void) { return L * (4 * D * D + 2 * D * F) + D * V; }

static void test_dims_and_counts(void)
{
    jc_job j;
    jc_request rq;
    jc_arch *a = NULL;
    jc_diag d;
    job_for(&j);
    request_for(&rq, &j, MODEL);
    CHECK_I64(jc_arch_load_onnx(&rq, &a, &d), JC_OK);
    if (!a) { printf("  %s\n", d.msg); return; }
    const jc_arch_counted *k = a->counted;
    CHECK(k != NULL);
    if (!k) { jc_arch_free(a); return; }
    CHECK_STR(k->prompt_dim, "sequence");
    CHECK_STR(k->past_dim, "past_sequence");
    CHECK_STR(k->total_dim, "total_sequence");
    CHECK_STR(k->kv_dtype, "fp32");
    CHECK_STR(a->weight_format, "fp32");
    CHECK_I64(a->n_layers, 2);
    CHECK_I64(a->kv_heads, 4);
    CHECK_I64(a->head_dim, 16);
    CHECK_I64(a->hidden, 64);
    CHECK_I64(k->n_past, 4);
    /* K and V of every layer: 2 L h dh elements per token */
    CHECK_NEAR(k->kv_elems_per_token, 2 * L * H * DH, 0);
    /* every parameter of the torch module: wte, wpe, per layer 2 LN (2 d
     * each), QKV (3 d^2 + 3 d), out (d^2 + d), up (d f + f), down (f d + d),
     * final LN, LM head */
    double per_layer = 4 * D + 3 * D * D + 3 * D + D * D + D + D * F + F + F * D + D;
    CHECK_NEAR(k->params, V * D + NPOS * D + L * per_layer + 2 * D + D * V, 0);
    /* prefill at P = 32, past 0: P tokens through the projections, MLP and
     * LM head, and the attention scores and weighted sum over the whole
     * P x P square (the graph masks the upper triangle, it does not skip
     * it): 2 L h dh P^2 */
    double P = 32;
    CHECK_NEAR(k->prefill_macs, P * lin_macs() + 2 * L * H * DH * P * P, 0);
    /* a decode step at context c: one token, keys and values of c cached
     * tokens plus its own */
    CHECK_NEAR(k->ctx[0], 32, 0);
    CHECK_NEAR(k->ctx[1], 47, 0);
    for (int i = 0; i < 2; i++)
        CHECK_NEAR(k->decode_macs[i], lin_macs() + 2 * L * H * DH * (k->ctx[i] + 1), 0);
    CHECK_NEAR(k->decode_macs_per_ctx, 2 * L * H * DH, 1e-12);
    CHECK_NEAR(k->decode_macs0, lin_macs() + 2 * L * H * DH, 1e-12);
    CHECK_NEAR(k->mid_error, 0, 1e-12);
    /* the weights a step reads: every matrix and bias and LN, one row of
     * each embedding table */
    double biases_ln = L * (3 * D + D + F + D + 4 * D) + 2 * D;
    CHECK_NEAR(k->weight_elems_step, L * (4 * D * D + 2 * D * F) + D * V + biases_ln + 2 * D, 0);
    jc_arch_free(a);

    /* the same dims named explicitly count the same */
    j.prompt_dim = "sequence";
    j.past_dim = "past_sequence";
    CHECK_I64(jc_arch_load_onnx(&rq, &a, &d), JC_OK);
    if (a) {
        CHECK_STR(a->counted->prompt_how, "--prompt-dim");
        CHECK_NEAR(a->counted->prefill_macs, P * lin_macs() + 2 * L * H * DH * P * P, 0);
    }
    jc_arch_free(a);

    /* the same graph with other names: found by nothing, told by the two
     * options; the counts are the same */
    request_for(&rq, &j, "tests/models/decoder/tiny_gpt2_cache_names.onnx");
    j.prompt_dim = NULL;
    j.past_dim = NULL;
    CHECK_I64(jc_arch_load_onnx(&rq, &a, &d), JC_ERR_USAGE);
    CHECK(strstr(d.msg, "--prompt-dim NAME") != NULL && strstr(d.msg, "tokens [n, new_tokens]") != NULL);
    j.prompt_dim = "new_tokens";
    CHECK_I64(jc_arch_load_onnx(&rq, &a, &d), JC_ERR_USAGE);
    CHECK(strstr(d.msg, "--past-dim NAME") != NULL && strstr(d.msg, "cache.0.k [n, 4, cached_tokens, 16]") != NULL);
    j.past_dim = "cached_tokens";
    CHECK_I64(jc_arch_load_onnx(&rq, &a, &d), JC_OK);
    if (a) {
        k = a->counted;
        CHECK_STR(k->total_dim, "all_tokens");   /* the input 'mask' */
        CHECK_STR(k->past_how, "--past-dim");
        CHECK_I64(a->hidden, 64);                /* the table 'tokens' gathers from */
        CHECK_NEAR(k->prefill_macs, P * lin_macs() + 2 * L * H * DH * P * P, 0);
        CHECK_NEAR(k->decode_macs_per_ctx, 2 * L * H * DH, 1e-12);
        CHECK_NEAR(k->kv_elems_per_token, 2 * L * H * DH, 0);
    }
    jc_arch_free(a);
}

/* The serving figures of the ONNX decoder against the same architecture's
 * Hugging Face config, both at bf16 weights and KV.  They differ by what
 * the graph computes and the config path does not: */
static void test_against_hf_config(void)
{
    jc_job j;
    jc_request rq;
    jc_generation go, gh;
    jc_diag d;
    job_for(&j);
    j.weights = "bf16";
    j.kv_format = "bf16";
    request_for(&rq, &j, MODEL);
    CHECK_I64(jc_generation_run(&rq, db, &go, &d), JC_OK);
    if (!go.serving) { printf("  %s\n", d.msg); return; }
    j.hf_config = CONFIG;
    request_for(&rq, &j, NULL);
    CHECK_I64(jc_generation_run(&rq, db, &gh, &d), JC_OK);
    if (!gh.serving) { printf("  %s\n", d.msg); jc_generation_release(&go); return; }
    const jc_serving *o = go.serving, *h = gh.serving;
    const jc_arch_counted *k = go.arch->counted;
    double P = 32, O = 16, B = 8, c = P + O / 2;
    /* KV cache per token: identical (2 L h dh x 2 bytes) */
    CHECK_NEAR(o->kv_bytes_per_token, h->kv_bytes_per_token, 0);
    CHECK_NEAR(o->kv_bytes_per_token, 2 * L * H * DH * 2, 0);
    /* parameters: the config path counts no biases or LayerNorms */
    double biases_ln = L * (3 * D + D + F + D + 4 * D) + 2 * D;
    CHECK_NEAR(o->params_total - h->params_total, biases_ln, 0);
    /* prefill: the config path's causal attention (P (P + 1) / 2 pairs)
     * and one row of logits; the graph's masked square (P^2) and a row per
     * prompt token.  As matrix FLOPs (2 x MACs): */
    double onnx_pre = 2 * k->prefill_macs;
    CHECK_NEAR(onnx_pre - 2 * 2 * L * H * DH * (P * P - P * (P + 1) / 2) - 2 * (P - 1) * D * V,
               h->prefill_flops, 1e-12);
    /* decode at the mean context: the config path attends to c cached
     * tokens, the graph to c + 1 (the new token's own key) */
    double onnx_dec = 2 * (k->decode_macs0 + k->decode_macs_per_ctx * c);
    CHECK_NEAR(onnx_dec - 2 * 2 * L * H * DH, h->decode_flops_per_token, 1e-12);
    /* the serving model takes the graph's FLOPs (2 MACs + the element-wise
     * ops: softmax, LayerNorm, GELU, biases) */
    CHECK(o->decode_flops_per_token > onnx_dec);
    CHECK(o->decode_flops_per_token < 1.03 * onnx_dec);
    /* bytes of a decode step of B sequences: the same KV traffic; the
     * graph's weights add the biases and LayerNorms (at 2 bytes) and read
     * one row of each embedding table (counted at one sequence), the
     * config path B rows of the token table */
    CHECK_NEAR(o->decode_bytes_per_step - h->decode_bytes_per_step, 2 * biases_ln + 2 * 2 * D - B * D * 2, 1e-12);
    (void)c;
    jc_generation_release(&go);
    jc_generation_release(&gh);
}

/* --per-node: the counted nodes of one decode step at nodes_ctx, scaled
 * to the B running sequences: their FLOPs sum to B x the counted line. */
static void test_per_node(void)
{
    jc_job j;
    jc_request rq;
    jc_generation g;
    jc_diag d;
    job_for(&j);
    j.per_node = 1;
    request_for(&rq, &j, MODEL);
    CHECK_I64(jc_generation_run(&rq, db, &g, &d), JC_OK);
    if (!g.serving) { printf("  %s\n", d.msg); return; }
    const jc_arch_counted *k = g.arch->counted;
    CHECK_NEAR(k->nodes_ctx, 39, 0);   /* the midpoint of 32 and 47 */
    CHECK(k->n_nodes > 50);
    CHECK_I64(g.serving->n_nodes, k->n_nodes);
    double fl = 0, by = 0;
    for (size_t i = 0; i < g.serving->n_nodes; i++) {
        fl += g.serving->nodes[i].flops;
        by += g.serving->nodes[i].bytes;
    }
    CHECK_NEAR(fl, 8 * (k->decode_flops0 + k->decode_flops_per_ctx * 39), 1e-12);
    /* every weight read once (fp32), plus the graph's activations */
    CHECK(by > k->weight_elems_step * 4);
    jc_generation_release(&g);
}

static void test_refusals(void)
{
    jc_job j;
    jc_request rq;
    jc_arch *a = NULL;
    jc_generation g;
    jc_diag d;
    job_for(&j);
    /* a named dim the model lacks */
    j.past_dim = "past_len";
    request_for(&rq, &j, MODEL);
    CHECK_I64(jc_arch_load_onnx(&rq, &a, &d), JC_ERR_NOTFOUND);
    CHECK(strstr(d.msg, "'past_len'") != NULL);
    j.past_dim = NULL;
    /* a decoder without a cache: the message names the inputs and the option */
    request_for(&rq, &j, "models/gpt2_small.onnx");
    CHECK_I64(jc_arch_load_onnx(&rq, &a, &d), JC_ERR_USAGE);
    CHECK(strstr(d.msg, "--past-dim") != NULL && strstr(d.msg, "input_ids [batch, sequence]") != NULL);
    /* no token input */
    request_for(&rq, &j, "models/resnet50.onnx");
    CHECK_I64(jc_arch_load_onnx(&rq, &a, &d), JC_ERR_USAGE);
    CHECK(strstr(d.msg, "--prompt-dim") != NULL);
    /* --dim on a dim the serving model binds */
    jc_dim_binding b = {"past_sequence", 3};
    request_for(&rq, &j, MODEL);
    rq.dims = &b;
    rq.n_dims = 1;
    CHECK_I64(jc_arch_load_onnx(&rq, &a, &d), JC_ERR_USAGE);
    /* --prompt-dim without --generate: no effect, refused */
    j.mode = JC_MODE_INFERENCE;
    j.prompt_dim = "sequence";
    request_for(&rq, &j, MODEL);
    CHECK_I64(jc_generation_run(&rq, db, &g, &d), JC_ERR_USAGE);
    CHECK(strstr(d.msg, "--generate") != NULL);
    /* a model and a config together */
    j.mode = JC_MODE_GENERATION;
    j.prompt_dim = NULL;
    j.hf_config = CONFIG;
    CHECK_I64(jc_generation_run(&rq, db, &g, &d), JC_ERR_USAGE);
    CHECK(a == NULL);
}

int main(void)
{
    if (!(db = check_bundled_hwdb())) return 1;
    RUN(test_dims_and_counts);
    RUN(test_against_hf_config);
    RUN(test_per_node);
    RUN(test_refusals);
    jc_hwdb_free(db);
    return check_summary();
}
