/*
 * trace.h (public API) - power traces (src/trace/).
 * Part of the public API; include <joulecast.h>, which states the
 * conventions (errors, ownership, units) that hold here too.
 */
#ifndef JOULECAST_TRACE_H
#define JOULECAST_TRACE_H

#include "base.h"

/* named by pointer only here: their headers define them (C11 allows the
 * typedef twice), so a change to those headers does not rebuild the
 * files that include only this one */
typedef struct jc_job jc_job;
typedef struct jc_trace jc_trace;
typedef struct jc_measurement jc_measurement;
typedef struct jc_measurements jc_measurements;

JC_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* Power traces (owner src/trace/: trace.c, trace_formats.c)           */
/* ------------------------------------------------------------------ */
/* Measured runs from the meters people already use, read as a stream
 * (memory does not grow with the trace) and integrated per channel
 * (one GPU, the CPU package, the host, a wall meter): trapezoid energy,
 * gaps above a threshold reported and not bridged, duration, average and
 * peak power, average utilisation, leading/trailing idle phases and the
 * marginal (above-idle) energy.  docs/traces.md describes every format. */

typedef enum jc_trace_format {
    JC_TRACE_AUTO = 0,        /* detected from the first lines */
    JC_TRACE_NVIDIA_SMI,      /* nvidia-smi --query-gpu=... --format=csv[,nounits] */
    JC_TRACE_DCGMI,           /* dcgmi dmon (entity id, POWER, GPUTL, ...) */
    JC_TRACE_CODECARBON,      /* CodeCarbon emissions.csv (run totals) */
    JC_TRACE_CARBONTRACKER,   /* Carbontracker log lines (per-epoch averages) */
    JC_TRACE_POWERJOULAR,     /* PowerJoular CSV */
    JC_TRACE_SCAPHANDRE,      /* Scaphandre JSON exporter (microwatts) */
    JC_TRACE_WATTS,           /* plain timestamp,watts CSV (plug, IPMI, Redfish) */
    JC_TRACE_FORMAT_COUNT
} jc_trace_format;

/* What a channel measured: the accelerators, the host (CPUs, DRAM, ...
 * without the accelerators) or the whole server at the wall. */
typedef enum jc_trace_scope {
    JC_TRACE_DEVICE = 0, JC_TRACE_HOST = 1, JC_TRACE_WALL = 2, JC_TRACE_SCOPE_COUNT = 3
} jc_trace_scope;

/* "nvidia-smi", "dcgmi", "codecarbon", "carbontracker", "powerjoular",
 * "scaphandre", "watts" ("auto" for JC_TRACE_AUTO) / "device", "host",
 * "wall".  Static strings. */
const char *jc_trace_format_name(jc_trace_format f);
const char *jc_trace_scope_name(jc_trace_scope s);
/* Name -> value; JC_ERR_USAGE (listing the names) for an unknown name. */
jc_status jc_trace_format_parse(const char *name, jc_trace_format *f, jc_diag *diag);
jc_status jc_trace_scope_parse(const char *name, jc_trace_scope *s, jc_diag *diag);

typedef struct jc_trace_opts {
    jc_trace_format format;   /* JC_TRACE_AUTO: from the header */
    int scope;                /* a jc_trace_scope for the plain watts CSV
                                 (required there); -1: not given */
    double gap_s;             /* an interval longer than this is a gap; NAN:
                                 5 x the channel's median interval */
    double idle_w;            /* a sample at or below is idle; NAN: by
                                 utilisation when logged (0 %), else the
                                 lowest 10% of the channel's power span */
    double interval_s;        /* dcgmi dmon's sampling delay; NAN: 1 s (its default) */
    size_t row;               /* codecarbon: the data row, 1 = first; 0: the last */
    size_t chart_points;      /* points kept per channel for a chart; 0: 512 */
} jc_trace_opts;

/* Defaults: auto format, scope not given, NAN thresholds, last row. */
void jc_trace_opts_init(jc_trace_opts *o);

/* The trace options of a job (keys trace-format, scope, gap, idle-w,
 * interval: one path for trace, calibrate and estimate --measured) on top
 * of o (initialised by the caller); *given (may be NULL) is set to 1 when
 * the job gives any of them.  Errors (JC_ERR_USAGE, message naming the
 * option): an unknown format or scope name, gap, idle-w or interval not a
 * number > 0. */
jc_status jc_trace_opts_from_job(const jc_job *job, jc_trace_opts *o, int *given, jc_diag *diag);
/* Clears those keys of job (calibrate: read once, so the estimates of the
 * fit see no trace option). */
void jc_trace_job_clear(jc_job *job);

/* One chart point: seconds since the trace's start, the channel's average
 * power over the point's time bucket (NAN: a gap). */
typedef struct jc_trace_point { double t, w; } jc_trace_point;

typedef struct jc_trace_channel {
    char name[160];           /* "GPU 0 NVIDIA A100-SXM4-40GB", "CPU", "host", "wall" */
    int index;                /* device index, or -1 */
    jc_trace_scope scope;
    size_t samples;           /* samples integrated */
    size_t repeated;          /* samples at an already seen timestamp */
    size_t n_gaps;            /* intervals above the gap threshold (not bridged) */
    double gap_threshold_s, gap_s;   /* the threshold used; time in gaps */
    double t_first, t_last;   /* seconds since the trace's start */
    double covered_s;         /* time integrated (span minus gaps) */
    double energy_j;          /* trapezoid over the covered intervals */
    double avg_w, peak_w, min_w;
    double avg_util;          /* time-weighted, 0..1; NAN when not logged */
    int idle_found;           /* an idle phase at the start or the end */
    const char *idle_rule;    /* how idle samples were told apart (static) */
    double idle_w;            /* mean power in the idle phases; NAN: none */
    double lead_idle_s, trail_idle_s, idle_energy_j;
    int idle_capped;          /* an idle phase longer than the samples kept
                                 to find it (4096): its length is a lower bound */
    double marginal_j;        /* energy_j - idle_w x covered_s; NAN: no idle phase */
    jc_trace_point *chart;    /* n_chart points, time order; NULL: no series */
    size_t n_chart;
} jc_trace_channel;

typedef struct jc_trace_issue { int line; char msg[200]; } jc_trace_issue;
#define JC_TRACE_MAX_ISSUES 20

struct jc_trace {
    const char *path;
    jc_trace_format format;
    const char *format_label;        /* "nvidia-smi --query-gpu CSV", ... */
    size_t rows;                     /* data rows read */
    size_t n_bad;                    /* rows that could not be read (none used) */
    jc_trace_issue bad[JC_TRACE_MAX_ISSUES];   /* the first of them, by line */
    size_t n_notes;
    const char *notes[8];            /* assumptions the reader made (static or owned) */
    size_t n_gaps;                   /* gaps over every channel */
    jc_trace_issue gaps[JC_TRACE_MAX_ISSUES];  /* the first of them */
    double epoch_start;              /* the first timestamp, s since 1970 (UTC
                                        assumed without an offset); NAN: relative */
    char start[32], end[32];         /* ISO 8601 of the window, or "" */
    double duration_s;               /* first to last sample over all channels */
    size_t n_channels;
    jc_trace_channel *channels;
    size_t n_devices;                /* channels of scope device */
    char device_name[160];           /* the devices' model as the trace names it, or "" */
    /* in all, per scope (index jc_trace_scope); 0 with no channel there */
    double energy_j[JC_TRACE_SCOPE_COUNT];
    double marginal_j[JC_TRACE_SCOPE_COUNT];   /* NAN when a channel has no idle phase */
    int has_scope[JC_TRACE_SCOPE_COUNT];
    double device_avg_w;             /* device energy / duration (all devices) */
    double device_peak_w;            /* peak of the sum of the devices' latest samples */
    double device_avg_util;          /* mean over devices; NAN when not logged */
    /* the active window: the span without the idle phases every channel
     * of the scope shares at the start and the end (= duration_s and
     * energy_j when none is found) */
    double active_s[JC_TRACE_SCOPE_COUNT];
    double active_energy_j[JC_TRACE_SCOPE_COUNT];
    void *internal_;
};

/* The format of the file at `path` as detected from its first lines
 * (JC_TRACE_AUTO when none matches, e.g. the simple measurement CSV).
 * JC_ERR_IO when it cannot be read. */
jc_status jc_trace_detect(const char *path, jc_trace_format *f, jc_diag *diag);

/* Reads and integrates the trace at `path` (o NULL: defaults).  Rows that
 * cannot be read are skipped and listed by line (n_bad counts them all);
 * more bad rows than good ones, no usable sample, or an unknown header is
 * an error.  Errors name file:line: JC_ERR_IO, JC_ERR_USAGE (format,
 * malformed file, --scope missing for a plain CSV), JC_ERR_NOMEM.  On
 * success *out owns everything (jc_trace_free). */
jc_status jc_trace_load(const char *path, const jc_trace_opts *o, jc_trace **out,
                        jc_diag *diag);
void jc_trace_free(jc_trace *t);

/* The trace as one measured run for calibrate: the device scope's active
 * window (duration and energy without the shared idle ends; IT side, no
 * PUE), host energy, device count, device name and date; ms->detail names
 * the format, window and samples.  ms borrows
 * from t (keep t alive; do not call jc_measurements_free on ms). */
void jc_trace_measurements(const jc_trace *t, jc_measurements *ms, jc_measurement *row);

/* Writes the trace summary as text / as JSON (schema joulecast-trace/1,
 * malloc'ed, NULL on out-of-memory).  JC_ERR_IO if writing failed. */
jc_status jc_report_trace_text(const jc_trace *t, FILE *f);
char *jc_report_trace_json(const jc_trace *t);

JC_END_DECLS
#endif /* JOULECAST_TRACE_H */
