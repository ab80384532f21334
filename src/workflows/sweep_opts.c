/*
 * sweep_opts.c (workflows) - the options of `joulecast sweep` beyond the
 * job's, parsed once for the command line, job files and the binding:
 * jci_sweep_opts_set takes one key and its text (a comma list of a grid
 * axis, a latency target, the ranking), jci_sweep_spec_from_opts applies
 * the rules between them and the job (which grid, which axes belong to
 * it, --top against the output) and resolves the grid
 * (jc_sweep_spec_resolve).  Every refusal is worded here; the CLI adds
 * where the value came from ("command line: --", or file:line:col).
 */
#include "base/jc_internal.h"
#include "joulecast/job.h"
#include "joulecast/estimate.h"
#include "joulecast/serving.h"
#include "joulecast/sweep.h"
#include "joulecast/bind.h"
#include "workflows/cmd_opts.h"
#include "workflows/sweep_opts.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum { O_LIST, O_NUMS, O_BATCHES, O_LATENCY, O_SORT, O_TOP, O_MAXPTS };

/* The keys as data (src/workflows/sweep_opts.def): the public rows, and
 * how[] (same order): what each takes and where it goes. */
#define SWEEP_OPT(name, arg, output, kind, field, help) {name, arg, help, output, 0},
static const jci_cmd_key keys[] = {
#include "workflows/sweep_opts.def"
};
#undef SWEEP_OPT
#define N_ROWS (sizeof keys / sizeof keys[0])

#define SWEEP_OPT(name, arg, output, kind, field, help) {O_##kind, offsetof(jci_sweep_opts, field)},
static const struct { int kind; size_t off; } how[N_ROWS] = {
#include "workflows/sweep_opts.def"
};
#undef SWEEP_OPT

const jci_cmd_key *jci_sweep_opt_keys(size_t *n)
{
    if (n) *n = N_ROWS;
    return keys;
}

typedef struct so_internal { jci_arena *a; } so_internal;

jc_status jci_sweep_opts_init(jci_sweep_opts *o, jc_diag *d)
{
    if (!o) return jci_diag_set(d, JC_ERR_USAGE, "jci_sweep_opts_init: NULL argument");
    memset(o, 0, sizeof *o);
    o->max_itl_s = o->max_ttft_s = NAN;
    o->sort = JC_SWEEP_BY_EMISSIONS;
    jci_arena *a = jci_arena_new();
    so_internal *si = a ? jci_arena_alloc(a, sizeof *si) : NULL;
    if (!si) {
        jci_arena_free(a);
        return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    }
    si->a = a;
    o->internal_ = si;
    return JC_OK;
}

void jci_sweep_opts_release(jci_sweep_opts *o)
{
    if (!o || !o->internal_) return;
    so_internal *si = o->internal_;
    jci_arena_free(si->a);
    o->internal_ = NULL;
}

/* The comma list v appended to the axis (items trimmed; an empty item
 * is refused), each item's value NAN until numbers() parses it. */
static jc_status append(jci_arena *a, jci_sweep_axis *x, const char *k, const char *v, jc_diag *d)
{
    char *b = v ? jci_arena_strdup(a, v) : NULL;
    if (!v || !*v) return jci_diag_set(d, JC_ERR_USAGE, "%s expects a comma list, got '%s'", k, v ? v : "");
    if (!b) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    size_t cap = 1;
    for (const char *p = b; *p; p++) cap += *p == ',';
    const char **items = jci_arena_calloc(a, x->n + cap, sizeof *items);
    double *vals = jci_arena_calloc(a, x->n + cap, sizeof *vals);
    if (!items || !vals) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    if (x->n) {
        memcpy(items, x->items, x->n * sizeof *items);
        memcpy(vals, x->values, x->n * sizeof *vals);
    }
    int n = jc_split_list(b, items + x->n, cap);
    if (n < 0) return jci_diag_set(d, JC_ERR_USAGE, "%s has an empty item in '%s'", k, v);
    for (int i = 0; i < n; i++) vals[x->n + (size_t)i] = NAN;
    x->items = items;
    x->values = vals;
    x->n += (size_t)n;
    return JC_OK;
}

/* The numbers of the items from `from` on: whole numbers from 1 to 1e6
 * (jc_serving_axis_parse), or batch sizes (jc_sweep_batches_parse). */
static jc_status numbers(jci_sweep_axis *x, size_t from, const char *k, int batches, jc_diag *d)
{
    if (batches) return jc_sweep_batches_parse(x->items + from, x->n - from, x->values + from, d);
    for (size_t i = from; i < x->n; i++)
        if (!jc_serving_axis_parse(x->items[i], &x->values[i]))
            return jci_diag_set(d, JC_ERR_USAGE, "%s takes whole numbers from 1 to 1e6, got '%s'", k, x->items[i]);
    return JC_OK;
}

jc_status jci_sweep_opts_set(jci_sweep_opts *o, const char *key, const char *value, jc_diag *d)
{
    if (!o || !o->internal_ || !key) return jci_diag_set(d, JC_ERR_USAGE, "jci_sweep_opts_set: NULL argument");
    size_t i = 0;
    while (i < N_ROWS && strcmp(keys[i].name, key)) i++;
    if (i == N_ROWS) return jci_diag_set(d, JC_ERR_NOTFOUND, "sweep: unknown option '%s'", key);
    so_internal *si = o->internal_;
    jci_sweep_axis *x = (jci_sweep_axis *)((char *)o + how[i].off);   /* an axis kind's member */
    size_t from;
    jc_status st;
    switch (how[i].kind) {
    case O_LIST: return append(si->a, x, key, value, d);
    case O_NUMS:
    case O_BATCHES:
        from = x->n;
        if ((st = append(si->a, x, key, value, d))) return st;
        return numbers(x, from, key, how[i].kind == O_BATCHES, d);
    case O_LATENCY:
        if (!jc_serving_latency_parse(value, (double *)((char *)o + how[i].off)))
            return jci_diag_set(d, JC_ERR_USAGE, "%s expects a duration > 0 such as 50ms or 0.05s, got '%s'", key,
                                value ? value : "");
        return JC_OK;
    case O_SORT:
        if (!value || jc_sweep_sort_parse(value, &o->sort))
            return jci_diag_set(d, JC_ERR_USAGE, "%s expects emissions, energy, time or cost, got '%s'", key,
                                value ? value : "");
        return JC_OK;
    case O_TOP: {
        char *end = NULL;
        long long t = value && *value ? strtoll(value, &end, 10) : -1;
        if (!end || *end || t < 0)
            return jci_diag_set(d, JC_ERR_USAGE, "%s expects a whole number >= 0, got '%s'", key, value ? value : "");
        o->top = (int64_t)t;
        o->top_given = 1;
        return JC_OK;
    }
    case O_MAXPTS: {
        char *end = NULL;
        double v = value && *value ? strtod(value, &end) : NAN;
        if (!end || *end || !(v >= 1) || v != floor(v) || v > JC_SWEEP_MAX_POINTS_LIMIT)
            return jci_diag_set(d, v > JC_SWEEP_MAX_POINTS_LIMIT ? JC_ERR_RANGE : JC_ERR_USAGE,
                                "%s expects a whole number from 1 to %.0f, got '%s'", key,
                                (double)JC_SWEEP_MAX_POINTS_LIMIT, value ? value : "");
        o->max_points = v;
        return JC_OK;
    }
    }
    return jci_diag_set(d, JC_ERR_INTERNAL, "jci_sweep_opts_set: bad key table");
}

/* The serving grid (the job's mode is generation): the axes of the
 * model grid and --html do not apply. */
static jc_status plan_generation(const jci_sweep_opts *o, const jc_job *job, int html, jci_sweep_plan *p, jc_diag *d)
{
    if (o->regions.n || o->batches.n || o->precisions.n || html)
        return jci_diag_set(d, JC_ERR_USAGE, "--regions, --batches, --precisions and --html do not apply to "
                            "--generate (give --region; sweep --concurrencies and --weights-list)");
    if (o->devices.n && job->device)
        return jci_diag_set(d, JC_ERR_USAGE, "--device and --devices both name the hardware; give the list "
                            "to --devices");
    p->generation = 1;
    p->serving = (jc_serving_sweep_spec){o->devices.items, o->devices.n, o->counts.values, o->counts.n,
                                         o->tps.values, o->tps.n, o->concurrencies.values, o->concurrencies.n,
                                         o->weights.items, o->weights.n, o->max_itl_s, o->max_ttft_s};
    return JC_OK;
}

jc_status jci_sweep_spec_from_opts(const jci_sweep_opts *o, const jc_job *job, int machine, int html,
                                  jci_sweep_plan *p, jc_diag *d)
{
    if (!o || !job || !p) return jci_diag_set(d, JC_ERR_USAGE, "jci_sweep_spec_from_opts: NULL argument");
    memset(p, 0, sizeof *p);
    if (o->top_given && machine && !html)
        return jci_diag_set(d, JC_ERR_USAGE, "--top limits the rows of the text and HTML tables; JSON and CSV "
                            "list every entry: drop it, or add --html");
    if (job->mode == JC_MODE_GENERATION) return plan_generation(o, job, html, p, d);
    if (o->counts.n || o->tps.n || o->concurrencies.n || o->weights.n || !isnan(o->max_itl_s) ||
        !isnan(o->max_ttft_s))
        return jci_diag_set(d, JC_ERR_USAGE, "--counts, --tps, --concurrencies, --weights-list, --max-itl "
                            "and --max-ttft need --generate");
    p->spec = (jc_sweep_spec){o->devices.items, o->devices.n, o->regions.items, o->regions.n, o->batches.values,
                              o->batches.n, o->precisions.items, o->precisions.n, o->sort, o->max_points};
    jc_status st = jc_sweep_spec_resolve(&p->spec, job, d);
    if (!st) st = jc_batch_check(job->batch, "--batch", d);
    return st;
}
