/*
 * fuzz_trace.c - libFuzzer target: power traces (joulecast trace).  The
 * input is written to a temporary file and read by jc_trace_load with the
 * format detected from its header (nvidia-smi, dcgmi, codecarbon,
 * carbontracker, powerjoular, scaphandre) or, for inputs whose first byte
 * is odd, as the plain watts CSV of the device scope; a trace that loads
 * is rendered by the text and JSON reports.  Every status is accepted;
 * crashes, sanitizer reports and leaks are findings, and so is a loaded
 * trace whose energy is not finite (every result is finite or refused).
 */
#include "joulecast.h"
#include "fuzz_common.h"

#include <math.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fz_write(data, size);
    if (!path) return 0;
    jc_trace_opts o;
    jc_trace_opts_init(&o);
    if (size && (data[0] & 1)) o.scope = JC_TRACE_DEVICE;
    jc_trace *t = NULL;
    jc_diag d;
    if (jc_trace_load(path, &o, &t, &d) == JC_OK) {
        for (int s = 0; s < JC_TRACE_SCOPE_COUNT; s++)
            if (!isfinite(t->energy_j[s]) || !isfinite(t->duration_s)) abort();
        FILE *f = fopen("/dev/null", "w");
        if (f) {
            jc_report_trace_text(t, f);
            fclose(f);
        }
        char *js = jc_report_trace_json(t);
        free(js);
        jc_trace_free(t);
    }
    return 0;
}
