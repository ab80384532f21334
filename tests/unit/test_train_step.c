/*
 * test_train_step.c - the training step model (src/estimate/train_step.c)
 * against step times worked out by hand from its equations
 * (docs/energy-model.md "Training step model") and the hwdb figures they
 * use: a dense --params layout on one A100 and a small mixture of experts
 * (tests/train/tiny-moe.json) on two H100 with expert parallel 2; plus
 * the refusals of options the step model would ignore.
 */
#include "joulecast.h"
#include "check.h"

#include <math.h>

static jc_hwdb *db;
/* the fitted kernel efficiencies of the eager profile (kernel_eta_matrix,
 * kernel_eta_bw in hwdb/energy-model.yaml), read from the database */
static double ETA_M = 0.7, ETA_BW = 0.85;

static void read_etas(void)
{
    const jc_constant *c;
    jc_diag d;
    if (jc_hwdb_constant(db, "kernel_eta_matrix", &c, &d) == JC_OK) ETA_M = c->value.value;
    if (jc_hwdb_constant(db, "kernel_eta_bw", &c, &d) == JC_OK) ETA_BW = c->value.value;
}

/* The kernel model's time of one GEMM of an M x N output over K
 * (efficiency.h): eager eta kernel_eta_matrix, fill 2 us, tiles 128 x 64, waves over
 * the SMs, launch floor 10 us. */
static double gemm(double peak, double sms, double M, double N, double K)
{
    double p = peak * ETA_M, tiles = ceil(M / 128) * ceil(N / 64);
    double q = M * N / (tiles * 128 * 64);
    if (tiles >= sms) q *= tiles / (ceil(tiles / sms) * sms);
    double t = 2 * M * N * K / (p * q) + 2e-6;   /* the fill once, not padded */
    return t > 1e-5 ? t : 1e-5;
}

/* forward, dgrad, wgrad */
static double fb(double peak, double sms, double M, double N, double K)
{
    return gemm(peak, sms, M, N, K) + gemm(peak, sms, M, K, N) + gemm(peak, sms, K, N, M);
}

static double part(const jc_train_step *t, const char *name)
{
    for (size_t i = 0; i < t->n_parts; i++)
        if (!strcmp(t->parts[i].name, name)) return t->parts[i].s;
    return 0;
}

static void job_base(jc_job *j, const char *dev, double count)
{
    jc_job_init(j);
    j->mode = JC_MODE_TRAINING;
    j->device = dev;
    j->count = count;
    j->optimizer = "none";
    j->pue = 1;
    j->ci = 400;
}

/* The central value of hwdb constant id (NAN when absent: a CHECK fails). */
static double cval(const char *id)
{
    const jc_constant *c = NULL;
    jc_diag d;
    CHECK_I64(jc_hwdb_constant(db, id, &c, &d), JC_OK);
    return c ? c->value.value : NAN;
}

/* Dense: 2 layers of d 1024, 8 heads, MLP 4096 (params 2 x (4 d^2 +
 * 2 x 1024 x 4096) = 25,165,824), one sequence of 2048 tokens per step
 * on one A100 (312 TFLOP/s, 108 SMs, 2039 GB/s).  Per layer:
 *   GEMMs   qkv 2048x3072x1024, out 2048x1024x1024, up 2048x4096x1024,
 *           down 2048x1024x4096, each forward + dgrad + wgrad;
 *   attention 2 x 2048 x 1024 (causal mean context) x 8 x 256 FLOPs
 *           forward, x 3.5 with the FlashAttention backward, at 0.5 of
 *           peak;
 *   memory  (10 d + 2 (1024 + 2048) + 2 x 4096) = 24,576 elements per
 *           token, bf16, forward + 2 x backward, at kernel_eta_bw of 2039 GB/s;
 *   checkpoint 16 B x 25,165,824 / 25 GB/s per hour of steps;
 *   the compute parts (GEMMs, attention, memory) at train_step_eta of
 *           the kernel model's speed (hwdb/training.yaml, fitted: read
 *           from the database);
 *   lost    1/g - 1 of the step, g = train_goodput_short (10 steps: a
 *           run far under a day). */
/* The dense job of test_dense on one A100, training on `tokens` tokens,
 * at a 500 W power limit: the die's boost power (boost_power_w), so no
 * cap lowers its clocks and the step is its equations alone (at its
 * default 400 W the GEMM and attention classes run at the clocks the cap
 * leaves: test_power's capped_step). */
static void dense_job(jc_job *j, double tokens)
{
    job_base(j, "nvidia-a100-sxm4-80gb", 1);
    j->power_limit_w = 500;
    j->params = 25165824;
    j->layers = 2;
    j->hidden = 1024;
    j->heads = 8;
    j->seq = 2048;
    j->batch = 1;
    j->tokens = tokens;
}

static void test_dense(void)
{
    jc_job j;
    dense_job(&j, 2048 * 10);
    jc_estimate *e = check_estimate(&j, NULL, db);
    if (!e) return;
    const jc_train_step *t = e->train_step;
    CHECK(t != NULL);
    if (!t) { jc_estimate_free(e); return; }
    double P = 312e12, sm = 108, T = 2048;
    double g = 2 * (fb(P, sm, T, 3072, 1024) + fb(P, sm, T, 1024, 1024) + fb(P, sm, T, 4096, 1024) +
                    fb(P, sm, T, 1024, 4096));
    double att = 2 * (2 * T * 1024 * 8 * 256) * 3.5 / (P * 0.5);
    double mem = T * 2 * 24576 * 2 * 3 / (2039e9 * ETA_BW);
    double eta = cval("train_step_eta");
    g /= eta, att /= eta, mem /= eta;
    double sum = g + att + mem;
    double ck = 16 * 25165824 / 25e9 * sum / 3600;
    double step = (sum + ck) / cval("train_goodput_short");
    CHECK_NEAR(part(t, "gemm"), g, 1e-9);
    CHECK_NEAR(part(t, "attention"), att, 1e-9);
    CHECK_NEAR(part(t, "memory"), mem, 1e-9);
    CHECK_NEAR(t->step_s, step, 1e-9);
    CHECK_NEAR(t->tp * t->pp * t->dp, 1, 0);
    CHECK_NEAR(t->steps, 10, 0);
    CHECK_NEAR(e->device_hours.central, 10 * step / 3600, 1e-9);
    jc_estimate_free(e);
}

/* The goodput: train_goodput_short for a short run, train_goodput_long
 * for a run of train_goodput_long_h productive hours or more, log-linear
 * in the hours between; --goodput as given; the step is the productive
 * step / goodput and the lost part the difference. */
static void test_goodput(void)
{
    static const double tokens[] = {2048 * 10, 2048 * 4e8, 0};
    double prod[2] = {0, 0};
    for (int k = 0; k < 3; k++) {
        jc_job j;
        dense_job(&j, k < 2 ? tokens[k] : 2048 * 10);
        if (k == 2) j.goodput = 0.5;
        jc_estimate *e = check_estimate(&j, NULL, db);
        if (!e) return;
        const jc_train_step *t = e->train_step;
        double lost = part(t, "lost");
        double H = t->steps * (t->step_s - lost) / 3600;
        if (k < 2) prod[k] = t->step_s - lost;
        double a = cval("train_goodput_short_h"), b = cval("train_goodput_long_h");
        double w = H <= a ? 0 : H >= b ? 1 : log(H / a) / log(b / a);
        double want = k == 2 ? 0.5 : cval("train_goodput_short") + w * (cval("train_goodput_long") - cval("train_goodput_short"));
        if (k == 1) CHECK(H > a);   /* the long run is past the short class */
        CHECK_NEAR(t->goodput.central, want, 1e-12);
        CHECK_NEAR(t->step_s, (t->step_s - lost) / want, 1e-9 * t->step_s);
        CHECK(t->why_goodput != NULL && strstr(t->why_goodput, k == 2 ? "--goodput" : "by run length") != NULL);
        jc_estimate_free(e);
    }
    CHECK_NEAR(prod[0], prod[1], 1e-9 * prod[0]);   /* the productive step does not change */
}

/* MoE: tests/train/tiny-moe.json (2 layers, d 1024, 8 heads of 128, 8
 * experts of 2048, top-2, vocabulary 1024) on two H100 (989.5 TFLOP/s,
 * 132 SMs, 3350 GB/s, NVLink 450 GB/s), ep 2, two sequences of 1024
 * tokens per step: one per data-parallel rank, T = 1024.  Per layer:
 *   GEMMs   qkv 1024x3072x1024, out 1024x1024x1024, router 1024x8x1024,
 *           4 local experts of 1024 x 2 x 2 / 8 = 512 tokens: up
 *           512x4096x1024 and down 512x1024x2048 each, as one grouped
 *           kernel (a fill per expert, one launch floor);
 *   LM head 1024x1024x1024 once;
 *   all-to-all 4 x 1024 x 2 x 1024 x 2 B x 1/2 over NVLink;
 *   memory  per token per layer 10 d + 2 x 3072 + 3 x 2 x 2048 + 4 x 2 x d
 *           elements, plus the logits 1024 x 4 B x 3 per token. */
static void test_moe(void)
{
    jc_job j;
    job_base(&j, "nvidia-h100-sxm5", 2);
    j.hf_config = "tests/train/tiny-moe.json";
    j.seq = 1024;
    j.batch = 2;
    j.ep = 2;
    j.tokens = 1024 * 2 * 5;
    jc_estimate *e = check_estimate(&j, NULL, db);
    if (!e) return;
    const jc_train_step *t = e->train_step;
    CHECK(t != NULL);
    if (!t) { jc_estimate_free(e); return; }
    double P = 989.5e12, sm = 132, T = 1024;
    double experts = 0;
    {
        /* 4 grouped GEMMs: the fill term once per GEMM, quantisation of
         * one */
        double p = P * ETA_M;
        double f_up = 2 * 512.0 * 4096 * 1024, f_dn = 2 * 512.0 * 1024 * 2048;
        double up = 0, dn = 0;
        double sh[3][3] = {{512, 4096, 1024}, {512, 1024, 4096}, {1024, 4096, 512}};
        double sd[3][3] = {{512, 1024, 2048}, {512, 2048, 1024}, {2048, 1024, 512}};
        for (int k = 0; k < 3; k++) {
            double M = sh[k][0], N = sh[k][1], tl = ceil(M / 128) * ceil(N / 64);
            double q = M * N / (tl * 8192);
            if (tl >= sm) q *= tl / (ceil(tl / sm) * sm);
            up = 4 * f_up / (p * q) + 2e-6 * 4;
            M = sd[k][0], N = sd[k][1], tl = ceil(M / 128) * ceil(N / 64);
            q = M * N / (tl * 8192);
            if (tl >= sm) q *= tl / (ceil(tl / sm) * sm);
            dn = 4 * f_dn / (p * q) + 2e-6 * 4;
            experts += (up > 1e-5 ? up : 1e-5) + (dn > 1e-5 ? dn : 1e-5);   /* one grouped kernel: one launch */
        }
    }
    double layer = fb(P, sm, T, 3072, 1024) + fb(P, sm, T, 1024, 1024) + fb(P, sm, T, 8, 1024) + experts;
    double g = 2 * layer + fb(P, sm, T, 1024, 1024);
    double a2a = 2 * (4 * T * 2 * 1024 * 2 * 0.5) / 450e9;
    double mem = T * (2 * (10 * 1024 + 2 * 3072 + 3 * 2 * 2048 + 4 * 2 * 1024)) * 2 * 3 / (3350e9 * ETA_BW) +
                 T * 1024 * 4 * 3 / (3350e9 * ETA_BW);
    double att = 2 * (2 * T * 512 * 8 * 256) * 3.5 / (P * 0.5);
    double eta = cval("train_step_eta");   /* the compute parts' share of the kernel model's speed */
    g /= eta, mem /= eta, att /= eta;
    CHECK_NEAR(t->ep, 2, 0);
    CHECK_NEAR(t->dp, 2, 0);
    CHECK_NEAR(part(t, "gemm"), g, 1e-9);
    CHECK_NEAR(part(t, "ep_alltoall"), a2a, 1e-9);
    CHECK_NEAR(part(t, "memory"), mem, 1e-9);
    CHECK_NEAR(part(t, "attention"), att, 1e-9);
    jc_estimate_free(e);
}

static void test_refusals(void)
{
    jc_job j;
    jc_estimate *e = NULL;
    jc_diag d;
    job_base(&j, "nvidia-h100-sxm5", 8);
    j.hf_config = "tests/train/tiny-moe.json";
    j.tokens = 1e9;
    j.utilization = 0.4;   /* the step model's output, not an input */
    CHECK_I64(jc_estimate_run(&j, NULL, db, &e, &d), JC_ERR_USAGE);
    job_base(&j, "nvidia-h100-sxm5", 8);
    j.hf_config = "tests/train/tiny-moe.json";
    j.tokens = 1e9;
    j.params = 1e9;   /* the config gives the parameters */
    CHECK_I64(jc_estimate_run(&j, NULL, db, &e, &d), JC_ERR_USAGE);
    job_base(&j, "nvidia-h100-sxm5", 8);
    j.params = 1e9;
    j.layers = 16;    /* no --hidden / --heads / --seq */
    j.tokens = 1e9;
    CHECK_I64(jc_estimate_run(&j, NULL, db, &e, &d), JC_ERR_USAGE);
    job_base(&j, "nvidia-h100-sxm5", 1);
    j.hf_config = "tests/serving/configs/llama-3.1-70b.json";   /* 70B on one device */
    j.tokens = 1e9;
    CHECK_I64(jc_estimate_run(&j, NULL, db, &e, &d), JC_ERR_RANGE);
    job_base(&j, "google-tpu-v2", 8);   /* no memory bandwidth: refused, not 0 h */
    j.params = 2.1e8;
    j.tokens = 1e10;
    CHECK_I64(jc_estimate_run(&j, NULL, db, &e, &d), JC_ERR_HWDB);
}

/* Issue 44 item 1: Llama-3.1-8B pre-trained on 2 T tokens on 512 H100 by
 * its config, by its shape (--layers 32 --hidden 4096 --heads 32) and by
 * its parameter count alone: the three go through the step model, so they
 * agree; the derived shape is N = 12 L d^2 at d = 128 L (8.03e9 / (12 x
 * 128^2) = 40,843, cube root 34.4: 34 layers, d = 4,352 rounded to groups
 * of 1,024: 4,096).  What --params cannot know is the vocabulary: the
 * derived shape counts the 1.05 G parameters of the embedding and LM head
 * as layers (6.5% of the FLOPs the config's route leaves out of the
 * embedding lookup), which bounds the gap to --hf-config; with --layers
 * (the same assumption) the gap is the layout of 34 x 4,096 against
 * 32 x 4,096 alone. */
static double route_hours(const char *hf, double layers)
{
    jc_job j;
    job_base(&j, "nvidia-h100-sxm5", 512);
    j.optimizer = NULL;
    j.tokens = 2e12;
    if (hf) {
        j.hf_config = hf;
    } else {
        j.params = 8.03e9;
        if (layers > 0) j.layers = layers, j.hidden = 4096, j.heads = 32, j.seq = 8192;
    }
    jc_estimate *e = check_estimate(&j, NULL, db);
    if (!e) return NAN;
    double h = e->device_hours.central;
    if (!hf && !(layers > 0)) {
        CHECK(e->train_step != NULL);
        if (e->train_step) {
            CHECK_NEAR(e->train_step->layers, 34, 0);
            CHECK_NEAR(e->train_step->hidden, 4096, 0);
            CHECK_NEAR(e->train_step->heads, 32, 0);
        }
    }
    jc_estimate_free(e);
    return h;
}

static void test_routes_agree(void)
{
    double hf = route_hours("tests/serving/configs/llama-3.1-8b.json", 0);
    double shape = route_hours(NULL, 32), params = route_hours(NULL, 0);
    printf("  Llama-3.1-8B, 2 T tokens, 512 H100: --hf-config %.0f, --layers %.0f, --params %.0f GPU-hours\n", hf,
           shape, params);
    CHECK(fabs(params / shape - 1) <= 0.03);
    CHECK(fabs(params / hf - 1) <= 0.08);
    CHECK(fabs(shape / hf - 1) <= 0.08);
    /* the rule itself: 70 G parameters, 71 layers of 9,216 (9 groups of
     * 8 heads of 128); with --hidden 8192, N / (12 d^2) = 86.9: 87 */
    jc_job j;
    job_base(&j, "nvidia-h100-sxm5", 2048);
    j.params = 7e10;
    j.tokens = 1e12;
    jc_estimate *e = check_estimate(&j, NULL, db);
    if (e && e->train_step) CHECK(e->train_step->layers == 71 && e->train_step->hidden == 9216);
    jc_estimate_free(e);
    j.hidden = 8192;
    e = check_estimate(&j, NULL, db);
    if (e && e->train_step) CHECK(e->train_step->layers == 87 && e->train_step->hidden == 8192);
    jc_estimate_free(e);
}

/* Issue 40: LoRA rank 16 on Llama-3.1-8B's attention projections against
 * the closed form r (d_in + d_out) per matrix x layers: q 4096 -> 4096,
 * k and v 4096 -> 1024 (8 KV heads of 128), o 4096 -> 4096:
 * 16 x (8192 + 5120 + 5120 + 8192) = 425,984 per layer, x 32 layers =
 * 13,631,488; the base (its 8.03 G) frozen; all seven projections add
 * the MLP's 3 x 16 x (4096 + 14336) per layer. */
static jc_estimate *ft_run(const char *cfg, const char *kind, const char *targets, const char *dev, double count,
                           double batch)
{
    jc_job j;
    job_base(&j, dev, count);
    j.optimizer = NULL;
    j.hf_config = cfg;
    j.finetune = kind;
    j.lora_rank = 16;
    j.lora_targets = targets;
    j.seq = 8192;
    j.batch = batch;
    j.samples = 3072;
    return check_estimate(&j, NULL, db);
}

static void test_lora_params(void)
{
    const char *c8 = "tests/serving/configs/llama-3.1-8b.json";
    jc_estimate *e = ft_run(c8, "lora", "q_proj,k_proj,v_proj,o_proj", "nvidia-h100-sxm5", 8, 8);
    if (e && e->train_step) {
        double per = 16.0 * ((4096 + 4096) + 2 * (4096 + 1024) + (4096 + 4096));
        CHECK_NEAR(e->train_step->params_trainable, 32 * per, 0);
        CHECK_NEAR(e->train_step->params_trainable, 13631488, 0);
        CHECK_NEAR(e->train_step->params_frozen, e->train_step->params_total, 0);
        CHECK(e->train_step->params_total > 8e9);
        CHECK(!strcmp(e->train_step->finetune, "lora"));
    }
    jc_estimate_free(e);
    e = ft_run(c8, "lora", "all", "nvidia-h100-sxm5", 8, 8);
    if (e && e->train_step)
        CHECK_NEAR(e->train_step->params_trainable, 13631488 + 32 * 3 * 16.0 * (4096 + 14336), 0);
    jc_estimate_free(e);
}

/* The memory check on the MLPerf Llama 2 70B LoRA runs' smallest device
 * counts (tests/accuracy/mlperf-training.csv, llama2_70b_lora: 4 and 8 x H100 80 GB,
 * global batch 8): a layout fits; the frozen base has no gradients or
 * optimizer state; 70B LoRA on one H100 is refused with QLoRA as the way
 * to fit, and QLoRA fits it (an NF4 base of 0.516 B per parameter). */
static void test_lora_memory(void)
{
    const char *c70 = "tests/serving/configs/llama-2-70b.json", *att = "q_proj,k_proj,v_proj,o_proj";
    const double counts[] = {4, 8};
    for (int i = 0; i < 2; i++) {
        jc_estimate *e = ft_run(c70, "lora", att, "nvidia-h100-sxm5", counts[i], 8);
        CHECK(e && e->train_step);
        if (e && e->train_step) {
            const jc_train_step *t = e->train_step;
            CHECK(t->memory_gb <= t->memory_cap_gb);
            double adapters = t->params_trainable / (t->tp * t->pp);
            CHECK_NEAR(t->mem_grads_gb, 2 * adapters / 1e9 / (t->zero >= 2 ? t->dp : 1), 1e-9);
            CHECK(t->mem_optimizer_gb < 1);
            CHECK(part(t, "adapters") > 0 && part(t, "dequant") == 0);
        }
        jc_estimate_free(e);
    }
    jc_job j;
    jc_estimate *e = NULL;
    jc_diag d;
    job_base(&j, "nvidia-h100-sxm5", 1);
    j.hf_config = c70, j.finetune = "lora", j.seq = 8192, j.batch = 8, j.samples = 64;
    CHECK_I64(jc_estimate_run(&j, NULL, db, &e, &d), JC_ERR_RANGE);
    CHECK(strstr(d.msg, "--finetune qlora") != NULL);
    e = ft_run(c70, "qlora", att, "nvidia-h100-sxm5", 1, 8);
    if (e && e->train_step) {
        const jc_train_step *t = e->train_step;
        CHECK_NEAR(t->base_bytes_per_param, (4 + 8.0 / 64 + 32.0 / (64 * 256)) / 8, 1e-12);
        CHECK_NEAR(t->mem_optimizer_gb, 0, 0);   /* paged to the host */
        CHECK(part(t, "dequant") > 0);
    }
    jc_estimate_free(e);
}

/* What fine-tuning refuses: an unknown kind or projection, adapter
 * options without adapters, no --batch. */
static void test_finetune_refusals(void)
{
    const char *c8 = "tests/serving/configs/llama-3.1-8b.json";
    struct { const char *kind, *targets; double rank, batch; } bad[] = {
        {"lorra", NULL, NAN, 8}, {"lora", "q_prj", NAN, 8}, {"full", NULL, 8, 8}, {NULL, "q_proj", NAN, 8},
        {"lora", NULL, NAN, NAN},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        jc_job j;
        jc_estimate *e = NULL;
        jc_diag d;
        job_base(&j, "nvidia-h100-sxm5", 8);
        j.hf_config = c8, j.finetune = bad[i].kind, j.lora_targets = bad[i].targets, j.lora_rank = bad[i].rank;
        j.batch = bad[i].batch, j.tokens = 1e8;
        CHECK_I64(jc_estimate_run(&j, NULL, db, &e, &d), JC_ERR_USAGE);
    }
}

/* Evaluation and checkpoints of the job (issue 39 item 3,
 * src/estimate/train_overhead.c) in the step breakdown of test_dense's
 * job (10 steps of one sequence): an evaluation of 2 samples every 4
 * adds 2/4 of the step's forward compute, (gemm + attention + memory) /
 * (1 + backward_factor); a checkpoint of 14 B per parameter every 5
 * steps at 0.5 GB/s adds 14 x 25,165,824 / 0.5e9 / 5 s per step in place
 * of the copy to host memory; --checkpoint-gb sets the size; each key
 * without its partner is refused. */
static void test_eval_checkpoint_step(void)
{
    jc_job j;
    dense_job(&j, 2048 * 10);
    j.eval_every = 4, j.eval_samples = 2, j.checkpoint_every = 5, j.storage_gbs = 0.5;
    jc_estimate *e = check_estimate(&j, NULL, db);
    if (e && e->train_step) {
        const jc_train_step *t = e->train_step;
        double comp = part(t, "gemm") + part(t, "attention") + part(t, "memory");
        CHECK_NEAR(part(t, "evaluation"), 0.5 * comp / (1 + cval("backward_factor")), 1e-12);
        CHECK_NEAR(part(t, "checkpoint"), 14 * 25165824 / 0.5e9 / 5, 1e-12);
        double sum = 0;
        for (size_t i = 0; i < t->n_parts; i++) sum += t->parts[i].s;
        CHECK_NEAR(t->step_s, sum, 1e-9 * sum);
    }
    jc_estimate_free(e);
    j.checkpoint_gb = 2;
    e = check_estimate(&j, NULL, db);
    if (e && e->train_step) CHECK_NEAR(part(e->train_step, "checkpoint"), 2 / 0.5 / 5, 1e-12);
    jc_estimate_free(e);
    static const char *const want[] = {"--eval-samples", "--storage-gbs", "--checkpoint-every K"};
    for (int k = 0; k < 3; k++) {
        dense_job(&j, 2048 * 10);
        if (k == 0) j.eval_every = 4;
        if (k == 1) j.checkpoint_every = 5;
        if (k == 2) j.storage_gbs = 1;
        jc_diag d;
        e = NULL;
        CHECK_I64(jc_estimate_run(&j, NULL, db, &e, &d), JC_ERR_USAGE);
        CHECK(strstr(d.msg, want[k]) != NULL);
        jc_estimate_free(e);
    }
}

/* Data-parallel training of a MODEL.onnx (issue 39): --batch 64 on
 * --count 4 counts the graph at the 16 samples one device runs
 * (jc_request_analyze), so its kernels are timed at that batch; the
 * estimate takes that count, reports 10 steps of 64 samples and a step's
 * forward FLOPs over the four devices, and its device time is the single
 * device's at batch 16 for the same 10 steps (the gradient all-reduce
 * aside: one node's NVLink, hidden by the backward pass) .  A checkpoint
 * of 1 GB every 5 steps at 0.5 GB/s adds 2 x 2 s of wall time. */
static void test_device_batch(void)
{
    jc_job j;
    job_base(&j, "nvidia-h100-sxm5", 4);
    j.batch = 64, j.samples = 640;
    CHECK_NEAR(jc_job_device_batch(&j), 16, 0);
    jc_request rq;
    jc_request_init(&rq);
    rq.job = &j;
    rq.model = "models/resnet50.onnx";
    jc_prepared *p = NULL;
    jc_diag d;
    if (!check_need(rq.model) || jc_request_prepare(&rq, &p, &d) != JC_OK) {
        CHECK(0);
        return;
    }
    CHECK_NEAR(p->info.batch, 16, 0);
    jc_estimate *e4 = check_estimate(&j, p->analysis, db);
    jc_job one;
    job_base(&one, "nvidia-h100-sxm5", 1);
    one.batch = 16, one.samples = 160;
    CHECK(jc_job_device_batch(&one) != jc_job_device_batch(&one));   /* NAN: one device */
    jc_estimate *e1 = check_estimate(&one, p->analysis, db);
    if (e4 && e1) {
        CHECK_NEAR(e4->passes, 10, 0);
        CHECK_NEAR(e4->flops_per_pass, 4 * e1->flops_per_pass, 1e-6 * e1->flops_per_pass);
        CHECK_NEAR(e4->wall_hours.central, e1->wall_hours.central, 1e-9 * e1->wall_hours.central);
    }
    j.checkpoint_every = 5, j.checkpoint_gb = 1, j.storage_gbs = 0.5;
    jc_estimate *ec = check_estimate(&j, p->analysis, db);
    if (e4 && ec) CHECK_NEAR((ec->wall_hours.central - e4->wall_hours.central) * 3600, 4, 1e-6);
    jc_estimate_free(ec);
    jc_estimate_free(e4);
    jc_estimate_free(e1);
    jc_prepared_free(p);
}

/* A layout size the user gives runs as given, not only the powers of two
 * the search tries (NVIDIA's GPT-3 at 10,752 GPUs: tensor 4 x pipeline 6):
 * 6 layers on 6 A100 at --pp 3 --tp 1 leave 2 data-parallel ranks. */
static void test_given_sizes(void)
{
    jc_job j;
    job_base(&j, "nvidia-a100-sxm4-80gb", 6);
    j.params = 6 * 12 * 1024.0 * 1024.0;
    j.layers = 6;
    j.hidden = 1024;
    j.heads = 8;
    j.seq = 2048;
    j.batch = 2;
    j.tokens = 2048 * 2 * 10;
    j.pp = 3;
    j.tp = 1;
    jc_estimate *e = check_estimate(&j, NULL, db);
    if (e && e->train_step) {
        CHECK_NEAR(e->train_step->pp, 3, 0);
        CHECK_NEAR(e->train_step->tp, 1, 0);
        CHECK_NEAR(e->train_step->dp, 2, 0);
    }
    jc_estimate_free(e);
}

/* The assumption `key` of an estimate, NULL when it is not there. */
static const jc_assumption *assumed(const jc_estimate *e, const char *key)
{
    for (size_t i = 0; i < e->n_assumptions; i++)
        if (!strcmp(e->assumptions[i].key, key)) return &e->assumptions[i];
    return NULL;
}

/* Quantised training (runtimes.def RT_LOWP_ASKED): the JAX/XLA stack at
 * --precision int8 (MaxText's AQT) runs the GEMMs at the device's int8
 * peak (TPU v5p: 918 TOP/s, twice its 459 bf16 TFLOP/s) and the attention
 * core at the bf16 peak: the attention part is the bf16 run's, the GEMMs
 * take about half the time; the assumption train.int8_peak names the
 * peak.  Without --precision the stack runs every kernel in bf16 (no
 * 8-bit peak recorded). */
static void test_quantised_gemms(void)
{
    jc_estimate *e[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++) {
        jc_job j;
        dense_job(&j, 2048 * 10);
        j.device = "google-tpu-v5p";
        j.power_limit_w = NAN;   /* the TPU's default */
        j.runtime = "jax-xla";
        j.precision = k ? "int8" : NULL;
        e[k] = check_estimate(&j, NULL, db);
    }
    if (e[0] && e[1] && e[0]->train_step && e[1]->train_step) {
        const jc_train_step *b = e[0]->train_step, *q = e[1]->train_step;
        CHECK(part(b, "attention") > 0);
        CHECK_NEAR(part(q, "attention"), part(b, "attention"), 1e-12 * part(b, "attention"));
        double r = part(q, "gemm") / part(b, "gemm");
        CHECK(r > 0.45 && r < 0.6);
        const jc_assumption *a = assumed(e[1], "train.int8_peak");
        CHECK(a != NULL);
        if (a) CHECK_NEAR(a->value.central, 918, 0);
        CHECK(assumed(e[0], "train.int8_peak") == NULL);
        const jc_assumption *s = assumed(e[1], "train.stack");
        CHECK(s && strstr(s->label, "int8 GEMMs as --precision asks") != NULL);
    }
    jc_estimate_free(e[0]);
    jc_estimate_free(e[1]);
}

int main(void)
{
    if (!(db = check_bundled_hwdb())) return 1;
    read_etas();
    RUN(test_dense);
    RUN(test_goodput);
    RUN(test_moe);
    RUN(test_refusals);
    RUN(test_routes_agree);
    RUN(test_lora_params);
    RUN(test_lora_memory);
    RUN(test_finetune_refusals);
    RUN(test_eval_checkpoint_step);
    RUN(test_device_batch);
    RUN(test_quantised_gemms);
    RUN(test_given_sizes);
    jc_hwdb_free(db);
    return check_summary();
}
