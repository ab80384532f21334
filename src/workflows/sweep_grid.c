/*
 * sweep_grid.c (workflows) - the rules `joulecast sweep` applies to its
 * grid before running it, shared by the CLI (src/cli/cmd_sweep.c) and the
 * binding (jc_run_sweep_json): an axis and the job's own value of it are
 * exclusive, the batch axis holds whole numbers up to the batch limit
 * (jc_batch_check), and the two defaults
 * (every gpu/tpu/accelerator without --devices, --device or --host; every
 * cloud region without --regions, --region or --ci).
 */
#include "base/jc_internal.h"
#include "joulecast/job.h"
#include "joulecast/estimate.h"
#include "joulecast/sweep.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

jc_status jc_sweep_spec_resolve(jc_sweep_spec *sp, const jc_job *job, jc_diag *d)
{
    static const char *const all_devices[] = {"all"}, *const cloud[] = {"cloud"};
    if (!sp || !job) return jci_diag_set(d, JC_ERR_USAGE, "jc_sweep_spec_resolve: NULL argument");
    if (sp->n_devices && job->device)
        return jci_diag_set(d, JC_ERR_USAGE, "--device and --devices both name the hardware; give the list to --devices");
    if (sp->n_regions && job->region)
        return jci_diag_set(d, JC_ERR_USAGE, "--region and --regions both name the place; give the list to --regions");
    if (sp->n_batches && !isnan(job->batch))
        return jci_diag_set(d, JC_ERR_USAGE, "--batch and --batches both set the batch; give the list to --batches");
    if (sp->n_regions && !isnan(job->ci))
        return jci_diag_set(d, JC_ERR_USAGE, "--ci gives every region the same intensity, so --regions would differ "
                            "by PUE alone: drop --ci to compare the regions' grids, or give one --region with it");
    if (sp->n_precisions && job->precision)
        return jci_diag_set(d, JC_ERR_USAGE, "--precision and --precisions both set it; give the list to --precisions");
    if (!sp->n_devices && !job->device && !job->host) {
        sp->devices = all_devices;
        sp->n_devices = 1;
    }
    if (!sp->n_regions && !job->region && isnan(job->ci)) {
        sp->regions = cloud;
        sp->n_regions = 1;
    }
    return JC_OK;
}

jc_status jc_sweep_batches_parse(const char *const *items, size_t n, double *out, jc_diag *d)
{
    for (size_t i = 0; i < n; i++) {
        const char *it = items[i] ? items[i] : "";
        char *end = NULL;
        double v = NAN;
        errno = 0;
        if (*it) v = strtod(it, &end);
        bool number = end && !errno && !*end && isfinite(v);
        jc_status st = number ? jc_batch_check(v, "--batches", d) : JC_ERR_USAGE;
        if (st == JC_ERR_RANGE)
            return jci_diag_set(d, JC_ERR_RANGE, "batches: %s is out of range: at most %g", it,
                               *jc_job_key_max("batch"));
        if (st) return jci_diag_set(d, JC_ERR_USAGE, "batches takes whole numbers >= 1, got '%s'", it);
        out[i] = v;
    }
    return JC_OK;
}
