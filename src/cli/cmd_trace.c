/*
 * cmd_trace.c - `joulecast trace FILE [--trace-format F] [--scope S]
 * [--gap S] [--idle-w W] [--interval S] [--row N] [--json]`: reads a power
 * trace (nvidia-smi, dcgmi, CodeCarbon, Carbontracker, PowerJoular,
 * Scaphandre, plain timestamp,watts) and prints its integral per channel
 * and per scope (src/workflows/trace.c); also cli_trace_set(), the trace
 * options `calibrate` and `estimate --measured` share.
 */
#include "cli/cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const cli_trace_opt_help =
    "  --trace-format F  nvidia-smi, dcgmi, codecarbon, carbontracker, powerjoular,\n"
    "                    scaphandre or watts (default: detected from the first lines)\n"
    "  --scope S         what a plain timestamp,watts CSV measured: device, host\n"
    "                    (without the accelerators) or wall (the whole server)\n"
    "  --gap S           an interval longer than S seconds is a gap: reported, not\n"
    "                    bridged (default: 5 x the channel's median interval)\n"
    "  --idle-w W        samples at or below W are idle (default: utilisation 0 %\n"
    "                    when logged, else the lowest 10% of the power span)\n"
    "  --interval S      seconds between samples when the trace has no timestamps\n"
    "                    (dcgmi dmon: default 1, its -d 1000)\n";

int cli_trace_set(jc_trace_opts *o, const char *cmd, const char *name, const char *val)
{
    jc_diag d;
    double x;
    if (!strcmp(name, "trace-format")) {
        if (jc_trace_format_parse(val, &o->format, &d)) return cli_usage(cmd, "%s", d.msg);
        return 0;
    }
    if (!strcmp(name, "scope")) {
        jc_trace_scope s;
        if (jc_trace_scope_parse(val, &s, &d)) return cli_usage(cmd, "%s", d.msg);
        o->scope = (int)s;
        return 0;
    }
    if (!cli_parse_f64(val, &x) || !(x > 0))
        return cli_usage(cmd, "--%s expects a number > 0, got '%s'", name, val);
    if (!strcmp(name, "gap")) o->gap_s = x;
    else if (!strcmp(name, "idle-w")) o->idle_w = x;
    else if (!strcmp(name, "interval")) o->interval_s = x;
    else return cli_usage(cmd, "unknown option '--%s'", name);
    return 0;
}

void help_trace(FILE *f)
{
    fprintf(f, "usage: joulecast trace FILE [--trace-format F] [--scope S] [--gap S] [--idle-w W]\n"
               "                       [--interval S] [--row N] [--json]\n\n"
               "Reads a power trace and integrates it per channel (one GPU, the CPU, the host,\n"
               "a wall meter): trapezoid energy, gaps above a threshold reported and not\n"
               "bridged, duration, average and peak power, average utilisation, the leading\n"
               "and trailing idle phases and the marginal (above-idle) energy.  The trace is\n"
               "streamed: memory does not grow with its length.  Rows that cannot be read\n"
               "are named by line.  Formats and their scopes: docs/traces.md.\n\n");
    fputs(cli_trace_opt_help, f);
    fprintf(f, "  --row N           codecarbon: the data row (default: the last)\n"
               "  --json            JSON output (schema joulecast-trace/1)\n\n"
               "example:\n"
               "  nvidia-smi --query-gpu=timestamp,index,name,power.draw,utilization.gpu \\\n"
               "      --format=csv -lms 1000 > run.csv &\n"
               "  joulecast trace run.csv\n");
}

int cmd_trace(int argc, char **argv)
{
    jc_trace_opts o;
    jc_trace_opts_init(&o);
    const char *path = NULL;
    int json = 0, rc = 0;
    for (int i = 1; i < argc && !rc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--json")) { json = 1; continue; }
        if (a[0] == '-' && a[1] == '-' && a[2]) {
            char key[32];
            const char *eq = strchr(a + 2, '=');
            size_t kl = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
            if (kl >= sizeof key) return cli_usage("trace", "unknown option '%s'", a);
            memcpy(key, a + 2, kl);
            key[kl] = 0;
            static const char *const known[] = {"trace-format", "scope", "gap", "idle-w", "interval", "row", NULL};
            int k = 0;
            while (known[k] && strcmp(known[k], key)) k++;
            if (!known[k]) return cli_usage("trace", "unknown option '%s'", a);
            const char *v = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v) return cli_usage("trace", "option --%s needs a value", key);
            if (!strcmp(key, "row")) {
                double r;
                if (!cli_parse_f64(v, &r) || r < 1 || r != floor(r) || r > 1e9)
                    return cli_usage("trace", "--row expects a whole number >= 1, got '%s'", v);
                o.row = (size_t)r;
                continue;
            }
            rc = cli_trace_set(&o, "trace", key, v);
            continue;
        }
        if (a[0] == '-' && a[1]) return cli_usage("trace", "unknown option '%s'", a);
        if (path) return cli_usage("trace", "one trace at a time ('%s' and '%s')", path, a);
        path = a;
    }
    if (rc) return rc;
    if (!path) return cli_usage("trace", "give the trace file");
    jc_trace *t = NULL;
    jc_diag d;
    if (jc_trace_load(path, &o, &t, &d)) return cli_fail(&d);
    if (json) rc = cli_emit_json(jc_report_trace_json(t));
    else if (jc_report_trace_text(t, stdout)) rc = JC_ERR_IO;
    jc_trace_free(t);
    return rc;
}
