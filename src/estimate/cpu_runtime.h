/*
 * cpu_runtime.h (estimate) - what a CPU runtime profile does on the cores
 * (issue 42 item 5): the threads it runs (cores used), the matrix unit its
 * kernels reach at the run's precision, and whether its constants are
 * calibrated.  Internal to libjoulecast; called by the estimate once the
 * device's numbers and the runtime profile are resolved.
 *
 * Threads: --threads N uses min(N, cores) physical cores of the device (a
 * VM's slice: its vCPUs' cores); a hyperthread shares its core's FMA and
 * matrix units, so threads beyond the cores add nothing.  Without
 * --threads, every physical core: the runtimes' default intra-op pool
 * (ONNX Runtime, PyTorch, oneDNN, OpenVINO: one thread per physical core).
 * The matrix and vector peaks scale by cores used / cores; the memory
 * bandwidth does not (a thread subset still draws on every channel).
 *
 * Matrix unit: a device peak at `bits` <= 16 above 32 / bits x its fp32
 * peak is a matrix engine's (AMX, SME; the vector units' dot products
 * reach 32 / bits x: VNNI 4x at int8, AVX512_BF16 2x at bf16); a profile
 * whose kernels do not run on the engine (runtimes.def RT_CPU) runs at the
 * vector rate.
 *
 * L3: an input the previous kernel wrote and no larger than the device's
 * l3_mb (a VM's slice: its vCPUs' share) is read from the L3, not DRAM
 * (the rule the GPU path applies to its L2).
 */
#ifndef JCI_CPU_RUNTIME_H
#define JCI_CPU_RUNTIME_H

#include "estimate/estimate_int.h"

/* Applies the profile's threads and matrix unit to s->peak and s->vpeak
 * (a CPU device on a profile with a CPU kernel path; otherwise JC_OK and
 * nothing changes), recording cpu.* assumptions and filling
 * s->e->cpu_cores_used and s->e->cpu_matrix_unit; warns for an
 * uncalibrated profile.  Errors: JC_ERR_USAGE for --threads on a device
 * that is not a CPU; JC_ERR_HWDB for a CPU without cores. */
jc_status jci_cpu_runtime_apply(est *s);
/* The matrix unit rule above for CPU `dev` at `bits` (32, 16, 8): returns
 * what the kernels run on (a string in b's arena) and lowers *peak (the
 * device's peak at that precision, FLOP/s) to the vector units' rate where
 * the peak is a matrix engine's and `engine` is 0.  Used by the graph
 * estimate and by LLM generation on a CPU (serving.c). */
const char *jci_cpu_matrix_unit(jci_builder *b, const jc_device *dev, int bits, int engine, double *peak);
/* 1 when runtime profile r's kernels run the CPU's matrix engine
 * (runtimes.def RT_CPU); *calibrated (may be NULL) set to 0 for a profile
 * marked uncalibrated, else 1.  A profile without an RT_CPU row: 0, 1. */
int jci_cpu_runtime_engine(jci_runtime r, int *calibrated);

#endif
