/*
 * parallel.h - the multi-device arithmetic shared by training and serving
 * (issue #17 item 5, issue #15): ring all-reduce time, the bandwidth a
 * ring gets when it crosses nodes, the pipeline bubble, the share of an
 * all-reduce the backward pass hides, and the wave quantisation of a
 * kernel's tiles over the device's SMs: pure functions of their numbers.
 * The link a collective runs over is the device's own sourced
 * interconnect_gbs (hwdb/devices), read by jci_link_bw for serving and
 * training alike; the other constants live in hwdb/interconnect.yaml and
 * hwdb/energy-model.yaml.  Internal to libjoulecast (jci_ prefix).
 */
#ifndef JC_PARALLEL_H
#define JC_PARALLEL_H

#include "estimate/builder.h"
#include "joulecast.h"

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

/* The most specific constant of "<id>.<q[0]>", ..., "<id>.<q[n-1]>", "<id>"
 * (a NULL or empty qualifier is skipped): *c the constant, the id found
 * copied to buf (cap bytes).  Returns the index of the qualifier matched,
 * n for the bare id, -1 when none exists (*c NULL).  Per-device and
 * per-runtime constants of serving and the interconnect use it. */
int jci_const_specific(const jc_hwdb *db, const char *id, const char *const *q, int n,
                       const jc_constant **c, char *buf, size_t cap);

/* The device-to-device link bandwidth within a node, one direction, in
 * GB/s: the device's sourced interconnect_gbs (its datasheet's figure,
 * half the bidirectional one), recorded as assumption
 * "device.interconnect_gbs"; a device without one gets the named fallback
 * constant link_bw_gbs of hwdb/interconnect.yaml (a PCIe Gen4 x16 link),
 * labelled FALLBACK, with a warning that starts with `who` ("serving",
 * "multi-device").  JC_ERR_HWDB (diagnostic filled) when neither exists. */
jc_status jci_link_bw(jci_builder *b, const jc_hwdb *db, const jc_device *dev, const char *who, jc_range *out);

#endif
