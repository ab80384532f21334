/*
 * measured.c (estimate) - the estimate of a run that was measured or whose usage is
 * known (docs/traces.md):
 *   --measured TRACE   the trace's energy per scope (device, host, wall)
 *                      and its devices' active window replace the model's
 *                      device energy, host energy and runtime; what the
 *                      trace did not measure (the host of a GPU trace) is
 *                      still modelled, and PUE and grid intensity apply as
 *                      always; the model's own prediction of the job
 *                      (estimate.c runs it) is kept beside it for the
 *                      error line;
 *   --gpu-usage U      with a known runtime: the devices are busy a
 *                      fraction U of it (the power model at that usage);
 *   --cpu-usage U      the host power between the default host class's
 *                      idle and busy power at usage U.
 * Part of the estimate stages (estimate_int.h); nothing here prints.
 */
#include "estimate/estimate_int.h"
#include "estimate/power.h"
#include "joulecast/trace.h"

#include <string.h>

static jc_status usage_of(est *s, double u, const char *opt, double *out)
{
    *out = NAN;
    if (!given(u)) return JC_OK;
    if (!(u >= 0 && u <= 1))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--%s must be in [0, 1] (a fraction of the time; got %s)", opt, FMT_N(u));
    if (!given(s->known_T))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--%s needs a known runtime (--hours or --device-hours): without one "
                            "the model predicts the usage", opt);
    *out = u;
    return JC_OK;
}

/* The trace's figures: device, host and wall energy, duration. */
static jc_status load_trace(est *s)
{
    const jc_job *j = s->b.job;
    jc_trace_opts o;
    jc_trace_opts_init(&o);
    jc_diag tmp;
    if (jc_trace_opts_from_job(j, &o, NULL, &tmp)) return jci_bld_fail(&s->b, tmp.status, "%s", tmp.msg);
    if (given(j->hours) || given(j->device_hours) || given(j->avg_power_w) || given(j->gpu_usage))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--measured gives the runtime and the device power: leave out --hours, "
                            "--device-hours, --avg-power and --gpu-usage");
    jc_status st = jc_trace_load(j->measured, &o, &s->trace, s->b.d);
    if (st) return st;
    const jc_trace *t = s->trace;
    s->m_dev = t->has_scope[JC_TRACE_DEVICE] ? t->active_energy_j[JC_TRACE_DEVICE] : NAN;
    s->m_host = t->has_scope[JC_TRACE_HOST] ? t->energy_j[JC_TRACE_HOST] : NAN;
    s->m_wall = t->has_scope[JC_TRACE_WALL] ? t->energy_j[JC_TRACE_WALL] : NAN;
    double T = t->has_scope[JC_TRACE_DEVICE] ? t->active_s[JC_TRACE_DEVICE] : t->duration_s;
    if (!(T > 0)) return jci_bld_fail(&s->b, JC_ERR_USAGE, "%s: the trace spans no time", t->path);
    /* the devices' idle level in all, when every device channel has one */
    double iw = 0;
    int all = t->n_devices > 0;
    for (size_t i = 0; i < t->n_channels; i++)
        if (t->channels[i].scope == JC_TRACE_DEVICE) {
            if (t->channels[i].idle_found) iw += t->channels[i].idle_w;
            else all = 0;
        }
    s->m_idle_w = all ? iw : NAN;
    const char *src = jci_bld_str(&s->b, "%s (%s, %s%s%s)", t->path, t->format_label, t->start[0] ? t->start : "relative times",
                                   t->end[0] ? " to " : "", t->end);
    s->known_T = jci_bld_assume(&s->b, "measured.hours",
                                t->has_scope[JC_TRACE_DEVICE] && T < t->duration_s
                                    ? "measured runtime: the devices' active window (idle ends removed)"
                                    : "measured runtime: the trace's span",
                                R1(T / JCI_S_PER_H), "h", JC_ORIGIN_USER, src).central * JCI_S_PER_H;
    if (given(s->m_dev))
        jci_bld_assume(&s->b, "measured.device_kwh",
                       jci_bld_str(&s->b, "measured device energy (%zu device channel%s, trapezoid over the samples)",
                                    t->n_devices, t->n_devices == 1 ? "" : "s"),
                       R1(s->m_dev / JCI_J_PER_KWH), "kWh", JC_ORIGIN_USER, src);
    if (given(s->m_host))
        jci_bld_assume(&s->b, "measured.host_kwh", "measured host energy (replaces the host term)", R1(s->m_host / JCI_J_PER_KWH),
                       "kWh", JC_ORIGIN_USER, src);
    if (given(s->m_wall))
        jci_bld_assume(&s->b, "measured.wall_kwh", "measured energy at the wall (devices and host together)",
                       R1(s->m_wall / JCI_J_PER_KWH), "kWh", JC_ORIGIN_USER, src);
    if (given(s->m_dev) && t->n_devices != (size_t)s->G)
        jci_bld_warn(&s->b, "the trace has %zu device channel%s but the job %s device%s: the measured energy is used as "
                     "it is (give --count %zu)", t->n_devices, t->n_devices == 1 ? "" : "s", FMT_N(s->G), s->G == 1 ? "" : "s",
                     t->n_devices);
    for (size_t i = 0; i < t->n_bad && i < 3; i++)
        jci_bld_warn(&s->b, "%s:%d: %s (row not used)", t->path, t->bad[i].line, t->bad[i].msg);
    if (t->n_bad > 3) jci_bld_warn(&s->b, "%s: %zu more rows not used (joulecast trace lists them)", t->path, t->n_bad - 3);
    if (t->n_gaps)
        jci_bld_warn(&s->b, "%s: %zu gap%s in the trace not bridged (the first: line %d): the measured energy misses them",
                     t->path, t->n_gaps, t->n_gaps == 1 ? "" : "s", t->gaps[0].line);
    s->e->has_measured = 1;
    s->e->trace = t;
    s->e->measured_scope = given(s->m_wall) ? "wall" : given(s->m_dev) && given(s->m_host) ? "device+host"
                         : given(s->m_dev) ? "device" : "host";
    s->e->measured_hours = T / JCI_S_PER_H;
    if (given(s->m_wall))
        s->e->host_absent = "in the wall measurement (the device row is the whole server at the plug)";
    s->e->measured_kwh = ((given(s->m_dev) ? s->m_dev : 0) + (given(s->m_host) ? s->m_host : 0) +
                          (given(s->m_wall) ? s->m_wall : 0)) / JCI_J_PER_KWH;
    return JC_OK;
}

jc_status jci_est_resolve_measured(est *s)
{
    const jc_job *j = s->b.job;
    jc_status st;
    s->m_dev = s->m_host = s->m_wall = s->m_idle_w = NAN;
    s->host_factor = 1;
    if (j->measured && (st = load_trace(s))) return st;
    if (!j->measured && (j->trace_format || j->trace_scope || given(j->trace_gap_s) || given(j->trace_idle_w) ||
                         given(j->trace_interval_s)))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--trace-format, --scope, --gap, --idle-w and --interval describe the "
                            "trace of --measured: give --measured TRACE");
    if ((st = usage_of(s, j->gpu_usage, "gpu-usage", &s->usage))) return st;
    if (given(s->usage)) {
        if (given(j->avg_power_w))
            return jci_bld_fail(&s->b, JC_ERR_USAGE, "--gpu-usage and --avg-power both give the device power; choose one");
        jci_bld_assume(&s->b, "device.usage", "devices busy this fraction of the runtime (power model at that usage)",
                       R1(s->usage), "", JC_ORIGIN_USER, "--gpu-usage");
    }
    double cu;
    if ((st = usage_of(s, j->cpu_usage, "cpu-usage", &cu))) return st;
    return JC_OK;
}

void jci_est_apply_measured(const est *s, outv *o)
{
    if (!s->trace) return;
    double T = o->T;
    double idle_model = o->e_idle;
    if (given(s->m_wall)) {
        o->e_dev = s->m_wall;   /* the whole server: the host is in it */
        o->e_host = 0;
    } else {
        if (given(s->m_dev)) {
            o->e_dev = s->m_dev;
            o->e_idle = given(s->m_idle_w) ? s->m_idle_w * T : idle_model;
        }
        if (given(s->m_host)) o->e_host = s->m_host;
    }
    if (o->e_idle > o->e_dev) o->e_idle = o->e_dev;
}

jc_status jci_est_measured_summary(est *s, const outv o[3])
{
    if (given(s->known_T) && !s->trace && !given(s->usage) && given(o[SC_CENTRAL].busy) &&
        s->b.job->method == JC_METHOD_ROOFLINE && !given(s->avg_power)) {
        const char *why = given(s->usage) ? "--gpu-usage"
                        : s->have_nodes || given(s->total_flops)
                            ? "the work at the utilisation above over the device-time of the runtime (capped at 1): "
                              "the devices idle the rest"
                            : "1: no work given, the devices are taken busy for the whole runtime (give --gpu-usage U, "
                              "a model or --flops)";
        double lo = fmin(o[SC_LOW].busy, o[SC_HIGH].busy), hi = fmax(o[SC_LOW].busy, o[SC_HIGH].busy);
        jci_bld_assume(&s->b, "device.busy_fraction", "known runtime: fraction of the device-time spent busy",
                       R3(fmin(lo, o[SC_CENTRAL].busy), o[SC_CENTRAL].busy, fmax(hi, o[SC_CENTRAL].busy)), "",
                       given(s->usage) ? JC_ORIGIN_USER : JC_ORIGIN_DERIVED, why);
    }
    return jci_bld_check(&s->b);
}
