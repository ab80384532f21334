/*
 * reqset.h (job) - the request's keys set one at a time, and a job file
 * layered beneath the caller's keys: the one key->field setter and the one
 * job-file layering of every front end (the CLI's options and job files,
 * src/cli/jobopts.c and cmd_count.c; the bindings' key/value pairs,
 * src/bind/bind.c).  A front end finds which of its keys are the
 * request's, calls jci_reqset_set for each in order (a job file's pairs
 * first, jci_jobfile_pairs, then its own) and prints the message in its
 * own way (the CLI: "WHERE: --MESSAGE").  Internal to libjoulecast and
 * its CLI.
 */
#ifndef JCI_JOB_REQSET_H
#define JCI_JOB_REQSET_H

/* the public types it needs, not base/jc_internal.h: the CLI includes it,
 * and a change to the library's internal header rebuilds no CLI object */
#include "joulecast/estimate.h"   /* jc_request, jc_jobfile, jc_job, jc_convention */

struct jci_arena;   /* src/base/jc_internal.h */

/* The fields the request's keys set.  Every array and name is in arena;
 * release with jci_reqset_free. */
typedef struct jci_reqset {
    struct jci_arena *arena;        /* NULL: out of memory (jci_reqset_set says so) */
    jc_job *job;                    /* the job keys' (the caller's job) */
    const char *model, *op_rules;   /* "model", "op-rules" (borrowed values) */
    const char *snapshot;           /* "hwdb-snapshot" (the bindings') */
    const char **layers;            /* "hwdb", in order: a job file's first */
    size_t n_layers, n_layers_under;
    jc_dim_binding *dims;           /* "dim" */
    size_t n_dims;
    jc_input_binding *inputs;       /* "input" */
    size_t n_inputs;
    jc_dim_binding *assume;         /* "assume" (count) */
    size_t n_assume;
    jc_value_binding *values;       /* "input-value" (count) */
    size_t n_values;
    unsigned char *dim_under, *input_under;  /* the binding is a job file's */
    size_t cap;                     /* of each array above */
    jc_convention convention;       /* "convention" (count) */
    int strict, allow_partial, hash_weights;
    int under;                      /* 1 while a job file's pairs are set */
} jci_reqset;

/* Prepares r for the keys of a request whose job keys set *job (borrowed;
 * already initialised by the caller).  Out of memory shows at the first
 * jci_reqset_set. */
void jci_reqset_init(jci_reqset *r, jc_job *job);

/* Sets the field of key from its text val (NULL: a flag given without a
 * value) - model, op-rules, hwdb, hwdb-snapshot (a file name: not empty),
 * dim, assume, input, input-value (the grammar of src/job/reqparse.c),
 * convention, strict, allow-partial, hash-weights (flags; strict turns
 * allow-partial off) - else the job key of that name (jc_job_set).  A
 * dim or input binding of the caller replaces a job file's of the same
 * NAME (the caller overrides the file); a job file's binding of a NAME the
 * caller bound already is skipped.  The message starts with the key.
 * Errors: JC_ERR_NOTFOUND (no such key), JC_ERR_USAGE / JC_ERR_RANGE (a
 * malformed or out-of-range value), JC_ERR_NOMEM. */
jc_status jci_reqset_set(jci_reqset *r, const char *key, const char *val, jc_diag *d);

/* The library request of r (job, model, bindings, op rules, convention,
 * partial-count and hashing policy); rq borrows from r. */
void jci_reqset_request(const jci_reqset *r, jc_request *rq);

/* Releases what r holds (not its job).  Safe on a zeroed r. */
void jci_reqset_free(jci_reqset *r);

/* Is key one that a request takes several times (dim, input, hwdb,
 * assume, input-value)? */
int jci_key_repeatable(const char *key);

/* Is key a flag (a job key without a value, strict, allow-partial,
 * hash-weights)? */
int jci_key_is_flag(const char *key);

/* The mode a pair asks for (train, infer, generate given and on: training,
 * inference, generation; mode: its value), or NULL. */
const char *jci_key_mode(const char *key, const char *val);

/* Pair i against the pairs [lo, i): the index of an earlier one that sets
 * the same field (the same key, or an alias of the same jc_job field) to
 * another value, or that asks for another mode (*mode is then 1), or -1
 * when none.  Repeatable keys never clash; NULL keys are skipped; a NULL
 * value reads as "". */
long jci_pairs_clash(const char *const *keys, const char *const *values, size_t lo, size_t i, int *mode);

/* The job file's pairs beneath the caller's: jf's n entries first, their
 * model, op-rules and hwdb paths taken from the file's folder
 * (jc_jobfile_path), then the caller's n pairs except those keyed skip
 * (NULL: none).  Arrays in arena a; *on receives the count (jf->n + the
 * caller's kept).  Set them in order with r->under = 1 for the first
 * jf->n.  Errors: JC_ERR_NOMEM. */
jc_status jci_jobfile_pairs(struct jci_arena *a, const jc_jobfile *jf, const char *const *keys,
                            const char *const *values, size_t n, const char *skip, const char ***ok,
                            const char ***ov, size_t *on, jc_diag *d);

#endif
