/*
 * batch.c - benchmark driver: what an architecture search embedding
 * libjoulecast does, one process looping over many models.  For each file
 * named on the command line: jc_model_load, jc_analyze at batch 1 and the
 * count report as JSON (discarded); then prints one line
 *   "<files> <failed> <wall_seconds> <cpu_seconds>"
 * for the whole loop (CLOCK_MONOTONIC, CLOCK_PROCESS_CPUTIME_ID).  A file that
 * fails to load or analyse is counted and reported on stderr, never
 * skipped silently.  Built and run by bench/run.sh only.
 */
#include "joulecast.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: batch MODEL.onnx...\n");
        return 2;
    }
    struct timespec t0, t1, c0, c1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    int failed = 0;
    for (int i = 1; i < argc; i++) {
        jc_model *m = NULL;
        jc_analysis *an = NULL;
        jc_diag d;
        jc_analyze_opts o = {0};
        o.batch = 1;
        if (jc_model_load(argv[i], &m, &d) || jc_analyze(m, &o, &an, &d)) {
            fprintf(stderr, "batch: %s\n", d.msg);
            failed++;
        } else {
            char *js = jc_report_count_json(an);
            if (!js) failed++;
            free(js);
        }
        jc_analysis_free(an);
        jc_model_free(m);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    printf("%d %d %.6f %.6f\n", argc - 1, failed,
           (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
           (double)(c1.tv_sec - c0.tv_sec) + (c1.tv_nsec - c0.tv_nsec) / 1e9);
    return failed ? 1 : 0;
}
