/*
 * train_step.c (estimate) - the training step model (issue #26): a transformer's
 * pre-training job from its architecture (a Hugging Face config read by
 * jc_arch_load_hf, or --params with --layers --hidden --heads --seq), laid
 * out on the devices the way practitioners do (tensor parallel within a
 * node, pipeline stages across nodes when the memory needs them, ZeRO /
 * FSDP sharding, expert parallel for the experts, context parallel for
 * long sequences), and one optimizer step timed by mechanism on one
 * device: each layer's GEMMs at their real shapes through the kernel model
 * of efficiency.c (jci_eff_gemm_s), attention at the sequence length,
 * elementwise traffic, activation recompute, the tensor-parallel
 * all-reduces, expert all-to-all, context-parallel KV exchange, pipeline
 * bubble and point-to-point sends, the data-parallel reduce-scatter /
 * all-gather the backward pass does not hide, the optimizer step and the
 * checkpoint copies; the share of device time lost to restarts is a
 * ranged constant.  The utilisation (MFU) is its output; energy.c turns
 * it into time, power and energy like any other utilisation.  Equations:
 * docs/energy-model.md "Training step model"; constants:
 * hwdb/training.yaml.
 */
#include "estimate/estimate_int.h"
#include "estimate/parallel.h"
#include "estimate/arch.h"
#include "estimate/finetune.h"
#include "joulecast/serving.h"

#include <stdio.h>
#include <string.h>

/* ---- the shape ---------------------------------------------------------------- */

typedef struct tshape {
    const char *src, *type;
    double L, d, heads, kvh, hd, vocab;
    double qk, v;              /* per-head dims of the attention core */
    double attn_w, o_w;        /* attention weights per layer; its output projection */
    double ffn, gated;         /* dense MLP */
    double n_moe, E, k, effn, shared_ffn;
    double P_total, P_active, P_expert;   /* P_expert: all routed experts */
    double ctx_frac[2];        /* unused */
    const jc_arch *a;          /* NULL: --params */
    double mtp;
} tshape;

/* ---- the layout and the step --------------------------------------------------- */

enum { P_GEMM, P_ATTN, P_MEM, P_TP, P_EP, P_CP, P_PP, P_BUBBLE, P_DP, P_OPT, P_CKPT, P_TEACHER, P_ADAPTER, P_DEQUANT,
       P_EVAL, P_LOST, P_N };

static const struct { const char *name, *what; } part_names[P_N] = {
    {"gemm", "layer GEMMs (projections, MLP / experts, LM head), forward + backward, at their shapes"},
    {"attention", "attention core at the sequence length (FlashAttention forward + backward)"},
    {"memory", "elementwise traffic (norms, residuals, rotary, activations, routing, cross-entropy)"},
    {"tp_allreduce", "tensor-parallel all-reduces (4 per layer per micro-batch), each its bytes over the link plus its "
                     "latency (parallel.tp_allreduce_latency_s)"},
    {"ep_alltoall", "expert-parallel all-to-all (dispatch + combine, forward + backward)"},
    {"cp_exchange", "context-parallel KV exchange not hidden by attention"},
    {"pp_p2p", "pipeline sends of activations and gradients"},
    {"pp_bubble", "pipeline bubble (p-1)/v micro-batch times"},
    {"dp_exposed", "data-parallel reduce-scatter / all-gather not hidden by compute, with each collective's latency "
                   "(parallel.dp_allreduce_latency_s)"},
    {"optimizer", "optimizer step (its bytes at memory bandwidth)"},
    {"checkpoint", "checkpoints, per step (copies to host memory, or the job's --checkpoint-every)"},
    {"teacher", "distillation teacher's forward pass"},
    {"adapters", "LoRA adapters' GEMMs, forward + backward (finetune.c)"},
    {"dequant", "QLoRA: NF4 base weights dequantised to BF16 before each GEMM"},
    {"evaluation", "evaluation forward passes (--eval-samples every --eval-every samples), per step"},
    {"lost", "restarts and lost time (1 / goodput - 1 of a step)"},
};

typedef struct tlay {
    double tp, pp, dp, cp, ep, zero, v, mbs, m;
} tlay;

typedef struct tstage {
    double S, tokens, steps, B_seq;
    int fixed;   /* B_seq is the user's --batch: refused unless a layout runs it */
    tlay ly;
    double parts[3][P_N], t[3];
} tstage;

typedef struct tstate {
    tshape sh;
    int n_stages;
    tstage st[2];
    double B_tok, per_node, cap, teacher;
    jc_range att_eta, goodput, gp_short, gp_long, gp_short_h, gp_long_h, step_eta, mem_frac, ckpt_h, pcie, ep_overlap, overlap, grad_bytes, link_bw, net_bw;
    jc_range comm_overlap;       /* the stack's TP/PP collectives hidden behind the GEMMs (0: none) */
    double gemm_peak, hp_peak;   /* FLOP/s: the GEMMs' peak (FP8 where the stack runs it); the rest's */
    int fp8, model_parallel;     /* the stack (runtimes.def RT_STEP) */
    double opt_bytes_pp;
    const char *why[8];
    const char *recompute_why;   /* set when the layout search turned recompute on */
    const char *goodput_why;     /* where the goodput came from */
    const char *fabric;          /* the fabric in words, with its sources */
    int up_reduce, out_reduce;   /* the switches reduce in the network (NVLink SHARP, InfiniBand SHARP) */
    double hops[3][JCI_COLL_HOPS_N];  /* s: the collectives' per-hop latencies by scenario (coll_latency.c) */
    tlay mem_choice;             /* the memory's first choice, when a --batch it does not divide moved it */
    int batch_moved;
    jci_ft ft;                   /* fine-tuning: what trains, what stays frozen */
    double cap_t, cap_tc;        /* central: capped classes' device time, and x their clock ratio */
} tstate;

/* --params alone (no --layers): the step model on a derived dense shape,
 * unless the user gave what it would compute (the utilisation, the
 * runtime), the work as FLOPs, or a mixture of experts (--active-params:
 * no dense shape holds it; 6 N_active D at the device's utilisation). */
static int params_derived(const jc_job *j)
{
    return given(j->params) && !given(j->layers) && !j->hf_config && !given(j->flops) && !given(j->utilization) &&
           !given(j->hours) && !given(j->device_hours) && !given(j->active_params);
}

/* The option that brought the job to the step model, for messages. */
static const char *route(const jc_job *j)
{
    return j->hf_config ? "--hf-config" : given(j->layers) ? "--layers" : "--params";
}

int jci_est_step_wanted(const jc_job *j)
{
    return j->mode == JC_MODE_TRAINING && (j->hf_config || given(j->layers) || params_derived(j));
}

static jc_status shape_dense(est *s, tshape *h, double L, double d, double heads);

/* The shape of --params alone: a dense decoder derived from the count
 * (jci_arch_dense_shape; --hidden and --heads kept when given), named in
 * the result as the shape it assumed. */
static jc_status shape_derived(est *s, tshape *h)
{
    const jc_job *j = s->b.job;
    if (given(j->ep) || given(j->total_params))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--%s needs a mixture of experts, and the shape --params alone derives "
                            "is dense: give --hf-config FILE, or --layers L --hidden H --heads A --seq S with "
                            "--total-params", given(j->ep) ? "ep" : "total-params");
    double L, d;
    jci_arch_dense_shape(j->params, given(j->hidden) ? j->hidden : 0, &L, &d);
    double heads = given(j->heads) ? j->heads : fmax(1, round(d / 128));
    jc_status st = shape_dense(s, h, L, d, heads);
    if (st) return st;
    h->src = "--params (derived shape)";
    const char *how = given(j->hidden)
        ? jci_bld_str(&s->b, "layers = N / (12 d^2) at --hidden %s (Kaplan et al. 2020, eq. 2.1)", FMT_N(d))
        : "N = 12 L d^2 (Kaplan et al. 2020, eq. 2.1) at d = 128 L (Llama 2 7B / 13B, Llama 3 8B, GPT-3 175B), "
          "d in groups of 8 heads of 128";
    jci_bld_assume(&s->b, "train.shape", jci_bld_str(&s->b, "dense decoder shape derived from --params: %s layers x "
                   "width %s, %s heads, MLP %s; no vocabulary (embeddings counted as layers: give --hf-config or "
                   "--layers for the real shape)", FMT_N(L), FMT_N(d), FMT_N(heads), FMT_N(h->ffn)),
                   R1(L), "layers", JC_ORIGIN_DERIVED, how);
    return JC_OK;
}

/* The shape of a --params job: --layers --hidden --heads --seq, a dense
 * MHA transformer whose layers hold the parameters (4 d^2 of attention,
 * the rest a two-matrix MLP whose width is rounded to a multiple of 256;
 * embeddings not separated). */
static jc_status shape_params(est *s, tshape *h)
{
    const jc_job *j = s->b.job;
    static const char *const need[] = {"params", "hidden", "heads", "seq"};
    const double v[] = {j->params, j->hidden, j->heads, j->seq};
    if (!given(j->layers)) return shape_derived(s, h);
    for (int i = 0; i < 4; i++)
        if (!given(v[i]))
            return jci_bld_fail(&s->b, JC_ERR_USAGE, "--train --layers needs --%s too (the step model's shape: "
                                "--params N --layers L --hidden H --heads A --seq S)", need[i]);
    if (given(j->active_params))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "the step model takes a mixture of experts as --params ACTIVE "
                            "--total-params TOTAL: drop --active-params");
    jc_status st = shape_dense(s, h, j->layers, j->hidden, j->heads);
    h->src = "--params";
    return st;
}

/* A dense MHA shape of L layers of width d and `heads` heads holding
 * --params (--total-params for the memory). */
static jc_status shape_dense(est *s, tshape *h, double L, double d, double heads)
{
    const jc_job *j = s->b.job;
    h->type = "dense";
    h->L = L;
    h->d = d;
    h->heads = h->kvh = heads;
    h->hd = h->qk = h->v = d / heads;
    h->vocab = 0;
    h->P_active = j->params;
    h->P_total = given(j->total_params) ? j->total_params : j->params;
    if (h->P_total < h->P_active)
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--total-params %s is below --params %s (the active)", FMT_N(h->P_total),
                            FMT_N(h->P_active));
    h->attn_w = 4 * h->d * h->d;
    h->o_w = h->d * h->d;
    h->gated = 0;
    /* the MLP width the parameters leave, in whole tensor-core tiles of
     * 256 (as published models choose it: 11008, 13824, 53248) */
    h->ffn = round((h->P_active / h->L - h->attn_w) / (2 * h->d) / 256) * 256;
    if (!(h->ffn >= 256))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--params %s is too small for %s layers of width %s (4 d^2 of "
                            "attention per layer alone is %s)", FMT_N(h->P_active), FMT_N(h->L), FMT_N(h->d), FMT_N(h->L * h->attn_w));
    h->mtp = given(j->mtp_heads) ? j->mtp_heads : 0;
    return JC_OK;
}

/* What an encoder's or an encoder-decoder's sequence is, named in the
 * assumptions (issue 44 item 13). */
static void assume_kind(est *s, const jc_arch *a)
{
    if (a->kind == JC_ARCH_ENCODER)
        jci_bld_assume(&s->b, "train.encoder_layers", jci_bld_str(&s->b, "encoder (%s): every layer attends to "
                       "the whole --seq both ways (no causal mask); a vocabulary head on every token (masked-"
                       "language-model pre-training)", a->model_type), R1((double)a->n_layers), "layers",
                       JC_ORIGIN_MODEL, "the config's model_type");
    else if (a->kind == JC_ARCH_ENCODER_DECODER)
        jci_bld_assume(&s->b, "train.encoder_layers", jci_bld_str(&s->b, "encoder-decoder (%s): %lld encoder + "
                       "%lld decoder layers; a sequence is --seq input tokens through the encoder and --seq target "
                       "tokens through the decoder, which attends to all the input (cross-attention): the decoder "
                       "length is assumed equal to the encoder's (BART's denoising; T5's span-corruption targets "
                       "are shorter, so an upper end there)", a->model_type, (long long)a->enc_layers,
                       (long long)(a->n_layers - a->enc_layers)), R1((double)a->enc_layers), "layers",
                       JC_ORIGIN_MODEL, "the config's model_type");
}

/* The shape of a Hugging Face config. */
static jc_status shape_arch(est *s, const jc_arch *a, tshape *h)
{
    const jc_job *j = s->b.job;
    if (given(j->params) || given(j->total_params) || given(j->active_params) || given(j->layers) ||
        given(j->hidden) || given(j->heads))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--hf-config gives the architecture: drop --params / "
                            "--total-params / --active-params / --layers / --hidden / --heads");
    jci_arch_w w;
    jci_arch_weights(a, &w);
    h->a = a;
    h->src = jci_bld_str(&s->b, "%s", a->path);
    h->type = jci_bld_str(&s->b, "%s", a->model_type);
    h->L = (double)a->n_layers;
    h->d = (double)a->hidden;
    h->heads = (double)a->heads;
    h->kvh = (double)a->kv_heads;
    h->hd = (double)a->head_dim;
    h->vocab = (double)a->vocab;
    h->qk = a->mla ? (double)(a->qk_nope + a->qk_rope) : h->hd;
    h->v = a->mla ? (double)a->v_head : h->hd;
    h->attn_w = jci_arch_attn_weights_mean(a);   /* cross-attention: its share per layer */
    h->o_w = h->heads * h->v * h->d * h->attn_w / w.attn;
    h->ffn = (double)a->ffn;
    h->gated = a->gated;
    h->E = (double)a->n_experts;
    h->k = (double)a->top_k;
    h->effn = (double)a->expert_ffn;
    h->shared_ffn = (double)a->shared_ffn;
    for (int64_t i = 0; i < a->n_layers; i++) h->n_moe += a->layer[i].moe;
    h->P_expert = h->n_moe * h->E * w.expert;
    jc_arch_params(a, &h->P_total, &h->P_active);
    h->mtp = given(j->mtp_heads) ? j->mtp_heads : (double)a->mtp_layers;
    assume_kind(s, a);
    return JC_OK;
}

/* ---- memory of a layout -------------------------------------------------------- */

/* Parameters on one device: the dense part over tp x pp, the experts over
 * ep x pp (and tp without expert parallel). */
static void dev_params(const tshape *h, const tlay *y, double *dense, double *expert)
{
    *dense = (h->P_total - h->P_expert) / (y->tp * y->pp);
    *expert = h->P_expert / (y->pp * (y->ep > 1 ? y->ep : y->tp));
}

/* Activation bytes one token keeps for the backward pass in one layer
 * (selective recompute: Korthikanti et al. 2022, arXiv:2205.05198,
 * section 4: 34 s b h / t bytes per layer with sequence parallelism, its
 * MLP share 24 of the 34 scaled by the active MLP width over 4h); full
 * recompute keeps the layer's input only (2 h bytes). */
static double act_bytes_token_layer(const est *s, const tshape *h, double tp)
{
    if (s->rc > 0) return 2 * h->d / tp;
    double f = h->n_moe > 0 ? (h->k * h->effn + h->shared_ffn) : h->ffn;
    return (10 + 24 * f / (4 * h->d)) * h->d / tp;
}

enum { M_W, M_G, M_O, M_ACT, M_N };

/* Bytes on one device by part: weights (with a teacher's), gradients,
 * optimizer state, activations.  Fine-tuning with adapters: the frozen
 * base at its storage bytes (finetune.c), the adapters (over tp x pp) at
 * 2 B with gradients and 12 B of state (paged to the host for QLoRA). */
static void mem_parts(const est *s, const tstate *t, const tshape *h, const tlay *y, double S, double m[M_N])
{
    double pd, pe;
    dev_params(h, y, &pd, &pe);
    double edp = y->ep > 1 ? fmax(1, y->dp / y->ep) : y->dp;
    double tr = pd + pe, tr_sh = pd / y->dp + pe / edp, wb = 2;
    double wsh = y->zero >= 3 ? tr_sh : tr;   /* the weights this device keeps */
    const jci_ft *ft = &t->ft;
    if (ft->kind >= JCI_FT_LORA) {
        wb = ft->w_bytes;
        tr = ft->trainable / (y->tp * y->pp), tr_sh = tr / y->dp;
    }
    double w = wb * wsh + (ft->kind >= JCI_FT_LORA ? 2 * tr : 0), g = 2 * tr;
    double o = ft->paged_opt ? 0 : 12 * tr;
    if (y->zero >= 1) o = ft->paged_opt ? 0 : 12 * tr_sh;
    if (y->zero >= 2) g = 2 * tr_sh;
    double T = y->mbs * S / y->cp;
    double inflight = y->pp > 1 ? fmin(y->m, y->pp) : 1;
    double act = act_bytes_token_layer(s, h, y->tp) * T * (h->L / y->pp) * inflight;
    act += T * h->vocab / y->tp * 4;   /* fp32 logits of the last stage */
    double teach = t->teacher > 0 ? 2 * t->teacher / (y->tp * y->pp) : 0;
    m[M_W] = w + teach, m[M_G] = g, m[M_O] = o, m[M_ACT] = act;
}

static double mem_bytes(const est *s, const tstate *t, const tshape *h, const tlay *y, double S)
{
    double m[M_N];
    mem_parts(s, t, h, y, S, m);
    return m[M_W] + m[M_G] + m[M_O] + m[M_ACT];
}

/* ---- one step on one device ---------------------------------------------------- */

/* Forward + backward time of a GEMM of M x N output and reduction K
 * (dgrad M x K over N, wgrad K x N over M), plus a recomputed forward. */
static double gemm_fb(const est *s, const jci_eff_device *dv, double M, double N, double K, double cnt, int sc)
{
    const jci_eff_model *m = &s->eff;
    double f = jci_eff_gemm_s(m, dv, M, N, K, cnt, sc);
    double wgrad = s->frozen_base ? 0 : jci_eff_gemm_s(m, dv, K, N, M, cnt, sc);   /* LoRA: a frozen weight */
    return f * (1 + s->rc) + jci_eff_gemm_s(m, dv, M, K, N, cnt, sc) + wgrad;
}

/* Bandwidth of a collective over n ranks placed `stride` apart in the
 * rank order (tp first): within a node while n x stride <= per node. */
static double group_bw(const tstate *t, double n, double stride, int sc)
{
    double k = t->per_node / stride;
    if (k < 1) k = 1;
    return jci_ring_bw(n, k, jci_pick(t->link_bw, sc, JCI_LOWERS) * 1e9, jci_pick(t->net_bw, sc, JCI_LOWERS) * 1e9);
}

/* An all-reduce of `bytes` per member over n ranks `stride` apart: a
 * ring (2 (n-1)/n of the bytes through each member), or, where the tier
 * it crosses reduces in its switches, the bytes once out and the result
 * once back (NVLink SHARP / InfiniBand SHARP: bytes / bandwidth). */
static double allreduce_s(const tstate *t, double n, double bytes, double stride, int sc)
{
    if (!(n > 1)) return 0;
    double bw = group_bw(t, n, stride, sc), lat = 0;
    int inside = n <= fmax(1, t->per_node / stride);
    jci_coll_best(n, fmax(1, t->per_node / stride), t->up_reduce, t->out_reduce, t->hops[sc], &lat);
    if (inside ? t->up_reduce : t->up_reduce && t->out_reduce) return bytes / bw + lat;
    return jci_allreduce_ring_s(n, bytes, bw, lat);
}

/* One micro-batch through the layers of one device: parts[] += seconds,
 * hw[P_GEMM] and hw[P_ATTN] += the FLOPs those kernels run (recompute
 * included); returns the model FLOPs (forward x (1 + beta)) it does. */
static double micro_batch(const est *s, const tstate *t, const tlay *y, double S, int sc, double *parts, double *hw)
{
    const tshape *h = &t->sh;
    jci_eff_device dv = {t->gemm_peak, s->vpeak, s->bw, s->dev->kind == JC_DEVICE_GPU, 0, s->sms, 0, s->bw_sus};
    int bits = t->fp8 ? 8 : (int)jci_est_prec_bits(s->prec);
    dv.granule = bits == 16 ? 8 : bits == 8 ? 16 : 0;
    jci_eff_device dvh = dv;   /* the LM head: in BF16 under an FP8 stack (Transformer Engine) */
    dvh.peak = t->hp_peak;
    if (t->fp8) dvh.granule = 8;
    double T = y->mbs * S / y->cp, tp = y->tp, d = h->d;
    double Ls = h->L / y->pp, nm = h->n_moe / y->pp, nd = Ls - nm;
    double peak = t->hp_peak, bw = jci_eff_bw(&s->eff, &dv, sc);
    double fwd = 0;   /* forward FLOPs of the micro-batch on this device */
    /* attention projections: in (QKV / MLA down + up) and out */
    double a_in = (h->attn_w - h->o_w) / d;
    parts[P_GEMM] += Ls * (gemm_fb(s, &dv, T, a_in / tp, d, 1, sc) + gemm_fb(s, &dv, T, d, h->o_w / d / tp, 1, sc));
    fwd += Ls * 2 * T * h->attn_w / tp;
    /* dense MLPs */
    double up = (h->gated ? 2 : 1) * h->ffn;
    if (nd > 0 && h->ffn > 0) {
        parts[P_GEMM] += nd * (gemm_fb(s, &dv, T, up / tp, d, 1, sc) + gemm_fb(s, &dv, T, d, h->ffn / tp, 1, sc));
        fwd += nd * 2 * T * (up + h->ffn) * d / tp;
    }
    double ew = 10 * d + 2 * (h->heads * h->qk + 2 * h->kvh * h->hd);   /* elements per token per layer */
    double ew_mlp_dense = (h->gated ? 3 : 2) * h->ffn;
    double ew_moe = 0;
    if (nm > 0) {
        /* router, shared expert(s), routed experts: E / ep local experts
         * of T k ep / E tokens each (uniform routing) */
        double eu = (h->gated ? 2 : 1) * h->effn, etp = y->ep > 1 ? 1 : tp;
        double Me = T * h->k * y->ep / h->E, ne = h->E / y->ep;
        double g = gemm_fb(s, &dv, T, h->E, d, 1, sc);
        if (h->shared_ffn > 0)
            g += gemm_fb(s, &dv, T, 2 * h->shared_ffn / tp, d, 1, sc) + gemm_fb(s, &dv, T, d, h->shared_ffn / tp, 1, sc);
        g += gemm_fb(s, &dv, Me, eu / etp, d, ne, sc) + gemm_fb(s, &dv, Me, d, h->effn / etp, ne, sc);
        parts[P_GEMM] += nm * g;
        fwd += nm * 2 * T * d * (h->E + (3 * h->shared_ffn + h->k * (eu + h->effn)) / tp);
        ew_moe = 3 * (h->k * h->effn + h->shared_ffn) / tp + 4 * h->k * d;
        /* all-to-all: dispatch + combine, forward + backward, of the
         * routed copies leaving the device */
        if (y->ep > 1) {
            double bytes = 4 * T * h->k * d * 2 * (y->ep - 1) / y->ep;
            double in_node = fmin(1, t->per_node / (tp * y->cp) / y->ep);
            double tt = bytes * (in_node / (jci_pick(t->link_bw, sc, JCI_LOWERS) * 1e9) +
                                 (1 - in_node) / (jci_pick(t->net_bw, sc, JCI_LOWERS) * 1e9));
            parts[P_EP] += nm * tt * (1 - jci_pick(t->ep_overlap, sc, JCI_LOWERS));
        }
    }
    /* attention core, layer by layer (sliding windows) */
    double att = 0, att_f = 0;
    for (int64_t i = 0; i < (int64_t)h->L; i++) {   /* arch.c: causal, sliding, bidirectional, cross */
        double c = h->a ? jci_arch_ctx(h->a, i, S) : jci_ctx_mean(S, 0);
        att_f += 2 * T * c * h->heads / tp * (h->qk + h->v);
    }
    att_f /= y->pp;
    /* FlashAttention-2 backward: 5 matmuls to the forward's 2 (Dao 2023) */
    att = att_f * (1 + s->rc + 2.5) / (peak * jci_pick(t->att_eta, sc, JCI_LOWERS));
    parts[P_ATTN] += att;
    fwd += att_f;
    /* elementwise traffic: forward once, backward twice, bf16 */
    double elems = Ls * ew / tp + nd * ew_mlp_dense / tp + nm * ew_moe;
    parts[P_MEM] += T * elems * 2 * (1 + s->rc + 2) / bw;
    /* FP8 (Transformer Engine): each GEMM input cast to FP8 with its
     * scale, read in BF16 and written in FP8 (3 bytes an element): the
     * layer inputs of the four GEMMs forward (d, d, d, ffn) and the output
     * gradients backward (QKV, d, MLP up, d) */
    if (t->fp8)
        parts[P_MEM] += T * (Ls * (5 * d + a_in) + nd * (h->ffn + up)) / tp * 3 / bw;
    /* tensor parallel: 2 all-reduces forward, 2 backward per layer */
    if (tp > 1)
        parts[P_TP] += Ls * 4 * allreduce_s(t, tp, T * d * 2, 1, sc);
    /* context parallel: K and V of the other ranks, forward; dK dV back */
    if (y->cp > 1) {
        double kvd = h->a && h->a->mla ? (double)(h->a->kv_lora + h->a->qk_rope) : 2 * h->kvh * h->hd;
        double bytes = 3 * (y->cp - 1) * T * kvd * 2;
        double tt = Ls * bytes / group_bw(t, y->cp, tp, sc);
        parts[P_CP] += fmax(0, tt - att);
    }
    /* LM head (+ MTP modules) on the last stage, spread over the stages */
    if (h->vocab > 0) {
        double heads = 1 + h->mtp;
        parts[P_GEMM] += heads * gemm_fb(s, &dvh, T, h->vocab / tp, d, 1, sc) / y->pp;
        parts[P_MEM] += heads * T * h->vocab / tp * 4 * 3 / bw / y->pp;
        fwd += heads * 2 * T * h->vocab * d / tp / y->pp;
    }
    if (h->mtp > 0) {
        /* each MTP module: one more layer of the last kind, on the last stage */
        double per_layer = parts[P_GEMM] / (Ls > 0 ? Ls : 1);
        parts[P_GEMM] += h->mtp * per_layer / y->pp;
        fwd += h->mtp * fwd / (Ls > 0 ? Ls : 1) / y->pp;
    }
    /* pipeline: activations forward, gradients backward, per virtual stage */
    if (y->pp > 1) parts[P_PP] += 2 * y->v * T * d * 2 / (jci_pick(t->net_bw, sc, JCI_LOWERS) * 1e9);
    /* fine-tuning: the adapters' GEMMs; QLoRA's dequantisation; a frozen
     * base's backward is the activation-gradient half (beta / 2) */
    double ad_flops = 0, pd, pe;
    parts[P_ADAPTER] += jci_ft_adapter_s(s, &t->ft, &dv, T, Ls, tp, sc, &ad_flops);
    dev_params(h, y, &pd, &pe);
    parts[P_DEQUANT] += jci_ft_dequant_s(s, &t->ft, pd + pe, Ls * (4 + (h->gated ? 3 : 2)), bw, sc);
    double beta = s->frozen_base ? s->beta / 2 : s->beta;
    /* the FLOPs the GEMM and attention kernels run (gemm_fb: the forward
     * (1 + recompute) times, the activation and the weight gradients; the
     * attention core as timed above), for the clocks a power cap leaves */
    hw[P_GEMM] += (fwd - att_f) * (2 + s->rc + (s->frozen_base ? 0 : 1));
    hw[P_ATTN] += att_f * (1 + s->rc + 2.5);
    return (fwd - att_f) * (1 + beta) + att_f * (1 + s->beta) + ad_flops;
}

/* The clocks a power limit leaves (power.h, the rule timing.c applies to
 * a graph's compute-bound kernels): the GEMM class and the attention core
 * each run at r = jci_power_cap_clock at their utilisation of their peak
 * (the FLOPs hw[] they run over their time at the step's speed), so take
 * 1 / r as long (drawing the limit meanwhile: energy.c's power at the
 * utilisation is capped there); their operand traffic is not counted (the
 * step model times them by compute).  r = 1 without a limit below the
 * power the die draws at its boost clock.  The central scenario sums the
 * time-weighted ratio (w micro-batches of the stage) for power.cap_clock. */
static void cap_clocks(const est *s, tstate *t, double *one, const double *hw, double w, int sc)
{
    if (!(s->pw_on || s->pw_clk)) return;
    static const int cls[2] = {P_GEMM, P_ATTN};
    for (int k = 0; k < 2; k++) {
        int c = cls[k];
        double peak = c == P_GEMM ? t->gemm_peak : t->hp_peak;
        if (!(one[c] > 0) || !(hw[c] > 0) || !(peak > 0)) continue;
        double r = jci_power_cap_clock(&s->pw, hw[c] / (one[c] * peak), 0, sc);
        one[c] /= r;
        if (sc == SC_CENTRAL) {
            t->cap_t += one[c] * w;
            t->cap_tc += one[c] * r * w;
        }
    }
}

/* One optimizer step of stage g on one device, scenario sc: t->st[g]
 * parts[sc] and t[sc]; returns the step's model FLOPs on all devices. */
static double step_time(const est *s, tstate *t, int g, int sc)
{
    tstage *st = &t->st[g];
    const tlay *y = &st->ly;
    const tshape *h = &t->sh;
    double *p = st->parts[sc];
    memset(p, 0, sizeof st->parts[sc]);
    double one[P_N] = {0}, hw[P_N] = {0};
    double mf = micro_batch(s, t, y, st->S, sc, one, hw);
    if (t->teacher > 0) {
        jci_eff_device dv = {s->peak, s->vpeak, s->bw, s->dev->kind == JC_DEVICE_GPU, 0, s->sms, 0, s->bw_sus};
        double T = y->mbs * st->S / y->cp;
        one[P_TEACHER] = jci_eff_gemm_s(&s->eff, &dv, T, h->d, h->d, t->teacher / (h->d * h->d * y->tp * y->pp), sc);
        mf += 2 * T * t->teacher / (y->tp * y->pp);
    }
    /* the compute parts at the share of the kernel model's speed a
     * training step reaches (train_step_eta, fitted) */
    double eta = jci_pick(t->step_eta, sc, JCI_LOWERS);
    one[P_GEMM] /= eta, one[P_ATTN] /= eta, one[P_MEM] /= eta, one[P_TEACHER] /= eta;
    one[P_ADAPTER] /= eta, one[P_DEQUANT] /= eta;   /* fine-tuning's GEMMs and traffic alike */
    cap_clocks(s, t, one, hw, y->m * st->steps, sc);
    /* a stack that overlaps its tensor- and pipeline-parallel collectives
     * with the GEMMs (Megatron's TP comm overlap and P2P overlap, XLA's
     * async collectives) hides them up to comm_overlap x the GEMMs' time */
    double hide = jci_pick(t->comm_overlap, sc, JCI_LOWERS) * one[P_GEMM];
    double h_tp = fmin(one[P_TP], hide);
    one[P_TP] -= h_tp;
    one[P_PP] -= fmin(one[P_PP], hide - h_tp);
    double t_mb = 0;
    for (int i = 0; i < P_N; i++) {
        p[i] = one[i] * y->m;
        t_mb += one[i];
    }
    if (y->pp > 1) p[P_BUBBLE] = (y->pp - 1) / y->v * t_mb;
    /* data parallel: ZeRO-1/2 reduce-scatter the gradients and all-gather
     * the parameters once per step, beside one micro-batch; ZeRO-3 (FSDP)
     * gathers the parameters forward and backward in every micro-batch */
    double pd, pe;
    dev_params(h, y, &pd, &pe);
    double gb = jci_pick(t->grad_bytes, sc, JCI_RAISES), ov = jci_pick(t->overlap, sc, JCI_LOWERS);
    double edp = y->ep > 1 ? fmax(1, y->dp / y->ep) : y->dp;
    double stride = y->tp * y->cp;
    double t_dp = allreduce_s(t, y->dp, pd * gb, stride, sc) + allreduce_s(t, edp, pe * gb, stride * y->ep, sc);
    double shard = y->zero >= 1 ? pd / y->dp + pe / edp : pd + pe;
    if (t->ft.kind >= JCI_FT_LORA) {
        /* a frozen base: FSDP gathers its weights (at their storage
         * bytes) forward and backward in every micro-batch, and only the
         * adapters' gradients are reduced, once per step */
        double tr = t->ft.trainable / (y->tp * y->pp);
        double t_w = y->zero >= 3 ? allreduce_s(t, y->dp, (pd + pe) * t->ft.w_bytes, stride, sc) : 0;
        double t_ad = allreduce_s(t, y->dp, tr * gb, stride, sc);
        p[P_DP] = fmax(0, t_w * y->m + t_ad - ov * t_mb * y->m);
        shard = y->zero >= 1 ? tr / y->dp : tr;
    } else if (y->zero >= 3) {
        p[P_DP] = fmax(0, 1.5 * t_dp * y->m - ov * t_mb * y->m);
    } else {
        p[P_DP] = fmax(0, t_dp - ov * t_mb);
    }
    /* optimizer: its bytes per parameter of the shard this device updates */
    jci_eff_device dvo = {s->peak, s->vpeak, s->bw, s->dev->kind == JC_DEVICE_GPU, 0, s->sms, 0, s->bw_sus};
    double bw = jci_eff_bw(&s->eff, &dvo, sc);
    p[P_OPT] = t->opt_bytes_pp * shard / bw;
    /* evaluation (train_overhead.c): M / N of the step's forward compute */
    double fwd_share = 1 / (1 + (s->frozen_base ? s->beta / 2 : s->beta) + s->rc);
    p[P_EVAL] = s->ov_eval * fwd_share * (p[P_GEMM] + p[P_ATTN] + p[P_MEM] + p[P_ADAPTER] + p[P_DEQUANT]);
    double sum = 0;
    for (int i = 0; i < P_N; i++) sum += p[i];
    if (given(s->b.job->checkpoint_every)) {
        p[P_CKPT] = s->ov_ckpt_step_s;   /* the job's checkpoints (train_overhead.c) */
    } else {
        /* checkpoints: every ckpt_h hours the device copies its shard of
         * the weights and optimizer state (16 B per parameter) to host
         * memory */
        double ck = 16 * (t->ft.kind >= JCI_FT_LORA ? t->ft.trainable : h->P_total) / s->G /
                    (jci_pick(t->pcie, sc, JCI_LOWERS) * 1e9);
        p[P_CKPT] = ck * sum / (jci_pick(t->ckpt_h, sc, JCI_LOWERS) * JCI_S_PER_H);
    }
    sum += p[P_CKPT];
    st->t[sc] = sum;   /* productive; apply_goodput adds the lost time */
    return mf * y->m * y->tp * y->pp * y->cp * y->dp;
}

/* The lost part of stage g's step in scenario sc: 1 / goodput - 1 of it. */
static void apply_goodput(const tstate *t, tstage *st, int sc)
{
    double gp = jci_pick(t->goodput, sc, JCI_LOWERS);
    st->parts[sc][P_LOST] = st->t[sc] * (1 / gp - 1);
    st->t[sc] += st->parts[sc][P_LOST];
}

/* ---- the layout ------------------------------------------------------------------ */

static double pow2_floor(double x)
{
    double p = 1;
    while (p * 2 <= x) p *= 2;
    return p;
}

/* Micro-batches and their size from the global batch of B_seq sequences
 * over dp ranks: whole sequences, the largest micro-batch up to one
 * 2048-token pack (one sequence of 2048 tokens or more) that divides the
 * rank's sequences, or --micro-batches. */
static void micro(const est *s, tlay *y, double B_seq, double S)
{
    double per_rank = B_seq / y->dp;
    if (given(s->b.job->micro_batches)) {
        y->m = s->b.job->micro_batches;
        y->mbs = per_rank / y->m;
    } else if (per_rank < 1) {
        y->m = 1, y->mbs = per_rank;   /* part of a sequence: refused or warned by layout_stage */
    } else {
        double n = floor(per_rank);
        y->mbs = fmin(S >= 2048 ? 1 : floor(2048 / S), n);
        while (y->mbs > 1 && fmod(n, y->mbs) != 0) y->mbs--;
        y->m = n / y->mbs;
    }
    if (y->mbs <= 0) y->mbs = per_rank;
}

/* The sequences a layout's every optimizer step takes together: dp ranks
 * x --micro-batches (x 1 without). */
static double batch_unit(const est *s, double dp)
{
    return dp * (given(s->b.job->micro_batches) ? s->b.job->micro_batches : 1);
}

/* The global batch in sequences a layout of dp ranks runs: the user's
 * (--batch, kept as given: layout_stage refuses it unless it divides),
 * else the derived one at the nearest multiple of the batch unit. */
static double runnable_batch(const est *s, const tstage *st, double dp)
{
    double u = batch_unit(s, dp);
    return st->fixed ? st->B_seq : fmax(u, round(st->B_seq / u) * u);
}

/* Context parallel: --cp, else one rank per 8192 tokens (Llama 3 Herd,
 * Table 4: CP 16 at 131,072 tokens, none at 8192). */
static double cp_of(const est *s, double S)
{
    if (given(s->b.job->cp)) return s->b.job->cp;
    return S > 8192 ? pow2_floor(ceil(S / 8192) * 2 - 1) : 1;
}

/* Does the layout fit, with its micro-batches? */
static int fits(const est *s, const tstate *t, tlay *y, const tstage *st, int whole)
{
    if (y->tp * y->pp * y->cp > s->G || fmod(s->G, y->tp * y->pp * y->cp) != 0) return 0;
    y->dp = s->G / (y->tp * y->pp * y->cp);
    if (y->ep > 1 && (fmod(y->dp, y->ep) != 0 || fmod(t->sh.E, y->ep) != 0)) return 0;
    if (whole && st->B_seq < y->dp) return 0;   /* a sequence per data-parallel rank at least */
    micro(s, y, runnable_batch(s, st, y->dp), st->S);
    if (y->pp > 1 && !given(s->b.job->virtual_stages)) y->v = fmax(1, fmin(8, pow2_floor(t->sh.L / y->pp)));
    return mem_bytes(s, t, &t->sh, y, st->S) <= t->cap;
}

/* Candidate layouts in the order practitioners reach for them: data
 * parallel with the distributed optimizer (ZeRO-1), experts spread within
 * a node first; FSDP (ZeRO-3) for a dense model that fits no other way
 * on one device's share; tensor parallel within the node; pipeline stages
 * across nodes, doubled (SP_ANY_PP: one more at a time).  SP_WHOLE: a
 * sequence per data-parallel rank at least; SP_DIVIDE: the global batch
 * in whole sequences per rank (x --micro-batches).  Every size the user
 * gave is kept.  Returns 1 when one fits, else leaves the last tried in y. */
enum { SP_WHOLE = 1, SP_DIVIDE = 2, SP_ANY_PP = 4 };

static int divides(const est *s, const tstage *st, const tlay *y)
{
    return fmod(runnable_batch(s, st, y->dp), batch_unit(s, y->dp)) == 0;
}

static int search_pass(const est *s, tstate *t, tstage *st, tlay *y, int how)
{
    const jc_job *j = s->b.job;
    const tshape *h = &t->sh;
    double cp = cp_of(s, st->S);
    /* a size the user gives is tried as given (the searched ones double) */
    for (double pp = given(j->pp) ? j->pp : 1; pp <= fmax(h->L, given(j->pp) ? j->pp : 1);
         pp = how & SP_ANY_PP ? pp + 1 : pp * 2) {
        if (given(j->pp) && pp != j->pp) continue;
        for (double tp = given(j->tp) ? j->tp : 1; tp <= fmax(t->per_node, given(j->tp) ? j->tp : 1); tp *= 2) {
            if (given(j->tp) && tp != j->tp) continue;
            if (pp > 1 && !given(j->tp) && tp < t->per_node) continue;   /* PP only once TP fills the node */
            /* a stack without model parallelism (DeepSpeed ZeRO): data
             * parallel alone unless --tp / --pp ask */
            if (t->model_parallel == RT_MP_ZERO && ((tp > 1 && !given(j->tp)) || (pp > 1 && !given(j->pp)))) continue;
            if (fmod(h->heads, tp) != 0) continue;
            for (int zi = 0; zi < 2; zi++) {
                double zero = given(j->zero) ? j->zero : zi == 0 ? 1 : 3;
                if (zi == 1 && (given(j->zero) || h->E > 0 || tp > 1 || pp > 1)) break;
                if (zi == 1 && t->model_parallel == RT_MP_MEGATRON) break;   /* no FSDP in Megatron */
                double ep0 = given(j->ep) ? j->ep : h->E > 0 ? fmin(h->E, t->per_node) : 1;
                for (double ep = ep0; ep <= (h->E > 0 ? h->E : 1); ep *= 2) {
                    tlay c = {tp, pp, 1, cp, ep, zero, given(j->virtual_stages) ? j->virtual_stages : 1, 1, 1};
                    *y = c;
                    if (fits(s, t, y, st, how & SP_WHOLE) && (!(how & SP_DIVIDE) || divides(s, st, y))) return 1;
                    if (given(j->ep)) break;
                }
            }
        }
    }
    return 0;
}

/* A layout that gives every data-parallel rank a sequence at least, else
 * any that fits the memory (warned); 0: none fits (refused).  A --batch
 * the first choice's data-parallel ranks do not divide moves the search
 * to the first layout whose ranks do (pipeline stages doubled, then any
 * depth), remembered in t->batch_moved; when none does, the first choice
 * stays and settle_batch refuses it with the nearest batches that run. */
static int search(const est *s, tstate *t, tstage *st, tlay *y)
{
    if (!search_pass(s, t, st, y, SP_WHOLE) && !search_pass(s, t, st, y, 0)) return 0;
    if (!st->fixed || divides(s, st, y)) return 1;
    tlay first = *y;
    if (search_pass(s, t, st, y, SP_WHOLE | SP_DIVIDE) || search_pass(s, t, st, y, SP_WHOLE | SP_DIVIDE | SP_ANY_PP)) {
        t->mem_choice = first;
        t->batch_moved = 1;
        return 1;
    }
    *y = first;
    return 1;
}

/* ---- resolve ---------------------------------------------------------------------- */

static jc_status tconst(est *s, const char *id, const char *label, jc_range *out)
{
    const jc_constant *c;
    jc_status st = jci_bld_need_const(&s->b, id, &c);
    if (!st) *out = jci_bld_const(&s->b, id, label, c);
    return st;
}

/* The fabric the collectives cross: the scale-up domain (its size and
 * bandwidth per device) and the scale-out NICs per device, from the
 * host's fabric (--host), else the device's node figures, else the
 * fallbacks of hwdb/interconnect.yaml (warned); in-network reduction
 * only where the host says its switches reduce.  t->fabric says it all
 * in words, with where each came from. */
static jc_status resolve_fabric(est *s, tstate *t)
{
    const jc_host *ho = s->host;
    const char *f_up, *f_out, *f_dom;
    jc_status st;
    if ((st = jci_fabric_figure(&s->b, s->b.db, ho, s->dev, JCI_LINK_BW, "training step", &t->link_bw, &f_up)) ||
        (st = jci_fabric_figure(&s->b, s->b.db, ho, s->dev, JCI_NETWORK_BW, "training step", &t->net_bw, &f_out)))
        return st;
    if (ho && !(ho->up_devices.present && ho->up_devices.value > 0) && ho->n_accel > 0) {
        t->per_node = ho->n_accel;
        f_dom = jci_bld_str(&s->b, "host %s accelerators.count (no fabric.scaleup_devices)", ho->id);
    } else {
        jc_range r;
        if ((st = jci_fabric_figure(&s->b, s->b.db, ho, s->dev, JCI_NODE_DEVICES, "training step", &r, &f_dom)))
            return st;
        t->per_node = r.central;
    }
    t->up_reduce = ho && ho->up_reduce.present && ho->up_reduce.value > 0;
    t->out_reduce = ho && ho->out_reduce.present && ho->out_reduce.value > 0;
    t->fabric = jci_bld_str(&s->b, "scale-up domain of %s devices (%s) at %s GB/s per device (%s)%s; scale-out %s "
                            "GB/s per device (%s)%s", FMT_N(t->per_node), f_dom, FMT_N(t->link_bw.central), f_up,
                            t->up_reduce ? ", reducing in its switches" : ", ring all-reduce",
                            FMT_N(t->net_bw.central), f_out,
                            t->out_reduce ? ", reducing in its switches" : ", ring all-reduce");
    return JC_OK;
}

/* The stack's 8-bit GEMMs (runtimes.def RT_STEP lowp): FP8 by default
 * where the device has an FP8 peak (RT_LOWP_FP8), or the 8-bit type
 * --precision names (RT_LOWP_ASKED: fp8 or int8, quantised training); the
 * GEMMs at that peak (the utilisation and MFU are of it, as with
 * --precision alone), attention, norms and the LM head at the BF16 peak.
 * Sets t->fp8, gemm_peak, hp_peak and s->peak; returns the words of the
 * assumption train.stack. */
static const char *lowp_gemms(est *s, tstate *t, int lowp)
{
    const jc_job *j = s->b.job;
    int asked = j->precision && (s->prec == JC_PREC_FP8 || s->prec == JC_PREC_INT8);
    if (lowp == RT_LOWP_ASKED && !asked)
        return "the run's precision for every kernel (--precision fp8 or int8: 8-bit GEMMs)";
    if (lowp == RT_LOWP_FP8 && j->precision && s->prec != JC_PREC_FP8)
        return "--precision: FP8 off";
    jc_precision p = lowp == RT_LOWP_FP8 ? JC_PREC_FP8 : s->prec;
    const char *name = p == JC_PREC_INT8 ? "int8" : "FP8";
    bool acc32;
    const jc_sourced *p8 = jci_device_peak(s->dev, p, 0, &acc32);
    const jc_sourced *p16 = jci_device_peak(s->dev, JC_PREC_BF16, 0, &acc32);
    if (!(p8->present && p16->present && p8->value > 0 && p16->value > 0))
        return jci_bld_str(&s->b, "no %s on %s (no %s or bf16 peak in the hwdb): the run's precision", name,
                           s->dev->id, jc_precision_name(p));
    t->fp8 = 1;
    t->gemm_peak = jci_bld_assume(&s->b, p == JC_PREC_INT8 ? "train.int8_peak" : "train.fp8_peak",
                                  jci_bld_str(&s->b, "dense peak of the stack's %s GEMMs", name), R1(p8->value),
                                  p == JC_PREC_INT8 ? "TOP/s" : "TFLOP/s", JC_ORIGIN_HWDB,
                                  jci_bld_cite(&s->b, p8)).central * 1e12;
    t->hp_peak = p16->value * 1e12;
    s->peak = t->gemm_peak;
    if (lowp == RT_LOWP_FP8)
        return "FP8 GEMMs (the device's FP8 peak; the utilisation and MFU are of that peak), attention, norms "
               "and the LM head in BF16, FP32 master weights, a scaling cast per GEMM input (Transformer "
               "Engine); --precision bf16 turns FP8 off";
    return jci_bld_str(&s->b, "%s GEMMs as --precision asks (quantised training: the device's %s peak; the "
                       "utilisation and MFU are of that peak), attention, norms and the LM head in BF16, a scaling "
                       "cast per GEMM input", name, name);
}

/* The training stack (the runtime profile's RT_STEP row, runtimes.def):
 * the step's compute share, the collectives it overlaps with the GEMMs,
 * FP8 GEMMs where it runs them (the device's FP8 peak, the rest at the
 * BF16 peak), whether it parallelises the model; recorded as the
 * assumption train.stack, with how to pick another. */
static jc_status resolve_stack(est *s, tstate *t)
{
    const jc_job *j = s->b.job;
    const jci_rt_train *rt = jci_runtime_train(s->eff.runtime);
    jc_status st;
    if ((st = tconst(s, rt->step_eta, "share of the kernel model's speed the compute of a training step reaches "
                     "(what the step's mechanisms miss)", &t->step_eta)))
        return st;
    t->comm_overlap = (jc_range){0, 0, 0};
    if (rt->overlap && (st = tconst(s, rt->overlap, "share of the GEMMs' time the stack's tensor- and pipeline-"
                                    "parallel collectives run beside", &t->comm_overlap)))
        return st;
    t->model_parallel = rt->model_parallel;
    t->gemm_peak = t->hp_peak = s->peak;
    const char *lowp_why = rt->lowp == RT_LOWP_NONE ? "the run's precision for every kernel" : lowp_gemms(s, t, rt->lowp);
    jci_bld_assume(&s->b, "train.stack", jci_bld_str(&s->b, "training stack: %s; %s; collectives %s; %s",
                   jci_runtime_name(s->eff.runtime), lowp_why,
                   rt->overlap ? "overlapped with the GEMMs (comm_overlap)" : "in line with the kernels",
                   rt->model_parallel == RT_MP_ZERO ? "ZeRO data parallel alone (stages 1-3) unless --tp / --pp"
                   : rt->model_parallel == RT_MP_MEGATRON ? "tensor and pipeline parallel with the distributed "
                                                            "optimizer where the memory needs them, no FSDP"
                   : "ZeRO-1, FSDP, tensor and pipeline parallel where the memory needs them"),
                   R1((double)s->eff.runtime), "", j->runtime ? JC_ORIGIN_USER : JC_ORIGIN_DEFAULT,
                   j->runtime ? "--runtime" : "the default runtime profile (give --runtime megatron, deepspeed or "
                   "jax-xla for those stacks: docs/energy-model.md, runtime profiles)");
    return JC_OK;
}

static jc_status resolve_constants(est *s, tstate *t)
{
    jc_status st;
    if ((st = resolve_stack(s, t))) return st;
    if ((st = tconst(s, "train_attention_eta", "attention core (FlashAttention) achieved fraction of dense peak",
                     &t->att_eta)) ||
        (st = tconst(s, "train_memory_usable", "share of device memory a layout may fill", &t->mem_frac)) ||
        (!given(s->b.job->checkpoint_every) &&   /* else the job's checkpoints (train_overhead.c) */
         ((st = tconst(s, "train_checkpoint_interval_h", "hours between checkpoints", &t->ckpt_h)) ||
          (st = tconst(s, "train_checkpoint_copy_gbs", "device-to-host copy bandwidth of a checkpoint", &t->pcie)))) ||
        (st = tconst(s, "train_ep_overlap", "share of the expert all-to-all hidden by compute", &t->ep_overlap)) ||
        (st = jci_dp_overlap(&s->b, s->b.job->dp_overlap, "share of a micro-batch's compute the data-parallel "
                             "collectives run beside", &t->overlap)) ||
        (st = tconst(s, "allreduce_grad_bytes_per_param", "gradient bytes per parameter reduced", &t->grad_bytes)))
        return st;
    if ((st = resolve_fabric(s, t)) || (st = jci_coll_hops(&s->b, t->hops))) return st;
    if (!s->dev->memory_gb.present)
        return jci_bld_fail(&s->b, JC_ERR_HWDB, "device %s has no memory_gb: the training layout needs it",
                            s->dev->id);
    t->cap = s->dev->memory_gb.value * 1e9 * t->mem_frac.central;
    if (!(s->bw > 0) || !(s->peak > 0))
        return jci_bld_fail(&s->b, JC_ERR_HWDB, "device %s has no %s: the training step model times its kernels "
                            "with it (give --utilization U for 6ND at a utilisation)", s->dev->id,
                            s->bw > 0 ? "dense peak at this precision" : "memory bandwidth (memory_bw_gbs)");
    if (!given(s->b.job->goodput)) {
        const jc_constant *c[4];
        static const char *const ids[4] = {"train_goodput_short", "train_goodput_long", "train_goodput_short_h",
                                           "train_goodput_long_h"};
        jc_range *out[4] = {&t->gp_short, &t->gp_long, &t->gp_short_h, &t->gp_long_h};
        for (int i = 0; i < 4; i++) {
            if ((st = jci_bld_need_const(&s->b, ids[i], &c[i]))) return st;
            *out[i] = jci_sourced_range(&c[i]->value);
        }
    }
    return JC_OK;
}

/* The goodput (share of wall time in productive steps): --goodput, else
 * by the run's length in productive hours H: gp_short up to gp_short_h
 * (a timed benchmark run loses only its start), gp_long from gp_long_h
 * (a months-long run loses restarts, lost work and checkpoints), log-
 * linear in H between; recorded as the assumption train.goodput. */
static void resolve_goodput(est *s, tstate *t, double H)
{
    const jc_job *j = s->b.job;
    if (given(j->goodput)) {
        t->goodput = R1(j->goodput);
        t->goodput_why = "--goodput";
        jci_bld_assume(&s->b, "train.goodput", "goodput: share of wall time in productive steps", t->goodput, "",
                       JC_ORIGIN_USER, t->goodput_why);
        return;
    }
    double a = t->gp_short_h.central, b = t->gp_long_h.central;
    double w = H <= a ? 0 : H >= b ? 1 : log(H / a) / log(b / a);
    t->goodput.low = t->gp_short.low + w * (t->gp_long.low - t->gp_short.low);
    t->goodput.central = t->gp_short.central + w * (t->gp_long.central - t->gp_short.central);
    t->goodput.high = t->gp_short.high + w * (t->gp_long.high - t->gp_short.high);
    t->goodput_why = jci_bld_str(&s->b, "by run length: %s h of productive steps (%.3g days); %s up to %s h (a timed "
                                 "benchmark run: train_goodput_short), %s from %s h (a months-long run: "
                                 "train_goodput_long, the Llama 3 report's 'over 90%% effective training time'), "
                                 "log-linear between (hwdb/training.yaml; give --goodput G)",
                                 FMT_N(H), H / 24, FMT_N(t->gp_short.central), FMT_N(a), FMT_N(t->gp_long.central),
                                 FMT_N(b));
    jci_bld_assume(&s->b, "train.goodput", "goodput: share of wall time in productive steps", t->goodput, "",
                   JC_ORIGIN_DERIVED, t->goodput_why);
}

/* The global batch in tokens: --batch x --seq, else DeepSeek LLM's
 * compute-optimal batch B = 0.292 C^0.3271 tokens at C = 6 N D. */
static jc_status resolve_batch_tokens(est *s, tstate *t, double S, double D)
{
    const jc_job *j = s->b.job;
    if (given(j->batch)) {
        t->B_tok = j->batch * S;
        t->why[6] = "--batch x --seq";
        return JC_OK;
    }
    jc_range a, b;
    jc_status st;
    if ((st = tconst(s, "train_batch_law_coef", "compute-optimal batch: coefficient of B = a C^b (tokens)", &a)) ||
        (st = tconst(s, "train_batch_law_exp", "compute-optimal batch: exponent b", &b)))
        return st;
    double C = 6 * t->sh.P_active * D;
    t->B_tok = fmax(S, round(a.central * pow(C, b.central) / S) * S);
    t->why[6] = jci_bld_str(&s->b, "compute-optimal batch %s C^%s at C = 6ND = %s FLOP (DeepSeek LLM, "
                            "arXiv:2401.02954, section 3.1), in whole sequences (give --batch B)", FMT_N(a.central), FMT_N(b.central), FMT_N(C));
    return JC_OK;
}

/* The stages: --seq (or the config's context, at most 8192) for the
 * tokens, and a long-context stage of --long-tokens at --long-seq. */
static jc_status resolve_stages(est *s, tstate *t, double *D_out)
{
    const jc_job *j = s->b.job;
    int by_samples = j->finetune && !given(j->tokens) && given(j->samples);
    if (!by_samples && (!given(j->tokens) || !(j->tokens > 0)))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--train with %s needs --tokens D (the tokens trained on)%s",
                            route(j), j->finetune ? ", or --samples N [--epochs E] of --seq tokens each" : "");
    double D = j->tokens, S = j->seq;
    if (!given(S)) {
        double mx = t->sh.a && t->sh.a->max_ctx > 0 ? (double)t->sh.a->max_ctx : 8192;
        S = fmin(mx, 8192);
        t->why[7] = jci_bld_str(&s->b, "sequence %s: %s, at most 8192 (the main stage of Llama 3 and DeepSeek-V3 "
                                "pre-training ran at 8192 / 4096; give --seq)", FMT_N(S),
                                t->sh.a ? "the config's context" : "no context known");
    }
    if (by_samples) {
        D = jci_bld_assume(&s->b, "work.tokens", "tokens trained on: samples x epochs x sequence", R1(j->samples *
                           (given(j->epochs) ? j->epochs : 1) * S), "", JC_ORIGIN_DERIVED,
                           "--samples x --epochs x --seq").central;
        s->samples = j->samples * (given(j->epochs) ? j->epochs : 1);
    }
    if (given(j->long_seq) != given(j->long_tokens))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--long-seq and --long-tokens go together (a long-context stage of "
                            "T tokens at L tokens per sequence)");
    if (given(j->long_tokens) && !(j->long_tokens < D))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--long-tokens %s must be below --tokens %s (the long stage is "
                            "part of the run)", FMT_N(j->long_tokens), FMT_N(D));
    t->n_stages = given(j->long_tokens) ? 2 : 1;
    t->st[0].S = S;
    t->st[0].tokens = D - (given(j->long_tokens) ? j->long_tokens : 0);
    if (t->n_stages == 2) {
        t->st[1].S = j->long_seq;
        t->st[1].tokens = j->long_tokens;
    }
    *D_out = D;
    return JC_OK;
}

/* Why each size of the layout is what it is. */
static void explain(est *s, tstate *t, const tlay *y, double need)
{
    const jc_job *j = s->b.job;
    const tshape *h = &t->sh;
    char gb[64];
    snprintf(gb, sizeof gb, "%.1f of %.1f GB usable", need / 1e9, t->cap / 1e9);
    t->why[0] = given(j->tp) ? "--tp"
              : y->tp > 1 ? jci_bld_str(&s->b, "the smallest tensor-parallel group within a node that fits (%s)", gb)
                          : "no tensor parallel: the model's share fits one device";
    t->why[1] = given(j->pp) ? "--pp"
              : y->pp > 1 ? jci_bld_str(&s->b, "pipeline stages across nodes once tensor parallel fills the node (%s)", gb)
                          : "no pipeline: fits without stages";
    t->why[2] = jci_bld_str(&s->b, "the rest of the %s devices", FMT_N(s->G));
    if (t->batch_moved) {
        const tlay *f = &t->mem_choice;
        const char *moved = jci_bld_str(&s->b, "tp %s x pp %s (the memory's first choice) leaves %s data-parallel "
                                        "ranks, which do not divide --batch %s into whole sequences: the first "
                                        "larger layout whose ranks do", FMT_N(f->tp), FMT_N(f->pp), FMT_N(f->dp),
                                        FMT_N(j->batch));
        if (y->pp != f->pp) {
            t->why[1] = moved;
            if (y->tp != f->tp) t->why[0] = "tensor parallel fills the node, as pipeline stages need (see pipeline stages)";
        } else if (y->tp != f->tp) {
            t->why[0] = moved;
        }
        t->why[2] = jci_bld_str(&s->b, "%s, dividing --batch %s", t->why[2], FMT_N(j->batch));
    }
    t->why[3] = given(j->cp) ? "--cp"
              : y->cp > 1 ? "one rank per 8192 tokens of the sequence (Llama 3 Herd, Table 4)" : "sequence <= 8192 tokens";
    t->why[4] = h->E <= 0 ? "dense model" : given(j->ep) ? "--ep"
              : jci_bld_str(&s->b, "experts over a node first, doubled until they fit (%s)", gb);
    t->why[5] = given(j->zero) ? "--zero"
              : y->zero >= 3 ? "FSDP (ZeRO-3): a dense model that fits one device only fully sharded"
                             : "distributed optimizer (ZeRO-1, Megatron-LM's default): optimizer state over data parallel";
    if (t->ft.kind >= JCI_FT_LORA && !given(j->zero))
        t->why[5] = y->zero >= 3 ? "FSDP (ZeRO-3): the frozen base sharded over data parallel and gathered for every "
                                   "micro-batch (the first layout that fits, before tensor parallel)"
                                 : "the frozen base whole on every data-parallel rank (over tensor parallel); the "
                                   "adapters' optimizer state over data parallel (ZeRO-1)";
}

/* The global batch the layout runs: the user's, when a whole number of
 * sequences per rank and micro-batch (else refused with the nearest that
 * run), or the derived one rounded to such a number, said in its why. */
static jc_status settle_batch(est *s, tstate *t, int g)
{
    tstage *st = &t->st[g];
    double u = batch_unit(s, st->ly.dp), B = runnable_batch(s, st, st->ly.dp);
    const char *mb = given(s->b.job->micro_batches) ? jci_bld_str(&s->b, " x %s micro-batches",
                                                                   FMT_N(s->b.job->micro_batches)) : "";
    jc_status bst = jci_dp_batch_check(&s->b, B, "sequence", s->G, st->ly.tp, st->ly.pp, st->ly.cp,
                                       given(s->b.job->micro_batches) ? s->b.job->micro_batches : 1, 1, NULL);
    if (bst) return bst;
    if (st->fixed && fmod(B, u) != 0) {
        double lo = floor(B / u) * u, hi = ceil(B / u) * u;
        char lob[48] = "";
        if (lo > 0) snprintf(lob, sizeof lob, "--batch %.0f or ", lo);
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "training: --batch %.0f sequences does not run on %s data-parallel "
                            "ranks%s (tp %s x pp %s x cp %s of %s devices): each takes whole sequences; the nearest "
                            "global batches that run: %s--batch %.0f (or change --count, --tp or --pp)%s",
                            B, FMT_N(st->ly.dp), mb, FMT_N(st->ly.tp), FMT_N(st->ly.pp), FMT_N(st->ly.cp),
                            FMT_N(s->G), lob, hi,
                            given(s->b.job->tp) || given(s->b.job->pp) || given(s->b.job->cp)
                                ? "" : "; no layout of these devices that fits the memory has data-parallel ranks "
                                       "that divide it");
    }
    if (B != st->B_seq && g == 0)
        t->why[6] = jci_bld_str(&s->b, "%s; %s sequences rounded to %s, a whole number per data-parallel rank "
                                "(%s ranks%s)", t->why[6], FMT_N(st->B_seq), FMT_N(B), FMT_N(st->ly.dp), mb);
    st->B_seq = B;
    if (g == 0) t->B_tok = B * st->S;
    micro(s, &st->ly, B, st->S);
    return JC_OK;
}

/* No layout fits a job with a frozen base: what would (more devices,
 * QLoRA's 4-bit base, shorter sequences). */
static jc_status ft_refuse(est *s, const tstate *t)
{
    const jci_ft *ft = &t->ft;
    double need = ceil((ft->w_bytes * t->sh.P_total + 16 * ft->trainable) / t->cap);
    double need_q = ceil((JCI_FT_NF4_BYTES * t->sh.P_total + 2 * ft->trainable) / t->cap);
    char alt[160] = "";
    if (ft->kind == JCI_FT_LORA)
        snprintf(alt, sizeof alt, ", --finetune qlora (an NF4 base: at least %.0f device%s)", need_q,
                 need_q > 1 ? "s" : "");
    return jci_bld_fail(&s->b, JC_ERR_RANGE, "training: --finetune %s of %s does not fit %s x %s at any layout, even "
                        "with full activation recompute and one sequence per micro-batch: its frozen base alone (%s B "
                        "x %s parameters) and adapters need at least %.0f devices of %.1f GB usable; give more "
                        "devices (--count)%s, or shorter sequences (--seq)", ft->name, t->sh.src, FMT_N(s->G),
                        s->dev->id, FMT_N(ft->w_bytes), FMT_N(t->sh.P_total), need, t->cap / 1e9, alt);
}

static jc_status layout_stage(est *s, tstate *t, int g)
{
    tstage *st = &t->st[g];
    st->B_seq = fmax(1, round(t->B_tok / st->S));
    st->fixed = g == 0 && given(s->b.job->batch);
    int found = search(s, t, st, &st->ly);
    if (!found && s->rc <= 0) {
        /* what practitioners do next: recompute every layer's activations */
        s->rc = 1;
        found = search(s, t, st, &st->ly);
        if (found) {
            t->recompute_why = "full activation recompute: no layout fits the activations without it";
            jci_bld_assume(&s->b, "recompute", "activation recomputation: extra forward passes", R1(1), "",
                           JC_ORIGIN_DERIVED, t->recompute_why);
        }
    }
    if (!found && t->ft.kind >= JCI_FT_LORA) return ft_refuse(s, t);
    if (!found) {
        /* the weights, gradients and optimizer state alone (16 B per
         * parameter, fully sharded) bound the devices needed from below */
        double need = ceil(16 * t->sh.P_total / t->cap);
        return jci_bld_fail(&s->b, JC_ERR_RANGE, "training: %s does not fit %s x %s at any layout%s, even with full "
                            "activation recompute: its weights, gradients and optimizer state alone (16 B x %s "
                            "parameters) need at least %.0f devices of %.1f GB usable; give more devices (--count)%s",
                            t->sh.src, FMT_N(s->G), s->dev->id,
                            (given(s->b.job->tp) || given(s->b.job->pp) || given(s->b.job->ep) || given(s->b.job->zero) ||
                             given(s->b.job->cp)) ? " the options allow" : "",
                            FMT_N(t->sh.P_total), need, t->cap / 1e9,
                            (given(s->b.job->tp) || given(s->b.job->pp) || given(s->b.job->ep) || given(s->b.job->zero) ||
                             given(s->b.job->cp)) ? " or drop the layout options" : "");
    }
    jc_status bst = settle_batch(s, t, g);
    if (bst) return bst;
    st->steps = ceil(st->tokens / (st->B_seq * st->S));
    return JC_OK;
}

/* The result's typed record of stage 0 (the main stage). */
static jc_status fill_result(est *s, tstate *t, double flops, const double T[3])
{
    jc_train_step *r = jci_arena_calloc(s->b.a, 1, sizeof *r);
    jc_train_part *parts = jci_arena_calloc(s->b.a, P_N, sizeof *parts);
    if (!r || !parts) return jci_bld_fail(&s->b, JC_ERR_NOMEM, "out of memory");
    const tshape *h = &t->sh;
    const tstage *st = &t->st[0];
    const tlay *y = &st->ly;
    r->arch = h->src;
    r->model_type = h->type;
    r->params_total = h->P_total;
    r->params_active = h->P_active;
    r->layers = h->L;
    r->hidden = h->d;
    r->heads = h->heads;
    r->seq = st->S;
    r->experts = h->E;
    r->top_k = h->k;
    r->tp = y->tp, r->pp = y->pp, r->dp = y->dp, r->cp = y->cp, r->ep = y->ep, r->zero = y->zero;
    if (given(s->b.job->dp_overlap) && y->dp <= 1)
        jci_bld_warn(&s->b, "--dp-overlap has no effect: the layout has no data-parallel replicas (dp 1)");
    r->virtual_stages = y->pp > 1 ? y->v : 1;
    r->micro_batch_seqs = y->mbs;
    r->micro_batches = y->m;
    r->global_batch_tokens = t->B_tok;
    r->steps = st->steps;
    if (t->n_stages > 1) {
        const tstage *l = &t->st[1];
        r->long_seq = l->S, r->long_cp = l->ly.cp, r->long_dp = l->ly.dp;
        r->long_steps = l->steps, r->long_step_s = l->t[SC_CENTRAL];
    }
    r->why_recompute = t->recompute_why;
    r->why_tp = t->why[0], r->why_pp = t->why[1], r->why_dp = t->why[2], r->why_cp = t->why[3];
    r->why_ep = t->why[4], r->why_zero = t->why[5], r->why_batch = t->why[6];
    r->why_micro = given(s->b.job->micro_batches) ? "--micro-batches"
                                                : "whole sequences: one per micro-batch (sequences under 2048 tokens packed to 2048 "
                                                  "where the rank's sequences divide)";
    double mp[M_N];
    mem_parts(s, t, h, y, st->S, mp);
    r->memory_gb = (mp[M_W] + mp[M_G] + mp[M_O] + mp[M_ACT]) / 1e9;
    r->memory_cap_gb = t->cap / 1e9;
    r->mem_weights_gb = mp[M_W] / 1e9, r->mem_grads_gb = mp[M_G] / 1e9, r->mem_optimizer_gb = mp[M_O] / 1e9;
    r->mem_activations_gb = mp[M_ACT] / 1e9;
    r->mem_reserve_gb = s->dev->memory_gb.value - r->memory_cap_gb;
    r->finetune = t->ft.name;
    r->lora_rank = t->ft.rank;
    r->lora_targets = t->ft.kind >= JCI_FT_LORA ? t->ft.targets : NULL;
    r->params_trainable = t->ft.trainable;
    r->params_frozen = t->ft.frozen;
    r->base_bytes_per_param = t->ft.w_bytes;
    size_t n = 0;
    for (int i = 0; i < P_N; i++) {
        if (!(st->parts[SC_CENTRAL][i] > 0)) continue;
        parts[n].name = part_names[i].name;
        parts[n].what = part_names[i].what;
        parts[n].s = st->parts[SC_CENTRAL][i];
        n++;
    }
    r->n_parts = n;
    r->parts = parts;
    r->step_s = st->t[SC_CENTRAL];
    double mf = flops / (st->steps + (t->n_stages > 1 ? t->st[1].steps : 0));
    r->model_flops_step = mf;
    double u[3];
    for (int sc = 0; sc < 3; sc++) u[sc] = flops / (s->G * s->peak * T[sc]);
    /* the fast corner (SC_LOW) has the highest utilisation */
    r->utilization = (jc_range){u[SC_HIGH], u[SC_CENTRAL], u[SC_LOW]};
    double gp[3];
    for (int sc = 0; sc < 3; sc++) gp[sc] = jci_pick(t->goodput, sc, JCI_LOWERS);
    r->goodput = (jc_range){gp[SC_HIGH], gp[SC_CENTRAL], gp[SC_LOW]};
    r->why_goodput = t->goodput_why;
    r->fabric = t->fabric;
    r->mfu = (jc_range){u[SC_HIGH] / gp[SC_HIGH], u[SC_CENTRAL] / gp[SC_CENTRAL], u[SC_LOW] / gp[SC_LOW]};
    s->e->train_step = r;
    s->util = r->utilization;
    s->e->utilization = r->utilization;
    return JC_OK;
}

/* The latency of one tensor-parallel and one data-parallel all-reduce of
 * the chosen layout, with the constants of the algorithm each takes
 * (coll_latency.c; allreduce_s adds them to every collective).  Their
 * constants were loaded by jci_coll_hops already; a failure of either
 * (JC_ERR_HWDB, diagnostic filled through s->b) is returned all the same. */
static jc_status record_latency(est *s, const tstate *t, const tlay *y)
{
    jc_range r;
    jc_status st;
    double stride = y->tp * y->cp;
    if (y->tp > 1 && (st = jci_coll_latency(&s->b, s->dev, y->tp, fmax(1, t->per_node), t->up_reduce, t->out_reduce,
                                            "parallel.tp_allreduce_latency_s", "tensor-parallel activation", &r)))
        return st;
    if (y->dp > 1)
        return jci_coll_latency(&s->b, s->dev, y->dp, fmax(1, t->per_node / stride), t->up_reduce, t->out_reduce,
                                "parallel.dp_allreduce_latency_s", "data-parallel gradient", &r);
    return JC_OK;
}

/* Layout assumptions, in the table every estimate lists; errors: those of
 * record_latency. */
static jc_status record_layout(est *s, const tstate *t)
{
    const tlay *y = &t->st[0].ly;
    const jc_job *j = s->b.job;
    jci_bld_assume(&s->b, "train.params_total", "parameters, all (memory, optimizer, gradients)", R1(t->sh.P_total), "",
                   j->hf_config ? JC_ORIGIN_MODEL : JC_ORIGIN_USER, t->sh.a ? "the config's shapes" : "--total-params / --params");
    jci_bld_assume(&s->b, "train.params_active", "parameters one token uses (FLOPs)", R1(t->sh.P_active), "",
                   j->hf_config ? JC_ORIGIN_MODEL : JC_ORIGIN_USER, t->sh.a ? "the config's shapes (top-k + shared experts)" : "--params");
    jci_bld_assume(&s->b, "train.seq", "tokens per sequence (main stage)", R1(t->st[0].S), "",
                   given(j->seq) ? JC_ORIGIN_USER : JC_ORIGIN_DEFAULT, t->why[7] ? t->why[7] : "--seq");
    jci_bld_assume(&s->b, "train.batch_tokens", "global batch, tokens per optimizer step", R1(t->B_tok), "",
                   given(j->batch) ? JC_ORIGIN_USER : JC_ORIGIN_DERIVED, t->why[6]);
    const double v[] = {y->tp, y->pp, y->dp, y->cp, y->ep, y->zero};
    static const char *const keys[] = {"parallel.tp", "parallel.pp", "parallel.dp", "train.cp", "train.ep", "train.zero"};
    static const char *const lab[] = {"tensor-parallel size", "pipeline stages", "data-parallel size",
                                      "context-parallel size", "expert-parallel size", "ZeRO stage"};
    const double gv[] = {j->tp, j->pp, NAN, j->cp, j->ep, j->zero};
    for (int i = 0; i < 6; i++)
        jci_bld_assume(&s->b, keys[i], lab[i], R1(v[i]), "", given(gv[i]) ? JC_ORIGIN_USER : JC_ORIGIN_DERIVED,
                       t->why[i]);
    jci_bld_assume(&s->b, "parallel.micro_batches", "micro-batches per data-parallel rank and step", R1(y->m), "",
                   given(j->micro_batches) ? JC_ORIGIN_USER : JC_ORIGIN_DERIVED, "global batch / (dp x micro-batch size)");
    return record_latency(s, t, y);
}

jc_status jci_est_resolve_step(est *s)
{
    const jc_job *j = s->b.job;
    jc_status st;
    tstate *t = jci_arena_calloc(s->b.a, 1, sizeof *t);
    if (!t) return jci_bld_fail(&s->b, JC_ERR_NOMEM, "out of memory");
    if (s->an)
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "a MODEL.onnx and %s both give the architecture: choose one",
                            route(j));
    if (given(j->utilization))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--utilization has no effect with the training step model (%s): the "
                            "utilisation is its output; drop it", route(j));
    if (given(s->known_T))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--hours / --device-hours give the runtime: the training step model "
                            "(%s) would have no effect; drop one", route(j));
    if (j->hf_config) {
        if ((st = jc_arch_load_hf(j->hf_config, &s->arch, s->b.d))) return st;
        if ((st = shape_arch(s, s->arch, &t->sh))) return st;
    } else if ((st = shape_params(s, &t->sh))) {
        return st;
    }
    const tshape *h = &t->sh;
    jci_ft_shape fs = {h->L, h->d, h->heads * h->qk, h->kvh * h->hd, h->heads * h->v, h->ffn, h->gated > 0,
                       h->n_moe > 0, h->a && h->a->mla, h->a && h->a->kind == JC_ARCH_ENCODER_DECODER};
    if ((st = jci_ft_resolve(s, &fs, h->P_total, &t->ft))) return st;
    s->frozen_base = t->ft.kind >= JCI_FT_LORA;
    t->opt_bytes_pp = s->opt_bytes_pp;
    t->teacher = given(j->distill_teacher) ? j->distill_teacher : 0;
    double D = NAN;
    if ((st = jci_est_resolve_overhead(s, t->ft.kind >= JCI_FT_LORA ? t->ft.trainable : h->P_total, 1)) ||
        (st = resolve_constants(s, t)) || (st = resolve_stages(s, t, &D)) ||
        (st = resolve_batch_tokens(s, t, t->st[0].S, D)))
        return st;
    for (int g = 0; g < t->n_stages; g++)
        if ((st = layout_stage(s, t, g))) return st;
    explain(s, t, &t->st[0].ly, mem_bytes(s, t, &t->sh, &t->st[0].ly, t->st[0].S));
    if ((st = record_layout(s, t))) return st;
    double flops = 0, T[3] = {0, 0, 0}, H = 0;
    for (int g = 0; g < t->n_stages; g++) {
        double f = step_time(s, t, g, SC_CENTRAL);
        step_time(s, t, g, SC_LOW);
        step_time(s, t, g, SC_HIGH);
        flops += f * t->st[g].steps;
        H += t->st[g].steps * t->st[g].t[SC_CENTRAL] / JCI_S_PER_H;
    }
    if (t->cap_t > 0 && t->cap_tc < t->cap_t * (1 - 1e-9))
        jci_power_record_cap_clock(&s->b, s->dev, &s->pw, t->cap_tc / t->cap_t);
    resolve_goodput(s, t, H);
    for (int g = 0; g < t->n_stages; g++)
        for (int sc = 0; sc < 3; sc++) {
            apply_goodput(t, &t->st[g], sc);
            T[sc] += t->st[g].steps * t->st[g].t[sc];
        }
    s->step_on = 1;
    s->params = t->sh.P_total;
    s->tokens = D;
    s->total_flops = flops;
    s->passes = t->st[0].steps + (t->n_stages > 1 ? t->st[1].steps : 0);
    jci_bld_assume(&s->b, "steps", "optimizer steps = tokens / global batch (every stage)", R1(s->passes), "",
                   JC_ORIGIN_DERIVED, "--tokens / the global batch");
    jci_bld_assume(&s->b, "work.total_flops", "model FLOPs: GEMMs at the layers' shapes + attention at the sequence "
                   "length, forward x (1 + backward factor)", R1(flops), "FLOP", JC_ORIGIN_DERIVED,
                   "the training step model (train_step.c)");
    return fill_result(s, t, flops, T);
}
