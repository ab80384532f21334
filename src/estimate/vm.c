/*
 * vm.c (estimate) - a cloud VM on CPUs (vm.h, issue 42): the vCPUs' share of
 * the instance's CPU as the estimate's device, the VM's CPU and memory
 * power from specs, and Green Algorithms' figure for the same VM beside
 * joulecast's.  Nothing here prints.
 */
#include "estimate/vm.h"
#include "base/fmt.h"

#include <math.h>
#include <string.h>

/* v x f with its citation extended by the share; absent stays absent. */
static jc_sourced scaled(jci_builder *b, const jc_sourced *v, double f, const char *why)
{
    jc_sourced r = *v;
    if (!v->present) return r;
    r.value *= f;
    r.low *= f;
    r.high *= f;
    r.derived = jci_bld_str(b, "the package's %s x %s (%s)%s%s", FMT_N(v->value), FMT_N(f), why,
                            v->derived ? "; package: " : "", v->derived ? v->derived : "");
    return r;
}

/* The slice: the package's peaks, bandwidth, L3, power, cores and threads x share. */
static void make_slice(jci_builder *b, jci_vm *vm)
{
    const jc_device *c = vm->cpu;
    const char *why = jci_bld_str(b, "%s of its %d vCPUs", FMT_N(vm->vcpus), c->threads);
    vm->slice = *c;
    jc_device *s = &vm->slice;
    s->name = jci_bld_str(b, "%s, %s vCPUs", c->name, FMT_N(vm->vcpus));
    for (int i = 0; i < JC_PREC_COUNT; i++) s->peak_tflops[i] = scaled(b, &c->peak_tflops[i], vm->share, why);
    s->memory_bw_gbs = scaled(b, &c->memory_bw_gbs, vm->share, why);
    s->memory_bw_sustained_gbs = scaled(b, &c->memory_bw_sustained_gbs, vm->share, why);
    s->l3_mb = scaled(b, &c->l3_mb, vm->share, why);
    s->tdp_w = scaled(b, &c->tdp_w, vm->share, why);
    s->idle_w = scaled(b, &c->idle_w, vm->share, why);
    s->cores = (int)lround(vm->cores);
    s->threads = (int)lround(vm->vcpus);
}

/* The vCPUs' usage: --cpu-usage, else busy for the whole predicted runtime. */
static void usage_of(jci_builder *b, jci_vm *vm)
{
    const jc_job *j = b->job;
    vm->usage = given(j->cpu_usage) ? j->cpu_usage : 1;
    jci_bld_assume(b, "vm.usage", "the vCPUs' busy fraction of the runtime", R1(vm->usage), "",
                   given(j->cpu_usage) ? JC_ORIGIN_USER : JC_ORIGIN_DEFAULT,
                   given(j->cpu_usage) ? "--cpu-usage"
                                       : "1: the predicted runtime is the time the vCPUs are busy (passes back to back)");
    if (given(vm->baseline) && vm->usage > vm->baseline)
        jci_bld_warn(b, "%s is burstable: %s of each vCPU without CPU credits, below the usage %s assumed; a "
                     "sustained run needs credits (unlimited mode) or takes longer", vm->host->id,
                     FMT_N(vm->baseline), FMT_N(vm->usage));
}

jc_status jci_vm_resolve(jci_builder *b, const jc_host *host, const jc_device *cpu, double vcpus, int power,
                         jci_vm **out)
{
    jci_vm *vm = jci_arena_calloc(b->a, 1, sizeof *vm);
    if (!vm) return jci_bld_fail(b, JC_ERR_NOMEM, "out of memory");
    vm->host = host;
    vm->cpu = host ? host->cpu : cpu;
    vm->vcpus = host ? host->vcpus : vcpus;
    vm->mem_gb = vm->mem_w = vm->baseline = NAN;
    const jc_device *c = vm->cpu;
    const char *what = host ? host->id : "--vcpus";
    if (!c || c->kind != JC_DEVICE_CPU)
        return jci_bld_fail(b, JC_ERR_USAGE, "%s: a VM's vCPUs are a share of a CPU named by --device (%s is not a CPU)",
                            what, c ? c->id : "none");
    if (c->threads < 1 || c->cores < 1)
        return jci_bld_fail(b, JC_ERR_HWDB, "%s: CPU %s has no cores and threads in the database", what, c->id);
    if (!c->tdp_w.present)
        return jci_bld_fail(b, JC_ERR_HWDB, "%s: CPU %s has no power figure (tdp_w) in the database", what, c->id);
    int packages = host && host->n_cpu > 0 ? host->n_cpu : 1;
    if (vm->vcpus > (double)c->threads * packages)
        return jci_bld_fail(b, JC_ERR_USAGE, "%s: %s vCPUs exceed the %d hardware threads of %d x %s", what,
                            FMT_N(vm->vcpus), c->threads * packages, packages, c->id);
    vm->tpc = (double)c->threads / c->cores;
    vm->share = vm->vcpus / c->threads;
    vm->cores = vm->vcpus / vm->tpc;
    const char *src = host ? jci_bld_str(b, "%s:%d (%s: %d vCPUs of %s)", host->file, host->line, host->id,
                                         host->vcpus, c->id)
                           : "--vcpus";
    jci_bld_assume(b, "vm.vcpus", jci_bld_str(b, "vCPUs (hardware threads) of %s", c->name), R1(vm->vcpus), "vCPUs",
                   host ? JC_ORIGIN_HWDB : JC_ORIGIN_USER, src);
    jci_bld_assume(b, "vm.vcpu_share", "the vCPUs' share of one CPU package (vCPUs / its threads): its peaks, "
                   "memory bandwidth and power", R1(vm->share), "", JC_ORIGIN_DERIVED,
                   jci_bld_str(b, "%s / %d threads of %s (%s:%d); %s physical cores at %s threads per core",
                               FMT_N(vm->vcpus), c->threads, c->id, c->file, c->line, FMT_N(vm->cores), FMT_N(vm->tpc)));
    if (host && host->baseline.present) {
        vm->baseline = host->baseline.value;
        jci_bld_assume(b, "vm.baseline_share", "burstable: each vCPU's baseline without CPU credits",
                       R1(vm->baseline), "", JC_ORIGIN_HWDB, jci_bld_cite(b, &host->baseline));
    }
    make_slice(b, vm);
    if (host && host->memory_gb.present) vm->mem_gb = host->memory_gb.value;
    if (!power) {
        vm->usage = vm->cpu_w = vm->idle_w = NAN;
        *out = vm;
        return JC_OK;
    }
    usage_of(b, vm);
    double idle = c->idle_w.present ? c->idle_w.value : 0;
    vm->idle_w = vm->share * idle;
    vm->cpu_w = vm->share * (idle + (c->tdp_w.value - idle) * vm->usage);
    jci_bld_assume(b, "vm.cpu_power_w", "the vCPUs' power: share x (idle + (TDP - idle) x usage)", R1(vm->cpu_w), "W",
                   JC_ORIGIN_DERIVED,
                   jci_bld_str(b, "%s x (%s + (%s - %s) x %s); %s; idle %s", FMT_N(vm->share), FMT_N(idle),
                               FMT_N(c->tdp_w.value), FMT_N(idle), FMT_N(vm->usage), jci_bld_cite(b, &c->tdp_w),
                               c->idle_w.present ? jci_bld_cite(b, &c->idle_w) : "not in the database: 0, as Green Algorithms"));
    if (host && host->memory_gb.present) {
        vm->mem_w = host->host_power_w.value;
        jci_bld_assume(b, "vm.memory_w", jci_bld_str(b, "memory power, %s GB", FMT_N(vm->mem_gb)), R1(vm->mem_w), "W",
                       JC_ORIGIN_HWDB, jci_bld_cite(b, &host->host_power_w));
    }
    *out = vm;
    return JC_OK;
}

void jci_vm_compare(jci_builder *b, const jci_vm *vm, jc_estimate *e)
{
    const jc_device *c = vm->cpu;
    double per_core = c->tdp_w.value / c->cores;
    double mem_w = given(vm->mem_w) ? vm->mem_w : 0;
    double ga_w = vm->cores * per_core * vm->usage + mem_w;
    double ga_kwh = e->wall_hours.central * ga_w * e->pue.central / 1000;
    e->vm_cpu = c->name;
    e->vm_vcpus = vm->vcpus;
    e->vm_share = vm->share;
    e->vm_cpu_w = vm->cpu_w;
    e->vm_memory_w = vm->mem_w;
    e->vm_ga_facility_kwh = ga_kwh;
    jci_bld_assume(b, "vm.ga_facility_kwh",
                   jci_bld_str(b, "Green Algorithms for the same VM: %s h x (%s cores x %s W per core x usage %s + "
                               "%s W memory) x PUE %s", FMT_N(e->wall_hours.central), FMT_N(vm->cores),
                               FMT_N(per_core), FMT_N(vm->usage), FMT_N(mem_w), FMT_N(e->pue.central)),
                   R1(ga_kwh), "kWh", JC_ORIGIN_DERIVED,
                   jci_bld_str(b, "joulecast ga --runtime %sh --cores %s --tdp-per-core %s --cpu-usage %s --memory %s "
                               "--pue %s (%s's TDP / %d cores; joulecast's own figure: %s kWh)",
                               FMT_N(e->wall_hours.central), FMT_N(vm->cores), FMT_N(per_core), FMT_N(vm->usage),
                               given(vm->mem_gb) ? FMT_N(vm->mem_gb) : "0", FMT_N(e->pue.central), c->id, c->cores,
                               FMT_N(e->energy_facility_kwh.central)));
}
