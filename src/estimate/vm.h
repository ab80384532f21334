/*
 * vm.h (estimate) - a cloud VM on CPUs (issue 42): the vCPUs' share of a
 * named CPU package as the estimate's device, and the VM's power from
 * specs, the way a user without power counters needs it.  Internal to
 * libjoulecast; used by the estimate's hardware stage and its reports.
 *
 * A vCPU is a hardware thread: a VM of V vCPUs on a CPU of T threads and
 * C cores (S = V / T packages' worth; V / (T / C) physical cores) gets S
 * of the package's peaks and memory bandwidth, and draws
 *     P_cpu = S x (idle + (TDP - idle) x u),   P_mem = GB x W/GB
 * at vCPU usage u (--cpu-usage, else 1: the predicted runtime is the time
 * its vCPUs are busy).  P_mem is the instance's host term (hwdb/hosts.yaml:
 * memory at Green Algorithms' 0.3725 W/GB).  At u = 1 this is Green
 * Algorithms' formula for the same VM (physical cores x TDP per core x
 * usage + memory x 0.3725 W/GB), which jci_vm_compare shows beside it;
 * below 1 joulecast keeps the idle floor GA leaves out.  No share of the
 * rest of the server (fans, NICs, storage, power supply) is added: neither
 * Green Algorithms nor Cloud Carbon Footprint adds one beside the PUE.
 */
#ifndef JCI_VM_H
#define JCI_VM_H

#include "base/jc_internal.h"
#include "estimate/builder.h"
#include "joulecast/hwdb.h"
#include "joulecast/estimate.h"

typedef struct jci_vm {
    const jc_device *cpu;     /* the named CPU package */
    const jc_host *host;      /* the instance, or NULL (--device CPU --vcpus N) */
    jc_device slice;          /* the vCPUs' share of cpu: the estimate's device */
    double vcpus, share;      /* vCPUs; their share of one package (V / threads) */
    double cores, tpc;        /* physical cores (V / tpc); threads per core */
    double usage;             /* the vCPUs' busy fraction */
    double cpu_w, idle_w;     /* the share's power at that usage, and at idle (W) */
    double mem_gb, mem_w;     /* the instance's memory and its power; NAN without a host */
    double baseline;          /* a burstable instance's baseline share; NAN otherwise */
} jci_vm;

/* The VM of `host` (a CPU-only cloud instance; cpu and vcpus ignored) or
 * of `vcpus` vCPUs of CPU device `cpu` (--vcpus), each number recorded in
 * b as an assumption (vm.*).  With power 0 (a caller that models the
 * slice's power itself, as serving does) the usage, the vCPUs' power and
 * the memory power are neither computed nor listed: only the slice.
 * *out is allocated in b's arena.  Errors
 * (JC_ERR_USAGE, JC_ERR_HWDB) name the instance or the option: vCPUs
 * beyond the instance's packages, a CPU without threads or a power figure,
 * --cpu-usage outside 0..1. */
jc_status jci_vm_resolve(jci_builder *b, const jc_host *host, const jc_device *cpu, double vcpus, int power,
                         jci_vm **out);

/* The Green Algorithms figure of the same VM beside e's facility energy
 * (assumptions vm.ga_*; e->vm_* filled): physical cores x TDP per core x
 * usage + memory x 0.3725 W/GB, at e's central wall time and PUE. */
void jci_vm_compare(jci_builder *b, const jci_vm *vm, jc_estimate *e);

#endif
