/*
 * hwdb_schema.c (report) - `joulecast hwdb schema`: the field tables of
 * src/hwdb/fields_<kind>.def (the schema the loader enforces) as the
 * Markdown tables docs/hwdb-schema.md embeds and as the JSON document
 * tools/hwdb_fields.json that tools/check_hwdb.py reads.  tests/hwdb.sh
 * fails when either copy disagrees with the tables.
 */
#include "base/jc_internal.h"
#include "hwdb/hwdb_fields.h"
#include "report/rjson.h"
#include "joulecast/hwdb.h"

#include <cjson/cJSON.h>
#include <string.h>

static const char *const type_names[] = {
    [HF_T_ID] = "id", [HF_T_STR] = "string", [HF_T_STRS] = "strings",
    [HF_T_ENUM] = "enum", [HF_T_INT] = "int", [HF_T_NUM] = "number",
    [HF_T_SV] = "sourced", [HF_T_PREC] = "precisions", [HF_T_DEVREF] = "device",
    [HF_T_SRCREF] = "source", [HF_T_LIST] = "list", [HF_T_OWN] = "own",
    [HF_T_ROWNUM] = "number"};

static const char *type_name(unsigned t)
{
    return t < sizeof type_names / sizeof type_names[0] && type_names[t] ? type_names[t] : "?";
}

/* "0 < x <= 5000 W" (UTF-8 signs), or "" without a range. */
static void range_text(const jci_hwfield *f, char *buf, size_t cap)
{
    buf[0] = 0;
    if (!f->has_range) return;
    snprintf(buf, cap, "%.10g %s x %s %.10g%s%s", f->lo, f->lo_open ? "<" : "≤",
             f->hi_open ? "<" : "≤", f->hi, f->unit[0] ? " " : "", f->unit);
}

static void md_type(FILE *f, const jci_hwfield *x)
{
    switch (x->type) {
    case HF_T_ID:
    case HF_T_STR:
        if (!x->names) {
            fputs(x->flags & HF_EMPTY ? "string (may be \"\")" : "string", f);
            break;
        }
        for (size_t i = 0; x->names[i]; i++) fprintf(f, "%s`%s`", i ? " " : "", x->names[i]);
        break;
    case HF_T_STRS: fputs("list of strings", f); break;
    case HF_T_ENUM:
        for (size_t i = 0; x->names[i]; i++) fprintf(f, "%s`%s`", i ? " " : "", x->names[i]);
        break;
    case HF_T_INT: fputs("int", f); break;
    case HF_T_NUM: fputs("number", f); break;
    case HF_T_SV: fputs("sourced", f); break;
    case HF_T_PREC: fputs("mapping precision → sourced", f); break;
    case HF_T_DEVREF: fputs("device id or alias", f); break;
    case HF_T_SRCREF: fputs("source id", f); break;
    case HF_T_ROWNUM: fputs("number (sourced by the row's `source`)", f); break;
    case HF_T_OWN: fputs(!strcmp(x->key, "source") ? "source id" : "list (notes)", f); break;
    default: fputs("list (notes)", f); break;
    }
    if (x->type == HF_T_SV || x->type == HF_T_PREC) {
        if (x->flags & HF_RANGE) fputs(" with `low`, `high`", f);
        if (x->flags & HF_HOW) fputs(" with `measured` or `derived`", f);
        if (x->flags & HF_YEAR) fputs(" with `year`", f);
    }
}

static void md_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '|') fputc('\\', f);
        fputc(*s, f);
    }
}

static void md_kind(FILE *f, const jci_hwkind *k)
{
    fprintf(f, "| key | type | required | range | C member (%s) | notes |\n", k->record);
    fputs("|---|---|---|---|---|---|\n", f);
    for (size_t i = 0; i < k->n; i++) {
        const jci_hwfield *x = &k->fields[i];
        const char *dot = strchr(x->key, '.');
        char r[160];
        fprintf(f, "| `%s` | ", x->key);
        md_type(f, x);
        if (!(x->flags & HF_REQ)) fputs(" | no", f);
        else if (dot) fprintf(f, " | with `%.*s`", (int)(dot - x->key), x->key);
        else fputs(" | yes", f);
        range_text(x, r, sizeof r);
        if (x->type == HF_T_OWN) fprintf(f, " | %s | — | ", r);
        else fprintf(f, " | %s | `%s` | ", r, x->member);
        md_text(f, x->doc);
        fputs(" |\n", f);
    }
}

jc_status jc_report_hwdb_schema_md(const char *kind, FILE *f, jc_diag *d)
{
    bool any = false;
    for (int i = 0; i < HF_K_COUNT; i++) {
        const jci_hwkind *k = jci_hwdb_kind(i);
        if (kind && strcmp(kind, k->name)) continue;
        if (any) fputc('\n', f);
        md_kind(f, k);
        any = true;
    }
    if (!any) {
        char names[400] = "";
        for (int i = 0; i < HF_K_COUNT; i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                     jci_hwdb_kind(i)->name);
        return jci_diag_set(d, JC_ERR_NOTFOUND, "no record kind '%s' (kinds with a field "
                            "table: %s)", kind, names);
    }
    return fflush(f) || ferror(f) ? jci_diag_set(d, JC_ERR_IO, "cannot write the schema")
                                  : JC_OK;
}

/* One row as JSON; false on out-of-memory. */
static bool json_field(cJSON *arr, const jci_hwfield *x)
{
    cJSON *o = cJSON_CreateObject();
    if (!o || !cJSON_AddItemToArray(arr, o)) {
        cJSON_Delete(o);
        return false;
    }
    bool ok = cJSON_AddStringToObject(o, "key", x->key) &&
              cJSON_AddStringToObject(o, "member", x->type == HF_T_OWN ? "" : x->member) &&
              cJSON_AddBoolToObject(o, "empty_ok", (x->flags & HF_EMPTY) != 0) &&
              cJSON_AddStringToObject(o, "type", type_name(x->type)) &&
              cJSON_AddBoolToObject(o, "required", (x->flags & HF_REQ) != 0) &&
              cJSON_AddBoolToObject(o, "needs_range", (x->flags & HF_RANGE) != 0) &&
              cJSON_AddBoolToObject(o, "needs_how", (x->flags & HF_HOW) != 0) &&
              cJSON_AddBoolToObject(o, "needs_year", (x->flags & HF_YEAR) != 0) &&
              cJSON_AddStringToObject(o, "unit", x->unit) &&
              cJSON_AddStringToObject(o, "doc", x->doc);
    if (ok && (x->flags & HF_ENTRY)) ok = cJSON_AddBoolToObject(o, "entry", 1);
    if (ok && x->has_range)
        ok = cJSON_AddNumberToObject(o, "min", x->lo) &&
             cJSON_AddBoolToObject(o, "min_open", x->lo_open) &&
             cJSON_AddNumberToObject(o, "max", x->hi) &&
             cJSON_AddBoolToObject(o, "max_open", x->hi_open);
    if (ok && x->names) {
        size_t n = 0;
        while (x->names[n]) n++;
        cJSON *v = cJSON_CreateStringArray(x->names, (int)n);
        ok = v && cJSON_AddItemToObject(o, "values", v);
        if (!ok) cJSON_Delete(v);
    }
    return ok;
}

char *jc_report_hwdb_schema_json(void)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *kinds = cJSON_CreateArray();
    cJSON *prec = cJSON_CreateStringArray(jci_precision_names, JC_PREC_COUNT);
    bool ok = root && kinds && prec &&
              cJSON_AddStringToObject(root, "schema", "joulecast-hwdb-fields/1") &&
              cJSON_AddStringToObject(root, "generated_by", "joulecast hwdb schema --json");
    if (ok) ok = cJSON_AddItemToObject(root, "precisions", prec);
    if (!ok) cJSON_Delete(prec);
    if (ok) ok = cJSON_AddItemToObject(root, "kinds", kinds);
    if (!ok) cJSON_Delete(kinds);
    for (int i = 0; ok && i < HF_K_COUNT; i++) {
        const jci_hwkind *k = jci_hwdb_kind(i);
        cJSON *o = cJSON_CreateObject(), *fa = cJSON_CreateArray();
        ok = o && fa && cJSON_AddItemToArray(kinds, o);
        if (!ok) {
            cJSON_Delete(o);
            cJSON_Delete(fa);
            break;
        }
        ok = cJSON_AddStringToObject(o, "name", k->name) &&
             cJSON_AddStringToObject(o, "section", k->section) &&
             cJSON_AddStringToObject(o, "record", k->record);
        if (ok) ok = cJSON_AddItemToObject(o, "fields", fa);
        if (!ok) cJSON_Delete(fa);
        for (size_t j = 0; ok && j < k->n; j++) ok = json_field(fa, &k->fields[j]);
    }
    char *s = ok ? rj_print(root) : NULL;
    cJSON_Delete(root);
    return s;
}
