/*
 * schema.c (hwdb) - the hwdb schema tables (src/hwdb/hwdb_fields.h): each record
 * kind's src/hwdb/fields_<kind>.def expanded into field descriptors, and
 * the enum values they name.
 */
#include "base/jc_internal.h"
#include "hwdb/hwdb_fields.h"
#include "hwdb/hwdb_int.h"

#include <stddef.h>
#include <string.h>

const char *const jci_device_kind_names[] = {"gpu", "cpu", "tpu", "accelerator", "soc", NULL};
const char *const jci_memory_type_names[] = {"HBM", "HBM2", "HBM2e", "HBM3", "HBM3e", "HBM4", "GDDR5", "GDDR5X",
                                             "GDDR6", "GDDR6X", "GDDR7", "LPDDR4", "LPDDR4X", "LPDDR5",
                                             "LPDDR5X", "DDR2", "DDR3", "DDR4", "DDR5", "unified", NULL};
const char *const jci_precision_names[] = {"fp64", "fp32", "tf32", "fp16", "bf16",
                                           "fp8", "int8", "int4", NULL};
const char *const jci_host_kind_names[] = {"server", "cloud-instance", NULL};
const char *const jci_region_type_names[] = {"world", "aggregate", "country", "subnational",
                                             "grid", "cloud", NULL};
const char *const jci_ga_location_types[] = {"Country", "Region", "World", NULL};

_Static_assert(sizeof(jc_device_kind) == sizeof(int) && sizeof(jc_host_kind) == sizeof(int) &&
                   sizeof(jc_region_type) == sizeof(int),
               "an ENUM field is stored as int");

#define HF_NONE .has_range = 0
#define HF_R(a, l, b, h) .lo = (l), .hi = (h), .lo_open = HF_OPEN_##a, .hi_open = HF_OPEN_##b, \
                         .has_range = 1
#define HF_NAMES(v) .names = (v)
#define HF_COUNT(c) .count_off = offsetof(HF_REC, c)
#define HF_ARR(t, c) .count_off = offsetof(HF_REC, c), .elem = (t)
#define JCF(m, k, t, fl, arg, u, d) \
    {.key = k, .member = #m, .type = HF_T_##t, .flags = (fl), .off = offsetof(HF_REC, m), arg, \
     .unit = u, .doc = d},

#define HF_REC jc_device
static const jci_hwfield device_fields[] = {
#include "hwdb/fields_device.def"
};
#undef HF_REC
#define HF_REC jc_host
static const jci_hwfield host_fields[] = {
#include "hwdb/fields_host.def"
};
#undef HF_REC
#define HF_REC jc_region
static const jci_hwfield region_fields[] = {
#include "hwdb/fields_region.def"
};
#undef HF_REC
#define HF_REC jc_dataset
static const jci_hwfield dataset_fields[] = {
#include "hwdb/fields_dataset.def"
};
#undef HF_REC
#define HF_REC jc_provider
static const jci_hwfield provider_fields[] = {
#include "hwdb/fields_provider.def"
};
#undef HF_REC
#define HF_REC jc_constant
static const jci_hwfield constant_fields[] = {
#include "hwdb/fields_constant.def"
};
#undef HF_REC
#define HF_REC jc_source
static const jci_hwfield source_fields[] = {
#include "hwdb/fields_source.def"
};
#undef HF_REC
#define HF_REC jc_ga_version
static const jci_hwfield ga_fields[] = {
#include "hwdb/fields_ga.def"
};
#undef HF_REC
#define HF_REC jc_ga_pue_default
static const jci_hwfield ga_pue_fields[] = {
#include "hwdb/fields_ga_pue.def"
};
#undef HF_REC
#define HF_REC jc_ga_provider
static const jci_hwfield ga_provider_fields[] = {
#include "hwdb/fields_ga_provider.def"
};
#undef HF_REC
#define HF_REC jc_ga_datacenter
static const jci_hwfield ga_dc_fields[] = {
#include "hwdb/fields_ga_dc.def"
};
#undef HF_REC
#define HF_REC jc_ga_hw
static const jci_hwfield ga_cpu_fields[] = {
#include "hwdb/fields_ga_cpu.def"
};
#undef HF_REC
#define HF_REC jc_ga_hw
static const jci_hwfield ga_gpu_fields[] = {
#include "hwdb/fields_ga_gpu.def"
};
#undef HF_REC
#define HF_REC jc_ga_constant
static const jci_hwfield ga_const_fields[] = {
#include "hwdb/fields_ga_const.def"
};
#undef HF_REC
#define HF_REC jc_ga_location
static const jci_hwfield ga_loc_fields[] = {
#include "hwdb/fields_ga_loc.def"
};
#undef HF_REC

/* Every kind: its name, YAML section, record type, snapshot type and rows. */
#define KIND(nm, sec, rec, t, rows) \
    .name = nm, .section = sec, .record = #rec, .ht = t, .fields = rows, \
    .n = sizeof rows / sizeof rows[0]
/* An entry kind: its label in messages, its id's name there, its namespace
 * (member m of hw_internal), its array of jc_hwdb (arr, counted by n). */
#define ENTRY(lbl, idn, nsk, m, arr, n) \
    .label = lbl, .idname = idn, .ns = nsk, .ns_off = offsetof(hw_internal, m), \
    .db_off = offsetof(jc_hwdb, arr), .db_n_off = offsetof(jc_hwdb, n)
/* A record that says where its mapping is (file, line, col). */
#define AT(rec) \
    .has_at = 1, .file_off = offsetof(rec, file), .line_off = offsetof(rec, line), \
    .col_off = offsetof(rec, col)
static const jci_hwkind kinds[HF_K_COUNT] = {
    [HF_K_DEVICE] = {KIND("device", "devices", jc_device, HT_DEVICE, device_fields),
                     ENTRY("device", "device id", HW_NS_DEVICE, hw, devices, n_devices),
                     AT(jc_device)},
    [HF_K_HOST] = {KIND("host", "hosts", jc_host, HT_HOST, host_fields),
                   ENTRY("host", "host id", HW_NS_HOST, hw, hosts, n_hosts), AT(jc_host)},
    [HF_K_REGION] = {KIND("region", "regions", jc_region, HT_REGION, region_fields),
                     ENTRY("region", "region code", HW_NS_REGION, regions, regions, n_regions),
                     AT(jc_region)},
    [HF_K_DATASET] = {KIND("dataset", "intensities", jc_dataset, HT_DATASET, dataset_fields),
                      ENTRY("dataset", "dataset id", HW_NS_DATASET, datasets, datasets,
                            n_datasets),
                      .single = 1, AT(jc_dataset)},
    [HF_K_PROVIDER] = {KIND("provider", "providers", jc_provider, HT_PROVIDER, provider_fields),
                       ENTRY("provider", "provider id", HW_NS_PROVIDER, providers, providers,
                             n_providers),
                       AT(jc_provider)},
    [HF_K_CONSTANT] = {KIND("constant", "constants", jc_constant, HT_CONSTANT, constant_fields),
                       ENTRY("constant", "constant id", HW_NS_CONSTANT, constants, constants,
                             n_constants)},
    [HF_K_SOURCE] = {KIND("source", "sources", jc_source, HT_SOURCE, source_fields),
                     AT(jc_source)},
    [HF_K_GA] = {KIND("ga", "ga", jc_ga_version, HT_GA_VERSION, ga_fields),
                 ENTRY("ga version", "ga version", HW_NS_GA, ga, ga, n_ga), .single = 1,
                 AT(jc_ga_version)},
    [HF_K_GA_PUE] = {KIND("ga_pue_default", "ga.pue_defaults", jc_ga_pue_default, HT_GA_PUE,
                          ga_pue_fields)},
    [HF_K_GA_PROVIDER] = {KIND("ga_provider", "ga.providers", jc_ga_provider, HT_GA_PROVIDER,
                               ga_provider_fields)},
    [HF_K_GA_DC] = {KIND("ga_datacenter", "ga.datacenters", jc_ga_datacenter, HT_GA_DC,
                         ga_dc_fields)},
    [HF_K_GA_CPU] = {KIND("ga_cpu", "ga.cpus", jc_ga_hw, HT_GA_CPU, ga_cpu_fields)},
    [HF_K_GA_GPU] = {KIND("ga_gpu", "ga.gpus", jc_ga_hw, HT_GA_GPU, ga_gpu_fields)},
    [HF_K_GA_CONST] = {KIND("ga_constant", "ga.constants", jc_ga_constant, HT_GA_CONST,
                            ga_const_fields)},
    [HF_K_GA_LOC] = {KIND("ga_location", "ga.locations", jc_ga_location, HT_GA_LOC,
                          ga_loc_fields)},
};

const jci_hwkind *jci_hwdb_kind(int k)
{
    return k >= 0 && k < HF_K_COUNT ? &kinds[k] : NULL;
}

const jci_hwkind *jci_hwdb_kind_of(int ht)
{
    for (int k = 0; k < HF_K_COUNT; k++)
        if (kinds[k].ht == ht) return &kinds[k];
    return NULL;
}

const jci_hwkind *jci_hwdb_kind_ns(int ns)
{
    for (int k = 0; ns && k < HF_K_COUNT; k++)
        if (kinds[k].ns == ns) return &kinds[k];
    return NULL;
}

const jci_hwfield *jci_hwdb_id_row(const jci_hwkind *k)
{
    for (size_t i = 0; i < k->n; i++)
        if (k->fields[i].type == HF_T_ID) return &k->fields[i];
    return NULL;
}

const jci_hwfield *jci_hwdb_alias_row(const jci_hwkind *k)
{
    for (size_t i = 0; i < k->n; i++)
        if (k->fields[i].flags & HF_ALIASES) return &k->fields[i];
    return NULL;
}

const char *jci_hwfield_str(const jci_hwfield *f, const void *rec)
{
    const unsigned char *p = (const unsigned char *)rec + f->off;
    if (f->type == HF_T_ID || f->type == HF_T_STR) {
        const char *s;
        memcpy(&s, p, sizeof s);
        return s;
    }
    if (f->type != HF_T_ENUM) return NULL;
    int e, n = 0;
    memcpy(&e, p, sizeof e);
    while (f->names[n]) n++;
    return e >= 0 && e < n ? f->names[e] : NULL;
}

bool jci_hwdb_at(const jci_hwkind *k, const void *rec, const char **file, int *line, int *col)
{
    const unsigned char *p = rec;
    if (!k->has_at) return false;
    memcpy(file, p + k->file_off, sizeof *file);
    memcpy(line, p + k->line_off, sizeof *line);
    memcpy(col, p + k->col_off, sizeof *col);
    return true;
}
