/*
 * dtype.c (base) - small facts about joulecast's graph types that every stage
 * needs: dtype names and sizes, and which dtypes are floating point.
 */
#include "base/jc_internal.h"
#include "joulecast/model.h"

static const struct { const char *name; int bits; } dtypes[JC_DT_COUNT_] = {
    [JC_DT_UNDEFINED] = {"undefined", 0}, [JC_DT_FLOAT] = {"float32", 32},
    [JC_DT_UINT8] = {"uint8", 8}, [JC_DT_INT8] = {"int8", 8},
    [JC_DT_UINT16] = {"uint16", 16}, [JC_DT_INT16] = {"int16", 16},
    [JC_DT_INT32] = {"int32", 32}, [JC_DT_INT64] = {"int64", 64},
    [JC_DT_STRING] = {"string", 0}, [JC_DT_BOOL] = {"bool", 8},
    [JC_DT_FLOAT16] = {"float16", 16}, [JC_DT_DOUBLE] = {"float64", 64},
    [JC_DT_UINT32] = {"uint32", 32}, [JC_DT_UINT64] = {"uint64", 64},
    [JC_DT_COMPLEX64] = {"complex64", 64},
    [JC_DT_COMPLEX128] = {"complex128", 128},
    [JC_DT_BFLOAT16] = {"bfloat16", 16},
    [JC_DT_FLOAT8E4M3FN] = {"float8e4m3fn", 8},
    [JC_DT_FLOAT8E4M3FNUZ] = {"float8e4m3fnuz", 8},
    [JC_DT_FLOAT8E5M2] = {"float8e5m2", 8},
    [JC_DT_FLOAT8E5M2FNUZ] = {"float8e5m2fnuz", 8},
    [JC_DT_UINT4] = {"uint4", 4}, [JC_DT_INT4] = {"int4", 4},
    [JC_DT_FLOAT4E2M1] = {"float4e2m1", 4},
};

const char *jc_dtype_name(int dt)
{
    if (dt < 0 || dt >= JC_DT_COUNT_) return "unknown";
    return dtypes[dt].name;
}

int jci_dtype_is_float(int dt)
{
    switch (dt) {
    case JC_DT_FLOAT: case JC_DT_DOUBLE: case JC_DT_FLOAT16: case JC_DT_BFLOAT16:
    case JC_DT_FLOAT8E4M3FN: case JC_DT_FLOAT8E4M3FNUZ: case JC_DT_FLOAT8E5M2:
    case JC_DT_FLOAT8E5M2FNUZ: case JC_DT_FLOAT4E2M1:
        return 1;
    default:
        return 0;
    }
}

int jc_dtype_bits(int dt)
{
    if (dt < 0 || dt >= JC_DT_COUNT_) return 0;
    return dtypes[dt].bits;
}
