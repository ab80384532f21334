/*
 * test_fusion.c - the runtime's kernels over a graph (src/estimate/
 * fusion.c) and the GEMM kernel model (src/estimate/efficiency.c) on the
 * torchvision graphs of tests/models/torchvision: attention found as one
 * SDPA kernel (eager PyTorch 2, compiled) and not under eager-pt1, the
 * exporter's decomposed normalisations and GELUs as one kernel each, the
 * eager convolution side kernels, the GEMM time's tile, wave and
 * depthwise terms on hand-computed shapes, and the training step's
 * backward terms (transforms twice, normalisation reductions,
 * kernel_eta_backward) and the forward's L2-resident inputs, a
 * framework's and an inference engine's.
 */
#include "joulecast.h"
#include "check.h"
#include "estimate/efficiency.h"

#include <math.h>
#include <string.h>

static jc_hwdb *db;

typedef struct counts {
    int attn, groups, own_softmax, own_reduce, own_erf, side_convs, side_kernels, convs, kernels;
} counts;

static int plan_counts(const char *model, jci_runtime r, int tensor_cores, counts *c)
{
    char path[512];
    snprintf(path, sizeof path, "tests/models/torchvision/%s.onnx", model);
    if (!check_need(path)) return 0;
    jc_model *m;
    jc_analysis *an;
    jc_diag d;
    if (jc_model_load(path, &m, &d)) return 0;
    jc_analyze_opts o = {0};
    o.batch = 2;
    if (jc_analyze(m, &o, &an, &d)) {
        jc_model_free(m);
        return 0;
    }
    jci_eff_model em;
    jci_eff_plan p;
    jci_arena *a = jci_arena_new();
    int ok = a && jci_eff_resolve(db, r, 0, &em, &d) == JC_OK &&
             jci_eff_plan_build(&em, an, 2, tensor_cores, a, &p) == JC_OK;
    memset(c, 0, sizeof *c);
    for (size_t i = 0; ok && i < an->n_nodes; i++) {
        const char *op = an->nodes[i].node->op_type;
        if (!an->nodes[i].counted) continue;
        c->attn += p.role[i] == JCI_PLAN_ATTN;
        c->kernels += p.role[i] != JCI_PLAN_FUSED && an->nodes[i].cost.cls != JC_CLASS_NONE;
        c->groups += p.role[i] == JCI_PLAN_GROUP;
        if (p.role[i] == JCI_PLAN_OWN) {
            c->own_softmax += !strcmp(op, "Softmax");
            c->own_reduce += !strcmp(op, "ReduceMean");
            c->own_erf += !strcmp(op, "Erf");
        }
        if (!strcmp(op, "Conv")) {
            c->convs++;
            c->side_convs += p.side_kernels[i] > 0;
            c->side_kernels += (int)p.side_kernels[i];
        }
    }
    jci_arena_free(a);
    jc_analysis_free(an);
    jc_model_free(m);
    return ok;
}

static void test_vit_attention_and_norms(void)
{
    counts e, p1, c;
    if (!plan_counts("vit_b_16", JCI_RUNTIME_EAGER, 1, &e)) return;
    /* 12 encoder blocks: one SDPA kernel each; every LayerNorm (ReduceMean
     * ... Add) and GELU (Div, Erf, Add, Mul, Mul) one kernel */
    CHECK(e.attn == 12);
    CHECK(e.own_softmax == 0 && e.own_reduce == 0 && e.own_erf == 0);
    CHECK(e.groups >= 25 + 12);
    CHECK(plan_counts("vit_b_16", JCI_RUNTIME_EAGER_PT1, 1, &p1));
    CHECK(p1.attn == 0 && p1.own_softmax == 0);   /* softmax alone: its own one-input kernel */
    CHECK(plan_counts("vit_b_16", JCI_RUNTIME_COMPILED, 1, &c));
    /* compiled fuses each residual add with the layer norm after it */
    CHECK(c.attn == 12 && c.kernels + 12 <= e.kernels);
    /* tinygrad (fusion kind LAZY): compiled's pointwise groups, attention
     * unfused (scores written to memory): no SDPA kernel, a matrix product,
     * a softmax group and a matrix product per block */
    counts tg;
    CHECK(plan_counts("vit_b_16", JCI_RUNTIME_TINYGRAD, 1, &tg));
    CHECK(tg.attn == 0 && tg.groups >= c.groups && tg.kernels >= c.kernels + 2 * 12 && tg.kernels < e.kernels);
}

static void test_conv_side_kernels(void)
{
    counts e, f, c;
    if (!plan_counts("resnet50", JCI_RUNTIME_EAGER, 1, &e)) return;
    /* every convolution: the folded batch norm's kernel + the two NCHW
     * transforms on tensor cores; only the first at fp32; none compiled */
    CHECK(e.convs == 53 && e.side_convs == 53 && e.side_kernels == 3 * 53);
    CHECK(plan_counts("resnet50", JCI_RUNTIME_EAGER, 0, &f));
    CHECK(f.side_kernels == 53);
    CHECK(plan_counts("resnet50", JCI_RUNTIME_COMPILED, 1, &c));
    CHECK(c.side_kernels == 0);
}

static void test_gemm_model(void)
{
    jci_eff_model m;
    jc_diag d;
    CHECK(jci_eff_resolve(db, JCI_RUNTIME_EAGER, 0, &m, &d) == JC_OK);
    double P = 100e12, eta = m.v[JCI_EFF_ETA_MATRIX].central, fill = m.v[JCI_EFF_FILL_S].central;
    jci_eff_device dv = {P, 20e12, 1e12, 1, 8, 64, 0, 0};
    /* 8192 x 8192 x 8192: 64 x 128 = 8192 tiles of 128 x 64, 128 full
     * waves over 64 SMs, aligned: (F + P eta fill) / (P eta) */
    jc_gemm_shape g = {8192, 8192, 8192, 1};
    double F = 2.0 * 8192 * 8192 * 8192;
    double t = jci_eff_gemm_compute_s(&m, &dv, &g, 1);
    CHECK(fabs(t - (F + P * eta * fill) / (P * eta)) < 1e-9 * t);
    /* N = 96: tiles of 64 hold 96 / 128 of useful columns */
    jc_gemm_shape n96 = {8192, 96, 8192, 1};
    double t96 = jci_eff_gemm_compute_s(&m, &dv, &n96, 1);
    double f96 = 2.0 * 8192 * 96 * 8192;
    double tiles = 64.0 * 2, q = (8192.0 * 96) / (tiles * 128 * 64) * (tiles / (ceil(tiles / 64) * 64));
    CHECK(fabs(t96 - (f96 / q + P * eta * fill) / (P * eta)) < 1e-9 * t96);
    /* a grouped convolution of 32 groups x 4 channels: below the granule,
     * CUDA cores at the vector peak */
    jc_gemm_shape dw = {100000, 4, 36, 32};
    double tv = jci_eff_gemm_compute_s(&m, &dv, &dw, 1);
    CHECK(fabs(tv - 2.0 * 100000 * 4 * 36 * 32 / (20e12 * m.v[JCI_EFF_ETA_VECTOR].central)) < 1e-9 * tv);
    /* the whole kernel: operands at 2 bytes, memory term, launch floor */
    jci_node_time nt;
    jc_gemm_shape tiny = {8, 8, 8, 1};
    jci_eff_gemm_time(&m, &dv, &tiny, -1, 2, 1, &nt);
    /* (its padded tile and fill take 2 us: below the launch floor) */
    CHECK(nt.bytes == 3 * 64 * 2 &&
          fabs(nt.t - fmax(m.v[JCI_EFF_LAUNCH_S].central, jci_eff_gemm_compute_s(&m, &dv, &tiny, 1))) < 1e-15);
    CHECK(jci_eff_gemm_compute_s(&m, &dv, &tiny, 1) < 2 * fill + 1e-12);
    /* slow corner no faster than central, fast corner no slower */
    CHECK(jci_eff_gemm_compute_s(&m, &dv, &g, 2) >= t && jci_eff_gemm_compute_s(&m, &dv, &g, 0) <= t);
}

/* The CPU kernel path: the CPU's constants in the matrix and launch
 * slots, no thread-block tiles, and the call cost added to a kernel (not
 * a floor); the engine profile has no CPU path. */
static void test_cpu_kernel_path(void)
{
    jci_eff_model m, e;
    jc_diag d;
    CHECK(jci_eff_resolve(db, JCI_RUNTIME_COMPILED, 1, &m, &d) == JC_OK);
    CHECK(m.cpu_path && !strcmp(m.id[JCI_EFF_ETA_MATRIX], "cpu_kernel_eta_matrix") &&
          !strcmp(m.id[JCI_EFF_LAUNCH_S], "cpu_kernel_call_s") && !strcmp(m.id[JCI_EFF_ETA_BW], "kernel_eta_bw"));
    CHECK(jci_eff_resolve(db, JCI_RUNTIME_ENGINE, 1, &e, &d) == JC_OK);
    CHECK(!e.cpu_path && !strcmp(e.id[JCI_EFF_ETA_MATRIX], "runtime_engine_eta_matrix"));
    double P = 3e12, eta = m.v[JCI_EFF_ETA_MATRIX].central, fill = m.v[JCI_EFF_FILL_S].central;
    double call = m.v[JCI_EFF_LAUNCH_S].central;
    jci_eff_device cpu = {P, P, 100e9, 0, 0, 0, 0, 0};
    /* N = 96 on a CPU: no tile padding (a GPU's 64-wide tiles would hold
     * 96 / 128 useful columns) */
    jc_gemm_shape n96 = {8192, 96, 8192, 1};
    double f96 = 2.0 * 8192 * 96 * 8192;
    double t96 = jci_eff_gemm_compute_s(&m, &cpu, &n96, 1);
    CHECK(fabs(t96 - (f96 + P * eta * fill) / (P * eta)) < 1e-9 * t96);
    /* the whole kernel: its compute, then the call cost on top */
    jci_node_time nt;
    jc_gemm_shape tiny = {8, 8, 8, 1};
    jci_eff_gemm_time(&m, &cpu, &tiny, -1, 4, 1, &nt);
    CHECK(call > 0 && fabs(nt.t - jci_eff_gemm_compute_s(&m, &cpu, &tiny, 1) - call) < 1e-12);
    CHECK(fabs(jci_eff_gemm_s(&m, &cpu, 8, 8, 8, 1, 1) - nt.t) < 1e-12);
}

/* The achieved bandwidth of a large memory-bound transfer: the datasheet
 * bandwidth x kernel_eta_bw, or the device's measured sustained bandwidth
 * where it has one (the eta not applied to it); a memory-bound kernel's
 * time at that bandwidth with its latency. */
static void test_sustained_bandwidth(void)
{
    jci_eff_model m;
    jc_diag d;
    CHECK(jci_eff_resolve(db, JCI_RUNTIME_COMPILED, 1, &m, &d) == JC_OK);
    /* eta_bw and latency set by hand: 0.9 [0.8-1], 1 us */
    m.v[JCI_EFF_ETA_BW] = (jc_range){0.8, 0.9, 1.0};
    m.v[JCI_EFF_LAT_S] = (jc_range){1e-6, 1e-6, 1e-6};
    m.v[JCI_EFF_LAUNCH_S] = (jc_range){0, 0, 0};
    jci_eff_device dv = {3e12, 3e12, 100e9, 0, 0, 0, 0, 0};
    CHECK(fabs(jci_eff_bw(&m, &dv, 1) - 90e9) < 1 && fabs(jci_eff_bw(&m, &dv, 2) - 80e9) < 1 &&
          fabs(jci_eff_bw(&m, &dv, 0) - 100e9) < 1);
    dv.bw_sustained = 56e9;
    CHECK(jci_eff_bw(&m, &dv, 0) == 56e9 && jci_eff_bw(&m, &dv, 1) == 56e9 && jci_eff_bw(&m, &dv, 2) == 56e9);
    jci_eff_device none = {3e12, 3e12, 0, 0, 0, 0, 0, 0};
    CHECK(jci_eff_bw(&m, &none, 1) == 0);
    /* a 56 MB copy through the GEMM model's memory term: no compute to
     * speak of (K = 1), (56e6 + 100e9 x 1e-6) / 56e9 = 1.0017857 ms */
    jci_node_time nt;
    jc_gemm_shape copy = {1, 1, 1, 1};
    jci_eff_gemm_time(&m, &dv, &copy, 56e6, 4, 1, &nt);
    CHECK(nt.bound == JCI_BOUND_MEMORY && fabs(nt.t - 56.1e6 / 56e9) < 1e-12);
}

/* Time of node i on dv (central) with plan p, forward or backward. */
static double node_t(const jci_eff_model *m, const jci_eff_device *dv, const jc_analysis *an,
                     const jci_eff_plan *p, size_t i, int backward)
{
    jci_node_time nt;
    jci_eff_node_time(m, dv, an, p, i, 1, 1, backward, &nt);
    return nt.t;
}

/* A model analysed at batch `batch` and runtime r's plan (2 bytes per
 * element, tensor cores on): pytorch-1's for the backward tests, the
 * engine's for its L2 candidates.  false when the model is absent or
 * does not load or analyse (nothing to free); a failed plan is a CHECK
 * failure, and t is closed by plan_close. */
typedef struct rt_plan {
    jc_model *mo;
    jc_analysis *an;
    jci_eff_model m;
    jci_eff_plan p;
    jci_arena *a;
} rt_plan;

static bool plan_open(rt_plan *t, const char *path, int64_t batch, jci_runtime r)
{
    jc_diag d;
    if (!check_need(path) || jc_model_load(path, &t->mo, &d)) return false;
    jc_analyze_opts o = {0};
    o.batch = batch;
    if (jc_analyze(t->mo, &o, &t->an, &d)) {
        jc_model_free(t->mo);
        return false;
    }
    t->a = jci_arena_new();
    CHECK(t->a && jci_eff_resolve(db, r, 0, &t->m, &d) == JC_OK &&
          jci_eff_plan_build(&t->m, t->an, 2, 1, t->a, &t->p) == JC_OK);
    return true;
}

static bool pt1_plan_open(rt_plan *t, const char *path, int64_t batch)
{
    return plan_open(t, path, batch, JCI_RUNTIME_EAGER_PT1);
}

static void plan_close(rt_plan *t)
{
    jci_arena_free(t->a);
    jc_analysis_free(t->an);
    jc_model_free(t->mo);
}

static void test_backward_and_l2(void)
{
    rt_plan pl;
    if (!pt1_plan_open(&pl, "tests/models/torchvision/resnet50.onnx", 8)) return;
    jci_eff_model m = pl.m;
    jci_eff_plan p = pl.p;
    const jc_analysis *an = pl.an;
    jci_arena *a = pl.a;
    jci_eff_device dv = {100e12, 20e12, 1e12, 1, 8, 64, 0, 0};
    int xf = 0, l2 = 0, bwd = 0;
    for (size_t i = 0; a && i < an->n_nodes; i++) {
        if (!an->nodes[i].counted || p.role[i] == JCI_PLAN_FUSED) continue;
        if (p.xform_bytes[i] > 0 && !xf) {
            /* the backward's transforms: removing them saves their traffic
             * over the bandwidth (and more: two more kernels) */
            double t = node_t(&m, &dv, an, &p, i, 1), x = p.xform_bytes[i];
            p.xform_bytes[i] = 0;
            double t0 = node_t(&m, &dv, an, &p, i, 1);
            p.xform_bytes[i] = x;
            xf = t - t0 >= x / (dv.bw * m.v[JCI_EFF_ETA_BW].central) * 0.999;
        }
        if (p.l2_bytes[i] > 0 && an->nodes[i].cost.cls != JC_CLASS_MATRIX && !l2) {
            /* an input the previous kernel wrote: from the L2 when it fits */
            double t = node_t(&m, &dv, an, &p, i, 0);
            jci_eff_device big = dv, small = dv;
            big.l2 = 2 * p.l2_max[i];
            small.l2 = p.l2_max[i] / 2;
            l2 = node_t(&m, &big, an, &p, i, 0) < t && node_t(&m, &small, an, &p, i, 0) == t &&
                 node_t(&m, &big, an, &p, i, 1) == node_t(&m, &dv, an, &p, i, 1);
        }
        if (!bwd) {
            /* every backward kernel's time over kernel_eta_backward */
            double t = node_t(&m, &dv, an, &p, i, 1);
            jci_eff_model h = m;
            h.v[JCI_EFF_ETA_BWD] = (jc_range){0.5, 0.5, 0.5};
            double e = m.v[JCI_EFF_ETA_BWD].central;
            bwd = t > 0 && fabs(node_t(&h, &dv, an, &p, i, 1) - t * e / 0.5) < 1e-12 * t &&
                  node_t(&h, &dv, an, &p, i, 0) == node_t(&m, &dv, an, &p, i, 0);
        }
    }
    CHECK(xf);
    CHECK(l2);
    CHECK(bwd);
    plan_close(&pl);
}

/* The engine's plan (TensorRT): a node is fused exactly where
 * jci_eff_engine_fuses says (ResNet-50: the 53 convolutions, the pools
 * and the classifier's product are kernels, every ReLU and residual Add
 * fused), and a convolution reads the input the previous kernel wrote
 * from the L2 when it fits there, as a framework's kernel does: with the
 * plan and an L2 twice its largest such input its DRAM traffic is less by
 * that input (and its time no longer); with an L2 half that size the
 * plan changes nothing. */
static void test_engine_plan_l2(void)
{
    rt_plan pl;
    if (!plan_open(&pl, "tests/models/torchvision/resnet50.onnx", 8, JCI_RUNTIME_ENGINE)) return;
    const jc_analysis *an = pl.an;
    jci_eff_device dv = {100e12, 20e12, 1e12, 1, 8, 64, 0, 0};
    int rule = 1, convs = 0, fused = 0, l2 = 0, same = 1;
    for (size_t i = 0; i < an->n_nodes; i++) {
        const jc_counted_node *n = &an->nodes[i];
        if (!n->counted) continue;
        rule &= (pl.p.role[i] == JCI_PLAN_FUSED) == jci_eff_engine_fuses(n);
        rule &= pl.p.role[i] == JCI_PLAN_FUSED || pl.p.role[i] == JCI_PLAN_OWN;
        convs += !strcmp(n->node->op_type, "Conv") && pl.p.role[i] == JCI_PLAN_OWN;
        fused += (!strcmp(n->node->op_type, "Relu") || !strcmp(n->node->op_type, "Add")) &&
                 pl.p.role[i] == JCI_PLAN_FUSED;
        if (pl.p.role[i] != JCI_PLAN_OWN) continue;
        jci_eff_device small = dv, big = dv;
        small.l2 = big.l2 = pl.p.l2_max[i];
        small.l2 /= 2;
        big.l2 *= 2;
        jci_node_time t0, ts, tb;
        jci_eff_node_time(&pl.m, &dv, an, NULL, i, 1, 1, 0, &t0);
        jci_eff_node_time(&pl.m, &small, an, &pl.p, i, 1, 1, 0, &ts);
        jci_eff_node_time(&pl.m, &big, an, &pl.p, i, 1, 1, 0, &tb);
        same &= ts.t == t0.t && ts.bytes == t0.bytes;
        if (pl.p.l2_bytes[i] > 0 && !strcmp(n->node->op_type, "Conv"))
            l2 += tb.bytes == t0.bytes - pl.p.l2_bytes[i] && tb.t <= t0.t;
    }
    CHECK(rule);
    CHECK_I64(convs, 53);
    CHECK_I64(fused, 49 + 16);   /* ResNet-50's 49 ReLUs after a convolution and its 16 residual Adds */
    CHECK_I64(l2, 48);   /* every convolution but the stem and the 4 whose input is a block's, written earlier */
    CHECK(same);
    plan_close(&pl);
}

/* issue 41 item 2: under eager PyTorch 1.x each kernel's floor on a GPU
 * is its op class's host cost (runtime_eager_pt1_op_*_s): on a device so
 * fast that every kernel of EfficientNet-B0 at batch 1 sits at its floor,
 * a dense convolution takes the conv cost, a depthwise one the gconv cost
 * (plus, both, one side kernel of the folded batch norm at the vector
 * cost), an activation group the vector cost; the same plan on a CPU
 * keeps its call cost.  Views run no kernel: ViT's x[:, 0] (a Gather at
 * one index) and the class token's Expand are fused away. */
static void test_op_floors(void)
{
    rt_plan t;
    if (!pt1_plan_open(&t, "tests/models/torchvision/efficientnet_b0.onnx", 1)) return;
    jci_eff_device dv = {1e18, 1e18, 1e18, 1, 0, 0, 0, 0};
    double conv = t.m.v[JCI_EFF_OP_CONV].central, gconv = t.m.v[JCI_EFF_OP_GCONV].central,
           vec = t.m.v[JCI_EFF_OP_VECTOR].central;
    CHECK(t.m.op_costs && conv > t.m.v[JCI_EFF_LAUNCH_S].central && gconv != conv);
    int dense = 0, depthwise = 0, act = 0;
    for (size_t i = 0; i < t.an->n_nodes; i++) {
        const jc_counted_node *n = &t.an->nodes[i];
        if (!n->counted || t.p.role[i] == JCI_PLAN_FUSED || n->cost.cls == JC_CLASS_NONE) continue;
        double nt = node_t(&t.m, &dv, t.an, &t.p, i, 0), side = t.p.side_kernels[i] * vec;
        if (n->kernel == JC_KERNEL_CONV && n->gemm.batch > 1)
            depthwise += fabs(nt - gconv - side) < 1e-9 * nt;
        else if (n->kernel == JC_KERNEL_CONV)
            dense += fabs(nt - conv - side) < 1e-9 * nt;
        else if (t.p.role[i] == JCI_PLAN_GROUP)
            act += fabs(nt - vec) < 1e-9 * nt;
    }
    CHECK(dense == 65 && depthwise == 16 && act > 16);
    plan_close(&t);
    rt_plan v;
    if (!pt1_plan_open(&v, "tests/models/torchvision/vit_b_16.onnx", 1)) return;
    int views = 0;
    for (size_t i = 0; i < v.an->n_nodes; i++) {
        const char *op = v.an->nodes[i].node->op_type;
        if (v.an->nodes[i].counted && v.an->nodes[i].cost.cls != JC_CLASS_NONE &&
            (!strcmp(op, "Expand") || !strcmp(op, "Gather")))
            views += v.p.role[i] == JCI_PLAN_FUSED ? 1 : -100;
    }
    CHECK(views == 2);
    plan_close(&v);
}

static void test_norm_backward(void)
{
    rt_plan pl;
    if (!pt1_plan_open(&pl, "tests/models/torchvision/vit_b_16.onnx", 2)) return;
    jci_eff_plan p = pl.p;
    const jc_analysis *an = pl.an;
    jci_arena *a = pl.a;
    int norms = 0, soft_extra = 0;
    for (size_t i = 0; a && i < an->n_nodes; i++) {
        if (p.role[i] != JCI_PLAN_GROUP) continue;
        /* a layer norm's group (head ReduceMean): its reduction pass,
         * 2 x what it writes; a softmax (unfused under pytorch-1): none */
        if (!strcmp(an->nodes[i].node->op_type, "ReduceMean"))
            norms += p.norm_bytes[i] > 0 && fabs(p.norm_bytes[i] - 2 * p.out_bytes[i]) < 1e-9 * p.norm_bytes[i];
        if (!strcmp(an->nodes[i].node->op_type, "Softmax")) soft_extra += p.norm_bytes[i] > 0;
    }
    CHECK(norms == 25);   /* 2 per block x 12 + the final norm */
    CHECK(soft_extra == 0);
    plan_close(&pl);
}

int main(void)
{
    if (!(db = check_bundled_hwdb())) return 1;
    RUN(test_gemm_model);
    RUN(test_cpu_kernel_path);
    RUN(test_sustained_bandwidth);
    RUN(test_vit_attention_and_norms);
    RUN(test_conv_side_kernels);
    RUN(test_backward_and_l2);
    RUN(test_engine_plan_l2);
    RUN(test_norm_backward);
    RUN(test_op_floors);
    jc_hwdb_free(db);
    return check_summary();
}
