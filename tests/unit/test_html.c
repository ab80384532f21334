/*
 * test_html.c - the HTML escaper and the HTML reports.
 *
 * The escaper is the only thing standing between a model file's node
 * names and a browser, so it is tested byte by byte: the five special
 * characters, control characters, every kind of malformed UTF-8
 * (overlong, surrogate, out of range, cut short), well-formed multi-byte
 * text kept as is, and the snprintf-style length of the buffer form.
 * The reports are rendered from a hand-built estimate, comparison and
 * sweep whose names are hostile; the output must contain them escaped
 * only, carry data-key/data-value for the figures, and contain no script.
 */
#include "check.h"
#include "joulecast.h"
#include "report/html/html_int.h"
#include "report/rjson.h"

#include <stdlib.h>

static char out[256];

static const char *esc(const char *s)
{
    jci_html_escape_buf(out, sizeof out, s);
    return out;
}

static void test_escape_specials(void)
{
    CHECK_STR(esc("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
    CHECK_STR(esc("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
    CHECK_STR(esc("plain /layer1/conv.0"), "plain /layer1/conv.0");
    CHECK_STR(esc(""), "");
    CHECK_STR(esc(NULL), "");
    CHECK_STR(esc("&amp;"), "&amp;amp;");   /* never "already escaped" */
}

static void test_escape_controls(void)
{
    CHECK_STR(esc("a\tb\nc\rd"), "a\tb\nc\rd");          /* kept */
    CHECK_STR(esc("a\x01" "b"), "a&#xFFFD;b");
    CHECK_STR(esc("\x1b[31m"), "&#xFFFD;[31m");
    CHECK_STR(esc("x\x7fy"), "x&#xFFFD;y");
    CHECK_STR(esc("c1\xc2\x85."), "c1&#xFFFD;.");        /* U+0085, a C1 control */
}

static void test_escape_utf8(void)
{
    CHECK_STR(esc("caf\xc3\xa9"), "caf\xc3\xa9");        /* é */
    CHECK_STR(esc("\xe2\x82\xac 5"), "\xe2\x82\xac 5");  /* € */
    CHECK_STR(esc("\xf0\x9f\x94\xa5"), "\xf0\x9f\x94\xa5"); /* U+1F525 */
    CHECK_STR(esc("\xc2\xa0"), "\xc2\xa0");              /* U+00A0 is not C1 */
    /* malformed: each bad byte becomes one U+FFFD */
    CHECK_STR(esc("\xc0\xbc"), "&#xFFFD;&#xFFFD;");      /* overlong '<' */
    CHECK_STR(esc("\xe0\x80\xbc"), "&#xFFFD;&#xFFFD;&#xFFFD;");
    CHECK_STR(esc("\xed\xa0\x80"), "&#xFFFD;&#xFFFD;&#xFFFD;");   /* surrogate */
    CHECK_STR(esc("\xf4\x90\x80\x80"), "&#xFFFD;&#xFFFD;&#xFFFD;&#xFFFD;"); /* > U+10FFFF */
    CHECK_STR(esc("ab\xe2\x82"), "ab&#xFFFD;&#xFFFD;");  /* cut short */
    CHECK_STR(esc("\xff<"), "&#xFFFD;&lt;");
}

static void test_escape_buffer(void)
{
    char small[6];
    size_t n = jci_html_escape_buf(small, sizeof small, "<<<");
    CHECK_I64(n, 12);                 /* what the whole text needs */
    CHECK_STR(small, "&lt;&");        /* cut to cap - 1 bytes, terminated */
    n = jci_html_escape_buf(NULL, 0, "a&b");
    CHECK_I64(n, 7);
    /* the FILE form writes the same bytes */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CHECK(f != NULL);
    if (!f) return;
    CHECK_I64(jci_html_escape(f, "x<\xff\"y"), JC_OK);
    fclose(f);
    CHECK_STR(buf, esc("x<\xff\"y"));
    CHECK_STR(buf, "x&lt;&#xFFFD;&quot;y");
    free(buf);
}

/* Renders with fn into a malloc'ed string. */
static char *render_estimate(const jc_estimate *e, const char *model)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    jc_status st = jc_report_estimate_html(e, model, 3, f);
    fclose(f);
    CHECK_I64(st, JC_OK);
    return buf;
}

static const char *EVIL = "<script>alert('x')</script>\"><img src=x onerror=alert(1)>";

static void fake_estimate(jc_estimate *e, jc_est_node *nodes, jc_assumption *as)
{
    memset(e, 0, sizeof *e);
    e->mode = JC_MODE_TRAINING;
    e->method = JC_METHOD_ROOFLINE;
    e->precision = "bf16";
    e->device_id = "evil-gpu";
    e->device_name = EVIL;
    e->region_code = "XX";
    e->region_name = EVIL;
    e->devices = 8;
    jc_range wall = {1, 2, 4}, fac = {10, 20.5, 40}, it = {8, 16, 32}, dev = {6, 12, 24}, idle = {2, 3, 4},
             dyn = {4, 9, 20}, host = {2, 4, 8}, co2 = {3, 6.25, 12};
    e->wall_hours = wall;
    e->device_hours = (jc_range){8, 16, 32};
    e->energy_facility_kwh = fac;
    e->energy_it_kwh = it;
    e->energy_device_kwh = dev;
    e->energy_idle_kwh = idle;
    e->energy_dynamic_kwh = dyn;
    e->energy_host_kwh = host;
    e->co2_kg = co2;
    e->avg_power_w = (jc_range){100, 200, 300};
    static const char *warn[] = {"<b>warning</b> & more"};
    e->warnings = warn;
    e->n_warnings = 1;
    for (int i = 0; i < 5; i++) {
        nodes[i] = (jc_est_node){i == 1 ? EVIL : "/layer/conv", i == 2 ? "<Op>" : "Conv", 1e9, 1e6,
                                 1e-3 * (i + 1), 0.5 * (i + 1), i % 2, i == 3};
    }
    e->nodes = nodes;
    e->n_nodes = 5;
    as[0] = (jc_assumption){"device.tdp_w", "device <TDP>", {400, 400, 400}, "W", JC_ORIGIN_HWDB, EVIL};
    as[1] = (jc_assumption){"pue", "PUE", {1.1, 1.2, 1.4}, "", JC_ORIGIN_HWDB, "hwdb/regions.yaml:1"};
    e->assumptions = as;
    e->n_assumptions = 2;
}

static void test_estimate_html_escapes(void)
{
    jc_estimate e;
    jc_est_node nodes[5];
    jc_assumption as[2];
    fake_estimate(&e, nodes, as);
    char *h = render_estimate(&e, "models/<evil>.onnx");
    CHECK(h != NULL);
    if (!h) return;
    CHECK(strstr(h, "<script") == NULL);
    CHECK(strstr(h, "<img") == NULL);
    CHECK(strstr(h, "<evil>") == NULL);
    CHECK(strstr(h, "<b>warning") == NULL);
    CHECK(strstr(h, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;&gt;&lt;img") != NULL);
    CHECK(strstr(h, "models/&lt;evil&gt;.onnx") != NULL);
    CHECK(strstr(h, "&lt;Op&gt;") != NULL);
    CHECK(strstr(h, "&lt;b&gt;warning&lt;/b&gt; &amp; more") != NULL);
    /* self-contained: no script, no external reference */
    CHECK(strstr(h, "http://") == NULL && strstr(h, "https://") == NULL);
    CHECK(strstr(h, "<link") == NULL && strstr(h, "@import") == NULL);
    free(h);
}

static void test_estimate_html_figures(void)
{
    jc_estimate e;
    jc_est_node nodes[5];
    jc_assumption as[2];
    fake_estimate(&e, nodes, as);
    char *h = render_estimate(&e, NULL);
    if (!h) return;
    CHECK(strstr(h, "data-key=\"results.energy_facility_kwh.central\" data-value=\"20.5\"") != NULL);
    CHECK(strstr(h, "data-key=\"results.energy_facility_kwh.low\" data-value=\"10\"") != NULL);
    CHECK(strstr(h, "data-key=\"results.co2_location_kg.central\" data-value=\"6.25\"") != NULL);
    CHECK(strstr(h, "data-key=\"results.energy_dynamic_kwh.central\" data-value=\"9\"") != NULL);
    CHECK(strstr(h, "data-key=\"nodes.4.energy_j\" data-value=\"2.5\"") != NULL);
    CHECK(strstr(h, "data-key=\"assumptions.1.value.high\" data-value=\"1.3999999999999999\"") != NULL);
    /* charts: the split, the ranges, emissions, nodes (top 3 + "other 2 nodes") */
    CHECK(strstr(h, "class=\"chart stack\"") != NULL);
    CHECK(strstr(h, "class=\"chart ranges\"") != NULL);
    CHECK(strstr(h, "class=\"chart hbars\"") != NULL);
    CHECK(strstr(h, "other 2 nodes") != NULL);
    /* the facility overhead: 20.5 - 16 = 4.5 kWh, 22.0% of the total */
    CHECK(strstr(h, "facility overhead (PUE): <span class=\"num\">4.5</span> <span class=\"unit\">kWh</span> "
                    "(22.0%)") != NULL);
    free(h);
}

/* What a training run assumed (issue 39): the page of a training estimate
 * has the section with its stack, layout and goodput rows (the JSON's
 * assumptions by their index: data-keys), the step model's fabric and
 * goodput in words, escaped, and one step by mechanism; an inference page
 * has none. */
static void test_training_section(void)
{
    jc_estimate e;
    jc_est_node nodes[5];
    jc_assumption as[5];
    fake_estimate(&e, nodes, as);
    as[2] = (jc_assumption){"parallel.tp", "tensor-parallel size", {8, 8, 8}, "", JC_ORIGIN_DERIVED, "fits a node"};
    as[3] = (jc_assumption){"train.stack", "training stack: megatron", {4, 4, 4}, "", JC_ORIGIN_USER, "--runtime"};
    as[4] = (jc_assumption){"train.goodput", "goodput", {0.97, 1, 1}, "", JC_ORIGIN_DERIVED, "by run length"};
    e.n_assumptions = 5;
    jc_train_part parts[2] = {{"gemm", "layer GEMMs", 1.5}, {"dp_exposed", "data-parallel", 0.25}};
    jc_train_step ts;
    memset(&ts, 0, sizeof ts);
    ts.fabric = EVIL;
    ts.why_goodput = "by run length";
    ts.parts = parts;
    ts.n_parts = 2;
    ts.step_s = 1.75;
    e.train_step = &ts;
    char *h = render_estimate(&e, NULL);
    if (!h) return;
    const char *s = strstr(h, "<section id=\"training\">");
    CHECK(s != NULL);
    if (s) {
        CHECK(strstr(s, "data-key=\"assumptions.2.value.central\" data-value=\"8\"") != NULL);
        CHECK(strstr(s, "training stack: megatron") != NULL);
        CHECK(strstr(s, "data-key=\"assumptions.4.value.central\" data-value=\"1\"") != NULL);
        CHECK(strstr(s, "<b>Fabric</b>: &lt;script&gt;") != NULL);
        CHECK(strstr(s, "data-key=\"train_step.parts.1.s\" data-value=\"0.25\"") != NULL);
        CHECK(strstr(s, "data-key=\"train_step.step_s\" data-value=\"1.75\"") != NULL);
        CHECK(strstr(s, "<script") == NULL);
    }
    free(h);
    e.mode = JC_MODE_INFERENCE;
    e.train_step = NULL;
    h = render_estimate(&e, NULL);
    if (h) CHECK(strstr(h, "id=\"training\"") == NULL);
    free(h);
}

static void test_compare_reports(void)
{
    jc_estimate a, b;
    jc_est_node nodes[5];
    jc_assumption as[2];
    fake_estimate(&a, nodes, as);
    fake_estimate(&b, nodes, as);
    b.energy_facility_kwh = (jc_range){20, 41, 80};
    b.co2_kg = (jc_range){1, 2, 3};
    jc_compare_item it[2] = {
        {"a.onnx", &a, 1000, 50, 8, 0, NULL, NULL},
        {"<b>.onnx", &b, 250, -1, 1, 1, "counted at batch 1 & partial", NULL},
    };
    char *js = jc_report_compare_json(it, 2);
    CHECK(js != NULL);
    if (js) {
        CHECK(strstr(js, "\"energy_kwh\":\t2") != NULL || strstr(js, "\"energy_kwh\": 2") != NULL);
        CHECK(strstr(js, "\"macs\":\t0.25") != NULL || strstr(js, "\"macs\": 0.25") != NULL);
        CHECK(strstr(js, "\"params\":\tnull") != NULL || strstr(js, "\"params\": null") != NULL);
        free(js);
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return;
    CHECK_I64(jc_report_compare_html(it, 2, f), JC_OK);
    fclose(f);
    CHECK(strstr(buf, "<b>.onnx") == NULL);
    CHECK(strstr(buf, "&lt;b&gt;.onnx") != NULL);
    CHECK(strstr(buf, "data-key=\"models.1.ratio.energy_kwh\" data-value=\"2\"") != NULL);
    CHECK(strstr(buf, "data-key=\"models.1.ratio.co2_kg\" data-value=\"0.32000000000000001\"") != NULL);
    CHECK(strstr(buf, "counted at batch 1 &amp; partial") != NULL);
    free(buf);
    CHECK_I64(jc_report_compare_text(it, 0, stdout), JC_ERR_USAGE);
    CHECK(jc_report_compare_json(NULL, 1) == NULL);
}

/* rj_top_driver (issue 45): the sensitivity table's first row as
 * top_driver {key, co2_kg_swing, share_of_range}; nothing without a table,
 * a null share when the emissions range has no width. */
static void test_top_driver(void)
{
    jc_estimate e;
    memset(&e, 0, sizeof e);
    jc_sensitivity rows[2] = {{.key = "pue", .co2_low = 22, .co2_high = 12},
                              {.key = "ci", .co2_low = 15, .co2_high = 17}};
    e.co2_kg = (jc_range){10, 20, 30};
    cJSON *o = cJSON_CreateObject();
    CHECK(o && rj_top_driver(o, &e) && !cJSON_GetObjectItem(o, "top_driver"));
    e.sensitivity = rows;
    e.n_sensitivity = 2;
    CHECK(rj_top_driver(o, &e));
    const cJSON *t = cJSON_GetObjectItem(o, "top_driver");
    CHECK(t != NULL);
    if (t) {
        CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItem(t, "key")), "pue");
        CHECK_NEAR(cJSON_GetNumberValue(cJSON_GetObjectItem(t, "co2_kg_swing")), 10, 1e-12);
        CHECK_NEAR(cJSON_GetNumberValue(cJSON_GetObjectItem(t, "share_of_range")), 0.5, 1e-12);
    }
    cJSON_Delete(o);
    e.co2_kg = (jc_range){20, 20, 20};
    o = cJSON_CreateObject();
    CHECK(o && rj_top_driver(o, &e));
    t = o ? cJSON_GetObjectItem(o, "top_driver") : NULL;
    CHECK(t && cJSON_IsNull(cJSON_GetObjectItem(t, "share_of_range")));
    cJSON_Delete(o);
}

int main(void)
{
    RUN(test_escape_specials);
    RUN(test_top_driver);
    RUN(test_escape_controls);
    RUN(test_escape_utf8);
    RUN(test_escape_buffer);
    RUN(test_estimate_html_escapes);
    RUN(test_estimate_html_figures);
    RUN(test_compare_reports);
    RUN(test_training_section);
    return check_summary();
}
