/*
 * bind_int.h (bind) - what the binding entry points share (src/bind/bind.c,
 * src/bind/bind_workflows.c): value parsing with diagnostics that name
 * the key, and the request of the estimate-like commands (estimate,
 * statement, compare, sweep, calibrate) built from key/value pairs: the
 * job, the model path, the --dim / --input / --op-rules bindings, the
 * hardware database, then the model loaded and analysed the way
 * `joulecast estimate` does.  Internal to src/bind/.
 */
#ifndef JCI_BIND_INT_H
#define JCI_BIND_INT_H

#include "base/jc_internal.h"
#include "job/reqset.h"
#include "joulecast/hwdb.h"

/* Value parsers: JC_OK, or JC_ERR_USAGE with a message naming key. */
jc_status bind_bad(jc_diag *d, const char *key, const char *want, const char *val);
/* "cmd: unknown option 'key'; did you mean 'k'? (...)", the suggestion
 * from the keys jc_bind_keys(cmd) lists; bind_unknown_value reads the
 * value given too ("devices=a100" means the device, "devices=8" the
 * count; jc_job_key_meant_for). */
jc_status bind_unknown(jc_diag *d, const char *cmd, const char *key);
jc_status bind_unknown_value(jc_diag *d, const char *cmd, const char *key, const char *value);
/* Checks the output pointer and clears it and the diagnostic. */
jc_status bind_check_out(char **out, jc_diag *d);
/* A renderer's document handed to *out: JC_OK, or JC_ERR_NOMEM when doc
 * is NULL (the renderer ran out of memory). */
jc_status bind_json(char *doc, char **out, jc_diag *d);

/* The database: the snapshot of hwdb_dir when one is given, there are no
 * layers and it is fresh (src/hwdb/snapshot.c), else the YAML. */
jc_status bind_open_hwdb(const char *hwdb_dir, const char *snapshot,
                         const char *const *layers, size_t n_layers, jc_hwdb **db,
                         jc_diag *d);

/* A command's own keys: called for every key before the shared ones.
 * Returns 1 when it took the key (status in *st), 0 to pass it on. */
typedef int (*bind_own_fn)(void *ctx, const char *key, const char *val, jc_status *st, jc_diag *d);

/* The keys every estimate-like command takes besides the job's. */
#define BIND_REQ_KEYS "job", "model", "dim", "input", "op-rules", "hwdb", "hwdb-snapshot", "strict", "hash-weights", \
                      "allow-partial"

typedef struct bind_req {
    jci_reqset rs;             /* the request's keys, set by the one setter
                                  (src/job/reqset.c); owns every binding */
    jc_job job;
    const char *model;         /* the "model" key, or NULL */
    jc_request rq;             /* job, model, dims, inputs, op rules, partial policy */
    const char *snapshot;      /* "hwdb-snapshot" */
    const char **layers;       /* "hwdb" keys, in order */
    size_t n_layers;
    int html;                  /* "html" (estimate, compare, sweep: the keys
                                  that list it): the result is the HTML report */
    jc_hwdb *db;               /* opened by bind_req_open */
    jc_prepared *p;            /* model + analysis, by bind_req_model */
    jc_jobfile *jf;            /* the "job" key's file, whose pairs go
                                  beneath the caller's (as the CLI's) */
    jci_arena *jf_arena;       /* the merged pairs */
} bind_req;

/* Parses the pairs of command `cmd` (own keys first through own, may be
 * NULL; then "html" where jc_bind_keys(cmd) lists it, BIND_REQ_KEYS and
 * every jc_job key) into r->rq and opens the
 * database.  A "job" pair names a job file (as the CLI's JOB.yaml): its
 * pairs go beneath the others (jci_jobfile_pairs).  Always initialises r (release with bind_req_close).
 * Errors: JC_ERR_USAGE (unknown key, malformed value, no database, strict
 * with allow-partial), those of the database. */
jc_status bind_req_open(bind_req *r, const char *cmd, const char *hwdb_dir,
                        const char *const *keys, const char *const *values, size_t n,
                        bind_own_fn own, void *ctx, jc_diag *d);

/* bind_req_open where the first n_under pairs are a job file's, which
 * the later (the caller's) override: a key given twice with two values is
 * refused only within either part. */
jc_status bind_req_open_over(bind_req *r, const char *cmd, const char *hwdb_dir,
                             const char *const *keys, const char *const *values, size_t n, size_t n_under,
                             bind_own_fn own, void *ctx, jc_diag *d);

/* Pair i's key (or its jc_job alias) given at an earlier index with
 * another value (a list for a key that takes one value): JC_ERR_USAGE,
 * as the CLI refuses an option given twice.  Pairs below n_under (a job
 * file's) and from n_under on (the caller's, which override them) are
 * compared only within their part. */
jc_status bind_once(const char *cmd, const char *const *keys, const char *const *values, size_t i,
                    size_t n_under, jc_diag *d);

/* jc_request_prepare of r->rq into r->p (an empty one without a model),
 * as `joulecast estimate` does.  Errors: those of jc_request_prepare. */
jc_status bind_req_model(bind_req *r, jc_diag *d);

/* Releases everything r holds.  Safe on a zeroed or failed request. */
void bind_req_close(bind_req *r);

/* A memory stream for a report writer; bind_stream_done closes it and
 * hands the text to *out (NULL and JC_ERR_NOMEM/the writer's status on
 * failure). */
FILE *bind_stream(char **buf, size_t *len);
jc_status bind_stream_done(FILE *f, char **buf, jc_status st, char **out, jc_diag *d);

/* The key lists of the entry points in bind_workflows.c ("statement",
 * "compare", "sweep", "hw", "region"); NULL for another command. */
const char *const *bind_workflow_keys(const char *command);

#endif
