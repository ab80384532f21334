/*
 * run.c (estimate) - the entry points of an estimate (jc_estimate_run, and
 * jci_estimate_run_shared for a grid's estimates): the estimate itself
 * (estimate.c, jci_estimate_core), then, with job.sensitivity or
 * job.draws, its sensitivity table (sensitivity.c), which runs the
 * estimate again, and with job.draws the Monte Carlo percentiles over it
 * (montecarlo.c).  A
 * file of its own so that no call cycle joins the two.
 */
#include "estimate/sensitivity.h"
#include "estimate/montecarlo.h"

#include <math.h>

jc_status jc_estimate_run(const jc_job *job, const jc_analysis *an,
                          const jc_hwdb *db, jc_estimate **out, jc_diag *d)
{
    return jci_estimate_run_shared(job, an, db, NULL, out, d);
}

jc_status jci_estimate_run_shared(const jc_job *job, const jc_analysis *an, const jc_hwdb *db,
                                  jci_est_share *sh, jc_estimate **out, jc_diag *d)
{
    if (job && !isnan(job->seed) && isnan(job->draws))
        return jci_diag_set(d, JC_ERR_USAGE, "estimate: --seed has no effect without --draws");
    int more = job && (job->sensitivity || !isnan(job->draws));
    /* the sensitivity's runs share the kernel plans of the estimate's own
     * (a grid's share when the caller has one) */
    jci_est_share *own = more && !sh && an ? jci_est_share_new(an) : NULL;
    if (own) sh = own;
    jc_status st = jci_estimate_core(job, an, db, sh, 0, out, d);
    if (!st && more) {
        st = jci_sensitivity_run(job, an, db, sh, *out, d);
        if (!st && !isnan(job->draws)) st = jci_montecarlo_run(job, *out, d);
        if (st) {
            jc_estimate_free(*out);
            *out = NULL;
        }
    }
    jci_est_share_free(own);
    return st;
}
