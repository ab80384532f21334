/*
 * sensitivity.h (estimate) - which assumption moves the result most
 * (sensitivity.c, issue 45): every ranged assumption of an estimate moved
 * alone from its low to its high, the others central, ranked.
 */
#ifndef JCI_SENSITIVITY_H
#define JCI_SENSITIVITY_H

#include "base/jc_internal.h"
#include "joulecast/analysis.h"
#include "joulecast/hwdb.h"
#include "joulecast/job.h"
#include "joulecast/estimate.h"

/* The estimate itself (estimate.c): jc_estimate_run without the
 * sensitivity table (job->sensitivity is not read).  central_only: only
 * the central scenario is computed and every range is its central figure
 * (the central figures are the same bits as a full run's: the scenarios
 * are independent), no equivalences are listed and no hwdb citation is
 * formatted (such a run's assumption sources are empty: its figures alone
 * are read).  The contract of jci_estimate_run_shared
 * (base/jc_internal.h) otherwise. */
jc_status jci_estimate_core(const jc_job *job, const jc_analysis *an, const jc_hwdb *db,
                            jci_est_share *sh, int central_only, jc_estimate **out, jc_diag *d);

/* Fills e->sensitivity (n_sensitivity rows, in arena a: e's own) from
 * two runs per ranged assumption of e (one key once: its first record)
 * of the same job, analysis and database with --pin KEY=low and
 * KEY=high added to the job's own pins and the sensitivity flag off;
 * sh (may be NULL) is the kernel plans' share; the rows live in e's
 * arena.  Rows ranked by the
 * swing of the central location-based emissions, then of the facility
 * energy, then of the wall time, largest first; equal swings keep the
 * assumptions' order.  Errors: JC_ERR_NOMEM, and any error of a run
 * (the message names the assumption and the bound). */
jc_status jci_sensitivity_run(const jc_job *job, const jc_analysis *an, const jc_hwdb *db, jci_est_share *sh,
                              jc_estimate *e, jc_diag *d);

/* The central emissions, facility energy and wall time (out[3]) of e's
 * job with the account input key ("pue", "grid.ci", or "host.power_w"
 * where the host energy is the model's: not a measured run, not a VM)
 * set to v, by rerunning e's own account with that input alone changed:
 * the same bits as the full run with --pin KEY=v (those inputs enter the
 * estimate only in the account).  1 when done; 0 when key is not one of
 * them, e kept no account, or a figure is past plausible (then the full
 * run says why). */
int jci_estimate_pinned_account(const jc_estimate *e, const char *key, double v, double out[3]);

/* The arena e's strings and arrays live in (estimate.c). */
jci_arena *jci_estimate_arena(const jc_estimate *e);

#endif /* JCI_SENSITIVITY_H */
