/*
 * montecarlo.c - benchmark driver (issue 45 item 2): what 10,000 Monte
 * Carlo draws cost against one estimate of an analysed graph.  Loads the
 * database and MODEL once, analyses it once at batch 256, then times
 * REPS rounds of, one after the other:
 *   one       jc_estimate_run of the README's training job (ResNet-50, 90
 *             epochs, 8 x A100, US-CA) on the analysis
 *   draws     the same with --draws 10000 --seed 1 (the sensitivity's two
 *             runs per ranged input, then the draws)
 *   draws_only  draws minus the same job with --sensitivity alone (what
 *             the draws themselves add)
 * and prints "<name> <cpu_s per run>" lines, then "ratio <draws / one>"
 * (CPU from CLOCK_PROCESS_CPUTIME_ID: not disturbed by other jobs).
 * Built and run by bench/montecarlo.sh.
 */
#include "joulecast.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double cpu(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* CPU seconds of one jc_estimate_run of job on an; negative on failure. */
static double one(const jc_job *job, const jc_analysis *an, const jc_hwdb *db)
{
    jc_estimate *e = NULL;
    jc_diag d;
    double c0 = cpu();
    if (jc_estimate_run(job, an, db, &e, &d)) {
        fprintf(stderr, "montecarlo bench: %s\n", d.msg);
        return -1;
    }
    double c = cpu() - c0;
    jc_estimate_free(e);
    return c;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: montecarlo HWDB_DIR MODEL.onnx REPS\n");
        return 2;
    }
    int reps = atoi(argv[3]);
    if (reps < 1) reps = 1;
    jc_hwdb *db = NULL;
    jc_model *m = NULL;
    jc_analysis *an = NULL;
    jc_analyze_opts o = {0};
    o.batch = 256;
    jc_diag d;
    if (jc_hwdb_load(argv[1], NULL, 0, NULL, &db, &d) || jc_model_load(argv[2], &m, &d) || jc_analyze(m, &o, &an, &d)) {
        fprintf(stderr, "montecarlo bench: %s\n", d.msg);
        return 1;
    }
    jc_job job;
    jc_job_init(&job);
    job.mode = JC_MODE_TRAINING;
    job.samples = 1281167;
    job.epochs = 90;
    job.batch = 256;
    job.device = "a100";
    job.count = 8;
    job.region = "US-CA";
    jc_job sens = job, mc = job;
    sens.sensitivity = 1;
    mc.draws = 10000;
    mc.seed = 1;
    double t[3] = {0, 0, 0};
    for (int i = 0; i < reps; i++) {
        double a = one(&job, an, db), b = one(&mc, an, db), c = one(&sens, an, db);
        if (a < 0 || b < 0 || c < 0) return 1;
        t[0] += a;
        t[1] += b;
        t[2] += c;
    }
    printf("one %.6g\ndraws %.6g\ndraws_only %.6g\nratio %.3g\n", t[0] / reps, t[1] / reps, (t[1] - t[2]) / reps,
           t[1] / t[0]);
    jc_analysis_free(an);
    jc_model_free(m);
    jc_hwdb_free(db);
    return 0;
}
