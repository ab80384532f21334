/*
 * test_ga.c - Green-Algorithms mode: the calculator's published
 * cross-check, the "74x Australia vs Switzerland" remark, hand-computed
 * cases (CPU only, GPU+CPU, GPU only, usage < 1, PSF > 1, large memory,
 * cloud data centres with and without their own PUE, personal computer),
 * equivalences, the runtime parser, validation errors, and the
 * plain-tables path (no database).  Expected values are worked out by
 * hand from the calculator's CSV rows (GreenAlgorithms/green-algorithms-tool data/, commit 30df2fee),
 * quoted beside each case; tolerance 0.1% (most agree to 1e-12).
 */
#include "check.h"
#include "joulecast.h"

#include <stdlib.h>

#define TOL 1e-3

static jc_hwdb *db;

static jc_ga_result *run(const jc_ga_input *in)
{
    jc_ga_result *r = NULL;
    jc_diag d;
    jc_status st = jc_ga_compute(db, in, &r, &d);
    if (st) printf("  jc_ga_compute: %s\n", d.msg);
    return r;
}

static int has_text(const char *const *list, size_t n, const char *needle)
{
    for (size_t i = 0; i < n; i++)
        if (strstr(list[i], needle)) return 1;
    return 0;
}

/* Published check: 1 h, 1 core of unknown model (12 W), 7 GB, PUE 1.67,
 * world average 475 -> 24.39 Wh, 11.59 gCO2e.  v2.2 defaults give PUE
 * 1.67 for an unknown local server. */
static void test_crosscheck_v22_defaults(void)
{
    jc_ga_input in;
    jc_ga_input_init(&in);
    in.runtime_h = 1;
    in.n_cores = 1;
    in.memory_gb = 7;
    in.version = "2.2";
    jc_ga_result *r = run(&in);
    CHECK(r != NULL);
    if (!r) return;
    CHECK_NEAR(r->cpu_w_per_core, 12, 0);
    CHECK_NEAR(r->pue, 1.67, 0);
    CHECK_NEAR(r->ci, 475, 0);
    CHECK_NEAR(r->energy_wh, 24.39, TOL);
    CHECK_NEAR(r->carbon_g, 11.59, TOL);
    /* 1.67x12 + 1.67x(7x0.3725) = 20.04 + 4.354525 = 24.394525 Wh;
     * x 0.475 kg/kWh = 11.587399375 g */
    CHECK_NEAR(r->energy_wh, 24.394525, 1e-9);
    CHECK_NEAR(r->carbon_g, 11.587399375, 1e-9);
    CHECK_STR(r->location, "WORLD");
    jc_ga_result_free(r);
}

static void test_crosscheck_explicit_pue(void)
{
    jc_ga_input in;
    jc_ga_input_init(&in);
    in.runtime_h = 1;
    in.n_cores = 1;
    in.memory_gb = 7;
    in.pue = 1.67;   /* v3.0 tables, PUE given */
    jc_ga_result *r = run(&in);
    CHECK(r != NULL);
    if (!r) return;
    CHECK_STR(r->version, "3.0");
    CHECK_NEAR(r->energy_wh, 24.39, TOL);
    CHECK_NEAR(r->carbon_g, 11.59, TOL);
    jc_ga_result_free(r);
}

/* v3.0's unknown local server is 1.56 (Uptime 2024). */
static void test_v30_local_default(void)
{
    jc_ga_input in;
    jc_ga_input_init(&in);
    in.runtime_h = 1;
    in.n_cores = 1;
    in.memory_gb = 7;
    jc_ga_result *r = run(&in);
    CHECK(r != NULL);
    if (!r) return;
    CHECK_NEAR(r->pue, 1.56, 0);
    CHECK_NEAR(r->energy_wh, (12 + 7 * 0.3725) * 1.56, 1e-12);
    jc_ga_result_free(r);
}

/* "The same job emits about 74x more in Australia than in Switzerland"
 * (v2.1 intensities: AU 880, CH 11.82 -> 74.45). */
static void test_australia_switzerland_74x(void)
{
    jc_ga_input in;
    jc_ga_input_init(&in);
    in.runtime_h = 12;
    in.n_cores = 12;
    in.memory_gb = 64;
    in.version = "2.1";
    in.region = "AU";
    jc_ga_result *au = run(&in);
    in.region = "CH";
    jc_ga_result *ch = run(&in);
    CHECK(au && ch);
    if (au && ch) {
        CHECK_NEAR(au->energy_wh, ch->energy_wh, 1e-12);
        double ratio = au->carbon_g / ch->carbon_g;
        CHECK_I64(lround(ratio), 74);
        CHECK_NEAR(ratio, 880 / 11.82, 1e-9);
    }
    jc_ga_result_free(au);
    jc_ga_result_free(ch);
}

/* CPU only: 10 h, 8 cores of Xeon Gold 6148 (TDP_per_core 7.5), 16 GB,
 * local server (1.56), France (51.28):
 * 10 x (1.56x8x7.5 + 1.56x16x0.3725) = 1028.976 Wh; x 0.05128 = 52.7659 g */
static void test_cpu_only(void)
{
    jc_ga_input in;
    jc_ga_input_init(&in);
    in.runtime_h = 10;
    in.n_cores = 8;
    in.cpu_model = "Xeon Gold 6148";
    in.memory_gb = 16;
    in.region = "FR";
    jc_ga_result *r = run(&in);
    CHECK(r != NULL);
    if (!r) return;
    CHECK_NEAR(r->cpu_w_per_core, 7.5, 0);
    CHECK_NEAR(r->energy_wh, 1028.976, TOL);
    CHECK_NEAR(r->carbon_g, 52.76589, TOL);
    CHECK_NEAR(r->energy_gpu_wh, 0, 0);
    CHECK_NEAR(r->energy_cpu_wh + r->energy_memory_wh, r->energy_wh, 1e-12);
    CHECK_NEAR(r->energy_cpu_wh, 10 * 1.56 * 8 * 7.5, 1e-12);
    /* a hwdb device name resolves to the calculator's row */
    in.cpu_model = "intel-xeon-gold-6148";
    jc_ga_result *r2 = run(&in);
    CHECK(r2 && r2->cpu_model && !strcmp(r2->cpu_model, "Xeon Gold 6148"));
    if (r2) CHECK_NEAR(r2->energy_wh, 1028.976, TOL);
    jc_ga_result_free(r2);
    jc_ga_result_free(r);
}

/* GPU + CPU with usage below 1: 2.5 h, 4 cores Core i7-10700K (15.6 W),
 * usage 0.5, 2 x NVIDIA A100 40GB PCIe (250 W) at 0.75, 32 GB, local
 * (1.56), Germany (338.66):
 * 2.5 x 1.56 x (4x15.6x0.5 + 2x250x0.75 + 32x0.3725) = 1630.668 Wh;
 * carbon 552.2420 g */
static void test_gpu_cpu_usage(void)
{
    jc_ga_input in;
    jc_ga_input_init(&in);
    in.runtime_h = 2.5;
    in.n_cores = 4;
    in.cpu_model = "Core i7-10700K";
    in.cpu_usage = 0.5;
    in.n_gpus = 2;
    in.gpu_model = "NVIDIA A100 40GB PCIe";
    in.gpu_usage = 0.75;
    in.memory_gb = 32;
    in.region = "DE";
    jc_ga_result *r = run(&in);
    CHECK(r != NULL);
    if (!r) return;
    CHECK_NEAR(r->energy_wh, 1630.668, TOL);
    CHECK_NEAR(r->carbon_g, 1630.668 / 1000 * 338.66, TOL);
    CHECK_NEAR(r->energy_gpu_wh, 2.5 * 1.56 * 2 * 250 * 0.75, 1e-12);
    CHECK_NEAR(r->energy_cpu_wh, 2.5 * 1.56 * 4 * 15.6 * 0.5, 1e-12);
    jc_ga_result_free(r);
}

/* GPU only, personal computer: 3 h, 1 NVIDIA Tesla T4 (70 W), no memory,
 * PUE 1, world 475: 210 Wh, 99.75 g. */
static void test_gpu_only_personal(void)
{
    jc_ga_input in;
    jc_ga_input_init(&in);
    in.runtime_h = 3;
    in.n_gpus = 1;
    in.gpu_model = "NVIDIA Tesla T4";
    in.platform = JC_GA_PERSONAL;
    jc_ga_result *r = run(&in);
    CHECK(r != NULL);
    if (!r) return;
    CHECK_NEAR(r->pue, 1, 0);
    CHECK_NEAR(r->energy_wh, 210, TOL);
    CHECK_NEAR(r->carbon_g, 99.75, TOL);
    CHECK_NEAR(r->energy_cpu_wh, 0, 0);
    jc_ga_result_free(r);
}

/* PSF 3 and large memory: 1 h, 2 cores at --tdp-per-core 10, 1024 GB,
 * --pue 1.2, --ci 100: 3 x 1.2 x (20 + 1024x0.3725) = 1445.184 Wh;
 * 144.5184 g; memory 95% of it. */
static void test_psf_large_memory(void)
{
    jc_ga_input in;
    jc_ga_input_init(&in);
    in.runtime_h = 1;
    in.n_cores = 2;
    in.tdp_per_core_w = 10;
    in.memory_gb = 1024;
    in.pue = 1.2;
    in.ci = 100;
    in.psf = 3;
    jc_ga_result *r = run(&in);
    CHECK(r != NULL);
    if (!r) return;
    CHECK_NEAR(r->energy_wh, 1445.184, TOL);
    CHECK_NEAR(r->carbon_g, 144.5184, TOL);
    CHECK_NEAR(r->energy_memory_wh, 3 * 1.2 * 1024 * 0.3725, 1e-12);
    CHECK(r->location == NULL);
    jc_ga_result_free(r);
}

/* Cloud data centre with its own PUE: gcp europe-west1 (PUE 1.08,
 * location BE 161.89), 5 h, 16 cores "Any" (12 W), 64 GB:
 * 5 x 1.08 x (16x12 + 64x0.3725) = 1165.536 Wh; 188.6886 g. */
static void test_cloud_datacenter_pue(void)
{
    jc_ga_input in;
    jc_ga_input_init(&in);
    in.runtime_h = 5;
    in.n_cores = 16;
    in.memory_gb = 64;
    in.platform = JC_GA_CLOUD;
    in.provider = "gcp";
    in.datacenter = "europe-west1";
    jc_ga_result *r = run(&in);
    CHECK(r != NULL);
    if (!r) return;
    CHECK_NEAR(r->pue, 1.08, 0);
    CHECK_STR(r->location, "BE");
    CHECK_NEAR(r->ci, 161.89, 0);
    CHECK_NEAR(r->energy_wh, 1165.536, TOL);
    CHECK_NEAR(r->carbon_g, 188.68862, TOL);
    jc_ga_result_free(r);
}

/* A data centre without its own PUE takes the provider's default: azure
 * "West Europe" (NL) -> azure 1.12 in v3.0; provider only -> 1.12 too;
 * provider "other" -> the Unknown default 1.56. */
static void test_cloud_provider_default(void)
{
    jc_ga_input in;
    jc_ga_input_init(&in);
    in.runtime_h = 1;
    in.n_cores = 1;
    in.platform = JC_GA_CLOUD;
    in.provider = "azure";
    in.datacenter = "West Europe";
    jc_ga_result *r = run(&in);
    CHECK(r != NULL);
    if (r) {
        CHECK_NEAR(r->pue, 1.12, 0);
        CHECK_STR(r->location, "NL");
        CHECK_NEAR(r->energy_wh, 12 * 1.12, 1e-12);
    }
    jc_ga_result_free(r);
    in.datacenter = NULL;
    in.region = "FR";
    r = run(&in);
    CHECK(r && r->pue == 1.12);
    jc_ga_result_free(r);
    in.provider = "other";
    r = run(&in);
    CHECK(r && r->pue == 1.56);
    jc_ga_result_free(r);
    /* the v2.2 tables: gcp default 1.11, azure 1.125 */
    in.provider = "azure";
    in.version = "2.2";
    r = run(&in);
    CHECK(r && r->pue == 1.125);
    jc_ga_result_free(r);
}

/* Equivalences from referenceValues.csv (v3.0): treeYear 11000, car EU
 * 175 / US 251 gCO2/km, flights PAR-DUB 110000 (the v3.0 app's short
 * flight), NY-SF 570000, NYC-MEL 2310000; v2.2: PAR-LON 50000. */
static void test_equivalences(void)
{
    jc_ga_input in;
    jc_ga_input_init(&in);
    in.runtime_h = 1000;
    in.n_gpus = 8;
    in.gpu_tdp_w = 400;
    in.pue = 1;
    in.ci = 500;   /* 3200 kWh -> 1,600,000 g */
    jc_ga_result *r = run(&in);
    CHECK(r != NULL);
    if (r) {
        CHECK_NEAR(r->carbon_g, 1.6e6, 1e-12);
        CHECK_NEAR(r->tree_months, 1.6e6 / 11000 * 12, 1e-12);
        CHECK_NEAR(r->car_km_eu, 1.6e6 / 175, 1e-12);
        CHECK_NEAR(r->car_km_us, 1.6e6 / 251, 1e-12);
        CHECK_STR(r->flight_label, "NYC-Melbourne");   /* >= 0.5 x 2310000 */
        CHECK_NEAR(r->flight_fraction, 1.6e6 / 2310000, 1e-12);
    }
    jc_ga_result_free(r);
    in.ci = 100;   /* 320,000 g: between 285,000 and 1,155,000 */
    r = run(&in);
    CHECK(r && r->flight_label && !strcmp(r->flight_label, "NYC-San Francisco"));
    if (r) CHECK_NEAR(r->flight_fraction, 3.2e5 / 570000, 1e-12);
    jc_ga_result_free(r);
    in.runtime_h = 1;   /* 320 g */
    r = run(&in);
    CHECK(r && r->flight_label && !strcmp(r->flight_label, "Paris-Dublin"));
    if (r) CHECK_NEAR(r->flight_fraction, 320.0 / 110000, 1e-12);
    jc_ga_result_free(r);
    in.version = "2.2";
    r = run(&in);
    CHECK(r && r->flight_label && !strcmp(r->flight_label, "Paris-London"));
    if (r) CHECK_NEAR(r->flight_fraction, 320.0 / 50000, 1e-12);
    jc_ga_result_free(r);
}

/* Warnings and notes: threads given as cores; no idle floor; comparison. */
static void test_warnings_notes_comparison(void)
{
    jc_ga_input in;
    jc_ga_input_init(&in);
    in.runtime_h = 1;
    in.n_cores = 40;   /* Xeon Gold 6148: 20 cores, 40 threads */
    in.cpu_model = "Xeon Gold 6148";
    in.cpu_usage = 0.1;
    jc_ga_result *r = run(&in);
    CHECK(r != NULL);
    if (!r) return;
    CHECK(has_text(r->warnings, r->n_warnings, "threads"));
    CHECK(has_text(r->notes, r->n_notes, "idle floor"));
    CHECK(r->has_own);
    if (r->has_own) {
        /* own estimate has the idle floor: above the calculator at 10% */
        CHECK(r->own_energy_wh > r->energy_wh);
        CHECK(r->n_own_parts == 1);
    }
    jc_ga_result_free(r);
    in.n_cores = 20;
    r = run(&in);
    CHECK(r && !has_text(r->warnings, r->n_warnings, "threads"));
    jc_ga_result_free(r);
}

static void test_validation(void)
{
    jc_ga_input in;
    jc_ga_input_init(&in);
    jc_ga_result *r = NULL;
    jc_diag d;
    in.runtime_h = -1;
    in.n_cores = 1;
    CHECK_I64(jc_ga_compute(db, &in, &r, &d), JC_ERR_USAGE);
    CHECK(r == NULL);
    in.runtime_h = 1;
    in.cpu_usage = 1.5;
    CHECK_I64(jc_ga_compute(db, &in, &r, &d), JC_ERR_USAGE);
    CHECK(strstr(d.msg, "between 0 and 1") != NULL);
    in.cpu_usage = 1;
    in.cpu_model = "Xeon Gold 6184";
    CHECK_I64(jc_ga_compute(db, &in, &r, &d), JC_ERR_NOTFOUND);
    CHECK(strstr(d.msg, "did you mean") != NULL);
    CHECK(strstr(d.msg, "Xeon Gold 6148") != NULL);
    in.cpu_model = NULL;
    in.region = "Atlantis";
    CHECK_I64(jc_ga_compute(db, &in, &r, &d), JC_ERR_NOTFOUND);
    CHECK(strstr(d.msg, "unknown region") != NULL);
    in.region = NULL;
    in.version = "9.9";
    CHECK_I64(jc_ga_compute(db, &in, &r, &d), JC_ERR_NOTFOUND);
    in.version = NULL;
    in.pue = 0.5;
    CHECK_I64(jc_ga_compute(db, &in, &r, &d), JC_ERR_USAGE);
    in.pue = -1;
    in.psf = 0;
    CHECK_I64(jc_ga_compute(db, &in, &r, &d), JC_ERR_USAGE);
    in.psf = 1;
    in.n_cores = 0;
    CHECK_I64(jc_ga_compute(db, &in, &r, &d), JC_ERR_USAGE);
    in.n_cores = 1;
    in.platform = JC_GA_CLOUD;
    in.provider = "gcp";
    in.datacenter = "mars-north1";
    CHECK_I64(jc_ga_compute(db, &in, &r, &d), JC_ERR_NOTFOUND);
    in.provider = "nimbus";
    in.datacenter = NULL;
    CHECK_I64(jc_ga_compute(db, &in, &r, &d), JC_ERR_NOTFOUND);
    CHECK(r == NULL);
}

static void test_runtime_parser(void)
{
    struct { const char *s; double h; } ok[] = {
        {"90m", 1.5}, {"1.5h", 1.5}, {"12h30m", 12.5}, {"2d", 48}, {"1d6h", 30},
        {"2.5", 2.5}, {"45s", 45.0 / 3600}, {"1h30m36s", 1.51}, {"0.5d", 12},
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        double h = -1;
        jc_diag d;
        CHECK_I64(jc_ga_parse_runtime(ok[i].s, &h, &d), JC_OK);
        CHECK_NEAR(h, ok[i].h, 1e-12);
    }
    const char *bad[] = {"", "-1h", "-5", "abc", "1h2h", "30m1h", "5x", "1..5h",
                         "h", "1h30", "1e3", "nan", " 1h"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        double h = 7;
        jc_diag d;
        if (jc_ga_parse_runtime(bad[i], &h, &d) != JC_ERR_USAGE)
            printf("  runtime '%s' accepted\n", bad[i]), check_cur_fail_ = 1;
        CHECK_NEAR(h, 7, 0);
    }
    jc_diag d;
    double h;
    jc_ga_parse_runtime("-1h", &h, &d);
    CHECK(strstr(d.msg, "negative") != NULL);
}

/* The arithmetic with tables passed as plain structs (no database). */
static void test_plain_tables(void)
{
    jc_ga_hw cpus[1] = {{0}};
    cpus[0].name = "Any";
    cpus[0].tdp_per_core_w.present = 1;
    cpus[0].tdp_per_core_w.value = 12;
    jc_ga_pue_default pue[1] = {{0}};
    pue[0].provider = "Unknown";
    pue[0].value.present = 1;
    pue[0].value.value = 1.67;
    jc_ga_constant k[1] = {{0}};
    k[0].id = "memoryPower";
    k[0].value.present = 1;
    k[0].value.value = 0.3725;
    jc_ga_location loc[1] = {{0}};
    loc[0].code = "WORLD";
    loc[0].value.present = 1;
    loc[0].value.value = 475;
    jc_ga_version v = {0};
    v.version = "test";
    v.cpus = cpus; v.n_cpus = 1;
    v.pue_defaults = pue; v.n_pue_defaults = 1;
    v.constants = k; v.n_constants = 1;
    v.locations = loc; v.n_locations = 1;
    jc_ga_input in;
    jc_ga_input_init(&in);
    in.runtime_h = 1;
    in.n_cores = 1;
    in.memory_gb = 7;
    jc_ga_result *r = NULL;
    jc_diag d;
    CHECK_I64(jc_ga_compute_tables(&v, NULL, &in, &r, &d), JC_OK);
    if (r) {
        CHECK_NEAR(r->energy_wh, 24.39, TOL);
        CHECK_NEAR(r->carbon_g, 11.59, TOL);
        CHECK(!r->has_own);
    }
    jc_ga_result_free(r);
}

static void test_reports(void)
{
    jc_ga_input in;
    jc_ga_input_init(&in);
    in.runtime_h = 1;
    in.n_cores = 1;
    in.memory_gb = 7;
    in.version = "2.2";
    jc_ga_result *r = run(&in);
    CHECK(r != NULL);
    if (!r) return;
    char *js = jc_report_ga_json(r);
    CHECK(js && strstr(js, "\"energy_wh\"") && strstr(js, "\"leaves_out\""));
    free(js);
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (f) {
        CHECK_I64(jc_report_ga_text(r, f), JC_OK);
        char buf[8192];
        rewind(f);
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = 0;
        CHECK(strstr(buf, "24.39 Wh") != NULL);
        CHECK(strstr(buf, "11.59 gCO2e") != NULL);
        fclose(f);
    }
    jc_ga_result_free(r);
}

int main(void)
{
    jc_diag d;
    if (jc_hwdb_load("hwdb", NULL, 0, NULL, &db, &d)) {
        printf("FAIL test_ga_load_hwdb: %s\n", d.msg);
        return 1;
    }
    RUN(test_crosscheck_v22_defaults);
    RUN(test_crosscheck_explicit_pue);
    RUN(test_v30_local_default);
    RUN(test_australia_switzerland_74x);
    RUN(test_cpu_only);
    RUN(test_gpu_cpu_usage);
    RUN(test_gpu_only_personal);
    RUN(test_psf_large_memory);
    RUN(test_cloud_datacenter_pue);
    RUN(test_cloud_provider_default);
    RUN(test_equivalences);
    RUN(test_warnings_notes_comparison);
    RUN(test_validation);
    RUN(test_runtime_parser);
    RUN(test_plain_tables);
    RUN(test_reports);
    jc_hwdb_free(db);
    return check_summary();
}
