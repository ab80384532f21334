/*
 * test_sweep.c - jc_sweep_run against its contract, on the bundled hwdb/
 * and models/tiny_cnn.onnx:
 *  - every grid point is either an estimated entry or covered by exactly
 *    one skipped entry (n_entries + n_skipped_points == n_points);
 *  - an entry's figures are those of jc_estimate_run for the same point;
 *  - entries are sorted by the key; the Pareto marks equal a brute-force
 *    dominance check;
 *  - the model is analysed once per batch size, not per point;
 *  - devices without a peak at the precision, regions without intensity
 *    and refused batches are skipped with a reason, never dropped;
 *  - unknown names and contradictory inputs are errors with a message;
 *  - an estimate through a grid's share (jci_estimate_run_shared: the
 *    runtime's kernel plan built once) is jc_estimate_run's, byte for
 *    byte, whatever runtime, precision and device come in what order,
 *    and a share made for another analysis is not used.
 */
#include "check.h"
#include "joulecast.h"
#include "base/jc_internal.h"

#include <stdlib.h>

static jc_hwdb *db;
static jc_model *tiny;

static jc_sweep *sweep(const jc_sweep_spec *sp, const jc_job *j, const jc_model *m, jc_status want)
{
    jc_sweep *s = NULL;
    jc_diag d;
    jc_request rq;
    jc_request_init(&rq);
    rq.job = j;
    jc_status st = jc_sweep_run(sp, &rq, m, db, &s, &d);
    if (st != want) printf("  sweep: status %d (%s), expected %d\n", st, d.msg, want);
    CHECK_I64(st, want);
    if (st) CHECK(d.msg[0] != 0);
    return s;
}

static void flops_job(jc_job *j)
{
    jc_job_init(j);
    j->mode = JC_MODE_TRAINING;
    j->flops = 1e20;
}

static void test_grid_accounting(void)
{
    const char *devs[] = {"a100", "h100", "v100"}, *regs[] = {"FR", "DE", "aws:all"}, *precs[] = {"fp16", "fp8"};
    jc_sweep_spec sp = {devs, 3, regs, 3, NULL, 0, precs, 2, JC_SWEEP_BY_EMISSIONS, 0};
    jc_job j;
    flops_job(&j);
    jc_sweep *s = sweep(&sp, &j, NULL, JC_OK);
    if (!s) return;
    CHECK(s->n_regions > 3);                     /* aws:all expanded */
    CHECK_I64(s->n_devices, 3);
    CHECK_I64(s->n_points, s->n_devices * s->n_regions * s->n_precisions * s->n_batches);
    CHECK_I64(s->n_entries + s->n_skipped_points, s->n_points);
    CHECK(s->n_entries > 0);
    /* fp8: the A100 and V100 have no fp8 peak, the H100 has one */
    int a100_fp8 = 0, h100_fp8_skipped = 0;
    for (size_t i = 0; i < s->n_skipped; i++) {
        const jc_sweep_entry *x = &s->skipped[i];
        CHECK(x->reason != NULL && x->reason[0]);
        if (x->device_id && strstr(x->device_id, "a100") && !strcmp(x->precision, "fp8")) {
            a100_fp8 = 1;
            CHECK(x->region_code == NULL);       /* once, for every region */
            CHECK(strstr(x->reason, "fp8") != NULL);
        }
        if (x->device_id && strstr(x->device_id, "h100") && !strcmp(x->precision, "fp8")) h100_fp8_skipped = 1;
    }
    CHECK(a100_fp8);
    CHECK(!h100_fp8_skipped);
    jc_sweep_free(s);
}

static void test_entries_match_estimate(void)
{
    const char *devs[] = {"a100", "h100"}, *regs[] = {"FR", "US-CA", "gcp:all"};
    jc_sweep_spec sp = {devs, 2, regs, 3, NULL, 0, NULL, 0, JC_SWEEP_BY_ENERGY, 0};
    jc_job j;
    flops_job(&j);
    jc_sweep *s = sweep(&sp, &j, NULL, JC_OK);
    if (!s || !s->n_entries) { jc_sweep_free(s); return; }
    for (size_t i = 1; i < s->n_entries; i++)
        CHECK(s->entries[i - 1].energy_kwh.central <= s->entries[i].energy_kwh.central);
    size_t probe[3] = {0, s->n_entries / 2, s->n_entries - 1};
    for (int k = 0; k < 3; k++) {
        const jc_sweep_entry *x = &s->entries[probe[k]];
        jc_job jj = j;
        jj.device = x->device_id;
        jj.region = x->region_code;
        jc_estimate *e = NULL;
        jc_diag d;
        CHECK_I64(jc_estimate_run(&jj, NULL, db, &e, &d), JC_OK);
        if (!e) continue;
        CHECK_NEAR(x->energy_kwh.central, e->energy_facility_kwh.central, 1e-12);
        CHECK_NEAR(x->co2_kg.low, e->co2_kg.low, 1e-12);
        CHECK_NEAR(x->co2_kg.high, e->co2_kg.high, 1e-12);
        CHECK_NEAR(x->wall_hours.central, e->wall_hours.central, 1e-12);
        CHECK_STR(x->precision, e->precision);
        jc_estimate_free(e);
    }
    jc_sweep_free(s);
}

static void test_pareto_brute_force(void)
{
    const char *devs[] = {"all"}, *regs[] = {"cloud"};
    jc_sweep_spec sp = {devs, 1, regs, 1, NULL, 0, NULL, 0, JC_SWEEP_BY_TIME, 0};
    jc_job j;
    flops_job(&j);
    j.utilization = 0.4;   /* every device then has what the estimate needs, but a TDP */
    jc_sweep *s = sweep(&sp, &j, NULL, JC_OK);
    if (!s) return;
    CHECK(s->n_entries > 1000);
    size_t front = 0;
    for (size_t i = 0; i < s->n_entries; i++) {
        const jc_sweep_entry *a = &s->entries[i];
        int dominated = 0;
        for (size_t k = 0; k < s->n_entries && !dominated; k++) {
            const jc_sweep_entry *b = &s->entries[k];
            dominated = b->wall_hours.central <= a->wall_hours.central && b->co2_kg.central <= a->co2_kg.central &&
                        (b->wall_hours.central < a->wall_hours.central || b->co2_kg.central < a->co2_kg.central);
        }
        if (a->pareto == dominated) {
            printf("  entry %zu (%s, %s): pareto %d, dominated %d\n", i, a->device_id, a->region_code, a->pareto,
                   dominated);
            check_cur_fail_ = 1;
            break;
        }
        front += (size_t)a->pareto;
        if (i) CHECK(s->entries[i - 1].wall_hours.central <= a->wall_hours.central);
    }
    CHECK_I64(front, s->n_pareto);
    CHECK(s->n_pareto >= 1);
    jc_sweep_free(s);
}

static void test_model_analysed_once_per_batch(void)
{
    if (!tiny) { check_cur_fail_ = 1; return; }
    const char *devs[] = {"a100", "h100", "l4"}, *regs[] = {"FR", "DE", "PL"};
    double batches[] = {1, 8, 64, 8};
    jc_sweep_spec sp = {devs, 3, regs, 3, batches, 4, NULL, 0, JC_SWEEP_BY_EMISSIONS, 0};
    jc_job j;
    jc_job_init(&j);
    j.requests = 1e6;
    j.utilization = 0.3;
    jc_sweep *s = sweep(&sp, &j, tiny, JC_OK);
    if (!s) return;
    CHECK_I64(s->n_batches, 3);        /* the repeated 8 counts once */
    CHECK_I64(s->n_analyses, 3);
    CHECK_I64(s->n_entries + s->n_skipped_points, s->n_points);
    /* a bigger batch does the same requests in fewer passes: less time */
    double t1 = 0, t64 = 0;
    for (size_t i = 0; i < s->n_entries; i++) {
        const jc_sweep_entry *x = &s->entries[i];
        if (!strcmp(x->region_code, "FR") && strstr(x->device_id, "h100")) {
            if (x->batch == 1) t1 = x->wall_hours.central;
            if (x->batch == 64) t64 = x->wall_hours.central;
        }
    }
    CHECK(t1 > 0 && t64 > 0 && t64 < t1);
    jc_sweep_free(s);
}

static void test_errors_and_skips(void)
{
    jc_job j;
    flops_job(&j);
    const char *bad_dev[] = {"a100", "no-such-gpu"}, *regs[] = {"FR"};
    jc_sweep_spec sp = {bad_dev, 2, regs, 1, NULL, 0, NULL, 0, JC_SWEEP_BY_EMISSIONS, 0};
    sweep(&sp, &j, NULL, JC_ERR_NOTFOUND);
    const char *devs[] = {"a100"}, *bad_reg[] = {"nowhere:all"};
    jc_sweep_spec sp2 = {devs, 1, bad_reg, 1, NULL, 0, NULL, 0, JC_SWEEP_BY_EMISSIONS, 0};
    sweep(&sp2, &j, NULL, JC_ERR_NOTFOUND);
    double b[] = {8};
    jc_sweep_spec sp3 = {devs, 1, regs, 1, b, 1, NULL, 0, JC_SWEEP_BY_EMISSIONS, 0};
    sweep(&sp3, &j, NULL, JC_ERR_USAGE);        /* batches without a model */
    const char *bad_prec[] = {"fp7"};
    jc_sweep_spec sp4 = {devs, 1, regs, 1, NULL, 0, bad_prec, 1, JC_SWEEP_BY_EMISSIONS, 0};
    sweep(&sp4, &j, NULL, JC_ERR_USAGE);
    jc_job nodev;
    flops_job(&nodev);
    jc_sweep_spec sp5 = {NULL, 0, regs, 1, NULL, 0, NULL, 0, JC_SWEEP_BY_EMISSIONS, 0};
    sweep(&sp5, &nodev, NULL, JC_ERR_USAGE);    /* no device anywhere */
    /* a region without any intensity is skipped once, for every device */
    jc_sweep_spec sp6 = {devs, 1, NULL, 0, NULL, 0, NULL, 0, JC_SWEEP_BY_EMISSIONS, 0};
    const char *all[] = {"all"};
    sp6.regions = all;
    sp6.n_regions = 1;
    jc_sweep *s = sweep(&sp6, &j, NULL, JC_OK);
    if (!s) return;
    size_t region_skips = 0;
    for (size_t i = 0; i < s->n_skipped; i++)
        if (!s->skipped[i].device_id && s->skipped[i].region_code) region_skips++;
    CHECK(region_skips > 0);   /* e.g. AD (Andorra) has no value in any dataset */
    CHECK_I64(s->n_entries + s->n_skipped_points, s->n_points);
    jc_sweep_free(s);
}

/* A device that lacks a figure is skipped with the estimator's own typed
 * reason (jc_estimate_refusal), and jc_estimate_run refuses the same
 * point with exit 6 naming that figure. */
static void test_refusals_are_the_estimators(void)
{
    /* the H100 runs fp8: a grid with no point estimated is refused (below) */
    const char *devs[] = {"a100", "v100", "h100"}, *regs[] = {"FR"}, *precs[] = {"fp8"};
    jc_sweep_spec sp = {devs, 3, regs, 1, NULL, 0, precs, 1, JC_SWEEP_BY_EMISSIONS, 0};
    jc_job j;
    flops_job(&j);
    jc_sweep_spec none = sp;
    none.n_devices = 2;
    CHECK(sweep(&none, &j, NULL, JC_ERR_NOTFOUND) == NULL);   /* a100 and v100 alone: nothing estimated */
    jc_sweep *s = sweep(&sp, &j, NULL, JC_OK);
    if (!s) return;
    CHECK_I64(s->n_entries, 1);
    size_t no_peak = 0;
    for (size_t i = 0; i < s->n_skipped; i++) {
        const jc_sweep_entry *x = &s->skipped[i];
        if (x->refusal != JC_REFUSAL_NO_PEAK) continue;
        no_peak++;
        CHECK(strstr(x->reason, "dense peak at fp8") != NULL);
        /* the estimate itself refuses the same device and names the figure */
        jc_job jj = j;
        jj.device = x->device_id;
        jj.precision = "fp8";
        jj.region = "FR";
        jc_estimate *e = NULL;
        jc_diag d;
        CHECK_I64(jc_estimate_run(&jj, NULL, db, &e, &d), JC_ERR_NOTFOUND);
        CHECK(strstr(d.msg, "dense peak at fp8") != NULL);
        jc_estimate_free(e);
    }
    CHECK(no_peak >= 1);   /* the A100 and V100 publish no dense fp8 peak */
    jc_sweep_free(s);
    /* the rule by itself */
    const jc_device *v100 = NULL;
    jc_diag d;
    CHECK_I64(jc_hwdb_device(db, "v100", &v100, &d), JC_OK);
    if (!v100) return;
    char why[200];
    jc_precision used;
    CHECK_I64(jc_estimate_refusal(&j, v100, "fp8", &used, why, sizeof why), JC_REFUSAL_NO_PEAK);
    CHECK_I64(used, JC_PREC_FP8);
    CHECK_I64(jc_estimate_refusal(&j, v100, NULL, &used, why, sizeof why), JC_REFUSAL_NONE);
    CHECK_I64(used, jc_device_default_precision(v100));
    CHECK_I64(jc_estimate_refusal(&j, v100, "fp7", &used, why, sizeof why), JC_REFUSAL_PRECISION);
    jc_job jpo = j;
    jpo.method = JC_METHOD_JOULES_PER_OP;
    jc_refusal r = jc_estimate_refusal(&jpo, v100, "fp64", &used, why, sizeof why);
    CHECK_I64(r, JC_REFUSAL_PRECISION);   /* fp64 is not a run precision */
    jc_precision p;
    CHECK_I64(jc_precision_parse("BF16", &p), JC_OK);
    CHECK_I64(p, JC_PREC_BF16);
    CHECK_I64(jc_precision_parse("bf17", &p), JC_ERR_USAGE);
}

static void test_sweep_reports(void)
{
    const char *devs[] = {"a100", "h100", "v100"}, *regs[] = {"FR", "PL"}, *precs[] = {"bf16", "fp8"};
    jc_sweep_spec sp = {devs, 3, regs, 2, NULL, 0, precs, 2, JC_SWEEP_BY_EMISSIONS, 0};
    jc_job j;
    flops_job(&j);
    jc_sweep *s = sweep(&sp, &j, NULL, JC_OK);
    if (!s) return;
    char *js = jc_report_sweep_json(s);
    CHECK(js != NULL);
    if (js) {
        CHECK(strstr(js, "\"schema\":\t\"joulecast-sweep/1\"") != NULL);
        CHECK(strstr(js, "\"reason\":") != NULL);
        free(js);
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) { jc_sweep_free(s); return; }
    CHECK_I64(jc_report_sweep_html(s, 0, f), JC_OK);
    fclose(f);
    CHECK(strstr(buf, "class=\"chart scatter\"") != NULL);
    CHECK(strstr(buf, "class=\"front\"") != NULL);
    CHECK(strstr(buf, "<script") == NULL);
    char key[200];
    snprintf(key, sizeof key, "data-key=\"entries.0.co2_kg.central\" data-value=\"%.17g\"", s->entries[0].co2_kg.central);
    CHECK(strstr(buf, key) != NULL);
    free(buf);
    buf = NULL;
    f = open_memstream(&buf, &len);
    if (!f) { jc_sweep_free(s); return; }
    CHECK_I64(jc_report_sweep_csv(s, f), JC_OK);
    fclose(f);
    /* every CSV line has 29 fields (no field here holds a comma; issue 45 added cost and water) */
    size_t lines = 0;
    for (char *p = buf; *p;) {
        char *nl = strchr(p, '\n');
        if (!nl) break;
        size_t commas = 0;
        for (char *q = p; q < nl; q++) commas += *q == ',';
        CHECK_I64(commas, 28);
        lines++;
        p = nl + 1;
    }
    CHECK_I64(lines, 1 + s->n_entries + s->n_skipped);
    free(buf);
    jc_sweep_free(s);
}

/* The JSON of one estimate of an, through share sh (NULL: jc_estimate_run). */
static char *estimate_json(const jc_job *j, const jc_analysis *an, jci_est_share *sh)
{
    jc_estimate *e = NULL;
    jc_diag d;
    jc_status st = sh ? jci_estimate_run_shared(j, an, db, sh, &e, &d) : jc_estimate_run(j, an, db, &e, &d);
    if (st) printf("  estimate: %s\n", d.msg);
    char *js = st ? NULL : jc_report_estimate_json(e);
    jc_estimate_free(e);
    return js;
}

static void test_shared_plan_same_estimate(void)
{
    jc_model *bert = NULL;
    jc_diag d;
    if (!tiny || jc_model_load("models/bert_base.onnx", &bert, &d)) { check_cur_fail_ = 1; return; }
    jc_dim_binding seq = {"sequence", 64};
    jc_analyze_opts o1 = {.batch = 4}, o2 = {.batch = 2, .dims = &seq, .n_dims = 1};
    jc_analysis *cnn = NULL, *tr = NULL;
    CHECK_I64(jc_analyze(tiny, &o1, &cnn, &d), JC_OK);
    CHECK_I64(jc_analyze(bert, &o2, &tr, &d), JC_OK);
    jci_est_share *sh_cnn = jci_est_share_new(cnn), *sh_tr = jci_est_share_new(tr);
    CHECK(sh_cnn && sh_tr);
    /* every runtime at one precision before the next precision: a plan
     * taken for the wrong runtime or width changes the next point's
     * figures; the transformer's last points are handed the CNN's share,
     * which must be ignored */
    const char *rts[] = {"pytorch", "torch-compile", "pytorch-1"}, *precs[] = {"fp16", "fp32", "fp8"};
    const char *devs[] = {"a100", "h100", "l4", "a10"};   /* each has fp16 and fp32 peaks; fp8 on the H100 */
    int compared = 0, k = 0;
    for (int t = 0; t < 2 && sh_cnn && sh_tr; t++)
        for (int p = 0; p < 3; p++)
            for (int r = 0; r < 3; r++, k++) {
                jc_job j;
                jc_job_init(&j);
                j.requests = 1e6;
                j.per_node = 1;
                j.runtime = rts[r];
                j.precision = precs[p];
                j.device = p == 2 ? "h100" : devs[k % 4];
                const jc_analysis *an = t ? tr : cnn;
                jci_est_share *sh = !t ? sh_cnn : p < 2 ? sh_tr : sh_cnn;
                char *x = estimate_json(&j, an, NULL), *y = estimate_json(&j, an, sh);
                CHECK(x && y && !strcmp(x, y));
                if (x && y && strcmp(x, y)) printf("  differs: %s %s %s (%s)\n", j.runtime, j.precision, j.device, t ? "bert" : "cnn");
                compared += x && y;
                jc_free(x);
                jc_free(y);
            }
    CHECK_I64(compared, 18);
    jci_est_share_free(sh_cnn);
    jci_est_share_free(sh_tr);
    jc_analysis_free(cnn);
    jc_analysis_free(tr);
    jc_model_free(bert);
}

int main(void)
{
    jc_diag d;
    if (jc_hwdb_load("hwdb", NULL, 0, NULL, &db, &d)) {
        printf("FAIL test_sweep: cannot load hwdb/: %s\n", d.msg);
        return 1;
    }
    if (jc_model_load("models/tiny_cnn.onnx", &tiny, &d)) printf("  cannot load tiny_cnn: %s\n", d.msg);
    RUN(test_grid_accounting);
    RUN(test_entries_match_estimate);
    RUN(test_pareto_brute_force);
    RUN(test_model_analysed_once_per_batch);
    RUN(test_errors_and_skips);
    RUN(test_refusals_are_the_estimators);
    RUN(test_sweep_reports);
    RUN(test_shared_plan_same_estimate);
    jc_model_free(tiny);
    jc_hwdb_free(db);
    return check_summary();
}
