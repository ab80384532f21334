/*
 * hwdb_fields.h (hwdb) - the hwdb schema as data: one field-descriptor table per
 * record kind (src/hwdb/fields_<kind>.def, one row per YAML key).  The
 * same rows drive the YAML -> record converter (src/hwdb/build.c), the
 * snapshot's pointer table (src/hwdb/snapshot.c), the JSON and text views
 * (src/report/hwdb_json.c, hwdb_text.c) and the generated schema
 * (`joulecast hwdb schema`: the tables of docs/hwdb-schema.md and
 * tools/hwdb_fields.json, which tools/check_hwdb.py reads).  Adding a
 * field is one row in its .def plus its member in include/joulecast.h.
 *
 * A row: JCF(member, "yaml.key", TYPE, FLAGS, ARG, "unit", "doc").
 *   member  the C member of the record (`ga.name` reaches into an
 *           embedded struct)
 *   key     the YAML key; "a.b" is key b of the mapping a (a group; or,
 *           when row "a" is a sourced value, an extra key of its mapping)
 *   TYPE    ID STR STRS ENUM INT NUM SV PREC DEVREF SRCREF LIST OWN ROWNUM
 *           (HF_T_* below)
 *   FLAGS   HF_* below, or 0
 *   ARG     HF_NONE, HF_R(op, lo, op, hi) (a range, op GT GE LT LE),
 *           HF_NAMES(array) (an enum's values), HF_COUNT(member) (a list's
 *           count), HF_ARR(HT_type, count member) (a LIST's records)
 *   unit    of the number ("" for none)
 *   doc     one line for docs/hwdb-schema.md
 * src/hwdb/schema.c expands every .def once (JCF and HF_REC, the record
 * type, defined around it) into the kind table below; every other reader
 * (converter, snapshot, views, schema output) reads that table.
 */
#ifndef JCI_HWDB_FIELDS_H
#define JCI_HWDB_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

/* Field types. */
enum {
    HF_T_ID = 1,  /* const char *: the entry's id (set by registration) */
    HF_T_STR,     /* const char *, NULL when absent */
    HF_T_STRS,    /* const char ** + size_t count (HF_COUNT) */
    HF_T_ENUM,    /* an enum (int-sized), one of HF_NAMES */
    HF_T_INT,     /* int, 0 when absent */
    HF_T_NUM,     /* double, 0 when absent */
    HF_T_SV,      /* jc_sourced: {value, source, year, low, high, ...} */
    HF_T_PREC,    /* jc_sourced[JC_PREC_COUNT]: mapping precision -> sourced */
    HF_T_DEVREF,  /* const jc_device *: a device id or alias */
    HF_T_SRCREF,  /* const jc_source *: a source id of the file */
    HF_T_LIST,    /* an owned array (HF_ARR) the kind's own code fills from
                     this key; the views show it through their hook */
    HF_T_OWN,     /* a key the kind's own code reads (no storage here: the
                     member is any, unused) */
    HF_T_ROWNUM   /* jc_sourced from a plain number, sourced by the row's
                     `source` (Green-Algorithms table rows) */
};

/* Flags. */
#define HF_REQ    0x001u  /* required (a dotted key: when its mapping is given) */
#define HF_TITLE  0x002u  /* text view: shown in the title line */
#define HF_RANGE  0x004u  /* sourced value: needs low and high */
#define HF_HOW    0x008u  /* sourced value: needs measured or derived */
#define HF_YEAR   0x010u  /* sourced value: needs its own year */
#define HF_TOPS   0x020u  /* precision map: int8/int4 in TOPS */
#define HF_QUOTE  0x040u  /* text view: the string in quotes (spaces matter) */
#define HF_WANTED 0x080u  /* optional, but estimates need it: the text view
                             says so when it is absent */
#define HF_FLAT   0x100u  /* JSON: beside its mapping, named by the member */
#define HF_HIDE   0x200u  /* views: not shown (read by the kind's own code) */
#define HF_EMPTY  0x400u  /* a string that may be "" */
#define HF_ALIASES 0x800u /* the entry's other names: registered beside its
                             id in the kind's namespace (jci_hwkind.ns) */
#define HF_ENTRY  0x1000u /* sourced value: the entry's mapping is the
                             sourced value, its keys (value, source, year,
                             low, high, derived, measured, note) beside the
                             other rows' (a `constants` entry) */

typedef struct jci_hwfield {
    const char *key;          /* YAML key ("energy.pj_per_byte") */
    const char *member;       /* C member ("pj_per_byte") */
    unsigned type, flags;
    size_t off, count_off;    /* offsetof the member (and its count) */
    double lo, hi;            /* range (has_range) */
    unsigned char lo_open, hi_open, has_range;
    const char *const *names; /* enum values, NULL-terminated (a STR with
                                 names is one of them, stored as the string) */
    int elem;                 /* a LIST's record type (HT_* of hwdb_int.h) */
    const char *unit, *doc;
} jci_hwfield;

/* Record kinds with a table. */
enum { HF_K_DEVICE, HF_K_HOST, HF_K_REGION, HF_K_DATASET, HF_K_PROVIDER, HF_K_CONSTANT,
       HF_K_SOURCE, HF_K_GA, HF_K_GA_PUE, HF_K_GA_PROVIDER, HF_K_GA_DC, HF_K_GA_CPU, HF_K_GA_GPU,
       HF_K_GA_CONST, HF_K_GA_LOC, HF_K_COUNT };

typedef struct jci_hwkind {
    const char *name;         /* "device" */
    const char *section;      /* YAML top-level key: "devices" */
    const char *record;       /* C type: "jc_device" */
    int ht;                   /* its snapshot record type (HT_*) */
    const jci_hwfield *fields;
    size_t n;
    /* An entry kind (a file's top-level list or mapping of entries,
     * converted by src/hwdb/build.c's convert_kind): ns != 0. */
    const char *label;        /* in messages: "device 'x'", "ga version '3.0'" */
    const char *idname;       /* its id in messages: "device id", "region code" */
    int ns;                   /* namespace of its id and aliases (HW_NS_*) */
    size_t ns_off;            /* offsetof(hw_internal, that namespace) */
    size_t db_off, db_n_off;  /* offsetof(jc_hwdb, its array and count) */
    int single;               /* one entry per file, a mapping (not a list) */
    int has_at;               /* the record has file, line, col (where its
                                 mapping is): at offsets file_off, ... */
    size_t file_off, line_off, col_off;
} jci_hwkind;

/* The table of kind k (HF_K_*), or NULL out of range.  Static. */
const jci_hwkind *jci_hwdb_kind(int k);
/* The kind whose records have snapshot type ht (a LIST's elem), or NULL. */
const jci_hwkind *jci_hwdb_kind_of(int ht);
/* The entry kind whose names are HW_NS_* ns, or NULL. */
const jci_hwkind *jci_hwdb_kind_ns(int ns);

/* Kind k's row of type HF_T_ID (every kind but the Green-Algorithms
 * table rows has one), and its HF_ALIASES row; NULL when it has none. */
const jci_hwfield *jci_hwdb_id_row(const jci_hwkind *k);
const jci_hwfield *jci_hwdb_alias_row(const jci_hwkind *k);

/* Row f of record rec as a string: an ID or STR row's string, an ENUM
 * row's value name; NULL when absent, out of range or of another type. */
const char *jci_hwfield_str(const jci_hwfield *f, const void *rec);
/* Where record rec of kind k is written (its file, line, col): false when
 * the kind's records do not say (has_at 0). */
bool jci_hwdb_at(const jci_hwkind *k, const void *rec, const char **file, int *line, int *col);

/* Enum values (NULL-terminated), in enum order. */
extern const char *const jci_device_kind_names[];
extern const char *const jci_precision_names[];
extern const char *const jci_memory_type_names[];
extern const char *const jci_host_kind_names[];
extern const char *const jci_region_type_names[];
extern const char *const jci_ga_location_types[];

/* Range and name helpers of the .def rows. */
#define HF_OPEN_GT 1
#define HF_OPEN_GE 0
#define HF_OPEN_LT 1
#define HF_OPEN_LE 0

#endif
