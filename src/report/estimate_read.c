/*
 * estimate_read.c (report) - the text and JSON of `joulecast diff`: the
 * comparison of two `estimate --json` documents that
 * src/workflows/diff.c reads back and compares (jc_estimate_diff).
 */
#include "base/jc_internal.h"
#include "base/fmt.h"
#include "report/rjson.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

jc_status jc_report_diff_text(const jc_diff *df, FILE *f)
{
    char a[40], b[40], c[40];
    fprintf(f, "joulecast diff: %s -> %s (%s figures)\n", df->old_e->path, df->new_e->path,
            df->on_high ? "high" : "central");
    if (df->n_changes) {
        fprintf(f, "\nchanged settings\n");
        for (size_t i = 0; i < df->n_changes; i++) fprintf(f, "  %s\n", df->changes[i]);
    }
    fprintf(f, "\n  %-28s %12s %12s %9s  %-7s %s\n", "", "old", "new", "change", "unit", "gate");
    for (size_t i = 0; i < df->n; i++) {
        const jc_diff_row *r = &df->rows[i];
        if (isnan(r->change)) snprintf(c, sizeof c, "n/a");
        else snprintf(c, sizeof c, "%+.1f%%", 100 * r->change);
        fprintf(f, "  %-28s %12s %12s %9s  %-7s %s\n", r->label, fmt_num(a, sizeof a, r->old_v),
                fmt_num(b, sizeof b, r->new_v), c, r->unit,
                !r->gated ? "" : r->exceeded ? "EXCEEDED" : "ok");
    }
    if (!isnan(df->max_increase))
        fprintf(f, "\ngate: facility energy and location-based emissions may rise by at most %.1f%%: %s\n",
                100 * df->max_increase, df->exceeded ? "EXCEEDED" : "passed");
    return ferror(f) ? JC_ERR_IO : JC_OK;
}

static int addnum(cJSON *o, const char *k, double v)
{
    if (isfinite(v)) return cJSON_AddNumberToObject(o, k, v) != NULL;
    return cJSON_AddNullToObject(o, k) != NULL;
}

char *jc_report_diff_json(const jc_diff *df)
{
    cJSON *root = cJSON_CreateObject(), *arr, *o;
    char *out = NULL;
    if (!root) return NULL;
    REQ(cJSON_AddStringToObject(root, "schema", "joulecast-diff/1"));
    REQ(cJSON_AddStringToObject(root, "old", df->old_e->path));
    REQ(cJSON_AddStringToObject(root, "new", df->new_e->path));
    REQ(cJSON_AddStringToObject(root, "on", df->on_high ? "high" : "central"));
    REQ(addnum(root, "max_increase", df->max_increase));
    REQ(cJSON_AddBoolToObject(root, "exceeded", df->exceeded));
    REQ(arr = cJSON_AddArrayToObject(root, "changed_settings"));
    for (size_t i = 0; i < df->n_changes; i++) REQ(rj_push_str(arr, df->changes[i]));
    REQ(arr = cJSON_AddArrayToObject(root, "metrics"));
    for (size_t i = 0; i < df->n; i++) {
        const jc_diff_row *r = &df->rows[i];
        REQ(o = cJSON_CreateObject());
        REQ(rj_push(arr, o));
        REQ(cJSON_AddStringToObject(o, "key", r->key));
        REQ(cJSON_AddStringToObject(o, "unit", r->unit));
        REQ(addnum(o, "old", r->old_v));
        REQ(addnum(o, "new", r->new_v));
        REQ(addnum(o, "change", r->change));
        REQ(cJSON_AddBoolToObject(o, "gated", r->gated));
        REQ(cJSON_AddBoolToObject(o, "exceeded", r->exceeded));
    }
    out = rj_print(root);
done:
    cJSON_Delete(root);
    return out;
}
