/*
 * page.c (report/html) - what the HTML reports of an estimate, a
 * comparison and a sweep share: the escaper, numbers and units, the page
 * frame (CSS, header, footer), cards and the inline SVG charts.  The pages
 * themselves are estimate.c, compare.c and sweep.c here.  The reports are
 * self-contained: inline CSS, charts drawn here as inline SVG, no
 * script, no network, no external font, so the file can be mailed,
 * archived or attached to a paper's supplement and still open.
 *
 * Two rules hold for every byte written:
 *  - every string that comes from a model file or the hardware database
 *    (node names, op types, device and region names, labels, sources,
 *    warnings) goes through the escaper below (unit-tested in
 *    tests/unit/test_html.c);
 *  - every figure shown carries data-key, its path in the matching --json
 *    document ("results.energy_facility_kwh.central"), and data-value,
 *    the number printed with %.17g, so tests/html.sh can check the page
 *    against the JSON.  Figures that the JSON does not hold (the PUE part
 *    of the energy, the grouped "other nodes") carry no data-key.
 */
#include "joulecast.h" /* JC_VERSION */
#include "report/html/html_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- escaping ------------------------------------------------------------------ */

/* Where escaped text goes: a FILE or a bounded buffer (n counts every
 * byte the full text needs). */
typedef struct sink {
    FILE *f;
    char *buf;
    size_t cap, n;
} sink;

static void put(sink *k, const char *s, size_t len)
{
    if (k->f) fwrite(s, 1, len, k->f);
    else
        for (size_t i = 0; i < len; i++, k->n++)
            if (k->n + 1 < k->cap) k->buf[k->n] = s[i];
    if (k->f) k->n += len;
}

static void escape_to(sink *k, const char *s, size_t max_bytes)
{
    static const char repl[] = "&#xFFFD;";
    if (!s) return;
    const unsigned char *p = (const unsigned char *)s;
    size_t used = 0;
    while (*p && used < max_bytes) {
        unsigned c = *p;
        if (c < 0x80) {
            switch (c) {
            case '&': put(k, "&amp;", 5); break;
            case '<': put(k, "&lt;", 4); break;
            case '>': put(k, "&gt;", 4); break;
            case '"': put(k, "&quot;", 6); break;
            case '\'': put(k, "&#39;", 5); break;
            default:
                if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F) put(k, repl, sizeof repl - 1);
                else put(k, (const char *)p, 1);
            }
            p++;
            used++;
            continue;
        }
        size_t n = jci_utf8_len(p);   /* base/text.c */
        if (n == 0 || (c == 0xC2 && p[1] < 0xA0)) {   /* invalid, or a C1 control */
            put(k, repl, sizeof repl - 1);
            p += n ? n : 1;
            used += n ? n : 1;
            continue;
        }
        if (used + n > max_bytes) break;   /* never cut a character */
        put(k, (const char *)p, n);
        p += n;
        used += n;
    }
}

size_t jci_html_escape_buf(char *buf, size_t cap, const char *s)
{
    sink k = {NULL, buf, cap, 0};
    escape_to(&k, s, (size_t)-1);
    if (cap) buf[k.n < cap ? k.n : cap - 1] = 0;
    return k.n;
}

jc_status jci_html_escape(FILE *f, const char *s)
{
    if (!f) return JC_ERR_USAGE;
    sink k = {f, NULL, 0, 0};
    escape_to(&k, s, (size_t)-1);
    return ferror(f) ? JC_ERR_IO : JC_OK;
}

/* Escaped text, at most max bytes of the source (whole characters), with
 * an ellipsis when cut. */
void jci_html_esc_cut(FILE *f, const char *s, size_t max)
{
    sink k = {f, NULL, 0, 0};
    escape_to(&k, s, max);
    if (s && strlen(s) > max) fputs("&#8230;", f);
}

void jci_html_esc(FILE *f, const char *s)
{
    sink k = {f, NULL, 0, 0};
    escape_to(&k, s, (size_t)-1);
}

/* A warning box: a bold title (HTML given by the caller, not escaped),
 * then each string escaped as a list item.  Nothing when n is 0. */
void jci_html_warn_box(FILE *f, const char *title_html, const char *const *items, size_t n)
{
    if (!n) return;
    fprintf(f, "<div class=\"warn\">%s<ul>\n", title_html);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "<li>");
        jci_html_esc(f, items[i]);
        fprintf(f, "</li>\n");
    }
    fprintf(f, "</ul></div>\n");
}

/* ---- numbers ------------------------------------------------------------------- */

/* data-key / data-value attributes (key may be NULL: none). */
void jci_html_dattr(FILE *f, const char *key, double v)
{
    if (!key) return;
    fprintf(f, " data-key=\"");
    jci_html_esc(f, key);
    fprintf(f, "\" data-value=\"%.17g\"", isfinite(v) ? v : 0);
}

/* A number shown as text: <span class="num" data-key=... >1.234</span>. */
void jci_html_num(FILE *f, const char *key, double v)
{
    char b[48];
    fprintf(f, "<span class=\"num\"");
    jci_html_dattr(f, key, v);
    fprintf(f, ">%s</span>", fmt_num(b, sizeof b, v));
}

/* A whole number shown with thousands separators (counts, batch sizes). */
void jci_html_inum(FILE *f, const char *key, double v)
{
    char b[48];
    fprintf(f, "<span class=\"num\"");
    jci_html_dattr(f, key, v);
    fprintf(f, ">%s</span>", fmt_int(b, sizeof b, (int64_t)llround(v)));
}

/* A quantity scaled to a readable unit: the display unit changes (Wh,
 * kWh, MWh ...), data-value stays in the JSON's unit. */
const unit_step jci_html_u_kwh[] = {{1e-3, "MWh"}, {1, "kWh"}, {1e3, "Wh"}, {JCI_J_PER_KWH, "J"}, {0, NULL}};
const unit_step jci_html_u_kg[] = {{1e-3, "tCO2e"}, {1, "kgCO2e"}, {1e3, "gCO2e"}, {1e6, "mgCO2e"}, {0, NULL}};
const unit_step jci_html_u_h[] = {{1.0 / 8766, "years"}, {1.0 / 24, "days"}, {1, "h"}, {60, "min"},
                                   {JCI_S_PER_H, "s"}, {JCI_S_PER_H * 1e3, "ms"}, {0, NULL}};
/* device-hours are counted in hours (GPU-hours), never in days or minutes */
const unit_step jci_html_u_devh[] = {{1, "h"}, {0, NULL}};
/* one pass's device time */
const unit_step jci_html_u_s[] = {{1, "s"}, {1e3, "ms"}, {1e6, "&#181;s"}, {0, NULL}};

/* The largest step that shows v as 1 or more; zero or unknown in the
 * ladder's own unit (factor 1, the JSON's). */
const unit_step *jci_html_pick_unit(const unit_step *u, double v)
{
    double a = fabs(v);
    size_t own = 0;
    while (u[own + 1].unit && u[own].factor != 1) own++;
    if (a == 0 || !isfinite(a)) return &u[own];
    for (size_t i = 0; u[i].unit; i++)
        if (a * u[i].factor >= 1 || !u[i + 1].unit) return &u[i];
    return &u[own];
}

void jci_html_qty(FILE *f, const char *key, double v, const unit_step *us)
{
    const unit_step *u = jci_html_pick_unit(us, v);
    char b[48];
    fprintf(f, "<span class=\"num\"");
    jci_html_dattr(f, key, v);
    fprintf(f, ">%s</span> <span class=\"unit\">%s</span>", fmt_num(b, sizeof b, v * u->factor), u->unit);
}

/* ---- page frame ------------------------------------------------------------------- */

static const char CSS[] =
    ":root{--ink:#1f2933;--muted:#616e7c;--line:#e4e7eb;--bg:#f4f6f8;--card:#fff;--accent:#1f6feb;"
    "--dyn:#1f6feb;--idle:#8fb8f7;--host:#f0a030;--pue:#a7b1bc;--loc:#2e8b57;--mkt:#7cc8a0;--emb:#8e6bbf;"
    "--front:#e4572e;--launch:#c58fd6}\n"
    "*{box-sizing:border-box}\n"
    "body{margin:0;background:var(--bg);color:var(--ink);"
    "font:14px/1.5 -apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,'Liberation Sans','DejaVu Sans',sans-serif}\n"
    "main{max-width:1140px;margin:0 auto;padding:28px 24px 40px}\n"
    ".kicker{font-size:12px;letter-spacing:.08em;text-transform:uppercase;color:var(--accent);font-weight:600}\n"
    "h1{font-size:24px;margin:2px 0 6px;overflow-wrap:anywhere}\n"
    "h2{font-size:16px;margin:0 0 2px}\n"
    ".sub{color:var(--muted);margin:0}\n"
    ".sub b{color:var(--ink);font-weight:600}\n"
    ".cards{display:grid;grid-template-columns:repeat(4,minmax(0,1fr));gap:14px;margin:20px 0 6px}\n"
    ".card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:14px 16px}\n"
    ".card .label{font-size:11.5px;color:var(--muted);text-transform:uppercase;letter-spacing:.05em}\n"
    ".card .big{font-size:24px;font-weight:650;margin:2px 0;white-space:nowrap}\n"
    ".card .big .unit{font-size:14px;font-weight:500;color:var(--muted)}\n"
    ".card .range{font-size:12px;color:var(--muted)}\n"
    "section{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:18px 20px;margin:16px 0}\n"
    ".note{color:var(--muted);font-size:12.5px;margin:0 0 12px}\n"
    ".grid2{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:16px;margin:18px 0}\n"
    ".grid2 section{margin:0}\n"
    "table{border-collapse:collapse;width:100%;font-size:12.5px}\n"
    "th,td{padding:5px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}\n"
    "th{font-weight:600;color:var(--muted);background:#f8f9fb;position:sticky;top:0}\n"
    "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    "td.name{overflow-wrap:anywhere;max-width:380px}\n"
    "tr.front td{background:#fff4ef}\n"
    ".src{color:var(--muted);font-size:11.5px;overflow-wrap:anywhere}\n"
    ".tag{display:inline-block;padding:0 6px;border-radius:8px;font-size:11px;background:#eef2f7;color:var(--muted)}\n"
    ".tag.hwdb{background:#e6f0ff;color:#1849a9}.tag.user{background:#e8f6ee;color:#1e6b41}\n"
    ".tag.model{background:#f3ecfb;color:#5b3a8c}.tag.derived{background:#fff3e0;color:#8a5300}\n"
    ".warn{background:#fff8e6;border:1px solid #f2d48b;border-radius:10px;padding:10px 16px;margin:16px 0}\n"
    ".warn ul{margin:4px 0 0;padding-left:18px}\n"
    ".scroll{max-height:460px;overflow:auto;border:1px solid var(--line);border-radius:6px}\n"
    ".scroll table th{box-shadow:0 1px 0 var(--line)}\n"
    "ul.levers{margin:10px 0 0;padding-left:18px;font-size:13px}\n"
    ".legend{display:flex;flex-wrap:wrap;gap:6px 18px;font-size:12.5px;margin-top:8px}\n"
    ".legend i{display:inline-block;width:11px;height:11px;border-radius:3px;margin-right:6px;vertical-align:-1px}\n"
    "svg{display:block;width:100%;height:auto}\n"
    "svg text{font-family:inherit;fill:var(--ink)}\n"
    "svg .axis{stroke:#c3cad3;stroke-width:1}\n"
    "svg .gridl{stroke:#eef1f4;stroke-width:1}\n"
    "svg .tick{font-size:11px;fill:var(--muted)}\n"
    "footer{color:var(--muted);font-size:12px;margin-top:20px}\n"
    /* a phone: two cards a row, one chart a row */
    "@media (max-width:700px){main{padding:16px 10px 24px}"
    ".cards{grid-template-columns:repeat(2,minmax(0,1fr))}.grid2{grid-template-columns:minmax(0,1fr)}"
    ".card .big{font-size:20px}section{padding:14px 12px}table{display:block;overflow-x:auto}}\n";

void jci_html_page_begin(FILE *f, const char *kicker, const char *title)
{
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
               "<meta name=\"generator\" content=\"joulecast %s\">\n<title>", JC_VERSION);
    jci_html_esc(f, kicker);
    fprintf(f, ": ");
    jci_html_esc(f, title);
    fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n<header>\n<div class=\"kicker\">", CSS);
    jci_html_esc(f, kicker);
    fprintf(f, "</div>\n<h1>");
    jci_html_esc(f, title);
    fprintf(f, "</h1>\n");
}

void jci_html_page_end(FILE *f)
{
    fprintf(f, "<footer>Made by joulecast %s: a prediction from the model's counted work, the hardware "
               "database and the stated assumptions, not a measurement. Low and high take every ranged "
               "assumption at the end that lowers or raises the energy (docs/energy-model.md). This file "
               "is self-contained: no script, no network.</footer>\n</main>\n</body>\n</html>\n",
            JC_VERSION);
}

/* A number in the given unit (no unit text). */
void jci_html_num_in(FILE *f, const char *key, double v, const unit_step *u)
{
    char b[48];
    fprintf(f, "<span class=\"num\"");
    jci_html_dattr(f, key, v);
    fprintf(f, ">%s</span>", fmt_num(b, sizeof b, v * u->factor));
}

void jci_html_range_cells(FILE *f, const char *key, jc_range r, const unit_step *u)
{
    const char *ends[3] = {"low", "central", "high"};
    double v[3] = {r.low, r.central, r.high};
    for (int k = 0; k < 3; k++) {
        char kk[160];
        snprintf(kk, sizeof kk, "%s.%s", key, ends[k]);
        fprintf(f, "<td class=\"n\">");
        if (!u) jci_html_num(f, kk, v[k]);
        else if (!isfinite(v[k])) fprintf(f, "n/a");
        else jci_html_num_in(f, kk, v[k], u);
        fprintf(f, "</td>");
    }
}

void jci_html_card(FILE *f, const char *label, const char *key, jc_range r, const unit_step *us)
{
    char k[160];
    const unit_step *u = jci_html_pick_unit(us, r.central);
    fprintf(f, "<div class=\"card\"><div class=\"label\">%s</div><div class=\"big\">", label);
    snprintf(k, sizeof k, "%s.central", key);
    jci_html_num_in(f, k, r.central, u);
    fprintf(f, " <span class=\"unit\">%s</span></div><div class=\"range\">range ", u->unit);
    snprintf(k, sizeof k, "%s.low", key);
    jci_html_num_in(f, k, r.low, u);
    fprintf(f, " &#8211; ");
    snprintf(k, sizeof k, "%s.high", key);
    jci_html_num_in(f, k, r.high, u);
    fprintf(f, " %s</div></div>\n", u->unit);
}

/* ---- SVG charts ---------------------------------------------------------------------- */

/* Horizontal bars, one row each, on a linear axis from 0; value labels
 * after the bars.  vw: width of the viewBox.  cap > 0: the axis ends at
 * cap and a longer bar is drawn cut, with a break mark (the grouped "other
 * nodes" bar would otherwise flatten every other bar). */
void jci_html_hbars(FILE *f, const bar *b, size_t n, const char *unit, int vw, int label_w, double cap, int si)
{
    const int row = 28, top = 6, right = 130;
    double max = 0;
    for (size_t i = 0; i < n; i++) {
        if (b[i].v > max) max = b[i].v;
        if (isfinite(b[i].hi) && b[i].hi > max) max = b[i].hi;
    }
    if (cap > 0 && cap < max) max = cap;
    if (!(max > 0)) max = 1;
    int plot_w = vw - label_w - right;
    int h = top + (int)n * row + 6;
    fprintf(f, "<svg viewBox=\"0 0 %d %d\" role=\"img\" class=\"chart hbars\">\n", vw, h);
    fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", label_w, top - 2, label_w, h - 4);
    for (size_t i = 0; i < n; i++) {
        double y = top + (double)i * row;
        int cut = b[i].v > max;
        double w = cut ? plot_w : plot_w * (b[i].v > 0 ? b[i].v : 0) / max;
        char vb[48];
        fprintf(f, "<g><title>");
        jci_html_esc(f, b[i].label);
        if (b[i].sub) { fprintf(f, " ("); jci_html_esc(f, b[i].sub); fprintf(f, ")"); }
        if (si) fmt_si(vb, sizeof vb, b[i].v);
        else fmt_num(vb, sizeof vb, b[i].v);
        fprintf(f, ": %s %s</title>\n", vb, unit);
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\">", label_w - 8, y + 17);
        jci_html_esc_cut(f, b[i].label, 34);
        if (b[i].sub) {
            fprintf(f, " <tspan fill=\"#616e7c\">");
            jci_html_esc_cut(f, b[i].sub, 18);
            fprintf(f, "</tspan>");
        }
        fprintf(f, "</text>\n<rect x=\"%d\" y=\"%.1f\" width=\"%.2f\" height=\"18\" rx=\"3\" fill=\"%s\"",
                label_w, y + 4, w < 1 && b[i].v > 0 ? 1.0 : w, b[i].color);
        jci_html_dattr(f, b[i].key, b[i].v);
        fprintf(f, "/>\n");
        if (cut)   /* a break mark: the bar is longer than the axis */
            fprintf(f, "<path d=\"M%.2f %.1fl8 -22M%.2f %.1fl8 -22\" stroke=\"#fff\" stroke-width=\"3\"/>\n",
                    label_w + w - 34, y + 26, label_w + w - 26, y + 26);
        double xe = label_w + w;
        if (isfinite(b[i].lo) && isfinite(b[i].hi) && b[i].hi > b[i].lo) {
            double x1 = label_w + plot_w * b[i].lo / max, x2 = label_w + plot_w * b[i].hi / max;
            fprintf(f, "<path d=\"M%.2f %.1fV%.1fM%.2f %.1fH%.2fM%.2f %.1fV%.1f\" stroke=\"#3e4c59\" "
                       "stroke-width=\"1.3\" fill=\"none\"/>\n",
                    x1, y + 8, y + 18, x1, y + 13, x2, x2, y + 8, y + 18);
            if (x2 > xe) xe = x2;
        }
        fprintf(f, "<text x=\"%.2f\" y=\"%.1f\" font-size=\"12\">%s %s</text>\n</g>\n", xe + 6, y + 17, vb, unit);
    }
    fprintf(f, "</svg>\n");
}

/* One stacked bar (the energy split) with its legend below. */
void jci_html_stack(FILE *f, const seg *s, size_t n, const unit_step *us)
{
    double tot = 0;
    for (size_t i = 0; i < n; i++) tot += s[i].v > 0 ? s[i].v : 0;
    const int vw = 1060, h = 44;
    fprintf(f, "<svg viewBox=\"0 0 %d %d\" role=\"img\" class=\"chart stack\">\n", vw, h);
    double x = 0;
    for (size_t i = 0; i < n; i++) {
        double w = tot > 0 ? vw * (s[i].v > 0 ? s[i].v : 0) / tot : 0;
        char b[48];
        const unit_step *u = jci_html_pick_unit(us, s[i].v);
        fprintf(f, "<g><title>%s: %s %s (%.1f%%)</title><rect x=\"%.2f\" y=\"4\" width=\"%.2f\" height=\"36\" "
                   "fill=\"%s\"", s[i].label, fmt_num(b, sizeof b, s[i].v * u->factor), u->unit,
                tot > 0 ? 100 * s[i].v / tot : 0, x, w, s[i].color);
        jci_html_dattr(f, s[i].key, s[i].v);
        fprintf(f, "/>");
        if (w > 60)
            fprintf(f, "<text x=\"%.2f\" y=\"27\" font-size=\"13\" text-anchor=\"middle\" style=\"fill:#fff\" "
                       "font-weight=\"600\">%.0f%%</text>", x + w / 2, 100 * s[i].v / tot);
        fprintf(f, "</g>\n");
        x += w;
    }
    fprintf(f, "</svg>\n<div class=\"legend\">");
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "<span><i style=\"background:%s\"></i>%s: ", s[i].color, s[i].label);
        jci_html_qty(f, s[i].key, s[i].v, us);
        fprintf(f, " (%.1f%%)</span>", tot > 0 ? 100 * s[i].v / tot : 0);
    }
    fprintf(f, "</div>\n");
}

/* Low-central-high of each row, each on its own linear axis from 0 to its
 * high (the rows have different units). */
void jci_html_ranges(FILE *f, const rrow *r, size_t n)
{
    const int vw = 1060, row = 40, lw = 240, rw = 250, pw = vw - lw - rw;
    int h = (int)n * row + 8;
    fprintf(f, "<svg viewBox=\"0 0 %d %d\" role=\"img\" class=\"chart ranges\">\n", vw, h);
    for (size_t i = 0; i < n; i++) {
        double y = 8 + (double)i * row + 14;
        double hi = r[i].r.high > 0 ? r[i].r.high : 1;
        double xl = lw + pw * r[i].r.low / hi, xc = lw + pw * r[i].r.central / hi, xh = lw + pw;
        const unit_step *u = jci_html_pick_unit(r[i].us, r[i].r.central);
        char a[48], b[48], c[48];
        fprintf(f, "<g><text x=\"%d\" y=\"%.1f\" font-size=\"12.5\" text-anchor=\"end\">%s</text>\n", lw - 12, y + 4,
                r[i].label);
        fprintf(f, "<line class=\"gridl\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n", lw, y, lw + pw, y);
        fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"10\" rx=\"5\" fill=\"#cfe0fb\"/>\n", xl, y - 5,
                xh - xl > 1 ? xh - xl : 1);
        char k[160];
        snprintf(k, sizeof k, "%s.central", r[i].key);
        fprintf(f, "<circle cx=\"%.2f\" cy=\"%.1f\" r=\"6\" fill=\"var(--accent)\" stroke=\"#fff\" stroke-width=\"2\"",
                xc, y);
        jci_html_dattr(f, k, r[i].r.central);
        fprintf(f, "/>\n<text x=\"%d\" y=\"%.1f\" font-size=\"12\" class=\"tick\">%s &#8211; <tspan font-weight=\"600\" "
                   "style=\"fill:#1f2933\">%s</tspan> &#8211; %s %s</text></g>\n",
                lw + pw + 14, y + 4, fmt_num(a, sizeof a, r[i].r.low * u->factor),
                fmt_num(b, sizeof b, r[i].r.central * u->factor), fmt_num(c, sizeof c, r[i].r.high * u->factor), u->unit);
    }
    fprintf(f, "</svg>\n");
}


/* ---- the run line shared by the estimate and compare pages ------------------ */

void jci_html_hardware_line(FILE *f, const jc_estimate *e)
{
    jci_html_run_line(f, e, NULL);
}

void jci_html_run_line(FILE *f, const jc_estimate *e, const char *mode)
{
    fprintf(f, "<p class=\"sub\"><b>%s</b> &#183; %s method &#183; <b>%s &#215; ", mode ? mode : jc_mode_name(e->mode),
            jc_method_name(e->method), FMT_N(e->devices));
    jci_html_esc(f, e->device_name);
    fprintf(f, "</b> (");
    jci_html_esc(f, e->device_id);
    fprintf(f, "), %s", e->precision ? e->precision : "");
    if (e->host_id) {
        fprintf(f, ", host %s &#215; ", FMT_N(e->hosts));
        jci_html_esc(f, e->host_id);
    }
    if (e->region_code) {
        fprintf(f, " &#183; region <b>");
        jci_html_esc(f, e->region_code);
        fprintf(f, "</b> (");
        jci_html_esc(f, e->region_name);
        fprintf(f, ")");
    }
    fprintf(f, "</p>\n");
    /* the host assumed and where the energy is counted, on the first lines */
    if (e->host_assumed) {
        fprintf(f, "<p class=\"sub\">host: ");
        jci_html_esc(f, e->host_assumed);
        fprintf(f, " &#183; facility energy and J/sample at PUE %s (devices + host, &#215; PUE)</p>\n",
                FMT_N(e->pue.central));
    }
}
