/*
 * count.c (report) - the `count` report of a jc_analysis as text, JSON and CSV.
 * Formatting only: every number comes from the analysis (per-node costs,
 * totals, the convention views in analysis_view.c); the only sums here
 * are the per-op-type groupings of already-counted nodes, done with
 * checked arithmetic.  Schema: docs/json-schemas.md, section "count".
 */
#include "base/jc_internal.h"
#include "base/fmt.h"

#include <cjson/cJSON.h>
#include "report/rjson.h"
#include "joulecast/model.h"
#include "joulecast/analysis.h"
#include <stdlib.h>
#include <string.h>

static const char *class_name(jc_op_class c)
{
    switch (c) {
    case JC_CLASS_MATRIX: return "matrix";
    case JC_CLASS_VECTOR: return "vector";
    case JC_CLASS_MEMORY: return "memory";
    default: return "none";
    }
}

static const char *state_name(jc_cost_state s)
{
    switch (s) {
    case JC_COST_OK: return "ok";
    case JC_COST_UNKNOWN_DIMS: return "unknown_dims";
    case JC_COST_UNSUPPORTED: return "unsupported";
    default: return "data_dependent";
    }
}

/* cost times repeat, saturating at INT64_MAX (totals were checked) */
static int64_t rep(int64_t v, int64_t r)
{
    int64_t x;
    return jci_mul_ok(v, r, &x) ? x : INT64_MAX;
}

static const jc_tshape *out_shape(const jc_analysis *a, const jc_counted_node *n)
{
    if (!n->node->n_outputs || n->node->outputs[0] < 0) return NULL;
    return &a->insts[n->inst].values[n->node->outputs[0]];
}

static const char *shape_str(char *buf, size_t cap, const jc_tshape *t)
{
    if (!t || t->non_tensor) return snprintf(buf, cap, "-"), buf;
    if (t->rank < 0) return snprintf(buf, cap, "?"), buf;
    size_t p = 0;
    buf[0] = 0;
    for (int i = 0; i < t->rank && p + 24 < cap; i++) {
        if (i) buf[p++] = 'x';
        if (t->dims[i].v >= 0) p += (size_t)snprintf(buf + p, cap - p, "%lld", (long long)t->dims[i].v);
        else p += (size_t)snprintf(buf + p, cap - p, "%s", t->dims[i].sym ? t->dims[i].sym : "?");
    }
    if (t->rank == 0) snprintf(buf, cap, "scalar");
    return buf;
}

typedef struct opsum {
    const char *op;
    int64_t n, macs, flops, special;
    int64_t unknown;   /* nodes whose cost is unknown: the sums leave them out */
} opsum;

static int cmp_opsum(const void *x, const void *y)
{
    const opsum *a = x, *b = y;
    if (a->macs != b->macs) return a->macs < b->macs ? 1 : -1;
    if (a->flops != b->flops) return a->flops < b->flops ? 1 : -1;
    return strcmp(a->op, b->op);
}

/* Per-op-type sums of counted nodes; malloc'ed, *n set; NULL on OOM. */
static opsum *by_op(const jc_analysis *a, size_t *n)
{
    opsum *s = calloc(a->n_nodes ? a->n_nodes : 1, sizeof *s);
    size_t k = 0;
    if (!s) return NULL;
    for (size_t i = 0; i < a->n_nodes; i++) {
        const jc_counted_node *cn = &a->nodes[i];
        if (!cn->counted) continue;
        size_t j;
        for (j = 0; j < k; j++)
            if (!strcmp(s[j].op, cn->op)) break;
        if (j == k) s[k++].op = cn->op;
        s[j].n++;
        if (cn->cost.state != JC_COST_OK) {
            s[j].unknown++;
            continue;
        }
        s[j].macs += rep(cn->cost.macs, cn->cost.repeat);
        s[j].flops += rep(cn->cost.flops, cn->cost.repeat);
        s[j].special += rep(cn->cost.special_ops, cn->cost.repeat);
    }
    qsort(s, k, sizeof *s, cmp_opsum);
    *n = k;
    return s;
}

static int cmp_macs(const void *x, const void *y)
{
    const jc_counted_node *const *a = x, *const *b = y;
    int64_t ma = rep((*a)->cost.macs, (*a)->cost.repeat), mb = rep((*b)->cost.macs, (*b)->cost.repeat);
    if (ma != mb) return ma < mb ? 1 : -1;
    return strcmp((*a)->name, (*b)->name);
}

static double pct(int64_t part, int64_t whole)
{
    return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

jc_status jc_report_count_text(const jc_analysis *a, FILE *f, int per_node, int top)
{
    char b1[64], b2[64], b3[256];
    const jc_totals *t = &a->totals;
    fprintf(f, "model: %s\n", a->model->path);
    if (a->partial) {
        fprintf(f, "\nPARTIAL RESULT: the totals below leave out nodes whose cost is unknown: "
                   "they are lower bounds\n");
        for (size_t i = 0; i < a->n_unsupported; i++)
            fprintf(f, "  unsupported op %s: %lld node%s (no rule; add one with --op-rules)\n",
                    a->unsupported[i].op, (long long)a->unsupported[i].count,
                    a->unsupported[i].count == 1 ? "" : "s");
        for (size_t i = 0; i < a->n_unknown_syms; i++) {
            const jc_sym_report *r = &a->unknown_syms[i];
            fprintf(f, "  unknown dim '%s' blocks %zu node%s (first: %s); bind it with --dim %s=N\n", r->sym,
                    r->n_nodes, r->n_nodes == 1 ? "" : "s", r->n_nodes ? r->nodes[0] : "-", r->sym);
        }
        for (size_t i = 0; i < a->n_data_dependent; i++) fprintf(f, "  data-dependent: %s\n", a->data_dependent[i]);
        if (a->n_unknown_other)
            fprintf(f, "  %zu node%s blocked by unnamed unknown dims (downstream of the above)\n",
                    a->n_unknown_other, a->n_unknown_other == 1 ? "" : "s");
    }
    for (size_t i = 0; i < a->n_warnings; i++) fprintf(f, "warning: %s\n", a->warnings[i]);
    for (size_t i = 0; i < a->n_nodes; i++)
        if (a->nodes[i].note && a->nodes[i].depth == 0 && a->nodes[i].node &&
            (!strcmp(a->nodes[i].node->op_type, "If") || !strcmp(a->nodes[i].node->op_type, "Loop") ||
             !strcmp(a->nodes[i].node->op_type, "Scan")))
            fprintf(f, "note: %s: %s\n", a->nodes[i].name, a->nodes[i].note);
    fprintf(f, "\ntotals (convention: %s%s)\n", jc_convention_name(a->convention),
            a->partial ? "; PARTIAL: known nodes only, lower bounds" : "");
    fprintf(f, "  %-22s %20s  (%s)\n", "MACs", fmt_int(b1, sizeof b1, t->macs), fmt_si(b2, sizeof b2, (double)t->macs));
    fprintf(f, "  %-22s %20s  (%s)\n", "FLOPs", fmt_int(b1, sizeof b1, t->flops), fmt_si(b2, sizeof b2, (double)t->flops));
    fprintf(f, "  %-22s %20s\n", "special ops", fmt_int(b1, sizeof b1, t->special_ops));
    fprintf(f, "  %-22s %20s\n", "params", fmt_int(b1, sizeof b1, t->params));
    fprintf(f, "  %-22s %20s\n", "weight bytes", fmt_bytes(b1, sizeof b1, (double)t->weight_bytes));
    fprintf(f, "  %-22s %20s\n", "activation bytes", fmt_bytes(b1, sizeof b1, (double)t->activation_bytes));
    if (t->peak_activation_bytes >= 0)
        fprintf(f, "  %-22s %20s\n", "peak activations", fmt_bytes(b1, sizeof b1, (double)t->peak_activation_bytes));
    else
        fprintf(f, "  %-22s %20s\n", "peak activations", "unknown");
    fprintf(f, "  %-22s %20s\n", "bytes read+written",
            fmt_bytes(b1, sizeof b1, (double)t->bytes_read + (double)t->weight_bytes_read + (double)t->bytes_written));
    if (a->convention != JC_CONV_JOULECAST) {
        int64_t v = jc_totals_view(t, a->convention);
        fprintf(f, "  %-22s %20s  (%s)\n", jc_convention_name(a->convention), fmt_int(b1, sizeof b1, v),
                fmt_si(b2, sizeof b2, (double)v));
    }
    if (top > 0 && a->n_nodes) {
        const jc_counted_node **s = malloc(a->n_nodes * sizeof *s);
        if (!s) return JC_ERR_NOMEM;
        size_t n = 0;
        for (size_t i = 0; i < a->n_nodes; i++)
            if (a->nodes[i].counted && a->nodes[i].cost.state == JC_COST_OK && a->nodes[i].cost.macs > 0)
                s[n++] = &a->nodes[i];
        qsort(s, n, sizeof *s, cmp_macs);
        if (n) {
            fprintf(f, "\ntop %d nodes by MACs\n", top < (int)n ? top : (int)n);
            fprintf(f, "  %-40s %-18s %-22s %16s %6s\n", "node", "op", "output", "MACs", "%");
            for (size_t i = 0; i < n && (int)i < top; i++) {
                int64_t m = rep(s[i]->cost.macs, s[i]->cost.repeat);
                fprintf(f, "  %-40s %-18s %-22s %16s %5.1f%%\n", s[i]->name, s[i]->op,
                        shape_str(b3, sizeof b3, out_shape(a, s[i])), fmt_int(b1, sizeof b1, m), pct(m, t->macs));
            }
        }
        free(s);
    }
    size_t no;
    opsum *os = by_op(a, &no);
    if (!os) return JC_ERR_NOMEM;
    fprintf(f, "\nby op type\n  %-28s %6s %18s %18s %14s %6s\n", "op", "nodes", "MACs", "FLOPs", "special", "%MACs");
    for (size_t i = 0; i < no; i++) {
        if (os[i].unknown == os[i].n) {   /* nothing of the op is known: n/a, never 0 */
            fprintf(f, "  %-28s %6lld %18s %18s %14s %6s\n", os[i].op, (long long)os[i].n, "n/a", "n/a", "n/a",
                    "n/a");
            continue;
        }
        fprintf(f, "  %-28s %6lld %18s %18s %14s %5.1f%%", os[i].op, (long long)os[i].n,
                fmt_int(b1, sizeof b1, os[i].macs), fmt_int(b2, sizeof b2, os[i].flops),
                fmt_int(b3, sizeof b3, os[i].special), pct(os[i].macs, t->macs));
        if (os[i].unknown)
            fprintf(f, "  lower bound: %lld of its nodes unknown", (long long)os[i].unknown);
        fputc('\n', f);
    }
    free(os);
    if (per_node) {
        fprintf(f, "\nper node\n  %-44s %-18s %-22s %16s %16s %12s %14s %-6s %6s\n", "node", "op", "output", "MACs",
                "FLOPs", "params", "bytes", "class", "%MACs");
        for (size_t i = 0; i < a->n_nodes; i++) {
            const jc_counted_node *cn = &a->nodes[i];
            const jc_node_cost *c = &cn->cost;
            char sh[256], nm[300], bb[64];
            snprintf(nm, sizeof nm, "%*s%s%s", cn->depth * 2, "", cn->name, cn->counted ? "" : " (not counted)");
            shape_str(sh, sizeof sh, out_shape(a, cn));
            if (c->state != JC_COST_OK) {
                fprintf(f, "  %-44s %-18s %-22s %16s\n", nm, cn->op, sh, state_name(c->state));
                continue;
            }
            int64_t m = rep(c->macs, c->repeat);
            double by = ((double)c->bytes_read + (double)c->weight_bytes_read + (double)c->bytes_written) *
                        (double)c->repeat;
            fprintf(f, "  %-44s %-18s %-22s %16s %16s %12s %14s %-6s %5.1f%%\n", nm, cn->op, sh,
                    fmt_int(b1, sizeof b1, m), fmt_int(b2, sizeof b2, rep(c->flops, c->repeat)),
                    fmt_int(b3, sizeof b3, c->params), fmt_bytes(bb, sizeof bb, by), class_name(c->cls),
                    pct(m, t->macs));
        }
    }
    return ferror(f) ? JC_ERR_IO : JC_OK;
}

/* ---- JSON ---------------------------------------------------------------------- */

static bool add_i(cJSON *o, const char *k, int64_t v)
{
    return cJSON_AddNumberToObject(o, k, (double)v) != NULL;
}

/* v when known, else null (never 0 for an unknown). */
static bool add_known(cJSON *o, const char *k, int64_t v, bool known)
{
    return known ? add_i(o, k, v) : cJSON_AddNullToObject(o, k) != NULL;
}

static cJSON *shape_json(const jc_tshape *t)
{
    if (!t || t->non_tensor || t->rank < 0) return cJSON_CreateNull();
    cJSON *arr = cJSON_CreateArray();
    if (!arr) return NULL;
    for (int i = 0; i < t->rank; i++) {
        cJSON *d = t->dims[i].v >= 0 ? cJSON_CreateNumber((double)t->dims[i].v)
                   : t->dims[i].sym  ? cJSON_CreateString(t->dims[i].sym)
                                     : cJSON_CreateNull();
        if (!d || !cJSON_AddItemToArray(arr, d)) {
            cJSON_Delete(d);
            cJSON_Delete(arr);
            return NULL;
        }
    }
    return arr;
}

static bool add_item(cJSON *parent, const char *key, cJSON *item)
{
    if (!item) return false;
    if (key ? !cJSON_AddItemToObject(parent, key, item) : !cJSON_AddItemToArray(parent, item)) {
        cJSON_Delete(item);
        return false;
    }
    return true;
}

/* A figure of a node whose cost is not known (unsupported op, unknown
 * dims): null, never 0. */
static bool add_work(cJSON *o, const char *k, int64_t v, bool known)
{
    return known ? add_i(o, k, v) : cJSON_AddNullToObject(o, k) != NULL;
}

static bool cost_json(cJSON *o, const jc_node_cost *c)
{
    bool ok = c->state == JC_COST_OK;
    return add_work(o, "macs", c->macs, ok) && add_work(o, "flops", c->flops, ok) &&
           add_work(o, "special_ops", c->special_ops, ok) && add_work(o, "bytes_read", c->bytes_read, ok) &&
           add_i(o, "weight_bytes_read", c->weight_bytes_read) &&
           add_work(o, "bytes_written", c->bytes_written, ok) && add_i(o, "params", c->params) &&
           add_i(o, "repeat", c->repeat) && cJSON_AddStringToObject(o, "class", class_name(c->cls)) &&
           cJSON_AddStringToObject(o, "arith_dtype", jc_dtype_name(c->arith_dtype)) &&
           cJSON_AddStringToObject(o, "state", state_name(c->state));
}

char *jc_report_count_json(const jc_analysis *a) { return jc_report_count_json_nodes(a, 0); }

char *jc_report_count_json_nodes(const jc_analysis *a, int all_nodes)
{
    cJSON *root = cJSON_CreateObject(), *o, *arr;
    char *out = NULL;
    const jc_totals *t = &a->totals;
    bool ok = root && cJSON_AddStringToObject(root, "model", a->model->path) &&
              cJSON_AddStringToObject(root, "convention", jc_convention_name(a->convention)) &&
              cJSON_AddBoolToObject(root, "partial", a->partial) &&
              cJSON_AddStringToObject(root, "figures", a->partial ? "lower bound" : "counted");
    if (ok && (ok = (o = cJSON_CreateObject()) != NULL) && (ok = add_item(root, "totals", o)))
        ok = add_i(o, "macs", t->macs) && add_i(o, "flops", t->flops) && add_i(o, "special_ops", t->special_ops) &&
             add_i(o, "bytes_read", t->bytes_read) && add_i(o, "weight_bytes_read", t->weight_bytes_read) &&
             add_i(o, "bytes_written", t->bytes_written) && add_i(o, "params", t->params) &&
             add_i(o, "weight_bytes", t->weight_bytes) && add_i(o, "activation_bytes", t->activation_bytes) &&
             (t->peak_activation_bytes >= 0 ? add_i(o, "peak_activation_bytes", t->peak_activation_bytes)
                                            : cJSON_AddNullToObject(o, "peak_activation_bytes") != NULL) &&
             add_i(o, "convention_total", jc_totals_view(t, a->convention));
    if (ok && (ok = (arr = cJSON_CreateArray()) != NULL) && (ok = add_item(root, "unsupported", arr)))
        for (size_t i = 0; ok && i < a->n_unsupported; i++) {
            ok = (o = cJSON_CreateObject()) && add_item(arr, NULL, o) &&
                 cJSON_AddStringToObject(o, "op", a->unsupported[i].op) && add_i(o, "count", a->unsupported[i].count);
        }
    if (ok && (ok = (arr = cJSON_CreateArray()) != NULL) && (ok = add_item(root, "unknown_dims", arr)))
        for (size_t i = 0; ok && i < a->n_unknown_syms; i++) {
            cJSON *nodes = NULL;
            ok = (o = cJSON_CreateObject()) && add_item(arr, NULL, o) &&
                 cJSON_AddStringToObject(o, "dim", a->unknown_syms[i].sym) &&
                 (nodes = cJSON_CreateArray()) != NULL && add_item(o, "blocked_nodes", nodes);
            for (size_t k = 0; ok && k < a->unknown_syms[i].n_nodes; k++)
                ok = add_item(nodes, NULL, cJSON_CreateString(a->unknown_syms[i].nodes[k]));
        }
    if (ok && (ok = (arr = cJSON_CreateArray()) != NULL) && (ok = add_item(root, "data_dependent", arr)))
        for (size_t i = 0; ok && i < a->n_data_dependent; i++)
            ok = add_item(arr, NULL, cJSON_CreateString(a->data_dependent[i]));
    if (ok && (ok = (arr = cJSON_CreateArray()) != NULL) && (ok = add_item(root, "warnings", arr)))
        for (size_t i = 0; ok && i < a->n_warnings; i++) ok = add_item(arr, NULL, cJSON_CreateString(a->warnings[i]));
    if (ok) ok = add_i(root, "unknown_other_nodes", (int64_t)a->n_unknown_other);
    size_t no = 0;
    opsum *os = ok ? by_op(a, &no) : NULL;
    if (ok && !os) ok = false;
    if (ok && (ok = (arr = cJSON_CreateArray()) != NULL) && (ok = add_item(root, "by_op", arr)))
        for (size_t i = 0; ok && i < no; i++)
            ok = (o = cJSON_CreateObject()) && add_item(arr, NULL, o) && cJSON_AddStringToObject(o, "op", os[i].op) &&
                 add_i(o, "nodes", os[i].n) && add_known(o, "macs", os[i].macs, os[i].unknown < os[i].n) &&
                 add_known(o, "flops", os[i].flops, os[i].unknown < os[i].n) &&
                 add_known(o, "special_ops", os[i].special, os[i].unknown < os[i].n) &&
                 add_i(o, "unknown_nodes", os[i].unknown);
    free(os);
    /* past JC_NODE_DETAIL_MAX nodes, the list only when asked for: a bounded document */
    size_t listed = all_nodes || a->n_nodes <= JC_NODE_DETAIL_MAX ? a->n_nodes : 0;
    if (ok && listed < a->n_nodes) ok = add_i(root, "nodes_omitted", (int64_t)(a->n_nodes - listed));
    if (ok && (ok = (arr = cJSON_CreateArray()) != NULL) && (ok = add_item(root, "nodes", arr)))
        for (size_t i = 0; ok && i < listed; i++) {
            const jc_counted_node *cn = &a->nodes[i];
            ok = (o = cJSON_CreateObject()) && add_item(arr, NULL, o) && cJSON_AddStringToObject(o, "name", cn->name) &&
                 cJSON_AddStringToObject(o, "op", cn->op) && add_i(o, "depth", cn->depth) &&
                 cJSON_AddBoolToObject(o, "counted", cn->counted) &&
                 add_item(o, "output_shape", shape_json(out_shape(a, cn))) && cost_json(o, &cn->cost) &&
                 (cn->note ? cJSON_AddStringToObject(o, "note", cn->note) != NULL
                           : cJSON_AddNullToObject(o, "note") != NULL);
        }
    if (ok) out = rj_print_unformatted(root);
    cJSON_Delete(root);
    return out;
}

/* ---- CSV ----------------------------------------------------------------------- */

jc_status jc_report_count_csv(const jc_analysis *a, FILE *f)
{
    char sh[256];
    fprintf(f, "name,op,depth,counted,state,output_shape,macs,flops,special_ops,bytes_read,"
               "weight_bytes_read,bytes_written,params,class,arith_dtype,repeat\n");
    for (size_t i = 0; i < a->n_nodes; i++) {
        const jc_counted_node *cn = &a->nodes[i];
        const jc_node_cost *c = &cn->cost;
        jci_csv_field(f, cn->name, 1);
        fputc(',', f);
        jci_csv_field(f, cn->op, 1);
        fprintf(f, ",%d,%d,%s,", cn->depth, cn->counted, state_name(c->state));
        jci_csv_field(f, shape_str(sh, sizeof sh, out_shape(a, cn)), 1);
        if (c->state == JC_COST_OK)
            fprintf(f, ",%lld,%lld,%lld,%lld,%lld,%lld,%lld,%s,%s,%lld\n", (long long)c->macs,
                    (long long)c->flops, (long long)c->special_ops, (long long)c->bytes_read,
                    (long long)c->weight_bytes_read, (long long)c->bytes_written, (long long)c->params,
                    class_name(c->cls), jc_dtype_name(c->arith_dtype), (long long)c->repeat);
        else /* the node's work is not known: n/a, never 0 */
            fprintf(f, ",n/a,n/a,n/a,n/a,%lld,n/a,%lld,%s,%s,%lld\n", (long long)c->weight_bytes_read,
                    (long long)c->params, class_name(c->cls), jc_dtype_name(c->arith_dtype),
                    (long long)c->repeat);
    }
    return ferror(f) ? JC_ERR_IO : JC_OK;
}
