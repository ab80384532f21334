/*
 * cli.h (cli) - what the command files of the joulecast CLI share: the command
 * table entry type, option parsing helpers and the diagnostic printer.
 * The CLI is a client of the public API like any other; each command file
 * includes the include/joulecast/ headers it uses.
 */
#ifndef JCI_CLI_H
#define JCI_CLI_H

#include "joulecast/base.h"
/* by pointer only (their public headers define them; a file that reads
 * their fields includes that header itself) */
typedef struct jc_hwdb jc_hwdb;
typedef struct jc_model jc_model;

#include <stdbool.h>

/* A figure by the reports' number rule (jc_format_number), in a buffer
 * that lives to the end of the enclosing block. */
#define CLI_NUM(v) jc_format_number((char[40]){0}, 40, (v))

struct jo_spec;

/* A command's --help page, as data: the usage and what the command does
 * (through its blank line), the option rows, then what follows them (the
 * examples; NULL: nothing).  The rows are those of spec (jo_help_spec),
 * else those rows() prints for the command, else none (about lists them).
 * The pages are src/cli/help.c's; main.c prints every one the one way
 * (help_page). */
typedef struct cli_help {
    const char *about;
    const struct jo_spec *spec;
    void (*rows)(FILE *f, const char *cmd);
    const char *tail;
} cli_help;

typedef struct cli_cmd {
    const char *name;
    int (*run)(int argc, char **argv);   /* argv[0] is the command name */
    const char *summary;
    const cli_help *help;
} cli_cmd;

/* Prints "joulecast: <msg>" for a failed status to stderr and returns the
 * status as the exit code. */
int cli_fail(const jc_diag *d);
/* Prints a usage error ("joulecast CMD: ...; see joulecast help CMD") and
 * returns JC_ERR_USAGE. */
int cli_usage(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Prints an out-of-range error ("joulecast CMD: ...") and returns
 * JC_ERR_RANGE (exit 7). */
int cli_range(const char *cmd, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Prints a malloc'ed JSON document s to stdout with a final newline and
 * frees it; NULL (the renderer ran out of memory) prints an error.
 * Returns 0 or JC_ERR_NOMEM. */
int cli_emit_json(char *s);

/* The exit code of a report written to stdout by a text, CSV or
 * Markdown writer: 0, or JC_ERR_IO when the writer failed. */
int cli_written(jc_status st);

/* Parses argv[from..argc-1] of a command that takes --json and one
 * argument: --json sets *json, the argument goes to *arg (left as it was
 * when none is given).  Returns 0; -1 after refusing an unknown option
 * (exit JC_ERR_USAGE); or the index of a second argument, which the
 * caller refuses in its own words. */
int cli_json_and_arg(const char *cmd, int argc, char **argv, int from, const char **arg, int *json);

/* Matches "--name VALUE" or "--name=VALUE" at argv[*i]; on a match stores
 * the value, advances *i past it and returns true.  A missing value is a
 * usage error reported through *err (set to 1). */
bool cli_opt(int argc, char **argv, int *i, const char *name,
             const char **val, int *err);
/* cli_opt for an option that takes one value: the same option given
 * earlier on the command line with another value is a usage error
 * (printed for command cmd, *err set to 1), as jobopts.c refuses it for
 * the job options. */
bool cli_opt_once(int argc, char **argv, int *i, const char *cmd, const char *name,
                  const char **val, int *err);
/* The value of option `name` (--name V or --name=V) among argv[1..at-1]
 * that differs from val, or NULL when none does. */
const char *cli_earlier_value(char **argv, int at, const char *name, const char *val);
/* Parses a non-negative integer / a finite double; false if malformed. */
bool cli_parse_i64(const char *s, int64_t *out);
bool cli_parse_f64(const char *s, double *out);

/* Loads a model like jc_model_load; "-" reads it from standard input
 * (src/cli/io.c). */
jc_status cli_model_load(const char *path, jc_model **out, jc_diag *d);
/* The command line an output is checked against (main, once) and a file
 * read that is not on it (a job file's model; borrowed, kept). */
void cli_set_argv(int argc, char **argv);
void cli_note_input(const char *path);
/* 0 when the output file `out` of option opt ("--html") is none of the
 * files named on the command line (or by cli_note_input): jc_same_file,
 * device and inode; else the message and JC_ERR_USAGE ("-": 0). */
int cli_output_check(const char *opt, const char *out);
/* Prints the `joulecast --version` report (program version, hwdb data
 * version and folder) to f; returns the exit code (0). */
int cli_version(FILE *f);

/* The bundled hwdb folder (see src/cli/hwdb_open.c), or NULL. */
const char *cli_bundled_hwdb(char *buf, size_t cap);
/* Loads bundled + --hwdb layers + $JOULECAST_HWDB; prints the error and
 * returns the exit code on failure, 0 on success. */
int cli_hwdb_open(const char *const *layers, size_t n_layers, jc_hwdb **db);
/* The same; snapshot 0 always parses the YAML (hwdb check). */
int cli_hwdb_open_from(const char *const *layers, size_t n_layers, int snapshot,
                       jc_hwdb **db);
/* The snapshot file cli_hwdb_open tries (see src/cli/hwdb_open.c), or
 * NULL when there is none or $JOULECAST_HWDB_SNAPSHOT is "off";
 * for_display: spelled relative to the working directory (costs a
 * realpath, so runs skip it). */
const char *cli_hwdb_snapshot_path(char *buf, size_t cap, int for_display);

/* Command entry points (one file each: src/cli/cmd_<name>.c) and their
 * --help pages (src/cli/help.c), one line each in commands.def. */
#define CLI_COMMAND(name, summary) int cmd_##name(int argc, char **argv); extern const cli_help help_##name;
#include "cli/commands.def"
#undef CLI_COMMAND

/* The option rows of count's and trace's pages (cmd_count.c,
 * cmd_trace.c): the rows those commands parse. */
void count_help_rows(FILE *f, const char *cmd);
void trace_help_rows(FILE *f, const char *cmd);

/* Matches "--hwdb DIR" at argv[*i] (like cli_opt) and appends DIR to
 * layers (room for argc entries); returns 1 on a match.  (cmd_hwdb.c) */
int cli_hwdb_layer_opt(int argc, char **argv, int *i, const char **layers,
                       size_t *n_layers, int *err);

#endif
