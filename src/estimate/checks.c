/*
 * checks.c (estimate) - what the estimate needs of a device before it can run, as
 * one typed rule (jc_estimate_refusal) that jc_estimate_run enforces and
 * sweep lists for the grid points it skips, and the one conversion of a
 * precision name to its enum (jc_precision_parse) with the device's
 * default precision.
 */
#include "base/jc_internal.h"
#include "joulecast/hwdb.h"
#include "joulecast/job.h"
#include "joulecast/estimate.h"

#include <math.h>
#include <stdio.h>

jc_status jc_precision_parse(const char *s, jc_precision *out)
{
    for (int i = 0; s && i < JC_PREC_COUNT; i++)
        if (!jci_strcasecmp(s, jc_precision_name((jc_precision)i))) {
            *out = (jc_precision)i;
            return JC_OK;
        }
    return JC_ERR_USAGE;
}

int jci_precision_runs(jc_precision p)
{
    return p > JC_PREC_FP64 && p < JC_PREC_INT4;
}

jc_status jci_precision_run_parse(const char *name, jc_precision *p)
{
    jc_precision q;
    if (jc_precision_parse(name, &q) || !jci_precision_runs(q)) return JC_ERR_USAGE;
    *p = q;
    return JC_OK;
}

const char *jci_precision_run_list(char *buf, size_t cap)
{
    size_t n = 0;
    if (cap) buf[0] = 0;
    for (int i = 0; i < JC_PREC_COUNT; i++)
        if (jci_precision_runs((jc_precision)i) && n < cap)
            n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? " " : "", jc_precision_name((jc_precision)i));
    return buf;
}

jc_precision jc_device_default_precision(const jc_device *dev)
{
    return dev->peak_tflops[JC_PREC_BF16].present ? JC_PREC_BF16
         : dev->peak_tflops[JC_PREC_FP16].present ? JC_PREC_FP16 : JC_PREC_FP32;
}

const char *jc_refusal_name(jc_refusal r)
{
    switch (r) {
    case JC_REFUSAL_NONE: return "none";
    case JC_REFUSAL_PRECISION: return "precision";
    case JC_REFUSAL_NO_PEAK: return "no-peak";
    case JC_REFUSAL_NO_TDP: return "no-tdp";
    case JC_REFUSAL_NO_PJ_PER_FLOP: return "no-pj-per-flop";
    }
    return "?";
}

jc_refusal jc_estimate_refusal(const jc_job *job, const jc_device *dev, const char *precision,
                               jc_precision *used, char *buf, size_t cap)
{
    jc_precision p = JC_PREC_COUNT;
    const char *name = precision ? precision : job->precision;
    if (buf && cap) buf[0] = 0;
    if (name) {
        if (jci_precision_run_parse(name, &p)) {
            if (buf) snprintf(buf, cap, "precision '%s' is not one of %s", name, jci_precision_run_list((char[64]){0}, 64));
            return JC_REFUSAL_PRECISION;
        }
    } else {
        p = jc_device_default_precision(dev);
    }
    if (used) *used = p;
    int known_time = !isnan(job->hours) || !isnan(job->device_hours) || job->measured;
    if ((!known_time || job->method == JC_METHOD_JOULES_PER_OP) && !dev->peak_tflops[p].present) {
        if (buf) snprintf(buf, cap, "no published dense peak at %s", jc_precision_name(p));
        return JC_REFUSAL_NO_PEAK;
    }
    if (!dev->tdp_w.present && isnan(job->avg_power_w)) {
        if (buf) snprintf(buf, cap, "no published TDP (give --avg-power W)");
        return JC_REFUSAL_NO_TDP;
    }
    if (job->method == JC_METHOD_JOULES_PER_OP && !dev->pj_per_flop[p].present) {
        if (buf) snprintf(buf, cap, "no energy per FLOP at %s (joules-per-op method)", jc_precision_name(p));
        return JC_REFUSAL_NO_PJ_PER_FLOP;
    }
    return JC_REFUSAL_NONE;
}

/* ---- assumption keys (assumption_keys.def) ---------------------------------- */

#include "estimate/akeys.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static const char *const akey_names[JCI_AK_COUNT_] = {
#define AKEY(id, key, what) key,
#include "estimate/assumption_keys.def"
#undef AKEY
};

/* 1 for the table's derived figures (AKEY_FIGURE rows) */
static const unsigned char akey_figure[JCI_AK_COUNT_] = {
#define AKEY(id, key, what) 0,
#define AKEY_FIGURE(id, key, what) 1,
#include "estimate/assumption_keys.def"
#undef AKEY_FIGURE
#undef AKEY
};

const char *jci_akey_name(jci_akey id)
{
    return (int)id >= 0 && id < JCI_AK_COUNT_ ? akey_names[id] : NULL;
}

/* The table's rows in key order, sorted once (pthread_once): the lookup
 * below bisects them (every hwdb constant recorded under its own id is
 * looked up too, and is not in the table: a scan read every row, some 20
 * lookups of each of the sensitivity's dozens of runs). */
static int akey_order[JCI_AK_COUNT_];
static pthread_once_t akey_once = PTHREAD_ONCE_INIT;

static int by_key(const void *a, const void *b)
{
    return strcmp(akey_names[*(const int *)a], akey_names[*(const int *)b]);
}

static void akey_sort(void)
{
    for (int i = 0; i < JCI_AK_COUNT_; i++) akey_order[i] = i;
    qsort(akey_order, JCI_AK_COUNT_, sizeof akey_order[0], by_key);
}

/* The table's row of key, or -1. */
static int akey_find(const char *key)
{
    if (!key) return -1;
    pthread_once(&akey_once, akey_sort);
    size_t lo = 0, hi = JCI_AK_COUNT_;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(akey_names[akey_order[mid]], key);
        if (!c) return akey_order[mid];
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}

const char *jci_akey_canonical(const char *key)
{
    int i = akey_find(key);
    return i < 0 ? NULL : akey_names[i];
}

int jci_akey_figure(const char *key)
{
    int i = akey_find(key);
    return i >= 0 && akey_figure[i];
}

const jc_assumption *jci_estimate_assumption(const jc_estimate *e, jci_akey id)
{
    const char *k = jci_akey_name(id);
    for (size_t i = 0; e && k && i < e->n_assumptions; i++)
        if (e->assumptions[i].key == k) return &e->assumptions[i];   /* the table's pointer */
    return NULL;
}
