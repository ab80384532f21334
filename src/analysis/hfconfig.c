/*
 * hfconfig.c (analysis) - reads a Hugging Face config.json (cJSON) into a jc_arch:
 * the per-layer architecture of a decoder-only transformer that the
 * serving model (src/estimate/serving.c) turns into per-layer work.
 *
 * Families (the table `families`): llama (1-3.x), mistral, mixtral,
 * qwen2, qwen2_moe, qwen3, qwen3_moe, olmo, olmo2, granite, internlm2,
 * cohere, gemma, gemma2, gemma3 / gemma3_text (sliding-window layers),
 * phi3, starcoder2, gpt_oss (MXFP4 experts, alternating sliding window),
 * deepseek_v2 / deepseek_v3 / deepseek_r1 (MLA, shared + routed experts,
 * dense first layers), llama4 / llama4_text (interleaved MoE, chunked
 * local attention), and the up + down MLP families gpt2, gptj, gpt_neox
 * (Pythia), phi (Phi-1/2), falcon (multi-query or grouped KV heads),
 * bloom, opt (learned positions + 2), mpt.  A multimodal wrapper's
 * text_config is read.  Encoders (bert, roberta, xlm-roberta, distilbert:
 * bidirectional layers, learned positions, BERT's token types and pooler)
 * and encoder-decoders (t5, mt5: relative-position buckets, gated MLP
 * where feed_forward_proj says so; bart, mbart: learned positions + 2 in
 * each stack) are read as their kind (jc_arch.kind; decoder layers with
 * cross-attention); the serving model takes decoders only
 * (src/workflows/generation.c), the training step model all three.
 * Other types are refused with the generic route (--params, --layers
 * --hidden --heads --seq).
 *
 * Errors name the file and the key: a key the family needs that is
 * missing or not a positive integer is JC_ERR_MODEL; a key above the
 * limit of the option that says the same (num_hidden_layers: --layers,
 * num_nextn_predict_layers: --mtp-heads, ...; src/job/job_keys.def) or a
 * product of two keys past 64 bits is JC_ERR_RANGE; an unknown
 * model_type is JC_ERR_NOTFOUND; an unreadable file JC_ERR_IO.  Lists
 * of layers (mlp_only_layers, moe_layers, layer_types) are read once.
 */
#include "base/jc_internal.h"
#include "joulecast/serving.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct hfc {
    const char *path;
    jc_arch *a;
    jci_arena *ar;
    jc_diag *d;
    const cJSON *root;   /* the text config */
} hfc;

typedef struct arch_internal { jci_arena *ar; } arch_internal;

jc_arch *jci_arch_new(jci_arena **ar_out)
{
    *ar_out = NULL;
    jci_arena *ar = jci_arena_new();
    jc_arch *a = ar ? jci_arena_calloc(ar, 1, sizeof *a) : NULL;
    arch_internal *ai = a ? jci_arena_alloc(ar, sizeof *ai) : NULL;
    if (!ai) {
        jci_arena_free(ar);
        return NULL;
    }
    ai->ar = ar;
    a->internal_ = ai;
    *ar_out = ar;
    return a;
}

/* The limits of the command-line options (src/job/job_keys.def, the one
 * home of every option's bound), read as data: a config key that says
 * what an option says takes that option's limit (key_opt below). */
#define JOB_KEY(name, kind, field, arg, range, min, max, unit, modes, hint, help) {name, max},
static const struct { const char *name; double max; } opt_max[] = {
#include "job/job_keys.def"
};
#undef JOB_KEY

/* Config keys and the option that says the same thing. */
static const struct { const char *key, *opt; } key_opt[] = {
    {"num_hidden_layers", "layers"}, {"n_layer", "layers"}, {"n_layers", "layers"},
    {"hidden_size", "hidden"}, {"n_embd", "hidden"}, {"n_embed", "hidden"}, {"d_model", "hidden"},
    {"num_attention_heads", "heads"}, {"n_head", "heads"}, {"n_heads", "heads"},
    {"num_key_value_heads", "heads"}, {"num_kv_heads", "heads"}, {"kv_n_heads", "heads"},
    {"max_position_embeddings", "seq"}, {"n_positions", "seq"}, {"max_seq_len", "seq"},
    {"sliding_window", "seq"}, {"attention_chunk_size", "seq"},
    {"num_nextn_predict_layers", "mtp-heads"},
    {"num_layers", "layers"}, {"num_decoder_layers", "layers"}, {"encoder_layers", "layers"},
    {"decoder_layers", "layers"}, {"dim", "hidden"}, {"num_heads", "heads"},
    {"encoder_attention_heads", "heads"}, {"decoder_attention_heads", "heads"},
};

#define KEY_MAX 1e12   /* any other size: beyond it no model exists */

/* The largest value of `key`; *opt receives the option it shares its limit
 * with, or NULL. */
static double key_max(const char *key, const char **opt)
{
    *opt = NULL;
    for (size_t i = 0; i < sizeof key_opt / sizeof key_opt[0]; i++) {
        if (strcmp(key, key_opt[i].key)) continue;
        for (size_t j = 0; j < sizeof opt_max / sizeof opt_max[0]; j++)
            if (!strcmp(opt_max[j].name, key_opt[i].opt) && opt_max[j].max > 0) {
                *opt = opt_max[j].name;
                return opt_max[j].max;
            }
    }
    return KEY_MAX;
}

/* An integer key.  A required key (the family needs it) is a whole number
 * >= 1; an optional one >= 0, `dflt` when missing or null.  Above its
 * limit (key_max): JC_ERR_RANGE naming the key and the option whose limit
 * it shares; otherwise a bad value is JC_ERR_MODEL naming the key. */
static jc_status get_int(hfc *h, const char *key, int required, int64_t dflt, int64_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(h->root, key);
    if (!v || cJSON_IsNull(v)) {
        if (required)
            return jci_diag_set(h->d, JC_ERR_MODEL, "%s: model_type '%s' needs the key '%s' (missing)",
                               h->path, h->a->model_type, key);
        *out = dflt;
        return JC_OK;
    }
    const char *opt;
    double max = key_max(key, &opt);
    if (cJSON_IsNumber(v) && v->valuedouble > max) {   /* say the limit, not "whole number" */
        if (opt)
            return jci_diag_set(h->d, JC_ERR_RANGE, "%s: key '%s' is %g, above the limit of the option it "
                                "matches (--%s: at most %g)", h->path, key, v->valuedouble, opt, max);
        return jci_diag_set(h->d, JC_ERR_RANGE, "%s: key '%s' is %g, above the largest size joulecast takes "
                            "(%g)", h->path, key, v->valuedouble, max);
    }
    if (!cJSON_IsNumber(v) || v->valuedouble < (required ? 1 : 0) ||
        v->valuedouble != (double)(int64_t)v->valuedouble)
        return jci_diag_set(h->d, JC_ERR_MODEL, "%s: key '%s' must be a whole number >= %d", h->path, key,
                           required ? 1 : 0);
    *out = (int64_t)v->valuedouble;
    return JC_OK;
}

static int get_bool(const cJSON *root, const char *key, int dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
    if (cJSON_IsBool(v)) return cJSON_IsTrue(v);
    return dflt;
}

static const char *get_str(const cJSON *root, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static const char *dup(hfc *h, const char *s)
{
    return s ? jci_arena_strdup(h->ar, s) : NULL;
}

typedef enum fam {
    F_LLAMA, F_MIXTRAL, F_QWEN2MOE, F_QWEN3MOE, F_GEMMA, F_GEMMA2, F_GEMMA3, F_PHI3, F_GPT2,
    F_STARCODER2, F_GPTOSS, F_DEEPSEEK, F_LLAMA4, F_DENSE, F_FALCON, F_MPT, F_OPT, F_COUNT
} fam;

/* Key names of the sizes, as each family's config spells them ("a|b":
 * the first present; the missing-key message names a). */
#define K_LLAMA "num_hidden_layers", "hidden_size", "num_attention_heads"
#define K_GPT2 "n_layer", "n_embd", "n_head"
#define CTX "max_position_embeddings"

/* One model_type: the special rules it takes (fam), its key names, the
 * dense MLP's size key (ffn_mult > 0: ffn_mult x hidden when the key is
 * absent or null; 0: the key is needed; -1: it may be absent, MoE-only
 * models), the context key and its default, and the block's shape: gated
 * MLP (gate + up + down), LM head tied to the embedding unless
 * tie_word_embeddings says otherwise, learned position rows (1: the
 * context; 2: the context + 2, OPT's offset). */
typedef struct family {
    const char *type;
    fam f;
    const char *layers, *hidden, *heads, *ffn;
    int ffn_mult;
    const char *ctx;
    int64_t ctx_dflt;
    unsigned char gated, tied, pos;
} family;

static const family families[] = {
    {"llama", F_LLAMA, K_LLAMA, "intermediate_size", 0, CTX, 0, 1, 0, 0},
    {"mistral", F_LLAMA, K_LLAMA, "intermediate_size", 0, CTX, 0, 1, 0, 0},
    {"qwen2", F_LLAMA, K_LLAMA, "intermediate_size", 0, CTX, 0, 1, 0, 0},
    {"qwen3", F_LLAMA, K_LLAMA, "intermediate_size", 0, CTX, 0, 1, 0, 0},
    {"olmo", F_DENSE, K_LLAMA, "intermediate_size", 0, CTX, 0, 1, 0, 0},
    {"olmo2", F_DENSE, K_LLAMA, "intermediate_size", 0, CTX, 0, 1, 0, 0},
    {"granite", F_DENSE, K_LLAMA, "intermediate_size", 0, CTX, 0, 1, 0, 0},
    {"internlm2", F_DENSE, K_LLAMA, "intermediate_size", 0, CTX, 0, 1, 0, 0},
    {"cohere", F_DENSE, K_LLAMA, "intermediate_size", 0, CTX, 0, 1, 1, 0},
    {"mixtral", F_MIXTRAL, K_LLAMA, "intermediate_size", 0, CTX, 0, 1, 0, 0},
    {"qwen2_moe", F_QWEN2MOE, K_LLAMA, "intermediate_size", 0, CTX, 0, 1, 0, 0},
    {"qwen3_moe", F_QWEN3MOE, K_LLAMA, "intermediate_size", -1, CTX, 0, 1, 0, 0},
    {"gemma", F_GEMMA, K_LLAMA, "intermediate_size", 0, CTX, 0, 1, 1, 0},
    {"gemma2", F_GEMMA2, K_LLAMA, "intermediate_size", 0, CTX, 0, 1, 1, 0},
    {"gemma3", F_GEMMA3, K_LLAMA, "intermediate_size", 0, CTX, 0, 1, 1, 0},
    {"gemma3_text", F_GEMMA3, K_LLAMA, "intermediate_size", 0, CTX, 0, 1, 1, 0},
    {"phi3", F_PHI3, K_LLAMA, "intermediate_size", 0, CTX, 0, 1, 0, 0},
    {"starcoder2", F_STARCODER2, K_LLAMA, "intermediate_size", 0, CTX, 0, 0, 0, 0},
    {"gpt_oss", F_GPTOSS, K_LLAMA, NULL, -1, CTX, 0, 1, 0, 0},
    {"deepseek_v2", F_DEEPSEEK, K_LLAMA, NULL, -1, CTX, 0, 1, 0, 0},
    {"deepseek_v3", F_DEEPSEEK, K_LLAMA, NULL, -1, CTX, 0, 1, 0, 0},
    {"deepseek_r1", F_DEEPSEEK, K_LLAMA, NULL, -1, CTX, 0, 1, 0, 0},
    {"llama4", F_LLAMA4, K_LLAMA, "intermediate_size", 0, CTX, 0, 1, 0, 0},
    {"llama4_text", F_LLAMA4, K_LLAMA, "intermediate_size", 0, CTX, 0, 1, 0, 0},
    /* up + down MLPs (GELU) */
    {"gpt2", F_GPT2, K_GPT2, "n_inner", 4, "n_positions", 1024, 0, 1, 1},
    {"gptj", F_DENSE, K_GPT2, "n_inner", 4, "n_positions", 0, 0, 0, 0},
    {"gpt_neox", F_DENSE, K_LLAMA, "intermediate_size", 0, CTX, 0, 0, 0, 0},
    {"phi", F_DENSE, K_LLAMA, "intermediate_size", 0, CTX, 0, 0, 0, 0},
    {"falcon", F_FALCON, "num_hidden_layers|n_layer", "hidden_size", "num_attention_heads|n_head",
     "ffn_hidden_size", 4, CTX, 0, 0, 1, 0},
    {"bloom", F_DENSE, "n_layer|num_hidden_layers", "hidden_size|n_embed", "n_head|num_attention_heads", NULL, 4,
     "seq_length", 0, 0, 1, 0},
    {"opt", F_OPT, K_LLAMA, "ffn_dim", 0, CTX, 2048, 0, 1, 2},
    {"mpt", F_MPT, "n_layers", "d_model", "n_heads", NULL, 0, "max_seq_len", 0, 0, 1, 0},
};

/* Encoders and encoder-decoders (issue 44 item 13): the key names of
 * their sizes ("a|b": the first present), the decoder's layer key (NULL:
 * an encoder; T5's num_decoder_layers defaults to num_layers), the head
 * size key (NULL: hidden / heads), the context key; learned position rows
 * (0: none, T5's relative buckets; 1: the context, once; 2: context + 2
 * in each stack, BART's offset), LM head tied to the embedding unless
 * tie_word_embeddings says otherwise, BERT's token-type table and pooler
 * (d x d), T5's relative-position tables (buckets x heads in the first
 * layer of each stack).  The MLP is gated where feed_forward_proj says
 * "gated-..." (T5 v1.1, mT5). */
typedef struct encfam {
    const char *type;
    jc_arch_kind kind;
    const char *layers, *dec_layers, *hidden, *heads, *ffn, *head_dim, *ctx;
    unsigned char pos, tied, token_types, pooler, rel_bias;
} encfam;

#define K_BERT "num_hidden_layers", NULL, "hidden_size", "num_attention_heads", "intermediate_size", NULL, CTX
#define K_T5 "num_layers", "num_decoder_layers", "d_model", "num_heads", "d_ff", "d_kv", NULL
#define K_BART "encoder_layers", "decoder_layers", "d_model", "encoder_attention_heads", "encoder_ffn_dim", NULL, CTX

static const encfam encfams[] = {
    {"bert", JC_ARCH_ENCODER, K_BERT, 1, 1, 1, 1, 0},
    {"roberta", JC_ARCH_ENCODER, K_BERT, 1, 1, 1, 1, 0},
    {"xlm-roberta", JC_ARCH_ENCODER, K_BERT, 1, 1, 1, 1, 0},
    {"distilbert", JC_ARCH_ENCODER, "n_layers", NULL, "dim", "n_heads", "hidden_dim", NULL, CTX, 1, 1, 0, 0, 0},
    {"t5", JC_ARCH_ENCODER_DECODER, K_T5, 0, 1, 0, 0, 1},
    {"mt5", JC_ARCH_ENCODER_DECODER, K_T5, 0, 1, 0, 0, 1},
    {"bart", JC_ARCH_ENCODER_DECODER, K_BART, 2, 1, 0, 0, 0},
    {"mbart", JC_ARCH_ENCODER_DECODER, K_BART, 2, 1, 0, 0, 0},
};

/* Families this reader does not take: refused with what they are. */
static const struct { const char *type, *what; } not_read[] = {
    {"umt5", "an encoder-decoder with relative-position tables in every layer"},
    {"longt5", "an encoder-decoder with local / transient-global attention"},
    {"switch_transformers", "a mixture-of-experts encoder-decoder"},
    {"pegasus", "an encoder-decoder with sinusoidal positions"}, {"marian", "an encoder-decoder with sinusoidal positions"},
    {"m2m_100", "an encoder-decoder with sinusoidal positions"}, {"whisper", "a speech encoder-decoder"},
    {"albert", "an encoder whose layers share one set of weights"},
    {"electra", "an encoder whose embeddings are narrower than its layers"},
    {"deberta", "an encoder with disentangled relative attention"},
    {"deberta-v2", "an encoder with disentangled relative attention"},
    {"mpnet", "an encoder with relative-position tables"}, {"modernbert", "an encoder with alternating local attention"},
    {"vit", "an image encoder"}, {"clip", "an image-text encoder"},
};

/* What to do with a config this reader does not take. */
#define GENERIC_ROUTE "give the model's sizes instead: --params N (generation), or --params N --layers L " \
    "--hidden H --heads A --seq S (training: the step model); an ONNX export of it can be counted as a model"

/* "layer_types": ["sliding_attention", "full_attention", ...] when given. */
static jc_status read_layer_types(hfc *h, int64_t window)
{
    const cJSON *lt = cJSON_GetObjectItemCaseSensitive(h->root, "layer_types");
    if (!lt) return JC_OK;
    if (!cJSON_IsArray(lt) || cJSON_GetArraySize(lt) != h->a->n_layers)
        return jci_diag_set(h->d, JC_ERR_MODEL, "%s: key 'layer_types' must list one type per layer (%lld)",
                           h->path, (long long)h->a->n_layers);
    int i = 0;
    const cJSON *x;
    cJSON_ArrayForEach(x, lt) {
        const char *s = cJSON_IsString(x) ? x->valuestring : "";
        if (!strcmp(s, "sliding_attention") || !strcmp(s, "chunked_attention")) {
            if (window <= 0)
                return jci_diag_set(h->d, JC_ERR_MODEL, "%s: 'layer_types' names sliding layers but the key "
                                   "'sliding_window' is missing", h->path);
            h->a->layer[i].window = window;
        } else if (!strcmp(s, "full_attention")) {
            h->a->layer[i].window = 0;
        } else {
            return jci_diag_set(h->d, JC_ERR_MODEL, "%s: key 'layer_types'[%d]: unknown layer type '%s'",
                               h->path, i, s);
        }
        i++;
    }
    return JC_OK;
}

/* A list of layer indices (mlp_only_layers, moe_layers), read once into
 * *flags (n_layers entries, 1 for a listed layer; NULL when the key is
 * absent).  An entry that is not a whole number in [0, n_layers) is
 * JC_ERR_MODEL naming the key. */
static jc_status read_layer_list(hfc *h, const char *key, unsigned char **flags)
{
    *flags = NULL;
    const cJSON *l = cJSON_GetObjectItemCaseSensitive(h->root, key);
    if (!l || cJSON_IsNull(l)) return JC_OK;
    if (!cJSON_IsArray(l))
        return jci_diag_set(h->d, JC_ERR_MODEL, "%s: key '%s' must be a list of layer numbers", h->path, key);
    *flags = jci_arena_calloc(h->ar, (size_t)h->a->n_layers, 1);
    if (!*flags) return jci_diag_set(h->d, JC_ERR_NOMEM, "out of memory");
    const cJSON *x;
    cJSON_ArrayForEach(x, l) {
        double v = cJSON_IsNumber(x) ? x->valuedouble : -1;
        if (!(v >= 0 && v < (double)h->a->n_layers) || v != floor(v))
            return jci_diag_set(h->d, JC_ERR_MODEL, "%s: key '%s' must list layer numbers from 0 to %lld",
                               h->path, key, (long long)h->a->n_layers - 1);
        (*flags)[(int64_t)v] = 1;
    }
    return JC_OK;
}

/* The experts of a mixture-of-experts family, and which layers have them. */
static jc_status read_experts(hfc *h, fam f)
{
    jc_arch *a = h->a;
    jc_status st;
    int64_t v = 0;
    const cJSON *r = h->root;
    switch (f) {
    case F_MIXTRAL:
        if ((st = get_int(h, "num_local_experts", 1, 0, &a->n_experts))) return st;
        if ((st = get_int(h, "num_experts_per_tok", 1, 0, &a->top_k))) return st;
        a->expert_ffn = a->ffn;
        for (int64_t i = 0; i < a->n_layers; i++) a->layer[i].moe = 1;
        break;
    case F_QWEN2MOE:
    case F_QWEN3MOE: {
        if ((st = get_int(h, "num_experts", 1, 0, &a->n_experts))) return st;
        if ((st = get_int(h, "num_experts_per_tok", 1, 0, &a->top_k))) return st;
        if ((st = get_int(h, "moe_intermediate_size", 1, 0, &a->expert_ffn))) return st;
        if (f == F_QWEN2MOE) {
            if ((st = get_int(h, "shared_expert_intermediate_size", 1, 0, &a->shared_ffn))) return st;
        }
        int64_t step;
        if ((st = get_int(h, "decoder_sparse_step", 0, 1, &step))) return st;
        unsigned char *only;
        if ((st = read_layer_list(h, "mlp_only_layers", &only))) return st;
        for (int64_t i = 0; i < a->n_layers; i++) {
            int moe = step > 0 && (i + 1) % step == 0 && !(only && only[i]);
            a->layer[i].moe = moe;
            if (!moe && a->ffn <= 0)
                return jci_diag_set(h->d, JC_ERR_MODEL, "%s: layer %lld is dense but the key 'intermediate_size' "
                                   "is missing", h->path, (long long)i);
        }
        break;
    }
    case F_GPTOSS:
        if ((st = get_int(h, "num_local_experts", 1, 0, &a->n_experts))) return st;
        if (cJSON_GetObjectItemCaseSensitive(r, "num_experts_per_tok")) {
            if ((st = get_int(h, "num_experts_per_tok", 1, 0, &a->top_k))) return st;
        } else if ((st = get_int(h, "experts_per_token", 1, 0, &a->top_k))) {
            return st;
        }
        if ((st = get_int(h, "intermediate_size", 1, 0, &a->expert_ffn))) return st;
        for (int64_t i = 0; i < a->n_layers; i++) a->layer[i].moe = 1;
        break;
    case F_DEEPSEEK: {
        a->mla = 1;
        if ((st = get_int(h, "q_lora_rank", 0, 0, &a->q_lora))) return st;
        if ((st = get_int(h, "kv_lora_rank", 1, 0, &a->kv_lora))) return st;
        if ((st = get_int(h, "qk_nope_head_dim", 1, 0, &a->qk_nope))) return st;
        if ((st = get_int(h, "qk_rope_head_dim", 1, 0, &a->qk_rope))) return st;
        if ((st = get_int(h, "v_head_dim", 1, 0, &a->v_head))) return st;
        if ((st = get_int(h, "intermediate_size", 1, 0, &a->ffn))) return st;
        if ((st = get_int(h, "moe_intermediate_size", 1, 0, &a->expert_ffn))) return st;
        if ((st = get_int(h, "n_routed_experts", 1, 0, &a->n_experts))) return st;
        if ((st = get_int(h, "num_experts_per_tok", 1, 0, &a->top_k))) return st;
        if ((st = get_int(h, "n_shared_experts", 0, 0, &v))) return st;
        if (!jci_mul_ok(v, a->expert_ffn, &a->shared_ffn))
            return jci_diag_set(h->d, JC_ERR_RANGE, "%s: n_shared_experts x moe_intermediate_size overflows 64 bits",
                               h->path);
        int64_t first, freq;
        if ((st = get_int(h, "first_k_dense_replace", 0, 0, &first))) return st;
        if ((st = get_int(h, "moe_layer_freq", 0, 1, &freq))) return st;
        for (int64_t i = 0; i < a->n_layers; i++)
            a->layer[i].moe = i >= first && freq > 0 && i % freq == 0;
        a->head_dim = a->qk_nope + a->qk_rope;
        a->kv_heads = a->heads;
        break;
    }
    case F_LLAMA4: {
        if ((st = get_int(h, "num_local_experts", 1, 0, &a->n_experts))) return st;
        if ((st = get_int(h, "num_experts_per_tok", 1, 0, &a->top_k))) return st;
        a->expert_ffn = a->ffn;
        a->shared_ffn = a->ffn;      /* one shared expert per MoE layer */
        if ((st = get_int(h, "intermediate_size_mlp", 0, a->ffn, &a->ffn))) return st;
        int64_t step;
        if ((st = get_int(h, "interleave_moe_layer_step", 0, 1, &step))) return st;
        unsigned char *ml;
        if ((st = read_layer_list(h, "moe_layers", &ml))) return st;
        for (int64_t i = 0; i < a->n_layers; i++) a->layer[i].moe = ml ? ml[i] : step > 0 && (i + 1) % step == 0;
        break;
    }
    default:
        break;
    }
    return JC_OK;
}

/* A size key by its names ("a|b": the first the config gives; none
 * given: get_int of a, which names a in the message). */
static jc_status get_alt(hfc *h, const char *names, int required, int64_t dflt, int64_t *out)
{
    char first[64] = "";
    for (const char *p = names; p;) {
        const char *e = strchr(p, '|');
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(e ? (size_t)(e - p) : strlen(p)), p);
        if (!first[0]) memcpy(first, name, sizeof first);
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(h->root, name);
        if (v && !cJSON_IsNull(v)) return get_int(h, name, required, dflt, out);
        p = e ? e + 1 : NULL;
    }
    return get_int(h, first, required, dflt, out);
}

/* The key/value heads: num_key_value_heads (default: every head), Falcon's
 * multi_query (one; new_decoder_architecture: num_kv_heads) and MPT's
 * attn_config (attn_type multiquery_attention: one;
 * grouped_query_attention: kv_n_heads). */
static jc_status read_kv_heads(hfc *h, fam f)
{
    jc_arch *a = h->a;
    const cJSON *r = h->root;
    if (f == F_FALCON) {
        if (get_bool(r, "new_decoder_architecture", 0))
            return get_alt(h, "num_kv_heads|n_head_kv", 0, a->heads, &a->kv_heads);
        a->kv_heads = get_bool(r, "multi_query", 1) ? 1 : a->heads;
        return JC_OK;
    }
    if (f == F_MPT) {
        const cJSON *ac = cJSON_GetObjectItemCaseSensitive(r, "attn_config");
        const char *t = cJSON_IsObject(ac) ? get_str(ac, "attn_type") : NULL;
        a->kv_heads = a->heads;
        if (t && !strcmp(t, "multiquery_attention")) a->kv_heads = 1;
        if (!t || strcmp(t, "grouped_query_attention")) return JC_OK;
        h->root = ac;   /* attn_config.kv_n_heads */
        jc_status st = get_int(h, "kv_n_heads", 1, 0, &a->kv_heads);
        h->root = r;
        return st;
    }
    return get_int(h, "num_key_value_heads", 0, a->heads, &a->kv_heads);
}

/* The dense MLP's intermediate size (fm->ffn, or ffn_mult x hidden; MPT:
 * expansion_ratio x d_model). */
static jc_status read_ffn(hfc *h, const family *fm)
{
    jc_arch *a = h->a;
    jc_status st;
    int64_t v;
    if (fm->f == F_MPT) {
        if ((st = get_int(h, "expansion_ratio", 0, 4, &v))) return st;
        if (!jci_mul_ok(v, a->hidden, &a->ffn))
            return jci_diag_set(h->d, JC_ERR_RANGE, "%s: expansion_ratio x d_model overflows 64 bits", h->path);
        return JC_OK;
    }
    int64_t dflt = fm->ffn_mult > 0 ? fm->ffn_mult * a->hidden : 0;   /* hidden <= --hidden's limit */
    if (!fm->ffn) {
        a->ffn = dflt;
        return JC_OK;
    }
    return get_int(h, fm->ffn, fm->ffn_mult == 0, dflt, &a->ffn);
}

/* The sizes every family has: layers, width, heads, vocabulary, KV heads,
 * head size, the dense MLP, the context and learned positions. */
static jc_status read_sizes(hfc *h, const family *fm)
{
    jc_arch *a = h->a;
    jc_status st;
    if ((st = get_alt(h, fm->layers, 1, 0, &a->n_layers))) return st;
    if ((st = get_alt(h, fm->hidden, 1, 0, &a->hidden))) return st;
    if ((st = get_alt(h, fm->heads, 1, 0, &a->heads))) return st;
    if ((st = get_int(h, "vocab_size", 1, 0, &a->vocab))) return st;
    if ((st = read_kv_heads(h, fm->f))) return st;
    const cJSON *hd = cJSON_GetObjectItemCaseSensitive(h->root, "head_dim");
    if ((!hd || cJSON_IsNull(hd)) && fm->f != F_DEEPSEEK && a->hidden % a->heads)
        return jci_diag_set(h->d, JC_ERR_MODEL, "%s: the width (%lld) is not a multiple of the attention heads "
                           "(%lld) and the key 'head_dim' is missing", h->path, (long long)a->hidden,
                           (long long)a->heads);
    if ((st = get_int(h, "head_dim", 0, a->hidden / a->heads, &a->head_dim))) return st;
    if ((st = read_ffn(h, fm))) return st;
    if (fm->ctx && (st = get_int(h, fm->ctx, 0, fm->ctx_dflt, &a->max_ctx))) return st;
    a->learned_pos = fm->pos == 1 ? a->max_ctx : fm->pos == 2 ? a->max_ctx + 2 : 0;
    int64_t proj;   /* OPT-350m: embeddings of another width, projected in and out */
    if (fm->f == F_OPT && (st = get_int(h, "word_embed_proj_dim", 0, a->hidden, &proj))) return st;
    if (fm->f == F_OPT && proj != a->hidden)
        return jci_diag_set(h->d, JC_ERR_NOTFOUND, "%s: word_embed_proj_dim (%lld) differs from hidden_size "
                           "(%lld): the projected embeddings are not modelled; " GENERIC_ROUTE, h->path,
                           (long long)proj, (long long)a->hidden);
    a->gated = fm->gated;
    a->tied = get_bool(h->root, "tie_word_embeddings", fm->tied);
    return JC_OK;
}

/* The family-specific keys. */
static jc_status read_family(hfc *h, const family *fm)
{
    jc_arch *a = h->a;
    fam f = fm->f;
    jc_status st;
    int64_t v = 0;
    int64_t window = 0;
    const cJSON *r = h->root;
    if ((st = read_sizes(h, fm))) return st;
    /* sliding windows: mistral/qwen2/phi3 carry "sliding_window" (null or
     * use_sliding_window false: none) */
    if ((st = get_int(h, "sliding_window", 0, 0, &window))) return st;
    if (f == F_LLAMA && cJSON_GetObjectItemCaseSensitive(r, "use_sliding_window") &&
        !get_bool(r, "use_sliding_window", 0))
        window = 0;
    if (f == F_LLAMA4) {
        if ((st = get_int(h, "attention_chunk_size", 0, 0, &window))) return st;
    }
    a->layer = jci_arena_calloc(h->ar, (size_t)a->n_layers, sizeof *a->layer);
    if (!a->layer) return jci_diag_set(h->d, JC_ERR_NOMEM, "out of memory");
    /* default layer pattern */
    for (int64_t i = 0; i < a->n_layers; i++) a->layer[i].window = window;
    if (f == F_GEMMA2 && !cJSON_GetObjectItemCaseSensitive(r, "layer_types"))
        for (int64_t i = 0; i < a->n_layers; i++) a->layer[i].window = i % 2 == 0 ? window : 0;
    if (f == F_GEMMA3 && !cJSON_GetObjectItemCaseSensitive(r, "layer_types")) {
        if ((st = get_int(h, "sliding_window_pattern", 0, 6, &v))) return st;
        for (int64_t i = 0; i < a->n_layers; i++)
            a->layer[i].window = v > 0 && (i + 1) % v == 0 ? 0 : window;
    }
    if (f == F_LLAMA4 && !cJSON_GetObjectItemCaseSensitive(r, "layer_types")) {
        /* every 4th layer is a global NoPE layer (no_rope_layers), the
         * rest chunked local attention */
        for (int64_t i = 0; i < a->n_layers; i++) a->layer[i].window = (i + 1) % 4 == 0 ? 0 : window;
    }
    if (f == F_GPTOSS && !cJSON_GetObjectItemCaseSensitive(r, "layer_types"))
        for (int64_t i = 0; i < a->n_layers; i++) a->layer[i].window = i % 2 == 0 ? window : 0;
    if ((st = read_layer_types(h, window))) return st;

    if ((st = get_int(h, "num_nextn_predict_layers", 0, 0, &a->mtp_layers))) return st;
    if ((st = read_experts(h, f))) return st;
    /* checked once every key is read (DeepSeek's head size comes from its
     * MLA keys) */
    if (a->kv_heads < 1 || a->head_dim < 1 || a->heads % a->kv_heads)
        return jci_diag_set(h->d, JC_ERR_MODEL, "%s: num_key_value_heads must be >= 1 and divide "
                           "num_attention_heads (%lld), and head_dim (or hidden_size / num_attention_heads) "
                           "must be >= 1", h->path, (long long)a->heads);
    if (a->n_experts > 0 && (a->top_k < 1 || a->top_k > a->n_experts || a->expert_ffn < 1))
        return jci_diag_set(h->d, JC_ERR_MODEL, "%s: the experts need 1 <= num_experts_per_tok <= the number "
                           "of experts and an expert intermediate size >= 1", h->path);
    return JC_OK;
}

/* The stored weight format the config declares (quantization_config or
 * torch_dtype); NULL when it says nothing. */
static void read_format(hfc *h, const cJSON *top)
{
    jc_arch *a = h->a;
    const cJSON *q = cJSON_GetObjectItemCaseSensitive(top, "quantization_config");
    if (!q) q = cJSON_GetObjectItemCaseSensitive(h->root, "quantization_config");
    const char *qm = q ? get_str(q, "quant_method") : NULL;
    if (qm) {
        if (!strcmp(qm, "mxfp4")) {
            a->expert_format = "mxfp4";   /* gpt-oss: experts only */
            a->format_note = dup(h, "quantization_config: quant_method mxfp4 (MoE experts; attention, router, "
                                    "embeddings and LM head stay bf16)");
        } else if (!strcmp(qm, "fp8") || !strcmp(qm, "fbgemm_fp8")) {
            a->weight_format = "fp8";
            a->format_note = dup(h, "quantization_config: quant_method fp8");
        } else {
            a->format_note = jci_arena_strdup(h->ar, "quantization_config present with an unrecognised quant_method: "
                                                    "give --weights");
        }
    }
    const char *dt = get_str(top, "torch_dtype");
    if (!dt) dt = get_str(h->root, "torch_dtype");
    if (!dt) dt = get_str(top, "dtype");
    if (dt && !a->weight_format) {
        if (!strcmp(dt, "bfloat16")) a->weight_format = "bf16";
        else if (!strcmp(dt, "float16")) a->weight_format = "fp16";
        else if (!strcmp(dt, "float32")) a->weight_format = "fp32";
    }
}

/* A model_type this reader does not take: JC_ERR_NOTFOUND saying what it
 * is or listing the ones it takes, and the generic route. */
static jc_status refuse_type(hfc *h, const char *mt)
{
    for (size_t i = 0; i < sizeof not_read / sizeof not_read[0]; i++)
        if (!strcmp(mt, not_read[i].type))
            return jci_diag_set(h->d, JC_ERR_NOTFOUND, "%s: model_type '%s' is %s, which --hf-config does not "
                               "read: " GENERIC_ROUTE, h->path, mt, not_read[i].what);
    char list[1024];
    size_t n = 0;
    for (size_t i = 0; i < sizeof families / sizeof families[0] && n < sizeof list; i++)
        n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", families[i].type);
    for (size_t i = 0; i < sizeof encfams / sizeof encfams[0] && n < sizeof list; i++)
        n += (size_t)snprintf(list + n, sizeof list - n, ", %s", encfams[i].type);
    return jci_diag_set(h->d, JC_ERR_NOTFOUND, "%s: model_type '%s' is not supported (supported: %s); "
                       GENERIC_ROUTE, h->path, mt, list);
}

/* The layers of an encoder (every one bidirectional) or an encoder-
 * decoder (enc_layers bidirectional, then decoder layers with
 * cross-attention). */
static jc_status enc_layers(hfc *h, const encfam *ef)
{
    jc_arch *a = h->a;
    jc_status st;
    int64_t enc, dec = 0;
    if ((st = get_alt(h, ef->layers, 1, 0, &enc))) return st;
    if (ef->dec_layers && (st = get_int(h, ef->dec_layers, 0, enc, &dec))) return st;
    if (ef->dec_layers && dec < 1)
        return jci_diag_set(h->d, JC_ERR_MODEL, "%s: key '%s' must be a whole number >= 1", h->path, ef->dec_layers);
    int64_t total;
    const char *opt;
    if (!jci_add_ok(enc, dec, &total) || (double)total > key_max("num_hidden_layers", &opt))
        return jci_diag_set(h->d, JC_ERR_RANGE, "%s: %lld encoder + %lld decoder layers: above the limit of "
                           "--layers", h->path, (long long)enc, (long long)dec);
    a->n_layers = total;
    a->enc_layers = ef->dec_layers ? enc : 0;
    a->layer = jci_arena_calloc(h->ar, (size_t)total, sizeof *a->layer);
    if (!a->layer) return jci_diag_set(h->d, JC_ERR_NOMEM, "out of memory");
    for (int64_t i = 0; i < total; i++) {
        a->layer[i].bidir = i < enc;
        a->layer[i].cross = i >= enc;
    }
    return JC_OK;
}

/* Keys an encoder-decoder gives for each stack: the decoder's must match
 * the encoder's (one shape is modelled). */
static jc_status same_stacks(hfc *h, const char *enc_key, const char *dec_key, int64_t enc_v)
{
    int64_t v;
    jc_status st = get_int(h, dec_key, 0, enc_v, &v);
    if (!st && v != enc_v)
        st = jci_diag_set(h->d, JC_ERR_NOTFOUND, "%s: %s (%lld) differs from %s (%lld): a decoder of another "
                          "shape than its encoder is not modelled; " GENERIC_ROUTE, h->path, dec_key, (long long)v,
                          enc_key, (long long)enc_v);
    return st;
}

/* An encoder or encoder-decoder config (encfams above). */
static jc_status read_encoder(hfc *h, const encfam *ef)
{
    jc_arch *a = h->a;
    jc_status st;
    a->kind = ef->kind;
    if ((st = enc_layers(h, ef))) return st;
    if ((st = get_int(h, ef->hidden, 1, 0, &a->hidden))) return st;
    if ((st = get_int(h, ef->heads, 1, 0, &a->heads))) return st;
    if ((st = get_int(h, ef->ffn, 1, 0, &a->ffn))) return st;
    if ((st = get_int(h, "vocab_size", 1, 0, &a->vocab))) return st;
    if (ef->head_dim) {
        if ((st = get_int(h, ef->head_dim, 1, 0, &a->head_dim))) return st;
    } else if (a->hidden % a->heads) {
        return jci_diag_set(h->d, JC_ERR_MODEL, "%s: the width (%lld) is not a multiple of the attention heads "
                           "(%lld)", h->path, (long long)a->hidden, (long long)a->heads);
    } else {
        a->head_dim = a->hidden / a->heads;
    }
    a->kv_heads = a->heads;
    if (!strcmp(ef->layers, "encoder_layers")) {   /* BART: the decoder's own keys */
        if ((st = same_stacks(h, "encoder_attention_heads", "decoder_attention_heads", a->heads))) return st;
        if ((st = same_stacks(h, "encoder_ffn_dim", "decoder_ffn_dim", a->ffn))) return st;
    }
    const char *fp = get_str(h->root, "feed_forward_proj");
    a->gated = fp && !strncmp(fp, "gated-", 6);
    a->tied = get_bool(h->root, "tie_word_embeddings", ef->tied);
    if (ef->ctx && (st = get_int(h, ef->ctx, ef->pos > 0, 0, &a->max_ctx))) return st;
    a->learned_pos = ef->pos == 1 ? a->max_ctx : ef->pos == 2 ? 2 * (a->max_ctx + 2) : 0;
    double d = (double)a->hidden, other = 0;
    int64_t v;
    if (ef->token_types) {
        if ((st = get_int(h, "type_vocab_size", 0, 2, &v))) return st;
        other += (double)v * d;
    }
    if (ef->pooler) other += d * d;
    if (ef->rel_bias) {
        if ((st = get_int(h, "relative_attention_num_buckets", 0, 32, &v))) return st;
        other += 2.0 * (double)v * (double)a->heads;
    }
    a->other_params = other;
    return JC_OK;
}

jc_status jc_arch_load_hf(const char *path, jc_arch **out, jc_diag *d)
{
    if (!path || !out) return jci_diag_set(d, JC_ERR_USAGE, "jc_arch_load_hf: NULL argument");
    *out = NULL;
    FILE *fp = fopen(path, "rb");
    if (!fp) return jci_diag_set(d, JC_ERR_IO, "%s: cannot open the config file", path);
    char *buf;
    size_t n;
    jci_read_result rr = jci_read_stream(fp, (size_t)64 << 20, &buf, &n);
    fclose(fp);
    if (rr == JCI_READ_TOO_BIG) return jci_diag_set(d, JC_ERR_MODEL, "%s: larger than 64 MiB: not a config.json", path);
    if (rr == JCI_READ_NOMEM) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    if (rr == JCI_READ_IO) return jci_diag_set(d, JC_ERR_IO, "%s: read error", path);
    cJSON *top = cJSON_ParseWithLength(buf, n);
    if (!top) {
        const char *e = cJSON_GetErrorPtr();
        long off = e && e >= buf && e <= buf + n ? (long)(e - buf) : -1;
        free(buf);
        return jci_diag_at(d, JC_ERR_MODEL, path, off, "not valid JSON");
    }
    free(buf);
    jc_status st = JC_OK;
    jci_arena *ar;
    jc_arch *a = jci_arch_new(&ar);
    if (!a) { st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto done; }
    hfc H = {path, a, ar, d, top}, *h = &H;
    a->path = dup(h, path);
    if (!cJSON_IsObject(top)) { st = jci_diag_set(d, JC_ERR_MODEL, "%s: not a JSON object", path); goto done; }
    const char *mt = get_str(top, "model_type");
    const cJSON *tc = cJSON_GetObjectItemCaseSensitive(top, "text_config");
    if (cJSON_IsObject(tc) && get_str(tc, "model_type")) {
        h->root = tc;
        mt = get_str(tc, "model_type");
    }
    if (!mt) { st = jci_diag_set(d, JC_ERR_MODEL, "%s: the key 'model_type' is missing", path); goto done; }
    a->model_type = dup(h, mt);
    const family *fm = NULL;
    const encfam *ef = NULL;
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
        if (!strcmp(mt, families[i].type)) fm = &families[i];
    for (size_t i = 0; i < sizeof encfams / sizeof encfams[0]; i++)
        if (!strcmp(mt, encfams[i].type)) ef = &encfams[i];
    if (!fm && !ef) {
        st = refuse_type(h, mt);
        goto done;
    }
    if ((st = fm ? read_family(h, fm) : read_encoder(h, ef))) goto done;
    read_format(h, top);
    if (!a->format_note && !a->weight_format)
        a->format_note = "the config names no dtype";
    *out = a;
done:
    cJSON_Delete(top);
    if (st || !*out) jci_arena_free(ar);
    return st;
}

void jc_arch_free(jc_arch *a)
{
    if (!a) return;
    arch_internal *ai = a->internal_;
    jci_arena_free(ai->ar);
}
