/*
 * trace_int.h (trace) - what the trace readers (src/trace/trace_formats.c,
 * trace_json.c) and the streaming integrator (src/trace/trace.c) share,
 * and the utilisation grid calibrate's power fit reads
 * (src/workflows/trace_fit.c).  The trace stage sits below the estimate
 * (`estimate --measured` reads a trace) and uses nothing above it.  A reader
 * turns lines into samples and hands each to tr_sample(); the integrator
 * keeps a bounded amount per channel (a 64-sample reorder window, 4096
 * samples at the start and at the end for idle detection, a fixed number
 * of chart buckets), so memory does not grow with the trace.
 */
#ifndef JCI_TRACE_INT_H
#define JCI_TRACE_INT_H

#include "base/jc_internal.h"
#include "joulecast/trace.h"

#include <stdio.h>

typedef struct tr_ctx tr_ctx;

/* One sample of channel `key` (created on first use with name, scope and
 * device index): time t in s (any origin, the same for the whole file),
 * power w in W, utilisation u in 0..1 (utilization.gpu, GPUTL; NAN: not
 * logged) and memory utilisation um in 0..1 (utilization.memory, DRAMA or
 * MCPY; NAN: not logged), from `line`.
 * Returns 0, or a status when out of memory / too many channels (the
 * diagnostic is set). */
int tr_sample(tr_ctx *c, const char *key, const char *name, jc_trace_scope scope,
              int index, double t, double w, double u, double um, int line);

/* A block of known average power over [t0, t1] (Carbontracker epochs):
 * integrated exactly (w x (t1 - t0)), charted as a step. */
int tr_block(tr_ctx *c, const char *key, const char *name, jc_trace_scope scope,
             int index, double t0, double t1, double w, int line);

/* Run totals without a series (CodeCarbon): energy over duration. */
int tr_total(tr_ctx *c, const char *key, const char *name, jc_trace_scope scope,
             double duration_s, double joules);

/* A row that cannot be read: counted, and listed by line (the first
 * JC_TRACE_MAX_ISSUES).  Never fails. */
void tr_bad(tr_ctx *c, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A data row read (for the bad-row ratio). */
void tr_row(tr_ctx *c);
/* An assumption the reader made, shown with the result (copied). */
void tr_note(tr_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Fails the load with a located message ("PATH:LINE: ", "PATH: " for
 * line 0, nothing for line -1: a message that names its place); returns
 * the status. */
int tr_fail(tr_ctx *c, jc_status st, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Text files are text: finds the first NUL byte among the n bytes of
 * buf (a C string ends there, so "5<NUL>0" would read as 5).  1 with
 * *line the line it is on; else 0 with *line advanced past the newlines
 * of buf (a caller reading in chunks starts at 1 and passes it on).
 * measurements.c; trace.c's readers and the measurement files use it. */
int tr_nul_line(const char *buf, size_t n, int *line);
/* The devices' model as the trace names it (first one kept). */
void tr_device_name(tr_ctx *c, const char *name);

/* Run totals: the device count and the run's date the file gives. */
void tr_totals_meta(tr_ctx *c, double devices, const char *date);

const jc_trace_opts *tr_opts(const tr_ctx *c);
void tr_set_label(tr_ctx *c, const char *label);

/* ---- power against utilisation (read by calibrate's power fit,
 * src/workflows/trace_fit.c) ---- */

/* Every device sample with a utilisation, binned by its utilisation to
 * 1 % (nvidia-smi and GPUTL log whole percents: exact there): per bin the
 * count, the sums of power, power squared and of the utilisations (the
 * bin's mean abscissa).  Constant size (about 400 kB per trace), filled as
 * the samples are integrated. */
#define TR_PG_N 101
typedef struct tr_pbin { double n, w, w2, g, m; } tr_pbin;
typedef struct tr_pgrid {
    tr_pbin b[TR_PG_N][TR_PG_N + 1];   /* [round(100 u)][round(100 um)]; column TR_PG_N: um not logged */
    double g_int, m_int;               /* time integrals of u and um over the device channels, s */
    size_t n, n_mem;                   /* samples; of them with um */
} tr_pgrid;

/* The trace's grid, NULL when no device sample had a utilisation. */
const tr_pgrid *tr_power_grid(const jc_trace *t);

/* ---- text helpers (trace_formats.c) ---- */

/* Seconds since 1970 (UTC unless the text carries an offset) of
 * "YYYY/MM/DD HH:MM:SS[.fff]", "YYYY-MM-DD[T ]HH:MM:SS[.fff][Z|+hh:mm]";
 * 0 on success, -1 when s has none of these forms. */
int tr_parse_time(const char *s, double *out);
/* A number with an optional unit suffix: "250.5 W", "0.25 kW", "45 %";
 * `scale` receives the unit's factor to W (1e-3 for mW, ...) or to a
 * fraction for %.  -1 when not a number. */
int tr_parse_num(const char *s, double *v, char *unit, size_t ucap);

/* The readers: each reads f (already opened; first line at `line` 1) to
 * the end.  Return 0 or a status (the diagnostic set through tr_fail). */
int tr_read_nvidia_smi(tr_ctx *c, FILE *f);
int tr_read_dcgmi(tr_ctx *c, FILE *f);
int tr_read_carbontracker(tr_ctx *c, FILE *f);
int tr_read_powerjoular(tr_ctx *c, FILE *f);
int tr_read_scaphandre(tr_ctx *c, FILE *f);
int tr_read_watts(tr_ctx *c, FILE *f);
int tr_read_codecarbon(tr_ctx *c, const char *path);

/* One Scaphandre JSON report -> host.timestamp, host.consumption in W
 * (src/trace/trace_json.c, the stage's one cJSON user); 0, -1 not JSON,
 * -2 fields missing. */
int tr_scaphandre_report(const char *text, double *t, double *w);

/* Detects the format from the first bytes of the file (head, NUL
 * terminated); JC_TRACE_AUTO when none matches. */
jc_trace_format tr_detect(const char *head);

#endif /* JCI_TRACE_INT_H */
