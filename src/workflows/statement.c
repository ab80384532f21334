/*
 * statement.c (workflows) - the estimate a carbon statement is of (issue 45):
 * the job as given with its sensitivity table on, so that the statement
 * (src/report/statement.c) names the assumption that dominates the
 * emissions' range; where the table cannot be made (estimate --sensitivity
 * refuses the job) the statement is made without it and names no driver.  The CLI's `statement` and the binding's call this one
 * function.
 */
#include "base/jc_internal.h"
#include "joulecast/estimate.h"
#include "joulecast/job.h"
#include "joulecast/workflows.h"

jc_status jc_statement_estimate(const jc_job *job, const jc_analysis *an, const jc_hwdb *db,
                                jc_estimate **out, jc_diag *diag)
{
    if (!job) return jci_diag_set(diag, JC_ERR_USAGE, "jc_statement_estimate: NULL job");
    jc_job j = *job;
    j.sensitivity = 1;
    jc_status st = jc_estimate_run(&j, an, db, out, diag);
    if (st == JC_OK || job->sensitivity) return st;
    /* the table cannot be made for this job (estimate --sensitivity says
     * why): the statement without its top driver, as the job asked */
    return jc_estimate_run(job, an, db, out, diag);
}
