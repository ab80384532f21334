/*
 * fuzz_estimate_cli.c - libFuzzer target: the command line of
 * `joulecast estimate`.  The input is split at NUL bytes into an argv
 * (at most 64 arguments) and passed to the command's entry point,
 * cmd_estimate, exactly as main() would: option parsing, job files and
 * models named on the line, the workload and energy stages and the
 * reports all run.  The CLI sources are compiled into this file so that
 * the bundled hardware database can be loaded once per process instead
 * of once per input (cli_hwdb_open and jc_hwdb_free are renamed to the
 * caching versions below); --hwdb layers still load for real.  Reports
 * go to /dev/null, and so does --html FILE (jo_html_open is renamed to a
 * version that never creates a file: the fuzzer must not write into the
 * tree it runs in).  Every exit code is accepted; crashes, sanitizer
 * reports and leaks are findings.
 */
#include "cli/cli.h"
#include "joulecast.h"

#include <stdlib.h>
#include <string.h>

static jc_hwdb *fz_db;       /* the bundled database, loaded once */
static int fz_db_rc = -1;

static int fuzz_hwdb_open(const char *const *layers, size_t n_layers, jc_hwdb **db)
{
    if (n_layers) return cli_hwdb_open(layers, n_layers, db);
    if (fz_db_rc < 0) fz_db_rc = cli_hwdb_open(NULL, 0, &fz_db);
    *db = fz_db_rc ? NULL : fz_db;
    return fz_db_rc;
}

static void fuzz_hwdb_free(jc_hwdb *db)
{
    if (db && db != fz_db) jc_hwdb_free(db);
}

/* --html FILE (command line or job file): render into /dev/null */
FILE *fuzz_html_open(const char *path, int *rc);
FILE *fuzz_html_open(const char *path, int *rc)
{
    if (!strcmp(path, "-")) return stdout;
    FILE *f = fopen("/dev/null", "w");
    if (!f) *rc = JC_ERR_IO;
    return f;
}

#define main joulecast_cli_main
#include "cli/main.c"
#undef main

#define cli_hwdb_open fuzz_hwdb_open
#define jc_hwdb_free fuzz_hwdb_free
#define jo_html_open fuzz_html_open
#include "cli/cmd_estimate.c"
#undef cli_hwdb_open
#undef jc_hwdb_free
#undef jo_html_open

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc; (void)argv;
    unsetenv("JOULECAST_HWDB");
    if (!freopen("/dev/null", "w", stdout)) return 0;
    return 0;
}

#define FZ_MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096) return 0;
    char *buf = malloc(size + 1);
    if (!buf) return 0;
    if (size) memcpy(buf, data, size);
    buf[size] = 0;
    char *argv[FZ_MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = (char *)"estimate";
    char *p = buf, *end = buf + size;
    while (p < end && argc < FZ_MAX_ARGS + 1) {
        argv[argc++] = p;
        p += strlen(p) + 1;
    }
    argv[argc] = NULL;
    (void)cmd_estimate(argc, argv);
    fflush(stdout);
    free(buf);
    return 0;
}
