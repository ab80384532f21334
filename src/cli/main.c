/*
 * main.c (cli) - the joulecast command line: dispatches to one file per command
 * (src/cli/cmd_*.c) and maps library statuses to exit codes (the jc_status
 * values; see README "Exit codes").  Only the CLI writes to the terminal.
 */
#include "cli/cli.h"
#include "cli/jobopts.h"
#include "joulecast/bind.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const cli_cmd commands[] = {
#define CLI_COMMAND(name, summary) {#name, cmd_##name, summary, &help_##name},
#include "cli/commands.def"
#undef CLI_COMMAND
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

/* Prints command c's --help page (cli_help). */
static void help_page(FILE *f, const cli_cmd *c)
{
    const cli_help *h = c->help;
    fputs(h->about, f);
    if (h->spec) jo_help_spec(f, h->spec);
    else if (h->rows) h->rows(f, c->name);
    if (h->tail) fputs(h->tail, f);
}

int cli_fail(const jc_diag *d)
{
    fprintf(stderr, "joulecast: %s\n", d->msg[0] ? d->msg : jc_status_name(d->status));
    return d->status ? (int)d->status : 1;
}

/* "joulecast: CMD: message" on stderr: the one prefix style. */
static void vreport(const char *cmd, const char *fmt, va_list ap)
{
    fprintf(stderr, "joulecast: %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int cli_usage(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(cmd, fmt, ap);
    va_end(ap);
    fprintf(stderr, "(see 'joulecast help %s')\n", cmd);
    return JC_ERR_USAGE;
}

int cli_range(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(cmd, fmt, ap);
    va_end(ap);
    return JC_ERR_RANGE;
}

int cli_emit_json(char *s)
{
    if (!s) {
        fprintf(stderr, "joulecast: out of memory\n");
        return JC_ERR_NOMEM;
    }
    fputs(s, stdout);
    fputc('\n', stdout);
    jc_free(s);
    return 0;
}

int cli_written(jc_status st)
{
    return st ? JC_ERR_IO : 0;
}

int cli_json_and_arg(const char *cmd, int argc, char **argv, int from, const char **arg, int *json)
{
    for (int i = from; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) *json = 1;
        else if (argv[i][0] == '-' && argv[i][1]) return cli_usage(cmd, "unknown option '%s'", argv[i]), -1;
        else if (*arg) return i;
        else *arg = argv[i];
    }
    return 0;
}

bool cli_opt(int argc, char **argv, int *i, const char *name,
             const char **val, int *err)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0) return false;
    if (a[n] == '=') {
        *val = a + n + 1;
        return true;
    }
    if (a[n] != 0) return false;
    if (*i + 1 >= argc) {
        fprintf(stderr, "joulecast: option %s needs a value\n", name);
        *err = 1;
        return true;
    }
    *val = argv[++*i];
    return true;
}

const char *cli_earlier_value(char **argv, int at, const char *name, const char *val)
{
    size_t n = strlen(name);
    for (int j = 1; j < at; j++) {
        const char *a = argv[j], *prev = NULL;
        if (strncmp(a, name, n)) continue;
        if (a[n] == '=') prev = a + n + 1;
        else if (!a[n] && j + 1 < at) prev = argv[++j];
        if (prev && strcmp(prev, val)) return prev;
    }
    return NULL;
}

bool cli_opt_once(int argc, char **argv, int *i, const char *cmd, const char *name, const char **val, int *err)
{
    int at = *i;
    if (!cli_opt(argc, argv, i, name, val, err)) return false;
    const char *prev = *err ? NULL : cli_earlier_value(argv, at, name, *val);
    if (prev) {
        cli_usage(cmd, "%s %s and %s %s: one value is lost; give the option once", name, prev, name, *val);
        *err = 1;
    }
    return true;
}

bool cli_parse_i64(const char *s, int64_t *out)
{
    if (!s || !*s) return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || *end || v < 0) return false;
    *out = v;
    return true;
}

bool cli_parse_f64(const char *s, double *out)
{
    if (!s || !*s) return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !isfinite(v)) return false;
    *out = v;
    return true;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: joulecast COMMAND [options]\n\n"
               "Predicts the time, energy and emissions of training or running a\n"
               "neural network from its ONNX file, before any code runs.\n\n"
               "commands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "  %-10s %s\n", "help", "help COMMAND: options of one command");
    fprintf(f, "\n'joulecast --version' prints the version and the hardware database's\n"
               "data version.  A model given as '-' is read from standard input.\n"
               "Exit codes and environment: man joulecast.\n");
}

/* stdout and stderr through the terminal-safe rule (jc_safe_stream):
 * every report and diagnostic escapes control bytes and bidi overrides
 * that a model, trace or hwdb string brings (where the C library allows
 * replacing the standard streams). */
#if defined(__GLIBC__)
static FILE *raw_out, *raw_err;

/* at exit: the safe streams flushed and closed, the raw ones back */
static void close_safe_streams(void)
{
    if (stdout != raw_out) {
        FILE *f = stdout;
        stdout = raw_out;
        fclose(f);
    }
    if (stderr != raw_err) {
        FILE *f = stderr;
        stderr = raw_err;
        fclose(f);
    }
}
#endif

static void safe_streams(void)
{
#if defined(__GLIBC__)
    raw_out = stdout;
    raw_err = stderr;
    FILE *o = jc_safe_stream(1, 1), *e = jc_safe_stream(2, 0);
    if (o) stdout = o;
    if (e) stderr = e;
    atexit(close_safe_streams);
#endif
}

/* --csv-raw (any command writing CSV): drops the formula guard of CSV
 * cells (jc_csv_raw); taken out of argv here, refused without a CSV
 * output.  0, or the exit status. */
static int csv_raw_option(int *argc, char **argv)
{
    int raw = 0, csv = 0, k = 1;
    for (int i = 1; i < *argc; i++) {
        if (!strcmp(argv[i], "--csv-raw")) {
            raw = 1;
            continue;
        }
        if (!strcmp(argv[i], "--csv") || !strcmp(argv[i], "codecarbon") || !strcmp(argv[i], "--format=codecarbon"))
            csv = 1;
        argv[k++] = argv[i];
    }
    argv[k] = NULL;
    *argc = k;
    if (raw && !csv) {
        fprintf(stderr, "joulecast: --csv-raw has no effect without --csv or --format codecarbon\n");
        return JC_ERR_USAGE;
    }
    jc_csv_raw(raw);
    return 0;
}

/* The command closest to what was typed, for "did you mean"; NULL when
 * none is close. */
static const char *closest_command(const char *typed)
{
    const char *names[N_COMMANDS + 1];
    for (size_t i = 0; i < N_COMMANDS; i++) names[i] = commands[i].name;
    names[N_COMMANDS] = "help";
    return jc_closest_name(typed, names, N_COMMANDS + 1);
}

/* Standard output flushed and closed at the end of every command: a
 * write that failed at any point (a full disk, a closed pipe's EIO) is
 * "cannot write standard output" and exit 3 (JC_ERR_IO) where the command
 * itself succeeded; a command's own failure keeps its status.  The safe
 * stream reports its first failed write, with its errno, at the close. */
static int finish_output(int rc)
{
    int err = 0;
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) err = errno ? errno : EIO;
#if defined(__GLIBC__)
    if (stdout != raw_out) {   /* the safe stream: its close writes a cut UTF-8 tail */
        FILE *f = stdout;
        stdout = raw_out;
        errno = 0;   /* the safe stream's close reports its first failed write */
        if (fclose(f) != 0) err = errno ? errno : err ? err : EIO;
    }
#endif
    if (!err) return rc;
    fprintf(stderr, "joulecast: cannot write standard output: %s\n", strerror(err));
    return rc ? rc : JC_ERR_IO;
}

static int run(int argc, char **argv)
{
    int rc = csv_raw_option(&argc, argv);
    if (rc) return rc;
    if (argc < 2) {
        usage(stderr);
        return JC_ERR_USAGE;
    }
    const char *c = argv[1];
    if (!strcmp(c, "--help") || !strcmp(c, "-h")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(c, "--version")) {
        return cli_version(stdout);
    }
    if (!strcmp(c, "help")) {
        if (argc < 3) {
            usage(stdout);
            return 0;
        }
        for (size_t i = 0; i < N_COMMANDS; i++)
            if (!strcmp(argv[2], commands[i].name)) {
                help_page(stdout, &commands[i]);
                return 0;
            }
        if (!strcmp(argv[2], "help")) {   /* help is a command too */
            fputs("usage: joulecast help COMMAND\n\nPrints the options of one command, as "
                  "joulecast COMMAND --help does; joulecast help alone lists the commands.\n", stdout);
            return 0;
        }
        const char *near = closest_command(argv[2]);
        fprintf(stderr, "joulecast: no command '%s'%s%s%s (joulecast help lists them)\n", argv[2],
                near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
        return JC_ERR_USAGE;
    }
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (!strcmp(c, commands[i].name)) {
            for (int k = 2; k < argc; k++)
                if (!strcmp(argv[k], "--help") || !strcmp(argv[k], "-h")) {
                    help_page(stdout, &commands[i]);
                    return 0;
                }
            return commands[i].run(argc - 1, argv + 1);
        }
    const char *near = closest_command(c);
    fprintf(stderr, "joulecast: unknown command '%s'%s%s%s\n", c, near ? "; did you mean '" : "",
            near ? near : "", near ? "'?" : "");
    usage(stderr);
    return JC_ERR_USAGE;
}

int main(int argc, char **argv)
{
    safe_streams();
    cli_set_argv(argc, argv);
    return finish_output(run(argc, argv));
}
