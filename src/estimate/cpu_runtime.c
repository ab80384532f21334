/*
 * cpu_runtime.c (estimate) - a CPU runtime profile's threads, matrix unit
 * and calibration (cpu_runtime.h, issue 42 item 5): the cores its intra-op
 * threads use and the unit its int8 / bf16 kernels reach scale the
 * device's peaks before the kernels are timed.  Nothing here prints.
 */
#include "estimate/cpu_runtime.h"

#include <string.h>

static const struct { int set, engine, calibrated; } RT_CPUS[JCI_RUNTIME_COUNT] = {
#define RT_CPU(e, engine, calibrated) [JCI_RUNTIME_##e] = {1, engine, calibrated},
#include "estimate/runtimes.def"
};

int jci_cpu_runtime_engine(jci_runtime r, int *calibrated)
{
    int set = r >= 0 && r < JCI_RUNTIME_COUNT && RT_CPUS[r].set;
    if (calibrated) *calibrated = set ? RT_CPUS[r].calibrated : 1;
    return set ? RT_CPUS[r].engine : 0;
}

const char *jci_cpu_matrix_unit(jci_builder *b, const jc_device *dev, int bits, int engine, double *peak)
{
    const jc_sourced *f32 = &dev->peak_tflops[JC_PREC_FP32];
    if (bits >= 32 || !f32->present || !(f32->value > 0))
        return "the vector FMA units (AVX2 / AVX-512 / NEON / SVE): the fp32 peak";
    double vec = f32->value * 1e12 * 32.0 / bits;   /* VNNI / AVX512_BF16 / NEON-SVE dot products */
    if (!(*peak > vec * 1.001))
        return jci_bld_str(b, "the vector units' dot products (VNNI / AVX512_BF16 / NEON-SVE dot): %s x the "
                           "fp32 peak at %d bits", FMT_N(*peak / (f32->value * 1e12)), bits);
    if (engine)
        return jci_bld_str(b, "the CPU's matrix engine (AMX / SME): %s x the fp32 peak at %d bits",
                           FMT_N(*peak / (f32->value * 1e12)), bits);
    *peak = vec;
    return jci_bld_str(b, "the vector units' dot products (VNNI / AVX512_BF16 / NEON-SVE dot), not the CPU's "
                       "matrix engine, which this runtime's kernels do not use: %d / %d = %s x the fp32 peak",
                       32, bits, FMT_N(32.0 / bits));
}

jc_status jci_cpu_runtime_apply(est *s)
{
    const jc_job *j = s->b.job;
    s->e->cpu_cores_used = NAN;
    if (s->dev->kind != JC_DEVICE_CPU) {
        if (given(j->threads))
            return jci_bld_fail(&s->b, JC_ERR_USAGE, "--threads sets a CPU runtime's intra-op threads; %s is not a "
                                "CPU", s->dev->id);
        return JC_OK;
    }
    if (!s->eff_on || !s->eff.cpu_path) {
        if (given(j->threads))
            jci_bld_warn(&s->b, "--threads %s has no effect: the runtime is not timed kernel by kernel here",
                         FMT_N(j->threads));
        return JC_OK;
    }
    if (s->dev->cores < 1)
        return jci_bld_fail(&s->b, JC_ERR_HWDB, "CPU %s has no core count in the database (--threads and the "
                            "CPU runtimes need one)", s->dev->id);
    jci_runtime r = s->eff.runtime;
    int cal, engine = jci_cpu_runtime_engine(r, &cal);
    if (!cal)
        jci_bld_warn(&s->b, "--runtime %s is uncalibrated: no measured rows fit its constants (%s, %s), which are "
                     "a named prior; its time is the kernel model's, not a fitted one", jci_runtime_name(r),
                     s->eff.id[JCI_EFF_ETA_MATRIX], s->eff.id[JCI_EFF_LAUNCH_S]);
    double cores = s->dev->cores, used = cores;
    if (given(j->threads)) {
        used = j->threads < cores ? j->threads : cores;
        if (j->threads > cores)
            jci_bld_warn(&s->b, "--threads %s exceeds the %s physical cores of %s: a hyperthread shares its core's "
                         "FMA and matrix units, so the time is that of %s cores", FMT_N(j->threads), FMT_N(cores),
                         s->dev->name, FMT_N(cores));
    }
    jci_bld_assume(&s->b, "cpu.cores_used", jci_bld_str(&s->b, "physical cores the runtime's intra-op threads use "
                   "(of %s): the peaks scale by cores used / cores, the memory bandwidth does not", FMT_N(cores)),
                   R1(used), "cores", given(j->threads) ? JC_ORIGIN_USER : JC_ORIGIN_DEFAULT,
                   given(j->threads) ? "--threads (min of it and the cores)"
                                     : "every physical core: the runtimes' default intra-op pool (one thread per "
                                       "physical core); give --threads N");
    double peak = s->peak;
    const char *unit = jci_cpu_matrix_unit(&s->b, s->dev, (int)jci_est_prec_bits(s->prec), engine, &peak);
    jci_bld_assume(&s->b, "cpu.matrix_unit", jci_bld_str(&s->b, "the unit %s's matrix kernels run on: %s",
                   jci_runtime_name(r), unit), R1(peak / 1e12), "TFLOP/s", JC_ORIGIN_DERIVED,
                   jci_bld_str(&s->b, "runtimes.def RT_CPU(%s): %s", jci_runtime_name(r),
                               engine ? "runs the matrix engine where the CPU has one" : "no matrix engine"));
    /* an input the previous kernel wrote and no larger than the L3 (a
     * VM's slice: its share) is read from it, not from DRAM: the GPU
     * path's L2 rule on the CPU's last-level cache */
    if (s->an && s->dev->l3_mb.present)
        s->l2 = jci_bld_assume(&s->b, "device.l3_mb", "L3 cache (an input the previous kernel wrote and no larger "
                               "than this is read from it, not from DRAM)", R1(s->dev->l3_mb.value), "MB",
                               JC_ORIGIN_HWDB, jci_bld_cite(&s->b, &s->dev->l3_mb)).central * 1048576.0;
    double f = used / cores;
    s->peak = peak * f;
    s->vpeak *= f;
    s->e->cpu_cores_used = used;
    s->e->cpu_matrix_unit = unit;
    return JC_OK;
}
