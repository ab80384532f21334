/*
 * budget.c (workflows) - the energy / emissions budget gate of `joulecast estimate
 * --max-kwh X --max-kgco2e Y [--on central|high]`: compares an estimate
 * with its limits and says which budget is exceeded and by how much.
 * The CLI turns JC_ERR_BUDGET into exit code 10 (README "Exit codes").
 */
#include "base/jc_internal.h"
#include "base/fmt.h"
#include "joulecast/estimate.h"
#include "joulecast/workflows.h"

#include <math.h>
#include <string.h>

/* Appends one "exceeded" sentence to buf; returns 1 when the limit is
 * exceeded. */
static int over(char *buf, size_t cap, const char *what, const char *opt,
                double v, double limit, const char *unit, const char *end)
{
    if (!(v > limit)) return 0;
    size_t n = strlen(buf);
    double pct = limit > 0 ? 100 * (v - limit) / limit : INFINITY;
    char p[40];
    if (isfinite(pct)) snprintf(p, sizeof p, "%.1f%%", pct);
    else snprintf(p, sizeof p, "a limit of 0");
    snprintf(buf + n, cap - n, "%s%s %s %s (%s) exceeds %s %s by %s %s (%s)",
             n ? "; " : "", what, FMT_N(v), unit, end, opt, FMT_N(limit), FMT_N(v - limit), unit, p);
    return 1;
}

jc_status jc_budget_check(const jc_estimate *e, const jc_budget *b, jc_diag *d)
{
    jci_diag_clear(d);
    if (!e || !b) return jci_diag_set(d, JC_ERR_USAGE, "jc_budget_check: NULL argument");
    if (!isnan(b->max_kwh) && !(b->max_kwh >= 0 && isfinite(b->max_kwh)))
        return jci_diag_set(d, JC_ERR_USAGE, "--max-kwh must be a number >= 0 (got %g)", b->max_kwh);
    if (!isnan(b->max_kgco2e) && !(b->max_kgco2e >= 0 && isfinite(b->max_kgco2e)))
        return jci_diag_set(d, JC_ERR_USAGE, "--max-kgco2e must be a number >= 0 (got %g)", b->max_kgco2e);
    const char *end = b->on_high ? "high end of the range" : "central";
    double kwh = b->on_high ? e->energy_facility_kwh.high : e->energy_facility_kwh.central;
    double kg = b->on_high ? e->co2_kg.high : e->co2_kg.central;
    char msg[900] = "";
    int n = 0;
    if (!isnan(b->max_kwh))
        n += over(msg, sizeof msg, "facility energy", "--max-kwh", kwh, b->max_kwh, "kWh", end);
    if (!isnan(b->max_kgco2e))
        n += over(msg, sizeof msg, "location-based emissions", "--max-kgco2e", kg, b->max_kgco2e,
                  "kgCO2e", end);
    if (!n) return JC_OK;
    return jci_diag_set(d, JC_ERR_BUDGET, "budget exceeded: %s", msg);
}
