/*
 * compare.c (workflows) - `joulecast compare A.onnx B.onnx ...` as a
 * library call, shared by the CLI (src/cli/cmd_compare.c) and the binding
 * (jc_run_compare_json, src/bind/bind_workflows.c): the same request (job and
 * bindings, src/job/request.c) counted and estimated for each model on the
 * same database.  A model whose batch dim is fixed to another value than
 * the job's batch is refused (the request path's rule); a partial count
 * is refused unless the request allows it, then said plainly; --dim and
 * --input bindings apply to the models that have the dim or input, and one
 * that no model uses is an error.  With --generate each file is a Hugging
 * Face config.json run as `estimate --generate` runs it (jc_generation_run),
 * so the items carry the serving figures.  The rendering is
 * src/report/compare.c.
 */
#include "base/jc_internal.h"
#include "base/fmt.h"
#include "workflows/grid_rules.h"
#include "joulecast/bind.h"
#include "joulecast/hwdb.h"
#include "joulecast/serving.h"
#include "joulecast/model.h"
#include "joulecast/analysis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static jc_compare *compare_new(size_t n)
{
    jc_compare *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->n = n;
    c->items = calloc(n, sizeof *c->items);
    c->models_ = calloc(n, sizeof *c->models_);
    c->analyses_ = calloc(n, sizeof *c->analyses_);
    c->estimates_ = calloc(n, sizeof *c->estimates_);
    c->notes_ = calloc(n, sizeof *c->notes_);
    if (!c->items || !c->models_ || !c->analyses_ || !c->estimates_ || !c->notes_) {
        jc_compare_free(c);
        return NULL;
    }
    return c;
}

/* The diagnostic's message with the model named first (its location
 * fields kept); returns st. */
static jc_status named(jc_diag *d, const char *path, jc_status st)
{
    if (!strncmp(d->msg, path, strlen(path)) && d->msg[strlen(path)] == ':') return st;   /* named already */
    char msg[2 * sizeof d->msg];
    snprintf(msg, sizeof msg, "%s: %s", path, d->msg[0] ? d->msg : jc_status_name(st));
    size_t len = strlen(msg);
    if (len >= sizeof d->msg) len = sizeof d->msg - 1;
    memcpy(d->msg, msg, len);
    d->msg[len] = 0;
    return st;
}

/* compare --generate: model i of c (c->items[i].label: a Hugging Face
 * config.json, or an ONNX decoder export) run as `estimate --generate`
 * runs it (jc_generation_run): fills items[i]. */
static jc_status one_config(jc_compare *c, size_t i, const jc_request *rq0, const jc_hwdb *db, jc_diag *d)
{
    const char *path = c->items[i].label;
    size_t len = strlen(path);
    int onnx = len >= 5 && !strcmp(path + len - 5, ".onnx");   /* an ONNX decoder export */
    jc_job job = *rq0->job;
    jc_request rq = *rq0;
    job.hf_config = onnx ? NULL : path;
    rq.job = &job;
    rq.model = onnx ? path : NULL;
    jc_status st = jc_generation_run(&rq, db, &c->gens_[i], d);
    if (st) return named(d, path, st);
    const jc_serving *s = c->gens_[i].serving;
    jc_compare_item *it = &c->items[i];
    it->est = s->estimate;
    it->serving = s;
    it->macs = -1;
    it->params = (int64_t)llround(s->params_total);
    it->batch = 0;   /* none: the running sequences are the serving figure */
    if (s->memory_limited) {
        char note[300];
        snprintf(note, sizeof note, "the KV memory holds %s running sequences per replica, not the %s asked "
                 "(--concurrency)", FMT_N(s->concurrency), FMT_N(s->concurrency_asked));
        if (!(c->notes_[i] = strdup(note))) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
        it->note = c->notes_[i];
    }
    return JC_OK;
}

/* The estimates' device and region (every item shares them: the first
 * item's) when the region is a cloud region whose provider sells no
 * instance with the device (jci_grid_unsold, the rule sweep leaves such
 * pairs out by): refused, the one pair being the whole comparison. */
static jc_status sold_check(const jc_compare *c, const jc_hwdb *db, jc_diag *d)
{
    const jc_estimate *e = c->n ? c->items[0].est : NULL;
    if (!e || !e->region) return JC_OK;
    const jc_device *dev = NULL;
    const jc_host *host = NULL;
    jc_diag tmp;
    /* the estimate's host where this database names it; else the device alone */
    if (e->host_id && jc_hwdb_hardware(db, e->host_id, &dev, &host, &tmp) != JC_OK) host = NULL;
    if (!jci_grid_unsold(db, e->device, host, e->region)) return JC_OK;
    return jci_diag_set(d, JC_ERR_USAGE, "%s is not sold in %s: %s has no instance with it, so the device/region pair "
                        "is left out (1 pair, every model's): give a region of a provider that sells it, or a "
                        "country or grid zone (hardware of one's own)", host ? host->id : e->device_id,
                        e->region_code, e->region->provider);
}

/* compare --generate: the configs (job.hf_config first when set). */
/* One file given twice (by one path or two, or '-' twice: standard
 * input holds one model) compares it with itself: refused.  extra (--hf-config, or NULL) counts as the first file; a path
 * that cannot be read is left for the loader to name. */
static jc_status twice(const char *extra, const char *const *paths, size_t n, jc_diag *d)
{
    size_t total = n + (extra ? 1 : 0), stdins = 0;
    for (size_t i = 0; i < total; i++) {
        const char *a = extra ? (i ? paths[i - 1] : extra) : paths[i];
        if (a && !strcmp(a, "-") && ++stdins > 1)
            return jci_diag_set(d, JC_ERR_USAGE, "standard input ('-') given twice: it holds one model; "
                                "give the others as files");
        for (size_t j = i + 1; j < total; j++) {
            const char *b = extra ? paths[j - 1] : paths[j];
            if (jc_same_file(a, b))
                return jci_diag_set(d, JC_ERR_USAGE, "%s and %s are the same file: compare gives each model once "
                                    "(to compare settings, run estimate twice and joulecast diff)", a, b);
        }
    }
    return JC_OK;
}

static jc_status run_generation(jc_compare **out, const jc_request *rq, const char *const *paths, size_t n,
                                const jc_hwdb *db, jc_diag *d)
{
    const jc_job *job = rq->job;
    if (rq->n_dims || rq->n_inputs)
        return jci_diag_set(d, JC_ERR_USAGE, "--%s binds an ONNX model's %s; compare --generate reads "
                            "Hugging Face configs", rq->n_dims ? "dim" : "input", rq->n_dims ? "dims" : "inputs");
    size_t total = n + (job->hf_config ? 1 : 0);
    if (total < 2)
        return jci_diag_set(d, JC_ERR_USAGE, "give two or more Hugging Face configs (A.json B.json ...)");
    jc_compare *c = compare_new(total);
    if (!c || !(c->gens_ = calloc(total, sizeof *c->gens_))) {
        jc_compare_free(c);
        return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    }
    jc_status st = JC_OK;
    for (size_t i = 0; !st && i < total; i++) {
        c->items[i].label = job->hf_config ? (i ? paths[i - 1] : job->hf_config) : paths[i];
        st = one_config(c, i, rq, db, d);
    }
    if (!st) st = sold_check(c, db, d);
    if (st) {
        jc_compare_free(c);
        return st;
    }
    *out = c;
    return JC_OK;
}

/* Counts and estimates model i of c (c->items[i].label): fills items[i]. */
static jc_status one_model(jc_compare *c, size_t i, const jc_request *rq0, const jc_hwdb *db,
                           unsigned char *dim_used, unsigned char *input_used, jc_diag *d)
{
    jc_request rq = *rq0;
    const char *path = c->items[i].label;
    rq.model = path;
    jc_status st = jc_request_load(&rq, &c->models_[i], d);
    if (st) return st;
    jc_request_info info;
    memset(&info, 0, sizeof info);
    info.dim_used = dim_used;
    info.input_used = input_used;
    jc_analysis *an = NULL;
    if ((st = jc_request_analyze(&rq, c->models_[i], NAN, &an, &info, d))) return st;
    c->analyses_[i] = an;
    jc_job job = *rq.job;
    char note[1200] = "";
    size_t k = 0;
    if (info.partial) {
        char what[700];
        jc_analysis_partial_words(an, what, sizeof what);
        k += (size_t)snprintf(note + k, sizeof note - k, "%spartial count (%s): its figures are lower bounds",
                              k ? "; " : "", what);
    }
    jc_estimate *e = NULL;
    if ((st = jc_estimate_run(&job, an, db, &e, d))) return named(d, path, st);
    c->estimates_[i] = e;
    if (note[0] && !(c->notes_[i] = strdup(note))) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    jc_compare_item *it = &c->items[i];
    it->est = e;
    it->macs = an->totals.macs;   /* a lower bound when partial */
    it->params = an->totals.params;
    /* the step batch: data-parallel training counts one device's share of it */
    double dev_batch = jc_job_device_batch(&job);
    it->batch = !isnan(dev_batch) && info.batch == dev_batch ? job.batch : isnan(info.batch) ? 1 : info.batch;
    it->partial = an->partial;
    it->note = c->notes_[i];
    return JC_OK;
}

jc_status jc_compare_run(const jc_request *request, const char *const *paths, size_t n,
                         const jc_hwdb *db, jc_compare **out, jc_diag *d)
{
    if (!out) return jci_diag_set(d, JC_ERR_USAGE, "jc_compare_run: out is NULL");
    *out = NULL;
    if (!request || !request->job || !db || (n && !paths))
        return jci_diag_set(d, JC_ERR_USAGE, "jc_compare_run: NULL argument");
    jc_status st0 = jci_grid_job_check(request->job, "compare", d);
    if (!st0) st0 = jci_grid_runtime_check(request->job, "compare", "model", 0,
                                           "estimate each model's run with its own runtime or trace", d);
    if (!st0) st0 = twice(request->job->mode == JC_MODE_GENERATION ? request->job->hf_config : NULL, paths, n, d);
    if (st0) return st0;
    if (request->job->mode == JC_MODE_GENERATION) return run_generation(out, request, paths, n, db, d);
    if (request->job->hf_config)
        return jci_diag_set(d, JC_ERR_USAGE, "--hf-config is read by the serving model: add --generate "
                            "(--mode generation)");
    if (n < 2) return jci_diag_set(d, JC_ERR_USAGE, "give two or more models (A.onnx B.onnx ...)");
    jc_status st = jc_batch_check(request->job->batch, "--batch", d);
    if (st) return st;
    /* models differ: a binding is applied to the models that have the dim
     * or input (one that no model uses is refused below); a model whose
     * batch dim is fixed to another value than --batch is refused, as
     * everywhere (the request path's one rule) */
    jc_request rq = *request;
    rq.bindings_if_present = 1;
    jc_compare *c = compare_new(n);
    unsigned char *dim_used = calloc(rq.n_dims + 1, 1), *input_used = calloc(rq.n_inputs + 1, 1);
    if (!c || !dim_used || !input_used) st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    for (size_t i = 0; !st && i < n; i++) {
        c->items[i].label = paths[i];
        st = one_model(c, i, &rq, db, dim_used, input_used, d);
    }
    for (size_t i = 0; !st && i < rq.n_dims; i++)
        if (!dim_used[i])
            st = jci_diag_set(d, JC_ERR_USAGE, "--dim %s: no model has a dim named '%s'", rq.dims[i].name,
                             rq.dims[i].name);
    for (size_t i = 0; !st && i < rq.n_inputs; i++)
        if (!input_used[i])
            st = jci_diag_set(d, JC_ERR_USAGE, "--input %s: no model has an input named '%s'",
                             rq.inputs[i].name, rq.inputs[i].name);
    /* different batch sizes, said once more where the table is read */
    for (size_t i = 1; !st && i < n; i++)
        if (c->items[i].batch != c->items[0].batch && !c->notes_[i]) {
            char note[300];
            snprintf(note, sizeof note, "counted at batch %s, the first model at batch %s",
                     FMT_N(c->items[i].batch), FMT_N(c->items[0].batch));
            if (!(c->notes_[i] = strdup(note))) st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
            c->items[i].note = c->notes_[i];
        }
    if (!st) st = sold_check(c, db, d);
    free(dim_used);
    free(input_used);
    if (st) {
        jc_compare_free(c);
        return st;
    }
    *out = c;
    return JC_OK;
}

void jc_compare_free(jc_compare *c)
{
    if (!c) return;
    for (size_t i = 0; i < c->n; i++) {
        if (c->estimates_) jc_estimate_free(c->estimates_[i]);
        if (c->analyses_) jc_analysis_free(c->analyses_[i]);
        if (c->models_) jc_model_free(c->models_[i]);
        if (c->notes_) free(c->notes_[i]);
        if (c->gens_) jc_generation_release(&c->gens_[i]);
    }
    free(c->gens_);
    free(c->estimates_);
    free(c->analyses_);
    free(c->models_);
    free(c->notes_);
    free(c->items);
    free(c);
}
