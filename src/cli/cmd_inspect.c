/*
 * cmd_inspect.c (cli) - `joulecast inspect MODEL.onnx [--json]`: what the file
 * holds, read without touching the weights.
 */
#include "cli/cli.h"
#include "joulecast/inspect.h"
#include "joulecast/model.h"

#include <stdlib.h>
#include <string.h>

int cmd_inspect(int argc, char **argv)
{
    const char *path = NULL;
    int json = 0;
    int i = cli_json_and_arg("inspect", argc, argv, 1, &path, &json);
    if (i < 0) return JC_ERR_USAGE;
    if (i) return cli_usage("inspect", "one model at a time ('%s' and '%s')", path, argv[i]);
    if (!path) return cli_usage("inspect", "missing MODEL.onnx");
    jc_diag d;
    jc_model *m;
    if (cli_model_load(path, &m, &d)) return cli_fail(&d);
    int rc = json ? cli_emit_json(jc_report_inspect_json(m)) : cli_written(jc_report_inspect_text(m, stdout));
    jc_model_free(m);
    return rc;
}
