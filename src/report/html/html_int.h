/*
 * html_int.h (report/html) - private to src/report/html/: the page frame, escaping,
 * number and unit helpers and inline-SVG charts (page.c) that the estimate,
 * compare, sweep and serving pages (estimate.c, compare.c, sweep.c,
 * serving.c) share.
 *
 * Every string from a model file or the hardware database goes through
 * jci_html_esc (or esc_cut); every figure carries data-key / data-value
 * (jci_html_dattr) so tests/html.sh can check the page against the JSON.
 */
#ifndef JCI_REPORT_HTML_INT_H
#define JCI_REPORT_HTML_INT_H

#include "base/jc_internal.h"
#include "base/fmt.h"
/* by pointer only (their public headers define them; a file that reads
 * their fields includes that header itself) */
typedef struct jc_assumption jc_assumption;
typedef struct jc_est_node jc_est_node;
typedef struct jc_estimate jc_estimate;

#include <stdio.h>

/* ---- escaping --------------------------------------------------------------- */

/* Writes s to f with & < > " ' escaped as entities, C0 controls other
 * than tab, newline and carriage return and DEL, and every byte that is
 * not part of well-formed UTF-8, written as U+FFFD.  NULL writes nothing.
 * JC_ERR_IO if writing failed. */
jc_status jci_html_escape(FILE *f, const char *s);
/* The same into buf (always NUL-terminated when cap > 0); returns the
 * length the full escaped text needs, excluding the NUL (as snprintf). */
size_t jci_html_escape_buf(char *buf, size_t cap, const char *s);

/* Writes s escaped for HTML text and attributes (NULL: nothing). */
void jci_html_esc(FILE *f, const char *s);
/* The same, cut to about max bytes at a character boundary with an ellipsis. */
void jci_html_esc_cut(FILE *f, const char *s, size_t max);
/* A warning box: title_html (trusted markup) and the items, escaped. */
void jci_html_warn_box(FILE *f, const char *title_html, const char *const *items, size_t n);

/* ---- numbers ------------------------------------------------------------------ */

/* A display unit: the value is multiplied by factor and shown with unit. */
typedef struct unit_step { double factor; const char *unit; } unit_step;
/* Unit ladders (terminated by {0, NULL}), largest first: energy from kWh,
 * mass from kg, time from hours (years to ms), device-hours in hours,
 * one pass's time from seconds (s to us). */
extern const unit_step jci_html_u_kwh[], jci_html_u_kg[], jci_html_u_h[], jci_html_u_devh[], jci_html_u_s[];

/* data-key / data-value attributes (key may be NULL: none). */
void jci_html_dattr(FILE *f, const char *key, double v);
/* A number shown as text: <span class="num" data-key=... >1.234</span>. */
void jci_html_num(FILE *f, const char *key, double v);
/* A whole number shown with thousands separators. */
void jci_html_inum(FILE *f, const char *key, double v);
/* The step of ladder u that shows v readably. */
const unit_step *jci_html_pick_unit(const unit_step *u, double v);
/* A quantity scaled to a readable unit; data-value stays in the JSON's unit. */
void jci_html_qty(FILE *f, const char *key, double v, const unit_step *us);
/* A number in the given unit (no unit text). */
void jci_html_num_in(FILE *f, const char *key, double v, const unit_step *u);

/* ---- page frame ------------------------------------------------------------------ */

/* <!DOCTYPE html> ... <header> with kicker and title (both escaped). */
void jci_html_page_begin(FILE *f, const char *kicker, const char *title);
/* The footer and the closing tags. */
void jci_html_page_end(FILE *f);
/* A headline card: label, central value, range (key: the JSON path of r). */
void jci_html_card(FILE *f, const char *label, const char *key, jc_range r, const unit_step *us);
/* Three table cells: low, central, high of r with data-keys KEY.low ...;
 * u NULL: the number as it is (jci_html_num), else in unit u, n/a when
 * unknown. */
void jci_html_range_cells(FILE *f, const char *key, jc_range r, const unit_step *u);
/* The run line: mode, method, devices, precision, host, region. */
void jci_html_hardware_line(FILE *f, const jc_estimate *e);
/* The same with the mode's words given (NULL: the estimate's mode). */
void jci_html_run_line(FILE *f, const jc_estimate *e, const char *mode);

/* ---- SVG charts ------------------------------------------------------------------- */

typedef struct bar {
    const char *label;   /* escaped when written */
    const char *sub;     /* second line (op type), or NULL */
    double v, lo, hi;    /* lo/hi NAN: no whisker */
    const char *key;     /* data-key of v, or NULL */
    const char *color;   /* CSS colour */
} bar;

/* Horizontal bars, one row each, on a linear axis from 0; value labels
 * after the bars.  vw: width of the viewBox.  cap > 0: the axis ends at
 * cap and a longer bar is drawn cut, with a break mark.  si: values in SI
 * notation. */
void jci_html_hbars(FILE *f, const bar *b, size_t n, const char *unit, int vw, int label_w, double cap, int si);

typedef struct seg { const char *label; double v; const char *key; const char *color; } seg;
/* One stacked bar (the energy split) with its legend below. */
void jci_html_stack(FILE *f, const seg *s, size_t n, const unit_step *us);

typedef struct rrow { const char *label; jc_range r; const char *key; const unit_step *us; } rrow;
/* Low-central-high of each row, each on its own linear axis. */
void jci_html_ranges(FILE *f, const rrow *r, size_t n);

/* ---- estimate.c's sections, shared with the serving page (serving.c) ---- */

/* The assumption records as a table; prefix: their JSON array's key. */
void jci_html_assumptions_table(FILE *f, const jc_assumption *as, size_t n, const char *prefix);
/* Where the energy goes: device dynamic, idle floor, host, PUE overhead. */
void jci_html_energy_split(FILE *f, const jc_estimate *e);
/* Emissions by component: bars and a table. */
void jci_html_emissions_section(FILE *f, const jc_estimate *e);
/* issue 45: the job's cost and water, each row with its source and date
 * (n/a and why when unknown). */
void jci_html_cost_water_section(FILE *f, const jc_estimate *e);
/* Every figure of the result with its range. */
void jci_html_figures_section(FILE *f, const jc_estimate *e);
/* The equivalences and every assumption with its source. */
void jci_html_sources_sections(FILE *f, const jc_estimate *e);
/* Every node's figures in model order (data-keys PREFIX.i.flops ...). */
void jci_html_node_table(FILE *f, const jc_est_node *nodes, size_t n, const char *prefix);

/* trace.c: the "Measured run" section (prediction beside measurement,
 * the trace's power chart with idle phases shaded); nothing without one. */
void jci_html_measured_section(FILE *f, const jc_estimate *e);

#endif /* JCI_REPORT_HTML_INT_H */
