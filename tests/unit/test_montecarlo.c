/*
 * test_montecarlo.c - the Monte Carlo percentiles' fast path against the
 * reference path (issue 45 item 2; src/estimate/montecarlo.c), and the
 * sensitivity's central-only runs against full runs with the input pinned.
 *
 * The fast path (a block of draws at a time, input by input, the inert
 * inputs skipped, the exp written out over the block, the percentiles by a
 * sampled pass) must give the reference path's p5, p50 and p95 (draw after
 * draw, input after input, as the model reads) bit for bit: for jobs of
 * each kind (training of an analysed graph on 8 devices, inference, a
 * FLOP-only training budget), several seeds and draw counts that fill no
 * whole block (1, 7, 300, 2,500: the small-sample selection, the padded
 * last block, the sampled selection).  The table's rows, which the draws
 * are built on, come from central-only runs: each row must equal a full
 * `--pin KEY=low` / `KEY=high` run's central figures bit for bit.  And
 * the building blocks: jci_exp within 1e-15 of the C library's exp, the
 * normal quantile's symmetry, the generator's first words for seed 0
 * (xoshiro256** seeded by splitmix64, as published).
 */
#include "joulecast.h"
#include "check.h"
#include "estimate/montecarlo.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static jc_hwdb *db;
static jc_model *model;
static jc_analysis *an_resnet;

static jc_analysis *analyse(const char *path, double batch)
{
    jc_model *m = NULL;
    jc_analysis *an = NULL;
    jc_analyze_opts o = {0};
    o.batch = batch;
    jc_diag d;
    if (jc_model_load(path, &m, &d) || jc_analyze(m, &o, &an, &d)) {
        printf("  %s: %s\n", path, d.msg);
        jc_model_free(m);
        return NULL;
    }
    model = m;
    return an;
}

/* A job of mode on device in region (count devices when > 0). */
static void job_on(jc_job *j, jc_mode mode, const char *device, double count, const char *region)
{
    jc_job_init(j);
    j->mode = mode;
    j->device = device;
    if (count > 0) j->count = count;
    j->region = region;
}

static void resnet_training(jc_job *j)
{
    job_on(j, JC_MODE_TRAINING, "a100", 8, "US-CA");
    j->samples = 1281167;
    j->epochs = 90;
    j->batch = 256;
}

/* fast == reference, figure by figure, for job at these draws and seeds */
static void same_paths(jc_job *j, const jc_analysis *an)
{
    jc_diag d;
    jc_estimate *e = NULL;
    j->sensitivity = 1;
    if (jc_estimate_run(j, an, db, &e, &d)) {
        printf("  estimate: %s\n", d.msg);
        CHECK(0);
        return;
    }
    CHECK(e->n_sensitivity >= 3);
    static const double draws[] = {1, 7, 300, 2500};
    static const double seeds[] = {0, 1, 12345, 4294967296.0};
    for (size_t a = 0; a < sizeof draws / sizeof draws[0]; a++)
        for (size_t b = 0; b < sizeof seeds / sizeof seeds[0]; b++) {
            j->draws = draws[a];
            j->seed = seeds[b];
            jc_pct f[3], r[3];
            CHECK(jci_montecarlo_percentiles(j, e, 0, f, &d) == JC_OK);
            CHECK(jci_montecarlo_percentiles(j, e, 1, r, &d) == JC_OK);
            for (int k = 0; k < 3; k++) {
                if (f[k].p5 != r[k].p5 || f[k].p50 != r[k].p50 || f[k].p95 != r[k].p95) {
                    printf("  draws %g seed %g figure %d: fast %.17g %.17g %.17g, reference %.17g %.17g %.17g\n",
                           draws[a], seeds[b], k, f[k].p5, f[k].p50, f[k].p95, r[k].p5, r[k].p50, r[k].p95);
                    CHECK(0);
                }
                CHECK(f[k].p5 <= f[k].p50 && f[k].p50 <= f[k].p95);
            }
        }
    /* the run's own figures are the fast path's */
    j->draws = 2500;
    j->seed = 9;
    jc_estimate *m = NULL;
    jc_pct r[3];
    CHECK(jc_estimate_run(j, an, db, &m, &d) == JC_OK && m && m->has_mc);
    CHECK(jci_montecarlo_percentiles(j, e, 1, r, &d) == JC_OK);
    if (m) {
        CHECK(m->mc_co2_kg.p50 == r[0].p50 && m->mc_energy_facility_kwh.p95 == r[1].p95 &&
              m->mc_wall_hours.p5 == r[2].p5);
        jc_estimate_free(m);
    }
    jc_estimate_free(e);
}

static void test_fast_path_training_graph(void)
{
    jc_job j;
    resnet_training(&j);
    if (an_resnet) same_paths(&j, an_resnet);
    else CHECK(0);
}

/* an inference job of the graph, and a FLOP budget without one */
static void test_fast_path_other_jobs(void)
{
    jc_job inf, budget;
    job_on(&inf, JC_MODE_INFERENCE, "l4", 0, "FR");
    inf.requests = 1e6;
    inf.batch = 256;
    job_on(&budget, JC_MODE_TRAINING, "h100", 64, "DE");
    budget.params = 7e9;
    budget.tokens = 1e11;
    CHECK(an_resnet != NULL);
    if (an_resnet) same_paths(&inf, an_resnet);
    same_paths(&budget, NULL);
}

/* Each sensitivity row (central-only runs sharing the kernel plans) is the
 * central figure of a full run with that input pinned, bit for bit. */
static void test_rows_equal_full_pinned_runs(void)
{
    jc_job j;
    resnet_training(&j);
    j.sensitivity = 1;
    jc_diag d;
    jc_estimate *e = NULL;
    if (!an_resnet || jc_estimate_run(&j, an_resnet, db, &e, &d)) {
        CHECK(0);
        return;
    }
    j.sensitivity = 0;
    for (size_t i = 0; i < e->n_sensitivity; i++) {
        const jc_sensitivity *s = &e->sensitivity[i];
        for (int hi = 0; hi < 2; hi++) {
            char pin[160];
            snprintf(pin, sizeof pin, "%s=%s", s->key, hi ? "high" : "low");
            j.pin = pin;
            jc_estimate *p = NULL;
            if (jc_estimate_run(&j, an_resnet, db, &p, &d)) {
                printf("  --pin %s: %s\n", pin, d.msg);
                CHECK(0);
                continue;
            }
            double want[3] = {hi ? s->co2_high : s->co2_low, hi ? s->kwh_high : s->kwh_low,
                              hi ? s->hours_high : s->hours_low};
            double got[3] = {p->co2_kg.central, p->energy_facility_kwh.central, p->wall_hours.central};
            for (int k = 0; k < 3; k++)
                if (got[k] != want[k]) {
                    printf("  --pin %s figure %d: full run %.17g, table %.17g\n", pin, k, got[k], want[k]);
                    CHECK(0);
                }
            jc_estimate_free(p);
        }
    }
    jc_estimate_free(e);
}

static void test_exp_and_quantile(void)
{
    double worst = 0;
    for (double x = -700; x <= 700; x += 0.37) {
        double r = fabs(jci_exp(x) - exp(x)) / exp(x);
        if (r > worst) worst = r;
    }
    for (double x = -2; x <= 2; x += 1.0 / 1024) {
        double r = fabs(jci_exp(x) - exp(x)) / exp(x);
        if (r > worst) worst = r;
    }
    CHECK(worst < 1e-15);
    CHECK(jci_exp(0) == 1);
    CHECK_NEAR(jci_norm_central_quantile(0.95), 1.6448536269514722, 1e-8);
    CHECK(jci_norm_central_quantile(0.5) == 0);
    CHECK(jci_norm_central_quantile(0.25) == -jci_norm_central_quantile(0.75));
}

/* xoshiro256** seeded by splitmix64(0): the state is splitmix64's first
 * four outputs (e220a8397b1dcdaf 6e789e6aa1b965f4 06c45d188009454f
 * f88bb8a8724c81ec, Vigna's splitmix64.c), the first output
 * rotl(s1 * 5, 7) * 9. */
static void test_generator_words(void)
{
    jci_rng r;
    jci_rng_seed(&r, 0);
    CHECK(r.s[0] == 0xe220a8397b1dcdafull && r.s[1] == 0x6e789e6aa1b965f4ull);
    CHECK(r.s[2] == 0x06c45d188009454full && r.s[3] == 0xf88bb8a8724c81ecull);
    uint64_t s1 = r.s[1], x = s1 * 5;
    CHECK(jci_rng_next(&r) == ((x << 7) | (x >> 57)) * 9);
    double u = jci_rng_unit(&r);
    CHECK(u >= 0 && u < 1);
}

int main(void)
{
    if (!(db = check_bundled_hwdb())) return 1;
    an_resnet = analyse("models/resnet50.onnx", 256);
    RUN(test_generator_words);
    RUN(test_exp_and_quantile);
    RUN(test_fast_path_training_graph);
    RUN(test_fast_path_other_jobs);
    RUN(test_rows_equal_full_pinned_runs);
    jc_analysis_free(an_resnet);
    jc_model_free(model);
    jc_hwdb_free(db);
    return check_summary();
}
