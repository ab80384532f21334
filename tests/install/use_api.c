/*
 * use_api.c - a client of the installed libjoulecast, built by
 * tests/install.sh with `pkg-config --cflags --libs joulecast`: loads a
 * model, analyses it at a batch size, loads the installed hardware
 * database and estimates a training job, then prints the estimate's JSON.
 * usage: use_api MODEL.onnx HWDB_DIR
 */
#include <joulecast.h>

#include <math.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: use_api MODEL.onnx HWDB_DIR\n");
        return 2;
    }
    jc_diag d;
    jc_model *m = NULL;
    jc_analysis *an = NULL;
    jc_hwdb *db = NULL;
    jc_estimate *e = NULL;
    int rc = 0;
    jc_analyze_opts ao = {0};
    ao.batch = 8;
    jc_job job;
    jc_job_init(&job);
    job.mode = JC_MODE_TRAINING;
    job.batch = 8;
    job.samples = 50000;
    job.epochs = 2;
    job.device = "a100";
    job.region = "FR";
    if (jc_model_load(argv[1], &m, &d) || jc_analyze(m, &ao, &an, &d) ||
        jc_hwdb_load(argv[2], NULL, 0, NULL, &db, &d) || jc_estimate_run(&job, an, db, &e, &d)) {
        fprintf(stderr, "use_api: %s (%s)\n", d.msg, jc_status_name(d.status));
        rc = (int)d.status;
    } else {
        char *json = jc_report_estimate_json(e);
        if (!json) {
            rc = JC_ERR_NOMEM;
        } else {
            printf("%s\nmacs %lld\n", json, (long long)an->totals.macs);
            jc_free(json);
        }
    }
    jc_estimate_free(e);
    jc_hwdb_free(db);
    jc_analysis_free(an);
    jc_model_free(m);
    return rc;
}
