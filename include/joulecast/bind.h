/*
 * bind.h (public API) - the bindings: options as strings in, JSON out (src/bind/).
 * Part of the public API; include <joulecast.h>, which states the
 * conventions (errors, ownership, units) that hold here too.
 */
#ifndef JOULECAST_BIND_H
#define JOULECAST_BIND_H

#include "base.h"

JC_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* Bindings: options as strings in, JSON out (owner src/bind/bind.c)         */
/* ------------------------------------------------------------------ */
/* For language bindings (python/joulecast calls these through ctypes)
 * and any caller that would rather not lay out the structs above.  Every
 * option is a key/value string pair whose key is a long option name of
 * the matching CLI command without the dashes (the same keys as a job
 * file: "device", "count", "dim" = "batch=8", "train" = "true"), given
 * in order; repeatable keys (dim, input, assume, hwdb) may appear more
 * than once.  Flags take "true"/"false" (also 1/0, yes/no, on/off; an
 * empty value is "true").  The result is the JSON document the CLI's
 * --json prints (docs/json-schemas.md), released with jc_free().  The library never reads the environment:
 * the hardware database folder is an argument (NULL with an "hwdb" key:
 * that layer alone); the key "hwdb-snapshot" names a snapshot of that
 * folder (jc_hwdb_snapshot_open), used when there is no "hwdb" layer and
 * it is fresh, else the YAML is parsed.  Errors: JC_ERR_USAGE (unknown key, malformed
 * value, missing input; diag names the key), and every error of the
 * functions each one calls (jc_model_load, jc_analyze, jc_hwdb_load,
 * jc_estimate_run, jc_ga_compute).  On failure *json is NULL. */

/* Releases a string the library returned (the rule of the header's top:
 * every char * a function returns, every *_json document).  Bindings and
 * programs use this rather than their own free(), which may belong to
 * another C runtime.  NULL is a no-op. */
void jc_free(void *p);

/* Appends " s" to the NUL-terminated command line in buf (capacity cap
 * bytes), single-quoted for a POSIX shell when s is empty or holds
 * anything but letters, digits and -_=./:,+%@.  What does not fit is cut
 * (buf stays NUL-terminated).  The reproducing command lines of
 * `statement` (the CLI's and jc_run_statement_text's) follow the same
 * quoting, built without a cap.  Never fails; buf is the caller's. */
void jc_shell_arg_append(char *buf, size_t cap, const char *s);
/* 1 when paths a and b name one existing file (the same device and
 * inode: a hard link, a symlink or another spelling of one path), else 0
 * ("-", NULL or a path that cannot be read: 0).  The rule that refuses
 * an output onto an input (estimate --html, calibrate --out, hwdb
 * snapshot -o) and compare's model given twice. */
int jc_same_file(const char *a, const char *b);

/* Writes " s" to f with the quoting of jc_shell_arg_append, whole: the
 * reproducing command lines of `statement` are built with it, without a
 * cap.  Errors: f's error flag (ferror). */
void jc_shell_arg_put(FILE *f, const char *s);

/* Writes the current UTC time into buf (capacity cap): "YYYY-MM-DD" when
 * date_only, else "YYYY-MM-DDTHH:MM:SS" (CodeCarbon's timestamp).  The
 * time is SOURCE_DATE_EPOCH when that environment variable is set and not
 * empty (reproducible outputs and tests), else now.  The calibrated
 * layer's date and the codecarbon row use it.  buf is the caller's ("" on
 * failure).  Errors: JC_ERR_USAGE (SOURCE_DATE_EPOCH not a whole number of
 * seconds; no buffer or one too small), JC_ERR_RANGE (SOURCE_DATE_EPOCH
 * before 1970 or after 9999-12-31T23:59:59 UTC, 253402300799). */
jc_status jc_utc_timestamp(char *buf, size_t cap, int date_only, jc_diag *diag);

/* Splits the comma list s in place ("a100, h100,l4": the commas become
 * NULs, the spaces around each item are cut) into items[0..cap), which
 * point into s.  Returns the item count, -1 when an item is empty ("a,,b",
 * "" or "a,"), -2 when there are more than cap.  The axes of `sweep` (the
 * CLI's and the binding's) are read with it. */
int jc_split_list(char *s, const char **items, size_t cap);

/* `joulecast count MODEL --json`: keys dim, input, input-value, batch,
 * assume, convention, op-rules, strict. */
jc_status jc_run_count_json(const char *model_path, const char *const *keys,
                        const char *const *values, size_t n, char **json,
                        jc_diag *diag);

/* `joulecast estimate --json`: every option of `joulecast estimate`
 * except the output formats (json, csv) — model, dim, input, op-rules,
 * hwdb, strict, allow-partial and the job's keys (train, device, count,
 * region, ...).  The model goes through jc_request_prepare, the same
 * request path as the CLI's (same batch default, same partial policy). */
jc_status jc_run_estimate_json(const char *hwdb_dir, const char *const *keys,
                           const char *const *values, size_t n, char **json,
                           jc_diag *diag);

/* `joulecast ga --json`: every option of `joulecast ga` except json. */
jc_status jc_run_ga_json(const char *hwdb_dir, const char *const *keys,
                     const char *const *values, size_t n, char **json,
                     jc_diag *diag);

/* `joulecast statement --format F`: the statement's text exactly as the
 * CLI prints it for one format (key "format": markdown, the default,
 * latex or hf), with the keys of estimate plus training-type and
 * location; its "reproduce" command line is built from the pairs. */
jc_status jc_run_statement_text(const char *hwdb_dir, const char *const *keys,
                            const char *const *values, size_t n, char **text,
                            jc_diag *diag);

/* The command line that gives the same result as `command` ("estimate",
 * "compare", "sweep", ... any command jc_bind_keys lists) called with the
 * pairs: "joulecast COMMAND MODEL --key value ...", each argument quoted
 * for a POSIX shell (jc_shell_arg_append); "model" values are the
 * positional files, a flag given false and the statement's own keys
 * (format, training-type, location) and hwdb-snapshot are left out.  The
 * statement's "reproduce" line is this line for "estimate"; the web page
 * offers it as a download.  Writes into buf (capacity cap); a line that
 * does not fit is never cut (it would not reproduce anything): buf gets ""
 * and JC_ERR_RANGE names the bytes needed.  Errors: JC_ERR_USAGE (no
 * buffer, an unknown command, a NULL key), JC_ERR_RANGE, JC_ERR_NOMEM. */
jc_status jc_command_line(const char *command, const char *const *keys,
                          const char *const *values, size_t n, char *buf, size_t cap,
                          jc_diag *diag);

/* `joulecast compare A B ... --json`: the keys of estimate, "model"
 * repeated once per model (two or more, in order). */
jc_status jc_run_compare_json(const char *hwdb_dir, const char *const *keys,
                          const char *const *values, size_t n, char **json,
                          jc_diag *diag);

/* `joulecast sweep --json`: the keys of estimate plus devices, regions,
 * batches, precisions (comma lists; repeating a key appends), sort and
 * top (for the HTML's table). */
jc_status jc_run_sweep_json(const char *hwdb_dir, const char *const *keys,
                        const char *const *values, size_t n, char **json,
                        jc_diag *diag);

/* `joulecast calibrate MEASUREMENTS [JOB] [MODEL] ... --out FILE --json`:
 * the keys of estimate plus "measurements" (the measurement CSV or power
 * trace; required), "out" (the override layer to write; required), "row"
 * (1-based data row; default the last), "date" (YYYY-MM-DD when the file
 * has none); the job keys trace-format, scope, gap, idle-w and interval
 * read the trace (jc_trace_opts_from_job).  The row's job file (simple
 * CSV column job) goes beneath the keys, which win, as on the command
 * line; the row's device when the keys name none.  Runs
 * jc_calib_source_open + jc_calibrate_run, the layers loaded back on top
 * of the "hwdb" layers (a trace's power layer too); the result is
 * jc_report_calibrate_json. */
jc_status jc_run_calibrate_json(const char *hwdb_dir, const char *const *keys,
                            const char *const *values, size_t n, char **json,
                            jc_diag *diag);

/* `joulecast hw list [--kind K] --json`, or with key "show" = ID `hw show
 * ID --json`.  Keys: show, kind, hwdb, hwdb-snapshot. */
jc_status jc_run_hw_json(const char *hwdb_dir, const char *const *keys,
                     const char *const *values, size_t n, char **json,
                     jc_diag *diag);

/* `joulecast region list [--provider P] [--type T] --json`, or with key
 * "show" = CODE `region show CODE --json`.  Keys: show, provider, type,
 * hwdb, hwdb-snapshot. */
jc_status jc_run_region_json(const char *hwdb_dir, const char *const *keys,
                         const char *const *values, size_t n, char **json,
                         jc_diag *diag);

/* The key "html" ("true") of estimate, compare and sweep makes the result
 * the HTML report the CLI's --html writes (src/report/html.c) instead of
 * the JSON. */

/* The keys each entry point accepts ("count", "estimate", "ga",
 * "statement", "compare", "sweep", "calibrate", "hw", "region"), as a static
 * NULL-terminated list; NULL for another command. */
const char *const *jc_bind_keys(const char *command);

JC_END_DECLS
#endif /* JOULECAST_BIND_H */
