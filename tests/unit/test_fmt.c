/*
 * test_fmt.c - the one number format of the text and HTML reports
 * (src/base/fmt.c, docs/json-schemas.md "Numbers in text and HTML"):
 * each case is written out by hand from the rule, including the
 * boundaries where rounding moves a value into the next band (999.96 ->
 * "1,000", 9.99996e-05 -> "0.0001", 999.96 k -> "1 M").
 */
#include "check.h"
#include "joulecast.h"
#include "base/fmt.h"

static char b[FMT_CAP];

static const char *n(double v)
{
    return fmt_num(b, sizeof b, v);
}

static void test_num_whole(void)
{
    CHECK_STR(n(0), "0");
    CHECK_STR(n(-0.0), "0");
    CHECK_STR(n(8), "8");
    CHECK_STR(n(938), "938");
    CHECK_STR(n(1000), "1,000");
    CHECK_STR(n(1281167), "1,281,167");
    CHECK_STR(n(-31250), "-31,250");
    CHECK_STR(n(999999999999999.0), "999,999,999,999,999");
}

static void test_num_fraction(void)
{
    CHECK_STR(n(3.2), "3.2");
    CHECK_STR(n(3.794321), "3.794");
    CHECK_STR(n(222.34), "222.3");
    CHECK_STR(n(16.5149), "16.51");
    CHECK_STR(n(0.0579), "0.0579");
    CHECK_STR(n(0.12345), "0.1235");
    CHECK_STR(n(0.00015309), "0.0001531");
    CHECK_STR(n(-2.5), "-2.5");
    CHECK_STR(n(9.99996), "10");          /* rounds into the next band */
    CHECK_STR(n(999.96), "1,000");
    CHECK_STR(n(2039.4), "2,039");
    CHECK_STR(n(3324550.4), "3,324,550"); /* no "3.32455e+06" */
}

static void test_num_exponent(void)
{
    CHECK_STR(n(9.99996e-05), "0.0001");
    CHECK_STR(n(6.983e-05), "6.983e-05");
    CHECK_STR(n(5.38e-08), "5.38e-08");
    CHECK_STR(n(1e-7), "1e-07");
    CHECK_STR(n(1e15), "1e+15");
    CHECK_STR(n(6.7384e24), "6.738e+24");
    CHECK_STR(n(-2.8391e18), "-2.839e+18");
}

static void test_num_unknown(void)
{
    CHECK_STR(n(NAN), "n/a");
    CHECK_STR(n(INFINITY), "n/a");
    CHECK_STR(n(-INFINITY), "n/a");
    char small[5];
    fmt_num(small, sizeof small, 1234567);   /* cut, still terminated */
    CHECK_STR(small, "1,23");
    char pub[FMT_CAP];
    CHECK_STR(jc_format_number(pub, sizeof pub, 3.2), "3.2");
}

static void test_si_bytes_int(void)
{
    CHECK_STR(fmt_si(b, sizeof b, 2100817291264.0), "2.101 T");
    CHECK_STR(fmt_si(b, sizeof b, 11689512), "11.69 M");
    CHECK_STR(fmt_si(b, sizeof b, 512), "512");
    CHECK_STR(fmt_si(b, sizeof b, 999960), "1 M");
    CHECK_STR(fmt_si(b, sizeof b, 8192), "8.192 k");
    CHECK_STR(fmt_si(b, sizeof b, NAN), "n/a");
    CHECK_STR(fmt_bytes(b, sizeof b, 812), "812 B");
    CHECK_STR(fmt_bytes(b, sizeof b, 97.5 * 1024 * 1024), "97.5 MiB");
    CHECK_STR(fmt_int(b, sizeof b, -1234567), "-1,234,567");
    char t[64];
    snprintf(t, sizeof t, "%s|%s", FMT_N(1.5), FMT_N(2500));   /* two buffers */
    CHECK_STR(t, "1.5|2,500");
}

static void test_csv(void)
{
    CHECK_STR(fmt_machine(b, sizeof b, 2.8391e18), "2.8391e+18");
    CHECK_STR(fmt_machine(b, sizeof b, 450450), "450450");
    CHECK_STR(fmt_machine(b, sizeof b, 0.0327037), "0.0327037");
    CHECK_STR(fmt_machine(b, sizeof b, NAN), "n/a");
}

/* issue 43 item 17: a value just past a limit is shown past it */
static void test_exact(void)
{
    CHECK_STR(fmt_exact(b, sizeof b, 5000.0001), "5000.0001");
    CHECK_STR(fmt_exact(b, sizeof b, 5000), "5000");
    CHECK_STR(fmt_exact(b, sizeof b, 0.1), "0.1");
    CHECK_STR(fmt_exact(b, sizeof b, 1e-300), "1e-300");
    CHECK_STR(fmt_exact(b, sizeof b, 3.0000000000000004), "3.0000000000000004");
}

int main(void)
{
    RUN(test_num_whole);
    RUN(test_exact);
    RUN(test_num_fraction);
    RUN(test_num_exponent);
    RUN(test_num_unknown);
    RUN(test_si_bytes_int);
    RUN(test_csv);
    return check_summary();
}
