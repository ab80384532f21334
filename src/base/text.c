/*
 * text.c (base) - small string helpers: case-insensitive compare, the capped edit
 * distance behind every "did you mean", shell quoting of a reproducing
 * command line, comma lists, YAML and CSV quoting, UTC time stamps, the
 * date a time stamp starts with, and UTF-8 validation.
 */
#include "base/jc_internal.h"
#include "joulecast/bind.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- strings ------------------------------------------------------------ */

static int lower(int c)
{
    return (c >= 'A' && c <= 'Z') ? c + 32 : c;
}

int jci_strcasecmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        int x = lower((unsigned char)*a), y = lower((unsigned char)*b);
        if (x != y || !x) return x - y;
    }
}

int jci_edit_distance(const char *a, const char *b, int cap)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 128 || lb > 128) return cap;
    int prev[129], cur[129];
    for (size_t j = 0; j <= lb; j++) prev[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = (int)i;
        int best = cur[0];
        for (size_t j = 1; j <= lb; j++) {
            int cost = lower((unsigned char)a[i - 1]) ==
                       lower((unsigned char)b[j - 1]) ? 0 : 1;
            int v = prev[j - 1] + cost;
            if (prev[j] + 1 < v) v = prev[j] + 1;
            if (cur[j - 1] + 1 < v) v = cur[j - 1] + 1;
            cur[j] = v;
            if (v < best) best = v;
        }
        if (best >= cap) return cap;
        memcpy(prev, cur, sizeof(int) * (lb + 1));
    }
    return prev[lb] < cap ? prev[lb] : cap;
}

/* ---- shell words ---------------------------------------------------------- */

void jc_shell_arg_put(FILE *f, const char *s)
{
    int safe = *s != 0;
    for (const char *p = s; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=./:,+%@", *p)) safe = 0;
    fputc(' ', f);
    if (safe) {
        fputs(s, f);
        return;
    }
    fputc('\'', f);
    for (const char *p = s; *p; p++) {
        if (*p == '\'') fputs("'\\''", f);
        else fputc(*p, f);
    }
    fputc('\'', f);
}

void jc_shell_arg_append(char *buf, size_t cap, const char *s)
{
    size_t n = strlen(buf), len = 0;
    char *w = NULL;
    FILE *f = open_memstream(&w, &len);
    if (!f) return;
    jc_shell_arg_put(f, s);
    if (fclose(f) == 0 && n < cap) {
        size_t k = cap - n - 1 < len ? cap - n - 1 : len;   /* what fits */
        memcpy(buf + n, w, k);
        buf[n + k] = 0;
    }
    free(w);
}

/* ---- comma lists ------------------------------------------------------------ */

int jc_split_list(char *s, const char **items, size_t cap)
{
    size_t n = 0;
    for (char *p = s;;) {
        char *comma = strchr(p, ',');
        if (comma) *comma = 0;
        while (*p == ' ') p++;
        size_t len = strlen(p);
        while (len && p[len - 1] == ' ') p[--len] = 0;
        if (!*p) return -1;
        if (n >= cap) return -2;
        items[n++] = p;
        if (!comma) break;
        p = comma + 1;
    }
    return (int)n;
}

/* ---- time stamps ------------------------------------------------------------ */

/* The last second gmtime_r and "%Y" write as a four-digit year:
 * 9999-12-31T23:59:59 UTC. */
#define SDE_MAX 253402300799LL

jc_status jc_utc_timestamp(char *buf, size_t cap, int date_only, jc_diag *d)
{
    if (!buf || !cap) return jci_diag_set(d, JC_ERR_USAGE, "jc_utc_timestamp: no buffer");
    *buf = 0;
    time_t t = time(NULL);
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    if (sde && *sde) {
        char *end;
        errno = 0;
        long long v = strtoll(sde, &end, 10);
        if (end == sde || *end)
            return jci_diag_set(d, JC_ERR_USAGE, "SOURCE_DATE_EPOCH='%.40s' is not a whole number of seconds", sde);
        if (errno || v < 0 || v > SDE_MAX)
            return jci_diag_set(d, JC_ERR_RANGE, "SOURCE_DATE_EPOCH=%.40s is out of range (0 to %lld, "
                                "1970-01-01 to 9999-12-31 UTC)", sde, SDE_MAX);
        t = (time_t)v;
    }
    struct tm tm;
    if (!gmtime_r(&t, &tm))
        return jci_diag_set(d, JC_ERR_RANGE, "the clock's time cannot be written as a UTC date");
    if (!strftime(buf, cap, date_only ? "%Y-%m-%d" : "%Y-%m-%dT%H:%M:%S", &tm))
        return jci_diag_set(d, JC_ERR_USAGE, "jc_utc_timestamp: buffer of %zu bytes too small", cap);
    return JC_OK;
}

/* ---- quoting for YAML and CSV ---------------------------------------------- */

void jci_yaml_quote(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', f);
        if ((unsigned char)*s < 0x20) { fprintf(f, "\\x%02x", (unsigned char)*s); continue; }
        fputc(*s, f);
    }
    fputc('"', f);
}

void jci_csv_field(FILE *f, const char *s, bool always)
{
    if (!s) return;
    const char *pre = jci_csv_formula(s) ? "'" : "";   /* a formula cell shown, not run */
    if (!always && !strpbrk(s, ",\"\r\n")) {
        fputs(pre, f);
        fputs(s, f);
        return;
    }
    fputc('"', f);
    fputs(pre, f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

size_t jci_utf8_len(const unsigned char *p)
{
    unsigned c = p[0];
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) return (p[1] & 0xC0) == 0x80 ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
        return p[1] >= lo && p[1] <= hi && (p[2] & 0xC0) == 0x80 ? 3 : 0;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        unsigned lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
        return p[1] >= lo && p[1] <= hi && (p[2] & 0xC0) == 0x80 && (p[3] & 0xC0) == 0x80 ? 4 : 0;
    }
    return 0;
}

bool jci_date_valid(const char *s, size_t n, int *year)
{
    if ((n != 4 && n != 7 && n != 10) || strnlen(s, n) < n) return false;
    for (size_t i = 0; i < n; i++) {
        bool dash = i == 4 || i == 7;
        if (dash ? s[i] != '-' : !isdigit((unsigned char)s[i])) return false;
    }
    int y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
    if (y < 1800 || y > 2100) return false;
    int m = n >= 7 ? (s[5] - '0') * 10 + (s[6] - '0') : 1;
    if (m < 1 || m > 12) return false;
    if (n == 10) {
        static const int mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        int d = (s[8] - '0') * 10 + (s[9] - '0');
        if (d < 1 || d > mdays[m - 1] + (m == 2 && leap)) return false;
    }
    if (year) *year = y;
    return true;
}

void jci_date_ymd(char *dst, const char *s)
{
    dst[0] = 0;
    if (!jci_date_valid(s, 10, NULL)) return;
    memcpy(dst, s, 10);
    dst[10] = 0;
}
