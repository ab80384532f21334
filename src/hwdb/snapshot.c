/*
 * snapshot.c (hwdb) - snapshots of the bundled hardware database: a loaded
 * jc_hwdb written as one file that opens in well under a millisecond instead
 * of the ~20 ms libyaml needs to parse the YAML (bench/RESULTS.md).
 *
 * Layout (format 7, 64-bit builds only), in sections (hs_header.sec_off,
 * sec_len; src/hwdb/hwdb_int.h):
 *   head                 the header (hs_header) in [0, 4096); one
 *                        SNAP_SLOT-byte slot per YAML file for its path, as
 *                        the YAML loader would spell it, written at open
 *                        time, so records cite "hwdb/devices/nvidia.yaml"
 *                        relative to wherever the folder is found;
 *                        snap_file tables of the YAML files (name relative
 *                        to the folder, size, modification time; load
 *                        order) and of the folders walked; their names
 *   records              one section per record type (jc_hwdb's first):
 *                        nothing but whole records of that type
 *   lists                the arrays of string pointers
 *   strings              every string, deduplicated, the last one NUL-ended
 * Every pointer is stored as hdr.base + its target's offset.  The writer
 * deep-copies the database by walking the record types of hs_types()
 * (pointer fields as data: strings deduplicated, owned arrays copied,
 * borrowed references resolved afterwards), each record into its type's
 * section, and lays the sections out at the end.  The reader maps the file
 * at hdr.base, where every pointer is already right; when that address is
 * taken it reads the file into the heap and rebases the pointers.  Either
 * way the checksum over the whole file (header included, its checksum
 * field as 0) and then every pointer, count, enum and name of the image
 * (the reader's comment below: one linear pass of bounds checks, which
 * the sections make enough) are checked before anything in it is used: a
 * failure is JC_ERR_HWDB and callers parse the YAML instead, with a note.
 * The name maps are stored with the key their slots were hashed under
 * (the writing process's random key, src/base/strmap.c), so the open builds
 * nothing.
 *
 * A snapshot is used only while the folder is as recorded: every
 * recorded file with the same size and modification time, every recorded
 * folder with the same modification time (so no entry was added, removed
 * or renamed in it); only the recorded names are looked up, no folder is
 * read.  Otherwise JC_ERR_NOTFOUND (stale), and callers parse the YAML.  Trust: none.
 * Anyone can point JOULECAST_HWDB_SNAPSHOT or the Python binding at a
 * file and recompute the checksum after changing it, so both open paths
 * validate the whole image (issue 43 item 1); the checksum only catches
 * accidental corruption.
 */
#include "joulecast.h" /* JC_VERSION */
#include "hwdb/hwdb_int.h"
#include "hwdb/hwdb_fields.h"

#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- record types as data ---------------------------------------------------- */

#define F(k, t, n, s, m) {k, t, n, (unsigned)offsetof(s, m), 0}
#define FC(k, t, s, m, c) {k, t, 1, (unsigned)offsetof(s, m), (unsigned)offsetof(s, c)}
#define STR(s, m) F(HS_STR, 0, 1, s, m)
#define EMB(t, s, m) F(HS_EMB, t, 1, s, m)
#define REF(t, s, m) F(HS_REF, t, 1, s, m)
#define ARR(t, s, m, c) FC(HS_ARR, t, s, m, c)
#define END {0, 0, 0, 0, 0}

static const hs_field f_none[] = {END};
static const hs_field f_sourced[] = {
    REF(HT_SOURCE, jc_sourced, source), STR(jc_sourced, derived),
    STR(jc_sourced, measured), STR(jc_sourced, note), STR(jc_sourced, file), END};
static const hs_field f_intensity[] = {
    STR(jc_intensity, dataset_id), REF(HT_DATASET, jc_intensity, dataset),
    STR(jc_intensity, basis), EMB(HT_SOURCED, jc_intensity, value), END};
static const hs_field f_pue_year[] = {EMB(HT_SOURCED, jc_pue_year, value), END};
/* The pointer fields of a record kind with a field table that are not
 * YAML keys (set while loading), after its rows' (types_init). */
static const hs_field x_source[] = {STR(jc_source, id), STR(jc_source, file_licence), END};
static const hs_field x_region[] = {
    REF(HT_REGION, jc_region, grid_region), REF(HT_INTENSITY, jc_region, default_intensity),
    REF(HT_REGION, jc_region, default_from), STR(jc_region, default_reason), END};
static const hs_field x_ga_loc[] = {REF(HT_REGION, jc_ga_location, resolved), END};
static const hs_field f_name[] = {
    STR(hw_name, name), STR(hw_name, lower), STR(hw_name, file), END};
static const hs_field f_strmap[] = {
    FC(HS_STRS, 0, jci_strmap, keys, cap), ARR(HT_I32, jci_strmap, vals, cap), END};
static const hs_field f_ns[] = {
    EMB(HT_STRMAP, hw_ns, map), ARR(HT_NAME, hw_ns, names, n), END};
static const hs_field f_internal[] = {
    F(HS_NULL, 0, 1, hw_internal, arena), EMB(HT_NS, hw_internal, hw),
    EMB(HT_NS, hw_internal, regions), EMB(HT_NS, hw_internal, providers),
    EMB(HT_NS, hw_internal, constants), EMB(HT_NS, hw_internal, datasets),
    EMB(HT_NS, hw_internal, ga), F(HS_NULL, 0, 1, hw_internal, snap_map),
    F(HS_NULL, 0, 1, hw_internal, snap_buf), F(HS_NULL, 0, 1, hw_internal, snap_len), END};
/* after the array of each entry kind (types_init) */
static const hs_field x_hwdb[] = {
    FC(HS_STRS, 0, jc_hwdb, files, n_files), STR(jc_hwdb, data_version),
    F(HS_ONE, HT_INTERNAL, 1, jc_hwdb, internal_), END};

/* Every record type; a kind with a field table lists here only its fields
 * set while loading (f_none: none), types_init puts its rows' first. */
static hs_type type_tab[HT_COUNT] = {
    [HT_I32] = {"int32", sizeof(int32_t), f_none},
    [HT_SOURCE] = {"jc_source", sizeof(jc_source), x_source},
    [HT_SOURCED] = {"jc_sourced", sizeof(jc_sourced), f_sourced},
    [HT_DEVICE] = {"jc_device", sizeof(jc_device), f_none},
    [HT_HOST] = {"jc_host", sizeof(jc_host), f_none},
    [HT_DATASET] = {"jc_dataset", sizeof(jc_dataset), f_none},
    [HT_INTENSITY] = {"jc_intensity", sizeof(jc_intensity), f_intensity},
    [HT_REGION] = {"jc_region", sizeof(jc_region), x_region},
    [HT_PUE_YEAR] = {"jc_pue_year", sizeof(jc_pue_year), f_pue_year},
    [HT_PROVIDER] = {"jc_provider", sizeof(jc_provider), f_none},
    [HT_CONSTANT] = {"jc_constant", sizeof(jc_constant), f_none},
    [HT_GA_PUE] = {"jc_ga_pue_default", sizeof(jc_ga_pue_default), f_none},
    [HT_GA_PROVIDER] = {"jc_ga_provider", sizeof(jc_ga_provider), f_none},
    [HT_GA_DC] = {"jc_ga_datacenter", sizeof(jc_ga_datacenter), f_none},
    [HT_GA_CPU] = {"jc_ga_hw (cpus)", sizeof(jc_ga_hw), f_none},
    [HT_GA_GPU] = {"jc_ga_hw (gpus)", sizeof(jc_ga_hw), f_none},
    [HT_GA_LOC] = {"jc_ga_location", sizeof(jc_ga_location), x_ga_loc},
    [HT_GA_CONST] = {"jc_ga_constant", sizeof(jc_ga_constant), f_none},
    [HT_GA_VERSION] = {"jc_ga_version", sizeof(jc_ga_version), f_none},
    [HT_NAME] = {"hw_name", sizeof(hw_name), f_name},
    [HT_STRMAP] = {"jci_strmap", sizeof(jci_strmap), f_strmap},
    [HT_NS] = {"hw_ns", sizeof(hw_ns), f_ns},
    [HT_INTERNAL] = {"hw_internal", sizeof(hw_internal), f_internal},
    [HT_HWDB] = {"jc_hwdb", sizeof(jc_hwdb), x_hwdb},
};

/* The pointer field of field-table row f, or kind 0 when it has none
 * (numbers and enums are plain data; an OWN row has no storage). */
static hs_field row_field(const jci_hwfield *f)
{
    hs_field x = {0, 0, 1, (unsigned)f->off, 0};
    switch (f->type) {
    case HF_T_ID:
    case HF_T_STR: x.kind = HS_STR; break;
    case HF_T_STRS: x.kind = HS_STRS, x.count_off = (unsigned)f->count_off; break;
    case HF_T_SV:
    case HF_T_ROWNUM: x.kind = HS_EMB, x.type = HT_SOURCED; break;
    case HF_T_PREC: x.kind = HS_EMB, x.type = HT_SOURCED, x.n = JC_PREC_COUNT; break;
    case HF_T_DEVREF: x.kind = HS_REF, x.type = HT_DEVICE; break;
    case HF_T_SRCREF: x.kind = HS_REF, x.type = HT_SOURCE; break;
    case HF_T_LIST:
        x.kind = HS_ARR, x.type = (unsigned char)f->elem, x.count_off = (unsigned)f->count_off;
        break;
    default: break;
    }
    return x;
}

/* The pointer fields of each record kind with a field table
 * (src/hwdb/fields_<kind>.def, expanded in src/hwdb/schema.c): its rows',
 * then the ones set while loading (the static table's list above), then
 * where the record is written (file); and the database's array of each
 * entry kind before the rest of jc_hwdb's.  Filled once (hs_types); the sizes
 * are static data, so a buffer too small is a build-time bug (abort), met
 * by every test that writes a snapshot. */
static hs_field derived[600];
static pthread_once_t types_once = PTHREAD_ONCE_INIT;

static void types_init(void)
{
    size_t n = 0;
    for (int k = 0; k < HF_K_COUNT; k++) {
        const jci_hwkind *kd = jci_hwdb_kind(k);
        hs_field *start = &derived[n];
        for (size_t i = 0; i < kd->n; i++) {
            hs_field x = row_field(&kd->fields[i]);
            if (x.kind) derived[n++] = x;
        }
        if (n + kd->n + 16 > sizeof derived / sizeof derived[0]) abort();
        for (const hs_field *x = type_tab[kd->ht].fields; x->kind; x++) derived[n++] = *x;
        if (kd->has_at) derived[n++] = (hs_field){HS_STR, 0, 1, (unsigned)kd->file_off, 0};
        derived[n++] = (hs_field)END;
        type_tab[kd->ht].fields = start;
    }
    if (n + HF_K_COUNT + 8 > sizeof derived / sizeof derived[0]) abort();
    hs_field *db = &derived[n];
    for (int k = 0; k < HF_K_COUNT; k++) {
        const jci_hwkind *kd = jci_hwdb_kind(k);
        if (kd->ns)
            derived[n++] = (hs_field){HS_ARR, (unsigned char)kd->ht, 1, (unsigned)kd->db_off,
                                      (unsigned)kd->db_n_off};
    }
    for (const hs_field *x = x_hwdb; x->kind; x++) derived[n++] = *x;
    derived[n++] = (hs_field)END;
    type_tab[HT_HWDB].fields = db;
}

const hs_type *hs_types(void)
{
    pthread_once(&types_once, types_init);
    return type_tab;
}

/* Records that borrowed references may point at: their elements are
 * registered by address while copying. */
static bool ref_target(int t)
{
    return t == HT_SOURCE || t == HT_DEVICE || t == HT_DATASET || t == HT_INTENSITY ||
           t == HT_REGION;
}

/* ---- file format --------------------------------------------------------------- */

#define SNAP_MAGIC "JCHWSNAP"
#define SNAP_FORMAT 7u   /* 7: records by type in sections, maps stored; 6: maps rebuilt at open */
#define SNAP_HDR_BYTES 4096u
#define SNAP_SLOT 512u           /* bytes per path slot; a longer path: stale */
#define SNAP_MAX_FILES 4096u
#define SNAP_MAX_BYTES ((uint64_t)1 << 30)
/* Where images are laid out: a 47-bit address that neither the kernel's
 * mmap area, the heap, PIE binaries nor ASan's shadow and allocator use on
 * x86-64 and 48-bit arm64.  Elsewhere the reader relocates. */
#define SNAP_BASE ((uint64_t)0x7a6a00000000ull)

typedef hs_header snap_hdr;

typedef struct snap_file {
    uint64_t rel;                     /* offset of the relative name */
    int64_t size, mtime_s, mtime_ns;
} snap_file;

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

/* Fingerprint of the record layout this build writes and reads: computed
 * once per process (every caller computes the same value, so a race only
 * repeats the work). */
static uint32_t abi_hash(void)
{
    const hs_type *types = hs_types();
    static _Atomic uint32_t cached;
    uint32_t v = atomic_load_explicit(&cached, memory_order_relaxed);
    if (v) return v;
    uint64_t h = mix(0, SNAP_FORMAT);
    h = mix(h, sizeof(void *));
    h = mix(h, sizeof(size_t));
    for (int t = 0; t < HT_COUNT; t++) {
        h = mix(h, types[t].size);
        for (const hs_field *f = types[t].fields; f->kind; f++)
            h = mix(mix(mix(mix(mix(h, f->kind), f->type), f->n), f->off), f->count_off);
    }
    v = (uint32_t)(h ^ (h >> 32)) | 1u;   /* never 0: 0 means "not yet" */
    atomic_store_explicit(&cached, v, memory_order_relaxed);
    return v;
}

/* Two 64-bit lanes in 16 bytes (GCC and Clang vector extension: SSE2
 * registers on x86-64, plain 64-bit code where there are none). */
typedef uint64_t hs_lanes __attribute__((vector_size(16)));

uint64_t hs_checksum(const unsigned char *p, size_t n)
{
    /* Fletcher-style over 64-byte blocks: eight 64-bit running sums (four
     * pairs of lanes) and the sum of each running sum, so a flipped bit
     * anywhere changes its lane's sum by a power of two (never by 0 mod
     * 2^64) and a moved word changes the second sum; then the tail byte
     * by byte.  Additions only, in named registers (an array of lanes
     * stays in memory under GCC -O2): 3-4x the speed of the multiply
     * lanes of format 4, near memory speed (bench/RESULTS.md) */
    hs_lanes s0 = {0, 0}, s1 = {0, 0}, s2 = {0, 0}, s3 = {0, 0};
    hs_lanes t0 = {0, 0}, t1 = {0, 0}, t2 = {0, 0}, t3 = {0, 0};
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        hs_lanes a, b, c, e;
        memcpy(&a, p + i, 16);
        memcpy(&b, p + i + 16, 16);
        memcpy(&c, p + i + 32, 16);
        memcpy(&e, p + i + 48, 16);
        s0 += a;
        s1 += b;
        s2 += c;
        s3 += e;
        t0 += s0;
        t1 += s1;
        t2 += s2;
        t3 += s3;
    }
    const hs_lanes all[8] = {s0, s1, s2, s3, t0, t1, t2, t3};
    uint64_t h = 0x6a6f756c65636173ull;
    for (int k = 0; k < 8; k++) h = mix(mix(h, all[k][0]), all[k][1]);
    for (; i < n; i++) h = mix(h, p[i]);
    return h ^ n;
}

/* The checksum of a whole snapshot image: every byte of the file, the
 * header included with its checksum field read as 0. */
uint64_t hs_image_checksum(const unsigned char *img, uint64_t len)
{
    unsigned char hdr[SNAP_HDR_BYTES];
    memcpy(hdr, img, SNAP_HDR_BYTES);
    memset(hdr + offsetof(snap_hdr, checksum), 0, sizeof(uint64_t));
    return mix(hs_checksum(hdr, SNAP_HDR_BYTES), hs_checksum(img + SNAP_HDR_BYTES, (size_t)(len - SNAP_HDR_BYTES)));
}

/* ---- the folder's files ------------------------------------------------------------ */

/* The *.yaml files of `dir` as the YAML loader lists them (files, in load
 * order) and the folders walked (dirs), with the length of the folder
 * prefix to strip for the relative names. */
typedef struct listing {
    hw_file_meta *files, *dirs;
    size_t n_files, n_dirs, prefix;
} listing;

static jc_status list_dir(jci_arena *s, const char *dir, listing *l, jc_diag *d)
{
    hw_file_meta *m;
    size_t n;
    jc_status st = hw_list_files_meta(s, dir, &m, &n, d);
    if (st) return st;
    l->files = jci_arena_calloc(s, n ? n : 1, sizeof *m);
    l->dirs = jci_arena_calloc(s, n ? n : 1, sizeof *m);
    if (!l->files || !l->dirs) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    l->n_files = l->n_dirs = 0;
    for (size_t i = 0; i < n; i++) {
        if (m[i].is_dir) l->dirs[l->n_dirs++] = m[i];
        else l->files[l->n_files++] = m[i];
    }
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/') len--;
    l->prefix = (l->n_dirs == 0) ? strlen(dir) : len + 1;
    return JC_OK;
}

static const char *rel_of(const char *path, size_t prefix)
{
    return strlen(path) >= prefix ? path + prefix : "";
}

/* ---- writer -------------------------------------------------------------------------- */

/* While writing, an offset is tagged with its section: (section << 40) |
 * offset in the section (the head's tags are its file offsets: section 0
 * starts the file).  Sections are laid out one after the other at the end
 * (w_layout), and every non-NULL pointer written (w_put) is listed so
 * that it is rewritten then to the image address of its target. */
#define TAG_SHIFT 40
#define TAG(sec, local) (((uint64_t)(sec) << TAG_SHIFT) | (uint64_t)(local))
#define TAG_SEC(t) ((int)((t) >> TAG_SHIFT))
#define TAG_OFF(t) ((t) & (((uint64_t)1 << TAG_SHIFT) - 1))

typedef struct pent { uintptr_t key; uint64_t off; } pent;
typedef struct sent { uint64_t hash, off; } sent;
typedef struct wref { uint64_t at; const void *old; int type; } wref;
typedef struct wsec { unsigned char *buf; size_t len, cap; } wsec;

typedef struct W {
    wsec sec[HS_NSEC];
    unsigned char *img;              /* the laid-out image (w_layout) */
    size_t len;
    uint64_t base[HS_NSEC];          /* where each section starts in img */
    jc_diag *d;
    jc_status st;
    pent *p; size_t pcap, plen;      /* old address -> tagged offset */
    sent *s; size_t scap, slen;      /* string -> tagged offset (by content) */
    wref *r; size_t rlen, rcap;      /* borrowed references to resolve */
    uint64_t *fix; size_t nfix, capfix;   /* tagged places of non-NULL pointers */
    const char *const *files; size_t n_files;
    uint64_t slots;
} W;

static bool w_fail(W *w, jc_status st, const char *msg, const char *what)
{
    if (!w->st) {
        w->st = st;
        jci_diag_set(w->d, st, "hwdb snapshot: %s%s%s", msg, what ? ": " : "", what ? what : "");
    }
    return false;
}

/* The bytes at tagged offset t. */
static unsigned char *w_at(W *w, uint64_t t)
{
    return w->sec[TAG_SEC(t)].buf + TAG_OFF(t);
}

/* Appends n zero bytes aligned to `align` to section `sec`; *off gets
 * their tagged offset. */
static bool w_emit(W *w, int sec, size_t n, size_t align, uint64_t *off)
{
    wsec *s = &w->sec[sec];
    size_t at = (s->len + align - 1) & ~(align - 1);
    if (at < s->len || at + n < at || at + n > SNAP_MAX_BYTES)
        return w_fail(w, JC_ERR_RANGE, "the database is too large for a snapshot", NULL);
    if (at + n > s->cap) {
        size_t nc = s->cap ? s->cap : (size_t)1 << 16;
        while (nc < at + n) nc *= 2;
        unsigned char *nb = realloc(s->buf, nc);
        if (!nb) return w_fail(w, JC_ERR_NOMEM, "out of memory", NULL);
        memset(nb + s->cap, 0, nc - s->cap);
        s->buf = nb;
        s->cap = nc;
    }
    s->len = at + n;
    *off = TAG(sec, at);
    return true;
}

/* Room for one more element in the growable array vec (len used of cap;
 * first: the initial capacity); false (w failed, vec freed and NULL) on
 * out-of-memory. */
#define W_RESERVE(w, vec, len, cap, first)                                    \
    ((len) < (cap) || ((vec) = w_grow((w), (vec), &(cap), sizeof *(vec), (first))) != NULL)

static void *w_grow(W *w, void *vec, size_t *cap, size_t elem, size_t first)
{
    size_t nc = *cap ? *cap * 2 : first;
    void *nv = realloc(vec, nc * elem);
    if (!nv) {
        free(vec);
        *cap = 0;
        w_fail(w, JC_ERR_NOMEM, "out of memory", NULL);
        return NULL;
    }
    *cap = nc;
    return nv;
}

/* The pointer at tagged place `at` aims at tagged offset `off` (0: NULL);
 * rewritten to an image address by w_layout. */
static bool w_put(W *w, uint64_t at, uint64_t off)
{
    memcpy(w_at(w, at), &off, sizeof off);
    if (!off) return true;
    if (!W_RESERVE(w, w->fix, w->nfix, w->capfix, 16384)) return false;
    w->fix[w->nfix++] = at;
    return true;
}

static uint64_t hash_ptr(uintptr_t k)
{
    uint64_t h = (uint64_t)k * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 31);
}

static bool p_grow(W *w)
{
    size_t nc = w->pcap ? w->pcap * 2 : 4096;
    pent *nv = calloc(nc, sizeof *nv);
    if (!nv) return w_fail(w, JC_ERR_NOMEM, "out of memory", NULL);
    for (size_t i = 0; i < w->pcap; i++)
        if (w->p[i].key) {
            size_t j = hash_ptr(w->p[i].key) & (nc - 1);
            while (nv[j].key) j = (j + 1) & (nc - 1);
            nv[j] = w->p[i];
        }
    free(w->p);
    w->p = nv;
    w->pcap = nc;
    return true;
}

static uint64_t p_get(const W *w, const void *old)
{
    if (!w->pcap) return 0;
    uintptr_t k = (uintptr_t)old;
    for (size_t j = hash_ptr(k) & (w->pcap - 1); w->p[j].key; j = (j + 1) & (w->pcap - 1))
        if (w->p[j].key == k) return w->p[j].off;
    return 0;
}

static bool p_put(W *w, const void *old, uint64_t off, const char *what)
{
    if (2 * (w->plen + 1) > w->pcap && !p_grow(w)) return false;
    uintptr_t k = (uintptr_t)old;
    size_t j = hash_ptr(k) & (w->pcap - 1);
    for (; w->p[j].key; j = (j + 1) & (w->pcap - 1))
        if (w->p[j].key == k)
            return w_fail(w, JC_ERR_INTERNAL, "a record is owned twice", what);
    w->p[j].key = k;
    w->p[j].off = off;
    w->plen++;
    return true;
}

/* The keyed string hash (jci_hash_str: crafted strings do not collide),
 * never 0 (0 marks an empty slot). */
static uint64_t hash_str(const char *s)
{
    return jci_hash_str(s) | 1;
}

/* Tagged offset of a copy of s: a path slot when s is a loaded file's
 * path (the string of jc_hwdb.files itself: records cite their file as
 * "hwdb/REL", a plain string that the open does not rewrite), else one
 * deduplicated copy per distinct string in the string section.  0 on
 * failure. */
static uint64_t w_str(W *w, const char *s)
{
    for (size_t i = 0; i < w->n_files; i++)
        if (s == w->files[i]) return w->slots + i * SNAP_SLOT;
    uint64_t h = hash_str(s);
    if (w->scap) {
        for (size_t j = h & (w->scap - 1); w->s[j].hash; j = (j + 1) & (w->scap - 1))
            if (w->s[j].hash == h && !strcmp((const char *)w_at(w, w->s[j].off), s))
                return w->s[j].off;
    }
    if (2 * (w->slen + 1) > w->scap) {
        size_t nc = w->scap ? w->scap * 2 : 16384;
        sent *nv = calloc(nc, sizeof *nv);
        if (!nv) return w_fail(w, JC_ERR_NOMEM, "out of memory", NULL), 0;
        for (size_t i = 0; i < w->scap; i++)
            if (w->s[i].hash) {
                size_t j = w->s[i].hash & (nc - 1);
                while (nv[j].hash) j = (j + 1) & (nc - 1);
                nv[j] = w->s[i];
            }
        free(w->s);
        w->s = nv;
        w->scap = nc;
    }
    size_t n = strlen(s) + 1;
    uint64_t off;
    if (!w_emit(w, HS_SEC_STR, n, 1, &off)) return 0;
    memcpy(w_at(w, off), s, n);
    size_t j = h & (w->scap - 1);
    while (w->s[j].hash) j = (j + 1) & (w->scap - 1);
    w->s[j].hash = h;
    w->s[j].off = off;
    w->slen++;
    return off;
}

static const void *rd_ptr(const void *rec, unsigned off)
{
    const void *p;
    memcpy(&p, (const char *)rec + off, sizeof p);
    return p;
}

static size_t rd_count(const void *rec, unsigned off)
{
    size_t c;
    memcpy(&c, (const char *)rec + off, sizeof c);
    return c;
}

static bool w_fields(W *w, int type, uint64_t at, const void *old);

/* Copies count records of `type` from old into the type's section (at
 * least one slot, zeroed, so an empty array stays non-NULL as the YAML
 * loader leaves it). */
static bool w_array(W *w, int type, const void *old, size_t count, uint64_t *off)
{
    const hs_type *types = hs_types();
    size_t sz = types[type].size, n = count ? count : 1;
    if (n > SNAP_MAX_BYTES / sz)
        return w_fail(w, JC_ERR_RANGE, "an array is too large", types[type].name);
    if (!w_emit(w, hs_type_sec(type), n * sz, 1, off)) return false;
    if (count) memcpy(w_at(w, *off), old, count * sz);
    if (ref_target(type))
        for (size_t i = 0; i < count; i++)
            if (!p_put(w, (const char *)old + i * sz, *off + i * sz, types[type].name))
                return false;
    for (size_t i = 0; i < count; i++)
        if (!w_fields(w, type, *off + i * sz, (const char *)old + i * sz)) return false;
    return true;
}

static bool w_fields(W *w, int type, uint64_t at, const void *old)
{
    const hs_type *types = hs_types();
    for (const hs_field *f = types[type].fields; f->kind; f++) {
        const void *p = f->kind == HS_EMB ? NULL : rd_ptr(old, f->off);
        uint64_t off = 0;
        switch (f->kind) {
        case HS_STR:
            if (p && !(off = w_str(w, p))) return false;
            if (!w_put(w, at + f->off, off)) return false;
            break;
        case HS_STRS: {
            size_t c = rd_count(old, f->count_off);
            if (p) {
                if (c > SNAP_MAX_BYTES / 8)
                    return w_fail(w, JC_ERR_RANGE, "a list is too long", types[type].name);
                if (!w_emit(w, HS_SEC_STRS, (c ? c : 1) * 8, 8, &off)) return false;
                for (size_t i = 0; i < c; i++) {
                    const char *s = ((const char *const *)p)[i];
                    uint64_t so = 0;
                    if (s && !(so = w_str(w, s))) return false;
                    if (!w_put(w, off + 8 * i, so)) return false;
                }
            }
            if (!w_put(w, at + f->off, off)) return false;
            break;
        }
        case HS_ARR:
        case HS_ONE:
            if (p && !w_array(w, f->type, p, f->kind == HS_ONE ? 1 : rd_count(old, f->count_off),
                              &off))
                return false;
            if (!w_put(w, at + f->off, off)) return false;
            break;
        case HS_REF:
            if (!w_put(w, at + f->off, 0)) return false;
            if (p) {
                if (!W_RESERVE(w, w->r, w->rlen, w->rcap, 4096)) return false;
                w->r[w->rlen++] = (wref){at + f->off, p, f->type};
            }
            break;
        case HS_EMB:
            for (unsigned k = 0; k < f->n; k++)
                if (!w_fields(w, f->type, at + f->off + k * types[f->type].size,
                              (const char *)old + f->off + k * types[f->type].size))
                    return false;
            break;
        case HS_NULL:
            if (!w_put(w, at + f->off, 0)) return false;
            break;
        }
    }
    return true;
}

/* Borrowed references: to a record copied above, else (a source shared
 * by many values) a standalone copy in its type's section. */
static bool w_resolve(W *w)
{
    const hs_type *types = hs_types();
    for (size_t i = 0; i < w->rlen; i++) {
        wref r = w->r[i];
        uint64_t off = p_get(w, r.old);
        if (!off) {
            if (!ref_target(r.type))
                return w_fail(w, JC_ERR_INTERNAL, "a reference to an unregistered record",
                              types[r.type].name);
            if (!w_array(w, r.type, r.old, 1, &off)) return false;   /* registers it */
        }
        if (!w_put(w, r.at, off)) return false;
    }
    return true;
}

/* Lays the sections out one after the other (each 64-aligned, the file
 * 4096-aligned) into w->img and rewrites every listed pointer to the
 * image address of its target; the header's section table is h's. */
static bool w_layout(W *w, snap_hdr *h)
{
    uint64_t pos = 0;
    for (int s = 0; s < HS_NSEC; s++) {
        pos = (pos + 63) & ~(uint64_t)63;
        w->base[s] = pos;
        h->sec_off[s] = pos;
        h->sec_len[s] = w->sec[s].len;
        pos += w->sec[s].len;
    }
    pos = (pos + 4095) & ~(uint64_t)4095;
    if (pos > SNAP_MAX_BYTES) return w_fail(w, JC_ERR_RANGE, "the database is too large for a snapshot", NULL);
    w->img = calloc(1, (size_t)pos);
    if (!w->img) return w_fail(w, JC_ERR_NOMEM, "out of memory", NULL);
    w->len = (size_t)pos;
    for (int s = 0; s < HS_NSEC; s++)
        if (w->sec[s].len) memcpy(w->img + w->base[s], w->sec[s].buf, w->sec[s].len);
    for (size_t i = 0; i < w->nfix; i++) {
        uint64_t at = w->base[TAG_SEC(w->fix[i])] + TAG_OFF(w->fix[i]), t;
        memcpy(&t, w->img + at, sizeof t);
        t = SNAP_BASE + w->base[TAG_SEC(t)] + TAG_OFF(t);
        memcpy(w->img + at, &t, sizeof t);
    }
    return true;
}

static jc_status out_target(const char *path, char **target, jc_diag *d)
{
    char *cur = strdup(path);
    for (int hops = 0; cur && hops < 40; hops++) {
        struct stat sb;
        if (lstat(cur, &sb) != 0) {
            if (errno == ENOENT) break;   /* a new file */
            jc_status st = jci_diag_at(d, JC_ERR_IO, path, -1, "cannot write the snapshot: %s", strerror(errno));
            free(cur);
            return st;
        }
        if (S_ISREG(sb.st_mode)) break;
        if (!S_ISLNK(sb.st_mode)) {
            free(cur);
            return jci_diag_at(d, JC_ERR_IO, path, -1, "not a regular file (%s): a snapshot is written only to a "
                               "regular file or a new path", S_ISFIFO(sb.st_mode) ? "a FIFO" : S_ISDIR(sb.st_mode) ? "a folder"
                               : S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode) ? "a device" : "a socket");
        }
        char link[4096];
        ssize_t n = readlink(cur, link, sizeof link - 1);
        if (n < 0 || n >= (ssize_t)sizeof link - 1) {
            free(cur);
            return jci_diag_at(d, JC_ERR_IO, path, -1, "cannot read the symlink");
        }
        link[n] = 0;
        const char *slash = strrchr(cur, '/');
        size_t dl = link[0] != '/' && slash ? (size_t)(slash - cur) + 1 : 0;   /* relative: beside the link */
        char *next = malloc(dl + (size_t)n + 1);
        if (next) {
            memcpy(next, cur, dl);
            memcpy(next + dl, link, (size_t)n + 1);
        }
        free(cur);
        cur = next;
        if (hops == 39) {
            free(cur);
            return jci_diag_at(d, JC_ERR_IO, path, -1, "too many levels of symlinks");
        }
    }
    if (!cur) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    *target = cur;
    return JC_OK;
}

static jc_status write_file(W *w, const char *path, jc_diag *d)
{
    size_t plen = strlen(path);
    char *tmp = malloc(plen + 32);
    if (!tmp) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    snprintf(tmp, plen + 32, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) {
        jc_status st = jci_diag_at(d, JC_ERR_IO, path, -1, "cannot write the snapshot: %s",
                                  strerror(errno));
        free(tmp);
        return st;
    }
    bool ok = fwrite(w->img, 1, w->len, f) == w->len;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        jc_status st = jci_diag_at(d, JC_ERR_IO, path, -1, "cannot write the snapshot: %s",
                                  strerror(errno));
        remove(tmp);
        free(tmp);
        return st;
    }
    free(tmp);
    return JC_OK;
}

jc_status jc_hwdb_snapshot_write(const char *bundled_dir, const char *path, jc_diag *diag)
{
    jc_diag local;
    if (!diag) diag = &local;
    jci_diag_clear(diag);
    if (!bundled_dir || !path)
        return jci_diag_set(diag, JC_ERR_USAGE, "jc_hwdb_snapshot_write: a folder and a path are needed");
    if (sizeof(void *) != 8 || sizeof(size_t) != 8)
        return jci_diag_set(diag, JC_ERR_USAGE, "hwdb snapshots need a 64-bit build");
    char *target = NULL;
    jc_status st = out_target(path, &target, diag);
    if (st) return st;
    jci_arena *s = jci_arena_new();
    if (!s) {
        free(target);
        return jci_diag_set(diag, JC_ERR_NOMEM, "out of memory");
    }
    /* the files' state before parsing: a later change leaves the
     * snapshot stale, never wrong */
    listing L;
    memset(&L, 0, sizeof L);
    st = list_dir(s, bundled_dir, &L, diag);
    size_t n = L.n_files;
    hw_file_meta *fm = L.files;
    if (!st && (n > SNAP_MAX_FILES || L.n_dirs > SNAP_MAX_FILES))
        st = jci_diag_at(diag, JC_ERR_RANGE, bundled_dir, -1, "more than %u YAML files or folders",
                        SNAP_MAX_FILES);
    for (size_t i = 0; !st && i < n; i++)
        if (strlen(fm[i].path) >= SNAP_SLOT)
            st = jci_diag_at(diag, JC_ERR_RANGE, fm[i].path, -1,
                            "path too long for a snapshot (%u bytes or more)", SNAP_SLOT);
    jc_hwdb *db = NULL;
    if (!st) st = jc_hwdb_load(bundled_dir, NULL, 0, NULL, &db, diag);
    if (!st) st = jci_output_not_input(target, "-o", NULL, 0, db, diag);   /* never onto its own YAML */
    if (!st && db->n_files != n)
        st = jci_diag_at(diag, JC_ERR_IO, bundled_dir, -1, "the folder changed while loading");
    for (size_t i = 0; !st && i < n; i++)
        if (strcmp(db->files[i], fm[i].path))
            st = jci_diag_at(diag, JC_ERR_IO, bundled_dir, -1, "the folder changed while loading");

    W w;
    memset(&w, 0, sizeof w);
    w.d = diag;
    uint64_t hdr = 0, files = 0, dirs = 0, root = 0;
    snap_hdr h;
    memset(&h, 0, sizeof h);
    if (!st) {
        w.files = db->files;
        w.n_files = n;
        bool ok = w_emit(&w, HS_SEC_HEAD, SNAP_HDR_BYTES, 4096, &hdr) &&
                  w_emit(&w, HS_SEC_HEAD, (n ? n : 1) * SNAP_SLOT, 4096, &w.slots) &&
                  w_emit(&w, HS_SEC_HEAD, (n ? n : 1) * sizeof(snap_file), 16, &files) &&
                  w_emit(&w, HS_SEC_HEAD, (L.n_dirs ? L.n_dirs : 1) * sizeof(snap_file), 16, &dirs);
        /* relative names are copied raw (not through w_str), so a name
         * never turns into a path slot */
        for (size_t i = 0; ok && i < n + L.n_dirs; i++) {
            const hw_file_meta *e = i < n ? &fm[i] : &L.dirs[i - n];
            snap_file sf = {0, e->size, e->mtime_s, e->mtime_ns};
            const char *rel = rel_of(e->path, L.prefix);
            size_t rl = strlen(rel) + 1;
            ok = w_emit(&w, HS_SEC_HEAD, rl, 1, &sf.rel);   /* head tags are file offsets */
            if (ok) {
                memcpy(w_at(&w, sf.rel), rel, rl);
                memcpy(w_at(&w, i < n ? files + i * sizeof sf : dirs + (i - n) * sizeof sf), &sf, sizeof sf);
            }
        }
        ok = ok && w_array(&w, HT_HWDB, db, 1, &root) && w_resolve(&w) && w_layout(&w, &h);
        if (!ok) st = w.st;
    }
    if (!st) {
        memcpy(h.magic, SNAP_MAGIC, 8);
        h.format = SNAP_FORMAT;
        h.abi = abi_hash();
        h.base = SNAP_BASE;
        h.length = w.len;
        h.root = w.base[TAG_SEC(root)] + TAG_OFF(root);
        h.slots = w.slots;
        h.files = files;
        h.n_files = n;
        h.dirs = dirs;
        h.n_dirs = L.n_dirs;
        snprintf(h.version, sizeof h.version, "%s", JC_VERSION);
        h.checksum = 0;
        memcpy(w.img + hdr, &h, sizeof h);
        h.checksum = hs_image_checksum(w.img, w.len);
        memcpy(w.img + hdr, &h, sizeof h);
        st = write_file(&w, target, diag);
    }
    for (int k = 0; k < HS_NSEC; k++) free(w.sec[k].buf);
    free(w.img);
    free(w.p);
    free(w.s);
    free(w.r);
    free(w.fix);
    jc_hwdb_free(db);
    jci_arena_free(s);
    free(target);
    return st;
}

/* ---- reader -------------------------------------------------------------------------- */

/* Every pointer, offset and count of an image is checked on every open
 * path (mapped in place or relocated) before any of it is used, so a forged
 * file is refused, never followed.  The layout makes each check a bounds
 * check: the writer puts the records of each type in a section of their
 * own, every list of strings in one section and every string in another
 * (the last, ending with a NUL), so that one linear pass over the sections
 * checks each pointer field of each record once:
 *   - a record pointer (an owned array, a single record, a borrowed
 *     reference) aims at a record boundary of its type's section, with
 *     its count of records inside the section; a NULL array has count 0;
 *   - a string aims inside the string section, whose last byte is a NUL,
 *     or at the start of a path slot (written at open, checked to fit);
 *     a list of strings aims inside the lists' section, and each of its
 *     words is a string pointer or NULL;
 *   - a field stored as NULL is NULL; an enum field of a record with a
 *     field table is one of its names;
 *   - a name of a namespace refers to an entry of its kinds within that
 *     kind's count, and each stored name map (its slots under its own key,
 *     drawn at random when the snapshot was written) has a power-of-two
 *     capacity and values that are indexes of its names.
 * The header's section table, path slots and file tables are checked by
 * hdr_problem (inside the file, in order, apart).  Sections hold nothing
 * but their records, so whatever a pointer aims at is a whole record of
 * its type whose own pointers are checked too; the pass is linear in the
 * file's size whatever the pointers say (records may be shared: the
 * database is read-only once open).  The checksum only catches accidental
 * corruption; these checks are what make a crafted file harmless. */

/* A pointer field of a record type, the fields of its embedded records
 * flattened in (off from the record's start), and an enum field (off, its
 * number of names).  Filled once (v_tables_init); sizes are static data
 * (abort when too small: a build-time bug every snapshot test meets). */
typedef struct vfield { unsigned char kind, type; unsigned off, count_off; } vfield;
typedef struct venum { unsigned off; int n; } venum;

static vfield vf[16384];
static venum ve[2048];
static size_t vf_at[HT_COUNT + 1], ve_at[HT_COUNT + 1], n_vf, n_ve;
static pthread_once_t vtab_once = PTHREAD_ONCE_INIT;

static void v_flatten(int type, unsigned base)
{
    const hs_type *types = hs_types();
    const jci_hwkind *k = jci_hwdb_kind_of(type);
    for (size_t i = 0; k && i < k->n; i++) {
        const jci_hwfield *f = &k->fields[i];
        if (f->type != HF_T_ENUM) continue;
        int n = 0;
        while (f->names[n]) n++;
        if (n_ve == sizeof ve / sizeof ve[0]) abort();
        ve[n_ve++] = (venum){base + (unsigned)f->off, n};
    }
    for (const hs_field *f = types[type].fields; f->kind; f++) {
        if (f->kind == HS_EMB) {
            for (unsigned j = 0; j < f->n; j++) v_flatten(f->type, base + f->off + j * (unsigned)types[f->type].size);
            continue;
        }
        if (n_vf == sizeof vf / sizeof vf[0]) abort();
        vf[n_vf++] = (vfield){f->kind, f->type, base + f->off, base + f->count_off};
    }
}

static void v_tables_init(void)
{
    for (int t = 0; t < HT_COUNT; t++) {
        vf_at[t] = n_vf;
        ve_at[t] = n_ve;
        v_flatten(t, 0);
    }
    vf_at[HT_COUNT] = n_vf;
    ve_at[HT_COUNT] = n_ve;
}

typedef struct V {
    unsigned char *buf;
    bool reloc;                           /* a heap copy: pointers are rebased */
    uint64_t lo[HS_NSEC], hi[HS_NSEC];    /* each section's bytes */
    uint64_t slots, n_slots;              /* path slots: a string may start at one */
} V;

/* The pointer at `at`: NULL, or the image address of n records of sz
 * bytes at a record boundary of section sec (sec HS_SEC_STR: a string
 * anywhere in the string section, or at a path slot); rebased in place
 * when relocated.  *o: its offset in the image (0: NULL). */
static inline bool v_ptr(const V *v, unsigned char *at, int sec, uint64_t sz, uint64_t n, uint64_t *o)
{
    uint64_t p;
    memcpy(&p, at, sizeof p);
    *o = 0;
    if (!p) return true;
    uint64_t x = p - SNAP_BASE;   /* below the base wraps past every section */
    if (sec == HS_SEC_STR) {
        bool slot = x >= v->slots && x - v->slots < v->n_slots * SNAP_SLOT && (x - v->slots) % SNAP_SLOT == 0;
        if (!slot && (x < v->lo[sec] || x >= v->hi[sec])) return false;
    } else if (x < v->lo[sec] || x >= v->hi[sec] || (x - v->lo[sec]) % sz || n > (v->hi[sec] - x) / sz) {
        return false;
    }
    *o = x;
    if (v->reloc) {
        unsigned char *q = v->buf + x;
        memcpy(at, &q, sizeof q);
    }
    return true;
}

/* One record of `type`: its enums within their names, each pointer field
 * (embedded records' included) as v_ptr wants it. */
static bool v_record(const V *v, int type, unsigned char *rec)
{
    const hs_type *types = hs_types();
    for (size_t i = ve_at[type]; i < ve_at[type + 1]; i++) {
        int e;
        memcpy(&e, rec + ve[i].off, sizeof e);
        if (e < 0 || e >= ve[i].n) return false;
    }
    for (size_t i = vf_at[type]; i < vf_at[type + 1]; i++) {
        const vfield *f = &vf[i];
        unsigned char *at = rec + f->off;
        uint64_t o, c = 1;
        bool ok = true;
        memcpy(&o, at, sizeof o);
        if (!o) {   /* most fields: NULL is right unless a count says otherwise */
            if (f->kind == HS_ONE || ((f->kind == HS_ARR || f->kind == HS_STRS) && rd_count(rec, f->count_off)))
                return false;
            continue;
        }
        switch (f->kind) {
        case HS_STR: ok = v_ptr(v, at, HS_SEC_STR, 1, 1, &o); break;
        case HS_STRS:
            c = rd_count(rec, f->count_off);
            ok = v_ptr(v, at, HS_SEC_STRS, 8, c ? c : 1, &o) && (o || !c);
            break;
        case HS_ARR:
            c = rd_count(rec, f->count_off);
            ok = v_ptr(v, at, hs_type_sec(f->type), types[f->type].size, c ? c : 1, &o) && (o || !c);
            break;
        case HS_ONE: ok = v_ptr(v, at, hs_type_sec(f->type), types[f->type].size, 1, &o) && o; break;
        case HS_REF: ok = v_ptr(v, at, hs_type_sec(f->type), types[f->type].size, 1, &o); break;
        case HS_NULL: ok = rd_ptr(rec, f->off) == NULL; break;
        }
        if (!ok) return false;
    }
    return true;
}

/* The names of each namespace refer to entries of their kinds within
 * their counts; its stored map has a power-of-two capacity and values
 * that index its names. */
static bool v_names(const jc_hwdb *db)
{
    const hw_internal *in = db->internal_;
    for (int k = 0; k < HF_K_COUNT; k++) {
        const jci_hwkind *kd = jci_hwdb_kind(k);
        bool seen = false;
        for (int j = 0; kd->ns && j < k; j++) seen |= jci_hwdb_kind(j)->ns && jci_hwdb_kind(j)->ns_off == kd->ns_off;
        if (!kd->ns || seen) continue;   /* a namespace of two kinds: checked once */
        const hw_ns *ns = (const hw_ns *)((const unsigned char *)in + kd->ns_off);
        for (size_t i = 0; i < ns->n; i++) {
            const hw_name *nm = &ns->names[i];
            const jci_hwkind *nk = jci_hwdb_kind_ns(nm->kind);
            size_t count;
            if (!nk || nk->ns_off != kd->ns_off || !nm->lower || nm->idx < 0) return false;
            memcpy(&count, (const unsigned char *)db + nk->db_n_off, sizeof count);
            if ((size_t)nm->idx >= count) return false;
        }
        const jci_strmap *m = &ns->map;
        if (m->cap & (m->cap - 1) || m->len > m->cap) return false;
        /* no larger than hw_smap_put grows it for its keys (a power of two
         * >= 4 len + 34), and exactly len keys: a forged capacity that still
         * fits its sections is refused, not probed past its arrays */
        size_t most = 8;
        while (most < 4 * m->len + 34) most <<= 1;
        if (m->cap > most) return false;
        size_t keys = 0;
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->keys[i]) continue;
            keys++;
            if (m->vals[i] < 0 || (size_t)m->vals[i] >= ns->n) return false;
        }
        if (keys != m->len) return false;
    }
    return true;
}

/* Checks (and, relocated, rebases) the whole image of header h (its
 * header checked by hdr_problem): the file tables' names, every record of
 * every section, every list of strings, then the namespaces. */
static bool v_image(unsigned char *buf, bool reloc, const snap_hdr *h)
{
    const hs_type *types = hs_types();
    pthread_once(&vtab_once, v_tables_init);
    V v = {.buf = buf, .reloc = reloc, .slots = h->slots, .n_slots = h->n_files};
    for (int s = 0; s < HS_NSEC; s++) {
        v.lo[s] = h->sec_off[s];
        v.hi[s] = h->sec_off[s] + h->sec_len[s];
    }
    /* the relative names the open copies into the slots: in the head,
     * outside the slots, NUL-ended there */
    uint64_t head = v.hi[HS_SEC_HEAD];
    for (uint64_t i = 0; i < h->n_files + h->n_dirs; i++) {
        snap_file sf;
        memcpy(&sf, buf + (i < h->n_files ? h->files + i * sizeof sf : h->dirs + (i - h->n_files) * sizeof sf),
               sizeof sf);
        uint64_t end = sf.rel < h->slots ? h->slots : head;   /* never into a slot */
        bool in_slots = sf.rel >= h->slots && sf.rel < h->slots + (h->n_files ? h->n_files : 1) * SNAP_SLOT;
        if (sf.rel < SNAP_HDR_BYTES || sf.rel >= head || in_slots || !memchr(buf + sf.rel, 0, end - sf.rel))
            return false;
    }
    if (v.hi[HS_SEC_STR] > v.lo[HS_SEC_STR] && buf[v.hi[HS_SEC_STR] - 1]) return false;
    for (int t = 0; t < HT_COUNT; t++) {
        int s = hs_type_sec(t);
        for (uint64_t o = v.lo[s]; o < v.hi[s]; o += types[t].size)
            if (!v_record(&v, t, buf + o)) return false;
    }
    for (uint64_t o = v.lo[HS_SEC_STRS], x; o < v.hi[HS_SEC_STRS]; o += 8)
        if (!v_ptr(&v, buf + o, HS_SEC_STR, 1, 1, &x)) return false;
    return v_names((const jc_hwdb *)(buf + h->root));
}

/* [off, off + n) inside [lo, hi). */
static bool inside(uint64_t off, uint64_t n, uint64_t lo, uint64_t hi)
{
    return off >= lo && off <= hi && n <= hi - off;
}

/* The header's tables: the section table in file order, inside the file,
 * each a whole number of its records (the root the only jc_hwdb); the
 * path slots and file tables inside the head, apart. */
static bool hdr_tables_ok(const snap_hdr *h)
{
    const hs_type *types = hs_types();
    if (h->sec_off[HS_SEC_HEAD] != 0 || h->sec_len[HS_SEC_HEAD] < SNAP_HDR_BYTES ||
        h->sec_len[HS_SEC_HEAD] > h->length)
        return false;
    for (int s = 1; s < HS_NSEC; s++)
        if (h->sec_off[s] % 64 || h->sec_off[s] < h->sec_off[s - 1] + h->sec_len[s - 1] ||
            !inside(h->sec_off[s], h->sec_len[s], 0, h->length))
            return false;
    for (int t = 0; t < HT_COUNT; t++)
        if (h->sec_len[hs_type_sec(t)] % types[t].size) return false;
    if (h->sec_len[HS_SEC_STRS] % 8 || h->sec_len[hs_type_sec(HT_HWDB)] != sizeof(jc_hwdb) ||
        h->root != h->sec_off[hs_type_sec(HT_HWDB)])
        return false;
    uint64_t head = h->sec_len[HS_SEC_HEAD], nf = h->n_files ? h->n_files : 1, nd = h->n_dirs ? h->n_dirs : 1;
    uint64_t at[3] = {h->slots, h->files, h->dirs}, n[3] = {nf * SNAP_SLOT, nf * sizeof(snap_file), nd * sizeof(snap_file)};
    for (int i = 0; i < 3; i++) {
        if (!inside(at[i], n[i], SNAP_HDR_BYTES, head)) return false;
        for (int j = 0; j < i; j++)
            if (at[i] < at[j] + n[j] && at[j] < at[i] + n[i]) return false;
    }
    return true;
}

/* Validates a header against a file of `size` bytes. */
static const char *hdr_problem(const snap_hdr *h, uint64_t size)
{
    if (memcmp(h->magic, SNAP_MAGIC, 8)) return "not a joulecast hwdb snapshot";
    if (h->format != SNAP_FORMAT || h->abi != abi_hash())
        return "written by a different build of joulecast (record layout differs)";
    if (h->base != SNAP_BASE) return "laid out for another address";
    if (h->length != size) return "truncated or padded (length differs from the header)";
    if (h->length < SNAP_HDR_BYTES || h->length > SNAP_MAX_BYTES) return "absurd length";
    if (h->n_files > SNAP_MAX_FILES || h->n_dirs > SNAP_MAX_FILES || !hdr_tables_ok(h)) return "corrupt header";
    return NULL;
}

/* Compares the recorded folders and files with the folder's: every
 * recorded folder unchanged (no entry added, removed or renamed: its
 * modification time), every recorded file of the same size and
 * modification time.  Looks up only the recorded names, relative to the
 * folder; no directory is read.  NULL when fresh, else what differs (in
 * buf).  *clean_len: the folder's length without trailing slashes. */
static const char *stale(const unsigned char *img, const snap_hdr *h, const char *dir,
                         size_t *clean_len, char *buf, size_t cap)
{
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/') len--;
    *clean_len = len;
    int dfd = -1;
    if (h->n_dirs) {
        char clean[4096];
        if (len >= sizeof clean) return snprintf(buf, cap, "path too long"), buf;
        memcpy(clean, dir, len);
        clean[len] = 0;
        dfd = open(clean, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd < 0) return snprintf(buf, cap, "%s: %s", dir, strerror(errno)), buf;
    } else if (h->n_files != 1) {
        return snprintf(buf, cap, "corrupt file table"), buf;
    }
    const char *why = NULL;
    for (uint64_t i = 0; !why && i < h->n_dirs + h->n_files; i++) {
        bool is_dir = i < h->n_dirs;
        snap_file sf;
        memcpy(&sf, img + (is_dir ? h->dirs + i * sizeof sf : h->files + (i - h->n_dirs) * sizeof sf),
               sizeof sf);
        if (sf.rel >= h->length || !memchr(img + sf.rel, 0, h->length - sf.rel)) {
            why = "corrupt file table";
            break;
        }
        const char *rel = (const char *)img + sf.rel;
        struct stat sb;
        int r = dfd >= 0 ? fstatat(dfd, *rel ? rel : ".", &sb, 0) : stat(dir, &sb);
        bool same = r == 0 && (is_dir ? S_ISDIR(sb.st_mode) : S_ISREG(sb.st_mode)) &&
                    (is_dir || (int64_t)sb.st_size == sf.size) &&
                    (int64_t)sb.st_mtim.tv_sec == sf.mtime_s &&
                    (int64_t)sb.st_mtim.tv_nsec == sf.mtime_ns;
        if (!same) {
            snprintf(buf, cap, is_dir ? "%.*s%s%s: an entry was added, removed or renamed"
                                      : "%.*s%s%s changed since the snapshot was written",
                     (int)len, dir, *rel ? "/" : "", rel);
            if (dfd < 0) snprintf(buf, cap, "%s changed since the snapshot was written", dir);
            why = buf;
        } else if (!is_dir && (dfd >= 0 ? len + 1 + strlen(rel) : strlen(dir)) >= SNAP_SLOT) {
            snprintf(buf, cap, "%.*s/%s: path too long for a snapshot (%u bytes or more)",
                     (int)len, dir, rel, SNAP_SLOT);
            why = buf;
        }
    }
    if (dfd >= 0) close(dfd);
    return why;
}

jc_status jc_hwdb_snapshot_open(const char *path, const char *bundled_dir, unsigned flags,
                                jc_hwdb **out, jc_diag *diag)
{
    jc_diag local;
    if (!diag) diag = &local;
    jci_diag_clear(diag);
    if (!out) return jci_diag_set(diag, JC_ERR_USAGE, "jc_hwdb_snapshot_open: out is NULL");
    *out = NULL;
    if (!path || !bundled_dir)
        return jci_diag_set(diag, JC_ERR_USAGE, "jc_hwdb_snapshot_open: a path and a folder are needed");
    if (sizeof(void *) != 8 || sizeof(size_t) != 8)
        return jci_diag_at(diag, JC_ERR_NOTFOUND, path, -1, "hwdb snapshots need a 64-bit build");
    /* O_NONBLOCK: opening a FIFO (or a device) must not wait for a
     * writer before the regular-file check below refuses it */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return jci_diag_at(diag, JC_ERR_IO, path, -1, "cannot open the snapshot: %s", strerror(errno));
    struct stat fsb;
    snap_hdr h;
    const char *why = NULL;
    if (fstat(fd, &fsb) != 0 || !S_ISREG(fsb.st_mode)) why = "not a regular file";
    else if (pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h) why = "shorter than its header";
    else why = hdr_problem(&h, (uint64_t)fsb.st_size);
    if (why) {
        close(fd);
        return jci_diag_at(diag, JC_ERR_HWDB, path, -1, "%s", why);
    }

    /* map in place, else read and relocate */
    unsigned char *img = NULL, *heap = NULL;
    if (!(flags & JCI_SNAPSHOT_RELOCATE)) {
        int mflags = MAP_PRIVATE;
#ifdef MAP_FIXED_NOREPLACE
        mflags |= MAP_FIXED_NOREPLACE;
#endif
        void *want = (void *)(uintptr_t)SNAP_BASE;
        void *m = mmap(want, (size_t)h.length, PROT_READ | PROT_WRITE, mflags, fd, 0);
        if (m != MAP_FAILED && m != want) munmap(m, (size_t)h.length);
        else if (m == want) img = m;
    }
    jc_status st = JC_OK;
    if (!img) {
        heap = malloc((size_t)h.length);
        if (!heap) st = jci_diag_set(diag, JC_ERR_NOMEM, "out of memory");
        size_t got = 0;
        while (!st && got < h.length) {
            ssize_t k = pread(fd, heap + got, (size_t)h.length - got, (off_t)got);
            if (k <= 0) {
                st = jci_diag_at(diag, JC_ERR_IO, path, -1, "cannot read the snapshot: %s",
                                k < 0 ? strerror(errno) : "unexpected end of file");
                break;
            }
            got += (size_t)k;
        }
        uintptr_t hb = (uintptr_t)heap;
        if (!st && ((uint64_t)hb < SNAP_BASE + h.length && SNAP_BASE < (uint64_t)hb + h.length))
            st = jci_diag_at(diag, JC_ERR_HWDB, path, -1, "cannot relocate the snapshot");
        img = heap;
    }
    close(fd);
    /* every open path, the mapped one too: one flipped bit anywhere in
     * the file is refused before any of it is used */
    if (!st && img && hs_image_checksum(img, h.length) != h.checksum)
        st = jci_diag_at(diag, JC_ERR_HWDB, path, -1, "corrupt (checksum mismatch over the whole file)");

    char why_buf[4200];
    size_t clean_len = 0;
    if (!st && !(flags & JCI_SNAPSHOT_ANY_FOLDER) &&
        stale(img, &h, bundled_dir, &clean_len, why_buf, sizeof why_buf))
        st = jci_diag_at(diag, JC_ERR_NOTFOUND, path, -1, "stale for %s: %s", bundled_dir, why_buf);
    if (!st && !v_image(img, heap != NULL, &h))   /* every path, the mapped one too */
        st = jci_diag_at(diag, JC_ERR_HWDB, path, -1,
                        "corrupt (a pointer, count or string outside its section, or a name of no entry)");
    /* "<folder>/<rel>" fits its slot (stale() checks it too; not when skipped) */
    clean_len = strlen(bundled_dir);
    while (clean_len > 1 && bundled_dir[clean_len - 1] == '/') clean_len--;
    for (uint64_t i = 0; !st && i < h.n_files; i++) {
        snap_file sf;
        memcpy(&sf, img + h.files + i * sizeof sf, sizeof sf);
        size_t need = h.n_dirs ? clean_len + 1 + strlen((const char *)img + sf.rel) : strlen(bundled_dir);
        if (need >= SNAP_SLOT)
            st = jci_diag_at(diag, JC_ERR_NOTFOUND, path, -1, "stale for %s: path too long for a snapshot "
                             "(%u bytes or more)", bundled_dir, SNAP_SLOT);
    }
    if (!st) {
        for (uint64_t i = 0; i < h.n_files; i++) {
            char *slot = (char *)img + h.slots + i * SNAP_SLOT;
            snap_file sf;
            memcpy(&sf, img + h.files + i * sizeof sf, sizeof sf);
            /* lengths checked above: "<folder>/<rel>" fits the slot */
            if (h.n_dirs) {
                const char *rel = (const char *)img + sf.rel;
                memcpy(slot, bundled_dir, clean_len);
                slot[clean_len] = '/';
                memmove(slot + clean_len + 1, rel, strlen(rel) + 1);
            } else {
                memcpy(slot, bundled_dir, strlen(bundled_dir) + 1);
            }
        }
        jc_hwdb *db = (jc_hwdb *)(img + h.root);
        hw_internal *in = db->internal_;
        in->arena = NULL;   /* nothing allocated: the maps are the file's */
        if (heap) in->snap_buf = heap;
        else {
            in->snap_map = img;
            in->snap_len = (size_t)h.length;
        }
        *out = db;
    } else if (heap) {
        free(heap);
    } else if (img) {
        munmap(img, (size_t)h.length);
    }
    return st;
}

int jc_hwdb_from_snapshot(const jc_hwdb *db)
{
    if (!db) return 0;
    const hw_internal *in = db->internal_;
    return in->snap_map ? 2 : in->snap_buf ? 1 : 0;
}
