/*
 * yaml_tree.h (base) - the located YAML tree: what src/base/yaml.c (the only
 * libyaml user) builds from one file, and the file it came from.  Read by
 * the hardware database (src/hwdb/build.c), job files (src/job/jobfile.c)
 * and op rules (src/analysis/ops/oprules.c).  Not installed.
 */
#ifndef JCI_BASE_YAML_TREE_H
#define JCI_BASE_YAML_TREE_H

#include "base/jc_internal.h"
/* by pointer only (their public headers define them; a file that reads
 * their fields includes that header itself) */
typedef struct jc_source jc_source;

/* Limits of the YAML reader (documented in docs/hwdb-schema.md). */
#define HW_MAX_FILE_BYTES ((uint64_t)64 << 20)  /* 64 MiB per file */
#define HW_MAX_DEPTH 32                         /* nesting of maps/lists */

/* One loaded file: its path and its `sources` (ids local to the file). */
typedef struct hw_file {
    const char *path;          /* db arena */
    const char *licence;       /* top-level `licence` or NULL */
    int layer;                 /* 0 = first layer loaded */
    int has_sources;           /* the file has a `sources` mapping */
    int job;                   /* not an hwdb file: 1 a job file, 2 an op-rules
                                  file; parse errors are then JC_ERR_USAGE
                                  and name the kind of file */
    jci_strmap sources;         /* source id -> index in srcs */
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
jc_status hw_parse_file(jci_arena *scratch, jci_arena *db, const hw_file *f,
                        hnode **root, jc_diag *d);

#endif /* JCI_BASE_YAML_TREE_H */
