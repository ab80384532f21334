/*
 * io.c (cli) - the CLI's conventions shared by every command that are not
 * option parsing: a model loaded as the library's request loads it ("-"
 * reads standard input: jc_request_load), and
 * `joulecast --version` reports the program's version together with the
 * hardware database it would use and that database's data version (the
 * first line of its VERSION file, see hwdb/README.md "Data version").
 */
#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>

jc_status cli_model_load(const char *path, jc_model **out, jc_diag *d)
{
    jc_request rq;
    jc_request_init(&rq);
    rq.model = path;
    return jc_request_load(&rq, out, d);
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
