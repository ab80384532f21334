/*
 * diag.c (base) - status names and the diagnostic every failing call fills (file, byte offset, YAML line:col or node name).
 */
#include "base/jc_internal.h"

#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <stdio.h>

/* ---- diagnostics -------------------------------------------------------- */

const char *jc_status_name(jc_status st)
{
    switch (st) {
    case JC_OK: return "ok";
    case JC_ERR_INTERNAL: return "internal error";
    case JC_ERR_USAGE: return "usage error";
    case JC_ERR_IO: return "I/O error";
    case JC_ERR_MODEL: return "model error";
    case JC_ERR_HWDB: return "hardware database error";
    case JC_ERR_NOTFOUND: return "not found";
    case JC_ERR_RANGE: return "out of range";
    case JC_ERR_NOMEM: return "out of memory";
    case JC_ERR_INCOMPLETE: return "incomplete result";
    case JC_ERR_BUDGET: return "budget exceeded";
    }
    return "unknown status";
}

void jci_diag_clear(jc_diag *d)
{
    if (!d) return;
    memset(d, 0, sizeof *d);
    d->offset = -1;
}

static void copy_field(char *dst, size_t cap, const char *src)
{
    size_t n = src ? strlen(src) : 0;
    if (n >= cap) n = cap - 1;
    if (n) memcpy(dst, src, n);
    dst[n] = 0;
}

/* Where a diagnostic points: a file (with a byte offset when off >= 0), a
 * YAML line:col, or a node with its operator. */
typedef struct where {
    enum { AT_FILE, AT_YAML, AT_NODE } kind;
    const char *file;
    int64_t off;
    int line, col;
    const char *node, *op;
} where;

/* The location prefix of the message: "FILE: byte N: ", "FILE: ",
 * "FILE:L:C: " or "node 'NAME' (OP): ". */
static void prefix_of(const where *w, char *buf, size_t cap)
{
    const char *f = w->file ? w->file : "?";
    if (w->kind == AT_NODE)
        snprintf(buf, cap, "node '%s' (%s): ", *w->node ? w->node : "(unnamed)", w->op ? w->op : "?");
    else if (w->kind == AT_YAML)
        snprintf(buf, cap, "%s:%d:%d: ", f, w->line, w->col);
    else if (w->off >= 0)
        snprintf(buf, cap, "%s: byte %lld: ", f, (long long)w->off);
    else
        snprintf(buf, cap, "%s: ", f);
}

/* Clears d, writes the location prefix + the formatted message and the
 * location fields.  w NULL: no location. */
static jc_status vset(jc_diag *d, jc_status st, const where *w, const char *fmt, va_list ap)
{
    if (!d) return st;
    jci_diag_clear(d);
    d->status = st;
    size_t p = 0;
    if (w) {
        char prefix[700];
        prefix_of(w, prefix, sizeof prefix);
        copy_field(d->msg, sizeof d->msg, prefix);
        p = strlen(d->msg);
        if (w->kind == AT_NODE) {
            copy_field(d->node, sizeof d->node, *w->node ? w->node : w->op);
        } else {
            copy_field(d->file, sizeof d->file, w->file);
            d->offset = w->kind == AT_FILE ? w->off : -1;
            d->line = w->line;
            d->col = w->col;
        }
    }
    vsnprintf(d->msg + p, sizeof d->msg - p, fmt, ap);
    return st;
}

jc_status jci_diag_set(jc_diag *d, jc_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vset(d, st, NULL, fmt, ap);
    va_end(ap);
    return st;
}

jc_status jci_diag_at(jc_diag *d, jc_status st, const char *file, int64_t off,
                     const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vset(d, st, &(where){.kind = AT_FILE, .file = file, .off = off}, fmt, ap);
    va_end(ap);
    return st;
}

jc_status jci_diag_yaml(jc_diag *d, jc_status st, const char *file, int line,
                       int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vset(d, st, &(where){.kind = AT_YAML, .file = file, .line = line, .col = col}, fmt, ap);
    va_end(ap);
    return st;
}

jc_status jci_diag_node(jc_diag *d, jc_status st, const char *node_name,
                       const char *op_type, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vset(d, st, &(where){.kind = AT_NODE, .node = node_name ? node_name : "", .op = op_type}, fmt, ap);
    va_end(ap);
    return st;
}
