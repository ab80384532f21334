/*
 * builder.h (estimate) - private to src/estimate/: the one result builder the
 * estimate (estimate_int.h, struct est) and the serving model (serving.c,
 * struct sv) fill while they resolve their inputs.  It holds the result's
 * arena, the caller's diagnostic, the stage name that prefixes failure
 * messages, the run's job and hwdb, the growing lists of assumptions and
 * warnings, and two sticky flags (out of memory, an assumption key missing
 * from assumption_keys.def); jci_bld_move checks both and hands the lists
 * to the result.  The small range constructors and the "given" test of a
 * job's number both stages use are here too.
 *
 * Symbols use the internal prefix jci_bld_ / jci_range; none is exported
 * by the public header.
 */
#ifndef JCI_ESTIMATE_BUILDER_H
#define JCI_ESTIMATE_BUILDER_H

#include "base/jc_internal.h"
#include "joulecast/hwdb.h"
#include "joulecast/job.h"
#include "joulecast/estimate.h"

#include <math.h>
#include <stddef.h>

typedef struct jci_builder {
    jci_arena *a;              /* the result's arena: every string lives here */
    jc_diag *d;                /* the caller's diagnostic (may be NULL) */
    const char *stage;         /* failure prefix: "estimate", "estimate --generate" */
    jc_assumption *as;         /* malloc'ed while building; jci_bld_release frees */
    size_t n_as, cap_as;
    const char **warn;         /* malloc'ed list of arena strings */
    size_t n_warn, cap_warn;
    int oom;                   /* an allocation failed (sticky) */
    const char *bad_key;       /* the first assumption key not in assumption_keys.def */
    unsigned long long pin_used; /* bit i: the job's --pin entry i matched an assumption */
    jc_status pin_st;          /* a --pin entry refused (sticky; pin_msg says why) */
    const char *pin_msg;
    const jc_job *job;         /* the run's job and database (borrowed from the caller) */
    const jc_hwdb *db;
    int quiet;                 /* 1: only the run's figures are read (the sensitivity's
                                  central-only runs): no hwdb citation (jci_bld_cite), no
                                  pin source, no runtime list is formatted */
} jci_builder;

/* Ranges: exact value v; low, central, high. */
static inline jc_range R1(double v) { jc_range r = {v, v, v}; return r; }
static inline jc_range R3(double lo, double c, double hi) { jc_range r = {lo, c, hi}; return r; }
/* A job's number is given (jc_job_init sets the others to NAN). */
static inline int given(double x) { return !isnan(x); }

/* Starts a run: clears diagnostic d and starts an empty builder over a
 * new arena (b->a, which the caller's result will own), d, the stage
 * name of its failure messages (a static string) and the run's job and
 * database (borrowed: they must outlive the run; either may be NULL
 * where the caller checks them).  JC_OK, or
 * JC_ERR_NOMEM (d filled) when the arena cannot be made. */
jc_status jci_bld_open(jci_builder *b, jc_diag *d, const char *stage, const jc_job *job, const jc_hwdb *db);

/* printf into the arena, the whole text; "" (and oom set) on
 * out-of-memory, so callers can use the result at once. */
const char *jci_bld_str(jci_builder *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends a formatted warning (copied into the arena); on out-of-memory
 * the warning is dropped and oom set. */
void jci_bld_warn(jci_builder *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Records an input of the model with its origin and source (strings not
 * copied: they must live as long as the arena) and returns v.  The key is
 * replaced by assumption_keys.def's own pointer, so consumers find it by
 * id; a key missing from the table is kept as given and remembered in
 * bad_key, and jci_bld_move then fails the run (JC_ERR_INTERNAL). */
jc_range jci_bld_assume(jci_builder *b, const char *key, const char *label, jc_range v,
                        const char *unit, jc_origin o, const char *source);

/* The job's --pin (job->pin, "KEY=V,..."): jci_bld_assume returns an
 * assumption whose key an entry names as that one value (its range
 * collapsed; origin user, the source naming the pin and the range it
 * replaced).  An entry that names an assumption without a range, or a
 * value outside it, fails the run (jci_bld_check: JC_ERR_USAGE /
 * JC_ERR_RANGE); one that matches no assumption fails it at jci_bld_move
 * (JC_ERR_USAGE).  At most JCI_PIN_MAX entries. */
#define JCI_PIN_MAX 64

/* Appends an assumption another builder already checked, as it is (the
 * serving model takes over the energy stage's list this way). */
void jci_bld_push(jci_builder *b, const jc_assumption *x);

/* The n texts of parts joined, in the arena (a NULL part is empty); ""
 * on out-of-memory. */
const char *jci_bld_cat(jci_builder *b, size_t n, const char *const *parts);

/* The citation of an hwdb value, in the arena, whole (reports that show
 * less cut it): "hwdb/devices/nvidia.yaml:966 (NVIDIA A100 datasheet ...,
 * 2020); derived: ...".  "" on out-of-memory, and in a quiet builder (a
 * citation is only ever a source text, never read by a figure). */
const char *jci_bld_cite(jci_builder *b, const jc_sourced *v);

/* A sourced value as a range (its own low/high when it has them). */
jc_range jci_sourced_range(const jc_sourced *v);

/* Records hwdb constant c as assumption key (its range, unit and
 * citation) and returns the range.  A key equal to the constant's own id
 * needs no line in assumption_keys.def: the database lists those. */
jc_range jci_bld_const(jci_builder *b, const char *key, const char *label, const jc_constant *c);

/* Fills the diagnostic with "<stage>: <message>" (the message cut at 900
 * bytes) and returns st. */
jc_status jci_bld_fail(jci_builder *b, jc_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* JC_ERR_NOMEM when an allocation failed, JC_ERR_INTERNAL naming a key
 * missing from assumption_keys.def, else JC_OK (the diagnostic filled on
 * an error). */
jc_status jci_bld_check(jci_builder *b);

/* Drops the assumptions recorded after the first own whose key one of
 * those own ones has already (a shared stage restating the caller's). */
void jci_bld_drop_restated(jci_builder *b, size_t own);
/* The constant id of the database, required: *c borrowed from it; an
 * error (JC_ERR_HWDB, through jci_bld_fail) names the missing id. */
jc_status jci_bld_need_const(jci_builder *b, const char *id, const jc_constant **c);
/* Checks the builder (jci_bld_check), then copies both lists into the
 * arena: *as / *n_as and *warn / *n_warn receive them (never NULL
 * arrays).  The builder's own lists stay until jci_bld_release. */
jc_status jci_bld_move(jci_builder *b, jc_assumption **as, size_t *n_as,
                       const char ***warn, size_t *n_warn);

/* Frees the builder's working lists (not the arena).  Safe to call twice. */
void jci_bld_release(jci_builder *b);

#endif /* JCI_ESTIMATE_BUILDER_H */
