/*
 * test_parallel.c - the multi-device arithmetic (src/estimate/parallel.c)
 * against hand-computed values: ring all-reduce time, the ring's bandwidth
 * across nodes, the pipeline bubble, the exposed part of an all-reduce,
 * wave quantisation, the latency of an all-reduce by algorithm (NCCL's
 * cost model); and a data-parallel / tensor + pipeline-parallel
 * training estimate whose wall time is worked out by hand below from the
 * hwdb figures it uses (hwdb/interconnect.yaml), plus the refusals of
 * options that would have no effect and of a global batch smaller than
 * the data-parallel replicas.
 */
#include "joulecast.h"
#include "estimate/parallel.h"
#include "check.h"

#include <math.h>
#include <string.h>

static jc_hwdb *db;

static void test_allreduce(void)
{
    /* 4 devices, 8 tokens x 4096 x 2 bytes, 450 GB/s, 10 us:
     * 2 x 3/4 x 65536 / 450e9 + 1e-5 = 1.02184533e-5 s */
    CHECK_NEAR(jci_allreduce_ring_s(4, 65536, 450e9, 1e-5), 1.0218453333e-5, 1e-9);
    CHECK_NEAR(jci_allreduce_ring_s(2, 1e9, 1e9, 0), 1.0, 1e-12);
    CHECK_NEAR(jci_allreduce_ring_s(1, 1e9, 1e9, 1e-5), 0, 0);
    /* 2048 ranks, 250 MB (125M bf16 gradients), 200 GB/s:
     * 2 x 2047/2048 x 2.5e8 / 2e11 = 2.498779296875e-3 s */
    CHECK_NEAR(jci_allreduce_ring_s(2048, 2.5e8, 2e11, 0), 2.498779296875e-3, 1e-12);
}

static void test_ring_bw(void)
{
    /* within a node: the device link */
    CHECK_NEAR(jci_ring_bw(8, 8, 300e9, 25e9), 300e9, 1e-12);
    /* 256 nodes of 8: each node's traffic leaves through 8 x 25 GB/s */
    CHECK_NEAR(jci_ring_bw(2048, 8, 300e9, 25e9), 200e9, 1e-12);
    /* one rank per node: one NIC */
    CHECK_NEAR(jci_ring_bw(16, 1, 300e9, 25e9), 25e9, 1e-12);
    /* the network faster than the link: the link bounds it */
    CHECK_NEAR(jci_ring_bw(64, 8, 150e9, 25e9), 150e9, 1e-12);
}

static void test_bubble_exposed_wave(void)
{
    CHECK_NEAR(jci_pp_bubble(4, 32), 3.0 / 35.0, 1e-12);   /* 0.0857 */
    CHECK_NEAR(jci_pp_bubble(8, 1), 7.0 / 8.0, 1e-12);
    CHECK_NEAR(jci_pp_bubble(1, 8), 0, 0);
    CHECK_NEAR(jci_exposed_s(3, 2, 1), 1, 1e-12);
    CHECK_NEAR(jci_exposed_s(1, 2, 1), 0, 0);
    CHECK_NEAR(jci_exposed_s(3, 4, 0.5), 1, 1e-12);
    /* 109 tiles on 108 SMs: two waves, the second nearly empty */
    CHECK_NEAR(jci_wave_factor(109, 108), 109.0 / 216.0, 1e-12);
    CHECK_NEAR(jci_wave_factor(216, 108), 1, 1e-12);
    CHECK_NEAR(jci_wave_factor(54, 108), 0.5, 1e-12);
    CHECK_NEAR(jci_wave_factor(0, 108), 1, 0);
}

/* The latency of an all-reduce by NCCL's cost model (coll_latency.c) at
 * NCCL's Simple-protocol hop latencies (hwdb/interconnect.yaml nccl_lat_*,
 * microseconds: ring base 8.4, NVLink 3.4, network 14; tree 28; NVLS 23,
 * its network step 18, NVLS tree 14; CollNet 2.8 + 30). */
static void test_coll_latency(void)
{
    const double h[JCI_COLL_HOPS_N] = {8.4e-6, 3.4e-6, 14e-6, 28e-6, 23e-6, 18e-6, 14e-6, 2.8e-6, 30e-6};
    /* 2,528 ranks, 8 per node (316 nodes, floor(log2 316) = 8):
     * ring 8.4 + (5,054 - 632) x 3.4 + 632 x 14 = 23,891.2 us;
     * tree 2 (7 + 8) x 28 = 840 us; NVLS tree 23 + 2 x 8 x 14 = 247 us;
     * CollNet 2 x 7 x 2.8 + 30 = 69.2 us.  One node of 8: tree
     * 2 x 7 x 28 = 392 us; 4 ranks on 8-device nodes: one node, 6 steps. */
    static const struct { jci_coll_alg a; double n, ppn, want_us; } LAT[] = {
        {JCI_COLL_RING, 2528, 8, 23891.2}, {JCI_COLL_TREE, 2528, 8, 840}, {JCI_COLL_NVLS_TREE, 2528, 8, 247},
        {JCI_COLL_COLLNET, 2528, 8, 69.2}, {JCI_COLL_TREE, 8, 8, 392}, {JCI_COLL_RING, 4, 8, 8.4 + 6 * 3.4},
        {JCI_COLL_RING, 1, 8, 0},
    };
    for (size_t i = 0; i < sizeof LAT / sizeof LAT[0]; i++)
        CHECK_NEAR(jci_coll_latency_s(LAT[i].a, LAT[i].n, LAT[i].ppn, h), LAT[i].want_us * 1e-6, 1e-10);
    /* the lowest latency the fabric offers (up: the NVSwitch reduces,
     * out: the network switches reduce): at 316 nodes a tree, an NVLS
     * tree, CollNet, NVLS through reducing switches 23 + 18 = 41 us; in
     * one node of 8 a ring 8.4 + 14 x 3.4 = 56 us or NVLS 23 us; 2 nodes
     * of 8 a ring 8.4 + (30 - 4) x 3.4 + 4 x 14 = 152.8 us (tree 448);
     * one rank nothing; one rank on each of 32 nodes: no NVLS (nothing to
     * reduce in a node), a tree 2 x 5 x 28 = 280 us (ring 8.4 + 62 x 14) */
    static const struct { double n, ppn; int up, out; jci_coll_alg want; double want_us; } BEST[] = {
        {2528, 8, 0, 0, JCI_COLL_TREE, 840}, {2528, 8, 1, 0, JCI_COLL_NVLS_TREE, 247},
        {2528, 8, 0, 1, JCI_COLL_COLLNET, 69.2}, {2528, 8, 1, 1, JCI_COLL_NVLS, 41},
        {8, 8, 0, 0, JCI_COLL_RING, 56}, {8, 8, 1, 0, JCI_COLL_NVLS, 23}, {16, 8, 0, 0, JCI_COLL_RING, 152.8},
        {1, 8, 1, 1, JCI_COLL_RING, 0}, {32, 1, 1, 0, JCI_COLL_TREE, 280},
    };
    for (size_t i = 0; i < sizeof BEST / sizeof BEST[0]; i++) {
        double lat = -1;
        CHECK_I64(jci_coll_best(BEST[i].n, BEST[i].ppn, BEST[i].up, BEST[i].out, h, &lat), BEST[i].want);
        CHECK_NEAR(lat, BEST[i].want_us * 1e-6, 1e-10);
    }
}

static void job_small(jc_job *j)
{
    jc_job_init(j);
    j->mode = JC_MODE_TRAINING;
    j->device = "nvidia-a100-sxm4-80gb";
    j->count = 2048;
    j->params = 1.25e8;
    j->tokens = 3e11;
    j->utilization = 0.5;
    j->optimizer = "none";
    j->pue = 1;
    j->ci = 400;
}

/* 125M parameters on 2048 A100 (256 nodes of 8, 25 GB/s per GPU), bf16,
 * MFU 0.5, 2048 sequences of 512 tokens per step (one a replica; 512
 * sequences of 2048 would leave 1536 replicas without one: refused,
 * test_dp_beyond_batch):
 *   compute  T_c = 6 N D / (G x 312e12 x 0.5) = 704.2518 s
 *   steps    ceil(3e11 / 1,048,576) = 286,103; per step 2.4615e-3 s,
 *            backward 2/3 of it = 1.6410e-3 s
 *   all-reduce 2 x 2047/2048 x 2.5e8 B / (8 x 25e9) = 2.4988e-3 s, plus
 *            its latency (no host: no in-network reduction): a tree over
 *            256 nodes, 2 (7 + 8) x 28 us = 8.4e-4 s (NCCL's cost model;
 *            the ring's 8.4 + 3,582 x 3.4 + 512 x 14 us is 19.4 ms)
 *   exposed  2.4988e-3 + 8.4e-4 - 1.6410e-3 = 1.69776e-3 s per step
 *   T = 704.2518 + 286,103 x 1.69776e-3 = 1,189.986 s: 676.97 device-hours,
 *   40.82% of the wall time not computing. */
static void test_dp_small_model(void)
{
    jc_job j;
    job_small(&j);
    j.batch = 2048;
    j.seq = 512;
    jc_estimate *e = check_estimate(&j, NULL, db);
    if (!e) return;
    CHECK_NEAR(e->device_hours.central, 676.9700, 1e-3);
    const jc_assumption *a = NULL;
    for (size_t i = 0; i < e->n_assumptions; i++)
        if (!strcmp(e->assumptions[i].key, "parallel.overhead")) a = &e->assumptions[i];
    CHECK(a != NULL);
    if (a) CHECK_NEAR(a->value.central, 0.408185, 1e-5);
    jc_estimate_free(e);
    /* without the global batch the all-reduce is not modelled, and says so */
    job_small(&j);
    e = check_estimate(&j, NULL, db);
    if (!e) return;
    CHECK_NEAR(e->device_hours.central, 2048 * 704.2518028846 / 3600, 1e-9);
    int warned = 0;
    for (size_t i = 0; i < e->n_warnings; i++) warned |= strstr(e->warnings[i], "not modelled") != NULL;
    CHECK(warned);
    jc_estimate_free(e);
}

/* 70B (d 8192) on 2048 A100 as tp 8 x pp 4 x dp 64, 16 micro-batches
 * (the 16 sequences each replica takes: jci_dp_batch_check refuses more),
 * 1024 x 4096 tokens per step, MFU 0.5:
 *   T_c = 6 x 7e10 x 2e12 / (2048 x 156e12) = 2,629,206.73 s
 *   layers 7e10 / (12 x 8192^2) = 86.923; TP all-reduces per device
 *   86.923 / 4 x 4 x 2 x 7/8 x (2e12 / 64 x 8192 x 2 B) / 300e9 = 259,611.34 s
 *   bubble x (16 + 3) / 16 = 1.1875: (T_c + 259,611.34) x 1.1875
 *   = 3,430,471.46 s; the gradient all-reduce (64 ranks, one per node,
 *   25 GB/s: 0.345 s) hides under the backward (3.676 s per step).
 *   Device-hours 2048 x 3,430,471.46 / 3600 = 1,951,557.1.  32
 *   micro-batches of those 16 sequences are refused (test_refusals). */
static void test_tp_pp(void)
{
    jc_job j;
    job_small(&j);
    j.params = 7e10;
    j.tokens = 2e12;
    j.batch = 1024;
    j.seq = 4096;
    j.tp = 8;
    j.pp = 4;
    j.micro_batches = 16;
    j.hidden = 8192;
    jc_estimate *e = check_estimate(&j, NULL, db);
    if (!e) return;
    CHECK_NEAR(e->device_hours.central, 1951557.0978, 1e-6);
    jc_estimate_free(e);
}

static void test_refusals(void)
{
    jc_job j;
    jc_estimate *e = NULL;
    jc_diag d;
    job_small(&j);
    j.tp = 8;   /* no --hidden */
    CHECK_I64(jc_estimate_run(&j, NULL, db, &e, &d), JC_ERR_USAGE);
    job_small(&j);
    j.pp = 4;   /* no --micro-batches */
    CHECK_I64(jc_estimate_run(&j, NULL, db, &e, &d), JC_ERR_USAGE);
    job_small(&j);
    j.tp = 3;
    j.hidden = 768;   /* 2048 is not a multiple of 3 */
    CHECK_I64(jc_estimate_run(&j, NULL, db, &e, &d), JC_ERR_USAGE);
    job_small(&j);
    j.mode = JC_MODE_INFERENCE;
    j.optimizer = NULL;
    j.pp = 2;   /* inference without --generate */
    CHECK_I64(jc_estimate_run(&j, NULL, db, &e, &d), JC_ERR_USAGE);
    job_small(&j);
    j.seq = 2048;   /* --seq without --batch: no effect */
    CHECK_I64(jc_estimate_run(&j, NULL, db, &e, &d), JC_ERR_USAGE);
}

/* Runs j (on analysis an, or NULL) and checks the data-parallel rule
 * (jci_dp_batch_check): refused (JC_ERR_USAGE) naming `batch` and
 * `replicas` when want_refused, else estimated. */
static void dp_rule(const jc_job *j, const jc_analysis *an, int want_refused, const char *batch, const char *replicas)
{
    jc_estimate *e = NULL;
    jc_diag d;
    jc_status st = jc_estimate_run(j, an, db, &e, &d);
    if (want_refused) {
        CHECK_I64(st, JC_ERR_USAGE);
        if (st) {
            CHECK(strstr(d.msg, batch) != NULL);
            CHECK(strstr(d.msg, replicas) != NULL);
        }
    } else {
        CHECK_I64(st, JC_OK);
        if (st) printf("  %s\n", d.msg);
    }
    jc_estimate_free(e);
}

/* A data-parallel degree beyond the global batch is refused, one rule in
 * each path, at the boundary: the 6ND path (--utilization) at tp 8 of
 * 2048 devices has 256 replicas (8 sequences refused, 256 run); the step
 * model at tp 1 of 16 devices 16 (4 sequences refused; on 4 devices 4
 * run); a MODEL.onnx (ResNet-18) on 8 devices 8 (2 samples refused, 8
 * run).  So is a batch that leaves a replica's micro-batch empty: the
 * 6ND path at tp 8 x pp 2 with 4 micro-batches (128 replicas: 511
 * refused, 512 run); the step model at tp 1 x pp 2 of 8 devices with 16
 * sequences (4 replicas: 8 micro-batches refused, 4 run). */
static void test_dp_beyond_batch(void)
{
    jc_job j;
    job_small(&j);
    j.seq = 2048;
    j.tp = 8;
    j.hidden = 768;
    j.batch = 8;
    dp_rule(&j, NULL, 1, "a global batch of 8 samples", "256 data-parallel replicas (2,048 devices / (tp 8 x pp 1))");
    j.batch = 256;
    dp_rule(&j, NULL, 0, "", "");
    /* with --pp 2 --micro-batches 4: 128 replicas, each 4 samples at least */
    j.pp = 2;
    j.micro_batches = 4;
    j.batch = 511;
    dp_rule(&j, NULL, 1, "a global batch of 511 samples per step over the 128 data-parallel replicas (2,048 "
            "devices / (tp 8 x pp 2))", "is 3.992 samples per replica, fewer than its 4 micro-batches");
    j.batch = 512;
    dp_rule(&j, NULL, 0, "", "");
    j.pp = j.micro_batches = NAN;

    check_step_job(&j, "nvidia-a100-sxm4-80gb");
    j.count = 16;
    j.tp = 1;
    dp_rule(&j, NULL, 1, "a global batch of 4 sequences", "16 data-parallel replicas (16 devices / (tp 1 x pp 1))");
    j.count = 4;
    dp_rule(&j, NULL, 0, "", "");
    /* the step model at tp 1 x pp 2 of 8 devices: 4 replicas of 4 sequences, 8 micro-batches refused, 4 run */
    j.count = 8;
    j.pp = 2;
    j.batch = 16;
    j.micro_batches = 8;
    dp_rule(&j, NULL, 1, "a global batch of 16 sequences per step over the 4 data-parallel replicas (8 devices / "
            "(tp 1 x pp 2))", "is 4 sequences per replica, fewer than its 8 micro-batches (--micro-batches): some "
            "micro-batches would take no sequence; give --batch 32 or more, --micro-batches 4 or fewer");
    j.micro_batches = 4;
    dp_rule(&j, NULL, 0, "", "");

    for (int b = 2; b <= 8; b += 6) {
        jc_model *m;
        jc_analysis *an;
        if (!check_analysis("models/resnet18.onnx", b, &m, &an)) return;
        jc_job_init(&j);
        j.mode = JC_MODE_TRAINING;
        j.device = "nvidia-a100-sxm4-80gb";
        j.batch = b;
        j.samples = 640;
        j.count = 8;
        j.ci = 400;
        dp_rule(&j, an, b < 8, "a global batch of 2 samples", "8 data-parallel replicas (8 devices / (tp 1 x pp 1))");
        jc_analysis_free(an);
        jc_model_free(m);
    }
}

int main(void)
{
    if (!(db = check_bundled_hwdb())) return 1;
    RUN(test_allreduce);
    RUN(test_ring_bw);
    RUN(test_coll_latency);
    RUN(test_bubble_exposed_wave);
    RUN(test_dp_small_model);
    RUN(test_tp_pp);
    RUN(test_refusals);
    RUN(test_dp_beyond_batch);
    jc_hwdb_free(db);
    return check_summary();
}
