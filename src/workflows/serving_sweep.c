/*
 * serving_sweep.c (workflows) - `sweep --generate`: one serving job (jc_serving_run)
 * over devices x device counts x tensor-parallel sizes x concurrency x
 * weight formats, ranked by GPU energy per output token among the
 * configurations that meet the latency targets (--max-itl, --max-ttft),
 * with the Pareto front of energy per token against inter-token latency.
 * A point that cannot run (weights that do not fit, a count the TP size
 * does not divide, a device without figures) is kept with its reason.
 */
#include "base/jc_internal.h"
#include "workflows/grid_rules.h"
#include "joulecast/hwdb.h"
#include "joulecast/serving.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct ssw_internal { jci_arena *ar; } ssw_internal;

static int by_energy(const void *x, const void *y)
{
    const jc_serving_sweep_entry *a = x, *b = y;
    if (a->meets != b->meets) return b->meets - a->meets;
    if (a->j_per_output_token != b->j_per_output_token) return a->j_per_output_token < b->j_per_output_token ? -1 : 1;
    return strcmp(a->device_id, b->device_id);
}

static void pareto(jc_serving_sweep_entry *e, size_t n)
{
    /* among the entries that meet the targets: no other has both lower
     * (or equal) energy per token and lower (or equal) ITL, one strictly */
    for (size_t i = 0; i < n; i++) {
        if (!e[i].meets) continue;
        int dom = 0;
        for (size_t k = 0; k < n && !dom; k++) {
            if (k == i || !e[k].meets) continue;
            dom = e[k].j_per_output_token <= e[i].j_per_output_token && e[k].itl_s <= e[i].itl_s &&
                  (e[k].j_per_output_token < e[i].j_per_output_token || e[k].itl_s < e[i].itl_s);
        }
        e[i].pareto = !dom;
    }
}

jc_status jc_serving_sweep_run(const jc_serving_sweep_spec *sp, const jc_job *job, const jc_arch *arch,
                               const jc_hwdb *db, jc_serving_sweep **out, jc_diag *d)
{
    if (!sp || !job || !db || !out) return jci_diag_set(d, JC_ERR_USAGE, "jc_serving_sweep_run: NULL argument");
    *out = NULL;
    static const double one = NAN;
    const char *dev1 = job->device;
    const char *const *devs = sp->n_devices ? sp->devices : &dev1;
    size_t nd = sp->n_devices ? sp->n_devices : 1;
    if (!devs[0]) return jci_diag_set(d, JC_ERR_USAGE, "sweep --generate: give --devices LIST (or --device)");
    const double *counts = sp->n_counts ? sp->counts : &job->count;
    size_t nc = sp->n_counts ? sp->n_counts : 1;
    const double *tps = sp->n_tps ? sp->tps : &one;
    size_t nt = sp->n_tps ? sp->n_tps : 1;
    const double *conc = sp->n_concurrencies ? sp->concurrencies : &job->concurrency;
    size_t nq = sp->n_concurrencies ? sp->n_concurrencies : 1;
    const char *w1 = job->weights;
    const char *const *ws = sp->n_weights ? sp->weights : &w1;
    size_t nw = sp->n_weights ? sp->n_weights : 1;
    size_t n = nd * nc * nt * nq * nw;
    jc_status st0 = jci_grid_job_check(job, "sweep", d);
    if (st0) return st0;
    if (n > 100000) return jci_diag_set(d, JC_ERR_USAGE, "sweep --generate: %zu grid points (at most 100000)", n);
    jci_arena *ar = jci_arena_new();
    jc_serving_sweep *s = ar ? jci_arena_alloc(ar, sizeof *s) : NULL;
    ssw_internal *si = s ? jci_arena_alloc(ar, sizeof *si) : NULL;
    jc_serving_sweep_entry *e = si ? jci_arena_calloc(ar, n, sizeof *e) : NULL;
    if (!e) { jci_arena_free(ar); return jci_diag_set(d, JC_ERR_NOMEM, "out of memory"); }
    si->ar = ar;
    s->internal_ = si;
    s->entries = e;
    s->n_entries = n;
    s->max_itl_s = sp->max_itl_s;
    s->max_ttft_s = sp->max_ttft_s;
    size_t k = 0;
    jci_grid_fails fails;
    memset(&fails, 0, sizeof fails);
    for (size_t a = 0; a < nd; a++)
        for (size_t b = 0; b < nc; b++)
            for (size_t c = 0; c < nt; c++)
                for (size_t q = 0; q < nq; q++)
                    for (size_t w = 0; w < nw; w++) {
                        jc_job j = *job;
                        j.device = devs[a];
                        j.count = counts[b];
                        j.tp = tps[c];
                        j.concurrency = conc[q];
                        j.weights = ws[w];
                        jc_serving_sweep_entry *x = &e[k++];
                        x->device_id = jci_arena_strdup(ar, devs[a]);
                        x->count = counts[b];
                        x->tp = tps[c];
                        x->concurrency_asked = conc[q];
                        x->weights = ws[w] ? jci_arena_strdup(ar, ws[w]) : "config";
                        jc_serving *r = NULL;
                        jc_diag dd;
                        if (jc_serving_run(&j, arch, db, &r, &dd)) {
                            jci_grid_fail(&fails, &dd);
                            const char *m = strncmp(dd.msg, "estimate --generate: ", 21) ? dd.msg : dd.msg + 21;
                            x->reason = jci_arena_strdup(ar, m);
                            continue;
                        }
                        x->device_id = jci_arena_strdup(ar, r->estimate->device_id);
                        x->count = r->devices;
                        x->tp = r->tp;
                        x->concurrency = r->concurrency;
                        x->memory_limited = r->memory_limited;
                        x->weights = jci_arena_strdup(ar, r->weights);
                        x->ttft_s = r->ttft_s.central;
                        x->itl_s = r->itl_s.central;
                        x->tokens_per_s = r->tokens_per_s.central;
                        x->j_per_output_token = r->j_per_output_token_device.central;
                        x->j_per_output_token_facility = r->j_per_output_token.central;
                        x->co2_kg = r->estimate->co2_kg.central;
                        x->estimated = 1;
                        x->meets = (isnan(sp->max_itl_s) || x->itl_s <= sp->max_itl_s) &&
                                   (isnan(sp->max_ttft_s) || x->ttft_s <= sp->max_ttft_s);
                        if (!x->meets)
                            x->reason = x->itl_s > sp->max_itl_s ? "misses --max-itl" : "misses --max-ttft";
                        jc_serving_free(r);
                    }
    /* estimated entries first (meeting the targets before the others),
     * then the points that could not run */
    size_t ne = 0;
    for (size_t i = 0; i < n; i++)
        if (e[i].estimated) {
            jc_serving_sweep_entry t = e[ne];
            e[ne++] = e[i];
            e[i] = t;
        }
    jc_status st = jci_grid_fails_check(&fails, ne, n - ne, ne < n ? e[ne].reason : NULL, "sweep --generate", d);
    if (st) {
        jci_arena_free(ar);
        return st;
    }
    qsort(e, ne, sizeof *e, by_energy);
    pareto(e, ne);
    s->n_estimated = ne;
    for (size_t i = 0; i < ne; i++) {
        s->n_meeting += e[i].meets;
        s->n_pareto += e[i].pareto;
    }
    *out = s;
    return JC_OK;
}

void jc_serving_sweep_free(jc_serving_sweep *s)
{
    if (!s) return;
    ssw_internal *si = s->internal_;
    jci_arena_free(si->ar);
}

int jc_serving_latency_parse(const char *s, double *seconds)
{
    if (!s || !seconds) return 0;
    char *end = NULL;
    double v = strtod(s, &end);
    double scale;
    if (end == s) return 0;
    if (!strcmp(end, "ms")) scale = 1e-3;
    else if (!strcmp(end, "us")) scale = 1e-6;
    else if (!strcmp(end, "s") || !*end) scale = 1;
    else return 0;
    if (!(v > 0) || !isfinite(v)) return 0;
    *seconds = v * scale;
    return 1;
}

int jc_serving_axis_parse(const char *s, double *v)
{
    if (!s || !v) return 0;
    char *end = NULL;
    double x = strtod(s, &end);
    if (end == s || *end || !(x >= 1) || x != floor(x) || x > 1e6) return 0;
    *v = x;
    return 1;
}
