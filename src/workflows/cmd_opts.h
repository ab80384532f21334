/*
 * cmd_opts.h (workflows) - a command's own options, parsed once for every
 * front end (src/workflows/cmd_opts.c, sweep_opts.c): the CLI (src/cli/)
 * and the bindings (src/bind/) set them from key/value text and apply the
 * rules between them here.  Internal (jci_): not part of the public API.
 */
#ifndef JCI_CMD_OPTS_H
#define JCI_CMD_OPTS_H

#include "joulecast/hwdb.h"
#include "joulecast/job.h"
#include "joulecast/workflows.h"
#include "joulecast/sweep.h"
#include "joulecast/serving.h"

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

/* One comma-list axis as given: items (trimmed), and for a numeric axis
 * each item's value (NAN for a name axis). */
typedef struct jci_sweep_axis {
    const char **items;
    double *values;
    size_t n;
} jci_sweep_axis;

/* The options of `joulecast sweep` beyond the job's: the axes of the
 * model grid and of the serving grid (--generate), the latency targets
 * (NAN: none), the ranking and --top.  Each key given twice appends. */
typedef struct jci_sweep_opts {
    jci_sweep_axis devices, regions, batches, precisions;
    jci_sweep_axis counts, tps, concurrencies, weights;   /* --generate */
    double max_itl_s, max_ttft_s;
    jc_sweep_sort sort;
    int64_t top;
    int top_given;
    double max_points;   /* 0: the default cap (jc_sweep_spec.max_points) */
    void *internal_;
} jci_sweep_opts;

/* The keys jci_sweep_opts_set takes, in --help order (static; *n the
 * count). */
const jci_cmd_key *jci_sweep_opt_keys(size_t *n);

/* Prepares o (nothing given); release with jci_sweep_opts_release.
 * JC_ERR_NOMEM. */
jc_status jci_sweep_opts_init(jci_sweep_opts *o, jc_diag *diag);
void jci_sweep_opts_release(jci_sweep_opts *o);

/* Sets sweep option `key` from its text, the one parse the CLI, job files
 * and the binding share: a comma list appended to its axis (an empty item
 * refused; --batches items as jc_sweep_batches_parse, --counts / --tps /
 * --concurrencies as jc_serving_axis_parse), a duration
 * (jc_serving_latency_parse), a sort key, a row count >= 0.  The message
 * starts with the key ("sort expects emissions, energy or time, got
 * 'x'"); the caller says where it came from.  JC_ERR_NOTFOUND for a key
 * that is not sweep's, JC_ERR_RANGE for a batch above its limit,
 * JC_ERR_USAGE otherwise. */
jc_status jci_sweep_opts_set(jci_sweep_opts *o, const char *key, const char *value, jc_diag *diag);

/* What jci_sweep_spec_from_opts resolves: the model grid (jc_sweep_run) or,
 * generation set, the serving grid (jc_serving_sweep_run); pointers into
 * the options. */
typedef struct jci_sweep_plan {
    int generation;
    jc_sweep_spec spec;
    jc_serving_sweep_spec serving;
} jci_sweep_plan;

/* The rules between sweep's options, the job and the output, applied
 * once for every front end: --top with a machine output (machine: JSON
 * or CSV) and no HTML (html) is refused; in generation mode the model
 * grid's axes and HTML are refused and --device with --devices; outside
 * it the serving grid's options are refused, then the grid is resolved
 * (jc_sweep_spec_resolve) and the job's batch checked (jc_batch_check).
 * JC_ERR_USAGE or JC_ERR_RANGE with the message. */
jc_status jci_sweep_spec_from_opts(const jci_sweep_opts *o, const jc_job *job, int machine, int html,
                                  jci_sweep_plan *plan, jc_diag *diag);

#endif /* JCI_CMD_OPTS_H */
