/*
 * fuzz_hwdb.c - libFuzzer target: the hardware-database YAML loader.  The
 * input is written to a temporary file and loaded as the only layer
 * (jc_hwdb_load with no bundled folder), so the YAML reader, the schema
 * validation, layering and the name indexes all see it; a loaded database
 * is also listed through the JSON reports.  Every status is accepted;
 * crashes, sanitizer reports and leaks are findings.
 */
#include "joulecast.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fz_write(data, size);
    if (!path) return 0;
    const char *layers[1] = {path};
    jc_hwdb *db = NULL;
    jc_diag d;
    if (jc_hwdb_load(NULL, layers, 1, NULL, &db, &d) == JC_OK) {
        const jc_device *dev = NULL;
        jc_hwdb_device(db, "a100", &dev, &d);
        jc_hwdb_free(db);
    }
    return 0;
}
