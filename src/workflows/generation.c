/*
 * generation.c (workflows) - the serving request as `joulecast estimate --generate`
 * and the binding jc_run_estimate_json both run it: the refusals
 * (--hf-config, --prompt-dim or --past-dim without --generate; a model
 * and a config together), the architecture (a Hugging Face config read by
 * jc_arch_load_hf, or an ONNX decoder counted by jc_arch_load_onnx) and
 * the serving model (jc_serving_run, src/estimate/serving.c).  Front ends
 * render the jc_generation; sweep --generate takes the architecture from
 * jc_generation_arch too.  An encoder or encoder-decoder config is
 * refused there: the serving model is a decoder-only one.
 */
#include "base/jc_internal.h"
#include "joulecast/hwdb.h"
#include "joulecast/job.h"
#include "joulecast/estimate.h"
#include "joulecast/serving.h"

#include <string.h>

jc_status jc_generation_arch(const jc_request *rq, jc_arch **out, jc_diag *d)
{
    if (!out || !rq || !rq->job) return jci_diag_set(d, JC_ERR_USAGE, "estimate: no job");
    *out = NULL;
    const jc_job *job = rq->job;
    const char *dimopt = job->prompt_dim ? "--prompt-dim" : job->past_dim ? "--past-dim" : NULL;
    if (job->mode != JC_MODE_GENERATION) {
        if (job->hf_config)
            return jci_diag_set(d, JC_ERR_USAGE, "--hf-config is read by the serving model: add --generate "
                                "(--mode generation), or --train for the training step model; an "
                                "encoder's inference (BERT, T5, BART) is estimated from its ONNX export "
                                "(joulecast estimate MODEL.onnx --dim sequence=S)");
        if (dimopt)
            return jci_diag_set(d, JC_ERR_USAGE, "%s names a dim of an ONNX decoder for the serving model: add "
                                "--generate (--mode generation), or bind dims with --dim NAME=V", dimopt);
        return jci_diag_set(d, JC_ERR_USAGE, "estimate: not a generation job (--generate)");
    }
    if (rq->model && job->hf_config)
        return jci_diag_set(d, JC_ERR_USAGE, "--generate takes one architecture: an ONNX decoder (MODEL.onnx) or "
                            "--hf-config FILE, not both");
    if (!rq->model && dimopt)
        return jci_diag_set(d, JC_ERR_USAGE, "%s names a dim of an ONNX decoder: give the MODEL.onnx (with "
                            "--hf-config or --params there are no dims)", dimopt);
    if (job->hf_config) {
        jc_status st = jc_arch_load_hf(job->hf_config, out, d);
        if (st || (*out)->kind == JC_ARCH_DECODER) return st;
        const jc_arch *a = *out;
        st = a->kind == JC_ARCH_ENCODER
            ? jci_diag_set(d, JC_ERR_USAGE, "%s: model_type '%s' is an encoder: it generates no tokens, so "
                           "--generate (the serving model of decoder-only language models) does not apply; "
                           "--train estimates its training; an ONNX export (joulecast estimate MODEL.onnx --dim "
                           "sequence=S) its encoding", a->path, a->model_type)
            : jci_diag_set(d, JC_ERR_USAGE, "%s: model_type '%s' is an encoder-decoder: the serving model "
                           "(--generate) covers decoder-only language models, not an encoder pass with a decoder's "
                           "cross-attention; --train estimates its training; for serving give the decoder's sizes "
                           "instead: --params N", a->path, a->model_type);
        jc_arch_free(*out);
        *out = NULL;
        return st;
    }
    if (rq->model) return jc_arch_load_onnx(rq, out, d);
    return JC_OK;
}

int jc_job_is_serving(const jc_job *j)
{
    return j && (j->mode == JC_MODE_GENERATION || (j->hf_config && j->mode != JC_MODE_TRAINING) || j->prompt_dim ||
                 j->past_dim);
}

int jc_job_html_per_node(const jc_job *j, const char *model)
{
    return j && (model || (j->hf_config && jc_job_is_serving(j)));
}

jc_status jc_generation_run(const jc_request *rq, const jc_hwdb *db, jc_generation *out, jc_diag *d)
{
    if (!out) return jci_diag_set(d, JC_ERR_USAGE, "estimate: no result");
    memset(out, 0, sizeof *out);
    jc_status st = jc_generation_arch(rq, &out->arch, d);
    if (!st) st = jc_serving_run(rq->job, out->arch, db, &out->serving, d);
    if (st) jc_generation_release(out);
    return st;
}

void jc_generation_release(jc_generation *g)
{
    if (!g) return;
    jc_serving_free(g->serving);
    jc_arch_free(g->arch);
    g->serving = NULL;
    g->arch = NULL;
}
