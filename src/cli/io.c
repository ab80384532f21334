/*
 * io.c (cli) - the CLI's conventions shared by every command that are not
 * option parsing: a model loaded as the library's request loads it ("-"
 * reads standard input: jc_request_load), an output file refused when it
 * is one of the command's inputs (cli_output_check), and
 * `joulecast --version` reports the program's version together with the
 * hardware database it would use and that database's data version (the
 * first line of its VERSION file, see hwdb/README.md "Data version").
 */
#include "cli/cli.h"
#include "joulecast.h" /* JC_VERSION */

#include <stdlib.h>
#include <string.h>

jc_status cli_model_load(const char *path, jc_model **out, jc_diag *d)
{
    jc_request rq;
    jc_request_init(&rq);
    rq.model = path;
    return jc_request_load(&rq, out, d);
}

/* The command line (main) and the files a job file named: what an output
 * must not be. */
static int io_argc;
static char **io_argv;
static const char *io_inputs[16];
static size_t io_n_inputs;

void cli_set_argv(int argc, char **argv)
{
    io_argc = argc;
    io_argv = argv;
}

void cli_note_input(const char *path)
{
    for (size_t i = 0; path && i < io_n_inputs; i++)
        if (io_inputs[i] == path) return;
    if (path && io_n_inputs < sizeof io_inputs / sizeof io_inputs[0]) io_inputs[io_n_inputs++] = path;
}

int cli_output_check(const char *opt, const char *out)
{
    if (!out || !strcmp(out, "-")) return 0;
    for (size_t i = 1; i < (size_t)io_argc + io_n_inputs; i++) {
        const char *a = i < (size_t)io_argc ? io_argv[i] : io_inputs[i - (size_t)io_argc];
        const char *eq = a[0] == '-' && a[1] == '-' ? strchr(a, '=') : NULL;
        const char *cand[2] = {a, eq ? eq + 1 : NULL};   /* a file, or --opt=FILE */
        for (int k = 0; k < 2; k++)
            if (cand[k] && cand[k] != out && jc_same_file(out, cand[k])) {
                fprintf(stderr, "joulecast: %s %s is %s, an input of this command: writing it would replace it; "
                                "give another file\n", opt, out, cand[k]);
                return JC_ERR_USAGE;
            }
    }
    return 0;
}

int cli_version(FILE *f)
{
    char buf[4200];
    fprintf(f, "joulecast %s\n", JC_VERSION);
    const char *dir = cli_bundled_hwdb(buf, sizeof buf);
    if (!dir) {
        fprintf(f, "hwdb      not found (set JOULECAST_HWDB_DIR or pass --hwdb DIR)\n");
        return 0;
    }
    char vpath[4400], line[256] = "";
    snprintf(vpath, sizeof vpath, "%s/VERSION", dir);
    FILE *vf = fopen(vpath, "r");
    if (vf) {
        if (!fgets(line, sizeof line, vf)) line[0] = 0;
        fclose(vf);
        line[strcspn(line, "\r\n")] = 0;
    }
    fprintf(f, "hwdb      %s\n", line[0] ? line : "(no VERSION file)");
    char real[4096];
    fprintf(f, "hwdb-dir  %s\n", realpath(dir, real) ? real : dir);
    return 0;
}
