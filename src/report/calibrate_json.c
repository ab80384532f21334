/*
 * calibrate_json.c (report) - `joulecast calibrate --json` (schema
 * joulecast-calibrate/1, docs/json-schemas.md): the measurement and its
 * row, the run, the measured figures, the fitted values with the hwdb's
 * before, the layer written and the prediction of the measured run before
 * and after.  Rendered from jc_calib_result (src/workflows/calibrate_run.c)
 * for the CLI and the binding jc_run_calibrate_json alike.
 */
#include "report/rjson.h"
#include "joulecast/workflows.h"
#include "joulecast/calibrate.h"
#include "joulecast/hwdb.h"

#include <math.h>
#include <string.h>

static cJSON *check(cJSON *o, const char *k, const jc_calib_check *c)
{
    cJSON *x = cJSON_AddObjectToObject(o, k);
    if (!x) return NULL;
    if (!rj_num(x, "hours", c->hours) || !rj_num(x, "device_kwh", c->device_kwh) ||
        !rj_num(x, "device_kwh_joules_per_op", c->device_kwh_jpo) || !rj_num(x, "error_hours", c->err_hours) ||
        !rj_num(x, "error_device_kwh", c->err_kwh) || !rj_num(x, "error_device_kwh_joules_per_op", c->err_kwh_jpo))
        return NULL;
    return x;
}

/* The measurement file and its row. */
static int measurement(cJSON *r, const jc_calib_source *s)
{
    cJSON *m = cJSON_AddObjectToObject(r, "measurement");
    if (!m) return 0;
    const jc_measurement *row = s->row;
    return rj_str(m, "file", s->path) && rj_str(m, "format", s->ms->format) &&
           rj_num(m, "line", row->line > 0 ? row->line : NAN) && rj_str(m, "detail", s->ms->detail) &&
           rj_str(m, "date", row->date[0] ? row->date : NULL) &&
           cJSON_AddBoolToObject(m, "pue_removed", !isnan(row->pue)) != NULL;
}

/* The fitted values beside the database's before. */
static int fitted(cJSON *r, const jc_calibration *c)
{
    cJSON *f = cJSON_AddObjectToObject(r, "fitted");
    cJSON *u = f ? cJSON_AddObjectToObject(f, "utilization") : NULL;
    if (!u || !rj_str(u, "mode", jc_mode_name(c->mode)) || !rj_num(u, "before", c->util_before) ||
        !rj_num(u, "after", c->util_after) || !rj_num(u, "low", c->util_low) || !rj_num(u, "high", c->util_high) ||
        !rj_str(u, "from", !strcmp(c->util_from, "duration") ? "wall_time" : "device_energy") ||
        !rj_str(u, "method", "roofline"))
        return 0;
    cJSON *p = cJSON_AddObjectToObject(f, "pj_per_flop");
    if (!p || !rj_str(p, "precision", jc_precision_name(c->precision)) ||
        !cJSON_AddBoolToObject(p, "fitted", c->fit_pj) || !rj_num(p, "before", c->fit_pj ? c->pj_before : NAN) ||
        !rj_num(p, "after", c->fit_pj ? c->pj_after : NAN) || !rj_str(p, "not_fitted", c->fit_pj ? NULL : c->pj_note) ||
        !rj_str(p, "method", "joules-per-op"))
        return 0;
    return 1;
}

/* A trace's power fit: the fitted values beside the database's (only
 * when the measurement is a trace). */
static int power(cJSON *f, const jc_power_fit *p)
{
    cJSON *o = cJSON_AddObjectToObject(f, "power");
    cJSON *tr, *km, *id;
    if (!o || !cJSON_AddBoolToObject(o, "fitted", p->fitted) || !rj_str(o, "not_fitted", p->fitted ? NULL : p->note) ||
        !rj_num(o, "samples", (double)p->samples) || !rj_num(o, "idle_samples", (double)p->idle_samples) ||
        !rj_num(o, "memory_samples", (double)p->mem_samples) || !rj_num(o, "tdp_w", p->tdp_w) ||
        !rj_num(o, "residual_rms_w", p->fitted ? p->rms_w : NAN) ||
        !rj_num(o, "residual_rms_w_before", p->fitted ? p->rms_before_w : NAN) || !rj_str(o, "detail", p->detail))
        return 0;
    if (!(id = cJSON_AddObjectToObject(o, "idle_w")) || !cJSON_AddBoolToObject(id, "fitted", p->fitted && p->fit_idle) ||
        !rj_num(id, "before", p->idle_before) || !rj_num(id, "after", p->fitted ? p->idle_after : NAN) ||
        !rj_str(id, "not_fitted", p->fitted && p->fit_idle ? NULL : p->fitted ? p->idle_note : p->note))
        return 0;
    cJSON *kc = cJSON_AddObjectToObject(o, "k_compute");
    if (!kc || !rj_str(kc, "id", p->kc_id) || !rj_num(kc, "before", p->kc_before) ||
        !rj_num(kc, "after", p->fitted ? p->kc_after : NAN) || !(tr = cJSON_AddObjectToObject(kc, "trace_scale")) ||
        !rj_num(tr, "value", p->kc_trace) || !rj_num(tr, "standard_error", p->kc_trace_se) ||
        !rj_num(tr, "mean_utilization", p->u_mean) || !rj_num(kc, "run_utilization", p->uc_run))
        return 0;
    km = cJSON_AddObjectToObject(o, "k_memory");
    if (!km || !rj_str(km, "id", p->km_id) || !cJSON_AddBoolToObject(km, "fitted", p->fitted && p->fit_km) ||
        !rj_num(km, "before", p->km_before) || !rj_num(km, "after", p->fitted && p->fit_km ? p->km_after : NAN) ||
        !rj_str(km, "not_fitted", p->fitted && p->fit_km ? NULL : p->fitted ? p->km_note : p->note) ||
        !(tr = cJSON_AddObjectToObject(km, "trace_scale")) || !rj_num(tr, "value", p->km_trace) ||
        !rj_num(tr, "standard_error", p->km_trace_se) || !rj_num(tr, "mean_utilization", p->um_mean) ||
        !rj_num(km, "run_utilization", p->um_run))
        return 0;
    cJSON *pb = cJSON_AddObjectToObject(f, "pj_per_byte");
    return pb && cJSON_AddBoolToObject(pb, "fitted", 0) && rj_str(pb, "not_fitted", p->pj_byte_note);
}

char *jc_report_calibrate_json(const jc_calib_result *res)
{
    if (!res || !res->src) return NULL;
    const jc_calibration *c = &res->cal;
    char *out = NULL;
    cJSON *r = cJSON_CreateObject(), *run, *meas, *pred;
    REQ(r);
    REQ(rj_str(r, "schema", "joulecast-calibrate/1"));
    REQ(measurement(r, res->src));
    REQ(run = cJSON_AddObjectToObject(r, "run"));
    REQ(rj_str(run, "device", c->device_id) && rj_num(run, "devices", c->devices) &&
        rj_str(run, "mode", jc_mode_name(c->mode)) && rj_str(run, "precision", jc_precision_name(c->precision)));
    REQ(meas = cJSON_AddObjectToObject(r, "measured"));
    REQ(rj_num(meas, "hours", c->meas_hours) && rj_num(meas, "device_kwh", c->meas_device_kwh));
    REQ(fitted(r, c));
    if (c->power.attempted) REQ(power(cJSON_GetObjectItem(r, "fitted"), &c->power));
    /* the date the layer's sources carry: the run's, else the one given (or today) */
    REQ(rj_str(r, "written", res->out_path) &&
        (!c->power.attempted || rj_str(r, "written_power", res->power_path[0] ? res->power_path : NULL)) &&
        rj_str(r, "source_date", res->src->row->date[0] ? res->src->row->date : res->date));
    REQ(pred = cJSON_AddObjectToObject(r, "prediction"));
    REQ(check(pred, "before", &c->before) && check(pred, "after", &res->after));
    out = cJSON_Print(r);
done:
    cJSON_Delete(r);
    return out;
}
