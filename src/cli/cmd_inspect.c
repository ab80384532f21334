/*
 * cmd_inspect.c - `joulecast inspect MODEL.onnx [--json]`: what the file
 * holds, read without touching the weights.
 */
#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>

void help_inspect(FILE *f)
{
    fprintf(f,
        "usage: joulecast inspect MODEL.onnx [--json]\n\n"
        "Shows the IR version, producer, opset imports, inputs and outputs\n"
        "(dtype and dims, symbolic names kept), node count per op type,\n"
        "parameters and weight bytes, external data files, functions and\n"
        "subgraphs.  Weight payloads and external data files are never read.\n\n"
        "  --json   the same as JSON (schema: docs/json-schemas.md)\n");
}

int cmd_inspect(int argc, char **argv)
{
    const char *path = NULL;
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) json = 1;
        else if (argv[i][0] == '-' && argv[i][1])
            return cli_usage("inspect", "unknown option '%s'", argv[i]);
        else if (path)
            return cli_usage("inspect", "one model at a time ('%s' and '%s')", path, argv[i]);
        else path = argv[i];
    }
    if (!path) return cli_usage("inspect", "missing MODEL.onnx");
    jc_diag d;
    jc_model *m;
    if (cli_model_load(path, &m, &d)) return cli_fail(&d);
    int rc = 0;
    if (json) {
        rc = cli_emit_json(jc_report_inspect_json(m));
    } else if (jc_report_inspect_text(m, stdout)) {
        rc = JC_ERR_IO;
    }
    jc_model_free(m);
    return rc;
}
