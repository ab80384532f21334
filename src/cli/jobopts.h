/*
 * jobopts.h (cli) - the workload options shared by `estimate`, `compare`,
 * `sweep`, `statement`, `calibrate` and (a few of them) `count`: one table (src/cli/jobopts.c) that serves the command line, the
 * job file (keys = long option names without dashes) and --help, plus the
 * parsing, job-file loading and model analysis these commands share.
 *
 * Each command adds its own rows (output format, grid axes, budgets) in a
 * table of its own, of type JO_CMD (also read from job files) or JO_OUT
 * (command line only); those rows are handed to the command's handler.
 */
#ifndef JCI_CLI_JOBOPTS_H
#define JCI_CLI_JOBOPTS_H

#include "cli/cli.h"
#include "job/reqset.h"   /* the one key->field setter and job-file layering */

#include <stddef.h>

typedef enum jo_type {
    JO_JOB,  /* a key of jc_job (jc_job_keys) */
    JO_REQ,  /* a key of the request: model, dim, input, op-rules, hwdb,
                allow-partial, strict, hash-weights (and count's) */
    /* both set by the library's one setter (jci_reqset_set) */
    JO_CMD, /* the command's own option; job files may give it too */
    JO_CMD_EACH, /* the same, repeatable: each use adds one (--assume) */
    JO_OUT  /* the command's own option; command line only (job files skip it) */
} jo_type;

typedef struct jo_opt {
    const char *name;   /* long name without dashes */
    jo_type type;
    size_t off;         /* unused for JO_JOB and the CLI's own rows; an id
                           of the command's choosing for JO_CMD / JO_OUT */
    const char *arg, *help;  /* arg NULL: a flag that takes no value */
} jo_opt;

/* A command's handler for its own rows: val is NULL for a flag; where
 * names the origin ("command line" or file:line:col).  Returns 0 or an
 * exit code (after printing the error). */
typedef int (*jo_handler)(void *ctx, const jo_opt *o, const char *val,
                          const char *where);
/* Receives each positional argument that is not a job file (a .yaml or .yml file);
 * returns 0 or an exit code.  NULL: one model, kept in jobopts.model. */
typedef int (*jo_positional)(void *ctx, const char *arg);

/* The library's setter of a command's own options (jci_sweep_opts_set,
 * ...) called with jo_init_spec's ctx; jobopts turns its status into the
 * exit code (jo_lib_status). */
typedef jc_status (*jo_lib_set)(void *ctx, const char *key, const char *val, jc_diag *d);

/* The output options estimate, compare and sweep share (--json, --csv,
 * --html FILE): rows of jobopts.c's, applied by jobopts itself into
 * jobopts.out; a command takes those its jo_spec.takes names.
 * JO_TAKES_LIB: the library's own options of the command
 * (jci_command_opt_keys). */
enum { JO_TAKES_JSON = 1, JO_TAKES_CSV = 2, JO_TAKES_HTML = 4, JO_TAKES_ALL = 7, JO_TAKES_LIB = 8 };
typedef struct jo_out {
    int json, csv;
    const char *html;     /* --html FILE ('-': stdout), or NULL */
} jo_out;

typedef struct jobopts {
    const char *cmd;            /* command name, for messages */
    jc_job job;
    jci_reqset rs;              /* the request's keys: rs.model (--model, the
                                   job file's, or positional), rs.dims,
                                   rs.inputs, rs.op_rules, rs.layers (--hwdb),
                                   rs.allow_partial, rs.strict,
                                   rs.hash_weights (statement: always) */
    jc_jobfile *jf;             /* the job file, when one was given */
    const jo_opt **given;       /* options given on the command line (all of them) */
    const char **given_key;     /* their names */
    const char **given_val;     /* their values */
    size_t n_given, cap_given;
    jo_opt *jobrows;            /* the jc_job keys, as rows (all of them, malloc'ed) */
    size_t n_jobrows;
    int nomem;                  /* jo_init could not allocate jobrows: jo_parse fails */
    const jo_opt *extra;        /* the command's own rows */
    size_t n_extra;
    const char *const *only;    /* NULL, or the shared rows the command
                                   takes (jo_only) */
    jo_handler handler;
    jo_lib_set lib;             /* the spec's setter of the library's rows */
    void *ctx;
    jo_opt *spec_rows;          /* jo_init_spec's rows (malloc'ed), or NULL */
    jo_out out;                 /* the shared output options given */
} jobopts;

/* Prepares c for command `cmd` with its own option rows (may be NULL/0)
 * and the handler that applies them; every key of jc_job_keys() becomes
 * a row (no cap).  Out of memory is reported by jo_parse (JC_ERR_NOMEM).
 * Release with jo_free. */
void jo_init(jobopts *c, const char *cmd, const jo_opt *extra, size_t n_extra,
             jo_handler handler, void *ctx);

/* Limits the shared rows (the jc_job keys and jobopts.c's own table) to
 * those named in `only` (NULL-terminated, static); the command's own rows
 * are always taken.  For a command that uses few of them (count): every
 * other option is then unknown, on the command line and in a job file. */
void jo_only(jobopts *c, const char *const *only);

/* Reads the job file named among argv (if any), then argv itself, so the
 * command line overrides the file.  Positional arguments that are not job
 * files go to pos (NULL: one model).  Returns 0 or an exit code, the error
 * already printed. */
int jo_parse(jobopts *c, int argc, char **argv, jo_positional pos, void *pctx);

/* Prints the shared options, then the command's own rows. */
void jo_help(FILE *f, const jo_opt *extra, size_t n_extra);
/* The same for a command limited with jo_only(only): the shared rows it
 * takes, then its own. */
void jo_help_only(FILE *f, const char *const *only, const jo_opt *extra, size_t n_extra);

/* A command's own rows: with JO_TAKES_LIB the library's options of cmd
 * (jci_command_opt_keys; a key the command line takes as an argument is
 * left out), set through lib (NULL: handed to the handler), then the
 * shared output rows `takes` names, then extra. */
typedef struct jo_spec {
    const char *cmd;
    unsigned takes;         /* JO_TAKES_* */
    jo_lib_set lib;
    const jo_opt *extra;
    size_t n_extra;
} jo_spec;

/* The specs of the commands that parse with jobopts (cmd_<name>.c), which
 * their help pages (help.c) print the rows of. */
extern const jo_spec estimate_spec, compare_spec, sweep_spec, statement_spec, calibrate_spec;

/* The rows of spec s: malloc'ed (free it), NULL when out of memory; *n
 * receives the count. */
jo_opt *jo_spec_rows(const jo_spec *s, size_t *n);
/* jo_init with the rows of s (jobopts owns them: jo_free) and its
 * library setter, both called with ctx; out of memory is reported by
 * jo_parse. */
void jo_init_spec(jobopts *c, const jo_spec *s, jo_handler handler, void *ctx);
/* jo_help with the rows of s. */
void jo_help_spec(FILE *f, const jo_spec *s);
/* The rules between the shared output options: --json with --csv, and
 * --html - (the HTML on stdout) with either or with `others` other
 * formats asked for, are refused.  0, or the exit code (printed). */
int jo_out_check(const jobopts *c, int others);

/* The exit code of a library setter's status st for option `name`
 * given at `where` (d->msg starts with the key): 0 for JC_OK; else the
 * message printed, "WHERE: --MSG", exit 7 for JC_ERR_RANGE, a usage error
 * otherwise. */
int jo_lib_status(const char *cmd, const char *where, jc_status st, const jc_diag *d);

/* Prints rows alone, one "  --name ARG  help" line each. */
void jo_help_rows(FILE *f, const jo_opt *rows, size_t n);

/* Applies the job file at `path` beneath what jo_parse already read from
 * the command line: a key the command line gave is kept (repeatable keys
 * - dim, input, hwdb - take the file's entries first, as when the file is
 * named on the command line).  Relative model, op-rules and hwdb paths
 * are taken from the file's folder.  One job file at a time.  Returns 0
 * or an exit code, the error printed. */
int jo_apply_jobfile(jobopts *c, const char *path);

/* The library request of c (jc_request_prepare): the job, model source,
 * bindings, op rules and partial-count policy.  rq borrows from c. */
void jo_request(const jobopts *c, jc_request *rq);

/* Runs jc_request_prepare for c; prints the error and returns its exit
 * code on failure, 0 on success (*p then owns model and analysis). */
int jo_prepare(const jobopts *c, jc_prepared **p);

/* Opens the --html destination: stdout for "-", else the file (created
 * or truncated).  NULL on failure, with the error printed and *rc set to
 * JC_ERR_IO, or JC_ERR_USAGE when the file is an input of the command
 * (cli_output_check: the model, a job file, a layer...). */
FILE *jo_html_open(const char *path, int *rc);
/* Closes what jo_html_open returned (stdout is flushed, not closed) and
 * turns the report's status st and any write error into an exit code (0
 * on success), the error printed. */
int jo_html_close(FILE *f, const char *path, jc_status st);

/* Releases what parsing allocated (the request's keys, the job file). */
void jo_free(jobopts *c);

/* Sets the request's key (jci_reqset_set) from its text val given at
 * `where` ("command line" or file:line:col).  0, or the exit code after
 * printing "WHERE: --MESSAGE" (jo_lib_status). */
int jo_req_set(jobopts *c, const char *key, const char *val, const char *where);

#endif
