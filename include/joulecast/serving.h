/*
 * serving.h (public API) - LLM serving (src/analysis/hfconfig.c, src/estimate/serving.c).
 * Part of the public API; include <joulecast.h>, which states the
 * conventions (errors, ownership, units) that hold here too.
 */
#ifndef JOULECAST_SERVING_H
#define JOULECAST_SERVING_H

#include "base.h"

/* named by pointer only here: their headers define them (C11 allows the
 * typedef twice), so a change to those headers does not rebuild the
 * files that include only this one */
typedef struct jc_est_node jc_est_node;
typedef struct jc_estimate jc_estimate;
typedef struct jc_hwdb jc_hwdb;
typedef struct jc_job jc_job;
typedef struct jc_request jc_request;

JC_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* LLM serving (owner src/analysis/hfconfig.c, src/estimate/serving.c)  */
/* ------------------------------------------------------------------ */
/* A transformer as its Hugging Face config.json describes it (decoder-
 * only; the training step model also takes encoders and encoder-
 * decoders, jc_arch.kind), and the serving model of docs/workflow-serving.md: prefill over the
 * prompt, decode with a KV cache over the growing context, continuous
 * batching, tensor/pipeline/expert parallelism, mixture of experts and
 * stored weight formats.  The energy of the whole workload goes through
 * the same energy stage as every estimate (jc_estimate_run). */

/* One layer. */
typedef struct jc_arch_layer {
    int64_t window;   /* sliding or chunked local attention span, tokens;
                         0: global attention over the whole context */
    int moe;          /* 1: routed experts replace the dense MLP */
    int bidir;        /* 1: an encoder layer, attending to the whole
                         sequence both ways (no causal mask) */
    int cross;        /* 1: a decoder layer that also attends to the
                         encoder's output (cross-attention, its own
                         q, k, v and output projections) */
} jc_arch_layer;

/* What a config's transformer is: a decoder-only language model (the
 * serving model's), an encoder (BERT-style: every layer bidirectional),
 * or an encoder-decoder (T5, BART: jc_arch.enc_layers encoder layers,
 * then decoder layers with cross-attention). */
typedef enum jc_arch_kind { JC_ARCH_DECODER = 0, JC_ARCH_ENCODER, JC_ARCH_ENCODER_DECODER } jc_arch_kind;

typedef struct jc_arch {
    const char *path, *model_type;
    jc_arch_kind kind;
    int64_t enc_layers;   /* encoder-decoder: the first enc_layers of
                             layer[] are the encoder's; else 0 */
    double other_params;  /* weights outside the layers, embeddings and
                             head (BERT's token types and pooler, T5's
                             relative-position tables); 0: none */
    int64_t n_layers, hidden, heads, kv_heads, head_dim, vocab;
    int64_t ffn;          /* dense MLP intermediate size (0: none) */
    int64_t max_ctx;      /* max_position_embeddings (0: not given) */
    int gated;            /* 1: gate + up + down projections; 0: up + down */
    int tied;             /* LM head shares the embedding matrix */
    int64_t learned_pos;  /* learned position rows (gpt2), else 0 */
    int mla;              /* multi-head latent attention (DeepSeek-V3) */
    int64_t q_lora, kv_lora, qk_nope, qk_rope, v_head;
    int64_t n_experts, top_k, expert_ffn;
    int64_t shared_ffn;   /* always-active shared expert(s) of MoE layers,
                             intermediate size summed; 0: none */
    int64_t mtp_layers;   /* multi-token-prediction modules the config
                             declares (num_nextn_predict_layers); 0: none.
                             Training only: serving ignores them */
    const char *weight_format;  /* "bf16", "fp8", ... the config declares;
                                   NULL: not said */
    const char *expert_format;  /* experts only (gpt-oss mxfp4); NULL */
    const char *format_note;    /* how the format was read, or NULL */
    jc_arch_layer *layer;       /* n_layers entries */
    const struct jc_arch_counted *counted; /* an ONNX decoder's counted work
                                   (jc_arch_load_onnx); NULL: a config */
    void *internal_;
} jc_arch;

/* One counted node of an ONNX decoder's decode step (one sequence, at
 * jc_arch_counted.nodes_ctx): FLOPs, bytes of initializers read at their
 * stored dtype, bytes of activations read and written. */
typedef struct jc_arch_counted_node {
    const char *name, *op;
    double flops, weight_bytes, act_bytes;
} jc_arch_counted_node;

/* The work of an ONNX decoder export as the request path counted it
 * (jc_arch_load_onnx): per sequence, at the dims bound for a prefill
 * (prompt dim = P, past dim = 0) and for one decode step (prompt dim = 1,
 * past dim = c).  A decode step's figures are linear in the context c:
 * counted at ctx[0] and ctx[1], the serving model takes the line through
 * them (x0 + x1 c) at every step. */
typedef struct jc_arch_counted {
    const char *model;                 /* the ONNX path */
    const char *sha256;                /* of its bytes (64 hex digits; "" unless
                                          jc_request.hash_weights) */
    const char *graph_sha256;          /* its graph identity (jc_model) */
    double file_size;                  /* bytes */
    const char *prompt_dim, *past_dim; /* the symbolic dims bound */
    const char *prompt_how, *past_how; /* how each was found, or the option */
    const char *total_dim;             /* the attention mask's dim bound to
                                          past + prompt, or NULL */
    double prompt_tokens;              /* P the prefill was counted at */
    double prefill_flops, prefill_macs;        /* one sequence */
    double ctx[2];                             /* decode contexts counted */
    double decode_flops[2], decode_macs[2];    /* one token at ctx[i] */
    double decode_flops0, decode_flops_per_ctx;/* the line through them */
    double decode_macs0, decode_macs_per_ctx;
    double mid_ctx, mid_error;         /* a third count at mid_ctx and the
                                          line's relative error there */
    double params;                     /* floating-point initializer elements */
    const char *weight_dtype;          /* their (most common) dtype */
    double weight_dtype_bytes;
    double weight_elems_step;          /* weight elements a decode step
                                          reads (Gather tables: the rows) */
    size_t n_past;                     /* past key/value inputs */
    double kv_elems_per_token;         /* summed over them */
    const char *kv_dtype;              /* their dtype */
    double kv_dtype_bytes;
    size_t n_nodes;                    /* the counted nodes of one decode */
    const jc_arch_counted_node *nodes; /* step at context nodes_ctx (the */
    double nodes_ctx;                  /* midpoint count, else ctx[0]) */
} jc_arch_counted;

/* Reads a config.json.  On success *out owns the architecture
 * (jc_arch_free).  Errors: JC_ERR_IO (cannot read), JC_ERR_MODEL (not
 * JSON, or a key the family needs is missing or malformed: the message
 * names the key), JC_ERR_NOTFOUND (model_type not supported: the message
 * lists the supported ones), JC_ERR_NOMEM. */
jc_status jc_arch_load_hf(const char *path, jc_arch **out, jc_diag *diag);
void jc_arch_free(jc_arch *a);

/* Reads an ONNX decoder export (rq->model; the bindings, op rules and
 * partial-count policy of rq apply) as an architecture for the serving
 * model, counting it through jc_request_analyze at batch 1: a prefill of
 * rq->job->prompt_tokens tokens with an empty cache and a decode step of
 * one token at the first and last context of the request (P and
 * P + O - 1; a third count at the midpoint checks the line).  The dims:
 * rq->job->prompt_dim / past_dim, else the sequence dim of the input
 * input_ids (or inputs_embeds) and the one symbolic non-batch dim of the
 * inputs named past_key_values* / past_*; the dim 1 of the attention mask
 * (attention_mask, else a rank-2 input whose name holds "mask") that is
 * neither is bound to past + prompt.  The KV cache per token is the past
 * inputs' elements (all dims but batch and past) at their dtype; the
 * layers are the past inputs / 2, the KV heads and head size their dims 1
 * and 3.  Errors: JC_ERR_USAGE (the dims cannot be found: the message
 * names the inputs and asks for --prompt-dim / --past-dim; a --dim that
 * binds one of them), JC_ERR_NOTFOUND (a --prompt-dim / --past-dim the
 * model lacks, named), JC_ERR_MODEL (past inputs whose per-token shape is
 * not known or differs), those of jc_request_load and jc_request_analyze
 * (JC_ERR_INCOMPLETE: another dim unbound).  On success *out owns the
 * architecture (jc_arch_free). */
jc_status jc_arch_load_onnx(const jc_request *rq, jc_arch **out, jc_diag *diag);

/* Parameter counts of an architecture: every weight (total) and the
 * weights one token uses (active: top-k routed + shared experts). */
void jc_arch_params(const jc_arch *a, double *total, double *active);

/* KV-cache bytes per token of context, summed over layers, at `kv_bytes`
 * per element (MLA: the latent kv_lora + qk_rope per layer).  Counts every
 * layer at full context; serving caps sliding layers at their window. */
double jc_arch_kv_bytes_per_token(const jc_arch *a, double kv_bytes);

/* Serving figures (per request; ranges low / central / high). */
typedef struct jc_serving {
    jc_estimate *estimate;         /* energy of the workload (owned) */
    const char *model;             /* config path, or "--params" */
    const char *model_type;
    double params_total, params_active;
    double prompt_tokens, output_tokens, requests;
    double concurrency_asked;      /* --concurrency */
    double concurrency;            /* running sequences per replica used */
    int memory_limited;            /* 1: the KV memory, not --concurrency,
                                      bounds the running sequences */
    double tp, pp, ep, replicas, devices;
    const char *weights, *kv_format, *compute_precision;
    const char *expert_weights;    /* the routed experts' stored format when
                                      it differs from weights (gpt-oss:
                                      mxfp4), else NULL */
    double weight_bytes;           /* stored weights, whole model */
    double kv_bytes_per_token;     /* all layers, at the KV format */
    double kv_bytes;               /* KV cache of the running sequences at
                                      the mean context P + O/2 (per replica) */
    double activation_bytes;       /* per device: the forward pass over the
                                      runtime's step token budget that the
                                      runtime reserves beside the weights */
    double memory_per_device, memory_capacity; /* bytes used / held */
    double prefill_flops;          /* one request's prefill */
    double decode_flops_per_token; /* mean over the request's steps */
    double decode_bytes_per_step;  /* mean, per replica */
    double experts_touched;        /* mean distinct experts per MoE layer
                                      per decode step (0: dense) */
    double collective_s_per_step;  /* tensor-parallel all-reduces */
    double decode_flop_util, decode_bw_util; /* achieved / peak while the
                                      device computes, central (what decode
                                      power follows) */
    double prefill_flop_util;      /* central */
    double prefill_time_share;     /* of a replica's busy time, central */
    double decode_busy_share;      /* of a decode step the device computes
                                      (the rest: the runtime's overhead) */
    jc_range ttft_s, itl_s;
    jc_range tokens_per_s;             /* output tokens/s, all devices */
    jc_range tokens_per_s_per_device, tokens_per_s_per_seq;
    jc_range j_per_output_token;       /* facility energy */
    jc_range j_per_output_token_device;/* device (GPU) energy only */
    jc_range j_per_request;            /* facility energy */
    double prefill_energy_share;       /* of device energy, central */
    jc_range power_prefill_w, power_decode_w; /* per device */
    size_t n_nodes; jc_est_node *nodes; /* one decode step (per_node) */
    void *internal_;
} jc_serving;

/* Runs the serving model for `job` (mode generation) on the architecture
 * `arch` (NULL: the coarse path of job.params / job.active_params).  The
 * energy of job.requests requests goes through jc_estimate_run.
 * Errors: JC_ERR_USAGE (a missing or bad option: prompt/output tokens,
 * concurrency, parallelism that does not divide the devices, a weight or
 * KV format not known), JC_ERR_RANGE (the weights do not fit the devices
 * at any count given: the message says how many are needed), every error
 * of jc_estimate_run.  On success *out owns the result
 * (jc_serving_free). */
jc_status jc_serving_run(const jc_job *job, const jc_arch *arch,
                         const jc_hwdb *db, jc_serving **out, jc_diag *diag);
void jc_serving_free(jc_serving *s);

/* A serving request run (owner src/workflows/generation.c): the
 * architecture read and the serving figures computed from it. */
typedef struct jc_generation {
    jc_arch *arch;                 /* job.hf_config or the ONNX decoder
                                      read, or NULL (owned) */
    jc_serving *serving;           /* the result (owned) */
} jc_generation;

/* The architecture of a serving request (estimate and sweep --generate):
 * the refusals and the reading of jc_generation_run below, without the
 * serving model.  *out is NULL for the coarse --params path.  Errors: as
 * jc_generation_run's before jc_serving_run.  On success *out is owned by
 * the caller (jc_arch_free). */
jc_status jc_generation_arch(const jc_request *rq, jc_arch **out, jc_diag *diag);

/* Does the job go to the serving request (jc_generation_run) rather than
 * jc_estimate_run?  Mode generation, or a serving-only input (an ONNX
 * decoder's --prompt-dim / --past-dim, or --hf-config outside training:
 * a training job reads its config in the training step model).  Every
 * front end dispatches by it. */
int jc_job_is_serving(const jc_job *job);

/* Does an HTML report of the job (the CLI's --html, the binding's html
 * key) list energy per node?  When the job has nodes: a MODEL.onnx, or
 * the decoder a serving --hf-config describes; a training --hf-config is
 * read by the training step model, which has none (there --per-node is
 * refused).  Every front end turns job->per_node on by it. */
int jc_job_html_per_node(const jc_job *job, const char *model);

/* The serving request as `joulecast estimate --generate` (and the
 * binding jc_run_estimate_json) runs it: rq->job in mode generation; the
 * architecture from rq->job->hf_config (jc_arch_load_hf), or from the
 * ONNX decoder rq->model (jc_arch_load_onnx, with rq's bindings), or
 * neither (the coarse --params path); then jc_serving_run.  Errors:
 * JC_ERR_USAGE (both a model and hf_config; hf_config, prompt_dim or
 * past_dim without mode generation; prompt_dim / past_dim without a
 * model; not a generation job), those of jc_arch_load_hf,
 * jc_arch_load_onnx and jc_serving_run.  On success *out owns both
 * (jc_generation_release); on failure it is empty. */
jc_status jc_generation_run(const jc_request *rq, const jc_hwdb *db,
                            jc_generation *out, jc_diag *diag);
void jc_generation_release(jc_generation *g);

/* sweep --generate: axes of the grid (an empty axis: the job's own value;
 * tps entries NAN: the smallest group that fits) and the latency targets
 * (NAN: none).  Pointers borrowed for the call. */
typedef struct jc_serving_sweep_spec {
    const char *const *devices;  size_t n_devices;
    const double *counts;        size_t n_counts;
    const double *tps;           size_t n_tps;
    const double *concurrencies; size_t n_concurrencies;
    const char *const *weights;  size_t n_weights;
    double max_itl_s, max_ttft_s;
} jc_serving_sweep_spec;

/* One grid point: estimated (figures, central) or not (reason). */
typedef struct jc_serving_sweep_entry {
    const char *device_id, *weights;
    double count, tp, concurrency_asked, concurrency;
    int memory_limited, estimated, meets, pareto;
    double ttft_s, itl_s, tokens_per_s;
    double j_per_output_token;          /* device (GPU) energy */
    double j_per_output_token_facility, co2_kg;
    const char *reason;                 /* not estimated, or a missed target */
} jc_serving_sweep_entry;

typedef struct jc_serving_sweep {
    size_t n_entries; jc_serving_sweep_entry *entries; /* estimated first:
                                          meeting the targets by J/token,
                                          then the rest; then unestimated */
    size_t n_estimated, n_meeting, n_pareto;
    double max_itl_s, max_ttft_s;
    void *internal_;
} jc_serving_sweep;

/* Runs jc_serving_run at every grid point of `spec` (at most 100000).
 * Errors: JC_ERR_USAGE (NULL argument, no device, a grid too large),
 * JC_ERR_NOMEM; a point that fails is an entry with its reason.  On
 * success *out owns the result (jc_serving_sweep_free). */
jc_status jc_serving_sweep_run(const jc_serving_sweep_spec *spec, const jc_job *job,
                               const jc_arch *arch, const jc_hwdb *db,
                               jc_serving_sweep **out, jc_diag *diag);
void jc_serving_sweep_free(jc_serving_sweep *s);
/* Parses a latency target of `sweep --generate --max-itl/--max-ttft`:
 * "50ms", "20us", "0.05s" or "0.05" (seconds).  Returns 1 and sets
 * *seconds (> 0, finite) on success, 0 on anything else.  Shared by the
 * CLI and the binding so both accept the same spellings. */
int jc_serving_latency_parse(const char *s, double *seconds);
/* Parses one item of a --counts / --tps / --concurrencies axis: a whole
 * number from 1 to 1e6.  Returns 1 and sets *v on success, else 0. */
int jc_serving_axis_parse(const char *s, double *v);

/* ---- serving reports (src/report/) ---- */

/* Text (top: rows of the ranked table, 0 for all), JSON (malloc'ed; NULL on
 * out-of-memory) and CSV of a serving sweep. */
jc_status jc_report_serving_sweep_text(const jc_serving_sweep *s, size_t top, FILE *f);
char *jc_report_serving_sweep_json(const jc_serving_sweep *s);
jc_status jc_report_serving_sweep_csv(const jc_serving_sweep *s, FILE *f);

/* Reports: the estimate's figures plus the serving section. */
jc_status jc_report_serving_text(const jc_serving *s, FILE *f);
char *jc_report_serving_json(const jc_serving *s);
jc_status jc_report_serving_csv(const jc_serving *s, FILE *f, int header);
/* The serving page (src/report/html/serving.c): the serving figures
 * (TTFT, ITL, tokens/s, J per output token and per request with the
 * prefill share, power per device by phase, memory and what bounds the
 * running sequences, one decode step per node when s has nodes), then the
 * workload's energy, emissions and assumptions as the estimate page shows
 * them.  Every figure's data-key is its path in jc_report_serving_json.
 * Errors: JC_ERR_USAGE (NULL argument), JC_ERR_NOMEM, JC_ERR_IO. */
jc_status jc_report_serving_html(const jc_serving *s, FILE *f);
/* jc_report_serving_statement: include/joulecast/workflows.h (the
 * statements) */

JC_END_DECLS
#endif /* JOULECAST_SERVING_H */
