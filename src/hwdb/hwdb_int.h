/*
 * hwdb_int.h (hwdb) - what the hwdb stage's files share: the folder listing, the
 * name indexes used for lookups and the snapshot layout.  The located YAML
 * tree it builds on is base/yaml_tree.h.  Not installed; private to
 * src/hwdb/ (tests and benchmarks may include it).
 */
#ifndef JCI_HWDB_INT_H
#define JCI_HWDB_INT_H

#include "base/jc_internal.h"
#include "base/yaml_tree.h"
#include "joulecast/hwdb.h"

/* Folder recursion of the listing (listing.c). */
#define HW_MAX_DIR_DEPTH 16

/* Collects the *.yaml files under `dir` (recursively, hidden entries
 * skipped), sorted by path, into *paths (scratch arena).  A path that is
 * a regular file is returned as the only entry. */
jc_status hw_list_files(jci_arena *scratch, const char *dir,
                        const char ***paths, size_t *n, jc_diag *d);

/* The same listing with each file's size and modification time, and the
 * folders walked (is_dir; the top folder included) with theirs: what a
 * snapshot records to know it is fresh (a folder's modification time
 * changes when an entry is added, removed or renamed in it).  Sorted by
 * path. */
typedef struct hw_file_meta {
    const char *path;
    int64_t size, mtime_s, mtime_ns;
    int is_dir;
} hw_file_meta;
jc_status hw_list_files_meta(jci_arena *scratch, const char *dir, hw_file_meta **files,
                             size_t *n, jc_diag *d);

/* ---- name indexes (case-insensitive ids and aliases) ------------------- */

/* What a name refers to. */
enum { HW_NS_DEVICE = 1, HW_NS_HOST, HW_NS_REGION, HW_NS_PROVIDER,
       HW_NS_CONSTANT, HW_NS_DATASET, HW_NS_GA };

typedef struct hw_name {
    const char *name;          /* as written */
    const char *lower;         /* lower-cased key */
    int kind;                  /* HW_NS_* */
    int32_t idx;               /* index in the db array of that kind */
    int is_alias;
    const char *file;
    int line, col;
} hw_name;

typedef struct hw_ns {
    jci_strmap map;             /* lower -> index in names */
    hw_name *names;
    size_t n, cap;
} hw_ns;

/* Everything behind jc_hwdb.internal_.  A database loaded from YAML owns
 * `arena`; one opened from a snapshot (src/hwdb/snapshot.c) owns either the
 * mapping [snap_map, snap_map + snap_len) or the heap copy snap_buf (its
 * name maps are the file's; arena NULL). */
typedef struct hw_internal {
    jci_arena *arena;
    hw_ns hw;                  /* devices + hosts */
    hw_ns regions, providers, constants, datasets, ga;
    void *snap_map;
    size_t snap_len;
    void *snap_buf;
} hw_internal;

/* Adds a name; returns the existing entry (not added) when the lower-cased
 * name is taken, NULL when added; *oom set on out-of-memory. */
const hw_name *hw_ns_add(jci_arena *a, hw_ns *ns, const hw_name *nm, bool *oom);
/* Exact (case-insensitive) lookup, or NULL. */
const hw_name *hw_ns_get(const hw_ns *ns, const char *name);
/* Fills d with JC_ERR_NOTFOUND: "no <what> named 'name'; did you mean
 * ...?" from the closest names of ns (kinds in mask: bit (1<<kind), 0 =
 * any). `db` resolves an index to its id for alias suggestions. */
jc_status hw_not_found(const jc_hwdb *db, const hw_ns *ns, unsigned mask,
                       const char *what, const char *name, jc_diag *d);
/* The id (code, version) of the entry a name refers to; "device", ... */
const char *hw_entity_id(const jc_hwdb *db, const hw_name *nm);
const char *hw_kind_name(int kind);
/* Lower-cased arena copy. */
char *hw_lower(jci_arena *a, const char *s);
/* Inserts into a jci_strmap that grows (rehashing) as needed.  *prev gets
 * the existing value (key kept) or -1.  false on out-of-memory. */
bool hw_smap_put(jci_arena *a, jci_strmap *m, const char *key, int32_t val,
                 int32_t *prev);


/* ---- snapshot layout (src/hwdb/snapshot.c) ---------------------------------- */

/* The pointer fields of every record type reachable from a jc_hwdb, as
 * data: what the snapshot writer copies, what the relocating reader
 * rebases, and what tests/unit/test_snapshot.c compares.  A field not
 * listed here is plain data (numbers, enums), copied byte for byte. */
enum { HS_STR = 1,   /* const char *, NUL-terminated */
       HS_STRS,      /* const char ** with a size_t count at count_off */
       HS_ARR,       /* owned array of `type`, size_t count at count_off */
       HS_ONE,       /* owned single record of `type` */
       HS_REF,       /* borrowed pointer to a record of `type` owned
                        elsewhere in the database (or a shared source) */
       HS_EMB,       /* n embedded records of `type` at off */
       HS_NULL };    /* a pointer-sized field a snapshot stores as 0 (set
                        when the snapshot is opened) */

typedef struct hs_field {
    unsigned char kind, type;
    unsigned short n;
    unsigned off, count_off;
} hs_field;

typedef struct hs_type {
    const char *name;
    size_t size;
    const hs_field *fields;   /* ends with kind 0 */
} hs_type;

/* Record types (indexes of hs_types()). */
enum { HT_I32, HT_SOURCE, HT_SOURCED, HT_DEVICE, HT_HOST,
       HT_DATASET, HT_INTENSITY, HT_REGION, HT_PUE_YEAR, HT_PROVIDER,
       HT_CONSTANT, HT_GA_PUE, HT_GA_PROVIDER, HT_GA_DC, HT_GA_CPU, HT_GA_GPU, HT_GA_LOC,
       HT_GA_CONST, HT_GA_VERSION, HT_NAME, HT_STRMAP, HT_NS, HT_INTERNAL,
       HT_HWDB, HT_COUNT };

/* The table above (HT_COUNT entries). */
const hs_type *hs_types(void);

/* Sections of a snapshot image, in file order: the head (header, path
 * slots, file tables and their names), the records of each type (one
 * section per type, jc_hwdb's first), the lists of strings, the strings. */
enum { HS_SEC_HEAD, HS_SEC_REC, HS_SEC_STRS = HS_SEC_REC + HT_COUNT, HS_SEC_STR, HS_NSEC };

/* The section of the records of type t (HT_HWDB first: it is the last type). */
static inline int hs_type_sec(int t)
{
    return HS_SEC_REC + (t == HT_HWDB ? 0 : t + 1);
}

/* A snapshot file's header (its first 4096 bytes hold it). */
typedef struct hs_header {
    char magic[8];                    /* "JCHWSNAP" */
    uint32_t format, abi;             /* layout version, abi_hash() */
    uint64_t base, length, root;      /* image address, file size, jc_hwdb */
    uint64_t slots, files, n_files;   /* path slots, snap_file table */
    uint64_t dirs, n_dirs;            /* snap_file table of the folders */
    uint64_t checksum;                /* of the whole file, this field as 0 */
    char version[32];                 /* JC_VERSION of the writer */
    uint64_t sec_off[HS_NSEC], sec_len[HS_NSEC];   /* each section's bytes */
} hs_header;

/* The snapshot checksum of p[0..n). */
uint64_t hs_checksum(const unsigned char *p, size_t n);
/* The checksum a snapshot image of len bytes (len >= 4096) records in its
 * header: over every byte, the header's checksum field read as 0. */
uint64_t hs_image_checksum(const unsigned char *img, uint64_t len);

/* Flags of jc_hwdb_snapshot_open. */
#define JCI_SNAPSHOT_RELOCATE 1u   /* never map in place: read, check every
                                     pointer and relocate (tests) */
#define JCI_SNAPSHOT_ANY_FOLDER 2u /* skip the comparison with the folder's
                                     files (the snapshot fuzz target: every
                                     other check runs) */

#endif
