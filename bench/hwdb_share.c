/*
 * hwdb_share.c - benchmark driver: how much of an `estimate` run is spent
 * loading the hardware database.  Runs REPS times (a) jc_hwdb_load of the
 * bundled folder alone and (b) the whole estimate pipeline as the CLI
 * does it (hwdb load, model load, jc_analyze at batch 1, jc_estimate_run
 * for inference on an A100 in US-CA, text report to /dev/null), the two
 * interleaved, and prints "<hwdb_wall> <estimate_wall> <hwdb_cpu>
 * <estimate_cpu>": mean seconds per run, wall (CLOCK_MONOTONIC) and CPU
 * (CLOCK_PROCESS_CPUTIME_ID, not disturbed by other jobs on the
 * machine).  Built and run by bench/run.sh only.
 */
#include "joulecast.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static double cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: hwdb_share HWDB_DIR MODEL.onnx REPS\n");
        return 2;
    }
    const char *dir = argv[1], *model = argv[2];
    int reps = atoi(argv[3]);
    if (reps < 1) reps = 1;
    FILE *null = fopen("/dev/null", "w");
    if (!null) return 3;
    jc_diag d;
    double hw = 0, hc = 0, ew = 0, ec = 0;
    for (int i = 0; i < reps; i++) {
        double w0 = now(), c0 = cpu();
        jc_hwdb *db = NULL;
        if (jc_hwdb_load(dir, NULL, 0, NULL, &db, &d)) { fprintf(stderr, "%s\n", d.msg); return 1; }
        jc_hwdb_free(db);
        double w1 = now(), c1 = cpu();
        db = NULL;
        jc_model *m = NULL;
        jc_analysis *an = NULL;
        jc_estimate *e = NULL;
        jc_analyze_opts o = {0};
        o.batch = 1;
        jc_job job;
        jc_job_init(&job);
        job.device = "a100";
        job.region = "US-CA";
        job.requests = 1e6;
        job.batch = 1;
        if (jc_hwdb_load(dir, NULL, 0, NULL, &db, &d) || jc_model_load(model, &m, &d) ||
            jc_analyze(m, &o, &an, &d) || jc_estimate_run(&job, an, db, &e, &d)) {
            fprintf(stderr, "%s\n", d.msg);
            return 1;
        }
        jc_report_estimate_text(e, null);
        jc_estimate_free(e);
        jc_analysis_free(an);
        jc_model_free(m);
        jc_hwdb_free(db);
        double w2 = now(), c2 = cpu();
        hw += w1 - w0; hc += c1 - c0; ew += w2 - w1; ec += c2 - c1;
    }
    fclose(null);
    printf("%.6f %.6f %.6f %.6f\n", hw / reps, ew / reps, hc / reps, ec / reps);
    return 0;
}
