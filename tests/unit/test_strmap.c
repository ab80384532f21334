/*
 * test_strmap.c - the string map against hash flooding (issue 43 item 4):
 * 40,000 names built to collide under the former unseeded FNV-1a (every one
 * in the same home slot of a 2^17-slot map, so each insert probed past all
 * the earlier ones: quadratic loading) spread under the keyed SipHash of
 * src/base/strmap.c; the longest probe sequence is counted, not timed.
 * Also SipHash-1-3 against CPython's, lookups and a full map ending.
 */
#include "check.h"
#include "base/jc_internal.h"

#define N_NAMES 40000
#define LOW_BITS 17                    /* the map of 40,000 keys has 2^17 slots */
#define LOW_MASK ((1u << LOW_BITS) - 1)
#define BLOCKS 16                      /* 2^16 names, 40,000 used */
#define BLOCK_LEN 4

/* The map's hash before issue 43: FNV-1a, no key. */
static uint64_t old_fnv(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h;
}

/* FNV-1a's low bits depend only on the low bits of the state, so two
 * blocks that reach the same low state from the same one collide whatever
 * follows: 16 such pairs, chained, give 2^16 names with one home slot. */
static uint32_t low_step(uint32_t s, const char *b)
{
    uint64_t h = s;
    for (int i = 0; i < BLOCK_LEN; i++) h = ((h ^ (unsigned char)b[i]) * 1099511628211ull) & LOW_MASK;
    return (uint32_t)h;
}

static uint64_t rng = 88172645463325252ull;
static uint32_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

/* Two different blocks from state s to one state (a birthday search over
 * 2^17 states: about 500 tries). */
static uint32_t find_pair(uint32_t s, char a[BLOCK_LEN], char b[BLOCK_LEN])
{
    static uint32_t seen[1u << LOW_BITS];   /* tag + 1 of the block that reached each state */
    static char blk[1u << LOW_BITS][BLOCK_LEN];
    memset(seen, 0, sizeof seen);
    for (uint32_t tries = 1;; tries++) {
        char c[BLOCK_LEN];
        for (int i = 0; i < BLOCK_LEN; i++) c[i] = (char)('a' + next_rand() % 26);
        uint32_t t = low_step(s, c);
        if (seen[t] && memcmp(blk[t], c, BLOCK_LEN)) {
            memcpy(a, blk[t], BLOCK_LEN);
            memcpy(b, c, BLOCK_LEN);
            return t;
        }
        seen[t] = tries;
        memcpy(blk[t], c, BLOCK_LEN);
    }
}

static void test_flooding_names_spread(void)
{
    char pair[BLOCKS][2][BLOCK_LEN];
    uint32_t s = (uint32_t)(1469598103934665603ull & LOW_MASK);
    for (int k = 0; k < BLOCKS; k++) s = find_pair(s, pair[k][0], pair[k][1]);
    jci_arena *a = jci_arena_new();
    CHECK(a != NULL);
    if (!a) return;
    char **names = jci_arena_calloc(a, N_NAMES, sizeof *names);
    CHECK(names != NULL);
    if (!names) return;
    size_t home0 = 0, same_home = 0;
    for (uint32_t i = 0; i < N_NAMES; i++) {
        char *nm = jci_arena_alloc(a, BLOCKS * BLOCK_LEN + 1);
        for (int k = 0; k < BLOCKS; k++) memcpy(nm + k * BLOCK_LEN, pair[k][(i >> k) & 1], BLOCK_LEN);
        nm[BLOCKS * BLOCK_LEN] = 0;
        names[i] = nm;
        size_t h = (size_t)old_fnv(nm) & LOW_MASK;
        if (i == 0) home0 = h;
        same_home += h == home0;
    }
    /* every name in one home slot under the old function: inserting them
       probed 1 + 2 + ... + 40,000 = 800 million slots */
    CHECK_I64(same_home, N_NAMES);
    jci_strmap m;
    CHECK(jci_strmap_init(&m, a, N_NAMES));
    CHECK_I64(m.cap, 1u << LOW_BITS);
    size_t dup = 0;
    for (uint32_t i = 0; i < N_NAMES; i++) dup += jci_strmap_put(&m, names[i], (int32_t)i) != -1;
    CHECK_I64(dup, 0);   /* 40,000 distinct names */
    size_t worst = jci_strmap_max_probe(&m);
    printf("  longest probe sequence of 40,000 crafted names: %zu slots (old FNV-1a map: 40,000)\n", worst);
    /* a random map of load 0.31 has its longest run near 10; 32 leaves
       room for an unlucky key, far below the 40,000 of the old function */
    CHECK(worst >= 1 && worst <= 32);
    size_t wrong = 0;
    for (uint32_t i = 0; i < N_NAMES; i++) wrong += jci_strmap_get(&m, names[i]) != (int32_t)i;
    CHECK_I64(wrong, 0);
    CHECK_I64(jci_strmap_get(&m, "not-a-name"), -1);
    jci_arena_free(a);
}

/* SipHash-1-3 against CPython's (the str/bytes hash of Python 3.11+,
 * sys.hash_info.algorithm 'siphash13'; PYTHONHASHSEED=0 is the zero key):
 * hash(b"abc") and hash(b"hello world, 15") there. */
static void test_siphash_vector(void)
{
    const uint64_t zero[2] = {0, 0}, key2[2] = {1, 2};
    CHECK(jci_siphash(zero, "abc", 3) == 0xc03bc3a0042630f2ull);
    CHECK(jci_siphash(zero, "hello world, 15", 15) == 0x09fced6af97b3912ull);
    /* another key, another hash of one string */
    CHECK(jci_siphash(zero, "abc", 3) != jci_siphash(key2, "abc", 3));
}

/* A map whose every slot is taken (as a forged snapshot could hold) ends
 * a lookup after cap probes instead of looping. */
static void test_full_map_lookup_ends(void)
{
    jci_arena *a = jci_arena_new();
    jci_strmap m;
    CHECK(a && jci_strmap_init(&m, a, 3));
    if (!a) return;
    static const char *const k[] = {"a", "b", "c", "d", "e", "f", "g", "h"};
    for (size_t i = 0; i < m.cap; i++) {
        m.keys[i] = k[i % 8];
        m.vals[i] = (int32_t)i;
    }
    m.len = m.cap;
    CHECK_I64(jci_strmap_get(&m, "zz"), -1);
    CHECK_I64(jci_strmap_put(&m, "zz", 1), -2);   /* no room: refused */
    jci_arena_free(a);
}

int main(void)
{
    RUN(test_flooding_names_spread);
    RUN(test_siphash_vector);
    RUN(test_full_map_lookup_ends);
    return check_summary();
}
