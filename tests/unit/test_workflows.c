/*
 * test_workflows.c - the workflow layer: measurement CSV reading
 * (CodeCarbon and simple forms, located errors), calibration recovering a
 * utilisation it was not told (the measurement is made by the estimator
 * itself at a known utilisation), the override it writes loading back and
 * reproducing the measurement, the budget gate, the estimate JSON reader
 * and the diff gate, the statement's sources and the CodeCarbon row.
 * Runs from the repository root (tests/run.sh) with the bundled hwdb/.
 */
#include "joulecast.h"
#include "check.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static jc_hwdb *db;

/* Writes text to a fresh temporary file; returns its path (static buffer
 * per call site: the caller copies or uses it at once). */
static void write_tmp(char *path, size_t cap, const char *suffix, const char *text)
{
    snprintf(path, cap, "build/test-workflows-XXXXXX%s", suffix);
    int fd = mkstemps(path, (int)strlen(suffix));
    CHECK(fd >= 0);
    if (fd < 0) return;
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
}

static jc_job flops_job(void)
{
    jc_job j;
    jc_job_init(&j);
    j.mode = JC_MODE_TRAINING;
    j.flops = 3e19;
    j.device = "a100";
    j.count = 4;
    j.region = "FR";
    return j;
}

static void test_codecarbon_csv(void)
{
    char p[128];
    /* quoted fields with commas and a doubled quote; pue 1.25 divided out */
    write_tmp(p, sizeof p, ".csv",
              "timestamp,project_name,duration,gpu_energy,cpu_energy,energy_consumed,gpu_count,gpu_model,pue\n"
              "2024-05-31T10:39:13,\"a, \"\"quoted\"\" name\",3600,2.5,0.5,3.0,2,\"2 x NVIDIA A100-SXM4-80GB\",1.25\n");
    jc_measurements *ms = NULL;
    jc_diag d;
    jc_status st = jc_measurements_load(p, &ms, &d);
    if (st) printf("  %s\n", d.msg);
    CHECK_I64(st, JC_OK);
    if (ms) {
        CHECK_STR(ms->format, "codecarbon");
        CHECK_I64(ms->n, 1);
        const jc_measurement *m = &ms->rows[0];
        CHECK_I64(m->line, 2);
        CHECK_STR(m->date, "2024-05-31");
        CHECK_NEAR(m->duration_s, 3600, 1e-12);
        CHECK_NEAR(m->device_kwh, 2.0, 1e-12);
        CHECK_NEAR(m->cpu_kwh, 0.4, 1e-12);
        CHECK_NEAR(m->total_kwh, 2.4, 1e-12);
        CHECK_NEAR(m->devices, 2, 0);
        CHECK_STR(m->device, "NVIDIA A100-SXM4-80GB");
    }
    jc_measurements_free(ms);
    unlink(p);
}

static void test_simple_csv_and_errors(void)
{
    char p[128];
    jc_measurements *ms = NULL;
    jc_diag d;
    write_tmp(p, sizeof p, ".csv", "model,device,count,hours,avg_watts,date\nm.onnx,a100,4,2,300,2024-01-02\n");
    CHECK_I64(jc_measurements_load(p, &ms, &d), JC_OK);
    if (ms) {
        CHECK_STR(ms->format, "simple");
        CHECK_NEAR(ms->rows[0].device_kwh, 300.0 * 4 * 2 / 1000, 1e-12);   /* watts x count x hours */
        CHECK_NEAR(ms->rows[0].duration_s, 7200, 1e-12);
    }
    jc_measurements_free(ms);
    unlink(p);
    /* a malformed number names file:line and the column */
    write_tmp(p, sizeof p, ".csv", "device,hours,device_kwh\na100,2,1.5\na100,two,1\n");
    ms = NULL;
    CHECK_I64(jc_measurements_load(p, &ms, &d), JC_ERR_USAGE);
    CHECK(strstr(d.msg, ":3: column 'hours'") != NULL);
    CHECK(ms == NULL);
    unlink(p);
    /* an unknown column */
    write_tmp(p, sizeof p, ".csv", "device,kwh\na100,1\n");
    CHECK_I64(jc_measurements_load(p, &ms, &d), JC_ERR_USAGE);
    CHECK(strstr(d.msg, "unknown column 'kwh'") != NULL);
    unlink(p);
    /* an unterminated quote */
    write_tmp(p, sizeof p, ".csv", "device,hours\n\"a100,2\n");
    CHECK_I64(jc_measurements_load(p, &ms, &d), JC_ERR_USAGE);
    unlink(p);
    CHECK_I64(jc_measurements_load("tests/no/such.csv", &ms, &d), JC_ERR_IO);
}

/* The measurement is made by the estimator at u = 0.31: calibrate must
 * find 0.31 back, and the override it writes must load and reproduce the
 * measured time and device energy. */
static void test_calibrate_recovers_utilization(void)
{
    jc_job j = flops_job();
    j.utilization = 0.31;
    jc_estimate *e = NULL;
    jc_diag d;
    CHECK_I64(jc_estimate_run(&j, NULL, db, &e, &d), JC_OK);
    if (!e) return;
    jc_measurement m;
    memset(&m, 0, sizeof m);
    m.line = 2;
    snprintf(m.date, sizeof m.date, "2024-06-01");
    m.duration_s = e->wall_hours.central * 3600;
    m.device_kwh = e->energy_device_kwh.central * 0.9;   /* the run drew 10% less than modelled */
    m.cpu_kwh = m.ram_kwh = m.total_kwh = m.pue = m.avg_power_w = m.devices = NAN;
    jc_estimate_free(e);

    jc_job j2 = flops_job();
    jc_calibration cal;
    jc_status st = jc_calibrate(&j2, NULL, db, &m, &cal, &d);
    if (st) printf("  %s\n", d.msg);
    CHECK_I64(st, JC_OK);
    CHECK(cal.fit_util);
    CHECK_NEAR(cal.util_after, 0.31, 1e-6);
    CHECK_STR(cal.util_from, "duration");
    CHECK(fabs(cal.before.err_hours) > 0.05);        /* the hwdb's 0.40 was off */
    CHECK(cal.fit_pj);
    CHECK(cal.util_low <= cal.util_after && cal.util_after <= cal.util_high && cal.util_high <= 1);

    /* the override file */
    jc_measurements ms;
    memset(&ms, 0, sizeof ms);
    ms.path = "made-for-the-test.csv";
    ms.format = "codecarbon";
    char p[128];
    snprintf(p, sizeof p, "build/test-workflows-XXXXXX.yaml");
    int fd = mkstemps(p, 5);
    CHECK(fd >= 0);
    if (fd < 0) return;
    FILE *f = fdopen(fd, "w");
    CHECK_I64(jc_calibration_write_yaml(&cal, &ms, &m, NULL, f, &d), JC_OK);
    fclose(f);
    const char *layers[] = {p};
    jc_hwdb *after = NULL;
    st = jc_hwdb_load("hwdb", layers, 1, NULL, &after, &d);
    if (st) printf("  %s\n", d.msg);
    CHECK_I64(st, JC_OK);
    if (after) {
        const jc_device *dev = NULL;
        CHECK_I64(jc_hwdb_device(after, "a100", &dev, &d), JC_OK);
        if (dev) {
            CHECK_NEAR(dev->util_training.value, 0.31, 0.01);
            CHECK(dev->util_training.measured != NULL && strstr(dev->util_training.measured, "made-for-the-test.csv"));
            CHECK(dev->pj_per_flop[JC_PREC_BF16].measured != NULL);
            CHECK_STR(dev->util_training.source->date, "2024-06-01");
        }
        jc_calib_check ac;
        CHECK_I64(jc_calibrate_check(&j2, NULL, after, &m, &ac, &d), JC_OK);
        CHECK(fabs(ac.err_hours) < 1e-5);
        CHECK(fabs(ac.err_kwh_jpo) < 1e-5);
        jc_hwdb_free(after);
    }
    unlink(p);

    /* no date anywhere: refused */
    m.date[0] = 0;
    FILE *devnull = fopen("/dev/null", "w");
    CHECK_I64(jc_calibration_write_yaml(&cal, &ms, &m, NULL, devnull, &d), JC_ERR_USAGE);
    fclose(devnull);
}

static void test_calibrate_from_energy_and_refusals(void)
{
    jc_job j = flops_job();
    j.utilization = 0.25;
    jc_estimate *e = NULL;
    jc_diag d;
    CHECK_I64(jc_estimate_run(&j, NULL, db, &e, &d), JC_OK);
    if (!e) return;
    jc_measurement m;
    memset(&m, 0, sizeof m);
    m.duration_s = m.cpu_kwh = m.ram_kwh = m.total_kwh = m.pue = m.avg_power_w = m.devices = NAN;
    m.device_kwh = e->energy_device_kwh.central;
    jc_estimate_free(e);
    jc_job j2 = flops_job();
    jc_calibration cal;
    CHECK_I64(jc_calibrate(&j2, NULL, db, &m, &cal, &d), JC_OK);
    CHECK_STR(cal.util_from, "energy");
    CHECK_NEAR(cal.util_after, 0.25, 1e-6);
    CHECK(!cal.fit_pj);
    /* faster than the device's peak allows */
    m.duration_s = 1;
    CHECK_I64(jc_calibrate(&j2, NULL, db, &m, &cal, &d), JC_ERR_RANGE);
    CHECK(strstr(d.msg, "full utilisation") != NULL);
    /* the utilisation is what is fitted */
    j2.utilization = 0.3;
    CHECK_I64(jc_calibrate(&j2, NULL, db, &m, &cal, &d), JC_ERR_USAGE);
}

static void test_budget(void)
{
    jc_job j = flops_job();
    jc_estimate *e = NULL;
    jc_diag d;
    CHECK_I64(jc_estimate_run(&j, NULL, db, &e, &d), JC_OK);
    if (!e) return;
    jc_budget b = {NAN, NAN, 0};
    CHECK_I64(jc_budget_check(e, &b, &d), JC_OK);
    b.max_kwh = e->energy_facility_kwh.central * 1.01;
    CHECK_I64(jc_budget_check(e, &b, &d), JC_OK);
    b.on_high = 1;   /* the high end is above the central figure */
    CHECK_I64(jc_budget_check(e, &b, &d), JC_ERR_BUDGET);
    CHECK(strstr(d.msg, "--max-kwh") != NULL && strstr(d.msg, "high end") != NULL);
    b.on_high = 0;
    b.max_kgco2e = e->co2_kg.central * 0.5;
    CHECK_I64(jc_budget_check(e, &b, &d), JC_ERR_BUDGET);
    CHECK(strstr(d.msg, "--max-kgco2e") != NULL && strstr(d.msg, "(100.0%)") != NULL);
    CHECK(strstr(d.msg, "--max-kwh") == NULL);
    b.max_kwh = -1;
    CHECK_I64(jc_budget_check(e, &b, &d), JC_ERR_USAGE);
    jc_estimate_free(e);
}

static void test_json_roundtrip_and_diff(void)
{
    jc_job j = flops_job();
    jc_estimate *e1 = NULL, *e2 = NULL;
    jc_diag d;
    CHECK_I64(jc_estimate_run(&j, NULL, db, &e1, &d), JC_OK);
    j.flops *= 1.3;
    CHECK_I64(jc_estimate_run(&j, NULL, db, &e2, &d), JC_OK);
    if (!e1 || !e2) return;
    char p1[128], p2[128];
    char *s1 = jc_report_estimate_json(e1), *s2 = jc_report_estimate_json(e2);
    write_tmp(p1, sizeof p1, ".json", s1);
    write_tmp(p2, sizeof p2, ".json", s2);
    free(s1);
    free(s2);
    jc_estimate_summary a, b;
    CHECK_I64(jc_read_estimate_json(p1, &a, &d), JC_OK);
    CHECK_I64(jc_read_estimate_json(p2, &b, &d), JC_OK);
    CHECK_NEAR(a.metric[4].central, e1->energy_facility_kwh.central, 1e-9);
    CHECK_STR(jc_summary_metric_key(4), "energy_facility_kwh");
    CHECK_STR(a.device, "nvidia-a100-sxm4-80gb");
    CHECK(!a.present[6]);   /* no market-based factor for FR */
    jc_diff df;
    CHECK_I64(jc_estimate_diff(&a, &b, 0.20, 0, &df, &d), JC_ERR_BUDGET);
    CHECK(df.exceeded);
    CHECK(strstr(d.msg, "energy, facility rose by 30.0%") != NULL);
    CHECK_I64(jc_estimate_diff(&a, &b, 0.35, 0, &df, &d), JC_OK);
    CHECK_I64(jc_estimate_diff(&b, &a, 0.0, 0, &df, &d), JC_OK);   /* a fall passes any gate */
    CHECK_I64(jc_estimate_diff(&a, &b, NAN, 0, &df, &d), JC_OK);    /* no gate */
    CHECK(!df.rows[4].gated);
    /* not an estimate */
    char p3[128];
    write_tmp(p3, sizeof p3, ".json", "{\"schema\": \"joulecast-count/1\"}");
    CHECK_I64(jc_read_estimate_json(p3, &a, &d), JC_ERR_USAGE);
    CHECK(strstr(d.msg, "joulecast-estimate/1") != NULL);
    write_tmp(p3 + 0, sizeof p3, ".json", "{\"schema\": \"joulecast-estimate/1\", \"results\": {\"wall_hours\": 3}}");
    CHECK_I64(jc_read_estimate_json(p3, &a, &d), JC_ERR_USAGE);
    CHECK(strstr(d.msg, "results.wall_hours is not") != NULL);
    unlink(p1);
    unlink(p2);
    unlink(p3);
    jc_estimate_free(e1);
    jc_estimate_free(e2);
}

/* Reads a whole small file into buf. */
static void slurp(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
    buf[n] = 0;
    if (f) fclose(f);
}

static void test_statement_and_codecarbon(void)
{
    jc_job j = flops_job();
    jc_estimate *e = NULL;
    jc_diag d;
    CHECK_I64(jc_estimate_run(&j, NULL, db, &e, &d), JC_OK);
    if (!e) return;
    static char buf[65536];
    char p[128];
    snprintf(p, sizeof p, "build/test-workflows-stmt.txt");
    FILE *f = fopen(p, "w");
    jc_statement_opts o = {db, "joulecast estimate --flops 3e19", NULL, NULL, NULL};
    CHECK_I64(jc_report_statement(e, &o, JC_STMT_MARKDOWN, f, &d), JC_OK);
    fclose(f);
    slurp(p, buf, sizeof buf);
    /* six figures, six footnotes, each defined; then the water the live
       hwdb knows for FR (off-site, its country's factor) and no cost (no
       price for FR): a seventh footnote, and no eighth (no sensitivity
       table in a plain estimate) */
    for (int i = 1; i <= 6; i++) {
        char mark[32];
        snprintf(mark, sizeof mark, "[^%d]: ", i);
        CHECK(strstr(buf, mark) != NULL);
    }
    CHECK(strstr(buf, "[^7]: Water: ") != NULL);
    CHECK(strstr(buf, "[^8]") == NULL);
    CHECK(strstr(buf, "(FR; ") != NULL);   /* the region, then its dataset */
    CHECK(strstr(buf, "dataset ") != NULL);
    CHECK(strstr(buf, "hwdb/devices/nvidia.yaml:") != NULL);
    CHECK(strstr(buf, "joulecast estimate --flops 3e19") != NULL);
    /* LaTeX: special characters escaped, no Markdown footnotes */
    f = fopen(p, "w");
    CHECK_I64(jc_report_statement(e, &o, JC_STMT_LATEX, f, &d), JC_OK);
    fclose(f);
    slurp(p, buf, sizeof buf);
    CHECK(strstr(buf, "\\footnote{") != NULL);
    CHECK(strstr(buf, "[^1]") == NULL);
    CHECK(strstr(buf, "_2$e") != NULL);
    /* HF: grams */
    f = fopen(p, "w");
    CHECK_I64(jc_report_statement(e, &o, JC_STMT_HF, f, &d), JC_OK);
    fclose(f);
    slurp(p, buf, sizeof buf);
    char want[64];
    snprintf(want, sizeof want, "  emissions: %.0f\n", e->co2_kg.central * 1000);
    if (e->co2_kg.central * 1000 >= 100) CHECK(strstr(buf, want) != NULL);
    CHECK(strstr(buf, "training_type: \"pre-training\"") != NULL);
    o.training_type = "warm-start";
    FILE *dn0 = fopen("/dev/null", "w");
    CHECK_I64(jc_report_statement(e, &o, JC_STMT_HF, dn0, &d), JC_ERR_USAGE);
    fclose(dn0);

    /* CodeCarbon row: 31 columns, facility energy in energy_consumed */
    f = fopen(p, "w");
    jc_codecarbon_opts co = {"2024-01-01T00:00:00", NULL, NULL};
    CHECK_I64(jc_report_estimate_codecarbon(e, &co, f, 1), JC_OK);
    fclose(f);
    slurp(p, buf, sizeof buf);
    char *nl = strchr(buf, '\n');
    CHECK(nl != NULL);
    if (nl) {
        int commas = 0;
        for (char *q = nl + 1; *q && *q != '\n'; q++) commas += *q == ',';
        CHECK_I64(commas, 30);
        CHECK(strstr(nl, ",France,FRA,") != NULL);
        char ec[64];
        snprintf(ec, sizeof ec, ",%.10g,France", e->energy_facility_kwh.central);
        CHECK(strstr(nl, ec) != NULL);
    }
    unlink(p);
    jc_estimate_free(e);

    /* inference has no HF training block */
    j.mode = JC_MODE_INFERENCE;
    CHECK_I64(jc_estimate_run(&j, NULL, db, &e, &d), JC_OK);
    if (e) {
        FILE *dn = fopen("/dev/null", "w");
        o.training_type = NULL;
        CHECK_I64(jc_report_statement(e, &o, JC_STMT_HF, dn, &d), JC_ERR_USAGE);
        fclose(dn);
        jc_estimate_free(e);
    }
}

/* jc_command_line: the CLI line of a request's pairs (the statement's
 * reproduce line, the web page's download), quoted; refusals. */
static void test_command_line(void)
{
    const char *k[] = {"model", "device", "train", "recompute", "format", "dim", "model"};
    const char *v[] = {"models/a b.onnx", "a100", "true", "false", "latex", "seq=128", "m2.onnx"};
    char buf[512];
    jc_diag d;
    memset(&d, 0, sizeof d);
    CHECK_I64(jc_command_line("compare", k, v, 7, buf, sizeof buf, &d), JC_OK);
    CHECK_STR(buf, "joulecast compare 'models/a b.onnx' --device a100 --train --dim seq=128 m2.onnx");
    CHECK_I64(jc_command_line("estimate", k, v, 2, buf, sizeof buf, &d), JC_OK);
    CHECK_STR(buf, "joulecast estimate 'models/a b.onnx' --device a100");
    /* a line that does not fit is refused, never cut (issue 43 item 16) */
    CHECK_I64(jc_command_line("estimate", NULL, NULL, 0, buf, 12, &d), JC_ERR_RANGE);
    CHECK_STR(buf, "");
    CHECK(strstr(d.msg, "19 bytes do not fit the buffer of 12") != NULL);
    CHECK_I64(jc_command_line("estimate", NULL, NULL, 0, buf, 19, &d), JC_OK);
    CHECK_STR(buf, "joulecast estimate");
    CHECK_I64(jc_command_line("frobnicate", k, v, 1, buf, sizeof buf, &d), JC_ERR_USAGE);
    CHECK(strstr(d.msg, "frobnicate") != NULL);
    CHECK_I64(jc_command_line("estimate", k, v, 1, NULL, 0, &d), JC_ERR_USAGE);
}

/* The summary metrics of estimate --json that diff and budget read: key,
 * label and unit of each, NULL past the table. */
static void test_summary_metrics(void)
{
    for (int i = 0; i < JC_SUMMARY_METRICS; i++)
        CHECK(jc_summary_metric_key(i) && jc_summary_metric_label(i) && jc_summary_metric_unit(i));
    CHECK_STR(jc_summary_metric_key(4), "energy_facility_kwh");
    CHECK_STR(jc_summary_metric_label(4), "energy, facility");
    CHECK_STR(jc_summary_metric_unit(4), "kWh");
    CHECK_STR(jc_summary_metric_label(5), "emissions, location-based");
    CHECK_STR(jc_summary_metric_unit(5), "kgCO2e");
    CHECK(jc_summary_metric_label(JC_SUMMARY_METRICS) == NULL);
    CHECK(jc_summary_metric_unit(-1) == NULL);
}

int main(void)
{
    RUN(test_summary_metrics);
    if (!(db = check_bundled_hwdb())) return 1;
    RUN(test_command_line);
    RUN(test_codecarbon_csv);
    RUN(test_simple_csv_and_errors);
    RUN(test_calibrate_recovers_utilization);
    RUN(test_calibrate_from_energy_and_refusals);
    RUN(test_budget);
    RUN(test_json_roundtrip_and_diff);
    RUN(test_statement_and_codecarbon);
    jc_hwdb_free(db);
    return check_summary();
}
