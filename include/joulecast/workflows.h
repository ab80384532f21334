/*
 * workflows.h (public API) - statement, CodeCarbon row, budget gate, diff and calibration records.
 * Part of the public API; include <joulecast.h>, which states the
 * conventions (errors, ownership, units) that hold here too.
 */
#ifndef JOULECAST_WORKFLOWS_H
#define JOULECAST_WORKFLOWS_H

#include "base.h"
#include "job.h"

/* named by pointer only here: their headers define them (C11 allows the
 * typedef twice), so a change to those headers does not rebuild the
 * files that include only this one */
typedef struct jc_analysis jc_analysis;
typedef struct jc_estimate jc_estimate;
typedef struct jc_hwdb jc_hwdb;
typedef struct jc_serving jc_serving;

JC_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* Workflows: paper statement, CodeCarbon row, budget gate, diff,      */
/* calibration (owners src/report/statement.c, src/report/codecarbon.c, */
/* src/workflows/budget.c, src/workflows/diff.c (the diff's reading)  */
/* and src/report/estimate_read.c (its text and JSON),                */
/* src/workflows/calibrate.c; the measurement CSV src/trace/measurements.c) */
/* ------------------------------------------------------------------ */

/* Formats of `joulecast statement`. */
typedef enum jc_statement_format {
    JC_STMT_MARKDOWN = 0,  /* a paragraph with numbered footnotes */
    JC_STMT_LATEX = 1,     /* the same paragraph with \footnote{...} */
    JC_STMT_HF = 2,        /* the Hugging Face model-card co2_eq_emissions block */
    JC_STMT_SENTENCE = 3   /* one Markdown sentence, no footnotes */
} jc_statement_format;

/* Parses statement's "format" option (src/workflows/cmd_opts.c), the one parse of --format
 * and the binding's key: markdown (md), latex (tex), hf, sentence, or all; *mask
 * receives 1 << each jc_statement_format named.  JC_ERR_USAGE ("format
 * expects markdown, latex, hf, sentence or all, got 'x'") otherwise. */
jc_status jc_statement_formats_parse(const char *s, unsigned *mask, jc_diag *diag);

/* What the statement says besides the estimate.  Every pointer is
 * borrowed for the call; NULL means "not given". */
typedef struct jc_statement_opts {
    const jc_hwdb *db;          /* the database the estimate used: gives the grid
                                   dataset's name and year (NULL: taken from the
                                   assumption's label only) */
    const char *reproduce;      /* command line or job file that reproduces it */
    const char *model;          /* the model file, or NULL */
    const char *training_type;  /* HF: "pre-training" (default) or "fine-tuning" */
    const char *location;       /* HF geographical_location; NULL: region name (code) */
} jc_statement_opts;

/* Writes a ready-to-paste carbon statement of an estimate: hardware and
 * device count, wall hours, facility energy (with its range), PUE, grid
 * intensity with dataset and year, location-based emissions with range,
 * method and joulecast version, and what reproduces it.  Every figure
 * carries its source (a footnote in Markdown and LaTeX; the HF block's
 * `source` names joulecast and the method).  C locale, deterministic.
 * Errors: JC_ERR_USAGE (NULL argument; JC_STMT_HF for an inference
 * estimate: the model-card block describes training; o->training_type or
 * o->location, the HF block's own fields, with another format; an empty
 * o->location), JC_ERR_IO (write failed). */
jc_status jc_report_statement(const jc_estimate *e, const jc_statement_opts *o,
                              jc_statement_format fmt, FILE *f, jc_diag *diag);

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

/* The estimate a statement is of (src/workflows/statement.c): job with its
 * sensitivity table on (issue 45: the statement names the assumption that
 * dominates the emissions' range), whatever job->sensitivity says; when
 * the table cannot be made and the job did not ask for it, the estimate
 * without it.  Errors and ownership: those of jc_estimate_run. */
jc_status jc_statement_estimate(const jc_job *job, const jc_analysis *an, const jc_hwdb *db,
                                jc_estimate **out, jc_diag *diag);

/* Extra columns of a CodeCarbon row (borrowed; NULL: empty/default). */
typedef struct jc_codecarbon_opts {
    const char *timestamp;      /* "YYYY-MM-DDTHH:MM:SS" (CodeCarbon's format) */
    const char *project_name;   /* NULL: "joulecast-prediction" */
    const char *run_id;
} jc_codecarbon_opts;

/* Writes the estimate as one row of CodeCarbon's emissions.csv schema
 * (31 columns, as written by codecarbon 2.4; header line first when
 * `header`).  Predicted columns: duration (s), emissions (kg),
 * emissions_rate, gpu_power/cpu_power (W, averages), gpu_energy/cpu_energy
 * (kWh, times PUE as CodeCarbon does), energy_consumed (facility kWh),
 * pue.  The host term of joulecast (CPUs, DRAM, fans, NICs) goes into the
 * cpu_* columns; ram_*, os, python_version, codecarbon_version, longitude,
 * latitude, ram_total_size stay empty (README "CodeCarbon format").
 * The country, its ISO alpha-3 code, the sub-national region and the
 * cloud provider come from e->region and e->region_country.
 * JC_ERR_IO if writing failed. */
jc_status jc_report_estimate_codecarbon(const jc_estimate *e,
                                        const jc_codecarbon_opts *o,
                                        FILE *f, int header);

/* An energy / emissions budget.  NAN: no budget on that quantity. */
typedef struct jc_budget {
    double max_kwh;        /* facility energy, kWh */
    double max_kgco2e;     /* location-based operational emissions, kg */
    int on_high;           /* 1: test the high end of the range, 0: central */
} jc_budget;

/* Checks an estimate against a budget.  JC_OK when within it;
 * JC_ERR_BUDGET when exceeded, with diag->msg naming every budget
 * exceeded, the figure, the limit and the excess (absolute and %);
 * JC_ERR_USAGE for a negative or non-finite limit. */
jc_status jc_budget_check(const jc_estimate *e, const jc_budget *b, jc_diag *diag);

/* The figures of an estimate read back from its JSON output (schema
 * joulecast-estimate/1).  Strings are copied (truncated to the buffer). */
#define JC_SUMMARY_METRICS 9
typedef struct jc_estimate_summary {
    char path[512];
    char mode[16], method[16], precision[16], device[128], host[128], region[128];
    char model[512];          /* model.path; "" without a model */
    char model_sha256[65];    /* model.sha256; "" when not recorded */
    char model_graph_sha256[65]; /* model.graph_sha256; "" when not recorded */
    char hwdb_version[64];    /* hwdb_version; "" when not recorded */
    char figures[16];         /* "estimate" or "lower bound" ("" in files
                                 written before the key existed) */
    double devices;
    /* metrics in a fixed order: wall_hours, device_hours,
     * energy_device_kwh, energy_host_kwh, energy_facility_kwh,
     * co2_location_kg, co2_market_kg, co2_embodied_kg, j_per_sample */
    int present[JC_SUMMARY_METRICS];      /* 0: null or absent in the file */
    jc_range metric[JC_SUMMARY_METRICS];
} jc_estimate_summary;

/* Key, label and unit of summary metric i (static strings, NULL when i is
 * out of range). */
const char *jc_summary_metric_key(int i);
const char *jc_summary_metric_label(int i);
const char *jc_summary_metric_unit(int i);

/* Reads an `estimate --json` file into *out.  Errors: JC_ERR_IO (cannot
 * read), JC_ERR_USAGE (not JSON, not schema joulecast-estimate/1, a
 * required figure missing or not a {low, central, high} object: the
 * message names the file and the key), JC_ERR_NOMEM. */
jc_status jc_read_estimate_json(const char *path, jc_estimate_summary *out,
                                jc_diag *diag);

/* One line of a diff. */
typedef struct jc_diff_row {
    const char *key, *label, *unit;
    int present_old, present_new;
    double old_v, new_v;       /* central (or high with on_high) */
    double change;             /* (new - old) / old; NAN when old is 0 or absent */
    int gated;                 /* counted by the gate (energy, emissions) */
    int exceeded;              /* gated and change > max_increase */
} jc_diff_row;

/* The comparison of two estimates. */
typedef struct jc_diff {
    const jc_estimate_summary *old_e, *new_e;   /* borrowed */
    double max_increase;       /* fraction (0.2 = 20%); NAN: no gate */
    int on_high;
    size_t n;
    jc_diff_row rows[JC_SUMMARY_METRICS];
    int exceeded;              /* any gated row exceeded */
    size_t n_changes;          /* settings that differ (device, region, ...) */
    char changes[12][300];
} jc_diff;

/* Compares two estimates metric by metric.  The gate covers facility
 * energy and location-based emissions.  Returns JC_OK (no gate, or within
 * it), JC_ERR_BUDGET (a gated figure rose by more than max_increase; the
 * table is filled all the same), JC_ERR_USAGE (NULL argument, negative
 * max_increase). */
jc_status jc_estimate_diff(const jc_estimate_summary *old_e,
                           const jc_estimate_summary *new_e,
                           double max_increase, int on_high, jc_diff *out,
                           jc_diag *diag);
/* Writes the diff as a text table / as JSON (docs/json-schemas.md "diff",
 * released with jc_free(), NULL on out-of-memory).  JC_ERR_IO if writing failed. */
jc_status jc_report_diff_text(const jc_diff *df, FILE *f);
char *jc_report_diff_json(const jc_diff *df);

/* One measured run (a row of a measurement file).  Numbers are NAN when
 * the file does not give them; strings are "" when absent. */
typedef struct jc_measurement {
    int line;                  /* 1-based line in the file */
    char date[11];             /* YYYY-MM-DD of the run, or "" */
    double duration_s;         /* wall-clock seconds */
    double device_kwh;         /* accelerators' energy, IT side (no PUE) */
    double cpu_kwh, ram_kwh;   /* CodeCarbon cpu/ram energy, IT side */
    double total_kwh;          /* everything measured, IT side */
    double pue;                /* the PUE the tool applied (CodeCarbon), else NAN */
    double avg_power_w;        /* average power per device (simple CSV) */
    double devices;            /* device count */
    char device[160];          /* device name as written ("N x " removed) */
    char job[512], model[512]; /* simple CSV: job file / model (as written) */
} jc_measurement;

/* A measurement file. */
typedef struct jc_measurements {
    const char *path;
    const char *format;        /* "codecarbon" or "simple"; a trace's
                                  format name (jc_trace_format_name) when
                                  built by jc_trace_measurements */
    const char *detail;        /* NULL, or (a trace) what the override file
                                  names instead of "line N": format, time
                                  window and samples */
    size_t n;
    jc_measurement *rows;      /* in file order */
    void *internal_;
} jc_measurements;

/* Reads a measurement CSV: CodeCarbon's emissions.csv (any version whose
 * header has `duration` and `energy_consumed`; every energy column is
 * divided by the row's `pue`, which CodeCarbon multiplies in) or the simple
 * form with a header of some of job, model, device, count, hours,
 * device_kwh, avg_watts, date (device_kwh, or avg_watts with hours, gives
 * the energy).  RFC 4180 quoting.  Errors name file:line: JC_ERR_IO,
 * JC_ERR_USAGE (unknown header, a malformed number, no data row),
 * JC_ERR_NOMEM.  On success *out owns everything (jc_measurements_free). */
jc_status jc_measurements_load(const char *path, jc_measurements **out,
                               jc_diag *diag);
void jc_measurements_free(jc_measurements *m);

/* A prediction set beside a measurement. */
typedef struct jc_calib_check {
    double hours;              /* predicted wall hours (roofline, central) */
    double device_kwh;         /* predicted device energy, roofline */
    double device_kwh_jpo;     /* the same, joules-per-op method; NAN when
                                  the device has no energy per FLOP */
    double err_hours, err_kwh, err_kwh_jpo;  /* (pred - meas) / meas; NAN: n/a */
} jc_calib_check;

/* The device power model fitted to a power trace's samples (calibrate
 * TRACE; docs/traces.md "Power fit"): power against utilisation by least
 * squares, P = idle + (TDP - idle)(1 - exp(-(k_c u + k_m um))) with u, um
 * the trace's utilisation columns (nvidia-smi utilization.gpu / .memory,
 * dcgmi GPUTL / DRAMA or MCPY), TDP the database's, the idle power the mean
 * of the samples at 0 % utilisation; the coefficients are then put on the
 * model's scale (u_c = achieved FLOP/s / peak, u_m = bytes/s / bandwidth)
 * by matching the exponent at the run's mean operating point. */
typedef struct jc_power_fit {
    int attempted;            /* the measurement was a trace of the devices */
    int fitted;               /* k_c fitted (and written) */
    size_t samples, idle_samples, mem_samples;  /* with a utilisation; at 0 %; with um */
    double tdp_w;             /* the database's TDP used as the ceiling, W */
    int fit_idle;
    double idle_before, idle_after;     /* W per device */
    int fit_km;
    double kc_trace, km_trace;          /* on the trace's utilisation scale */
    double kc_trace_se, km_trace_se;    /* their standard errors (linearised) */
    double kc_before, kc_after;         /* on the model's scale (hwdb ids below) */
    double km_before, km_after;         /* km_after = km_before when not fitted */
    double u_mean, um_mean;             /* the trace's mean utilisations over the active window */
    double uc_run, um_run;              /* the run's FLOP/s / peak, bytes/s / bandwidth over it */
    double rms_w, rms_before_w;         /* fit residual (RMS of sample - model, W): fitted, database's */
    const char *kc_id, *km_id;          /* "power_k_compute_gpu", ... (static) */
    char note[300];           /* why nothing was fitted ("" when fitted) */
    char idle_note[200];      /* why the idle power was not fitted */
    char km_note[300];        /* why k_m was not fitted */
    const char *pj_byte_note; /* why the energy per byte is not fitted (static; set
                                 whenever attempted) */
    char detail[400];         /* trace, format, window, samples and residual (the layer's measured:) */
} jc_power_fit;

/* The result of a calibration. */
typedef struct jc_calibration {
    char device_id[128];
    jc_mode mode;
    jc_precision precision;
    double devices;
    double meas_hours, meas_device_kwh;   /* NAN when not measured */
    int fit_util;                         /* utilisation fitted */
    double util_before, util_after;       /* util_before: hwdb central; NAN when
                                             the hwdb has none (a graph: the runtime
                                             profile sets it; n/a, null in JSON) */
    double util_low, util_high;           /* the range written: the hwdb's
                                             relative spread around util_after,
                                             capped at 1 */
    char util_from[16];                   /* "duration" or "energy" */
    int fit_pj;                           /* energy per FLOP fitted */
    double pj_before, pj_after;           /* pJ/FLOP at `precision` */
    char pj_note[300];                    /* why energy per FLOP was not fitted */
    jc_calib_check before;                /* with the database as loaded */
    jc_power_fit power;                   /* a trace's power fit (jc_calibrate_run) */
} jc_calibration;

/* Fits the effective utilisation (MFU) of the job's device and mode to a
 * measured run: from its duration when measured (the roofline's wall time
 * is matched), else from its device energy (the roofline's device energy
 * is matched).  With both duration and device energy, also fits the
 * device's energy per FLOP at the job's precision (the joules-per-op
 * method's device energy is matched at the fitted utilisation).  `job`
 * describes the measured run (model analysis `an`, or --flops etc.); its
 * utilisation must not be given.  Errors: JC_ERR_USAGE (nothing to fit
 * from, --utilization given), JC_ERR_RANGE (no utilisation in (0, 1]
 * reproduces the measurement: the message says which way), and every
 * error of jc_estimate_run. */
jc_status jc_calibrate(const jc_job *job, const jc_analysis *an,
                       const jc_hwdb *db, const jc_measurement *m,
                       jc_calibration *out, jc_diag *diag);

/* Predicts the measured run with `db` (for the before/after table). */
jc_status jc_calibrate_check(const jc_job *job, const jc_analysis *an,
                             const jc_hwdb *db, const jc_measurement *m,
                             jc_calib_check *out, jc_diag *diag);

/* Writes the fitted values as an hwdb override layer (schema
 * joulecast-hwdb/1): the device entry with utilization.<mode> and
 * energy.pj_per_flop.<precision>, each `measured:` with the measurement
 * file, its row and the date; the source's date is the run's date, else
 * `date` (YYYY-MM-DD).  JC_ERR_USAGE without a date; JC_ERR_IO if writing
 * failed. */
/* Writes a trace's fitted power coefficients (c->power, fitted) as a
 * layer of constants (power_k_compute_*, power_k_memory_* when fitted),
 * each `measured:` with the trace, format, window, samples and residual.
 * JC_ERR_USAGE when nothing was fitted or without a date; JC_ERR_IO if
 * writing failed. */
jc_status jc_calibration_write_power_yaml(const jc_calibration *c, const char *date, FILE *f,
                                          jc_diag *diag);

jc_status jc_calibration_write_yaml(const jc_calibration *c,
                                    const jc_measurements *ms,
                                    const jc_measurement *m,
                                    const char *date, FILE *f, jc_diag *diag);

JC_END_DECLS
#endif /* JOULECAST_WORKFLOWS_H */
