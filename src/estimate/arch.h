/*
 * arch.h (estimate) - architecture arithmetic of a transformer (arch.c): the
 * parameters by part, KV elements and attention FLOPs of a jc_arch, shared
 * by the serving model (serving.c) and the training step model
 * (train_step.c).  Pure functions of the architecture: no allocation, no
 * errors.  Counts are elements (parameters), FLOPs with 1 MAC = 2 FLOPs.
 */
#ifndef JCI_ARCH_H
#define JCI_ARCH_H

#include <stdint.h>

/* by pointer only (its public header, serving.h, defines it; a file that
 * reads its fields includes that header itself) */
typedef struct jc_arch jc_arch;

/* The weights of an architecture by part (elements): attention of one
 * layer, the dense MLP of one dense layer, one routed expert, the shared
 * expert(s) plus router of one MoE layer, the embedding table (and learned
 * positions), the LM head (0 when tied). */
typedef struct jci_arch_w {
    double attn, mlp, expert, shared, embed, head;
} jci_arch_w;
void jci_arch_weights(const jc_arch *a, jci_arch_w *w);

/* Parameters of one layer's attention (MLA: the low-rank projections). */
double jci_arch_attn_params(const jc_arch *a);
/* Parameters of an MLP of inner width ffn (gated: three matrices). */
double jci_arch_mlp_params(const jc_arch *a, int64_t ffn);
/* Parameters of one routed expert. */
double jci_arch_expert_params(const jc_arch *a);
/* Per MoE layer: the shared expert(s) and the router. */
double jci_arch_shared_params(const jc_arch *a);
/* The embedding table and learned positions. */
double jci_arch_embed_params(const jc_arch *a);
/* The LM head (0 when tied to the embedding). */
double jci_arch_head_params(const jc_arch *a);
/* KV-cache elements per token per layer (MLA: the latent and rope key). */
double jci_arch_kv_elems_layer(const jc_arch *a);
/* Attention FLOPs of one query token against one cached token, per layer
 * (QK^T and PV; MLA decode in the absorbed form over the latent). */
double jci_arch_attn_flops_pair(const jc_arch *a);

/* Mean context a token attends to in a causal sequence of S tokens at
 * window w (0: global): w - w^2 / (2 S). */
double jci_ctx_mean(double S, double w);
/* The keys a token of layer i attends to in a sequence of S tokens: the
 * causal mean at its window, S for a bidirectional (encoder) layer, plus
 * S encoder tokens for a cross-attending decoder layer (the encoder's
 * sequence as long as the decoder's: the caller states it). */
double jci_arch_ctx(const jc_arch *a, int64_t i, double S);
/* Attention weights per layer, averaged over the layers (a decoder layer
 * of an encoder-decoder holds a second, cross-attention, set). */
double jci_arch_attn_weights_mean(const jc_arch *a);

/* A dense decoder's layers *L and width *d from its parameter count N
 * (--params without --layers): N = 12 L d^2 at d = 128 L, d in whole
 * groups of heads of 128; with d_given > 0 that width and L = N / (12 d^2).
 * The rule is stated in docs/energy-model.md "Training step model". */
void jci_arch_dense_shape(double N, double d_given, double *L, double *d);

#endif /* JCI_ARCH_H */
