/*
 * cmd_trace.c (cli) - `joulecast trace FILE [--trace-format F] [--scope S]
 * [--gap S] [--idle-w W] [--interval S] [--row N] [--json]`: reads a power
 * trace (nvidia-smi, dcgmi, CodeCarbon, Carbontracker, PowerJoular,
 * Scaphandre, plain timestamp,watts) and prints its integral per channel
 * and per scope (src/trace/trace.c).  The trace options are job keys
 * (src/job/job_keys.def), read by jc_trace_opts_from_job as calibrate and
 * estimate --measured read them.
 */
#include "cli/cli.h"
#include "joulecast/trace.h"
#include "joulecast/job.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The trace keys: job keys (src/job/job_keys.def), one path with
 * calibrate and estimate --measured (jc_trace_opts_from_job). */
static const char *const trace_keys[] = {"trace-format", "scope", "gap", "idle-w", "interval", NULL};

static int is_trace_key(const char *k)
{
    for (int i = 0; trace_keys[i]; i++)
        if (!strcmp(trace_keys[i], k)) return 1;
    return 0;
}

/* The trace keys' rows, as the job-key table words them. */
void trace_help_rows(FILE *f, const char *cmd)
{
    (void)cmd;
    size_t n;
    const jc_job_key *k = jc_job_keys(&n);
    for (size_t i = 0; i < n; i++) {
        if (!is_trace_key(k[i].name)) continue;
        char left[64];
        snprintf(left, sizeof left, "--%s %s", k[i].name, k[i].arg);
        fprintf(f, "  %-17s %s\n", left, k[i].help);
    }
}

int cmd_trace(int argc, char **argv)
{
    jc_trace_opts o;
    jc_trace_opts_init(&o);
    jc_job job;
    jc_job_init(&job);
    jc_diag d;
    const char *path = NULL;
    int json = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--json")) { json = 1; continue; }
        if (a[0] == '-' && a[1] == '-' && a[2]) {
            char key[32];
            const char *eq = strchr(a + 2, '=');
            size_t kl = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
            if (kl >= sizeof key) return cli_usage("trace", "unknown option '%s'", a);
            memcpy(key, a + 2, kl);
            key[kl] = 0;
            if (strcmp(key, "row") && !is_trace_key(key)) return cli_usage("trace", "unknown option '%s'", a);
            int at = i;
            const char *v = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v) return cli_usage("trace", "option --%s needs a value", key);
            char opt[40];
            snprintf(opt, sizeof opt, "--%s", key);
            const char *prev = cli_earlier_value(argv, at, opt, v);
            if (prev) return cli_usage("trace", "%s %s and %s %s: one value is lost; give the option once", opt, prev, opt, v);
            if (!strcmp(key, "row")) {
                double r;
                if (!cli_parse_f64(v, &r) || r < 1 || r != floor(r) || r > 1e9)
                    return cli_usage("trace", "--row expects a whole number >= 1, got '%s'", v);
                o.row = (size_t)r;
                continue;
            }
            if (jc_job_set(&job, key, v, &d)) return cli_usage("trace", "%s", d.msg);
            continue;
        }
        if (a[0] == '-' && a[1]) return cli_usage("trace", "unknown option '%s'", a);
        if (path) return cli_usage("trace", "one trace at a time ('%s' and '%s')", path, a);
        path = a;
    }
    if (!path) return cli_usage("trace", "give the trace file");
    if (jc_trace_opts_from_job(&job, &o, NULL, &d)) return cli_usage("trace", "%s", d.msg);
    jc_trace *t = NULL;
    int rc = 0;
    if (jc_trace_load(path, &o, &t, &d)) return cli_fail(&d);
    rc = json ? cli_emit_json(jc_report_trace_json(t)) : cli_written(jc_report_trace_text(t, stdout));
    jc_trace_free(t);
    return rc;
}
