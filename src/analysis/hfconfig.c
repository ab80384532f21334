/*
 * hfconfig.c - reads a Hugging Face config.json (cJSON) into a jc_arch:
 * the per-layer architecture of a decoder-only transformer that the
 * serving model (src/estimate/serving.c) turns into per-layer work.
 *
 * Families: llama (1-3.x), mistral, mixtral, qwen2, qwen2_moe, qwen3,
 * qwen3_moe, gemma, gemma2, gemma3 / gemma3_text (sliding-window layers),
 * phi3, gpt2, starcoder2, gpt_oss (MXFP4 experts, alternating sliding
 * window), deepseek_v3 / deepseek_r1 (MLA, shared + routed experts,
 * dense first layers), llama4 / llama4_text (interleaved MoE, chunked
 * local attention).  A multimodal wrapper's text_config is read.
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
#define JOB_KEY(name, kind, field, arg, range, max, unit, modes, hint, help) {name, max},
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
    F_STARCODER2, F_GPTOSS, F_DEEPSEEK, F_LLAMA4, F_COUNT
} fam;

static const struct { const char *type; fam f; } families[] = {
    {"llama", F_LLAMA}, {"mistral", F_LLAMA}, {"qwen2", F_LLAMA}, {"qwen3", F_LLAMA},
    {"mixtral", F_MIXTRAL}, {"qwen2_moe", F_QWEN2MOE}, {"qwen3_moe", F_QWEN3MOE},
    {"gemma", F_GEMMA}, {"gemma2", F_GEMMA2}, {"gemma3", F_GEMMA3}, {"gemma3_text", F_GEMMA3},
    {"phi3", F_PHI3}, {"gpt2", F_GPT2}, {"starcoder2", F_STARCODER2}, {"gpt_oss", F_GPTOSS},
    {"deepseek_v3", F_DEEPSEEK}, {"deepseek_r1", F_DEEPSEEK}, {"llama4", F_LLAMA4},
    {"llama4_text", F_LLAMA4},
};

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

/* The family-specific keys. */
static jc_status read_family(hfc *h, fam f)
{
    jc_arch *a = h->a;
    jc_status st;
    int64_t v = 0;
    int64_t window = 0;
    const cJSON *r = h->root;
    a->gated = 1;
    a->tied = get_bool(r, "tie_word_embeddings", f == F_GEMMA || f == F_GEMMA2 || f == F_GEMMA3 || f == F_GPT2);
    if (f == F_GPT2) {
        if ((st = get_int(h, "n_layer", 1, 0, &a->n_layers))) return st;
        if ((st = get_int(h, "n_embd", 1, 0, &a->hidden))) return st;
        if ((st = get_int(h, "n_head", 1, 0, &a->heads))) return st;
        if ((st = get_int(h, "vocab_size", 1, 0, &a->vocab))) return st;
        if ((st = get_int(h, "n_inner", 0, 4 * a->hidden, &a->ffn))) return st;
        if ((st = get_int(h, "n_positions", 0, 1024, &a->max_ctx))) return st;
        a->kv_heads = a->heads;
        a->head_dim = a->heads ? a->hidden / a->heads : 0;
        a->gated = 0;
        a->learned_pos = a->max_ctx;
        return JC_OK;
    }
    if ((st = get_int(h, "num_hidden_layers", 1, 0, &a->n_layers))) return st;
    if ((st = get_int(h, "hidden_size", 1, 0, &a->hidden))) return st;
    if ((st = get_int(h, "num_attention_heads", 1, 0, &a->heads))) return st;
    if ((st = get_int(h, "vocab_size", 1, 0, &a->vocab))) return st;
    if ((st = get_int(h, "num_key_value_heads", 0, a->heads, &a->kv_heads))) return st;
    if ((st = get_int(h, "head_dim", 0, a->heads ? a->hidden / a->heads : 0, &a->head_dim))) return st;
    if ((st = get_int(h, "max_position_embeddings", 0, 0, &a->max_ctx))) return st;
    if (f != F_DEEPSEEK && f != F_GPTOSS) {
        int need_ffn = f != F_QWEN3MOE;
        if ((st = get_int(h, "intermediate_size", need_ffn, 0, &a->ffn))) return st;
    }
    if (f == F_STARCODER2) a->gated = 0;
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
    fam f = F_COUNT;
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
        if (!strcmp(mt, families[i].type)) f = families[i].f;
    if (f == F_COUNT) {
        st = jci_diag_set(d, JC_ERR_NOTFOUND, "%s: model_type '%s' is not supported (supported: llama, mistral, "
                         "mixtral, qwen2, qwen2_moe, qwen3, qwen3_moe, gemma, gemma2, gemma3, gemma3_text, phi3, "
                         "gpt2, starcoder2, gpt_oss, deepseek_v3, llama4, llama4_text)", path, mt);
        goto done;
    }
    if ((st = read_family(h, f))) goto done;
    if (f == F_GPT2) {
        if (a->n_layers < 1 || a->n_layers > 100000 || a->hidden < 1 || a->heads < 1 || a->vocab < 1 ||
            a->hidden % a->heads) {
            st = jci_diag_set(d, JC_ERR_MODEL, "%s: n_layer (<= 100000), n_embd, n_head (dividing n_embd) and "
                             "vocab_size must be >= 1", path);
            goto done;
        }
        a->layer = jci_arena_calloc(ar, (size_t)a->n_layers, sizeof *a->layer);
        if (!a->layer) { st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto done; }
    }
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
