/*
 * cmd_estimate.c - `joulecast estimate [JOB.yaml] [MODEL.onnx] [options]`:
 * time, energy and emissions of a training or inference job.
 *
 * Options live in one table (opts[] below) that serves the command line,
 * the job file (keys = long option names without dashes) and --help, so
 * the three cannot drift apart.  Command-line options override the job
 * file's values.
 */
#include "cli/cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BIND 64
#define MAX_LAYERS 16

typedef struct est_cli {
    jc_job job;
    const char *model;
    jc_dim_binding dims[MAX_BIND];
    size_t n_dims;
    jc_input_binding inputs[MAX_BIND];
    int64_t input_dims[MAX_BIND][16];
    size_t n_inputs;
    const char *layers[MAX_LAYERS];
    size_t n_layers;
    int json, csv, strict;
    /* storage for strings that must outlive parsing (job-file values are
     * owned by the job file; argv strings by the process) */
} est_cli;

typedef enum otype { O_NUM, O_STR, O_FLAG, O_MODE, O_METHOD, O_DIM, O_INPUT, O_HWDB, O_OUT } otype;

typedef struct opt {
    const char *name;   /* long name without dashes */
    otype type;
    size_t off;         /* offset in jc_job (O_NUM, O_STR, O_FLAG) */
    const char *arg, *help;
} opt;

#define J(f) offsetof(jc_job, f)
static const opt opts[] = {
    {"mode", O_MODE, 0, "MODE", "inference (default) or training"},
    {"train", O_FLAG, 1, NULL, "shorthand for --mode training"},
    {"infer", O_FLAG, 2, NULL, "shorthand for --mode inference"},
    {"method", O_METHOD, 0, "M", "roofline (default), joules-per-op or tdp"},
    {"model", O_STR, 0, "FILE", "the ONNX model (or give it as an argument)"},
    {"dim", O_DIM, 0, "NAME=V", "bind a symbolic dim (repeatable)"},
    {"input", O_INPUT, 0, "NAME=AxB", "bind an input's full shape (repeatable)"},
    {"batch", O_NUM, J(batch), "B", "batch size (binds the model's batch dim)"},
    {"flops", O_NUM, J(flops), "F", "total FLOPs of the job, instead of a model"},
    {"params", O_NUM, J(params), "N", "parameters, with --tokens: 6ND (training) or 2ND"},
    {"active-params", O_NUM, J(active_params), "N", "active parameters per token (mixture of experts)"},
    {"tokens", O_NUM, J(tokens), "T", "tokens processed (with --params, or with --seq for a model)"},
    {"seq", O_NUM, J(seq), "L", "tokens per sample (with --tokens)"},
    {"requests", O_NUM, J(requests), "R", "inference requests"},
    {"tokens-per-request", O_NUM, J(tokens_per_request), "T", "tokens per request (per-token figures)"},
    {"samples", O_NUM, J(samples), "S", "training samples per epoch"},
    {"epochs", O_NUM, J(epochs), "E", "training epochs"},
    {"optimizer", O_STR, J(optimizer), "NAME", "adamw (default), adam, sgd or none"},
    {"precision", O_STR, J(precision), "P", "fp32 tf32 bf16 fp16 fp8 int8 (default: bf16/fp16/fp32 by device)"},
    {"recompute", O_FLAG, J(recompute), NULL, "activation recomputation (one more forward per step)"},
    {"backward-factor", O_NUM, J(backward_factor), "B", "backward FLOPs as a multiple of forward"},
    {"hours", O_NUM, J(hours), "H", "known wall-clock hours (skips the time model)"},
    {"device-hours", O_NUM, J(device_hours), "H", "known device-hours (skips the time model)"},
    {"avg-power", O_NUM, J(avg_power_w), "W", "measured average power per device"},
    {"device", O_STR, J(device), "ID", "device id or alias (joulecast hw list)"},
    {"count", O_NUM, J(count), "G", "number of devices"},
    {"host", O_STR, J(host), "ID", "server or cloud instance type"},
    {"hosts", O_NUM, J(hosts), "K", "number of hosts"},
    {"utilization", O_NUM, J(utilization), "U", "achieved fraction of dense peak (MFU)"},
    {"mfu", O_NUM, J(utilization), "U", "same as --utilization"},
    {"host-power", O_NUM, J(host_power_w), "W", "host power per host (CPUs, DRAM, fans)"},
    {"scaling", O_NUM, J(scaling), "S", "multi-device scaling efficiency"},
    {"region", O_STR, J(region), "CODE", "country, sub-national or cloud region (joulecast region list)"},
    {"ci", O_NUM, J(ci), "G", "grid carbon intensity, gCO2e/kWh"},
    {"pue", O_NUM, J(pue), "P", "data-centre PUE"},
    {"embodied", O_FLAG, J(embodied), NULL, "add the embodied-emissions line"},
    {"lifetime", O_NUM, J(lifetime_years), "YEARS", "hardware lifetime for embodied emissions"},
    {"per-node", O_FLAG, J(per_node), NULL, "per-node time and energy shares"},
    {"hwdb", O_HWDB, 0, "DIR", "hardware-database override layer (repeatable)"},
    {"json", O_OUT, 1, NULL, "JSON output (docs/json-schemas.md)"},
    {"csv", O_OUT, 2, NULL, "one CSV row with a header"},
    {"strict", O_OUT, 3, NULL, "fail (exit 9) when the model's count is partial"},
};
#undef J
#define N_OPTS (sizeof opts / sizeof opts[0])

void help_estimate(FILE *f)
{
    fprintf(f, "usage: joulecast estimate [JOB.yaml] [MODEL.onnx] [options]\n\n"
               "Predicts wall time, device-hours, energy (device, host, facility) and\n"
               "emissions of a training or inference job, with a low-central-high range\n"
               "and every assumption named with its source.  A job file holds the same\n"
               "options as YAML keys (docs/job-file.md); options given here override it.\n\n");
    for (size_t i = 0; i < N_OPTS; i++) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", opts[i].name, opts[i].arg ? " " : "",
                 opts[i].arg ? opts[i].arg : "");
        fprintf(f, "  %-26s %s\n", left, opts[i].help);
    }
    fprintf(f, "\nexamples:\n"
               "  joulecast estimate models/resnet50.onnx --train --samples 1281167 --epochs 90 \\\n"
               "      --batch 256 --device a100 --count 8 --region US-CA\n"
               "  joulecast estimate --flops 3.14e23 --train --device v100 --count 10000 --region US\n");
}

static int parse_dims(const char *s, int64_t *dims, int cap)
{
    int n = 0;
    const char *p = s;
    while (*p) {
        char *end;
        long long v = strtoll(p, &end, 10);
        if (end == p || v < 0 || n >= cap) return -1;
        dims[n++] = v;
        if (*end == 'x' || *end == 'X' || *end == ',') p = end + 1;
        else if (*end == 0) p = end;
        else return -1;
    }
    return n;
}

/* Applies one option; `where` names its origin for errors. 0 ok, else exit code. */
static int apply(est_cli *c, const opt *o, const char *val, const char *where)
{
    jc_job *j = &c->job;
    switch (o->type) {
    case O_NUM: {
        double v;
        if (!cli_parse_f64(val, &v))
            return cli_usage("estimate", "%s: --%s expects a number, got '%s'", where, o->name, val);
        *(double *)((char *)j + o->off) = v;
        return 0;
    }
    case O_STR:
        if (!strcmp(o->name, "model")) c->model = val;
        else *(const char **)((char *)j + o->off) = val;
        return 0;
    case O_FLAG:
        if (!strcmp(o->name, "train")) j->mode = JC_MODE_TRAINING;
        else if (!strcmp(o->name, "infer")) j->mode = JC_MODE_INFERENCE;
        else {
            int on = 1;
            if (val && (!strcmp(val, "false") || !strcmp(val, "no") || !strcmp(val, "0"))) on = 0;
            *(int *)((char *)j + o->off) = on;
        }
        return 0;
    case O_MODE:
        if (!strcmp(val, "training") || !strcmp(val, "train")) j->mode = JC_MODE_TRAINING;
        else if (!strcmp(val, "inference") || !strcmp(val, "infer")) j->mode = JC_MODE_INFERENCE;
        else return cli_usage("estimate", "%s: --mode must be training or inference, got '%s'", where, val);
        return 0;
    case O_METHOD:
        if (!strcmp(val, "roofline")) j->method = JC_METHOD_ROOFLINE;
        else if (!strcmp(val, "joules-per-op")) j->method = JC_METHOD_JOULES_PER_OP;
        else if (!strcmp(val, "tdp")) j->method = JC_METHOD_TDP;
        else return cli_usage("estimate", "%s: --method must be roofline, joules-per-op or tdp, got '%s'", where, val);
        return 0;
    case O_DIM: {
        const char *eq = strchr(val, '=');
        int64_t v;
        if (!eq || eq == val || !cli_parse_i64(eq + 1, &v) || v < 1)
            return cli_usage("estimate", "%s: --dim expects NAME=VALUE with VALUE >= 1, got '%s'", where, val);
        if (c->n_dims >= MAX_BIND) return cli_usage("estimate", "too many --dim bindings");
        char *name = strndup(val, (size_t)(eq - val));
        if (!name) return JC_ERR_NOMEM;
        c->dims[c->n_dims].name = name;
        c->dims[c->n_dims++].value = v;
        return 0;
    }
    case O_INPUT: {
        const char *eq = strchr(val, '=');
        if (!eq || eq == val || c->n_inputs >= MAX_BIND)
            return cli_usage("estimate", "%s: --input expects NAME=1x3x224x224, got '%s'", where, val);
        int r = parse_dims(eq + 1, c->input_dims[c->n_inputs], 16);
        if (r <= 0) return cli_usage("estimate", "%s: --input expects NAME=1x3x224x224, got '%s'", where, val);
        char *name = strndup(val, (size_t)(eq - val));
        if (!name) return JC_ERR_NOMEM;
        c->inputs[c->n_inputs].name = name;
        c->inputs[c->n_inputs].rank = r;
        c->inputs[c->n_inputs].dims = c->input_dims[c->n_inputs];
        c->n_inputs++;
        return 0;
    }
    case O_HWDB:
        if (c->n_layers >= MAX_LAYERS) return cli_usage("estimate", "too many --hwdb layers");
        c->layers[c->n_layers++] = val;
        return 0;
    case O_OUT:
        if (o->off == 1) c->json = 1;
        else if (o->off == 2) c->csv = 1;
        else c->strict = 1;
        return 0;
    }
    return JC_ERR_INTERNAL;
}

static const opt *find_opt(const char *name)
{
    for (size_t i = 0; i < N_OPTS; i++)
        if (!strcmp(opts[i].name, name)) return &opts[i];
    return NULL;
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && !strcmp(s + a - b, suf);
}

/* Parses argv into c (after an optional job file).  Returns 0 or an exit
 * code. */
static int parse_argv(est_cli *c, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] != '-' || !a[2]) {
            if (a[0] == '-' && a[1]) return cli_usage("estimate", "unknown option '%s'", a);
            if (ends_with(a, ".yaml") || ends_with(a, ".yml")) continue; /* the job file */
            if (c->model && strcmp(c->model, a))
                return cli_usage("estimate", "one model at a time ('%s' and '%s')", c->model, a);
            c->model = a;
            continue;
        }
        const char *name = a + 2, *eq = strchr(name, '=');
        char key[64];
        size_t kl = eq ? (size_t)(eq - name) : strlen(name);
        if (kl >= sizeof key) return cli_usage("estimate", "unknown option '%s'", a);
        memcpy(key, name, kl);
        key[kl] = 0;
        const opt *o = find_opt(key);
        if (!o) return cli_usage("estimate", "unknown option '--%s'", key);
        const char *val = NULL;
        int takes = o->arg != NULL;
        if (takes) {
            if (eq) val = eq + 1;
            else if (i + 1 < argc) val = argv[++i];
            else return cli_usage("estimate", "option --%s needs a value", key);
        } else if (eq) {
            return cli_usage("estimate", "option --%s takes no value", key);
        }
        int rc = apply(c, o, val, "command line");
        if (rc) return rc;
    }
    return 0;
}

static void free_bindings(est_cli *c)
{
    for (size_t i = 0; i < c->n_dims; i++) free((char *)c->dims[i].name);
    for (size_t i = 0; i < c->n_inputs; i++) free((char *)c->inputs[i].name);
}

int cmd_estimate(int argc, char **argv)
{
    est_cli c;
    memset(&c, 0, sizeof c);
    jc_job_init(&c.job);
    jc_jobfile *jf = NULL;
    jc_model *m = NULL;
    jc_analysis *an = NULL;
    jc_hwdb *db = NULL;
    jc_estimate *e = NULL;
    jc_diag d;
    int rc = 0;
    char modelbuf[4096];

    /* the job file first, so the command line overrides it */
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-') {
            const opt *o = argv[i][1] == '-' ? find_opt(argv[i] + 2) : NULL;
            if (o && o->arg && !strchr(argv[i], '=')) i++;
            continue;
        }
        if (!ends_with(argv[i], ".yaml") && !ends_with(argv[i], ".yml")) continue;
        if (jf) { rc = cli_usage("estimate", "one job file at a time"); goto out; }
        if (jc_jobfile_load(argv[i], &jf, &d)) { rc = cli_fail(&d); goto out; }
        for (size_t k = 0; k < jf->n; k++) {
            char where[600];
            snprintf(where, sizeof where, "%s:%d:%d", jf->path, jf->lines[k], jf->cols[k]);
            const opt *o = find_opt(jf->keys[k]);
            if (!o) {
                rc = cli_usage("estimate", "%s: unknown key '%s' (keys are the long option names)",
                               where, jf->keys[k]);
                goto out;
            }
            if (o->type == O_OUT) continue; /* output format stays on the command line */
            if ((rc = apply(&c, o, jf->values[k], where))) goto out;
        }
        /* a relative model path in a job file is relative to the file */
        if (c.model && c.model[0] != '/') {
            const char *slash = strrchr(jf->path, '/');
            if (slash) {
                snprintf(modelbuf, sizeof modelbuf, "%.*s/%s", (int)(slash - jf->path), jf->path, c.model);
                c.model = modelbuf;
            }
        }
    }
    if ((rc = parse_argv(&c, argc, argv))) goto out;
    if (c.json + c.csv > 1) { rc = cli_usage("estimate", "--json and --csv are exclusive"); goto out; }

    if ((rc = cli_hwdb_open(c.layers, c.n_layers, &db))) goto out;

    if (c.model) {
        if (jc_model_load(c.model, &m, &d)) { rc = cli_fail(&d); goto out; }
        jc_analyze_opts ao;
        memset(&ao, 0, sizeof ao);
        ao.dims = c.dims;
        ao.n_dims = c.n_dims;
        ao.inputs = c.inputs;
        ao.n_inputs = c.n_inputs;
        if (!isnan(c.job.batch)) {
            if (c.job.batch < 1 || c.job.batch != floor(c.job.batch) || c.job.batch > 1e9) {
                rc = cli_usage("estimate", "--batch must be a whole number >= 1");
                goto out;
            }
            /* the batch must reach the model: refuse a fixed batch dim */
            const jc_graph *g = m->graph;
            for (size_t i = 0; i < g->n_inputs; i++) {
                const jc_value *v = &g->values[g->inputs[i]];
                if (v->rank > 0 && v->dims[0].v >= 0 && v->dims[0].v != (int64_t)c.job.batch) {
                    fprintf(stderr, "joulecast: %s: input '%s' has a fixed batch dim of %lld, so --batch %g "
                                    "cannot be bound; export the model with a dynamic batch axis "
                                    "or use --batch %lld\n", c.model, v->name, (long long)v->dims[0].v,
                            c.job.batch, (long long)v->dims[0].v);
                    rc = JC_ERR_USAGE;
                    goto out;
                }
            }
            ao.batch = (int64_t)c.job.batch;
        }
        if (jc_analyze(m, &ao, &an, &d)) { rc = cli_fail(&d); goto out; }
        if (an->partial && c.strict) {
            fprintf(stderr, "joulecast: %s: the count is partial (see joulecast count) and --strict was given\n", c.model);
            rc = JC_ERR_INCOMPLETE;
            goto out;
        }
    }
    if (jc_estimate_run(&c.job, an, db, &e, &d)) { rc = cli_fail(&d); goto out; }
    if (c.json) {
        char *s = jc_report_estimate_json(e);
        if (!s) { rc = JC_ERR_NOMEM; goto out; }
        puts(s);
        free(s);
    } else if (c.csv) {
        if (jc_report_estimate_csv(e, stdout, 1)) rc = JC_ERR_IO;
    } else {
        if (c.model) printf("model      %s\n", c.model);
        if (jc_report_estimate_text(e, stdout)) rc = JC_ERR_IO;
    }
out:
    jc_estimate_free(e);
    jc_analysis_free(an);
    jc_model_free(m);
    jc_hwdb_free(db);
    jc_jobfile_free(jf);
    free_bindings(&c);
    return rc;
}
