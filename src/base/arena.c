/*
 * arena.c - the arena allocator: a chain of blocks freed by one call (one arena per loaded object). Knows nothing about ONNX or YAML.
 */
#include "base/jc_internal.h"

#include <stdlib.h>
#include <string.h>

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

