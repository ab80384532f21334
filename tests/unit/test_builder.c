/*
 * test_builder.c - the result builder the estimate and the serving model
 * share (src/estimate/builder.h): keys canonicalised to the table's
 * pointer, the one rule for a key missing from assumption_keys.def (the
 * run fails naming it; a constant's own hwdb id is exempt), whole hwdb
 * citations, the stage's failure prefix, and the move of both lists into
 * the arena.
 */
#include "joulecast.h"
#include "check.h"
#include "estimate/akeys.h"
#include "estimate/builder.h"

/* A builder over a fresh arena, and its lists once moved. */
typedef struct fx {
    jci_arena *a;
    jc_diag d;
    jci_builder b;
    jc_assumption *as;
    const char **w;
    size_t n_as, n_w;
} fx;

static void fx_open(fx *f, const char *stage)
{
    memset(f, 0, sizeof *f);
    CHECK_I64(jci_bld_open(&f->b, &f->d, stage, NULL, NULL), JC_OK);
    f->a = f->b.a;
}

static jc_status fx_move(fx *f) { return jci_bld_move(&f->b, &f->as, &f->n_as, &f->w, &f->n_w); }

static void fx_close(fx *f)
{
    jci_bld_release(&f->b);
    jci_arena_free(f->a);
}

/* A table key comes back as the table's own pointer; the lists move in
 * order into the arena and survive the release of the working lists. */
static void test_keys_and_move(void)
{
    fx f;
    fx_open(&f, "estimate");
    char key[] = "devices";   /* a copy: not the table's pointer */
    jc_range r = jci_bld_assume(&f.b, key, "devices", R1(8), "", JC_ORIGIN_USER, "--count");
    CHECK(r.central == 8);
    jci_bld_warn(&f.b, "first %d", 1);
    jci_bld_warn(&f.b, "second %s", "two");
    CHECK_I64(fx_move(&f), JC_OK);
    jci_bld_release(&f.b);
    CHECK_I64(f.n_as, 1);
    CHECK_I64(f.n_w, 2);
    if (f.n_as == 1) {
        CHECK(f.as[0].key == jci_akey_name(JCI_AK_DEVICES));
        CHECK_STR(f.as[0].source, "--count");
        CHECK_I64(f.as[0].origin, JC_ORIGIN_USER);
    }
    if (f.n_w == 2) {
        CHECK_STR(f.w[0], "first 1");
        CHECK_STR(f.w[1], "second two");
    }
    fx_close(&f);   /* releases the lists a second time: harmless */
}

/* An empty builder moves to non-NULL empty lists. */
static void test_empty_move(void)
{
    fx f;
    fx_open(&f, "estimate");
    CHECK_I64(fx_move(&f), JC_OK);
    CHECK(f.as != NULL && f.w != NULL);
    CHECK_I64(f.n_as, 0);
    CHECK_I64(f.n_w, 0);
    fx_close(&f);
}

/* A key missing from the table fails the check and the move with an
 * internal error that names it, prefixed by the stage. */
static void test_unknown_key(void)
{
    fx f;
    fx_open(&f, "estimate --generate");
    jci_bld_assume(&f.b, "no.such.key", "x", R1(1), "", JC_ORIGIN_DEFAULT, "test");
    jci_bld_assume(&f.b, "also.missing", "y", R1(2), "", JC_ORIGIN_DEFAULT, "test");
    CHECK_I64(jci_bld_check(&f.b), JC_ERR_INTERNAL);
    CHECK_STR(f.d.msg, "estimate --generate: assumption key 'no.such.key' is not in "
                     "src/estimate/assumption_keys.def (add it there)");
    CHECK_I64(fx_move(&f), JC_ERR_INTERNAL);
    CHECK(f.as == NULL);
    fx_close(&f);
}

/* A constant recorded under its own id needs no table line; under another
 * key that is not in the table it fails.  Its range, unit and citation
 * come from the database entry. */
static void test_const(void)
{
    fx f;
    fx_open(&f, "estimate");
    jc_source src = {.citation = "a fit", .year = 2024};
    jc_constant c = {.id = "serving_decode_mbu.test-device", .unit = "1",
                     .value = {.present = 1, .value = 0.6, .low = 0.5, .high = 0.7, .has_range = 1,
                               .source = &src, .file = "hwdb/serving.yaml", .line = 12}};
    jc_range r = jci_bld_const(&f.b, c.id, "decode MBU", &c);
    CHECK(r.low == 0.5 && r.central == 0.6 && r.high == 0.7);
    CHECK_I64(jci_bld_check(&f.b), JC_OK);
    CHECK_I64(f.b.n_as, 1);
    if (f.b.n_as == 1) {
        CHECK_STR(f.b.as[0].key, "serving_decode_mbu.test-device");
        CHECK_STR(f.b.as[0].unit, "1");
        CHECK_I64(f.b.as[0].origin, JC_ORIGIN_HWDB);
        CHECK_STR(f.b.as[0].source, "hwdb/serving.yaml:12 (a fit, 2024)");
    }
    jci_bld_const(&f.b, "not_its_id", "other", &c);
    CHECK_I64(jci_bld_check(&f.b), JC_ERR_INTERNAL);
    fx_close(&f);
}

/* Citations are whole: a citation over 300 characters and a derivation
 * over 400 are not cut (the serving model's copy cut them). */
static void test_cite_whole(void)
{
    fx f;
    fx_open(&f, "estimate");
    char cit[501], der[601];
    memset(cit, 'c', 500);
    cit[500] = 0;
    memset(der, 'd', 600);
    der[600] = 0;
    jc_source src = {.citation = cit, .year = 2021};
    jc_sourced v = {.present = 1, .value = 1, .source = &src, .derived = der,
                    .file = "hwdb/energy-model.yaml", .line = 375};
    const char *s = jci_bld_cite(&f.b, &v);
    char want[1200];
    snprintf(want, sizeof want, "hwdb/energy-model.yaml:375 (%s, 2021); derived: %s", cit, der);
    CHECK_STR(s, want);
    v.year = 2019;   /* the value's own year wins over its source's */
    v.derived = NULL;
    v.measured = "a trace";
    snprintf(want, sizeof want, "hwdb/energy-model.yaml:375 (%s, 2019); measured: a trace", cit);
    CHECK_STR(jci_bld_cite(&f.b, &v), want);
    fx_close(&f);
}

/* A failure names the stage. */
static void test_fail_prefix(void)
{
    fx f;
    fx_open(&f, "estimate --generate");
    CHECK_I64(jci_bld_fail(&f.b, JC_ERR_USAGE, "--pp must be %s", "whole"), JC_ERR_USAGE);
    CHECK_STR(f.d.msg, "estimate --generate: --pp must be whole");
    CHECK_I64(f.d.status, JC_ERR_USAGE);
    fx_close(&f);
}

int main(void)
{
    RUN(test_keys_and_move);
    RUN(test_empty_move);
    RUN(test_unknown_key);
    RUN(test_const);
    RUN(test_cite_whole);
    RUN(test_fail_prefix);
    return check_summary();
}
