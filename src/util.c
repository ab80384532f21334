/*
 * util.c - arena allocator, diagnostics, string map and small string
 * helpers used by every stage.  Nothing here knows about ONNX or YAML.
 */
#include "jc_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- arena -------------------------------------------------------------- */

/* A chain of blocks; large requests get a block of their own. */
typedef struct jc_block {
    struct jc_block *next;
    size_t cap, used;
    _Alignas(16) unsigned char data[];
} jc_block;

struct jc_arena {
    jc_block *head;
    size_t total;
};

#define JC_BLOCK_MIN ((size_t)64 * 1024)
#define JC_ALLOC_MAX ((size_t)1 << 30)

jc_arena *jc_arena_new(void)
{
    return calloc(1, sizeof(jc_arena));
}

void jc_arena_free(jc_arena *a)
{
    if (!a) return;
    jc_block *b = a->head;
    while (b) {
        jc_block *n = b->next;
        free(b);
        b = n;
    }
    free(a);
}

void *jc_arena_alloc(jc_arena *a, size_t n)
{
    if (!a || n > JC_ALLOC_MAX) return NULL;
    if (n == 0) n = 1;
    size_t need = (n + 15) & ~(size_t)15;
    jc_block *b = a->head;
    if (!b || b->cap - b->used < need) {
        size_t cap = need > JC_BLOCK_MIN / 4 ? need : JC_BLOCK_MIN;
        jc_block *nb = malloc(sizeof(jc_block) + cap);
        if (!nb) return NULL;
        nb->cap = cap;
        nb->used = 0;
        if (b && need > JC_BLOCK_MIN / 4) {
            /* big request: keep filling the current block afterwards */
            nb->next = b->next;
            b->next = nb;
        } else {
            nb->next = b;
            a->head = nb;
        }
        b = nb;
    }
    void *p = b->data + b->used;
    b->used += need;
    a->total += need;
    memset(p, 0, n);
    return p;
}

void *jc_arena_calloc(jc_arena *a, size_t count, size_t size)
{
    size_t n;
    if (__builtin_mul_overflow(count, size, &n)) return NULL;
    return jc_arena_alloc(a, n);
}

char *jc_arena_strndup(jc_arena *a, const char *s, size_t len)
{
    char *p = jc_arena_alloc(a, len + 1);
    if (!p) return NULL;
    if (len) memcpy(p, s, len);
    p[len] = 0;
    return p;
}

char *jc_arena_strdup(jc_arena *a, const char *s)
{
    return jc_arena_strndup(a, s, strlen(s));
}

size_t jc_arena_used(const jc_arena *a)
{
    return a ? a->total : 0;
}

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

void jc_diag_clear(jc_diag *d)
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

jc_status jc_diag_set(jc_diag *d, jc_status st, const char *fmt, ...)
{
    if (!d) return st;
    jc_diag_clear(d);
    va_list ap;
    va_start(ap, fmt);
    vset(d, st, NULL, fmt, ap);
    va_end(ap);
    return st;
}

jc_status jc_diag_at(jc_diag *d, jc_status st, const char *file, int64_t off,
                     const char *fmt, ...)
{
    if (!d) return st;
    jc_diag_clear(d);
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

jc_status jc_diag_yaml(jc_diag *d, jc_status st, const char *file, int line,
                       int col, const char *fmt, ...)
{
    if (!d) return st;
    jc_diag_clear(d);
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

jc_status jc_diag_node(jc_diag *d, jc_status st, const char *node_name,
                       const char *op_type, const char *fmt, ...)
{
    if (!d) return st;
    jc_diag_clear(d);
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

/* ---- string map --------------------------------------------------------- */

uint64_t jc_hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h;
}

bool jc_strmap_init(jc_strmap *m, jc_arena *a, size_t n)
{
    size_t cap = 8;
    while (cap < 2 * n + 2) {
        if (cap > ((size_t)1 << 40)) return false;
        cap <<= 1;
    }
    m->keys = jc_arena_calloc(a, cap, sizeof *m->keys);
    m->vals = jc_arena_calloc(a, cap, sizeof *m->vals);
    if (!m->keys || !m->vals) return false;
    m->cap = cap;
    m->len = 0;
    return true;
}

int32_t jc_strmap_get(const jc_strmap *m, const char *key)
{
    if (!m->cap) return -1;
    size_t i = (size_t)jc_hash_str(key) & (m->cap - 1);
    while (m->keys[i]) {
        if (strcmp(m->keys[i], key) == 0) return m->vals[i];
        i = (i + 1) & (m->cap - 1);
    }
    return -1;
}

int32_t jc_strmap_put(jc_strmap *m, const char *key, int32_t val)
{
    if (!m->cap || m->len + 1 > m->cap / 2) return -2;
    size_t i = (size_t)jc_hash_str(key) & (m->cap - 1);
    while (m->keys[i]) {
        if (strcmp(m->keys[i], key) == 0) return m->vals[i];
        i = (i + 1) & (m->cap - 1);
    }
    m->keys[i] = key;
    m->vals[i] = val;
    m->len++;
    return -1;
}

/* ---- strings ------------------------------------------------------------ */

static int lower(int c)
{
    return (c >= 'A' && c <= 'Z') ? c + 32 : c;
}

int jc_strcasecmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        int x = lower((unsigned char)*a), y = lower((unsigned char)*b);
        if (x != y || !x) return x - y;
    }
}

int jc_edit_distance(const char *a, const char *b, int cap)
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
