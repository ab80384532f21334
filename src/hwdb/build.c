/*
 * build.c (hwdb) - jc_hwdb_load: walks the layers (the bundled folder,
 * then each override), registers every file's entries by id (merging later
 * layers into earlier ones field by field), then reads each merged entry
 * through its kind's field table (src/hwdb/fields_<kind>.def, expanded by
 * schema.c: allowed keys, types, bounds, enums, sourced values) and the
 * kind's own rules (device_rules, host_rules, region_rules, dataset_rules,
 * ga_rules: what one field says about another, links between entries) into
 * the typed records of joulecast.h; docs/hwdb-schema.md is written from
 * the same tables (make hwdb-schema).  Every error names the file:line:
 * column of the offending key or value.  Nothing here knows about libyaml:
 * files arrive as base/yaml_tree.h trees from src/base/yaml.c.
 */
#include "base/fmt.h"
#include "hwdb/hwdb_int.h"
#include "hwdb/hwdb_fields.h"

#include <float.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* ---- entry kinds ------------------------------------------------------------ */

/* The entry kinds are the field tables' kinds with a namespace (jci_hwkind.ns:
 * devices, hosts, regions, intensities, providers, constants, ga, in HF_K_*
 * order); their tables are b->t[HF_K_*]. */
static bool entry_kind(int k)
{
    return jci_hwdb_kind(k)->ns != 0;
}

/* An entry registered by id: its (merged) mapping. */
typedef struct kentry {
    const char *id, *lower;
    hnode *map;
    const hnode *idnode;      /* where it was first defined */
    int layer;
} kentry;

typedef struct ktable {
    jci_strmap map;            /* lower id -> index */
    kentry *v;
    size_t n, cap;
} ktable;

typedef struct B {
    jci_arena *a, *s;          /* db arena, scratch arena */
    jc_hwdb *db;
    hw_internal *in;
    jc_diag *d;
    ktable t[HF_K_COUNT];      /* entries of each entry kind */
    char ctx[300];            /* "device 'x'": prefix of messages */
    const jc_source *row_src; /* the Green-Algorithms row being read's source */
    size_t n_files, cap_files;
} B;

/* ---- errors --------------------------------------------------------------- */

static jc_status oom(B *b)
{
    return jci_diag_set(b->d, JC_ERR_NOMEM, "out of memory loading the hardware database");
}

static jc_status err(B *b, const hnode *n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static jc_status err(B *b, const hnode *n, const char *fmt, ...)
{
    char buf[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (b->ctx[0])
        return jci_diag_yaml(b->d, JC_ERR_HWDB, n->file->path, n->line, n->col,
                            "%s: %s", b->ctx, buf);
    return jci_diag_yaml(b->d, JC_ERR_HWDB, n->file->path, n->line, n->col, "%s", buf);
}

static const char *what_is(const hnode *n);

/* ---- small helpers ---------------------------------------------------------- */

static const hnode *mget(const hnode *m, const char *key)
{
    if (!m || m->kind != HN_MAP) return NULL;
    for (size_t i = 0; i < m->n; i++)
        if (!strcmp(m->keys[i]->s, key)) return m->vals[i];
    return NULL;
}

static const hnode *mkey(const hnode *m, const char *key)
{
    for (size_t i = 0; i < m->n; i++)
        if (!strcmp(m->keys[i]->s, key)) return m->keys[i];
    return m;
}

/* Array v (n elements of elem bytes, capacity *cap) with room for one
 * more: v itself while n < *cap, else a copy in arena a at twice the
 * capacity (`first` when empty); NULL on out-of-memory. */
static void *arena_room(jci_arena *a, void *v, size_t n, size_t *cap, size_t elem, size_t first)
{
    if (n < *cap) return v;
    size_t nc = *cap ? *cap * 2 : first;
    void *nv = jci_arena_calloc(a, nc, elem);
    if (!nv) return NULL;
    if (n) memcpy(nv, v, n * elem);
    *cap = nc;
    return nv;
}

/* Closest of names[] (NULL-terminated) to s for "did you mean", or NULL. */
static const char *closest(const char *const *names, const char *s)
{
    jci_suggest sg;
    jci_suggest_init(&sg, s, 1);
    for (size_t i = 0; names[i]; i++) jci_suggest_add(&sg, names[i], NULL);
    return jci_suggest_best(&sg);
}

static void join(char *buf, size_t cap, const char *const *names)
{
    size_t p = 0;
    buf[0] = 0;
    for (size_t i = 0; names[i] && p + 2 < cap; i++) {
        int w = snprintf(buf + p, cap - p, "%s%s", i ? ", " : "", names[i]);
        if (w < 0) break;
        p += (size_t)w;
    }
}

/* Every key of map m must be in allowed[]. */
static jc_status check_keys(B *b, const hnode *m, const char *const *allowed,
                            const char *where)
{
    for (size_t i = 0; i < m->n; i++) {
        const char *k = m->keys[i]->s;
        size_t j;
        for (j = 0; allowed[j]; j++)
            if (!strcmp(allowed[j], k)) break;
        if (allowed[j]) continue;
        const char *sug = closest(allowed, k);
        if (sug)
            return err(b, m->keys[i], "unknown key '%s%s%s'; did you mean '%s'?",
                       where ? where : "", where ? "." : "", k, sug);
        char list[600];
        join(list, sizeof list, allowed);
        return err(b, m->keys[i], "unknown key '%s%s%s' (expected one of: %s)",
                   where ? where : "", where ? "." : "", k, list);
    }
    return JC_OK;
}

/* Strict, locale-independent YAML number syntax: [-+]digits[.digits][e[-+]digits]
 * (also ".5"); no hex, octal, underscores, inf or nan. */
static bool parse_num(const char *s, double *out)
{
    const char *p = s;
    char buf[80];
    size_t len = strlen(s);
    if (len == 0 || len >= sizeof buf) return false;
    if (*p == '-' || *p == '+') p++;
    int digits = 0;
    while (*p >= '0' && *p <= '9') p++, digits++;
    if (*p == '.') {
        p++;
        while (*p >= '0' && *p <= '9') p++, digits++;
    }
    if (!digits) return false;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '-' || *p == '+') p++;
        if (!(*p >= '0' && *p <= '9')) return false;
        while (*p >= '0' && *p <= '9') p++;
    }
    if (*p) return false;
    /* strtod follows LC_NUMERIC: use the locale's decimal point */
    memcpy(buf, s, len + 1);
    const char *dp = localeconv()->decimal_point;
    if (dp && dp[0] && dp[0] != '.' && !dp[1]) {
        char *q = strchr(buf, '.');
        if (q) *q = dp[0];
    }
    char *end;
    double v = strtod(buf, &end);
    if (*end || !(v == v) || v > DBL_MAX || v < -DBL_MAX) return false;
    *out = v;
    return true;
}

static bool parse_int(const char *s, long long *out)
{
    const char *p = s;
    if (*p == '-' || *p == '+') p++;
    if (!*p || strlen(p) > 15) return false;
    for (const char *q = p; *q; q++)
        if (*q < '0' || *q > '9') return false;
    long long v = strtoll(s, NULL, 10);
    *out = v;
    return true;
}

static bool is_yaml_bool(const char *s)
{
    static const char *const b[] = {"yes", "Yes", "YES", "no", "No", "NO",
        "true", "True", "TRUE", "false", "False", "FALSE", "on", "On", "ON",
        "off", "Off", "OFF", NULL};
    for (size_t i = 0; b[i]; i++)
        if (!strcmp(s, b[i])) return true;
    return false;
}

static bool is_null(const hnode *n)
{
    return n->kind == HN_SCALAR && n->plain &&
           (!n->s[0] || !strcmp(n->s, "~") || !strcmp(n->s, "null") ||
            !strcmp(n->s, "Null") || !strcmp(n->s, "NULL"));
}

static const char *what_is(const hnode *n)
{
    double v;
    if (n->kind == HN_MAP) return "a mapping";
    if (n->kind == HN_SEQ) return "a list";
    if (is_null(n)) return "null";
    if (n->plain && parse_num(n->s, &v)) return "a number";
    if (n->plain && is_yaml_bool(n->s)) return "a boolean";
    return "a string";
}

/* ---- typed getters ---------------------------------------------------------- */

static jc_status want_scalar_str(B *b, const hnode *n, const char *key,
                                 bool allow_empty, const char **out)
{
    if (n->kind != HN_SCALAR || is_null(n))
        return err(b, n, "%s: expected a string, got %s", key, what_is(n));
    if (n->plain && is_yaml_bool(n->s))
        return err(b, n, "%s: '%s' is a YAML boolean; quote it (\"%s\") if a string is meant",
                   key, n->s, n->s);
    if (!allow_empty && !n->s[0])
        return err(b, n, "%s: must not be empty", key);
    if (!jc_text_is_safe(n->s)) /* hwdb strings are one line of plain text (issue 27 item 10) */
        return err(b, n, "%s: contains a control byte, a line break or a bidi override (shown escaped: '%s'); "
                   "hwdb strings are one line of plain text", key, jci_text_escaped(b->a, n->s));
    *out = n->s;
    return JC_OK;
}

static jc_status get_str(B *b, const hnode *m, const char *key, bool req,
                         const char **out)
{
    const hnode *n = mget(m, key);
    *out = NULL;
    if (!n) {
        if (req) return err(b, m, "missing required key '%s'", key);
        return JC_OK;
    }
    return want_scalar_str(b, n, key, false, out);
}

typedef struct range {
    double lo, hi;
    bool lo_open, hi_open;
    const char *unit;
} range;

static bool in_range(const range *r, double v)
{
    if (r->lo_open ? !(v > r->lo) : !(v >= r->lo)) return false;
    if (r->hi_open ? !(v < r->hi) : !(v <= r->hi)) return false;
    return true;
}

static jc_status range_err(B *b, const hnode *n, const char *key, double v, const range *r)
{
    return err(b, n, "%s = %s%s%s is out of range (expected %g %s %s %s %g%s%s)",
               key, FMT_X(v), r->unit[0] ? " " : "", r->unit, r->lo, r->lo_open ? "<" : "<=",
               key, r->hi_open ? "<" : "<=", r->hi, r->unit[0] ? " " : "", r->unit);
}

static jc_status want_num(B *b, const hnode *n, const char *key, const range *r,
                          double *out)
{
    double v;
    if (n->kind != HN_SCALAR || !n->plain || !parse_num(n->s, &v)) {
        if (n->kind == HN_SCALAR && !n->plain && parse_num(n->s, &v))
            return err(b, n, "%s: expected a number, got the quoted string \"%s\"", key, n->s);
        if (n->kind == HN_SCALAR && !is_null(n))
            return err(b, n, "%s: expected a number, got %s '%s'", key, what_is(n), n->s);
        return err(b, n, "%s: expected a number, got %s", key, what_is(n));
    }
    if (r && !in_range(r, v)) return range_err(b, n, key, v, r);
    *out = v;
    return JC_OK;
}

static jc_status want_int(B *b, const hnode *n, const char *key, long long lo,
                          long long hi, int *out)
{
    long long v;
    if (n->kind != HN_SCALAR || !n->plain || !parse_int(n->s, &v)) {
        if (n->kind == HN_SCALAR && !is_null(n))
            return err(b, n, "%s: expected an integer, got %s '%s'", key, what_is(n), n->s);
        return err(b, n, "%s: expected an integer, got %s", key, what_is(n));
    }
    if (v < lo || v > hi)
        return err(b, n, "%s = %lld is out of range (expected %lld <= %s <= %lld)",
                   key, v, lo, key, hi);
    *out = (int)v;
    return JC_OK;
}

static jc_status get_enum(B *b, const hnode *m, const char *key,
                          const char *const *names, int *out)
{
    const char *s;
    jc_status st = get_str(b, m, key, true, &s);
    if (st) return st;
    for (int i = 0; names[i]; i++)
        if (!strcmp(names[i], s)) {
            *out = i;
            return JC_OK;
        }
    const hnode *n = mget(m, key);
    char list[300];
    join(list, sizeof list, names);
    const char *sug = closest(names, s);
    if (sug)
        return err(b, n, "%s: unknown value '%s'; did you mean '%s'? (one of: %s)",
                   key, s, sug, list);
    return err(b, n, "%s: unknown value '%s' (expected one of: %s)", key, s, list);
}

/* Key `key` of m as a node of kind HN_MAP or HN_SEQ (absent: NULL, an
 * error when required). */
static jc_status get_node(B *b, const hnode *m, const char *key, bool req, hn_kind kind,
                          const hnode **out)
{
    const hnode *n = mget(m, key);
    *out = NULL;
    if (!n) return req ? err(b, m, "missing required key '%s'", key) : JC_OK;
    if (n->kind != kind)
        return err(b, n, "%s: expected %s, got %s", key, kind == HN_MAP ? "a mapping" : "a list",
                   what_is(n));
    *out = n;
    return JC_OK;
}

/* ---- sources -------------------------------------------------------------------- */

static jc_status resolve_source(B *b, const hnode *n, const jc_source **out)
{
    const char *id;
    jc_status st = want_scalar_str(b, n, "source", false, &id);
    if (st) return st;
    const hw_file *f = n->file;
    int32_t i = f->has_sources ? jci_strmap_get(&f->sources, id) : -1;
    if (i >= 0) {
        *out = f->srcs[i];
        return JC_OK;
    }
    if (!f->has_sources)
        return err(b, n, "source '%s' is not defined: this file has no 'sources' mapping", id);
    jci_suggest sg;
    jci_suggest_init(&sg, id, 1);
    for (size_t k = 0; k < f->n_srcs; k++) jci_suggest_add(&sg, f->srcs[k]->id, NULL);
    const char *best = jci_suggest_best(&sg);
    if (best)
        return err(b, n, "source '%s' is not defined in this file's 'sources'; did you mean '%s'?",
                   id, best);
    return err(b, n, "source '%s' is not defined in this file's 'sources'", id);
}

static jc_status read_fields(B *b, const hnode *m, const jci_hwkind *k, const char *where,
                             void *rec);

static jc_status parse_sources(B *b, hw_file *f, const hnode *m)
{
    if (m->kind != HN_MAP)
        return err(b, m, "sources: expected a mapping of source id -> source, got %s",
                   what_is(m));
    f->has_sources = 1;
    f->srcs = jci_arena_calloc(b->a, m->n ? m->n : 1, sizeof *f->srcs);
    if (!f->srcs || !jci_strmap_init(&f->sources, b->a, m->n)) return oom(b);
    for (size_t i = 0; i < m->n; i++) {
        const hnode *e = m->vals[i];
        jc_source *src = jci_arena_alloc(b->a, sizeof *src);
        if (!src) return oom(b);
        src->id = m->keys[i]->s;
        snprintf(b->ctx, sizeof b->ctx, "source '%s'", src->id);
        if (e->kind != HN_MAP)
            return err(b, e, "expected a mapping {citation, year, ...}, got %s", what_is(e));
        jc_status st;
        if ((st = read_fields(b, e, jci_hwdb_kind(HF_K_SOURCE), NULL, src))) return st;
        if (src->date) {
            int y;
            if (!jci_date_valid(src->date, strlen(src->date), &y))
                return err(b, mget(e, "date"), "date: '%s' is not YYYY, YYYY-MM or YYYY-MM-DD "
                           "(a year 1800-2100, a month 1-12, a day its month has)",
                           src->date);
            if (src->year && y != src->year)
                return err(b, mget(e, "date"), "date %s disagrees with year %d",
                           src->date, src->year);
            src->year = y;
        }
        if (!src->year)
            return err(b, e, "a source needs 'year' or 'date'");
        src->file_licence = f->licence;
        src->file = f->path;
        src->line = e->line;
        src->col = e->col;
        f->srcs[f->n_srcs] = src;
        jci_strmap_put(&f->sources, src->id, (int32_t)f->n_srcs);
        f->n_srcs++;
        b->db->n_sources++;
    }
    b->ctx[0] = 0;
    return JC_OK;
}

/* ---- sourced values --------------------------------------------------------------- */

enum { SV_RANGE = 1, SV_HOW = 2, SV_YEAR = 4 };

static const char *const sv_keys[] = {"value", "source", "year", "low", "high",
                                      "derived", "measured", "note", NULL};

/* A sourced value at node n.  extra: further allowed keys (the caller
 * reads them); dflt: the source when the mapping has none (NULL: required). */
static jc_status sourced(B *b, const hnode *n, const char *key, const range *r,
                         const char *const *extra, int flags,
                         const jc_source *dflt, jc_sourced *out)
{
    jc_status st;
    memset(out, 0, sizeof *out);
    if (n->kind != HN_MAP)
        return err(b, n, "%s: expected a sourced value {value: N, source: ID}, got %s%s%s",
                   key, what_is(n), n->kind == HN_SCALAR ? " " : "",
                   n->kind == HN_SCALAR ? n->s : "");
    const char *allowed[24];
    size_t na = 0;
    for (size_t i = 0; sv_keys[i]; i++) allowed[na++] = sv_keys[i];
    for (size_t i = 0; extra && extra[i] && na < 23; i++) allowed[na++] = extra[i];
    allowed[na] = NULL;
    if ((st = check_keys(b, n, allowed, key))) return st;
    const hnode *v = mget(n, "value");
    if (!v) return err(b, n, "%s: missing 'value'", key);
    char kbuf[160];
    if ((st = want_num(b, v, key, r, &out->value))) return st;
    const hnode *s = mget(n, "source");
    if (s) {
        if ((st = resolve_source(b, s, &out->source))) return st;
    } else if (dflt) {
        out->source = dflt;
    } else {
        return err(b, n, "%s: missing 'source' (every value needs a source id of this file)", key);
    }
    const hnode *y = mget(n, "year");
    snprintf(kbuf, sizeof kbuf, "%s.year", key);
    if (y) {
        if ((st = want_int(b, y, kbuf, 1900, 2100, &out->year))) return st;
    } else if (flags & SV_YEAR) {
        return err(b, n, "%s: missing 'year'", key);
    } else {
        out->year = out->source->year;
    }
    const hnode *lo = mget(n, "low"), *hi = mget(n, "high");
    out->low = out->high = out->value;
    if (lo) {
        snprintf(kbuf, sizeof kbuf, "%s.low", key);
        if ((st = want_num(b, lo, kbuf, r, &out->low))) return st;
        if (out->low > out->value)
            return err(b, lo, "%s.low (%g) is above value (%g)", key, out->low, out->value);
    }
    if (hi) {
        snprintf(kbuf, sizeof kbuf, "%s.high", key);
        if ((st = want_num(b, hi, kbuf, r, &out->high))) return st;
        if (out->high < out->value)
            return err(b, hi, "%s.high (%g) is below value (%g)", key, out->high, out->value);
    }
    out->has_range = lo || hi;
    if ((flags & SV_RANGE) && !(lo && hi))
        return err(b, n, "%s: needs 'low' and 'high' (a range around value)", key);
    if ((st = get_str(b, n, "derived", false, &out->derived))) return st;
    if ((st = get_str(b, n, "measured", false, &out->measured))) return st;
    if ((st = get_str(b, n, "note", false, &out->note))) return st;
    if (out->derived && out->measured)
        return err(b, mkey(n, "measured"), "%s: 'derived' and 'measured' are exclusive", key);
    if ((flags & SV_HOW) && !out->derived && !out->measured)
        return err(b, n, "%s: needs 'measured' (method) or 'derived' (how)", key);
    out->present = 1;
    out->file = v->file->path;
    out->line = v->line;
    out->col = v->col;
    return JC_OK;
}

/* A plain number of a Green-Algorithms row, sourced by the row's source. */
static jc_status row_num(B *b, const hnode *row, const char *key, bool req,
                         const range *r, const jc_source *src, jc_sourced *out)
{
    const hnode *n = mget(row, key);
    memset(out, 0, sizeof *out);
    if (!n) return req ? err(b, row, "missing required key '%s'", key) : JC_OK;
    jc_status st = want_num(b, n, key, r, &out->value);
    if (st) return st;
    out->present = 1;
    out->low = out->high = out->value;
    out->source = src;
    out->year = src ? src->year : 0;
    out->file = n->file->path;
    out->line = n->line;
    out->col = n->col;
    return JC_OK;
}

/* ---- ranges (docs/hwdb-schema.md) ------------------------------------------------ */

static const range R_PUE = {1, 3, false, false, ""};
static const range R_CI = {0, 2000, false, false, "gCO2e/kWh"};

/* ---- registration and merging ---------------------------------------------------- */

static const char *const merge_maps[] = {"peak_tflops", "peak_tflops_sparse",
    "energy", "pj_per_flop", "pj_per_flop_tensor", "utilization", "ga", NULL};
static const struct { const char *list, *k1, *k2; } keyed_lists[] = {
    {"values", "region", "year"},
    {"intensity", "dataset", "year"},
    {"pue_by_year", "year", NULL},
};

static bool in_list(const char *const *l, const char *s)
{
    for (size_t i = 0; l[i]; i++)
        if (!strcmp(l[i], s)) return true;
    return false;
}

static hnode *merge_map(B *b, const hnode *dst, const hnode *src);

/* identity of a keyed-list item, lower-cased "k1|k2", or NULL */
static const char *item_key(B *b, const hnode *it, const char *k1, const char *k2)
{
    const hnode *a = mget(it, k1), *c = k2 ? mget(it, k2) : NULL;
    if (!a || a->kind != HN_SCALAR || (k2 && (!c || c->kind != HN_SCALAR))) return NULL;
    char buf[512];
    snprintf(buf, sizeof buf, "%s|%s", a->s, c ? c->s : "");
    return hw_lower(b->s, buf);
}

static hnode *merge_list(B *b, const hnode *dst, const hnode *src, const char *k1,
                         const char *k2)
{
    hnode *l = jci_arena_alloc(b->s, sizeof *l);
    if (!l) return NULL;
    *l = *dst;
    l->vals = jci_arena_calloc(b->s, dst->n + src->n + 1, sizeof *l->vals);
    if (!l->vals) return NULL;
    jci_strmap m = {0};
    for (size_t i = 0; i < dst->n; i++) {
        l->vals[i] = dst->vals[i];
        const char *k = item_key(b, dst->vals[i], k1, k2);
        int32_t prev;
        if (k && !hw_smap_put(b->s, &m, k, (int32_t)i, &prev)) return NULL;
    }
    for (size_t i = 0; i < src->n; i++) {
        const char *k = item_key(b, src->vals[i], k1, k2);
        int32_t at = k ? jci_strmap_get(&m, k) : -1;
        if (at >= 0) {
            l->vals[at] = src->vals[i];
        } else {
            int32_t prev;
            if (k && !hw_smap_put(b->s, &m, k, (int32_t)l->n, &prev)) return NULL;
            l->vals[l->n++] = src->vals[i];
        }
    }
    return l;
}

static hnode *merge_map(B *b, const hnode *dst, const hnode *src)
{
    hnode *m = jci_arena_alloc(b->s, sizeof *m);
    if (!m) return NULL;
    *m = *dst;
    size_t cap = dst->n + src->n + 1;
    m->keys = jci_arena_calloc(b->s, cap, sizeof *m->keys);
    m->vals = jci_arena_calloc(b->s, cap, sizeof *m->vals);
    if (!m->keys || !m->vals) return NULL;
    memcpy(m->keys, dst->keys, dst->n * sizeof *m->keys);
    memcpy(m->vals, dst->vals, dst->n * sizeof *m->vals);
    for (size_t i = 0; i < src->n; i++) {
        const char *k = src->keys[i]->s;
        size_t j;
        for (j = 0; j < m->n; j++)
            if (!strcmp(m->keys[j]->s, k)) break;
        hnode *v = src->vals[i];
        if (j == m->n) {
            m->keys[m->n] = src->keys[i];
            m->vals[m->n++] = v;
            continue;
        }
        hnode *old = m->vals[j];
        m->keys[j] = src->keys[i];
        if (in_list(merge_maps, k) && old->kind == HN_MAP && v->kind == HN_MAP &&
            !mget(v, "value")) {
            v = merge_map(b, old, v);
            if (!v) return NULL;
        } else if (old->kind == HN_SEQ && v->kind == HN_SEQ) {
            for (size_t q = 0; q < sizeof keyed_lists / sizeof keyed_lists[0]; q++)
                if (!strcmp(keyed_lists[q].list, k)) {
                    v = merge_list(b, old, v, keyed_lists[q].k1, keyed_lists[q].k2);
                    if (!v) return NULL;
                    break;
                }
        }
        m->vals[j] = v;
    }
    return m;
}

static jc_status register_entry(B *b, int kind, hnode *e, int layer)
{
    const jci_hwkind *kd = jci_hwdb_kind(kind);
    const char *idkey = jci_hwdb_id_row(kd)->key;
    if (e->kind != HN_MAP)
        return err(b, e, "%s: expected a mapping (one %s), got %s", kd->section, kd->label,
                   what_is(e));
    const hnode *idn = mget(e, idkey);
    if (!idn)
        return err(b, e, "%s without '%s'", kd->label, idkey);
    const char *id;
    jc_status st = want_scalar_str(b, idn, idkey, false, &id);
    if (st) return st;
    ktable *t = &b->t[kind];
    char *lower = hw_lower(b->a, id);
    if (!lower) return oom(b);
    int32_t at = jci_strmap_get(&t->map, lower);
    if (at >= 0) {
        kentry *k = &t->v[at];
        if (k->layer == layer)
            return err(b, idn, "duplicate %s '%s' (also defined at %s:%d:%d)",
                       kd->label, id, k->idnode->file->path, k->idnode->line,
                       k->idnode->col);
        hnode *mm = merge_map(b, k->map, e);
        if (!mm) return oom(b);
        k->map = mm;
        k->layer = layer;
        return JC_OK;
    }
    kentry *nv = arena_room(b->s, t->v, t->n, &t->cap, sizeof *t->v, 64);
    if (!nv) return oom(b);
    t->v = nv;
    int32_t prev;
    if (!hw_smap_put(b->s, &t->map, lower, (int32_t)t->n, &prev)) return oom(b);
    kentry *k = &t->v[t->n++];
    k->id = id;
    k->lower = lower;
    k->map = e;
    k->idnode = idn;
    k->layer = layer;
    return JC_OK;
}

static jc_status register_file(B *b, hw_file *f, hnode *root)
{
    /* a file's keys: these, then the section of every entry kind */
    const char *top_keys[HF_K_COUNT + 4] = {"schema", "licence", "sources"};
    size_t nk = 3;
    for (int k = 0; k < HF_K_COUNT; k++)
        if (entry_kind(k)) top_keys[nk++] = jci_hwdb_kind(k)->section;
    char sections[300];
    join(sections, sizeof sections, top_keys + 3);
    b->ctx[0] = 0;
    if (!root) {
        hnode at = {HN_SCALAR, 1, 1, f, "", 1, 0, NULL, NULL};
        return err(b, &at, "empty file: expected a mapping with 'schema: joulecast-hwdb/1'");
    }
    if (root->kind != HN_MAP)
        return err(b, root, "the top level must be a mapping (schema, sources and one of "
                   "%s), got %s", sections, what_is(root));
    jc_status st = check_keys(b, root, top_keys, NULL);
    if (st) return st;
    const char *schema;
    if ((st = get_str(b, root, "schema", true, &schema))) return st;
    if (strcmp(schema, "joulecast-hwdb/1"))
        return err(b, mget(root, "schema"), "schema: '%s' is not supported (expected joulecast-hwdb/1)",
                   schema);
    if ((st = get_str(b, root, "licence", false, &f->licence))) return st;
    const hnode *src = mget(root, "sources");
    if (src && (st = parse_sources(b, f, src))) return st;
    int kind = -1;
    for (int k = 0; k < HF_K_COUNT; k++) {
        if (!entry_kind(k) || !mget(root, jci_hwdb_kind(k)->section)) continue;
        if (kind >= 0)
            return err(b, mkey(root, jci_hwdb_kind(k)->section),
                       "a file holds one kind of entry: both '%s' and '%s' here",
                       jci_hwdb_kind(kind)->section, jci_hwdb_kind(k)->section);
        kind = k;
    }
    if (kind < 0) return err(b, root, "no entries: expected one of %s", sections);
    const char *section = jci_hwdb_kind(kind)->section;
    hnode *body = (hnode *)mget(root, section);
    if (jci_hwdb_kind(kind)->single)
        return register_entry(b, kind, body, f->layer);
    if (body->kind != HN_SEQ)
        return err(b, body, "%s: expected a list of entries, got %s", section, what_is(body));
    for (size_t i = 0; i < body->n; i++)
        if ((st = register_entry(b, kind, body->vals[i], f->layer))) return st;
    return JC_OK;
}

/* ---- names --------------------------------------------------------------------- */

static jc_status add_name(B *b, hw_ns *ns, int kind, int32_t idx, const char *name,
                          int is_alias, const hnode *at, const char *what)
{
    hw_name nm = {name, hw_lower(b->a, name), kind, idx, is_alias, at->file->path,
                  at->line, at->col};
    if (!nm.lower) return oom(b);
    bool o = false;
    const hw_name *prev = hw_ns_add(b->a, ns, &nm, &o);
    if (o) return oom(b);
    if (prev)
        return err(b, at, "%s '%s' is already used by %s '%s' (%s '%s' at %s:%d:%d); ids "
                   "and aliases are case-insensitive and unique", is_alias ? "alias" : what,
                   name, hw_kind_name(prev->kind), hw_entity_id(b->db, prev),
                   prev->is_alias ? "alias" : "id", prev->name, prev->file, prev->line,
                   prev->col);
    return JC_OK;
}

/* Registers entry idx of entry kind k (record rec, mapping m): its id and
 * the aliases of its HF_ALIASES row, in the kind's namespace. */
static jc_status add_names(B *b, const jci_hwkind *k, int32_t idx, const void *rec,
                           const hnode *m)
{
    hw_ns *ns = (hw_ns *)((unsigned char *)b->in + k->ns_off);
    const jci_hwfield *idf = jci_hwdb_id_row(k), *alf = jci_hwdb_alias_row(k);
    const char *id, **aliases = NULL;
    size_t n = 0;
    memcpy(&id, (const unsigned char *)rec + idf->off, sizeof id);
    jc_status st = add_name(b, ns, k->ns, idx, id, 0, mget(m, idf->key), k->idname);
    if (st || !alf) return st;
    memcpy(&aliases, (const unsigned char *)rec + alf->off, sizeof aliases);
    memcpy(&n, (const unsigned char *)rec + alf->count_off, sizeof n);
    const hnode *al = mget(m, alf->key);
    for (size_t i = 0; i < n; i++)
        if ((st = add_name(b, ns, k->ns, idx, aliases[i], 1, al->vals[i], k->idname))) return st;
    return JC_OK;
}

static int cmp_kentry(const void *x, const void *y)
{
    return strcmp(((const kentry *)x)->lower, ((const kentry *)y)->lower);
}

/* ---- table-driven fields (src/hwdb/fields_<kind>.def) ----------------------------- */

static jc_status resolve_device(B *b, const hnode *n, const char *key,
                                const jc_device **out);

/* The first segment of a row's key ("energy" of "energy.pj_per_flop") in
 * top[cap]; the rest (NULL for a plain key). */
static const char *key_top(const char *key, char *top, size_t cap)
{
    const char *dot = strchr(key, '.');
    size_t n = dot ? (size_t)(dot - key) : strlen(key);
    if (n >= cap) n = cap - 1;
    memcpy(top, key, n);
    top[n] = 0;
    return dot ? dot + 1 : NULL;
}

static range field_range(const jci_hwfield *f)
{
    range r = {-DBL_MAX, DBL_MAX, false, false, f->unit};
    if (f->has_range) {
        r.lo = f->lo;
        r.hi = f->hi;
        r.lo_open = f->lo_open;
        r.hi_open = f->hi_open;
    }
    return r;
}

/* Row f read from key `look` of mapping c (absent: NULL or 0, an error
 * when required); messages name the row's whole key.  extra: keys of a
 * sourced value's mapping that its following rows read (of an HF_ENTRY
 * row, c itself: the other rows' keys). */
static jc_status read_field(B *b, const hnode *c, const jci_hwfield *f, const char *look,
                            const char *const *extra, void *rec)
{
    unsigned char *p = (unsigned char *)rec + f->off;
    const hnode *n = mget(c, look);
    range r = field_range(f);
    if (f->type == HF_T_ID) return JC_OK;
    if (!n) {
        if (!(f->flags & HF_REQ)) return JC_OK;
        if (look != f->key)
            return err(b, c, "%.*s: missing required key '%s'", (int)(look - f->key - 1), f->key,
                       look);
        return err(b, c, "missing required key '%s'", look);
    }
    if (f->type == HF_T_OWN) return JC_OK;
    int sv = (f->flags & HF_RANGE ? SV_RANGE : 0) | (f->flags & HF_HOW ? SV_HOW : 0) |
             (f->flags & HF_YEAR ? SV_YEAR : 0);
    jc_status st;
    switch (f->type) {
    case HF_T_STR: {
        if (!f->names) return want_scalar_str(b, n, f->key, (f->flags & HF_EMPTY) != 0,
                                              (const char **)p);
        int e;
        if ((st = get_enum(b, c, look, f->names, &e))) return st;
        memcpy(p, &f->names[e], sizeof f->names[e]);
        return JC_OK;
    }
    case HF_T_STRS: {
        if (n->kind != HN_SEQ) return err(b, n, "%s: expected a list, got %s", f->key, what_is(n));
        const char **v = jci_arena_calloc(b->a, n->n ? n->n : 1, sizeof *v);
        if (!v) return oom(b);
        for (size_t i = 0; i < n->n; i++)
            if ((st = want_scalar_str(b, n->vals[i], f->key, false, &v[i]))) return st;
        memcpy(p, &v, sizeof v);
        memcpy((unsigned char *)rec + f->count_off, &n->n, sizeof n->n);
        return JC_OK;
    }
    case HF_T_ENUM:
        return get_enum(b, c, look, f->names, (int *)p);
    case HF_T_INT:
        return want_int(b, n, f->key, (long long)r.lo, (long long)r.hi, (int *)p);
    case HF_T_NUM:
        return want_num(b, n, f->key, &r, (double *)p);
    case HF_T_SV:
        return sourced(b, f->flags & HF_ENTRY ? c : n, f->key, &r, extra, sv, NULL,
                       (jc_sourced *)p);
    case HF_T_PREC: {
        if (n->kind != HN_MAP)
            return err(b, n, "%s: expected a mapping, got %s", f->key, what_is(n));
        if ((st = check_keys(b, n, jci_precision_names, f->key))) return st;
        for (int q = 0; jci_precision_names[q]; q++) {
            const hnode *v = mget(n, jci_precision_names[q]);
            char k[96];
            snprintf(k, sizeof k, "%s.%s", f->key, jci_precision_names[q]);
            if (v && (st = sourced(b, v, k, &r, NULL, sv, NULL, (jc_sourced *)p + q))) return st;
        }
        return JC_OK;
    }
    case HF_T_DEVREF:
        return resolve_device(b, n, f->key, (const jc_device **)p);
    case HF_T_SRCREF:
        return resolve_source(b, n, (const jc_source **)p);
    case HF_T_ROWNUM:
        return row_num(b, c, look, false, &r, b->row_src, (jc_sourced *)p);
    case HF_T_LIST:
        return n->kind == HN_SEQ ? JC_OK
                                 : err(b, n, "%s: expected a list, got %s", f->key, what_is(n));
    }
    return err(b, n, "%s: internal error: field type %u", f->key, f->type);
}

/* Rows [i, *end) share the first key segment of row i: their keys (the
 * segment after it) into sub[cap] (NULL-terminated). */
static size_t group_of(const jci_hwfield *f, size_t n, size_t i, const char **sub, size_t cap)
{
    char top[64], t2[64];
    key_top(f[i].key, top, sizeof top);
    size_t j = i, ns = 0;
    for (; j < n; j++) {
        const char *rest = key_top(f[j].key, t2, sizeof t2);
        if (strcmp(top, t2)) break;
        if (rest && ns + 1 < cap) sub[ns++] = rest;
    }
    sub[ns] = NULL;
    return j;
}

/* Converts mapping m into rec by the kind's table: the keys of m must be
 * rows' (first segments; `where` prefixes an unknown one in messages) or,
 * with an HF_ENTRY row, a sourced value's; every row is read; cross-field
 * rules are the caller's. */
static jc_status read_fields(B *b, const hnode *m, const jci_hwkind *k, const char *where,
                             void *rec)
{
    const jci_hwfield *f = k->fields;
    const char *tops[80];
    char topbuf[64][64];
    size_t nt = 0, nrows;
    const jci_hwfield *entry = NULL;
    jc_status st;
    for (size_t i = 0; i < k->n && nt + 1 < 64; i++) {
        key_top(f[i].key, topbuf[nt], sizeof topbuf[nt]);
        if (!nt || strcmp(topbuf[nt], tops[nt - 1])) tops[nt] = topbuf[nt], nt++;
        if (f[i].flags & HF_ENTRY) entry = &f[i];
    }
    nrows = nt;
    tops[nt] = NULL;
    for (size_t i = 0; entry && sv_keys[i] && nt + 1 < 80; i++)
        if (!in_list(tops, sv_keys[i])) tops[nt++] = sv_keys[i], tops[nt] = NULL;
    if ((st = check_keys(b, m, tops, where))) return st;
    tops[nrows] = NULL;
    for (size_t i = 0; i < k->n;) {
        const char *sub[32];
        size_t end = group_of(f, k->n, i, sub, 32);
        char top[64];
        if (!key_top(f[i].key, top, sizeof top)) {
            /* a plain key; following rows are extra keys of its mapping */
            const char *const *ex = &f[i] == entry ? tops : end > i + 1 ? sub : NULL;
            if ((st = read_field(b, m, &f[i], f[i].key, ex, rec))) return st;
            const hnode *own = mget(m, f[i].key);
            for (size_t j = i + 1; own && j < end; j++)
                if ((st = read_field(b, own, &f[j], strchr(f[j].key, '.') + 1, NULL, rec)))
                    return st;
        } else {
            const hnode *g;
            if ((st = get_node(b, m, top, false, HN_MAP, &g))) return st;
            if (g && (st = check_keys(b, g, sub, top))) return st;
            for (size_t j = i; g && j < end; j++)
                if ((st = read_field(b, g, &f[j], strchr(f[j].key, '.') + 1, NULL, rec)))
                    return st;
        }
        i = end;
    }
    return JC_OK;
}

/* ---- entries by their kind (the one converter of every entry kind) ---------------- */

/* A kind's rules between fields, applied to rec (its mapping m) once the
 * table's fields are read; arg is the caller's. */
typedef jc_status (*kind_rules)(B *b, const hnode *m, void *rec, void *arg);

/* Converts entry idx of entry kind `kind` into rec: names it in the error
 * context ("<label> '<id>'"), sets its id and where its mapping is, reads
 * the kind's table fields (read_fields), applies `rules` (NULL: none) and
 * registers its id and aliases (add_names). */
static jc_status convert_entry(B *b, int kind, const kentry *e, void *rec, int32_t idx,
                               kind_rules rules, void *arg)
{
    const jci_hwkind *k = jci_hwdb_kind(kind);
    unsigned char *p = rec;
    const hnode *m = e->map;
    snprintf(b->ctx, sizeof b->ctx, "%s '%s'", k->label, e->id);
    memcpy(p + jci_hwdb_id_row(k)->off, &e->id, sizeof e->id);
    if (k->has_at) {
        memcpy(p + k->file_off, &m->file->path, sizeof m->file->path);
        memcpy(p + k->line_off, &m->line, sizeof m->line);
        memcpy(p + k->col_off, &m->col, sizeof m->col);
    }
    jc_status st = read_fields(b, m, k, NULL, rec);
    if (!st && rules) st = rules(b, m, rec, arg);
    return st ? st : add_names(b, k, idx, rec, m);
}

/* Every entry of entry kind `kind` into its array of the database (in
 * sorted order). */
static jc_status convert_kind(B *b, int kind, kind_rules rules, void *arg)
{
    const jci_hwkind *k = jci_hwdb_kind(kind);
    size_t sz = hs_types()[k->ht].size;
    unsigned char *arr;
    memcpy(&arr, (unsigned char *)b->db + k->db_off, sizeof arr);
    for (size_t i = 0; i < b->t[kind].n; i++) {
        jc_status st = convert_entry(b, kind, &b->t[kind].v[i], (unsigned char *)arr + i * sz,
                                     (int32_t)i, rules, arg);
        if (st) return st;
    }
    return JC_OK;
}

/* ---- devices --------------------------------------------------------------------- */

/* The rules between a device's spec fields: a CPU's peaks are derived
 * (no vendor publishes them: cores x clock x FLOP/cycle of the ISA), so
 * each needs its derivation; the fp32-accumulate rate of a precision is
 * beside a headline rate and at most it; an SM count is whole; the TDP
 * lies in the configurable power-limit range. */
static jc_status device_spec_rules(B *b, const hnode *m, const jc_device *dv)
{
    const hnode *pk = mget(m, "peak_tflops"), *pa = mget(m, "peak_tflops_acc32");
    for (int p = 0; p < JC_PREC_COUNT; p++) {
        const char *pn = jc_precision_name((jc_precision)p);
        const jc_sourced *s = &dv->peak_tflops[p], *a = &dv->peak_tflops_acc32[p];
        if (dv->kind == JC_DEVICE_CPU && s->present && !s->derived && !s->measured)
            return err(b, mget(pk, pn), "peak_tflops.%s: a CPU's peak is derived (cores x all-core clock x FLOP/cycle "
                       "of its ISA): say how in 'derived'", pn);
        if (a->present && !s->present)
            return err(b, mget(pa, pn), "peak_tflops_acc32.%s without peak_tflops.%s: the fp32-accumulate rate "
                       "goes beside the headline rate", pn, pn);
        if (a->present && a->value > s->value)
            return err(b, mget(pa, pn), "peak_tflops_acc32.%s (%g) above peak_tflops.%s (%g): fp32 accumulate "
                       "is never faster", pn, a->value, pn, s->value);
    }
    if (dv->sm_count.present && dv->sm_count.value != floor(dv->sm_count.value))
        return err(b, mget(mget(m, "sm_count"), "value"), "sm_count (%g) must be a whole number", dv->sm_count.value);
    if (dv->node_devices.present && dv->node_devices.value != floor(dv->node_devices.value))
        return err(b, mget(mget(m, "node_devices"), "value"), "node_devices (%g) must be a whole number",
                   dv->node_devices.value);
    if (dv->power_limit_w.present && dv->tdp_w.present &&
        (dv->tdp_w.value < dv->power_limit_w.low || dv->tdp_w.value > dv->power_limit_w.high))
        return err(b, mget(mget(m, "tdp_w"), "value"), "tdp_w (%g W) outside power_limit_w %g-%g W",
                   dv->tdp_w.value, dv->power_limit_w.low, dv->power_limit_w.high);
    if (dv->boost_power_w.present && dv->tdp_w.present && dv->boost_power_w.value < dv->tdp_w.value)
        return err(b, mget(mget(m, "boost_power_w"), "value"), "boost_power_w (%g W) below tdp_w (%g W): the die's "
                   "highest rated power is at least this card's", dv->boost_power_w.value, dv->tdp_w.value);
    return JC_OK;
}

static jc_status device_rules(B *b, const hnode *m, void *rec, void *arg)
{
    jc_device *dv = rec;
    if (dv->idle_w.present && dv->tdp_w.present && !(dv->idle_w.value < dv->tdp_w.value))
        return err(b, mget(mget(m, "idle_w"), "value"), "idle_w (%g W) must be below tdp_w (%g W)",
                   dv->idle_w.value, dv->tdp_w.value);
    if (dv->static_w.present && dv->tdp_w.present && !(dv->static_w.value < dv->tdp_w.value))
        return err(b, mget(mget(mget(m, "energy"), "static_w"), "value"), "energy.static_w (%g W) must be below "
                   "tdp_w (%g W)", dv->static_w.value, dv->tdp_w.value);
    if (dv->threads && dv->cores && dv->threads < dv->cores)
        return err(b, mget(m, "threads"), "threads (%d) below cores (%d)", dv->threads, dv->cores);
    if (dv->base_ghz && dv->boost_ghz && dv->boost_ghz < dv->base_ghz)
        return err(b, mget(m, "boost_ghz"), "boost_ghz (%g) below base_ghz (%g)",
                   dv->boost_ghz, dv->base_ghz);
    if (dv->ga.name && !dv->ga.tdp_per_core_w.present && !dv->ga.tdp_w.present)
        return err(b, mget(m, "ga"), "ga: needs 'tdp_per_core_w' (CPU) or 'tdp_w' (GPU)");
    return device_spec_rules(b, m, dv);
}

/* ---- providers -------------------------------------------------------------------- */

/* The `pue_by_year` list: each a sourced value with its own year, once. */
static jc_status provider_rules(B *b, const hnode *m, void *rec, void *arg)
{
    jc_provider *pv = rec;
    jc_status st;
    const hnode *l = mget(m, "pue_by_year");
    if (l) {
        pv->pue_by_year = jci_arena_calloc(b->a, l->n ? l->n : 1, sizeof *pv->pue_by_year);
        if (!pv->pue_by_year) return oom(b);
        for (size_t i = 0; i < l->n; i++) {
            jc_pue_year *py = &pv->pue_by_year[i];
            if ((st = sourced(b, l->vals[i], "pue_by_year", &R_PUE, NULL, SV_YEAR, NULL,
                              &py->value)))
                return st;
            py->year = py->value.year;
            for (size_t j = 0; j < i; j++)
                if (pv->pue_by_year[j].year == py->year)
                    return err(b, mget(l->vals[i], "year"), "pue_by_year: year %d given twice",
                               py->year);
        }
        pv->n_pue_by_year = l->n;
    }
    return JC_OK;
}

static jc_status need_provider(B *b, const hnode *m, const char *id)
{
    if (hw_ns_get(&b->in->providers, id)) return JC_OK;
    jc_diag tmp;
    hw_not_found(b->db, &b->in->providers, 0, "provider", id, &tmp);
    const char *p = strstr(tmp.msg, "; did you mean");
    return err(b, mget(m, "provider"), "provider '%s' is not a 'providers' id%s", id,
               p ? p : "");
}

/* ---- hosts ------------------------------------------------------------------------ */

static jc_status resolve_device(B *b, const hnode *n, const char *key,
                                const jc_device **out)
{
    const char *name;
    jc_status st = want_scalar_str(b, n, key, false, &name);
    if (st) return st;
    const hw_name *nm = hw_ns_get(&b->in->hw, name);
    if (nm && nm->kind == HW_NS_DEVICE) {
        *out = &b->db->devices[nm->idx];
        return JC_OK;
    }
    jc_diag tmp;
    hw_not_found(b->db, &b->in->hw, 1u << HW_NS_DEVICE, "device", name, &tmp);
    const char *p = strstr(tmp.msg, "; did you mean");
    return err(b, n, "%s: no device '%s' in the database%s", key, name, p ? p : "");
}

static jc_status host_rules(B *b, const hnode *m, void *rec, void *arg)
{
    jc_host *h = rec;
    jc_status st;
    if (h->kind == JC_HOST_CLOUD_INSTANCE && !h->provider)
        return err(b, m, "missing required key 'provider'");
    if (h->provider && (st = need_provider(b, m, h->provider))) return st;
    const hnode *cp = mget(m, "cpu");
    if (cp && h->cpu && h->cpu_name)
        return err(b, cp, "cpu: give 'device' or 'name', not both");
    if (cp && !h->cpu && !h->cpu_name) return err(b, cp, "cpu: missing required key 'name'");
    if (h->cpu) h->cpu_name = h->cpu->name;
    const hnode *acc = mget(m, "accelerators");
    if (acc && h->n_accel < 1) return err(b, acc, "accelerators: missing required key 'count'");
    if (!acc && (h->kind != JC_HOST_CLOUD_INSTANCE || !h->cpu || h->vcpus < 1))
        return err(b, m, "missing required key 'accelerators' (only a CPU-only cloud-instance with cpu.device and "
                   "vcpus leaves it out)");
    if (h->host_idle_w.present && h->host_idle_w.value > h->host_power_w.value)
        return err(b, mget(mget(m, "host_idle_w"), "value"),
                   "host_idle_w (%g W) above host_power_w (%g W)", h->host_idle_w.value,
                   h->host_power_w.value);
    if (h->max_power_w.present && h->max_power_w.value < h->host_power_w.value)
        return err(b, mget(mget(m, "max_power_w"), "value"),
                   "max_power_w (%g W) below host_power_w (%g W)", h->max_power_w.value,
                   h->host_power_w.value);
    return JC_OK;
}

/* ---- regions and intensities ------------------------------------------------------- */

/* Rules between fields; the `intensity` list is region_inline's. */
static jc_status region_rules(B *b, const hnode *m, void *rec, void *arg)
{
    jc_region *r = rec;
    jc_status st;
    bool cloud = r->type == JC_REGION_CLOUD;
    if (cloud && !r->provider) return err(b, m, "missing required key 'provider'");
    if (r->provider && (st = need_provider(b, m, r->provider))) return st;
    if (cloud && !r->grid) return err(b, m, "missing required key 'grid'");
    if (r->default_dataset && !r->why) return err(b, m, "missing required key 'why'");
    if (r->why && !r->default_dataset)
        return err(b, mkey(m, "why"), "'why' explains a 'default_dataset', which is missing");
    return JC_OK;
}

/* One intensity value before it is filed under its region. */
typedef struct ival {
    int32_t region;
    jc_intensity it;
    int precedence;
    const hnode *at;
} ival;

typedef struct ipool {
    ival *v;
    size_t n, cap;
} ipool;

static bool ipool_add(B *b, ipool *p, const ival *x)
{
    ival *nv = arena_room(b->s, p->v, p->n, &p->cap, sizeof *p->v, 1024);
    if (!nv) return false;
    p->v = nv;
    p->v[p->n++] = *x;
    return true;
}

static jc_status resolve_region(B *b, const hnode *n, const char *key, int32_t *out)
{
    const char *code;
    jc_status st = want_scalar_str(b, n, key, false, &code);
    if (st) return st;
    const hw_name *nm = hw_ns_get(&b->in->regions, code);
    if (nm) {
        *out = nm->idx;
        return JC_OK;
    }
    jc_diag tmp;
    hw_not_found(b->db, &b->in->regions, 0, "region", code, &tmp);
    const char *p = strstr(tmp.msg, "; did you mean");
    return err(b, n, "%s: no region '%s' is defined (codes or aliases of 'regions' entries)%s",
               key, code, p ? p : "");
}

/* The `values` list into the pool (arg, an ipool) until every region
 * is known. */
static jc_status dataset_rules(B *b, const hnode *m, void *rec, void *arg)
{
    static const char *const vkeys[] = {"region", NULL};
    jc_dataset *ds = rec;
    ipool *pool = arg;
    jc_status st;
    if (ds->superseded_by && !strcmp(ds->superseded_by, ds->id))
        return err(b, mget(m, "superseded_by"), "superseded_by: a dataset cannot supersede itself");
    const hnode *l;
    if ((st = get_node(b, m, "values", true, HN_SEQ, &l))) return st;
    for (size_t i = 0; i < l->n; i++) {
        const hnode *v = l->vals[i];
        if (v->kind != HN_MAP)
            return err(b, v, "values: expected {region, value, year}, got %s", what_is(v));
        const hnode *rn = mget(v, "region");
        if (!rn) return err(b, v, "values: missing 'region'");
        ival x;
        memset(&x, 0, sizeof x);
        if ((st = resolve_region(b, rn, "region", &x.region))) return st;
        char key[200];
        snprintf(key, sizeof key, "values[%s]", rn->s);
        if ((st = sourced(b, v, key, &R_CI, vkeys, SV_YEAR, ds->source, &x.it.value)))
            return st;
        x.it.dataset_id = ds->id;
        x.it.dataset = ds;
        x.it.basis = ds->basis;
        x.precedence = ds->precedence;
        x.at = rn;
        if (!ipool_add(b, pool, &x)) return oom(b);
    }
    ds->n_values = l->n;
    return JC_OK;
}

/* Every superseded_by names a dataset that exists, and following the chain
 * from any dataset ends at a current one (no cycle): the estimate's range
 * drops superseded datasets, so a dangling or circular name would silently
 * drop or keep the wrong values (docs/energy-model.md section 5). */
static jc_status dataset_links(B *b)
{
    size_t n = b->t[HF_K_DATASET].n;
    for (size_t i = 0; i < n; i++) {
        const jc_dataset *ds = &b->db->datasets[i];
        if (!ds->superseded_by) continue;
        const hnode *at = mget(b->t[HF_K_DATASET].v[i].map, "superseded_by");
        snprintf(b->ctx, sizeof b->ctx, "dataset '%s'", ds->id);
        if (!hw_ns_get(&b->in->datasets, ds->superseded_by)) {
            jc_diag tmp;
            hw_not_found(b->db, &b->in->datasets, 0, "dataset", ds->superseded_by, &tmp);
            const char *p = strstr(tmp.msg, "; did you mean");
            return err(b, at, "superseded_by: '%s' is not a dataset id%s", ds->superseded_by,
                       p ? p : "");
        }
        const jc_dataset *x = ds;
        for (size_t steps = 0; x && x->superseded_by; steps++) {
            if (steps >= n)
                return err(b, at, "superseded_by: the chain from '%s' is a cycle and never "
                           "reaches a current dataset", ds->id);
            const hw_name *nm = hw_ns_get(&b->in->datasets, x->superseded_by);
            x = nm ? &b->db->datasets[nm->idx] : NULL;
        }
    }
    return JC_OK;
}

/* Inline `intensity` entries of a region, into the pool. */
static jc_status region_inline(B *b, const kentry *e, int32_t ri, ipool *pool)
{
    static const char *const ex[] = {"dataset", "basis", NULL};
    const hnode *l = mget(e->map, "intensity");
    if (!l) return JC_OK;
    snprintf(b->ctx, sizeof b->ctx, "region '%s'", e->id);
    for (size_t i = 0; i < l->n; i++) {
        const hnode *v = l->vals[i];
        ival x;
        memset(&x, 0, sizeof x);
        jc_status st = sourced(b, v, "intensity", &R_CI, ex, 0, NULL, &x.it.value);
        if (st) return st;
        if ((st = get_str(b, v, "dataset", true, &x.it.dataset_id))) return st;
        const hw_name *nm = hw_ns_get(&b->in->datasets, x.it.dataset_id);
        x.it.dataset = nm ? &b->db->datasets[nm->idx] : NULL;
        if ((st = get_str(b, v, "basis", x.it.dataset == NULL, &x.it.basis))) return st;
        if (!x.it.basis) x.it.basis = x.it.dataset->basis;
        if (x.it.dataset) x.it.dataset_id = x.it.dataset->id;
        x.precedence = x.it.dataset ? x.it.dataset->precedence : 1001;
        x.region = ri;
        x.at = mget(v, "dataset");
        if (!ipool_add(b, pool, &x)) return oom(b);
    }
    return JC_OK;
}

static int cmp_ival(const void *x, const void *y)
{
    const ival *a = x, *c = y;
    if (a->region != c->region) return a->region < c->region ? -1 : 1;
    if (a->precedence != c->precedence) return a->precedence < c->precedence ? -1 : 1;
    int s = jci_strcasecmp(a->it.dataset_id, c->it.dataset_id);
    if (s) return s;
    if (a->it.value.year != c->it.value.year) return a->it.value.year > c->it.value.year ? -1 : 1;
    return 0;
}

static jc_status file_intensities(B *b, ipool *pool)
{
    if (pool->n > 1) qsort(pool->v, pool->n, sizeof *pool->v, cmp_ival);
    jc_intensity *all = jci_arena_calloc(b->a, pool->n ? pool->n : 1, sizeof *all);
    if (!all) return oom(b);
    b->ctx[0] = 0;
    for (size_t i = 0; i < pool->n; i++) {
        ival *x = &pool->v[i];
        jc_region *r = &b->db->regions[x->region];
        if (i > 0) {
            ival *p = &pool->v[i - 1];
            if (p->region == x->region && !cmp_ival(p, x))
                return err(b, x->at, "region '%s' has two values for dataset '%s' year %d "
                           "(the other at %s:%d:%d)", r->code, x->it.dataset_id,
                           x->it.value.year, p->at->file->path, p->at->line, p->at->col);
        }
        all[i] = x->it;
        if (!r->intensity) r->intensity = &all[i];
        r->n_intensity++;
    }
    return JC_OK;
}

static jc_status region_links(B *b, const kentry *e, jc_region *r)
{
    const hnode *m = e->map;
    jc_status st;
    int32_t gi;
    snprintf(b->ctx, sizeof b->ctx, "region '%s'", e->id);
    if (r->grid) {
        if ((st = resolve_region(b, mget(m, "grid"), "grid", &gi))) return st;
        r->grid_region = &b->db->regions[gi];
        if (r->grid_region->type == JC_REGION_CLOUD)
            return err(b, mget(m, "grid"), "grid: '%s' is a cloud region, not a grid zone",
                       r->grid);
        if (r->grid_region == r)
            return err(b, mget(m, "grid"), "grid: a region cannot be its own grid zone");
    }
    if (r->country && (st = resolve_region(b, mget(m, "country"), "country", &gi))) return st;
    return JC_OK;
}

static jc_status region_default(B *b, const kentry *e, jc_region *r, bool cloud_pass)
{
    if ((r->type == JC_REGION_CLOUD) != cloud_pass) return JC_OK;
    snprintf(b->ctx, sizeof b->ctx, "region '%s'", e->id);
    if (r->default_dataset) {
        for (size_t i = 0; i < r->n_intensity; i++)
            if (!jci_strcasecmp(r->intensity[i].dataset_id, r->default_dataset)) {
                r->default_intensity = &r->intensity[i];
                r->default_from = r;
                r->default_reason = jci_arena_printf(b->a, "the region's default_dataset: %s", r->why);
                return r->default_reason ? JC_OK : oom(b);
            }
        return err(b, mget(e->map, "default_dataset"),
                   "default_dataset '%s' has no value for this region", r->default_dataset);
    }
    /* A cloud region draws from its grid zone: its own values (provider-
     * published factors) compete with the zone's default by precedence. */
    if (r->n_intensity && r->type == JC_REGION_CLOUD && r->grid_region &&
        r->grid_region->default_intensity && r->intensity[0].dataset &&
        r->grid_region->default_intensity->dataset &&
        r->grid_region->default_intensity->dataset->precedence < r->intensity[0].dataset->precedence) {
        const jc_region *g = r->grid_region;
        r->default_intensity = g->default_intensity;
        r->default_from = g;
        r->default_reason = jci_arena_printf(b->a, "the grid zone %s's %s (precedence %d) ranks before this "
                                 "region's own %s (precedence %d)", g->code,
                                 g->default_intensity->dataset_id,
                                 g->default_intensity->dataset->precedence,
                                 r->intensity[0].dataset_id, r->intensity[0].dataset->precedence);
        return r->default_reason ? JC_OK : oom(b);
    }
    if (r->n_intensity) {
        size_t nd = 1;
        for (size_t i = 1; i < r->n_intensity; i++)
            if (jci_strcasecmp(r->intensity[i].dataset_id, r->intensity[i - 1].dataset_id)) nd++;
        r->default_intensity = &r->intensity[0];
        r->default_from = r;
        const jc_dataset *ds = r->intensity[0].dataset;
        if (ds)
            r->default_reason = jci_arena_printf(b->a, "lowest precedence (%d) of the %zu dataset%s with a "
                                     "value for this region", ds->precedence, nd,
                                     nd == 1 ? "" : "s");
        else
            r->default_reason = jci_arena_printf(b->a, "the only dataset with a value for this region");
        return r->default_reason ? JC_OK : oom(b);
    }
    if (r->type == JC_REGION_CLOUD && r->grid_region && r->grid_region->default_intensity) {
        const jc_region *g = r->grid_region;
        r->default_intensity = g->default_intensity;
        r->default_from = g;
        r->default_reason = jci_arena_printf(b->a, "cloud region without its own value: the grid zone "
                                 "%s's default (%s)", g->code, g->default_reason);
        return r->default_reason ? JC_OK : oom(b);
    }
    r->default_reason = "no dataset has a value for this region";
    return JC_OK;
}

/* ---- Green-Algorithms tables -------------------------------------------------------- */

static jc_status row_source(B *b, const hnode *row, bool req, const jc_source **out)
{
    const hnode *s = mget(row, "source");
    *out = NULL;
    if (!s) return req ? err(b, row, "missing required key 'source'") : JC_OK;
    return resolve_source(b, s, out);
}

/* One table of a Green-Algorithms version (LIST row lf of the ga kind):
 * each row, a mapping, by the table of its record type, its numbers
 * sourced by its `source`. */
static jc_status ga_table(B *b, const hnode *m, const jci_hwfield *lf, void *g)
{
    const hnode *l = mget(m, lf->key);
    const jci_hwkind *k = jci_hwdb_kind_of(lf->elem);
    size_t n = l ? l->n : 0, sz = hs_types()[lf->elem].size;
    unsigned char *arr = jci_arena_calloc(b->a, n ? n : 1, sz);
    if (!arr) return oom(b);
    memcpy((unsigned char *)g + lf->off, &arr, sizeof arr);
    for (size_t i = 0; i < n; i++) {
        const hnode *r = l->vals[i];
        jc_status st;
        if (r->kind != HN_MAP)
            return err(b, r, "%s: expected a row mapping, got %s", lf->key, what_is(r));
        if ((st = row_source(b, r, false, &b->row_src))) return st;
        if ((st = read_fields(b, r, k, lf->key, arr + i * sz))) return st;
    }
    memcpy((unsigned char *)g + lf->count_off, &n, sizeof n);
    return JC_OK;
}

/* Each table's rows (ga_table), then the rules between tables. */
static jc_status ga_rules(B *b, const hnode *m, void *rec, void *arg)
{
    const jci_hwkind *k = jci_hwdb_kind(HF_K_GA);
    jc_ga_version *g = rec;
    jc_status st;
    for (size_t i = 0; i < k->n; i++)
        if (k->fields[i].type == HF_T_LIST && (st = ga_table(b, m, &k->fields[i], g))) return st;
    /* rules between tables: every location code is a region; the
     * calculator's v1.0 tables name data-centre locations (SG, TW, IL)
     * that its own CI table lacks, so a location must be a 'locations'
     * code of this version or else a region of the database. */
    jci_strmap loc_codes = {0};
    for (size_t i = 0; i < g->n_locations; i++) {
        int32_t ri, prev;
        const hnode *r = mget(m, "locations")->vals[i];
        if ((st = resolve_region(b, mget(r, "code"), "locations.code", &ri))) return st;
        g->locations[i].resolved = &b->db->regions[ri];
        if (!hw_smap_put(b->s, &loc_codes, g->locations[i].code, (int32_t)i, &prev))
            return oom(b);
    }
    for (size_t i = 0; i < g->n_datacenters; i++) {
        const char *loc = g->datacenters[i].location;
        int32_t ri;
        if (loc[0] && jci_strmap_get(&loc_codes, loc) < 0 &&
            (st = resolve_region(b, mget(mget(m, "datacenters")->vals[i], "location"),
                                 "datacenters.location", &ri)))
            return st;
    }
    return JC_OK;
}

static int ga_vercmp(const char *a, const char *c)
{
    while (*a || *c) {
        long x = strtol(a, (char **)&a, 10), y = strtol(c, (char **)&c, 10);
        if (x != y) return x < y ? -1 : 1;
        if (*a == '.') a++;
        if (*c == '.') c++;
        if (!*a || !*c) return (*a != 0) - (*c != 0);
        if ((*a < '0' || *a > '9') || (*c < '0' || *c > '9')) return strcmp(a, c);
    }
    return 0;
}

static int cmp_ga_entry(const void *x, const void *y)
{
    return ga_vercmp(((const kentry *)x)->id, ((const kentry *)y)->id);
}

/* ---- the load ----------------------------------------------------------------------- */

static jc_status add_file_path(B *b, const char *path)
{
    const char **nv = arena_room(b->a, b->db->files, b->n_files, &b->cap_files,
                                 sizeof *b->db->files, 64);
    if (!nv) return oom(b);
    b->db->files = nv;
    b->db->files[b->n_files++] = path;
    b->db->n_files = b->n_files;
    return JC_OK;
}

/* The name a file of the bundled database is cited by: "hwdb/" and its
 * path below the database root, whatever folder it was opened from (the
 * repository, an installed share folder, a Python package, a frozen test
 * copy), so footnotes and sources do not change with the working folder. */
static const char *cite_path(B *b, const char *dir, const char *path)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/') n--;
    if (strncmp(path, dir, n) || path[n] != '/') return path;   /* a lone file */
    return jci_arena_printf(b->a, "hwdb/%s", path + n + 1);
}

static jc_status load_layer(B *b, const char *dir, int layer, int bundled)
{
    const char **paths;
    size_t n;
    jc_status st = hw_list_files(b->s, dir, &paths, &n, b->d);
    if (st) return st;
    for (size_t i = 0; i < n; i++) {
        hw_file *f = jci_arena_alloc(b->a, sizeof *f);
        if (!f) return oom(b);
        f->path = jci_arena_strdup(b->a, paths[i]);
        if (!f->path) return oom(b);
        f->layer = layer;
        if ((st = add_file_path(b, f->path))) return st;
        hnode *root;
        if ((st = hw_parse_file(b->s, b->a, f, &root, b->d))) return st;
        if (bundled && !(f->path = cite_path(b, dir, f->path))) return oom(b);
        if ((st = register_file(b, f, root))) return st;
    }
    return JC_OK;
}

static jc_status build_all(B *b)
{
    jc_status st;
    for (int k = 0; k < HF_K_COUNT; k++) {
        /* each entry kind's entries sorted (by id; ga versions by number),
         * and its array of the database, one record per entry */
        const jci_hwkind *kd = jci_hwdb_kind(k);
        ktable *t = &b->t[k];
        size_t n = t->n;
        if (!entry_kind(k)) continue;
        if (n > 1) qsort(t->v, n, sizeof *t->v, k == HF_K_GA ? cmp_ga_entry : cmp_kentry);
        void *arr = jci_arena_calloc(b->a, n ? n : 1, hs_types()[kd->ht].size);
        if (!arr) return oom(b);
        memcpy((unsigned char *)b->db + kd->db_off, &arr, sizeof arr);
        memcpy((unsigned char *)b->db + kd->db_n_off, &n, sizeof n);
    }
    const ktable *rt = &b->t[HF_K_REGION];
    if ((st = convert_kind(b, HF_K_DEVICE, device_rules, NULL))) return st;
    if ((st = convert_kind(b, HF_K_PROVIDER, provider_rules, NULL))) return st;
    if ((st = convert_kind(b, HF_K_HOST, host_rules, NULL))) return st;
    if ((st = convert_kind(b, HF_K_REGION, region_rules, NULL))) return st;
    for (size_t i = 0; i < rt->n; i++)
        if ((st = region_links(b, &rt->v[i], &b->db->regions[i]))) return st;
    ipool pool = {0};
    if ((st = convert_kind(b, HF_K_DATASET, dataset_rules, &pool))) return st;
    if ((st = dataset_links(b))) return st;
    for (size_t i = 0; i < rt->n; i++)
        if ((st = region_inline(b, &rt->v[i], (int32_t)i, &pool))) return st;
    if ((st = file_intensities(b, &pool))) return st;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < rt->n; i++)
            if ((st = region_default(b, &rt->v[i], &b->db->regions[i], pass))) return st;
    if ((st = convert_kind(b, HF_K_CONSTANT, NULL, NULL))) return st;
    if ((st = convert_kind(b, HF_K_GA, ga_rules, NULL))) return st;
    b->ctx[0] = 0;
    return JC_OK;
}

/* The bundled folder's data version: the first line of its VERSION file
 * (hwdb/README.md "Data version"); none when the file is absent. */
static jc_status read_data_version(B *b, const char *dir)
{
    char path[4200], line[256] = "";
    snprintf(path, sizeof path, "%s/VERSION", dir);
    FILE *f = fopen(path, "r");
    if (!f) return JC_OK;
    if (!fgets(line, sizeof line, f)) line[0] = 0;
    fclose(f);
    line[strcspn(line, "\r\n")] = 0;
    if (!line[0]) return JC_OK;
    b->db->data_version = jci_arena_strdup(b->a, line);
    return b->db->data_version ? JC_OK : oom(b);
}

jc_status jc_hwdb_load(const char *bundled_dir, const char *const *layers,
                       size_t n_layers, const char *env_layers,
                       jc_hwdb **out, jc_diag *diag)
{
    jc_diag local;
    if (!diag) diag = &local;
    jci_diag_clear(diag);
    if (!out) return jci_diag_set(diag, JC_ERR_USAGE, "jc_hwdb_load: out is NULL");
    *out = NULL;
    bool any = bundled_dir != NULL || n_layers > 0;
    if (env_layers)
        for (const char *p = env_layers; *p; p++)
            if (*p != ':') any = true;
    if (!any)
        return jci_diag_set(diag, JC_ERR_USAGE, "no hardware database folder given");

    B b;
    memset(&b, 0, sizeof b);
    b.d = diag;
    b.a = jci_arena_new();
    b.s = jci_arena_new();
    jc_status st = JC_OK;
    if (!b.a || !b.s) {
        st = oom(&b);
        goto done;
    }
    b.db = jci_arena_alloc(b.a, sizeof *b.db);
    b.in = jci_arena_alloc(b.a, sizeof *b.in);
    if (!b.db || !b.in) {
        st = oom(&b);
        goto done;
    }
    b.in->arena = b.a;
    b.db->internal_ = b.in;
    int layer = 0;
    if (bundled_dir && (st = load_layer(&b, bundled_dir, layer++, 1))) goto done;
    if (bundled_dir && (st = read_data_version(&b, bundled_dir))) goto done;
    for (size_t i = 0; i < n_layers; i++)
        if ((st = load_layer(&b, layers[i], layer++, 0))) goto done;
    if (env_layers) {
        const char *p = env_layers;
        while (*p) {
            const char *q = strchr(p, ':');
            size_t len = q ? (size_t)(q - p) : strlen(p);
            if (len) {
                char *dir = jci_arena_strndup(b.s, p, len);
                if (!dir) {
                    st = oom(&b);
                    goto done;
                }
                if ((st = load_layer(&b, dir, layer++, 0))) goto done;
            }
            p += len;
            if (*p == ':') p++;
        }
    }
    st = build_all(&b);
done:
    jci_arena_free(b.s);
    if (st) {
        jci_arena_free(b.a);
        return st;
    }
    *out = b.db;
    return JC_OK;
}

void jc_hwdb_free(jc_hwdb *db)
{
    if (!db) return;
    hw_internal *in = db->internal_;
    jci_arena *a = in->arena;   /* the YAML's records (NULL for a snapshot) */
    if (in->snap_map) munmap(in->snap_map, in->snap_len);   /* the record lives inside */
    else if (in->snap_buf) free(in->snap_buf);
    jci_arena_free(a);
}
