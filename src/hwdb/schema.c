/*
 * schema.c - the hwdb schema tables (src/hwdb/hwdb_fields.h): each record
 * kind's src/hwdb/fields_<kind>.def expanded into field descriptors, and
 * the enum values they name.
 */
#include "base/jc_internal.h"
#include "hwdb/hwdb_fields.h"

#include <stddef.h>

const char *const jci_device_kind_names[] = {"gpu", "cpu", "tpu", "accelerator", "soc", NULL};
const char *const jci_precision_names[] = {"fp64", "fp32", "tf32", "fp16", "bf16",
                                           "fp8", "int8", "int4", NULL};
const char *const jci_host_kind_names[] = {"server", "cloud-instance", NULL};
const char *const jci_region_type_names[] = {"world", "aggregate", "country", "subnational",
                                             "grid", "cloud", NULL};

_Static_assert(sizeof(jc_device_kind) == sizeof(int) && sizeof(jc_host_kind) == sizeof(int) &&
                   sizeof(jc_region_type) == sizeof(int),
               "an ENUM field is stored as int");

#define HF_NONE .has_range = 0
#define HF_R(a, l, b, h) .lo = (l), .hi = (h), .lo_open = HF_OPEN_##a, .hi_open = HF_OPEN_##b, \
                         .has_range = 1
#define HF_NAMES(v) .names = (v)
#define HF_COUNT(c) .count_off = offsetof(HF_REC, c)
#define HF_ARR(t, c) .count_off = offsetof(HF_REC, c)
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
#define HF_REC jc_source
static const jci_hwfield source_fields[] = {
#include "hwdb/fields_source.def"
};
#undef HF_REC

#define KIND(name, section, rec, rows) {name, section, #rec, rows, sizeof rows / sizeof rows[0]}
static const jci_hwkind kinds[HF_K_COUNT] = {
    [HF_K_DEVICE] = KIND("device", "devices", jc_device, device_fields),
    [HF_K_HOST] = KIND("host", "hosts", jc_host, host_fields),
    [HF_K_REGION] = KIND("region", "regions", jc_region, region_fields),
    [HF_K_DATASET] = KIND("dataset", "intensities", jc_dataset, dataset_fields),
    [HF_K_PROVIDER] = KIND("provider", "providers", jc_provider, provider_fields),
    [HF_K_SOURCE] = KIND("source", "sources", jc_source, source_fields),
};

const jci_hwkind *jci_hwdb_kind(int k)
{
    return k >= 0 && k < HF_K_COUNT ? &kinds[k] : NULL;
}
