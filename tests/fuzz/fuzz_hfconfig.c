/*
 * fuzz_hfconfig.c - libFuzzer target: Hugging Face config.json files
 * (`--hf-config`).  The input is written to a temporary file and read by
 * jc_arch_load_hf; an architecture that loads is measured as the serving
 * and training models measure it (jc_arch_params, the KV bytes per
 * token).  Every status is accepted; crashes, sanitizer reports (a signed
 * overflow in a product of two keys), leaks and a hang (a list walked once
 * per layer: libFuzzer's -timeout) are findings, and so is a loaded
 * architecture whose parameter count is not finite and positive or whose
 * active parameters exceed the total.
 */
#include "joulecast.h"
#include "fuzz_common.h"

#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fz_write(data, size);
    if (!path) return 0;
    jc_arch *a = NULL;
    jc_diag d;
    if (jc_arch_load_hf(path, &a, &d) == JC_OK) {
        double tot = 0, act = 0;
        jc_arch_params(a, &tot, &act);
        double kv = jc_arch_kv_bytes_per_token(a, 2);
        if (!isfinite(tot) || !(tot > 0) || !(act > 0) || act > tot || !isfinite(kv) || !(kv > 0)) abort();
        jc_arch_free(a);
    }
    return 0;
}
