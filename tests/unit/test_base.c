/*
 * test_base.c - the helpers of src/base that every stage shares: the one
 * "did you mean" rule (suggest.c: caps by length, word starts, one
 * suggestion per entity, order), printf into an arena (whole, never cut),
 * the doubling growth of arrays, and the YAML, CSV and shell quoting.
 */
#include "check.h"
#include "base/jc_internal.h"

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

int main(void)
{
    RUN(test_suggest_rank);
    RUN(test_suggest_list);
    RUN(test_arena_printf);
    RUN(test_quoting);
    return check_summary();
}
