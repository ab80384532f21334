/*
 * strmap.c (base) - a string -> int32 hash map allocated in an arena (node, value and record names).
 */
#include "base/jc_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- string map --------------------------------------------------------- */

uint64_t jci_hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h;
}

bool jci_strmap_init(jci_strmap *m, jci_arena *a, size_t n)
{
    size_t cap = 8;
    while (cap < 2 * n + 2) {
        if (cap > SIZE_MAX / 4) return false;
        cap <<= 1;
    }
    m->keys = jci_arena_calloc(a, cap, sizeof *m->keys);
    m->vals = jci_arena_calloc(a, cap, sizeof *m->vals);
    if (!m->keys || !m->vals) return false;
    m->cap = cap;
    m->len = 0;
    return true;
}

int32_t jci_strmap_get(const jci_strmap *m, const char *key)
{
    if (!m->cap) return -1;
    size_t i = (size_t)jci_hash_str(key) & (m->cap - 1);
    while (m->keys[i]) {
        if (strcmp(m->keys[i], key) == 0) return m->vals[i];
        i = (i + 1) & (m->cap - 1);
    }
    return -1;
}

int32_t jci_strmap_put(jci_strmap *m, const char *key, int32_t val)
{
    if (!m->cap || m->len + 1 > m->cap / 2) return -2;
    size_t i = (size_t)jci_hash_str(key) & (m->cap - 1);
    while (m->keys[i]) {
        if (strcmp(m->keys[i], key) == 0) return m->vals[i];
        i = (i + 1) & (m->cap - 1);
    }
    m->keys[i] = key;
    m->vals[i] = val;
    m->len++;
    return -1;
}

