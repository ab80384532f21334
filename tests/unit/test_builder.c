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

/* A table key comes back as the table's own pointer; the lists move in
 * order into the arena and survive the release of the working lists. */
static void test_keys_and_move(void)
{
    jci_arena *a = jci_arena_new();
    jc_diag d;
    jci_builder b;
    jci_bld_init(&b, a, &d, "estimate");
    char key[] = "devices";   /* a copy: not the table's pointer */
    jc_range r = jci_bld_assume(&b, key, "devices", R1(8), "", JC_ORIGIN_USER, "--count");
    CHECK(r.central == 8);
    jci_bld_warn(&b, "first %d", 1);
    jci_bld_warn(&b, "second %s", "two");
    jc_assumption *as = NULL;
    const char **w = NULL;
    size_t n_as = 0, n_w = 0;
    CHECK_I64(jci_bld_move(&b, &as, &n_as, &w, &n_w), JC_OK);
    jci_bld_release(&b);
    CHECK_I64(n_as, 1);
    CHECK_I64(n_w, 2);
    if (n_as == 1) {
        CHECK(as[0].key == jci_akey_name(JCI_AK_DEVICES));
        CHECK_STR(as[0].source, "--count");
        CHECK_I64(as[0].origin, JC_ORIGIN_USER);
    }
    if (n_w == 2) {
        CHECK_STR(w[0], "first 1");
        CHECK_STR(w[1], "second two");
    }
    jci_bld_release(&b);   /* twice is harmless */
    jci_arena_free(a);
}

/* An empty builder moves to non-NULL empty lists. */
static void test_empty_move(void)
{
    jci_arena *a = jci_arena_new();
    jc_diag d;
    jci_builder b;
    jci_bld_init(&b, a, &d, "estimate");
    jc_assumption *as = NULL;
    const char **w = NULL;
    size_t n_as = 9, n_w = 9;
    CHECK_I64(jci_bld_move(&b, &as, &n_as, &w, &n_w), JC_OK);
    CHECK(as != NULL && w != NULL);
    CHECK_I64(n_as, 0);
    CHECK_I64(n_w, 0);
    jci_bld_release(&b);
    jci_arena_free(a);
}

/* A key missing from the table fails the check and the move with an
 * internal error that names it, prefixed by the stage. */
static void test_unknown_key(void)
{
    jci_arena *a = jci_arena_new();
    jc_diag d;
    jci_builder b;
    jci_bld_init(&b, a, &d, "estimate --generate");
    jci_bld_assume(&b, "no.such.key", "x", R1(1), "", JC_ORIGIN_DEFAULT, "test");
    jci_bld_assume(&b, "also.missing", "y", R1(2), "", JC_ORIGIN_DEFAULT, "test");
    CHECK_I64(jci_bld_check(&b), JC_ERR_INTERNAL);
    CHECK_STR(d.msg, "estimate --generate: assumption key 'no.such.key' is not in "
                     "src/estimate/assumption_keys.def (add it there)");
    jc_assumption *as = NULL;
    const char **w = NULL;
    size_t n_as = 0, n_w = 0;
    CHECK_I64(jci_bld_move(&b, &as, &n_as, &w, &n_w), JC_ERR_INTERNAL);
    CHECK(as == NULL);
    jci_bld_release(&b);
    jci_arena_free(a);
}

/* A constant recorded under its own id needs no table line; under another
 * key that is not in the table it fails.  Its range, unit and citation
 * come from the database entry. */
static void test_const(void)
{
    jci_arena *a = jci_arena_new();
    jc_diag d;
    jci_builder b;
    jci_bld_init(&b, a, &d, "estimate");
    jc_source src = {.citation = "a fit", .year = 2024};
    jc_constant c = {.id = "serving_decode_mbu.test-device", .unit = "1",
                     .value = {.present = 1, .value = 0.6, .low = 0.5, .high = 0.7, .has_range = 1,
                               .source = &src, .file = "hwdb/serving.yaml", .line = 12}};
    jc_range r = jci_bld_const(&b, c.id, "decode MBU", &c);
    CHECK(r.low == 0.5 && r.central == 0.6 && r.high == 0.7);
    CHECK_I64(jci_bld_check(&b), JC_OK);
    CHECK_I64(b.n_as, 1);
    if (b.n_as == 1) {
        CHECK_STR(b.as[0].key, "serving_decode_mbu.test-device");
        CHECK_STR(b.as[0].unit, "1");
        CHECK_I64(b.as[0].origin, JC_ORIGIN_HWDB);
        CHECK_STR(b.as[0].source, "hwdb/serving.yaml:12 (a fit, 2024)");
    }
    jci_bld_const(&b, "not_its_id", "other", &c);
    CHECK_I64(jci_bld_check(&b), JC_ERR_INTERNAL);
    jci_bld_release(&b);
    jci_arena_free(a);
}

/* Citations are whole: a citation over 300 characters and a derivation
 * over 400 are not cut (the serving model's copy cut them). */
static void test_cite_whole(void)
{
    jci_arena *a = jci_arena_new();
    jc_diag d;
    jci_builder b;
    jci_bld_init(&b, a, &d, "estimate");
    char cit[501], der[601];
    memset(cit, 'c', 500);
    cit[500] = 0;
    memset(der, 'd', 600);
    der[600] = 0;
    jc_source src = {.citation = cit, .year = 2021};
    jc_sourced v = {.present = 1, .value = 1, .source = &src, .derived = der,
                    .file = "hwdb/energy-model.yaml", .line = 375};
    const char *s = jci_bld_cite(&b, &v);
    char want[1200];
    snprintf(want, sizeof want, "hwdb/energy-model.yaml:375 (%s, 2021); derived: %s", cit, der);
    CHECK_STR(s, want);
    v.year = 2019;   /* the value's own year wins over its source's */
    v.derived = NULL;
    v.measured = "a trace";
    snprintf(want, sizeof want, "hwdb/energy-model.yaml:375 (%s, 2019); measured: a trace", cit);
    CHECK_STR(jci_bld_cite(&b, &v), want);
    jci_bld_release(&b);
    jci_arena_free(a);
}

/* A failure names the stage. */
static void test_fail_prefix(void)
{
    jci_arena *a = jci_arena_new();
    jc_diag d;
    jci_builder b;
    jci_bld_init(&b, a, &d, "estimate --generate");
    CHECK_I64(jci_bld_fail(&b, JC_ERR_USAGE, "--pp must be %s", "whole"), JC_ERR_USAGE);
    CHECK_STR(d.msg, "estimate --generate: --pp must be whole");
    CHECK_I64(d.status, JC_ERR_USAGE);
    jci_bld_release(&b);
    jci_arena_free(a);
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
