/*
 * site.h (estimate) - where a run draws its energy (site.c): the devices and hosts
 * counted from the job's --device / --host / --count / --hosts, the host
 * power (a named host, --host-power, a cloud region's instance or the
 * device's system class), the host CPUs' usage, and the place (region,
 * carbon intensity with its spread, PUE).  The graph estimate (energy.c)
 * and the serving model (serving.c) resolve the same site from the
 * user's options and hand its figures to the account (account.h).
 */
#ifndef JCI_SITE_H
#define JCI_SITE_H

#include "base/jc_internal.h"
#include "estimate/builder.h"
#include "joulecast/hwdb.h"
#include "joulecast/estimate.h"

typedef struct jci_site {
    const jc_device *dev;     /* the devices' record */
    const jc_host *host;      /* the named host, or the cloud instance chosen; NULL */
    double G, K;              /* devices; hosts (0: no host named) */
    double avg_power;         /* W per device given as such (--avg-power): no host
                                 term is added unless named; NAN: modelled */
    double m_host, m_wall;    /* J measured for the host / the wall; NAN: not measured */
    int host_fixed;           /* the host power is a given figure (--host-power, or a
                                 model's own): the CPUs' usage does not scale it */
    int host_on;              /* a host term is added */
    jc_range host_w;          /* W, all hosts */
    double host_factor;       /* scale of the host power at the CPUs' usage; 1 without */
    const jc_region *region;  /* NULL with --ci and no --region */
    jc_range ci, pue;         /* gCO2e/kWh; facility / IT */
} jci_site;

/* The devices (x->G) and hosts (x->K) of x->dev in x->host (NULL: none
 * named), each an assumption with its origin.  count: the devices the
 * job gives (NAN: none; traced_n devices read from the trace named traced
 * stand for it, else one host's slots or one device).  A host that names
 * its accelerator, or names none but holds n_accel slots, holds n_accel
 * per host; a count beyond one host's slots without --hosts takes the
 * hosts it needs (rounded up); beyond the --hosts given it is refused.
 * Errors: JC_ERR_USAGE with the diagnostic. */
jc_status jci_site_count(jci_builder *b, jci_site *x, double count, const char *traced, double traced_n);

/* The host power (x->host_on, x->host_w) and e's host fields: --host-power
 * per host, a named host's figure x hosts, none beside a given average
 * power or the tdp method, a cloud region's instance, else the device's
 * system class (a share of its usual server).  Errors: JC_ERR_USAGE,
 * JC_ERR_HWDB (a host or class figure missing). */
jc_status jci_site_host(jci_builder *b, jci_site *x, jc_estimate *e);

/* The host power's scale at the host CPUs' usage (x->host_factor; after
 * jci_site_host): --cpu-usage, else for an inference job with a database
 * host figure the constant host_cpu_usage_inference; a training job, a
 * given host power and a measured host keep the busy figure.  Errors:
 * JC_ERR_USAGE (--cpu-usage without a host term, or beside a measured
 * host), JC_ERR_HWDB. */
jc_status jci_site_cpu_usage(jci_builder *b, jci_site *x);

/* The region (x->region), carbon intensity with its spread over datasets
 * (x->ci), a market-based factor and the PUE (x->pue), each an
 * assumption, and e's place fields.  Errors: JC_ERR_USAGE (--ci, --pue
 * out of range), JC_ERR_NOTFOUND (a region or a dataset value missing),
 * JC_ERR_HWDB. */
jc_status jci_site_place(jci_builder *b, jci_site *x, jc_estimate *e);

/* Embodied emissions (--embodied): the lifetime (--lifetime, else the
 * constant default_lifetime_years) and the device's embodied figure, each
 * an assumption, and G devices' share of it over each scenario's wall
 * time T (account.h, jci_account_embodied) into e.  A device without the
 * figure gets a warning and no embodied line.  Errors: JC_ERR_USAGE
 * (--lifetime <= 0), JC_ERR_HWDB. */
jc_status jci_site_embodied(jci_builder *b, const jc_device *dev, double G, const double T[3], jc_estimate *e);

#endif /* JCI_SITE_H */
