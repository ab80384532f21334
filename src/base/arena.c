/*
 * arena.c (base) - the arena allocator: a chain of blocks freed by one call (one arena per loaded object), printf into an arena, and the doubling growth of malloc'ed arrays. Knows nothing about ONNX or YAML.
 */
#include "base/jc_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A chain of blocks; large requests get a block of their own. */
typedef struct jci_block {
    struct jci_block *next;
    size_t cap, used;
    _Alignas(16) unsigned char data[];
} jci_block;

struct jci_arena {
    jci_block *head;
};

#define JCI_BLOCK_MIN ((size_t)64 * 1024)
#define JCI_ALLOC_MAX ((size_t)1 << 30)

jci_arena *jci_arena_new(void)
{
    return calloc(1, sizeof(jci_arena));
}

void jci_arena_free(jci_arena *a)
{
    if (!a) return;
    jci_block *b = a->head;
    while (b) {
        jci_block *n = b->next;
        free(b);
        b = n;
    }
    free(a);
}

void *jci_arena_alloc(jci_arena *a, size_t n)
{
    if (!a || n > JCI_ALLOC_MAX) return NULL;
    if (n == 0) n = 1;
    size_t need = (n + 15) & ~(size_t)15;
    jci_block *b = a->head;
    if (!b || b->cap - b->used < need) {
        size_t cap = need > JCI_BLOCK_MIN / 4 ? need : JCI_BLOCK_MIN;
        jci_block *nb = malloc(sizeof(jci_block) + cap);
        if (!nb) return NULL;
        nb->cap = cap;
        nb->used = 0;
        if (b && need > JCI_BLOCK_MIN / 4) {
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
    memset(p, 0, n);
    return p;
}

void *jci_arena_calloc(jci_arena *a, size_t count, size_t size)
{
    size_t n;
    if (__builtin_mul_overflow(count, size, &n)) return NULL;
    return jci_arena_alloc(a, n);
}

char *jci_arena_strndup(jci_arena *a, const char *s, size_t len)
{
    char *p = jci_arena_alloc(a, len + 1);
    if (!p) return NULL;
    if (len) memcpy(p, s, len);
    p[len] = 0;
    return p;
}

char *jci_arena_strdup(jci_arena *a, const char *s)
{
    return jci_arena_strndup(a, s, strlen(s));
}

char *jci_arena_vprintf(jci_arena *a, const char *fmt, va_list ap)
{
    if (!a) return NULL;
    /* one pass into the free tail of the current block; a text that does
     * not fit is measured there and formatted again into a block of its
     * own size (the second pass is the rare case) */
    jci_block *b = a->head;
    size_t room = b ? b->cap - b->used : 0;
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(room ? (char *)b->data + b->used : NULL, room, fmt, aq);
    va_end(aq);
    if (n < 0) return NULL;
    if ((size_t)n < room) {
        size_t need = ((size_t)n + 1 + 15) & ~(size_t)15;   /* room is a multiple of 16 */
        char *r = (char *)b->data + b->used;
        b->used += need;
        return r;
    }
    char *r = jci_arena_alloc(a, (size_t)n + 1);
    if (r) vsnprintf(r, (size_t)n + 1, fmt, ap);
    return r;
}

char *jci_arena_printf(jci_arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *r = jci_arena_vprintf(a, fmt, ap);
    va_end(ap);
    return r;
}

void *jci_grow(void *p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap) return p;
    size_t nc = *cap ? *cap * 2 : 32, bytes;
    if (nc <= n) nc = n + 1;
    if (__builtin_mul_overflow(nc, size, &bytes)) return NULL;
    void *q = realloc(p, bytes);
    if (q) *cap = nc;
    return q;
}

