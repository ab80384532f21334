/*
 * sig.h - the number format of the compare, sweep and HTML reports: four
 * significant digits, thousands separators from 10,000 on, an exponent
 * only for very large or very small magnitudes.  Locale-independent.
 */
#ifndef JC_REPORT_SIG_H
#define JC_REPORT_SIG_H

#include "report/fmt.h"

#include <math.h>
#include <stdio.h>

/* Writes v into buf (cap bytes) and returns buf; nan_text for a NaN. */
static inline const char *sig4_or(char *buf, size_t cap, double v, const char *nan_text)
{
    double a = fabs(v);
    if (isnan(v)) snprintf(buf, cap, "%s", nan_text);
    else if (a >= 1e15) snprintf(buf, cap, "%.3e", v);
    else if (a >= 10000) fmt_int(buf, cap, (int64_t)llround(v));
    else if (a >= 1000) snprintf(buf, cap, "%.0f", v);
    else if (a >= 100) snprintf(buf, cap, "%.1f", v);
    else if (a >= 10) snprintf(buf, cap, "%.2f", v);
    else if (a >= 1) snprintf(buf, cap, "%.3f", v);
    else if (a == 0) snprintf(buf, cap, "0");
    else snprintf(buf, cap, "%.3g", v);
    return buf;
}

/* sig4_or with "-" for a NaN (the tables of compare and sweep). */
static inline const char *sig4(char *buf, size_t cap, double v)
{
    return sig4_or(buf, cap, v, "-");
}

#endif
