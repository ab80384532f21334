/*
 * request.c (job) - the one request path: a job, its bindings and a model
 * source (a path or "-" for standard input) become a loaded model and its
 * analysis.  The rules every front end shares live here and nowhere else:
 * batch validation, the fixed-batch rule, the default batch of 1 for an
 * unbound symbolic batch, the --seq check, op rules and the partial-count
 * policy (joulecast.h "Requests").
 */
#include "base/jc_internal.h"
#include "joulecast/model.h"
#include "joulecast/analysis.h"
#include "joulecast/job.h"
#include "joulecast/estimate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Largest model accepted on standard input (a file has no such limit:
 * it is mapped, not read). */
#define STDIN_MAX ((size_t)1 << 31)

void jc_request_init(jc_request *rq)
{
    memset(rq, 0, sizeof *rq);
}

jc_status jc_batch_check(double batch, const char *what, jc_diag *d)
{
    return jc_job_check_value("batch", what ? what : "batch", batch, d);
}

int64_t jc_model_fixed_batch(const jc_model *m, double batch, const char **input)
{
    const jc_graph *g = m->graph;
    for (size_t i = 0; i < g->n_inputs; i++) {
        const jc_value *v = &g->values[g->inputs[i]];
        if (v->rank > 0 && v->dims[0].v >= 0 && (double)v->dims[0].v != batch) {
            if (input) *input = v->name;
            return v->dims[0].v;
        }
    }
    return 0;
}

/* ---- the model source ------------------------------------------------------ */

static jc_status load_stream(FILE *in, int hash, jc_model **out, jc_diag *d)
{
    char *buf;
    size_t len;
    switch (jci_read_stream(in, STDIN_MAX, &buf, &len)) {
    case JCI_READ_OK: break;
    case JCI_READ_TOO_BIG:
        return jci_diag_set(d, JC_ERR_RANGE, "<stdin>: model larger than %zu bytes; give it as a file "
                           "instead", STDIN_MAX);
    case JCI_READ_NOMEM: return jci_diag_set(d, JC_ERR_NOMEM, "<stdin>: out of memory reading the model");
    case JCI_READ_IO: return jci_diag_set(d, JC_ERR_IO, "<stdin>: read error");
    }
    if (len == 0) {
        free(buf);
        return jci_diag_set(d, JC_ERR_MODEL, "<stdin>: empty input: not an ONNX model");
    }
    jc_status st = jc_model_load_buffer(buf, len, "<stdin>", out, d);
    if (!st && hash) {
        jci_sha256 h;
        jci_sha256_init(&h);
        jci_sha256_update(&h, buf, len);
        jci_sha256_hex(&h, (*out)->sha256);
    }
    free(buf);
    return st;
}

jc_status jc_request_load(const jc_request *rq, jc_model **out, jc_diag *d)
{
    if (!out) return jci_diag_set(d, JC_ERR_USAGE, "jc_request_load: NULL argument");
    *out = NULL;
    if (!rq || !rq->model) return jci_diag_set(d, JC_ERR_USAGE, "the request names no model");
    if (!strcmp(rq->model, "-")) return load_stream(rq->in ? rq->in : stdin, rq->hash_weights, out, d);
    jc_status st = jc_model_load(rq->model, out, d);
    if (st || !rq->hash_weights) return st;
    if ((st = jci_sha256_file(rq->model, (*out)->sha256, d))) {
        jc_model_free(*out);
        *out = NULL;
    }
    return st;
}

/* ---- counting ------------------------------------------------------------------- */

static int graph_has_sym(const jc_graph *g, const char *s)
{
    for (size_t i = 0; i < g->n_values; i++)
        for (int k = 0; k < g->values[i].rank; k++)
            if (g->values[i].dims[k].sym && !strcmp(g->values[i].dims[k].sym, s)) return 1;
    return 0;
}

static int is_main_input(const jc_graph *g, const char *name)
{
    int32_t k = jc_graph_find(g, name);
    return k >= 0 && g->values[k].kind == JC_V_INPUT;
}

void jc_analysis_partial_words(const jc_analysis *an, char *buf, size_t cap)
{
    size_t k = 0;
    if (!cap) return;
    buf[0] = 0;
    if (!an || !an->partial) return;
#define ADD(...)                                                                        \
    do {                                                                                \
        if (k < cap) {                                                                  \
            int w_ = snprintf(buf + k, cap - k, __VA_ARGS__);                           \
            k = w_ < 0 ? cap : k + (size_t)w_ >= cap ? cap : k + (size_t)w_;            \
        }                                                                               \
    } while (0)
    for (size_t i = 0; i < an->n_unknown_syms; i++)
        ADD("%sunknown dim '%s' (bind it with --dim %s=N)", k ? ", " : "", an->unknown_syms[i].sym,
            an->unknown_syms[i].sym);
    for (size_t i = 0; i < an->n_unsupported; i++)
        ADD("%sunsupported op %s x%lld (give a cost rule with --op-rules FILE)", k ? ", " : "",
            an->unsupported[i].op, (long long)an->unsupported[i].count);
    for (size_t i = 0; i < an->n_data_dependent; i++)
        ADD("%s%s", k ? ", " : "", an->data_dependent[i]);   /* names the size and its --assume */
    if (an->n_unknown_other)
        ADD("%s%zu node%s with an unnamed unknown dim (bind the inputs with --input NAME=AxB)", k ? ", " : "",
            an->n_unknown_other, an->n_unknown_other == 1 ? "" : "s");
    if (!k) ADD("a node's cost is not known (see joulecast count)");
#undef ADD
    if (k >= cap && cap > 4) memcpy(buf + cap - 4, "...", 4);
}

/* The sequence length the model's token input was counted at: the second
 * dim of the first main-graph input of an integer dtype and rank >= 2;
 * *name receives the input.  NAN when there is none or it is unknown. */
static double counted_seq(const jc_analysis *an, const char **name)
{
    const jc_graph *g = an->model->graph;
    for (size_t i = 0; i < g->n_inputs && an->n_insts; i++) {
        const jc_value *v = &g->values[g->inputs[i]];
        int dt = v->dtype;
        if (dt != JC_DT_INT64 && dt != JC_DT_INT32) continue;
        const jc_tshape *t = &an->insts[0].values[g->inputs[i]];
        if (t->rank < 2) continue;
        *name = v->name;
        return t->dims[1].v > 0 ? (double)t->dims[1].v : NAN;
    }
    return NAN;
}

/* --batch B binds the first dim of every input whose first dim is
 * symbolic: a --dim or --input that binds one of those to another value
 * would lose silently, so the two are refused together (every front end,
 * through here). */
static jc_status batch_conflict(const jc_model *m, double b, const jc_dim_binding *dims, size_t nd,
                                const jc_input_binding *inputs, size_t ni, jc_diag *d)
{
    const jc_graph *g = m->graph;
    const char *path = m->path ? m->path : "model";
    long long bb = (long long)b;
    for (size_t i = 0; i < g->n_inputs; i++) {
        const jc_value *v = &g->values[g->inputs[i]];
        if (v->rank < 1 || v->dims[0].v >= 0) continue;
        for (size_t k = 0; v->dims[0].sym && k < nd; k++)
            if (!strcmp(dims[k].name, v->dims[0].sym) && dims[k].value != bb)
                return jci_diag_set(d, JC_ERR_USAGE, "%s: --batch %lld and --dim %s=%lld disagree on input '%s''s "
                                   "first dim; give one", path, bb, dims[k].name, (long long)dims[k].value, v->name);
        for (size_t k = 0; k < ni; k++)
            if (!strcmp(inputs[k].name, v->name) && inputs[k].rank > 0 && inputs[k].dims[0] != bb)
                return jci_diag_set(d, JC_ERR_USAGE, "%s: --batch %lld and --input %s disagree on its first dim "
                                   "(%lld); give one", path, bb, v->name, (long long)inputs[k].dims[0]);
    }
    return JC_OK;
}

/* --batch B with no main-graph input whose first dim it binds (no input,
 * scalars, a fixed first dim of 0): the pass's work does not depend on B,
 * so per-sample figures from it would be meaningless. */
static jc_status batch_binds(const jc_model *m, double b, jc_diag *d)
{
    const jc_graph *g = m->graph;
    const char *path = m->path ? m->path : "model";
    const jc_value *first = NULL;
    for (size_t i = 0; i < g->n_inputs; i++) {
        const jc_value *v = &g->values[g->inputs[i]];
        if (v->non_tensor || v->rank < 0 || (v->rank > 0 && (v->dims[0].v < 0 || (double)v->dims[0].v == b)))
            return JC_OK;   /* bound, equal to its fixed batch, or of unknown rank (--input decides) */
        if (!first) first = v;
    }
    if (!first)
        return jci_diag_set(d, JC_ERR_USAGE, "%s: --batch %g binds nothing: the model has no inputs, so its "
                           "work per pass does not depend on a batch; leave --batch out", path, b);
    if (first->rank == 0)
        return jci_diag_set(d, JC_ERR_USAGE, "%s: --batch %g binds nothing: input '%s' is a scalar and no input "
                           "has a batch dim; leave --batch out", path, b, first->name);
    return jci_diag_set(d, JC_ERR_USAGE, "%s: --batch %g binds nothing: input '%s' has a fixed first dim of %lld "
                       "and no input has a batch dim to bind; leave --batch out", path, b, first->name,
                       (long long)first->dims[0].v);
}

jc_status jc_request_analyze(const jc_request *rq, const jc_model *m, double batch, jc_analysis **out,
                             jc_request_info *info, jc_diag *d)
{
    if (!rq || !m || !out) return jci_diag_set(d, JC_ERR_USAGE, "jc_request_analyze: NULL argument");
    *out = NULL;
    jc_request_info tmp;
    if (!info) {
        memset(&tmp, 0, sizeof tmp);
        info = &tmp;
    }
    info->batch = NAN;
    info->partial = 0;
    const char *path = m->path ? m->path : "model";
    double b = isnan(batch) && rq->job ? jc_job_batch(rq->job) : batch;
    jc_status st = jc_batch_check(b, "--batch", d);
    if (st) return st;
    /* data-parallel training: counted at the batch one device runs, unless
     * the model's batch dim is fixed (then at the job's, as it says); the
     * same rule for a batch the caller gives (sweep's batch axis) */
    double db = NAN;
    if (rq->job && !isnan(b)) {
        jc_job step = *rq->job;
        step.batch = b;
        db = jc_job_device_batch(&step);
    }
    if (!isnan(db) && !jc_model_fixed_batch(m, db, NULL) && !jc_model_fixed_batch(m, b, NULL)) b = db;
    if (!isnan(b)) {
        const char *in = NULL;
        int64_t fixed = jc_model_fixed_batch(m, b, &in);
        if (fixed)
            return jci_diag_set(d, JC_ERR_USAGE, "%s: input '%s' has a fixed batch dim of %lld, so --batch %g "
                               "cannot be bound; export the model with a dynamic batch axis or use --batch %lld",
                               path, in, (long long)fixed, b, (long long)fixed);
        if ((st = batch_binds(m, b, d))) return st;
    }

    /* the bindings that apply to this model */
    jc_dim_binding *dims = calloc(rq->n_dims + 1, sizeof *dims);
    jc_input_binding *inputs = calloc(rq->n_inputs + 1, sizeof *inputs);
    if (!dims || !inputs) {
        free(dims);
        free(inputs);
        return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    }
    size_t nd = 0, ni = 0;
    for (size_t i = 0; i < rq->n_dims; i++)
        if (!rq->bindings_if_present || graph_has_sym(m->graph, rq->dims[i].name)) {
            dims[nd++] = rq->dims[i];
            if (info->dim_used) info->dim_used[i] = 1;
        }
    for (size_t i = 0; i < rq->n_inputs; i++)
        if (!rq->bindings_if_present || is_main_input(m->graph, rq->inputs[i].name)) {
            inputs[ni++] = rq->inputs[i];
            if (info->input_used) info->input_used[i] = 1;
        }

    if (!isnan(b) && (st = batch_conflict(m, b, dims, nd, inputs, ni, d))) {
        free(dims);
        free(inputs);
        return st;
    }
    jc_analyze_opts ao;
    memset(&ao, 0, sizeof ao);
    ao.dims = dims;
    ao.n_dims = nd;
    ao.inputs = inputs;
    ao.n_inputs = ni;
    ao.values = rq->values;
    ao.n_values = rq->n_values;
    ao.assume = rq->assume;
    ao.n_assume = rq->n_assume;
    ao.op_rules_path = rq->op_rules;
    ao.convention = rq->convention;
    if (!isnan(b)) {
        ao.batch = (int64_t)b;
    } else {
        /* no batch: a symbolic batch dim that no --dim or --input binds is
         * counted at 1; the estimate names that default (it reads the
         * batch the model was counted at) */
        const jc_graph *g = m->graph;
        const jc_value *v = g->n_inputs ? &g->values[g->inputs[0]] : NULL;
        const char *sym = v && v->rank > 0 && v->dims[0].v < 0 ? v->dims[0].sym : NULL;
        int bound = 0;
        for (size_t i = 0; sym && i < nd; i++) bound |= !strcmp(dims[i].name, sym);
        for (size_t i = 0; v && i < ni; i++) bound |= !strcmp(inputs[i].name, v->name);
        if (sym && !bound && !rq->no_default_batch) ao.batch = 1;
    }
    const int defaulted = isnan(b) && ao.batch == 1;
    st = jc_analyze(m, &ao, out, d);
    free(dims);
    free(inputs);
    if (st) return st;
    jc_analysis *an = *out;
    an->batch_defaulted = defaulted;

    /* the batch counted at: the first input's first dim */
    const jc_graph *g = m->graph;
    if (g->n_inputs && an->n_insts) {
        const jc_tshape *t0 = &an->insts[0].values[g->inputs[0]];
        if (t0->rank > 0 && t0->dims[0].v > 0) info->batch = (double)t0->dims[0].v;
    }
    /* --seq against the sequence length the model was counted at */
    if (rq->job && !isnan(rq->job->seq)) {
        const char *tok = NULL;
        double L = counted_seq(an, &tok);
        if (!isnan(L) && L != rq->job->seq) {
            st = jci_diag_set(d, JC_ERR_USAGE, "%s: --seq %g, but the model was counted with input '%s' at "
                             "sequence length %g (a --dim or --input binding): give one sequence length",
                             path, rq->job->seq, tok, L);
            goto fail;
        }
    }
    if (an->partial) {
        if (!rq->allow_partial) {
            char what[700];
            jc_analysis_partial_words(an, what, sizeof what);
            st = jci_diag_set(d, JC_ERR_INCOMPLETE, "%s: the count is partial: %s; a partial count is only "
                             "a lower bound, so it is refused (give --allow-partial to report the lower bound)",
                             path, what);
            goto fail;
        }
        info->partial = 1;
    }
    return JC_OK;
fail:
    jc_analysis_free(*out);
    *out = NULL;
    return st;
}

/* ---- MLPerf scenarios (issue 41) --------------------------------------------------- */

/* Each scenario, the batch it decides (0: the job's --batch) and whether
 * its queries run one after another: MLPerf Inference rules, SingleStream
 * issues one sample per query and MultiStream 8, each query when the last
 * one completes; Offline and Server batch what the runtime forms, with
 * many queries in flight. */
static const struct { const char *name; double batch; int serial; } SCENARIOS[] = {
    {"offline", 0, 0}, {"server", 0, 0}, {"singlestream", 1, 1}, {"multistream", 8, 1},
};
#define N_SCENARIOS (sizeof SCENARIOS / sizeof SCENARIOS[0])

double jc_scenario_batch(const char *scenario)
{
    for (size_t i = 0; scenario && i < N_SCENARIOS; i++)
        if (!strcmp(SCENARIOS[i].name, scenario)) return SCENARIOS[i].batch > 0 ? SCENARIOS[i].batch : NAN;
    return NAN;
}

int jc_scenario_serial(const char *scenario)
{
    for (size_t i = 0; scenario && i < N_SCENARIOS; i++)
        if (!strcmp(SCENARIOS[i].name, scenario)) return SCENARIOS[i].serial;
    return 0;
}

double jc_job_batch(const jc_job *job)
{
    if (!job) return NAN;
    double sb = jc_scenario_batch(job->scenario);
    return isnan(job->batch) && !isnan(sb) ? sb : job->batch;
}

double jc_job_device_batch(const jc_job *job)
{
    if (!job || job->mode != JC_MODE_TRAINING || isnan(job->batch) || isnan(job->count) || !(job->count > 1) ||
        job->batch < job->count)
        return NAN;
    return ceil(job->batch / job->count);
}

jc_status jc_job_scenario_check(const jc_job *job, jc_diag *d)
{
    if (!job) return jci_diag_set(d, JC_ERR_USAGE, "jc_job_scenario_check: NULL job");
    const char *sc = job->scenario;
    if (!sc) {
        if (!isnan(job->latency_bound_ms))
            return jci_diag_set(d, JC_ERR_USAGE, "--latency-bound is the bound of --scenario server: add "
                                "--scenario server, or leave it out");
        return JC_OK;
    }
    size_t i = 0;
    while (i < N_SCENARIOS && strcmp(SCENARIOS[i].name, sc)) i++;
    if (i == N_SCENARIOS)
        return jci_diag_set(d, JC_ERR_USAGE, "--scenario %s: give offline, server, singlestream or multistream", sc);
    if (SCENARIOS[i].batch > 0 && !isnan(job->batch) && job->batch != SCENARIOS[i].batch)
        return jci_diag_set(d, JC_ERR_USAGE, "--scenario %s runs %g sample%s per query; --batch %g conflicts with "
                            "it: leave --batch out", sc, SCENARIOS[i].batch, SCENARIOS[i].batch == 1 ? "" : "s",
                            job->batch);
    if (!isnan(job->latency_bound_ms) && strcmp(sc, "server"))
        return jci_diag_set(d, JC_ERR_USAGE, "--latency-bound is the bound of --scenario server, not of --scenario "
                            "%s: leave it out", sc);
    return JC_OK;
}

/* ---- both ------------------------------------------------------------------------- */

jc_status jc_request_prepare(const jc_request *rq, jc_prepared **out, jc_diag *d)
{
    if (!rq || !out) return jci_diag_set(d, JC_ERR_USAGE, "jc_request_prepare: NULL argument");
    *out = NULL;
    jc_prepared *p = calloc(1, sizeof *p);
    if (!p) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    p->info.batch = NAN;
    jc_status st = JC_OK;
    if (rq->model) {
        /* a malformed batch is refused before the model is read */
        if (rq->job && (st = jc_batch_check(rq->job->batch, "--batch", d))) goto fail;
        if (rq->job && (st = jc_job_scenario_check(rq->job, d))) goto fail;
        if ((st = jc_request_load(rq, &p->model, d))) goto fail;
        if ((st = jc_request_analyze(rq, p->model, NAN, &p->analysis, &p->info, d))) goto fail;
    } else if (rq->job && (st = jc_batch_check(rq->job->batch, "--batch", d))) {
        goto fail;
    }
    *out = p;
    return JC_OK;
fail:
    jc_prepared_free(p);
    return st;
}

void jc_prepared_free(jc_prepared *p)
{
    if (!p) return;
    jc_analysis_free(p->analysis);
    jc_model_free(p->model);
    free(p);
}
