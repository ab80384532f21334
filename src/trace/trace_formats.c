/*
 * trace_formats.c (trace) - the readers of power traces (docs/traces.md): each
 * turns the lines of one meter's output into samples for the streaming
 * integrator (src/trace/trace.c), one line at a time, and names the
 * line of every row it cannot read.  Formats: nvidia-smi --query-gpu CSV
 * (with or without nounits, any subset and order of the columns, GPUs
 * interleaved), dcgmi dmon, CodeCarbon's emissions.csv (run totals, read
 * by jc_measurements_load), Carbontracker's log (per-epoch average power),
 * PowerJoular's CSV, Scaphandre's JSON exporter, and a plain
 * timestamp,watts CSV.
 */
#include "base/fmt.h"
#include "trace/trace_int.h"
#include "joulecast/workflows.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLS 64

/* ---- text helpers ------------------------------------------------------------- */

static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

static int digits(const char *s, int n, int *v)
{
    int x = 0;
    for (int i = 0; i < n; i++) {
        if (!isdigit((unsigned char)s[i])) return -1;
        x = x * 10 + (s[i] - '0');
    }
    *v = x;
    return 0;
}

int tr_parse_time(const char *s, double *out)
{
    while (*s == ' ' || *s == '"') s++;
    int Y, M, D, h, m, sec;
    if (digits(s, 4, &Y) || (s[4] != '-' && s[4] != '/') || digits(s + 5, 2, &M) || s[7] != s[4] ||
        digits(s + 8, 2, &D) || (s[10] != ' ' && s[10] != 'T') || digits(s + 11, 2, &h) || s[13] != ':' ||
        digits(s + 14, 2, &m) || s[16] != ':' || digits(s + 17, 2, &sec))
        return -1;
    if (M < 1 || M > 12 || D < 1 || D > 31 || h > 23 || m > 59 || sec > 60) return -1;
    const char *p = s + 19;
    double frac = 0;
    if (*p == '.' || *p == ',') {
        double scale = 0.1;
        p++;
        if (!isdigit((unsigned char)*p)) return -1;
        while (isdigit((unsigned char)*p)) { frac += (*p - '0') * scale; scale /= 10; p++; }
    }
    double off = 0;
    if (*p == 'Z') {
        p++;
    } else if ((*p == '+' || *p == '-') && isdigit((unsigned char)p[1])) {
        int oh, om = 0, sign = *p == '-' ? -1 : 1;
        if (digits(p + 1, 2, &oh)) return -1;
        p += 3;
        if (*p == ':') p++;
        if (isdigit((unsigned char)*p)) {
            if (digits(p, 2, &om)) return -1;
            p += 2;
        }
        off = sign * (oh * JCI_S_PER_H + om * 60.0);
    }
    while (*p == ' ' || *p == '"') p++;
    if (*p) return -1;
    double days = (double)days_from_civil(Y, (unsigned)M, (unsigned)D);
    *out = days * 86400 + h * JCI_S_PER_H + m * 60.0 + sec + frac - off;
    return 0;
}

int tr_parse_num(const char *s, double *v, char *unit, size_t ucap)
{
    while (*s == ' ' || *s == '"') s++;
    if (!*s) return -1;
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (end == s || errno || !isfinite(x)) return -1;
    while (*end == ' ') end++;
    char u[16];
    size_t n = 0;
    while (*end && *end != '"' && *end != ' ' && n + 1 < sizeof u) u[n++] = *end++;
    u[n] = 0;
    while (*end == ' ' || *end == '"') end++;
    if (*end) return -1;
    double f = 1;
    if (!n || !strcmp(u, "W")) f = 1;
    else if (!strcmp(u, "kW")) f = 1e3;
    else if (!strcmp(u, "MW")) f = 1e6;
    else if (!strcmp(u, "mW")) f = 1e-3;
    else if (!strcmp(u, "uW") || !strcmp(u, "\xc2\xb5W")) f = 1e-6;
    else if (!strcmp(u, "%")) f = 0.01;
    else return -1;
    if (unit && ucap) {
        size_t k = n < ucap - 1 ? n : ucap - 1;
        memcpy(unit, u, k);
        unit[k] = 0;
    }
    *v = x * f;
    return 0;
}

/* One line of a stream: NUL-terminated, the line break removed; *nl
 * tells whether it ended with one.  NULL at the end. */
typedef struct lines { FILE *f; char *buf; size_t cap; int line; } lines;

static char *next_line(lines *L, int *nl)
{
    ssize_t n = getline(&L->buf, &L->cap, L->f);
    if (n < 0) return NULL;
    L->line++;
    *nl = n > 0 && L->buf[n - 1] == '\n';
    while (n > 0 && (L->buf[n - 1] == '\n' || L->buf[n - 1] == '\r')) L->buf[--n] = 0;
    char *s = L->buf;
    if (L->line == 1 && (unsigned char)s[0] == 0xef && (unsigned char)s[1] == 0xbb && (unsigned char)s[2] == 0xbf)
        s += 3;
    return s;
}

/* Splits a CSV line in place (quotes allowed, spaces around fields
 * trimmed); returns the field count, -1 on an unterminated quote. */
static int split_csv(char *s, char **f, int max)
{
    int n = 0;
    for (;;) {
        while (*s == ' ' || *s == '\t') s++;
        if (n >= max) return n;
        char *w = s;
        f[n++] = w;
        if (*s == '"') {
            s++;
            for (;;) {
                if (!*s) return -1;
                if (*s == '"') {
                    if (s[1] == '"') { *w++ = '"'; s += 2; continue; }
                    s++;
                    break;
                }
                *w++ = *s++;
            }
            while (*s && *s != ',') s++;
        } else {
            while (*s && *s != ',') *w++ = *s++;
        }
        char *e = w;
        while (e > f[n - 1] && (e[-1] == ' ' || e[-1] == '\t')) e--;
        int more = *s == ',';
        *e = 0;
        if (!more) return n;
        s++;
    }
}

/* Splits at runs of spaces and tabs. */
static int split_ws(char *s, char **f, int max)
{
    int n = 0;
    for (;;) {
        while (*s == ' ' || *s == '\t') s++;
        if (!*s || n >= max) return n;
        f[n++] = s;
        while (*s && *s != ' ' && *s != '\t') s++;
        if (*s) *s++ = 0;
    }
}

static void lower(char *s)
{
    for (; *s; s++) *s = (char)tolower((unsigned char)*s);
}

/* "power.draw [W]" -> "power.draw" (lower case), unit "W" to *unit. */
static void col_name(char *s, char *unit, size_t ucap)
{
    unit[0] = 0;
    char *b = strchr(s, '[');
    if (b) {
        char *e = strchr(b, ']');
        if (e) {
            snprintf(unit, ucap, "%.*s", (int)(e - b - 1), b + 1);
            while (b > s && b[-1] == ' ') b--;
            *b = 0;
        }
    }
    lower(s);
}

/* A field that says "no value": "[N/A]", "N/A", "[Not Supported]", ... */
static int is_na(const char *s)
{
    return !*s || s[0] == '[' || !jci_strcasecmp(s, "N/A") || !jci_strcasecmp(s, "nan") || !jci_strcasecmp(s, "-");
}

/* A CSV row of n fields where the header has nh: 1, or 0 after naming the
 * row bad ("N fields, <want> NH"; nl 0: the file's last line, cut short). */
static int row_fields(tr_ctx *c, int line, int n, int nh, int nl, const char *want)
{
    if (n == nh) return 1;
    tr_bad(c, line, "%d field%s, %s %d%s", n, n == 1 ? "" : "s", want, nh, nl ? "" : " (truncated last line)");
    return 0;
}

/* Column col's power in W: 0 with *w and its unit ("" when bare), or 1
 * after naming the row bad (not given, or not a number of W). */
static int power_field(tr_ctx *c, int line, const char *col, const char *s, double *w, char *unit, size_t cap)
{
    if (is_na(s)) {
        tr_bad(c, line, "%s is '%.40s'", col, s);
        return 1;
    }
    if (tr_parse_num(s, w, unit, cap) || !strcmp(unit, "%")) {
        tr_bad(c, line, "%s '%.40s' is not a number of W", col, s);
        return 1;
    }
    return 0;
}

/* ---- detection ------------------------------------------------------------------ */

static int has_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (!strncasecmp(hay, needle, n)) return 1;
    return 0;
}

jc_trace_format tr_detect(const char *head)
{
    const char *p = head;
    if ((unsigned char)p[0] == 0xef && (unsigned char)p[1] == 0xbb && (unsigned char)p[2] == 0xbf) p += 3;
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    char first[1024];
    size_t n = 0;
    while (p[n] && p[n] != '\n' && n + 1 < sizeof first) { first[n] = p[n]; n++; }
    first[n] = 0;
    if (strstr(first, "power.draw")) return JC_TRACE_NVIDIA_SMI;
    if ((first[0] == '#' && has_ci(first, "entity")) || strstr(first, " #Entity")) return JC_TRACE_DCGMI;
    if (strstr(first, "duration") && strstr(first, "energy_consumed")) return JC_TRACE_CODECARBON;
    if (!strncmp(first, "Date,CPU Utilization", 20)) return JC_TRACE_POWERJOULAR;
    if ((first[0] == '[' || first[0] == '{') && strstr(head, "\"consumption\"")) return JC_TRACE_SCAPHANDRE;
    if (has_ci(head, "carbontracker") || strstr(head, "Average power usage (W)")) return JC_TRACE_CARBONTRACKER;
    /* timestamp,watts: a header naming time and power, or a data row */
    char tmp[1024], *f[MAX_COLS];
    snprintf(tmp, sizeof tmp, "%s", first);
    int nf = split_csv(tmp, f, MAX_COLS);
    if (nf >= 2) {
        double t, w;
        char u[16];
        if ((has_ci(f[0], "time") || has_ci(f[0], "date")) &&
            (has_ci(f[1], "watt") || has_ci(f[1], "power") || !jci_strcasecmp(f[1], "w") || !jci_strcasecmp(f[1], "kw")))
            return JC_TRACE_WATTS;
        if ((!tr_parse_time(f[0], &t) || !tr_parse_num(f[0], &t, u, sizeof u)) &&
            !tr_parse_num(f[1], &w, u, sizeof u))
            return JC_TRACE_WATTS;
    }
    return JC_TRACE_AUTO;
}

/* ---- nvidia-smi --query-gpu ------------------------------------------------------------ */

int tr_read_nvidia_smi(tr_ctx *c, FILE *fp)
{
    lines L = {fp, NULL, 0, 0};
    char *s, *f[MAX_COLS], hdrcopy[2048] = "";
    int nl, nh = 0, ct = -1, ci = -1, cn = -1, cp = -1, cu = -1, cm = -1, cid = -1, st = 0;
    double interval = tr_opts(c)->interval_s;
    size_t count[256] = {0};
    char keys[256][96], names[256][160];   /* per GPU index, built once */
    unsigned char made[256] = {0};
    tr_set_label(c, "nvidia-smi --query-gpu CSV");
    while ((s = next_line(&L, &nl))) {
        if (!*s) continue;
        if (!nh) {
            snprintf(hdrcopy, sizeof hdrcopy, "%s", s);
            nh = split_csv(s, f, MAX_COLS);
            for (int i = 0; i < nh; i++) {
                char unit[32];
                col_name(f[i], unit, sizeof unit);
                if (!strcmp(f[i], "timestamp")) ct = i;
                else if (!strcmp(f[i], "index")) ci = i;
                else if (!strcmp(f[i], "name")) cn = i;
                else if (!strcmp(f[i], "uuid") || !strcmp(f[i], "pci.bus_id")) { if (cid < 0) cid = i; }
                else if (!strcmp(f[i], "power.draw") || !strcmp(f[i], "power.draw.average") ||
                         !strcmp(f[i], "power.draw.instant")) { if (cp < 0) cp = i; }
                else if (!strcmp(f[i], "utilization.gpu")) cu = i;
                else if (!strcmp(f[i], "utilization.memory")) cm = i;
            }
            if (cp < 0) { st = tr_fail(c, JC_ERR_USAGE, L.line, "no power.draw column in the header"); break; }
            if (ct < 0 && isnan(interval)) {
                st = tr_fail(c, JC_ERR_USAGE, L.line, "no timestamp column: give --interval S (the period of "
                             "nvidia-smi -l / -lms)");
                break;
            }
            if (ct < 0) tr_note(c, "no timestamp column: samples of each GPU taken %g s apart (--interval)", interval);
            else if (!isnan(interval))
                tr_note(c, "the timestamp column gives the times: --interval %g is not used", interval);
            if (ci < 0 && cid < 0) tr_note(c, "no index column: every row is one GPU");
            continue;
        }
        if (!strcmp(s, hdrcopy)) { tr_note(c, "the header is repeated (line %d): skipped", L.line); continue; }
        tr_row(c);
        int n = split_csv(s, f, MAX_COLS);
        if (n < 0) { tr_bad(c, L.line, "unterminated quote"); continue; }
        if (!row_fields(c, L.line, n, nh, nl, "the header has")) continue;
        double t = 0, w, u = NAN, um = NAN;
        char unit[16];
        if (ct >= 0 && tr_parse_time(f[ct], &t)) {
            tr_bad(c, L.line, "timestamp '%.40s' is not YYYY/MM/DD HH:MM:SS.fff", f[ct]);
            continue;
        }
        if (power_field(c, L.line, "power.draw", f[cp], &w, unit, sizeof unit)) continue;
        if (cu >= 0 && !is_na(f[cu])) {
            if (tr_parse_num(f[cu], &u, unit, sizeof unit)) {
                tr_bad(c, L.line, "utilization.gpu '%.40s' is not a number of %%", f[cu]);
                continue;
            }
            if (strcmp(unit, "%")) u /= 100;   /* nounits: a bare percentage */
        }
        if (cm >= 0 && !is_na(f[cm])) {
            if (tr_parse_num(f[cm], &um, unit, sizeof unit)) {
                tr_bad(c, L.line, "utilization.memory '%.40s' is not a number of %%", f[cm]);
                continue;
            }
            if (strcmp(unit, "%")) um /= 100;
        }
        char keybuf[96], namebuf[160];
        const char *key = keybuf, *name = namebuf;
        int idx = -1;
        if (ci >= 0) {
            char *e;
            long v = strtol(f[ci], &e, 10);
            if (e == f[ci] || *e || v < 0 || v > 4095) {
                tr_bad(c, L.line, "index '%.40s' is not a GPU index", f[ci]);
                continue;
            }
            idx = (int)v;
        }
        if (idx >= 0 && idx < 256 && made[idx]) {
            key = keys[idx];
            name = names[idx];
        } else {
            if (idx >= 0) snprintf(keybuf, sizeof keybuf, "gpu%d", idx);
            else snprintf(keybuf, sizeof keybuf, "%.90s", cid >= 0 ? f[cid] : "gpu");
            if (idx >= 0) snprintf(namebuf, sizeof namebuf, "GPU %d%s%.120s", idx, cn >= 0 ? " " : "", cn >= 0 ? f[cn] : "");
            else snprintf(namebuf, sizeof namebuf, "GPU %.80s", cid >= 0 ? f[cid] : (cn >= 0 ? f[cn] : ""));
            if (cn >= 0) tr_device_name(c, f[cn]);
            if (idx >= 0 && idx < 256) {
                memcpy(keys[idx], keybuf, sizeof keys[idx]);
                memcpy(names[idx], namebuf, sizeof names[idx]);
                made[idx] = 1;
                key = keys[idx];
                name = names[idx];
            }
        }
        if (ct < 0) {
            unsigned k = idx >= 0 ? (unsigned)idx % 256 : 0;
            t = (double)count[k]++ * interval;
        }
        if ((st = tr_sample(c, key, name, JC_TRACE_DEVICE, idx, t, w, u, um, L.line))) break;
    }
    free(L.buf);
    if (!st && !nh) st = tr_fail(c, JC_ERR_USAGE, 0, "empty file");
    return st;
}

/* ---- times as text ------------------------------------------------------------------------------ */

/* A time field: ISO 8601 (tr_parse_time), else a plain number of seconds
 * since 1970 -- or of ms, us, ns when *scale says so, NAN: told by the
 * magnitude of the first one (the choice is noted once).  0, or -1 when
 * the field is neither. */
static int time_field(tr_ctx *c, const char *s, double *scale, double *t)
{
    char unit[16];
    if (!tr_parse_time(s, t)) return 0;
    if (tr_parse_num(s, t, unit, sizeof unit) || unit[0]) return -1;
    if (isnan(*scale)) {
        double a = fabs(*t);
        *scale = a > 1e17 ? 1e-9 : a > 1e14 ? 1e-6 : a > 1e11 ? 1e-3 : 1;
        tr_note(c, "numeric times read as %s (from their magnitude; name the unit in the header, e.g. "
                   "timestamp_ms)", *scale == 1 ? "seconds" : *scale == 1e-3 ? "milliseconds"
                   : *scale == 1e-6 ? "microseconds" : "nanoseconds");
    }
    *t *= *scale;
    return 0;
}

/* ---- dcgmi dmon ---------------------------------------------------------------------------- */

/* dcgmi's state while reading: the columns the '#Entity' header names. */
typedef struct dc_cols {
    int n;                   /* value columns after the entity */
    int cp, cu, cm, ct;      /* POWER, GPUTL, memory activity (DRAMA, else MCPY), timestamp */
    int cm_drama;            /* cm is DRAMA (a fraction) */
} dc_cols;

/* A timestamp prefixed to the line (moreutils `ts -s %.s`, or a loop that
 * prints `date +%s.%N` / ISO 8601 before each line): the tokens it takes
 * (0: none, 1, or 2 for "YYYY-MM-DD HH:MM:SS"), its time in *t. */
static int dc_prefix(tr_ctx *c, char **f, int n, double *scale, double *t)
{
    if (n < 2 || f[0][0] == '#' || !isdigit((unsigned char)f[0][0])) return 0;
    if (n >= 3 && strlen(f[0]) == 10 && f[0][4] == '-' && isdigit((unsigned char)f[1][0]) && strchr(f[1], ':')) {
        char both[96];
        snprintf(both, sizeof both, "%s %s", f[0], f[1]);
        return tr_parse_time(both, t) ? 0 : 2;
    }
    return time_field(c, f[0], scale, t) ? 0 : 1;
}

/* The header's field names from token f[0] on ("#Entity", "# Entity",
 * "#", field names ...). */
static int dc_header(tr_ctx *c, char **f, int n, dc_cols *h, int line)
{
    int k = 0;
    const char *first = f[0] + 1;   /* after '#' */
    if (!*first) first = k + 1 < n ? f[++k] : "";
    if (!jci_strcasecmp(first, "entity")) k++;
    else f[k] = (char *)first;
    memset(h, 0, sizeof *h);
    h->cp = h->cu = h->cm = h->ct = -1;
    int mcpy = -1;
    for (int i = k; i < n && h->n < MAX_COLS; i++, h->n++) {
        const char *x = f[i];
        if (!jci_strcasecmp(x, "POWER")) h->cp = h->n;
        else if (!jci_strcasecmp(x, "GPUTL")) h->cu = h->n;
        else if (!jci_strcasecmp(x, "DRAMA")) h->cm = h->n;
        else if (!jci_strcasecmp(x, "MCPY")) mcpy = h->n;
        else if (!jci_strcasecmp(x, "TIMESTAMP") || !jci_strcasecmp(x, "TIME") || !jci_strcasecmp(x, "TS"))
            h->ct = h->n;
    }
    h->cm_drama = h->cm >= 0;
    if (h->cm < 0) h->cm = mcpy;
    if (h->cp < 0) return tr_fail(c, JC_ERR_USAGE, line, "no POWER field (dcgmi dmon -e 155)");
    return 0;
}

/* A utilisation value: a fraction (DRAMA, profiling fields) or a
 * percentage (GPUTL, MCPY; "%" suffix or bare), to 0..1. */
static int dc_util(const char *v, int fraction, double *u)
{
    char unit[16];
    *u = NAN;
    if (is_na(v)) return 0;
    if (tr_parse_num(v, u, unit, sizeof unit)) return -1;
    if (!fraction && strcmp(unit, "%")) *u /= 100;
    return 0;
}

int tr_read_dcgmi(tr_ctx *c, FILE *fp)
{
    lines L = {fp, NULL, 0, 0};
    char *s, *f[MAX_COLS + 4];
    int nl, have = 0, st = 0, timed = -1;   /* timed: 1 times read from the lines, 0 from --interval */
    dc_cols h;
    double interval = tr_opts(c)->interval_s, tscale = NAN;
    size_t count[4096] = {0};
    tr_set_label(c, "dcgmi dmon");
    while ((s = next_line(&L, &nl))) {
        int n = split_ws(s, f, MAX_COLS + 4), k;
        if (!n) continue;
        double tp = NAN;
        k = dc_prefix(c, f, n, &tscale, &tp);
        if (f[k][0] == '#') {
            if ((st = dc_header(c, f + k, n - k, &h, L.line))) break;
            have = 1;
            continue;
        }
        if (!have) { st = tr_fail(c, JC_ERR_USAGE, L.line, "data before the '#Entity' header line"); break; }
        if (!jci_strcasecmp(f[k], "ID")) continue;   /* the units line */
        tr_row(c);
        /* "GPU 0 v1 v2 ..." */
        if (n - k < 2) { tr_bad(c, L.line, "no entity id"); continue; }
        char *e;
        long id = strtol(f[k + 1], &e, 10);
        if (e == f[k + 1] || *e || id < 0 || id > 4095) {
            tr_bad(c, L.line, "entity '%.20s %.20s' is not 'GPU N'", f[k], f[k + 1]);
            continue;
        }
        double t = (double)count[id]++ * (isnan(interval) ? 1 : interval);   /* a row not read still took its period */
        char **v = f + k + 2;
        int nv = n - k - 2;
        if (nv != h.n) {
            tr_bad(c, L.line, "%d value%s, the header has %d%s", nv, nv == 1 ? "" : "s", h.n,
                   nl ? "" : " (truncated last line)");
            continue;
        }
        int from_line = k > 0 || h.ct >= 0;
        if (timed < 0) {
            timed = from_line;
            if (timed && !isnan(interval))
                tr_note(c, "dcgmi dmon: the lines carry times (%s): --interval %g is not used",
                        h.ct >= 0 ? "a TIMESTAMP field" : "a time before each line", interval);
            else if (timed)
                tr_note(c, "dcgmi dmon: times read from %s", h.ct >= 0 ? "the TIMESTAMP field" : "the time before each line");
            else if (isnan(interval))
                tr_note(c, "dcgmi dmon prints no timestamps: samples of each GPU taken 1 s apart (its default -d 1000; "
                           "give --interval S otherwise)");
            else
                tr_note(c, "dcgmi dmon prints no timestamps: samples of each GPU taken %g s apart (--interval)", interval);
        }
        if (from_line != timed) {
            tr_bad(c, L.line, "%s a time where the lines before %s", from_line ? "has" : "has no",
                   from_line ? "had none" : "had one");
            continue;
        }
        if (h.ct >= 0 && time_field(c, v[h.ct], &tscale, &t)) {
            tr_bad(c, L.line, "TIMESTAMP '%.40s' is neither ISO 8601 nor a number", v[h.ct]);
            continue;
        }
        if (h.ct < 0 && k > 0) t = tp;
        double w, u, um;
        char unit[16];
        const char *pv = v[h.cp];
        if (is_na(pv)) { tr_bad(c, L.line, "POWER is '%.20s'", pv); continue; }
        if (tr_parse_num(pv, &w, unit, sizeof unit) || !strcmp(unit, "%")) {
            tr_bad(c, L.line, "POWER '%.40s' is not a number of W", pv);
            continue;
        }
        if (h.cu >= 0 ? dc_util(v[h.cu], 0, &u) : (u = NAN, 0)) {
            tr_bad(c, L.line, "GPUTL '%.40s' is not a number", v[h.cu]);
            continue;
        }
        if (h.cm >= 0 ? dc_util(v[h.cm], h.cm_drama, &um) : (um = NAN, 0)) {
            tr_bad(c, L.line, "%s '%.40s' is not a number", h.cm_drama ? "DRAMA" : "MCPY", v[h.cm]);
            continue;
        }
        char key[32], name[64];
        snprintf(key, sizeof key, "%.8s%ld", f[k], id);
        snprintf(name, sizeof name, "%.8s %ld", f[k], id);
        if ((st = tr_sample(c, key, name, JC_TRACE_DEVICE, (int)id, t, w, u, um, L.line))) break;
    }
    free(L.buf);
    if (!st && !have) st = tr_fail(c, JC_ERR_USAGE, 0, "no '#Entity' header line");
    return st;
}

/* ---- Carbontracker log ------------------------------------------------------------------------ */

/* "0:00:40.33" or "1 day, 2:03:04" -> seconds. */
static int hms(const char *s, double *out)
{
    double days = 0;
    const char *p = s;
    while (*p == ' ') p++;
    const char *comma = strstr(p, "day");
    if (comma) {
        days = strtod(p, NULL);
        p = strchr(comma, ',');
        if (!p) return -1;
        p++;
    }
    int h, m;
    double sec;
    char tail;
    while (*p == ' ') p++;
    /* digits, ':' and '.' alone: sscanf's %d would read "-0:01:40" as +100 s
     * (a negative time is Python's "-1 day, 23:58:20", refused below) */
    size_t k = strspn(p, "0123456789:.");
    if (!k || p[k + strspn(p + k, " ")]) return -1;
    if (sscanf(p, "%d:%d:%lf%c", &h, &m, &sec, &tail) != 3 || h < 0 || m < 0 || m > 59 || sec < 0) return -1;
    *out = days * 86400 + h * JCI_S_PER_H + m * 60.0 + sec;
    return 0;
}

/* "[117.43 118.2]", "[117.43, 118.2]", "117.4" -> values; count or -1. */
static int num_list(const char *s, double *v, int max)
{
    int n = 0;
    while (*s == ' ' || *s == '[') s++;
    for (;;) {
        while (*s == ' ' || *s == ',') s++;
        if (!*s || *s == ']') return n;
        char *e;
        double x = strtod(s, &e);
        if (e == s || !isfinite(x) || n >= max) return -1;
        v[n++] = x;
        s = e;
    }
}

int tr_read_carbontracker(tr_ctx *c, FILE *fp)
{
    lines L = {fp, NULL, 0, 0};
    char *s;
    int nl, st = 0, epochs = 0, epoch_line = 0;
    double t_end = NAN, dur = NAN;
    tr_set_label(c, "Carbontracker log (per-epoch average power)");
    tr_note(c, "Carbontracker logs one average power per component and epoch: integrated as a constant over the "
               "epoch; time between epochs is not measured (a gap)");
    while ((s = next_line(&L, &nl))) {
        const char *msg = strstr(s, " - ");
        double ts;
        char stamp[40];
        if (!msg) continue;
        snprintf(stamp, sizeof stamp, "%.*s", (int)(msg - s) < 39 ? (int)(msg - s) : 39, s);
        msg += 3;
        if (!strncmp(msg, "Epoch ", 6)) {
            if (tr_parse_time(stamp, &ts)) { tr_bad(c, L.line, "timestamp '%s' is not YYYY-MM-DD HH:MM:SS", stamp); continue; }
            t_end = ts;
            dur = NAN;
            epoch_line = L.line;
            continue;
        }
        if (!strncmp(msg, "Duration:", 9)) {
            tr_row(c);
            if (strchr(msg + 9, '-')) {   /* "-0:01:40", Python's "-1 day, 23:58:20" */
                st = tr_fail(c, JC_ERR_USAGE, L.line, "duration '%.40s' is negative: an epoch lasts a time > 0", msg + 9);
                break;
            }
            if (hms(msg + 9, &dur)) { tr_bad(c, L.line, "duration '%.40s' is not H:MM:SS", msg + 9); dur = NAN; }
            continue;
        }
        const char *key = "Average power usage (W) for ";
        if (!strncmp(msg, key, strlen(key))) {
            const char *comp = msg + strlen(key);
            const char *colon = strchr(comp, ':');
            if (!colon) { tr_bad(c, L.line, "no ':' after the component"); continue; }
            char cname[32];
            snprintf(cname, sizeof cname, "%.*s", (int)(colon - comp) < 31 ? (int)(colon - comp) : 31, comp);
            lower(cname);
            if (isnan(t_end) || isnan(dur)) {
                tr_bad(c, L.line, "average power without an 'Epoch N:' and 'Duration:' line before it");
                continue;
            }
            if (strstr(colon, "None")) { tr_note(c, "component %s not measured (None)", cname); continue; }
            double v[64];
            int n = num_list(colon + 1, v, 64);
            if (n <= 0) { tr_bad(c, L.line, "average power '%.40s' is not a list of W", colon + 1); continue; }
            int gpu = !strcmp(cname, "gpu");
            for (int i = 0; i < n; i++) {
                char k[48], name[64];
                snprintf(k, sizeof k, "%s%d", cname, i);
                if (gpu) snprintf(name, sizeof name, "GPU %d", i);
                else snprintf(name, sizeof name, "%s %d (RAPL)", !strcmp(cname, "cpu") ? "CPU" : cname, i);
                if ((st = tr_block(c, k, name, gpu ? JC_TRACE_DEVICE : JC_TRACE_HOST, gpu ? i : -1, t_end - dur,
                                   t_end, v[i], L.line)))
                    break;
            }
            if (st) break;
            if (gpu) epochs++;
            (void)epoch_line;
        }
    }
    free(L.buf);
    if (!st && !epochs)
        st = tr_fail(c, JC_ERR_USAGE, 0, "no 'Epoch N:' with 'Duration:' and 'Average power usage (W) for gpu' "
                     "lines: give the standard log (*_carbontracker.log); the output log's totals include "
                     "Carbontracker's PUE and are not a trace");
    return st;
}

/* ---- PowerJoular ---------------------------------------------------------------------------- */

int tr_read_powerjoular(tr_ctx *c, FILE *fp)
{
    lines L = {fp, NULL, 0, 0};
    char *s, *f[MAX_COLS];
    int nl, nh = 0, cd = -1, cu = -1, ccpu = -1, cgpu = -1, st = 0;
    tr_set_label(c, "PowerJoular CSV");
    while ((s = next_line(&L, &nl))) {
        if (!*s) continue;
        if (!nh) {
            nh = split_csv(s, f, MAX_COLS);
            for (int i = 0; i < nh; i++) {
                if (!strcmp(f[i], "Date")) cd = i;
                else if (!strcmp(f[i], "CPU Utilization")) cu = i;
                else if (!strcmp(f[i], "CPU Power")) ccpu = i;
                else if (!strcmp(f[i], "GPU Power")) cgpu = i;
            }
            if (cd < 0 || (ccpu < 0 && cgpu < 0)) {
                st = tr_fail(c, JC_ERR_USAGE, L.line, "a PowerJoular header has Date and CPU Power or GPU Power");
                break;
            }
            tr_note(c, "PowerJoular: CPU Power (RAPL) is host scope, GPU Power (all GPUs, nvidia-smi) device scope; "
                       "Total Power is their sum and is not used twice");
            continue;
        }
        tr_row(c);
        int n = split_csv(s, f, MAX_COLS);
        if (!row_fields(c, L.line, n, nh, nl, "the header has")) continue;
        double t, u = NAN, wc = NAN, wg = NAN;
        char unit[16];
        if (tr_parse_time(f[cd], &t)) { tr_bad(c, L.line, "Date '%.40s' is not YYYY-MM-DD HH:MM:SS", f[cd]); continue; }
        if (cu >= 0 && tr_parse_num(f[cu], &u, unit, sizeof unit)) { tr_bad(c, L.line, "CPU Utilization '%.40s' is not a number", f[cu]); continue; }
        if (ccpu >= 0 && tr_parse_num(f[ccpu], &wc, unit, sizeof unit)) { tr_bad(c, L.line, "CPU Power '%.40s' is not a number", f[ccpu]); continue; }
        if (cgpu >= 0 && tr_parse_num(f[cgpu], &wg, unit, sizeof unit)) { tr_bad(c, L.line, "GPU Power '%.40s' is not a number", f[cgpu]); continue; }
        if (ccpu >= 0 && (st = tr_sample(c, "cpu", "CPU (RAPL)", JC_TRACE_HOST, -1, t, wc, u, NAN, L.line))) break;
        if (cgpu >= 0 && (st = tr_sample(c, "gpu", "GPU (all)", JC_TRACE_DEVICE, -1, t, wg, NAN, NAN, L.line))) break;
    }
    free(L.buf);
    if (!st && !nh) st = tr_fail(c, JC_ERR_USAGE, 0, "empty file");
    return st;
}

/* ---- Scaphandre JSON ------------------------------------------------------------------------- */

static int scaph_object(tr_ctx *c, const char *text, int line)
{
    tr_row(c);
    double t, w;
    int rc = tr_scaphandre_report(text, &t, &w);
    if (rc == -1) { tr_bad(c, line, "not a JSON object"); return 0; }
    if (rc) { tr_bad(c, line, "no numeric host.consumption and host.timestamp"); return 0; }
    return tr_sample(c, "host", "host (RAPL)", JC_TRACE_HOST, -1, t, w, NAN, NAN, line);
}

int tr_read_scaphandre(tr_ctx *c, FILE *fp)
{
    tr_set_label(c, "Scaphandre JSON exporter");
    tr_note(c, "Scaphandre: host.consumption in microwatts (RAPL: CPU packages and DRAM; fans, disks, NICs and "
               "accelerators not measured), host scope");
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    if (!buf) return tr_fail(c, JC_ERR_NOMEM, 0, "out of memory");
    int depth = 0, in_str = 0, esc = 0, line = 1, obj_line = 0, base = -1, st = 0, ch;
    while ((ch = getc(fp)) != EOF) {
        if (ch == '\n') line++;
        if (base < 0) {
            if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t') continue;
            base = ch == '[' ? 1 : 0;
            if (ch == '[') { depth = 1; continue; }
        }
        if (depth == base && !in_str) {
            if (ch == '{') { n = 0; obj_line = line; }
            else continue;   /* separators, the closing ']' */
        }
        if (n + 2 > cap) {
            if (cap > ((size_t)16 << 20)) { st = tr_fail(c, JC_ERR_USAGE, obj_line, "one report larger than 16 MiB"); break; }
            char *nb = realloc(buf, cap * 2);
            if (!nb) { st = tr_fail(c, JC_ERR_NOMEM, 0, "out of memory"); break; }
            buf = nb;
            cap *= 2;
        }
        buf[n++] = (char)ch;
        if (in_str) {
            if (esc) esc = 0;
            else if (ch == '\\') esc = 1;
            else if (ch == '"') in_str = 0;
            continue;
        }
        if (ch == '"') in_str = 1;
        else if (ch == '{' || ch == '[') depth++;
        else if (ch == '}' || ch == ']') {
            depth--;
            if (depth == base) {
                buf[n] = 0;
                if ((st = scaph_object(c, buf, obj_line))) break;
                n = 0;
            }
        }
    }
    if (!st && depth > base && n) {
        tr_row(c);
        tr_bad(c, obj_line, "truncated report (the file ends inside it)");
    }
    free(buf);
    return st;
}

/* ---- plain timestamp,watts ---------------------------------------------------------------------- */

int tr_read_watts(tr_ctx *c, FILE *fp)
{
    const jc_trace_opts *o = tr_opts(c);
    if (o->scope < 0 || o->scope >= JC_TRACE_SCOPE_COUNT)
        return tr_fail(c, JC_ERR_USAGE, 0, "a plain timestamp,watts CSV needs --scope device|host|wall (what the "
                       "meter measured: the accelerators, the host without them, or the whole server at the plug)");
    jc_trace_scope scope = (jc_trace_scope)o->scope;
    tr_set_label(c, "timestamp,watts CSV");
    lines L = {fp, NULL, 0, 0};
    char *s, *f[MAX_COLS];
    int nl, header_done = 0, nh = 2, ct = 0, cw = 1, st = 0;
    double tscale = NAN, wscale = 1;
    const char *name = scope == JC_TRACE_DEVICE ? "device meter" : scope == JC_TRACE_HOST ? "host meter" : "wall meter";
    while ((s = next_line(&L, &nl))) {
        if (!*s || s[0] == '#') continue;
        int n = split_csv(s, f, MAX_COLS);
        if (!header_done) {
            header_done = 1;
            double x;
            char u[16];
            if (n >= 2 && tr_parse_time(f[0], &x) && tr_parse_num(f[0], &x, u, sizeof u)) {
                /* a header: find the columns and their units */
                nh = n;
                ct = cw = -1;
                for (int i = 0; i < n; i++) {
                    char unit[32];
                    col_name(f[i], unit, sizeof unit);
                    if (ct < 0 && (strstr(f[i], "time") || strstr(f[i], "date"))) {
                        ct = i;
                        if (strstr(f[i], "_ms") || !strcmp(unit, "ms")) tscale = 1e-3;
                        else if (strstr(f[i], "_us") || !strcmp(unit, "us")) tscale = 1e-6;
                        else if (strstr(f[i], "_ns") || !strcmp(unit, "ns")) tscale = 1e-9;
                        else if (strstr(f[i], "_s") || !strcmp(unit, "s")) tscale = 1;
                    } else if (cw < 0 && (strstr(f[i], "watt") || strstr(f[i], "power") || !strcmp(f[i], "w") ||
                                          !strcmp(f[i], "kw"))) {
                        cw = i;
                        if (!strcmp(unit, "kW") || strstr(f[i], "kw")) wscale = 1e3;
                        else if (!strcmp(unit, "mW") || strstr(f[i], "_mw")) wscale = 1e-3;
                    }
                }
                if (ct < 0 || cw < 0) {
                    st = tr_fail(c, JC_ERR_USAGE, L.line, "the header names no time column (timestamp, time, date) "
                                 "and power column (watts, power, W)");
                    break;
                }
                continue;
            }
            tr_note(c, "no header: the first column is the time, the second the power in W");
        }
        tr_row(c);
        if (n < 0) { tr_bad(c, L.line, "unterminated quote"); continue; }
        if (!row_fields(c, L.line, n, nh, nl, "expected")) continue;
        double t, w;
        char unit[16];
        if (time_field(c, f[ct], &tscale, &t)) {
            tr_bad(c, L.line, "time '%.40s' is neither ISO 8601 nor a number", f[ct]);
            continue;
        }
        if (power_field(c, L.line, "power", f[cw], &w, unit, sizeof unit)) continue;
        if (!unit[0]) w *= wscale;
        if ((st = tr_sample(c, "meter", name, scope, -1, t, w, NAN, NAN, L.line))) break;
    }
    free(L.buf);
    return st;
}

/* ---- CodeCarbon (run totals, through jc_measurements_load) ------------------------------------ */

int tr_read_codecarbon(tr_ctx *c, const char *path)
{
    jc_measurements *ms = NULL;
    jc_diag d;
    tr_set_label(c, "CodeCarbon emissions.csv (run totals, no series)");
    if (jc_measurements_load(path, &ms, &d)) return tr_fail(c, d.status, -1, "%s", d.msg);
    int st = 0;
    if (strcmp(ms->format, "codecarbon")) {
        st = tr_fail(c, JC_ERR_USAGE, 0, "not CodeCarbon's emissions.csv (no duration and energy_consumed columns)");
        goto out;
    }
    size_t row = tr_opts(c)->row;
    if (row > ms->n) {
        st = tr_fail(c, JC_ERR_USAGE, 0, "--row %zu: the file has %zu data row%s", row, ms->n, ms->n == 1 ? "" : "s");
        goto out;
    }
    const jc_measurement *m = &ms->rows[row ? row - 1 : ms->n - 1];
    for (size_t i = 0; i < ms->n; i++) tr_row(c);
    tr_note(c, "CodeCarbon: line %d, energies divided by its pue %s (CodeCarbon multiplies it in); gpu_energy is "
               "device scope, cpu_energy + ram_energy host scope", m->line, FMT_N(isnan(m->pue) ? 1.0 : m->pue));
    if (!(m->duration_s > 0)) { st = tr_fail(c, JC_ERR_USAGE, m->line, "no duration"); goto out; }
    if (!isnan(m->device_kwh))
        st = tr_total(c, "gpu", m->device[0] ? m->device : "GPU (all)", JC_TRACE_DEVICE, m->duration_s,
                      m->device_kwh * JCI_J_PER_KWH);
    double host = (isnan(m->cpu_kwh) ? 0 : m->cpu_kwh) + (isnan(m->ram_kwh) ? 0 : m->ram_kwh);
    if (!st && (!isnan(m->cpu_kwh) || !isnan(m->ram_kwh)))
        st = tr_total(c, "cpu", "CPU + RAM (CodeCarbon)", JC_TRACE_HOST, m->duration_s, host * JCI_J_PER_KWH);
    tr_device_name(c, m->device);
    tr_totals_meta(c, m->devices, m->date);
    if (!st && m->devices > 1)
        tr_note(c, "CodeCarbon: gpu_count %s; the GPUs' energy is one total", FMT_N(m->devices));
out:
    jc_measurements_free(ms);
    return st;
}
