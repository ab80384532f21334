/*
 * ga.h (public API) - the Green-Algorithms mode (src/workflows/ga.c).
 * Part of the public API; include <joulecast.h>, which states the
 * conventions (errors, ownership, units) that hold here too.
 */
#ifndef JOULECAST_GA_H
#define JOULECAST_GA_H

#include "base.h"

/* named by pointer only here: their headers define them (C11 allows the
 * typedef twice), so a change to those headers does not rebuild the
 * files that include only this one */
typedef struct jc_ga_version jc_ga_version;
typedef struct jc_hwdb jc_hwdb;

JC_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* Green-Algorithms mode (owner src/workflows/ga.c; docs/green-algorithms.md)     */
/* ------------------------------------------------------------------ */
/* `joulecast ga` reproduces the green-algorithms.org calculator
 * (Lannelongue, Grealey, Inouye 2021) for the same inputs, from the
 * calculator's own tables (hwdb `ga` entries, one per calculator version):
 *
 *   power_W  = PUE*n_cores*P_core*u_cpu + PUE*n_gpus*P_gpu*u_gpu
 *              + PUE*(mem_GB*memoryPower)
 *   E_kWh    = runtime_h * power_W * PSF / 1000
 *   C_g      = E_kWh * CI_g_per_kWh
 *
 * in the calculator's order of operations, then shows what that figure
 * leaves out and, when the hardware is in the database with TDP and idle
 * power, joulecast's own simple estimate of the same job beside it. */

/* Where the job ran; decides the PUE when none is given. */
typedef enum jc_ga_platform {
    JC_GA_PLATFORM_DEFAULT = 0, /* the calculator's default: local server */
    JC_GA_PERSONAL = 1,         /* personal computer: PUE 1 */
    JC_GA_LOCAL = 2,            /* local server: the "Unknown" PUE default */
    JC_GA_CLOUD = 3             /* cloud: data centre's PUE, else provider's */
} jc_ga_platform;
/* "default" / "personal" / "local" / "cloud": static strings. */
const char *jc_ga_platform_name(jc_ga_platform p);

/* The calculator's inputs.  Set defaults with jc_ga_input_init first.
 * Strings are borrowed for the duration of jc_ga_compute. */
typedef struct jc_ga_input {
    double runtime_h;        /* > 0 (see jc_ga_parse_runtime) */
    int n_cores;             /* CPU cores (not threads); 0: no CPU */
    const char *cpu_model;   /* the calculator's model name or a hwdb
                                device; NULL: "Any" (unless tdp given) */
    double tdp_per_core_w;   /* > 0: power per core, overrides cpu_model */
    double cpu_usage;        /* 0..1, default 1 */
    int n_gpus;              /* 0: no GPU */
    const char *gpu_model;   /* NULL: "Any" (unless gpu_tdp_w given) */
    double gpu_tdp_w;        /* > 0: power per GPU, overrides gpu_model */
    double gpu_usage;        /* 0..1, default 1 */
    double memory_gb;        /* memory requested, >= 0 */
    const char *region;      /* a location code of the calculator (CI
                                table), or a hwdb region/alias of one;
                                NULL: WORLD unless a data centre says */
    double ci;               /* >= 0: gCO2e/kWh given directly; < 0 unset */
    double pue;              /* >= 1: given PUE; < 0 unset */
    jc_ga_platform platform;
    const char *provider;    /* cloud: gcp, aws, azure, ... or "other" */
    const char *datacenter;  /* cloud: the data centre's name */
    double psf;              /* pragmatic scaling factor, >= 1, default 1 */
    const char *version;     /* "3.0", "2.2", ...; NULL: latest */
    unsigned given;          /* the keys jc_ga_input_set set (bit i: key i
                                of jc_ga_input_keys); 0 when filled by hand */
} jc_ga_input;

/* Fills *in with the calculator's defaults: usages 1, PSF 1, PUE and CI
 * unset, platform default, every count 0 and every string NULL. */
void jc_ga_input_init(jc_ga_input *in);

/* The inputs by key: the long option names of `joulecast ga` without the
 * dashes (runtime, cores, cpu, tdp-per-core, cpu-usage, gpus, gpu,
 * gpu-tdp, gpu-usage, memory, region, ci, pue, platform, provider,
 * datacenter, psf, ga-version), NULL-terminated; a static array. */
const char *const *jc_ga_input_keys(void);

/* Sets the field of `key` from its text (runtime as jc_ga_parse_runtime,
 * counts whole >= 0, numbers in the C locale, names borrowed: they must
 * outlive the input) and marks it given.  Ranges are checked by
 * jc_ga_compute.  Errors: JC_ERR_NOTFOUND (no such key), JC_ERR_USAGE (a
 * value of the wrong form, named). */
jc_status jc_ga_input_set(jc_ga_input *in, const char *key, const char *value, jc_diag *diag);

/* The rules between inputs, checked by jc_ga_compute: something to
 * compute (cores or GPUs), and no input without effect (a CPU model,
 * power or usage without cores, the same for GPUs, --region with --ci).
 * JC_ERR_USAGE naming the input. */
jc_status jc_ga_input_check(const jc_ga_input *in, jc_diag *diag);

/* One constant the result used, with its provenance. */
typedef struct jc_ga_used {
    const char *what;        /* "PUE", "memoryPower", "treeYear", ... */
    double value;
    const char *unit;        /* "W/GB", "gCO2e/kWh", "" ... */
    const char *from;        /* how it was chosen ("data centre gcp
                                europe-west1", "given with --pue", ...) */
    const char *source;      /* citation and/or URL; NULL when given */
} jc_ga_used;

/* One device of joulecast's comparison estimate. */
typedef struct jc_ga_own_part {
    const char *device_id;   /* hwdb device id */
    const char *role;        /* "cpu" / "gpu" */
    double count;            /* sockets or cards */
    double idle_w, tdp_w, usage;
    double share;            /* the share of the dynamic range in use:
                                CPU cores used / cores per socket (4 of
                                20: 0.2), GPUs: count */
    double cores_used, cores_per_socket;  /* CPU; 0 for a GPU */
    double power_w;          /* count x idle + (tdp - idle) x share x
                                usage (CPU: idle of whole sockets,
                                dynamic per core used), before PUE */
    const char *idle_source, *tdp_source;
} jc_ga_own_part;

/* The result.  Energies in Wh, carbon in gCO2e, powers in W (powers
 * include PUE, as the calculator's "power needed" does). */
typedef struct jc_ga_result {
    const char *version;               /* the calculator version used */
    double runtime_h;
    int n_cores, n_gpus;
    const char *cpu_model, *gpu_model; /* the calculator's row, or NULL
                                          when power was given */
    double cpu_w_per_core, gpu_w, cpu_usage, gpu_usage;
    double memory_gb, memory_w_per_gb;
    double pue, psf, ci;
    const char *location;              /* CI table code, NULL with --ci */
    jc_ga_platform platform;
    const char *provider, *datacenter; /* as resolved, or NULL */
    double power_cpu_w, power_gpu_w, power_memory_w, power_w;
    double energy_cpu_wh, energy_gpu_wh, energy_memory_wh, energy_wh;
    double carbon_cpu_g, carbon_gpu_g, carbon_memory_g, carbon_g;
    /* Equivalences (the calculator's): carbon / constant. */
    double tree_months;                /* carbon / treeYear * 12 */
    double car_km_eu, car_km_us, train_km;
    const char *flight_label;          /* "Paris-London" (v3.0:
                                          "Paris-Dublin"), "NYC-San
                                          Francisco" or "NYC-Melbourne" */
    double flight_fraction;            /* carbon / that flight's gCO2e */
    size_t n_used;     jc_ga_used *used;
    size_t n_warnings; const char **warnings;
    size_t n_notes;    const char **notes;  /* what the figure leaves out */
    /* joulecast's own estimate of the same job, for comparison (has_own
     * = 0 when a device is not in the hwdb with both TDP and idle power;
     * own_reason says which). */
    int has_own;
    const char *own_reason;
    size_t n_own_parts; jc_ga_own_part *own_parts;
    double own_power_w;                /* devices + memory, times PUE */
    double own_energy_wh, own_carbon_g;
    void *internal_;
} jc_ga_result;

/* Computes the calculator's figure for `in` with the tables of the
 * calculator version in->version from `db` (jc_hwdb_ga), resolving model
 * names, region, data centre and PUE as the calculator does.  On success
 * *out owns the result (jc_ga_result_free).  Errors (diag says which
 * input and, for unknown names, suggests the closest): JC_ERR_USAGE (bad
 * value: runtime <= 0, usage outside 0..1, PUE < 1, PSF < 1, nothing to
 * compute, conflicting options), JC_ERR_NOTFOUND (unknown version, CPU,
 * GPU, region, provider or data centre), JC_ERR_HWDB (a table lacks a
 * constant the formula needs), JC_ERR_NOMEM.  On failure *out is NULL. */
jc_status jc_ga_compute(const jc_hwdb *db, const jc_ga_input *in,
                        jc_ga_result **out, jc_diag *diag);

/* The same with the tables given directly (in->version is ignored); db
 * may be NULL (then model names are only matched against the tables, and
 * there is no thread warning and no comparison estimate). */
jc_status jc_ga_compute_tables(const jc_ga_version *tables,
                               const jc_hwdb *db, const jc_ga_input *in,
                               jc_ga_result **out, jc_diag *diag);

/* Releases a result.  NULL is a no-op. */
void jc_ga_result_free(jc_ga_result *r);

/* Parses a duration into hours: "90m", "1.5h", "12h30m", "2d", "1d6h",
 * "45s", or a plain number of hours ("2.5").  Units d/h/m/s, each at most
 * once, in that order, each with a non-negative decimal number.
 * JC_ERR_USAGE (and *hours untouched) on a negative, empty, malformed or
 * non-finite value. */
jc_status jc_ga_parse_runtime(const char *s, double *hours, jc_diag *diag);

/* Writes the `ga` report as text (C locale): energy, carbon, split,
 * constants with sources, equivalences, warnings, notes, comparison.
 * JC_ERR_IO if writing failed. */
jc_status jc_report_ga_text(const jc_ga_result *r, FILE *f);
/* The same as a JSON document (docs/green-algorithms.md), released with
 * jc_free(); NULL on out-of-memory. */
char *jc_report_ga_json(const jc_ga_result *r);

JC_END_DECLS
#endif /* JOULECAST_GA_H */
