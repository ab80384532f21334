/*
 * fuzz_jobfile.c - libFuzzer target: the job-file parser
 * (jc_jobfile_load).  The input is written to a temporary .yaml file and
 * read back into key/value pairs; every status is accepted, crashes,
 * sanitizer reports and leaks are findings.
 */
#include "joulecast.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fz_write(data, size);
    if (!path) return 0;
    jc_jobfile *jf = NULL;
    jc_diag d;
    if (jc_jobfile_load(path, &jf, &d) == JC_OK) {
        size_t total = 0;   /* touch every pair */
        for (size_t i = 0; i < jf->n; i++)
            total += strlen(jf->keys[i]) + strlen(jf->values[i]) +
                     (size_t)(jf->lines[i] + jf->cols[i]);
        if (total == (size_t)-1) abort();
        jc_jobfile_free(jf);
    }
    return 0;
}
