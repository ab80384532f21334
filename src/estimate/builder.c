/*
 * builder.c (estimate) - the result builder shared by the estimate (estimate.c and
 * its stages) and the serving model (serving.c): assumptions with their
 * keys checked against assumption_keys.def, warnings, arena strings, hwdb
 * citations, failures prefixed by the stage's name, and the move of both
 * lists into the result's arena (builder.h).  Nothing here prints.
 */
#include "estimate/builder.h"
#include "estimate/akeys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

jc_status jci_bld_open(jci_builder *b, jc_diag *d, const char *stage, const jc_job *job, const jc_hwdb *db)
{
    jci_diag_clear(d);
    memset(b, 0, sizeof *b);
    b->d = d;
    b->stage = stage;
    b->job = job;
    b->db = db;
    b->a = jci_arena_new();
    return b->a ? JC_OK : jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
}

static void *grow(jci_builder *b, void *p, size_t *cap, size_t n, size_t sz)
{
    void *q = jci_grow(p, cap, n, sz);
    if (!q) b->oom = 1;
    return q;
}

/* The formatted text in the arena, whole (never cut); NULL on out-of-memory. */
static const char *vstr(jci_builder *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
static const char *vstr(jci_builder *b, const char *fmt, va_list ap)
{
    const char *r = jci_arena_vprintf(b->a, fmt, ap);
    if (!r) b->oom = 1;
    return r;
}

const char *jci_bld_str(jci_builder *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const char *r = vstr(b, fmt, ap);
    va_end(ap);
    return r ? r : "";
}

void jci_bld_warn(jci_builder *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const char *c = vstr(b, fmt, ap);
    va_end(ap);
    if (!c) return;
    const char **w = grow(b, b->warn, &b->cap_warn, b->n_warn, sizeof *w);
    if (!w) return;
    b->warn = w;
    b->warn[b->n_warn++] = c;
}

void jci_bld_push(jci_builder *b, const jc_assumption *x)
{
    jc_assumption *as = grow(b, b->as, &b->cap_as, b->n_as, sizeof *as);
    if (!as) return;
    b->as = as;
    b->as[b->n_as++] = *x;
}

/* Entry i of a --pin list: *k / *kn its key, *v / *vn its value (the
 * text after '='; *v NULL when the entry has none).  0 past the end. */
static int pin_entry(const char *list, int i, const char **k, size_t *kn, const char **v, size_t *vn)
{
    const char *p = list;
    for (int n = 0; n < i; n++) {
        p = strchr(p, ',');
        if (!p) return 0;
        p++;
    }
    size_t len = strcspn(p, ",");
    const char *eq = memchr(p, '=', len);
    *k = p;
    *kn = eq ? (size_t)(eq - p) : len;
    *v = eq ? eq + 1 : NULL;
    *vn = eq ? len - *kn - 1 : 0;
    return 1;
}

/* Fails the run through the builder's sticky pin status (the first
 * refusal is kept). */
static void pin_refuse(jci_builder *b, jc_status st, const char *msg)
{
    if (b->pin_st) return;
    b->pin_st = st;
    b->pin_msg = msg;
}

/* The value of one --pin entry for range v: low, central, high or a
 * decimal number inside [low, high]; NAN (and the run refused) otherwise. */
static double pin_value(jci_builder *b, const char *key, const char *txt, size_t n, jc_range v)
{
    char buf[64];
    if (!n || n >= sizeof buf) {
        pin_refuse(b, JC_ERR_USAGE, jci_bld_str(b, "--pin %s: give a number, low, central or high", key));
        return NAN;
    }
    memcpy(buf, txt, n);
    buf[n] = 0;
    if (!strcmp(buf, "low")) return v.low;
    if (!strcmp(buf, "central")) return v.central;
    if (!strcmp(buf, "high")) return v.high;
    char *end;
    double x = strtod(buf, &end);
    if (*end || !isfinite(x) || strpbrk(buf, "xX")) {   /* no hex, inf or nan */
        pin_refuse(b, JC_ERR_USAGE, jci_bld_str(b, "--pin %s=%s: not a number, low, central or high", key, buf));
        return NAN;
    }
    if (x < v.low || x > v.high) {
        pin_refuse(b, JC_ERR_RANGE, jci_bld_str(b, "--pin %s=%s: outside the assumption's range %.6g to %.6g",
                                                key, buf, v.low, v.high));
        return NAN;
    }
    return x;
}

/* v as the job's --pin sets it for key (v itself when no entry names
 * it); *src receives the pin's source text when one does. */
static jc_range pin_apply(jci_builder *b, const char *key, jc_range v, const char **src)
{
    const char *k, *t;
    size_t kn, tn;
    if (!b->job || !b->job->pin) return v;
    for (int i = 0; i < JCI_PIN_MAX && pin_entry(b->job->pin, i, &k, &kn, &t, &tn); i++) {
        if (!t || kn != strlen(key) || strncmp(k, key, kn)) continue;
        b->pin_used |= 1ull << i;
        if (jci_akey_figure(key)) {   /* assumption_keys.def's AKEY_FIGURE rows */
            pin_refuse(b, JC_ERR_USAGE, jci_bld_str(b, "--pin %s: a figure the estimate derives from its inputs (its "
                                                    "range follows from theirs), not an input: pin those (the "
                                                    "sensitivity table lists them)", key));
            return v;
        }
        if (!(v.low < v.high)) {
            pin_refuse(b, JC_ERR_USAGE, jci_bld_str(b, "--pin %s: that assumption has no range in this estimate "
                                                    "(%.6g); its own option sets it", key, v.central));
            return v;
        }
        double x = pin_value(b, key, t, tn, v);
        if (isnan(x)) return v;
        *src = b->quiet ? "" : jci_bld_str(b, "--pin %s=%.*s (its range %.6g [%.6g-%.6g] set to one value)", key,
                                           (int)tn, t, v.central, v.low, v.high);
        return R1(x);
    }
    return v;
}

/* A --pin entry that is malformed or matched no assumption: the run
 * refused (JC_ERR_USAGE). */
static jc_status pin_unused(jci_builder *b)
{
    const char *k, *t;
    size_t kn, tn;
    if (!b->job || !b->job->pin) return JC_OK;
    for (int i = 0; pin_entry(b->job->pin, i, &k, &kn, &t, &tn); i++) {
        if (i >= JCI_PIN_MAX)
            return jci_bld_fail(b, JC_ERR_USAGE, "--pin: more than %d entries", JCI_PIN_MAX);
        if (!t || !kn)
            return jci_bld_fail(b, JC_ERR_USAGE, "--pin: entry '%.*s' is not KEY=VALUE", (int)(kn + (t ? tn + 1 : 0)), k);
        if (!(b->pin_used >> i & 1))
            return jci_bld_fail(b, JC_ERR_USAGE, "--pin %.*s: no ranged assumption of that key in this estimate "
                                "(the assumptions list names them)", (int)kn, k);
    }
    return JC_OK;
}

jc_range jci_bld_assume(jci_builder *b, const char *key, const char *label, jc_range v,
                        const char *unit, jc_origin o, const char *source)
{
    /* the one table of keys (assumption_keys.def): its own pointer, so
     * consumers find an assumption by id; a key missing there fails the run */
    const char *canon = jci_akey_canonical(key);
    if (!canon && !b->bad_key) b->bad_key = key;
    const char *pinned = NULL;
    v = pin_apply(b, key, v, &pinned);
    if (pinned) {
        o = JC_ORIGIN_USER;
        source = pinned;
    }
    jc_assumption x = {.key = canon ? canon : key, .label = label, .value = v,
                       .unit = unit, .origin = o, .source = source};
    jci_bld_push(b, &x);
    return v;
}

const char *jci_bld_cat(jci_builder *b, size_t n, const char *const *parts)
{
    size_t len = 0, at = 0;
    for (size_t i = 0; i < n; i++) len += parts[i] ? strlen(parts[i]) : 0;
    char *r = jci_arena_alloc(b->a, len + 1);
    if (!r) {
        b->oom = 1;
        return "";
    }
    for (size_t i = 0; i < n; i++) {
        size_t k = parts[i] ? strlen(parts[i]) : 0;
        memcpy(r + at, parts[i] ? parts[i] : "", k);
        at += k;
    }
    r[at] = 0;
    return r;
}

/* v in decimal ("%d") into buf (room for any int); returns buf. */
static const char *dec(char buf[16], int v)
{
    char t[16];
    int n = 0;
    unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
    do t[n++] = (char)('0' + u % 10); while ((u /= 10) && n < 15);
    int k = 0;
    if (v < 0) buf[k++] = '-';
    while (n) buf[k++] = t[--n];
    buf[k] = 0;
    return buf;
}

const char *jci_bld_cite(jci_builder *b, const jc_sourced *v)
{
    /* whole texts: reports that show less cut them with an ellipsis;
     * joined, not printf'ed (a sweep formats some 20 per grid point) */
    if (b->quiet) return "";
    char line[16], year[16];
    const char *how = v->derived ? "; derived: " : v->measured ? "; measured: " : "";
    const char *txt = v->derived ? v->derived : v->measured ? v->measured : "";
    const char *file = v->file ? v->file : "hwdb";
    if (v->source && v->source->citation) {
        const char *p[] = {file, ":", dec(line, v->line), " (", v->source->citation, ", ",
                           dec(year, v->year ? v->year : v->source->year), ")", how, txt};
        return jci_bld_cat(b, sizeof p / sizeof p[0], p);
    }
    const char *p[] = {file, ":", dec(line, v->line), " ()", how, txt};
    return jci_bld_cat(b, sizeof p / sizeof p[0], p);
}

jc_range jci_sourced_range(const jc_sourced *v)
{
    if (v->has_range) return R3(v->low, v->value, v->high);
    return R1(v->value);
}

jc_range jci_bld_const(jci_builder *b, const char *key, const char *label, const jc_constant *c)
{
    /* a constant recorded under its own hwdb id: that id's table is the
     * database (the hwdb YAML files), not assumption_keys.def */
    const char *bad = b->bad_key;
    jc_range r = jci_bld_assume(b, key, label, jci_sourced_range(&c->value), c->unit ? c->unit : "",
                                JC_ORIGIN_HWDB, jci_bld_cite(b, &c->value));
    if (!bad && b->bad_key == key && c->id && !strcmp(key, c->id)) b->bad_key = NULL;
    return r;
}

jc_status jci_bld_fail(jci_builder *b, jc_status st, const char *fmt, ...)
{
    char buf[900];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return jci_diag_set(b->d, st, "%s: %s", b->stage, buf);
}

jc_status jci_bld_check(jci_builder *b)
{
    if (b->oom) return jci_diag_set(b->d, JC_ERR_NOMEM, "out of memory");
    if (b->pin_st) return jci_bld_fail(b, b->pin_st, "%s", b->pin_msg);
    if (b->bad_key)
        return jci_bld_fail(b, JC_ERR_INTERNAL, "assumption key '%s' is not in "
                            "src/estimate/assumption_keys.def (add it there)", b->bad_key);
    return JC_OK;
}

jc_status jci_bld_move(jci_builder *b, jc_assumption **as, size_t *n_as,
                       const char ***warn, size_t *n_warn)
{
    jc_status st = jci_bld_check(b);
    if (!st) st = pin_unused(b);
    if (st) return st;
    jc_assumption *xa = jci_arena_calloc(b->a, b->n_as ? b->n_as : 1, sizeof *xa);
    const char **xw = jci_arena_calloc(b->a, b->n_warn ? b->n_warn : 1, sizeof *xw);
    if (!xa || !xw) return jci_diag_set(b->d, JC_ERR_NOMEM, "out of memory");
    if (b->n_as) memcpy(xa, b->as, b->n_as * sizeof *xa);
    if (b->n_warn) memcpy(xw, b->warn, b->n_warn * sizeof *xw);
    *as = xa;
    *n_as = b->n_as;
    *warn = xw;
    *n_warn = b->n_warn;
    return JC_OK;
}

void jci_bld_release(jci_builder *b)
{
    free(b->as);
    free(b->warn);
    b->as = NULL;
    b->warn = NULL;
    b->n_as = b->cap_as = b->n_warn = b->cap_warn = 0;
}

jc_status jci_bld_need_const(jci_builder *b, const char *id, const jc_constant **c)
{
    jc_diag tmp;
    if (jc_hwdb_constant(b->db, id, c, &tmp) == JC_OK) return JC_OK;
    return jci_bld_fail(b, JC_ERR_HWDB,
                "the hardware database has no constant '%s' (hwdb/energy-model.yaml "
                "or an override layer must define it)", id);
}

void jci_bld_drop_restated(jci_builder *b, size_t own)
{
    size_t n = own;
    for (size_t i = own; i < b->n_as; i++) {
        int restated = 0;
        for (size_t q = 0; q < own && !restated; q++) restated = !strcmp(b->as[i].key, b->as[q].key);
        if (!restated) b->as[n++] = b->as[i];
    }
    b->n_as = n;
}
