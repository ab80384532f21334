/*
 * test_oprules.c - custom op cost rules (`count --op-rules FILE`): a model
 * with a com.example:FusedDense node (tests/models/cost/, made by
 * tests/models/gen_cost_models.py) counted from a YAML rule, and rules
 * files that must fail with a located diagnostic (unknown function,
 * syntax error, unknown key), a missing attribute at evaluation, and an
 * overflow.  Counts are worked out by hand from the model's shapes.
 */
#include "check.h"
#include "joulecast.h"

#include <string.h>

#define MODEL "tests/models/cost/custom_fused_dense.onnx"
#define RULES "tests/models/rules/"

/* Analyses MODEL with the given rules file; returns the status and, on
 * success, the totals and the partial flag. */
static jc_status run(const char *rules, jc_totals *t, int *partial, int *custom_note, jc_diag *d)
{
    jc_model *m;
    jc_analysis *a;
    jc_status st = jc_model_load(MODEL, &m, d);
    if (st) return st;
    jc_analyze_opts o;
    memset(&o, 0, sizeof o);
    o.op_rules_path = rules;
    st = jc_analyze(m, &o, &a, d);
    if (!st) {
        *t = a->totals;
        *partial = a->partial;
        *custom_note = 0;
        for (size_t i = 0; i < a->n_nodes; i++)
            if (a->nodes[i].note && strstr(a->nodes[i].note, "--op-rules")) *custom_note = 1;
        jc_analysis_free(a);
    }
    jc_model_free(m);
    return st;
}

static void test_without_rules_is_unsupported(void)
{
    jc_totals t;
    int partial, note;
    jc_diag d;
    CHECK(run(NULL, &t, &partial, &note, &d) == JC_OK);
    CHECK(partial);            /* never a silent zero */
    CHECK(!note);
}

static void test_rule_counts(void)
{
    jc_totals t;
    int partial, note;
    jc_diag d;
    jc_status st = run(RULES "fused_dense.yaml", &t, &partial, &note, &d);
    if (st) printf("  %s\n", d.msg);
    CHECK(st == JC_OK);
    if (st) return;
    CHECK(!partial);
    CHECK(note);
    /* X[2,8,16] @ W[16,32]: numel(Y) 512 x K 16 = 8,192 MACs; the rule's
     * flops: 512 x 1 (activation_flops default); Relu: 512 */
    CHECK_I64(t.macs, 8192);
    CHECK_I64(t.flops, 2 * 8192 + 512 + 512);
    CHECK_I64(t.special_ops, 0);
    CHECK_I64(t.params, 16 * 32);
}

/* The analysis fails with status want and a message containing each of
 * the NULL-terminated fragments. */
static void expect_error(const char *rules, jc_status want, const char *const *frags)
{
    jc_totals t;
    int partial, note;
    jc_diag d;
    jc_status st = run(rules, &t, &partial, &note, &d);
    CHECK_I64(st, want);
    for (size_t i = 0; frags[i]; i++) {
        if (!strstr(d.msg, frags[i])) printf("  '%s' not in: %s\n", frags[i], d.msg);
        CHECK(strstr(d.msg, frags[i]) != NULL);
    }
}

static void test_bad_rules(void)
{
    expect_error(RULES "bad_function.yaml", JC_ERR_USAGE,
                 (const char *const[]){"bad_function.yaml:7:26:", "unknown function 'size'", NULL});
    expect_error(RULES "bad_syntax.yaml", JC_ERR_USAGE,
                 (const char *const[]){"bad_syntax.yaml:5:32:", "unexpected text", NULL});
    expect_error(RULES "bad_key.yaml", JC_ERR_USAGE,
                 (const char *const[]){"bad_key.yaml:4:5:", "unknown key 'mac'", NULL});
    expect_error(RULES "bad_attr.yaml", JC_ERR_MODEL,
                 (const char *const[]){"FusedDense#0", "bad_attr.yaml:6:26:", "no attribute 'groups'", NULL});
    expect_error(RULES "overflow.yaml", JC_ERR_RANGE,
                 (const char *const[]){"FusedDense#0", "overflows", NULL});
    expect_error(RULES "no_such_file.yaml", JC_ERR_IO, (const char *const[]){"no_such_file.yaml", NULL});
}

int main(void)
{
    RUN(test_without_rules_is_unsupported);
    RUN(test_rule_counts);
    RUN(test_bad_rules);
    return check_summary();
}
