/*
 * rjson.h (report) - helpers the JSON and CSV renderers share (src/report/ only;
 * cJSON stays confined to this folder).  JSON numbers are always finite:
 * an unknown figure (NaN or infinity) becomes null, never 0; in CSV "n/a".
 */
#ifndef JCI_RJSON_H
#define JCI_RJSON_H

#include "base/jc_internal.h"
/* by pointer only (their public headers define them; a file that reads
 * their fields includes that header itself) */
typedef struct jc_est_node jc_est_node;
typedef struct jc_estimate jc_estimate;

#include <cjson/cJSON.h>
#include <stdio.h>

/* What bounds a node, as every report names it: "launch" (held at the
 * kernel-launch floor), "memory" or "compute".  Static text. */
const char *rj_bound(const jc_est_node *x);

/* Each adds key k to object o and returns 1, or 0 on out-of-memory. */
int rj_str(cJSON *o, const char *k, const char *v);      /* NULL -> null */
int rj_num(cJSON *o, const char *k, double v);           /* non-finite -> null */
int rj_range(cJSON *o, const char *k, jc_range r);       /* {low, central, high}; null if unknown */

/* One key of an object written from a table (rj_fields): the figures of
 * a report listed once, each added with its check. */
typedef enum rj_kind { RJF_NUM, RJF_STR, RJF_BOOL, RJF_RANGE } rj_kind;
typedef struct rj_field {
    const char *key;
    rj_kind kind;
    double num;          /* RJF_NUM (non-finite: null), RJF_BOOL (0: false) */
    const char *str;     /* RJF_STR (NULL: null) */
    jc_range range;      /* RJF_RANGE */
} rj_field;
#define RJF_N(k, v) {(k), RJF_NUM, (v), NULL, {0, 0, 0}}
#define RJF_S(k, v) {(k), RJF_STR, 0, (v), {0, 0, 0}}
#define RJF_B(k, v) {(k), RJF_BOOL, (v), NULL, {0, 0, 0}}
#define RJF_R(k, v) {(k), RJF_RANGE, 0, NULL, (v)}
/* Adds the n fields to object o in order; 1, or 0 on out-of-memory. */
int rj_fields(cJSON *o, const rj_field *f, size_t n);
/* Adds array `key` to o with one object per node (name, op, flops, bytes,
 * time_s, energy_j, bound): the per-node rows of the estimate and of a
 * serving decode step.  1, or 0 on out-of-memory. */
int rj_nodes(cJSON *o, const char *key, const jc_est_node *nodes, size_t n);
/* Writes the range as three CSV fields, each after a comma (",low,central,
 * high"; "n/a" for an unknown end). */
void rcsv_range(FILE *f, jc_range r);

/* Every cJSON_Add* / cJSON_Create* result is checked: REQ(x) jumps to the
 * enclosing function's `done:` label (which frees the tree and returns
 * NULL or the error) when x is 0 / NULL. */
#define REQ(x) do { if (!(x)) goto done; } while (0)

/* Appends a new object to array arr and returns it; NULL on out-of-memory. */
cJSON *rj_push_object(cJSON *arr);
/* Appends string s (NULL: null) to array arr; 0 on out-of-memory. */
int rj_push_str(cJSON *arr, const char *s);
/* Adds o[k] = the n strings of v as an array (a NULL one as null);
 * 0 on out-of-memory. */
int rj_str_array(cJSON *o, const char *k, const char *const *v, size_t n);
/* Appends item to array arr, taking it over (deleted on failure); 0 when
 * item is NULL or the append failed. */
int rj_push(cJSON *arr, cJSON *item);

/* cJSON_Print / cJSON_PrintUnformatted of root, made valid UTF-8: every
 * byte that does not start a well-formed UTF-8 sequence (a Latin-1 file
 * name, a node name with raw bytes) is written as the escape \ufffd
 * (U+FFFD, as the HTML report writes it).  Malloc'ed; NULL on
 * out-of-memory. */
char *rj_print(const cJSON *root);
char *rj_print_unformatted(const cJSON *root);

/* The estimate's JSON document (docs/json-schemas.md "estimate") as a
 * cJSON tree the caller owns (cJSON_Delete); the serving report adds its
 * keys to it.  NULL on out-of-memory.  Defined in estimate.c. */
cJSON *rj_estimate(const jc_estimate *e);

/* Writes v as a CSV field (fmt_machine: %.6g with '.', or "n/a" when
 * it is not finite: unknown). */
void rcsv_num(FILE *f, double v);

/* v when it is > 0, else NAN: for figures whose 0 means "not known"
 * (per-sample figures without a sample count, the work without a
 * model). */
double rj_known(double v);
jc_range rj_known_range(jc_range r);

/* The names of jc_estimate.bound_share's three shares, in its order. */
extern const char *const rj_bound_names[3];
/* Adds "bound_share": {"compute", "memory", "launch"} of e (the shares of
 * one modelled pass's kernel time), or null when the estimate timed no
 * graph node by node; 0 on out-of-memory. */
int rj_bound_share(cJSON *o, const jc_estimate *e);

/* issue 45: adds "sensitivity" to o when e has the table (job.sensitivity:
 * an array, largest swing first, of {rank, key, label, unit, low, high,
 * co2_kg {at_low, at_high, swing}, energy_facility_kwh {...},
 * wall_hours {...}}); nothing otherwise.  0 on out-of-memory. */
int rj_sensitivity(cJSON *o, const jc_estimate *e);
/* issue 45: adds "montecarlo" to o when e has the percentiles (job.draws:
 * {draws, seed, generator, propagation, co2_kg, energy_facility_kwh,
 * wall_hours (each {p5, p50, p95}), inputs [{key, distribution, group,
 * reason}]}); nothing otherwise.  0 on out-of-memory. */
int rj_montecarlo(cJSON *o, const jc_estimate *e);
/* Adds "top_driver" to o when e has the table: {key, co2_kg_swing,
 * share_of_range} (the swing over the width of e's emissions range;
 * null when the range has no width); nothing otherwise.  0 on
 * out-of-memory. */
int rj_top_driver(cJSON *o, const jc_estimate *e);
/* issue 45: adds "cost" ({total {low, central, high} or null, currency,
 * basis, rate, rate_unit, instances, source, date, region, absent}) and
 * "water" ({total_l, onsite_l, offsite_l (ranges or null),
 * wue_l_per_kwh, wue_source, grid_water_l_per_kwh, grid_water_source,
 * basis, absent}) to o: unknown figures null, never 0 (docs/json-schemas.md
 * "estimate").  0 on out-of-memory. */
int rj_cost_water(cJSON *o, const jc_estimate *e);

#endif
