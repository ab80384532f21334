/*
 * fuzz_oprules.c - libFuzzer target: op-rules files (count --op-rules)
 * and their expressions.  The input is written to a temporary .yaml file
 * and given as the op-rules file of an analysis of a small model with a
 * custom op (com.example:FusedDense, tests/models/cost/
 * custom_fused_dense.onnx, read once from the repository root, where
 * `make fuzz` and the replay run; elsewhere every input is skipped), so a
 * file that compiles is also evaluated against a node.  Every status is accepted; crashes,
 * sanitizer reports, leaks and stack overflows are findings.
 */
#include "joulecast.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static jc_model *model;
static int tried;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    jc_diag d;
    if (!tried) {
        tried = 1;
        if (jc_model_load("tests/models/cost/custom_fused_dense.onnx", &model, &d) != JC_OK) model = NULL;
    }
    if (!model) return 0;
    const char *path = fz_write(data, size);
    if (!path) return 0;
    jc_analyze_opts o = {0};
    o.batch = 1;
    o.op_rules_path = path;
    jc_analysis *an = NULL;
    if (jc_analyze(model, &o, &an, &d) == JC_OK) {
        char *cj = jc_report_count_json(an);
        free(cj);
        jc_analysis_free(an);
    }
    return 0;
}
