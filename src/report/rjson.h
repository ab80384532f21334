/*
 * rjson.h - helpers the JSON and CSV renderers share (src/report/ only;
 * cJSON stays confined to this folder).  JSON numbers are always finite:
 * a NaN or infinity becomes 0 (or null where the helper says so).
 */
#ifndef JC_RJSON_H
#define JC_RJSON_H

#include "joulecast.h"

#include <cjson/cJSON.h>
#include <stdio.h>

/* Each adds key k to object o and returns 1, or 0 on out-of-memory. */
int rj_str(cJSON *o, const char *k, const char *v);      /* NULL -> null */
int rj_num(cJSON *o, const char *k, double v);           /* non-finite -> 0 */
int rj_num_or_null(cJSON *o, const char *k, double v);   /* non-finite -> null */
int rj_range(cJSON *o, const char *k, jc_range r);       /* {low, central, high} */

/* Writes s as one CSV field (RFC 4180: quoted when it holds a comma,
 * quote, CR or LF; always quoted when `always`).  NULL writes nothing. */
void rcsv_str(FILE *f, const char *s, int always);

#endif
