/*
 * coll_latency.c (estimate) - the latency term of an all-reduce (issue 39):
 * the time a collective takes beyond its bytes over its bandwidth, by the
 * cost model NCCL's own tuner chooses an algorithm with (NVIDIA/nccl
 * src/graph/tuning.cc, Simple protocol; hwdb/interconnect.yaml
 * nccl_lat_*): a ring of n ranks takes 2 (n-1) steps, 2 x nodes of them
 * across the network; a tree 2 ((ranks per node - 1) + floor(log2 nodes))
 * hops; where the scale-up switches reduce (NVLink SHARP: the host's
 * fabric.scaleup_reduction) one NVLS reduction in the node and, across
 * nodes, an NVLS tree of 2 floor(log2 nodes) network hops; where the
 * scale-out switches reduce too (InfiniBand SHARP: fabric.scaleout_
 * reduction) one reduction in the network (NVLS, or CollNet's chain of
 * NVLink hops).  Of the algorithms the fabric has, the lowest latency is
 * taken, as NCCL's tuner takes the fastest (the bandwidth term is the
 * caller's, the same for each here).  The bandwidth arithmetic is
 * parallel.c's; equations: docs/energy-model.md "Multi-device training".
 */
#include "base/fmt.h"
#include "estimate/parallel.h"
#include "joulecast/hwdb.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The constants of jci_coll_hops, in member order. */
static const char *const HOP_IDS[JCI_COLL_HOPS_N] = {
    "nccl_lat_ring_base_s", "nccl_lat_ring_intra_s", "nccl_lat_ring_net_s", "nccl_lat_tree_hop_s",
    "nccl_lat_nvls_s", "nccl_lat_nvls_net_s", "nccl_lat_nvls_tree_net_s", "nccl_lat_collnet_intra_s",
    "nccl_lat_collnet_net_s",
};

/* What each is, for the assumptions list. */
static const char *const HOP_LABELS[JCI_COLL_HOPS_N] = {
    "NCCL latency: a ring all-reduce's base", "NCCL latency: one ring step within a node",
    "NCCL latency: one ring step across the network", "NCCL latency: one tree hop",
    "NCCL latency: an NVLS reduction in the NVSwitch", "NCCL latency: NVLS's step through reducing network switches",
    "NCCL latency: one network hop of an NVLS tree", "NCCL latency: one NVLink hop of a CollNet chain",
    "NCCL latency: a CollNet reduction in the network switches",
};

/* The constants each algorithm's latency reads (indices into HOP_IDS;
 * -1 ends). */
static const int ALG_HOPS[JCI_COLL_ALG_N][4] = {
    [JCI_COLL_RING] = {0, 1, 2, -1},
    [JCI_COLL_TREE] = {3, -1},
    [JCI_COLL_NVLS] = {4, 5, -1},
    [JCI_COLL_NVLS_TREE] = {4, 6, -1},
    [JCI_COLL_COLLNET] = {7, 8, -1},
};

static const char *const ALG_NAMES[JCI_COLL_ALG_N] = {
    [JCI_COLL_RING] = "ring", [JCI_COLL_TREE] = "tree", [JCI_COLL_NVLS] = "NVLS (reduced in the switches)",
    [JCI_COLL_NVLS_TREE] = "NVLS tree (reduced in the NVSwitch, a tree across nodes)",
    [JCI_COLL_COLLNET] = "CollNet chain (reduced in the network switches)",
};

/* Where the latency model comes from, in words. */
#define NCCL_WHY                                                                                                    \
    "NCCL's cost model (NVIDIA/nccl src/graph/tuning.cc, Simple protocol): ring base + 2 (n-1) steps (2 x nodes "   \
    "across the network), tree 2 (ranks per node - 1 + floor(log2 nodes)) hops, NVLS / NVLS tree where the host's "  \
    "scale-up switches reduce, CollNet where its scale-out switches reduce; hwdb/interconnect.yaml nccl_lat_*"

/* 1 when NCCL is the device's own collective library (an NVIDIA GPU). */
static int nccl_own(const jc_device *dev)
{
    return dev && dev->kind == JC_DEVICE_GPU && dev->vendor && !strcmp(dev->vendor, "NVIDIA");
}

double jci_coll_latency_s(jci_coll_alg a, double n, double per_node, const double *h)
{
    if (!(n > 1)) return 0;
    if (per_node < 1) per_node = 1;
    double ppn = n < per_node ? n : per_node;
    double nodes = ceil(n / ppn);
    double lg = nodes > 1 ? floor(log2(nodes)) : 0;
    switch (a) {
    case JCI_COLL_RING: {
        double steps = 2 * (n - 1), inter = nodes > 1 ? 2 * nodes : 0;
        if (inter > steps) inter = steps;
        return h[JCI_HOP_RING_BASE] + (steps - inter) * h[JCI_HOP_RING_INTRA] + inter * h[JCI_HOP_RING_NET];
    }
    case JCI_COLL_TREE:
        return 2 * ((ppn - 1) * h[JCI_HOP_TREE] + lg * h[JCI_HOP_TREE]);
    case JCI_COLL_NVLS:
        return h[JCI_HOP_NVLS] + (nodes > 1 ? h[JCI_HOP_NVLS_NET] : 0);
    case JCI_COLL_NVLS_TREE:
        return h[JCI_HOP_NVLS] + 2 * lg * h[JCI_HOP_NVLS_TREE_NET];
    case JCI_COLL_COLLNET:
        return 2 * (ppn - 1) * h[JCI_HOP_COLLNET_INTRA] + h[JCI_HOP_COLLNET_NET];
    default:
        return NAN;
    }
}

jci_coll_alg jci_coll_best(double n, double per_node, int up_reduce, int out_reduce, const double *h, double *lat)
{
    double ppn = per_node < 1 ? 1 : per_node;
    int multi = n > ppn, local = (n < ppn ? n : ppn) > 1;
    /* what the fabric offers: NVLS within a reducing scale-up domain that
     * holds two ranks or more; across nodes NVLS needs reducing network
     * switches too (else an NVLS tree), CollNet needs them */
    int ok[JCI_COLL_ALG_N] = {
        [JCI_COLL_RING] = 1, [JCI_COLL_TREE] = 1,
        [JCI_COLL_NVLS] = up_reduce && local && (!multi || out_reduce),
        [JCI_COLL_NVLS_TREE] = up_reduce && local && multi,
        [JCI_COLL_COLLNET] = out_reduce && multi,
    };
    jci_coll_alg best = JCI_COLL_RING;
    double t = INFINITY;
    for (int a = 0; a < JCI_COLL_ALG_N; a++) {
        if (!ok[a]) continue;
        double v = jci_coll_latency_s((jci_coll_alg)a, n, per_node, h);
        if (v < t) t = v, best = (jci_coll_alg)a;
    }
    if (lat) *lat = n > 1 ? t : 0;
    return best;
}

jc_status jci_coll_hops(jci_builder *b, double h[3][JCI_COLL_HOPS_N])
{
    for (int i = 0; i < JCI_COLL_HOPS_N; i++) {
        const jc_constant *c;
        jc_status st = jci_bld_need_const(b, HOP_IDS[i], &c);
        if (st) return st;
        const jc_sourced *v = &c->value;
        h[0][i] = v->has_range ? v->low : v->value;
        h[1][i] = v->value;
        h[2][i] = v->has_range ? v->high : v->value;
    }
    return JC_OK;
}

jc_status jci_coll_latency(jci_builder *b, const jc_device *dev, double n, double per_node, int up_reduce,
                           int out_reduce, const char *key, const char *what, jc_range *out)
{
    const jc_constant *c[JCI_COLL_HOPS_N];
    double h[3][JCI_COLL_HOPS_N];
    *out = (jc_range){0, 0, 0};
    jc_status st = jci_coll_hops(b, h);
    if (st) return st;
    if (!(n > 1)) return JC_OK;
    for (int i = 0; i < JCI_COLL_HOPS_N; i++)
        if ((st = jci_bld_need_const(b, HOP_IDS[i], &c[i]))) return st;
    double lat = 0;
    jci_coll_alg a = jci_coll_best(n, per_node, up_reduce, out_reduce, h[1], &lat);
    for (const int *k = ALG_HOPS[a]; *k >= 0; k++)   /* the chosen algorithm's constants, with their sources */
        jci_bld_const(b, HOP_IDS[*k], HOP_LABELS[*k], c[*k]);
    jc_range r = {jci_coll_latency_s(a, n, per_node, h[0]), lat, jci_coll_latency_s(a, n, per_node, h[2])};
    double ppn = per_node < 1 ? 1 : (n < per_node ? n : per_node);
    double nodes = ceil(n / ppn);
    *out = jci_bld_assume(b, key, jci_bld_str(b, "latency of one %s all-reduce over %s ranks (%s per node, %s node%s): "
                                              "%s, the lowest of the algorithms the fabric has", what, FMT_N(n),
                                              FMT_N(ppn), FMT_N(nodes), nodes > 1 ? "s" : "", ALG_NAMES[a]),
                          r, "s", JC_ORIGIN_DERIVED,
                          nccl_own(dev) ? NCCL_WHY
                                        : jci_bld_str(b, "NCCL's cost model standing in for the collective library of "
                                                      "%s (not an NVIDIA GPU; its own is not modelled): %s",
                                                      dev ? dev->id : "the device", NCCL_WHY));
    return JC_OK;
}
