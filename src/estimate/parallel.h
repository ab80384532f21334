/*
 * parallel.h (estimate) - the multi-device arithmetic shared by training and serving
 * (issue #17 item 5, issue #15): ring all-reduce time, the bandwidth a
 * ring gets when it crosses nodes, the pipeline bubble, the share of an
 * all-reduce the backward pass hides, and the wave quantisation of a
 * kernel's tiles over the device's SMs: pure functions of their numbers.
 * The link a collective runs over, the devices one link domain holds and
 * the network between nodes are the device's own sourced figures
 * (hwdb/devices: interconnect_gbs, node_devices, node_network_gbs), read
 * by jci_node_figure for serving and training alike, with the generic
 * fallbacks of hwdb/interconnect.yaml; the other constants live there and
 * in hwdb/energy-model.yaml.  Internal to libjoulecast (jci_ prefix).
 */
#ifndef JCI_PARALLEL_H
#define JCI_PARALLEL_H

#include "estimate/builder.h"
/* by pointer only (their public headers define them; a file that reads
 * their fields includes that header itself) */
typedef struct jc_device jc_device;
typedef struct jc_host jc_host;
typedef struct jc_hwdb jc_hwdb;

#include <stddef.h>

/* Ring all-reduce of `bytes` per rank over n ranks: 2 (n-1)/n x bytes / bw
 * + latency (bw in B/s one direction, latency in s; nccl-tests
 * PERFORMANCE.md).  0 when n <= 1. */
double jci_allreduce_ring_s(double n, double bytes, double bw, double latency);

/* Bandwidth per rank of a ring over n ranks of which `per_node` share a
 * node: within a node (n <= per_node) the device link (link_bw); across
 * nodes each node's traffic leaves through the NICs of its per_node ranks,
 * so min(link_bw, per_node x net_bw).  B/s. */
double jci_ring_bw(double n, double per_node, double link_bw, double net_bw);

/* Pipeline bubble: the idle fraction (p-1)/(m+p-1) of a step of p stages
 * and m micro-batches (GPipe, 1F1B).  0 when p <= 1 or m < 1. */
double jci_pp_bubble(double p, double m);

/* The part of an all-reduce of t_ar seconds that the backward pass
 * (t_bwd seconds) does not hide, when a fraction `overlap` of the backward
 * can run beside it: max(0, t_ar - overlap x t_bwd). */
double jci_exposed_s(double t_ar, double t_bwd, double overlap);

/* Wave quantisation: tiles / (ceil(tiles / units) x units), the useful
 * share of the last wave when `tiles` output tiles run on `units`
 * streaming multiprocessors (1 when either is < 1). */
double jci_wave_factor(double tiles, double units);

/* The figures of the node a device sits in, each a sourced field of the
 * device record (hwdb/devices) with a generic fallback constant of
 * hwdb/interconnect.yaml: */
typedef enum jci_node_fig {
    JCI_LINK_BW,      /* interconnect_gbs: the device link within a node, GB/s
                         one direction (half the datasheet's bidirectional
                         figure); fallback link_bw_gbs (PCIe Gen4 x16) */
    JCI_NODE_DEVICES, /* node_devices: devices per link domain; fallback
                         devices_per_node (an 8-device baseboard) */
    JCI_NETWORK_BW,   /* node_network_gbs: inter-node network per device,
                         GB/s one direction; fallback network_bw_gbs */
    JCI_NODE_FIG_COUNT_
} jci_node_fig;

/* The node figure `which` of dev: the device's own sourced value, recorded
 * as assumption "device.<field>" with its citation; else the fallback
 * constant, recorded under its id and labelled FALLBACK, with a warning
 * that starts with `who` ("serving", "multi-device") for the bandwidths
 * (the device count's fallback is the usual server, so it only says so
 * in its label).  JC_ERR_HWDB (diagnostic filled) when neither exists. */
jc_status jci_node_figure(jci_builder *b, const jc_hwdb *db, const jc_device *dev, jci_node_fig which,
                          const char *who, jc_range *out);

/* The same figure from the system first: the host's fabric (scale-up
 * domain size and bandwidth, scale-out NICs per accelerator), recorded
 * as assumption "host.<field>" with its citation; a host without it, or
 * no host (NULL), falls back to jci_node_figure.  *from receives where
 * it came from, in words, in b's arena. */
jc_status jci_fabric_figure(jci_builder *b, const jc_hwdb *db, const jc_host *host, const jc_device *dev,
                            jci_node_fig which, const char *who, jc_range *out, const char **from);

/* The share of the backward (the training step model: of a micro-batch's
 * compute) the data-parallel gradient all-reduce runs beside, into *out:
 * `user` (the job's --dp-overlap) where given, recorded as assumption
 * "parallel.dp_overlap" (user), else the hwdb's dp_overlap_backward
 * recorded under `label`.  JC_ERR_HWDB (diagnostic filled) without that
 * constant.  One rule for the MODEL.onnx path and the step model. */
jc_status jci_dp_overlap(jci_builder *b, double user, const char *label, jc_range *out);

/* Training with data parallelism: every micro-batch of every
 * data-parallel replica must take a sample of the global batch at least.
 * `batch` is the global batch per optimizer step in `unit` ("sample",
 * "sequence": singular, the plural is formed); the replicas are G / (tp x
 * pp x cp), each running m micro-batches per step (--micro-batches; 1
 * where none is given).  JC_OK when batch >= replicas x m, else
 * JC_ERR_USAGE (diagnostic through b naming the batch, the replicas, the
 * layout and, where the replicas have a sample each, m; and what runs: a
 * larger --batch, fewer micro-batches, fewer devices, and where mp is set
 * more model parallelism; `hint`, may be NULL, is appended: where the
 * batch came from).  One rule for the MODEL.onnx and 6ND path
 * (train_parallel.c) and the step model (train_step.c). */
jc_status jci_dp_batch_check(jci_builder *b, double batch, const char *unit, double G, double tp, double pp, double cp,
                             double m, int mp, const char *hint);

/* ---- the latency of an all-reduce (coll_latency.c; issue 39, h39r) ---- */
/* The algorithms of NCCL's cost model (NVIDIA/nccl src/graph/tuning.cc). */
typedef enum jci_coll_alg {
    JCI_COLL_RING, JCI_COLL_TREE, JCI_COLL_NVLS, JCI_COLL_NVLS_TREE, JCI_COLL_COLLNET, JCI_COLL_ALG_N
} jci_coll_alg;
/* The per-hop latencies (seconds) the algorithms read, in the order of the
 * hwdb constants nccl_lat_* (hwdb/interconnect.yaml). */
enum {
    JCI_HOP_RING_BASE, JCI_HOP_RING_INTRA, JCI_HOP_RING_NET, JCI_HOP_TREE, JCI_HOP_NVLS, JCI_HOP_NVLS_NET,
    JCI_HOP_NVLS_TREE_NET, JCI_HOP_COLLNET_INTRA, JCI_HOP_COLLNET_NET, JCI_COLL_HOPS_N
};

/* Latency (s) of one all-reduce by algorithm a over n ranks of which
 * per_node share a node, from the per-hop latencies h[JCI_COLL_HOPS_N]:
 * ring base + (2(n-1) - 2N) intra + 2N net steps (N nodes, N > 1); tree
 * 2 ((ppn-1) + floor(log2 N)) hops; NVLS one reduction (+ its network
 * step across nodes); NVLS tree NVLS + 2 floor(log2 N) network hops;
 * CollNet 2 (ppn-1) NVLink hops + one network reduction.  0 when n <= 1. */
double jci_coll_latency_s(jci_coll_alg a, double n, double per_node, const double *h);

/* The algorithm of the lowest latency among those the fabric offers (ring
 * and tree always; NVLS where the scale-up switches reduce and a node
 * holds two ranks or more, across nodes only with reducing scale-out
 * switches too, else the NVLS tree; CollNet
 * across nodes where the scale-out switches reduce), its latency in *lat
 * (0 when n <= 1). */
jci_coll_alg jci_coll_best(double n, double per_node, int up_reduce, int out_reduce, const double *h, double *lat);

/* The per-hop latencies of the constants nccl_lat_*, low / central /
 * high (h[SC_LOW], h[SC_CENTRAL], h[SC_HIGH]), loaded without recording
 * them; JC_ERR_HWDB (diagnostic filled) when one is missing. */
jc_status jci_coll_hops(jci_builder *b, double h[3][JCI_COLL_HOPS_N]);

/* The latency of one all-reduce over n ranks (per_node per node) on that
 * fabric, low/central/high from the constants' ranges: loads the
 * nccl_lat_* constants (JC_ERR_HWDB, diagnostic filled, when one is
 * missing), records the chosen algorithm's constants with their sources
 * and the latency as assumption `key` (`what` names the collective; its
 * source says NCCL's model stands in where dev is not an NVIDIA GPU);
 * *out = {0, 0, 0} when n <= 1 (nothing recorded then but the loads). */
jc_status jci_coll_latency(jci_builder *b, const jc_device *dev, double n, double per_node, int up_reduce,
                           int out_reduce, const char *key, const char *what, jc_range *out);

#endif
