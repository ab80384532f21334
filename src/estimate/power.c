/*
 * power.c (estimate) - device power from compute and memory utilisation (with the
 * DRAM energy of the memory type), the power limit and the clocks it
 * leaves, launch-bound and idle power, and the host power of a system
 * class, and the clocks a power limit leaves the die (its power at boost
 * clock, boost_power_w).  Equations:
 * power.h and docs/energy-model.md section 3; constants:
 * hwdb/energy-model.yaml (`power_*`, `host_class_*`).
 */
#include "base/detmath.h"
#include "base/fmt.h"
#include "estimate/power.h"

#include <math.h>
#include <string.h>

static jc_range range_of(const jc_constant *c)
{
    jc_range r = {c->value.value, c->value.value, c->value.value};
    if (c->value.has_range) {
        r.low = c->value.low;
        r.high = c->value.high;
    }
    return r;
}

jc_status jci_power_model_resolve(const jc_hwdb *db, const jc_device *dev, jci_power_model *pm,
                                 jc_diag *d)
{
    static const char *const gpu[JCI_PW_N] = {"power_k_compute_gpu", "power_k_memory_gpu",
                                             "activity_launch_bound"};
    static const char *const tpu[JCI_PW_N] = {"power_k_compute_tpu", "power_k_memory_tpu",
                                             "activity_launch_bound"};
    const char *const *ids = dev && dev->kind == JC_DEVICE_TPU ? tpu : gpu;
    pm->mem_w = pm->limit_w = pm->boost_w = 0;   /* the caller sets them (energy.c) */
    for (int i = 0; i < JCI_PW_N; i++) {
        const jc_constant *c;
        jc_diag tmp;
        if (jc_hwdb_constant(db, ids[i], &c, &tmp) != JC_OK)
            return jci_diag_set(d, JC_ERR_HWDB,
                               "estimate: the hardware database has no constant '%s' (device power "
                               "model; hwdb/energy-model.yaml or an override layer must define it)", ids[i]);
        pm->k[i] = range_of(c);
        pm->src[i] = c;
        pm->id[i] = ids[i];
    }
    return JC_OK;
}

/* memory-type prefix -> constant (first match wins) */
static const struct { const char *prefix, *id; } MEM_PJ[] = {
    {"HBM", "mem_pj_per_bit_hbm"},
    {"GDDR5", "mem_pj_per_bit_gddr5"},
    {"GDDR6", "mem_pj_per_bit_gddr6"},
    {"GDDR7", "mem_pj_per_bit_gddr6"},
};

const jc_constant *jci_power_mem_constant(const jc_hwdb *db, const jc_device *dev)
{
    if (!dev || !dev->memory_type) return NULL;
    for (size_t i = 0; i < sizeof MEM_PJ / sizeof MEM_PJ[0]; i++) {
        if (strncmp(dev->memory_type, MEM_PJ[i].prefix, strlen(MEM_PJ[i].prefix))) continue;
        const jc_constant *c;
        jc_diag tmp;
        return jc_hwdb_constant(db, MEM_PJ[i].id, &c, &tmp) == JC_OK ? c : NULL;
    }
    return NULL;
}

/* The DRAM power of the device's memory type at full bandwidth (e_mem x
 * BW), when the type has an energy per bit in the database. */
static void setup_memory(jci_builder *b, const jc_hwdb *db, const jc_device *dev, double bw, jci_power_model *pm)
{
    const jc_constant *c = jci_power_mem_constant(db, dev);
    if (!c || !(bw > 0)) {
        if (dev->kind == JC_DEVICE_GPU && bw > 0)
            jci_bld_assume(b, "power.memory_w", "DRAM power at full bandwidth: none added", R1(0), "W",
                           JC_ORIGIN_DEFAULT, jci_bld_str(b, "memory type %s has no energy per bit in the database "
                           "(hwdb/energy-model.yaml mem_pj_per_bit_*)", dev->memory_type ? dev->memory_type : "n/a"));
        return;
    }
    double pj = jci_bld_const(b, c->id, jci_bld_str(b, "DRAM access energy per bit, %s", dev->memory_type), c).central;
    pm->mem_w = jci_bld_assume(b, "power.memory_w", jci_bld_str(b, "DRAM power at full bandwidth: %s pJ/bit x 8 x "
                               "%s GB/s (%s)", FMT_N(pj), FMT_N(bw / 1e9), dev->memory_type), R1(pj * 8e-12 * bw), "W",
                               JC_ORIGIN_DERIVED, jci_bld_str(b, "%s and the device's memory_bw_gbs", c->id)).central;
}

jc_status jci_power_limit(jci_builder *b, const jc_device *dev, double idle, double tdp, double user_limit,
                          double *limit_w)
{
    const jc_sourced *pl = &dev->power_limit_w;
    if (given(user_limit)) {
        double lo = pl->present && pl->has_range ? pl->low : idle;
        double hi = pl->present && pl->has_range ? pl->high : tdp;
        if (!(user_limit > idle) || user_limit < lo || user_limit > hi)
            return jci_bld_fail(b, JC_ERR_USAGE, "--power-limit %s W is outside what %s accepts (%s-%s W%s; above "
                                "its idle %s W)", FMT_N(user_limit), dev->id, FMT_N(lo), FMT_N(hi),
                                pl->present && pl->has_range ? ", its power_limit_w range" : ": idle to TDP, no published "
                                "range", FMT_N(idle));
        *limit_w = jci_bld_assume(b, "power.limit_w", "device power limit (busy power capped, clocks lowered)",
                                     R1(user_limit), "W", JC_ORIGIN_USER, "--power-limit").central;
    } else if (pl->present) {
        *limit_w = jci_bld_assume(b, "power.limit_w", "device power limit: its default",
                                     R1(pl->value), "W", JC_ORIGIN_HWDB, jci_bld_cite(b, pl)).central;
    } else if (tdp > 0) {
        *limit_w = jci_bld_assume(b, "power.limit_w", "device power limit: its TDP (no power_limit_w published)",
                                     R1(tdp), "W", JC_ORIGIN_DERIVED, "device.tdp_w").central;
    }
    return JC_OK;
}

/* The die's power at its boost clock (B of power.h): the device's
 * boost_power_w, else its TDP, recorded when it matters (the device has
 * one, or a limit below the TDP lowers the clocks). */
static void setup_boost(jci_builder *b, const jc_device *dev, double tdp, jci_power_model *pm)
{
    const jc_sourced *bp = &dev->boost_power_w;
    if (bp->present && bp->value > tdp)
        pm->boost_w = jci_bld_assume(b, "power.boost_w", "the die's power holding its boost clock at full activity "
                                     "(the clocks fall below boost where a power limit under it binds)",
                                     R1(bp->value), "W", JC_ORIGIN_HWDB, jci_bld_cite(b, bp)).central;
    else if (pm->limit_w > 0 && pm->limit_w < tdp)
        jci_bld_assume(b, "power.boost_w", "the die's power holding its boost clock at full activity: its TDP "
                       "(no boost_power_w published)", R1(tdp), "W", JC_ORIGIN_DERIVED, "device.tdp_w");
}

jc_status jci_power_setup(jci_builder *b, const jc_hwdb *db, const jc_device *dev, double bw, jc_range idle,
                          jc_range tdp, double user_limit, int record_launch, jci_power_model *pm)
{
    static const char *const labels[JCI_PW_N] = {
        "power: compute coefficient k_c in activity = 1 - exp(-(k_c u_c + k_m u_m))",
        "power: memory coefficient k_m", "power activity while launch-bound (near idle)"};
    jc_status st;
    if ((st = jci_power_model_resolve(db, dev, pm, b->d))) return st;
    pm->idle_w = idle;
    pm->tdp_w = tdp;
    for (int i = 0; i < JCI_PW_N; i++)
        if (i != JCI_PW_A_LAUNCH || record_launch) pm->k[i] = jci_bld_const(b, pm->id[i], labels[i], pm->src[i]);   /* as --pin sets it */
    setup_memory(b, db, dev, bw, pm);
    if ((st = jci_power_limit(b, dev, idle.central, tdp.central, user_limit, &pm->limit_w))) return st;
    setup_boost(b, dev, tdp.central, pm);
    return JC_OK;
}

static double clamp01(double x)
{
    return !(x > 0) ? 0 : x > 1 ? 1 : x;
}

double jci_power_activity(const jci_power_model *pm, double u_compute, double u_memory, int sc)
{
    double z = jci_pick(pm->k[JCI_PW_K_COMPUTE], sc, JCI_RAISES) * clamp01(u_compute) +
               jci_pick(pm->k[JCI_PW_K_MEMORY], sc, JCI_RAISES) * clamp01(u_memory);
    return 1 - exp(-z);
}

double jci_power_uncapped_w(const jci_power_model *pm, double u_compute, double u_memory, int sc)
{
    double idle = jci_pick(pm->idle_w, sc, JCI_RAISES), tdp = jci_pick(pm->tdp_w, sc, JCI_RAISES);
    if (tdp < idle) tdp = idle;
    if (pm->limit_w > tdp) tdp = pm->limit_w;   /* a raised limit lifts the ceiling the clocks reach */
    double mem = pm->mem_w > 0 ? pm->mem_w * clamp01(u_memory) : 0;
    return idle + (tdp - idle) * jci_power_activity(pm, u_compute, u_memory, sc) + mem;
}

double jci_power_cap_clock(const jci_power_model *pm, double u_compute, double u_memory, int sc)
{
    double idle = jci_pick(pm->idle_w, sc, JCI_RAISES), tdp = jci_pick(pm->tdp_w, sc, JCI_RAISES);
    double lim = pm->limit_w, boost = pm->boost_w > tdp ? pm->boost_w : tdp;
    /* at or above B the die holds its boost clock; without boost_power_w
     * B is the TDP, the design point of the timm rows' efficiencies */
    if (!(lim > idle) || !(lim < boost)) return 1;
    double mem = pm->mem_w > 0 ? pm->mem_w * clamp01(u_memory) : 0;
    double pb = idle + (boost - idle) * jci_power_activity(pm, u_compute, u_memory, sc) + mem;
    /* jci_cbrt, not pow or cbrt: glibc's pick an FMA variant on CPUs that
     * have one, whose last bit can differ from musl's (the WebAssembly
     * page's), and the page must print the CLI's bits */
    return pb > lim ? jci_cbrt((lim - idle) / (pb - idle)) : 1;
}

void jci_power_record_cap_clock(jci_builder *b, const jc_device *dev, const jci_power_model *pm, double r)
{
    double f = dev->boost_ghz > 0 ? dev->boost_ghz * 1e3 : 0;
    const char *lim = FMT_N(pm->limit_w);
    if (f > 0)
        jci_bld_assume(b, "power.cap_clock", jci_bld_str(b, "clock-limited at the %s W power cap: compute-bound "
                       "kernels at %s MHz of the %s MHz boost (time-weighted)", lim, FMT_N(r * f), FMT_N(f)),
                       R1(r * f), "MHz", JC_ORIGIN_DERIVED, "power.limit_w, power.boost_w and device.boost_ghz (power.h)");
    else
        jci_bld_assume(b, "power.cap_clock", jci_bld_str(b, "clock-limited at the %s W power cap: compute-bound "
                       "kernels at %s of the boost clock (time-weighted; no boost_ghz published)", lim, FMT_N(r)),
                       R1(r), "", JC_ORIGIN_DERIVED, "power.limit_w and power.boost_w (power.h)");
}

double jci_power_device_w(const jci_power_model *pm, double u_compute, double u_memory,
                         jci_power_phase phase, int sc)
{
    double idle = jci_pick(pm->idle_w, sc, JCI_RAISES), tdp = jci_pick(pm->tdp_w, sc, JCI_RAISES);
    if (tdp < idle) tdp = idle;
    double p;
    switch (phase) {
    case JCI_POWER_IDLE: return idle;
    case JCI_POWER_LAUNCH: p = idle + (tdp - idle) * clamp01(jci_pick(pm->k[JCI_PW_A_LAUNCH], sc, JCI_RAISES)); break;
    default: p = jci_power_uncapped_w(pm, u_compute, u_memory, sc); break;
    }
    return pm->limit_w > idle && p > pm->limit_w ? pm->limit_w : p;
}

/* ---- host classes --------------------------------------------------------- */

static const char *const HC_NAMES[JCI_HOSTCLASS_COUNT] = {
    "none", "desktop-workstation", "server-2", "server-4", "server-8", "tpu-host",
    "embedded-module"};
static const char *const HC_IDS[JCI_HOSTCLASS_COUNT][2] = {
    {NULL, NULL},
    {"host_class_workstation_w", "host_class_workstation_idle_w"},
    {"host_class_server2_w", "host_class_server2_idle_w"},
    {"host_class_server4_w", "host_class_server4_idle_w"},
    {"host_class_server8_w", "host_class_server8_idle_w"},
    {"host_class_tpu_w", "host_class_tpu_idle_w"},
    {"host_class_embedded_w", "host_class_embedded_idle_w"},
};

const char *jci_host_class_name(jci_host_class c)
{
    return (unsigned)c < JCI_HOSTCLASS_COUNT ? HC_NAMES[c] : "?";
}

jci_host_class jci_host_class_parse(const char *s)
{
    for (int i = 0; s && i < JCI_HOSTCLASS_COUNT; i++)
        if (!jci_strcasecmp(s, HC_NAMES[i])) return (jci_host_class)i;
    return JCI_HOSTCLASS_COUNT;
}

double jci_host_class_devices(jci_host_class c)
{
    switch (c) {
    case JCI_HOSTCLASS_WORKSTATION: return 2;
    case JCI_HOSTCLASS_SERVER2: return 2;
    case JCI_HOSTCLASS_SERVER4: return 4;
    case JCI_HOSTCLASS_SERVER8: return 8;
    case JCI_HOSTCLASS_TPU: return 1;
    default: return 1;
    }
}

double jci_host_class_hosts(jci_host_class c, double devices)
{
    return ceil(devices / jci_host_class_devices(c));
}

jci_host_class jci_host_class_default(const jc_device *dev, double devices)
{
    if (!dev || dev->kind == JC_DEVICE_CPU) return JCI_HOSTCLASS_NONE;
    if (dev->kind == JC_DEVICE_TPU) return JCI_HOSTCLASS_TPU;
    if (dev->kind == JC_DEVICE_SOC) return JCI_HOSTCLASS_EMBEDDED;
    const char *ff = dev->form_factor ? dev->form_factor : "";
    if (strstr(ff, "consumer") || strstr(ff, "prosumer")) return JCI_HOSTCLASS_WORKSTATION;
    if (devices <= 2) return JCI_HOSTCLASS_SERVER2;
    if (devices <= 4) return JCI_HOSTCLASS_SERVER4;
    return JCI_HOSTCLASS_SERVER8;
}

jc_status jci_host_class_resolve(const jc_hwdb *db, jci_host_class c, const jc_constant **busy,
                                const jc_constant **idle, jc_diag *d)
{
    *busy = *idle = NULL;
    if ((unsigned)c >= JCI_HOSTCLASS_COUNT || !HC_IDS[c][0])
        return jci_diag_set(d, JC_ERR_USAGE, "host class '%s' has no host power", jci_host_class_name(c));
    for (int i = 0; i < 2; i++) {
        const jc_constant *k;
        jc_diag tmp;
        if (jc_hwdb_constant(db, HC_IDS[c][i], &k, &tmp) != JC_OK)
            return jci_diag_set(d, JC_ERR_HWDB,
                                "estimate: the hardware database has no constant '%s' (host class %s; "
                                "hwdb/energy-model.yaml or an override layer must define it)",
                                HC_IDS[c][i], HC_NAMES[c]);
        if (i == 0) *busy = k; else *idle = k;
    }
    return JC_OK;
}
