/*
 * cost.h (estimate) - what an estimate costs and the water it consumes
 * (issue 45; docs/energy-model.md "Cost and water").  Internal to
 * libjoulecast: the estimate and the serving model call both once their
 * energy account is done.  Nothing here prints.
 *
 * Cost: instance-hours x a price per instance-hour (--price P, else the
 * cloud instance's price in the hardware database: on-demand, or
 * committed-1y with --price committed-1y), or facility kWh x an electricity
 * price (--electricity-price P, else the region's, its grid zone's or its
 * country's in the database) for a run that is not on a priced instance.
 * A cloud instance without a price gets the electricity alone only when
 * --electricity-price asks for it, and says so; unknown stays unknown.
 *
 * Water: on-site = IT kWh x WUE (--wue, else the cloud region's published
 * WUE, else its provider's fleet WUE; none on premises), off-site =
 * facility kWh x the water consumed per kWh generated on the region's grid
 * (--grid-water, else the region's, grid zone's or country's figure).
 */
#ifndef JCI_ESTIMATE_COST_H
#define JCI_ESTIMATE_COST_H

#include "base/jc_internal.h"
#include "estimate/builder.h"

/* Fills e's cost fields (has_cost, cost, cost_* ) from b's job and
 * database and e's wall time, hosts and facility energy.  Errors
 * (JC_ERR_USAGE through jci_bld_fail): a --price or --electricity-price
 * that is neither a number >= 0 nor a plan name, a --currency that is
 * not three capital letters or that no number given uses.  A missing
 * price is no error: has_cost 0 and cost_absent says what to give. */
jc_status jci_est_cost(jci_builder *b, jc_estimate *e);

/* Fills e's water fields from --wue / --grid-water or the database and
 * e's IT and facility energy.  Never fails; a part without a factor is
 * NaN and named in water_basis (has_water 0 when neither is known). */
void jci_est_water(jci_builder *b, jc_estimate *e);

#endif /* JCI_ESTIMATE_COST_H */
