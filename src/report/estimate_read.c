/*
 * estimate_read.c (report) - the text and JSON of `joulecast diff`: the
 * comparison of two `estimate --json` documents that
 * src/workflows/diff.c reads back and compares (jc_estimate_diff).
 */
#include "base/jc_internal.h"
#include "base/fmt.h"
#include "report/rjson.h"
#include "joulecast/workflows.h"

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

char *jc_report_diff_json(const jc_diff *df)
{
    cJSON *root = cJSON_CreateObject(), *arr, *o;
    char *out = NULL;
    if (!root) return NULL;
    const rj_field head[] = {
        RJF_S("schema", "joulecast-diff/1"), RJF_S("old", df->old_e->path), RJF_S("new", df->new_e->path),
        RJF_S("on", df->on_high ? "high" : "central"), RJF_N("max_increase", df->max_increase),
        RJF_B("exceeded", df->exceeded),
    };
    REQ(rj_fields(root, head, sizeof head / sizeof head[0]));
    REQ(arr = cJSON_AddArrayToObject(root, "changed_settings"));
    for (size_t i = 0; i < df->n_changes; i++) REQ(rj_push_str(arr, df->changes[i]));
    REQ(arr = cJSON_AddArrayToObject(root, "metrics"));
    for (size_t i = 0; i < df->n; i++) {
        const jc_diff_row *r = &df->rows[i];
        const rj_field row[] = {
            RJF_S("key", r->key), RJF_S("unit", r->unit), RJF_N("old", r->old_v), RJF_N("new", r->new_v),
            RJF_N("change", r->change), RJF_B("gated", r->gated), RJF_B("exceeded", r->exceeded),
        };
        REQ(o = rj_push_object(arr));
        REQ(rj_fields(o, row, sizeof row / sizeof row[0]));
    }
    out = rj_print(root);
done:
    cJSON_Delete(root);
    return out;
}
