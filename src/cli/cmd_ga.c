/*
 * cmd_ga.c - `joulecast ga`: the Green-Algorithms calculator's figure for
 * a job described by runtime, cores, GPUs, memory, place and platform,
 * exactly as green-algorithms.org computes it, then what it leaves out and
 * joulecast's own estimate beside it.  Parsing and validation of options
 * here; the arithmetic is src/workflows/ga.c, the report src/report/ga_report.c.
 */
#include "cli/cli.h"

#include <stdlib.h>
#include <string.h>

void help_ga(FILE *f)
{
    fprintf(f,
        "usage: joulecast ga --runtime T [--cores N (--cpu MODEL | --tdp-per-core W)]\n"
        "                    [--cpu-usage U] [--gpus N (--gpu MODEL | --gpu-tdp W)]\n"
        "                    [--gpu-usage U] [--memory GB] [--region CODE] [--ci G]\n"
        "                    [--pue P | --platform personal|local|cloud\n"
        "                     --provider gcp|aws|azure|...|other --datacenter NAME]\n"
        "                    [--psf F] [--ga-version 3.0|2.2|2.1|2.0|1.1|1.0]\n"
        "                    [--json] [--hwdb DIR]...\n\n"
        "Reproduces the Green Algorithms calculator (green-algorithms.org,\n"
        "Lannelongue, Grealey and Inouye 2021) from its own tables:\n"
        "  energy = runtime x (cores x W/core x usage + GPUs x W x usage\n"
        "           + memory GB x 0.3725 W/GB) x PUE x PSF\n"
        "  carbon = energy x carbon intensity of the location\n"
        "then lists what that figure leaves out and, when the hardware is in the\n"
        "database with TDP and idle power, joulecast's own estimate beside it.\n\n"
        "  --runtime T        90m, 1.5h, 12h30m, 2d, 1d6h, or hours as a number\n"
        "  --cores N          CPU cores (physical cores, not threads)\n"
        "  --cpu MODEL        the calculator's CPU model (or a hwdb device);\n"
        "                     default \"Any\" (12 W per core)\n"
        "  --tdp-per-core W   CPU power per core instead of a model\n"
        "  --cpu-usage U      0..1, default 1\n"
        "  --gpus N, --gpu MODEL, --gpu-tdp W, --gpu-usage U   the same for GPUs\n"
        "                     (default model \"Any\", 200 W)\n"
        "  --memory GB        memory requested (default 0)\n"
        "  --region CODE      location code of the calculator's CI table (FR,\n"
        "                     US-CA, AU-NSW, ...); default WORLD (475 g/kWh)\n"
        "  --ci G             carbon intensity in gCO2e/kWh, instead of --region\n"
        "  --pue P            PUE (>= 1), instead of the platform's default\n"
        "  --platform KIND    personal (PUE 1), local (default: unknown local\n"
        "                     server, PUE 1.56 in v3.0, 1.67 before), cloud\n"
        "  --provider P       cloud provider (PUE default of the provider)\n"
        "  --datacenter NAME  cloud data centre (its PUE and location)\n"
        "  --psf F            pragmatic scaling factor (times run), default 1\n"
        "  --ga-version V     calculator version (default: latest, 3.0)\n"
        "  --json             the result as JSON\n"
        "  --hwdb DIR         an override layer of the hardware database\n");
}

static bool parse_usage(const char *s, double *out)
{
    return cli_parse_f64(s, out);
}

static bool parse_count(const char *s, int *out)
{
    int64_t v;
    if (!cli_parse_i64(s, &v) || v > 1000000) return false;
    *out = (int)v;
    return true;
}

int cmd_ga(int argc, char **argv)
{
    jc_ga_input in;
    jc_ga_input_init(&in);
    const char *layers[16];
    size_t n_layers = 0;
    int json = 0, err = 0, have_runtime = 0;
    const char *v;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--json")) {
            json = 1;
        } else if (cli_opt(argc, argv, &i, "--runtime", &v, &err)) {
            if (err) return JC_ERR_USAGE;
            jc_diag d;
            if (jc_ga_parse_runtime(v, &in.runtime_h, &d))
                return cli_usage("ga", "--runtime: %s", d.msg);
            have_runtime = 1;
        } else if (cli_opt(argc, argv, &i, "--cores", &v, &err)) {
            if (err) return JC_ERR_USAGE;
            if (!parse_count(v, &in.n_cores))
                return cli_usage("ga", "--cores must be a whole number >= 0 (got '%s')", v);
        } else if (cli_opt(argc, argv, &i, "--cpu", &v, &err)) {
            if (err) return JC_ERR_USAGE;
            in.cpu_model = v;
        } else if (cli_opt(argc, argv, &i, "--tdp-per-core", &v, &err)) {
            if (err) return JC_ERR_USAGE;
            if (!cli_parse_f64(v, &in.tdp_per_core_w) || in.tdp_per_core_w <= 0)
                return cli_usage("ga", "--tdp-per-core must be a positive number of watts (got '%s')", v);
        } else if (cli_opt(argc, argv, &i, "--cpu-usage", &v, &err)) {
            if (err) return JC_ERR_USAGE;
            if (!parse_usage(v, &in.cpu_usage))
                return cli_usage("ga", "--cpu-usage must be a number between 0 and 1 (got '%s')", v);
        } else if (cli_opt(argc, argv, &i, "--gpus", &v, &err)) {
            if (err) return JC_ERR_USAGE;
            if (!parse_count(v, &in.n_gpus))
                return cli_usage("ga", "--gpus must be a whole number >= 0 (got '%s')", v);
        } else if (cli_opt(argc, argv, &i, "--gpu", &v, &err)) {
            if (err) return JC_ERR_USAGE;
            in.gpu_model = v;
        } else if (cli_opt(argc, argv, &i, "--gpu-tdp", &v, &err)) {
            if (err) return JC_ERR_USAGE;
            if (!cli_parse_f64(v, &in.gpu_tdp_w) || in.gpu_tdp_w <= 0)
                return cli_usage("ga", "--gpu-tdp must be a positive number of watts (got '%s')", v);
        } else if (cli_opt(argc, argv, &i, "--gpu-usage", &v, &err)) {
            if (err) return JC_ERR_USAGE;
            if (!parse_usage(v, &in.gpu_usage))
                return cli_usage("ga", "--gpu-usage must be a number between 0 and 1 (got '%s')", v);
        } else if (cli_opt(argc, argv, &i, "--memory", &v, &err)) {
            if (err) return JC_ERR_USAGE;
            if (!cli_parse_f64(v, &in.memory_gb))
                return cli_usage("ga", "--memory must be a number of GB (got '%s')", v);
        } else if (cli_opt(argc, argv, &i, "--region", &v, &err)) {
            if (err) return JC_ERR_USAGE;
            in.region = v;
        } else if (cli_opt(argc, argv, &i, "--ci", &v, &err)) {
            if (err) return JC_ERR_USAGE;
            if (!cli_parse_f64(v, &in.ci) || in.ci < 0)
                return cli_usage("ga", "--ci must be a number of gCO2e/kWh >= 0 (got '%s')", v);
        } else if (cli_opt(argc, argv, &i, "--pue", &v, &err)) {
            if (err) return JC_ERR_USAGE;
            if (!cli_parse_f64(v, &in.pue) || in.pue < 1)
                return cli_usage("ga", "--pue must be a number >= 1 (got '%s')", v);
        } else if (cli_opt(argc, argv, &i, "--platform", &v, &err)) {
            if (err) return JC_ERR_USAGE;
            if (!strcmp(v, "personal")) in.platform = JC_GA_PERSONAL;
            else if (!strcmp(v, "local")) in.platform = JC_GA_LOCAL;
            else if (!strcmp(v, "cloud")) in.platform = JC_GA_CLOUD;
            else return cli_usage("ga", "--platform must be personal, local or cloud (got '%s')", v);
        } else if (cli_opt(argc, argv, &i, "--provider", &v, &err)) {
            if (err) return JC_ERR_USAGE;
            in.provider = v;
        } else if (cli_opt(argc, argv, &i, "--datacenter", &v, &err)) {
            if (err) return JC_ERR_USAGE;
            in.datacenter = v;
        } else if (cli_opt(argc, argv, &i, "--psf", &v, &err)) {
            if (err) return JC_ERR_USAGE;
            if (!cli_parse_f64(v, &in.psf))
                return cli_usage("ga", "--psf must be a number >= 1 (got '%s')", v);
        } else if (cli_opt(argc, argv, &i, "--ga-version", &v, &err)) {
            if (err) return JC_ERR_USAGE;
            in.version = v;
        } else if (cli_opt(argc, argv, &i, "--hwdb", &v, &err)) {
            if (err) return JC_ERR_USAGE;
            if (n_layers >= sizeof layers / sizeof layers[0])
                return cli_usage("ga", "too many --hwdb layers");
            layers[n_layers++] = v;
        } else {
            return cli_usage("ga", "unknown option '%s'", a);
        }
    }
    if (!have_runtime) return cli_usage("ga", "missing --runtime (e.g. --runtime 12h30m)");
    if (in.n_cores == 0 && in.n_gpus == 0) {
        if (in.cpu_model || in.tdp_per_core_w > 0)
            return cli_usage("ga", "--cpu/--tdp-per-core need --cores N");
        if (in.gpu_model || in.gpu_tdp_w > 0)
            return cli_usage("ga", "--gpu/--gpu-tdp need --gpus N");
        return cli_usage("ga", "give --cores N and/or --gpus N");
    }
    if (in.cpu_model && in.tdp_per_core_w > 0)
        fprintf(stderr, "joulecast: ga: note: --tdp-per-core overrides --cpu's power\n");

    jc_diag d;
    jc_hwdb *db;
    int orc = cli_hwdb_open(layers, n_layers, &db);
    if (orc) return orc;
    jc_ga_result *r;
    if (jc_ga_compute(db, &in, &r, &d)) {
        jc_hwdb_free(db);
        return cli_fail(&d);
    }
    int rc = 0;
    if (json) {
        rc = cli_emit_json(jc_report_ga_json(r));
    } else if (jc_report_ga_text(r, stdout)) {
        rc = JC_ERR_IO;
    }
    jc_ga_result_free(r);
    jc_hwdb_free(db);
    return rc;
}
