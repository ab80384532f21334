/*
 * trace_json.c (trace) - the trace stage's one JSON reader: a report of
 * Scaphandre's JSON exporter, for the Scaphandre reader of
 * src/trace/trace_formats.c (cJSON, parsed and freed here).
 */
#include "trace/trace_int.h"

#include <cjson/cJSON.h>

/* One report of Scaphandre's JSON exporter (src/trace/trace_formats.c
 * reads the stream): host.timestamp (s) and host.consumption (W, converted
 * from microwatts).  0, -1 when not JSON, -2 when the fields are missing. */
int tr_scaphandre_report(const char *text, double *t, double *w)
{
    cJSON *j = cJSON_Parse(text);
    if (!j) return -1;
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(j, "host");
    const cJSON *c = h ? cJSON_GetObjectItemCaseSensitive(h, "consumption") : NULL;
    const cJSON *ts = h ? cJSON_GetObjectItemCaseSensitive(h, "timestamp") : NULL;
    int rc = -2;
    if (cJSON_IsNumber(c) && cJSON_IsNumber(ts)) {
        *t = ts->valuedouble;
        *w = c->valuedouble * 1e-6;
        rc = 0;
    }
    cJSON_Delete(j);
    return rc;
}
