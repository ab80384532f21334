/*
 * ga.c (workflows) - Green-Algorithms mode: reproduces the green-algorithms.org
 * calculator (Lannelongue, Grealey, Inouye 2021) from its own tables (hwdb
 * `ga` entries), in the calculator's order of operations, and sets beside
 * it what the figure leaves out and joulecast's own simple estimate of the
 * same job.  Pure arithmetic and table resolution; never prints.
 *
 * The calculator (data/v3.0 era app, blueprints/form/form_blueprint.py):
 *   PUE_used: --pue, else personal computer 1, local server the "Unknown"
 *   default, cloud the data centre's PUE when it has one, else the
 *   provider's default ("other" provider: the "Unknown" default);
 *   power_CPU = PUE * n_cores * TDP_per_core * usage   (TDP_per_core as
 *   stored in TDP_cpu.csv, already rounded there; never recomputed);
 *   power_GPU = PUE * n_gpus * TDP_per_core(GPU table) * usage;
 *   power_mem = PUE * (memory * memoryPower);
 *   energy_kWh = runTime * (power_CPU + power_GPU + power_mem) * PSF / 1000;
 *   carbon_g = energy_kWh * CI[location]; a data centre's location is its
 *   CI_aggregated code.  Equivalences: carbon / treeYear * 12 tree-months,
 *   carbon / passengerCar_*_perkm, carbon / train_perkm, and a flight
 *   chosen by size: below half NY-SF the short flight (Paris-London up to
 *   v2.2, Paris-Dublin in the v3.0 app), below half NYC-MEL NY-SF, else
 *   NYC-MEL.
 */
#include "base/jc_internal.h"
#include "base/fmt.h"
#include "joulecast/hwdb.h"
#include "joulecast/ga.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GA_MAX_LIST 24

typedef struct ga_ctx {
    jci_arena *a;
    jc_ga_result *r;
    const char **warn, **note;
    jc_ga_used *used;
} ga_ctx;

const char *jc_ga_platform_name(jc_ga_platform p)
{
    switch (p) {
    case JC_GA_PLATFORM_DEFAULT: return "default";
    case JC_GA_PERSONAL: return "personal";
    case JC_GA_LOCAL: return "local";
    case JC_GA_CLOUD: return "cloud";
    }
    return "?";
}

void jc_ga_input_init(jc_ga_input *in)
{
    if (!in) return;
    memset(in, 0, sizeof *in);
    in->cpu_usage = 1.0;
    in->gpu_usage = 1.0;
    in->ci = -1.0;
    in->pue = -1.0;
    in->psf = 1.0;
}

/* ---- small helpers --------------------------------------------------- */

static void add_warning(ga_ctx *c, const char *s)
{
    if (s && c->r->n_warnings < GA_MAX_LIST) c->warn[c->r->n_warnings++] = s;
}

static void add_note(ga_ctx *c, const char *s)
{
    if (s && c->r->n_notes < GA_MAX_LIST) c->note[c->r->n_notes++] = s;
}

/* Citation and URL of a sourced value, "" when it has none. */
static const char *source_text(jci_arena *a, const jc_sourced *v)
{
    if (!v || !v->source) return NULL;
    const jc_source *s = v->source;
    const char *cit = s->citation ? s->citation : s->id;
    if (s->url && (!cit || !strstr(cit, s->url)))
        return jci_arena_printf(a, "%s <%s>", cit ? cit : "", s->url);
    return cit;
}

static void add_used(ga_ctx *c, const char *what, double value,
                     const char *unit, const char *from, const char *source)
{
    if (c->r->n_used >= 2 * GA_MAX_LIST) return;
    jc_ga_used *u = &c->used[c->r->n_used++];
    u->what = what;
    u->value = value;
    u->unit = unit ? unit : "";
    u->from = from;
    u->source = source;
}

/* Case-insensitive equality ignoring leading/trailing blanks (the
 * calculator's model strings sometimes end in a space). */
static int name_eq(const char *a, const char *b)
{
    if (!a || !b) return 0;
    while (*a == ' ') a++;
    while (*b == ' ') b++;
    size_t la = strlen(a), lb = strlen(b);
    while (la && a[la - 1] == ' ') la--;
    while (lb && b[lb - 1] == ' ') lb--;
    if (la != lb) return 0;
    for (size_t i = 0; i < la; i++) {
        int x = (unsigned char)a[i], y = (unsigned char)b[i];
        if (x >= 'A' && x <= 'Z') x += 32;
        if (y >= 'A' && y <= 'Z') y += 32;
        if (x != y) return 0;
    }
    return 1;
}

/* Writes "'a', 'b', 'c'" (the three closest names to `want`, the one
 * "did you mean" rule of jci_suggest) into buf; "" when none is close. */
static void suggest(const char *want, const char *const *names, size_t n,
                    char *buf, size_t cap)
{
    jci_suggest sg;
    jci_suggest_init(&sg, want, 3);
    for (size_t i = 0; i < n; i++)
        if (names[i]) jci_suggest_add(&sg, names[i], NULL);
    jci_suggest_list(&sg, "'", buf, cap);
}

static const jc_ga_constant *find_const(const jc_ga_version *v, const char *id)
{
    for (size_t i = 0; i < v->n_constants; i++)
        if (v->constants[i].id && !strcmp(v->constants[i].id, id))
            return &v->constants[i];
    return NULL;
}

static const jc_ga_pue_default *find_pue(const jc_ga_version *v, const char *prov)
{
    for (size_t i = 0; i < v->n_pue_defaults; i++)
        if (name_eq(v->pue_defaults[i].provider, prov)) return &v->pue_defaults[i];
    return NULL;
}

static const jc_ga_hw *find_hw(const jc_ga_hw *rows, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (name_eq(rows[i].name, name)) return &rows[i];
    return NULL;
}

/* Major.minor of a version string as one number (3.0 -> 300). */
static int version_num(const char *v)
{
    if (!v) return 0;
    if (*v == 'v' || *v == 'V') v++;
    int maj = atoi(v), min = 0;
    const char *dot = strchr(v, '.');
    if (dot) min = atoi(dot + 1);
    return maj * 100 + min;
}

/* The hwdb device that carries the calculator's figure for `ga_name`,
 * preferring one with both TDP and idle power (a real device entry over a
 * table-only one). */
static const jc_device *device_for_ga(const jc_hwdb *db, const char *ga_name,
                                      jc_device_kind kind)
{
    if (!db || !ga_name) return NULL;
    const jc_device *best = NULL;
    for (size_t i = 0; i < db->n_devices; i++) {
        const jc_device *d = &db->devices[i];
        if (!d->ga.name || !name_eq(d->ga.name, ga_name)) continue;
        if (kind == JC_DEVICE_CPU && d->kind != JC_DEVICE_CPU) continue;
        if (kind != JC_DEVICE_CPU && d->kind == JC_DEVICE_CPU) continue;
        if (!best || (d->tdp_w.present && d->idle_w.present &&
                      !(best->tdp_w.present && best->idle_w.present)))
            best = d;
    }
    return best;
}

/* Resolves a CPU or GPU model name to a row of the calculator's table:
 * directly, else through a hwdb device (id or alias) that names its
 * calculator model.  *dev gets the hwdb device when one is known. */
static jc_status resolve_hw(const jc_ga_version *v, const jc_hwdb *db,
                            const char *name, int is_cpu, const jc_ga_hw **row,
                            const jc_device **dev, jc_diag *diag)
{
    const jc_ga_hw *rows = is_cpu ? v->cpus : v->gpus;
    size_t n = is_cpu ? v->n_cpus : v->n_gpus;
    const char *what = is_cpu ? "CPU" : "GPU";
    *row = find_hw(rows, n, name);
    *dev = NULL;
    if (*row) {
        *dev = device_for_ga(db, (*row)->name, is_cpu ? JC_DEVICE_CPU : JC_DEVICE_GPU);
        return JC_OK;
    }
    if (db) {
        const jc_device *d = NULL;
        if (jc_hwdb_device(db, name, &d, NULL) == JC_OK && d) {
            if (d->ga.name) *row = find_hw(rows, n, d->ga.name);
            if (*row) {
                *dev = d->idle_w.present ? d
                     : device_for_ga(db, (*row)->name, is_cpu ? JC_DEVICE_CPU : JC_DEVICE_GPU);
                if (!*dev) *dev = d;
                return JC_OK;
            }
            if (is_cpu && d->tdp_w.present && d->cores > 0)
                return jci_diag_set(diag, JC_ERR_NOTFOUND,
                    "the Green Algorithms calculator v%s has no CPU model for "
                    "hwdb device '%s'; pass its power per core with "
                    "--tdp-per-core (hwdb: %s W / %d cores = %s W)",
                    v->version, d->id, FMT_N(d->tdp_w.value), d->cores,
                    FMT_N(d->tdp_w.value / d->cores));
            if (!is_cpu && d->tdp_w.present)
                return jci_diag_set(diag, JC_ERR_NOTFOUND,
                    "the Green Algorithms calculator v%s has no GPU model for "
                    "hwdb device '%s'; pass its power with --gpu-tdp "
                    "(hwdb: %s W)", v->version, d->id, FMT_N(d->tdp_w.value));
            return jci_diag_set(diag, JC_ERR_NOTFOUND,
                "the Green Algorithms calculator v%s has no %s model for hwdb "
                "device '%s'; pass its power with %s", v->version, what, d->id,
                is_cpu ? "--tdp-per-core" : "--gpu-tdp");
        }
    }
    const char **names = malloc((n ? n : 1) * sizeof *names);
    char sug[512] = "";
    if (names) {
        for (size_t i = 0; i < n; i++) names[i] = rows[i].name;
        suggest(name, names, n, sug, sizeof sug);
        free(names);
    }
    return jci_diag_set(diag, JC_ERR_NOTFOUND,
        "unknown %s model '%s' in the Green Algorithms calculator v%s; "
        "did you mean %s? (or give the power with %s)", what, name, v->version,
        sug[0] ? sug : "'Any'", is_cpu ? "--tdp-per-core" : "--gpu-tdp");
}

static const jc_ga_location *find_location(const jc_ga_version *v,
                                           const jc_hwdb *db, const char *code)
{
    for (size_t i = 0; i < v->n_locations; i++)
        if (name_eq(v->locations[i].code, code)) return &v->locations[i];
    if (db) {
        const jc_region *reg = NULL;
        if (jc_hwdb_region(db, code, &reg, NULL) == JC_OK && reg)
            for (size_t i = 0; i < v->n_locations; i++)
                if (v->locations[i].resolved == reg ||
                    name_eq(v->locations[i].code, reg->code))
                    return &v->locations[i];
    }
    return NULL;
}

static jc_status unknown_location(const jc_ga_version *v, const char *code,
                                  jc_diag *diag)
{
    /* "provider:region" is joulecast's spelling of a cloud region: the
     * calculator takes those as a platform, not a location */
    const char *colon = strchr(code, ':');
    if (colon && colon > code && colon[1]) {
        char prov[32];
        snprintf(prov, sizeof prov, "%.*s", (int)(colon - code) < 31 ? (int)(colon - code) : 31, code);
        const jc_ga_datacenter *dc = NULL;
        int known = 0;
        for (size_t i = 0; i < v->n_providers; i++) known |= name_eq(v->providers[i].code, prov);
        for (size_t i = 0; known && !dc && i < v->n_datacenters; i++)
            if (name_eq(v->datacenters[i].provider, prov) && name_eq(v->datacenters[i].name, colon + 1))
                dc = &v->datacenters[i];
        if (dc)
            return jci_diag_set(diag, JC_ERR_NOTFOUND,
                "'%s' is a cloud region: the Green Algorithms calculator v%s takes it as "
                "--platform cloud --provider %s --datacenter %s (location %s, with its PUE), not as --region",
                code, v->version, dc->provider, dc->name, dc->location ? dc->location : "n/a");
        if (known)
            return jci_diag_set(diag, JC_ERR_NOTFOUND,
                "'%s' is a cloud region that the Green Algorithms calculator v%s does not list; give "
                "--platform cloud --provider %s --datacenter NAME (joulecast ga --help; the calculator's "
                "cloudProviders_datacenters table), or --region with the country of the data centre",
                code, v->version, prov);
        return jci_diag_set(diag, JC_ERR_NOTFOUND,
            "'%s' names a cloud region of a provider the Green Algorithms calculator v%s does not list; "
            "give --platform cloud --provider other --region COUNTRY, or --ci G", code, v->version);
    }
    /* a bare data-centre name ("europe-west1") is a cloud region too */
    for (size_t i = 0; !colon && i < v->n_datacenters; i++)
        if (name_eq(v->datacenters[i].name, code))
            return jci_diag_set(diag, JC_ERR_NOTFOUND,
                "'%s' is a cloud region: the Green Algorithms calculator v%s takes it as "
                "--platform cloud --provider %s --datacenter %s (location %s, with its PUE), not as --region",
                code, v->version, v->datacenters[i].provider, v->datacenters[i].name,
                v->datacenters[i].location ? v->datacenters[i].location : "n/a");
    const char **names = malloc((v->n_locations ? v->n_locations : 1) * sizeof *names);
    char sug[512] = "";
    if (names) {
        for (size_t i = 0; i < v->n_locations; i++) names[i] = v->locations[i].code;
        suggest(code, names, v->n_locations, sug, sizeof sug);
        free(names);
    }
    return jci_diag_set(diag, JC_ERR_NOTFOUND,
        "unknown region '%s' in the Green Algorithms calculator v%s "
        "carbon-intensity table%s%s%s (its codes: FR, US-CA, AU-NSW, ..., WORLD; or give --ci G)",
        code, v->version, sug[0] ? "; did you mean " : "", sug, sug[0] ? "?" : "");
}

/* ---- validation ------------------------------------------------------- */

static jc_status validate(const jc_ga_input *in, jc_diag *diag)
{
    if (!isfinite(in->runtime_h) || in->runtime_h <= 0)
        return jci_diag_set(diag, JC_ERR_USAGE,
            "runtime must be a positive duration (got %g h)", in->runtime_h);
    if (in->n_cores < 0)
        return jci_diag_set(diag, JC_ERR_USAGE, "--cores must be >= 0 (got %d)", in->n_cores);
    if (in->n_gpus < 0)
        return jci_diag_set(diag, JC_ERR_USAGE, "--gpus must be >= 0 (got %d)", in->n_gpus);
    if (!isfinite(in->cpu_usage) || in->cpu_usage < 0 || in->cpu_usage > 1)
        return jci_diag_set(diag, JC_ERR_USAGE,
            "--cpu-usage must be between 0 and 1 (got %g; 0.8 means 80%%)", in->cpu_usage);
    if (!isfinite(in->gpu_usage) || in->gpu_usage < 0 || in->gpu_usage > 1)
        return jci_diag_set(diag, JC_ERR_USAGE,
            "--gpu-usage must be between 0 and 1 (got %g; 0.9 means 90%%)", in->gpu_usage);
    if (!isfinite(in->memory_gb) || in->memory_gb < 0)
        return jci_diag_set(diag, JC_ERR_USAGE,
            "--memory must be >= 0 GB (got %g)", in->memory_gb);
    if (!isfinite(in->tdp_per_core_w) || in->tdp_per_core_w < 0 || in->tdp_per_core_w > 1000)
        return jci_diag_set(diag, JC_ERR_USAGE,
            "--tdp-per-core must be between 0 and 1000 W (got %g)", in->tdp_per_core_w);
    if (!isfinite(in->gpu_tdp_w) || in->gpu_tdp_w < 0 || in->gpu_tdp_w > 5000)
        return jci_diag_set(diag, JC_ERR_USAGE,
            "--gpu-tdp must be between 0 and 5000 W (got %g)", in->gpu_tdp_w);
    if (in->pue >= 0 && (!isfinite(in->pue) || in->pue < 1 || in->pue > 10))
        return jci_diag_set(diag, JC_ERR_USAGE,
            "--pue must be between 1 and 10 (got %g)", in->pue);
    if (!isfinite(in->psf) || in->psf < 1 || in->psf > 1e6)
        return jci_diag_set(diag, JC_ERR_USAGE,
            "--psf must be >= 1 (got %g)", in->psf);
    if (in->ci >= 0 && (!isfinite(in->ci) || in->ci > 5000))
        return jci_diag_set(diag, JC_ERR_USAGE,
            "--ci must be between 0 and 5000 gCO2e/kWh (got %g)", in->ci);
    if (in->datacenter && in->platform != JC_GA_CLOUD &&
        in->platform != JC_GA_PLATFORM_DEFAULT)
        return jci_diag_set(diag, JC_ERR_USAGE,
            "--datacenter applies to --platform cloud only");
    if (in->datacenter && !in->provider)
        return jci_diag_set(diag, JC_ERR_USAGE,
            "--datacenter needs --provider (gcp, aws, azure, ...)");
    if (in->provider && in->platform != JC_GA_CLOUD &&
        in->platform != JC_GA_PLATFORM_DEFAULT)
        return jci_diag_set(diag, JC_ERR_USAGE,
            "--provider applies to --platform cloud only");
    if (in->datacenter && in->region)
        return jci_diag_set(diag, JC_ERR_USAGE,
            "give --datacenter or --region, not both: the calculator takes "
            "a data centre's location from its own table");
    return jc_ga_input_check(in, diag);
}

/* ---- the steps of the computation --------------------------------------- */

/* CPU power per core: --tdp-per-core, or the calculator's row for the
 * model ("Any" when none is named); *cpu_dev is the matching hwdb device. */
static jc_status ga_cpu(ga_ctx *c, const jc_ga_version *v, const jc_hwdb *db,
                        const jc_ga_input *in, const jc_device **cpu_dev, jc_diag *diag)
{
    jc_ga_result *r = c->r;
    jci_arena *a = c->a;
    jc_status st;
    if (in->n_cores <= 0) return JC_OK;
    r->cpu_usage = in->cpu_usage;
    if (in->tdp_per_core_w > 0) {
        r->cpu_w_per_core = in->tdp_per_core_w;
        add_used(c, "CPU power per core", r->cpu_w_per_core, "W",
                 "given with --tdp-per-core", NULL);
        if (in->cpu_model) {
            const jc_ga_hw *row;
            if (resolve_hw(v, db, in->cpu_model, 1, &row, cpu_dev, NULL) == JC_OK) {
                r->cpu_model = row->name;
                add_warning(c, jci_arena_printf(a, "--tdp-per-core %s W used instead of "
                    "the calculator's %s W for '%s'", FMT_N(in->tdp_per_core_w),
                    FMT_N(row->tdp_per_core_w.value), row->name));
            }
        }
    } else {
        const jc_ga_hw *row;
        st = resolve_hw(v, db, in->cpu_model ? in->cpu_model : "Any", 1,
                        &row, cpu_dev, diag);
        if (st) return st;
        if (!row->tdp_per_core_w.present)
            return jci_diag_set(diag, JC_ERR_HWDB,
                "CPU '%s' of calculator v%s has no TDP_per_core", row->name, v->version);
        r->cpu_model = row->name;
        r->cpu_w_per_core = row->tdp_per_core_w.value;
        add_used(c, "CPU power per core", r->cpu_w_per_core, "W",
                 jci_arena_printf(a, "TDP_per_core of '%s' (TDP_cpu.csv%s)", row->name,
                           row->tdp_w.present
                           ? jci_arena_printf(a, ": %g W / %d cores, as rounded in the table",
                                       row->tdp_w.value, row->cores)
                           : ""),
                 source_text(a, &row->tdp_per_core_w));
        if (!in->cpu_model)
            add_note(c, "CPU model unknown: the calculator's \"Any\" row (per-core power of an average CPU) was used");
    }
    /* threads given as cores */
    int phys = *cpu_dev && (*cpu_dev)->cores > 0 ? (*cpu_dev)->cores : 0;
    int thr = *cpu_dev && (*cpu_dev)->threads > 0 ? (*cpu_dev)->threads : 0;
    if (phys && thr > phys && in->n_cores > phys && in->n_cores <= thr)
        add_warning(c, jci_arena_printf(a, "--cores %d is more than the %d physical "
            "cores of %s and at most its %d threads: if these are hardware "
            "threads, give the number of cores (the calculator's power is per "
            "core; counting threads overstates CPU power up to 2x); ignore this "
            "for several sockets", in->n_cores, phys, (*cpu_dev)->name ? (*cpu_dev)->name : (*cpu_dev)->id, thr));
    return JC_OK;
}

/* GPU power per device: --gpu-tdp, or the calculator's row for the model. */
static jc_status ga_gpu(ga_ctx *c, const jc_ga_version *v, const jc_hwdb *db,
                        const jc_ga_input *in, const jc_device **gpu_dev, jc_diag *diag)
{
    jc_ga_result *r = c->r;
    jci_arena *a = c->a;
    jc_status st;
    if (in->n_gpus <= 0) return JC_OK;
    r->gpu_usage = in->gpu_usage;
    if (in->gpu_tdp_w > 0) {
        r->gpu_w = in->gpu_tdp_w;
        add_used(c, "GPU power", r->gpu_w, "W", "given with --gpu-tdp", NULL);
        if (in->gpu_model) {
            const jc_ga_hw *row;
            if (resolve_hw(v, db, in->gpu_model, 0, &row, gpu_dev, NULL) == JC_OK)
                r->gpu_model = row->name;
        }
    } else {
        const jc_ga_hw *row;
        st = resolve_hw(v, db, in->gpu_model ? in->gpu_model : "Any", 0,
                        &row, gpu_dev, diag);
        if (st) return st;
        if (!row->tdp_w.present)
            return jci_diag_set(diag, JC_ERR_HWDB,
                "GPU '%s' of calculator v%s has no power figure", row->name, v->version);
        r->gpu_model = row->name;
        r->gpu_w = row->tdp_w.value;
        add_used(c, "GPU power", r->gpu_w, "W",
                 jci_arena_printf(a, "TDP of '%s' (TDP_gpu.csv, per GPU)", row->name),
                 source_text(a, &row->tdp_w));
        if (!in->gpu_model)
            add_note(c, "GPU model unknown: the calculator's \"Any\" row (200 W per GPU) was used");
    }
    return JC_OK;
}

/* Memory power per GB requested (referenceValues.csv memoryPower). */
static jc_status ga_memory(ga_ctx *c, const jc_ga_version *v, jc_diag *diag)
{
    jc_ga_result *r = c->r;
    jci_arena *a = c->a;
    const jc_ga_constant *mp = find_const(v, "memoryPower");
    if (!mp) return jci_diag_set(diag, JC_ERR_HWDB,
                                "calculator v%s tables lack memoryPower", v->version);
    r->memory_w_per_gb = mp->value.value;
    add_used(c, "memoryPower", r->memory_w_per_gb, "W/GB",
             "referenceValues.csv, on memory requested", source_text(a, &mp->value));
    return JC_OK;
}

/* The cloud provider and data centre (--platform cloud). */
static jc_status ga_cloud(ga_ctx *c, const jc_ga_version *v, const jc_ga_input *in,
                          const jc_ga_datacenter **dcp, jc_diag *diag)
{
    jc_ga_result *r = c->r;
    const jc_ga_datacenter *dc = NULL;
    if (!in->provider)
        return jci_diag_set(diag, JC_ERR_USAGE,
            "--platform cloud needs --provider (gcp, aws, azure, ... or other)");
    int known = 0;
    for (size_t i = 0; i < v->n_providers; i++)
        if (name_eq(v->providers[i].code, in->provider)) {
            known = 1;
            r->provider = v->providers[i].code;
        }
    if (!known && find_pue(v, in->provider)) {
        known = 1;
        r->provider = find_pue(v, in->provider)->provider;
    }
    if (!known && !name_eq(in->provider, "other")) {
        char list[512] = "";
        size_t len = 0;
        for (size_t i = 0; i < v->n_providers && len < sizeof list - 40; i++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s, ",
                                    v->providers[i].code);
        return jci_diag_set(diag, JC_ERR_NOTFOUND,
            "unknown cloud provider '%s' in calculator v%s; known: %sother",
            in->provider, v->version, list);
    }
    if (!known) r->provider = "other";
    if (in->datacenter) {
        if (!strcmp(r->provider, "other"))
            return jci_diag_set(diag, JC_ERR_USAGE,
                "--datacenter needs a known provider, not 'other'");
        const char **names = calloc(v->n_datacenters + 1, sizeof *names);
        size_t nn = 0;
        for (size_t i = 0; i < v->n_datacenters; i++) {
            const jc_ga_datacenter *x = &v->datacenters[i];
            if (!name_eq(x->provider, r->provider)) continue;
            if (names) names[nn++] = x->name;
            if (name_eq(x->name, in->datacenter)) dc = x;
        }
        if (!dc) {
            char sug[512] = "";
            if (names) suggest(in->datacenter, names, nn, sug, sizeof sug);
            free(names);
            return jci_diag_set(diag, JC_ERR_NOTFOUND,
                "unknown data centre '%s' of %s in calculator v%s%s%s%s",
                in->datacenter, r->provider, v->version, sug[0] ? "; did you mean " : "",
                sug, sug[0] ? "?" : "");
        }
        free(names);
        r->datacenter = dc->name;
    }
    *dcp = dc;
    return JC_OK;
}

/* The PUE rule of the calculator: --pue; 1 for a personal computer; the
 * "Unknown" default (defaults_PUE.csv) for a local server or an unknown
 * provider; the data centre's own PUE; else the provider's default. */
static jc_status ga_pue(ga_ctx *c, const jc_ga_version *v, const jc_ga_input *in,
                        const jc_ga_datacenter *dc, jc_diag *diag)
{
    jc_ga_result *r = c->r;
    jci_arena *a = c->a;
    const jc_ga_pue_default *unk = find_pue(v, "Unknown");
    if (in->pue >= 1) {
        r->pue = in->pue;
        add_used(c, "PUE", r->pue, "", "given with --pue", NULL);
    } else if (r->platform == JC_GA_PERSONAL) {
        r->pue = 1.0;
        add_used(c, "PUE", 1.0, "", "personal computer (the calculator uses 1)", NULL);
    } else if (r->platform == JC_GA_LOCAL || !r->provider ||
               !strcmp(r->provider, "other")) {
        if (!unk) return jci_diag_set(diag, JC_ERR_HWDB,
                                     "calculator v%s tables lack the Unknown PUE default", v->version);
        r->pue = unk->value.value;
        add_used(c, "PUE", r->pue, "",
                 r->platform == JC_GA_LOCAL
                 ? "local server of unknown PUE (defaults_PUE.csv \"Unknown\")"
                 : "cloud provider 'other' (defaults_PUE.csv \"Unknown\")",
                 source_text(a, &unk->value));
    } else if (dc && dc->pue.present) {
        r->pue = dc->pue.value;
        add_used(c, "PUE", r->pue, "",
                 jci_arena_printf(a, "data centre %s %s (cloudProviders_datacenters.csv)",
                           r->provider, dc->name),
                 source_text(a, &dc->pue));
    } else {
        const jc_ga_pue_default *pd = find_pue(v, r->provider);
        if (!pd) pd = unk;
        if (!pd) return jci_diag_set(diag, JC_ERR_HWDB,
                                    "calculator v%s tables lack a PUE default", v->version);
        r->pue = pd->value.value;
        add_used(c, "PUE", r->pue, "",
                 dc ? jci_arena_printf(a, "provider %s default (data centre %s has no PUE of its own)",
                                r->provider, dc->name)
                    : jci_arena_printf(a, "provider %s default (defaults_PUE.csv)", r->provider),
                 source_text(a, &pd->value));
    }
    return JC_OK;
}

/* Carbon intensity: --ci, the data centre's location, --region, or the
 * world average (CI_aggregated.csv); then the PSF. */
static jc_status ga_ci(ga_ctx *c, const jc_ga_version *v, const jc_hwdb *db,
                       const jc_ga_input *in, const jc_ga_datacenter *dc, jc_diag *diag)
{
    jc_ga_result *r = c->r;
    jci_arena *a = c->a;
    if (in->ci >= 0) {
        r->ci = in->ci;
        add_used(c, "carbon intensity", r->ci, "gCO2e/kWh", "given with --ci", NULL);
        if (in->region || dc) {
            const jc_ga_location *l = dc ? find_location(v, db, dc->location ? dc->location : "")
                                         : find_location(v, db, in->region);
            if (l) r->location = l->code;
        }
    } else {
        const jc_ga_location *l;
        const char *why;
        if (dc) {
            if (!dc->location || !dc->location[0])
                return jci_diag_set(diag, JC_ERR_NOTFOUND,
                    "data centre %s %s has no location in calculator v%s (the "
                    "calculator drops it); give --region or --ci instead",
                    r->provider, dc->name, v->version);
            l = find_location(v, db, dc->location);
            if (!l) return jci_diag_set(diag, JC_ERR_HWDB,
                    "data centre %s %s: location '%s' is not in calculator v%s's "
                    "CI table", r->provider, dc->name, dc->location, v->version);
            why = jci_arena_printf(a, "location %s of data centre %s %s (CI_aggregated.csv)",
                            l->code, r->provider, dc->name);
        } else if (in->region) {
            l = find_location(v, db, in->region);
            if (!l) return unknown_location(v, in->region, diag);
            why = jci_arena_printf(a, "location %s (%s%s%s) in CI_aggregated.csv", l->code,
                            l->country ? l->country : "",
                            l->region && strcmp(l->region, "Any") ? ", " : "",
                            l->region && strcmp(l->region, "Any") ? l->region : "");
        } else {
            l = find_location(v, NULL, "WORLD");
            if (!l) return jci_diag_set(diag, JC_ERR_HWDB,
                    "calculator v%s tables lack the WORLD intensity", v->version);
            why = "world average (no --region given; CI_aggregated.csv WORLD)";
            add_note(c, "no --region: the world-average carbon intensity was used");
        }
        r->location = l->code;
        r->ci = l->value.value;
        add_used(c, "carbon intensity", r->ci, "gCO2e/kWh", why, source_text(a, &l->value));
    }
    if (in->psf != 1.0) {
        add_used(c, "PSF", in->psf, "", "given with --psf (pragmatic scaling factor)", NULL);
        if (in->psf != floor(in->psf))
            add_warning(c, "the calculator accepts whole PSF values only");
    }
    return JC_OK;
}

/* The calculator's arithmetic, its order of operations. */
static void ga_arithmetic(ga_ctx *c, const jc_ga_input *in)
{
    jc_ga_result *r = c->r;
    double t = in->runtime_h;
    double pcpu = 0, pgpu = 0;
    if (in->n_cores > 0)
        pcpu = r->pue * (double)in->n_cores * r->cpu_w_per_core * r->cpu_usage;
    if (in->n_gpus > 0)
        pgpu = r->pue * (double)in->n_gpus * r->gpu_w * r->gpu_usage;
    double pmem = r->pue * (in->memory_gb * r->memory_w_per_gb);
    double pcore = pcpu + pgpu;
    double p = pcore + pmem;
    double e_cpu = t * pcpu * in->psf / 1000;     /* kWh */
    double e_gpu = t * pgpu * in->psf / 1000;
    double e_mem = t * pmem * in->psf / 1000;
    double e = t * p * in->psf / 1000;
    r->power_cpu_w = pcpu;
    r->power_gpu_w = pgpu;
    r->power_memory_w = pmem;
    r->power_w = p;
    r->energy_cpu_wh = e_cpu * 1000;
    r->energy_gpu_wh = e_gpu * 1000;
    r->energy_memory_wh = e_mem * 1000;
    r->energy_wh = e * 1000;
    r->carbon_cpu_g = e_cpu * r->ci;
    r->carbon_gpu_g = e_gpu * r->ci;
    r->carbon_memory_g = e_mem * r->ci;
    r->carbon_g = e * r->ci;
}

/* Equivalences of the carbon (trees, car and train km, flights). */
static void ga_equivalences(ga_ctx *c, const jc_ga_version *v)
{
    jc_ga_result *r = c->r;
    jci_arena *a = c->a;
    int vnum = version_num(v->version);
    double cg = r->carbon_g;
    const jc_ga_constant *k;
    if ((k = find_const(v, "treeYear")) && k->value.value > 0) {
        r->tree_months = cg / k->value.value * 12;
        add_used(c, "treeYear", k->value.value, "gCO2/tree/year",
                 "tree-months = carbon / treeYear * 12", source_text(a, &k->value));
    }
    if ((k = find_const(v, "passengerCar_EU_perkm")) && k->value.value > 0) {
        r->car_km_eu = cg / k->value.value;
        add_used(c, "passengerCar_EU_perkm", k->value.value, "gCO2/km",
                 "car km (EU) = carbon / passengerCar_EU_perkm", source_text(a, &k->value));
    }
    if ((k = find_const(v, "passengerCar_US_perkm")) && k->value.value > 0) {
        r->car_km_us = cg / k->value.value;
        add_used(c, "passengerCar_US_perkm", k->value.value, "gCO2/km",
                 "car km (US) = carbon / passengerCar_US_perkm", source_text(a, &k->value));
    }
    if ((k = find_const(v, "train_perkm")) && k->value.value > 0) {
        r->train_km = cg / k->value.value;
        add_used(c, "train_perkm", k->value.value, "gCO2/km",
                 "train km = carbon / train_perkm", source_text(a, &k->value));
    }
    const jc_ga_constant *nysf = find_const(v, "flight_NY-SF");
    const jc_ga_constant *nymel = find_const(v, "flight_NYC-MEL");
    const jc_ga_constant *shortf = vnum >= 300 ? find_const(v, "flight_PAR-DUB")
                                              : find_const(v, "flight_PAR-LON");
    if (nysf && nymel && shortf && nysf->value.value > 0 && nymel->value.value > 0 &&
        shortf->value.value > 0) {
        const jc_ga_constant *f;
        if (cg < 0.5 * nysf->value.value) {
            f = shortf;
            r->flight_label = vnum >= 300 ? "Paris-Dublin" : "Paris-London";
        } else if (cg < 0.5 * nymel->value.value) {
            f = nysf;
            r->flight_label = "NYC-San Francisco";
        } else {
            f = nymel;
            r->flight_label = "NYC-Melbourne";
        }
        r->flight_fraction = cg / f->value.value;
        add_used(c, f->id, f->value.value, "gCO2e",
                 jci_arena_printf(a, "flights %s = carbon / %s (the calculator picks the "
                           "flight by size: below half of NY-SF the short one, "
                           "below half of NYC-MEL NY-SF)", r->flight_label, f->id),
                 source_text(a, &f->value));
    }
}

/* What the calculator's figure leaves out. */
static void ga_notes(ga_ctx *c, const jc_ga_input *in)
{
    jc_ga_result *r = c->r;
    jci_arena *a = c->a;
    add_note(c, "no idle floor: power is TDP x usage, so at low usage the "
                "calculator reports near-zero power where a real machine still "
                "draws tens of watts (idle CPU sockets, GPUs, fans, disks)");
    if (in->n_cores > 0 && in->cpu_usage == 1.0)
        add_note(c, "CPU usage 1 (the calculator's default): every core at TDP for the whole runtime");
    if (in->n_gpus > 0 && in->gpu_usage == 1.0)
        add_note(c, "GPU usage 1 (the calculator's default): every GPU at TDP for the whole runtime");
    if (in->memory_gb == 0)
        add_note(c, "memory 0 GB (the calculator's default when --memory is not given): no memory power at all; "
                    "give --memory GB, the memory the job requested");
    add_note(c, jci_arena_printf(a, "memory power is per GB requested (%s W/GB), not per "
                "GB installed; no power for storage, network, or the rest of the server",
                FMT_N(r->memory_w_per_gb)));
    add_note(c, "TDP is a thermal design figure, not a measurement: real draw can be above it (boost) or well below");
    add_note(c, "operational emissions only: no embodied (manufacturing) carbon");
}

/* joulecast's own estimate of the same run, for comparison. */
static jc_status ga_own(ga_ctx *c, const jc_ga_input *in, const jc_device *cpu_dev,
                        const jc_device *gpu_dev, jc_diag *diag)
{
    jc_ga_result *r = c->r;
    jci_arena *a = c->a;
    int ok = 1;
    const char *why_not = NULL;
    jc_ga_own_part parts[2];
    int np = 0;
    if (in->n_cores > 0) {
        if (!cpu_dev || !cpu_dev->tdp_w.present || !cpu_dev->idle_w.present || cpu_dev->cores <= 0) {
            ok = 0;
            why_not = cpu_dev ? jci_arena_printf(a, "hwdb device '%s' lacks TDP, idle power or core count", cpu_dev->id)
                              : "the CPU is not a hwdb device with TDP and idle power";
        } else {
            jc_ga_own_part *pp = &parts[np++];
            memset(pp, 0, sizeof *pp);
            double sockets = ceil((double)in->n_cores / cpu_dev->cores);
            pp->device_id = cpu_dev->id;
            pp->role = "cpu";
            pp->count = sockets;
            pp->idle_w = cpu_dev->idle_w.value;
            pp->tdp_w = cpu_dev->tdp_w.value;
            pp->usage = in->cpu_usage;
            pp->cores_used = (double)in->n_cores;
            pp->cores_per_socket = (double)cpu_dev->cores;
            pp->share = pp->cores_used / pp->cores_per_socket;
            pp->power_w = sockets * pp->idle_w + (pp->tdp_w - pp->idle_w) * pp->share * in->cpu_usage;
            pp->idle_source = source_text(a, &cpu_dev->idle_w);
            pp->tdp_source = source_text(a, &cpu_dev->tdp_w);
        }
    }
    if (ok && in->n_gpus > 0) {
        if (!gpu_dev || !gpu_dev->tdp_w.present || !gpu_dev->idle_w.present) {
            ok = 0;
            why_not = gpu_dev ? jci_arena_printf(a, "hwdb device '%s' lacks TDP or idle power", gpu_dev->id)
                              : "the GPU is not a hwdb device with TDP and idle power";
        } else {
            jc_ga_own_part *pp = &parts[np++];
            memset(pp, 0, sizeof *pp);
            pp->device_id = gpu_dev->id;
            pp->role = "gpu";
            pp->count = in->n_gpus;
            pp->idle_w = gpu_dev->idle_w.value;
            pp->tdp_w = gpu_dev->tdp_w.value;
            pp->usage = in->gpu_usage;
            pp->share = in->n_gpus;
            pp->power_w = in->n_gpus * (pp->idle_w + (pp->tdp_w - pp->idle_w) * in->gpu_usage);
            pp->idle_source = source_text(a, &gpu_dev->idle_w);
            pp->tdp_source = source_text(a, &gpu_dev->tdp_w);
        }
    }
    if (ok && np > 0) {
        r->has_own = 1;
        r->n_own_parts = (size_t)np;
        r->own_parts = jci_arena_calloc(a, (size_t)np, sizeof *r->own_parts);
        if (!r->own_parts) return jci_diag_set(diag, JC_ERR_NOMEM, "out of memory");
        double dev_w = 0;
        for (int i = 0; i < np; i++) {
            r->own_parts[i] = parts[i];
            dev_w += parts[i].power_w;
        }
        r->own_power_w = (dev_w + in->memory_gb * r->memory_w_per_gb) * r->pue;
        r->own_energy_wh = r->own_power_w * in->runtime_h * in->psf;
        r->own_carbon_g = r->own_energy_wh / 1000 * r->ci;
        r->own_reason = "comparison only: per device idle + (TDP - idle) x usage "
                        "(CPU: idle of every socket in use, dynamic power per core "
                        "used), same memory power, PUE, PSF and carbon intensity";
    } else {
        r->has_own = 0;
        r->own_reason = why_not ? why_not : "no device to compare";
    }
    return JC_OK;
}

/* ---- the computation --------------------------------------------------- */

static jc_status compute(ga_ctx *c, const jc_ga_version *v, const jc_hwdb *db,
                         const jc_ga_input *in, jc_diag *diag)
{
    jc_ga_result *r = c->r;
    jc_status st;
    const jc_device *cpu_dev = NULL, *gpu_dev = NULL;
    const jc_ga_datacenter *dc = NULL;

    r->version = v->version;
    r->runtime_h = in->runtime_h;
    r->n_cores = in->n_cores;
    r->n_gpus = in->n_gpus;
    r->memory_gb = in->memory_gb;
    r->psf = in->psf;
    r->platform = in->platform == JC_GA_PLATFORM_DEFAULT && in->provider
                ? JC_GA_CLOUD : in->platform;
    if (r->platform == JC_GA_PLATFORM_DEFAULT) r->platform = JC_GA_LOCAL;


    if ((st = ga_cpu(c, v, db, in, &cpu_dev, diag))) return st;
    if ((st = ga_gpu(c, v, db, in, &gpu_dev, diag))) return st;
    if ((st = ga_memory(c, v, diag))) return st;
    if (r->platform == JC_GA_CLOUD && (st = ga_cloud(c, v, in, &dc, diag))) return st;
    if ((st = ga_pue(c, v, in, dc, diag))) return st;
    if ((st = ga_ci(c, v, db, in, dc, diag))) return st;
    ga_arithmetic(c, in);
    ga_equivalences(c, v);
    ga_notes(c, in);
    return ga_own(c, in, cpu_dev, gpu_dev, diag);
}

jc_status jc_ga_compute_tables(const jc_ga_version *tables, const jc_hwdb *db,
                               const jc_ga_input *in, jc_ga_result **out,
                               jc_diag *diag)
{
    if (out) *out = NULL;
    if (!tables || !in || !out)
        return jci_diag_set(diag, JC_ERR_USAGE, "jc_ga_compute: NULL argument");
    jc_status st = validate(in, diag);
    if (st) return st;
    jci_arena *a = jci_arena_new();
    if (!a) return jci_diag_set(diag, JC_ERR_NOMEM, "out of memory");
    jc_ga_result *r = jci_arena_alloc(a, sizeof *r);
    ga_ctx c = {a, r, NULL, NULL, NULL};
    if (r) {
        c.warn = jci_arena_calloc(a, GA_MAX_LIST, sizeof *c.warn);
        c.note = jci_arena_calloc(a, GA_MAX_LIST, sizeof *c.note);
        c.used = jci_arena_calloc(a, 2 * GA_MAX_LIST, sizeof *c.used);
    }
    if (!r || !c.warn || !c.note || !c.used) {
        jci_arena_free(a);
        return jci_diag_set(diag, JC_ERR_NOMEM, "out of memory");
    }
    r->warnings = c.warn;
    r->notes = c.note;
    r->used = c.used;
    r->internal_ = a;
    st = compute(&c, tables, db, in, diag);
    if (st) {
        jci_arena_free(a);
        return st;
    }
    *out = r;
    return JC_OK;
}

jc_status jc_ga_compute(const jc_hwdb *db, const jc_ga_input *in,
                        jc_ga_result **out, jc_diag *diag)
{
    if (out) *out = NULL;
    if (!db || !in || !out)
        return jci_diag_set(diag, JC_ERR_USAGE, "jc_ga_compute: NULL argument");
    const jc_ga_version *v = NULL;
    const char *ver = in->version;
    if (ver && (*ver == 'v' || *ver == 'V')) ver++;
    jc_status st = jc_hwdb_ga(db, ver, &v, NULL);
    if (st || !v) {
        char list[256] = "";
        size_t len = 0;
        for (size_t i = 0; i < db->n_ga && len < sizeof list - 16; i++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s",
                                    i ? ", " : "", db->ga[i].version);
        return jci_diag_set(diag, JC_ERR_NOTFOUND,
            "no Green Algorithms calculator version '%s' in the database "
            "(available: %s)", in->version ? in->version : "latest",
            list[0] ? list : "none");
    }
    return jc_ga_compute_tables(v, db, in, out, diag);
}

void jc_ga_result_free(jc_ga_result *r)
{
    if (r) jci_arena_free((jci_arena *)r->internal_);
}

/* ---- runtime parsing ---------------------------------------------------- */

jc_status jc_ga_parse_runtime(const char *s, double *hours, jc_diag *diag)
{
    if (!s || !*s)
        return jci_diag_set(diag, JC_ERR_USAGE, "empty runtime");
    static const char units[] = "dhms";
    static const double per_h[] = {24.0, 1.0, 1.0 / 60.0, 1.0 / JCI_S_PER_H};
    const char *p = s;
    double total = 0;
    int next_unit = 0, parts = 0;
    while (*p) {
        if (*p == '-')
            return jci_diag_set(diag, JC_ERR_USAGE,
                "runtime '%s' is negative; give a positive duration such as 90m, 1.5h, 12h30m, 2d", s);
        if (!((*p >= '0' && *p <= '9') || *p == '.'))
            return jci_diag_set(diag, JC_ERR_USAGE,
                "runtime '%s' is not a duration (examples: 90m, 1.5h, 12h30m, 2d, 1d6h, or hours as a number)", s);
        char numbuf[64];
        size_t n = 0;
        int dots = 0, digits = 0;
        while ((*p >= '0' && *p <= '9') || *p == '.') {
            if (*p == '.') dots++;
            else digits++;
            if (n + 1 >= sizeof numbuf)
                return jci_diag_set(diag, JC_ERR_USAGE, "runtime '%s' is too long", s);
            numbuf[n++] = *p++;
        }
        numbuf[n] = 0;
        if (dots > 1 || !digits)
            return jci_diag_set(diag, JC_ERR_USAGE, "runtime '%s': malformed number '%s'", s, numbuf);
        double x = strtod(numbuf, NULL);
        if (!*p) {
            if (parts)
                return jci_diag_set(diag, JC_ERR_USAGE,
                    "runtime '%s': the number '%s' lacks a unit (d, h, m or s)", s, numbuf);
            total = x;  /* a plain number of hours */
            parts++;
            break;
        }
        const char *u = strchr(units, *p);
        if (!u || !*p)
            return jci_diag_set(diag, JC_ERR_USAGE,
                "runtime '%s': unknown unit '%c' (use d, h, m or s)", s, *p);
        int ui = (int)(u - units);
        if (ui < next_unit)
            return jci_diag_set(diag, JC_ERR_USAGE,
                "runtime '%s': units must come once each, in the order d, h, m, s", s);
        next_unit = ui + 1;
        total += x * per_h[ui];
        parts++;
        p++;
    }
    if (!isfinite(total) || total > 1e9)
        return jci_diag_set(diag, JC_ERR_USAGE, "runtime '%s' is out of range", s);
    *hours = total;
    return JC_OK;
}
