/*
 * site.c (estimate) - where a run draws its energy: the devices and hosts counted,
 * the host power and its CPUs' usage, the region with its carbon
 * intensity and PUE (site.h).  The rules the graph estimate and the
 * serving model share; each figure is recorded as an assumption with its
 * origin through the result builder.  Nothing here prints.
 */
#include "estimate/site.h"
#include "estimate/account.h"
#include "base/fmt.h"
#include "estimate/power.h"

#include <math.h>
#include <string.h>

/* ---- devices and hosts --------------------------------------------------------- */

/* --count devices on --hosts k hosts of `what` that hold `per` devices
 * each: refused (JC_ERR_USAGE) when they do not hold them, a named host
 * and a system class alike (issue 43 item 12): no host energy is computed
 * for devices that have no host. */
static jc_status hosts_hold(jci_builder *b, double count, double per, double k, const char *what)
{
    if (count <= per * k) return JC_OK;
    return jci_bld_fail(b, JC_ERR_USAGE, "--count %s exceeds the %s devices of --hosts %s x %s (%s each): "
                        "give --hosts %s, or leave --hosts out", FMT_N(count), FMT_N(per * k), FMT_N(k), what,
                        FMT_N(per), FMT_N(ceil(count / per)));
}

/* The number of hosts (K) and devices (G), each an assumption with its
 * origin.  A host that names its accelerator, or names none but holds
 * n_accel slots, holds n_accel of --device per host; a host whose slots
 * are not known (n_accel 0) holds what --count says.  --count beyond one
 * host's slots without --hosts takes as many hosts as it needs (derived,
 * rounded up); --count beyond the --hosts given is refused: no host
 * energy is computed for hosts that hold no device or for devices that
 * have no host.  --hosts and --count are whole numbers >= 1
 * (jc_job_check).  Errors: JC_ERR_USAGE with the diagnostic. */
jc_status jci_site_count(jci_builder *b, jci_site *x, double count, const char *traced, double traced_n)
{
    const jc_job *j = b->job;
    const jc_host *host = x->host;
    const jc_device *dev = x->dev;
    if (!host) {
        int from_trace = !given(count) && dev && traced && traced_n > 0;
        x->G = given(count) ? count : from_trace ? traced_n : 1;
        x->K = 0;
        jci_bld_assume(b, "devices", "devices", R1(x->G), "",
               given(count) ? JC_ORIGIN_USER : JC_ORIGIN_DEFAULT,
               given(count) ? "--count"
               : from_trace ? jci_bld_str(b, "the trace's %s device channels (%s)", FMT_N(traced_n), j->measured)
                            : "one device unless --count is given");
        return JC_OK;
    }
    double per = host->accel == dev || (!host->accel && host->n_accel > 0) ? host->n_accel : 1;
    int slots = host->n_accel > 0 && (host->accel == dev || !host->accel);
    int derive = slots && !given(j->hosts) && given(count) && count > per;
    x->K = given(j->hosts) ? j->hosts : derive ? ceil(count / per) : 1;
    jc_status st;
    if (slots && given(j->hosts) && given(count) && (st = hosts_hold(b, count, per, x->K, host->id))) return st;
    jci_bld_assume(b, "hosts", "servers / instances", R1(x->K), "",
           given(j->hosts) ? JC_ORIGIN_USER : derive ? JC_ORIGIN_DERIVED : JC_ORIGIN_DEFAULT,
           given(j->hosts) ? "--hosts"
           : derive ? jci_bld_str(b, "--count %s at %s devices per %s, rounded up", FMT_N(count), FMT_N(per), host->id)
                    : "one host unless --hosts is given");
    if (given(count) && !slots && count > per * x->K)
        jci_bld_warn(b, "--count %s exceeds the %s devices of %s x %s", FMT_N(count), FMT_N(per * x->K), FMT_N(x->K), host->id);
    x->G = given(count) ? count : per * x->K;
    jci_bld_assume(b, "devices", "devices", R1(x->G), "",
           given(count) ? JC_ORIGIN_USER : JC_ORIGIN_HWDB,
           given(count) ? "--count"
           : !host->accel && host->n_accel < 1 ? jci_bld_str(b, "%s:%d (%s: the device is its %d vCPUs of %s)", host->file,
                                                             host->line, host->id, host->vcpus, host->cpu_name)
           : !host->accel ? jci_bld_str(b, "%s:%d (%s holds %d accelerator%s; the device is --device's %s)",
                                        host->file, host->line, host->id, host->n_accel,
                                        host->n_accel == 1 ? "" : "s", dev->id)
                          : jci_bld_str(b, "%s:%d (%s has %d x %s)",
               host->file, host->line, host->id, host->n_accel, dev->id));
    return JC_OK;
}

/* ---- host power ------------------------------------------------------------------ */

/* The provider's instance for the job's devices in a cloud region (no
 * --host named): a cloud-instance host of the region's provider whose
 * accelerators are the device, the one with the most accelerators whose
 * count divides the job's (fewest instances).  *k receives the instance
 * count.  NULL when the region is not a cloud region or the database has
 * no such instance. */
static const jc_host *cloud_instance(jci_builder *b, const jci_site *x, double *k)
{
    const jc_region *r = NULL;
    jc_diag tmp;
    if (!b->job->region || jc_hwdb_region(b->db, b->job->region, &r, &tmp) || !r->provider) return NULL;
    const jc_host *best = NULL;
    for (size_t i = 0; i < b->db->n_hosts; i++) {
        const jc_host *h = &b->db->hosts[i];
        if (h->kind != JC_HOST_CLOUD_INSTANCE || !h->provider || jci_strcasecmp(h->provider, r->provider) ||
            h->accel != x->dev || h->n_accel < 1 || fmod(x->G, h->n_accel) != 0 || !h->host_power_w.present)
            continue;
        if (!best || h->n_accel > best->n_accel) best = h;
    }
    if (best) *k = x->G / best->n_accel;
    return best;
}

jc_status jci_site_host(jci_builder *b, jci_site *x, jc_estimate *e)
{
    const jc_job *j = b->job;
    jc_status st;
    if (given(j->host_power_w)) {
        x->host_fixed = 1;
        x->host_on = 1;
        double per = j->host_power_w;
        double n = x->host ? x->K : 1;
        x->host_w = jci_bld_assume(b, "host.power_w", jci_bld_str(b, "host power (%s host%s)", FMT_N(n), n == 1 ? "" : "s"),
                           R1(per * n), "W", JC_ORIGIN_USER, "--host-power (per host)");
        e->host_assumed = jci_bld_str(b, "%s W x %s (--host-power)", FMT_N(per), FMT_N(n));
        e->host_given = 1;
        return JC_OK;
    }
    if (x->host) {
        if (!x->host->host_power_w.present)
            return jci_bld_fail(b, JC_ERR_HWDB, "host %s has no host_power_w", x->host->id);
        x->host_on = 1;
        jc_range r = jci_sourced_range(&x->host->host_power_w);
        x->host_w = jci_bld_assume(b, "host.power_w", jci_bld_str(b, "host power, %s x %s (CPUs, DRAM, fans, NICs)", FMT_N(x->K), x->host->id),
                           R3(r.low * x->K, r.central * x->K, r.high * x->K), "W", JC_ORIGIN_HWDB,
                           jci_bld_cite(b, &x->host->host_power_w));
        int derived_k = !given(j->hosts) && x->K > 1;  /* jci_site_count: from --count */
        e->host_assumed = derived_k ? jci_bld_str(b, "%s x %s (--host; hosts to hold --count %s)",
                                                     x->host->id, FMT_N(x->K), FMT_N(x->G))
                                       : jci_bld_str(b, "%s x %s (--host)", x->host->id, FMT_N(x->K));
        e->host_given = 1;
        return JC_OK;
    }
    if (j->method == JC_METHOD_TDP || given(x->avg_power)) {
        x->host_on = 0;
        e->host_absent = given(x->avg_power) ? "--avg-power stands for what was measured; add --host-power or --host"
                                                : "the tdp method counts device power only; add --host-power or --host";
        jci_bld_assume(b, "host.power_w", "host power", R1(0), "W", JC_ORIGIN_DEFAULT,
               given(x->avg_power)
                   ? "not added: the measured average power stands for what was measured (add --host-power or --host)"
                   : "not added: the tdp method counts device power only, as model cards do (add --host-power or --host)");
        e->host_assumed = jci_bld_str(b, "none (%s)", e->host_absent);
        return JC_OK;
    }
    /* no host named, a cloud region: the provider's instance for the
     * device and count (g2-standard-4 for one L4 on GCP) */
    double k = 0;
    const jc_host *inst = given(j->hosts) ? NULL : cloud_instance(b, x, &k);
    if (inst) {
        x->host_on = 1;
        x->host = inst;
        x->K = k;
        e->host_id = inst->id;
        e->hosts = k;
        jc_range r = jci_sourced_range(&inst->host_power_w);
        const char *why = jci_bld_str(b, "the provider's instance for %s x %s in %s; no --host named", FMT_N(x->G),
                                      x->dev->id, b->job->region);
        x->host_w = jci_bld_assume(b, "host.power_w", jci_bld_str(b, "host power, %s x %s (%s)", FMT_N(k), inst->id, why),
                                   R3(r.low * k, r.central * k, r.high * k), "W", JC_ORIGIN_HWDB,
                                   jci_bld_cite(b, &inst->host_power_w));
        e->host_assumed = jci_bld_str(b, "%s x %s (%s)", inst->id, FMT_N(k), why);
        return JC_OK;
    }
    /* no host named: the system class of the device (#18 item 4) */
    jci_host_class hc = jci_host_class_default(x->dev, x->G);
    if (hc == JCI_HOSTCLASS_NONE) {
        x->host_on = 0;
        jci_bld_assume(b, "host.power_w", "host power: none (system class 'none')", R1(0), "W", JC_ORIGIN_DEFAULT,
                       "a CPU device is its own host: its TDP covers the package; DRAM and platform power are "
                       "not added (give --host-power W to add them)");
        e->host_assumed = "none (a CPU device is its own host)";
        return JC_OK;
    }
    const jc_constant *busy, *hidle;
    if ((st = jci_host_class_resolve(b->db, hc, &busy, &hidle, b->d))) return st;
    x->host_on = 1;
    /* the devices' share of the class's server (one L4 holds half of a
     * 2-device server; a desktop workstation is whole), or --hosts whole
     * servers of the class */
    double per = jci_host_class_devices(hc);
    if (given(j->hosts) &&
        (st = hosts_hold(b, x->G, per, j->hosts, jci_bld_str(b, "system class '%s'", jci_host_class_name(hc)))))
        return st;
    double nh = given(j->hosts) ? j->hosts
              : hc == JCI_HOSTCLASS_WORKSTATION ? jci_host_class_hosts(hc, x->G)  /* a desktop is not shared */
              : x->G / per;
    jc_range r = jci_sourced_range(&busy->value);
    const char *why = hc == JCI_HOSTCLASS_WORKSTATION ? "a consumer card's usual system"
                    : hc == JCI_HOSTCLASS_TPU ? "TPU chips share their pod's hosts"
                    : hc == JCI_HOSTCLASS_EMBEDDED ? "a SoC module's carrier board and power supply"
                    : "a datacenter part's usual server for this device count";
    const char *how = given(j->hosts) ? jci_bld_str(b, "%s whole server%s: --hosts", FMT_N(nh), nh == 1 ? "" : "s")
                    : nh == floor(nh) ? jci_bld_str(b, "%s server%s of %s device%s", FMT_N(nh), nh == 1 ? "" : "s", FMT_N(per),
                                                  per == 1 ? "" : "s")
                    : jci_bld_str(b, "a share: %s of its %s devices; --hosts 1 for a whole server", FMT_N(x->G), FMT_N(per));
    x->host_w = jci_bld_assume(b, "host.power_w",
                               jci_bld_str(b, "host power: system class '%s' x %s (%s; %s; no --host named)",
                                            jci_host_class_name(hc), FMT_N(nh), how, why),
                               R3(r.low * nh, r.central * nh, r.high * nh), "W", JC_ORIGIN_HWDB,
                               jci_bld_cite(b, &busy->value));
    e->host_class = jci_host_class_name(hc);
    e->hosts = nh;
    e->host_assumed = jci_bld_str(b, "%s x system class '%s' (%s; no --host named)", FMT_N(nh),
                                     jci_host_class_name(hc), how);
    return JC_OK;
}

/* The usage a database constant gives an inference job's host: id, and
 * the assumption's label. */
static const struct { const char *id, *label; } INFERENCE_USAGE[2] = {
    {"host_cpu_usage_inference", "host CPUs busy this fraction of the runtime (an inference job: its engine leaves "
     "the host CPUs mostly idle; --cpu-usage sets it)"},
    {"host_cpu_usage_latency_bound", "host CPUs busy this fraction of the runtime (--scenario singlestream or "
     "multistream: one query in flight, the harness wakes the host for every query; --cpu-usage sets it)"},
};

/* The host CPUs' usage the host power is scaled at: --cpu-usage, else for
 * an inference job whose host power comes from the database (a system
 * class, a named or cloud host; not --host-power or a measured host) the
 * usage an inference engine leaves its host: host_cpu_usage_latency_bound
 * under a latency-bound scenario (singlestream, multistream: the queries
 * one after another, jc_scenario_serial), else host_cpu_usage_inference;
 * else none (the host at its busy figure).  *origin, *src and *label say
 * which. */
static jc_status cpu_usage_of(jci_builder *b, const jci_site *x, double *u, jc_origin *origin, const char **src,
                              const char **label)
{
    const jc_job *j = b->job;
    *u = NAN;
    *label = "host CPUs busy this fraction of the runtime";
    if (given(j->cpu_usage)) {
        *u = j->cpu_usage;
        *origin = JC_ORIGIN_USER;
        *src = "--cpu-usage";
        return JC_OK;
    }
    if (!x->host_on || j->mode == JC_MODE_TRAINING || x->host_fixed || given(x->m_host) ||
        given(x->m_wall))
        return JC_OK;
    int latency_bound = jc_scenario_serial(j->scenario);
    const char *id = INFERENCE_USAGE[latency_bound].id;
    const jc_constant *c;
    jc_diag tmp;
    if (jc_hwdb_constant(b->db, id, &c, &tmp) != JC_OK)
        return jci_bld_fail(b, JC_ERR_HWDB, "the hardware database has no constant '%s' (hwdb/energy-model.yaml: "
                            "the host CPUs' usage during inference)", id);
    *u = c->value.value;
    *origin = JC_ORIGIN_HWDB;
    *src = jci_bld_cite(b, &c->value);
    *label = INFERENCE_USAGE[latency_bound].label;
    return JC_OK;
}

/* The host power scale at usage u, idle/busy + (1 - idle/busy) x u, from
 * the idle and busy power of `whose` (a host's own, hwdb/hosts.yaml
 * host_idle_w, or its class's), recorded with both figures cited. */
static void usage_factor(jci_builder *b, jci_site *x, double u, jc_origin origin, const char *src, const char *label,
                         const jc_sourced *idle, const jc_sourced *busy, const char *whose)
{
    double f = idle->value / busy->value;
    if (f > 1) f = 1;
    x->host_factor = f + (1 - f) * u;
    jci_bld_assume(b, "host.usage", label, R1(u), "", origin, src);
    jci_bld_assume(b, "host.usage_factor",
                   jci_bld_str(b, "host power scale at that usage: idle/busy + (1 - idle/busy) x usage, %s", whose),
                   R1(x->host_factor), "", JC_ORIGIN_DERIVED,
                   jci_bld_str(b, "idle %s over busy %s", jci_bld_cite(b, idle), jci_bld_cite(b, busy)));
}

jc_status jci_site_cpu_usage(jci_builder *b, jci_site *x)
{
    const jc_job *j = b->job;
    double u;
    jc_origin origin = JC_ORIGIN_USER;
    const char *src = NULL, *label = NULL;
    jc_status st;
    if (x->host && !x->host->accel && x->host->n_accel < 1) return JC_OK;   /* a CPU VM: --cpu-usage is its vCPUs' (vm.c) */
    if (given(j->cpu_usage) && !x->host_on)
        return jci_bld_fail(b, JC_ERR_USAGE, "--cpu-usage scales the host term, and this estimate adds none (the tdp "
                            "method, --avg-power or a measured host): leave it out or add --host-power");
    if (given(j->cpu_usage) && given(x->m_host))
        return jci_bld_fail(b, JC_ERR_USAGE, "--cpu-usage and a trace that measured the host both give the host power");
    if ((st = cpu_usage_of(b, x, &u, &origin, &src, &label))) return st;
    if (!given(u)) return JC_OK;
    if (x->host && !x->host_fixed && x->host->host_idle_w.present && x->host->host_power_w.value > 0) {
        usage_factor(b, x, u, origin, src, label, &x->host->host_idle_w, &x->host->host_power_w,
                     jci_bld_str(b, "host %s's own idle and busy power", x->host->id));
        return JC_OK;
    }
    jci_host_class hc = jci_host_class_default(x->dev, x->G);
    if (origin != JC_ORIGIN_USER && hc == JCI_HOSTCLASS_NONE) return JC_OK;   /* no class idle/busy to scale by */
    const jc_constant *busy = NULL, *idle = NULL;
    jc_diag tmp;
    if (hc == JCI_HOSTCLASS_NONE || jci_host_class_resolve(b->db, hc, &busy, &idle, &tmp) || !busy || !idle ||
        !(busy->value.value > 0))
        return jci_bld_fail(b, JC_ERR_HWDB, "--cpu-usage needs the idle and busy power of host class %s in the "
                            "database (hwdb/energy-model.yaml host_class_*)", jci_host_class_name(hc));
    usage_factor(b, x, u, origin, src, label, &idle->value, &busy->value,
                 jci_bld_str(b, "class %s", jci_host_class_name(hc)));
    return JC_OK;
}

/* ---- the place -------------------------------------------------------------------- */

jc_status jci_site_place(jci_builder *b, jci_site *x, jc_estimate *e)
{
    const jc_job *j = b->job;
    jc_status st;
    const char *code = j->region;
    if (code) {
        if ((st = jc_hwdb_region(b->db, code, &x->region, b->d))) return st;
    } else if (!given(j->ci)) {
        if ((st = jc_hwdb_region(b->db, "WORLD", &x->region, b->d))) return st;
        jci_bld_warn(b, "no --region: the world average grid intensity is used; name the region for a real figure");
    }
    const jc_region *r = x->region;
    if (r) {
        e->region_code = r->code;
        e->region_name = r->name;
        e->region = r;
        jc_diag tmp;
        if (r->type == JC_REGION_COUNTRY) e->region_country = r;
        else if (r->country && jc_hwdb_region(b->db, r->country, &e->region_country, &tmp))
            e->region_country = NULL;   /* a country the database lacks: left empty */
    }
    /* carbon intensity */
    if (given(j->ci)) {
        x->ci = jci_bld_assume(b, "grid.ci", "grid carbon intensity", R1(j->ci), "gCO2e/kWh", JC_ORIGIN_USER, "--ci");
        e->ci_source = "--ci";
    } else {
        const jc_intensity *di = r->default_intensity;
        if (!di)
            return jci_bld_fail(b, JC_ERR_NOTFOUND, "region %s has no carbon-intensity value in any dataset; give --ci G", r->code);
        const jc_region *from = r->default_from ? r->default_from : r;
        const char *why = r->default_reason ? r->default_reason : "n/a";
        const char *basis = jc_job_ci_basis(j);
        const int named = basis && j->ci_dataset;   /* the user's basis, not the default one */
        if (basis) {
            /* one basis: the region's value in that dataset, else its
             * grid zone's; the region's own default is kept beside it */
            const jc_intensity *v = jc_region_intensity(r, basis, 0);
            const jc_region *xf = r;
            if (!v && r->grid_region) {
                v = jc_region_intensity(r->grid_region, basis, 0);
                xf = r->grid_region;
            }
            if (!v && named)
                return jci_bld_fail(b, JC_ERR_NOTFOUND, "region %s has no value in dataset %s%s%s (the intensity "
                                    "basis asked for); give another --ci-dataset, 'default' for the region's own, "
                                    "or --ci G", r->code, basis, r->grid_region ? " nor its grid zone " : "",
                                    r->grid_region ? r->grid_region->code : "");
            if (!v) {
                /* the default basis lacks the region: its own default, named */
                e->ci_basis_fallback = 1;
                why = jci_bld_str(b, "%s has no value in joulecast's common basis %s%s%s, so its own default is "
                                  "used (%s), on another basis than regions that have one", r->code, basis,
                                  r->grid_region ? " nor has its grid zone " : "",
                                  r->grid_region ? r->grid_region->code : "", why);
                if (code)   /* without --region the world-average warning says enough */
                    jci_bld_warn(b, "region %s has no value in the common intensity basis %s: its own default, "
                                 "dataset %s %d (%s), is used, so its emissions are not on the basis of other "
                                 "regions; %s--ci G gives a figure of your own", r->code, basis, di->dataset_id,
                                 di->value.year, di->basis ? di->basis : "basis n/a",
                                 r->type == JC_REGION_SUBNATIONAL && !r->grid_region
                                     ? "no grid zone is mapped to it: name the zone it lies in as --region "
                                       "(joulecast region list --type grid), or "
                                     : "");
            } else {
                if (v != di) e->ci_region_default = di->value.value;
                if (v != di)
                    jci_bld_assume(b, "grid.ci_region_default",
                                   jci_bld_str(b, "the region's own default intensity: %s, dataset %s %d (%s); not used",
                                                from->code, di->dataset_id, di->value.year, di->basis ? di->basis : "basis n/a"),
                                   R1(di->value.value), "gCO2e/kWh", JC_ORIGIN_HWDB, jci_bld_cite(b, &di->value));
                di = v;
                from = xf;
                why = named ? jci_bld_str(b, "--ci-dataset %s (one basis for every region)", basis)
                            : jci_bld_str(b, "joulecast's common basis %s for every region (--ci-dataset "
                                          "default: each region's own)", basis);
            }
        }
        /* spread: the latest value of every dataset for the region and,
         * for a region with a grid zone (a cloud region, a state one
         * zone serves), for the zone too; a superseded dataset
         * (an older calculator table, an older year of a yearly series)
         * is shown by `region show` but never widens the range
         * (docs/energy-model.md section 5) */
        double lo = di->value.value, hi = di->value.value;
        const jc_region *pool[2] = {r, r->grid_region};
        for (int q = 0; q < 2; q++) {
            const jc_region *z = pool[q];
            for (size_t i = 0; z && i < z->n_intensity; i++) {
                const jc_intensity *v = &z->intensity[i];
                if (v->dataset && v->dataset->superseded_by) continue;
                if (jc_region_intensity(z, v->dataset_id, 0) != v) continue;
                if (v->value.value < lo) lo = v->value.value;
                if (v->value.value > hi) hi = v->value.value;
            }
        }
        const char *src = jci_bld_str(b, "%s; %s: %s", jci_bld_cite(b, &di->value),
                                       basis && !e->ci_basis_fallback ? "chosen by" : "default because", why);
        x->ci = jci_bld_assume(b, "grid.ci",
                       jci_bld_str(b, "grid carbon intensity, %s, dataset %s %d (%s); range: other datasets",
                            from->code, di->dataset_id, di->value.year, di->basis ? di->basis : "basis n/a"),
                       R3(lo, di->value.value, hi), "gCO2e/kWh", JC_ORIGIN_HWDB, src);
        e->ci_source = src;
        e->ci_dataset_id = di->dataset_id;
        e->ci_dataset_name = di->dataset && di->dataset->name ? di->dataset->name : di->dataset_id;
        e->ci_basis = di->basis;
        e->ci_year = di->value.year;
    }
    e->ci = x->ci;
    if (r && r->market_gco2e_per_kwh.present) {
        e->has_market = 1;
        jci_bld_assume(b, "grid.ci_market", "market-based intensity (provider-published)",
               R1(r->market_gco2e_per_kwh.value), "gCO2e/kWh", JC_ORIGIN_HWDB,
               jci_bld_cite(b, &r->market_gco2e_per_kwh));
    }
    /* PUE */
    if (given(j->pue)) {
        x->pue = jci_bld_assume(b, "pue", "power usage effectiveness", R1(j->pue), "", JC_ORIGIN_USER, "--pue");
        e->pue_source = "--pue";
    } else if (r && r->pue.present) {
        e->pue_source = jci_bld_cite(b, &r->pue);
        x->pue = jci_bld_assume(b, "pue", jci_bld_str(b, "PUE of %s", r->code), jci_sourced_range(&r->pue), "",
                        JC_ORIGIN_HWDB, e->pue_source);
    } else {
        const char *prov = (r && r->provider) ? r->provider
                         : (x->host && x->host->provider) ? x->host->provider : "local-unknown";
        const jc_provider *p;
        if ((st = jc_hwdb_provider(b->db, prov, &p, b->d))) return st;
        if (!p->pue.present) return jci_bld_fail(b, JC_ERR_HWDB, "provider %s has no PUE", p->id);
        e->pue_source = jci_bld_cite(b, &p->pue);
        x->pue = jci_bld_assume(b, "pue", jci_bld_str(b, "PUE: %s (%s)", p->id, p->name ? p->name : p->id),
                        jci_sourced_range(&p->pue), "", JC_ORIGIN_HWDB, e->pue_source);
    }
    e->pue = x->pue;
    return JC_OK;
}

/* ---- embodied emissions ---------------------------------------------------------- */

/* Embodied emissions (--embodied): the device's share over its lifetime. */
jc_status jci_site_embodied(jci_builder *b, const jc_device *dev, double G, const double T[3], jc_estimate *e)
{
    const jc_job *job = b->job;
    jc_status st;
    if (!dev->embodied_kgco2e.present) {
        jci_bld_warn(b, "--embodied: device %s has no embodied-emissions figure in the database", dev->id);
        return JC_OK;
    }
    double life;
    if (given(job->lifetime_years)) {
        life = jci_bld_assume(b, "lifetime_years", "hardware lifetime", R1(job->lifetime_years), "years",
                      JC_ORIGIN_USER, "--lifetime").central;
    } else {
        const jc_constant *c;
        if ((st = jci_bld_need_const(b, "default_lifetime_years", &c))) return st;
        life = jci_bld_const(b, "lifetime_years", "hardware lifetime", c).central;
    }
    double emb = dev->embodied_kgco2e.value;
    jci_bld_assume(b, "device.embodied_kgco2e",
           jci_bld_str(b, "embodied emissions per device (scope: %s)",
                dev->embodied_scope ? dev->embodied_scope : "n/a"),
           R1(emb), "kgCO2e", JC_ORIGIN_HWDB, jci_bld_cite(b, &dev->embodied_kgco2e));
    jci_account_embodied(G, T, emb, life, e);
    return JC_OK;
}
