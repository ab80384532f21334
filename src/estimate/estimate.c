/*
 * estimate.c - the workload and energy stages: from a job description, the
 * counted model (or a bare FLOP figure) and the hardware database to time,
 * energy and emissions with a low-central-high range.
 *
 * The equations are docs/energy-model.md; this file is their only
 * implementation.  It works in two steps:
 *
 *   resolve()   every input the model needs, as a range with its origin
 *               (user option, hwdb entry + source, counted, derived or a
 *               documented default), each recorded as a jc_assumption;
 *   compute()   the arithmetic, run three times: the central case and the
 *               two corners (every ranged parameter at the end that
 *               lowers, then raises, the energy).
 *
 * Nothing here prints; warnings travel in the result.
 */
#include "base/jc_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- names ----------------------------------------------------------------- */

const char *jc_method_name(jc_method m)
{
    switch (m) {
    case JC_METHOD_ROOFLINE: return "roofline";
    case JC_METHOD_JOULES_PER_OP: return "joules-per-op";
    case JC_METHOD_TDP: return "tdp";
    }
    return "?";
}

const char *jc_mode_name(jc_mode m)
{
    return m == JC_MODE_TRAINING ? "training" : "inference";
}

const char *jc_origin_name(jc_origin o)
{
    switch (o) {
    case JC_ORIGIN_USER: return "user";
    case JC_ORIGIN_HWDB: return "hwdb";
    case JC_ORIGIN_MODEL: return "model";
    case JC_ORIGIN_DERIVED: return "derived";
    case JC_ORIGIN_DEFAULT: return "default";
    }
    return "?";
}

void jc_job_init(jc_job *j)
{
    memset(j, 0, sizeof *j);
    j->mode = JC_MODE_INFERENCE;
    j->method = JC_METHOD_ROOFLINE;
    j->flops = j->params = j->active_params = j->tokens = NAN;
    j->requests = j->batch = j->tokens_per_request = NAN;
    j->samples = j->epochs = j->seq = NAN;
    j->backward_factor = NAN;
    j->hours = j->device_hours = j->avg_power_w = NAN;
    j->count = j->hosts = j->utilization = j->host_power_w = j->scaling = NAN;
    j->ci = j->pue = j->lifetime_years = NAN;
}

/* ---- the builder -------------------------------------------------------------- */

typedef struct est {
    jc_arena *a;
    jc_estimate *e;
    const jc_job *job;
    const jc_analysis *an;
    const jc_hwdb *db;
    jc_diag *d;
    jc_assumption *as;
    size_t n_as, cap_as;
    const char **warn;
    size_t n_warn, cap_warn;
    int oom;

    /* resolved inputs */
    const jc_device *dev;
    const jc_host *host;
    const jc_region *region;
    jc_precision prec;
    double G, K;                 /* devices, hosts */
    double peak, vpeak, bw;      /* FLOP/s matrix, FLOP/s vector, B/s */
    jc_range util, act, act_mem, idle, tdp, host_w, pue, ci, mem_eff, vec_eff;
    jc_range overhead;           /* per-kernel time floor, s (GPUs) */
    double scaling;
    double e_flop, e_byte;       /* J per FLOP / per byte (joules-per-op) */
    int host_on;
    double avg_power;            /* measured W per device, or NAN */
    double known_T;              /* s, NAN when modelled */
    /* work */
    int have_nodes;
    double beta, rc;             /* backward factor, recompute forwards */
    double opt_flops_pp, opt_bytes_pp, params;
    double byte_scale;
    double passes;               /* forward passes or training steps */
    double fwd_flops, fwd_bytes; /* one forward pass */
    double total_flops;          /* given directly (flops / params mode) */
    double samples, tokens;
} est;

static void *grow(est *s, void *p, size_t *cap, size_t n, size_t sz)
{
    if (n < *cap) return p;
    size_t nc = *cap ? *cap * 2 : 32;
    void *q = realloc(p, nc * sz);
    if (!q) {
        s->oom = 1;
        return NULL;
    }
    *cap = nc;
    return q;
}

static const char *astr(est *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static const char *astr(est *s, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    const char *r = jc_arena_strdup(s->a, buf);
    if (!r) s->oom = 1;
    return r ? r : "";
}

static void warn(est *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(est *s, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    const char **w = grow(s, s->warn, &s->cap_warn, s->n_warn, sizeof *w);
    if (!w) return;
    s->warn = w;
    const char *c = jc_arena_strdup(s->a, buf);
    if (!c) { s->oom = 1; return; }
    s->warn[s->n_warn++] = c;
}

static jc_range R1(double v) { jc_range r = {v, v, v}; return r; }
static jc_range R3(double lo, double c, double hi) { jc_range r = {lo, c, hi}; return r; }

static jc_range assume(est *s, const char *key, const char *label, jc_range v,
                       const char *unit, jc_origin o, const char *source)
{
    jc_assumption *a = grow(s, s->as, &s->cap_as, s->n_as, sizeof *a);
    if (!a) return v;
    s->as = a;
    jc_assumption *x = &s->as[s->n_as++];
    x->key = key;
    x->label = label;
    x->value = v;
    x->unit = unit;
    x->origin = o;
    x->source = source;
    return v;
}

/* "hwdb/devices/nvidia.yaml:966 (NVIDIA A100 datasheet ..., 2020); derived: ..." */
static const char *src_of(est *s, const jc_sourced *v)
{
    char cite[400] = "";
    if (v->source && v->source->citation)
        snprintf(cite, sizeof cite, "%.300s, %d", v->source->citation,
                 v->year ? v->year : v->source->year);
    const char *how = v->derived ? "; derived: " : v->measured ? "; measured: " : "";
    const char *txt = v->derived ? v->derived : v->measured ? v->measured : "";
    return astr(s, "%s:%d (%s)%s%.300s", v->file ? v->file : "hwdb", v->line,
                cite, how, txt);
}

static jc_range sv_range(const jc_sourced *v)
{
    if (v->has_range) return R3(v->low, v->value, v->high);
    return R1(v->value);
}

static jc_status fail(est *s, jc_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static jc_status fail(est *s, jc_status st, const char *fmt, ...)
{
    char buf[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return jc_diag_set(s->d, st, "estimate: %s", buf);
}

static int given(double x) { return !isnan(x); }

/* A constant of the database, required: an error names the missing id. */
static jc_status need_const(est *s, const char *id, const jc_constant **c)
{
    jc_diag tmp;
    if (jc_hwdb_constant(s->db, id, c, &tmp) == JC_OK) return JC_OK;
    return fail(s, JC_ERR_HWDB,
                "the hardware database has no constant '%s' (hwdb/energy-model.yaml "
                "or an override layer must define it)", id);
}

static jc_range const_range(est *s, const char *key, const char *label,
                            const jc_constant *c)
{
    return assume(s, key, label, sv_range(&c->value), c->unit ? c->unit : "",
                  JC_ORIGIN_HWDB, src_of(s, &c->value));
}

/* ---- resolve ---------------------------------------------------------------- */

static jc_precision prec_of(const char *p)
{
    static const char *names[] = {"fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8", "int4"};
    for (int i = 0; i < JC_PREC_COUNT; i++)
        if (!jc_strcasecmp(p, names[i])) return (jc_precision)i;
    return JC_PREC_COUNT;
}

static double prec_bits(jc_precision p)
{
    switch (p) {
    case JC_PREC_FP64: return 64;
    case JC_PREC_FP32: case JC_PREC_TF32: return 32;
    case JC_PREC_FP16: case JC_PREC_BF16: return 16;
    case JC_PREC_FP8: case JC_PREC_INT8: return 8;
    case JC_PREC_INT4: return 4;
    default: return 32;
    }
}

static jc_status resolve_hardware(est *s)
{
    const jc_job *j = s->job;
    jc_status st;
    const jc_device *dev = NULL;
    const jc_host *host = NULL;
    if (j->host) {
        const jc_device *d2 = NULL;
        if ((st = jc_hwdb_hardware(s->db, j->host, &d2, &host, s->d))) return st;
        if (d2) return fail(s, JC_ERR_USAGE, "'%s' is a device, not a host: use --device", j->host);
    }
    if (j->device) {
        const jc_host *h2 = NULL;
        if ((st = jc_hwdb_hardware(s->db, j->device, &dev, &h2, s->d))) return st;
        if (h2) {
            if (host) return fail(s, JC_ERR_USAGE, "both --host and --device name a host");
            host = h2;
            dev = NULL;
        }
    }
    if (host && !dev) {
        if (!host->accel)
            return fail(s, JC_ERR_USAGE, "host '%s' names no accelerators; give --device ID and --count G", host->id);
        dev = host->accel;
    }
    if (host && !host->accel && !given(j->count))
        return fail(s, JC_ERR_USAGE, "host '%s' names no accelerators: give --count G (devices in all)", host->id);
    if (!dev)
        return fail(s, JC_ERR_USAGE, "no hardware: give --device ID or --host ID "
                    "(joulecast hw list shows them)");
    if (host && host->accel && host->accel != dev)
        warn(s, "--device %s differs from host %s's accelerator %s; using %s",
             dev->id, host->id, host->accel->id, dev->id);
    s->dev = dev;
    s->host = host;
    s->e->device_id = dev->id;
    s->e->device_name = astr(s, "%s%s%s%s%s", dev->vendor ? dev->vendor : "",
                             dev->vendor ? " " : "", dev->name ? dev->name : dev->id,
                             dev->variant ? " " : "", dev->variant ? dev->variant : "");
    s->e->host_id = host ? host->id : NULL;

    /* counts */
    if (given(j->hosts) && (j->hosts < 1 || j->hosts != floor(j->hosts)))
        return fail(s, JC_ERR_USAGE, "--hosts must be a whole number >= 1 (got %g)", j->hosts);
    if (given(j->count) && (j->count < 1 || j->count != floor(j->count)))
        return fail(s, JC_ERR_USAGE, "--count must be a whole number of devices >= 1 (got %g)", j->count);
    if (host) {
        s->K = given(j->hosts) ? j->hosts : 1;
        assume(s, "hosts", "servers / instances", R1(s->K), "",
               given(j->hosts) ? JC_ORIGIN_USER : JC_ORIGIN_DEFAULT,
               given(j->hosts) ? "--hosts" : "one host unless --hosts is given");
        double per = host->accel == dev ? host->n_accel : 1;
        if (given(j->count)) {
            s->G = j->count;
            if (j->count > per * s->K)
                warn(s, "--count %g exceeds the %g devices of %g x %s", j->count,
                     per * s->K, s->K, host->id);
        } else {
            s->G = per * s->K;
        }
        assume(s, "devices", "devices", R1(s->G), "",
               given(j->count) ? JC_ORIGIN_USER : JC_ORIGIN_HWDB,
               given(j->count) ? "--count" : astr(s, "%s:%d (%s has %d x %s)",
                   host->file, host->line, host->id, host->n_accel, dev->id));
    } else {
        if (given(j->hosts)) warn(s, "--hosts ignored without --host");
        s->G = given(j->count) ? j->count : 1;
        s->K = 0;
        assume(s, "devices", "devices", R1(s->G), "",
               given(j->count) ? JC_ORIGIN_USER : JC_ORIGIN_DEFAULT,
               given(j->count) ? "--count" : "one device unless --count is given");
    }
    s->e->devices = s->G;
    s->e->hosts = s->K;

    /* precision */
    jc_precision p;
    if (j->precision) {
        p = prec_of(j->precision);
        if (p == JC_PREC_COUNT || p == JC_PREC_FP64 || p == JC_PREC_INT4)
            return fail(s, JC_ERR_USAGE, "--precision must be one of fp32 tf32 bf16 fp16 fp8 int8 (got '%s')", j->precision);
    } else {
        p = dev->peak_tflops[JC_PREC_BF16].present ? JC_PREC_BF16
          : dev->peak_tflops[JC_PREC_FP16].present ? JC_PREC_FP16 : JC_PREC_FP32;
    }
    s->prec = p;
    s->e->precision = jc_precision_name(p);
    assume(s, "precision", "arithmetic precision", R1(prec_bits(p)), "bits",
           j->precision ? JC_ORIGIN_USER : JC_ORIGIN_DEFAULT,
           j->precision ? astr(s, "--precision %s", jc_precision_name(p))
                        : astr(s, "%s: the lowest of bf16, fp16, fp32 with a published peak on %s",
                               jc_precision_name(p), dev->id));
    return JC_OK;
}

static jc_status resolve_device_numbers(est *s)
{
    const jc_job *j = s->job;
    const jc_device *dev = s->dev;
    jc_status st;
    int need_peak = !given(s->known_T) || s->job->method == JC_METHOD_JOULES_PER_OP;
    const jc_sourced *pk = &dev->peak_tflops[s->prec];
    if (pk->present) {
        s->peak = assume(s, "device.peak_flops", astr(s, "dense peak, %s", jc_precision_name(s->prec)),
                         R1(pk->value), "TFLOP/s", JC_ORIGIN_HWDB, src_of(s, pk)).central * 1e12;
    } else if (need_peak) {
        char have[200] = "";
        size_t n = 0;
        for (int i = 0; i < JC_PREC_COUNT; i++)
            if (dev->peak_tflops[i].present)
                n += (size_t)snprintf(have + n, sizeof have - n, "%s%s", n ? ", " : "",
                                      jc_precision_name((jc_precision)i));
        return fail(s, JC_ERR_NOTFOUND, "device %s has no published dense peak at %s (it has: %s); "
                    "choose --precision or give --hours", dev->id, jc_precision_name(s->prec),
                    n ? have : "none");
    }
    const jc_sourced *vp = &dev->peak_tflops[JC_PREC_FP32];
    if (vp->present && s->prec != JC_PREC_FP32 && s->prec != JC_PREC_TF32)
        s->vpeak = assume(s, "device.vector_flops", "vector (non-matrix) peak: fp32",
                          R1(vp->value), "TFLOP/s", JC_ORIGIN_HWDB, src_of(s, vp)).central * 1e12;
    else
        s->vpeak = s->peak;
    if (dev->memory_bw_gbs.present)
        s->bw = assume(s, "device.memory_bw", "memory bandwidth", R1(dev->memory_bw_gbs.value),
                       "GB/s", JC_ORIGIN_HWDB, src_of(s, &dev->memory_bw_gbs)).central * 1e9;

    /* power */
    if (dev->tdp_w.present)
        s->tdp = assume(s, "device.tdp_w", "device TDP", R1(dev->tdp_w.value), "W",
                        JC_ORIGIN_HWDB, src_of(s, &dev->tdp_w));
    else if (!given(s->avg_power))
        return fail(s, JC_ERR_NOTFOUND, "device %s has no published TDP; give --avg-power W", dev->id);
    if (dev->idle_w.present) {
        s->idle = assume(s, "device.idle_w", "device idle power", sv_range(&dev->idle_w), "W",
                         JC_ORIGIN_HWDB, src_of(s, &dev->idle_w));
    } else if (dev->tdp_w.present) {
        const jc_constant *c;
        if ((st = need_const(s, "idle_fraction_of_tdp_gpu", &c))) return st;
        jc_range f = sv_range(&c->value);
        s->idle = assume(s, "device.idle_w", "device idle power (no published figure)",
                         R3(f.low * s->tdp.central, f.central * s->tdp.central, f.high * s->tdp.central),
                         "W", JC_ORIGIN_DERIVED,
                         astr(s, "TDP x idle_fraction_of_tdp_gpu (%s)", src_of(s, &c->value)));
    }
    if (s->job->method == JC_METHOD_JOULES_PER_OP) {
        const jc_sourced *ef = &dev->pj_per_flop[s->prec];
        if (!ef->present)
            return fail(s, JC_ERR_NOTFOUND, "device %s has no energy per FLOP at %s: use --method roofline",
                        dev->id, jc_precision_name(s->prec));
        s->e_flop = assume(s, "device.pj_per_flop", astr(s, "energy per FLOP, %s", jc_precision_name(s->prec)),
                           R1(ef->value), "pJ/FLOP", JC_ORIGIN_HWDB, src_of(s, ef)).central * 1e-12;
        if (!ef->measured)
            warn(s, "the energy per FLOP of %s is derived from TDP, idle power and peak, not measured: "
                    "the joules-per-op method then charges power only for useful FLOPs and underestimates "
                    "devices that run well below peak (use --method roofline, or calibrate)", dev->id);
        if (dev->pj_per_byte.present)
            s->e_byte = assume(s, "device.pj_per_byte", "energy per byte of memory traffic",
                               R1(dev->pj_per_byte.value), "pJ/B", JC_ORIGIN_HWDB,
                               src_of(s, &dev->pj_per_byte)).central * 1e-12;
        else
            warn(s, "device %s has no energy per byte: memory traffic adds no energy above idle "
                    "in the joules-per-op method", dev->id);
    }

    /* utilisation and activity (roofline time and power) */
    if (!given(s->known_T)) {
        if (given(j->utilization)) {
            if (!(j->utilization > 0 && j->utilization <= 1))
                return fail(s, JC_ERR_USAGE, "--utilization must be in (0, 1] (got %g)", j->utilization);
            s->util = assume(s, "utilization", "achieved fraction of dense peak (MFU)",
                             R1(j->utilization), "", JC_ORIGIN_USER, "--utilization");
        } else {
            const jc_sourced *u = j->mode == JC_MODE_TRAINING ? &dev->util_training : &dev->util_inference;
            if (u->present) {
                s->util = assume(s, "utilization", astr(s, "achieved fraction of dense peak, %s (MFU)", jc_mode_name(j->mode)),
                                 sv_range(u), "", JC_ORIGIN_HWDB, src_of(s, u));
            } else {
                /* a named fallback: the class default with a wide range */
                const char *id = j->mode == JC_MODE_TRAINING ? "utilization_training_default"
                                                              : "utilization_inference_default";
                const jc_constant *c;
                if ((st = need_const(s, id, &c))) return st;
                s->util = const_range(s, "utilization",
                                      astr(s, "achieved fraction of dense peak, %s: FALLBACK (%s has no published figure)",
                                           jc_mode_name(j->mode), dev->id), c);
                warn(s, "device %s has no published %s utilisation: the database's fallback %.2f [%.2f-%.2f] is used "
                        "(give --utilization, or calibrate)", dev->id, jc_mode_name(j->mode), s->util.central,
                     s->util.low, s->util.high);
            }
        }
        const jc_constant *c;
        if ((st = need_const(s, "memory_bw_efficiency", &c))) return st;
        s->mem_eff = const_range(s, "memory_bw_efficiency", "achieved fraction of peak memory bandwidth", c);
        if (dev->kind == JC_DEVICE_GPU && s->an) {
            if ((st = need_const(s, "gpu_kernel_overhead_s", &c))) return st;
            s->overhead = const_range(s, "gpu_kernel_overhead_s",
                                      "floor on one kernel's time (one per node; per time step for RNNs)", c);
        }
        if ((st = need_const(s, "vector_efficiency", &c))) return st;
        s->vec_eff = const_range(s, "vector_efficiency", "achieved fraction of vector peak", c);
        if (given(j->scaling)) {
            if (!(j->scaling > 0 && j->scaling <= 1))
                return fail(s, JC_ERR_USAGE, "--scaling must be in (0, 1] (got %g)", j->scaling);
            s->scaling = assume(s, "scaling", "multi-device scaling efficiency", R1(j->scaling), "",
                                JC_ORIGIN_USER, "--scaling").central;
        } else {
            s->scaling = assume(s, "scaling", "multi-device scaling efficiency", R1(1), "",
                                JC_ORIGIN_DEFAULT,
                                "1: published utilisation figures are end to end, scaling losses included").central;
        }
    }
    if (s->job->method == JC_METHOD_ROOFLINE && !given(s->avg_power)) {
        const char *id = j->mode == JC_MODE_TRAINING
            ? (dev->kind == JC_DEVICE_TPU ? "activity_training_tpu" : "activity_training_gpu")
            : "activity_inference_gpu";
        const jc_constant *c;
        if ((st = need_const(s, id, &c))) return st;
        s->act = const_range(s, id, "power activity: (P - idle) / (TDP - idle) on matrix work", c);
        if ((st = need_const(s, "activity_memory_bound", &c))) return st;
        s->act_mem = const_range(s, "activity_memory_bound", "power activity on memory-bound work", c);
    }
    return JC_OK;
}

static jc_status resolve_host(est *s)
{
    const jc_job *j = s->job;
    jc_status st;
    if (given(j->host_power_w)) {
        if (j->host_power_w < 0) return fail(s, JC_ERR_USAGE, "--host-power must be >= 0");
        s->host_on = 1;
        double per = j->host_power_w;
        double n = s->host ? s->K : 1;
        s->host_w = assume(s, "host.power_w", astr(s, "host power (%g host%s)", n, n == 1 ? "" : "s"),
                           R1(per * n), "W", JC_ORIGIN_USER, "--host-power (per host)");
        return JC_OK;
    }
    if (s->host) {
        if (!s->host->host_power_w.present)
            return fail(s, JC_ERR_HWDB, "host %s has no host_power_w", s->host->id);
        s->host_on = 1;
        jc_range r = sv_range(&s->host->host_power_w);
        s->host_w = assume(s, "host.power_w", astr(s, "host power, %g x %s (CPUs, DRAM, fans, NICs)", s->K, s->host->id),
                           R3(r.low * s->K, r.central * s->K, r.high * s->K), "W", JC_ORIGIN_HWDB,
                           src_of(s, &s->host->host_power_w));
        return JC_OK;
    }
    if (j->method == JC_METHOD_TDP || given(s->avg_power)) {
        s->host_on = 0;
        assume(s, "host.power_w", "host power", R1(0), "W", JC_ORIGIN_DEFAULT,
               given(s->avg_power)
                   ? "not added: the measured average power stands for what was measured (add --host-power or --host)"
                   : "not added: the tdp method counts device power only, as model cards do (add --host-power or --host)");
        return JC_OK;
    }
    const jc_constant *c;
    if ((st = need_const(s, "host_w_per_accelerator", &c))) return st;
    s->host_on = 1;
    jc_range r = sv_range(&c->value);
    s->host_w = assume(s, "host.power_w", astr(s, "host power: %g devices x host share per accelerator (no --host named)", s->G),
                       R3(r.low * s->G, r.central * s->G, r.high * s->G), "W", JC_ORIGIN_HWDB,
                       src_of(s, &c->value));
    return JC_OK;
}

static jc_status resolve_place(est *s)
{
    const jc_job *j = s->job;
    jc_status st;
    const char *code = j->region;
    if (code) {
        if ((st = jc_hwdb_region(s->db, code, &s->region, s->d))) return st;
    } else if (!given(j->ci)) {
        if ((st = jc_hwdb_region(s->db, "WORLD", &s->region, s->d))) return st;
        warn(s, "no --region: the world average grid intensity is used; name the region for a real figure");
    }
    const jc_region *r = s->region;
    if (r) {
        s->e->region_code = r->code;
        s->e->region_name = r->name;
    }
    /* carbon intensity */
    if (given(j->ci)) {
        if (j->ci < 0 || j->ci > 2000) return fail(s, JC_ERR_USAGE, "--ci must be in [0, 2000] gCO2e/kWh (got %g)", j->ci);
        s->ci = assume(s, "grid.ci", "grid carbon intensity", R1(j->ci), "gCO2e/kWh", JC_ORIGIN_USER, "--ci");
    } else {
        const jc_intensity *di = r->default_intensity;
        if (!di)
            return fail(s, JC_ERR_NOTFOUND, "region %s has no carbon-intensity value in any dataset; give --ci G", r->code);
        const jc_region *from = r->default_from ? r->default_from : r;
        /* spread: the latest value of every dataset for the region and,
         * for a cloud region, for its grid zone too */
        double lo = di->value.value, hi = di->value.value;
        const jc_region *pool[2] = {r, r->type == JC_REGION_CLOUD ? r->grid_region : NULL};
        for (int q = 0; q < 2; q++) {
            const jc_region *z = pool[q];
            for (size_t i = 0; z && i < z->n_intensity; i++) {
                const jc_intensity *x = &z->intensity[i];
                if (x->dataset && x->dataset->precedence >= 90) continue; /* superseded */
                if (jc_region_intensity(z, x->dataset_id, 0) != x) continue;
                if (x->value.value < lo) lo = x->value.value;
                if (x->value.value > hi) hi = x->value.value;
            }
        }
        s->ci = assume(s, "grid.ci",
                       astr(s, "grid carbon intensity, %s, dataset %s %d (%s); range: other datasets",
                            from->code, di->dataset_id, di->value.year, di->basis ? di->basis : "basis n/a"),
                       R3(lo, di->value.value, hi), "gCO2e/kWh", JC_ORIGIN_HWDB,
                       astr(s, "%s; default because: %s", src_of(s, &di->value),
                            r->default_reason ? r->default_reason : "n/a"));
    }
    if (r && r->market_gco2e_per_kwh.present) {
        s->e->has_market = 1;
        assume(s, "grid.ci_market", "market-based intensity (provider-published)",
               R1(r->market_gco2e_per_kwh.value), "gCO2e/kWh", JC_ORIGIN_HWDB,
               src_of(s, &r->market_gco2e_per_kwh));
    }
    /* PUE */
    if (given(j->pue)) {
        if (j->pue < 1 || j->pue > 3) return fail(s, JC_ERR_USAGE, "--pue must be in [1, 3] (got %g)", j->pue);
        s->pue = assume(s, "pue", "power usage effectiveness", R1(j->pue), "", JC_ORIGIN_USER, "--pue");
    } else if (r && r->pue.present) {
        s->pue = assume(s, "pue", astr(s, "PUE of %s", r->code), sv_range(&r->pue), "",
                        JC_ORIGIN_HWDB, src_of(s, &r->pue));
    } else {
        const char *prov = (r && r->provider) ? r->provider
                         : (s->host && s->host->provider) ? s->host->provider : "local-unknown";
        const jc_provider *p;
        if ((st = jc_hwdb_provider(s->db, prov, &p, s->d))) return st;
        if (!p->pue.present) return fail(s, JC_ERR_HWDB, "provider %s has no PUE", p->id);
        s->pue = assume(s, "pue", astr(s, "PUE: %s (%s)", p->id, p->name ? p->name : p->id),
                        sv_range(&p->pue), "", JC_ORIGIN_HWDB, src_of(s, &p->pue));
    }
    return JC_OK;
}

/* The work: counted nodes, or a FLOP figure. */
static jc_status resolve_work(est *s)
{
    const jc_job *j = s->job;
    const jc_analysis *an = s->an;
    jc_status st;
    int train = j->mode == JC_MODE_TRAINING;

    if (train) {
        const jc_constant *c;
        if (given(j->backward_factor)) {
            if (j->backward_factor < 0 || j->backward_factor > 10)
                return fail(s, JC_ERR_USAGE, "--backward-factor must be in [0, 10]");
            s->beta = assume(s, "backward_factor", "backward FLOPs / forward FLOPs", R1(j->backward_factor),
                             "", JC_ORIGIN_USER, "--backward-factor").central;
        } else {
            if ((st = need_const(s, "backward_factor", &c))) return st;
            s->beta = const_range(s, "backward_factor", "backward FLOPs / forward FLOPs", c).central;
        }
        s->rc = j->recompute ? 1 : 0;
        if (j->recompute)
            assume(s, "recompute", "activation recomputation: extra forward passes", R1(1), "",
                   JC_ORIGIN_USER, "--recompute");
    }

    if (an) {
        if (given(j->flops) || given(j->params))
            return fail(s, JC_ERR_USAGE, "a model and --flops/--params both give the work; choose one");
        double f = 0, b = 0;
        for (size_t i = 0; i < an->n_nodes; i++) {
            const jc_counted_node *n = &an->nodes[i];
            if (!n->counted) continue;
            double rep = n->cost.repeat > 0 ? (double)n->cost.repeat : 1;
            f += rep * ((double)n->cost.flops + (double)n->cost.special_ops);
            b += rep * ((double)n->cost.bytes_read + (double)n->cost.weight_bytes_read +
                        (double)n->cost.bytes_written);
        }
        if (an->partial) {
            char ops[300] = "";
            size_t k = 0;
            for (size_t i = 0; i < an->n_unsupported && k < sizeof ops - 40; i++)
                k += (size_t)snprintf(ops + k, sizeof ops - k, "%s%s x%lld", i ? ", " : "",
                                      an->unsupported[i].op, (long long)an->unsupported[i].count);
            for (size_t i = 0; i < an->n_unknown_syms && k < sizeof ops - 40; i++)
                k += (size_t)snprintf(ops + k, sizeof ops - k, "%sunknown dim '%s'", k ? ", " : "",
                                      an->unknown_syms[i].sym);
            const char *hint = an->n_unsupported && an->n_unknown_syms
                                   ? "give cost rules with --op-rules FILE and bind dims with --dim/--batch"
                               : an->n_unsupported ? "give cost rules with --op-rules FILE"
                                                   : "bind dims with --dim/--batch";
            if (f <= 0)
                return jc_diag_set(s->d, JC_ERR_INCOMPLETE,
                                   "estimate: the model's work is unknown (%s); %s", ops, hint);
            warn(s, "the count is partial (%s): the estimate is a lower bound of the work (%s)", ops, hint);
        }
        s->have_nodes = 1;
        s->fwd_flops = f;
        s->params = an->totals.params > 0 ? (double)an->totals.params : 0;
        assume(s, "work.forward_flops", "FLOPs of one forward pass (2 x MACs + other arithmetic + transcendentals)",
               R1(f), "FLOP", JC_ORIGIN_MODEL, astr(s, "%s, counted", an->model->path));
        /* bytes: counted at the file's dtypes; scaled to the run precision
         * when the model is stored in float32 */
        double bits = prec_bits(s->prec);
        s->byte_scale = bits < 32 ? bits / 32 : 1;
        s->fwd_bytes = b * s->byte_scale;
        assume(s, "work.forward_bytes",
               s->byte_scale != 1 ? astr(s, "bytes moved by one forward pass (counted at float32, x%.2g for %s)",
                                         s->byte_scale, jc_precision_name(s->prec))
                                  : "bytes moved by one forward pass",
               R1(s->fwd_bytes), "B", JC_ORIGIN_MODEL, "counted");
        s->e->flops_per_pass = f;
    } else if (given(j->flops)) {
        if (given(j->params)) return fail(s, JC_ERR_USAGE, "--flops and --params both give the work; choose one");
        if (!(j->flops > 0)) return fail(s, JC_ERR_USAGE, "--flops must be > 0");
        s->total_flops = assume(s, "work.total_flops", "total FLOPs of the job (given)", R1(j->flops),
                                "FLOP", JC_ORIGIN_USER, "--flops").central;
    } else if (given(j->params)) {
        if (!(j->params > 0)) return fail(s, JC_ERR_USAGE, "--params must be > 0");
        double N = given(j->active_params) ? j->active_params : j->params;
        if (given(j->active_params) && (j->active_params <= 0 || j->active_params > j->params))
            return fail(s, JC_ERR_USAGE, "--active-params must be in (0, --params]");
        double D = j->tokens;
        if (!given(D) && !train && given(j->requests) && given(j->tokens_per_request))
            D = j->requests * j->tokens_per_request;
        if (!given(D) || !(D > 0))
            return fail(s, JC_ERR_USAGE, "--params needs --tokens D (tokens processed), or for inference "
                        "--requests R --tokens-per-request T");
        double per_tok = train ? 2 * (1 + s->beta) : 2;
        s->params = j->params;
        s->tokens = D;
        assume(s, "work.params", given(j->active_params) ? "active parameters (MoE)" : "parameters",
               R1(N), "", JC_ORIGIN_USER, given(j->active_params) ? "--active-params" : "--params");
        assume(s, "work.tokens", "tokens", R1(D), "", given(j->tokens) ? JC_ORIGIN_USER : JC_ORIGIN_DERIVED,
               given(j->tokens) ? "--tokens" : "--requests x --tokens-per-request");
        s->total_flops = assume(s, "work.total_flops",
                                train ? astr(s, "%g x N x D (2 forward + 2 x %g backward)", per_tok, s->beta)
                                      : "2 x N x D (forward only)",
                                R1(per_tok * N * D), "FLOP", JC_ORIGIN_DERIVED,
                                "Kaplan et al. 2020 approximation, attention FLOPs excluded").central;
    } else if (!given(s->known_T)) {
        return fail(s, JC_ERR_USAGE, "no work: give a MODEL.onnx, --flops F, or --params N --tokens D "
                    "(or a known runtime with --hours / --device-hours)");
    }

    /* passes / steps */
    if (s->have_nodes) {
        /* the batch the model was counted at: its first input's first dim */
        const jc_graph *g = an->model->graph;
        const jc_value *in0 = g->n_inputs ? &g->values[g->inputs[0]] : NULL;
        const jc_tshape *t0 = in0 && an->n_insts ? &an->insts[0].values[g->inputs[0]] : NULL;
        double counted = t0 && t0->rank > 0 && t0->dims[0].v > 0 ? (double)t0->dims[0].v : NAN;
        const char *bsym = in0 && in0->rank > 0 ? in0->dims[0].sym : NULL;
        double b;
        if (given(j->batch)) {
            b = j->batch;
            if (!(b >= 1)) return fail(s, JC_ERR_USAGE, "--batch must be >= 1");
            if (given(counted) && counted != b)
                return fail(s, JC_ERR_USAGE, "--batch %g, but the model was counted with its input '%s' at "
                            "batch %g (a --dim or --input binding?): give one batch size", b, in0->name, counted);
            assume(s, "batch", "batch size", R1(b), "", JC_ORIGIN_USER, "--batch");
        } else if (given(counted) && bsym) {
            b = counted;
            assume(s, "batch", astr(s, "batch size: input '%s' dim '%s' as counted", in0->name, bsym), R1(b), "",
                   JC_ORIGIN_MODEL, "a --dim/--input binding, or 1 when neither --batch nor a binding gives it");
        } else if (given(counted)) {
            b = counted;
            assume(s, "batch", astr(s, "batch size: input '%s' has a fixed batch dim", in0->name), R1(b), "",
                   JC_ORIGIN_MODEL, "the model file");
        } else {
            b = 1;
            assume(s, "batch", "batch size", R1(1), "", JC_ORIGIN_DEFAULT, "1 (give --batch)");
        }
        if (train) {
            double S = j->samples;
            if (!given(S) && given(j->tokens)) {
                if (!given(j->seq) || j->seq < 1)
                    return fail(s, JC_ERR_USAGE, "--tokens with a model needs --seq L (tokens per sample)");
                S = j->tokens / j->seq;
                s->tokens = j->tokens;
                assume(s, "samples", "samples = tokens / seq", R1(S), "", JC_ORIGIN_DERIVED, "--tokens / --seq");
            } else if (given(S)) {
                assume(s, "samples", "training samples per epoch", R1(S), "", JC_ORIGIN_USER, "--samples");
            }
            if (!given(S)) {
                if (!given(s->known_T))
                    return fail(s, JC_ERR_USAGE, "training needs --samples S (or --tokens T --seq L)");
                S = b;
            }
            if (S < b) warn(s, "batch %g is larger than the %g samples of the data set", b, S);
            double E = given(j->epochs) ? j->epochs : 1;
            if (!(E > 0)) return fail(s, JC_ERR_USAGE, "--epochs must be > 0");
            assume(s, "epochs", "epochs", R1(E), "", given(j->epochs) ? JC_ORIGIN_USER : JC_ORIGIN_DEFAULT,
                   given(j->epochs) ? "--epochs" : "1 (give --epochs)");
            s->passes = ceil(S / b) * E;
            s->samples = S * E;
            assume(s, "steps", "optimizer steps = ceil(samples / batch) x epochs", R1(s->passes), "",
                   JC_ORIGIN_DERIVED, "");
        } else {
            double Rq = given(j->requests) ? j->requests : b;
            if (!(Rq >= 1)) return fail(s, JC_ERR_USAGE, "--requests must be >= 1");
            assume(s, "requests", "inference requests", R1(Rq), "",
                   given(j->requests) ? JC_ORIGIN_USER : JC_ORIGIN_DEFAULT,
                   given(j->requests) ? "--requests" : "one batch (give --requests)");
            s->passes = ceil(Rq / b);
            s->samples = Rq;
            if (given(j->tokens_per_request)) s->tokens = Rq * j->tokens_per_request;
            assume(s, "passes", "forward passes = ceil(requests / batch)", R1(s->passes), "",
                   JC_ORIGIN_DERIVED, "");
        }
    } else if (given(s->total_flops)) {
        if (train && given(j->samples)) s->samples = j->samples * (given(j->epochs) ? j->epochs : 1);
        if (!train && given(j->requests)) s->samples = j->requests;
        if (!train && given(j->requests) && given(j->tokens_per_request))
            s->tokens = j->requests * j->tokens_per_request;
    }

    /* optimizer (training with a model or params) */
    if (train && (s->have_nodes || given(j->params))) {
        const char *opt = j->optimizer ? j->optimizer : "adamw";
        const char *fid, *bid;
        if (!jc_strcasecmp(opt, "adamw") || !jc_strcasecmp(opt, "adam")) {
            fid = "optimizer_adamw_flops_per_param";
            bid = "optimizer_adamw_bytes_per_param";
        } else if (!jc_strcasecmp(opt, "sgd")) {
            fid = "optimizer_sgd_flops_per_param";
            bid = "optimizer_sgd_bytes_per_param";
        } else if (!jc_strcasecmp(opt, "none")) {
            fid = bid = NULL;
        } else {
            return fail(s, JC_ERR_USAGE, "--optimizer must be adamw, adam, sgd or none (got '%s')", opt);
        }
        if (fid) {
            const jc_constant *c;
            if ((st = need_const(s, fid, &c))) return st;
            s->opt_flops_pp = const_range(s, fid, astr(s, "%s FLOPs per parameter per step", opt), c).central;
            if ((st = need_const(s, bid, &c))) return st;
            s->opt_bytes_pp = const_range(s, bid, astr(s, "%s bytes per parameter per step", opt), c).central;
        }
    }
    return JC_OK;
}

/* ---- compute ------------------------------------------------------------------ */

enum { SC_LOW = 0, SC_CENTRAL = 1, SC_HIGH = 2 };

static double pick(jc_range r, int sc, int raises_energy)
{
    if (sc == SC_CENTRAL) return r.central;
    int want_high = (sc == SC_HIGH) == (raises_energy != 0);
    return want_high ? r.high : r.low;
}

typedef struct outv {
    double T;                 /* wall seconds */
    double e_dev, e_idle, e_host, e_fac, co2, co2_mkt, emb;
    double flops;
} outv;

/* Time of one forward pass on one device, split by class; per-node
 * shares go to e->nodes when nodes != NULL (central case). */
/* Sequential steps of a recurrent node (its output's first dim), else 1. */
static double rnn_steps(const jc_analysis *an, const jc_counted_node *n)
{
    const char *op = n->node->op_type;
    if (*n->node->domain || (strcmp(op, "LSTM") && strcmp(op, "GRU") && strcmp(op, "RNN"))) return 1;
    const jc_graph_inst *gi = &an->insts[n->inst];
    int32_t x = n->node->n_inputs ? n->node->inputs[0] : -1;
    if (x < 0) return 1;
    const jc_tshape *sh = &gi->values[x];
    /* X is [seq, batch, input] (layout 0) or [batch, seq, input] (layout 1) */
    const jc_attr *lay = jc_node_attr(n->node, "layout");
    int d = lay && lay->i == 1 ? 1 : 0;
    if (sh->rank > d && sh->dims[d].v > 0) return (double)sh->dims[d].v;
    return 1;
}

static void pass_time(est *s, double u, double me, double ve, double ov, double *t_mat,
                      double *t_mem, jc_est_node *nodes)
{
    *t_mat = *t_mem = 0;
    const jc_analysis *an = s->an;
    size_t k = 0;
    for (size_t i = 0; i < an->n_nodes; i++) {
        const jc_counted_node *n = &an->nodes[i];
        if (!n->counted) continue;
        double rep = n->cost.repeat > 0 ? (double)n->cost.repeat : 1;
        double f = rep * ((double)n->cost.flops + (double)n->cost.special_ops);
        double b = rep * ((double)n->cost.bytes_read + (double)n->cost.weight_bytes_read +
                          (double)n->cost.bytes_written) * s->byte_scale;
        double tc = 0, tm = s->bw > 0 ? b / (s->bw * me) : 0;
        if (n->cost.cls == JC_CLASS_MATRIX) tc = f / (s->peak * u);
        else if (n->cost.cls == JC_CLASS_VECTOR) tc = f / (s->vpeak * ve);
        double t = tc > tm ? tc : tm;
        int mem_bound = tm > tc;
        /* a kernel never takes less than its dispatch (GPUs):
         * one kernel per node, one per time step for recurrent nodes */
        if (ov > 0 && n->cost.cls != JC_CLASS_NONE) {
            double floor_t = ov * rep * rnn_steps(an, n);
            if (floor_t > t) {
                t = floor_t;
                mem_bound = 1;
            }
        }
        if (mem_bound) *t_mem += t; else *t_mat += t;
        if (nodes) {
            jc_est_node *x = &nodes[k++];
            x->name = n->name;
            x->op = n->op;
            x->flops = f;
            x->bytes = b;
            x->time_s = t;
            x->memory_bound = mem_bound;
        }
    }
}

static void compute(est *s, int sc, outv *o)
{
    const jc_job *j = s->job;
    int train = j->mode == JC_MODE_TRAINING;
    double G = s->G;
    double u = pick(s->util, sc, 0);         /* higher utilisation: less energy */
    double me = pick(s->mem_eff, sc, 0), ve = pick(s->vec_eff, sc, 0);
    double idle = pick(s->idle, sc, 1), tdp = s->tdp.central;
    double a = pick(s->act, sc, 1), am = pick(s->act_mem, sc, 1);
    double mult = train ? 1 + s->beta + s->rc : 1;
    double t_mat = 0, t_mem = 0;   /* device-seconds of the whole job */
    double flops = 0, bytes = 0;

    if (s->have_nodes) {
        double pm, pmm;
        pass_time(s, u, me, ve, pick(s->overhead, sc, 1), &pm, &pmm,
                  sc == SC_CENTRAL && j->per_node ? s->e->nodes : NULL);
        t_mat = pm * mult * s->passes;
        t_mem = pmm * mult * s->passes;
        flops = s->fwd_flops * mult * s->passes;
        bytes = s->fwd_bytes * (train ? 1 + s->beta : 1) * s->passes;
    } else if (given(s->total_flops)) {
        flops = s->total_flops;
        if (!given(s->known_T)) t_mat = flops / (s->peak * u);
    }
    if (train && s->params > 0) {
        double of = s->opt_flops_pp * s->params * s->passes;
        double ob = s->opt_bytes_pp * s->params * s->passes;
        flops += of;
        bytes += ob;
        if (s->bw > 0 && !given(s->known_T)) t_mem += ob / (s->bw * me);
    }
    if (!given(s->total_flops) || s->have_nodes) o->flops = flops;
    else o->flops = flops;

    double T;
    if (given(s->known_T)) {
        T = s->known_T;
        /* spread the known time over classes in proportion to the model */
        double tot = t_mat + t_mem;
        double busy = T * G;
        if (tot > 0) {
            t_mat = busy * t_mat / tot;
            t_mem = busy * t_mem / tot;
        } else {
            t_mat = busy;
            t_mem = 0;
        }
    } else {
        T = (t_mat + t_mem) / (G * s->scaling);
        t_mat /= s->scaling;
        t_mem /= s->scaling;
    }
    o->T = T;

    /* device energy (J) */
    double e_idle = G * T * (given(s->avg_power) ? 0 : idle);
    double e_dev;
    if (given(s->avg_power)) {
        e_dev = s->avg_power * G * T;
    } else if (j->method == JC_METHOD_TDP) {
        e_dev = tdp * G * T;
    } else if (j->method == JC_METHOD_JOULES_PER_OP) {
        e_dev = e_idle + flops * s->e_flop + bytes * s->e_byte;
    } else {
        e_dev = e_idle + t_mat * (tdp - idle) * a + t_mem * (tdp - idle) * am;
    }
    o->e_idle = e_idle;
    o->e_dev = e_dev;
    o->e_host = s->host_on ? pick(s->host_w, sc, 1) * T : 0;
    double pue = pick(s->pue, sc, 1);
    o->e_fac = (e_dev + o->e_host) * pue;
    double kwh = o->e_fac / 3.6e6;
    o->co2 = kwh * pick(s->ci, sc, 1) / 1000.0;
    o->co2_mkt = 0;
    if (s->e->has_market) o->co2_mkt = kwh * s->region->market_gco2e_per_kwh.value / 1000.0;
    o->emb = 0;
}

/* ---- entry point --------------------------------------------------------------- */

typedef struct est_internal { jc_arena *a; } est_internal;

static jc_range rng(double lo, double c, double hi)
{
    jc_range r = {lo, c, hi};
    if (r.low > r.central) r.low = r.central;
    if (r.high < r.central) r.high = r.central;
    return r;
}

jc_status jc_estimate_run(const jc_job *job, const jc_analysis *an,
                          const jc_hwdb *db, jc_estimate **out, jc_diag *d)
{
    if (!job || !db || !out) return jc_diag_set(d, JC_ERR_USAGE, "jc_estimate_run: NULL argument");
    *out = NULL;
    jc_diag_clear(d);
    jc_arena *a = jc_arena_new();
    if (!a) return jc_diag_set(d, JC_ERR_NOMEM, "out of memory");
    est S = {0}, *s = &S;
    s->a = a;
    s->job = job;
    s->an = an;
    s->db = db;
    s->d = d;
    s->e = jc_arena_alloc(a, sizeof *s->e);
    est_internal *ei = jc_arena_alloc(a, sizeof *ei);
    jc_status st = JC_OK;
    if (!s->e || !ei) { st = jc_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto fail; }
    ei->a = a;
    s->e->internal_ = ei;
    s->e->mode = job->mode;
    s->e->method = job->method;
    s->avg_power = job->avg_power_w;
    s->known_T = NAN;
    s->total_flops = NAN;
    s->byte_scale = 1;
    s->util = s->act = s->act_mem = s->idle = s->tdp = s->host_w = s->overhead = R1(0);
    s->mem_eff = s->vec_eff = R1(1);
    s->scaling = 1;
    if (job->mode != JC_MODE_INFERENCE && job->mode != JC_MODE_TRAINING) {
        st = fail(s, JC_ERR_USAGE, "unknown mode");
        goto fail;
    }

    if ((st = resolve_hardware(s))) goto fail;
    /* known runtime */
    if (given(job->hours) && given(job->device_hours)) {
        st = fail(s, JC_ERR_USAGE, "--hours and --device-hours both give the runtime; choose one");
        goto fail;
    }
    if (given(job->hours)) {
        if (!(job->hours > 0)) { st = fail(s, JC_ERR_USAGE, "--hours must be > 0"); goto fail; }
        s->known_T = assume(s, "runtime.hours", "wall-clock hours (given)", R1(job->hours), "h",
                            JC_ORIGIN_USER, "--hours").central * 3600;
    } else if (given(job->device_hours)) {
        if (!(job->device_hours > 0)) { st = fail(s, JC_ERR_USAGE, "--device-hours must be > 0"); goto fail; }
        assume(s, "runtime.device_hours", "device-hours (given)", R1(job->device_hours), "h",
               JC_ORIGIN_USER, "--device-hours");
        s->known_T = job->device_hours * 3600 / s->G;
    }
    if (given(job->avg_power_w)) {
        if (!(job->avg_power_w > 0) || job->avg_power_w > 5000) {
            st = fail(s, JC_ERR_USAGE, "--avg-power must be in (0, 5000] W per device");
            goto fail;
        }
        assume(s, "device.avg_power_w", "measured average power per device", R1(job->avg_power_w), "W",
               JC_ORIGIN_USER, "--avg-power");
    }
    if ((st = resolve_device_numbers(s))) goto fail;
    if ((st = resolve_work(s))) goto fail;
    if ((st = resolve_host(s))) goto fail;
    if ((st = resolve_place(s))) goto fail;
    if (s->oom) { st = jc_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto fail; }

    if (job->per_node && s->have_nodes) {
        size_t n = 0;
        for (size_t i = 0; i < an->n_nodes; i++) n += an->nodes[i].counted ? 1 : 0;
        s->e->nodes = jc_arena_calloc(a, n ? n : 1, sizeof(jc_est_node));
        if (!s->e->nodes) { st = jc_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto fail; }
        s->e->n_nodes = n;
    }

    outv o[3];
    for (int sc = 0; sc < 3; sc++) compute(s, sc, &o[sc]);
    jc_estimate *e = s->e;
    double G = s->G;
    e->passes = s->passes;
    e->samples = s->samples;
    e->tokens = s->tokens;
    e->flops_total = o[SC_CENTRAL].flops;
    e->bytes_total = s->have_nodes ? s->fwd_bytes * s->passes : 0;
    /* time: the low corner is the fastest */
    e->wall_hours = rng(o[SC_LOW].T / 3600, o[SC_CENTRAL].T / 3600, o[SC_HIGH].T / 3600);
    e->device_hours = rng(G * o[SC_LOW].T / 3600, G * o[SC_CENTRAL].T / 3600, G * o[SC_HIGH].T / 3600);
#define KWH(field) rng(o[SC_LOW].field / 3.6e6, o[SC_CENTRAL].field / 3.6e6, o[SC_HIGH].field / 3.6e6)
    e->energy_device_kwh = KWH(e_dev);
    e->energy_idle_kwh = KWH(e_idle);
    e->energy_host_kwh = KWH(e_host);
    e->energy_facility_kwh = KWH(e_fac);
#undef KWH
    e->energy_dynamic_kwh = rng((o[SC_LOW].e_dev - o[SC_LOW].e_idle) / 3.6e6,
                                (o[SC_CENTRAL].e_dev - o[SC_CENTRAL].e_idle) / 3.6e6,
                                (o[SC_HIGH].e_dev - o[SC_HIGH].e_idle) / 3.6e6);
    e->energy_it_kwh = rng((o[SC_LOW].e_dev + o[SC_LOW].e_host) / 3.6e6,
                           (o[SC_CENTRAL].e_dev + o[SC_CENTRAL].e_host) / 3.6e6,
                           (o[SC_HIGH].e_dev + o[SC_HIGH].e_host) / 3.6e6);
    e->co2_kg = rng(o[SC_LOW].co2, o[SC_CENTRAL].co2, o[SC_HIGH].co2);
    if (e->has_market) e->co2_market_kg = rng(o[SC_LOW].co2_mkt, o[SC_CENTRAL].co2_mkt, o[SC_HIGH].co2_mkt);
    /* per-device average power and implied utilisation */
    for (int sc = 0; sc < 3; sc++) {
        double p = o[sc].T > 0 ? o[sc].e_dev / (G * o[sc].T) : 0;
        double *dst = sc == 0 ? &e->avg_power_w.low : sc == 1 ? &e->avg_power_w.central : &e->avg_power_w.high;
        *dst = p;
    }
    e->avg_power_w = rng(e->avg_power_w.low, e->avg_power_w.central, e->avg_power_w.high);
    if (s->peak > 0 && e->flops_total > 0) {
        double ul = e->flops_total / (G * s->peak * o[SC_HIGH].T);
        double uc = e->flops_total / (G * s->peak * o[SC_CENTRAL].T);
        double uh = e->flops_total / (G * s->peak * o[SC_LOW].T);
        e->implied_utilization = rng(ul, uc, uh);
        if (given(s->known_T) && uc > 1)
            warn(s, "the given runtime implies a utilisation of %.2f of dense peak: more work than the devices can do "
                    "in that time (check --hours, --count and the work)", uc);
    }
    if (s->dev->tdp_w.present && e->avg_power_w.central > s->dev->tdp_w.value * 1.0001)
        warn(s, "the implied average device power %.0f W exceeds the TDP %.0f W of %s",
             e->avg_power_w.central, s->dev->tdp_w.value, s->dev->id);
    /* embodied */
    if (job->embodied) {
        if (!s->dev->embodied_kgco2e.present) {
            warn(s, "--embodied: device %s has no embodied-emissions figure in the database", s->dev->id);
        } else {
            double life;
            if (given(job->lifetime_years)) {
                if (!(job->lifetime_years > 0)) { st = fail(s, JC_ERR_USAGE, "--lifetime must be > 0 years"); goto fail; }
                life = assume(s, "lifetime_years", "hardware lifetime", R1(job->lifetime_years), "years",
                              JC_ORIGIN_USER, "--lifetime").central;
            } else {
                const jc_constant *c;
                if ((st = need_const(s, "default_lifetime_years", &c))) goto fail;
                life = const_range(s, "lifetime_years", "hardware lifetime", c).central;
            }
            double emb = s->dev->embodied_kgco2e.value;
            assume(s, "device.embodied_kgco2e",
                   astr(s, "embodied emissions per device (scope: %s)",
                        s->dev->embodied_scope ? s->dev->embodied_scope : "n/a"),
                   R1(emb), "kgCO2e", JC_ORIGIN_HWDB, src_of(s, &s->dev->embodied_kgco2e));
            double yr = 365.25 * 24 * 3600;
            e->has_embodied = 1;
            e->co2_embodied_kg = rng(G * emb * o[SC_LOW].T / (life * yr), G * emb * o[SC_CENTRAL].T / (life * yr),
                                     G * emb * o[SC_HIGH].T / (life * yr));
        }
    }
    /* per-sample and per-token figures (facility energy) */
    if (s->samples > 0) {
        e->j_per_sample = rng(o[SC_LOW].e_fac / s->samples, o[SC_CENTRAL].e_fac / s->samples,
                              o[SC_HIGH].e_fac / s->samples);
        e->samples_per_kwh = rng(s->samples * 3.6e6 / o[SC_HIGH].e_fac, s->samples * 3.6e6 / o[SC_CENTRAL].e_fac,
                                 s->samples * 3.6e6 / o[SC_LOW].e_fac);
    }
    if (s->tokens > 0)
        e->j_per_token = rng(o[SC_LOW].e_fac / s->tokens, o[SC_CENTRAL].e_fac / s->tokens,
                             o[SC_HIGH].e_fac / s->tokens);
    /* per-node energy (central) */
    if (e->n_nodes) {
        double idle = s->idle.central, tdp = s->tdp.central;
        for (size_t i = 0; i < e->n_nodes; i++) {
            jc_est_node *x = &e->nodes[i];
            double act = x->memory_bound ? s->act_mem.central : s->act.central;
            if (job->method == JC_METHOD_TDP) x->energy_j = x->time_s * tdp;
            else if (job->method == JC_METHOD_JOULES_PER_OP)
                x->energy_j = x->time_s * idle + x->flops * s->e_flop + x->bytes * s->e_byte;
            else x->energy_j = x->time_s * (idle + (tdp - idle) * act);
        }
    }
    /* memory capacity */
    if (s->have_nodes && s->dev->memory_gb.present) {
        double wbytes = (double)an->totals.weight_bytes * s->byte_scale;
        double need = wbytes;
        if (job->mode == JC_MODE_TRAINING) need += s->params * (s->opt_bytes_pp > 0 ? 12 : 4);
        if (an->totals.peak_activation_bytes > 0)
            need += (double)an->totals.peak_activation_bytes * s->byte_scale * (job->mode == JC_MODE_TRAINING ? 2 : 1);
        double cap = s->dev->memory_gb.value * 1e9 * G;
        if (need > cap)
            warn(s, "memory: weights%s and activations need %.1f GB but %g x %s hold %.1f GB; "
                    "at least %.0f devices (or a smaller batch) would be needed",
                 job->mode == JC_MODE_TRAINING ? ", optimizer state" : "", need / 1e9, G, s->dev->id,
                 cap / 1e9, ceil(need / (s->dev->memory_gb.value * 1e9)));
    }
    /* equivalences of the central location-based emissions */
    {
        static const struct { const char *id, *label, *unit; int per_km; } eq[] = {
            {"car_gco2e_per_km_eu", "driving an average EU passenger car", "km", 1},
            {"car_gco2e_per_km_us", "driving an average US passenger car", "km", 1},
            {"tree_kgco2e_per_month", "sequestration by one tree", "tree-months", 0},
            {"flight_par_lon_kgco2e", "Paris-London flights (one passenger)", "flights", 0},
            {"flight_nyc_sf_kgco2e", "New York-San Francisco flights (one passenger)", "flights", 0},
        };
        size_t n = sizeof eq / sizeof eq[0];
        e->equivalences = jc_arena_calloc(a, n, sizeof(jc_assumption));
        if (!e->equivalences) { st = jc_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto fail; }
        for (size_t i = 0; i < n; i++) {
            const jc_constant *c;
            jc_diag tmp;
            if (jc_hwdb_constant(db, eq[i].id, &c, &tmp) || !(c->value.value > 0)) continue;
            jc_assumption *x = &e->equivalences[e->n_equivalences++];
            double kg = e->co2_kg.central;
            double v = eq[i].per_km ? kg * 1000 / c->value.value : kg / c->value.value;
            x->key = eq[i].id;
            x->label = eq[i].label;
            x->value = R1(v);
            x->unit = eq[i].unit;
            x->origin = JC_ORIGIN_HWDB;
            x->source = astr(s, "%g %s; %s", c->value.value, c->unit ? c->unit : "", src_of(s, &c->value));
        }
    }
    if (s->oom) { st = jc_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto fail; }

    /* move the lists into the arena */
    e->assumptions = jc_arena_calloc(a, s->n_as ? s->n_as : 1, sizeof(jc_assumption));
    e->warnings = jc_arena_calloc(a, s->n_warn ? s->n_warn : 1, sizeof(char *));
    if (!e->assumptions || !e->warnings) { st = jc_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto fail; }
    if (s->n_as) memcpy(e->assumptions, s->as, s->n_as * sizeof(jc_assumption));
    if (s->n_warn) memcpy(e->warnings, s->warn, s->n_warn * sizeof(char *));
    e->n_assumptions = s->n_as;
    e->n_warnings = s->n_warn;
    free(s->as);
    free(s->warn);
    *out = e;
    return JC_OK;
fail:
    free(s->as);
    free(s->warn);
    jc_arena_free(a);
    return st ? st : JC_ERR_INTERNAL;
}

void jc_estimate_free(jc_estimate *e)
{
    if (!e) return;
    est_internal *ei = e->internal_;
    jc_arena_free(ei->a);
}
