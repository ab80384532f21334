/*
 * html.h (public API) - HTML reports (src/report/html/).
 * Part of the public API; include <joulecast.h>, which states the
 * conventions (errors, ownership, units) that hold here too.
 */
#ifndef JOULECAST_HTML_H
#define JOULECAST_HTML_H

#include "base.h"

/* named by pointer only here: their headers define them (C11 allows the
 * typedef twice), so a change to those headers does not rebuild the
 * files that include only this one */
typedef struct jc_compare_item jc_compare_item;
typedef struct jc_estimate jc_estimate;
typedef struct jc_sweep jc_sweep;

JC_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* HTML reports (owner src/report/html/)                                */
/* ------------------------------------------------------------------ */
/* One self-contained HTML file per report: inline CSS, charts drawn as
 * inline SVG, no script, no network, no external font.  Every string that
 * comes from a model file or the hardware database is escaped.  Every
 * figure shown carries data-key (its path in the matching --json output,
 * e.g. "results.energy_facility_kwh.central") and data-value (the number,
 * %.17g) so a test can compare the two. */

/* The estimate report: summary, energy split (device dynamic / device
 * idle / host / facility overhead), low-central-high ranges, emissions by
 * component, energy per node (the top_nodes largest, the rest grouped;
 * needs job.per_node), the per-node table, equivalences, warnings and
 * every assumption with its source.  model: the model's path shown in the
 * title (NULL: none).  JC_ERR_IO if writing failed. */
jc_status jc_report_estimate_html(const jc_estimate *e, const char *model,
                                  size_t top_nodes, FILE *f);
/* The comparison: a bar chart per figure (one bar per model) and the
 * table of jc_report_compare_text; items with serving figures (compare
 * --generate, every item or none) chart TTFT, ITL, tokens/s per device,
 * J per output token, energy and emissions.  JC_ERR_USAGE for items that
 * mix the two; otherwise errors as jc_report_compare_text. */
jc_status jc_report_compare_html(const jc_compare_item *items, size_t n,
                                 FILE *f);
/* The sweep: a time-vs-emissions scatter of every estimated entry with the
 * Pareto front marked and joined, the ranked table (top: first N rows, 0
 * for all; Pareto entries are always listed) and the skipped entries.
 * JC_ERR_IO if writing failed. */
jc_status jc_report_sweep_html(const jc_sweep *s, size_t top, FILE *f);

JC_END_DECLS
#endif /* JOULECAST_HTML_H */
