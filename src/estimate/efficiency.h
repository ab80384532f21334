/*
 * efficiency.h (estimate) - size-aware achieved efficiency per kernel and the runtime
 * profiles (issue #30 items 1-2): how long one counted node takes on one
 * device under `--runtime pytorch|pytorch-1|torch-compile|tensorrt` (the
 * former names eager, eager-pt1, compiled, engine are aliases), and whether it
 * costs a kernel at all.  Internal to libjoulecast (src/estimate/); the
 * constants live in hwdb/energy-model.yaml (`kernel_eta_*` shared by the
 * framework runtimes, `runtime_engine_*`, `runtime_*_launch_s`, `eff_*`),
 * each with its source; which nodes share a kernel is fusion.c's plan.
 *
 * Per kernel (docs/energy-model.md section 2):
 *   matrix   t_c = (F / (q * align) + P*eta*fill_s) / (P * eta) over the
 *            node's GEMM view (batch x M x N x K; jci_eff_gemm_compute_s)
 *            P the dense peak at the run's precision, eta the profile's
 *            achievable fraction, q the tile and wave quantisation,
 *            align < 1 off the tensor-core granule, fill_s the work (as
 *            time at peak) a kernel needs before it fills the device; a
 *            product narrower than the granule runs at P_vector*eta_vector;
 *   vector   t_c = F / (P_vector * eta_vector);
 *   memory   t_m = (B + BW*lat_s) / (BW * eta_bw): the achieved bandwidth
 *            grows with the transfer size (half of eta_bw at BW*lat_s);
 *            BW * eta_bw is the device's measured sustained bandwidth
 *            where the hwdb has one (jci_eff_bw);
 *            in a plan's forward, inputs the previous kernel wrote are
 *            read from the L2 (not counted in B) when they fit there;
 *   t = max(t_c, t_m, launch_s * kernels)   (GPUs: launch floor;
 *            the CPU kernel path: max(t_c, t_m) + call_s * kernels)
 *   + side kernels (eager: bias add, NCHW transforms, autocast casts),
 *   each memory-bound with its own launch floor.
 * A node whose work runs inside another node's kernel (plan role FUSED;
 * engine: every vector and memory node) costs no kernel and no time.
 */
#ifndef JCI_EFFICIENCY_H
#define JCI_EFFICIENCY_H

#include "base/jc_internal.h"
/* by pointer only (their public headers define them; a file that reads
 * their fields includes that header itself) */
typedef struct jc_analysis jc_analysis;
typedef struct jc_constant jc_constant;
typedef struct jc_counted_node jc_counted_node;
typedef struct jc_gemm_shape jc_gemm_shape;
typedef struct jc_hwdb jc_hwdb;

/* The runtime profiles (--runtime), one per row of runtimes.def. */
typedef enum jci_runtime {
#define RT(e, name, kind, devices, modes, mx, ln, cmx, cln, sw) JCI_RUNTIME_##e,
#include "estimate/runtimes.def"
    JCI_RUNTIME_COUNT
} jci_runtime;

/* A profile's kernel path (runtimes.def's kind): what fusion.c fuses. */
typedef enum jci_rt_kind {
    JCI_RTK_EAGER = 0,     /* op by op (PyTorch, HF transformers) */
    JCI_RTK_COMPILED,      /* graph compilers: pointwise groups fused */
    JCI_RTK_ENGINE,        /* inference engines: every vector/memory node fused */
    JCI_RTK_EAGER_PT1,     /* op by op, attention unfused (PyTorch 1.x) */
    JCI_RTK_LAZY           /* lazy graph compilers: pointwise groups fused, attention unfused (tinygrad) */
} jci_rt_kind;

/* Device classes and modes of a profile (runtimes.def). */
enum {
    RT_GPU = 1 << 0, RT_CPU = 1 << 1, RT_TPU = 1 << 2, RT_ACC = 1 << 3, RT_SOC = 1 << 4,
    RT_ANY_DEVICE = RT_GPU | RT_CPU | RT_TPU | RT_ACC | RT_SOC,
    RT_TRAIN = 1 << 0, RT_INFER = 1 << 1
};
/* The layouts a training stack runs (runtimes.def RT_STEP). */
enum { RT_MP_ZERO = 0, RT_MP_ANY = 1, RT_MP_MEGATRON = 2 };
/* The 8-bit GEMMs a training stack runs (runtimes.def RT_STEP): none (the
 * run's precision for every kernel), FP8 by default where the device has
 * an FP8 peak (Transformer Engine), or the 8-bit type --precision names
 * (fp8 or int8: quantised training, e.g. MaxText's AQT int8); in both the
 * attention, the norms and the LM head stay at the 16-bit peak. */
enum { RT_LOWP_NONE = 0, RT_LOWP_FP8 = 1, RT_LOWP_ASKED = 2 };

/* The profile's name, the software it models ("pytorch", "torch-compile",
 * ...); NULL for an unknown value. */
const char *jci_runtime_name(jci_runtime r);
/* One line on the software and what its profile fuses; NULL if unknown. */
const char *jci_runtime_software(jci_runtime r);
/* Parses a runtime name (case-insensitive): a profile's name or a former
 * name kept as an alias (eager, compiled, engine, eager-pt1);
 * JCI_RUNTIME_COUNT when unknown. */
jci_runtime jci_runtime_parse(const char *s);
/* 1 when s is a former name (an alias), else 0. */
int jci_runtime_is_alias(const char *s);
/* The profile's kernel path; JCI_RTK_EAGER for an unknown value. */
jci_rt_kind jci_runtime_kind(jci_runtime r);
/* 1 when the runtime named `runtime` (a --runtime value; NULL: the default
 * profile) picks each kernel by timing every variant the precision allows
 * (an inference engine: TensorRT's builder), so it runs a part's
 * reduced-precision-accumulate tensor rate where that is faster
 * (jci_device_peak's `fastest`); 0 otherwise and in training. */
int jci_runtime_fastest_kernels(const char *runtime, int train);
/* 1 when profile r runs on a device of kind `device_kind` (jc_device_kind)
 * in mode `train` (1 training, 0 inference), else 0. */
int jci_runtime_fits(jci_runtime r, int device_kind, int train);
/* The names of the profiles that run on `device_kind` in that mode, as
 * "a, b or c" (at most cap bytes, NUL-terminated, into buf), in table
 * order; returns buf. */
const char *jci_runtime_list(int device_kind, int train, char *buf, size_t cap);
/* The same list without profile `except` (-1: none). */
const char *jci_runtime_list_except(int device_kind, int train, int except, char *buf, size_t cap);
/* The same as "0 pytorch, 1 torch-compile, ..." over every profile (the
 * number is the profile's value in the assumptions); returns buf. */
const char *jci_runtime_numbered(char *buf, size_t cap);
/* The former names kept as aliases (runtimes.def's RT_ALIAS rows), as
 * "a, b, c" in table order, into buf as above; returns buf. */
const char *jci_runtime_aliases(char *buf, size_t cap);

/* What a training stack does in the training step model (runtimes.def
 * RT_STEP rows; eager PyTorch's for a profile without one). */
typedef struct jci_rt_train {
    const char *step_eta;     /* constant id: compute share of the kernel model's speed */
    const char *overlap;      /* constant id: TP/PP collectives hidden behind GEMMs; NULL: none */
    int lowp;                 /* RT_LOWP_*: the 8-bit GEMMs it runs */
    int model_parallel;       /* RT_MP_*: the layouts it runs */
} jci_rt_train;
/* The training attributes of profile r (static; never NULL). */
const jci_rt_train *jci_runtime_train(jci_runtime r);

/* Ids of the profile's constants (index with JCI_EFF_*). */
enum {
    JCI_EFF_ETA_MATRIX = 0,   /* runtime_<r>_eta_matrix */
    JCI_EFF_ETA_VECTOR,       /* runtime_<r>_eta_vector */
    JCI_EFF_ETA_BW,           /* runtime_<r>_eta_bw */
    JCI_EFF_LAUNCH_S,         /* runtime_<r>_launch_s */
    JCI_EFF_FILL_S,           /* eff_fill_s */
    JCI_EFF_LAT_S,            /* eff_memory_latency_s */
    JCI_EFF_TILE_M,           /* eff_tile_m */
    JCI_EFF_TILE_N,           /* eff_tile_n */
    JCI_EFF_UNALIGNED,        /* eff_unaligned_factor */
    JCI_EFF_ETA_BWD,          /* kernel_eta_backward */
    /* the host's cost of issuing one op, by op class (runtimes.def
     * RT_OPCOST rows; a profile without one: its launch constant) */
    JCI_EFF_OP_CONV,          /* a dense convolution */
    JCI_EFF_OP_GCONV,         /* a grouped or depthwise convolution */
    JCI_EFF_OP_MATRIX,        /* a matrix product (Linear, MatMul, attention) */
    JCI_EFF_OP_VECTOR,        /* an activation, elementwise or reduction op (and a side kernel) */
    JCI_EFF_OP_MEMORY,        /* a data-movement op that runs a kernel (copy, concat, transpose) */
    JCI_EFF_N
};

/* A resolved runtime profile: every constant as a range, and the hwdb
 * constant it came from (for the assumptions table). */
typedef struct jci_eff_model {
    jci_runtime runtime;                 /* the profile (runtimes.def row) */
    jci_rt_kind kind;                    /* its kernel path */
    jc_range v[JCI_EFF_N];
    const jc_constant *src[JCI_EFF_N];
    const char *id[JCI_EFF_N];           /* the constant ids (static or arena) */
    int fuse_vector_memory;             /* engine kind: every vector/memory node fused
                                           (jci_eff_engine_fuses; a GPU's engine plan
                                           sets those roles) */
    int op_costs;                       /* the profile has per-op host costs (RT_OPCOST):
                                           on a GPU a kernel's floor is the larger of its
                                           launch and its op class's cost */
    int cpu_path;                       /* the CPU kernel path: no thread-block tiles, and
                                           v[JCI_EFF_LAUNCH_S] is a call cost added to every
                                           kernel, not a floor */
} jci_eff_model;

/* Fills m from the database constants of runtime r.  cpu: the device is
 * a CPU, whose framework runtimes run the CPU kernel path (oneDNN/MKL and
 * generated C++ kernels on the cores, not cuBLAS/cuDNN): matrix kernels
 * at cpu_kernel_eta_matrix without thread-block tiles, and each kernel costs cpu_kernel_call_s (the
 * library call and the threads' fork and join) on top of its time, since
 * the cores that dispatch it also run it (a GPU overlaps the launch: a
 * floor); the engine profile has no CPU path.  Errors (JC_ERR_HWDB) name
 * the missing constant id.  m holds pointers into db: valid while db is.
 * The id strings of the per-runtime constants are static. */
jc_status jci_eff_resolve(const jc_hwdb *db, jci_runtime r, int cpu, jci_eff_model *m,
                         jc_diag *d);

/* A profile with its own matrix constant at 16 bits and below (runtimes.def
 * RT_TENSOR) takes it in m when the run's arithmetic has `bits` <= 16 on
 * the GPU path; otherwise m is unchanged.  Errors (JC_ERR_HWDB) name the
 * missing constant. */
jc_status jci_eff_tensor_matrix(const jc_hwdb *db, int bits, jci_eff_model *m, jc_diag *d);

/* The device figures one node's time needs. */
typedef struct jci_eff_device {
    double peak;       /* FLOP/s, dense, the run's precision (matrix nodes) */
    double vpeak;      /* FLOP/s, vector units */
    double bw;         /* B/s; 0 when unknown (no memory term) */
    int gpu;           /* 1: launch floor applies */
    int granule;       /* tensor-core dim granule (8 for 16-bit, 16 for 8-bit); 0: none */
    double sms;        /* streaming multiprocessors (wave quantisation); 0: unknown */
    double l2;         /* L2 bytes (an input the previous kernel wrote and no
                          larger than this is read from the L2); 0: unknown */
    double bw_sustained; /* B/s, the device's measured sustained bandwidth;
                            0: none published (bw x eta_bw) */
} jci_eff_device;

/* Achieved bandwidth of a large memory-bound transfer on dv, B/s: the
 * device's measured sustained bandwidth where the hwdb publishes one
 * (memory_bw_sustained_gbs: it is what a streaming kernel reaches), else
 * its datasheet bandwidth x kernel_eta_bw (scenario sc picks the end of
 * eta_bw's range that lowers it); 0 when the device has no bandwidth. */
double jci_eff_bw(const jci_eff_model *m, const jci_eff_device *dv, int sc);

typedef enum jci_node_bound {
    JCI_BOUND_COMPUTE = 0, JCI_BOUND_MEMORY = 1, JCI_BOUND_LAUNCH = 2,
    JCI_BOUND_FUSED = 3, JCI_BOUND_NONE = 4
} jci_node_bound;

/* The time of one node (all its repeats) on one device. */
typedef struct jci_node_time {
    double t;          /* s */
    double flops, bytes;  /* its work (bytes: its DRAM traffic at the run's
                             precision, an L2-resident input excluded) */
    jci_node_bound bound;
    double eta;        /* achieved fraction of the relevant peak (compute
                          nodes: F / (t * P); memory: B / (t * BW)) */
} jci_node_time;

/* Sequential kernels of a node: time steps for LSTM/GRU/RNN, else 1. */
double jci_eff_kernels(const jc_analysis *an, const jc_counted_node *n);

/* ---- GEMM kernels (also used by training budgets, issue #26) ---------- */

/* One GEMM kernel's shape: jc_gemm_shape (joulecast/analysis.h), the
 * analysis stage's view of a node or a training step's own product;
 * batch < 1 counts as 1. */

/* Compute time of one GEMM kernel on dv (scenario sc as in
 * jci_eff_node_time), no memory term and no launch floor:
 *   tensor-core path (n and k at least the device's granule, or no
 *   granule): (F / (q align) + P eta fill) / (P eta), q the tile and wave
 *   quantisation of the batch x ceil(m/tile_m) x ceil(n/tile_n) tiles
 *   over the SMs (none on the CPU kernel path), align the off-granule
 *   factor; the fill is a latency, not scaled by the padding;
 *   narrower products (depthwise convolutions): F / (P_vector eta_vector).
 * 0 when the shape or the peak is unknown.  Pure function. */
double jci_eff_gemm_compute_s(const jci_eff_model *m, const jci_eff_device *dv, const jc_gemm_shape *g,
                             int sc);

/* The whole GEMM kernel: max(compute, memory) with its launch floor (the
 * CPU kernel path: plus its call cost), out filled as for a node (bound, eta, flops, bytes).  bytes: its
 * operand traffic in bytes; below 0: batch (m k + k n + m n) x
 * elt_bytes (each operand read or written once). */
void jci_eff_gemm_time(const jci_eff_model *m, const jci_eff_device *dv, const jc_gemm_shape *g,
                      double bytes, double elt_bytes, int sc, jci_node_time *out);

/* ---- the runtime's kernels over a graph (fusion.c) -------------------- */

enum {
    JCI_PLAN_OWN = 0,    /* the node is one kernel, its counted work */
    JCI_PLAN_FUSED = 1,  /* its work runs inside another node's kernel */
    JCI_PLAN_GROUP = 2,  /* head of a fused elementwise/normalisation group */
    JCI_PLAN_ATTN = 3    /* second MatMul of an attention kernel (SDPA) */
};

/* Whether an inference engine (the engine kind: TensorRT, a compiled
 * program) runs node n inside its producer's kernel: an elementwise node
 * (ops.def's fusable column), data movement or softmax; a matrix node is
 * a kernel of its own.  The one rule of the engine's fusion (fusion.c's
 * engine plan, jci_eff_node_time without a plan).  Pure function. */
int jci_eff_engine_fuses(const jc_counted_node *n);

/* How a runtime turns the counted nodes into kernels (eager and compiled;
 * the engine profile fuses every vector and memory node, jci_eff_engine_fuses,
 * its plan holds the roles and the L2 candidates alone):
 *   eager PyTorch: one kernel per op, except the single-input
 *     elementwise/normalisation subgraphs the exporter decomposes a native
 *     op into (layer_norm, gelu, silu: one kernel each) and attention
 *     (MatMul, scale/mask, Softmax, MatMul: one SDPA kernel, PyTorch
 *     >= 2.0); side kernels: a convolution's bias add (or the batch norm
 *     the export folded into it) and, at 16 bits, cuDNN's NCHW <-> NHWC
 *     transforms around a tensor-core convolution; autocast's fp32 ops
 *     (normalisations, softmax) run at 4 bytes per element with a cast
 *     kernel in and out;
 *   compiled (torch.compile): pointwise, reduction and data-movement
 *     nodes fused into groups (one kernel reading the group's inputs and
 *     writing what leaves it), attention as one kernel, channels-last
 *     convolutions (no transforms), casts fused.
 * Arrays are indexed like an->nodes. */
typedef struct jci_eff_plan {
    size_t n;
    unsigned char *role;   /* JCI_PLAN_* */
    double *bytes;         /* GROUP/ATTN heads: the kernel's traffic, B at the run's precision */
    double *flops;         /* GROUP/ATTN heads: its non-matrix FLOPs */
    int *partner;          /* ATTN heads: the first MatMul's node; else -1 */
    double *side_bytes;    /* side kernels' traffic (B at the run's precision) */
    double *side_kernels;  /* their number */
    double *out_bytes;     /* bytes the kernel writes (B at the run's precision; backward) */
    double *in_bytes;      /* bytes it reads */
    double *norm_bytes;    /* GROUP heads of a normalisation: the traffic its
                              training step adds (a reduction other than
                              softmax: the parameter-gradient pass reads
                              dy and x again, 2 x its output; a batch norm
                              also its forward statistics pass, 3 x) */
    double *l2_bytes;      /* kernel heads: bytes of the activation inputs the
                              previous kernel wrote (L2 candidates) */
    double *l2_max;        /* the largest of those inputs, B */
    double *xform_bytes;   /* eager: the NCHW <-> NHWC transforms' share of
                              side_bytes (a training step's backward runs
                              them twice: dgrad and wgrad each) */
    double *bn_bytes;      /* eager: output bytes of a convolution with a bias
                              (the batch norm the export folded in: in
                              training it runs in training mode) */
} jci_eff_plan;

/* Builds the plan of m's runtime over an (eager or compiled; engine: the
 * roles of jci_eff_engine_fuses and the L2 candidates, no groups).
 * run_bytes: bytes per floating-point element at the run's precision (2
 * for fp16/bf16; the L2 candidates' sizes too); tensor_cores: 1 when the precision
 * runs matrix work on tensor cores (the NCHW transforms apply).  Arrays
 * live in arena a.  Errors: JC_ERR_NOMEM. */
jc_status jci_eff_plan_build(const jci_eff_model *m, const jc_analysis *an, double run_bytes,
                            int tensor_cores, jci_arena *a, jci_eff_plan *p);

/* One node's time.  sc: 0 the fast corner (high efficiencies, low
 * overheads), 1 central, 2 the slow corner.  byte_scale multiplies the
 * counted bytes (run precision narrower than the file's); plan (NULL:
 * every node its own kernel, engine fusion as the profile says) gives the
 * runtime's kernels; backward: 1 for the node's share of a training
 * step's backward pass (matrix: the input-gradient and weight-gradient
 * GEMMs of their own shapes; other kernels: read the output gradient and
 * the saved inputs, write the input gradient; a convolution's folded
 * batch norm in training mode adds its statistics pass and its backward,
 * 6 passes over the output; a normalisation group its parameter-gradient
 * reduction; the NCHW transforms run twice; every backward kernel's time
 * is divided by kernel_eta_backward).  dv->l2: a forward kernel's inputs
 * that the previous kernel wrote (plan l2_bytes) are not DRAM traffic
 * when the largest fits in it. */
void jci_eff_node_time(const jci_eff_model *m, const jci_eff_device *dv, const jc_analysis *an,
                      const jci_eff_plan *plan, size_t i, double byte_scale, int sc, int backward,
                      jci_node_time *out);

/* Time of `count` GEMMs of an M x N output and reduction K (2 M N K
 * FLOPs each) run as one grouped kernel on one device, by the same kernel
 * model as a counted MatMul node: count x jci_eff_gemm_compute_s of one
 * M x N x K GEMM (each GEMM its fill term, tile and wave quantisation,
 * alignment; narrow products on CUDA cores) with one launch floor;
 * scenario sc as jci_eff_node_time.  The training step
 * model (train_step.c) times each layer's GEMMs at their real shapes
 * with it.  0 when a size is not > 0. */
double jci_eff_gemm_s(const jci_eff_model *m, const jci_eff_device *dv, double M, double N, double K,
                      double count, int sc);

#endif
