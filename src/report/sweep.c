/*
 * sweep.c (report) - renders a jc_sweep as text, JSON and CSV.  Formatting
 * only: the entries, their order and the Pareto marks come from
 * src/workflows/sweep.c; the JSON keys are documented in docs/json-schemas.md
 * ("sweep").
 */
#include "base/jc_internal.h"
#include "base/fmt.h"

#include <cjson/cJSON.h>
#include "report/rjson.h"
#include "joulecast/sweep.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *plural(size_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

static void entry_row(FILE *f, size_t rank, const jc_sweep_entry *x)
{
    char t[40], en[40], co[40], ci[40], b[40], own[40];
    if (x->batch > 0) fmt_num(b, sizeof b, x->batch);
    else snprintf(b, sizeof b, "-");
    if (x->ci_basis_fallback) snprintf(own, sizeof own, "own");
    else if (isnan(x->ci_region_default)) snprintf(own, sizeof own, "-");
    else fmt_num(own, sizeof own, x->ci_region_default);
    fprintf(f, "  %5zu %c %-24.24s %-27.27s %-5s %6s %11s %13s %11s %9s %5s %9s", rank,
            x->pareto ? '*' : ' ', x->device_id ? x->device_id : "-",
            x->region_code ? x->region_code : "(--ci)", x->precision ? x->precision : "-", b,
            fmt_num(t, sizeof t, x->wall_hours.central), fmt_num(en, sizeof en, x->energy_kwh.central),
            fmt_num(co, sizeof co, x->co2_kg.central), fmt_num(ci, sizeof ci, x->ci), FMT_N(x->pue), own);
    char cost[48], wl[40];
    if (x->cost_currency) snprintf(cost, sizeof cost, "%s %s", fmt_num(t, sizeof t, x->cost.central), x->cost_currency);
    else snprintf(cost, sizeof cost, "n/a");
    fprintf(f, " %14s %c %9s", cost, !x->cost_basis ? ' ' : strcmp(x->cost_basis, "electricity") ? 'i' : 'e',
            fmt_num(wl, sizeof wl, x->water_l.central));
    if (x->top_driver) fprintf(f, "  %s (%s)", x->top_driver, fmt_num(t, sizeof t, x->top_driver_swing));
    fputc('\n', f);
}

/* The table's header; with --sensitivity (the first entry has a top
 * driver) one more column names each entry's. */
static void table_head(FILE *f, const jc_sweep *s)
{
    fprintf(f, "  %5s %c %-24s %-27s %-5s %6s %11s %13s %11s %9s %5s %9s %14s   %9s%s\n", "rank", ' ', "device", "region",
            "prec", "batch", "wall h", "facility kWh", "kgCO2e", "gCO2e/kWh", "PUE", "own CI", "cost", "water L",
            s->n_entries && s->entries[0].top_driver ? "  top driver (kgCO2e swing, --sensitivity)" : "");
}

jc_status jc_report_sweep_text(const jc_sweep *s, size_t top, FILE *f)
{
    char n1[40];
    fprintf(f, "joulecast sweep: %s%s%s, %s method, sorted by %s (central)\n", s->model ? s->model : "",
            s->model ? ", " : "", jc_mode_name(s->mode), jc_method_name(s->method), jc_sweep_sort_name(s->sort));
    fprintf(f, "grid       %zu %s x %zu %s x %zu batch %s x %zu %s = %s points\n", s->n_devices,
            plural(s->n_devices, "device", "devices"), s->n_regions, plural(s->n_regions, "region", "regions"),
            s->n_batches, plural(s->n_batches, "size", "sizes"), s->n_precisions,
            plural(s->n_precisions, "precision", "precisions"), fmt_int(n1, sizeof n1, (int64_t)s->n_points));
    char n2[40], n3[40];
    fprintf(f, "result     %s estimated, %s skipped (%zu %s below), %zu on the Pareto front of time vs "
               "emissions (*)\n", fmt_int(n2, sizeof n2, (int64_t)s->n_entries),
            fmt_int(n3, sizeof n3, (int64_t)s->n_skipped_points), s->n_skipped,
            plural(s->n_skipped, "entry", "entries"), s->n_pareto);
    if (s->n_unsold) {
        char n4[40];
        fprintf(f, "left out   %s device/region %s no provider sells (%s %s): the cloud region's provider has no "
                   "instance with the device\n", fmt_int(n4, sizeof n4, (int64_t)s->n_unsold),
                plural(s->n_unsold, "pair", "pairs"), fmt_int(n3, sizeof n3, (int64_t)s->n_unsold_points),
                plural(s->n_unsold_points, "point", "points"));
    }
    if (s->model) fprintf(f, "analyses   %zu (the model is counted once per batch size)\n", s->n_analyses);
    if (!isnan(s->ci_given))
        fprintf(f, "intensity  %s gCO2e/kWh for every entry (given: --ci)\n", FMT_N(s->ci_given));
    else if (s->ci_basis)
        fprintf(f, "intensity  every region on one basis: dataset %s (its grid zone's value for a cloud region "
                   "without one; --ci-dataset default uses each region's own); 'own CI': the region's own default "
                   "figure where it differs (e.g. Google's for a GCP region), not used; 'own': the region has no value in "
                   "the basis, its own default dataset is used (--json: ci_dataset)\n", s->ci_basis);
    else
        fprintf(f, "intensity  each region's own default dataset (bases may differ between providers)\n");
    fprintf(f, "host       each entry's own (no --host: the provider's instance for the device and count in a cloud "
               "region, else the system class's share of a server; --json names it per entry)\n");
    fprintf(f, "facility   facility kWh (and J/sample, --json/--csv) are at the facility: devices + host, x the PUE column\n");
    fprintf(f, "cost       i: instances x wall hours x the instance's price per hour; e: facility kWh x the electricity "
               "price (no instance price); n/a: no price known (--json: each entry's cost with its basis); water L: "
               "total consumed (on-site and/or off-site, as known)\n");

    if (s->n_entries) {
        size_t shown = top && top < s->n_entries ? top : s->n_entries;
        fprintf(f, "\n");
        table_head(f, s);
        for (size_t i = 0; i < shown; i++) entry_row(f, i + 1, &s->entries[i]);
        if (shown < s->n_entries)
            fprintf(f, "  ... %zu more (--top 0 lists all; --csv and --json always do)\n", s->n_entries - shown);

        fprintf(f, "\nPareto front (fastest first): no other entry is both faster and lower in emissions\n");
        table_head(f, s);
        /* the front in time order: the ranks of front entries, sorted by time */
        size_t *idx = malloc(s->n_pareto * sizeof *idx);
        if (!idx) return JC_ERR_NOMEM;
        size_t k = 0;
        for (size_t i = 0; i < s->n_entries; i++)
            if (s->entries[i].pareto) idx[k++] = i;
        for (size_t i = 1; i < k; i++) {   /* insertion sort: the front is short */
            size_t v = idx[i], j = i;
            while (j > 0 && s->entries[idx[j - 1]].wall_hours.central > s->entries[v].wall_hours.central) {
                idx[j] = idx[j - 1];
                j--;
            }
            idx[j] = v;
        }
        for (size_t i = 0; i < k; i++) entry_row(f, idx[i] + 1, &s->entries[idx[i]]);
        free(idx);
    }
    if (s->n_skipped) {
        fprintf(f, "\nskipped (never estimated; the reason is what is missing)\n");
        for (size_t i = 0; i < s->n_skipped; i++) {
            const jc_sweep_entry *x = &s->skipped[i];
            char b[40];
            if (x->batch > 0) snprintf(b, sizeof b, "batch %s", FMT_N(x->batch));
            else snprintf(b, sizeof b, "every batch");
            fprintf(f, "  %-24s %-27s %-5s %-12s %s\n", x->device_id ? x->device_id : "(every device)",
                    x->region_code ? x->region_code : "(every region)", x->precision ? x->precision : "-", b,
                    x->reason ? x->reason : "");
        }
    }
    if (s->n_notes) {
        fprintf(f, "\nnotes (warnings of the estimates, each once)\n");
        for (size_t i = 0; i < s->n_notes; i++) fprintf(f, "  ! %s\n", s->notes[i]);
    }
    return ferror(f) ? JC_ERR_IO : JC_OK;
}

/* ---- JSON ---------------------------------------------------------------------- */

char *jc_report_sweep_json(const jc_sweep *s)
{
    cJSON *root = cJSON_CreateObject(), *o, *arr;
    char *out = NULL;
    if (!root) return NULL;
    REQ(rj_str(root, "schema", "joulecast-sweep/1"));
    REQ(rj_str(root, "model", s->model));
    REQ(rj_str(root, "ci_basis", s->ci_basis));
    REQ(rj_str(root, "mode", jc_mode_name(s->mode)));
    REQ(rj_str(root, "method", jc_method_name(s->method)));
    REQ(rj_str(root, "sort", jc_sweep_sort_name(s->sort)));
    REQ(o = cJSON_AddObjectToObject(root, "grid"));
    REQ(rj_num(o, "devices", (double)s->n_devices));
    REQ(rj_num(o, "regions", (double)s->n_regions));
    REQ(rj_num(o, "batches", (double)s->n_batches));
    REQ(rj_num(o, "precisions", (double)s->n_precisions));
    REQ(rj_num(o, "points", (double)s->n_points));
    REQ(rj_num(o, "estimated", (double)s->n_entries));
    REQ(rj_num(o, "skipped_points", (double)s->n_skipped_points));
    REQ(rj_num(o, "unsold_pairs", (double)s->n_unsold));
    REQ(rj_num(o, "unsold_points", (double)s->n_unsold_points));
    REQ(rj_num(o, "pareto", (double)s->n_pareto));
    REQ(rj_num(o, "analyses", (double)s->n_analyses));
    REQ(arr = cJSON_AddArrayToObject(root, "entries"));
    for (size_t i = 0; i < s->n_entries; i++) {
        const jc_sweep_entry *x = &s->entries[i];
        REQ(o = rj_push_object(arr));
        REQ(rj_num(o, "rank", (double)(i + 1)));
        REQ(rj_str(o, "device", x->device_id));
        REQ(rj_str(o, "device_name", x->device_name));
        REQ(rj_str(o, "region", x->region_code));
        REQ(rj_str(o, "precision", x->precision));
        REQ(rj_num(o, "batch", x->batch));
        REQ(cJSON_AddBoolToObject(o, "pareto", x->pareto));
        REQ(rj_range(o, "wall_hours", x->wall_hours));
        REQ(rj_range(o, "energy_kwh", x->energy_kwh));
        REQ(rj_range(o, "co2_kg", x->co2_kg));
        REQ(rj_num(o, "ci_gco2e_per_kwh", x->ci));
        REQ(rj_num(o, "pue", x->pue));
        REQ(rj_num(o, "ci_region_default", x->ci_region_default));
        REQ(rj_str(o, "ci_dataset", x->ci_dataset));
        REQ(rj_num(o, "j_per_sample", rj_known(x->j_per_sample)));
        REQ(rj_str(o, "host", x->host));
        REQ(rj_num(o, "hosts", x->host ? x->hosts : NAN));
        REQ(rj_range(o, "cost", x->cost));
        REQ(rj_str(o, "cost_currency", x->cost_currency));
        REQ(rj_range(o, "water_l", x->water_l));
        if (x->top_driver) {   /* --sensitivity */
            cJSON *t;
            REQ(t = cJSON_AddObjectToObject(o, "top_driver"));
            REQ(rj_str(t, "key", x->top_driver));
            REQ(rj_num(t, "co2_kg_swing", x->top_driver_swing));
        }
    }
    REQ(arr = cJSON_AddArrayToObject(root, "skipped"));
    for (size_t i = 0; i < s->n_skipped; i++) {
        const jc_sweep_entry *x = &s->skipped[i];
        const rj_field fs[] = {
            RJF_S("device", x->device_id), RJF_S("region", x->region_code), RJF_S("precision", x->precision),
            RJF_N("batch", x->batch > 0 ? x->batch : NAN), RJF_S("reason", x->reason),
        };
        REQ(o = rj_push_object(arr));
        REQ(rj_fields(o, fs, sizeof fs / sizeof fs[0]));
    }
    REQ(rj_str_array(root, "notes", (const char *const *)s->notes, s->n_notes));
    out = rj_print(root);
done:
    cJSON_Delete(root);
    return out;
}

/* The grid point of a CSV row: device, device_name, region, precision, batch. */
static void csv_point(FILE *f, const jc_sweep_entry *x)
{
    jci_csv_field(f, x->device_id, 0);
    fputc(',', f);
    jci_csv_field(f, x->device_name, 0);
    fputc(',', f);
    jci_csv_field(f, x->region_code, 0);
    fprintf(f, ",%s,", x->precision ? x->precision : "");
    if (x->batch > 0) fprintf(f, "%g", x->batch);
}

/* ---- CSV ------------------------------------------------------------------------ */

jc_status jc_report_sweep_csv(const jc_sweep *s, FILE *f)
{
    fprintf(f, "rank,device,device_name,region,precision,batch,pareto,wall_hours_low,wall_hours,wall_hours_high,"
               "energy_kwh_low,energy_kwh,energy_kwh_high,co2_kg_low,co2_kg,co2_kg_high,ci_gco2e_per_kwh,pue,"
               "j_per_sample,ci_region_default,ci_dataset,skipped_reason,cost_low,cost,cost_high,cost_currency,"
               "water_l_low,water_l,water_l_high\n");
    for (size_t i = 0; i < s->n_entries; i++) {
        const jc_sweep_entry *x = &s->entries[i];
        fprintf(f, "%zu,", i + 1);
        csv_point(f, x);
        fprintf(f, ",%d", x->pareto);
        rcsv_range(f, x->wall_hours);
        rcsv_range(f, x->energy_kwh);
        rcsv_range(f, x->co2_kg);
        fputc(',', f);
        rcsv_num(f, x->ci);
        fputc(',', f);
        rcsv_num(f, x->pue);
        fputc(',', f);
        rcsv_num(f, rj_known(x->j_per_sample));
        fputc(',', f);
        rcsv_num(f, x->ci_region_default);
        fputc(',', f);
        jci_csv_field(f, x->ci_dataset ? x->ci_dataset : "", 0);
        fputc(',', f);
        rcsv_range(f, x->cost);
        fputc(',', f);
        jci_csv_field(f, x->cost_currency ? x->cost_currency : "", 0);
        rcsv_range(f, x->water_l);
        fputc('\n', f);
    }
    for (size_t i = 0; i < s->n_skipped; i++) {
        const jc_sweep_entry *x = &s->skipped[i];
        fprintf(f, ",");
        csv_point(f, x);
        fprintf(f, ",,,,,,,,,,,,,,,,");
        jci_csv_field(f, x->reason, 0);
        fputs(",,,,,,,\n", f);
    }
    return ferror(f) ? JC_ERR_IO : JC_OK;
}
