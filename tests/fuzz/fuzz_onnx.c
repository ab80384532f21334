/*
 * fuzz_onnx.c - libFuzzer target: the ONNX loader, shape inference and
 * counting on arbitrary bytes.  The input is loaded as a model from a
 * buffer (jc_model_load_buffer), analysed at batch 1 (jc_analyze) and
 * rendered by the inspect and count reports; every status is accepted,
 * only crashes, sanitizer reports and leaks are findings.
 * Built by `make fuzz` (clang -fsanitize=fuzzer,address,undefined) and
 * replayed over tests/fuzz/regress/onnx/ by tests/fuzz_regress.sh.
 */
#include "joulecast.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    jc_model *m = NULL;
    jc_diag d;
    if (jc_model_load_buffer(data, size, "fuzz.onnx", &m, &d) != JC_OK) return 0;
    char *js = jc_report_inspect_json(m);
    free(js);
    jc_analyze_opts o = {0};
    o.batch = 1;
    jc_analysis *an = NULL;
    if (jc_analyze(m, &o, &an, &d) == JC_OK) {
        char *cj = jc_report_count_json(an);
        free(cj);
        jc_analysis_free(an);
    }
    jc_model_free(m);
    return 0;
}
