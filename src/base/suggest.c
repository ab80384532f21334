/*
 * suggest.c (base) - the one "did you mean" rule: which known names are close to
 * what was typed, ranked the same way for every lookup (hwdb ids and
 * aliases, job keys and command-line options, YAML keys, enum values,
 * sources, model dims, Green-Algorithms tables).  See jc_internal.h.
 */
#include "base/jc_internal.h"
#include "joulecast/job.h"

#include <stdio.h>
#include <string.h>

static int lower(int c)
{
    return (c >= 'A' && c <= 'Z') ? c + 32 : c;
}

/* 1 when needle occurs in hay at the start of a word (after -_ .:/ or at
 * the start), 2 when it occurs elsewhere only, 0 when it does not;
 * case-insensitive. */
static int has_sub(const char *hay, const char *needle)
{
    size_t n = strlen(needle), h = strlen(hay);
    int found = 0;
    if (!n || n > h) return 0;
    for (size_t i = 0; i + n <= h; i++) {
        size_t j;
        for (j = 0; j < n; j++)
            if (lower((unsigned char)hay[i + j]) != lower((unsigned char)needle[j])) break;
        if (j < n) continue;
        if (i == 0 || strchr("-_ .:/", hay[i - 1])) return 1;
        found = 2;
    }
    return found;
}

int jci_suggest_rank(const char *want, const char *name)
{
    if (!want || !name) return -1;
    size_t ln = strlen(want);
    int limit = ln <= 3 ? 1 : ln <= 5 ? 2 : (int)(ln / 3) + 1;
    if (limit > 4) limit = 4;
    /* rank (lower first): 1 the typed text starts a word of the name and
     * is a close typo of it too ("h10": h100); 2 it starts a word
     * ("p100": nvidia-tesla-p100); 4 x edit distance for typos; any other
     * substring after the close typos */
    int ed = jci_edit_distance(want, name, limit + 1);
    int sub = ln >= 2 ? has_sub(name, want) : 0;
    if (sub == 1 && ln >= 3) return ed == 0 ? 0 : ed <= limit ? 1 : 2;
    if (ed <= limit) return 4 * ed;
    if (sub || (ln >= 2 && strlen(name) >= 3 && has_sub(want, name))) return 4 * limit;
    return -1;
}

void jci_suggest_init(jci_suggest *s, const char *want, size_t max)
{
    memset(s, 0, sizeof *s);
    s->want = want;
    s->max = max < 1 ? 1 : max > JCI_SUGGEST_MAX ? JCI_SUGGEST_MAX : max;
}

/* Does candidate (rank r, edit distance e, name) come before slot k?
 * Equal ranks go to the closer spelling, then to the name. */
static int before(const jci_suggest *s, int r, int e, const char *name, size_t k)
{
    if (r != s->rank[k]) return r < s->rank[k];
    if (e != s->dist[k]) return e < s->dist[k];
    return jci_strcasecmp(name, s->name[k]) < 0;
}

void jci_suggest_add(jci_suggest *s, const char *name, const void *key)
{
    int r = jci_suggest_rank(s->want, name);
    if (r < 0) return;
    int e = jci_edit_distance(s->want, name, 64);
    if (!key) key = name;
    /* one suggestion per entity: keep its best name */
    size_t at = s->n;
    for (size_t k = 0; k < s->n; k++)
        if (s->key[k] == key) at = k;
    if (at < s->n) {
        if (r >= s->rank[at]) return;   /* the first of equal names stays */
    } else if (s->n < s->max) {
        at = s->n++;
    } else {
        at = s->n - 1;   /* the worst */
        if (!before(s, r, e, name, at)) return;
    }
    /* move the candidate up to its place */
    while (at > 0 && before(s, r, e, name, at - 1)) {
        s->name[at] = s->name[at - 1];
        s->key[at] = s->key[at - 1];
        s->rank[at] = s->rank[at - 1];
        s->dist[at] = s->dist[at - 1];
        at--;
    }
    s->name[at] = name;
    s->key[at] = key;
    s->rank[at] = r;
    s->dist[at] = e;
}

const char *jci_suggest_best(const jci_suggest *s)
{
    return s->n ? s->name[0] : NULL;
}

void jci_suggest_list(const jci_suggest *s, const char *quote, char *buf, size_t cap)
{
    size_t p = 0;
    if (!cap) return;
    buf[0] = 0;
    for (size_t i = 0; i < s->n; i++) {
        int w = snprintf(buf + p, cap - p, "%s%s%s%s", i ? ", " : "", quote, s->name[i], quote);
        if (w < 0 || (size_t)w >= cap - p) break;
        p += (size_t)w;
    }
}

const char *jc_closest_name(const char *want, const char *const *names, size_t n)
{
    if (!want || !names) return NULL;
    jci_suggest sg;
    jci_suggest_init(&sg, want, 1);
    for (size_t i = 0; i < n; i++)
        if (names[i]) jci_suggest_add(&sg, names[i], NULL);
    return jci_suggest_best(&sg);
}
