/*
 * strmap.c (base) - a string -> int32 hash map allocated in an arena
 * (node, value and record names, YAML keys), keyed against hash flooding.
 *
 * The slot of a key is SipHash-1-3 of the key under the map's own 128-bit
 * key (`seed`), which jci_strmap_init draws from a per-process random key
 * (getrandom, else /dev/urandom, else the clock and addresses): names built
 * to collide under one key (an ONNX file of 80,000 crafted output names, a
 * YAML mapping of crafted keys) spread under another, so a probe stays
 * near its average length whatever the input (issue 43 item 4; the former
 * unseeded FNV-1a put such names in one cluster and made loading
 * quadratic).  Slots differ from process to process; a map that is
 * stored (a hwdb snapshot's name maps) keeps the key it was built under in
 * `seed`, so it reads the same in any process.
 */
#include "base/jc_internal.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/random.h>
#endif

/* ---- SipHash-1-3 (Aumasson and Bernstein; the reference's round) -------- */

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND                                                              \
    do {                                                                      \
        v0 += v1; v1 = ROTL(v1, 13); v1 ^= v0; v0 = ROTL(v0, 32);             \
        v2 += v3; v3 = ROTL(v3, 16); v3 ^= v2;                                \
        v0 += v3; v3 = ROTL(v3, 21); v3 ^= v0;                                \
        v2 += v1; v1 = ROTL(v1, 17); v1 ^= v2; v2 = ROTL(v2, 32);             \
    } while (0)

uint64_t jci_siphash(const uint64_t key[2], const void *data, size_t n)
{
    const unsigned char *p = data;
    uint64_t v0 = 0x736f6d6570736575ull ^ key[0], v1 = 0x646f72616e646f6dull ^ key[1];
    uint64_t v2 = 0x6c7967656e657261ull ^ key[0], v3 = 0x7465646279746573ull ^ key[1];
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t m = 0;
        for (int k = 0; k < 8; k++) m |= (uint64_t)p[i + k] << (8 * k);
        v3 ^= m;
        SIPROUND;
        v0 ^= m;
    }
    uint64_t b = (uint64_t)n << 56;
    for (size_t k = 0; i + k < n; k++) b |= (uint64_t)p[i + k] << (8 * k);
    v3 ^= b;
    SIPROUND;
    v0 ^= b;
    v2 ^= 0xff;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}

/* ---- the process key -------------------------------------------------------- */

static uint64_t proc_key[2];
static pthread_once_t key_once = PTHREAD_ONCE_INIT;

static void key_init(void)
{
    unsigned char b[16];
    size_t got = 0;
#if defined(__linux__)
    ssize_t r = getrandom(b, sizeof b, GRND_NONBLOCK);
    if (r == (ssize_t)sizeof b) got = sizeof b;
#endif
    if (got < sizeof b) {
        int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            ssize_t r2 = read(fd, b, sizeof b);
            if (r2 == (ssize_t)sizeof b) got = sizeof b;
            close(fd);
        }
    }
    if (got < sizeof b) {   /* no entropy source: the clock and addresses, mixed */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t raw[4] = {(uint64_t)ts.tv_sec, (uint64_t)ts.tv_nsec, (uint64_t)getpid(),
                           (uint64_t)(uintptr_t)&ts ^ (uint64_t)(uintptr_t)key_init};
        static const uint64_t k0[2] = {0x6a6f756c65636173ull, 0x7374726d61702e63ull};
        uint64_t h[2] = {jci_siphash(k0, raw, sizeof raw), 0};
        h[1] = jci_siphash(k0, h, sizeof h);
        memcpy(b, h, sizeof b);
    }
    memcpy(proc_key, b, sizeof proc_key);
}

uint64_t jci_hash_str(const char *s)
{
    pthread_once(&key_once, key_init);
    return jci_siphash(proc_key, s, strlen(s));
}

/* ---- string map --------------------------------------------------------- */

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
    pthread_once(&key_once, key_init);
    m->seed[0] = proc_key[0];
    m->seed[1] = proc_key[1];
    m->cap = cap;
    m->len = 0;
    return true;
}

/* The first slot of key: its keyed hash, low bits. */
static size_t home(const jci_strmap *m, const char *key)
{
    return (size_t)jci_siphash(m->seed, key, strlen(key)) & (m->cap - 1);
}

int32_t jci_strmap_get(const jci_strmap *m, const char *key)
{
    if (!m->cap) return -1;
    size_t i = home(m, key);
    for (size_t probes = 0; m->keys[i] && probes < m->cap; probes++) {
        if (strcmp(m->keys[i], key) == 0) return m->vals[i];
        i = (i + 1) & (m->cap - 1);
    }
    return -1;
}

int32_t jci_strmap_put(jci_strmap *m, const char *key, int32_t val)
{
    if (!m->cap || m->len + 1 > m->cap / 2) return -2;
    size_t i = home(m, key);
    while (m->keys[i]) {
        if (strcmp(m->keys[i], key) == 0) return m->vals[i];
        i = (i + 1) & (m->cap - 1);
    }
    m->keys[i] = key;
    m->vals[i] = val;
    m->len++;
    return -1;
}

size_t jci_strmap_max_probe(const jci_strmap *m)
{
    size_t worst = 0;
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->keys[i]) continue;
        size_t probes = ((i - home(m, m->keys[i])) & (m->cap - 1)) + 1;
        if (probes > worst) worst = probes;
    }
    return worst;
}
