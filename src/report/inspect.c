/*
 * inspect.c (report) - the `inspect` view of a loaded model, as text and as JSON.
 * Formatting only: every number comes from the jc_model.
 */
#include "base/jc_internal.h"
#include "report/rjson.h"
#include "base/fmt.h"

#include "report/rjson.h"
#include "joulecast/inspect.h"
#include "joulecast/model.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

typedef struct opcount { const char *key; int64_t n; } opcount;

static int cmp_opcount(const void *a, const void *b)
{
    const opcount *x = a, *y = b;
    if (x->n != y->n) return x->n < y->n ? 1 : -1;
    return strcmp(x->key, y->key);
}

/* Counts nodes per domain-qualified op type over the main graph.  Returns a
 * malloc'ed array (caller frees) and its length; keys point into a
 * malloc'ed string block *keys_out (caller frees). */
static opcount *count_ops(const jc_graph *g, size_t *n_out, char **keys_out)
{
    size_t cap = g->n_nodes ? g->n_nodes : 1, n = 0, klen = 0;
    for (size_t i = 0; i < g->n_nodes; i++)
        klen += strlen(g->nodes[i].domain) + strlen(g->nodes[i].op_type) + 2;
    opcount *oc = calloc(cap, sizeof *oc);
    char *keys = malloc(klen + 1), *kp = keys;
    if (!oc || !keys) {
        free(oc);
        free(keys);
        return NULL;
    }
    for (size_t i = 0; i < g->n_nodes; i++) {
        const jc_node *nd = &g->nodes[i];
        if (*nd->domain) kp += sprintf(kp, "%s:%s", nd->domain, nd->op_type) + 1;
        else kp += sprintf(kp, "%s", nd->op_type) + 1;
        const char *k = kp - strlen(kp - 1) - 1; /* unused */
        (void)k;
    }
    /* second pass: accumulate (linear scan over distinct keys; op types
     * per graph are few) */
    kp = keys;
    for (size_t i = 0; i < g->n_nodes; i++) {
        size_t j;
        for (j = 0; j < n; j++)
            if (!strcmp(oc[j].key, kp)) break;
        if (j == n) {
            oc[n].key = kp;
            oc[n].n = 0;
            n++;
        }
        oc[j].n++;
        kp += strlen(kp) + 1;
    }
    qsort(oc, n, sizeof *oc, cmp_opcount);
    *n_out = n;
    *keys_out = keys;
    return oc;
}

static void dims_text(const jc_value *v, char *buf, size_t cap)
{
    if (v->non_tensor) { snprintf(buf, cap, "(sequence/map)"); return; }
    if (v->rank < 0) { snprintf(buf, cap, "[?]"); return; }
    size_t p = 0;
    p += (size_t)snprintf(buf + p, cap - p, "[");
    for (int i = 0; i < v->rank && p < cap; i++) {
        const jc_dim *d = &v->dims[i];
        if (d->v >= 0) p += (size_t)snprintf(buf + p, cap - p, "%s%lld", i ? ", " : "", (long long)d->v);
        else if (d->sym) p += (size_t)snprintf(buf + p, cap - p, "%s%s", i ? ", " : "", d->sym);
        else p += (size_t)snprintf(buf + p, cap - p, "%s?", i ? ", " : "");
    }
    if (p < cap) snprintf(buf + p, cap - p, "]");
}

static size_t graph_nodes_total(const jc_graph *g)
{
    size_t n = g->n_nodes;
    for (size_t i = 0; i < g->n_nodes; i++)
        for (size_t j = 0; j < g->nodes[i].n_attrs; j++) {
            const jc_attr *a = &g->nodes[i].attrs[j];
            if (a->type == JC_ATTR_GRAPH || a->type == JC_ATTR_GRAPHS)
                for (size_t k = 0; k < a->n; k++) n += graph_nodes_total(a->g[k]);
        }
    return n;
}

static const char *opset_domain(const char *d)
{
    return *d ? d : "ai.onnx";
}

jc_status jc_report_inspect_text(const jc_model *m, FILE *f)
{
    const jc_graph *g = m->graph;
    char buf[64], dims[512];
    fprintf(f, "model        %s (%s)\n", m->path, fmt_bytes(buf, sizeof buf, (double)m->file_size));
    fprintf(f, "ir_version   %lld\n", (long long)m->ir_version);
    fprintf(f, "producer     %s%s%s\n", *m->producer_name ? m->producer_name : "(none)",
            *m->producer_version ? " " : "", m->producer_version);
    fprintf(f, "opsets      ");
    for (size_t i = 0; i < m->n_opsets; i++)
        fprintf(f, " %s %lld%s", opset_domain(m->opsets[i].domain),
                (long long)m->opsets[i].version, i + 1 < m->n_opsets ? "," : "");
    fprintf(f, "%s\n", m->n_opsets ? "" : " (none)");
    fprintf(f, "graph        %s: %zu nodes, %zu initializers, %zu values\n",
            *g->name ? g->name : "(unnamed)", g->n_nodes, g->n_initializers, g->n_values);

    fprintf(f, "\ninputs (%zu)\n", g->n_inputs);
    for (size_t i = 0; i < g->n_inputs; i++) {
        const jc_value *v = &g->values[g->inputs[i]];
        dims_text(v, dims, sizeof dims);
        fprintf(f, "  %-24s %-9s %s\n", v->name, jc_dtype_name(v->dtype), dims);
    }
    fprintf(f, "outputs (%zu)\n", g->n_outputs);
    for (size_t i = 0; i < g->n_outputs; i++) {
        const jc_value *v = &g->values[g->outputs[i]];
        dims_text(v, dims, sizeof dims);
        fprintf(f, "  %-24s %-9s %s\n", v->name, jc_dtype_name(v->dtype), dims);
    }

    size_t nops = 0;
    char *keys = NULL;
    opcount *oc = count_ops(g, &nops, &keys);
    if (!oc) return JC_ERR_NOMEM;
    fprintf(f, "\nnodes by op type (%zu nodes, %zu op types)\n", g->n_nodes, nops);
    for (size_t i = 0; i < nops; i++)
        fprintf(f, "  %-28s %lld\n", oc[i].key, (long long)oc[i].n);
    free(oc);
    free(keys);

    fprintf(f, "\nparameters   ");
    if (m->n_params >= 0) fprintf(f, "%s", fmt_int(buf, sizeof buf, m->n_params));
    else fprintf(f, "unknown (an initializer has unknown dims)");
    fprintf(f, " (initializer elements)\nweights      %s at stored dtypes\n",
            fmt_bytes(buf, sizeof buf, (double)m->weight_bytes));
    fprintf(f, "external     ");
    if (!m->n_ext_files) fprintf(f, "none\n");
    for (size_t i = 0; i < m->n_ext_files; i++)
        fprintf(f, "%s%s (referenced, not read)\n", i ? "             " : "", m->ext_files[i]);
    fprintf(f, "functions    ");
    if (!m->n_functions) fprintf(f, "none\n");
    for (size_t i = 0; i < m->n_functions; i++) {
        const jc_function *fn = &m->functions[i];
        fprintf(f, "%s%s%s%s (%zu nodes)\n", i ? "             " : "",
                *fn->domain ? fn->domain : "", *fn->domain ? ":" : "", fn->name,
                fn->body ? fn->body->n_nodes : 0);
    }
    fprintf(f, "subgraphs    %zu", g->n_subgraphs_total);
    if (g->n_subgraphs_total)
        fprintf(f, " (%zu nodes in all graphs)", graph_nodes_total(g));
    fprintf(f, "\n");
    if (m->n_training_info) fprintf(f, "training     %zu training_info entries\n", m->n_training_info);
    if (m->n_metadata) {
        fprintf(f, "metadata\n");
        for (size_t i = 0; i < m->n_metadata; i++)
            fprintf(f, "  %s = %s\n", m->metadata[i].key, m->metadata[i].value);
    }
    return ferror(f) ? JC_ERR_IO : JC_OK;
}

/* ---- JSON ----------------------------------------------------------------- */

static cJSON *value_json(const jc_value *v)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    cJSON *dims = NULL;
    if (!cJSON_AddStringToObject(o, "name", v->name) ||
        !cJSON_AddStringToObject(o, "dtype", jc_dtype_name(v->dtype)))
        goto fail;
    if (v->rank < 0 || v->non_tensor) {
        if (!cJSON_AddNullToObject(o, "dims")) goto fail;
        return o;
    }
    dims = cJSON_AddArrayToObject(o, "dims");
    if (!dims) goto fail;
    for (int i = 0; i < v->rank; i++) {
        cJSON *d = v->dims[i].v >= 0 ? cJSON_CreateNumber((double)v->dims[i].v)
                 : v->dims[i].sym ? cJSON_CreateString(v->dims[i].sym)
                 : cJSON_CreateNull();
        if (!rj_push(dims, d)) goto fail;
    }
    return o;
fail:
    cJSON_Delete(o);
    return NULL;
}

char *jc_report_inspect_json(const jc_model *m)
{
    const jc_graph *g = m->graph;
    cJSON *root = cJSON_CreateObject(), *arr, *o;
    char *out = NULL, *keys = NULL;
    opcount *oc = NULL;
    if (!root) return NULL;
    REQ(cJSON_AddStringToObject(root, "schema", "joulecast-inspect/1"));
    REQ(cJSON_AddStringToObject(root, "path", m->path));
    REQ(cJSON_AddNumberToObject(root, "file_bytes", (double)m->file_size));
    REQ(cJSON_AddNumberToObject(root, "ir_version", (double)m->ir_version));
    REQ(cJSON_AddStringToObject(root, "producer_name", m->producer_name));
    REQ(cJSON_AddStringToObject(root, "producer_version", m->producer_version));
    REQ(cJSON_AddStringToObject(root, "domain", m->domain));
    REQ(cJSON_AddNumberToObject(root, "model_version", (double)m->model_version));
    REQ(arr = cJSON_AddArrayToObject(root, "opsets"));
    for (size_t i = 0; i < m->n_opsets; i++) {
        REQ(o = rj_push_object(arr));
        REQ(cJSON_AddStringToObject(o, "domain", opset_domain(m->opsets[i].domain)));
        REQ(cJSON_AddNumberToObject(o, "version", (double)m->opsets[i].version));
    }
    REQ(o = cJSON_AddObjectToObject(root, "graph"));
    REQ(cJSON_AddStringToObject(o, "name", g->name));
    REQ(cJSON_AddNumberToObject(o, "nodes", (double)g->n_nodes));
    REQ(cJSON_AddNumberToObject(o, "initializers", (double)g->n_initializers));
    REQ(cJSON_AddNumberToObject(o, "values", (double)g->n_values));
    REQ(cJSON_AddNumberToObject(o, "subgraphs", (double)g->n_subgraphs_total));
    REQ(arr = cJSON_AddArrayToObject(root, "inputs"));
    for (size_t i = 0; i < g->n_inputs; i++) {
        REQ(o = value_json(&g->values[g->inputs[i]]));
        REQ(rj_push(arr, o));
    }
    REQ(arr = cJSON_AddArrayToObject(root, "outputs"));
    for (size_t i = 0; i < g->n_outputs; i++) {
        REQ(o = value_json(&g->values[g->outputs[i]]));
        REQ(rj_push(arr, o));
    }
    size_t nops = 0;
    REQ(oc = count_ops(g, &nops, &keys));
    REQ(arr = cJSON_AddArrayToObject(root, "op_types"));
    for (size_t i = 0; i < nops; i++) {
        REQ(o = rj_push_object(arr));
        REQ(cJSON_AddStringToObject(o, "op", oc[i].key));
        REQ(cJSON_AddNumberToObject(o, "count", (double)oc[i].n));
    }
    if (m->n_params >= 0) REQ(cJSON_AddNumberToObject(root, "params", (double)m->n_params));
    else REQ(cJSON_AddNullToObject(root, "params"));
    REQ(cJSON_AddNumberToObject(root, "weight_bytes", (double)m->weight_bytes));
    REQ(rj_str_array(root, "external_data_files", (const char *const *)m->ext_files, m->n_ext_files));
    REQ(arr = cJSON_AddArrayToObject(root, "functions"));
    for (size_t i = 0; i < m->n_functions; i++) {
        REQ(o = rj_push_object(arr));
        REQ(cJSON_AddStringToObject(o, "domain", m->functions[i].domain));
        REQ(cJSON_AddStringToObject(o, "name", m->functions[i].name));
        REQ(cJSON_AddNumberToObject(o, "nodes", m->functions[i].body ? (double)m->functions[i].body->n_nodes : 0));
    }
    REQ(o = cJSON_AddObjectToObject(root, "metadata"));
    for (size_t i = 0; i < m->n_metadata; i++)
        REQ(cJSON_AddStringToObject(o, m->metadata[i].key, m->metadata[i].value));
    out = rj_print(root);
done:
    free(oc);
    free(keys);
    cJSON_Delete(root);
    return out;
}
