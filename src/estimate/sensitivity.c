/*
 * sensitivity.c (estimate) - the one-at-a-time sensitivity of an estimate
 * (issue 45; docs/energy-model.md "Sensitivity"): for each assumption
 * with a range, the estimate run again with that assumption pinned to
 * its low and to its high (the job's --pin, builder.c) and every other
 * input left central, and the rows ranked by how far the central
 * emissions move.  Each row is exactly what `estimate --pin KEY=low`
 * and `--pin KEY=high` print as their central figures: an input that
 * enters only the account (the PUE, the grid intensity, the model's host
 * power) reruns the estimate's own account with that input changed (the
 * same arithmetic, estimate.c jci_estimate_pinned_account), every other
 * input the estimate's central scenario (jci_estimate_core's
 * central_only).  A figure the estimate derives from its inputs
 * (assumption_keys.def's AKEY_FIGURE rows: device.busy_fraction of a
 * known runtime) is not an input: left out, and a warning says so.  A
 * bound equal to the central value (a range that
 * ends there: an efficiency whose high is 1) is the estimate's own
 * central figures, not run again.
 */
#include "estimate/sensitivity.h"
#include "estimate/akeys.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The central figures of the job with key pinned at bound ("low" or
 * "high") into *co2, *kwh, *hours. */
static jc_status one_bound(const jc_job *job, const jc_analysis *an, const jc_hwdb *db, jci_est_share *sh,
                           const jc_estimate *e, const jc_assumption *x, const char *bound, double out[3],
                           jc_diag *d)
{
    const char *key = x->key;
    double v = bound[0] == 'l' ? x->value.low : x->value.high;
    if (v == x->value.central) {   /* a bound at the central value: the pin changes no input, e's own figures */
        out[0] = e->co2_kg.central;
        out[1] = e->energy_facility_kwh.central;
        out[2] = e->wall_hours.central;
        return JC_OK;
    }
    if (jci_estimate_pinned_account(e, key, v, out)) return JC_OK;
    size_t n = strlen(key) + strlen(bound) + (job->pin ? strlen(job->pin) : 0) + 3;
    char *pin = malloc(n);
    if (!pin) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    snprintf(pin, n, "%s%s%s=%s", job->pin ? job->pin : "", job->pin ? "," : "", key, bound);
    jc_job j = *job;
    j.sensitivity = 0;
    j.pin = pin;
    jc_estimate *r = NULL;
    jc_diag rd;
    jc_status st = jci_estimate_core(&j, an, db, sh, 1, &r, &rd);
    free(pin);
    if (st) return jci_diag_set(d, st, "estimate --sensitivity: with %s at its %s: %s", key, bound, rd.msg);
    out[0] = r->co2_kg.central;
    out[1] = r->energy_facility_kwh.central;
    out[2] = r->wall_hours.central;
    jc_estimate_free(r);
    return JC_OK;
}

/* The rank order: the larger swing of emissions, then energy, then time
 * first (equal rows keep their order: the sort below is stable). */
static double swing(const jc_sensitivity *x, int k)
{
    double lo[3] = {x->co2_low, x->kwh_low, x->hours_low}, hi[3] = {x->co2_high, x->kwh_high, x->hours_high};
    return fabs(hi[k] - lo[k]);
}

static int by_swing(const void *pa, const void *pb)
{
    const jc_sensitivity *a = pa, *b = pb;
    for (int k = 0; k < 3; k++) {
        double sa = swing(a, k), sb = swing(b, k);
        if (sa != sb) return sa > sb ? -1 : 1;
    }
    return 0;
}

/* Is the assumption i of e the first ranged record of its key, and an
 * input?  (A derived figure's range follows from the inputs' ranges:
 * assumption_keys.def's AKEY_FIGURE rows are left out.) */
static int first_ranged(const jc_estimate *e, size_t i)
{
    const jc_assumption *x = &e->assumptions[i];
    if (!(x->value.low < x->value.high) || jci_akey_figure(x->key)) return 0;
    for (size_t k = 0; k < i; k++)
        if (!strcmp(e->assumptions[k].key, x->key)) return 0;
    return 1;
}

/* Says in e's warnings which ranged figures the table leaves out (the
 * first one named; they are derived, not inputs).  0, or JC_ERR_NOMEM. */
static jc_status say_left_out(jc_estimate *e, jc_diag *d)
{
    const char *first = NULL;
    size_t n = 0;
    for (size_t i = 0; i < e->n_assumptions; i++) {
        const jc_assumption *x = &e->assumptions[i];
        if (x->value.low < x->value.high && jci_akey_figure(x->key) && !n++) first = x->key;
    }
    if (!n) return JC_OK;
    jci_arena *a = jci_estimate_arena(e);
    const char **w = jci_arena_calloc(a, e->n_warnings + 1, sizeof *w);
    const char *msg = w ? jci_arena_printf(a, "sensitivity: %s%s left out: a figure the estimate derives from its "
                                           "inputs (its range follows from theirs), not an input; the table ranks "
                                           "and the draws draw those inputs", first,
                                           n > 1 ? " and the other derived figures" : "")
                        : NULL;
    if (!msg) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < e->n_warnings; i++) w[i] = e->warnings[i];
    w[e->n_warnings] = msg;
    e->warnings = w;
    e->n_warnings++;
    return JC_OK;
}

jc_status jci_sensitivity_run(const jc_job *job, const jc_analysis *an, const jc_hwdb *db, jci_est_share *sh,
                              jc_estimate *e, jc_diag *d)
{
    jci_arena *a = jci_estimate_arena(e);
    size_t n = 0;
    jc_status said = say_left_out(e, d);
    if (said) return said;
    for (size_t i = 0; i < e->n_assumptions; i++) n += first_ranged(e, i);
    jc_sensitivity *rows = jci_arena_calloc(a, n ? n : 1, sizeof *rows);
    if (!rows) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    size_t k = 0;
    for (size_t i = 0; i < e->n_assumptions; i++) {
        if (!first_ranged(e, i)) continue;
        const jc_assumption *x = &e->assumptions[i];
        jc_sensitivity *r = &rows[k++];
        double lo[3], hi[3];
        jc_status st = one_bound(job, an, db, sh, e, x, "low", lo, d);
        if (!st) st = one_bound(job, an, db, sh, e, x, "high", hi, d);
        if (st) return st;
        *r = (jc_sensitivity){.key = x->key, .label = x->label, .unit = x->unit, .low = x->value.low,
                              .central = x->value.central, .high = x->value.high, .co2_low = lo[0], .co2_high = hi[0], .kwh_low = lo[1],
                              .kwh_high = hi[1], .hours_low = lo[2], .hours_high = hi[2]};
    }
    /* a stable rank: insertion sort (a few dozen rows) keeps equal swings in order */
    for (size_t i = 1; i < n; i++) {
        jc_sensitivity t = rows[i];
        size_t j = i;
        while (j > 0 && by_swing(&rows[j - 1], &t) > 0) {
            rows[j] = rows[j - 1];
            j--;
        }
        rows[j] = t;
    }
    e->sensitivity = rows;
    e->n_sensitivity = n;
    return JC_OK;
}
