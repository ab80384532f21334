/*
 * options.h (public API) - a command's own options, parsed once (src/workflows/).
 * Part of the public API; include <joulecast.h>, which states the
 * conventions (errors, ownership, units) that hold here too.
 */
#ifndef JOULECAST_OPTIONS_H
#define JOULECAST_OPTIONS_H

#include "base.h"
#include "hwdb.h"
#include "job.h"
#include "workflows.h"
#include "sweep.h"
#include "serving.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__) && !defined(JC_NO_VISIBILITY)
#pragma GCC visibility push(default)
#endif

/* ---- a command's own options, parsed once (src/workflows/sweep_opts.c,
 * src/workflows/cmd_opts.c) ---- */

/* One option of a command beyond the job's keys: its name (the long
 * option without dashes, a job-file key, a binding key), its argument
 * (NULL: a flag), the --help line, output 1 where it shapes the output
 * only (the command line takes it; a job file's is ignored), and
 * argument 1 where the command line takes it as an argument rather than
 * --name (hw show ID, calibrate MEASUREMENTS.csv). */
typedef struct jc_cmd_key {
    const char *name, *arg, *help;
    int output;
    int argument;
} jc_cmd_key;

/* The own options of `command` that the library parses, in --help order:
 * those of "sweep" (jc_sweep_opt_keys), "statement" (jc_statement_keys_set),
 * "calibrate" (jc_calibrate_opts_set), "hw" and "region"
 * (jc_lookup_opts_set).  Static rows; NULL and *n 0 for another command. */
const jc_cmd_key *jc_command_opt_keys(const char *command, size_t *n);

/* `joulecast statement`'s own options: the formats asked for (1 <<
 * jc_statement_format each; 0: none given), the HF block's training type
 * and location (borrowed; NULL: not given). */
typedef struct jc_statement_keys {
    unsigned formats;
    const char *training_type, *location;
} jc_statement_keys;
/* Sets "format" (adds its formats, jc_statement_formats_parse),
 * "training-type" or "location" (non-empty) from its text; the message
 * starts with the key.  JC_ERR_NOTFOUND for another key, JC_ERR_USAGE for
 * a bad value.  Zero o before the first call. */
jc_status jc_statement_keys_set(jc_statement_keys *o, const char *key, const char *value, jc_diag *diag);

/* The options of `joulecast hw` (show, kind, vendor, form-factor, year)
 * and `region` (show, provider, type), borrowed; NULL: not given. */
typedef struct jc_lookup_opts {
    const char *show, *kind, *vendor, *form_factor, *year;
    const char *provider, *type;
} jc_lookup_opts;
/* Sets option `key` of `command` ("hw" or "region") from its text (year
 * checked as jc_hw_filter_years reads it).  JC_ERR_NOTFOUND for a key
 * the command does not take, JC_ERR_USAGE for a bad value.  Zero o before
 * the first call. */
jc_status jc_lookup_opts_set(jc_lookup_opts *o, const char *command, const char *key, const char *value,
                             jc_diag *diag);
/* The rules between them, for every front end: a filter of the list with
 * show (one entry) is refused; hw's filter into *f (zeroed for region,
 * whose filters are o->provider and o->type).  JC_ERR_USAGE. */
jc_status jc_lookup_opts_check(const jc_lookup_opts *o, const char *command, jc_hw_filter *f, jc_diag *diag);

/* One comma-list axis as given: items (trimmed), and for a numeric axis
 * each item's value (NAN for a name axis). */
typedef struct jc_sweep_axis {
    const char **items;
    double *values;
    size_t n;
} jc_sweep_axis;

/* The options of `joulecast sweep` beyond the job's: the axes of the
 * model grid and of the serving grid (--generate), the latency targets
 * (NAN: none), the ranking and --top.  Each key given twice appends. */
typedef struct jc_sweep_opts {
    jc_sweep_axis devices, regions, batches, precisions;
    jc_sweep_axis counts, tps, concurrencies, weights;   /* --generate */
    double max_itl_s, max_ttft_s;
    jc_sweep_sort sort;
    int64_t top;
    int top_given;
    double max_points;   /* 0: the default cap (jc_sweep_spec.max_points) */
    void *internal_;
} jc_sweep_opts;

/* The keys jc_sweep_opts_set takes, in --help order (static; *n the
 * count). */
const jc_cmd_key *jc_sweep_opt_keys(size_t *n);

/* Prepares o (nothing given); release with jc_sweep_opts_release.
 * JC_ERR_NOMEM. */
jc_status jc_sweep_opts_init(jc_sweep_opts *o, jc_diag *diag);
void jc_sweep_opts_release(jc_sweep_opts *o);

/* Sets sweep option `key` from its text, the one parse the CLI, job files
 * and the binding share: a comma list appended to its axis (an empty item
 * refused; --batches items as jc_sweep_batches_parse, --counts / --tps /
 * --concurrencies as jc_serving_axis_parse), a duration
 * (jc_serving_latency_parse), a sort key, a row count >= 0.  The message
 * starts with the key ("sort expects emissions, energy or time, got
 * 'x'"); the caller says where it came from.  JC_ERR_NOTFOUND for a key
 * that is not sweep's, JC_ERR_RANGE for a batch above its limit,
 * JC_ERR_USAGE otherwise. */
jc_status jc_sweep_opts_set(jc_sweep_opts *o, const char *key, const char *value, jc_diag *diag);

/* What jc_sweep_spec_from_opts resolves: the model grid (jc_sweep_run) or,
 * generation set, the serving grid (jc_serving_sweep_run); pointers into
 * the options. */
typedef struct jc_sweep_plan {
    int generation;
    jc_sweep_spec spec;
    jc_serving_sweep_spec serving;
} jc_sweep_plan;

/* The rules between sweep's options, the job and the output, applied
 * once for every front end: --top with a machine output (machine: JSON
 * or CSV) and no HTML (html) is refused; in generation mode the model
 * grid's axes and HTML are refused and --device with --devices; outside
 * it the serving grid's options are refused, then the grid is resolved
 * (jc_sweep_spec_resolve) and the job's batch checked (jc_batch_check).
 * JC_ERR_USAGE or JC_ERR_RANGE with the message. */
jc_status jc_sweep_spec_from_opts(const jc_sweep_opts *o, const jc_job *job, int machine, int html,
                                  jc_sweep_plan *plan, jc_diag *diag);
/* Text (top: rows of the ranked table, 0 for all), JSON (malloc'ed; NULL on
 * out-of-memory) and CSV of a serving sweep. */
jc_status jc_report_serving_sweep_text(const jc_serving_sweep *s, size_t top, FILE *f);
char *jc_report_serving_sweep_json(const jc_serving_sweep *s);
jc_status jc_report_serving_sweep_csv(const jc_serving_sweep *s, FILE *f);

/* Reports: the estimate's figures plus the serving section. */
jc_status jc_report_serving_text(const jc_serving *s, FILE *f);
char *jc_report_serving_json(const jc_serving *s);
jc_status jc_report_serving_csv(const jc_serving *s, FILE *f, int header);
/* The serving page (src/report/html/serving.c): the serving figures
 * (TTFT, ITL, tokens/s, J per output token and per request with the
 * prefill share, power per device by phase, memory and what bounds the
 * running sequences, one decode step per node when s has nodes), then the
 * workload's energy, emissions and assumptions as the estimate page shows
 * them.  Every figure's data-key is its path in jc_report_serving_json.
 * Errors: JC_ERR_USAGE (NULL argument), JC_ERR_NOMEM, JC_ERR_IO. */
jc_status jc_report_serving_html(const jc_serving *s, FILE *f);
/* The carbon statement of a serving estimate (src/report/statement.c):
 * model, workload (requests, prompt and output tokens), hardware and
 * parallelism, serving time, facility energy with its range, J per output
 * token (facility and devices), J per request with the prefill share,
 * PUE, grid intensity with dataset and year, emissions, joulecast and
 * hwdb versions and what reproduces it, every figure with its source in
 * a footnote; o as jc_report_statement (o->model: the config shown, NULL:
 * s->model).  Errors: JC_ERR_USAGE (NULL argument; JC_STMT_HF: the
 * model-card block describes training), JC_ERR_IO (write failed). */
jc_status jc_report_serving_statement(const jc_serving *s, const jc_statement_opts *o,
                                      jc_statement_format fmt, FILE *f, jc_diag *diag);

#if defined(__GNUC__) && !defined(JC_NO_VISIBILITY)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif /* JOULECAST_OPTIONS_H */
