/*
 * sweep.c (workflows) - `joulecast sweep`: one job estimated over a grid of devices x
 * regions x batch sizes x precisions, sorted, with the Pareto front of
 * wall time against location-based emissions marked.
 *
 * The model is analysed once per batch size (never per grid point), the
 * runtime's kernel plan of that analysis is built once per runtime and
 * precision width (jci_est_share) and the database is the caller's,
 * loaded once.  Each point is one
 * jc_estimate_run, so a sweep entry is exactly what `estimate` prints for
 * the same options.  A point that cannot be estimated becomes a skipped
 * entry with its reason; reasons that do not depend on the region (no
 * peak at that precision, no TDP) are recorded once per device with
 * region NULL, and regions without any intensity once with device NULL,
 * so a sweep over every cloud region does not repeat them 131 times.
 */
#include "base/jc_internal.h"
#include "base/fmt.h"
#include "workflows/grid_rules.h"
#include "joulecast/hwdb.h"
#include "joulecast/model.h"
#include "joulecast/analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct sweep_internal {
    jci_arena *a;
    jc_sweep_entry *entries, *skipped;  /* malloc'ed, freed with the sweep */
    const char **notes;
} sweep_internal;

const char *jc_sweep_sort_name(jc_sweep_sort s)
{
    switch (s) {
    case JC_SWEEP_BY_EMISSIONS: return "emissions";
    case JC_SWEEP_BY_ENERGY: return "energy";
    case JC_SWEEP_BY_TIME: return "time";
    case JC_SWEEP_BY_COST: return "cost";
    }
    return "?";
}

jc_status jc_sweep_sort_parse(const char *s, jc_sweep_sort *out)
{
    if (!s) return JC_ERR_USAGE;
    if (!jci_strcasecmp(s, "emissions") || !jci_strcasecmp(s, "co2")) *out = JC_SWEEP_BY_EMISSIONS;
    else if (!jci_strcasecmp(s, "energy") || !jci_strcasecmp(s, "kwh")) *out = JC_SWEEP_BY_ENERGY;
    else if (!jci_strcasecmp(s, "time")) *out = JC_SWEEP_BY_TIME;
    else if (!jci_strcasecmp(s, "cost")) *out = JC_SWEEP_BY_COST;
    else return JC_ERR_USAGE;
    return JC_OK;
}

/* ---- the builder ------------------------------------------------------------ */

/* Strings of the current device / region slot, copied once per slot. */
typedef struct slot_str { const char *id, *name; } slot_str;

typedef struct sw {
    jci_arena *a;
    jc_sweep *s;
    sweep_internal *in;
    const jc_job *job;
    const jc_hwdb *db;
    jc_diag *d;
    size_t cap_e, cap_k, cap_n;
    int oom;
    /* expanded axes; a NULL slot keeps the job's own value */
    const jc_device **devs;  size_t nd;
    const jc_region **regs;  size_t nr;
    int *reg_ok;             /* 1: the region has an intensity (or --ci) */
    size_t nr_ok;
    const char **precs;      size_t np;   /* canonical names, or NULL */
    double *batches;         size_t nb;   /* NAN: the job's own */
    jci_grid_fails fails;    /* the points whose estimate failed */
    /* per device (and precision slot x device): the device, why it cannot be
       estimated (NULL: it can), the precision it runs at; the id and name
       strings of each device and region slot, copied once */
    const jc_device **rdevs;
    char *unsold;            /* [di * nr + ri] 1: no provider sells device di in cloud region ri */
    const char **why, **used;
    struct slot_str *dstr, *rstr;
} sw;

static int push(sw *w, jc_sweep_entry **arr, size_t *n, size_t *cap, const jc_sweep_entry *x)
{
    if (*n == *cap) {
        size_t nc = *cap ? *cap * 2 : 256;
        jc_sweep_entry *q = realloc(*arr, nc * sizeof *q);
        if (!q) { w->oom = 1; return 0; }
        *arr = q;
        *cap = nc;
    }
    (*arr)[(*n)++] = *x;
    return 1;
}

static const char *adup(sw *w, const char *s)
{
    if (!s) return NULL;
    const char *r = jci_arena_strdup(w->a, s);
    if (!r) w->oom = 1;
    return r;
}

/* Adds a note once (notes are few; a linear search is enough). */
static void note(sw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(sw *w, const char *fmt, ...)
{
    char buf[1100];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    jc_sweep *s = w->s;
    for (size_t i = 0; i < s->n_notes; i++)
        if (!strcmp(s->notes[i], buf)) return;
    if (s->n_notes >= 200) return;   /* bounded: the first 200 distinct notes */
    if (s->n_notes == w->cap_n) {
        size_t nc = w->cap_n ? w->cap_n * 2 : 16;
        const char **q = realloc(w->in->notes, nc * sizeof *q);
        if (!q) { w->oom = 1; return; }
        w->in->notes = q;
        s->notes = q;
        w->cap_n = nc;
    }
    const char *c = adup(w, buf);
    if (c) s->notes[s->n_notes++] = c;
}

static const char *device_label(sw *w, const jc_device *dev)
{
    char buf[400];
    return adup(w, jc_device_label(dev, buf, sizeof buf));
}

/* A skipped entry; NULL dev / reg / prec and a NAN batch stand for
 * "every value of that axis"; covers = grid points it stands for. */
static void skip(sw *w, const jc_device *dev, const jc_region *reg, const char *prec,
                 double batch, size_t covers, const char *fmt, ...) __attribute__((format(printf, 7, 8)));
static void skip(sw *w, const jc_device *dev, const jc_region *reg, const char *prec,
                 double batch, size_t covers, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const char *reason = jci_arena_vprintf(w->a, fmt, ap);
    va_end(ap);
    if (!reason) w->oom = 1;
    jc_sweep_entry x;
    memset(&x, 0, sizeof x);
    x.ci_region_default = NAN;
    x.device_id = dev ? adup(w, dev->id) : NULL;
    x.device_name = dev ? device_label(w, dev) : NULL;
    x.region_code = reg ? adup(w, reg->code) : NULL;
    x.precision = prec;
    x.batch = isnan(batch) ? 0 : batch;
    x.reason = reason;
    if (push(w, &w->in->skipped, &w->s->n_skipped, &w->cap_k, &x))
        w->s->n_skipped_points += covers;
}

/* ---- axes ------------------------------------------------------------------- */

static int kind_word(const char *s, int *mask)
{
    static const struct { const char *w; int m; } k[] = {
        {"all", (1 << JC_DEVICE_GPU) | (1 << JC_DEVICE_TPU) | (1 << JC_DEVICE_ACCELERATOR)},
        {"gpu", 1 << JC_DEVICE_GPU}, {"tpu", 1 << JC_DEVICE_TPU},
        {"accelerator", 1 << JC_DEVICE_ACCELERATOR}, {"cpu", 1 << JC_DEVICE_CPU},
        {"soc", 1 << JC_DEVICE_SOC},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (!jci_strcasecmp(s, k[i].w)) { *mask = k[i].m; return 1; }
    return 0;
}

static jc_status expand_devices(sw *w, const jc_sweep_spec *sp)
{
    const jc_hwdb *db = w->db;
    size_t cap = sp->n_devices ? db->n_devices : 1;
    w->devs = jci_arena_calloc(w->a, cap ? cap : 1, sizeof *w->devs);
    if (!w->devs) return jci_diag_set(w->d, JC_ERR_NOMEM, "out of memory");
    if (!sp->n_devices) {
        const jc_device *dev = NULL;
        const jc_host *host = NULL;
        const char *name = w->job->device ? w->job->device : w->job->host;
        if (!name)
            return jci_diag_set(w->d, JC_ERR_USAGE, "sweep: no devices: give --devices LIST (or --device ID)");
        jc_status st = jc_hwdb_hardware(db, name, &dev, &host, w->d);
        if (st) return st;
        if (host && !host->accel && !(host->n_accel < 1 && host->cpu) && !w->job->device)   /* a CPU-only instance is its vCPUs */
            return jci_diag_set(w->d, JC_ERR_USAGE, "sweep: host '%s' names no accelerator; give --devices", host->id);
        w->devs[0] = NULL;   /* the job's own --device / --host */
        w->nd = 1;
        return JC_OK;
    }
    if (w->job->host)
        return jci_diag_set(w->d, JC_ERR_USAGE,
                           "sweep: --host fixes the hardware; drop it to sweep --devices (host power then "
                           "comes from the per-accelerator share, or --host-power)");
    /* mark chosen devices by index so duplicates collapse, then list them in
       database order */
    char *pick = jci_arena_calloc(w->a, db->n_devices ? db->n_devices : 1, 1);
    if (!pick) return jci_diag_set(w->d, JC_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < sp->n_devices; i++) {
        const char *nm = sp->devices[i];
        int mask;
        if (!nm || !*nm) return jci_diag_set(w->d, JC_ERR_USAGE, "sweep: an empty device name in the list");
        if (kind_word(nm, &mask)) {
            for (size_t k = 0; k < db->n_devices; k++)
                if (mask & (1 << db->devices[k].kind)) pick[k] = 1;
            continue;
        }
        const jc_device *dev = NULL;
        const jc_host *host = NULL;
        jc_status st = jc_hwdb_hardware(db, nm, &dev, &host, w->d);
        if (st) return st;
        if (host)
            return jci_diag_set(w->d, JC_ERR_USAGE, "sweep: '%s' is a host, not a device: --devices takes "
                               "device ids (joulecast hw list --kind gpu)", host->id);
        pick[dev - db->devices] = 1;
    }
    for (size_t k = 0; k < db->n_devices; k++)
        if (pick[k]) w->devs[w->nd++] = &db->devices[k];
    if (!w->nd) return jci_diag_set(w->d, JC_ERR_USAGE, "sweep: the device list selects no device");
    return JC_OK;
}

static int type_word(const char *s, int *type)
{
    static const struct { const char *w; jc_region_type t; } k[] = {
        {"cloud", JC_REGION_CLOUD}, {"country", JC_REGION_COUNTRY},
        {"subnational", JC_REGION_SUBNATIONAL}, {"grid", JC_REGION_GRID},
        {"aggregate", JC_REGION_AGGREGATE},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (!jci_strcasecmp(s, k[i].w)) { *type = (int)k[i].t; return 1; }
    return 0;
}

static jc_status expand_regions(sw *w, const jc_sweep_spec *sp)
{
    const jc_hwdb *db = w->db;
    size_t cap = sp->n_regions ? db->n_regions : 1;
    w->regs = jci_arena_calloc(w->a, cap ? cap : 1, sizeof *w->regs);
    w->reg_ok = jci_arena_calloc(w->a, cap ? cap : 1, sizeof *w->reg_ok);
    if (!w->regs || !w->reg_ok) return jci_diag_set(w->d, JC_ERR_NOMEM, "out of memory");
    if (!sp->n_regions) {
        w->regs[0] = NULL;   /* the job's own --region / --ci */
        w->reg_ok[0] = 1;
        w->nr = w->nr_ok = 1;
        return JC_OK;
    }
    char *pick = jci_arena_calloc(w->a, db->n_regions ? db->n_regions : 1, 1);
    if (!pick) return jci_diag_set(w->d, JC_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < sp->n_regions; i++) {
        const char *nm = sp->regions[i];
        int type;
        if (!nm || !*nm) return jci_diag_set(w->d, JC_ERR_USAGE, "sweep: an empty region name in the list");
        if (!jci_strcasecmp(nm, "all")) {
            memset(pick, 1, db->n_regions);
            continue;
        }
        if (type_word(nm, &type)) {
            for (size_t k = 0; k < db->n_regions; k++)
                if ((int)db->regions[k].type == type) pick[k] = 1;
            continue;
        }
        const char *colon = strchr(nm, ':');
        if (colon && !jci_strcasecmp(colon + 1, "all")) {
            size_t pl = (size_t)(colon - nm), hits = 0;
            for (size_t k = 0; k < db->n_regions; k++) {
                const jc_region *r = &db->regions[k];
                if (r->type == JC_REGION_CLOUD && r->provider && strlen(r->provider) == pl &&
                    !strncmp(r->provider, nm, pl)) {
                    pick[k] = 1;
                    hits++;
                }
            }
            if (!hits)
                return jci_diag_set(w->d, JC_ERR_NOTFOUND, "sweep: no cloud region of provider '%.*s' "
                                   "(joulecast region list --type cloud)", (int)pl, nm);
            continue;
        }
        const jc_region *r = NULL;
        jc_status st = jc_hwdb_region(db, nm, &r, w->d);
        if (st) return st;
        pick[r - db->regions] = 1;
    }
    for (size_t k = 0; k < db->n_regions; k++) {
        if (!pick[k]) continue;
        const jc_region *r = &db->regions[k];
        w->regs[w->nr] = r;
        w->reg_ok[w->nr] = r->default_intensity != NULL || !isnan(w->job->ci);
        w->nr_ok += (size_t)w->reg_ok[w->nr];
        w->nr++;
    }
    if (!w->nr) return jci_diag_set(w->d, JC_ERR_USAGE, "sweep: the region list selects no region");
    return JC_OK;
}

static jc_status expand_precisions(sw *w, const jc_sweep_spec *sp)
{
    w->precs = jci_arena_calloc(w->a, JC_PREC_COUNT + sp->n_precisions + 1, sizeof *w->precs);
    if (!w->precs) return jci_diag_set(w->d, JC_ERR_NOMEM, "out of memory");
    if (!sp->n_precisions) {
        w->precs[0] = NULL;
        w->np = 1;
        return JC_OK;
    }
    int pick[JC_PREC_COUNT] = {0};
    for (size_t i = 0; i < sp->n_precisions; i++) {
        const char *nm = sp->precisions[i];
        if (nm && !jci_strcasecmp(nm, "all")) {
            for (int k = 0; k < JC_PREC_COUNT; k++) pick[k] = jci_precision_runs((jc_precision)k);
            continue;
        }
        jc_precision p = JC_PREC_COUNT;
        if (!nm || jci_precision_run_parse(nm, &p))
            return jci_diag_set(w->d, JC_ERR_USAGE, "sweep: precision '%s' is not one of %s (or all)", nm ? nm : "",
                                jci_precision_run_list((char[64]){0}, 64));
        pick[p] = 1;
    }
    for (int k = 0; k < JC_PREC_COUNT; k++)
        if (pick[k]) w->precs[w->np++] = jc_precision_name((jc_precision)k);
    return JC_OK;
}

static jc_status expand_batches(sw *w, const jc_sweep_spec *sp, const jc_model *m)
{
    size_t n = sp->n_batches ? sp->n_batches : 1;
    w->batches = jci_arena_calloc(w->a, n, sizeof *w->batches);
    if (!w->batches) return jci_diag_set(w->d, JC_ERR_NOMEM, "out of memory");
    if (!sp->n_batches) {
        w->batches[0] = NAN;
        w->nb = 1;
        return JC_OK;
    }
    if (!m)
        return jci_diag_set(w->d, JC_ERR_USAGE, "sweep: batch sizes need a model (with --flops/--params the "
                           "work does not depend on the batch)");
    for (size_t i = 0; i < sp->n_batches; i++) {
        double b = sp->batches[i];
        if (isnan(b) || jc_batch_check(b, "sweep: a batch size", NULL))
            return jci_diag_set(w->d, JC_ERR_USAGE, "sweep: batch sizes must be whole numbers >= 1, at most the batch limit (got %g)", b);
        int dup = 0;
        for (size_t k = 0; k < w->nb; k++) dup |= w->batches[k] == b;
        if (!dup) w->batches[w->nb++] = b;
    }
    return JC_OK;
}

/* ---- per-point work ------------------------------------------------------------ */


/* Why dev cannot be estimated at precision slot p (NULL: it can): the
 * estimator's own rule (jc_estimate_refusal); *used receives the
 * precision the estimate will run at, *kind the typed reason. */
static const char *device_reason(sw *w, const jc_device *dev, const char *p, const char **used,
                                 jc_refusal *kind, char *buf, size_t cap)
{
    jc_precision pr = JC_PREC_COUNT;
    *kind = jc_estimate_refusal(w->job, dev, p, &pr, buf, cap);
    *used = pr < JC_PREC_COUNT ? jc_precision_name(pr) : p ? p : w->job->precision;
    /* an unknown precision name: the estimate of each point names it */
    if (*kind == JC_REFUSAL_NONE || *kind == JC_REFUSAL_PRECISION) {
        *kind = JC_REFUSAL_NONE;
        return NULL;
    }
    return buf;
}


static void run_point(sw *w, jc_job *jj, const jc_analysis *an, jci_est_share *sh, const jc_device *dev,
                      const jc_region *reg, const char *prec, double batch, double counted,
                      slot_str *ds, slot_str *rs)
{
    jc_estimate *e = NULL;
    jc_diag dd;
    jc_status st = jci_estimate_run_shared(jj, an, w->db, sh, &e, &dd);
    if (st == JC_ERR_NOMEM) { w->oom = 1; return; }
    if (st) {
        jci_grid_fail(&w->fails, &dd);
        skip(w, dev, reg, prec, batch, 1, "%s", dd.msg);
        return;
    }
    jc_sweep_entry x;
    memset(&x, 0, sizeof x);
    x.ci_region_default = NAN;
    if (!ds->id) {
        ds->id = adup(w, e->device_id);
        ds->name = adup(w, e->device_name);
    }
    if (!rs->id && e->region_code) {
        rs->id = adup(w, e->region_code);
        rs->name = adup(w, e->region_name);
    }
    x.device_id = ds->id;
    x.device_name = ds->name;
    x.region_code = e->region_code ? rs->id : NULL;
    x.precision = e->precision;   /* a static name */
    /* the step batch the grid gave (data-parallel training counts the model
       at one device's share of it: jc_request_analyze), else the counted one */
    x.batch = !an ? 0 : !isnan(batch) ? batch : !isnan(counted) ? counted : 0;
    x.wall_hours = e->wall_hours;
    x.energy_kwh = e->energy_facility_kwh;
    x.co2_kg = e->co2_kg;
    x.ci = e->ci.central;
    x.ci_region_default = e->ci_region_default;
    x.ci_dataset = e->ci_dataset_id ? adup(w, e->ci_dataset_id) : NULL;
    x.ci_basis_fallback = e->ci_basis_fallback;
    x.pue = e->pue.central;
    x.j_per_sample = e->j_per_sample.central;
    x.host = e->host_id ? e->host_id : e->host_class && strcmp(e->host_class, "none") ? e->host_class : NULL;
    x.hosts = x.host ? e->hosts : 0;
    const jc_range unknown = {NAN, NAN, NAN};
    x.cost = e->has_cost ? e->cost : unknown;
    x.cost_currency = e->has_cost ? adup(w, e->cost_currency) : NULL;
    x.cost_basis = e->has_cost ? e->cost_basis : NULL;
    x.water_l = e->has_water ? e->water_l : unknown;
    if (e->n_sensitivity) {   /* the key is the database's or assumption_keys.def's: it outlives e */
        x.top_driver = e->sensitivity[0].key;
        x.top_driver_swing = fabs(e->sensitivity[0].co2_high - e->sensitivity[0].co2_low);
    }
    for (size_t i = 0; i < e->n_warnings; i++) note(w, "%s", e->warnings[i]);
    push(w, &w->in->entries, &w->s->n_entries, &w->cap_e, &x);
    jc_estimate_free(e);
}

/* The device x region pairs no provider sells (w->unsold), counted once
 * each in s->n_unsold and the grid points they cover. */
static void mark_unsold(sw *w)
{
    for (size_t di = 0; di < w->nd; di++) {
        size_t np_ok = 0;   /* precisions the device can be estimated at (the others are skipped) */
        for (size_t pi = 0; pi < w->np; pi++) np_ok += !w->why[pi * w->nd + di];
        for (size_t ri = 0; ri < w->nr; ri++)
            if (np_ok && w->reg_ok[ri] && jci_grid_unsold(w->db, w->rdevs[di], NULL, w->regs[ri])) {
                w->unsold[di * w->nr + ri] = 1;
                w->s->n_unsold++;
                w->s->n_unsold_points += np_ok * w->nb;
            }
    }
}

/* Every point of one analysed batch (an; NULL without a model): precision
 * x device x region, the estimates sharing the runtime's kernel plan
 * (jci_est_share: built once per runtime and precision width, not per
 * point).  jj is the job with the batch set. */
static void run_batch(sw *w, jc_job *jj, const jc_analysis *an, double bb, double counted)
{
    jci_est_share *sh = an ? jci_est_share_new(an) : NULL;
    if (an && !sh) {
        w->oom = 1;
        return;
    }
    for (size_t pi = 0; pi < w->np && !w->oom; pi++) {
        for (size_t di = 0; di < w->nd && !w->oom; di++) {
            const jc_device *dev = w->devs[di];
            if (w->why[pi * w->nd + di]) continue;   /* listed once, by jc_sweep_run */
            if (dev) jj->device = dev->id;
            jj->precision = w->precs[pi] ? w->precs[pi] : w->job->precision;
            for (size_t ri = 0; ri < w->nr && !w->oom; ri++) {
                if (!w->reg_ok[ri] || w->unsold[di * w->nr + ri]) continue;
                jj->region = w->regs[ri] ? w->regs[ri]->code : w->job->region;
                run_point(w, jj, an, sh, w->rdevs[di], w->regs[ri], w->used[pi * w->nd + di], bb, counted,
                          &w->dstr[di], &w->rstr[ri]);
            }
        }
    }
    jci_est_share_free(sh);
}

/* ---- ordering and the Pareto front ------------------------------------------------ */

/* --sort cost compares costs in one currency: JC_ERR_USAGE naming two
 * that differ (--price in --currency beside the database's USD). */
static jc_status one_currency(const jc_sweep *s, jc_diag *d)
{
    const char *cur = NULL;
    for (size_t i = 0; i < s->n_entries; i++) {
        const char *c = s->entries[i].cost_currency;
        if (!c) continue;
        if (cur && strcmp(cur, c))
            return jci_diag_set(d, JC_ERR_USAGE, "sweep --sort cost: the entries' costs are in %s and %s; give "
                                                 "--price or --electricity-price in one --currency for all", cur, c);
        cur = c;
    }
    return JC_OK;
}

/* The entry's sort key; an unknown cost sorts after every known one. */
static double key_of(const jc_sweep_entry *x, jc_sweep_sort k)
{
    if (k == JC_SWEEP_BY_COST) return isnan(x->cost.central) ? INFINITY : x->cost.central;
    return k == JC_SWEEP_BY_ENERGY ? x->energy_kwh.central
         : k == JC_SWEEP_BY_TIME ? x->wall_hours.central : x->co2_kg.central;
}

static int cmp_str(const char *a, const char *b)
{
    if (!a || !b) return (a != NULL) - (b != NULL);
    return strcmp(a, b);
}

static int cmp_rest(const jc_sweep_entry *a, const jc_sweep_entry *b)
{
    int c;
    if ((c = cmp_str(a->device_id, b->device_id))) return c;
    if ((c = cmp_str(a->region_code, b->region_code))) return c;
    if ((c = cmp_str(a->precision, b->precision))) return c;
    return (a->batch > b->batch) - (a->batch < b->batch);
}

/* qsort has no context argument; the three orders get a comparator each. */
#define CMP_BY(name, k)                                                         \
    static int name(const void *pa, const void *pb)                             \
    {                                                                           \
        const jc_sweep_entry *a = pa, *b = pb;                                  \
        double x = key_of(a, k), y = key_of(b, k);                              \
        if (x != y) return x < y ? -1 : 1;                                      \
        return cmp_rest(a, b);                                                  \
    }
CMP_BY(cmp_emissions, JC_SWEEP_BY_EMISSIONS)
CMP_BY(cmp_energy, JC_SWEEP_BY_ENERGY)
CMP_BY(cmp_time, JC_SWEEP_BY_TIME)
CMP_BY(cmp_cost, JC_SWEEP_BY_COST)

/* time ascending, then emissions ascending (for the front) */
static int cmp_front(const void *pa, const void *pb)
{
    const jc_sweep_entry *a = *(const jc_sweep_entry *const *)pa, *b = *(const jc_sweep_entry *const *)pb;
    if (a->wall_hours.central != b->wall_hours.central)
        return a->wall_hours.central < b->wall_hours.central ? -1 : 1;
    if (a->co2_kg.central != b->co2_kg.central) return a->co2_kg.central < b->co2_kg.central ? -1 : 1;
    return cmp_rest(a, b);
}

static jc_status mark_front(sw *w)
{
    jc_sweep *s = w->s;
    if (!s->n_entries) return JC_OK;
    jc_sweep_entry **p = malloc(s->n_entries * sizeof *p);
    if (!p) return jci_diag_set(w->d, JC_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < s->n_entries; i++) p[i] = &s->entries[i];
    qsort(p, s->n_entries, sizeof *p, cmp_front);
    /* an entry is on the front when no other is at least as good on both
       axes and better on one: walking by time, its emissions must be below
       every faster entry's (or equal to the best one at the same time) */
    double best = INFINITY, best_t = -1;
    for (size_t i = 0; i < s->n_entries; i++) {
        jc_sweep_entry *x = p[i];
        double t = x->wall_hours.central, c = x->co2_kg.central;
        if (c < best || (c == best && t == best_t)) {
            x->pareto = 1;
            s->n_pareto++;
            best = c;
            best_t = t;
        }
    }
    free(p);
    return JC_OK;
}

/* ---- entry point ------------------------------------------------------------------- */

/* The sort key and the four axes; a measured run is not repeated over
 * what it did not vary. */
static jc_status expand_axes(sw *w, const jc_sweep_spec *sp, const jc_model *m)
{
    jc_status st;
    if (sp->sort != JC_SWEEP_BY_EMISSIONS && sp->sort != JC_SWEEP_BY_ENERGY && sp->sort != JC_SWEEP_BY_TIME &&
        sp->sort != JC_SWEEP_BY_COST)
        return jci_diag_set(w->d, JC_ERR_USAGE, "sweep: unknown sort key");
    if ((st = expand_devices(w, sp)) || (st = expand_regions(w, sp)) ||
        (st = expand_precisions(w, sp)) || (st = expand_batches(w, sp, m)))
        return st;
    return jci_grid_runtime_check(w->job, "sweep", w->nd > 1 ? "device" : w->np > 1 ? "precision"
                                  : w->nb > 1 ? "batch size" : NULL, 1,
                                  "give the hardware that ran (--devices ID or --device), its precision and "
                                  "batch, and sweep --regions", w->d);
}

/* The grid's points against the cap (issue 43 item 6: every device,
 * region and precision at ten batches is 4.2 million points, 10.8 GB):
 * JC_ERR_RANGE naming the product and the cap, before any estimate. */
static jc_status grid_cap(sw *w, const jc_sweep_spec *sp)
{
    double cap = sp->max_points > 0 ? sp->max_points : JC_SWEEP_MAX_POINTS;
    double pts = (double)w->nd * (double)w->nr * (double)w->np * (double)w->nb;
    if (pts <= cap) return JC_OK;
    return jci_diag_set(w->d, JC_ERR_RANGE, "sweep: %zu device%s x %zu region%s x %zu precision%s x %zu batch size%s "
                        "= %s grid points, above the cap of %s (--max-points N raises it: about 4 KB a point "
                        "with --json; or sweep fewer devices, regions, precisions or batches)",
                        w->nd, w->nd == 1 ? "" : "s", w->nr, w->nr == 1 ? "" : "s", w->np, w->np == 1 ? "" : "s",
                        w->nb, w->nb == 1 ? "" : "s", FMT_N(pts), FMT_N(cap));
}

jc_status jc_sweep_run(const jc_sweep_spec *sp, const jc_request *rq, const jc_model *m,
                       const jc_hwdb *db, jc_sweep **out, jc_diag *d)
{
    if (!sp || !rq || !rq->job || !db || !out) return jci_diag_set(d, JC_ERR_USAGE, "jc_sweep_run: NULL argument");
    const jc_job *job = rq->job;
    *out = NULL;
    jci_diag_clear(d);
    if (job->prompt_dim || job->past_dim)   /* refused once, not per grid point */
        return jci_diag_set(d, JC_ERR_USAGE, "sweep: --%s names a dim of an ONNX decoder for the serving model: add "
                            "--generate, or bind dims with --dim NAME=V", job->prompt_dim ? "prompt-dim" : "past-dim");
    jc_status st0 = jci_grid_job_check(job, "sweep", d);
    if (st0) return st0;
    jci_arena *a = jci_arena_new();
    if (!a) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    sw W, *w = &W;
    memset(w, 0, sizeof W);
    w->a = a;
    w->job = job;
    w->db = db;
    w->d = d;
    w->s = jci_arena_alloc(a, sizeof *w->s);
    w->in = jci_arena_alloc(a, sizeof *w->in);
    jc_status st = JC_OK;
    jc_analysis *an = NULL;
    if (!w->s || !w->in) { st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto fail; }
    w->in->a = a;
    jc_sweep *s = w->s;
    s->internal_ = w->in;
    s->mode = job->mode;
    s->method = job->method;
    s->sort = sp->sort;
    s->model = m ? adup(w, m->path) : NULL;
    if ((st = expand_axes(w, sp, m)) || (st = grid_cap(w, sp))) goto fail;
    s->n_devices = w->nd;
    s->n_regions = w->nr;
    s->n_precisions = w->np;
    s->n_batches = w->nb;
    s->n_points = w->nd * w->nr * w->np * w->nb;

    /* regions that no estimate can use: once each, for every device */
    for (size_t r = 0; r < w->nr; r++)
        if (!w->reg_ok[r])
            skip(w, NULL, w->regs[r], NULL, NAN, w->nd * w->np * w->nb,
                 "region %s has no carbon-intensity value in any dataset (give --ci G)", w->regs[r]->code);

    slot_str *dstr = w->dstr = jci_arena_calloc(a, w->nd, sizeof *dstr);
    slot_str *rstr = w->rstr = jci_arena_calloc(a, w->nr, sizeof *rstr);
    /* per precision x device: the device itself, why it cannot be
       estimated (NULL: it can; the same for every batch and region) and
       the precision it runs at */
    const jc_device **rdevs = w->rdevs = jci_arena_calloc(a, w->nd, sizeof *rdevs);
    const char **why = w->why = jci_arena_calloc(a, w->np * w->nd, sizeof *why);
    const char **used = w->used = jci_arena_calloc(a, w->np * w->nd, sizeof *used);
    jc_refusal *kinds = jci_arena_calloc(a, w->np * w->nd, sizeof *kinds);
    w->unsold = jci_arena_calloc(a, w->nd * w->nr, 1);
    if (!dstr || !rstr || !rdevs || !why || !used || !kinds || !w->unsold) { st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto fail; }
    for (size_t di = 0; di < w->nd; di++) {
        rdevs[di] = w->devs[di];
        if (!rdevs[di]) {   /* the job's own hardware */
            const jc_host *host = NULL;
            jc_diag tmp;
            jc_hwdb_hardware(db, job->device ? job->device : job->host, &rdevs[di], &host, &tmp);
            if (!rdevs[di] && host) rdevs[di] = host->accel ? host->accel : host->n_accel < 1 ? host->cpu : NULL;
        }
        for (size_t pi = 0; pi < w->np; pi++) {
            char buf[300];
            const char *r = rdevs[di] ? device_reason(w, rdevs[di], w->precs[pi], &used[pi * w->nd + di],
                                                      &kinds[pi * w->nd + di], buf, sizeof buf) : NULL;
            if (r) why[pi * w->nd + di] = adup(w, r);
        }
    }
    mark_unsold(w);
    size_t nb_ok = 0;   /* batches analysed (or no model) */

    jc_job jj = *job;
    /* regions are compared on the estimate's one intensity basis */
    s->ci_given = job->ci;
    s->ci_basis = jc_job_ci_basis(job);
    jj.per_node = 0;
    for (size_t bi = 0; bi < w->nb && !w->oom; bi++) {
        double b = w->batches[bi], counted = NAN;
        double bb = isnan(b) ? job->batch : b;
        if (m) {
            jc_diag ad;
            jc_request_info info;
            memset(&info, 0, sizeof info);
            st = jc_request_analyze(rq, m, bb, &an, &info, &ad);
            counted = info.batch;
            if (st == JC_ERR_NOMEM) { st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto fail; }
            if (st == JC_ERR_INCOMPLETE) {   /* a partial count is refused for the whole sweep */
                *d = ad;
                goto fail;
            }
            if (st) {   /* a batch the model refuses (a fixed batch dim): skipped, and
                           counted as a failure (every batch refused: estimate's exit 2) */
                jci_grid_fail(&w->fails, &ad);
                skip(w, NULL, NULL, NULL, bb, w->np * w->nd * w->nr_ok, "%s", ad.msg);
                st = JC_OK;
                continue;
            }
            s->n_analyses++;
        }
        nb_ok++;
        jj.batch = bb;
        run_batch(w, &jj, an, bb, counted);
        jc_analysis_free(an);
        an = NULL;
    }
    /* devices that cannot be estimated at a precision: once each, for every
       batch that was analysed and every region with an intensity */
    for (size_t pi = 0; pi < w->np && nb_ok; pi++)
        for (size_t di = 0; di < w->nd; di++)
            if (why[pi * w->nd + di]) {
                size_t before = w->s->n_skipped;
                skip(w, rdevs[di], NULL, used[pi * w->nd + di], NAN, nb_ok * w->nr_ok, "%s", why[pi * w->nd + di]);
                if (w->s->n_skipped > before) w->in->skipped[before].refusal = kinds[pi * w->nd + di];
            }
    if (w->oom) { st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto fail; }
    if ((st = jci_grid_fails_check(&w->fails, s->n_entries, s->n_skipped,
                                   s->n_skipped ? w->in->skipped[0].reason : NULL, "sweep", d)))
        goto fail;
    s->entries = w->in->entries;
    s->skipped = w->in->skipped;
    if ((st = mark_front(w))) goto fail;
    if (sp->sort == JC_SWEEP_BY_COST && (st = one_currency(s, d))) goto fail;
    if (s->n_entries) {
        int (*cmp)(const void *, const void *) = sp->sort == JC_SWEEP_BY_ENERGY ? cmp_energy
                                               : sp->sort == JC_SWEEP_BY_TIME ? cmp_time
                                               : sp->sort == JC_SWEEP_BY_COST ? cmp_cost : cmp_emissions;
        qsort(s->entries, s->n_entries, sizeof *s->entries, cmp);
    }
    *out = s;
    return JC_OK;
fail:
    jc_analysis_free(an);
    free(w->in ? w->in->entries : NULL);
    free(w->in ? w->in->skipped : NULL);
    free(w->in ? w->in->notes : NULL);
    jci_arena_free(a);
    return st ? st : JC_ERR_INTERNAL;
}

void jc_sweep_free(jc_sweep *s)
{
    if (!s) return;
    sweep_internal *in = s->internal_;
    free(in->entries);
    free(in->skipped);
    free(in->notes);
    jci_arena_free(in->a);
}
