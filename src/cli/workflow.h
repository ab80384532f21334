/*
 * workflow.h - what the workflow commands (`statement`, `calibrate`,
 * `diff`, and estimate's --format codecarbon / budget rows) share: the
 * reproducing command line, a
 * reproducible timestamp and percentage parsing.  src/cli/workflow.c.
 */
#ifndef JC_CLI_WORKFLOW_H
#define JC_CLI_WORKFLOW_H

#include "cli/jobopts.h"

/* Writes "joulecast estimate ARG..." into buf: argv[1..argc) minus the
 * options named in skip (NULL-terminated long names without dashes, each
 * taking a value) and minus `skip_pos` (a positional argument to drop, or
 * NULL), each argument shell-quoted when needed.  Truncates to cap. */
void wf_reproduce(char *buf, size_t cap, int argc, char **argv,
                  const char *const *skip, const char *skip_pos);

/* "YYYY-MM-DDTHH:MM:SS" in UTC: $SOURCE_DATE_EPOCH when set (reproducible
 * output), else now.  date_only: "YYYY-MM-DD". */
void wf_timestamp(char *buf, size_t cap, int date_only);

/* "20%" -> 0.2.  false unless a finite number >= 0 followed by '%'. */
bool wf_parse_percent(const char *s, double *frac);

#endif
