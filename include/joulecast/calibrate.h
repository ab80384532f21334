/*
 * calibrate.h (public API) - the calibrate flow (src/workflows/calibrate_run.c).
 * Part of the public API; include <joulecast.h>, which states the
 * conventions (errors, ownership, units) that hold here too.
 */
#ifndef JOULECAST_CALIBRATE_H
#define JOULECAST_CALIBRATE_H

#include "base.h"
#include "workflows.h"

/* named by pointer only here: their headers define them (C11 allows the
 * typedef twice), so a change to those headers does not rebuild the
 * files that include only this one */
typedef struct jc_analysis jc_analysis;
typedef struct jc_hwdb jc_hwdb;
typedef struct jc_trace jc_trace;
typedef struct jc_trace_opts jc_trace_opts;

JC_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* The calibrate flow (owner src/workflows/calibrate_run.c)            */
/* ------------------------------------------------------------------ */
/* What `joulecast calibrate` and jc_run_calibrate_json share: the
 * measurement source and its row, the row's device, then the fit, the
 * override layer written, loaded back and checked.  Front ends parse
 * options (and apply the row's job file, job_path, beneath their own)
 * and render a jc_calib_result (jc_report_calibrate_json). */

/* A calibration's measurement: the file read and the row chosen. */
typedef struct jc_calib_source {
    const char *path;               /* the measurement file (borrowed) */
    const jc_measurements *ms;      /* its rows */
    const jc_measurement *row;      /* the row chosen */
    const jc_trace *trace;          /* the power trace, or NULL for a CSV */
    char job_path[1024];            /* the row's job file beside the file; "" */
    char model_path[1024];          /* the row's model beside the file; "" */
    void *internal_;
} jc_calib_source;

/* Reads `path`: a power trace (format detected unless topts names one;
 * integrated with topts, NULL: defaults), which must measure the devices,
 * or a measurement CSV (jc_measurements_load); trace_opt says a trace
 * option was given (an error for a CSV: it would have no effect).  row is
 * the 1-based data row, NAN: the last.  *usage is set to 1 when the
 * failure is a misuse of the options (the CLI adds its usage hint), else
 * 0.  Errors: JC_ERR_USAGE, and those of jc_trace_detect/jc_trace_load/
 * jc_measurements_load.  On success *out owns everything
 * (jc_calib_source_free); path must outlive it. */
jc_status jc_calib_source_open(const char *path, const jc_trace_opts *topts, int trace_opt,
                               double row, jc_calib_source **out, int *usage, jc_diag *diag);
void jc_calib_source_free(jc_calib_source *s);

/* The device the row names (for a job that names no device or host),
 * checked against db; *device borrows from s.  Errors: JC_ERR_USAGE with
 * *usage = 1 (the row names none), the status of jc_hwdb_hardware (not
 * in db; the message names file:line). */
jc_status jc_calib_source_device(const jc_calib_source *s, const jc_hwdb *db, const char **device,
                                 int *usage, jc_diag *diag);

/* Opens the database with the written layers[0..n) on top of the
 * caller's layers (the CLI's cli_hwdb_open, the binding's hwdb keys):
 * the override layer, then the power layer when a trace's power fit
 * wrote one. */
typedef jc_status (*jc_calib_reopen_fn)(void *ctx, const char *const *layers, size_t n,
                                        jc_hwdb **db, jc_diag *diag);

/* The result of jc_calibrate_run. */
typedef struct jc_calib_result {
    const jc_calib_source *src;     /* borrowed */
    jc_calibration cal;             /* the fit, and the check before */
    jc_calib_check after;           /* the check with the written layer */
    char out_path[1024];            /* the layer written */
    char power_path[1024];          /* the power fit's constants layer written
                                       beside it (OUT.power.yaml: a layer file
                                       holds one kind of entry), or "" */
    char date[16];                  /* the date given, else today (UTC;
                                       SOURCE_DATE_EPOCH when set) */
} jc_calib_result;

/* jc_calibrate of src's row for `job` (model analysis an, database db);
 * for a trace, the device power fit too (res->cal.power; the energy per
 * FLOP solved again with the fitted idle power); the layer written to
 * out_path (jc_calibration_write_yaml, date NULL: today) and, when the
 * power fit gave coefficients, the power layer to res->power_path
 * (jc_calibration_write_power_yaml), reopened through reopen(ctx, layers,
 * n, ...) and the measured run predicted with them (jc_calibrate_check).  Errors: those of
 * jc_calibrate, JC_ERR_IO (out_path cannot be written; message names
 * it), those of reopen and jc_calibrate_check. */
jc_status jc_calibrate_run(const jc_job *job, const jc_analysis *an, const jc_hwdb *db,
                           const jc_calib_source *src, const char *out_path, const char *date,
                           jc_calib_reopen_fn reopen, void *ctx, jc_calib_result *res,
                           jc_diag *diag);

/* The result as JSON (schema joulecast-calibrate/1, docs/json-schemas.md;
 * unknown figures null), malloc'ed (jc_free), NULL on out-of-memory. */
char *jc_report_calibrate_json(const jc_calib_result *r);

/* calibrate's own options (src/workflows/calibrate_run.c), parsed once
 * for the CLI, job files and the binding: the measurement file, the layer
 * to write, the data row (NAN: the last), the date when the file has none.
 * Strings are borrowed. */
typedef struct jc_calibrate_opts {
    const char *measurements, *out, *date;
    double row;
} jc_calibrate_opts;

/* Nothing given (row NAN). */
void jc_calibrate_opts_init(jc_calibrate_opts *o);
/* Sets "measurements", "out", "date" (each a non-empty value) or "row" (a
 * whole number >= 1) from its text; the message starts with the key, the
 * caller says where it came from.  JC_ERR_NOTFOUND for another key,
 * JC_ERR_USAGE for a bad value. */
jc_status jc_calibrate_opts_set(jc_calibrate_opts *o, const char *key, const char *value, jc_diag *diag);
/* The rules before a calibration, for every front end: the measurements
 * and out are given; the job's "measured" (estimate's trace) is refused:
 * the trace is the measurement itself; the job's trace keys become *topts
 * (jc_trace_opts_from_job; *trace_opt 1 when one was given) and are
 * cleared from the job (jc_trace_job_clear), so the fit's estimates do not
 * read them.  JC_ERR_USAGE with the message. */
jc_status jc_calibrate_opts_check(const jc_calibrate_opts *o, jc_job *job, jc_trace_opts *topts, int *trace_opt,
                                  jc_diag *diag);

JC_END_DECLS
#endif /* JOULECAST_CALIBRATE_H */
