/*
 * grid_rules.c (workflows) - the rules `sweep`, `sweep --generate` and
 * `compare` share about the job they repeat (grid_rules.h): a job key
 * whose result their tables do not show is refused, a measured run is
 * not repeated over what the run did not vary, and a grid whose
 * every point failed for the same reason is the job's error (its exit
 * code), not a table of skipped entries with exit 0.
 */
#include "workflows/grid_rules.h"
#include "base/jc_internal.h"

#include <math.h>
#include <stdio.h>
#include <stddef.h>
#include <string.h>

/* Keys every estimate of the workflow computes and its table drops. */
static const struct {
    const char *key;
    size_t off;
    int num;              /* 1: a double (given unless NAN), 0: an int flag */
    const char *what;     /* what the key adds */
    const char *instead;  /* where that shows */
} hidden[] = {
    {"embodied", offsetof(jc_job, embodied), 0, "adds the embodied emissions",
     "joulecast estimate --embodied (one configuration) shows them"},
    {"lifetime", offsetof(jc_job, lifetime_years), 1, "amortises the embodied emissions",
     "joulecast estimate --embodied --lifetime Y (one configuration) shows them"},
    {"per-node", offsetof(jc_job, per_node), 0, "keeps per-node time and energy shares",
     "joulecast estimate MODEL --per-node (one configuration) shows them"},
    {"tokens-per-request", offsetof(jc_job, tokens_per_request), 1, "gives the per-token figures",
     "joulecast estimate --tokens-per-request T (one configuration) shows them"},
};

/* Messages begin "name: " as sweep's other refusals do; compare's do not
 * (as its others: `joulecast compare` prefixes its usage errors). */
static const char *lead(const char *name, char *buf, size_t cap)
{
    if (!strcmp(name, "compare")) return "";
    snprintf(buf, cap, "%s: ", name);
    return buf;
}

jc_status jci_grid_job_check(const jc_job *job, const char *name, jc_diag *d)
{
    if (!job) return jci_diag_set(d, JC_ERR_USAGE, "%s: NULL job", name);
    const char *base = (const char *)job;
    char lb[40];
    for (size_t i = 0; i < sizeof hidden / sizeof hidden[0]; i++) {
        int given = hidden[i].num ? !isnan(*(const double *)(base + hidden[i].off))
                                  : *(const int *)(base + hidden[i].off) != 0;
        if (given)
            return jci_diag_set(d, JC_ERR_USAGE, "%s--%s %s, which the %s table does not show: drop it; %s",
                               lead(name, lb, sizeof lb), hidden[i].key, hidden[i].what, name, hidden[i].instead);
    }
    return JC_OK;
}

jc_status jci_grid_runtime_check(const jc_job *job, const char *name, const char *varies, int with_power,
                                 const char *fix, jc_diag *d)
{
    if (!job || !varies) return JC_OK;
    const char *key = job->measured ? "measured" : !isnan(job->hours) ? "hours"
                    : !isnan(job->device_hours) ? "device-hours"
                    : with_power && !isnan(job->avg_power_w) ? "avg-power" : NULL;
    if (!key) return JC_OK;
    int power = !strcmp(key, "avg-power");
    char lb[40];
    return jci_diag_set(d, JC_ERR_USAGE, "%s--%s describes one run (its %s), and every %s of the %s would get "
                        "that same %s: %s", lead(name, lb, sizeof lb), key, power ? "device power" : "runtime",
                        varies, name, power ? "power" : "time and energy", fix);
}

void jci_grid_fail(jci_grid_fails *f, const jc_diag *d)
{
    if (!f->n++) f->first = *d;
    else if (d->status != f->first.status || strcmp(d->msg, f->first.msg)) f->differs = 1;
}

jc_status jci_grid_fails_check(const jci_grid_fails *f, size_t n_ok, size_t n_skipped, const char *first_reason,
                               const char *name, jc_diag *d)
{
    if (n_ok || !n_skipped) return JC_OK;
    if (f->n == n_skipped && !f->differs)
        return jci_diag_set(d, f->first.status ? f->first.status : JC_ERR_INTERNAL, "%s: every point of the grid: %s",
                            name, f->first.msg);
    jc_status st = f->n && f->first.status ? f->first.status : JC_ERR_NOTFOUND;
    return jci_diag_set(d, st, "%s: no point of the grid could be estimated (%zu skipped; the first: %s)", name,
                        n_skipped, first_reason ? first_reason : f->n ? f->first.msg : "?");
}

int jci_grid_unsold(const jc_hwdb *db, const jc_device *dev, const jc_host *host, const jc_region *r)
{
    if (!db || !r || r->type != JC_REGION_CLOUD || !r->provider) return 0;
    if (host && host->kind == JC_HOST_CLOUD_INSTANCE)
        return !host->provider || jci_strcasecmp(host->provider, r->provider) != 0;
    if (!dev || !dev->id) return 0;
    for (size_t i = 0; i < db->n_hosts; i++) {
        const jc_host *h = &db->hosts[i];
        if (h->kind == JC_HOST_CLOUD_INSTANCE && h->provider && !jci_strcasecmp(h->provider, r->provider) &&
            ((h->accel && h->accel->id && !strcmp(h->accel->id, dev->id)) ||
             (h->cpu && h->cpu->id && !strcmp(h->cpu->id, dev->id))))
            return 0;
    }
    return 1;
}
