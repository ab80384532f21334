/*
 * hwdb_share.c - benchmark driver: how much of an `estimate` run is spent
 * loading the hardware database.  Runs REPS rounds, each timing, one
 * after the other:
 *   yaml      jc_hwdb_load of the bundled folder (libyaml parse)
 *   mapped    jc_hwdb_snapshot_open of SNAPSHOT, mapped in place
 *   reloc     jc_hwdb_snapshot_open with JCI_SNAPSHOT_RELOCATE
 *   est_snap  the whole estimate as the CLI runs it with a snapshot:
 *             snapshot open, model load, jc_analyze at batch 1,
 *             jc_estimate_run (inference, A100, US-CA), text report to
 *             /dev/null, everything freed
 *   est_yaml  the same with the YAML parse instead of the snapshot
 * and prints one line per measure: "<name> <wall_s> <cpu_s>" (means per
 * run; wall from CLOCK_MONOTONIC, CPU from CLOCK_PROCESS_CPUTIME_ID, not
 * disturbed by other jobs on the machine).  Built and run by bench/run.sh.
 */
#include "joulecast.h"
#include "hwdb/hwdb_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double clk(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

enum { YAML, MAPPED, RELOC, EST_SNAP, EST_YAML, N_MEASURES };
static const char *names[N_MEASURES] = {"yaml", "mapped", "reloc", "est_snap", "est_yaml"};

static const char *dir, *snap, *model;
static FILE *null;

static int open_db(int how, jc_hwdb **db, jc_diag *d)
{
    if (how == YAML) return jc_hwdb_load(dir, NULL, 0, NULL, db, d);
    if (jc_hwdb_snapshot_open(snap, dir, how == RELOC ? JCI_SNAPSHOT_RELOCATE : 0, db, d))
        return 1;
    if (jc_hwdb_from_snapshot(*db) != (how == RELOC ? 1 : 2)) {
        fprintf(stderr, "hwdb_share: the snapshot did not open as asked\n");
        return 1;
    }
    return 0;
}

static int estimate(int how, jc_diag *d)
{
    jc_hwdb *db = NULL;
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
    int rc = open_db(how, &db, d) || jc_model_load(model, &m, d) || jc_analyze(m, &o, &an, d) ||
             jc_estimate_run(&job, an, db, &e, d);
    if (!rc) jc_report_estimate_text(e, null);
    jc_estimate_free(e);
    jc_analysis_free(an);
    jc_model_free(m);
    jc_hwdb_free(db);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: hwdb_share HWDB_DIR SNAPSHOT MODEL.onnx REPS\n");
        return 2;
    }
    dir = argv[1];
    snap = argv[2];
    model = argv[3];
    int reps = atoi(argv[4]);
    if (reps < 1) reps = 1;
    null = fopen("/dev/null", "w");
    if (!null) return 3;
    jc_diag d;
    double wall[N_MEASURES] = {0}, cpu[N_MEASURES] = {0};
    for (int i = 0; i < reps; i++) {
        for (int k = 0; k < N_MEASURES; k++) {
            double w0 = clk(CLOCK_MONOTONIC), c0 = clk(CLOCK_PROCESS_CPUTIME_ID);
            int rc;
            if (k == EST_SNAP || k == EST_YAML) {
                rc = estimate(k == EST_SNAP ? MAPPED : YAML, &d);
            } else {
                jc_hwdb *db = NULL;
                rc = open_db(k, &db, &d);
                jc_hwdb_free(db);
            }
            if (rc) {
                fprintf(stderr, "hwdb_share: %s\n", d.msg);
                return 1;
            }
            wall[k] += clk(CLOCK_MONOTONIC) - w0;
            cpu[k] += clk(CLOCK_PROCESS_CPUTIME_ID) - c0;
        }
    }
    fclose(null);
    for (int k = 0; k < N_MEASURES; k++)
        printf("%s %.7f %.7f\n", names[k], wall[k] / reps, cpu[k] / reps);
    return 0;
}
