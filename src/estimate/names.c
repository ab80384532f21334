/*
 * names.c (estimate) - the names of the estimate's enums (method, mode, origin: the
 * words every report and the job keys use) and the bits of a precision:
 * table lookups every file of src/estimate/ may call, calling none.
 */
#include "estimate/estimate_int.h"

const char *jc_method_name(jc_method m)
{
    switch (m) {
    case JC_METHOD_ROOFLINE: return "roofline";
    case JC_METHOD_JOULES_PER_OP: return "joules-per-op";
    case JC_METHOD_TDP: return "tdp";
    }
    return "?";
}

const char *jc_mode_name(jc_mode m)
{
    switch (m) {
    case JC_MODE_INFERENCE: return "inference";
    case JC_MODE_TRAINING: return "training";
    case JC_MODE_GENERATION: return "generation";
    }
    return "?";
}

const char *jc_origin_name(jc_origin o)
{
    switch (o) {
    case JC_ORIGIN_USER: return "user";
    case JC_ORIGIN_HWDB: return "hwdb";
    case JC_ORIGIN_MODEL: return "model";
    case JC_ORIGIN_DERIVED: return "derived";
    case JC_ORIGIN_DEFAULT: return "default";
    }
    return "?";
}


/* ---- sizes ------------------------------------------------------------------ */

double jci_est_prec_bits(jc_precision p)
{
    switch (p) {
    case JC_PREC_FP64: return 64;
    case JC_PREC_FP32: case JC_PREC_TF32: return 32;
    case JC_PREC_FP16: case JC_PREC_BF16: return 16;
    case JC_PREC_FP8: case JC_PREC_INT8: return 8;
    case JC_PREC_INT4: return 4;
    default: return 32;
    }
}

