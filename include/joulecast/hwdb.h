/*
 * hwdb.h (public API) - the hardware database (stage hwdb, src/hwdb/).
 * Part of the public API; include <joulecast.h>, which states the
 * conventions (errors, ownership, units) that hold here too.
 */
#ifndef JOULECAST_HWDB_H
#define JOULECAST_HWDB_H

#include "base.h"

JC_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* Hardware database (stage: hwdb; owner src/hwdb/)                    */
/* ------------------------------------------------------------------ */
/* The database is a folder of YAML files (schema: docs/hwdb-schema.md)
 * loaded into one jc_hwdb that owns everything below.  Records are sorted
 * by id/code (byte order of the lower-cased id), so listings are
 * deterministic.  Optional strings are NULL when absent; optional numbers
 * are 0 when absent; a jc_sourced that is absent has present == 0. */

/* A bibliographic source: one entry of a file's `sources` mapping. */
typedef struct jc_source {
    const char *id;        /* local to its file */
    const char *citation;  /* who/what (paper + table where relevant) */
    const char *url, *date, *licence, *note;  /* date: YYYY[-MM[-DD]] */
    const char *file_licence;  /* the file's top-level `licence`, or NULL */
    int year;              /* `year`, else the year of `date` */
    const char *file;
    int line, col;
} jc_source;

/* A number with its provenance.  low == high == value unless has_range.
 * year: the value's own `year`, else its source's year.  derived and
 * measured say how it was obtained (both NULL: as published).  file, line
 * and col locate the written value (an override layer's file when a layer
 * replaced it). */
typedef struct jc_sourced {
    int present;
    double value, low, high;
    int has_range;
    int year;
    const jc_source *source;
    const char *derived, *measured, *note;
    const char *file;
    int line, col;
} jc_sourced;

typedef enum jc_device_kind {
    JC_DEVICE_GPU = 0, JC_DEVICE_CPU = 1, JC_DEVICE_TPU = 2,
    JC_DEVICE_ACCELERATOR = 3, JC_DEVICE_SOC = 4
} jc_device_kind;

/* jc_precision: include/joulecast/base.h */

/* "gpu", "cpu", ... / "fp64", "fp32", ...: static strings ("?" when out of
 * range). */
const char *jc_device_kind_name(jc_device_kind k);
const char *jc_precision_name(jc_precision p);

/* The Green-Algorithms calculator's own figures for a device. */
typedef struct jc_device_ga {
    const char *name;            /* the calculator's exact model string; NULL: none */
    jc_sourced tdp_per_core_w;   /* CPUs */
    jc_sourced tdp_w;            /* GPUs */
    int cores;
} jc_device_ga;

/* A device: one GPU card, CPU socket, TPU chip, accelerator or SoC. */
typedef struct jc_device {
    const char *id;
    const char **aliases;
    size_t n_aliases;
    jc_device_kind kind;
    const char *vendor, *name, *variant, *form_factor, *architecture,
               *process_node, *note;
    int release_year;
    jc_sourced tdp_w;       /* may be absent (no published power figure) */
    jc_sourced idle_w;
    jc_sourced peak_tflops[JC_PREC_COUNT];         /* dense */
    jc_sourced peak_tflops_sparse[JC_PREC_COUNT];  /* structured sparsity */
    jc_sourced memory_gb, memory_bw_gbs;
    jc_sourced memory_bw_sustained_gbs;   /* measured sustained bandwidth; absent: none published */
    jc_sourced peak_tflops_acc32[JC_PREC_COUNT];   /* dense, fp32 accumulate,
                                                      where it differs */
    jc_sourced sm_count;        /* SMs / CUs / cores (a whole number) */
    const char *memory_type;    /* "HBM3", "GDDR6X", "unified", ... or NULL */
    jc_sourced l2_mb;           /* L2 / last-level cache, MB */
    jc_sourced l3_mb;           /* a CPU's L3 (last-level) cache, MB */
    jc_sourced power_limit_w;   /* default; low/high the configurable range */
    jc_sourced boost_power_w;   /* the die's power holding its boost clock in a dense load */
    const char *interconnect;   /* device-to-device link, or NULL */
    jc_sourced interconnect_gbs; /* per device, one direction */
    jc_sourced node_devices;     /* devices per link domain of the reference system */
    jc_sourced node_network_gbs; /* inter-node network per device, one direction */
    jc_sourced pj_per_flop[JC_PREC_COUNT];         /* energy.pj_per_flop */
    jc_sourced pj_per_byte;                        /* energy.pj_per_byte */
    jc_sourced pj_per_flop_tensor[JC_PREC_COUNT];  /* energy.pj_per_flop_tensor: measured per instruction */
    jc_sourced dram_pj_per_byte;                   /* energy.dram_pj_per_byte: a fitted power model's */
    jc_sourced static_w;                           /* energy.static_w: a fitted power model's */
    jc_sourced util_training, util_inference;      /* with low/high */
    jc_sourced embodied_kgco2e;
    const char *embodied_scope;
    int cores, threads;
    double base_ghz, boost_ghz;
    jc_sourced tdp_per_core_w;
    jc_device_ga ga;
    const char *file;
    int line, col;
} jc_device;

typedef enum jc_host_kind {
    JC_HOST_SERVER = 0, JC_HOST_CLOUD_INSTANCE = 1
} jc_host_kind;
/* "server" / "cloud-instance": static strings. */
const char *jc_host_kind_name(jc_host_kind k);

/* A server or cloud instance type. */
typedef struct jc_host {
    const char *id;
    const char **aliases;
    size_t n_aliases;
    const char *name, *vendor, *provider, *note;
    jc_host_kind kind;
    const jc_device *accel;   /* NULL when the host has no accelerators */
    int n_accel;
    const jc_device *cpu;     /* the CPU device when `cpu.device` names one */
    const char *cpu_name;     /* the CPU's name (the device's when cpu != NULL) */
    int n_cpu;                /* sockets; 0 when `cpu` is absent */
    int vcpus;
    jc_sourced baseline;      /* a burstable instance's baseline share of each vCPU */
    jc_sourced memory_gb, host_power_w, host_idle_w, max_power_w;
    /* the fabric (all optional): the scale-up domain (NVLink / Infinity
     * Fabric / ICI: its size, which may exceed n_accel, and bandwidth per
     * accelerator, one direction) and the scale-out NICs per accelerator;
     * *_reduce 1 where the switches reduce in the network */
    const char *fabric_up, *fabric_out;
    jc_sourced up_devices, up_gbs, up_reduce, out_gbs, out_reduce;
    /* issue 45: prices per instance-hour (USD) in price_region, on demand
     * and with a 1-year commitment (absent: not published / not known) */
    jc_sourced price_od, price_1y;
    const char *price_region;
    const char *price_absent; /* why there is no on-demand price, or NULL */
    const char *file;
    int line, col;
} jc_host;

/* One grid-intensity dataset (an `intensities` file). */
typedef struct jc_dataset {
    const char *id, *name, *basis, *note;
    const jc_source *source;
    int precedence;           /* lower wins when choosing a default */
    const char *superseded_by; /* the dataset that replaces this one (a
                                  later calculator table, a later year of
                                  a yearly series), or NULL: a superseded
                                  dataset is shown, never widens a range */
    size_t n_values;
    const char *file;
    int line, col;
} jc_dataset;

/* One intensity value of a region, gCO2e/kWh. */
typedef struct jc_intensity {
    const char *dataset_id;
    const jc_dataset *dataset;  /* NULL for an inline dataset that no
                                   `intensities` file defines */
    const char *basis;          /* the value's basis (else its dataset's) */
    jc_sourced value;           /* value.year: the year it refers to */
} jc_intensity;

typedef enum jc_region_type {
    JC_REGION_WORLD = 0, JC_REGION_AGGREGATE, JC_REGION_COUNTRY,
    JC_REGION_SUBNATIONAL, JC_REGION_GRID, JC_REGION_CLOUD
} jc_region_type;
/* "world", "aggregate", "country", ...: static strings. */
const char *jc_region_type_name(jc_region_type t);

/* A region: country, sub-national zone, grid, aggregate or cloud region.
 *
 * Default intensity (default_intensity / default_from / default_reason),
 * chosen at load time:
 *  1. the region's own `default_dataset` (it must have a value here), with
 *     the region's `why`;
 *  2. else the dataset of lowest `precedence` that has a value for the
 *     region (ties: dataset id order; an inline dataset that no
 *     `intensities` file defines ranks after every defined one); for a
 *     cloud region the grid zone's default competes too, and wins when its
 *     dataset's precedence is lower (default_from is then the grid zone);
 *  3. else, for a cloud region, its grid zone's default (default_from is
 *     then the grid region, and default_reason says so);
 *  4. else none: default_intensity is NULL.
 * Within the chosen dataset the value of the latest year is used. */
typedef struct jc_region {
    const char *code;
    const char **aliases;
    size_t n_aliases;
    const char *name, *country, *provider, *note;
    jc_region_type type;
    const char *grid;                /* as written (cloud regions) */
    const struct jc_region *grid_region;
    jc_sourced pue, market_gco2e_per_kwh;
    size_t n_intensity;
    jc_intensity *intensity;  /* by precedence, dataset id, newest year first */
    const char *default_dataset, *why;   /* as written, or NULL */
    const jc_intensity *default_intensity;
    const struct jc_region *default_from;
    const char *default_reason;
    /* issue 45: the electricity price (USD/kWh, non-household), the water
     * consumed per kWh generated on its grid (off-site, L/kWh) and a cloud
     * region's on-site water usage effectiveness (L per IT kWh); absent:
     * not known for this region */
    jc_sourced elec_price, water_gen, wue;
    const char *file;
    int line, col;
} jc_region;

typedef struct jc_pue_year {
    int year;
    jc_sourced value;
} jc_pue_year;

/* A data-centre operator (or a default such as `personal`). */
typedef struct jc_provider {
    const char *id, *name, *note;
    jc_sourced pue;
    size_t n_pue_by_year;
    jc_pue_year *pue_by_year;   /* in file order */
    jc_sourced wue;             /* issue 45: the fleet's on-site water usage
                                   effectiveness (L per IT kWh), if published */
    const char *file;
    int line, col;
} jc_provider;

/* A named constant (memory W/GB, car gCO2e/km, ...). */
typedef struct jc_constant {
    const char *id, *unit;
    jc_sourced value;
} jc_constant;

/* Green-Algorithms calculator tables of one version (rows in CSV order;
 * every number carries its row's source). */
typedef struct jc_ga_pue_default {
    const char *provider;
    jc_sourced value;
} jc_ga_pue_default;
typedef struct jc_ga_provider {
    const char *code, *name, *platform_type, *platform_name;
} jc_ga_provider;
typedef struct jc_ga_datacenter {
    const char *provider, *name, *location, *details, *place;
    jc_sourced pue;             /* absent: the provider's default */
    const jc_source *source;
} jc_ga_datacenter;
typedef struct jc_ga_hw {       /* a row of TDP_cpu.csv or TDP_gpu.csv */
    const char *name, *note;
    jc_sourced tdp_w, tdp_per_core_w;
    int cores, release_year;
} jc_ga_hw;
typedef struct jc_ga_location {
    const char *code, *continent, *country, *region, *type, *note;
    jc_sourced value;           /* gCO2e/kWh */
    const jc_region *resolved;  /* the database region of `code` */
} jc_ga_location;
typedef struct jc_ga_constant {
    const char *id;
    jc_sourced value;
} jc_ga_constant;
typedef struct jc_ga_version {
    const char *version;        /* "3.0" */
    const jc_source *source;
    size_t n_pue_defaults, n_providers, n_datacenters, n_cpus, n_gpus,
           n_constants, n_locations;
    jc_ga_pue_default *pue_defaults;
    jc_ga_provider *providers;
    jc_ga_datacenter *datacenters;
    jc_ga_hw *cpus, *gpus;
    jc_ga_constant *constants;
    jc_ga_location *locations;
    const char *file;
    int line, col;
} jc_ga_version;

/* A loaded database.  Arrays are sorted by id/code (ga: by version). */
typedef struct jc_hwdb {
    size_t n_devices, n_hosts, n_regions, n_datasets, n_providers,
           n_constants, n_ga, n_sources, n_files;
    jc_device *devices;
    jc_host *hosts;
    jc_region *regions;
    jc_dataset *datasets;
    jc_provider *providers;
    jc_constant *constants;
    jc_ga_version *ga;
    const char **files;       /* every file loaded, in load order */
    const char *data_version; /* the first line of the bundled folder's
                                 VERSION file ("2026.11 (2026-11-30)"), or
                                 NULL when there is none */
    void *internal_;          /* arena and name indexes; do not touch */
} jc_hwdb;

/* Loads a database.  Layers, in order: every *.yaml under `bundled_dir`
 * (recursively, sorted by path; NULL: no bundled layer), then each of
 * layers[0..n_layers) (a folder or one .yaml file), then each entry of
 * `env_layers` (a colon-separated list as in $JOULECAST_HWDB; NULL or ""
 * for none; empty entries are skipped).  A later layer adds entries or
 * overrides fields of an entry with the same id (case-insensitive):
 * scalar and sourced fields are replaced, the mappings peak_tflops,
 * peak_tflops_sparse, energy, pj_per_flop, utilization and ga (of a
 * device) merge key by key, and keyed lists merge by key (intensity
 * `values` by region+year, a region's `intensity` by dataset+year,
 * `pue_by_year` by year); any other list is replaced.  Validation (types,
 * ranges, required keys, references, duplicates) runs on the merged
 * entries.  Errors name file:line:column: JC_ERR_HWDB (invalid YAML or
 * schema violation, a file over 64 MiB: refused unread), JC_ERR_IO
 * (missing folder, unreadable file), JC_ERR_NOMEM, JC_ERR_USAGE (no layer at all).  On success
 * *out owns everything (jc_hwdb_free); on failure *out is NULL. */
jc_status jc_hwdb_load(const char *bundled_dir, const char *const *layers,
                       size_t n_layers, const char *env_layers,
                       jc_hwdb **out, jc_diag *diag);

/* Releases a database and everything borrowed from it.  NULL: no-op. */
void jc_hwdb_free(jc_hwdb *db);

/* Snapshots of the bundled layer.  Parsing the bundled YAML with libyaml
 * takes about 20 ms, far more than an estimate itself; a snapshot is the
 * loaded database written as one file that opens in tens of microseconds
 * (mapped at a fixed address, else read and relocated).  `make` writes
 * build/hwdb.snap, `make install` PREFIX/share/joulecast/hwdb.snap, and
 * `joulecast hwdb snapshot` any other.  Only the bundled layer alone can
 * be snapshotted: override layers are merged from YAML by jc_hwdb_load.
 *
 * jc_hwdb_snapshot_write loads every *.yaml under bundled_dir (as
 * jc_hwdb_load(bundled_dir, NULL, 0, NULL, ...) does, same errors),
 * records each file's name, size and modification time, and writes the
 * snapshot to `path` (atomically: a temporary file renamed).  `path` is
 * a new path or a regular file; a symlink is kept and the file it ends at
 * written.  Errors: those of jc_hwdb_load, JC_ERR_IO (cannot write; path
 * a FIFO, a device, a folder or a socket, never replaced), JC_ERR_RANGE
 * (over 1 GiB, more than 4096 files, a path of 512 bytes or more),
 * JC_ERR_USAGE (a 32-bit build; path one of the YAML files loaded). */
jc_status jc_hwdb_snapshot_write(const char *bundled_dir, const char *path,
                                 jc_diag *diag);

/* Opens the snapshot at `path` as the database of bundled_dir: the result
 * is the same database jc_hwdb_load(bundled_dir, NULL, 0, NULL, ...) would
 * give, file paths spelled from bundled_dir as that call would.  Errors
 * (*out NULL; callers then load the YAML): JC_ERR_IO (cannot open or
 * read), JC_ERR_NOTFOUND (stale: the folder's *.yaml names, sizes or
 * modification times differ from those recorded; the message names the
 * first file that differs), JC_ERR_HWDB (not a snapshot, written by a
 * build with another record layout, truncated, or - when relocating -
 * corrupt: checksum or a pointer outside the file), JC_ERR_NOMEM.
 * *out is released with jc_hwdb_free like any database. */
jc_status jc_hwdb_snapshot_open(const char *path, const char *bundled_dir,
                                unsigned flags, jc_hwdb **out, jc_diag *diag);

/* The hardware database a front end opens when the user names none: the
 * one search order of the CLI and the bindings (src/hwdb/locate.c).
 * anchors: the front end's own folders, in its order (the CLI: its
 * executable's folder; Python: its package folder, then the loaded
 * library's); fallback: a folder fixed at build time, or NULL.  The
 * folder is the first that exists of
 *   $JOULECAST_HWDB_DIR
 *   for each anchor A: A/hwdb (a pip package's copy),
 *     A/../share/joulecast/hwdb (installed), A/../hwdb (a build tree),
 *     A/../../hwdb (a source tree)
 *   fallback
 * written to buf (cap bytes); tidy: in canonical form, relative to the
 * working directory when below it, so reports cite
 * "hwdb/devices/nvidia.yaml:966" from every front end (a front end that
 * keeps the path across a change of directory asks again with tidy when
 * it opens the database).  Returns buf, or NULL when none exists. */
const char *jc_hwdb_find_dir(const char *const *anchors, size_t n_anchors, const char *fallback,
                             int tidy, char *buf, size_t cap);

/* The snapshot of that folder, in the same order: $JOULECAST_HWDB_SNAPSHOT
 * ("off": none), else the first file of A/hwdb.snap (a build tree, a pip
 * package) and A/../share/joulecast/hwdb.snap (installed) over the
 * anchors.  tidy: written relative to the working directory (for display).
 * Whether it is fresh is jc_hwdb_snapshot_open's to say.  Returns buf, or
 * NULL when there is none. */
const char *jc_hwdb_find_snapshot(const char *const *anchors, size_t n_anchors, int tidy, char *buf,
                                  size_t cap);

/* How db was loaded: 0 parsed from YAML, 1 a relocated snapshot copy,
 * 2 a snapshot mapped in place. */
int jc_hwdb_from_snapshot(const jc_hwdb *db);

/* The display name of a device: vendor, name and variant, the vendor left
 * out when the name already starts with it ("Intel Xeon Gold 6148", never
 * "Intel Intel Xeon ...").  Writes at most cap bytes (NUL included) to
 * buf and returns buf. */
char *jc_device_label(const jc_device *d, char *buf, size_t cap);

/* Lookups: case-insensitive over ids (codes) and aliases, O(1).  On a
 * miss they return JC_ERR_NOTFOUND, set *out to NULL and fill diag with
 * "no device named 'x'; did you mean a, b, c?" (the closest three names
 * by edit distance or substring).  There is never a fallback to a generic
 * entry. */
jc_status jc_hwdb_device(const jc_hwdb *db, const char *name,
                         const jc_device **out, jc_diag *diag);
jc_status jc_hwdb_host(const jc_hwdb *db, const char *name,
                       const jc_host **out, jc_diag *diag);
/* Devices and hosts share one namespace: sets exactly one of *dev, *host
 * on success. */
jc_status jc_hwdb_hardware(const jc_hwdb *db, const char *name,
                           const jc_device **dev, const jc_host **host,
                           jc_diag *diag);
jc_status jc_hwdb_region(const jc_hwdb *db, const char *code,
                         const jc_region **out, jc_diag *diag);
jc_status jc_hwdb_provider(const jc_hwdb *db, const char *id,
                           const jc_provider **out, jc_diag *diag);
jc_status jc_hwdb_constant(const jc_hwdb *db, const char *id,
                           const jc_constant **out, jc_diag *diag);
jc_status jc_hwdb_dataset(const jc_hwdb *db, const char *id,
                          const jc_dataset **out, jc_diag *diag);
/* A Green-Algorithms version ("3.0"); NULL or "latest": the highest. */
jc_status jc_hwdb_ga(const jc_hwdb *db, const char *version,
                     const jc_ga_version **out, jc_diag *diag);

/* The value of `region` in `dataset` (latest year when year is 0, else
 * that year); NULL when it has none. */
const jc_intensity *jc_region_intensity(const jc_region *region,
                                        const char *dataset, int year);

/* The filters of `region list` (NULL: not given): JC_ERR_USAGE for a
 * type that is not a region type name, or a provider and a type that no
 * region has together (a provider's regions are cloud regions: the list
 * would be empty for a reason the user did not ask about);
 * JC_ERR_NOTFOUND (with suggestions) for an unknown provider.  The CLI
 * and the binding call it before listing. */
jc_status jc_region_list_check(const jc_hwdb *db, const char *provider, const char *type, jc_diag *diag);

/* The filters of `hw list`; a zeroed filter (or NULL) lists everything.
 * kind: a device kind name ("gpu" ...) or "host" (hosts only); vendor:
 * the entry's vendor (devices and hosts), case-insensitive; form_factor:
 * a case-insensitive substring of a device's form factor ("SXM", "PCIe");
 * year_min / year_max: a device's release year range (0: open).  Devices
 * with no form factor or release year do not match a filter on it. */
typedef struct jc_hw_filter {
    const char *kind, *vendor, *form_factor;
    int year_min, year_max;
} jc_hw_filter;

/* Whether device d passes filter f (NULL: yes); hosts pass by kind and
 * vendor (jc_hw_filter_host). */
int jc_hw_filter_device(const jc_hw_filter *f, const jc_device *d);
int jc_hw_filter_host(const jc_hw_filter *f, const jc_host *h);
/* Checks filter f against db before a listing (the CLI and any binding
 * call it): JC_ERR_USAGE naming the option for an unknown kind, a year
 * range with min above max, or --form-factor / --year with hosts only;
 * JC_ERR_NOTFOUND (with suggestions) for a vendor no entry has. */
jc_status jc_hw_list_check(const jc_hwdb *db, const jc_hw_filter *f, jc_diag *diag);
/* Sets f's year range from "2023", "2020-2024", "2022-" or "-2019" (years
 * 1900-2100); JC_ERR_USAGE otherwise, the message starting with the key
 * ("year expects a year ..."). */
jc_status jc_hw_filter_years(const char *s, jc_hw_filter *f, jc_diag *diag);

/* Writes `hw list` / `hw show` / `region list` / `region show` views as
 * text to f (deterministic, C locale).  filter / provider / type filter
 * the lists (NULL: all; kind "host" lists hosts).  JC_ERR_IO if writing
 * failed. */
jc_status jc_report_hw_list_text(const jc_hwdb *db, const jc_hw_filter *filter, FILE *f);
jc_status jc_report_device_text(const jc_device *d, FILE *f);
jc_status jc_report_host_text(const jc_host *h, FILE *f);
jc_status jc_report_region_list_text(const jc_hwdb *db, const char *provider,
                                     const char *type, FILE *f);
jc_status jc_report_region_text(const jc_region *r, FILE *f);
/* The same views as JSON documents (schemas: docs/json-schemas.md),
 * released with jc_free(); NULL on out-of-memory. */
char *jc_report_hw_list_json(const jc_hwdb *db, const jc_hw_filter *filter);
char *jc_report_device_json(const jc_device *d);
char *jc_report_host_json(const jc_host *h);
char *jc_report_region_list_json(const jc_hwdb *db, const char *provider,
                                 const char *type);
char *jc_report_region_json(const jc_region *r);
/* The hwdb schema the loader enforces (the field tables of
 * src/hwdb/fields_<kind>.def): the table of record kind `kind` ("device";
 * NULL: every kind with a table) as Markdown to f (docs/hwdb-schema.md
 * embeds it), or every table as one JSON document (tools/hwdb_fields.json,
 * read by tools/check_hwdb.py) released with jc_free(), NULL on
 * out-of-memory.  JC_ERR_NOTFOUND for an unknown kind, JC_ERR_IO when
 * writing failed. */
jc_status jc_report_hwdb_schema_md(const char *kind, FILE *f, jc_diag *d);
char *jc_report_hwdb_schema_json(void);

JC_END_DECLS
#endif /* JOULECAST_HWDB_H */
