/*
 * jc_internal.h (base) - helpers shared by every stage of libjoulecast: the arena
 * allocator, diagnostics, checked 64-bit arithmetic and a string hash map.
 * Not installed; clients use include/joulecast.h only.
 */
#ifndef JCI_INTERNAL_H
#define JCI_INTERNAL_H

/* the public base (jc_status, jc_diag, jc_range ...); a file includes
 * the other include/joulecast/ headers it uses itself, so that a change to
 * one rebuilds only the stages that use it (lint/public-header) */
#include "joulecast/base.h"

/* the later stages' types the declarations below name (C11 allows the
 * typedef again where a file includes their header too) */
typedef struct jc_analysis jc_analysis;
typedef struct jc_arch jc_arch;
typedef struct jc_device jc_device;
typedef struct jc_estimate jc_estimate;
typedef struct jc_hwdb jc_hwdb;
typedef struct jc_job jc_job;
typedef struct jc_sourced jc_sourced;

#include <stdarg.h>
#include <stdbool.h>

/* Values the loader keeps for small tensors (jc_value.n_vals): int64,
 * int32 and bool tensors of <= JCI_SMALL_TENSOR elements, other integer and
 * floating tensors of <= JCI_SMALL_VALUES elements.  The public header
 * states the same numbers; jc_value_binding.n is at most JCI_SMALL_TENSOR. */
#define JCI_SMALL_TENSOR JC_VALUE_BINDING_MAX   /* 4096 */
#define JCI_SMALL_VALUES 64

/* ---- units: the conversions, named once --------------------------------- */

#define JCI_S_PER_H 3600.0                  /* seconds in an hour */
#define JCI_J_PER_KWH (1e3 * JCI_S_PER_H)   /* joules in a kilowatt-hour: 3.6e6 */

/* ---- ranges: the three scenarios of an estimate ---------------------- */

/* The scenarios an estimate computes: every ranged parameter at the end
 * that lowers the result (time, energy), the central values, the end that
 * raises it. */
enum { SC_LOW = 0, SC_CENTRAL = 1, SC_HIGH = 2 };

/* How a ranged parameter moves the result as it grows: JCI_RAISES (idle
 * power, PUE, launch time: a larger value, more time or energy) or
 * JCI_LOWERS (utilisation, bandwidth, efficiency). */
typedef enum { JCI_LOWERS = 0, JCI_RAISES = 1 } jci_sense;

/* The value of r that scenario sc (SC_*) takes: r.central for SC_CENTRAL;
 * for SC_HIGH the end that raises the result (r.high of a JCI_RAISES
 * parameter, r.low of a JCI_LOWERS one), for SC_LOW the other end.  The
 * one low/central/high picker of the library. */
static inline double jci_pick(jc_range r, int sc, jci_sense sense)
{
    if (sc == SC_CENTRAL) return r.central;
    return (sc == SC_HIGH) == (sense == JCI_RAISES) ? r.high : r.low;
}

/* ---- arena: one per loaded object, freed with one call ---------------- */

typedef struct jci_arena jci_arena;

/* Creates an empty arena; NULL on out-of-memory. */
jci_arena *jci_arena_new(void);
/* Frees the arena and every allocation made from it.  NULL is a no-op. */
void jci_arena_free(jci_arena *a);
/* Zeroed allocation of n bytes, 16-byte aligned; NULL on out-of-memory or
 * when n is absurd (> 1 GiB per call). */
void *jci_arena_alloc(jci_arena *a, size_t n);
/* Zeroed array of count elements of size bytes with an overflow check. */
void *jci_arena_calloc(jci_arena *a, size_t count, size_t size);
/* NUL-terminated copy of s[0..len). */
char *jci_arena_strndup(jci_arena *a, const char *s, size_t len);
char *jci_arena_strdup(jci_arena *a, const char *s);
/* printf into the arena: the whole text, never cut.  NULL on
 * out-of-memory (or an encoding error of fmt). */
char *jci_arena_printf(jci_arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
char *jci_arena_vprintf(jci_arena *a, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/* Room for element n of a malloc'ed array p of *cap elements of size
 * bytes: p itself while n < *cap, else p realloc'ed to twice the capacity
 * (at least 32) with *cap updated.  NULL on out-of-memory (p is then
 * unchanged and still owned by the caller). */
void *jci_grow(void *p, size_t *cap, size_t n, size_t size);

/* An empty architecture (jc_arch, zeroed) in a new arena *ar_out that
 * jc_arch_free releases (src/analysis/hfconfig.c); NULL on out-of-memory. */
jc_arch *jci_arch_new(jci_arena **ar_out);

/* ---- dtypes (src/base/dtype.c) --------------------------------------------- */

/* The one rule of which dtypes hold floating-point numbers: float32,
 * float64, float16, bfloat16, the float8 kinds and float4e2m1 (1 when dt
 * is one, else 0). */
int jci_dtype_is_float(int dt);

/* ---- diagnostics -------------------------------------------------------- */

/* Fills d (if non-NULL) with status st and a printf-style message, and
 * returns st.  The location fields are reset; set them with the helpers
 * below before or after (jci_diag_set keeps the message prefix logic in
 * one place: msg is "<file>: <text>" when a file is known). */
jc_status jci_diag_set(jc_diag *d, jc_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same with an explicit file and byte offset: "<file>: byte <off>: …". */
jc_status jci_diag_at(jc_diag *d, jc_status st, const char *file, int64_t off,
                     const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* The same with a YAML position: "<file>:<line>:<col>: …". */
jc_status jci_diag_yaml(jc_diag *d, jc_status st, const char *file, int line,
                       int col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* The same naming a node: "node '<name>' (<op>): …". */
jc_status jci_diag_node(jc_diag *d, jc_status st, const char *node_name,
                       const char *op_type, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Clears d to JC_OK and empty fields. */
void jci_diag_clear(jc_diag *d);

/* ---- reading a stream ---------------------------------------------------- */

typedef enum jci_read_result {
    JCI_READ_OK = 0,
    JCI_READ_TOO_BIG,   /* more than max bytes */
    JCI_READ_NOMEM,
    JCI_READ_IO         /* ferror */
} jci_read_result;

/* Reads f to its end into *out (malloc'ed, NUL-terminated, *len bytes
 * before the NUL; the caller frees it).  Refuses a stream of more than max
 * bytes.  On failure *out is NULL; the caller words the message. */
jci_read_result jci_read_stream(FILE *f, size_t max, char **out, size_t *len);
/* JC_ERR_USAGE naming option `opt` when the output file `out` is one of
 * inputs[0..n) or of db's loaded files (db may be NULL): writing it would
 * replace a file the run reads (jc_same_file: device and inode). */
jc_status jci_output_not_input(const char *out, const char *opt, const char *const *inputs, size_t n,
                               const jc_hwdb *db, jc_diag *d);

/* The file at path read whole by jci_read_stream (max bytes at most),
 * with the messages worded once: JC_ERR_IO "PATH: cannot open: ..." or
 * "PATH: read error", JC_ERR_USAGE "PATH: larger than N MiB" followed by
 * `too_big` (e.g. ": not an estimate"; "" for nothing), JC_ERR_NOMEM.
 * *out as jci_read_stream's. */
jc_status jci_read_file(const char *path, size_t max, const char *too_big, char **out, size_t *len, jc_diag *d);

/* ---- checked arithmetic ------------------------------------------------- */

/* r = a*b / a+b for non-negative operands; false on overflow (r untouched). */
static inline bool jci_mul_ok(int64_t a, int64_t b, int64_t *r)
{
    int64_t t;
    if (__builtin_mul_overflow(a, b, &t)) return false;
    *r = t;
    return true;
}
static inline bool jci_add_ok(int64_t a, int64_t b, int64_t *r)
{
    int64_t t;
    if (__builtin_add_overflow(a, b, &t)) return false;
    *r = t;
    return true;
}

/* ---- string -> int32 hash map (open addressing, arena-backed) ----------- */

typedef struct jci_strmap {
    const char **keys;
    int32_t *vals;
    size_t cap;   /* power of two, 0 when empty */
    size_t len;
    uint64_t seed[2];   /* the SipHash key of the slots (jci_strmap_init) */
} jci_strmap;

/* Prepares a map for up to n keys (keeps load <= 1/2), keyed with the
 * process's random hash key (strmap.c: crafted names do not collide).
 * false on OOM. */
bool jci_strmap_init(jci_strmap *m, jci_arena *a, size_t n);
/* Returns the value of key, or -1.  Keys are compared with strcmp; a
 * lookup probes at most cap slots (a full map from a forged file ends). */
int32_t jci_strmap_get(const jci_strmap *m, const char *key);
/* Inserts key (borrowed: must outlive the map) -> val; if the key is
 * present, leaves it and returns its value, else returns -1.  The map
 * must have room (jci_strmap_init with the final count): -2 when not. */
int32_t jci_strmap_put(jci_strmap *m, const char *key, int32_t val);
/* The longest probe sequence of any key in m (1: every key in its home
 * slot): the figure tests/unit/test_strmap.c bounds for crafted names. */
size_t jci_strmap_max_probe(const jci_strmap *m);

/* SipHash-1-3 of n bytes under a 128-bit key. */
uint64_t jci_siphash(const uint64_t key[2], const void *data, size_t n);
/* SipHash-1-3 of s under the process's random key: a hash for tables
 * within one process, never stored or compared across processes. */
uint64_t jci_hash_str(const char *s);

/* ASCII case-insensitive comparison, independent of the locale. */
int jci_strcasecmp(const char *a, const char *b);

/* Physical plausibility of a result (issue 43 item 10), one rule for the
 * estimate that refuses such a figure and for diff, which reads one: a
 * wall time of at most a century, a facility energy of at most 1e13 kWh
 * (above any country's yearly electricity use: China's, the largest,
 * about 9,400 TWh in 2023, Ember Global Electricity Review 2024). */
#define JCI_PLAUSIBLE_WALL_H (100 * 8766.0)
#define JCI_PLAUSIBLE_KWH 1e13

/* The one calendar-date rule (hwdb sources, measurement files, --date):
 * the n characters of s are "YYYY", "YYYY-MM" or "YYYY-MM-DD" (n 4, 7
 * or 10) with a year in 1800-2100 (an hwdb source's year range), a month
 * 1-12 and a day that its month has (leap years counted).  True, with
 * the year in *year (may be NULL); false when not. */
bool jci_date_valid(const char *s, size_t n, int *year);
/* The date YYYY-MM-DD that s starts with ("2024-05-31T10:39:13" gives
 * "2024-05-31") into dst (at least 11 bytes); "" when s does not start
 * with a valid date (jci_date_valid: "9999-99-99" and "2024-02-30" are
 * not). */
void jci_date_ymd(char *dst, const char *s);

/* Levenshtein distance between a and b, case-insensitive, capped at cap
 * (returns cap when the distance is at least cap).  "did you mean" goes
 * through jci_suggest_* below, which holds the one cap rule. */
int jci_edit_distance(const char *a, const char *b, int cap);

/* ---- "did you mean" (src/base/suggest.c): one rule for every lookup ---- */

/* How close name is to what was typed (want), lower = closer, or -1 when
 * it is not worth suggesting.  The rule: an edit distance (ASCII case
 * folded) of at most 1 for up to 3 typed characters, 2 for up to 5, then
 * a third of the length plus one, at most 4; a name that the typed text
 * starts a word of, or that holds it (or is held in it), also counts. */
int jci_suggest_rank(const char *want, const char *name);

#define JCI_SUGGEST_MAX 3
/* The closest names seen so far, best first (equal ranks: the smaller
 * edit distance, then the name, case folded). */
typedef struct jci_suggest {
    const char *want;
    size_t max, n;                       /* at most max (1..JCI_SUGGEST_MAX) */
    const char *name[JCI_SUGGEST_MAX];   /* borrowed from the caller */
    const void *key[JCI_SUGGEST_MAX];
    int rank[JCI_SUGGEST_MAX], dist[JCI_SUGGEST_MAX];
} jci_suggest;
/* Starts a list of at most max suggestions for want (borrowed). */
void jci_suggest_init(jci_suggest *s, const char *want, size_t max);
/* Offers a known name (borrowed: it must outlive s).  key names the
 * entity it belongs to (NULL: the name itself): of several names of one
 * entity (an id and its aliases) only the closest is kept. */
void jci_suggest_add(jci_suggest *s, const char *name, const void *key);
/* The closest name, or NULL when none is close. */
const char *jci_suggest_best(const jci_suggest *s);
/* Writes the names as "a, b, c", each between quote and quote ("" or
 * "'"), into buf (capacity cap; "" when none; a name that does not fit
 * is left out). */
void jci_suggest_list(const jci_suggest *s, const char *quote, char *buf, size_t cap);

/* ---- SHA-256 (src/base/sha256.c): the model identity of a request ---- */

typedef struct jci_sha256 {
    uint32_t h[8];
    uint64_t len;
    unsigned char buf[64];
    size_t n;
} jci_sha256;
void jci_sha256_init(jci_sha256 *s);
void jci_sha256_update(jci_sha256 *s, const void *data, size_t len);
/* Finishes the digest into 64 lower-case hex digits + NUL. */
void jci_sha256_hex(jci_sha256 *s, char out[65]);
/* The digest of a file's bytes.  JC_ERR_IO (named) when it cannot be read. */
jc_status jci_sha256_file(const char *path, char out[65], jc_diag *d);

/* Writes s (NULL: "") as a YAML double-quoted scalar: " and \ escaped
 * with a backslash, control bytes as \xHH. */
void jci_yaml_quote(FILE *f, const char *s);
/* Writes s as one CSV field (RFC 4180): quoted, with quotes doubled, when
 * it holds a comma, a quote, CR or LF, or always when `always`.  NULL
 * writes nothing (an empty field). */
void jci_csv_field(FILE *f, const char *s, bool always);
/* true when the CSV cell s would run as a spreadsheet formula and the
 * calling thread keeps the guard on (jc_csv_raw): jci_csv_field then
 * writes it with a leading "'" (src/base/safetext.c). */
bool jci_csv_formula(const char *s);
/* s itself when it needs no escape (jc_text_is_safe), else its escaped
 * form (jc_text_escape's rule: newlines too) in arena a; NULL on
 * out-of-memory.  For names read from untrusted files, so that every
 * format shows the same terminal-safe name on one line. */
const char *jci_text_escaped(jci_arena *a, const char *s);

/* Length of the well-formed UTF-8 sequence at p (1..4), or 0 when the
 * bytes there are not one (overlong, surrogate, above U+10FFFF, cut short
 * by a NUL).  p[0] must be readable; reads at most up to the first NUL. */
size_t jci_utf8_len(const unsigned char *p);

/* The dense peak a runtime gets from device d at precision p: its
 * `peak_tflops_acc32` (tensor rate with fp32 accumulate, as PyTorch's
 * autocast and cuBLAS's default compute type run fp16/bf16 GEMMs) where
 * the hwdb gives one, else its `peak_tflops`.  fastest != 0 (an inference
 * engine that times every kernel it may use and keeps the fastest, as
 * TensorRT's builder does with fp16 enabled) takes `peak_tflops`, the
 * reduced-precision-accumulate rate, where the part runs it faster.
 * *acc32 (may be NULL) says which.  Points into d; not present when d
 * publishes neither. */
const jc_sourced *jci_device_peak(const jc_device *d, jc_precision p, int fastest, bool *acc32);

/* ---- estimates of one analysis over a grid (src/estimate/estimate.c) --- */

/* What the estimates of one analysis share across the points of a grid
 * (sweep, calibrate): the runtime's kernel plan (src/estimate/fusion.c),
 * which depends on the analysis, the runtime profile and the precision's
 * element width alone, built once per such combination instead of once
 * per point.  Bound to the analysis it was made for; an estimate of
 * another analysis ignores it.  The analysis must outlive it. */
typedef struct jci_est_share jci_est_share;
/* A share for estimates of an; NULL on out-of-memory. */
jci_est_share *jci_est_share_new(const jc_analysis *an);
/* Releases it (NULL: a no-op).  Estimates made with it stay valid. */
void jci_est_share_free(jci_est_share *sh);
/* jc_estimate_run, with what sh already holds reused (NULL: none);
 * the result is the same byte for byte. */
/* The one rule of which precisions an estimate runs at (src/estimate/
 * checks.c): every jc_precision but fp64 and int4, which no time or energy
 * rule covers.  jci_precision_runs: p is one of them.
 * jci_precision_run_parse: name (any case) into *p, JC_OK, or
 * JC_ERR_USAGE where it is not one of them.  jci_precision_run_list:
 * their names in enum order, space-separated ("fp32 tf32 ... int8"),
 * written into buf (64 bytes hold them); returns buf. */
int jci_precision_runs(jc_precision p);
jc_status jci_precision_run_parse(const char *name, jc_precision *p);
const char *jci_precision_run_list(char *buf, size_t cap);
jc_status jci_estimate_run_shared(const jc_job *job, const jc_analysis *an, const jc_hwdb *db,
                                  jci_est_share *sh, jc_estimate **out, jc_diag *d);

#endif /* JCI_INTERNAL_H */
