/*
 * account.h (estimate) - the energy account (account.c): from plain values per
 * scenario (wall time, the devices' energy and its idle floor, the hosts'
 * energy, the work's FLOPs), the device count, the place (PUE, carbon
 * intensity, a market-based factor) and the embodied shares to facility
 * energy, emissions, low-central-high ranges, averages per device, per
 * sample and per token, and everyday equivalences.  It knows no job, no
 * graph and no serving model: the graph estimate (energy.c), the serving
 * model (serving.c) and measured runs (measured.c) each produce time and
 * energy from their own power and call it.
 */
#ifndef JCI_ACCOUNT_H
#define JCI_ACCOUNT_H

#include "base/jc_internal.h"
#include "estimate/builder.h"
#include "joulecast/hwdb.h"
#include "joulecast/estimate.h"

/* One scenario (SC_LOW, SC_CENTRAL, SC_HIGH) of a model of the work. */
typedef struct jci_acct_scn {
    double T;          /* wall seconds */
    double e_dev;      /* J, all devices (their idle floor included) */
    double e_idle;     /* J, the devices' idle floor (at most e_dev) */
    double e_host;     /* J, the hosts (0: none counted) */
    double flops;      /* FLOPs of the work; 0: unknown */
} jci_acct_scn;

/* Where the energy is drawn. */
typedef struct jci_acct_place {
    jc_range pue;          /* facility / IT energy */
    jc_range ci;           /* gCO2e per kWh, location-based */
    int has_market;        /* a market-based factor is published */
    double market_ci;      /* gCO2e per kWh, market-based */
} jci_acct_place;

/* What the account is given. */
typedef struct jci_account_in {
    jci_acct_scn sc[3];    /* by scenario */
    double G;              /* devices */
    double peak;           /* dense FLOP/s per device at the run's precision; 0: unknown */
    double samples, tokens;/* units of the work for the per-unit figures; 0: none */
    jci_acct_place place;
} jci_account_in;

/* Fills e's time, energy, emissions (location- and, where the place has
 * one, market-based), average power per device, implied utilisation of
 * dense peak (the central FLOPs over each scenario's device-time; left as
 * it is without a peak or FLOPs) and per-sample / per-token figures as
 * low-central-high ranges from the three scenarios of in (the low corner
 * of the time is the fastest scenario).  Every range is ordered low <=
 * central <= high.  Cannot fail; e's other fields are left alone. */
void jci_account_run(const jci_account_in *in, jc_estimate *e);

/* The embodied emissions of G devices of emb_kg kgCO2e each over a
 * lifetime of life_years, the share of each scenario's wall time T[sc]:
 * fills e->co2_embodied_kg and sets e->has_embodied.  Cannot fail. */
void jci_account_embodied(double G, const double T[3], double emb_kg, double life_years, jc_estimate *e);

/* A warning through b when e's central average power per device exceeds
 * dev's TDP (by more than 0.01 %). */
void jci_account_warn_tdp(jci_builder *b, const jc_device *dev, const jc_estimate *e);

/* Everyday equivalences of e's central location-based emissions (car
 * km, tree-months, flights), each from a constant of b's database with
 * its citation; a constant the database lacks is left out.  The array
 * lives in b's arena.  Errors: JC_ERR_NOMEM. */
jc_status jci_account_equivalences(jci_builder *b, jc_estimate *e);

#endif /* JCI_ACCOUNT_H */
