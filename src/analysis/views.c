/*
 * views.c (analysis) - the compatibility views of the counting buckets
 * (docs/counting.md): each is another aggregation of macs, flops,
 * special_ops and the per-node fvcore / onnx-tool terms, never a
 * recount.
 */
#include "base/jc_internal.h"
#include "joulecast/analysis.h"

static int64_t view(int64_t macs, int64_t flops, int64_t special, int64_t weighted,
                    int64_t fvx, jc_convention conv)
{
    int64_t r;
    switch (conv) {
    case JC_CONV_TORCHVISION: return macs;
    case JC_CONV_FLOPS2X: return jci_mul_ok(macs, 2, &r) ? r : -1;
    case JC_CONV_FVCORE: return jci_add_ok(macs, fvx, &r) ? r : -1;
    case JC_CONV_ONNX_TOOL: return jci_add_ok(macs, weighted, &r) ? r : -1;
    case JC_CONV_JOULECAST:
    default: return jci_add_ok(flops, special, &r) ? flops : -1;
    }
}

int64_t jc_cost_view(const jc_node_cost *c, jc_convention conv, int with_repeat)
{
    int64_t v = view(c->macs, c->flops, c->special_ops, c->other_flops_weighted, c->fvcore_extra, conv);
    if (v < 0 || !with_repeat) return v;
    return jci_mul_ok(v, c->repeat, &v) ? v : -1;
}

int64_t jc_totals_view(const jc_totals *t, jc_convention conv)
{
    return view(t->macs, t->flops, t->special_ops, t->other_flops_weighted, t->fvcore_extra, conv);
}
