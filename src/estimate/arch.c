/*
 * arch.c (estimate) - architecture arithmetic of a transformer (jc_arch, from
 * --hf-config, --params --layers or an ONNX decoder): parameters by part,
 * total and active parameters, KV-cache elements and bytes per token,
 * attention FLOPs per query-key pair.  Shared by the serving model
 * (serving.c) and the training step model (train_step.c), so neither
 * imports the other.  Pure functions of their arguments: no allocation,
 * no errors.
 */
#include "estimate/arch.h"
#include "base/detmath.h"
#include "joulecast/serving.h"

#include <math.h>

double jci_arch_attn_params(const jc_arch *a)
{
    double d = (double)a->hidden, h = (double)a->heads;
    if (a->mla) {
        double qk = (double)(a->qk_nope + a->qk_rope);
        double q = a->q_lora > 0 ? d * (double)a->q_lora + (double)a->q_lora * h * qk : d * h * qk;
        return q + d * (double)(a->kv_lora + a->qk_rope) +
               (double)a->kv_lora * h * (double)(a->qk_nope + a->v_head) + h * (double)a->v_head * d;
    }
    double dh = (double)a->head_dim, hk = (double)a->kv_heads;
    return d * h * dh + 2 * d * hk * dh + h * dh * d;
}

double jci_arch_mlp_params(const jc_arch *a, int64_t ffn)
{
    return (a->gated ? 3.0 : 2.0) * (double)a->hidden * (double)ffn;
}

/* Per MoE layer: one routed expert, the shared part, the router. */
double jci_arch_expert_params(const jc_arch *a) { return jci_arch_mlp_params(a, a->expert_ffn); }
double jci_arch_shared_params(const jc_arch *a)
{
    return (a->shared_ffn > 0 ? 3.0 * (double)a->hidden * (double)a->shared_ffn : 0) +
           (double)a->hidden * (double)a->n_experts;
}

double jci_arch_embed_params(const jc_arch *a)
{
    return (double)a->vocab * (double)a->hidden + (double)a->learned_pos * (double)a->hidden;
}

double jci_arch_head_params(const jc_arch *a)
{
    return a->tied ? 0 : (double)a->vocab * (double)a->hidden;
}

void jc_arch_params(const jc_arch *a, double *total, double *active)
{
    if (a->counted) {   /* an ONNX decoder: its initializers */
        if (total) *total = a->counted->params;
        if (active) *active = a->counted->params;
        return;
    }
    double t = jci_arch_embed_params(a) + jci_arch_head_params(a) + a->other_params, act = t;
    for (int64_t i = 0; i < a->n_layers; i++) {
        double at = jci_arch_attn_params(a) * (a->layer[i].cross ? 2 : 1);
        t += at;
        act += at;
        if (a->layer[i].moe) {
            t += (double)a->n_experts * jci_arch_expert_params(a) + jci_arch_shared_params(a);
            act += (double)a->top_k * jci_arch_expert_params(a) + jci_arch_shared_params(a);
        } else {
            t += jci_arch_mlp_params(a, a->ffn);
            act += jci_arch_mlp_params(a, a->ffn);
        }
    }
    if (total) *total = t;
    if (active) *active = act;
}

void jci_arch_weights(const jc_arch *a, jci_arch_w *w)
{
    w->attn = jci_arch_attn_params(a);
    w->mlp = jci_arch_mlp_params(a, a->ffn);
    w->expert = a->n_experts > 0 ? jci_arch_expert_params(a) : 0;
    w->shared = a->n_experts > 0 ? jci_arch_shared_params(a) : 0;
    w->embed = jci_arch_embed_params(a);
    w->head = jci_arch_head_params(a);
}

/* KV elements per token per layer. */
double jci_arch_kv_elems_layer(const jc_arch *a)
{
    if (a->mla) return (double)(a->kv_lora + a->qk_rope);
    return 2.0 * (double)a->kv_heads * (double)a->head_dim;
}

double jc_arch_kv_bytes_per_token(const jc_arch *a, double kv_bytes)
{
    return (double)a->n_layers * jci_arch_kv_elems_layer(a) * kv_bytes;
}

/* Attention FLOPs of one query token against one cached token, per layer
 * (QK^T and PV; MLA decode in the absorbed form over the latent). */
double jci_arch_attn_flops_pair(const jc_arch *a)
{
    double h = (double)a->heads;
    if (a->mla) return 2 * h * (double)(a->kv_lora + a->qk_rope) + 2 * h * (double)a->kv_lora;
    return 4 * h * (double)a->head_dim;
}

double jci_ctx_mean(double S, double w)
{
    if (!(w > 0) || w > S) w = S;
    return w - w * w / (2 * S);
}

double jci_arch_ctx(const jc_arch *a, int64_t i, double S)
{
    const jc_arch_layer *l = &a->layer[i];
    double self = l->bidir ? S : jci_ctx_mean(S, (double)l->window);
    return self + (l->cross ? S : 0);
}

double jci_arch_attn_weights_mean(const jc_arch *a)
{
    double n = 0;
    for (int64_t i = 0; i < a->n_layers; i++) n += a->layer[i].cross ? 2 : 1;
    return a->n_layers > 0 ? jci_arch_attn_params(a) * n / (double)a->n_layers : 0;
}

/* A dense decoder's layers and width from its parameter count alone:
 * N = 12 L d^2 (Kaplan et al. 2020, eq. 2.1) at the aspect d = 128 L that
 * Llama 2 7B (32 x 4096) and 13B (40 x 5120), Llama 3 8B (32 x 4096) and
 * GPT-3 175B (96 x 12288) share; d in whole groups of 8 heads of 128 (so
 * that tensor parallel 8 divides the heads), or of one head below 1024.
 * With the width given (d > 0), L = N / (12 d^2). */
void jci_arch_dense_shape(double N, double d_given, double *L, double *d)
{
    if (d_given > 0) {
        *d = d_given;
        *L = fmax(1, round(N / (12 * d_given * d_given)));
        return;
    }
    double l0 = jci_cbrt(N / (12.0 * 128 * 128));   /* the same bits on every libc (detmath.h) */
    double q = 128 * l0 >= 1024 ? 1024 : 128;
    *L = fmax(1, round(l0));
    *d = fmax(128, round(128 * l0 / q) * q);
}
