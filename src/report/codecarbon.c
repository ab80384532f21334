/*
 * codecarbon.c (report) - `joulecast estimate --format codecarbon`: the
 * estimate as one row of CodeCarbon's emissions.csv, so predictions land
 * in the dashboards and notebooks people already feed with CodeCarbon.
 *
 * The columns are those written by codecarbon 2.4 (its examples/emissions.csv,
 * copied to tests/data/codecarbon/emissions-sample.csv).  Units follow CodeCarbon:
 * duration in s, emissions in kg, emissions_rate in kg/s, power in W,
 * energy in kWh; CodeCarbon multiplies every energy column by its `pue`,
 * so gpu_energy and cpu_energy here are IT energy x PUE and
 * energy_consumed is joulecast's facility energy.  Which column is a
 * prediction, which is derived and which stays empty is documented in the
 * README ("CodeCarbon format") and in joulecast.h.
 */
#include "base/jc_internal.h"
#include "joulecast/hwdb.h"
#include "joulecast/estimate.h"
#include "joulecast/workflows.h"

#include <ctype.h>
#include <math.h>
#include <string.h>

static const char *const cols[] = {
    "timestamp", "project_name", "run_id", "duration", "emissions", "emissions_rate",
    "cpu_power", "gpu_power", "ram_power", "cpu_energy", "gpu_energy", "ram_energy",
    "energy_consumed", "country_name", "country_iso_code", "region", "cloud_provider",
    "cloud_region", "os", "python_version", "codecarbon_version", "cpu_count", "cpu_model",
    "gpu_count", "gpu_model", "longitude", "latitude", "ram_total_size", "tracking_mode",
    "on_cloud", "pue",
};

/* A CSV field after its separator (none before the first). */
static void field(FILE *f, const char *s, int first)
{
    if (!first) fputc(',', f);
    jci_csv_field(f, s, false);
}

static void numf(FILE *f, double v)
{
    fputc(',', f);
    if (isfinite(v)) fprintf(f, "%.10g", v);
}

/* The ISO 3166 alpha-3 alias of a country region ("FRA"), or NULL. */
static const char *alpha3(const jc_region *r)
{
    for (size_t i = 0; r && i < r->n_aliases; i++) {
        const char *a = r->aliases[i];
        if (strlen(a) == 3 && isupper((unsigned char)a[0]) && isupper((unsigned char)a[1]) &&
            isupper((unsigned char)a[2]))
            return a;
    }
    return NULL;
}

jc_status jc_report_estimate_codecarbon(const jc_estimate *e, const jc_codecarbon_opts *o,
                                        FILE *f, int header)
{
    jc_codecarbon_opts none;
    memset(&none, 0, sizeof none);
    if (!o) o = &none;
    if (!e || !f) return JC_ERR_USAGE;
    size_t n = sizeof cols / sizeof cols[0];
    if (header) {
        for (size_t i = 0; i < n; i++) field(f, cols[i], i == 0);
        fputc('\n', f);
    }
    /* place: country, sub-national region, cloud (the estimate's typed fields) */
    const jc_region *r = e->region, *country = e->region_country;
    char sub[200] = "", cloud_region[200] = "";
    if (r && r->type == JC_REGION_SUBNATIONAL && r->name) {
        /* CodeCarbon writes sub-national names in lower case */
        size_t k = 0;
        for (const char *p = r->name; *p && k + 1 < sizeof sub; p++)
            sub[k++] = (char)tolower((unsigned char)*p);
        sub[k] = 0;
    }
    if (r && r->type == JC_REGION_CLOUD) {
        const char *colon = strchr(r->code, ':');
        snprintf(cloud_region, sizeof cloud_region, "%s", colon ? colon + 1 : r->code);
    }

    double T = e->wall_hours.central * JCI_S_PER_H;
    double pue = e->pue.central > 0 ? e->pue.central : NAN;   /* the PUE the estimate used */
    double gpu_kwh = e->energy_device_kwh.central * (isfinite(pue) ? pue : 1);
    double cpu_kwh = e->energy_host_kwh.central * (isfinite(pue) ? pue : 1);
    char gpu_model[300];
    snprintf(gpu_model, sizeof gpu_model, "%g x %s", e->devices, e->device_name ? e->device_name : e->device_id);

    field(f, o->timestamp, 1);
    field(f, o->project_name ? o->project_name : "joulecast-prediction", 0);
    field(f, o->run_id, 0);
    numf(f, T);
    numf(f, e->co2_kg.central);
    numf(f, T > 0 ? e->co2_kg.central / T : NAN);
    numf(f, T > 0 ? e->energy_host_kwh.central * JCI_J_PER_KWH / T : NAN);   /* cpu_power: host, W */
    numf(f, e->avg_power_w.central * e->devices);                     /* gpu_power: all devices, W */
    field(f, NULL, 0);                                                /* ram_power: in the host term */
    numf(f, cpu_kwh);
    numf(f, gpu_kwh);
    field(f, NULL, 0);                                                /* ram_energy */
    numf(f, e->energy_facility_kwh.central);
    field(f, country ? country->name : NULL, 0);
    field(f, alpha3(country), 0);
    field(f, sub[0] ? sub : NULL, 0);
    field(f, r && r->type == JC_REGION_CLOUD ? r->provider : NULL, 0);
    field(f, cloud_region[0] ? cloud_region : NULL, 0);
    field(f, NULL, 0);                                                /* os */
    field(f, NULL, 0);                                                /* python_version */
    field(f, NULL, 0);                                                /* codecarbon_version */
    field(f, NULL, 0);                                                /* cpu_count */
    field(f, NULL, 0);                                                /* cpu_model */
    numf(f, e->devices);
    field(f, gpu_model, 0);
    field(f, NULL, 0);                                                /* longitude */
    field(f, NULL, 0);                                                /* latitude */
    field(f, NULL, 0);                                                /* ram_total_size */
    field(f, "joulecast-prediction", 0);                              /* tracking_mode */
    field(f, r ? (r->type == JC_REGION_CLOUD ? "Y" : "N") : NULL, 0);
    numf(f, pue);
    fputc('\n', f);
    return ferror(f) ? JC_ERR_IO : JC_OK;
}
