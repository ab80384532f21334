/*
 * finetune.h (estimate) - fine-tuning in the training step model
 * (finetune.c): which parameters a LoRA / QLoRA / full fine-tuning job
 * trains and which it keeps frozen, the adapters' own work per
 * micro-batch and QLoRA's dequantisation traffic.  train_step.c asks it
 * for these figures; it knows no layout search and no step, so the step
 * model's file stays the one place a step is timed.
 * docs/energy-model.md "Fine-tuning".
 */
#ifndef JCI_FINETUNE_H
#define JCI_FINETUNE_H

#include "estimate/estimate_int.h"
#include "estimate/efficiency.h"

/* Bytes per parameter of an NF4 base with double quantisation: 4 bits,
 * 8-bit block constants per 64 weights and a 32-bit constant per 256
 * blocks (Dettmers et al. 2023, arXiv:2305.14314, section 3, "Double
 * Quantization": 8/64 + 32/(64 x 256) = 0.127 bits per parameter). */
#define JCI_FT_NF4_BYTES ((4 + 8.0 / 64 + 32.0 / (64 * 256)) / 8)

enum { JCI_FT_NONE, JCI_FT_FULL, JCI_FT_LORA, JCI_FT_QLORA };
enum { JCI_FT_TARGETS = 7 };

/* The shape the targets are read from: layers, width, the attention
 * projections' widths (queries, keys / values, the output's input), the
 * dense MLP's inner width; gated MLP, any MoE layer, MLA attention. */
typedef struct jci_ft_shape {
    double L, d, q_out, kv_out, o_in, ffn;
    int gated, moe, mla;
    int cross;   /* an encoder-decoder: decoder layers with cross-attention */
} jci_ft_shape;

typedef struct jci_ft {
    int kind;                 /* JCI_FT_* */
    const char *name;         /* "lora", "qlora", "full"; NULL: pre-training */
    double rank;              /* adapters' rank; 0 without adapters */
    const char *targets;      /* the adapted projections, comma-separated */
    double din[JCI_FT_TARGETS], dout[JCI_FT_TARGETS];   /* per layer; 0: not adapted */
    int col[JCI_FT_TARGETS];  /* column-parallel under tensor parallel (output split) */
    double trainable, frozen; /* parameters with / without gradients and optimizer state */
    double w_bytes;           /* bytes per frozen base parameter on the device */
    int paged_opt;            /* QLoRA: the optimizer state is paged to host memory */
} jci_ft;

/* Reads --finetune, --lora-rank and --lora-targets against the shape and
 * fills *ft (kind NONE when --finetune is not given: every parameter
 * trainable); records the assumptions.  P_total: the model's parameters.
 * JC_ERR_USAGE naming the option for an unknown kind or target, a target
 * the shape lacks, adapters on MLA attention, on MoE experts or on an
 * encoder-decoder (cross-attention: not modelled), or adapter options
 * without LoRA. */
jc_status jci_ft_resolve(est *s, const jci_ft_shape *sh, double P_total, jci_ft *ft);

/* The adapters' forward (x (1 + recompute)) and backward time of one
 * micro-batch of T tokens through Ls layers on one device under tensor
 * parallel tp, scenario sc; *flops += their model FLOPs (forward x 3). */
double jci_ft_adapter_s(const est *s, const jci_ft *ft, const jci_eff_device *dv, double T, double Ls, double tp,
                        int sc, double *flops);

/* QLoRA's dequantisation of one micro-batch: each frozen weight of the
 * device read at its NF4 bytes and written in BF16 before every GEMM that
 * uses it (forward, recompute, activation gradient), at bandwidth bw
 * (B/s), one kernel per weight matrix and use (n_mats matrices on the
 * device, each at least the runtime's launch floor); 0 for the other
 * kinds. */
double jci_ft_dequant_s(const est *s, const jci_ft *ft, double params_dev, double n_mats, double bw, int sc);

#endif /* JCI_FINETUNE_H */
