/*
 * diag.c - status names and the diagnostic every failing call fills (file, byte offset, YAML line:col or node name).
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

static jc_status vset(jc_diag *d, jc_status st, const char *prefix,
                      const char *fmt, va_list ap)
{
    if (!d) return st;
    d->status = st;
    size_t p = 0;
    if (prefix && *prefix) {
        copy_field(d->msg, sizeof d->msg, prefix);
        p = strlen(d->msg);
    }
    vsnprintf(d->msg + p, sizeof d->msg - p, fmt, ap);
    return st;
}

jc_status jci_diag_set(jc_diag *d, jc_status st, const char *fmt, ...)
{
    if (!d) return st;
    jci_diag_clear(d);
    va_list ap;
    va_start(ap, fmt);
    vset(d, st, NULL, fmt, ap);
    va_end(ap);
    return st;
}

jc_status jci_diag_at(jc_diag *d, jc_status st, const char *file, int64_t off,
                     const char *fmt, ...)
{
    if (!d) return st;
    jci_diag_clear(d);
    char prefix[700];
    if (off >= 0)
        snprintf(prefix, sizeof prefix, "%s: byte %lld: ", file ? file : "?",
                 (long long)off);
    else
        snprintf(prefix, sizeof prefix, "%s: ", file ? file : "?");
    copy_field(d->file, sizeof d->file, file);
    va_list ap;
    va_start(ap, fmt);
    vset(d, st, prefix, fmt, ap);
    va_end(ap);
    d->offset = off;
    return st;
}

jc_status jci_diag_yaml(jc_diag *d, jc_status st, const char *file, int line,
                       int col, const char *fmt, ...)
{
    if (!d) return st;
    jci_diag_clear(d);
    char prefix[700];
    snprintf(prefix, sizeof prefix, "%s:%d:%d: ", file ? file : "?", line, col);
    copy_field(d->file, sizeof d->file, file);
    va_list ap;
    va_start(ap, fmt);
    vset(d, st, prefix, fmt, ap);
    va_end(ap);
    d->line = line;
    d->col = col;
    return st;
}

jc_status jci_diag_node(jc_diag *d, jc_status st, const char *node_name,
                       const char *op_type, const char *fmt, ...)
{
    if (!d) return st;
    jci_diag_clear(d);
    char prefix[600];
    snprintf(prefix, sizeof prefix, "node '%s' (%s): ",
             node_name && *node_name ? node_name : "(unnamed)",
             op_type ? op_type : "?");
    copy_field(d->node, sizeof d->node,
               node_name && *node_name ? node_name : op_type);
    va_list ap;
    va_start(ap, fmt);
    vset(d, st, prefix, fmt, ap);
    va_end(ap);
    return st;
}

