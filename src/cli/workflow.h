/*
 * workflow.h (cli) - what the workflow commands (`statement`, `calibrate`,
 * `diff`, and estimate's --format codecarbon / budget rows) share: the
 * reproducing command line and percentage parsing (the reproducible
 * timestamp is the library's jc_utc_timestamp).  src/cli/workflow.c.
 */
#ifndef JCI_CLI_WORKFLOW_H
#define JCI_CLI_WORKFLOW_H

#include "cli/jobopts.h"

/* "joulecast estimate ARG...": argv[1..argc) minus the options named in
 * skip (NULL-terminated long names without dashes, each taking a value)
 * and minus `skip_pos` (a positional argument to drop, or NULL), each
 * argument shell-quoted when needed (jc_shell_arg_put), as long as it
 * takes: a malloc'd string the caller frees, NULL when out of memory. */
char *wf_reproduce(int argc, char **argv, const char *const *skip, const char *skip_pos);

/* "20%" -> 0.2.  false unless a finite number >= 0 followed by '%'. */
bool wf_parse_percent(const char *s, double *frac);

#endif
