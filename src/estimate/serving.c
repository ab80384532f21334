/*
 * serving.c (estimate) - the serving model of an autoregressive decoder (LLM
 * generation; docs/workflow-serving.md):
 *
 *   workload   per request, a prefill over the prompt (compute-bound) and
 *              one decode step per output token with the context growing
 *              from P to P+O; continuous batching keeps B sequences
 *              running per replica (bounded by the KV memory left after
 *              the weights);
 *   devices    tensor / pipeline / expert parallelism, collective time per
 *              layer from the interconnect, memory fit with the stored
 *              weight format;
 *   power      per device and phase from the achieved FLOP and byte rates
 *              (the estimate's power model, power.h); where the die's draw
 *              at its boost clock exceeds the power limit, compute-bound
 *              kernel classes run at the clocks it leaves and draw it
 *              (jci_power_cap_clock, as a graph's kernels do);
 *   energy     the site the user's options give (site.h: hosts, host
 *              power, region, intensity, PUE) and the account
 *              (account.h) of the modelled time and device power, once
 *              per corner of the ranged constants (central, low, high):
 *              the whole workload's device, host and facility energy and
 *              emissions.  No graph estimate is run.
 *
 * The state (struct sv) embeds the result builder the estimate uses too
 * (builder.h): assumptions with their keys checked against
 * assumption_keys.def, warnings, arena strings, hwdb citations, failures
 * "estimate --generate: ...".  The site's and the account's assumptions
 * follow the serving model's own, and jci_bld_move hands the lists to the
 * estimate.  Nothing here prints; warnings travel in the estimate.
 */
#include "base/fmt.h"
#include "base/jc_internal.h"
#include "estimate/cost.h"
#include "estimate/account.h"
#include "estimate/arch.h"
#include "estimate/estimate_int.h"
#include "estimate/builder.h"
#include "estimate/cpu_runtime.h"
#include "estimate/parallel.h"
#include "estimate/power.h"
#include "estimate/serving_int.h"
#include "estimate/vm.h"
#include "joulecast/serving.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GIB 1073741824.0   /* 2^30 bytes */

/* ---- formats ---------------------------------------------------------------- */

typedef struct wfmt {
    const char *name;
    double bytes;          /* per weight, scales included */
    jc_precision compute;  /* precision the matrix units run at */
    const char *how;
} wfmt;

static const wfmt formats[] = {
    {"fp32", 4, JC_PREC_FP32, "4 bytes"},
    {"bf16", 2, JC_PREC_BF16, "2 bytes"},
    {"fp16", 2, JC_PREC_FP16, "2 bytes"},
    {"fp8", 1, JC_PREC_FP8, "1 byte (per-tensor or 128x128-block scales: under 0.1%)"},
    {"int8", 1, JC_PREC_INT8, "1 byte (per-channel scales: under 0.1%)"},
    {"int4", 0.515625, JC_PREC_BF16, "4 bits + an fp16 scale per group of 128 (GPTQ/AWQ layout); weight-only, bf16 arithmetic"},
    {"mxfp4", 0.53125, JC_PREC_BF16, "4 bits + an 8-bit E8M0 scale per block of 32 (OCP MX v1.0); bf16 arithmetic where the device has no fp4 units"},
    {"nvfp4", 0.5625, JC_PREC_BF16, "4 bits + an FP8 E4M3 scale per block of 16 (NVIDIA NVFP4); bf16 arithmetic where the device has no fp4 units"},
};

static const wfmt *find_fmt(const char *n)
{
    for (size_t i = 0; n && i < sizeof formats / sizeof formats[0]; i++)
        if (!jci_strcasecmp(n, formats[i].name)) return &formats[i];
    return NULL;
}

/* ---- runtime profiles -------------------------------------------------------------- */

/* What a serving runtime does that changes the time of a step (tables as
 * data; each row says where its behaviour is documented).  Only vllm and
 * vllm-0.5 have calibration rows; the others differ from them by these
 * mechanisms alone, with the same fitted constants. */
typedef struct rt_profile {
    const char *name;
    int chunked;          /* prefill chunks ride in the decode steps (else prefill steps of their own) */
    int overlap;          /* the engine's host work (scheduling, input preparation, output processing) runs beside the
                           * GPU's step (another process, asynchronous scheduling), off the step's critical path */
    int send_inputs;      /* every step's full inputs are sent to each further worker (else diffs, shared memory) */
    int continuous;       /* continuous batching (0: a static batch runs to its end) */
    double graphs;        /* decode steps of up to this many sequences replay CUDA graphs; larger ones (and
                           * prefill steps) launch every kernel from the host (eager); 0: always eager */
    double max_seqs[2];   /* default running-sequence limit, devices under / from 70 GB */
    double step_tokens[2];/* default token budget of one step, likewise */
    const char *calibrated, *doc;
} rt_profile;

static const rt_profile profiles[] = {
    {"vllm", 1, 1, 0, 1, 512, {256, 1024}, {2048, 8192}, "ML.ENERGY v3 rows (vLLM 0.11.1)",
     "vLLM >= 0.6: the API server and output processing in their own process, off the engine's step (vLLM v0.6.0 "
     "release blog, blog.vllm.ai 2024-09-05); the scheduler's pass for the next step beside the GPU's current one "
     "(--async-scheduling, as ML.ENERGY v3 ran vLLM 0.11; without it the V1 scheduler's pass is on the step's path "
     "and not modelled); V1 engine: chunked prefill always on, defaults max_num_seqs 1024 / max_num_batched_tokens "
     "8192 on GPUs of 70 GB and more, else 256 / 2048 (vllm/engine/arg_utils.py); CUDA graphs captured up to "
     "512 sequences (cudagraph_capture_sizes); workers keep a persistent batch and get the scheduler's diffs "
     "through shared memory (vLLM V1 blog, blog.vllm.ai 2025-01-27)"},
    {"vllm-0.5", 0, 0, 1, 1, 256, {256, 256}, {2048, 2048}, "ML.ENERGY v2 rows (vLLM 0.5.4)",
     "vLLM before 0.6: the API server, scheduler and output processing run between GPU steps (the v0.6.0 "
     "release blog measured the GPU busy 38% of the time for Llama-3-8B on H100 with v0.5.3); prefill steps "
     "of their own (chunked prefill off by default); max_num_seqs 256; CUDA graphs captured for decode batches "
     "up to 256 (_BATCH_SIZES_TO_CAPTURE of vllm/worker/model_runner.py), eager beyond; the driver broadcasts "
     "each step's inputs to the other workers (broadcast_tensor_dict)"},
    {"sglang", 1, 1, 0, 1, 160, {256, 1024}, {2048, 8192}, NULL,
     "SGLang >= 0.4: tokenizer and detokenizer in their own processes and the overlap scheduler (SGLang v0.4 "
     "release blog, lmsys.org 2024-12-04); chunked prefill on by default; CUDA graphs up to 160 sequences "
     "(cuda_graph_max_bs)"},
    {"trt-llm", 0, 1, 0, 1, 1e9, {2048, 2048}, {8192, 8192}, NULL,
     "TensorRT-LLM: in-flight batching in the C++ executor, output handling off the step; chunked context off by default; "
     "trtllm-serve defaults max_batch_size 2048, max_num_tokens 8192"},
    {"tgi", 1, 0, 1, 1, 32, {128, 128}, {4096, 4096}, NULL,
     "Text Generation Inference v3: continuous batching by the Rust router, chunked prefill; the Python shard "
     "runs each step after the router's scheduling and returns every sequence's token; max_concurrent_requests 128; "
     "CUDA graphs for batches up to 32 (--cuda-graphs 1,2,4,8,16,32); the router sends each batch to every shard "
     "over gRPC"},
    {"hf-generate", 0, 0, 0, 0, 0, {1e9, 1e9}, {1e12, 1e12}, NULL,
     "Hugging Face transformers generate(): one static batch (every sequence runs until the batch ends), "
     "eager PyTorch (one host launch per kernel, no CUDA graphs), no paged KV cache"},
};

static const rt_profile *find_profile(const char *n)
{
    for (size_t i = 0; n && i < sizeof profiles / sizeof profiles[0]; i++)
        if (!strcmp(n, profiles[i].name)) return &profiles[i];
    return NULL;
}

/* ---- the serving model's state ---------------------------------------------------- */

typedef struct sv {
    jci_builder b;                       /* arena, diagnostic, assumptions, warnings (builder.h) */
    jc_serving *r;
    const jc_arch *a;
    const jc_device *dev;
    /* resolved */
    double G, tp, pp, ep, reps, B, P, O, R;
    double wb, wb_exp, kvb;              /* bytes per weight (dense, experts), per KV element */
    const wfmt *wf, *wf_exp;
    double peak, bw, mem, tdp, idle, vec_peak;
    jc_range idle_r;                     /* idle power with its range (the account's idle floor) */
    double n_total, n_active;
    int dequant;                         /* low-bit weights dequantised to the compute precision */
    /* coarse path (no architecture) */
    int coarse;
    const rt_profile *rt;                /* serving runtime profile */
    int cpu;                             /* the device is a CPU (a VM's slice): host memory, a CPU runtime */
    int cpu_engine;                      /* its CPU runtime's kernels run the matrix engine (RT_CPU) */
    const char *mem_what;                /* where a CPU's memory comes from (the fit refusal names it) */
    double max_seqs, step_tokens;        /* the runtime's limits on this device */
    /* constants: fitted (central values; their low/high are the spread across folds) and sourced */
    double mfu, mbu, t_kern, t_eager, t_host_seq, t_host_step, t_host_worker;
    double lat, tile_m, dq_ops, link_bw;
    jc_range band_t, band_e;             /* the folds' residual quantiles of time and J/token */
    jc_range memfrac;
    jci_power_model pm;                   /* the device power model (power.h) with the serving coefficients */
} sv;

/* A serving constant by its id alone (no device or runtime qualifier). */
static jc_status sconst(sv *s, const char *id, const char *label, jc_range *out)
{
    const jc_constant *c = NULL;
    jc_diag tmp;
    if (jc_hwdb_constant(s->b.db, id, &c, &tmp) != JC_OK)
        return jci_bld_fail(&s->b, JC_ERR_HWDB, "the hardware database has no constant '%s' (hwdb/serving.yaml, "
                            "hwdb/energy-model.yaml)", id);
    *out = jci_bld_const(&s->b, c->id, label, c);
    return JC_OK;
}

static jc_status sconst_c(sv *s, const char *id, const char *label, double *out)
{
    jc_range r;
    jc_status st = sconst(s, id, label, &r);
    if (!st) *out = r.central;
    return st;
}

/* ---- per-step work --------------------------------------------------------------- */

typedef jci_sv_work work;

double jci_sv_touched_experts(double E, double k, double n)
{
    if (E <= 0) return 0;
    double t = E * (1 - pow(1 - k / E, n));
    return t > E ? E : t;
}

static double touched(double E, double k, double n) { return jci_sv_touched_experts(E, k, n); }

double jci_sv_padded_tokens(double slots, double experts, double tile)
{
    if (!(experts > 0) || !(slots > 0)) return 0;
    if (!(tile > 1)) return slots;
    double m = slots / experts;                      /* tokens per touched expert (mean) */
    return experts * tile * ceil(m / tile - 1e-9);
}

double jci_sv_imbalance(double slots, double ep)
{
    if (!(ep > 1) || !(slots > 0)) return 1;
    double lambda = slots / ep;                      /* expert slots per device (mean) */
    double f = 1 + sqrt(2 * log(ep) / lambda);       /* expected maximum of ep Poisson(lambda) loads, Gaussian tail */
    return f > ep ? ep : f;
}

double jci_sv_part_time(const jci_power_model *pm, double t_c, double t_m, double flops, double bytes, double peak,
                        double bw, double *r)
{
    *r = 1;
    if (!(t_c > t_m)) return t_m;
    if (pm && t_c > 0)
        *r = jci_power_cap_clock(pm, peak > 0 ? flops / (t_c * peak) : 0, bw > 0 ? bytes / (t_c * bw) : 0, 1);
    return t_c / *r;
}

static double ctx_eff(int64_t window, double c) { return window > 0 && c > (double)window ? (double)window : c; }

/* Kernels of one layer per step: norm, QKV, rotary + cache write,
 * attention, output projection, norm, gate/up, activation, down (9); an
 * MoE layer replaces the last three by router, top-k, block alignment,
 * grouped gate/up, activation, grouped down and the weighted sum (13). */
enum { KERNELS_DENSE = 9, KERNELS_MOE = 13, KERNELS_STEP = 4 };

void jci_sv_step_work(const jc_arch *a, double wb, double wb_exp, double kvb, double n_tok, double n_seq,
                     double c, double n_logit, jci_sv_work *w)
{
    memset(w, 0, sizeof *w);
    double d = (double)a->hidden;
    double ex = touched((double)a->n_experts, (double)a->top_k, n_tok);
    w->experts = a->n_experts > 0 ? ex : 0;
    double pair = jci_arch_attn_flops_pair(a), kve = jci_arch_kv_elems_layer(a) * kvb;
    w->kernels = KERNELS_STEP;
    for (int64_t i = 0; i < a->n_layers; i++) {
        const jc_arch_layer *L = &a->layer[i];
        double at = jci_arch_attn_params(a);
        w->lin_flops += 2 * n_tok * at;
        w->w_bytes += at * wb;
        w->w_elems += at;
        if (L->moe) {
            double sh = jci_arch_shared_params(a), ep = jci_arch_expert_params(a);
            w->lin_flops += 2 * n_tok * ((double)a->top_k * ep + sh);
            w->w_bytes += sh * wb + ex * ep * wb_exp;
            w->w_elems += sh + ex * ep;
            w->exp_flops += 2 * n_tok * (double)a->top_k * ep;
            w->exp_bytes += ex * ep * wb_exp;
            w->exp_slots += n_tok * (double)a->top_k;
            w->perm_bytes += 8 * n_tok * (double)a->top_k * d;   /* permute + unpermute: bf16 rows written and read */
            w->moe_layers += 1;
            w->kernels += KERNELS_MOE;
        } else {
            double m = jci_arch_mlp_params(a, a->ffn);
            w->lin_flops += 2 * n_tok * m;
            w->w_bytes += m * wb;
            w->w_elems += m;
            w->kernels += KERNELS_DENSE;
        }
        double ce = ctx_eff(L->window, c);
        w->att_flops += n_tok * pair * ce;
        w->kv_bytes += n_seq * ce * kve + n_tok * kve;
    }
    if (w->moe_layers > 0) w->exp_slots /= w->moe_layers;   /* per MoE layer */
    /* embeddings (a gather of n_tok rows) and the LM head (bf16) */
    w->w_bytes += n_tok * d * 2 + (double)a->vocab * d * 2;
    w->lin_flops += 2 * n_logit * (double)a->vocab * d;
}

/* Attention FLOPs of n query tokens of a prefill chunk against a mean
 * prefix of c tokens, summed over the layers (windows cap the prefix). */
static double chunk_att_flops(const jc_arch *a, double n, double c)
{
    double f = 0, pair = jci_arch_attn_flops_pair(a);
    for (int64_t i = 0; i < a->n_layers; i++) f += n * pair * ctx_eff(a->layer[i].window, c);
    return f;
}

/* Work of one step of an ONNX decoder from its counts: per token the
 * counted FLOPs at context c (the line through the two counted contexts),
 * the weights a step reads once, and the cache (read at c, one token
 * written) from the past inputs' shapes. */
static void counted_work(const sv *s, double n_tok, double n_seq, double c, work *w)
{
    const jc_arch_counted *k = s->a->counted;
    memset(w, 0, sizeof *w);
    w->lin_flops = n_tok * k->decode_flops0;
    w->att_flops = n_tok * k->decode_flops_per_ctx * c;
    w->w_bytes = k->weight_elems_step * s->wb;
    w->w_elems = k->weight_elems_step;
    w->kv_bytes = (n_seq * c + n_tok) * k->kv_elems_per_token * s->kvb;
    w->kernels = KERNELS_STEP + (double)s->a->n_layers * KERNELS_DENSE;
}

/* Work of one step of a replica (the coarse path: 2 N FLOPs per token and
 * every active weight read once). */
static void step_work(const sv *s, double n_tok, double n_seq, double c, double n_logit, work *w)
{
    if (s->a && s->a->counted) {
        counted_work(s, n_tok, n_seq, c, w);
        return;
    }
    if (s->coarse) {
        memset(w, 0, sizeof *w);
        w->lin_flops = 2 * s->n_active * n_tok;
        w->w_bytes = s->n_active * s->wb;
        w->w_elems = s->n_active;
        return;
    }
    jci_sv_step_work(s->a, s->wb, s->wb_exp, s->kvb, n_tok, n_seq, c, n_logit, w);
}

/* Per-device time of one step of a pipeline stage and its achieved rates;
 * of them, the compute-bound kernel classes': t_cmp their time, t_cmp_r
 * their time x clock ratio under the power limit; t_cap the time of those
 * the limit slows (they draw the limit), t_cap_r what it would be at the
 * boost clock. */
typedef struct stept {
    double t, t_gpu, t_coll, t_kern, t_host, flops, bytes;
    double t_cmp, t_cmp_r, t_cap, t_cap_r;
} stept;

/* KV and attention split: heads across TP ranks, replicated where the
 * TP group exceeds the KV heads (and for MLA's shared latent). */
static double kv_split(const sv *s)
{
    if (s->coarse) return s->tp;
    if (s->a->mla) return 1;
    return s->tp < (double)s->a->kv_heads ? s->tp : (double)s->a->kv_heads;
}

/* One collective of `bytes` per device over the tensor-parallel group:
 * ring time at the link bandwidth plus the sourced small-message latency. */
static double allreduce_s(const sv *s, double bytes)
{
    return jci_allreduce_ring_s(s->tp, bytes, s->link_bw * 1e9, s->lat);
}

/* Collectives of one step of a stage: two all-reduces per dense layer
 * (attention and MLP outputs); an MoE layer under expert parallelism
 * replaces the MLP's by the dispatch and combine all-to-alls of its
 * routed token rows. */
static double collective_s(const sv *s, double n_tok, const work *w)
{
    if (s->tp <= 1 || s->coarse) return 0;
    double L = (double)s->a->n_layers / s->pp, moe = w->moe_layers / s->pp;
    double act = n_tok * (double)s->a->hidden * 2;   /* bf16 activations */
    double t = (2 * (L - moe) + moe) * allreduce_s(s, act);
    if (moe > 0) {
        if (s->ep > 1) {
            double a2a = w->exp_slots * (double)s->a->hidden * 2 * (s->ep - 1) / (s->ep * s->ep);
            t += moe * 2 * (a2a / (s->link_bw * 1e9) + s->lat);
        } else {
            t += moe * allreduce_s(s, act);
        }
    }
    return t;
}

/* One step of a stage: n_dec decoding sequences at context c and n_pre
 * prompt tokens of prefill chunks (mean prefix pc) in the same step.  The
 * roofline per class of kernel (dense projections, routed experts,
 * attention), the kernel floor, the collectives and the runtime's host
 * work (serial, or overlapped where the profile says so). */
static void step_time(const sv *s, double n_dec, double n_pre, double c, double pc, stept *o)
{
    work w;
    double n_tok = n_dec + n_pre;
    step_work(s, n_tok, n_dec, c, n_dec > 0 ? n_dec : 1, &w);
    if (n_pre > 0 && !s->coarse && !s->a->counted) w.att_flops += chunk_att_flops(s->a, n_pre, pc);
    else if (n_pre > 0 && s->a && s->a->counted) w.att_flops += n_pre * s->a->counted->decode_flops_per_ctx * pc;
    double g = s->tp * s->pp, F = s->peak * s->mfu, BW = s->bw * s->mbu;
    double e_el = w.exp_bytes > 0 ? w.exp_bytes / s->wb_exp : 0;
    double dq_el = (s->dequant & 1 ? w.w_elems - e_el : 0) + (s->dequant & 2 ? e_el : 0);
    double dq = dq_el > 0 ? s->dq_ops * dq_el * ceil(n_tok / s->tile_m) / (g * s->vec_peak) : 0;
    double ep_dev = s->ep > 1 ? s->ep : g;
    double imb = s->ep > 1 ? jci_sv_imbalance(w.exp_slots, s->ep) : 1;
    double pad = w.exp_flops > 0 ? jci_sv_padded_tokens(w.exp_slots, w.experts, s->tile_m) / w.exp_slots : 1;
    /* each class by its roofline; a compute-bound one at the clocks the
     * power limit leaves (jci_sv_part_time) */
    memset(o, 0, sizeof *o);
    struct { double tc, tm, f, b; } part[3] = {
        {(w.lin_flops - w.exp_flops) / (g * F) + dq, (w.w_bytes - w.exp_bytes) / (g * BW),
         (w.lin_flops - w.exp_flops) / g, (w.w_bytes - w.exp_bytes) / g},
        {w.exp_flops > 0 ? w.exp_flops * pad * imb / (ep_dev * F) : 0, w.exp_flops > 0 ? w.exp_bytes / (ep_dev * BW) : 0,
         w.exp_flops / ep_dev, w.exp_bytes / ep_dev},
        {w.att_flops / (g * F), w.kv_bytes / (kv_split(s) * s->pp * BW), w.att_flops / g, w.kv_bytes / (kv_split(s) * s->pp)}};
    double t_part[3];
    for (int i = 0; i < 3; i++) {
        double r;
        t_part[i] = jci_sv_part_time(&s->pm, part[i].tc, part[i].tm, part[i].f, part[i].b, s->peak, s->bw, &r);
        if (part[i].tc > part[i].tm) {
            o->t_cmp += t_part[i];
            o->t_cmp_r += t_part[i] * r;
        }
        if (r < 1) {
            o->t_cap += t_part[i];
            o->t_cap_r += t_part[i] * r;
        }
    }
    double t_lin = t_part[0], t_att = t_part[2];
    double t_exp = w.exp_flops > 0 ? t_part[1] + w.perm_bytes / (g * BW) : 0;
    o->t_kern = w.kernels / s->pp * s->t_kern;
    o->t_coll = collective_s(s, n_tok, &w);
    o->t_gpu = t_lin + t_exp + t_att + o->t_kern + o->t_coll;
    /* the runtime's host work on the step's path: the step's inputs sent
     * to each further worker of the replica; the engine loop's work per
     * step and per running sequence, unless the profile overlaps it with
     * the GPU's step; a step beyond the CUDA-graph sizes (or any prefill
     * step) launches every kernel from the host, and the GPU waits on the
     * launches when they take longer */
    double host_loop = s->rt->overlap ? 0 : s->t_host_step + n_dec * s->t_host_seq;
    int eager = n_pre > 0 && n_dec == 0 ? 1 : n_dec > s->rt->graphs;
    double launch = eager ? w.kernels / s->pp * s->t_eager : 0;
    o->t_host = (s->rt->send_inputs ? (s->tp * s->pp - 1) * s->t_host_worker : 0) + host_loop + launch;
    if (eager && launch > o->t_gpu) {   /* launch-bound: the launches, not the clocks, set the time */
        o->t_gpu = launch;
        o->t_cmp_r = o->t_cmp;
        o->t_cap = o->t_cap_r = 0;
    }
    o->t = o->t_gpu + o->t_host - launch;
    o->flops = (w.lin_flops + w.att_flops) / g;
    o->bytes = (w.w_bytes - w.exp_bytes + w.perm_bytes) / g + w.exp_bytes / ep_dev + w.kv_bytes / (kv_split(s) * s->pp);
}

/* The model's central case: times and powers. */
typedef struct corner {
    double t_pre, t_step, ttft, itl, tps_rep, T;     /* s; tokens/s per replica; workload s */
    double p_pre, p_dec, p_avg;                      /* W per device */
    double e_dev_share_pre, t_share_pre, uf, ub, upre, gpu_share;
    double pre_flops, dec_flops_tok, dec_bytes_step, coll;
    double cmp_t, cmp_tr;                            /* the round's compute-bound kernel time, x its clock ratio */
} corner;

/* Prefill FLOPs of one request (projections and the causal attention). */
static double prefill_flops(const sv *s)
{
    if (s->a && s->a->counted) return s->a->counted->prefill_flops;
    work wp;
    step_work(s, s->P, 0, 0, 1, &wp);
    double att = 0, P = s->P;
    if (!s->coarse) {
        double pair = jci_arch_attn_flops_pair(s->a);
        for (int64_t i = 0; i < s->a->n_layers; i++) {
            int64_t w = s->a->layer[i].window;
            double full = P * (P + 1) / 2;
            if (w > 0 && P > (double)w) full = (double)w * ((double)w + 1) / 2 + (P - (double)w) * (double)w;
            att += pair * full;
        }
    }
    return wp.lin_flops + att;
}

/* Power of a device over a step: busy while its kernels run, at the
 * step's utilisations at the boost clock, except the kernels the power
 * limit slows, which draw the limit (power.h); launch-bound while it
 * waits on the runtime's host work.  *uf, *ub: the busy time's
 * utilisations. */
static double step_power(const sv *s, const stept *st, double *uf, double *ub)
{
    double busy = st->t_gpu < st->t ? st->t_gpu : st->t;
    *uf = busy > 0 ? st->flops / (busy * s->peak) : 0;
    *ub = busy > 0 ? st->bytes / (busy * s->bw) : 0;
    double cap = fmin(st->t_cap, busy);
    double at_boost = busy - cap + (cap > 0 ? st->t_cap_r : 0);   /* the busy time at the boost clock */
    double p_busy = jci_power_device_w(&s->pm, at_boost > 0 ? st->flops / (at_boost * s->peak) : 0,
                                       at_boost > 0 ? st->bytes / (at_boost * s->bw) : 0, JCI_POWER_BUSY, 1);
    if (cap > 0) p_busy = (cap * s->pm.limit_w + (busy - cap) * p_busy) / busy;
    double share = st->t > 0 ? busy / st->t : 1;
    return share * p_busy + (1 - share) * jci_power_device_w(&s->pm, 0, 0, JCI_POWER_LAUNCH, 1);
}

enum { CTX_SAMPLES = 16 };

static void run_central(const sv *s, corner *k)
{
    memset(k, 0, sizeof *k);
    double P = s->P, O = s->O, B = s->B, pp = s->pp, mb = B / pp;
    k->pre_flops = prefill_flops(s);
    /* prefill tokens a decode step carries (chunked) or a prefill step
     * batches (not chunked): in the steady state B/O requests start per
     * step; the runtime's token budget caps a step */
    double budget = s->step_tokens - mb;
    if (budget < 1) budget = 1;
    double steps = O, pre_tok = 0, n_pre_steps = 0, pre_batch = 0;
    if (s->rt->chunked) {
        pre_tok = mb * P / O;
        if (pre_tok > budget) {
            steps = mb * P / budget;
            pre_tok = budget;
        }
    } else if (s->rt->continuous) {
        pre_batch = fmax(1, fmin(mb / O, fmax(1, s->step_tokens / P)));   /* requests per prefill step */
        n_pre_steps = mb / pre_batch;
    } else {
        pre_batch = mb;            /* a static batch: every prompt in one prefill */
        n_pre_steps = 1;
    }
    /* decode steps over the growing context (midpoints of CTX_SAMPLES slices) */
    double sum_t = 0, sum_e = 0, sum_f = 0, sum_b = 0, sum_c = 0, sum_busy = 0, dec_t = 0, dec_e = 0;
    for (int i = 0; i < CTX_SAMPLES; i++) {
        stept st;
        double uf, ub, ctx = P + (i + 0.5) * O / CTX_SAMPLES;
        if (pre_tok > 0) {   /* the same step without its prefill chunk: the chunk's marginal share */
            step_time(s, mb, 0, ctx, 0, &st);
            dec_t += st.t;
            dec_e += st.t * step_power(s, &st, &uf, &ub);
        }
        step_time(s, mb, pre_tok, ctx, P / 2, &st);
        k->cmp_t += st.t_cmp * pp * steps / CTX_SAMPLES;
        k->cmp_tr += st.t_cmp_r * pp * steps / CTX_SAMPLES;
        sum_t += st.t;
        sum_e += st.t * step_power(s, &st, &uf, &ub);
        sum_f += st.flops;
        sum_b += st.bytes;
        sum_c += st.t_coll;
        sum_busy += fmin(st.t_gpu, st.t);
    }
    double t_stage = sum_t / CTX_SAMPLES;
    k->t_step = t_stage * pp * steps / O;          /* per output token of a sequence */
    k->coll = sum_c / CTX_SAMPLES * pp;
    k->gpu_share = sum_busy / sum_t;
    k->uf = sum_f / sum_busy / s->peak;
    k->ub = sum_b / sum_busy / s->bw;
    k->p_dec = sum_e / sum_t;
    double e_dec = O * k->t_step * k->p_dec;
    /* prefill steps of their own */
    double e_pre = 0, t_pre_all = 0;
    if (n_pre_steps > 0) {
        stept st;
        double uf, ub;
        step_time(s, 0, pre_batch * P, 0, P / 2, &st);
        k->cmp_t += st.t_cmp * pp * n_pre_steps;
        k->cmp_tr += st.t_cmp_r * pp * n_pre_steps;
        k->t_pre = st.t * pp;
        k->p_pre = step_power(s, &st, &uf, &ub);
        k->upre = uf;
        t_pre_all = n_pre_steps * k->t_pre;
        e_pre = t_pre_all * k->p_pre;
    } else {
        stept st;
        double uf, ub;
        step_time(s, 0, fmin(P, budget), 0, P / 2, &st);   /* a first chunk alone: the TTFT's floor */
        k->t_pre = st.t * pp * ceil(P / budget);
        k->p_pre = step_power(s, &st, &uf, &ub);
        k->upre = uf;
    }
    double round = O * k->t_step + t_pre_all;      /* B/pp sequences of a stage start and finish */
    k->itl = round / O;
    k->ttft = k->t_pre + k->t_step;
    k->tps_rep = B * O / round;
    k->T = s->R / s->reps * round / B;
    work wd;
    step_work(s, B, B, P + O / 2, B, &wd);
    k->dec_flops_tok = (wd.lin_flops + wd.att_flops) / B;
    k->dec_bytes_step = wd.w_bytes + wd.kv_bytes;
    k->p_avg = (e_pre + e_dec) / round;
    if (pre_tok > 0) {   /* chunked: the marginal time and energy of the chunks in the decode steps */
        double f = O / steps;   /* the samples are per step; the round has `steps` of them */
        k->e_dev_share_pre = fmax(0, 1 - dec_e * f / sum_e);
        k->t_share_pre = fmax(0, 1 - dec_t * f / sum_t);
    } else {
        k->e_dev_share_pre = e_pre / (e_pre + e_dec);
        k->t_share_pre = t_pre_all / round;
    }
}

/* The range's corners: the central case scaled by the folds' residual
 * quantiles of time (band_t) and of energy (band_e); SC_LOW the
 * low-energy corner (the fastest), SC_HIGH the high. */
static void corner_of(const sv *s, const corner *c, int sc, corner *k)
{
    *k = *c;
    if (sc == SC_CENTRAL) return;
    double ft = jci_pick(s->band_t, sc, JCI_RAISES), fe = jci_pick(s->band_e, sc, JCI_RAISES);
    k->t_pre *= ft;
    k->t_step *= ft;
    k->ttft *= ft;
    k->itl *= ft;
    k->tps_rep /= ft;
    k->T *= ft;
    k->p_pre *= fe / ft;
    k->p_dec *= fe / ft;
    k->p_avg *= fe / ft;
}

/* ---- resolve ---------------------------------------------------------------------- */

static jc_status resolve_formats(sv *s)
{
    const jc_job *j = s->b.job;
    const jc_arch *a = s->a;
    const char *wname = j->weights ? j->weights : a && a->weight_format ? a->weight_format : "bf16";
    s->wf = find_fmt(wname);
    if (!s->wf)
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--weights must be one of bf16 fp16 fp8 int8 int4 mxfp4 nvfp4 (got '%s')", wname);
    s->wf_exp = s->wf;
    if (!j->weights && a && a->expert_format) s->wf_exp = find_fmt(a->expert_format);
    if (!s->wf_exp) s->wf_exp = s->wf;
    s->wb = s->wf->bytes;
    s->wb_exp = s->wf_exp->bytes;
    /* weight-only low-bit formats are dequantised to the compute precision in the GEMM */
    s->dequant = (s->wf->compute == JC_PREC_BF16 && s->wf->bytes < 1 ? 1 : 0) |
                 (s->wf_exp->compute == JC_PREC_BF16 && s->wf_exp->bytes < 1 ? 2 : 0);
    const char *src = j->weights ? "--weights"
                    : a && (a->weight_format || a->expert_format)
                        ? jci_bld_str(&s->b, "%s (%s)", a->path, a->format_note ? a->format_note : "torch_dtype")
                        : "bf16: the config names no format (give --weights)";
    jci_bld_assume(&s->b, "serving.weights", jci_bld_str(&s->b, "stored weights: %s, %s", s->wf->name, s->wf->how), R1(s->wb),
           "B/param", j->weights ? JC_ORIGIN_USER : a && a->weight_format ? JC_ORIGIN_MODEL : JC_ORIGIN_DEFAULT, src);
    if (s->wf_exp != s->wf)
        jci_bld_assume(&s->b, "serving.expert_weights", jci_bld_str(&s->b, "stored expert weights: %s, %s", s->wf_exp->name, s->wf_exp->how),
               R1(s->wb_exp), "B/param", JC_ORIGIN_MODEL, src);
    const jc_arch_counted *ck = a ? a->counted : NULL;
    const char *kv = j->kv_format ? j->kv_format : ck ? ck->kv_dtype : "bf16";
    if (!jci_strcasecmp(kv, "bf16") || !jci_strcasecmp(kv, "fp16")) s->kvb = 2;
    else if (!jci_strcasecmp(kv, "fp8")) s->kvb = 1;
    else if (!jci_strcasecmp(kv, "fp32")) s->kvb = 4;
    else return jci_bld_fail(&s->b, JC_ERR_USAGE, "--kv-format must be bf16, fp16 or fp8 (got '%s')", kv);
    s->r->kv_format = jci_arena_strdup(s->b.a, kv);
    jci_bld_assume(&s->b, "serving.kv_format", jci_bld_str(&s->b, "KV-cache element: %s", kv), R1(s->kvb), "B",
           j->kv_format ? JC_ORIGIN_USER : ck ? JC_ORIGIN_MODEL : JC_ORIGIN_DEFAULT,
           j->kv_format ? "--kv-format" : ck ? jci_bld_str(&s->b, "%s: the past inputs' dtype", ck->model)
                                          : "bf16 unless --kv-format");
    s->r->weights = s->wf->name;
    s->r->expert_weights = s->wf_exp != s->wf ? s->wf_exp->name : NULL;
    /* compute precision: the format's, at the device's peak */
    jc_precision p = s->wf->compute;
    if (!s->dev->peak_tflops[p].present) {
        jc_precision q = s->dev->peak_tflops[JC_PREC_BF16].present ? JC_PREC_BF16 : JC_PREC_FP16;
        jci_bld_warn(&s->b, "serving: %s has no published %s peak: the matrix work runs at %s", s->dev->id,
             jc_precision_name(p), jc_precision_name(q));
        p = q;
    }
    if (!s->dev->peak_tflops[p].present)
        return jci_bld_fail(&s->b, JC_ERR_NOTFOUND, "device %s has no published bf16 or fp16 peak", s->dev->id);
    bool acc32;
    const jc_sourced *pk = jci_device_peak(s->dev, p, 0, &acc32);
    s->peak = jci_bld_assume(&s->b, "device.peak_flops", jci_bld_str(&s->b, "dense peak, %s%s (implied by the %s weights)",
                     jc_precision_name(p), acc32 ? " with fp32 accumulate" : "", s->wf->name), R1(pk->value), "TFLOP/s",
                     JC_ORIGIN_HWDB, jci_bld_cite(&s->b, pk)).central * 1e12;
    s->r->compute_precision = jc_precision_name(p);
    if (s->cpu) {
        int bits = p == JC_PREC_INT8 || p == JC_PREC_FP8 ? 8 : p == JC_PREC_FP32 ? 32 : 16;
        double pk2 = s->peak;
        const char *unit = jci_cpu_matrix_unit(&s->b, s->dev, bits, s->cpu_engine, &pk2);
        s->peak = jci_bld_assume(&s->b, "cpu.matrix_unit", jci_bld_str(&s->b, "the unit the runtime's matrix kernels run "
                                 "on, all %d cores: %s", s->dev->cores, unit), R1(pk2 / 1e12), "TFLOP/s",
                                 JC_ORIGIN_DERIVED, "runtimes.def RT_CPU: the CPU runtime's matrix engine or vector units "
                                 "(cpu_runtime.c, the graph estimate's rule)").central * 1e12;
    }
    if (s->dequant) {
        jc_status st = sconst_c(s, "serving_dequant_ops", "dequantisation: vector operations per low-bit weight per tile of tokens",
                                &s->dq_ops);
        if (st) return st;
        const jc_sourced *v = &s->dev->peak_tflops[JC_PREC_FP32];
        if (v->present)
            s->vec_peak = jci_bld_assume(&s->b, "serving.vector_peak", "vector (non-matrix) fp32 peak that dequantises the weights",
                                         R1(v->value), "TFLOP/s", JC_ORIGIN_HWDB, jci_bld_cite(&s->b, v)).central * 1e12;
        else
            s->vec_peak = jci_bld_assume(&s->b, "serving.vector_peak", "vector peak that dequantises the weights (no fp32 peak "
                                         "published: 1/16 of the dense matrix peak)", R1(s->peak / 16e12), "TFLOP/s",
                                         JC_ORIGIN_DERIVED, "the dense peak / 16 (tensor cores to CUDA cores, Ampere and Hopper)").central * 1e12;
    }
    return JC_OK;
}

/* The device's idle power: its published figure, else (as the estimate's
 * energy stage) the hwdb's idle fraction of its TDP. */
static jc_status resolve_idle(sv *s, const jc_device *dev)
{
    if (dev->idle_w.present) {
        s->idle_r = jci_sourced_range(&dev->idle_w);
        s->idle = jci_bld_assume(&s->b, "device.idle_w", "device idle power", R1(dev->idle_w.value), "W", JC_ORIGIN_HWDB,
                                 jci_bld_cite(&s->b, &dev->idle_w)).central;
        return JC_OK;
    }
    jc_range f;
    jc_status st = sconst(s, "idle_fraction_of_tdp_gpu", "device idle power as a fraction of its TDP (no published idle)", &f);
    if (st) return st;
    s->idle_r = R3(f.low * s->tdp, f.central * s->tdp, f.high * s->tdp);
    s->idle = jci_bld_assume(&s->b, "device.idle_w", "device idle power (no published figure)", R1(f.central * s->tdp),
                             "W", JC_ORIGIN_DERIVED, "TDP x idle_fraction_of_tdp_gpu").central;
    return JC_OK;
}

/* A CPU's memory: the instance's (a CPU-only --host), the --host server's
 * per socket where its CPU is this one, else the CPU's own memory_gb where
 * the database has one; refused otherwise (the weights and KV cache live
 * in host memory, whose size only the host gives). */
static jc_status cpu_memory(sv *s, const jc_device *cpu, const jc_host *host, const jci_vm *vm)
{
    if (host && host->memory_gb.present && (vm && vm->host ? vm->host == host : host->cpu == cpu)) {
        int n = (vm && vm->host) || host->n_cpu < 1 ? 1 : host->n_cpu;
        s->mem_what = jci_bld_str(&s->b, "the host memory of %s (%s GB%s)", host->id, FMT_N(host->memory_gb.value / n),
                                  n > 1 ? jci_bld_str(&s->b, " per socket of %d", n) : "");
        s->mem = jci_bld_assume(&s->b, "device.memory_gb", jci_bld_str(&s->b, "memory the CPU holds the weights and KV "
                                "cache in: %s (GB: 2^30 bytes each)", s->mem_what), R1(host->memory_gb.value / n), "GB",
                                JC_ORIGIN_HWDB, jci_bld_cite(&s->b, &host->memory_gb)).central * GIB;
        return JC_OK;
    }
    if (cpu->memory_gb.present) {
        s->mem_what = jci_bld_str(&s->b, "the most memory %s takes (%s GB)", cpu->id, FMT_N(cpu->memory_gb.value));
        s->mem = jci_bld_assume(&s->b, "device.memory_gb", "memory the CPU holds the weights and KV cache in: the most "
                                "it takes (the database's memory_gb of the CPU; no --host gives its own)",
                                R1(cpu->memory_gb.value), "GB", JC_ORIGIN_HWDB,
                                jci_bld_cite(&s->b, &cpu->memory_gb)).central * GIB;
        return JC_OK;
    }
    return jci_bld_fail(&s->b, JC_ERR_NOTFOUND, "CPU %s: generation on a CPU keeps the weights and KV cache in the host's "
                        "memory, and the database has no memory size for this CPU%s: name the server or CPU instance "
                        "with --host (its memory)", cpu->id,
                        host ? jci_bld_str(&s->b, " (host %s is not built on it or has no memory_gb)", host->id) : "");
}

/* The CPU's runtime profile (--serving-runtime on a CPU names a CPU
 * runtime of runtimes.def; default ipex) with the hf-generate profile's
 * step (one static batch, eager): Intel's MLPerf GPT-J harness runs
 * transformers' generate() under IPEX. */
static jc_status cpu_runtime(sv *s)
{
    const jc_job *j = s->b.job;
    const char *n = j->serving_runtime ? j->serving_runtime : "ipex";
    jci_runtime r = jci_runtime_parse(n);
    int cal = 1;
    if (r == JCI_RUNTIME_COUNT || !jci_runtime_fits(r, JC_DEVICE_CPU, 0)) {
        char buf[512];
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--serving-runtime on a CPU (%s) names a CPU runtime profile: %s "
                            "(got '%s'; default ipex)", s->dev->id, jci_runtime_list(JC_DEVICE_CPU, 0, buf, sizeof buf), n);
    }
    s->cpu_engine = jci_cpu_runtime_engine(r, &cal);
    jci_bld_assume(&s->b, "serving.cpu_runtime", jci_bld_str(&s->b, "CPU runtime profile: %s (%s), all %d physical "
                   "cores, in transformers' generate() loop (the hf-generate profile's step)", jci_runtime_name(r),
                   jci_runtime_software(r), s->dev->cores), R1((double)r), "", j->serving_runtime ? JC_ORIGIN_USER
                   : JC_ORIGIN_DEFAULT, j->serving_runtime ? "--serving-runtime" : "ipex: Intel's MLPerf CPU submissions' "
                   "PyTorch extension (give --serving-runtime)");
    if (!cal)
        jci_bld_warn(&s->b, "serving: --serving-runtime %s is uncalibrated: no measured rows; its time is the serving "
                     "model's on the CPU's peaks and bandwidth", jci_runtime_name(r));
    s->rt = find_profile("hf-generate");
    return JC_OK;
}

/* The hardware: a device (or a host's accelerator), or a CPU: a named CPU
 * (its --vcpus share) or a CPU-only instance (vm.c's slice of its CPU). */
static jc_status find_hardware(sv *s, const jc_device **devp, const jc_host **hostp)
{
    const jc_job *j = s->b.job;
    const jc_device *dev = NULL, *d2 = NULL;
    const jc_host *host = NULL;
    jci_vm *vm = NULL;
    jc_status st;
    const char *name = j->device ? j->device : j->host;
    if (!name) return jci_bld_fail(&s->b, JC_ERR_USAGE, "no hardware: give --device ID (joulecast hw list shows them)");
    if ((st = jc_hwdb_hardware(s->b.db, name, &dev, &host, s->b.d))) return st;
    if (dev && dev->kind == JC_DEVICE_CPU && j->host && (st = jc_hwdb_hardware(s->b.db, j->host, &d2, &host, s->b.d)))
        return st;
    if (!dev && host && !host->accel && host->n_accel < 1 && host->cpu) {   /* a CPU-only instance */
        if ((st = jci_vm_resolve(&s->b, host, NULL, NAN, 0, &vm))) return st;
        dev = &vm->slice;
    } else if (dev && dev->kind == JC_DEVICE_CPU && given(j->vcpus)) {
        if ((st = jci_vm_resolve(&s->b, NULL, dev, j->vcpus, 0, &vm))) return st;
        dev = &vm->slice;
    } else if (given(j->vcpus)) {
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--vcpus takes a share of a CPU named by --device");
    }
    if (!dev && host) dev = host->accel;
    if (!dev) return jci_bld_fail(&s->b, JC_ERR_USAGE, "'%s' names no accelerator or CPU: give --device", name);
    s->dev = dev;
    s->cpu = dev->kind == JC_DEVICE_CPU;
    if (s->cpu && (st = cpu_memory(s, vm ? vm->cpu : dev, host, vm))) return st;
    *devp = dev;
    *hostp = host;
    return JC_OK;
}

static jc_status resolve_device(sv *s)
{
    const jc_job *j = s->b.job;
    const jc_device *dev = NULL;
    const jc_host *host = NULL;
    jc_status st;
    if ((st = find_hardware(s, &dev, &host))) return st;
    if (!dev->memory_bw_gbs.present || !(s->cpu || dev->memory_gb.present) || !dev->tdp_w.present)
        return jci_bld_fail(&s->b, JC_ERR_NOTFOUND, "device %s lacks a published %s", dev->id,
                            s->cpu ? "memory bandwidth or TDP" : "memory size, bandwidth or TDP");
    if (s->cpu && dev->cores < 1)
        return jci_bld_fail(&s->b, JC_ERR_HWDB, "CPU %s has no core count in the database", dev->id);
    /* a CPU's: its channels x speed (a VM's slice: its vCPUs' share, vm.c) */
    s->bw = jci_bld_assume(&s->b, "device.memory_bw", s->cpu ? "memory bandwidth (the CPU's channels x speed; a VM: its "
                   "vCPUs' share)" : "memory bandwidth", R1(dev->memory_bw_gbs.value), "GB/s",
                   JC_ORIGIN_HWDB, jci_bld_cite(&s->b, &dev->memory_bw_gbs)).central * 1e9;
    /* a DRAM capacity's "GB" is binary (JEDEC): 80 GB is 80 x 2^30 bytes,
     * the total the runtime sees (torch.cuda.mem_get_info) and takes its
     * --gpu-memory-utilization fraction of */
    if (!s->cpu)
        s->mem = jci_bld_assume(&s->b, "device.memory_gb", "device memory (GB of DRAM capacity: 2^30 bytes each, JEDEC)",
                        R1(dev->memory_gb.value), "GB", JC_ORIGIN_HWDB, jci_bld_cite(&s->b, &dev->memory_gb)).central * GIB;
    s->tdp = dev->tdp_w.value;
    jci_bld_assume(&s->b, "device.tdp_w", "device TDP", R1(s->tdp), "W", JC_ORIGIN_HWDB, jci_bld_cite(&s->b, &dev->tdp_w));
    if ((st = resolve_idle(s, dev))) return st;
    if (s->cpu) {
        if ((st = cpu_runtime(s))) return st;
    } else {
        s->rt = find_profile(j->serving_runtime ? j->serving_runtime : "vllm");
    }
    if (!s->rt)
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--serving-runtime must be one of vllm (default), vllm-0.5, sglang, trt-llm, "
                            "tgi, hf-generate (got '%s')", j->serving_runtime);
    int big = s->mem >= 70 * GIB;   /* vLLM's rule: total memory of 70 GiB and more */
    s->max_seqs = s->rt->max_seqs[big];
    s->step_tokens = s->rt->step_tokens[big];
    jci_bld_assume(&s->b, "serving.runtime", jci_bld_str(&s->b, "serving runtime profile: %s (%s; %s prefill; output processing %s; %s)%s",
           s->rt->name, s->rt->continuous ? "continuous batching" : "one static batch",
           s->rt->chunked ? "chunked" : "separate", s->rt->overlap ? "off the step" : "in the step",
           s->rt->graphs > 0 ? jci_bld_str(&s->b, "CUDA graphs up to %s sequences", FMT_N(s->rt->graphs)) : "eager launches",
           s->rt->calibrated ? jci_bld_str(&s->b, "; calibrated on %s", s->rt->calibrated)
                             : "; no calibration rows: its mechanisms with the constants fitted on vLLM"),
           R1((double)(s->rt - profiles)), "", j->serving_runtime ? JC_ORIGIN_USER : JC_ORIGIN_DEFAULT, s->rt->doc);
    if (!s->rt->calibrated)
        jci_bld_warn(&s->b, "serving: the %s profile has no calibration rows: its step differs from vLLM's by the mechanisms "
                     "of its profile only (docs/workflow-serving.md)", s->rt->name);
    if (s->rt->continuous)
        jci_bld_assume(&s->b, "serving.step_tokens", jci_bld_str(&s->b, "the runtime's limits on %s: %s running sequences, %s tokens "
               "per step", s->dev->id, FMT_N(s->max_seqs), FMT_N(s->step_tokens)), R1(s->step_tokens), "tokens", JC_ORIGIN_DEFAULT,
               big ? "the profile's defaults for devices of 70 GB and more" : "the profile's defaults for devices under 70 GB");
#define SC(ID, LABEL, DST) do { if ((st = sconst_c(s, ID, LABEL, &s->DST))) return st; } while (0)
    SC("serving_gemm_mfu", "matrix kernels: achieved fraction of the dense peak", mfu);
    SC("serving_stream_mbu", "weight and KV streaming: achieved fraction of the memory bandwidth", mbu);
    SC("serving_kernel_floor_s", "time a kernel costs beyond its roofline (launch gap, ramp, tail)", t_kern);
    /* the one eager-launch constant of every path (sourced, not fitted: the
     * serving rows do not inform it, docs/workflow-serving.md) */
    SC("runtime_eager_launch_s", "host time to launch one kernel outside a CUDA graph (eager PyTorch)", t_eager);
    SC("serving_host_seq_s", "runtime host time per running sequence per step in the engine's own loop (scheduling, "
       "input preparation, sampling bookkeeping), on the step's path where the runtime does not overlap it", t_host_seq);
    SC("serving_host_step_s", "runtime host time per step in the engine's own loop whatever the batch (scheduler pass, "
       "input tensors, sampler launch), on the step's path where the runtime does not overlap it", t_host_step);
    SC("serving_host_worker_s", "runtime host time per step per further worker of a replica (the step's inputs sent to it)",
       t_host_worker);
    SC("serving_allreduce_latency_s", "latency of one small all-reduce over the tensor-parallel group", lat);
    SC("serving_moe_tile_tokens", "grouped-GEMM tile rows: tokens of each expert padded to a multiple", tile_m);
#undef SC
    if ((st = sconst(s, "serving_range_time", "range of the serving time: the folds' residual quantiles", &s->band_t))) return st;
    if ((st = sconst(s, "serving_range_energy", "range of the J per output token: the folds' residual quantiles", &s->band_e)))
        return st;
    /* device power: the one model of power.h for every path, with the
     * estimate's constants (one set for every device): P = idle + (TDP - idle)
     * (1 - exp(-(k_c u_c + k_m u_m))) + the DRAM's energy per byte while
     * computing, idle + (TDP - idle) a_launch while the runtime runs, at most
     * the power limit (--power-limit, else the device's); where the die's
     * draw at its boost clock exceeds the limit, compute-bound kernel
     * classes run at the clocks it leaves (jci_sv_part_time) */
    memset(&s->pm, 0, sizeof s->pm);
    if ((st = jci_power_setup(&s->b, s->b.db, dev, s->bw, R1(s->idle), R1(s->tdp), j->power_limit_w, 1, &s->pm)))
        return st;
    for (int i = 0; i < JCI_PW_N; i++) s->pm.k[i] = R1(s->pm.k[i].central);   /* the range is the folds' (band_e) */
    if ((st = sconst(s, "serving_memory_fraction", "fraction of device memory the runtime may use", &s->memfrac)))
        return st;
    return JC_OK;
}

/* Bytes per device a runtime keeps beside the weights for its forward
 * pass: vLLM profiles one forward pass over its step's token budget
 * (max_num_batched_tokens) and reserves the peak before it sizes the KV
 * cache (vllm/v1/worker/gpu_worker.py determine_available_memory): the
 * largest layer's live activations of those tokens (the residual stream
 * in and out, and the MLP's up (and gate) outputs, the widest tensor of a
 * layer, split over the tensor-parallel group), in 16 bits, and the fp32
 * logits of max_num_seqs sequences (the sampler's).  A runtime without
 * continuous batching (one static batch, no token budget) holds those of
 * its b sequences' prefill (b x the prompt tokens) and their b logits.  0
 * for a coarse model (no architecture). */
static double act_need(const sv *s, double tp, double b)
{
    const jc_arch *a = s->a;
    if (s->coarse || !a) return 0;
    double f = (double)a->ffn, moe = (double)(a->top_k * a->expert_ffn + a->shared_ffn);
    if (moe > f) f = moe;
    double per_tok = 2 * (2.0 * (double)a->hidden + (a->gated ? 2.0 : 1.0) * f / tp);
    double tokens = s->rt->continuous ? s->step_tokens : b * s->P;
    double seqs = s->rt->continuous ? fmin(s->max_seqs, s->step_tokens) : b;
    return tokens * per_tok + seqs * (double)a->vocab * 4;
}

/* Memory per device of a replica with tp x pp devices and b sequences:
 * the weights, the forward pass's activations (act_need) and the KV
 * cache. */
static double mem_need(const sv *s, double tp, double b, double *w_dev, double *kv_dev)
{
    double wtot = s->r->weight_bytes;
    double kvsplit = s->coarse ? tp : s->a->mla ? 1 : (tp < (double)s->a->kv_heads ? tp : (double)s->a->kv_heads);
    double per_seq = 0;
    if (!s->coarse)
        for (int64_t i = 0; i < s->a->n_layers; i++)
            per_seq += ctx_eff(s->a->layer[i].window, s->P + s->O / 2) * jci_arch_kv_elems_layer(s->a) * s->kvb;
    *w_dev = wtot / (tp * s->pp);
    *kv_dev = b * per_seq / (kvsplit * s->pp);
    return *w_dev + act_need(s, tp, b) + *kv_dev;
}

/* The default tensor-parallel size: the smallest power of two (a divisor
 * of --count / pp when --count is given, at most maxg) at which the
 * weights and the KV cache of the asked sequences fit; when none holds
 * them all, the smallest at which the weights and one sequence fit (the
 * KV memory then caps the batch, with a warning).  *all_fit says which;
 * 0: not even the weights fit. */
static double default_tp(const sv *s, double maxg, int count_given, double cap, int *all_fit)
{
    double wdev, kvdev, first = 0;
    *all_fit = 0;
    for (double t = 1; t <= maxg && t <= 1024; t *= 2) {
        if (count_given && fmod(maxg, t) != 0) continue;
        if (mem_need(s, t, s->B, &wdev, &kvdev) <= cap) {
            *all_fit = 1;
            return t;
        }
        if (!first && mem_need(s, t, 1, &wdev, &kvdev) <= cap) first = t;
    }
    return first;
}

/* A given --tp must split the model's heads as tensor parallelism does
 * (vLLM's rule): the attention heads evenly, the KV heads evenly or each
 * KV head replicated over a whole number of ranks, and, for a mixture of
 * experts sharded over the tp group (no --ep), the experts evenly. */
static jc_status tp_divides(sv *s)
{
    const jc_arch *a = s->a;
    int64_t tp = (int64_t)s->tp;
    if (!a || tp <= 1) return JC_OK;
    if (a->heads > 0 && a->heads % tp)
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--tp %lld does not divide the model's %lld attention heads (%s): "
                            "give a --tp that does", (long long)tp, (long long)a->heads, a->path);
    if (!a->mla && a->kv_heads > 0 && (tp < a->kv_heads ? a->kv_heads % tp : tp % a->kv_heads))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--tp %lld cannot split the model's %lld KV heads (%s): it must divide "
                            "them, or be a multiple of them (each KV head replicated)", (long long)tp,
                            (long long)a->kv_heads, a->path);
    if (a->n_experts > 0 && !given(s->b.job->ep) && a->n_experts % tp)
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--tp %lld does not divide the model's %lld experts (%s; the experts "
                            "are sharded over the tp group): give a --tp that does, or --ep", (long long)tp,
                            (long long)a->n_experts, a->path);
    return JC_OK;
}

static jc_status resolve_parallel(sv *s)
{
    const jc_job *j = s->b.job;
    jc_status st;
    /* --pp, --tp, --ep and --count are whole numbers >= 1 (jc_job_check) */
    s->pp = given(j->pp) ? j->pp : 1;
    double cap = s->mem * s->memfrac.central;
    double wdev, kvdev;
    int tp_all_fit = 0;
    if (given(j->tp)) {
        s->tp = j->tp;
        if ((st = tp_divides(s))) return st;
    } else {
        double maxg = !isnan(j->count) ? j->count / s->pp : s->cpu ? 1 : 1024;   /* a CPU: one host unless --count */
        s->tp = default_tp(s, maxg, !isnan(j->count), cap, &tp_all_fit);
        if (!s->tp) {
            double need = ceil(s->r->weight_bytes / (cap * s->pp));
            return jci_bld_fail(&s->b, JC_ERR_RANGE, "the %s weights (%.1f GB) do not fit %s%s x %s (%.0f GB usable each at "
                        "memory fraction %.2f%s%s): %s", s->wf->name, s->r->weight_bytes / 1e9,
                        !isnan(j->count) ? "" : "up to ", FMT_N(!isnan(j->count) ? j->count : s->cpu ? 1 : 1024 * s->pp),
                        s->dev->id, cap / 1e9, s->memfrac.central, s->mem_what ? " of " : "",
                        s->mem_what ? s->mem_what : "",
                        s->cpu && isnan(j->count)   /* a CPU's memory is its host's: a larger host, not more devices */
                            ? jci_bld_str(&s->b, "%.0f times that memory is needed (a host with more memory, or a "
                                          "smaller --weights format)", need < 1 ? 1 : need)
                            : jci_bld_str(&s->b, "at least %.0f devices are needed (give --count, --tp or a smaller "
                                          "--weights format)", need < 1 ? 1 : need));
        }
    }
    double grp = s->tp * s->pp;
    if (!isnan(j->count)) {
        s->G = j->count;
        if (fmod(s->G, grp) != 0)
            return jci_bld_fail(&s->b, JC_ERR_USAGE, "--count %s is not a multiple of tp x pp = %s", FMT_N(s->G), FMT_N(grp));
    } else {
        s->G = grp;
    }
    s->reps = s->G / grp;
    if (mem_need(s, s->tp, 1, &wdev, &kvdev) > cap) {
        if (!isnan(j->count) || given(j->tp))
            return jci_bld_fail(&s->b, JC_ERR_RANGE, "the %s weights need %.1f GB per device at tp %s x pp %s and a "
                        "forward pass's activations %.1f GB: with one sequence's KV cache, more than the %.1f GB usable "
                        "of %s: raise --tp/--pp/--count or use a smaller --weights format",
                        s->wf->name, wdev / 1e9, FMT_N(s->tp), FMT_N(s->pp), act_need(s, s->tp, 1) / 1e9, cap / 1e9,
                        s->dev->id);
    }
    if (given(j->ep)) {
        if (s->a && !s->a->n_experts) return jci_bld_fail(&s->b, JC_ERR_USAGE, "--ep given but the model has no experts");
        if (j->ep > grp || fmod(grp, j->ep) != 0)
            return jci_bld_fail(&s->b, JC_ERR_USAGE, "--ep %s must divide the %s devices of a replica", FMT_N(j->ep), FMT_N(grp));
        if (s->a && s->a->n_experts % (int64_t)j->ep)
            return jci_bld_fail(&s->b, JC_ERR_USAGE, "--ep %s does not divide the model's %lld experts (%s)", FMT_N(j->ep),
                                (long long)s->a->n_experts, s->a->path);
        s->ep = j->ep;
    } else {
        s->ep = s->a && s->a->n_experts ? 1 : 0;
    }
    jci_bld_assume(&s->b, "serving.tp", "tensor-parallel size", R1(s->tp), "", given(j->tp) ? JC_ORIGIN_USER : JC_ORIGIN_DERIVED,
           given(j->tp) ? "--tp"
           : tp_all_fit ? jci_bld_str(&s->b, "the smallest power-of-two group%s whose weights (%.1f GB) and the KV cache of "
                                      "%s sequences fit %s at memory fraction %.2f",
                                      isnan(j->count) ? "" : " dividing --count", s->r->weight_bytes / 1e9, FMT_N(s->B),
                                      s->dev->id, s->memfrac.central)
           : jci_bld_str(&s->b, "no group%s holds the KV cache of %s sequences: the smallest power-of-two group whose "
                                "weights (%.1f GB) and one sequence fit %s at memory fraction %.2f",
                         isnan(j->count) ? " up to 1024" : " dividing --count", FMT_N(s->B), s->r->weight_bytes / 1e9,
                         s->dev->id, s->memfrac.central));
    jci_bld_assume(&s->b, "serving.pp", "pipeline stages", R1(s->pp), "", given(j->pp) ? JC_ORIGIN_USER : JC_ORIGIN_DEFAULT,
           given(j->pp) ? "--pp" : "1 unless --pp");
    if (s->ep > 0)
        jci_bld_assume(&s->b, "serving.ep", "expert-parallel size (experts spread evenly)", R1(s->ep), "",
               given(j->ep) ? JC_ORIGIN_USER : JC_ORIGIN_DEFAULT,
               given(j->ep) ? "--ep" : "1: every expert sliced over the tensor-parallel group (vLLM without --enable-expert-parallel); "
                                      "--ep N spreads whole experts, with all-to-alls and load imbalance");
    jci_bld_assume(&s->b, "devices", "devices", R1(s->G), "", !isnan(j->count) ? JC_ORIGIN_USER : JC_ORIGIN_DERIVED,
           !isnan(j->count) ? "--count" : "one replica of tp x pp devices unless --count");
    if (s->reps > 1)
        jci_bld_assume(&s->b, "serving.replicas", "replicas (data parallel)", R1(s->reps), "", JC_ORIGIN_DERIVED, "--count / (tp x pp)");
    if (isnan(j->count) && !given(j->tp) && s->tp > 1)
        jci_bld_warn(&s->b, "memory: the %s weights (%.1f GB)%s do not fit one %s: %s devices are used (tensor parallel)",
             s->wf->name, s->r->weight_bytes / 1e9,
             tp_all_fit ? jci_bld_str(&s->b, " and the KV cache of %s sequences", FMT_N(s->B)) : "", s->dev->id, FMT_N(s->tp));
    /* interconnect */
    if (s->tp > 1) {
        if (s->a && s->a->counted && s->a->hidden < 1)
            return jci_bld_fail(&s->b, JC_ERR_USAGE, "tensor parallel over %s devices needs the hidden size for the all-reduces, "
                        "and %s has no embedding table gathered by input_ids nor an inputs_embeds input to read it from",
                        FMT_N(s->tp), s->a->path);
        jc_range lb = R1(0);
        if ((st = jci_node_figure(&s->b, s->b.db, s->dev, JCI_LINK_BW, "serving", &lb))) return st;
        s->link_bw = lb.central;
    }
    /* concurrency bounded by the KV memory left after the weights */
    double b = s->B;
    double act = act_need(s, s->tp, s->B), room = cap - wdev - act;
    double one_kv;
    mem_need(s, s->tp, 1, &wdev, &one_kv);
    double bmax = one_kv > 0 ? floor(room / one_kv) : b;
    if (bmax < 1) bmax = 1;
    if (b > bmax) {
        s->r->memory_limited = 1;
        jci_bld_warn(&s->b, "memory: the KV cache of %s sequences at a mean context of %s tokens does not fit after the weights; "
                "%s sequences run per replica (memory, not --concurrency, limits the batch)", FMT_N(b), FMT_N(s->P + s->O / 2), FMT_N(bmax));
        s->B = bmax;
    }
    if (s->rt->continuous && s->B > s->max_seqs)
        jci_bld_warn(&s->b, "serving: %s running sequences exceed the %s profile's default limit of %s on %s: the runtime "
                     "must be started with a larger one (vLLM and SGLang: --max-num-seqs, --max-running-requests)", FMT_N(s->B), s->rt->name, FMT_N(s->max_seqs), s->dev->id);
    jci_bld_assume(&s->b, "serving.concurrency", s->r->memory_limited ? "running sequences per replica (KV-memory bound)"
                                                          : "running sequences per replica",
           R1(s->B), "", s->r->memory_limited ? JC_ORIGIN_DERIVED : JC_ORIGIN_USER,
           s->r->memory_limited ? jci_bld_str(&s->b, "--concurrency %s, capped by the KV memory: (%.1f GB usable - %.1f GB "
                                      "weights - %.1f GB activations of the runtime's step) / %.3f GB per sequence",
                                      FMT_N(j->concurrency), cap / 1e9, wdev / 1e9, act / 1e9, one_kv / 1e9)
                                 : "--concurrency");
    /* whole replicas no request reaches: the workload's time (requests /
     * concurrency / replicas) would end before one request does, and the
     * idle replicas' power would go uncounted (issue 43 item 17: --tp 32
     * --count 1e8 for 1,000 requests; a single replica is left as it is) */
    double busy = ceil(s->R / s->B);
    if (s->reps > busy)
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--count %s at tp %s x pp %s makes %s replicas of %s running sequences, "
                            "but %s request%s keep at most %s replica%s busy: give --count %s or fewer, or more --requests "
                            "(%s fill them)", FMT_N(s->G), FMT_N(s->tp), FMT_N(s->pp), FMT_N(s->reps), FMT_N(s->B),
                            FMT_N(s->R), s->R == 1 ? "" : "s", FMT_N(busy), busy == 1 ? "" : "s", FMT_N(busy * grp),
                            FMT_N(s->reps * s->B));
    s->r->memory_capacity = s->mem;
    s->r->memory_per_device = mem_need(s, s->tp, s->B, &wdev, &kvdev);
    s->r->activation_bytes = act_need(s, s->tp, s->B);
    s->r->kv_bytes = kvdev * kv_split(s) * s->pp;
    return JC_OK;
}

/* Host power's range end for corner sc (0 low, 1 central, 2 high). */

/* ---- the energy stage ---------------------------------------------------------- */

/* Joules per unit of n units from an energy range in kWh, end by end. */
static jc_range j_per(jc_range kwh, double n)
{
    return R3(kwh.low * JCI_J_PER_KWH / n, kwh.central * JCI_J_PER_KWH / n, kwh.high * JCI_J_PER_KWH / n);
}

/* Each end of r times f. */
static jc_range rmul(jc_range r, double f) { return R3(r.low * f, r.central * f, r.high * f); }

/* The site of the serving run (site.h): the devices and hosts, the host
 * power, the host CPUs' usage and the place, from the user's options by
 * the rules every estimate follows (a named host, --host-power, a cloud
 * region's instance, else the devices' share of their system class's
 * server at the host CPUs' inference usage).  The site's restatements of
 * the serving model's own assumptions ("devices") are dropped. */
static jc_status resolve_site(sv *s, jci_site *x, jc_estimate *c)
{
    const jc_job *j = s->b.job;
    jc_status st;
    const jc_device *d2 = NULL;
    size_t own = s->b.n_as;
    *x = (jci_site){.dev = s->dev, .avg_power = NAN, .m_host = NAN, .m_wall = NAN, .host_factor = 1,
                    .host_fixed = !isnan(j->host_power_w)};
    if (j->host && (st = jc_hwdb_hardware(s->b.db, j->host, &d2, &x->host, s->b.d))) return st;
    if (d2) return jci_bld_fail(&s->b, JC_ERR_USAGE, "'%s' is a device, not a host: use --device", j->host);
    if (x->host && x->host->accel && x->host->accel != s->dev)
        jci_bld_warn(&s->b, "--device %s differs from host %s's accelerator %s; using %s", s->dev->id, x->host->id,
                     x->host->accel->id, s->dev->id);
    if ((st = jci_site_count(&s->b, x, s->G, NULL, 0))) return st;
    jci_est_name_hardware(&s->b, c, s->dev, x->host);
    c->devices = x->G;
    c->hosts = x->K;
    jci_bld_drop_restated(&s->b, own);
    return JC_OK;
}

/* One corner r of the serving model (its time and device power) through
 * the account: its three scenarios take the place's, the idle power's and
 * the host's ranges at wall time T and average device power p. */
static void account_corner(const sv *s, const jci_site *x, double T, double p, jc_range host_w, jc_estimate *e)
{
    jci_account_in in = {.G = x->G, .place = {x->pue, x->ci, e->has_market,
                                             e->has_market ? x->region->market_gco2e_per_kwh.value : 0}};
    for (int sc = SC_LOW; sc <= SC_HIGH; sc++) {
        double idle = jci_pick(s->idle_r, sc, JCI_RAISES);
        in.sc[sc].T = T;
        in.sc[sc].e_dev = p * x->G * T;
        in.sc[sc].e_idle = x->G * T * fmin(idle, p);
        in.sc[sc].e_host = x->host_on ? jci_pick(host_w, sc, JCI_RAISES) * x->host_factor * T : 0;
    }
    jci_account_run(&in, e);
}

static void merge(jc_range *c, const jc_range *lo, const jc_range *hi)
{
    c->low = lo->low < c->central ? lo->low : c->central;
    c->high = hi->high > c->central ? hi->high : c->central;
}

/* The serving run's time and power per corner (k) through the account
 * (account.h), at the site the user's options give (site.h); *out is
 * the estimate of the whole workload, in s's arena.  The serving model's
 * assumptions come first, then the site's and the account's. */
static jc_status energy_stage(sv *s, const corner k[3], jc_estimate **out)
{
    jc_status st;
    jc_estimate *c = jci_estimate_new(s->b.a, s->b.db, JC_MODE_GENERATION, s->b.job->method);
    if (!c) return jci_diag_set(s->b.d, JC_ERR_NOMEM, "out of memory");
    if (jc_precision_parse(s->r->compute_precision, &c->prec))
        return jci_bld_fail(&s->b, JC_ERR_INTERNAL, "no compute precision '%s'", s->r->compute_precision);
    c->precision = jc_precision_name(c->prec);
    jci_site x;
    if ((st = resolve_site(s, &x, c))) return st;
    /* the hours as a runtime of that length is taken (h, then s) */
    double T[3];
    for (int sc = SC_LOW; sc <= SC_HIGH; sc++) T[sc] = k[sc].T / JCI_S_PER_H * JCI_S_PER_H;
    jci_bld_assume(&s->b, "runtime.hours", "serving time of the workload (modelled: requests x (prefill + output x step) / "
                   "concurrency / replicas)", R3(k[0].T / JCI_S_PER_H, k[1].T / JCI_S_PER_H, k[2].T / JCI_S_PER_H), "h", JC_ORIGIN_DERIVED,
                   "the serving model (docs/workflow-serving.md)");
    jci_bld_assume(&s->b, "device.avg_power_w", "device power while serving (prefill and decode phases, time-weighted)",
                   R3(k[0].p_avg, k[1].p_avg, k[2].p_avg), "W", JC_ORIGIN_DERIVED,
                   "src/estimate/power.h: idle + (TDP - idle) (1 - exp(-(k_c u_c + k_m u_m))) + the DRAM's energy "
                   "per byte while computing, a_launch while the runtime runs, at most the power limit; the "
                   "power_* constants of hwdb/energy-model.yaml (every device and path)");
    if ((st = jci_site_host(&s->b, &x, c))) return st;
    if ((st = jci_site_cpu_usage(&s->b, &x)) || (st = jci_site_place(&s->b, &x, c))) return st;
    /* each corner's scenarios over the place's ranges; the result takes
     * the central corner's central case and the outer ends of the others */
    jc_estimate e[3];
    for (int r = SC_LOW; r <= SC_HIGH; r++) {
        e[r] = *c;
        account_corner(s, &x, T[r], k[r].p_avg, x.host_w, &e[r]);
    }
    *c = e[SC_CENTRAL];
#define M(f) merge(&c->f, &e[SC_LOW].f, &e[SC_HIGH].f)
    M(wall_hours); M(device_hours); M(energy_device_kwh); M(energy_idle_kwh); M(energy_dynamic_kwh);
    M(energy_host_kwh); M(energy_it_kwh); M(energy_facility_kwh); M(co2_kg); M(avg_power_w);
    if (c->has_market) M(co2_market_kg);
#undef M
    jci_account_warn_tdp(&s->b, s->dev, c);
    if (s->b.job->embodied && (st = jci_site_embodied(&s->b, s->dev, x.G, T, c))) return st;
    if ((st = jci_est_finite(c, s->b.d))) return st;
    if ((st = jci_account_equivalences(&s->b, c))) return st;
    if ((st = jci_est_cost(&s->b, c))) return st;
    jci_est_water(&s->b, c);
    /* the work is known from the architecture: FLOPs and the implied
     * utilisation of each corner */
    for (int sc = 0; sc < 3; sc++) {
        double fl = s->R * (k[sc].pre_flops + s->O * k[sc].dec_flops_tok);
        double u = k[sc].T > 0 && s->peak > 0 ? fl / (s->G * s->peak * k[sc].T) : 0;
        if (sc == SC_CENTRAL) {
            c->flops_total = fl;
            c->implied_utilization.central = u;
        }
        c->implied_utilization.low = sc ? fmin(c->implied_utilization.low, u) : u;
        c->implied_utilization.high = sc ? fmax(c->implied_utilization.high, u) : u;
    }
    if (s->a && s->a->counted) {   /* the ONNX decoder is the estimate's model */
        c->model_path = s->a->counted->model;
        c->model_size_bytes = (uint64_t)s->a->counted->file_size;
        c->model_sha256 = s->a->counted->sha256 && s->a->counted->sha256[0] ? s->a->counted->sha256 : NULL;
        c->model_graph_sha256 = s->a->counted->graph_sha256 && s->a->counted->graph_sha256[0]
                                    ? s->a->counted->graph_sha256 : NULL;
    }
    if ((st = jci_bld_move(&s->b, &c->assumptions, &c->n_assumptions, &c->warnings, &c->n_warnings))) return st;
    double tok = s->R * s->O;
    c->tokens = tok;
    c->samples = s->R;
    c->j_per_token = j_per(c->energy_facility_kwh, tok);
    c->j_per_sample = rmul(c->j_per_token, s->O);
    c->samples_per_kwh = R3(s->R / c->energy_facility_kwh.high, s->R / c->energy_facility_kwh.central,
                            s->R / c->energy_facility_kwh.low);
    *out = c;
    return JC_OK;
}

/* ---- per-node view of one decode step ------------------------------------------- */

/* An ONNX decoder: its counted nodes at one sequence (context nodes_ctx),
 * scaled to the running sequences of a pipeline stage's micro-batch; the
 * initializers are read once per step at the weight format. */
static jc_status counted_nodes(sv *s, const corner *k)
{
    const jc_arch_counted *ck = s->a->counted;
    jc_est_node *v = jci_arena_calloc(s->b.a, ck->n_nodes ? ck->n_nodes : 1, sizeof *v);
    if (!v) return jci_diag_set(s->b.d, JC_ERR_NOMEM, "out of memory");
    double mb = s->B / s->pp, g = s->tp * s->pp, wscale = s->wb / ck->weight_dtype_bytes;
    for (size_t i = 0; i < ck->n_nodes; i++) {
        const jc_arch_counted_node *n = &ck->nodes[i];
        jc_est_node *x = &v[i];
        x->name = n->name;
        x->op = n->op;
        x->flops = n->flops * mb / g;
        x->bytes = (n->weight_bytes * wscale + n->act_bytes * mb) / g;
        double tc = x->flops / (s->peak * s->mfu), tm = x->bytes / (s->bw * s->mbu), r;
        x->time_s = jci_sv_part_time(&s->pm, tc, tm, x->flops, x->bytes, s->peak, s->bw, &r);   /* at the cap clock */
        x->memory_bound = tm > tc;
        x->energy_j = x->time_s * k->p_dec;
    }
    s->r->nodes = v;
    s->r->n_nodes = ck->n_nodes;
    jci_bld_warn(&s->b, "serving: the per-node view is one decode step of the ONNX decoder at context %s, counted at one "
            "sequence and scaled to %s; activations as the graph moves them (the present key/value copies "
            "included)", FMT_N(ck->nodes_ctx), FMT_N(mb));
    return JC_OK;
}

static jc_status decode_nodes(sv *s, const corner *k)
{
    const jc_arch *a = s->a;
    if (!a) return JC_OK;
    if (a->counted) return counted_nodes(s, k);
    size_t n = (size_t)a->n_layers * 4 + 2;
    jc_est_node *v = jci_arena_calloc(s->b.a, n, sizeof *v);
    if (!v) return jci_diag_set(s->b.d, JC_ERR_NOMEM, "out of memory");
    double B = s->B / s->pp, c = s->P + s->O / 2, g = s->tp * s->pp;
    double mbu = s->mbu, ud = s->mfu;
    double ex = touched((double)a->n_experts, (double)a->top_k, B);
    size_t m = 0;
#define NODE(NAME, OP, F, BY, KVSPLIT) do { \
        jc_est_node *x = &v[m++]; x->name = (NAME); x->op = (OP); \
        x->flops = (F) / g; x->bytes = (BY) / (KVSPLIT); \
        double tc = x->flops / (s->peak * ud), tm = x->bytes / (s->bw * mbu), r_; \
        x->time_s = jci_sv_part_time(&s->pm, tc, tm, x->flops, x->bytes, s->peak, s->bw, &r_); \
        x->memory_bound = tm > tc; \
        x->energy_j = x->time_s * k->p_dec; } while (0)
    double d = (double)a->hidden;
    NODE("embed_tokens", "Gather", 0, B * d * 2, g);
    for (int64_t i = 0; i < a->n_layers; i++) {
        double at = jci_arch_attn_params(a);
        NODE(jci_bld_str(&s->b, "layers.%lld.self_attn.proj", (long long)i), "MatMul", 2 * B * at, at * s->wb, g);
        double ce = ctx_eff(a->layer[i].window, c), kve = jci_arch_kv_elems_layer(a) * s->kvb;
        NODE(jci_bld_str(&s->b, "layers.%lld.self_attn.%s", (long long)i, a->layer[i].window ? "sliding_attention" : "attention"),
             a->mla ? "MLAttention" : "Attention", B * jci_arch_attn_flops_pair(a) * ce, B * ce * kve + B * kve,
             kv_split(s) * s->pp);
        if (a->layer[i].moe) {
            double sh = jci_arch_shared_params(a);
            NODE(jci_bld_str(&s->b, "layers.%lld.mlp.experts", (long long)i), "MoE",
                 2 * B * ((double)a->top_k * jci_arch_expert_params(a) + sh), sh * s->wb + ex * jci_arch_expert_params(a) * s->wb_exp, g);
        } else {
            double mp = jci_arch_mlp_params(a, a->ffn);
            NODE(jci_bld_str(&s->b, "layers.%lld.mlp", (long long)i), "MatMul", 2 * B * mp, mp * s->wb, g);
        }
        NODE(jci_bld_str(&s->b, "layers.%lld.norms", (long long)i), "RMSNormalization", 8 * B * d, 4 * B * d * 2, g);
    }
    NODE("lm_head", "MatMul", 2 * B * (double)a->vocab * d, (double)a->vocab * d * 2, g);
#undef NODE
    s->r->nodes = v;
    s->r->n_nodes = m;
    return JC_OK;
}

/* ---- entry point ------------------------------------------------------------------- */

typedef struct serving_internal { jci_arena *ar; } serving_internal;

/* An ONNX decoder: what was counted at which dims, and the line the
 * decode steps take. */
static jc_status counted_assumptions(sv *s)
{
    const jc_arch_counted *k = s->a->counted;
    const jc_job *j = s->b.job;
    if (k->prompt_tokens != s->P)
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "the decoder was counted at %s prompt tokens, not --prompt-tokens %s",
                    FMT_N(k->prompt_tokens), FMT_N(s->P));
    const char *src = jci_bld_str(&s->b, "%s, counted", k->model);
    jci_bld_assume(&s->b, "work.params", "parameters (the ONNX initializers' elements)", R1(s->n_total), "", JC_ORIGIN_MODEL, k->model);
    jci_bld_assume(&s->b, "decoder.prompt_dim", jci_bld_str(&s->b, "prompt dim '%s' = the prompt tokens for the prefill, 1 for a decode step",
           k->prompt_dim), R1(s->P), "tokens", j->prompt_dim ? JC_ORIGIN_USER : JC_ORIGIN_MODEL,
           j->prompt_dim ? "--prompt-dim" : jci_bld_str(&s->b, "%s: the sequence dim of input %s", k->model, k->prompt_how));
    jci_bld_assume(&s->b, "decoder.past_dim", jci_bld_str(&s->b, "past dim '%s' = 0 for the prefill, the context for a decode step (%zu past "
           "key/value inputs = %lld layers)%s%s%s", k->past_dim, k->n_past, (long long)s->a->n_layers,
           k->total_dim ? "; the attention mask's dim '" : "", k->total_dim ? k->total_dim : "",
           k->total_dim ? "' = prompt + past" : ""), R1((double)k->n_past), "inputs",
           j->past_dim ? JC_ORIGIN_USER : JC_ORIGIN_MODEL,
           j->past_dim ? "--past-dim" : jci_bld_str(&s->b, "%s: the symbolic dim of the past inputs (first: %s)", k->model,
                                            k->past_how));
    jci_bld_assume(&s->b, "decoder.prefill_flops", "prefill FLOPs of one request (counted at batch 1, past 0: the graph's attention "
           "scores cover the whole prompt x prompt square and logits come out for every prompt token)",
           R1(k->prefill_flops), "FLOP", JC_ORIGIN_MODEL, src);
    jci_bld_assume(&s->b, "decoder.decode_flops", jci_bld_str(&s->b, "decode FLOPs per token: %s + %s x context (counted at contexts %s and "
           "%s, linear between%s)", FMT_N(k->decode_flops0), FMT_N(k->decode_flops_per_ctx), FMT_N(k->ctx[0]), FMT_N(k->ctx[1]),
           k->mid_ctx > k->ctx[0] ? jci_bld_str(&s->b, "; a count at %s is %s%% off the line", FMT_N(k->mid_ctx), FMT_N(100 * k->mid_error))
                                  : ""), R1(k->decode_flops0 + k->decode_flops_per_ctx * (s->P + s->O / 2)), "FLOP",
           JC_ORIGIN_MODEL, jci_bld_str(&s->b, "%s, counted; the value: at the mean context P + O/2", k->model));
    jci_bld_assume(&s->b, "decoder.weight_elems_step", "weights a decode step reads (every initializer a node takes; of an "
           "embedding table only the gathered rows)", R1(k->weight_elems_step), "elements", JC_ORIGIN_MODEL, src);
    jci_bld_assume(&s->b, "decoder.kv_elems_per_token", jci_bld_str(&s->b, "KV-cache elements per token of context (the past inputs' dims "
           "but batch and past, %s)", k->kv_dtype), R1(k->kv_elems_per_token), "elements", JC_ORIGIN_MODEL, src);
    if (k->mid_error > 1e-6)
        jci_bld_warn(&s->b, "serving: the decoder's FLOPs per decode step are not linear in the context (%s%% off the line at "
                "context %s): the steps between the counted contexts are approximate", FMT_N(100 * k->mid_error), FMT_N(k->mid_ctx));
    return JC_OK;
}

static jc_status resolve_work(sv *s)
{
    const jc_job *j = s->b.job;
    if (!given(j->prompt_tokens) || j->prompt_tokens < 1)
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "needs --prompt-tokens P (mean prompt tokens per request, >= 1)");
    if (!given(j->output_tokens) || j->output_tokens < 1)
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "needs --output-tokens O (mean output tokens per request, >= 1)");
    /* their limits (job_keys.def): jc_job_check, at the start */
    if (!given(j->concurrency))   /* a whole number >= 1 when given: jc_job_check */
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "needs --concurrency B (running sequences per replica, a whole number >= 1)");
    s->P = jci_bld_assume(&s->b, "serving.prompt_tokens", "prompt tokens per request (mean)", R1(j->prompt_tokens), "",
                  JC_ORIGIN_USER, "--prompt-tokens").central;
    s->O = jci_bld_assume(&s->b, "serving.output_tokens", "output tokens per request (mean; reasoning tokens included)",
                  R1(j->output_tokens), "", JC_ORIGIN_USER, "--output-tokens").central;
    s->B = j->concurrency;
    s->R = isnan(j->requests) ? 1 : j->requests;
    jci_bld_assume(&s->b, "requests", "requests", R1(s->R), "", isnan(j->requests) ? JC_ORIGIN_DEFAULT : JC_ORIGIN_USER,
           isnan(j->requests) ? "1 (give --requests)" : "--requests");
    if (s->a) {
        if (given(j->params) || given(j->active_params))
            return jci_bld_fail(&s->b, JC_ERR_USAGE, "--%s has no effect with an architecture (%s): its parameters are "
                                "counted from it; drop --%s (it is for the coarse path without one)",
                                given(j->params) ? "params" : "active-params", s->a->path,
                                given(j->params) ? "params" : "active-params");
        jc_arch_params(s->a, &s->n_total, &s->n_active);
        /* a context the model cannot hold is refused, not estimated */
        if (s->a->max_ctx > 0 && s->P + s->O > (double)s->a->max_ctx)
            return jci_bld_fail(&s->b, JC_ERR_RANGE, "prompt + output = %.0f tokens exceed the model's context of %lld "
                                "tokens (max_position_embeddings in %s): lower --prompt-tokens or --output-tokens",
                                s->P + s->O, (long long)s->a->max_ctx, s->a->path);
        if (s->a->counted) {
            jc_status st = counted_assumptions(s);
            if (st) return st;
        } else {
            jci_bld_assume(&s->b, "work.params", "parameters (from the config)", R1(s->n_total), "", JC_ORIGIN_MODEL, s->a->path);
        }
        if (s->a->n_experts)
            jci_bld_assume(&s->b, "work.active_params", jci_bld_str(&s->b, "active parameters per token (%lld of %lld experts + shared)",
                   (long long)s->a->top_k, (long long)s->a->n_experts), R1(s->n_active), "", JC_ORIGIN_MODEL, s->a->path);
    } else {
        if (isnan(j->params) || !(j->params > 0))
            return jci_bld_fail(&s->b, JC_ERR_USAGE, "needs --hf-config FILE (or --params N for the coarse path)");
        s->coarse = 1;
        s->n_total = j->params;
        s->n_active = isnan(j->active_params) ? j->params : j->active_params;
        jci_bld_assume(&s->b, "work.params", "parameters (coarse path: no architecture)", R1(s->n_total), "", JC_ORIGIN_USER, "--params");
        if (!isnan(j->active_params))
            jci_bld_assume(&s->b, "work.active_params", "active parameters per token", R1(s->n_active), "", JC_ORIGIN_USER, "--active-params");
        jci_bld_warn(&s->b, "serving: --params without --hf-config: no KV cache, attention or collectives are modelled (the "
                "context-dependent decode traffic is missing) and all weights are read each step; give --hf-config "
                "for the per-layer model");
    }
    return JC_OK;
}

static void fill_result(sv *s, const corner k[3])
{
    jc_serving *r = s->r;
    const corner *c = &k[1];
    r->params_total = s->n_total;
    r->params_active = s->n_active;
    r->prompt_tokens = s->P;
    r->output_tokens = s->O;
    r->requests = s->R;
    r->concurrency_asked = s->b.job->concurrency;
    r->concurrency = s->B;
    r->tp = s->tp;
    r->pp = s->pp;
    r->ep = s->ep;
    r->replicas = s->reps;
    r->devices = s->G;
    r->kv_bytes_per_token = s->a ? jc_arch_kv_bytes_per_token(s->a, s->kvb) : 0;
    r->prefill_flops = c->pre_flops;
    r->decode_flops_per_token = c->dec_flops_tok;
    r->decode_bytes_per_step = c->dec_bytes_step;
    r->collective_s_per_step = c->coll;
    if (s->a && s->a->n_experts) {
        work w;
        step_work(s, s->B / s->pp, s->B / s->pp, s->P, s->B / s->pp, &w);
        r->experts_touched = w.experts;
    }
    /* ranges: the low-energy corner is the fastest */
    /* a figure's range: the extremes over the corners (a corner that lowers
     * the energy may raise a phase's power: faster and busier) */
#define RG(f, expr) do { double a_ = k[0].expr, b_ = k[1].expr, c_ = k[2].expr; \
        r->f.central = b_; r->f.low = fmin(b_, fmin(a_, c_)); r->f.high = fmax(b_, fmax(a_, c_)); } while (0)
    RG(ttft_s, ttft); RG(itl_s, itl); RG(power_prefill_w, p_pre); RG(power_decode_w, p_dec);
#undef RG
    /* throughput: the fastest corner (low energy) gives the high end */
    r->tokens_per_s = rmul(R3(k[2].tps_rep, k[1].tps_rep, k[0].tps_rep), s->reps);
    r->tokens_per_s_per_device = R3(r->tokens_per_s.low / s->G, r->tokens_per_s.central / s->G,
                                    r->tokens_per_s.high / s->G);
    r->tokens_per_s_per_seq = R3(1 / k[2].itl, 1 / k[1].itl, 1 / k[0].itl);
    r->prefill_energy_share = c->e_dev_share_pre;
    r->prefill_time_share = c->t_share_pre;
    r->decode_flop_util = c->uf;
    r->decode_bw_util = c->ub;
    r->prefill_flop_util = c->upre;
    r->decode_busy_share = c->gpu_share;
}

jc_status jc_serving_run(const jc_job *job, const jc_arch *arch, const jc_hwdb *db, jc_serving **out, jc_diag *d)
{
    if (!job || !db || !out) return jci_diag_set(d, JC_ERR_USAGE, "jc_serving_run: NULL argument");
    *out = NULL;
    sv S = {0}, *s = &S;
    if (jci_bld_open(&s->b, d, "estimate --generate", job, db)) return JC_ERR_NOMEM;
    jci_arena *ar = s->b.a;
    s->a = arch;
    jc_status st = JC_OK;
    s->r = jci_arena_alloc(ar, sizeof *s->r);
    serving_internal *si = jci_arena_alloc(ar, sizeof *si);
    if (!s->r || !si) { st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto fail; }
    si->ar = ar;
    s->r->internal_ = si;
    s->r->model = arch ? arch->path : "--params";
    s->r->model_type = arch ? arch->model_type : NULL;
    if (job->mode != JC_MODE_GENERATION) { st = jci_bld_fail(&s->b, JC_ERR_USAGE, "the job's mode is not generation"); goto fail; }
    jc_diag md;   /* every number against its key's range (job_keys.def), then the mode's keys */
    if (jc_job_check(job, &md)) { st = jci_bld_fail(&s->b, md.status, "%s", md.msg); goto fail; }
    if (jc_job_check_mode(job, &md)) { st = jci_bld_fail(&s->b, JC_ERR_USAGE, "%s", md.msg); goto fail; }
    if (!isnan(job->batch)) { st = jci_bld_fail(&s->b, JC_ERR_USAGE, "--batch does not apply to generation: give --concurrency B"); goto fail; }
    if (!isnan(job->tokens) || !isnan(job->tokens_per_request)) {
        st = jci_bld_fail(&s->b, JC_ERR_USAGE, "--tokens / --tokens-per-request do not apply to generation: give --prompt-tokens "
                  "and --output-tokens");
        goto fail;
    }
    if (!isnan(job->hours) || !isnan(job->device_hours) || !isnan(job->avg_power_w) || !isnan(job->utilization) ||
        !isnan(job->flops) || job->method != JC_METHOD_ROOFLINE) {
        st = jci_bld_fail(&s->b, JC_ERR_USAGE, "--hours, --device-hours, --avg-power, --utilization, --flops and --method are not "
                  "used by the serving model (its time and power are modelled per phase)");
        goto fail;
    }
    if (!isnan(job->gpu_usage) || job->measured || job->trace_format || job->trace_scope || !isnan(job->trace_gap_s) ||
        !isnan(job->trace_idle_w) || !isnan(job->trace_interval_s)) {
        st = jci_bld_fail(&s->b, JC_ERR_USAGE, "--gpu-usage, --measured and the trace's options are not used by the "
                          "serving model (its time and device power are modelled per phase)");
        goto fail;
    }
    if (!isnan(job->cpu_usage) && !(job->cpu_usage >= 0 && job->cpu_usage <= 1)) {
        st = jci_bld_fail(&s->b, JC_ERR_USAGE, "--cpu-usage must be in [0, 1] (a fraction of the time; got %s)",
                          FMT_N(job->cpu_usage));
        goto fail;
    }
    if ((st = resolve_work(s))) goto fail;
    if ((st = resolve_device(s))) goto fail;
    if ((st = resolve_formats(s))) goto fail;
    if (arch && arch->counted) {
        s->r->weight_bytes = arch->counted->params * s->wb;
    } else if (arch) {
        double tot = 0;
        for (int64_t i = 0; i < arch->n_layers; i++) {
            double lp = jci_arch_attn_params(arch);
            if (arch->layer[i].moe) tot += lp * s->wb + jci_arch_shared_params(arch) * s->wb +
                                          (double)arch->n_experts * jci_arch_expert_params(arch) * s->wb_exp;
            else tot += (lp + jci_arch_mlp_params(arch, arch->ffn)) * s->wb;
        }
        tot += (jci_arch_embed_params(arch) + jci_arch_head_params(arch)) * 2;   /* embeddings and LM head kept at 16 bits */
        s->r->weight_bytes = tot;
    } else {
        s->r->weight_bytes = s->n_total * s->wb;
    }
    jci_bld_assume(&s->b, "serving.weight_bytes", arch && arch->counted ? "stored weights (every initializer at the weight format)"
           : "stored weights (embeddings and LM head at 16 bits)", R1(s->r->weight_bytes), "B",
           JC_ORIGIN_DERIVED, "parameters x bytes per weight of their format");
    if ((st = resolve_parallel(s))) goto fail;
    if ((st = jci_bld_check(&s->b))) goto fail;   /* out of memory, or a key missing from assumption_keys.def */
    if (arch && arch->n_experts)
        jci_bld_warn(&s->b, "serving: experts touched per decode step assume uniform routing: E x (1 - (1 - k/E)^B)");
    corner k[3];
    run_central(s, &k[1]);
    if (k[1].cmp_tr < k[1].cmp_t * (1 - 1e-9))   /* the clocks the power limit leaves, named as the estimate names them */
        jci_power_record_cap_clock(&s->b, s->dev, &s->pm, k[1].cmp_tr / k[1].cmp_t);
    corner_of(s, &k[1], 0, &k[0]);
    corner_of(s, &k[1], 2, &k[2]);
    fill_result(s, k);
    if (job->per_node && (st = decode_nodes(s, &k[1]))) goto fail;
    if ((st = energy_stage(s, k, &s->r->estimate))) goto fail;
    jc_estimate *e = s->r->estimate;
    s->r->j_per_output_token = j_per(e->energy_facility_kwh, s->R * s->O);
    s->r->j_per_output_token_device = j_per(e->energy_device_kwh, s->R * s->O);
    s->r->j_per_request = rmul(s->r->j_per_output_token, s->O);
    jci_bld_release(&s->b);
    *out = s->r;
    return JC_OK;
fail:
    jci_bld_release(&s->b);
    if (s->r) jc_estimate_free(s->r->estimate);
    jci_arena_free(ar);
    return st ? st : JC_ERR_INTERNAL;
}

void jc_serving_free(jc_serving *s)
{
    if (!s) return;
    jc_estimate_free(s->estimate);
    serving_internal *si = s->internal_;
    jci_arena_free(si->ar);
}
