/*
 * efficiency.h - size-aware achieved efficiency per node and the runtime
 * profiles (issue #17 items 1-2): how long one counted node takes on one
 * device under `--runtime eager|compiled|engine`, and whether it costs a
 * kernel at all.  Internal to libjoulecast (src/estimate/); the
 * constants live in hwdb/energy-model.yaml (`runtime_*`, `eff_*`), each
 * with its source.
 *
 * Per node (docs/energy-model.md section 2):
 *   matrix   t_c = (F + P*eta*fill_s) / (P * eta * q * align)
 *            P the dense peak at the run's precision, eta the profile's
 *            achievable fraction, q the tile quantisation of the output
 *            (M x N padded to whole tiles), align < 1 when K or N is not
 *            a multiple of the tensor-core granule, fill_s the work (as
 *            time at peak) a kernel needs before it fills the device;
 *            with the device's SM count S and T = ceil(M/tile_m) x
 *            ceil(N/tile_n) output tiles, q also carries the wave
 *            quantisation T / (ceil(T/S) x S) when T >= S (a kernel of
 *            fewer tiles than SMs runs one partial wave: fill_s covers it);
 *   vector   t_c = F / (P_vector * eta_vector);
 *   memory   t_m = (B + BW*lat_s) / (BW * eta_bw): the achieved bandwidth
 *            grows with the transfer size (half of eta_bw at BW*lat_s);
 *   t = max(t_c, t_m, launch_s * kernels)   (GPUs: launch floor)
 * A node the profile fuses (elementwise work under `compiled`, every
 * vector and memory node under `engine`) costs no kernel and no time:
 * its work is done in the epilogue of the producing kernel.
 */
#ifndef JC_EFFICIENCY_H
#define JC_EFFICIENCY_H

#include "base/jc_internal.h"

typedef enum jc_runtime {
    JC_RUNTIME_EAGER = 0,     /* op by op (PyTorch, HF transformers) */
    JC_RUNTIME_COMPILED = 1,  /* graph compilers (torch.compile, XLA) */
    JC_RUNTIME_ENGINE = 2,    /* inference engines (TensorRT, vLLM-class) */
    JC_RUNTIME_COUNT
} jc_runtime;

/* "eager", "compiled", "engine"; NULL for an unknown value. */
const char *jci_runtime_name(jc_runtime r);
/* Parses a runtime name (case-insensitive); JC_RUNTIME_COUNT when unknown. */
jc_runtime jci_runtime_parse(const char *s);

/* Ids of the profile's constants (index with JC_EFF_*). */
enum {
    JC_EFF_ETA_MATRIX = 0,   /* runtime_<r>_eta_matrix */
    JC_EFF_ETA_VECTOR,       /* runtime_<r>_eta_vector */
    JC_EFF_ETA_BW,           /* runtime_<r>_eta_bw */
    JC_EFF_LAUNCH_S,         /* runtime_<r>_launch_s */
    JC_EFF_FILL_S,           /* eff_fill_s */
    JC_EFF_LAT_S,            /* eff_memory_latency_s */
    JC_EFF_TILE_M,           /* eff_tile_m */
    JC_EFF_TILE_N,           /* eff_tile_n */
    JC_EFF_UNALIGNED,        /* eff_unaligned_factor */
    JC_EFF_N
};

/* A resolved runtime profile: every constant as a range, and the hwdb
 * constant it came from (for the assumptions table). */
typedef struct jc_eff_model {
    jc_runtime runtime;
    jc_range v[JC_EFF_N];
    const jc_constant *src[JC_EFF_N];
    const char *id[JC_EFF_N];           /* the constant ids (static or arena) */
    int fuse_elementwise;               /* compiled, engine */
    int fuse_vector_memory;             /* engine */
} jc_eff_model;

/* Fills m from the database constants of runtime r.  Errors
 * (JC_ERR_HWDB) name the missing constant id.  m holds pointers into db:
 * valid while db is.  The id strings of the per-runtime constants are
 * static. */
jc_status jci_eff_resolve(const jc_hwdb *db, jc_runtime r, jc_eff_model *m,
                         jc_diag *d);

/* The device figures one node's time needs. */
typedef struct jc_eff_device {
    double peak;       /* FLOP/s, dense, the run's precision (matrix nodes) */
    double vpeak;      /* FLOP/s, vector units */
    double bw;         /* B/s; 0 when unknown (no memory term) */
    int gpu;           /* 1: launch floor applies */
    int granule;       /* tensor-core dim granule (8 for 16-bit, 16 for 8-bit); 0: none */
    double sms;        /* streaming multiprocessors (wave quantisation); 0: unknown */
} jc_eff_device;

typedef enum jc_node_bound {
    JC_BOUND_COMPUTE = 0, JC_BOUND_MEMORY = 1, JC_BOUND_LAUNCH = 2,
    JC_BOUND_FUSED = 3, JC_BOUND_NONE = 4
} jc_node_bound;

/* The time of one node (all its repeats) on one device. */
typedef struct jc_node_time {
    double t;          /* s */
    double flops, bytes;  /* its work (bytes at the run's precision) */
    jc_node_bound bound;
    double eta;        /* achieved fraction of the relevant peak (compute
                          nodes: F / (t * P); memory: B / (t * BW)) */
} jc_node_time;

/* Sequential kernels of a node: time steps for LSTM/GRU/RNN, else 1. */
double jci_eff_kernels(const jc_analysis *an, const jc_counted_node *n);

/* One node's time.  sc: 0 the fast corner (high efficiencies, low
 * overheads), 1 central, 2 the slow corner.  byte_scale multiplies the
 * counted bytes (run precision narrower than the file's). */
void jci_eff_node_time(const jc_eff_model *m, const jc_eff_device *dv,
                      const jc_analysis *an, const jc_counted_node *n,
                      double byte_scale, int sc, jc_node_time *out);

/* Time of `count` GEMMs of an M x N output and reduction K (2 M N K
 * FLOPs each) run as one grouped kernel on one device, by the same kernel
 * model as a counted MatMul node (each GEMM its fill term, tile and wave
 * quantisation and alignment; one launch floor), scenario sc as
 * jci_eff_node_time.  The training step
 * model (train_step.c) times each layer's GEMMs at their real shapes
 * with it.  0 when a size is not > 0. */
double jci_eff_gemm_s(const jc_eff_model *m, const jc_eff_device *dv, double M, double N, double K,
                      double count, int sc);

#endif
