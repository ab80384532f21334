/*
 * test_base.c - the helpers of src/base that every stage shares: the one
 * "did you mean" rule (suggest.c: caps by length, word starts, one
 * suggestion per entity, order), printf into an arena (whole, never cut),
 * the doubling growth of arrays, the YAML, CSV and shell quoting, and the
 * cube root that gives the same bits on every libc (detmath.c).
 */
#include "check.h"
#include "joulecast.h"
#include "base/jc_internal.h"
#include "base/detmath.h"

#include <math.h>

static void test_suggest_rank(void)
{
    /* the cap grows with what was typed: 1 edit up to 3 characters */
    CHECK(jci_suggest_rank("gpu", "gpx") >= 0);
    CHECK_I64(jci_suggest_rank("abc", "xyz"), -1);
    CHECK_I64(jci_suggest_rank("bacth", "batch"), 8);   /* 2 edits: allowed at 5 */
    CHECK_I64(jci_suggest_rank("ab", "xy"), -1);
    /* the typed text starting a word of the name */
    CHECK_I64(jci_suggest_rank("p100", "nvidia-tesla-p100"), 2);
    CHECK_I64(jci_suggest_rank("A100", "a100"), 0);       /* case folded */
    CHECK_I64(jci_suggest_rank("country", "countryside-and-more-words"), 2);
    CHECK_I64(jci_suggest_rank(NULL, "x"), -1);
}

static void test_suggest_list(void)
{
    static const char *const keys[] = {"tdp_per_core_w", "tdp_w", "peak_tflops", "memory_gb"};
    jci_suggest s;
    jci_suggest_init(&s, "tdp", 1);
    for (size_t i = 0; i < 4; i++) jci_suggest_add(&s, keys[i], NULL);
    /* both start with "tdp": the closer spelling wins */
    CHECK_STR(jci_suggest_best(&s), "tdp_w");
    jci_suggest_init(&s, "tdp", 3);
    for (size_t i = 0; i < 4; i++) jci_suggest_add(&s, keys[i], NULL);
    char buf[100];
    jci_suggest_list(&s, "'", buf, sizeof buf);
    CHECK_STR(buf, "'tdp_w', 'tdp_per_core_w'");
    /* one entity, two names: only its closest */
    static const char *id = "nvidia-h100-sxm5";
    jci_suggest_init(&s, "h10", 3);
    jci_suggest_add(&s, id, id);
    jci_suggest_add(&s, "h100", id);
    CHECK_I64(s.n, 1);
    CHECK_STR(s.name[0], "h100");
    /* nothing close: no suggestion, an empty list */
    jci_suggest_init(&s, "zzzzzz", 3);
    jci_suggest_add(&s, "alpha", NULL);
    CHECK(jci_suggest_best(&s) == NULL);
    jci_suggest_list(&s, "", buf, sizeof buf);
    CHECK_STR(buf, "");
}

static void test_arena_printf(void)
{
    jci_arena *a = jci_arena_new();
    CHECK(a != NULL);
    if (!a) return;
    char big[3000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = 0;
    char *s = jci_arena_printf(a, "<%s|%d>", big, 42);
    CHECK(s != NULL);
    if (s) {
        CHECK_I64(strlen(s), sizeof big - 1 + 5);   /* whole, never cut */
        CHECK(!strcmp(s + strlen(s) - 4, "|42>"));
    }
    jci_arena_free(a);
    int *v = NULL;
    size_t cap = 0;
    for (size_t n = 0; n < 100; n++) {
        int *q = jci_grow(v, &cap, n, sizeof *v);
        CHECK(q != NULL);
        if (!q) break;
        v = q;
        v[n] = (int)n;
    }
    CHECK(cap >= 100);
    CHECK(v && v[99] == 99);
    free(v);
}

static void test_quoting(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(f != NULL);
    if (!f) return;
    jci_yaml_quote(f, "a\"b\\c\n");
    fputc('|', f);
    jci_csv_field(f, "plain", false);
    fputc('|', f);
    jci_csv_field(f, "a,\"b\"", false);
    fputc('|', f);
    jci_csv_field(f, "x", true);
    fputc('|', f);
    jci_csv_field(f, NULL, true);
    fclose(f);
    CHECK_STR(buf, "\"a\\\"b\\\\c\\x0a\"|plain|\"a,\"\"b\"\"\"|\"x\"|");
    free(buf);
    char cmd[64] = "joulecast";
    jc_shell_arg_append(cmd, sizeof cmd, "--region");
    jc_shell_arg_append(cmd, sizeof cmd, "it's");
    jc_shell_arg_append(cmd, sizeof cmd, "");
    CHECK_STR(cmd, "joulecast --region 'it'\\''s' ''");
}

/* issue 43 item 17: a stream past the cap is refused one byte past it,
 * not after the buffer doubled to twice the cap (4 GB for stdin's 2 GiB) */
static void test_read_stream_cap(void)
{
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f) return;
    static char zero[300000];
    fwrite(zero, 1, sizeof zero, f);
    rewind(f);
    char *out = NULL;
    size_t len = 7;
    CHECK_I64(jci_read_stream(f, 200000, &out, &len), JCI_READ_TOO_BIG);
    CHECK_I64(ftell(f), 200001);   /* was 262144: read on to the doubled buffer */
    CHECK(out == NULL && len == 0);
    rewind(f);
    CHECK_I64(jci_read_stream(f, 300000, &out, &len), JCI_READ_OK);
    CHECK_I64(len, 300000);
    free(out);
    fclose(f);
}

/* issue 43 item 17: one date rule; calibrate wrote a layer dated 9999-99-99 */
/* jci_cbrt: exact on exact cubes, odd, 0 / infinity / NaN as they are,
 * and within one unit in the last place of the long-double cube root
 * over 300,000 arguments from 2^-40 to 2^40 (each exponent's residue
 * mod 3 among them). */
static void test_cbrt(void)
{
    CHECK(jci_cbrt(8) == 2 && jci_cbrt(27) == 3 && jci_cbrt(0.125) == 0.5 && jci_cbrt(1) == 1);
    CHECK(jci_cbrt(-27) == -3 && jci_cbrt(0) == 0 && jci_cbrt(INFINITY) == INFINITY && isnan(jci_cbrt(NAN)));
    double worst = 0;
    for (int i = 0; i < 300000; i++) {
        double x = ldexp(1 + (i % 3750) / 3750.0, i / 3750 - 40);
        double y = jci_cbrt(x), ulp = nextafter(y, INFINITY) - y;
        double err = (double)fabsl((long double)y - cbrtl((long double)x)) / ulp;
        if (err > worst) worst = err;
    }
    CHECK(worst < 1);
}

static void test_dates(void)
{
    int y = 0;
    char d[11];
    CHECK(jci_date_valid("2024-02-29", 10, &y) && y == 2024);
    CHECK(!jci_date_valid("2023-02-29", 10, NULL));
    CHECK(!jci_date_valid("2024-02-30", 10, NULL));
    CHECK(!jci_date_valid("9999-99-99", 10, NULL));
    CHECK(!jci_date_valid("9999-12-31", 10, NULL));   /* the source year range, 1800-2100 */
    CHECK(!jci_date_valid("2024-13", 7, NULL));
    CHECK(jci_date_valid("2100", 4, &y) && y == 2100);
    CHECK(!jci_date_valid("2024-1-1", 8, NULL));
    jci_date_ymd(d, "2024-05-31T10:39:13");
    CHECK_STR(d, "2024-05-31");
    jci_date_ymd(d, "9999-99-99T00:00:00");
    CHECK_STR(d, "");
    jci_date_ymd(d, "2024-04-31");
    CHECK_STR(d, "");
}

int main(void)
{
    RUN(test_suggest_rank);
    RUN(test_suggest_list);
    RUN(test_arena_printf);
    RUN(test_quoting);
    RUN(test_read_stream_cap);
    RUN(test_dates);
    RUN(test_cbrt);
    return check_summary();
}
