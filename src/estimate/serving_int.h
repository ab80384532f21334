/*
 * serving_int.h (estimate) - the serving model's arithmetic, exposed for the unit tests
 * (tests/unit/test_serving.c): pure functions of their arguments, no
 * allocation, no errors.
 */
#ifndef JCI_SERVING_INT_H
#define JCI_SERVING_INT_H

#include "estimate/arch.h"

/* Work of one step of the whole model (one replica): n_tok tokens
 * computed, n_seq sequences attending to c cached tokens each, n_logit
 * LM-head rows; weights at wb bytes (experts wb_exp), KV elements at kvb
 * bytes.  FLOPs of the projections/MLPs/LM head and of attention, bytes of
 * weights read and of KV read + written; experts: distinct experts touched
 * per MoE layer (0 for a dense model).  Of lin_flops / w_bytes, the routed
 * experts' part is exp_flops / exp_bytes; exp_slots: token-expert pairs
 * per MoE layer (n_tok x top-k); perm_bytes: the permute and unpermute
 * traffic of the routed rows; w_elems: weight elements read; kernels:
 * kernels launched per step (KERNELS_* of serving.c). */
typedef struct jci_sv_work {
    double lin_flops, att_flops, w_bytes, kv_bytes, experts;
    double w_elems, exp_flops, exp_bytes, exp_slots, perm_bytes, moe_layers, kernels;
} jci_sv_work;
void jci_sv_step_work(const jc_arch *a, double wb, double wb_exp, double kvb, double n_tok,
                     double n_seq, double c, double n_logit, jci_sv_work *w);

/* Expected distinct experts of E touched by n tokens routed top-k under
 * uniform routing: E (1 - (1 - k/E)^n). */
double jci_sv_touched_experts(double E, double k, double n);

/* Token rows the grouped GEMM computes when `slots` token-expert pairs are
 * spread over `experts` touched experts and each expert's rows are padded
 * to a multiple of `tile` (vLLM's fused MoE block alignment). */
double jci_sv_padded_tokens(double slots, double experts, double tile);

/* Expected load of the busiest of ep devices over the mean when `slots`
 * token-expert pairs are routed uniformly: 1 + sqrt(2 ln(ep) / (slots/ep)),
 * at most ep (1 for ep <= 1). */
double jci_sv_imbalance(double slots, double ep);

/* Time of one class of a step's kernels on one device (dense projections,
 * routed experts, attention): the roofline max(t_c, t_m) of its compute
 * term t_c and memory term t_m (s).  Where it is compute-bound (t_c > t_m)
 * it runs at the clocks the power limit of pm leaves (power.h,
 * jci_power_cap_clock at the part's utilisations flops / (t_c peak) and
 * bytes / (t_c bw), central case; flops and bytes per device): t_c / r,
 * drawing the limit meanwhile.  *r receives r (1 where memory-bound, where
 * the limit does not bind, or pm NULL). */
struct jci_power_model;
double jci_sv_part_time(const struct jci_power_model *pm, double t_c, double t_m, double flops, double bytes,
                        double peak, double bw, double *r);
#endif
