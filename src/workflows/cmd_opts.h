/*
 * cmd_opts.h (workflows) - a command's own options, parsed once for every
 * front end (src/workflows/cmd_opts.c, sweep_opts.c): the CLI (src/cli/)
 * and the bindings (src/bind/) set them from key/value text and apply the
 * rules between them here.  Internal (jci_): not part of the public API.
 * The sweep and compare options: src/workflows/sweep_opts.h.
 */
#ifndef JCI_CMD_OPTS_H
#define JCI_CMD_OPTS_H

#include "joulecast/hwdb.h"

/* One option of a command beyond the job's keys: its name (the long
 * option without dashes, a job-file key, a binding key), its argument
 * (NULL: a flag), the --help line, output 1 where it shapes the output
 * only (the command line takes it; a job file's is ignored), and
 * argument 1 where the command line takes it as an argument rather than
 * --name (hw show ID, calibrate MEASUREMENTS.csv). */
typedef struct jci_cmd_key {
    const char *name, *arg, *help;
    int output;
    int argument;
} jci_cmd_key;

/* The own options of `command` that the library parses, in --help order:
 * those of "sweep" (jci_sweep_opt_keys), "statement" (jci_statement_keys_set),
 * "calibrate" (jc_calibrate_opts_set), "hw" and "region"
 * (jci_lookup_opts_set).  Static rows; NULL and *n 0 for another command. */
const jci_cmd_key *jci_command_opt_keys(const char *command, size_t *n);

/* `joulecast statement`'s own options: the formats asked for (1 <<
 * jc_statement_format each; 0: none given), the HF block's training type
 * and location (borrowed; NULL: not given). */
typedef struct jci_statement_keys {
    unsigned formats;
    const char *training_type, *location;
} jci_statement_keys;
/* Sets "format" (adds its formats, jc_statement_formats_parse),
 * "training-type" or "location" (non-empty) from its text; the message
 * starts with the key.  JC_ERR_NOTFOUND for another key, JC_ERR_USAGE for
 * a bad value.  Zero o before the first call. */
jc_status jci_statement_keys_set(jci_statement_keys *o, const char *key, const char *value, jc_diag *diag);

/* The options of `joulecast hw` (show, kind, vendor, form-factor, year)
 * and `region` (show, provider, type), borrowed; NULL: not given. */
typedef struct jci_lookup_opts {
    const char *show, *kind, *vendor, *form_factor, *year;
    const char *provider, *type;
} jci_lookup_opts;
/* Sets option `key` of `command` ("hw" or "region") from its text (year
 * checked as jc_hw_filter_years reads it).  JC_ERR_NOTFOUND for a key
 * the command does not take, JC_ERR_USAGE for a bad value.  Zero o before
 * the first call. */
jc_status jci_lookup_opts_set(jci_lookup_opts *o, const char *command, const char *key, const char *value,
                             jc_diag *diag);
/* The rules between them, for every front end: a filter of the list with
 * show (one entry) is refused; hw's filter into *f (zeroed for region,
 * whose filters are o->provider and o->type).  JC_ERR_USAGE. */
jc_status jci_lookup_opts_check(const jci_lookup_opts *o, const char *command, jc_hw_filter *f, jc_diag *diag);

#endif /* JCI_CMD_OPTS_H */
