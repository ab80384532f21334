/*
 * trace.c (trace) - the streaming integrator of power traces (include/joulecast.h
 * "Power traces"): samples from a reader (src/trace/trace_formats.c)
 * pass per channel through a small reorder window (unsorted timestamps
 * within 64 samples are put in order; older ones are reported by line),
 * then into a trapezoid integral whose intervals above the gap threshold
 * are reported and not bridged.  The first and last 4096 samples of each
 * channel are kept to find the leading and trailing idle phases once the
 * channel's power span is known; a chart of fixed size (buckets merged
 * pairwise when full) is kept for the HTML report.  Memory per channel is
 * constant: a trace of 10^6 samples takes what one of 10^4 takes.
 */
#include "base/fmt.h"
#include "trace/trace_int.h"
#include "joulecast/job.h"
#include "joulecast/workflows.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TR_REORDER 64
#define TR_KEEP 4096
#define TR_MAX_CHANNELS 256
#define TR_CHART_DEFAULT 512

typedef struct tr_s { double t, w, u, um; int line; } tr_s;

typedef struct tr_chan {
    char key[96];
    jc_trace_channel pub;
    int kind;                 /* 0 samples, 1 blocks, 2 totals */
    tr_s buf[TR_REORDER];     /* pending, a ring in ascending t from rh */
    int nb, rh;
    int started;
    tr_s last;                /* last integrated */
    double thr;               /* gap threshold */
    double e, cov, ui, ucov, umi, ssum;
    int has_util;
    int reordered;
    tr_s head[TR_KEEP];
    size_t nh;
    tr_s tail[TR_KEEP];       /* ring of the last TR_KEEP */
    size_t nt;                /* samples pushed to the ring in all */
    /* chart: buckets of width bw from t0 */
    double *ce, *cc;          /* energy, covered time per bucket */
    size_t ncap, nused;
    double bw, ct0;
    double latest_w;          /* for the summed peak */
} tr_chan;

typedef struct tr_internal { jci_arena *a; const char *detail; tr_pgrid *pg; } tr_internal;

struct tr_ctx {
    jc_trace *t;
    jci_arena *a;
    const jc_trace_opts *o;
    jc_diag *d;
    tr_chan **ch;
    size_t n_ch, cap_ch;
    tr_chan *last_ch;
    double t_origin;          /* first timestamp seen, s */
    int have_origin;
    double dev_sum;           /* sum of the devices' latest samples */
    double devices;           /* run totals: the file's device count, else NAN */
    tr_pgrid *pg;             /* device power against utilisation; NULL until a sample has one */
    int pg_nomem;             /* the grid could not be allocated */
    int failed;
};

jc_status jc_trace_opts_from_job(const jc_job *j, jc_trace_opts *o, int *given, jc_diag *d)
{
    jci_diag_clear(d);
    if (given) *given = 0;
    if (!j || !o) return jci_diag_set(d, JC_ERR_USAGE, "jc_trace_opts_from_job: NULL argument");
    if (j->trace_format && jc_trace_format_parse(j->trace_format, &o->format, d)) return d->status;
    if (j->trace_scope) {
        jc_trace_scope s;
        if (jc_trace_scope_parse(j->trace_scope, &s, d)) return d->status;
        o->scope = (int)s;
    }
    static const char *const names[3] = {"gap", "idle-w", "interval"};
    const double v[3] = {j->trace_gap_s, j->trace_idle_w, j->trace_interval_s};
    double *dst[3] = {&o->gap_s, &o->idle_w, &o->interval_s};
    int any = j->trace_format || j->trace_scope;
    for (int i = 0; i < 3; i++) {
        if (isnan(v[i])) continue;
        if (!(v[i] > 0) || !isfinite(v[i]))
            return jci_diag_set(d, JC_ERR_USAGE, "--%s expects a number > 0, got %g", names[i], v[i]);
        *dst[i] = v[i];
        any = 1;
    }
    if (given) *given = any;
    return JC_OK;
}

void jc_trace_job_clear(jc_job *j)
{
    if (!j) return;
    j->trace_format = j->trace_scope = NULL;
    j->trace_gap_s = j->trace_idle_w = j->trace_interval_s = NAN;
}

/* ---- names ----------------------------------------------------------------- */

static const char *const fmt_names[JC_TRACE_FORMAT_COUNT] = {
    "auto", "nvidia-smi", "dcgmi", "codecarbon", "carbontracker", "powerjoular", "scaphandre", "watts",
};
static const char *const scope_names[JC_TRACE_SCOPE_COUNT] = {"device", "host", "wall"};

const char *jc_trace_format_name(jc_trace_format f)
{
    return (unsigned)f < JC_TRACE_FORMAT_COUNT ? fmt_names[f] : "?";
}

const char *jc_trace_scope_name(jc_trace_scope s)
{
    return (unsigned)s < JC_TRACE_SCOPE_COUNT ? scope_names[s] : "?";
}

jc_status jc_trace_format_parse(const char *name, jc_trace_format *f, jc_diag *d)
{
    for (int i = 0; name && i < JC_TRACE_FORMAT_COUNT; i++)
        if (!jci_strcasecmp(name, fmt_names[i])) { *f = (jc_trace_format)i; return JC_OK; }
    return jci_diag_set(d, JC_ERR_USAGE, "--trace-format must be one of auto, nvidia-smi, dcgmi, codecarbon, "
                       "carbontracker, powerjoular, scaphandre, watts (got '%s')", name ? name : "");
}

jc_status jc_trace_scope_parse(const char *name, jc_trace_scope *s, jc_diag *d)
{
    for (int i = 0; name && i < JC_TRACE_SCOPE_COUNT; i++)
        if (!jci_strcasecmp(name, scope_names[i])) { *s = (jc_trace_scope)i; return JC_OK; }
    return jci_diag_set(d, JC_ERR_USAGE, "--scope must be device, host or wall (got '%s')", name ? name : "");
}

void jc_trace_opts_init(jc_trace_opts *o)
{
    memset(o, 0, sizeof *o);
    o->format = JC_TRACE_AUTO;
    o->scope = -1;
    o->gap_s = o->idle_w = o->interval_s = NAN;
}

/* ---- context helpers ---------------------------------------------------------- */

const jc_trace_opts *tr_opts(const tr_ctx *c) { return c->o; }

void tr_totals_meta(tr_ctx *c, double devices, const char *date)
{
    c->devices = devices;
    if (date && *date) snprintf(c->t->start, sizeof c->t->start, "%s", date);
}
void tr_set_label(tr_ctx *c, const char *label) { c->t->format_label = label; }
void tr_row(tr_ctx *c) { c->t->rows++; }

void tr_bad(tr_ctx *c, int line, const char *fmt, ...)
{
    jc_trace *t = c->t;
    if (t->n_bad < JC_TRACE_MAX_ISSUES) {
        jc_trace_issue *x = &t->bad[t->n_bad];
        x->line = line;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(x->msg, sizeof x->msg, fmt, ap);
        va_end(ap);
    }
    t->n_bad++;
}

void tr_note(tr_ctx *c, const char *fmt, ...)
{
    jc_trace *t = c->t;
    if (t->n_notes >= sizeof t->notes / sizeof t->notes[0]) return;
    char buf[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    for (size_t i = 0; i < t->n_notes; i++)
        if (!strcmp(t->notes[i], buf)) return;
    const char *s = jci_arena_strdup(c->a, buf);
    if (s) t->notes[t->n_notes++] = s;
}

int tr_fail(tr_ctx *c, jc_status st, int line, const char *fmt, ...)
{
    char buf[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    c->failed = 1;
    if (line < 0) return jci_diag_set(c->d, st, "%s", buf);
    if (line > 0) return jci_diag_set(c->d, st, "%s:%d: %s", c->t->path, line, buf);
    return jci_diag_set(c->d, st, "%s: %s", c->t->path, buf);
}

/* A trace is text: a NUL byte anywhere is refused by line (the readers'
 * C strings would end there: "5<NUL>0" read as 5 W); f is read through
 * once and rewound. */
static int text_only(tr_ctx *c, FILE *f)
{
    char buf[16384];
    size_t n;
    int line = 1;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        if (tr_nul_line(buf, n, &line))
            return tr_fail(c, JC_ERR_USAGE, line, "a NUL byte: a trace is text");
    rewind(f);
    return 0;
}

void tr_device_name(tr_ctx *c, const char *name)
{
    if (!c->t->device_name[0] && name && *name)
        snprintf(c->t->device_name, sizeof c->t->device_name, "%s", name);
}

/* ---- channels ---------------------------------------------------------------------- */

static tr_chan *chan(tr_ctx *c, const char *key, const char *name, jc_trace_scope scope, int index)
{
    if (c->last_ch && !strcmp(c->last_ch->key, key)) return c->last_ch;
    for (size_t i = 0; i < c->n_ch; i++)
        if (!strcmp(c->ch[i]->key, key)) return c->last_ch = c->ch[i];
    if (c->n_ch >= TR_MAX_CHANNELS) {
        tr_fail(c, JC_ERR_USAGE, 0, "more than %d channels (devices): not a trace joulecast can read", TR_MAX_CHANNELS);
        return NULL;
    }
    if (c->n_ch == c->cap_ch) {
        size_t nc = c->cap_ch ? c->cap_ch * 2 : 8;
        tr_chan **n = realloc(c->ch, nc * sizeof *n);
        if (!n) { tr_fail(c, JC_ERR_NOMEM, 0, "out of memory"); return NULL; }
        c->ch = n;
        c->cap_ch = nc;
    }
    tr_chan *h = calloc(1, sizeof *h);
    size_t cap = c->o->chart_points ? c->o->chart_points : TR_CHART_DEFAULT;
    if (cap < 2) cap = 2;
    if (h) {
        h->ce = calloc(cap, sizeof *h->ce);
        h->cc = calloc(cap, sizeof *h->cc);
    }
    if (!h || !h->ce || !h->cc) {
        if (h) { free(h->ce); free(h->cc); }
        free(h);
        tr_fail(c, JC_ERR_NOMEM, 0, "out of memory");
        return NULL;
    }
    h->ncap = cap;
    snprintf(h->key, sizeof h->key, "%s", key);
    snprintf(h->pub.name, sizeof h->pub.name, "%s", name);
    h->pub.scope = scope;
    h->pub.index = index;
    h->pub.min_w = INFINITY;
    h->pub.peak_w = -INFINITY;
    h->thr = NAN;
    h->latest_w = NAN;
    c->ch[c->n_ch++] = h;
    return c->last_ch = h;
}

static double rel_t(tr_ctx *c, double t)
{
    if (!c->have_origin) {
        c->t_origin = t;
        c->have_origin = 1;
    }
    return t - c->t_origin;
}

/* ---- chart ------------------------------------------------------------------------- */

static void chart_add(tr_chan *h, double tmid, double e, double dt)
{
    if (!(h->bw > 0)) return;
    for (;;) {
        double k = floor((tmid - h->ct0) / h->bw);
        if (k < 0) k = 0;
        if (k < (double)h->ncap) {
            size_t i = (size_t)k;
            h->ce[i] += e;
            h->cc[i] += dt;
            if (i + 1 > h->nused) h->nused = i + 1;
            return;
        }
        /* full: merge pairs, double the width */
        size_t half = (h->ncap + 1) / 2;
        for (size_t i = 0; i < half; i++) {
            double e2 = h->ce[2 * i], c2 = h->cc[2 * i];
            if (2 * i + 1 < h->ncap) { e2 += h->ce[2 * i + 1]; c2 += h->cc[2 * i + 1]; }
            h->ce[i] = e2;
            h->cc[i] = c2;
        }
        for (size_t i = half; i < h->ncap; i++) h->ce[i] = h->cc[i] = 0;
        h->nused = (h->nused + 1) / 2;
        h->bw *= 2;
    }
}

/* ---- integration -------------------------------------------------------------------- */

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The i-th pending sample of a channel (its reorder ring). */
#define AT(h, i) ((h)->buf[((h)->rh + (i)) % TR_REORDER])

/* The gap threshold of a channel, from the intervals in its window. */
static void set_threshold(tr_ctx *c, tr_chan *h)
{
    if (!isnan(c->o->gap_s)) { h->thr = c->o->gap_s; h->pub.gap_threshold_s = h->thr; }
    double iv[TR_REORDER];
    int n = 0;
    for (int i = 1; i < h->nb; i++) {
        double a = AT(h, i - 1).t, b = AT(h, i).t;
        if (b > a) iv[n++] = b - a;
    }
    double med = NAN;
    if (n) {
        qsort(iv, (size_t)n, sizeof iv[0], cmp_d);
        med = iv[n / 2];
    }
    if (isnan(c->o->gap_s)) {
        h->thr = n ? 5 * med : INFINITY;
        h->pub.gap_threshold_s = h->thr;
    }
    h->bw = n ? med : 1;
    h->ct0 = AT(h, 0).t;
}

static void dev_latest(tr_ctx *c, tr_chan *h, double w)
{
    if (h->pub.scope != JC_TRACE_DEVICE) return;
    if (isnan(h->latest_w)) c->dev_sum += w;
    else c->dev_sum += w - h->latest_w;
    h->latest_w = w;
    if (c->dev_sum > c->t->device_peak_w) c->t->device_peak_w = c->dev_sum;
}

static int pct(double u)
{
    int i = (int)floor(u * 100 + 0.5);
    return i < 0 ? 0 : i > 100 ? 100 : i;
}

/* A device sample with a utilisation into the power grid (allocated on
 * first use; out of memory: the grid is dropped, the fit then says none). */
static void pg_add(tr_ctx *c, const tr_s *s)
{
    if (!c->pg) {
        if (c->pg_nomem) return;
        c->pg = jci_arena_calloc(c->a, 1, sizeof *c->pg);
        if (!c->pg) { c->pg_nomem = 1; return; }
    }
    int j = isnan(s->um) ? TR_PG_N : pct(s->um);
    tr_pbin *b = &c->pg->b[pct(s->u)][j];
    b->n++;
    b->w += s->w;
    b->w2 += s->w * s->w;
    b->g += s->u;
    b->m += isnan(s->um) ? 0 : s->um;
    c->pg->n++;
    if (!isnan(s->um)) c->pg->n_mem++;
}

/* Integrates sample s after the channel's last one. */
static void integrate(tr_ctx *c, tr_chan *h, const tr_s *s)
{
    jc_trace_channel *p = &h->pub;
    if (!h->started) {
        h->started = 1;
        p->t_first = s->t;
    } else {
        const tr_s *q = &h->last;
        double dt = s->t - q->t;
        if (dt <= 0) {
            p->repeated++;
        } else if (dt > h->thr) {
            p->n_gaps++;
            p->gap_s += dt;
            jc_trace *t = c->t;
            if (t->n_gaps < JC_TRACE_MAX_ISSUES) {
                jc_trace_issue *x = &t->gaps[t->n_gaps];
                x->line = s->line;
                snprintf(x->msg, sizeof x->msg, "%.60s: no sample for %s s (from t = %s s; threshold %s s): "
                         "not bridged", p->name, FMT_N(dt), FMT_N(q->t), FMT_N(h->thr));
            }
            t->n_gaps++;
        } else {
            double e = 0.5 * (q->w + s->w) * dt;
            h->e += e;
            h->cov += dt;
            if (!isnan(q->u) && !isnan(s->u)) {
                h->ui += 0.5 * (q->u + s->u) * dt;
                h->ucov += dt;
            }
            if (!isnan(q->um) && !isnan(s->um)) h->umi += 0.5 * (q->um + s->um) * dt;
            chart_add(h, 0.5 * (q->t + s->t), e, dt);
        }
    }
    if (!isnan(s->u)) h->has_util = 1;
    if (!isnan(s->u) && p->scope == JC_TRACE_DEVICE) pg_add(c, s);
    p->samples++;
    p->t_last = s->t;
    h->ssum += s->w;
    if (s->w > p->peak_w) p->peak_w = s->w;
    if (s->w < p->min_w) p->min_w = s->w;
    if (h->nh < TR_KEEP) h->head[h->nh++] = *s;
    h->tail[h->nt % TR_KEEP] = *s;
    h->nt++;
    h->last = *s;
}

/* Emits the oldest pending sample. */
static void emit_one(tr_ctx *c, tr_chan *h)
{
    if (isnan(h->thr)) set_threshold(c, h);
    tr_s s = AT(h, 0);
    h->rh = (h->rh + 1) % TR_REORDER;
    h->nb--;
    integrate(c, h, &s);
}

/* The physical range of a trace value (docs/traces.md): a device
 * channel above 50 kW (10 x the largest tdp_w the hwdb schema admits,
 * 5,000 W: src/hwdb/fields_device.def), a host or wall channel above 3 MW
 * (10 x the largest power in the hwdb, the Green Algorithms "TPU v3 pod",
 * 288 kW), a utilisation outside 0..100 %, or a time more than 10 years
 * (3.2e8 s) from the trace's first sample is not a measurement: refused
 * naming the line, so that no result is infinite or absurd. */
#define TR_MAX_DEVICE_W 5.0e4
#define TR_MAX_HOST_W 3.0e6
#define TR_MAX_SPAN_S 3.2e8

static int out_of_range(tr_ctx *c, const char *name, jc_trace_scope scope, double t_rel, double w, double u,
                        double um, int line)
{
    double maxw = scope == JC_TRACE_DEVICE ? TR_MAX_DEVICE_W : TR_MAX_HOST_W;
    if (w > maxw)
        return tr_fail(c, JC_ERR_RANGE, line, "%s: power %s W is above %s W (10 x the largest %s power "
                       "joulecast knows): not a measurement", name, FMT_N(w), FMT_N(maxw),
                       scope == JC_TRACE_DEVICE ? "device" : "system");
    if (!isnan(u) && (u < 0 || u > 1.0 + 1e-9))
        return tr_fail(c, JC_ERR_RANGE, line, "%s: utilisation %.6g %% is outside 0..100 %%", name, u * 100);
    if (!isnan(um) && (um < 0 || um > 1.0 + 1e-9))
        return tr_fail(c, JC_ERR_RANGE, line, "%s: memory utilisation %.6g %% is outside 0..100 %%", name,
                       um * 100);
    if (fabs(t_rel) > TR_MAX_SPAN_S)
        return tr_fail(c, JC_ERR_RANGE, line, "%s: time %s s from the trace's first sample is more than 10 "
                       "years (%s s): not one run", name, FMT_N(t_rel), FMT_N(TR_MAX_SPAN_S));
    return 0;
}

int tr_sample(tr_ctx *c, const char *key, const char *name, jc_trace_scope scope, int index, double t,
              double w, double u, double um, int line)
{
    tr_chan *h = chan(c, key, name, scope, index);
    if (!h) return c->d->status ? c->d->status : JC_ERR_NOMEM;
    if (h->kind != 0) return tr_fail(c, JC_ERR_INTERNAL, line, "channel '%s' mixes samples and blocks", name);
    if (!isfinite(t) || !isfinite(w)) { tr_bad(c, line, "not a finite time or power"); return 0; }
    if (w < 0) { tr_bad(c, line, "negative power %g W", w); return 0; }
    t = rel_t(c, t);
    int st = out_of_range(c, name, scope, t, w, u, um, line);
    if (st) return st;
    if (h->started && t < h->last.t) {
        tr_bad(c, line, "%s: time %s s is before the sample of line %d (%s s), beyond the %d-sample "
               "reorder window: not used", name, FMT_N(t), h->last.line, FMT_N(h->last.t), TR_REORDER);
        return 0;
    }
    dev_latest(c, h, w);   /* in file order: the devices' samples of one moment lie together */
    if (h->nb == TR_REORDER) emit_one(c, h);
    /* insert in order (from the back: usually appended) */
    int i = h->nb;
    while (i > 0 && AT(h, i - 1).t > t) {
        AT(h, i) = AT(h, i - 1);
        i--;
    }
    if (i < h->nb && !h->reordered++)
        tr_note(c, "%s: timestamps out of order (first at line %d): put in order within a %d-sample window",
                name, line, TR_REORDER);
    tr_s s = {t, w, u, um, line};
    AT(h, i) = s;
    h->nb++;
    return 0;
}

int tr_block(tr_ctx *c, const char *key, const char *name, jc_trace_scope scope, int index, double t0,
             double t1, double w, int line)
{
    tr_chan *h = chan(c, key, name, scope, index);
    if (!h) return c->d->status ? c->d->status : JC_ERR_NOMEM;
    if (h->nb || (h->started && h->kind == 0))
        return tr_fail(c, JC_ERR_INTERNAL, line, "channel '%s' mixes samples and blocks", name);
    h->kind = 1;
    if (!(t1 >= t0) || !isfinite(w) || w < 0) { tr_bad(c, line, "epoch with a negative duration or power"); return 0; }
    t0 = rel_t(c, t0);
    t1 -= c->t_origin;
    int st = out_of_range(c, name, scope, t0, w, NAN, NAN, line);
    if (!st) st = out_of_range(c, name, scope, t1, 0, NAN, NAN, line);
    if (st) return st;
    jc_trace_channel *p = &h->pub;
    if (!h->started) {
        h->started = 1;
        p->t_first = t0;
        h->bw = (t1 - t0) > 0 ? (t1 - t0) : 1;
        h->ct0 = t0;
        h->thr = INFINITY;
        p->gap_threshold_s = NAN;
    } else if (t0 < p->t_last - 1e-9) {
        tr_bad(c, line, "%s: epoch starts at %s s, before the previous one ended (%s s): not used", name, FMT_N(t0),
               FMT_N(p->t_last));
        return 0;
    } else if (t0 > p->t_last + 1e-9) {
        p->n_gaps++;
        p->gap_s += t0 - p->t_last;
        jc_trace *t = c->t;
        if (t->n_gaps < JC_TRACE_MAX_ISSUES) {
            jc_trace_issue *x = &t->gaps[t->n_gaps];
            x->line = line;
            snprintf(x->msg, sizeof x->msg, "%.60s: %s s between epochs not measured: not bridged", name,
                     FMT_N(t0 - p->t_last));
        }
        t->n_gaps++;
    }
    double dt = t1 - t0;
    h->e += w * dt;
    h->cov += dt;
    chart_add(h, 0.5 * (t0 + t1), w * dt, dt);
    p->samples++;
    p->t_last = t1;
    h->ssum += w;
    if (w > p->peak_w) p->peak_w = w;
    if (w < p->min_w) p->min_w = w;
    dev_latest(c, h, w);
    return 0;
}

int tr_total(tr_ctx *c, const char *key, const char *name, jc_trace_scope scope, double duration_s, double joules)
{
    if (!(duration_s >= 0) || !isfinite(joules) || joules < 0)
        return tr_fail(c, JC_ERR_RANGE, 0, "%s: duration %s s, energy %s J: not a measurement", name,
                       FMT_N(duration_s), FMT_N(joules));
    int st = out_of_range(c, name, scope, duration_s, duration_s > 0 ? joules / duration_s : 0, NAN, NAN, 0);
    if (st) return st;
    tr_chan *h = chan(c, key, name, scope, -1);
    if (!h) return c->d->status ? c->d->status : JC_ERR_NOMEM;
    h->kind = 2;
    h->started = 1;
    h->e = joules;
    h->cov = duration_s;
    h->pub.t_first = 0;
    h->pub.t_last = duration_s;
    h->pub.samples = 1;
    h->pub.gap_threshold_s = NAN;
    h->pub.peak_w = h->pub.min_w = duration_s > 0 ? joules / duration_s : NAN;
    h->ssum = h->pub.peak_w;
    c->have_origin = 1;
    return 0;
}

/* ---- idle ----------------------------------------------------------------------------- */

typedef struct idle_rule { int by_util; double thr; } idle_rule;

static int is_idle(const idle_rule *r, const tr_s *s)
{
    if (r->by_util) return !isnan(s->u) && s->u < 0.005;
    return s->w <= r->thr;
}

/* Energy and time over samples [a..b] of an array (no gap intervals). */
static void span(const tr_chan *h, const tr_s *v, size_t a, size_t b, double *e, double *dt)
{
    *e = *dt = 0;
    for (size_t i = a; i + 1 <= b; i++) {
        double d = v[i + 1].t - v[i].t;
        if (d <= 0 || d > h->thr) continue;
        *e += 0.5 * (v[i].w + v[i + 1].w) * d;
        *dt += d;
    }
}

static void find_idle(tr_ctx *c, tr_chan *h)
{
    jc_trace_channel *p = &h->pub;
    p->idle_w = p->marginal_j = NAN;
    if (h->kind != 0 || p->samples < 3) {
        p->idle_rule = h->kind == 2 ? "run totals: no series" : h->kind == 1 ? "epoch averages: not detected"
                                                                          : "too few samples";
        return;
    }
    idle_rule r = {0, 0};
    if (!isnan(c->o->idle_w)) {
        r.thr = c->o->idle_w;
        p->idle_rule = "at or below --idle-w";
    } else if (h->has_util && p->scope == JC_TRACE_DEVICE) {
        r.by_util = 1;
        p->idle_rule = "utilisation 0 %";
    } else {
        double spanw = p->peak_w - p->min_w;
        if (!(spanw > 0.05 * p->peak_w)) {
            p->idle_rule = "power varies by less than 5%: no idle phase told apart";
            return;
        }
        r.thr = p->min_w + 0.1 * spanw;
        p->idle_rule = "within the lowest 10% of the channel's power span";
    }
    /* leading */
    size_t k = 0;
    while (k < h->nh && is_idle(&r, &h->head[k])) k++;
    double le = 0, ls = 0, te = 0, ts = 0;
    if (k == h->nh && h->nh == p->samples) {
        /* every sample idle */
        span(h, h->head, 0, h->nh - 1, &le, &ls);
        p->lead_idle_s = ls;
        p->idle_energy_j = le;
        p->idle_found = 1;
        p->idle_w = ls > 0 ? le / ls : NAN;
        p->marginal_j = 0;
        return;
    }
    if (k == h->nh) p->idle_capped = 1;
    if (k >= 2) span(h, h->head, 0, k - 1, &le, &ls);
    /* trailing: the ring in time order */
    size_t nk = h->nt < TR_KEEP ? h->nt : TR_KEEP;
    size_t start = h->nt < TR_KEEP ? 0 : h->nt % TR_KEEP;
    tr_s *lin = malloc(nk * sizeof *lin);
    if (lin) {
        for (size_t i = 0; i < nk; i++) lin[i] = h->tail[(start + i) % TR_KEEP];
        size_t j = nk;
        while (j > 0 && is_idle(&r, &lin[j - 1])) j--;
        if (j == 0 && h->nt > TR_KEEP) p->idle_capped = 1;
        if (nk - j >= 2) span(h, lin, j, nk - 1, &te, &ts);
        free(lin);
    }
    p->lead_idle_s = ls;
    p->trail_idle_s = ts;
    p->idle_energy_j = le + te;
    if (ls + ts > 0) {
        p->idle_found = 1;
        p->idle_w = (le + te) / (ls + ts);
        p->marginal_j = h->e - p->idle_w * h->cov;
    }
}

/* ---- finish ----------------------------------------------------------------------------- */

static void iso(char *dst, size_t cap, double epoch)
{
    dst[0] = 0;
    if (!isfinite(epoch) || epoch < 0 || epoch > 4e9) return;
    time_t s = (time_t)floor(epoch);
    struct tm tm;
    if (!gmtime_r(&s, &tm)) return;
    strftime(dst, cap, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int finish(tr_ctx *c)
{
    jc_trace *t = c->t;
    t->channels = jci_arena_calloc(c->a, c->n_ch ? c->n_ch : 1, sizeof *t->channels);
    if (!t->channels) return tr_fail(c, JC_ERR_NOMEM, 0, "out of memory");
    double t0 = INFINITY, t1 = -INFINITY, usum = 0, un = 0;
    for (size_t i = 0; i < c->n_ch; i++) {
        tr_chan *h = c->ch[i];
        while (h->nb) emit_one(c, h);
        jc_trace_channel *p = &h->pub;
        if (!p->samples) continue;
        p->energy_j = h->e;
        p->covered_s = h->cov;
        p->avg_w = h->cov > 0 ? h->e / h->cov : h->ssum / (double)p->samples;
        p->avg_util = h->ucov > 0 ? h->ui / h->ucov : NAN;
        if (isnan(p->gap_threshold_s) && h->kind == 0) p->gap_threshold_s = h->thr;
        find_idle(c, h);
        if (h->kind != 2 && h->nused) {
            p->chart = jci_arena_calloc(c->a, h->nused, sizeof *p->chart);
            if (!p->chart) return tr_fail(c, JC_ERR_NOMEM, 0, "out of memory");
            for (size_t k = 0; k < h->nused; k++) {
                p->chart[k].t = h->ct0 + (k + 0.5) * h->bw;
                p->chart[k].w = h->cc[k] > 0 ? h->ce[k] / h->cc[k] : NAN;
            }
            p->n_chart = h->nused;
        }
        if (p->t_first < t0) t0 = p->t_first;
        if (p->t_last > t1) t1 = p->t_last;
        int sc = p->scope;
        t->energy_j[sc] += p->energy_j;
        if (!t->has_scope[sc]) t->marginal_j[sc] = 0;
        t->has_scope[sc] = 1;
        t->marginal_j[sc] += p->marginal_j;   /* NAN propagates: one channel without idle */
        if (sc == JC_TRACE_DEVICE) {
            if (c->pg) {
                c->pg->g_int += h->ui;
                c->pg->m_int += h->umi;
            }
            t->n_devices++;
            if (!isnan(p->avg_util)) { usum += p->avg_util * p->covered_s; un += p->covered_s; }
        }
        t->channels[t->n_channels++] = *p;
    }
    if (!t->n_channels) {
        if (t->n_bad)
            return tr_fail(c, JC_ERR_USAGE, t->bad[0].line, "no readable sample (%zu row%s not read; the first: %s)",
                           t->n_bad, t->n_bad == 1 ? "" : "s", t->bad[0].msg);
        return tr_fail(c, JC_ERR_USAGE, 0, "no sample in the file");
    }
    if (t->n_bad > t->rows / 2 && t->n_bad > 1)
        return tr_fail(c, JC_ERR_USAGE, t->bad[0].line, "%zu of %zu rows cannot be read (the first: %s): is "
                       "this the format named (%s)?", t->n_bad, t->rows, t->bad[0].msg,
                       jc_trace_format_name(t->format));
    for (size_t i = 0; i < c->n_ch; i++) {
        const tr_chan *h = c->ch[i];
        /* one sample, or all at one time: the energy is unknown, not 0 */
        if (h->pub.samples && h->kind != 2 && !(h->cov > 0))
            return tr_fail(c, JC_ERR_USAGE, 0, "%s: %zu sample%s at one time and no interval between them: "
                           "nothing to integrate, the energy is unknown (a trace needs two samples at "
                           "different times)", h->pub.name, h->pub.samples, h->pub.samples == 1 ? "" : "s");
    }
    t->duration_s = t1 - t0;
    for (int sc = 0; sc < JC_TRACE_SCOPE_COUNT; sc++) {
        /* the idle ends every channel of the scope shares */
        double lead = INFINITY, trail = INFINITY, a0 = INFINITY, a1 = -INFINITY, e = 0, ie = 0;
        int all = 1;
        for (size_t i = 0; i < t->n_channels; i++) {
            const jc_trace_channel *p = &t->channels[i];
            if ((int)p->scope != sc) continue;
            if (p->t_first < a0) a0 = p->t_first;
            if (p->t_last > a1) a1 = p->t_last;
            e += p->energy_j;
            if (!p->idle_found) { all = 0; continue; }
            ie += p->idle_energy_j;
            if (p->lead_idle_s < lead) lead = p->lead_idle_s;
            if (p->trail_idle_s < trail) trail = p->trail_idle_s;
        }
        if (!t->has_scope[sc]) continue;
        if (all && isfinite(lead) && lead + trail < a1 - a0) {
            t->active_s[sc] = a1 - a0 - lead - trail;
            t->active_energy_j[sc] = e - ie;   /* each channel's own idle ends */
        } else {
            t->active_s[sc] = a1 - a0;
            t->active_energy_j[sc] = e;
        }
    }
    if (c->devices >= 1) t->n_devices = (size_t)c->devices;
    t->device_avg_w = t->duration_s > 0 ? t->energy_j[JC_TRACE_DEVICE] / t->duration_s : NAN;
    t->device_avg_util = un > 0 ? usum / un : NAN;
    if (!t->has_scope[JC_TRACE_DEVICE]) t->device_peak_w = NAN;
    for (int s = 0; s < JC_TRACE_SCOPE_COUNT; s++)
        if (!t->has_scope[s]) t->marginal_j[s] = NAN;
    if (c->have_origin && c->t_origin > 1e8) {
        t->epoch_start = c->t_origin + t0;
        iso(t->start, sizeof t->start, c->t_origin + t0);
        iso(t->end, sizeof t->end, c->t_origin + t1);
    } else {
        t->epoch_start = NAN;
    }
    {
        char buf[600];
        size_t ns = 0;
        for (size_t i = 0; i < t->n_channels; i++) ns += t->channels[i].samples;
        if (t->start[0] && !t->end[0])
            snprintf(buf, sizeof buf, "%s (%s run totals, run of %s, %s s)", t->path,
                     jc_trace_format_name(t->format), t->start, FMT_N(t1 - t0));
        else if (t->start[0])
            snprintf(buf, sizeof buf, "%s (%s trace, %s to %s, %s s, %zu sample%s, %zu channel%s)", t->path,
                     jc_trace_format_name(t->format), t->start, t->end, FMT_N(t1 - t0), ns, ns == 1 ? "" : "s",
                     t->n_channels, t->n_channels == 1 ? "" : "s");
        else
            snprintf(buf, sizeof buf, "%s (%s trace, relative times, %s s, %zu sample%s, %zu channel%s)", t->path,
                     jc_trace_format_name(t->format), FMT_N(t1 - t0), ns, ns == 1 ? "" : "s", t->n_channels,
                     t->n_channels == 1 ? "" : "s");
        size_t bl = strlen(buf);
        if (t->has_scope[JC_TRACE_DEVICE] && t->active_s[JC_TRACE_DEVICE] < t1 - t0 && bl > 1)
            snprintf(buf + bl - 1, sizeof buf - bl + 1, "; devices' active window %s s, idle ends removed)",
                     FMT_N(t->active_s[JC_TRACE_DEVICE]));
        tr_internal *ti = t->internal_;
        ti->pg = c->pg;
        ti->detail = jci_arena_strdup(c->a, buf);
        if (!ti->detail) return tr_fail(c, JC_ERR_NOMEM, 0, "out of memory");
    }
    /* channel times relative to the window start */
    for (size_t i = 0; i < t->n_channels; i++) {
        jc_trace_channel *p = &t->channels[i];
        p->t_first -= t0;
        p->t_last -= t0;
        for (size_t k = 0; k < p->n_chart; k++) p->chart[k].t -= t0;
    }
    return 0;
}

/* ---- entry point --------------------------------------------------------------------------- */

/* An option the format never reads is refused, not ignored: --scope names
 * what a plain timestamp,watts meter measured (the other formats say it
 * per column), --row picks a CodeCarbon run, --interval times the
 * samples of nvidia-smi without a timestamp column and of dcgmi dmon
 * (each reader notes when the lines carry their own times), and --gap /
 * --idle-w read a series (CodeCarbon has run totals only). */
static jc_status opts_apply(tr_ctx *c, jc_trace_format fmt)
{
    const jc_trace_opts *o = c->o;
    const char *name = jc_trace_format_name(fmt), *opt = NULL, *why = NULL;
    if (o->scope >= 0 && fmt != JC_TRACE_WATTS)
        opt = "--scope", why = "names what a plain timestamp,watts CSV measured; this format gives each column's scope";
    else if (o->row && fmt != JC_TRACE_CODECARBON)
        opt = "--row", why = "picks a run of CodeCarbon's emissions.csv; this format has no run rows";
    else if (!isnan(o->interval_s) && fmt != JC_TRACE_NVIDIA_SMI && fmt != JC_TRACE_DCGMI)
        opt = "--interval", why = "times the samples of nvidia-smi without a timestamp column or of dcgmi dmon; "
                                  "this format has its own times";
    else if (fmt == JC_TRACE_CODECARBON && (!isnan(o->gap_s) || !isnan(o->idle_w)))
        opt = !isnan(o->gap_s) ? "--gap" : "--idle-w", why = "reads a power series; CodeCarbon's emissions.csv has run totals";
    if (!opt) return JC_OK;
    return (jc_status)tr_fail(c, JC_ERR_USAGE, 0, "%s has no effect on a %s trace: it %s; drop it", opt, name, why);
}


jc_status jc_trace_load(const char *path, const jc_trace_opts *o, jc_trace **out, jc_diag *d)
{
    jci_diag_clear(d);
    if (!path || !out) return jci_diag_set(d, JC_ERR_USAGE, "jc_trace_load: NULL argument");
    *out = NULL;
    jc_trace_opts defo;
    if (!o) { jc_trace_opts_init(&defo); o = &defo; }
    jci_arena *a = jci_arena_new();
    if (!a) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    tr_ctx C, *c = &C;
    memset(c, 0, sizeof *c);
    c->a = a;
    c->o = o;
    c->d = d;
    c->devices = NAN;
    jc_status st = JC_OK;
    FILE *f = NULL;
    c->t = jci_arena_alloc(a, sizeof *c->t);
    tr_internal *ti = jci_arena_alloc(a, sizeof *ti);
    if (!c->t || !ti) { st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto done; }
    ti->a = a;
    c->t->internal_ = ti;
    c->t->path = jci_arena_strdup(a, path);
    if (!c->t->path) { st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory"); goto done; }
    if (!isnan(o->gap_s) && !(o->gap_s > 0)) { st = tr_fail(c, JC_ERR_USAGE, 0, "--gap must be > 0 s"); goto done; }
    if (!isnan(o->interval_s) && !(o->interval_s > 0)) {
        st = tr_fail(c, JC_ERR_USAGE, 0, "--interval must be > 0 s");
        goto done;
    }
    f = fopen(path, "rb");
    if (!f) { st = jci_diag_set(d, JC_ERR_IO, "%s: cannot open: %s", path, strerror(errno)); goto done; }
    jc_trace_format fmt = o->format;
    if (fmt == JC_TRACE_AUTO) {
        char head[4097];
        size_t n = fread(head, 1, sizeof head - 1, f);
        head[n] = 0;
        fmt = tr_detect(head);
        if (fmt == JC_TRACE_AUTO) {
            st = tr_fail(c, JC_ERR_USAGE, 1, "not a trace format joulecast recognises from its first lines "
                         "(nvidia-smi, dcgmi, codecarbon, carbontracker, powerjoular, scaphandre, watts): "
                         "name it with --trace-format");
            goto done;
        }
        rewind(f);
    }
    c->t->format = fmt;
    if ((st = opts_apply(c, fmt))) goto done;
    if (fmt != JC_TRACE_CODECARBON && (st = text_only(c, f))) goto done;
    switch (fmt) {
    case JC_TRACE_NVIDIA_SMI: st = tr_read_nvidia_smi(c, f); break;
    case JC_TRACE_DCGMI: st = tr_read_dcgmi(c, f); break;
    case JC_TRACE_CARBONTRACKER: st = tr_read_carbontracker(c, f); break;
    case JC_TRACE_POWERJOULAR: st = tr_read_powerjoular(c, f); break;
    case JC_TRACE_SCAPHANDRE: st = tr_read_scaphandre(c, f); break;
    case JC_TRACE_WATTS: st = tr_read_watts(c, f); break;
    case JC_TRACE_CODECARBON: st = tr_read_codecarbon(c, path); break;
    default: st = tr_fail(c, JC_ERR_USAGE, 0, "unknown trace format"); break;
    }
    if (!st && ferror(f)) st = jci_diag_set(d, JC_ERR_IO, "%s: read error", path);
    if (!st) st = finish(c);
done:
    if (f) fclose(f);
    for (size_t i = 0; i < c->n_ch; i++) {
        free(c->ch[i]->ce);
        free(c->ch[i]->cc);
        free(c->ch[i]);
    }
    free(c->ch);
    if (st) { jci_arena_free(a); return st; }
    *out = c->t;
    return JC_OK;
}

const tr_pgrid *tr_power_grid(const jc_trace *t)
{
    return t ? ((const tr_internal *)t->internal_)->pg : NULL;
}

void jc_trace_free(jc_trace *t)
{
    if (!t) return;
    tr_internal *ti = t->internal_;
    jci_arena_free(ti->a);
}

jc_status jc_trace_detect(const char *path, jc_trace_format *f, jc_diag *d)
{
    jci_diag_clear(d);
    *f = JC_TRACE_AUTO;
    FILE *fp = fopen(path, "rb");
    if (!fp) return jci_diag_set(d, JC_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    char head[4097];
    size_t n = fread(head, 1, sizeof head - 1, fp);
    head[n] = 0;
    fclose(fp);
    *f = tr_detect(head);
    return JC_OK;
}

/* ---- as a measured run ---------------------------------------------------------------------- */

void jc_trace_measurements(const jc_trace *t, jc_measurements *ms, jc_measurement *m)
{
    memset(ms, 0, sizeof *ms);
    memset(m, 0, sizeof *m);
    m->line = 0;
    int dv = t->has_scope[JC_TRACE_DEVICE];
    double dur = dv ? t->active_s[JC_TRACE_DEVICE] : t->duration_s;
    m->duration_s = dur > 0 ? dur : NAN;
    m->device_kwh = dv ? t->active_energy_j[JC_TRACE_DEVICE] / JCI_J_PER_KWH : NAN;
    m->cpu_kwh = t->has_scope[JC_TRACE_HOST] ? t->energy_j[JC_TRACE_HOST] / JCI_J_PER_KWH : NAN;
    m->ram_kwh = NAN;
    m->total_kwh = NAN;
    m->pue = m->avg_power_w = NAN;
    m->devices = t->n_devices ? (double)t->n_devices : NAN;
    snprintf(m->device, sizeof m->device, "%s", t->device_name);
    if (t->start[0]) memcpy(m->date, t->start, 10), m->date[10] = 0;
    ms->path = t->path;
    ms->format = jc_trace_format_name(t->format);
    ms->n = 1;
    ms->rows = m;
    ms->detail = ((const tr_internal *)t->internal_)->detail;
}
