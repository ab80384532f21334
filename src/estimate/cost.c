/*
 * cost.c (estimate) - what an estimate costs and the water it consumes
 * (cost.h, issue 45): the price per instance-hour or per kWh and the water
 * factors, each from an option or the hardware database with its citation
 * and date, times the estimate's wall time or energy.  Nothing here
 * prints; an unknown figure stays NaN with the reason beside it.
 */
#include "estimate/cost.h"
#include "base/fmt.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const jc_range NAN3 = {NAN, NAN, NAN};

/* s as a price: a finite number >= 0 and below max, the whole text. */
static int as_number(const char *s, double max, double *v)
{
    char *end;
    double x = strtod(s, &end);
    if (end == s || *end || !isfinite(x) || x < 0 || x > max) return 0;
    *v = x;
    return 1;
}

/* r scaled by f (NaN stays NaN). */
static jc_range times(jc_range r, double f)
{
    return R3(r.low * f, r.central * f, r.high * f);
}

/* The date of an hwdb value: its source's date, else its year; NULL. */
static const char *value_date(jci_builder *b, const jc_sourced *v)
{
    if (v->source && v->source->date) return v->source->date;
    int y = v->year ? v->year : v->source ? v->source->year : 0;
    return y ? jci_bld_str(b, "%d", y) : NULL;
}

/* The first of the region, its grid zone and its country with the
 * sourced member at `off` present; *via names the one used when it is
 * not the region itself.  NULL when none has it. */
static const jc_sourced *regional(jci_builder *b, const jc_estimate *e, size_t off, const jc_region **from,
                                  const char **via)
{
    const jc_region *r = e->region;
    const jc_region *chain[3] = {r, r ? r->grid_region : NULL, e->region_country};
    const char *how[3] = {NULL, "its grid zone", "its country"};
    for (int i = 0; i < 3; i++) {
        if (!chain[i]) continue;
        const jc_sourced *v = (const jc_sourced *)((const char *)chain[i] + off);
        if (!v->present) continue;
        *from = chain[i];
        *via = how[i] && r ? jci_bld_str(b, "%s, %s for %s", chain[i]->code, how[i], r->code) : NULL;
        return v;
    }
    *from = NULL;
    *via = NULL;
    return NULL;
}

/* The cloud instance the estimate runs on, or NULL. */
static const jc_host *instance_of(jci_builder *b, const jc_estimate *e)
{
    const jc_host *h = NULL;
    jc_diag tmp;
    if (!e->host_id || jc_hwdb_host(b->db, e->host_id, &h, &tmp)) return NULL;
    return h->kind == JC_HOST_CLOUD_INSTANCE ? h : NULL;
}

/* Cost per instance-hour: rate x instances x wall hours. */
static void per_hour(jc_estimate *e, double rate, const char *basis, const char *currency)
{
    double units = e->hosts > 0 ? e->hosts : e->devices;
    e->has_cost = 1;
    e->cost_rate = rate;
    e->cost_units = units;
    e->cost_basis = basis;
    e->cost = times(e->wall_hours, rate * units);
    e->cost_currency = currency;
}

/* The instance's price in the database for the plan asked (on-demand by
 * default); 0 when it has none (cost_absent set unless elec_asked). */
static int instance_price(jci_builder *b, jc_estimate *e, const jc_host *h, int elec_asked)
{
    const jc_job *j = b->job;
    int y1 = j->price && !strcmp(j->price, "committed-1y");
    const jc_sourced *p = y1 ? &h->price_1y : &h->price_od;
    const char *plan = y1 ? "committed-1y" : "on-demand";
    if (!p->present) {
        if (!elec_asked)
            e->cost_absent = jci_bld_str(b, "%s has no %s price in the hardware database%s%s%s; give --price P "
                                            "(per instance-hour), or --electricity-price for the electricity alone",
                                         h->id, plan, !y1 && h->price_absent ? " (" : "",
                                         !y1 && h->price_absent ? h->price_absent : "",
                                         !y1 && h->price_absent ? ")" : "");
        return 0;
    }
    per_hour(e, p->value, plan, "USD");
    e->cost_rate_unit = "USD/instance-hour";
    e->cost_source = jci_bld_cite(b, p);
    e->cost_date = value_date(b, p);
    e->cost_region = h->price_region ? jci_bld_str(b, "%s:%s", h->provider, h->price_region) : NULL;
    if (e->cost_region && e->region && e->region->type == JC_REGION_CLOUD && strcmp(e->cost_region, e->region_code))
        jci_bld_warn(b, "cost: the hardware database prices %s in %s only; %s's price may differ", h->id,
                     e->cost_region, e->region_code);
    return 1;
}

/* Cost of the electricity: facility kWh x the price per kWh. */
static void electricity(jci_builder *b, jc_estimate *e, const jc_host *inst, int elec_num, double elec, const char *cur)
{
    const jc_job *j = b->job;
    if (elec_num) {
        e->cost_rate = elec;
        e->cost_source = "--electricity-price";
        e->cost_currency = cur;
        e->cost_region = NULL;
    } else {
        const jc_region *from;
        const char *via;
        const jc_sourced *p = regional(b, e, offsetof(jc_region, elec_price), &from, &via);
        if (!p) {
            e->cost_absent = e->region
                ? jci_bld_str(b, "no electricity price for %s%s in the hardware database; give "
                                 "--electricity-price P (per kWh)%s", e->region->code,
                              e->region->grid_region || e->region_country ? " (nor its grid zone or country)" : "",
                              inst ? "" : " or --price P (per instance-hour)")
                : "no region: give --electricity-price P (per kWh) or --price P (per instance-hour)";
            return;
        }
        e->cost_rate = p->value;
        e->cost_source = jci_bld_cite(b, p);
        e->cost_date = value_date(b, p);
        e->cost_region = via ? via : from->code;
        e->cost_currency = "USD";
    }
    e->has_cost = 1;
    e->cost_basis = "electricity";
    e->cost_units = NAN;
    e->cost_rate_unit = jci_bld_str(b, "%s/kWh", e->cost_currency);
    e->cost = times(e->energy_facility_kwh, e->cost_rate);
    if (inst)
        jci_bld_warn(b, "cost: electricity alone (--electricity-price): %s has no %s price in the hardware "
                        "database, and the instance's price is more than its electricity", inst->id,
                     j->price ? j->price : "on-demand");
}

/* The options' text is right: a number or a plan name; a currency code
 * only beside a number. */
static jc_status check_options(jci_builder *b, int price_num, int elec_num)
{
    const jc_job *j = b->job;
    if (j->price && !price_num && strcmp(j->price, "on-demand") && strcmp(j->price, "committed-1y"))
        return jci_bld_fail(b, JC_ERR_USAGE, "--price %s: give a number >= 0 (per instance-hour, in --currency), "
                                             "on-demand or committed-1y", j->price);
    if (j->electricity_price && !elec_num && strcmp(j->electricity_price, "region"))
        return jci_bld_fail(b, JC_ERR_USAGE, "--electricity-price %s: give a number >= 0 (per kWh, in "
                                             "--currency) or region", j->electricity_price);
    if (!j->currency) return JC_OK;
    const char *c = j->currency;
    if (strlen(c) != 3 || c[0] < 'A' || c[0] > 'Z' || c[1] < 'A' || c[1] > 'Z' || c[2] < 'A' || c[2] > 'Z')
        return jci_bld_fail(b, JC_ERR_USAGE, "--currency %s: give an ISO 4217 code of three capital letters (USD, EUR)", c);
    if (!price_num && !elec_num)
        return jci_bld_fail(b, JC_ERR_USAGE, "--currency %s has no effect: it names the currency of --price or "
                                             "--electricity-price given as a number (the hardware database's "
                                             "prices are in USD)", c);
    return JC_OK;
}

jc_status jci_est_cost(jci_builder *b, jc_estimate *e)
{
    const jc_job *j = b->job;
    double price = NAN, elec = NAN;
    int price_num = j->price && as_number(j->price, 1e7, &price);
    int elec_num = j->electricity_price && as_number(j->electricity_price, 100, &elec);
    e->has_cost = 0;
    e->cost = NAN3;
    e->cost_rate = e->cost_units = NAN;
    jc_status st = check_options(b, price_num, elec_num);
    if (st) return st;
    const char *cur = j->currency ? j->currency : "USD";
    const jc_host *inst = instance_of(b, e);
    if (price_num) {
        per_hour(e, price, "price", cur);
        e->cost_rate_unit = jci_bld_str(b, "%s/instance-hour", cur);
        e->cost_source = "--price";
        if (j->electricity_price)
            jci_bld_warn(b, "--electricity-price has no effect with --price: the price of an instance-hour "
                            "includes its electricity");
        return JC_OK;
    }
    if (inst && instance_price(b, e, inst, j->electricity_price != NULL)) {
        if (j->electricity_price)
            jci_bld_warn(b, "--electricity-price has no effect: %s's price per instance-hour includes its "
                            "electricity", inst->id);
        return JC_OK;
    }
    if (inst && !j->electricity_price) return JC_OK;   /* cost_absent set */
    if (j->price && !inst)
        jci_bld_warn(b, "--price %s has no effect: the host is not a cloud instance of the hardware database "
                        "(the cost is the electricity's)", j->price);
    electricity(b, e, inst, elec_num, elec, cur);
    return JC_OK;
}

/* ---- water ---------------------------------------------------------------------- */

/* The on-site WUE: --wue, the cloud region's, its provider's fleet
 * figure (the region's or the instance's provider); NAN when none. */
static double wue_of(jci_builder *b, jc_estimate *e, const char **src)
{
    const jc_job *j = b->job;
    if (given(j->wue)) {
        *src = "--wue";
        return j->wue;
    }
    const jc_region *r = e->region;
    if (r && r->wue.present) {
        *src = jci_bld_cite(b, &r->wue);
        return r->wue.value;
    }
    const jc_host *h = instance_of(b, e);
    const char *pid = r && r->type == JC_REGION_CLOUD && r->provider ? r->provider : h ? h->provider : NULL;
    const jc_provider *p;
    jc_diag tmp;
    if (pid && !jc_hwdb_provider(b->db, pid, &p, &tmp) && p->wue.present) {
        *src = jci_bld_str(b, "%s's fleet figure: %s", p->id, jci_bld_cite(b, &p->wue));
        return p->wue.value;
    }
    *src = NULL;
    return NAN;
}

void jci_est_water(jci_builder *b, jc_estimate *e)
{
    const jc_job *j = b->job;
    e->has_water = 0;
    e->water_l = e->water_onsite_l = e->water_offsite_l = NAN3;
    e->wue_l_per_kwh = wue_of(b, e, &e->wue_source);
    e->grid_water_l_per_kwh = NAN;
    e->grid_water_source = NULL;
    if (given(j->grid_water)) {
        e->grid_water_l_per_kwh = j->grid_water;
        e->grid_water_source = "--grid-water";
    } else {
        const jc_region *from;
        const char *via;
        const jc_sourced *g = regional(b, e, offsetof(jc_region, water_gen), &from, &via);
        if (g) {
            e->grid_water_l_per_kwh = g->value;
            const char *c = jci_bld_cite(b, g);
            e->grid_water_source = via ? jci_bld_str(b, "%s: %s", via, c) : c;
        }
    }
    int on = !isnan(e->wue_l_per_kwh), off = !isnan(e->grid_water_l_per_kwh);
    if (on) e->water_onsite_l = times(e->energy_it_kwh, e->wue_l_per_kwh);
    if (off) e->water_offsite_l = times(e->energy_facility_kwh, e->grid_water_l_per_kwh);
    const char *where = e->region ? e->region->code : "the run";
    if (!on && !off) {
        e->water_absent = jci_bld_str(b, "no water factor for %s in the hardware database (no published WUE on "
                                         "site, no water per kWh generated for its grid); give --wue and "
                                         "--grid-water (L/kWh)", where);
        return;
    }
    e->has_water = 1;
    if (on && off) {
        e->water_l = R3(e->water_onsite_l.low + e->water_offsite_l.low,
                        e->water_onsite_l.central + e->water_offsite_l.central,
                        e->water_onsite_l.high + e->water_offsite_l.high);
        e->water_basis = "total: on-site (IT kWh x WUE) + off-site (facility kWh x water per kWh generated)";
    } else if (on) {
        e->water_l = e->water_onsite_l;
        e->water_basis = jci_bld_str(b, "on-site only (IT kWh x WUE): no water per kWh generated for %s's grid "
                                        "(give --grid-water)", where);
    } else {
        e->water_l = e->water_offsite_l;
        e->water_basis = jci_bld_str(b, "off-site only (facility kWh x water per kWh generated): no published "
                                        "on-site WUE for %s (give --wue)", where);
    }
}
