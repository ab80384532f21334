/*
 * fmt.c (base) - the one number format of text (fmt.h): reports, statements,
 * messages and the CLI's summaries (jc_format_number); SI prefixes, byte
 * sizes, integers with thousands separators; a machine format's number.
 * Locale-independent: thousands separators are written here, and the
 * decimal point is '.' whatever LC_NUMERIC a client sets (c_point).
 */
#include "base/fmt.h"

#include "joulecast/base.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *fmt_int(char *buf, size_t cap, int64_t v)
{
    char tmp[32];
    int neg = v < 0;
    uint64_t u = neg ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    int n = 0, digits = 0;
    do {
        if (digits && digits % 3 == 0) tmp[n++] = ',';
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
        digits++;
    } while (u);
    if (neg) tmp[n++] = '-';
    size_t k = 0;
    while (n > 0 && k + 1 < cap) buf[k++] = tmp[--n];
    if (cap) buf[k] = 0;
    return buf;
}

/* Writes '.' for the decimal point printf wrote in s: the C locale's own,
 * or a client's LC_NUMERIC one (a comma, or several bytes) that printf
 * uses once the process calls setlocale.  The library never calls it. */
static void c_point(char *s)
{
    const char *dp = localeconv()->decimal_point;
    size_t n = dp ? strlen(dp) : 0;
    if (n == 0 || (n == 1 && dp[0] == '.')) return;
    char *p = strstr(s, dp);
    if (!p) return;
    *p = '.';
    memmove(p + 1, p + n, strlen(p + n) + 1);
}

/* Drops the trailing zeros of a decimal fraction in s, and a bare point:
 * "3.200" -> "3.2", "1.000e-07" -> "1e-07"; the exponent is kept. */
static void drop_zeros(char *s)
{
    char *dot = strchr(s, '.');
    if (!dot) return;
    char *e = strchr(dot, 'e');
    char *end = e ? e : dot + strlen(dot);
    char *z = end;
    while (z > dot + 1 && z[-1] == '0') z--;
    if (z == dot + 1) z = dot;
    memmove(z, end, strlen(end) + 1);
}

const char *fmt_num(char *buf, size_t cap, double v)
{
    if (!cap) return buf;
    if (!isfinite(v)) { snprintf(buf, cap, "n/a"); return buf; }
    double a = fabs(v);
    if (a < 1e15 && v == floor(v)) return fmt_int(buf, cap, (int64_t)v);
    /* the decimal exponent after rounding to four significant digits */
    char e4[32];
    snprintf(e4, sizeof e4, "%.3e", v);
    const char *ep = strchr(e4, 'e');
    int ex = ep ? atoi(ep + 1) : 0;
    if (ex >= 3 && ex < 15) return fmt_int(buf, cap, (int64_t)llround(v));
    char out[48];
    if (ex >= 15 || ex < -4) snprintf(out, sizeof out, "%s", e4);
    else snprintf(out, sizeof out, "%.*f", 3 - ex, v);
    c_point(out);
    drop_zeros(out);
    snprintf(buf, cap, "%s", out);
    return buf;
}

const char *fmt_bytes(char *buf, size_t cap, double b)
{
    static const char *u[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int i = 0;
    while (fabs(b) >= 1024 && i < 5) {
        b /= 1024;
        i++;
    }
    if (i == 0) snprintf(buf, cap, "%.0f B", b);
    else snprintf(buf, cap, "%.1f %s", b, u[i]);
    c_point(buf);
    return buf;
}

const char *fmt_si(char *buf, size_t cap, double v)
{
    static const char *p[] = {"", "k", "M", "G", "T", "P", "E", "Z", "Y"};
    if (!isfinite(v)) return fmt_num(buf, cap, v);
    int i = 0;
    /* the prefix of the value as rounded to four digits (999,96 -> 1 k) */
    while (i < 8 && fabs(v) >= 999.95) {
        v /= 1000;
        i++;
    }
    char m[FMT_CAP];
    fmt_num(m, sizeof m, v);
    snprintf(buf, cap, "%s%s%s", m, i ? " " : "", p[i]);
    return buf;
}

const char *jc_format_number(char *buf, size_t cap, double v)
{
    return fmt_num(buf, cap, v);
}

const char *fmt_exact(char *buf, size_t cap, double v)
{
    for (int p = 6; p <= 17; p++) {
        snprintf(buf, cap, "%.*g", p, v);
        c_point(buf);
        if (!isfinite(v) || strtod(buf, NULL) == v) break;
    }
    return buf;
}

const char *fmt_machine(char *buf, size_t cap, double v)
{
    if (!isfinite(v)) snprintf(buf, cap, "n/a");
    else snprintf(buf, cap, "%.6g", v);
    c_point(buf);
    return buf;
}
