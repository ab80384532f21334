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

int cmd_ga(int argc, char **argv)
{
    jc_ga_input in;
    jc_ga_input_init(&in);
    const char *layers[16];
    size_t n_layers = 0;
    int json = 0, err = 0, have_runtime = 0;
    const char *v;
    const char *const *names = jc_ga_input_keys();
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--json")) {
            json = 1;
            continue;
        }
        if (cli_opt(argc, argv, &i, "--hwdb", &v, &err)) {
            if (err) return JC_ERR_USAGE;
            if (n_layers >= sizeof layers / sizeof layers[0]) return cli_usage("ga", "too many --hwdb layers");
            layers[n_layers++] = v;
            continue;
        }
        /* an input of the calculator, by the library's key table */
        size_t kl = a[0] == '-' && a[1] == '-' ? strcspn(a + 2, "=") : 0, k = 0;
        while (kl && names[k] && (strlen(names[k]) != kl || strncmp(a + 2, names[k], kl))) k++;
        if (!kl || !names[k]) return cli_usage("ga", "unknown option '%s'", a);
        char opt[64];
        snprintf(opt, sizeof opt, "--%s", names[k]);
        if (!cli_opt_once(argc, argv, &i, "ga", opt, &v, &err) || err) return JC_ERR_USAGE;
        jc_diag kd;
        if (jc_ga_input_set(&in, names[k], v, &kd)) return cli_usage("ga", "%s", kd.msg);
        if (!strcmp(names[k], "runtime")) have_runtime = 1;
    }
    if (!have_runtime) return cli_usage("ga", "missing --runtime (e.g. --runtime 12h30m)");
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
