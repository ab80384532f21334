/*
 * fuzz_snapshot.c - libFuzzer target: the hwdb snapshot reader
 * (jc_hwdb_snapshot_open, issue 43 item 1).  The input is a snapshot
 * image; the harness does what a forger does: it writes the header's
 * magic, format, layout hash and base of this build (taken from a
 * snapshot of hwdb/providers.yaml written once per process), the length,
 * and the checksum recomputed over the input, so every input reaches the
 * validation of pointers, offsets, counts, strings and references.  The
 * file is opened mapped in place and relocated, without the comparison
 * with the folder's files (JCI_SNAPSHOT_ANY_FOLDER); a database that opens
 * is walked by the hw and region list reports.  Every status is accepted;
 * crashes, sanitizer reports and leaks are findings.  Seeds: snapshots of
 * small hwdb files and their forged copies (tests/fuzz/run.sh,
 * tests/snapshot/forge_snapshot.py).
 */
#include "joulecast.h"
#include "hwdb/hwdb_int.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The header fields this build writes (magic, format, abi, base). */
static int ref_header(hs_header *ref)
{
    static hs_header h;
    static int state;   /* 0: not yet, 1: have it, -1: cannot */
    if (!state) {
        const char *p = fz_write((const uint8_t *)"", 0);
        FILE *f = NULL;
        state = -1;
        jc_diag d;
        if (p && jc_hwdb_snapshot_write("hwdb/providers.yaml", p, &d) == JC_OK && (f = fopen(p, "rb")) &&
            fread(&h, sizeof h, 1, f) == 1)
            state = 1;
        if (f) fclose(f);
    }
    *ref = h;
    return state == 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    hs_header ref;
    if (size > ((size_t)1 << 22) || !ref_header(&ref)) return 0;
    size_t len = size < 4096 ? 4096 : size;
    unsigned char *img = calloc(1, len);
    if (!img) return 0;
    memcpy(img, data, size);
    hs_header h;
    memcpy(&h, img, sizeof h);
    memcpy(h.magic, ref.magic, sizeof h.magic);
    h.format = ref.format;
    h.abi = ref.abi;
    h.base = ref.base;
    h.length = len;
    h.checksum = 0;
    memcpy(img, &h, sizeof h);
    h.checksum = hs_image_checksum(img, len);
    memcpy(img, &h, sizeof h);
    const char *path = fz_write(img, len);
    free(img);
    if (!path) return 0;
    for (unsigned flags = JCI_SNAPSHOT_ANY_FOLDER; flags <= (JCI_SNAPSHOT_ANY_FOLDER | JCI_SNAPSHOT_RELOCATE);
         flags += JCI_SNAPSHOT_RELOCATE) {
        jc_hwdb *db = NULL;
        jc_diag d;
        if (jc_hwdb_snapshot_open(path, "hwdb", flags, &db, &d) != JC_OK) continue;
        char *js = jc_report_hw_list_json(db, NULL);
        free(js);
        FILE *f = fopen("/dev/null", "w");
        if (f) {
            jc_report_hw_list_text(db, NULL, f);
            jc_report_region_list_text(db, NULL, NULL, f);
            fclose(f);
        }
        const jc_device *dev = NULL;
        const jc_host *host = NULL;
        jc_hwdb_hardware(db, "a100", &dev, &host, &d);
        const jc_region *r = NULL;
        jc_hwdb_region(db, "FR", &r, &d);
        jc_hwdb_free(db);
    }
    return 0;
}
