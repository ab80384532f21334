/*
 * lookup.h (cli) - the command line of `joulecast hw` and `region` (list or
 * show one entry of the hardware database), shared by src/cli/cmd_hw.c
 * and cmd_region.c: the subcommand, the library's options
 * (jci_command_opt_keys, jci_lookup_opts_set, jci_lookup_opts_check),
 * --json and --hwdb layers, then the database.  src/cli/lookup.c.
 */
#ifndef JCI_CLI_LOOKUP_H
#define JCI_CLI_LOOKUP_H

#include "cli/cli.h"
#include "joulecast/hwdb.h"
#include "workflows/cmd_opts.h"

/* What `list` or `show` does once the options are checked and the
 * database open: flt is hw's filter (zero for region); json: --json.
 * Returns the exit code (errors printed). */
typedef int (*lookup_fn)(const jc_hwdb *db, const jci_lookup_opts *o, const jc_hw_filter *flt, int json);

/* Parses `joulecast CMD list|show [ARG] [options]` (argv[0] is CMD) and
 * runs list or show.  Returns the exit code. */
int lookup_run(const char *cmd, int argc, char **argv, lookup_fn list, lookup_fn show);

/* The option rows of CMD's --help: the library's, --json, --hwdb. */
void lookup_help(FILE *f, const char *cmd);

#endif
