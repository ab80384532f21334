/*
 * ga_input.c (workflows) - the Green Algorithms calculator's inputs by key: the one
 * table through which `joulecast ga` (src/cli/cmd_ga.c) and the binding
 * jc_run_ga_json (src/bind/bind.c) read their options, and
 * jc_ga_input_set, which turns one key and its text into a field of
 * jc_ga_input.  The ranges and the rules between inputs are checked once,
 * by jc_ga_compute (ga.c, validate).
 */
#include "base/jc_internal.h"
#include "joulecast/ga.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef enum { GK_RUNTIME, GK_COUNT, GK_NUM, GK_NAME, GK_PLATFORM } gk_kind;

static const struct ga_key {
    const char *name;
    gk_kind kind;
    size_t off;
    const char *want;   /* what a number takes, for the message */
} keys[] = {
    {"runtime", GK_RUNTIME, offsetof(jc_ga_input, runtime_h), NULL},
    {"cores", GK_COUNT, offsetof(jc_ga_input, n_cores), NULL},
    {"cpu", GK_NAME, offsetof(jc_ga_input, cpu_model), NULL},
    {"tdp-per-core", GK_NUM, offsetof(jc_ga_input, tdp_per_core_w), "a number of watts"},
    {"cpu-usage", GK_NUM, offsetof(jc_ga_input, cpu_usage), "a number between 0 and 1"},
    {"gpus", GK_COUNT, offsetof(jc_ga_input, n_gpus), NULL},
    {"gpu", GK_NAME, offsetof(jc_ga_input, gpu_model), NULL},
    {"gpu-tdp", GK_NUM, offsetof(jc_ga_input, gpu_tdp_w), "a number of watts"},
    {"gpu-usage", GK_NUM, offsetof(jc_ga_input, gpu_usage), "a number between 0 and 1"},
    {"memory", GK_NUM, offsetof(jc_ga_input, memory_gb), "a number of GB"},
    {"region", GK_NAME, offsetof(jc_ga_input, region), NULL},
    {"ci", GK_NUM, offsetof(jc_ga_input, ci), "a number of gCO2e/kWh"},
    {"pue", GK_NUM, offsetof(jc_ga_input, pue), "a number >= 1"},
    {"platform", GK_PLATFORM, offsetof(jc_ga_input, platform), NULL},
    {"provider", GK_NAME, offsetof(jc_ga_input, provider), NULL},
    {"datacenter", GK_NAME, offsetof(jc_ga_input, datacenter), NULL},
    {"psf", GK_NUM, offsetof(jc_ga_input, psf), "a number >= 1"},
    {"ga-version", GK_NAME, offsetof(jc_ga_input, version), NULL},
};
#define N_KEYS (sizeof keys / sizeof keys[0])

const char *const *jc_ga_input_keys(void)
{
    static const char *names[N_KEYS + 1];
    if (!names[0])
        for (size_t i = 0; i < N_KEYS; i++) names[i] = keys[i].name;
    return names;
}

static int given(const jc_ga_input *in, const char *key)
{
    for (size_t i = 0; i < N_KEYS; i++)
        if (!strcmp(keys[i].name, key)) return (in->given >> i) & 1u;
    return 0;
}

jc_status jc_ga_input_check(const jc_ga_input *in, jc_diag *d)
{
    if (in->n_cores == 0 && in->n_gpus == 0) {
        if (in->cpu_model || in->tdp_per_core_w > 0)
            return jci_diag_set(d, JC_ERR_USAGE, "--cpu/--tdp-per-core need --cores N");
        if (in->gpu_model || in->gpu_tdp_w > 0)
            return jci_diag_set(d, JC_ERR_USAGE, "--gpu/--gpu-tdp need --gpus N");
        return jci_diag_set(d, JC_ERR_USAGE, "nothing to compute: give --cores N and/or --gpus N");
    }
    /* an input that describes what the job does not have has no effect */
    if (in->n_cores == 0 && (in->cpu_model || in->tdp_per_core_w > 0 || given(in, "cpu-usage")))
        return jci_diag_set(d, JC_ERR_USAGE, "--%s describes CPU cores and has no effect without --cores N: give "
                            "--cores too, or drop it", in->cpu_model ? "cpu" : in->tdp_per_core_w > 0 ? "tdp-per-core"
                                                                                                   : "cpu-usage");
    if (in->n_gpus == 0 && (in->gpu_model || in->gpu_tdp_w > 0 || given(in, "gpu-usage")))
        return jci_diag_set(d, JC_ERR_USAGE, "--%s describes GPUs and has no effect without --gpus N: give --gpus "
                            "too, or drop it", in->gpu_model ? "gpu" : in->gpu_tdp_w > 0 ? "gpu-tdp" : "gpu-usage");
    if (in->region && in->ci >= 0)
        return jci_diag_set(d, JC_ERR_USAGE, "give --region or --ci, not both: --ci replaces the location's carbon "
                            "intensity, and the location sets nothing else");
    return JC_OK;
}

static int parse_f64(const char *s, double *out)
{
    if (!s || !*s) return 0;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (*end || errno || !isfinite(v)) return 0;
    *out = v;
    return 1;
}

static int parse_count(const char *s, int *out)
{
    double v;
    if (!parse_f64(s, &v) || v < 0 || v > 1000000 || v != floor(v)) return 0;
    *out = (int)v;
    return 1;
}

static jc_status set_platform(jc_ga_input *in, const char *v, jc_diag *d)
{
    static const struct { const char *name; jc_ga_platform p; } names[] = {
        {"personal", JC_GA_PERSONAL}, {"local", JC_GA_LOCAL}, {"cloud", JC_GA_CLOUD}};
    for (size_t i = 0; v && i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(v, names[i].name)) {
            in->platform = names[i].p;
            return JC_OK;
        }
    return jci_diag_set(d, JC_ERR_USAGE, "--platform must be personal, local or cloud (got '%s')", v ? v : "");
}

jc_status jc_ga_input_set(jc_ga_input *in, const char *key, const char *value, jc_diag *d)
{
    if (!in || !key) return jci_diag_set(d, JC_ERR_USAGE, "jc_ga_input_set: NULL argument");
    const struct ga_key *k = NULL;
    for (size_t i = 0; i < N_KEYS && !k; i++)
        if (!strcmp(keys[i].name, key)) k = &keys[i];
    if (!k) return jci_diag_set(d, JC_ERR_NOTFOUND, "unknown option '%s'", key);
    char *base = (char *)in;
    jc_status st = JC_OK;
    switch (k->kind) {
    case GK_RUNTIME: {
        jc_diag rd;
        if (jc_ga_parse_runtime(value, (double *)(base + k->off), &rd))
            st = jci_diag_set(d, JC_ERR_USAGE, "--runtime: %s", rd.msg);
        break;
    }
    case GK_COUNT:
        if (!parse_count(value, (int *)(base + k->off)))
            st = jci_diag_set(d, JC_ERR_USAGE, "--%s must be a whole number >= 0 (got '%s')", key, value ? value : "");
        break;
    case GK_NUM:
        if (!parse_f64(value, (double *)(base + k->off)))
            st = jci_diag_set(d, JC_ERR_USAGE, "--%s expects %s (got '%s')", key, k->want, value ? value : "");
        break;
    case GK_NAME:
        if (!value || !*value) st = jci_diag_set(d, JC_ERR_USAGE, "--%s expects a name", key);
        else *(const char **)(base + k->off) = value;
        break;
    case GK_PLATFORM:
        st = set_platform(in, value, d);
        break;
    }
    if (!st) in->given |= 1u << (k - keys);
    return st;
}
