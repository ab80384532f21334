/*
 * estimate.c (estimate) - entry point of the workload and energy stages: from a job
 * description, the counted model (or a bare FLOP figure) and the hardware
 * database to time, energy and emissions with a low-central-high range.
 *
 * The equations are docs/energy-model.md; src/estimate/ is their only
 * implementation.  It works in two steps:
 *
 *   resolve     every input the model needs, as a range with its origin
 *               (user option, hwdb entry + source, counted, derived or a
 *               documented default), each recorded as a jc_assumption:
 *               hardware and precision and the known runtime here, the
 *               work in workload.c, device numbers, host and place in
 *               energy.c;
 *   compute     the arithmetic (energy.c), run three times: the central
 *               case and the two corners (every ranged parameter at the end
 *               that lowers, then raises, the energy).
 *
 * The assumptions, warnings and failures go through the result builder
 * (builder.h, shared with serving.c).  Nothing here prints; warnings
 * travel in the result.
 */
#include "estimate/cost.h"
#include "estimate/estimate_int.h"
#include "estimate/account.h"
#include "estimate/sensitivity.h"   /* jci_estimate_core */
#include "estimate/akeys.h"

#include "estimate/vm.h"
#include "estimate/cpu_runtime.h"
#include "joulecast/trace.h"
#include "joulecast/serving.h"
#include "joulecast/model.h"   /* the model's fields */

#include <stdlib.h>
#include <string.h>

/* ---- hardware and precision -------------------------------------------------- */

/* The device a --measured trace names (nvidia-smi's name column, DCGM's
 * device name), looked up in the database: what stands for --device when
 * none is given.  *dev stays NULL when the trace names none (or it cannot
 * be read: resolve_measured then says why). */
static jc_status trace_device(est *s, const jc_device **dev, const char **name, double *n_devices)
{
    *dev = NULL;
    *name = NULL;
    *n_devices = 0;
    jc_trace_opts o;
    jc_trace_opts_init(&o);
    jc_diag tmp;
    jc_trace *t = NULL;
    if (jc_trace_opts_from_job(s->b.job, &o, NULL, &tmp) || jc_trace_load(s->b.job->measured, &o, &t, &tmp)) return JC_OK;
    jc_status st = JC_OK;
    if (t->device_name[0]) {
        const jc_host *h = NULL;
        *name = jci_bld_str(&s->b, "%s", t->device_name);
        /* nvidia-smi's names: "NVIDIA A100-SXM4-40GB", "Tesla V100-SXM2-32GB" */
        const char *n = t->device_name;
        if (jc_hwdb_hardware(s->b.db, n, dev, &h, &tmp) || !*dev) {
            *dev = NULL;
            if (!strncmp(n, "NVIDIA ", 7)) n += 7;
            if (!strncmp(n, "Tesla ", 6)) n += 6;
            if (n != t->device_name && jc_hwdb_hardware(s->b.db, n, dev, &h, &tmp)) *dev = NULL;
        }
        if (!*dev)
            st = jci_bld_fail(&s->b, JC_ERR_NOTFOUND, "%s names the device '%s', which the hardware database does not "
                              "know: give --device ID (joulecast hw list)", s->b.job->measured, t->device_name);
    }
    *n_devices = (double)t->n_devices;
    jc_trace_free(t);
    return st;
}

/* Does `t` hold the dash-separated words of `w` in a row (ASCII case
 * folded)?  "v100" is in "nvidia-v100-pcie-16gb", not in "nvidia-v1000". */
static int holds_words(const char *t, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = t; *p; p++) {
        if (p != t && p[-1] != '-') continue;
        size_t i = 0;
        while (i < n && p[i] && (p[i] | 0x20) == (w[i] | 0x20)) i++;
        if (i == n && (p[n] == 0 || p[n] == '-')) return 1;
    }
    return 0;
}

/* The name the job gave (an alias, not dev's id) picks one of several
 * variants: another device's id holds it too ("v100" names the SXM2
 * 32GB entry of the V100s). */
static int picks_variant(const jc_hwdb *db, const jc_device *dev, const char *name)
{
    if (!jci_strcasecmp(name, dev->id)) return 0;
    for (size_t i = 0; i < db->n_devices; i++)
        if (&db->devices[i] != dev && holds_words(db->devices[i].id, name)) return 1;
    return 0;
}

void jci_est_name_hardware(jci_builder *b, jc_estimate *e, const jc_device *dev, const jc_host *host)
{
    e->device_id = dev->id;
    char label[400];
    e->device_name = jci_bld_str(b, "%s", jc_device_label(dev, label, sizeof label));
    e->host_id = host ? host->id : NULL;
    e->device = dev;
    e->device_file = dev->file;
    e->device_line = dev->line;
}

static jc_status resolve_hardware(est *s)
{
    const jc_job *j = s->b.job;
    jc_status st;
    const jc_device *dev = NULL;
    const jc_host *host = NULL;
    const char *traced = NULL;   /* the device named by the --measured trace */
    double traced_n = 0;         /* and its device channels */
    if (!j->host && !j->device && j->measured) {
        if ((st = trace_device(s, &dev, &traced, &traced_n))) return st;
        if (dev)
            jci_bld_warn(&s->b, "device %s: read from the trace's device name '%s' (no --device given)", dev->id,
                         traced);
    }
    if (j->host) {
        const jc_device *d2 = NULL;
        if ((st = jc_hwdb_hardware(s->b.db, j->host, &d2, &host, s->b.d))) return st;
        if (d2) return jci_bld_fail(&s->b, JC_ERR_USAGE, "'%s' is a device, not a host: use --device", j->host);
    }
    const char *alias = NULL;            /* the --device name of a device */
    const jc_device *dev_named = NULL;   /* and the device it names */
    if (j->device) {
        const jc_host *h2 = NULL;
        if ((st = jc_hwdb_hardware(s->b.db, j->device, &dev, &h2, s->b.d))) return st;
        if (!h2) alias = j->device;
        dev_named = dev;
        if (h2) {
            if (host) return jci_bld_fail(&s->b, JC_ERR_USAGE, "both --host and --device name a host");
            host = h2;
            dev = NULL;
        }
    }
    if (host && !dev && !host->accel && host->n_accel < 1 && host->cpu) {   /* a CPU-only instance */
        if (given(j->vcpus))
            return jci_bld_fail(&s->b, JC_ERR_USAGE, "--vcpus: %s has %d vCPUs of its own (--vcpus takes a share of "
                                "a CPU named by --device)", host->id, host->vcpus);
        if ((st = jci_vm_resolve(&s->b, host, NULL, NAN, 1, &s->vm))) return st;
        dev = &s->vm->slice;
    } else if (given(j->vcpus)) {
        if (host) return jci_bld_fail(&s->b, JC_ERR_USAGE, "--vcpus takes a share of a CPU named by --device, not of a host's");
        if ((st = jci_vm_resolve(&s->b, NULL, dev, j->vcpus, 1, &s->vm))) return st;
        dev = &s->vm->slice;
    }
    if (host && !dev) {
        if (!host->accel)
            return jci_bld_fail(&s->b, JC_ERR_USAGE, "host '%s' holds accelerators it does not name; give --device ID", host->id);
        dev = host->accel;
    }
    if (host && !host->accel && host->n_accel < 1 && !s->vm && !given(j->count))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "host '%s' names no accelerators: give --count G (devices in all)", host->id);
    if (!dev && j->measured)
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "no hardware: the trace %s names no device (nvidia-smi's name "
                            "column, DCGM's device name): give --device ID or --host ID (joulecast hw list)",
                            j->measured);
    if (!dev)
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "no hardware: give --device ID or --host ID "
                    "(joulecast hw list shows them)");
    if (host && host->accel && host->accel != dev)
        jci_bld_warn(&s->b, "--device %s differs from host %s's accelerator %s; using %s",
             dev->id, host->id, host->accel->id, dev->id);
    s->dev = dev;
    s->host = host;
    jci_est_name_hardware(&s->b, s->e, dev, host);
    if (alias && dev_named == dev && picks_variant(s->b.db, dev, alias))
        s->e->device_alias = jci_bld_str(&s->b, "%s", alias);

    jci_site x = jci_est_site(s);
    x.host = host;
    x.dev = dev;
    if ((st = jci_site_count(&s->b, &x, j->count, traced, traced_n))) return st;
    jci_est_site_set(s, &x);
    s->e->devices = s->G;
    s->e->hosts = s->K;

    /* precision */
    jc_precision p;
    if (j->precision) {
        if (jci_precision_run_parse(j->precision, &p))
            return jci_bld_fail(&s->b, JC_ERR_USAGE, "--precision must be one of %s (got '%s')", jci_precision_run_list((char[64]){0}, 64),
                                j->precision);
    } else {
        p = jc_device_default_precision(dev);
    }
    s->prec = p;
    s->e->prec = p;
    s->e->precision = jc_precision_name(p);
    jci_bld_assume(&s->b, "precision", "arithmetic precision", R1(jci_est_prec_bits(p)), "bits",
           j->precision ? JC_ORIGIN_USER : JC_ORIGIN_DEFAULT,
           j->precision ? jci_bld_str(&s->b, "--precision %s", jc_precision_name(p))
                        : jci_bld_str(&s->b, "%s: the lowest of bf16, fp16, fp32 with a published peak on %s",
                               jc_precision_name(p), dev->id));
    return JC_OK;
}

/* ---- entry point --------------------------------------------------------------- */

/* The result's private part: its arena, its trace, and the account's
 * inputs of the central run (jci_estimate_pinned_account): acct_ok when
 * kept, host_hf the host power's factor where the host energy is the
 * model's own (NAN: a measured run or a VM). */
typedef struct est_internal {
    jci_arena *a;
    jc_trace *trace;
    jci_account_in acct;
    int acct_ok;
    double host_hf;
} est_internal;

/* A runtime given by the user (--hours, --device-hours) and a measured
 * average power (--avg-power). */
static jc_status resolve_runtime(est *s)
{
    const jc_job *job = s->b.job;
    if (given(job->hours) && given(job->device_hours))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--hours and --device-hours both give the runtime; choose one");
    if (given(job->hours)) {
        s->known_T = jci_bld_assume(&s->b, "runtime.hours", "wall-clock hours (given)", R1(job->hours), "h",
                            JC_ORIGIN_USER, "--hours").central * JCI_S_PER_H;
    } else if (given(job->device_hours)) {
        jci_bld_assume(&s->b, "runtime.device_hours", "device-hours (given)", R1(job->device_hours), "h",
               JC_ORIGIN_USER, "--device-hours");
        s->known_T = job->device_hours * JCI_S_PER_H / s->G;
        if (!given(job->count) && !given(job->hosts))   /* said, not silent */
            jci_bld_warn(&s->b, "--device-hours without --count: %s device%s assumed, so the wall time is %s h; give "
                         "--count N (the devices the run used) for its wall time", FMT_N(s->G), s->G == 1 ? "" : "s",
                         FMT_N(s->known_T / JCI_S_PER_H));
    }
    if (given(job->avg_power_w)) {
        jci_bld_assume(&s->b, "device.avg_power_w", "measured average power per device", R1(job->avg_power_w), "W",
               JC_ORIGIN_USER, "--avg-power");
    }
    return JC_OK;
}

/* Every input, in the order the assumptions list shows them. */
static jc_status resolve_all(est *s)
{
    jc_status st;
    if (s->b.job->mode != JC_MODE_INFERENCE && s->b.job->mode != JC_MODE_TRAINING)
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "unknown mode");
    if ((st = jci_est_check_options(s))) return st;
    if ((st = resolve_hardware(s))) return st;
    if ((st = resolve_runtime(s))) return st;
    if ((st = jci_est_resolve_measured(s))) return st;
    if ((st = jci_est_resolve_device_numbers(s))) return st;
    if ((st = jci_cpu_runtime_apply(s))) return st;
    s->e->utilization = s->util;
    if ((st = jci_est_resolve_work(s))) return st;
    if ((st = jci_est_resolve_parallel(s))) return st;
    double par = jci_est_parallel_devices(s);
    if (!given(s->known_T) && par < s->G && jc_scenario_serial(s->b.job->scenario))
        jci_bld_warn(&s->b, "--scenario %s issues each query when the last one completes: one of the %s devices "
                     "works at a time, and every device draws at least idle power for all of the wall time",
                     s->b.job->scenario, FMT_N(s->G));
    else if (!given(s->known_T) && par < s->G)   /* inference: training refuses it (jci_dp_batch_check) */
        jci_bld_warn(&s->b, "%s forward passes keep on average %s of the %s devices busy (a pass is never split "
                     "across devices; passes run in waves): the wall time is at least one pass's, and every device "
                     "draws at least idle power for all of it", FMT_N(s->passes), FMT_N(par), FMT_N(s->G));
    if ((st = jci_est_resolve_site(s))) return st;
    return jci_bld_check(&s->b);   /* out of memory, or a key missing from assumption_keys.def */
}

jc_status jci_est_finite(const jc_estimate *e, jc_diag *d)
{
    const struct { const char *name; const jc_range *r; } f[] = {
        {"the wall time", &e->wall_hours},           {"the device time", &e->device_hours},
        {"the device energy", &e->energy_device_kwh}, {"the host energy", &e->energy_host_kwh},
        {"the IT energy", &e->energy_it_kwh},         {"the facility energy", &e->energy_facility_kwh},
        {"the emissions", &e->co2_kg},                {"the market-based emissions", &e->co2_market_kg},
        {"the embodied emissions", &e->co2_embodied_kg}, {"the average power", &e->avg_power_w},
    };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        const jc_range *r = f[i].r;
        if (isinf(r->low) || isinf(r->central) || isinf(r->high))
            return jci_diag_set(d, JC_ERR_RANGE, "%s is not finite (%s .. %s): an input is out of range "
                                "(e.g. a --utilization or --requests far from any real job)",
                                f[i].name, FMT_N(r->low), FMT_N(r->high));
    }
    return JC_OK;
}

/* Finite but beyond physical plausibility (issue 43 item 10): a wall time
 * or a facility energy past JCI_PLAUSIBLE_WALL_H / JCI_PLAUSIBLE_KWH (a
 * century; more than any country uses in a year) is refused,
 * JC_ERR_RANGE naming the figure and the inputs behind it (name_inputs),
 * central values. */

/* The inputs behind a figure, "key value unit (source)" joined by "; "
 * into in (cap bytes): each of keys the run recorded, its source cut at
 * the citation (a file:line, an option). */
static void name_inputs(const est *s, const char *const *keys, size_t n, char *in, size_t cap)
{
    size_t at = 0;
    in[0] = 0;
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < s->b.n_as && at + 1 < cap; i++) {
            const jc_assumption *x = &s->b.as[i];
            if (strcmp(x->key, keys[k])) continue;
            const char *src = x->source && x->source[0] ? x->source : "derived", *cut = strstr(src, " (");
            int w = snprintf(in + at, cap - at, "%s%s %s%s%s (%.*s)", at ? "; " : "", x->key, FMT_N(x->value.central),
                             x->unit && x->unit[0] ? " " : "", x->unit ? x->unit : "",
                             (int)(cut ? (size_t)(cut - src) : strlen(src)), src);
            at += w > 0 ? (size_t)w : 0;
            break;
        }
}

static jc_status plausible_results(est *s)
{
    static const char *const time_keys[] = {"work.forward_flops", "work.total_flops", "requests", "samples", "epochs",
                                            "steps", "passes", "runtime.hours", "runtime.device_hours", "devices",
                                            "device.peak_flops", "utilization"};
    static const char *const power_keys[] = {"devices", "device.tdp_w", "device.avg_power_w", "host.power_w", "pue",
                                             "runtime.hours"};
    const jc_estimate *e = s->e;
    char in[1500];
    if (e->wall_hours.central > JCI_PLAUSIBLE_WALL_H) {
        name_inputs(s, time_keys, sizeof time_keys / sizeof time_keys[0], in, sizeof in);
        return jci_bld_fail(&s->b, JC_ERR_RANGE, "the wall time, %s h (%s years), is over a century: not a run "
                            "to estimate; the inputs behind it: %s", FMT_N(e->wall_hours.central),
                            FMT_N(e->wall_hours.central / 8766), in);
    }
    if (e->energy_facility_kwh.central > JCI_PLAUSIBLE_KWH) {
        name_inputs(s, power_keys, sizeof power_keys / sizeof power_keys[0], in, sizeof in);
        return jci_bld_fail(&s->b, JC_ERR_RANGE, "the facility energy, %s kWh, is more than any country uses in a "
                            "year (%s kWh): not a run to estimate; the inputs behind it: %s",
                            FMT_N(e->energy_facility_kwh.central), FMT_N(JCI_PLAUSIBLE_KWH), in);
    }
    return JC_OK;
}

/* A measured run (--measured): the model's own prediction of the job
 * beside the measurement, the same job run without the trace and without
 * a runtime (a warning says why when it cannot be run). */
static void predict(est *s)
{
    jc_estimate *e = s->e;
    e->predicted_hours = e->predicted_device_kwh = e->predicted_it_kwh = NAN;
    jc_job j = *s->b.job;
    j.measured = NULL;
    jc_trace_job_clear(&j);
    j.hours = j.device_hours = j.gpu_usage = j.cpu_usage = NAN;
    j.per_node = 0;
    if (!j.device && !j.host) {   /* the device was read from the trace */
        j.device = s->dev->id;
        if (isnan(j.count)) j.count = s->G;
    }
    jc_estimate *p = NULL;
    jc_diag tmp;
    if (jci_estimate_core(&j, s->an, s->b.db, NULL, 0, &p, &tmp)) {
        jci_bld_warn(&s->b, "no prediction beside the measurement: %s", tmp.msg);
        return;
    }
    e->predicted_hours = p->wall_hours.central;
    e->predicted_device_kwh = p->energy_device_kwh.central;
    e->predicted_it_kwh = p->energy_it_kwh.central;
    jc_estimate_free(p);
}

jc_estimate *jci_estimate_new(jci_arena *a, const jc_hwdb *db, jc_mode mode, jc_method method)
{
    jc_estimate *e = jci_arena_alloc(a, sizeof *e);
    est_internal *ei = jci_arena_alloc(a, sizeof *ei);
    if (!e || !ei) return NULL;
    ei->a = NULL;
    ei->trace = NULL;
    ei->acct_ok = 0;
    ei->host_hf = NAN;
    e->internal_ = ei;
    e->mode = mode;
    e->method = method;
    e->batch = NAN;
    e->hwdb_version = db->data_version;
    e->ci_region_default = NAN;
    e->bound_share[0] = e->bound_share[1] = e->bound_share[2] = NAN;
    e->latency_s = (jc_range){NAN, NAN, NAN};
    return e;
}

jc_status jci_estimate_core(const jc_job *job, const jc_analysis *an, const jc_hwdb *db,
                            jci_est_share *sh, int central_only, jc_estimate **out, jc_diag *d)
{
    if (!job || !db || !out) return jci_diag_set(d, JC_ERR_USAGE, "jc_estimate_run: NULL argument");
    *out = NULL;
    est S = {0}, *s = &S;
    if (jci_bld_open(&s->b, d, "estimate", job, db)) return JC_ERR_NOMEM;
    s->b.quiet = central_only;   /* its figures alone are read: no citations formatted */
    jci_arena *a = s->b.a;
    s->an = an;
    s->share = sh;
    s->e = jci_estimate_new(a, db, job->mode, job->method);
    jc_status st = JC_OK;
    if (!s->e) { st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto fail; }
    est_internal *ei = s->e->internal_;
    ei->a = a;
    if (an && an->model) {   /* the model's identity travels with the result */
        s->e->model_path = an->model->path;
        s->e->model_size_bytes = an->model->file_size;
        s->e->model_sha256 = an->model->sha256[0] ? an->model->sha256 : NULL;
        s->e->model_graph_sha256 = an->model->graph_sha256[0] ? an->model->graph_sha256 : NULL;
        s->e->lower_bound = an->partial;
        for (size_t i = 0; i < an->n_warnings; i++) jci_bld_warn(&s->b, "%s", an->warnings[i]);  /* the count's */
    }
    s->avg_power = job->avg_power_w;
    s->e->vm_vcpus = s->e->vm_share = s->e->vm_cpu_w = s->e->vm_memory_w = s->e->vm_ga_facility_kwh = NAN;
    s->known_T = NAN;
    s->total_flops = NAN;
    s->batch = NAN;
    s->dev_batch = NAN;
    s->byte_scale = 1;
    s->util = s->act = s->act_mem = s->idle = s->tdp = s->host_w = s->overhead = R1(0);
    s->mem_eff = s->vec_eff = R1(1);
    s->scaling = 1;
    s->usage = s->m_dev = s->m_host = s->m_wall = s->m_idle_w = NAN;
    s->host_factor = 1;
    jc_diag jd;   /* every number against its key's range (job_keys.def) */
    if (jc_job_check(job, &jd)) { st = jci_bld_fail(&s->b, jd.status, "%s", jd.msg); goto fail; }
    if ((st = resolve_all(s))) goto fail;

    if (job->per_node && s->have_nodes) {
        size_t n = 0;
        for (size_t i = 0; i < an->n_nodes; i++) n += an->nodes[i].counted ? 1 : 0;
        s->e->nodes = jci_arena_calloc(a, n ? n : 1, sizeof(jc_est_node));
        if (!s->e->nodes) { st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto fail; }
        s->e->n_nodes = n;
    }

    outv o[3];
    /* the scenarios are independent: a caller that reads the central
     * figures alone (the sensitivity's runs) gets them as the bounds too */
    for (int sc = 0; sc < 3; sc++)
        if (!central_only || sc == SC_CENTRAL) jci_est_compute(s, sc, &o[sc]);
    if (central_only) o[SC_LOW] = o[SC_HIGH] = o[SC_CENTRAL];
    if ((st = jci_est_summarise(s, o, &ei->acct))) goto fail;
    ei->acct_ok = 1;
    ei->host_hf = s->host_on && !s->trace && !s->vm ? s->host_factor : NAN;
    if ((st = jci_est_scenario_latency(s))) goto fail;
    if ((st = jci_est_measured_summary(s, o))) goto fail;
    if (s->trace) predict(s);
    if (s->vm) jci_vm_compare(&s->b, s->vm, s->e);
    if ((st = jci_est_finite(s->e, d)) || (st = plausible_results(s))) goto fail;
    jci_est_check_memory(s);
    if (!central_only && (st = jci_account_equivalences(&s->b, s->e))) goto fail;   /* of the central figure shown */
    if (!central_only && (st = jci_est_cost(&s->b, s->e))) goto fail;   /* issue 45: cost and water, as shown */
    if (!central_only) jci_est_water(&s->b, s->e);
    if ((st = jci_bld_move(&s->b, &s->e->assumptions, &s->e->n_assumptions,
                           &s->e->warnings, &s->e->n_warnings))) goto fail;
    jci_bld_release(&s->b);
    jc_arch_free(s->arch);
    ei->trace = s->trace;
    *out = s->e;
    return JC_OK;
fail:
    jci_bld_release(&s->b);
    jc_arch_free(s->arch);
    jc_trace_free(s->trace);
    jci_arena_free(a);
    return st ? st : JC_ERR_INTERNAL;
}

void jc_estimate_free(jc_estimate *e)
{
    if (!e) return;
    est_internal *ei = e->internal_;
    jc_trace_free(ei->trace);
    jci_arena_free(ei->a);
}

int jci_estimate_pinned_account(const jc_estimate *e, const char *key, double v, double out[3])
{
    const est_internal *ei = e->internal_;
    if (!ei->acct_ok) return 0;
    jci_account_in in = ei->acct;
    jci_acct_scn *c = &in.sc[SC_CENTRAL];
    if (!strcmp(key, "pue")) in.place.pue = R1(v);
    else if (!strcmp(key, "grid.ci")) in.place.ci = R1(v);
    else if (!strcmp(key, "host.power_w") && !isnan(ei->host_hf)) c->e_host = v * ei->host_hf * c->T;   /* compute()'s */
    else return 0;
    jc_estimate *r = calloc(1, sizeof *r);
    if (!r) return 0;
    jci_account_run(&in, r);
    int ok = r->wall_hours.central <= JCI_PLAUSIBLE_WALL_H && r->energy_facility_kwh.central <= JCI_PLAUSIBLE_KWH;
    out[0] = r->co2_kg.central;
    out[1] = r->energy_facility_kwh.central;
    out[2] = r->wall_hours.central;
    free(r);
    return ok;   /* past plausible: the full run refuses it, with its message */
}

jci_arena *jci_estimate_arena(const jc_estimate *e)
{
    return ((const est_internal *)e->internal_)->a;
}
