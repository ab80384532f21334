/*
 * rjson.h - helpers the JSON and CSV renderers share (src/report/ only;
 * cJSON stays confined to this folder).  JSON numbers are always finite:
 * an unknown figure (NaN or infinity) becomes null, never 0; in CSV "n/a".
 */
#ifndef JC_RJSON_H
#define JC_RJSON_H

#include "joulecast.h"

#include <cjson/cJSON.h>
#include <stdio.h>

/* Each adds key k to object o and returns 1, or 0 on out-of-memory. */
int rj_str(cJSON *o, const char *k, const char *v);      /* NULL -> null */
int rj_num(cJSON *o, const char *k, double v);           /* non-finite -> null */
int rj_num_or_null(cJSON *o, const char *k, double v);   /* the same as rj_num */
int rj_range(cJSON *o, const char *k, jc_range r);       /* {low, central, high}; null if unknown */

/* Writes s as one CSV field (RFC 4180: quoted when it holds a comma,
 * quote, CR or LF; always quoted when `always`).  NULL writes nothing. */
void rcsv_str(FILE *f, const char *s, int always);

/* Writes v as a CSV field with %.6g, or "n/a" when it is not finite
 * (unknown). */
void rcsv_num(FILE *f, double v);

/* v when it is > 0, else NAN: for figures whose 0 means "not known"
 * (per-sample figures without a sample count, the work without a
 * model). */
double rj_known(double v);
jc_range rj_known_range(jc_range r);

#endif
