/*
 * parallel.c - the multi-device arithmetic shared by training
 * (train_parallel.c) and serving (serving.c): ring all-reduce, the ring's
 * bandwidth across nodes, pipeline bubble, the exposed part of an
 * all-reduce, wave quantisation, and the one lookup of a device's link
 * bandwidth (jci_link_bw).  Equations: parallel.h and
 * docs/energy-model.md "Multi-device training".
 */
#include "estimate/parallel.h"

#include <math.h>
#include <stdio.h>

double jci_allreduce_ring_s(double n, double bytes, double bw, double latency)
{
    if (!(n > 1) || !(bw > 0)) return 0;
    return 2 * (n - 1) / n * bytes / bw + latency;
}

double jci_ring_bw(double n, double per_node, double link_bw, double net_bw)
{
    if (per_node < 1) per_node = 1;
    if (n <= per_node) return link_bw;
    double out = per_node * net_bw;
    return out < link_bw ? out : link_bw;
}

double jci_pp_bubble(double p, double m)
{
    if (!(p > 1) || !(m >= 1)) return 0;
    return (p - 1) / (m + p - 1);
}

double jci_exposed_s(double t_ar, double t_bwd, double overlap)
{
    double e = t_ar - overlap * t_bwd;
    return e > 0 ? e : 0;
}

double jci_wave_factor(double tiles, double units)
{
    if (!(tiles >= 1) || !(units >= 1)) return 1;
    return tiles / (ceil(tiles / units) * units);
}

int jci_const_specific(const jc_hwdb *db, const char *id, const char *const *q, int n,
                       const jc_constant **c, char *buf, size_t cap)
{
    jc_diag tmp;
    *c = NULL;
    for (int k = 0; k <= n; k++) {
        if (k < n && (!q[k] || !*q[k])) continue;
        if (k < n) snprintf(buf, cap, "%s.%s", id, q[k]);
        else snprintf(buf, cap, "%s", id);
        if (jc_hwdb_constant(db, buf, c, &tmp) == JC_OK) return k;
    }
    *c = NULL;
    return -1;
}

jc_status jci_link_bw(jci_builder *b, const jc_hwdb *db, const jc_device *dev, const char *who, jc_range *out)
{
    if (dev->interconnect_gbs.present && dev->interconnect_gbs.value > 0) {
        *out = jci_bld_assume(b, "device.interconnect_gbs",
                              jci_bld_str(b, "device link bandwidth within a node, one direction (%s)",
                                          dev->interconnect ? dev->interconnect : "interconnect"),
                              jci_sourced_range(&dev->interconnect_gbs), "GB/s", JC_ORIGIN_HWDB,
                              jci_bld_cite(b, &dev->interconnect_gbs));
        return JC_OK;
    }
    const jc_constant *c = NULL;
    jc_diag tmp;
    if (jc_hwdb_constant(db, "link_bw_gbs", &c, &tmp) != JC_OK)
        return jci_bld_fail(b, JC_ERR_HWDB, "device %s has no interconnect_gbs and the hardware database has no "
                            "fallback constant 'link_bw_gbs' (hwdb/interconnect.yaml)", dev->id);
    *out = jci_bld_const(b, c->id, jci_bld_str(b, "device link bandwidth within a node, one direction: FALLBACK (%s has "
                                               "no interconnect_gbs)", dev->id), c);
    jci_bld_warn(b, "%s: %s has no published interconnect_gbs: the fallback %g GB/s of 'link_bw_gbs' (a PCIe Gen4 "
                 "x16 link) is used", who, dev->id, out->central);
    return JC_OK;
}
