/*
 * fuzz_common.h - what the file-based fuzz targets share: a private
 * temporary folder (made once per process, removed at exit) and a helper
 * that writes one input into a file there, since the hwdb and job-file
 * readers take paths, not buffers.
 */
#ifndef JC_FUZZ_COMMON_H
#define JC_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char fz_dir[64];

static void fz_cleanup(void)
{
    char p[128];
    snprintf(p, sizeof p, "%s/in.yaml", fz_dir);
    unlink(p);
    rmdir(fz_dir);
}

/* Writes data to <tmpdir>/in.yaml and returns the path (static buffer),
 * or NULL if the file cannot be written (the input is then skipped). */
static const char *fz_write(const uint8_t *data, size_t size)
{
    static char path[128];
    if (!fz_dir[0]) {
        const char *t = getenv("TMPDIR");
        snprintf(fz_dir, sizeof fz_dir, "%.40s/jcfuzz.XXXXXX", t && *t ? t : "/tmp");
        if (!mkdtemp(fz_dir)) { fz_dir[0] = 0; return NULL; }
        atexit(fz_cleanup);
    }
    snprintf(path, sizeof path, "%s/in.yaml", fz_dir);
    FILE *f = fopen(path, "wb");
    if (!f) return NULL;
    size_t w = size ? fwrite(data, 1, size, f) : 0;
    if (fclose(f) != 0 || w != size) return NULL;
    return path;
}

#endif
