/*
 * hwdb_int.h - what the hwdb stage's files share: the located YAML tree
 * that src/hwdb.c (the only libyaml user) builds from a file, the per-file
 * context (path, sources), and the name indexes used for lookups.
 * Not installed; private to src/hwdb*.c.
 */
#ifndef JC_HWDB_INT_H
#define JC_HWDB_INT_H

#include "jc_internal.h"

/* Limits of the YAML reader (documented in docs/hwdb-schema.md). */
#define HW_MAX_FILE_BYTES ((uint64_t)64 << 20)  /* 64 MiB per file */
#define HW_MAX_DEPTH 32                         /* nesting of maps/lists */
#define HW_MAX_DIR_DEPTH 16                     /* folder recursion */

/* One loaded file: its path and its `sources` (ids local to the file). */
typedef struct hw_file {
    const char *path;          /* db arena */
    const char *licence;       /* top-level `licence` or NULL */
    int layer;                 /* 0 = first layer loaded */
    int has_sources;           /* the file has a `sources` mapping */
    jc_strmap sources;         /* source id -> index in srcs */
    jc_source **srcs;
    size_t n_srcs;
} hw_file;

typedef enum hn_kind { HN_SCALAR, HN_MAP, HN_SEQ } hn_kind;

/* A node of a file's YAML tree with its 1-based position.  Scalars keep
 * their text (NUL-terminated, db arena) and whether they were plain
 * (unquoted): only plain scalars can be numbers. */
typedef struct hnode {
    hn_kind kind;
    int line, col;
    const hw_file *file;
    const char *s;             /* scalar text */
    int plain;                 /* scalar written without quotes */
    size_t n;                  /* map pairs / seq items */
    struct hnode **keys;       /* map: keys[i] (scalars) */
    struct hnode **vals;       /* map: vals[i]; seq: items */
} hnode;

/* Reads and parses one YAML file into a tree.  Tree nodes live in
 * `scratch`, scalar text in `db`.  Rejects anchors, aliases, tags, more
 * than one document, nesting deeper than HW_MAX_DEPTH, duplicate keys,
 * non-scalar keys and files over HW_MAX_FILE_BYTES.  *root is NULL for a
 * file without a document (empty or comments only).  Every libyaml
 * object is released before returning, on every path. */
jc_status hw_parse_file(jc_arena *scratch, jc_arena *db, const hw_file *f,
                        hnode **root, jc_diag *d);

/* Collects the *.yaml files under `dir` (recursively, hidden entries
 * skipped), sorted by path, into *paths (scratch arena).  A path that is
 * a regular file is returned as the only entry. */
jc_status hw_list_files(jc_arena *scratch, const char *dir,
                        const char ***paths, size_t *n, jc_diag *d);

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
    jc_strmap map;             /* lower -> index in names */
    hw_name *names;
    size_t n, cap;
} hw_ns;

/* Everything behind jc_hwdb.internal_. */
typedef struct hw_internal {
    jc_arena *arena;
    hw_ns hw;                  /* devices + hosts */
    hw_ns regions, providers, constants, datasets, ga;
} hw_internal;

/* Adds a name; returns the existing entry (not added) when the lower-cased
 * name is taken, NULL when added; *oom set on out-of-memory. */
const hw_name *hw_ns_add(jc_arena *a, hw_ns *ns, const hw_name *nm, bool *oom);
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
char *hw_lower(jc_arena *a, const char *s);
/* Inserts into a jc_strmap that grows (rehashing) as needed.  *prev gets
 * the existing value (key kept) or -1.  false on out-of-memory. */
bool hw_smap_put(jc_arena *a, jc_strmap *m, const char *key, int32_t val,
                 int32_t *prev);

#endif
