/*
 * sweep.h (public API) - compare and sweep (src/workflows/).
 * Part of the public API; include <joulecast.h>, which states the
 * conventions (errors, ownership, units) that hold here too.
 */
#ifndef JOULECAST_SWEEP_H
#define JOULECAST_SWEEP_H

#include "base.h"
#include "job.h"
#include "estimate.h"

/* named by pointer only here: their headers define them (C11 allows the
 * typedef twice), so a change to those headers does not rebuild the
 * files that include only this one */
typedef struct jc_analysis jc_analysis;
typedef struct jc_hwdb jc_hwdb;
typedef struct jc_model jc_model;

JC_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* Compare and sweep (owners src/workflows/sweep.c, src/report/compare.c,         */
/* src/report/sweep.c)                                                  */
/* ------------------------------------------------------------------ */
/* `joulecast compare A.onnx B.onnx ...` estimates one job per model and
 * puts them side by side; `joulecast sweep` estimates one job over a grid
 * of devices x regions x batch sizes x precisions and marks the Pareto
 * front of time against emissions. */

struct jc_serving;
struct jc_generation;
/* One model of a comparison: the caller's estimate of the shared job for
 * that model.  Every pointer is borrowed for the call. */
typedef struct jc_compare_item {
    const char *label;          /* the model file (or a name) */
    const jc_estimate *est;     /* the estimate of the job for this model */
    int64_t macs, params;       /* analysis totals; -1 when unknown */
    double batch;               /* the batch the model was counted at */
    int partial;                /* 1: the count is partial (lower bound) */
    const char *note;           /* NULL, or a plain-words remark (a fixed
                                   batch dim, what the partial count lacks) */
    const struct jc_serving *serving; /* compare --generate: the serving figures
                                   (est is serving->estimate); else NULL */
} jc_compare_item;

/* Writes the comparison as text: one row per model with MACs, params,
 * wall hours, facility kWh, kgCO2e and J/sample, then each figure as a
 * ratio against the first model, then the notes.  Items with serving
 * figures (compare --generate): params, devices, tp, running sequences,
 * TTFT, ITL, tokens/s per device, J per output token (devices, facility),
 * J per request, facility kWh and kgCO2e instead; the JSON and CSV add
 * those keys (docs/json-schemas.md "compare"), mode "generation".  JC_ERR_USAGE when n is
 * 0 or an item has no estimate; JC_ERR_IO if writing failed. */
jc_status jc_report_compare_text(const jc_compare_item *items, size_t n,
                                 FILE *f);
/* The same as JSON (schema joulecast-compare/1, docs/json-schemas.md),
 * released with jc_free(); NULL on out-of-memory or bad input. */
char *jc_report_compare_json(const jc_compare_item *items, size_t n);
/* The same as CSV: a header line and one row per model. */
jc_status jc_report_compare_csv(const jc_compare_item *items, size_t n,
                                FILE *f);

/* A comparison: items[i] for paths[i], each with its estimate.  The
 * underscored fields own what items point into. */
typedef struct jc_compare {
    size_t n;
    jc_compare_item *items;
    jc_model **models_;
    jc_analysis **analyses_;
    jc_estimate **estimates_;
    char **notes_;
    struct jc_generation *gens_;   /* compare --generate: one run per config */
} jc_compare;

/* `joulecast compare`: counts each of the n >= 2 models with the request
 * (its job, bindings, op rules and partial policy; rq->model is ignored)
 * and estimates its job on db (src/workflows/compare.c).  Each --dim or
 * --input applies to the models that have it; a model whose batch dim is
 * fixed to another value than the job's batch is counted at its own
 * batch, with a note; a partial count that the request allows gets a note
 * saying what was not counted; a model counted at another batch than the
 * first says so.  Errors: JC_ERR_USAGE (fewer than two models, a --dim or
 * --input no model has), those of jc_batch_check, and every error of
 * jc_request_load, jc_request_analyze and jc_estimate_run (an estimate's
 * message starts with the model's path).  Generation mode (job mode
 * JC_MODE_GENERATION, `compare --generate`): each path is a Hugging Face
 * config.json or (ending .onnx) an ONNX decoder export (job.hf_config,
 * when set, comes first), run as jc_generation_run runs `estimate
 * --generate`; items carry the serving figures (item.serving) and a
 * memory-bound batch gets a note; --dim and --input are refused
 * (JC_ERR_USAGE), and every error of jc_generation_run is the model's.  On success *out owns the result
 * (jc_compare_free). */
jc_status jc_compare_run(const jc_request *rq, const char *const *paths, size_t n,
                         const jc_hwdb *db, jc_compare **out, jc_diag *diag);
/* Releases a comparison.  NULL is a no-op. */
void jc_compare_free(jc_compare *c);

typedef enum jc_sweep_sort {
    JC_SWEEP_BY_EMISSIONS = 0,  /* location-based kgCO2e, central */
    JC_SWEEP_BY_ENERGY = 1,     /* facility kWh, central */
    JC_SWEEP_BY_TIME = 2,       /* wall hours, central */
    JC_SWEEP_BY_COST = 3        /* issue 45: the cost, central (entries without
                                   a price last; one currency per sweep) */
} jc_sweep_sort;
/* "emissions" / "energy" / "time" / "cost": static strings. */
const char *jc_sweep_sort_name(jc_sweep_sort s);
/* Parses a sort key name; JC_ERR_USAGE (and *out untouched) if unknown. */
jc_status jc_sweep_sort_parse(const char *s, jc_sweep_sort *out);

/* The grid.  Each axis is a list of names; an empty axis (n = 0) keeps
 * the job's own value (job->device or job->host, job->region or job->ci,
 * job->batch, job->precision).  Words that expand to a hwdb kind:
 *   devices:    "all" (every gpu, tpu and accelerator), "gpu", "tpu",
 *               "accelerator", "cpu", "soc"; anything else is a device id
 *               or alias;
 *   regions:    "all" (every region), "cloud", "country", "subnational",
 *               "grid", "aggregate", "PROVIDER:all" (every cloud region of
 *               aws, gcp, azure, ...); anything else is a region code or
 *               alias;
 *   precisions: "all" (fp32 tf32 fp16 bf16 fp8 int8) or names.
 * Duplicates (an id and its alias) are evaluated once.  Pointers are
 * borrowed for the call. */
typedef struct jc_sweep_spec {
    const char *const *devices;    size_t n_devices;
    const char *const *regions;    size_t n_regions;
    const double *batches;         size_t n_batches;  /* whole numbers >= 1 */
    const char *const *precisions; size_t n_precisions;
    jc_sweep_sort sort;
    double max_points;   /* the most grid points (devices x regions x
                            precisions x batches) built; 0: the default,
                            JC_SWEEP_MAX_POINTS; a larger grid is
                            JC_ERR_RANGE before any estimate */
} jc_sweep_spec;

/* The default cap of jc_sweep_spec.max_points: well above the grid of
 * every device and every region (~170,000 points) and, at about 4 KB a
 * point with the JSON document (jc_report_sweep_json), within 2 GB; and
 * the largest cap max_points may name. */
#define JC_SWEEP_MAX_POINTS 400000
#define JC_SWEEP_MAX_POINTS_LIMIT 1000000000

/* One grid point.  Estimated entries carry figures; skipped ones a reason.
 * A skipped entry whose reason does not depend on the region has
 * region_code NULL (it stands for every region of the grid); one whose
 * reason does not depend on the device has device_id NULL. */
typedef struct jc_sweep_entry {
    const char *device_id, *device_name;
    const char *region_code;    /* estimated: the region used, or NULL with
                                   the job's --ci and no region */
    const char *precision;      /* as used (the device default resolved) */
    double batch;               /* 0 without a model (skipped entries: 0
                                   stands for every batch size) */
    const char *reason;         /* skipped entries: why; else NULL */
    jc_refusal refusal;         /* skipped for what the device lacks (the
                                   estimator's own rule, jc_estimate_refusal);
                                   JC_REFUSAL_NONE for other reasons */
    int pareto;                 /* on the time-vs-emissions Pareto front */
    jc_range wall_hours, energy_kwh, co2_kg;  /* facility kWh, location kg */
    double ci, pue;             /* central values the estimate used */
    double ci_region_default;   /* the region's own default intensity (e.g.
                                   the provider's figure for a GCP region)
                                   when the sweep's common basis differs
                                   from it; NAN otherwise */
    const char *ci_dataset;     /* the dataset of the intensity used (NULL
                                   with --ci) */
    int ci_basis_fallback;      /* 1: the region has no value in the common
                                   basis; its own default (ci_dataset) is
                                   used (jc_estimate.ci_basis_fallback) */
    double j_per_sample;        /* facility J per sample, central; 0: n/a */
    const char *host;           /* the host assumed: a host id (the cloud
                                   provider's instance, or --host), or a
                                   system class ("server-2"); NULL: none */
    double hosts;               /* how many (a class share: 0.5) */
    /* issue 45, with --sensitivity: the assumption whose range moves the
     * emissions most (its key in the assumptions list; NULL without the
     * table) and its swing, kgCO2e */
    const char *top_driver;
    double top_driver_swing;
    /* issue 45: the estimate's cost (in cost_currency) and water (litres,
     * total), NaN ranges when unknown (jc_estimate.has_cost / has_water) */
    jc_range cost, water_l;
    const char *cost_currency;
    const char *cost_basis;     /* jc_estimate.cost_basis (a static name), or NULL */
} jc_sweep_entry;

typedef struct jc_sweep {
    jc_mode mode;
    jc_method method;
    jc_sweep_sort sort;
    const char *model;          /* the model's path, or NULL */
    size_t n_devices, n_regions, n_batches, n_precisions; /* expanded axes */
    size_t n_points;            /* grid points: the product of the axes */
    size_t n_entries;  jc_sweep_entry *entries;  /* estimated, sorted by
                                   the sort key (ties: device, region,
                                   precision, batch) */
    size_t n_skipped;  jc_sweep_entry *skipped;  /* grid order */
    size_t n_skipped_points;    /* grid points the skipped entries cover */
    size_t n_unsold;            /* device x cloud-region pairs left out: the
                                   region's provider sells no instance with
                                   the device (accelerator or CPU; hwdb
                                   hosts.yaml; issue 42) */
    size_t n_unsold_points;     /* grid points those pairs cover */
    size_t n_pareto;
    size_t n_analyses;          /* model analyses run (one per batch) */
    size_t n_notes;    const char **notes;  /* partial counts, fixed batch
                                   dims, the job's own warnings (once) */
    const char *ci_basis;       /* the intensity dataset every region is
                                   compared on (JC_CI_BASIS unless the
                                   job names one), or NULL: each region's
                                   own default ("default", or --ci) */
    double ci_given;            /* the job's --ci, gCO2e/kWh, every entry's
                                   intensity; NAN when not given */
    void *internal_;
} jc_sweep;


/* Estimates the request's job (rq->job) at every point of the grid.  The
 * model (NULL when the job gives --flops or --params; loaded with
 * jc_request_load) is counted once per batch size by jc_request_analyze
 * with the request's bindings, op rules and partial policy; the database
 * is used as given.  A point that cannot be estimated (no dense peak at the
 * precision, no TDP, no utilisation figure, a region without intensity,
 * a batch the model's fixed batch dim refuses, any estimate error) is a
 * skipped entry with the reason; it is never dropped.  Errors:
 * JC_ERR_INCOMPLETE (the count is partial and rq->allow_partial is 0),
 * JC_ERR_USAGE (NULL argument, an empty grid, a malformed batch or
 * precision, --host with a device axis), JC_ERR_NOTFOUND (an unknown
 * device or region name, with suggestions), every error of jc_analyze,
 * JC_ERR_NOMEM.  On success *out owns the result (jc_sweep_free). */
jc_status jc_sweep_run(const jc_sweep_spec *spec, const jc_request *rq,
                       const jc_model *model, const jc_hwdb *db,
                       jc_sweep **out, jc_diag *diag);
/* Releases a sweep.  NULL is a no-op. */
void jc_sweep_free(jc_sweep *s);

/* The rules `joulecast sweep` applies before jc_sweep_run
 * (src/workflows/sweep_grid.c): an axis and the job's own value of it
 * (device, region, batch, precision) are exclusive, and so are a region
 * axis and --ci (every region would get one intensity); an empty device axis becomes "all" unless
 * the job names a device or host, an empty region axis "cloud" unless it
 * names a region or --ci (static lists).  JC_ERR_USAGE otherwise.  (The
 * job's own batch is jc_batch_check's.) */
jc_status jc_sweep_spec_resolve(jc_sweep_spec *spec, const jc_job *job,
                                jc_diag *diag);
/* Parses the batch axis: n strings, each a batch jc_batch_check accepts,
 * into out[0..n).  JC_ERR_RANGE above jc_job_key_max("batch"),
 * JC_ERR_USAGE otherwise, naming the first bad item. */
jc_status jc_sweep_batches_parse(const char *const *items, size_t n,
                                 double *out, jc_diag *diag);

/* Writes the sweep as text: the grid, the ranked entries (top: the first
 * N, 0 for all; Pareto entries are marked '*'), then the skipped entries
 * with their reasons.  JC_ERR_IO if writing failed. */
jc_status jc_report_sweep_text(const jc_sweep *s, size_t top, FILE *f);
/* As JSON (schema joulecast-sweep/1), released with jc_free(); NULL on
 * out-of-memory. */
char *jc_report_sweep_json(const jc_sweep *s);
/* As CSV: a header, one row per estimated entry (rank order), then one
 * per skipped entry (empty figures, the reason in the last column). */
jc_status jc_report_sweep_csv(const jc_sweep *s, FILE *f);

JC_END_DECLS
#endif /* JOULECAST_SWEEP_H */
