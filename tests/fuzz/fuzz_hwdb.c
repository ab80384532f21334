/*
 * fuzz_hwdb.c - libFuzzer target: the hardware-database YAML loader.  The
 * input is written to a temporary file and loaded as a layer: as the only
 * layer (no bundled folder) for most inputs, and as an override layer on
 * top of the bundled hwdb/ for inputs whose size is a multiple of 8 (about
 * one in eight: the bundled load costs ~20 ms), so the YAML reader, the
 * schema validation, the merging of layers and the name indexes all see
 * it; a loaded database is then queried.  Every status is accepted;
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
#ifdef JC_HWDB_DIR
    const char *base = size % 8 == 0 ? JC_HWDB_DIR : NULL;
#else
    const char *base = NULL;
#endif
    if (jc_hwdb_load(base, layers, 1, NULL, &db, &d) == JC_OK) {
        const jc_device *dev = NULL;
        jc_hwdb_device(db, "a100", &dev, &d);
        jc_hwdb_free(db);
    }
    return 0;
}
