/*
 * run.c (estimate) - the entry points of an estimate (jc_estimate_run, and
 * jci_estimate_run_shared for a grid's estimates): the estimate itself
 * (estimate.c, jci_estimate_core), then, with job.sensitivity, its
 * sensitivity table (sensitivity.c), which runs the estimate again.  A
 * file of its own so that no call cycle joins the two.
 */
#include "estimate/sensitivity.h"

jc_status jc_estimate_run(const jc_job *job, const jc_analysis *an,
                          const jc_hwdb *db, jc_estimate **out, jc_diag *d)
{
    return jci_estimate_run_shared(job, an, db, NULL, out, d);
}

jc_status jci_estimate_run_shared(const jc_job *job, const jc_analysis *an, const jc_hwdb *db,
                                  jci_est_share *sh, jc_estimate **out, jc_diag *d)
{
    jc_status st = jci_estimate_core(job, an, db, sh, out, d);
    if (st || !job->sensitivity) return st;
    if ((st = jci_sensitivity_run(job, an, db, sh, *out, d))) {
        jc_estimate_free(*out);
        *out = NULL;
    }
    return st;
}
