/*
 * account.c (estimate) - the energy account: plain values per scenario (wall time,
 * device energy and its idle floor, host energy, FLOPs), the device count
 * and the place to facility energy (IT x PUE), emissions (location- and
 * market-based), embodied emissions, ranges, per-unit figures and
 * everyday equivalences (docs/energy-model.md, sections 3-5).  Knows no
 * job, graph or serving model (account.h); the models of the work call
 * it once with their three scenarios.
 */
#include "estimate/account.h"
#include "base/fmt.h"

#include <math.h>

/* A range from three values, ordered around the central one. */
static jc_range rng(double lo, double c, double hi)
{
    jc_range r = {lo, c, hi};
    if (r.low > r.central) r.low = r.central;
    if (r.high < r.central) r.high = r.central;
    return r;
}

/* Facility energy (J) and emissions (kgCO2e) of one scenario. */
typedef struct facility {
    double e_fac, co2, co2_mkt;
} facility;

static void at_place(const jci_acct_place *pl, const jci_acct_scn *x, int sc, facility *f)
{
    double pue = jci_pick(pl->pue, sc, JCI_RAISES);
    f->e_fac = (x->e_dev + x->e_host) * pue;
    double kwh = f->e_fac / JCI_J_PER_KWH;
    f->co2 = kwh * jci_pick(pl->ci, sc, JCI_RAISES) / 1000.0;
    f->co2_mkt = pl->has_market ? kwh * pl->market_ci / 1000.0 : 0;
}

/* The per-sample and per-token figures of the facility energy. */
static void per_unit(const jci_account_in *in, const facility f[3], jc_estimate *e)
{
    double n = in->samples;
    if (n > 0) {
        e->j_per_sample = rng(f[SC_LOW].e_fac / n, f[SC_CENTRAL].e_fac / n, f[SC_HIGH].e_fac / n);
        e->samples_per_kwh = rng(n * JCI_J_PER_KWH / f[SC_HIGH].e_fac, n * JCI_J_PER_KWH / f[SC_CENTRAL].e_fac,
                                 n * JCI_J_PER_KWH / f[SC_LOW].e_fac);
    }
    n = in->tokens;
    if (n > 0) e->j_per_token = rng(f[SC_LOW].e_fac / n, f[SC_CENTRAL].e_fac / n, f[SC_HIGH].e_fac / n);
}

void jci_account_run(const jci_account_in *in, jc_estimate *e)
{
    const jci_acct_scn *o = in->sc;
    double G = in->G;
    facility f[3];
    for (int sc = SC_LOW; sc <= SC_HIGH; sc++) at_place(&in->place, &o[sc], sc, &f[sc]);
    e->flops_total = o[SC_CENTRAL].flops;
    /* time: the low corner is the fastest */
    e->wall_hours = rng(o[SC_LOW].T / JCI_S_PER_H, o[SC_CENTRAL].T / JCI_S_PER_H, o[SC_HIGH].T / JCI_S_PER_H);
    e->device_hours = rng(G * o[SC_LOW].T / JCI_S_PER_H, G * o[SC_CENTRAL].T / JCI_S_PER_H, G * o[SC_HIGH].T / JCI_S_PER_H);
#define KWH(a, field) rng(a[SC_LOW].field / JCI_J_PER_KWH, a[SC_CENTRAL].field / JCI_J_PER_KWH, a[SC_HIGH].field / JCI_J_PER_KWH)
    e->energy_device_kwh = KWH(o, e_dev);
    e->energy_idle_kwh = KWH(o, e_idle);
    e->energy_host_kwh = KWH(o, e_host);
    e->energy_facility_kwh = KWH(f, e_fac);
#undef KWH
    e->energy_dynamic_kwh = rng((o[SC_LOW].e_dev - o[SC_LOW].e_idle) / JCI_J_PER_KWH,
                                (o[SC_CENTRAL].e_dev - o[SC_CENTRAL].e_idle) / JCI_J_PER_KWH,
                                (o[SC_HIGH].e_dev - o[SC_HIGH].e_idle) / JCI_J_PER_KWH);
    e->energy_it_kwh = rng((o[SC_LOW].e_dev + o[SC_LOW].e_host) / JCI_J_PER_KWH,
                           (o[SC_CENTRAL].e_dev + o[SC_CENTRAL].e_host) / JCI_J_PER_KWH,
                           (o[SC_HIGH].e_dev + o[SC_HIGH].e_host) / JCI_J_PER_KWH);
    e->co2_kg = rng(f[SC_LOW].co2, f[SC_CENTRAL].co2, f[SC_HIGH].co2);
    e->has_market = in->place.has_market;
    if (e->has_market) e->co2_market_kg = rng(f[SC_LOW].co2_mkt, f[SC_CENTRAL].co2_mkt, f[SC_HIGH].co2_mkt);
    /* per-device average power and implied utilisation */
    double pw[3];
    for (int sc = SC_LOW; sc <= SC_HIGH; sc++) pw[sc] = o[sc].T > 0 ? o[sc].e_dev / (G * o[sc].T) : 0;
    /* the fastest corner may draw the most power: the range is the least
     * and the most of the three, not clamped to the central value (which
     * drew a flat "362 362 362 W" beside energy and time that imply
     * 377 and 312 W at their corners) */
    e->avg_power_w = rng(fmin(pw[SC_LOW], pw[SC_HIGH]), pw[SC_CENTRAL], fmax(pw[SC_LOW], pw[SC_HIGH]));
    if (in->peak > 0 && e->flops_total > 0) {
        double ul = e->flops_total / (G * in->peak * o[SC_HIGH].T);
        double uc = e->flops_total / (G * in->peak * o[SC_CENTRAL].T);
        double uh = e->flops_total / (G * in->peak * o[SC_LOW].T);
        e->implied_utilization = rng(ul, uc, uh);
    }
    per_unit(in, f, e);
}

void jci_account_embodied(double G, const double T[3], double emb_kg, double life_years, jc_estimate *e)
{
    double yr = 365.25 * 24 * JCI_S_PER_H;
    e->has_embodied = 1;
    e->co2_embodied_kg = rng(G * emb_kg * T[SC_LOW] / (life_years * yr), G * emb_kg * T[SC_CENTRAL] / (life_years * yr),
                             G * emb_kg * T[SC_HIGH] / (life_years * yr));
}

void jci_account_warn_tdp(jci_builder *b, const jc_device *dev, const jc_estimate *e)
{
    if (dev->tdp_w.present && e->avg_power_w.central > dev->tdp_w.value * 1.0001)
        jci_bld_warn(b, "the implied average device power %.0f W exceeds the TDP %.0f W of %s",
             e->avg_power_w.central, dev->tdp_w.value, dev->id);
}

/* ---- equivalences ----------------------------------------------------------------- */

jc_status jci_account_equivalences(jci_builder *b, jc_estimate *e)
{
    /* equivalences of the central location-based emissions */
    static const struct { const char *id, *label, *unit; int per_km; } eq[] = {
        {"car_gco2e_per_km_eu", "driving an average EU passenger car", "km", 1},
        {"car_gco2e_per_km_us", "driving an average US passenger car", "km", 1},
        {"tree_kgco2e_per_month", "sequestration by one tree", "tree-months", 0},
        {"flight_par_lon_kgco2e", "Paris-London flights (one passenger)", "flights", 0},
        {"flight_nyc_sf_kgco2e", "New York-San Francisco flights (one passenger)", "flights", 0},
    };
    size_t n = sizeof eq / sizeof eq[0];
    e->equivalences = jci_arena_calloc(b->a, n, sizeof(jc_assumption));
    if (!e->equivalences) return jci_diag_set(b->d, JC_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const jc_constant *c;
        jc_diag tmp;
        if (jc_hwdb_constant(b->db, eq[i].id, &c, &tmp) || !(c->value.value > 0)) continue;
        jc_assumption *x = &e->equivalences[e->n_equivalences++];
        double kg = e->co2_kg.central;
        double v = eq[i].per_km ? kg * 1000 / c->value.value : kg / c->value.value;
        x->key = eq[i].id;
        x->label = eq[i].label;
        x->value = R1(v);
        x->unit = eq[i].unit;
        x->origin = JC_ORIGIN_HWDB;
        const char *src[] = {jci_bld_str(b, "%s %s; ", FMT_N(c->value.value), c->unit ? c->unit : ""),
                             jci_bld_cite(b, &c->value)};
        x->source = jci_bld_cat(b, 2, src);
    }
    return JC_OK;
}
