/*
 * generation.c - the serving request as `joulecast estimate --generate`
 * and the binding jc_run_estimate_json both run it: the refusals (an
 * ONNX model, --hf-config without --generate), the Hugging Face config
 * read (jc_arch_load_hf) and the serving model (jc_serving_run,
 * src/estimate/serving.c).  Front ends render the jc_generation.
 */
#include "base/jc_internal.h"

#include <string.h>

jc_status jc_generation_run(const jc_job *job, const char *model, const jc_hwdb *db,
                            jc_generation *out, jc_diag *d)
{
    if (!out || !job) return jci_diag_set(d, JC_ERR_USAGE, "estimate: no job");
    memset(out, 0, sizeof *out);
    if (job->mode != JC_MODE_GENERATION) {
        if (job->hf_config)
            return jci_diag_set(d, JC_ERR_USAGE, "--hf-config is read by the serving model: add --generate "
                                "(--mode generation)");
        return jci_diag_set(d, JC_ERR_USAGE, "estimate: not a generation job (--generate)");
    }
    if (model)
        return jci_diag_set(d, JC_ERR_USAGE, "--generate with an ONNX model is not supported yet: give "
                            "--hf-config FILE (or --params N for the coarse path)");
    jc_status st = job->hf_config ? jc_arch_load_hf(job->hf_config, &out->arch, d) : JC_OK;
    if (!st) st = jc_serving_run(job, out->arch, db, &out->serving, d);
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
