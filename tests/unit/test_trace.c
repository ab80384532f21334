/*
 * test_trace.c - the power-trace library (include/joulecast.h "Power
 * traces") on traces written here: UTC offsets in ISO 8601 times, the
 * chart series staying within its bucket count however long the trace,
 * a gap not bridged, and jc_trace_measurements giving calibrate the
 * devices' active window.  Integrals are computed by hand in each test.
 */
#include "check.h"
#include "joulecast.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *tmpfile_with(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/jc-test-trace-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

/* 14:00+02:00 is 12:00Z: the two rows are 10 s apart, not 2 h. */
static void test_utc_offsets(void)
{
    char *p = tmpfile_with("timestamp,watts\n2024-06-01T14:00:00+02:00,100\n2024-06-01T12:00:10Z,300\n");
    jc_trace_opts o;
    jc_trace_opts_init(&o);
    o.scope = JC_TRACE_WALL;
    jc_trace *t = NULL;
    jc_diag d;
    CHECK(jc_trace_load(p, &o, &t, &d) == JC_OK);
    if (t) {
        CHECK_NEAR(t->duration_s, 10, 1e-12);
        CHECK_NEAR(t->energy_j[JC_TRACE_WALL], 2000, 1e-12);   /* (100 + 300) / 2 x 10 */
        CHECK_STR(t->start, "2024-06-01T12:00:00Z");
    }
    jc_trace_free(t);
    unlink(p);
}

/* 200,000 samples at 1 s: the chart keeps at most chart_points buckets,
 * and their energy-weighted mean is the trace's average power. */
static void test_chart_bounded(void)
{
    const int n = 200000;
    char *p = tmpfile_with("");
    FILE *f = fopen(p, "w");
    fprintf(f, "time_s,power_w\n");
    for (int i = 0; i < n; i++) fprintf(f, "%d,%d\n", i, 100 + (i % 2) * 100);
    fclose(f);
    jc_trace_opts o;
    jc_trace_opts_init(&o);
    o.scope = JC_TRACE_DEVICE;
    o.chart_points = 64;
    jc_trace *t = NULL;
    jc_diag d;
    CHECK(jc_trace_load(p, &o, &t, &d) == JC_OK);
    if (t) {
        CHECK_I64(t->n_channels, 1);
        const jc_trace_channel *c = &t->channels[0];
        CHECK(c->n_chart <= 64 && c->n_chart >= 32);
        CHECK_NEAR(c->energy_j, 150.0 * (n - 1), 1e-12);   /* every interval averages 150 W */
        CHECK_NEAR(c->avg_w, 150, 1e-12);
        CHECK_NEAR(c->peak_w, 200, 0);
        CHECK_I64(c->samples, n);
    }
    jc_trace_free(t);
    unlink(p);
}

/* A gap above 5 x the median interval is reported and not integrated;
 * the idle ends (lowest 10% of the span) give the active window. */
static void test_gap_and_active_window(void)
{
    char *p = tmpfile_with("timestamp,watts\n0,50\n1,50\n2,250\n3,250\n4,250\n60,250\n61,250\n62,50\n63,50\n");
    jc_trace_opts o;
    jc_trace_opts_init(&o);
    o.scope = JC_TRACE_DEVICE;
    jc_trace *t = NULL;
    jc_diag d;
    CHECK(jc_trace_load(p, &o, &t, &d) == JC_OK);
    if (t) {
        const jc_trace_channel *c = &t->channels[0];
        CHECK_I64(c->n_gaps, 1);
        CHECK_NEAR(c->gap_s, 56, 1e-12);
        /* 50 + 150 + 250 + 250 + (gap) + 250 + 150 + 50 = 1150 J over 7 s */
        CHECK_NEAR(c->energy_j, 1150, 1e-12);
        CHECK_NEAR(c->covered_s, 7, 1e-12);
        CHECK(c->idle_found);
        CHECK_NEAR(c->idle_w, 50, 1e-12);
        CHECK_NEAR(c->lead_idle_s + c->trail_idle_s, 2, 1e-12);
        jc_measurements ms;
        jc_measurement m;
        jc_trace_measurements(t, &ms, &m);
        CHECK_NEAR(m.duration_s, 61, 1e-12);            /* 63 s minus 1 s idle at each end */
        CHECK_NEAR(m.device_kwh * 3.6e6, 1050, 1e-12);  /* minus 50 J idle at each end */
        CHECK(ms.detail && strstr(ms.detail, "active window 61 s"));
        CHECK_I64(t->n_gaps, 1);
        CHECK_I64(t->gaps[0].line, 7);
    }
    jc_trace_free(t);
    unlink(p);
}

int main(void)
{
    RUN(test_utc_offsets);
    RUN(test_chart_bounded);
    RUN(test_gap_and_active_window);
    return check_summary();
}
