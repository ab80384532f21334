/*
 * rjson.c - the small JSON/CSV helpers of the renderers (see rjson.h).
 */
#include "report/rjson.h"

#include <math.h>
#include <string.h>

int rj_str(cJSON *o, const char *k, const char *v)
{
    return v ? cJSON_AddStringToObject(o, k, v) != NULL : cJSON_AddNullToObject(o, k) != NULL;
}

int rj_num(cJSON *o, const char *k, double v)
{
    return cJSON_AddNumberToObject(o, k, isfinite(v) ? v : 0) != NULL;
}

int rj_num_or_null(cJSON *o, const char *k, double v)
{
    return isfinite(v) ? cJSON_AddNumberToObject(o, k, v) != NULL : cJSON_AddNullToObject(o, k) != NULL;
}

int rj_range(cJSON *o, const char *k, jc_range r)
{
    cJSON *x = cJSON_AddObjectToObject(o, k);
    return x && rj_num(x, "low", r.low) && rj_num(x, "central", r.central) && rj_num(x, "high", r.high);
}

void rcsv_str(FILE *f, const char *s, int always)
{
    if (!s) return;
    if (!always && !strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}
