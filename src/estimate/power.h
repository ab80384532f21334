/*
 * power.h (estimate) - device power from what the device does, and host power by
 * system class (issue #17 item 3, #18 items 4 and 12).  Internal to
 * libjoulecast; used by the energy stage and by LLM serving (#15).
 *
 * Device power (W per device):
 *   busy     P = idle + (TDP - idle) * (1 - exp(-(k_c * u_c + k_m * u_m)))
 *                + e_mem * u_m * BW
 *            u_c = achieved FLOP/s / dense peak at the run's precision,
 *            u_m = achieved bytes/s / peak memory bandwidth BW,
 *            e_mem = the DRAM access energy per byte of the device's
 *            memory type (HBM, GDDR6, ...; hwdb constants mem_pj_per_bit_*),
 *            so GDDR and HBM parts draw differently per byte moved;
 *            (TDP is the larger of the TDP and a power limit set above it:
 *            a part configured for more power boosts further);
 *   capped   a busy P above the power limit L (the device's power_limit_w,
 *            or --power-limit) is L;
 *   clocks   the clocks fall until the die's draw at its boost clock meets
 *            L: P_b = idle + (B - idle) * activity + e_mem * u_m * BW, where
 *            B is the power the die draws holding its boost clock at full
 *            activity (the device's boost_power_w: the highest TDP its vendor
 *            rates the same die for, so the same die on a 250 W card and on
 *            a 400 W module draws the same at the same clock; absent: its
 *            TDP); dynamic power ~ f^3 (voltage follows frequency), so
 *            compute-bound kernels run f_cap / f_boost = ((L - idle) /
 *            (P_b - idle))^(1/3) as fast, at power L (jci_power_cap_clock);
 *            1 when L >= B (the design point);
 *   launch   P = idle + (TDP - idle) * a_launch   (waiting on kernel
 *            launches: near idle, #18 item 12);
 *   idle     P = idle   (a device that waits for the others).
 * k_c, k_m and a_launch are hwdb constants per device kind (GPU, TPU),
 * fitted to measured power (tools/fit_power.py names the rows).
 *
 * Host power by system class: a CPU device is its own host (no share);
 * an accelerator without --host gets the host of its usual system:
 * a consumer card a desktop workstation, a datacenter part a server
 * sized by the device count (1-2, 4, 8 devices), a TPU its share of the
 * pod's hosts.  Each class is a sourced hwdb constant.
 */
#ifndef JCI_POWER_H
#define JCI_POWER_H

#include "base/jc_internal.h"
#include "estimate/builder.h"
/* by pointer only (their public headers define them; a file that reads
 * their fields includes that header itself) */
typedef struct jc_constant jc_constant;
typedef struct jc_device jc_device;
typedef struct jc_hwdb jc_hwdb;

typedef enum jci_power_phase {
    JCI_POWER_BUSY = 0,    /* kernels running */
    JCI_POWER_LAUNCH = 1,  /* launch-bound: the device waits on the host */
    JCI_POWER_IDLE = 2     /* the device waits (other devices work) */
} jci_power_phase;

enum { JCI_PW_K_COMPUTE = 0, JCI_PW_K_MEMORY, JCI_PW_A_LAUNCH, JCI_PW_N };

typedef struct jci_power_model {
    jc_range idle_w, tdp_w;            /* device idle and TDP, W */
    jc_range k[JCI_PW_N];               /* k_compute, k_memory, a_launch */
    const jc_constant *src[JCI_PW_N];   /* their hwdb constants */
    const char *id[JCI_PW_N];
    double mem_w;                      /* e_mem x BW: DRAM power at full bandwidth, W (0: none) */
    double limit_w;                    /* power limit L, W (0: none) */
    double boost_w;                    /* B: the die's power holding its boost clock at full
                                          activity, W (0: the TDP) */
} jci_power_model;

/* Fills the coefficients of pm for device dev (GPU/SoC/accelerator
 * constants `power_*_gpu`, TPU constants `power_*_tpu`); the caller sets
 * pm->idle_w and pm->tdp_w (from the device entry, with their sources)
 * and, where it has them, pm->mem_w, pm->limit_w and pm->boost_w (left 0:
 * no memory term, no limit, the die holds its boost clock at its TDP).  Errors (JC_ERR_HWDB) name a missing constant.  pm
 * points into db. */
jc_status jci_power_model_resolve(const jc_hwdb *db, const jc_device *dev,
                                 jci_power_model *pm, jc_diag *d);

/* The one set-up of a device's power model for every path (the estimate's
 * roofline method and LLM serving): the coefficients (jci_power_model_resolve,
 * each recorded in b as an assumption; a_launch only when record_launch),
 * idle and TDP as given, the DRAM power of the device's memory type at
 * bandwidth bw B/s (assumption power.memory_w) and the power limit
 * (power.limit_w): user_limit W when given (not NAN; it must lie in the
 * device's power_limit_w range, else between idle and TDP), else the
 * device's power_limit_w, else its TDP.  Errors (through b): a missing
 * constant, a limit outside the range.  The die's power at its boost
 * clock (pm->boost_w, assumption power.boost_w) is the device's
 * boost_power_w; without one it is its TDP, a fallback recorded (as
 * power.boost_w) only when a power limit below the TDP is in play. */
jc_status jci_power_setup(jci_builder *b, const jc_hwdb *db, const jc_device *dev, double bw, jc_range idle,
                          jc_range tdp, double user_limit, int record_launch, jci_power_model *pm);

/* The power limit busy power is capped at, into *limit_w and recorded in
 * b (assumption power.limit_w): user_limit W when given (not NAN; it must
 * lie in the device's power_limit_w range, else above idle and at most
 * tdp), else the device's power_limit_w, else tdp (when above 0; else
 * *limit_w is left as it was).  Errors (JC_ERR_USAGE through b): a
 * limit outside the range.  jci_power_setup sets its limit by it; the
 * tdp method, which has no power model, checks --power-limit by it. */
jc_status jci_power_limit(jci_builder *b, const jc_device *dev, double idle, double tdp, double user_limit,
                          double *limit_w);

/* The hwdb constant of the DRAM access energy per bit (pJ/bit) of dev's
 * memory type (mem_pj_per_bit_hbm, _gddr5, _gddr6; power.c's table), or
 * NULL: no type, a type without a figure (LPDDR, DDR, unified), or the
 * constant missing from db. */
const jc_constant *jci_power_mem_constant(const jc_hwdb *db, const jc_device *dev);

/* Power of one device, W, at most pm->limit_w when that is set.  sc: 0
 * the low corner (low coefficients, low idle), 1 central, 2 the high
 * corner.  Utilisations are clamped to [0, 1]. */
double jci_power_device_w(const jci_power_model *pm, double u_compute, double u_memory,
                         jci_power_phase phase, int sc);

/* The clock ratio f_cap / f_boost (in (0, 1]) of a busy device at
 * utilisations (u_c, u_m) under the limit L = pm->limit_w (its default,
 * MaxQ, nvidia-smi -pl): with the die's draw at its boost clock
 * P_b = idle + (B - idle) * activity + mem_w * u_m (B = pm->boost_w, or
 * the TDP when 0), ((L - idle) / (P_b - idle))^(1/3) when P_b > L; 1 when
 * it is not, when no limit is set, or when L >= B (the die holds its boost
 * clock there: without boost_w, a limit at or above the TDP is the design
 * point, as before B).  A compute-bound kernel takes 1 / ratio as long and
 * draws L meanwhile. */
double jci_power_cap_clock(const jci_power_model *pm, double u_compute, double u_memory, int sc);

/* Names the clocks the power limit leaves in b (assumption
 * power.cap_clock): r, the compute-bound kernels' time-weighted clock
 * ratio (< 1; the caller records it only then), in MHz of dev's boost
 * clock where it has one, else as a fraction of it.  Every path that
 * takes jci_power_cap_clock (the estimate, LLM serving) names it here. */
void jci_power_record_cap_clock(jci_builder *b, const jc_device *dev, const jci_power_model *pm, double r);

/* Busy power without the limit (the cap's input), W. */
double jci_power_uncapped_w(const jci_power_model *pm, double u_compute, double u_memory, int sc);

/* Dynamic activity (P - idle) / (TDP - idle) at (u_c, u_m), central. */
double jci_power_activity(const jci_power_model *pm, double u_compute, double u_memory, int sc);

/* ---- host by system class ---------------------------------------------- */

typedef enum jci_host_class {
    JCI_HOSTCLASS_NONE = 0,        /* CPU device: its own host */
    JCI_HOSTCLASS_WORKSTATION,     /* desktop workstation, 1-2 consumer cards */
    JCI_HOSTCLASS_SERVER2,         /* 1-2 accelerator server */
    JCI_HOSTCLASS_SERVER4,         /* 4-accelerator server */
    JCI_HOSTCLASS_SERVER8,         /* 8-accelerator HGX-class server */
    JCI_HOSTCLASS_TPU,             /* TPU pod host share per chip */
    JCI_HOSTCLASS_EMBEDDED,        /* SoC module on its carrier board */
    JCI_HOSTCLASS_COUNT
} jci_host_class;

/* "none", "desktop-workstation", "server-2", "server-4", "server-8",
 * "tpu-host", "embedded-module": static strings. */
const char *jci_host_class_name(jci_host_class c);
/* A class name as above (case-insensitive); JCI_HOSTCLASS_COUNT when
 * unknown. */
jci_host_class jci_host_class_parse(const char *s);

/* The default class for `devices` x dev: CPU none, consumer form factor
 * workstation, TPU tpu-host, SoC module embedded-module, else a server
 * sized by the count. */
jci_host_class jci_host_class_default(const jc_device *dev, double devices);

/* Devices one host of class c holds (workstation 2, server-2 2, server-4 4,
 * server-8 8, tpu-host 1: its constant is per chip). */
double jci_host_class_devices(jci_host_class c);

/* Hosts of class c that `devices` devices need: ceil(devices / per host)
 * (tpu-host: one share per chip). */
double jci_host_class_hosts(jci_host_class c, double devices);

/* The class's host power per host while the job runs (constant
 * host_class_<name>_w, per chip for tpu-host) and while it idles
 * (host_class_<name>_idle_w).  *busy / *idle point into db.  Errors:
 * JC_ERR_USAGE for the class none, JC_ERR_HWDB for a missing constant
 * (named). */
jc_status jci_host_class_resolve(const jc_hwdb *db, jci_host_class c, const jc_constant **busy,
                                const jc_constant **idle, jc_diag *d);

#endif
