/*
 * sweep_opts.h (workflows) - the sweep and compare commands' own options
 * (axes, grid cap, sort, serving sweep), parsed once for every front end by
 * src/workflows/sweep_opts.c: the CLI and the bindings set them from
 * key/value text.  Apart from cmd_opts.h so that a file using the other
 * commands' options does not read the sweep's public header.  Internal.
 */
#ifndef JCI_SWEEP_OPTS_H
#define JCI_SWEEP_OPTS_H

#include "workflows/cmd_opts.h"
#include "joulecast/job.h"
#include "joulecast/serving.h"
#include "joulecast/sweep.h"

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

#endif /* JCI_SWEEP_OPTS_H */
