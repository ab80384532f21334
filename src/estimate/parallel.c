/*
 * parallel.c (estimate) - the multi-device arithmetic shared by training
 * (train_parallel.c) and serving (serving.c): ring all-reduce, the ring's
 * bandwidth across nodes, pipeline bubble, the exposed part of an
 * all-reduce, wave quantisation, the data-parallel overlap (--dp-overlap or
 * the hwdb's), and the one lookup of the figures of the
 * node a device sits in (jci_node_figure: link, devices per link domain,
 * inter-node network).  Equations: parallel.h and
 * docs/energy-model.md "Multi-device training".
 */
#include "base/fmt.h"
#include "estimate/parallel.h"

#include <math.h>
#include <stddef.h>
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

/* What each node figure is: the device field (and assumption key) that
 * holds it, its label, the fallback constant of hwdb/interconnect.yaml,
 * what that fallback stands for, and whether using it warns. */
typedef struct node_fig {
    size_t off;
    const char *field, *key, *label, *unit, *fallback, *fb_what;
    int warn;
} node_fig;

static const node_fig FIGS[JCI_NODE_FIG_COUNT_] = {
    [JCI_LINK_BW] = {offsetof(jc_device, interconnect_gbs), "interconnect_gbs", "device.interconnect_gbs",
                     "device link bandwidth within a node, one direction", "GB/s", "link_bw_gbs",
                     "a PCIe Gen4 x16 link", 1},
    [JCI_NODE_DEVICES] = {offsetof(jc_device, node_devices), "node_devices", "device.node_devices",
                          "devices per node (one link domain: NVLink, a TPU pod's ICI)", "devices", "devices_per_node",
                          "an 8-accelerator NVLink baseboard", 0},
    [JCI_NETWORK_BW] = {offsetof(jc_device, node_network_gbs), "node_network_gbs", "device.node_network_gbs",
                        "inter-node network bandwidth per device, one direction", "GB/s", "network_bw_gbs",
                        "a 100 Gb/s network per device", 1},
};

/* The host's fabric field for each node figure, its key and label. */
static const struct { size_t off; const char *field, *key, *label; } HOST_FIGS[JCI_NODE_FIG_COUNT_] = {
    [JCI_LINK_BW] = {offsetof(jc_host, up_gbs), "fabric.scaleup_gbs", "host.scaleup_gbs",
                     "scale-up bandwidth per device, one direction"},
    [JCI_NODE_DEVICES] = {offsetof(jc_host, up_devices), "fabric.scaleup_devices", "host.scaleup_devices",
                          "devices in one scale-up domain"},
    [JCI_NETWORK_BW] = {offsetof(jc_host, out_gbs), "fabric.scaleout_gbs", "host.scaleout_gbs",
                        "scale-out NIC bandwidth per device, one direction"},
};

jc_status jci_fabric_figure(jci_builder *b, const jc_hwdb *db, const jc_host *host, const jc_device *dev,
                            jci_node_fig which, const char *who, jc_range *out, const char **from)
{
    const jc_sourced *v = host ? (const jc_sourced *)((const char *)host + HOST_FIGS[which].off) : NULL;
    if (v && v->present && v->value > 0) {
        const char *link = which == JCI_NETWORK_BW ? host->fabric_out : host->fabric_up;
        *out = jci_bld_assume(b, HOST_FIGS[which].key,
                              jci_bld_str(b, "%s (%s: %s)", HOST_FIGS[which].label, host->id, link ? link : "its fabric"),
                              jci_sourced_range(v), FIGS[which].unit, JC_ORIGIN_HWDB, jci_bld_cite(b, v));
        *from = jci_bld_str(b, "host %s %s", host->id, HOST_FIGS[which].field);
        return JC_OK;
    }
    const jc_sourced *d = (const jc_sourced *)((const char *)dev + FIGS[which].off);
    *from = d->present && d->value > 0
                ? jci_bld_str(b, "device %s %s%s", dev->id, FIGS[which].field, host ? " (the host gives none)" : "")
                : jci_bld_str(b, "FALLBACK %s (%s has no %s%s)", FIGS[which].fallback, dev->id, FIGS[which].field,
                              host ? ", the host no fabric" : ", no --host");
    return jci_node_figure(b, db, dev, which, who, out);
}

jc_status jci_node_figure(jci_builder *b, const jc_hwdb *db, const jc_device *dev, jci_node_fig which,
                          const char *who, jc_range *out)
{
    const node_fig *f = &FIGS[which];
    const jc_sourced *v = (const jc_sourced *)((const char *)dev + f->off);
    if (v->present && v->value > 0) {
        const char *label = f->label;
        if (which == JCI_LINK_BW)
            label = jci_bld_str(b, "%s (%s)", label, dev->interconnect ? dev->interconnect : "interconnect");
        *out = jci_bld_assume(b, f->key, label, jci_sourced_range(v), f->unit, JC_ORIGIN_HWDB, jci_bld_cite(b, v));
        return JC_OK;
    }
    const jc_constant *c = NULL;
    jc_diag tmp;
    if (jc_hwdb_constant(db, f->fallback, &c, &tmp) != JC_OK)
        return jci_bld_fail(b, JC_ERR_HWDB, "device %s has no %s and the hardware database has no fallback "
                            "constant '%s' (hwdb/interconnect.yaml)", dev->id, f->field, f->fallback);
    *out = jci_bld_const(b, c->id, jci_bld_str(b, "%s: FALLBACK (%s has no %s)", f->label, dev->id, f->field), c);
    if (f->warn)
        jci_bld_warn(b, "%s: %s has no published %s: the fallback %s %s of '%s' (%s) is used", who, dev->id,
                     f->field, FMT_N(out->central), f->unit, f->fallback, f->fb_what);
    return JC_OK;
}

jc_status jci_dp_overlap(jci_builder *b, double user, const char *label, jc_range *out)
{
    if (given(user)) {
        *out = jci_bld_assume(b, "parallel.dp_overlap", "share of the backward the data-parallel gradient all-reduce "
                              "runs beside (0: after it, exposed)", R1(user), "", JC_ORIGIN_USER, "--dp-overlap");
        return JC_OK;
    }
    const jc_constant *c;
    jc_status st = jci_bld_need_const(b, "dp_overlap_backward", &c);
    if (!st) *out = jci_bld_const(b, "dp_overlap_backward", label, c);
    return st;
}

jc_status jci_dp_batch_check(jci_builder *b, double batch, const char *unit, double G, double tp, double pp, double cp,
                             double m, int mp, const char *hint)
{
    double dp = G / (tp * pp * cp);
    if (!(m > 1)) m = 1;
    if (!(batch < dp * m)) return JC_OK;
    const char *lay = jci_bld_str(b, "%s devices / (tp %s x pp %s%s%s)", FMT_N(G), FMT_N(tp), FMT_N(pp),
                                  cp > 1 ? " x cp " : "", cp > 1 ? FMT_N(cp) : "");
    const char *more = mp ? " or more model parallelism (--tp, --pp)" : "";
    if (batch < dp)
        return jci_bld_fail(b, JC_ERR_USAGE, "training: a global batch of %s %s%s per step is fewer than the %s "
                            "data-parallel replicas (%s): %s of them would take no sample; give --batch %s or more, "
                            "or fewer devices (--count)%s%s", FMT_N(batch), unit, batch == 1 ? "" : "s", FMT_N(dp),
                            lay, FMT_N(dp - batch), FMT_N(dp), more, hint ? hint : "");
    return jci_bld_fail(b, JC_ERR_USAGE, "training: a global batch of %s %ss per step over the %s data-parallel "
                        "replicas (%s) is %s %s%s per replica, fewer than its %s micro-batches (--micro-batches): "
                        "some micro-batches would take no %s; give --batch %s or more, --micro-batches %s or fewer, "
                        "or fewer devices (--count)%s%s", FMT_N(batch), unit, FMT_N(dp), lay, FMT_N(batch / dp), unit,
                        batch == dp ? "" : "s",
                        FMT_N(m), unit, FMT_N(dp * m), FMT_N(floor(batch / dp)), more, hint ? hint : "");
}
