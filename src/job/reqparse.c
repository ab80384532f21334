/*
 * reqparse.c (job) - the value grammar of the request's keys, written once
 * for every front end: the CLI's options and job files (src/cli/jobopts.c,
 * src/cli/cmd_count.c) and the bindings' key/value pairs (src/bind/bind.c)
 * parse a binding NAME=V, an input shape NAME=AxBxC, input values
 * NAME=V,V,... and a flag here, with one message each ("KEY expects ...,
 * got 'VALUE'"; the CLI prefixes where the option came from and "--").
 * Contracts: joulecast/job.h ("The request keys' values").
 */
#include "base/jc_internal.h"
#include "joulecast/job.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* A whole number >= 0 written in decimal, the whole string. */
static int whole(const char *s, size_t len, int64_t *out)
{
    char tmp[32];
    if (!len || len >= sizeof tmp) return 0;
    memcpy(tmp, s, len);
    tmp[len] = 0;
    char *end;
    errno = 0;
    long long v = strtoll(tmp, &end, 10);
    if (errno || *end || v < 0) return 0;
    *out = v;
    return 1;
}

/* NAME=... : the length of NAME, 0 when there is none. */
static size_t name_of(const char *val)
{
    const char *eq = val ? strchr(val, '=') : NULL;
    return eq ? (size_t)(eq - val) : 0;
}

jc_status jc_parse_binding(const char *key, const char *val, int64_t lo, size_t *name_len, int64_t *value,
                           jc_diag *d)
{
    size_t nl = name_of(val);
    int64_t v;
    if (!nl || !whole(val + nl + 1, strlen(val + nl + 1), &v) || v < lo)
        return jci_diag_set(d, JC_ERR_USAGE, "%s expects NAME=VALUE with VALUE >= %lld, got '%s'", key,
                            (long long)lo, val ? val : "");
    *name_len = nl;
    *value = v;
    return JC_OK;
}

jc_status jc_parse_shape_binding(const char *key, const char *val, int64_t *dims, int cap, int *rank,
                                 size_t *name_len, jc_diag *d)
{
    size_t nl = name_of(val);
    int r = -1;
    if (nl && val[nl + 1]) {
        const char *p = val + nl + 1;
        for (r = 0;;) {
            size_t len = strcspn(p, "xX,");
            if (r >= cap || !whole(p, len, &dims[r])) {
                r = -1;
                break;
            }
            r++;
            p += len;
            if (!*p) break;
            p++;   /* the separator; one at the end leaves an empty dim */
        }
    }
    if (r <= 0)
        return jci_diag_set(d, JC_ERR_USAGE, "%s expects NAME=AxBxC (e.g. input=1x3x224x224; up to %d dims), "
                            "got '%s'", key, cap, val ? val : "");
    *rank = r;
    *name_len = nl;
    return JC_OK;
}

/* One number of a value list: a whole number kept exact (a sign
 * allowed), else a double of magnitude below 9.2e18; 0 on a syntax error. */
static int number(const char *s, size_t len, int64_t *iv, double *fv)
{
    char tmp[64];
    if (!len || len >= sizeof tmp) return 0;
    memcpy(tmp, s, len);
    tmp[len] = 0;
    int neg = tmp[0] == '-';
    if (whole(tmp + neg, len - (size_t)neg, iv)) {
        if (neg) *iv = -*iv;
        *fv = (double)*iv;
        return 1;
    }
    char *end;
    errno = 0;
    double x = strtod(tmp, &end);
    if (*end || errno || !(x > -9.2e18 && x < 9.2e18)) return 0;
    *fv = x;
    *iv = (int64_t)x;
    return 1;
}

size_t jc_parse_values_count(const char *val)
{
    size_t nl = name_of(val);
    const char *p = nl ? val + nl + 1 : "";
    size_t n = *p ? 1 : 0;
    for (; *p; p++) n += *p == ',';
    return n;
}

jc_status jc_parse_values_binding(const char *key, const char *val, int64_t *iv, double *fv, size_t cap,
                                  size_t *n, size_t *name_len, jc_diag *d)
{
    size_t nl = name_of(val), k = 0, count = jc_parse_values_count(val);
    int ok = nl && count <= cap;
    const char *p = nl ? val + nl + 1 : "";
    for (; ok && k < count; k++) {
        size_t len = strcspn(p, ",");
        ok = number(p, len, &iv[k], &fv[k]);
        p += len + (p[len] == ',');
    }
    if (!ok && nl && count > cap)
        return jci_diag_set(d, JC_ERR_USAGE, "%s expects at most %zu values, got %zu", key, cap, count);
    if (!ok)
        return jci_diag_set(d, JC_ERR_USAGE, "%s expects NAME=V,V,... (e.g. shape=1,-1,768), got '%s'", key,
                            val ? val : "");
    *n = count;
    *name_len = nl;
    return JC_OK;
}

jc_status jc_parse_flag(const char *key, const char *val, int *on, jc_diag *d)
{
    static const char *const yes[] = {"true", "yes", "on", "1"}, *const no[] = {"false", "no", "off", "0"};
    for (size_t i = 0; i < 4; i++) {
        if (!val || !*val || !strcmp(val, yes[i])) {
            *on = 1;
            return JC_OK;
        }
        if (!strcmp(val, no[i])) {
            *on = 0;
            return JC_OK;
        }
    }
    return jci_diag_set(d, JC_ERR_USAGE, "%s expects true or false, got '%s'", key, val);
}

const char *jc_jobfile_path(const char *jf_path, const char *key, const char *val, char *buf, size_t cap)
{
    static const char *const paths[] = {"model", "op-rules", "hwdb"};
    const char *slash = jf_path ? strrchr(jf_path, '/') : NULL;
    int is_path = 0;
    for (size_t i = 0; key && i < sizeof paths / sizeof paths[0]; i++) is_path |= !strcmp(key, paths[i]);
    if (!is_path || !slash || !val || !*val || val[0] == '/') return val;
    int w = snprintf(buf, cap, "%.*s/%s", (int)(slash - jf_path), jf_path, val);
    return w > 0 && (size_t)w < cap ? buf : NULL;
}
