/*
 * efficiency.c - size-aware efficiency per node and the runtime profiles
 * (eager / compiled / engine): the time one counted node takes on one
 * device, or that it costs no kernel at all.  Equations: efficiency.h and
 * docs/energy-model.md section 2; constants: hwdb/energy-model.yaml.
 */
#include "estimate/efficiency.h"
#include "estimate/parallel.h"

#include <math.h>
#include <string.h>

static const char *const RT_NAMES[JC_RUNTIME_COUNT] = {"eager", "compiled", "engine"};

const char *jci_runtime_name(jc_runtime r)
{
    return (unsigned)r < JC_RUNTIME_COUNT ? RT_NAMES[r] : NULL;
}

jc_runtime jci_runtime_parse(const char *s)
{
    for (int i = 0; s && i < JC_RUNTIME_COUNT; i++)
        if (!jci_strcasecmp(s, RT_NAMES[i])) return (jc_runtime)i;
    return JC_RUNTIME_COUNT;
}

/* per-runtime constant ids: runtime_<name>_<param> */
static const char *const RT_IDS[JC_RUNTIME_COUNT][4] = {
    {"runtime_eager_eta_matrix", "runtime_eager_eta_vector", "runtime_eager_eta_bw",
     "runtime_eager_launch_s"},
    {"runtime_compiled_eta_matrix", "runtime_compiled_eta_vector", "runtime_compiled_eta_bw",
     "runtime_compiled_launch_s"},
    {"runtime_engine_eta_matrix", "runtime_engine_eta_vector", "runtime_engine_eta_bw",
     "runtime_engine_launch_s"},
};
static const char *const SHARED_IDS[] = {"eff_fill_s", "eff_memory_latency_s", "eff_tile_m",
                                         "eff_tile_n", "eff_unaligned_factor"};

jc_status jci_eff_resolve(const jc_hwdb *db, jc_runtime r, jc_eff_model *m, jc_diag *d)
{
    memset(m, 0, sizeof *m);
    if ((unsigned)r >= JC_RUNTIME_COUNT)
        return jci_diag_set(d, JC_ERR_USAGE, "unknown runtime profile");
    m->runtime = r;
    for (int i = 0; i < JC_EFF_N; i++) {
        const char *id = i < 4 ? RT_IDS[r][i] : SHARED_IDS[i - 4];
        const jc_constant *c;
        jc_diag tmp;
        if (jc_hwdb_constant(db, id, &c, &tmp) != JC_OK)
            return jci_diag_set(d, JC_ERR_HWDB,
                               "estimate: the hardware database has no constant '%s' (runtime "
                               "profile %s; hwdb/energy-model.yaml or an override layer must define it)",
                               id, RT_NAMES[r]);
        const jc_sourced *v = &c->value;
        m->v[i].central = v->value;
        m->v[i].low = v->has_range ? v->low : v->value;
        m->v[i].high = v->has_range ? v->high : v->value;
        m->src[i] = c;
        m->id[i] = id;
    }
    m->fuse_elementwise = r != JC_RUNTIME_EAGER;
    m->fuse_vector_memory = r == JC_RUNTIME_ENGINE;
    return JC_OK;
}

/* Elementwise ops: one read and one write per element, fused into the
 * producer's epilogue by graph compilers and engines. */
static int elementwise(const char *op)
{
    static const char *const ew[] = {
        "Relu", "Add", "Sub", "Mul", "Div", "Sigmoid", "Tanh", "Erf", "Gelu", "Clip",
        "LeakyRelu", "HardSigmoid", "HardSwish", "Cast", "Sqrt", "Pow", "Exp", "Neg",
        "Abs", "Where", "Max", "Min", "BatchNormalization", "Dropout", "Identity",
        "Softplus", "Elu", "Selu", "PRelu", "Reciprocal", "Log", "Mish", "QuantizeLinear",
        "DequantizeLinear", "Equal", "Less", "Greater", "Not", "And", "Or", "Floor", "Ceil",
        "Round", "Sin", "Cos", "Expand"};
    for (size_t i = 0; i < sizeof ew / sizeof ew[0]; i++)
        if (!strcmp(op, ew[i])) return 1;
    return 0;
}

double jci_eff_kernels(const jc_analysis *an, const jc_counted_node *n)
{
    (void)an;
    /* serial steps from the node's cost (the time steps of a recurrent
     * node: analysis/ops/ops_rnn.c) */
    return n->cost.serial_steps > 0 ? (double)n->cost.serial_steps : 1;
}

/* GEMM view of a Conv / MatMul / Gemm from its output shape and MACs:
 * N = output channels (Conv) or the last dim, M = the rest, K = MACs per
 * output element.  0 when the shape is not known. */
static int gemm_dims(const jc_analysis *an, const jc_counted_node *n, double *M, double *N, double *K)
{
    const char *op = n->node->op_type;
    int conv = !strcmp(op, "Conv") || !strcmp(op, "ConvTranspose");
    if (*n->node->domain || !(conv || !strcmp(op, "MatMul") || !strcmp(op, "Gemm"))) return 0;
    if (!n->node->n_outputs || n->node->outputs[0] < 0) return 0;
    const jc_tshape *o = &an->insts[n->inst].values[n->node->outputs[0]];
    if (o->rank < 2) return 0;
    double numel = 1;
    for (int i = 0; i < o->rank; i++) {
        if (o->dims[i].v <= 0) return 0;
        numel *= (double)o->dims[i].v;
    }
    double nn = (double)o->dims[conv ? 1 : o->rank - 1].v;
    if (!(numel > 0) || !(nn > 0) || n->cost.macs <= 0) return 0;
    *N = nn;
    *M = numel / nn;
    *K = (double)n->cost.macs / numel;
    return 1;
}

static double pick(jc_range r, int sc, int slow_is_high)
{
    if (sc == 1) return r.central;
    int want_high = (sc == 2) == (slow_is_high != 0);
    return want_high ? r.high : r.low;
}

/* Compute time of f FLOPs in rep matrix kernels of an M x N output and
 * reduction K (0 0 0: shape unknown, no quantisation): the fill term, the
 * tile and wave quantisation and the alignment factor (efficiency.h). */
static double matrix_s(const jc_eff_model *m, const jc_eff_device *dv, double f, double M, double N, double K,
                       double rep, int sc)
{
    double eta_m = pick(m->v[JC_EFF_ETA_MATRIX], sc, 0);
    double fill = pick(m->v[JC_EFF_FILL_S], sc, 1);
    double q = 1, al = 1;
    if (M > 0 && N > 0 && K > 0) {
        double tmn = m->v[JC_EFF_TILE_M].central, tnn = m->v[JC_EFF_TILE_N].central;
        if (tmn >= 1 && tnn >= 1) {
            double tiles = ceil(M / tmn) * ceil(N / tnn);
            q = (M * N) / (tiles * tmn * tnn);
            /* the last wave of tiles over the SMs (one partial wave
             * of a small kernel is the fill term's) */
            if (dv->sms >= 1 && tiles >= dv->sms) q *= jci_wave_factor(tiles, dv->sms);
        }
        if (dv->granule > 0 && (fmod(K, dv->granule) != 0 || fmod(N, dv->granule) != 0))
            al = pick(m->v[JC_EFF_UNALIGNED], sc, 0);
    }
    double p = dv->peak * eta_m;
    return (f + p * fill * rep) / (p * q * al);
}

double jci_eff_gemm_s(const jc_eff_model *m, const jc_eff_device *dv, double M, double N, double K, double count,
                      int sc)
{
    if (!(dv->peak > 0) || !(M > 0) || !(N > 0) || !(K > 0) || !(count > 0)) return 0;
    double t = matrix_s(m, dv, 2 * M * N * K * count, M, N, K, count, sc);
    double launch = dv->gpu ? pick(m->v[JC_EFF_LAUNCH_S], sc, 1) : 0;   /* one (grouped) kernel */
    return t > launch ? t : launch;
}

void jci_eff_node_time(const jc_eff_model *m, const jc_eff_device *dv, const jc_analysis *an,
                      const jc_counted_node *n, double byte_scale, int sc, jc_node_time *out)
{
    memset(out, 0, sizeof *out);
    double rep = n->cost.repeat > 0 ? (double)n->cost.repeat : 1;
    double f = rep * ((double)n->cost.flops + (double)n->cost.special_ops);
    double b = rep * ((double)n->cost.bytes_read + (double)n->cost.weight_bytes_read +
                      (double)n->cost.bytes_written) * byte_scale;
    out->flops = f;
    out->bytes = b;
    jc_op_class cls = n->cost.cls;
    if (cls == JC_CLASS_NONE) {
        out->bound = JC_BOUND_NONE;
        return;
    }
    const char *op = n->node->op_type;
    int std = !*n->node->domain;
    if (cls != JC_CLASS_MATRIX &&
        ((m->fuse_elementwise && std && elementwise(op)) ||
         (m->fuse_vector_memory && (cls == JC_CLASS_MEMORY || (std && !strcmp(op, "Softmax")))))) {
        out->bound = JC_BOUND_FUSED;
        return;
    }
    /* slow corner: low efficiencies, high overheads */
    double eta_v = pick(m->v[JC_EFF_ETA_VECTOR], sc, 0);
    double eta_b = pick(m->v[JC_EFF_ETA_BW], sc, 0);
    double lat = pick(m->v[JC_EFF_LAT_S], sc, 1);
    double launch = dv->gpu ? pick(m->v[JC_EFF_LAUNCH_S], sc, 1) : 0;
    double tc = 0, tm = 0;
    if (cls == JC_CLASS_MATRIX && dv->peak > 0) {
        double M, N, K;
        if (!gemm_dims(an, n, &M, &N, &K)) M = N = K = 0;
        tc = matrix_s(m, dv, f, M, N, K, rep, sc);
    } else if (cls == JC_CLASS_VECTOR && dv->vpeak > 0) {
        tc = f / (dv->vpeak * eta_v);
    }
    if (dv->bw > 0 && b > 0) tm = (b + dv->bw * lat * rep) / (dv->bw * eta_b);
    double t = tc > tm ? tc : tm;
    out->bound = tm > tc ? JC_BOUND_MEMORY : JC_BOUND_COMPUTE;
    double floor_t = launch * rep * jci_eff_kernels(an, n);
    if (floor_t > t) {
        t = floor_t;
        out->bound = JC_BOUND_LAUNCH;
    }
    out->t = t;
    if (t > 0)
        out->eta = out->bound == JC_BOUND_MEMORY ? b / (t * dv->bw)
                 : cls == JC_CLASS_MATRIX ? f / (t * dv->peak)
                 : dv->vpeak > 0 ? f / (t * dv->vpeak) : 0;
}
