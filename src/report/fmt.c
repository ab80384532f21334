/*
 * fmt.c - locale-independent number formatting for text reports.
 */
#include "report/fmt.h"

#include <math.h>
#include <stdio.h>
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
    buf[k] = 0;
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
    return buf;
}

const char *fmt_si(char *buf, size_t cap, double v)
{
    static const char *p[] = {"", "k", "M", "G", "T", "P", "E", "Z", "Y"};
    int i = 0;
    double a = fabs(v);
    while (a >= 1000 && i < 8) {
        a /= 1000;
        v /= 1000;
        i++;
    }
    if (a >= 100 || i == 0) snprintf(buf, cap, "%.0f%s%s", v, *p[i] ? " " : "", p[i]);
    else if (a >= 10) snprintf(buf, cap, "%.1f %s", v, p[i]);
    else snprintf(buf, cap, "%.2f %s", v, p[i]);
    return buf;
}
