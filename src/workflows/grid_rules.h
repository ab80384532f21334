/*
 * grid_rules.h (workflows) - rules the many-estimate workflows (`sweep`,
 * `sweep --generate`, `compare`) share, so that none prints a table that
 * silently drops what the job asked for: job keys whose result the
 * workflow's table has no column for, and a grid whose every point failed
 * for one and the same reason (a job error, not a table of skips).
 * Internal to the library (src/workflows/grid_rules.c).  `name` is the
 * workflow as its messages name it ("sweep", "sweep --generate",
 * "compare"); they begin "name: " but compare's (the CLI prefixes those).
 */
#ifndef JCI_WORKFLOWS_GRID_RULES_H
#define JCI_WORKFLOWS_GRID_RULES_H

#include "joulecast/hwdb.h"
#include "joulecast/sweep.h"

#include <stddef.h>

/* Refuses a key of job that the workflow `name` ("sweep", "compare")
 * computes but does not show (--embodied, --lifetime, --per-node,
 * --tokens-per-request):
 * JC_ERR_USAGE naming the key and what to run instead; JC_OK otherwise. */
jc_status jci_grid_job_check(const jc_job *job, const char *name, jc_diag *d);

/* Refuses a job that describes one measured run (--measured, --hours,
 * --device-hours; with_power: --avg-power too, a measured power of one
 * device) where the workflow would repeat it over `varies` ("device",
 * "model", ...; NULL: nothing varies, JC_OK): every point would get the
 * run's time and energy.  JC_ERR_USAGE naming the key, what varies and
 * `fix`. */
jc_status jci_grid_runtime_check(const jc_job *job, const char *name, const char *varies, int with_power,
                                 const char *fix, jc_diag *d);

/* The failures of a grid's points, as they come. */
typedef struct jci_grid_fails {
    size_t n;          /* points that failed */
    int differs;       /* 1: two of them failed with different messages */
    jc_diag first;     /* the first failure */
} jci_grid_fails;

/* Counts one failed point (d: its diagnostic). */
void jci_grid_fail(jci_grid_fails *f, const jc_diag *d);

/* A grid with no point estimated (n_ok 0) is refused, not printed as a
 * table of skipped entries: when its n_skipped skips are all failures
 * counted in f with one and the same message (a job error), with that
 * failure's status and "name: every point of the grid: MSG"; otherwise
 * with the first failure's status (none: JC_ERR_NOTFOUND, what the
 * database lacks, as estimate refuses it) and the first skip's reason.
 * JC_OK when a point was estimated (the skips stay entries). */
jc_status jci_grid_fails_check(const jci_grid_fails *f, size_t n_ok, size_t n_skipped, const char *first_reason,
                               const char *name, jc_diag *d);

/* 1 when r is a cloud region whose provider sells no instance with dev
 * (as its accelerator or its CPU, matched by id: a VM's vCPU slice is its
 * CPU) or, given a cloud-instance host, when the host is another
 * provider's; 0 for any other region (a country or grid zone: hardware
 * of one's own), a provider that sells it, or a NULL dev and host.  The
 * one rule of availability for sweep and compare (issue 42). */
int jci_grid_unsold(const jc_hwdb *db, const jc_device *dev, const jc_host *host, const jc_region *r);

#endif
