/*
 * html.c (report) - self-contained HTML reports of an estimate, a
 * comparison and a sweep: inline CSS, charts drawn here as inline SVG, no
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
#include "base/jc_internal.h"
#include "report/sig.h"

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

/* Length of the well-formed UTF-8 sequence at p (1..4), or 0 when the
 * bytes there are not one (overlong, surrogate, out of range, cut). */
static size_t utf8_len(const unsigned char *p)
{
    unsigned c = p[0];
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) return (p[1] & 0xC0) == 0x80 ? 2 : 0;
    if (c >= 0xE0 && c <= 0xEF) {
        unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
        return p[1] >= lo && p[1] <= hi && (p[2] & 0xC0) == 0x80 ? 3 : 0;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        unsigned lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
        return p[1] >= lo && p[1] <= hi && (p[2] & 0xC0) == 0x80 && (p[3] & 0xC0) == 0x80 ? 4 : 0;
    }
    return 0;
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
        size_t n = utf8_len(p);
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

size_t jc_html_escape_buf(char *buf, size_t cap, const char *s)
{
    sink k = {NULL, buf, cap, 0};
    escape_to(&k, s, (size_t)-1);
    if (cap) buf[k.n < cap ? k.n : cap - 1] = 0;
    return k.n;
}

jc_status jc_html_escape(FILE *f, const char *s)
{
    if (!f) return JC_ERR_USAGE;
    sink k = {f, NULL, 0, 0};
    escape_to(&k, s, (size_t)-1);
    return ferror(f) ? JC_ERR_IO : JC_OK;
}

/* Escaped text, at most max bytes of the source (whole characters), with
 * an ellipsis when cut. */
static void esc_cut(FILE *f, const char *s, size_t max)
{
    sink k = {f, NULL, 0, 0};
    escape_to(&k, s, max);
    if (s && strlen(s) > max) fputs("&#8230;", f);
}

static void esc(FILE *f, const char *s)
{
    sink k = {f, NULL, 0, 0};
    escape_to(&k, s, (size_t)-1);
}

/* A warning box: a bold title (HTML given by the caller, not escaped),
 * then each string escaped as a list item.  Nothing when n is 0. */
static void warn_box(FILE *f, const char *title_html, const char *const *items, size_t n)
{
    if (!n) return;
    fprintf(f, "<div class=\"warn\">%s<ul>\n", title_html);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "<li>");
        esc(f, items[i]);
        fprintf(f, "</li>\n");
    }
    fprintf(f, "</ul></div>\n");
}

/* ---- numbers ------------------------------------------------------------------- */

/* data-key / data-value attributes (key may be NULL: none). */
static void dattr(FILE *f, const char *key, double v)
{
    if (!key) return;
    fprintf(f, " data-key=\"");
    esc(f, key);
    fprintf(f, "\" data-value=\"%.17g\"", isfinite(v) ? v : 0);
}

/* A number shown as text: <span class="num" data-key=... >1.234</span>. */
static void num(FILE *f, const char *key, double v)
{
    char b[48];
    fprintf(f, "<span class=\"num\"");
    dattr(f, key, v);
    fprintf(f, ">%s</span>", sig4(b, sizeof b, v));
}

/* A whole number shown with thousands separators (counts, batch sizes). */
static void inum(FILE *f, const char *key, double v)
{
    char b[48];
    fprintf(f, "<span class=\"num\"");
    dattr(f, key, v);
    fprintf(f, ">%s</span>", fmt_int(b, sizeof b, (int64_t)llround(v)));
}

/* A number with a fixed count of decimals (PUE). */
static void fnum(FILE *f, const char *key, double v, int decimals)
{
    fprintf(f, "<span class=\"num\"");
    dattr(f, key, v);
    fprintf(f, ">%.*f</span>", decimals, v);
}

/* A quantity scaled to a readable unit: the display unit changes (Wh,
 * kWh, MWh ...), data-value stays in the JSON's unit. */
typedef struct unit_step { double factor; const char *unit; } unit_step;
static const unit_step U_KWH[] = {{1e-3, "MWh"}, {1, "kWh"}, {1e3, "Wh"}, {3.6e6, "J"}, {0, NULL}};
static const unit_step U_KG[] = {{1e-3, "tCO2e"}, {1, "kgCO2e"}, {1e3, "gCO2e"}, {1e6, "mgCO2e"}, {0, NULL}};
static const unit_step U_H[] = {{1.0 / 24, "days"}, {1, "h"}, {60, "min"}, {3600, "s"}, {3.6e6, "ms"}, {0, NULL}};

static const unit_step *pick_unit(const unit_step *u, double v)
{
    double a = fabs(v);
    if (a == 0 || !isfinite(a)) return &u[1];
    for (size_t i = 0; u[i].unit; i++)
        if (a * u[i].factor >= 1 || !u[i + 1].unit) return &u[i];
    return &u[1];
}

static void qty(FILE *f, const char *key, double v, const unit_step *us)
{
    const unit_step *u = pick_unit(us, v);
    char b[48];
    fprintf(f, "<span class=\"num\"");
    dattr(f, key, v);
    fprintf(f, ">%s</span> <span class=\"unit\">%s</span>", sig4(b, sizeof b, v * u->factor), u->unit);
}

/* ---- page frame ------------------------------------------------------------------- */

static const char CSS[] =
    ":root{--ink:#1f2933;--muted:#616e7c;--line:#e4e7eb;--bg:#f4f6f8;--card:#fff;--accent:#1f6feb;"
    "--dyn:#1f6feb;--idle:#8fb8f7;--host:#f0a030;--pue:#a7b1bc;--loc:#2e8b57;--mkt:#7cc8a0;--emb:#8e6bbf;"
    "--front:#e4572e}\n"
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
    ".legend{display:flex;flex-wrap:wrap;gap:6px 18px;font-size:12.5px;margin-top:8px}\n"
    ".legend i{display:inline-block;width:11px;height:11px;border-radius:3px;margin-right:6px;vertical-align:-1px}\n"
    "svg{display:block;width:100%;height:auto}\n"
    "svg text{font-family:inherit;fill:var(--ink)}\n"
    "svg .axis{stroke:#c3cad3;stroke-width:1}\n"
    "svg .gridl{stroke:#eef1f4;stroke-width:1}\n"
    "svg .tick{font-size:11px;fill:var(--muted)}\n"
    "footer{color:var(--muted);font-size:12px;margin-top:20px}\n";

static void page_begin(FILE *f, const char *kicker, const char *title)
{
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
               "<meta name=\"generator\" content=\"joulecast %s\">\n<title>", JC_VERSION);
    esc(f, kicker);
    fprintf(f, ": ");
    esc(f, title);
    fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n<header>\n<div class=\"kicker\">", CSS);
    esc(f, kicker);
    fprintf(f, "</div>\n<h1>");
    esc(f, title);
    fprintf(f, "</h1>\n");
}

static void page_end(FILE *f)
{
    fprintf(f, "<footer>Made by joulecast %s: a prediction from the model's counted work, the hardware "
               "database and the stated assumptions, not a measurement. Low and high take every ranged "
               "assumption at the end that lowers or raises the energy (docs/energy-model.md). This file "
               "is self-contained: no script, no network.</footer>\n</main>\n</body>\n</html>\n",
            JC_VERSION);
}

/* A number in the given unit (no unit text). */
static void num_in(FILE *f, const char *key, double v, const unit_step *u)
{
    char b[48];
    fprintf(f, "<span class=\"num\"");
    dattr(f, key, v);
    fprintf(f, ">%s</span>", sig4(b, sizeof b, v * u->factor));
}

static void card(FILE *f, const char *label, const char *key, jc_range r, const unit_step *us)
{
    char k[160];
    const unit_step *u = pick_unit(us, r.central);
    fprintf(f, "<div class=\"card\"><div class=\"label\">%s</div><div class=\"big\">", label);
    snprintf(k, sizeof k, "%s.central", key);
    num_in(f, k, r.central, u);
    fprintf(f, " <span class=\"unit\">%s</span></div><div class=\"range\">range ", u->unit);
    snprintf(k, sizeof k, "%s.low", key);
    num_in(f, k, r.low, u);
    fprintf(f, " &#8211; ");
    snprintf(k, sizeof k, "%s.high", key);
    num_in(f, k, r.high, u);
    fprintf(f, " %s</div></div>\n", u->unit);
}

/* ---- SVG charts ---------------------------------------------------------------------- */

typedef struct bar {
    const char *label;   /* escaped when written */
    const char *sub;     /* second line (op type), or NULL */
    double v, lo, hi;    /* lo/hi NAN: no whisker */
    const char *key;     /* data-key of v, or NULL */
    const char *color;   /* CSS colour */
} bar;

/* Horizontal bars, one row each, on a linear axis from 0; value labels
 * after the bars.  vw: width of the viewBox.  cap > 0: the axis ends at
 * cap and a longer bar is drawn cut, with a break mark (the grouped "other
 * nodes" bar would otherwise flatten every other bar). */
static void svg_hbars(FILE *f, const bar *b, size_t n, const char *unit, int vw, int label_w, double cap, int si)
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
        esc(f, b[i].label);
        if (b[i].sub) { fprintf(f, " ("); esc(f, b[i].sub); fprintf(f, ")"); }
        if (si) fmt_si(vb, sizeof vb, b[i].v);
        else sig4(vb, sizeof vb, b[i].v);
        fprintf(f, ": %s %s</title>\n", vb, unit);
        fprintf(f, "<text x=\"%d\" y=\"%.1f\" font-size=\"12\" text-anchor=\"end\">", label_w - 8, y + 17);
        esc_cut(f, b[i].label, 34);
        if (b[i].sub) {
            fprintf(f, " <tspan fill=\"#616e7c\">");
            esc_cut(f, b[i].sub, 18);
            fprintf(f, "</tspan>");
        }
        fprintf(f, "</text>\n<rect x=\"%d\" y=\"%.1f\" width=\"%.2f\" height=\"18\" rx=\"3\" fill=\"%s\"",
                label_w, y + 4, w < 1 && b[i].v > 0 ? 1.0 : w, b[i].color);
        dattr(f, b[i].key, b[i].v);
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

typedef struct seg { const char *label; double v; const char *key; const char *color; } seg;

/* One stacked bar (the energy split) with its legend below. */
static void svg_stack(FILE *f, const seg *s, size_t n, const unit_step *us)
{
    double tot = 0;
    for (size_t i = 0; i < n; i++) tot += s[i].v > 0 ? s[i].v : 0;
    const int vw = 1060, h = 44;
    fprintf(f, "<svg viewBox=\"0 0 %d %d\" role=\"img\" class=\"chart stack\">\n", vw, h);
    double x = 0;
    for (size_t i = 0; i < n; i++) {
        double w = tot > 0 ? vw * (s[i].v > 0 ? s[i].v : 0) / tot : 0;
        char b[48];
        fprintf(f, "<g><title>%s: %s kWh (%.1f%%)</title><rect x=\"%.2f\" y=\"4\" width=\"%.2f\" height=\"36\" "
                   "fill=\"%s\"", s[i].label, sig4(b, sizeof b, s[i].v), tot > 0 ? 100 * s[i].v / tot : 0, x, w,
                s[i].color);
        dattr(f, s[i].key, s[i].v);
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
        qty(f, s[i].key, s[i].v, us);
        fprintf(f, " (%.1f%%)</span>", tot > 0 ? 100 * s[i].v / tot : 0);
    }
    fprintf(f, "</div>\n");
}

typedef struct rrow { const char *label; jc_range r; const char *key; const unit_step *us; } rrow;

/* Low-central-high of each row, each on its own linear axis from 0 to its
 * high (the rows have different units). */
static void svg_ranges(FILE *f, const rrow *r, size_t n)
{
    const int vw = 1060, row = 40, lw = 240, rw = 250, pw = vw - lw - rw;
    int h = (int)n * row + 8;
    fprintf(f, "<svg viewBox=\"0 0 %d %d\" role=\"img\" class=\"chart ranges\">\n", vw, h);
    for (size_t i = 0; i < n; i++) {
        double y = 8 + (double)i * row + 14;
        double hi = r[i].r.high > 0 ? r[i].r.high : 1;
        double xl = lw + pw * r[i].r.low / hi, xc = lw + pw * r[i].r.central / hi, xh = lw + pw;
        const unit_step *u = pick_unit(r[i].us, r[i].r.central);
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
        dattr(f, k, r[i].r.central);
        fprintf(f, "/>\n<text x=\"%d\" y=\"%.1f\" font-size=\"12\" class=\"tick\">%s &#8211; <tspan font-weight=\"600\" "
                   "style=\"fill:#1f2933\">%s</tspan> &#8211; %s %s</text></g>\n",
                lw + pw + 14, y + 4, sig4(a, sizeof a, r[i].r.low * u->factor),
                sig4(b, sizeof b, r[i].r.central * u->factor), sig4(c, sizeof c, r[i].r.high * u->factor), u->unit);
    }
    fprintf(f, "</svg>\n");
}

/* ---- estimate ------------------------------------------------------------------------- */

static const char *origin_class(jc_origin o)
{
    return jc_origin_name(o);
}

typedef struct node_ix { size_t i; double e; } node_ix;

static int by_energy_desc(const void *a, const void *b)
{
    const node_ix *x = a, *y = b;
    if (x->e != y->e) return x->e > y->e ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

static void hardware_line(FILE *f, const jc_estimate *e)
{
    fprintf(f, "<p class=\"sub\"><b>%s</b> &#183; %s method &#183; <b>%g &#215; ", jc_mode_name(e->mode),
            jc_method_name(e->method), e->devices);
    esc(f, e->device_name);
    fprintf(f, "</b> (");
    esc(f, e->device_id);
    fprintf(f, "), %s", e->precision ? e->precision : "");
    if (e->host_id) {
        fprintf(f, ", host %g &#215; ", e->hosts);
        esc(f, e->host_id);
    }
    if (e->region_code) {
        fprintf(f, " &#183; region <b>");
        esc(f, e->region_code);
        fprintf(f, "</b> (");
        esc(f, e->region_name);
        fprintf(f, ")");
    }
    fprintf(f, "</p>\n");
}

static void assumptions_table(FILE *f, const jc_assumption *as, size_t n, const char *prefix)
{
    fprintf(f, "<div><table>\n<thead><tr><th>key</th><th>what</th><th class=\"n\">value</th>"
               "<th>unit</th><th>origin</th><th>source</th></tr></thead>\n<tbody>\n");
    for (size_t i = 0; i < n; i++) {
        const jc_assumption *a = &as[i];
        char k[160];
        fprintf(f, "<tr><td>");
        esc(f, a->key);
        fprintf(f, "</td><td>");
        esc(f, a->label);
        fprintf(f, "</td><td class=\"n\">");
        snprintf(k, sizeof k, "%s.%zu.value.central", prefix, i);
        num(f, k, a->value.central);
        if (a->value.low != a->value.central || a->value.high != a->value.central) {
            fprintf(f, " <span class=\"src\">[");
            snprintf(k, sizeof k, "%s.%zu.value.low", prefix, i);
            num(f, k, a->value.low);
            fprintf(f, "&#8211;");
            snprintf(k, sizeof k, "%s.%zu.value.high", prefix, i);
            num(f, k, a->value.high);
            fprintf(f, "]</span>");
        }
        fprintf(f, "</td><td>");
        esc(f, a->unit);
        fprintf(f, "</td><td><span class=\"tag %s\">%s</span></td><td class=\"src\">", origin_class(a->origin),
                jc_origin_name(a->origin));
        esc(f, a->source);
        fprintf(f, "</td></tr>\n");
    }
    fprintf(f, "</tbody></table></div>\n");
}

jc_status jc_report_estimate_html(const jc_estimate *e, const char *model, size_t top_nodes, FILE *f)
{
    if (!e || !f) return JC_ERR_USAGE;
    page_begin(f, "joulecast estimate", model ? model : (e->flops_total > 0 ? "a job given by its FLOPs" : "a job"));
    hardware_line(f, e);
    if (e->flops_per_pass > 0) {
        char a[48], b[48], c[48];
        fprintf(f, "<p class=\"sub\">work: %s FLOP per forward pass &#215; %s %s = %s FLOP</p>\n",
                fmt_si(a, sizeof a, e->flops_per_pass), sig4(b, sizeof b, e->passes),
                e->mode == JC_MODE_TRAINING ? "steps" : "passes", fmt_si(c, sizeof c, e->flops_total));
    }
    fprintf(f, "</header>\n<div class=\"cards\">\n");
    card(f, "Energy, facility", "results.energy_facility_kwh", e->energy_facility_kwh, U_KWH);
    card(f, "Emissions, location-based", "results.co2_location_kg", e->co2_kg, U_KG);
    card(f, "Wall time", "results.wall_hours", e->wall_hours, U_H);
    card(f, "Device-hours", "results.device_hours", e->device_hours, U_H);
    fprintf(f, "</div>\n");

    warn_box(f, "<b>Warnings</b>", e->warnings, e->n_warnings);

    /* the energy split */
    double overhead = e->energy_facility_kwh.central - e->energy_it_kwh.central;
    seg sg[] = {
        {"device dynamic", e->energy_dynamic_kwh.central, "results.energy_dynamic_kwh.central", "var(--dyn)"},
        {"device idle floor", e->energy_idle_kwh.central, "results.energy_idle_kwh.central", "var(--idle)"},
        {"host", e->energy_host_kwh.central, "results.energy_host_kwh.central", "var(--host)"},
        {"facility overhead (PUE)", overhead > 0 ? overhead : 0, NULL, "var(--pue)"},
    };
    fprintf(f, "<section id=\"split\"><h2>Where the energy goes</h2><p class=\"note\">Central case. Facility energy "
               "= (devices + host) &#215; PUE; the PUE part is the data centre's cooling and power-delivery "
               "overhead.</p>\n");
    svg_stack(f, sg, sizeof sg / sizeof sg[0], U_KWH);
    fprintf(f, "</section>\n");

    /* ranges and emissions by component side by side */
    fprintf(f, "<section id=\"ranges\"><h2>Low &#8211; central &#8211; high</h2><p class=\"note\">Each row on its "
               "own scale, from 0 to its high end; the dot is the central estimate.</p>\n");
    rrow rr[] = {
        {"energy, facility", e->energy_facility_kwh, "results.energy_facility_kwh", U_KWH},
        {"energy, devices", e->energy_device_kwh, "results.energy_device_kwh", U_KWH},
        {"emissions, location-based", e->co2_kg, "results.co2_location_kg", U_KG},
        {"wall time", e->wall_hours, "results.wall_hours", U_H},
        {"average power per device", e->avg_power_w, "results.avg_power_w_per_device", NULL},
    };
    static const unit_step U_W[] = {{1e-3, "kW"}, {1, "W"}, {0, NULL}};
    rr[4].us = U_W;
    svg_ranges(f, rr, sizeof rr / sizeof rr[0]);
    fprintf(f, "</section>\n");

    fprintf(f, "<section id=\"emissions\"><h2>Emissions by component</h2><p class=\"note\">Bars: central; "
               "whiskers: low to high. Operational emissions are the facility energy times the grid's intensity; "
               "embodied emissions are the hardware's manufacturing share for the time used%s.</p>\n",
            e->has_embodied ? "" : " (not in this estimate: --embodied adds them when the device has an "
                                   "embodied-emissions figure in the database)");
    bar eb[3];
    size_t ne = 0;
    const unit_step *ku = pick_unit(U_KG, e->co2_kg.central);
    double kf = ku->factor;
    eb[ne++] = (bar){"operational, location-based", NULL, e->co2_kg.central * kf, e->co2_kg.low * kf,
                     e->co2_kg.high * kf, NULL, "var(--loc)"};
    if (e->has_market)
        eb[ne++] = (bar){"operational, market-based", NULL, e->co2_market_kg.central * kf,
                         e->co2_market_kg.low * kf, e->co2_market_kg.high * kf, NULL, "var(--mkt)"};
    if (e->has_embodied)
        eb[ne++] = (bar){"embodied (amortised)", NULL, e->co2_embodied_kg.central * kf,
                         e->co2_embodied_kg.low * kf, e->co2_embodied_kg.high * kf, NULL, "var(--emb)"};
    svg_hbars(f, eb, ne, ku->unit, 1060, 230, 0, 0);
    fprintf(f, "<table><thead><tr><th>component</th><th class=\"n\">low</th><th class=\"n\">central</th>"
               "<th class=\"n\">high</th><th>unit</th></tr></thead><tbody>\n");
    struct { const char *label, *key; const jc_range *r; int on; } er[] = {
        {"operational, location-based", "results.co2_location_kg", &e->co2_kg, 1},
        {"operational, market-based", "results.co2_market_kg", &e->co2_market_kg, e->has_market},
        {"embodied (amortised)", "results.co2_embodied_kg", &e->co2_embodied_kg, e->has_embodied},
    };
    for (size_t i = 0; i < 3; i++) {
        fprintf(f, "<tr><td>%s</td>", er[i].label);
        if (!er[i].on) {
            fprintf(f, "<td class=\"n\" colspan=\"3\">n/a (%s)</td><td></td></tr>\n",
                    i == 1 ? "no provider-published factor for this region"
                           : "not in this estimate: see --embodied");
            continue;
        }
        const char *ends[3] = {"low", "central", "high"};
        double vals[3] = {er[i].r->low, er[i].r->central, er[i].r->high};
        for (int k = 0; k < 3; k++) {
            char key[160];
            snprintf(key, sizeof key, "%s.%s", er[i].key, ends[k]);
            fprintf(f, "<td class=\"n\">");
            num(f, key, vals[k]);
            fprintf(f, "</td>");
        }
        fprintf(f, "<td>kgCO2e</td></tr>\n");
    }
    fprintf(f, "</tbody></table></section>\n");

    /* per node */
    if (e->n_nodes) {
        node_ix *ix = malloc(e->n_nodes * sizeof *ix);
        bar *nb = malloc((e->n_nodes + 1) * sizeof *nb);
        char (*keys)[48] = malloc((e->n_nodes + 1) * sizeof *keys);
        if (!ix || !nb || !keys) {
            free(ix);
            free(nb);
            free(keys);
            return JC_ERR_NOMEM;
        }
        double tot = 0, tt = 0;
        for (size_t i = 0; i < e->n_nodes; i++) {
            ix[i].i = i;
            ix[i].e = e->nodes[i].energy_j;
            tot += e->nodes[i].energy_j;
            tt += e->nodes[i].time_s;
        }
        qsort(ix, e->n_nodes, sizeof *ix, by_energy_desc);
        size_t top = top_nodes ? top_nodes : 15;
        if (top > e->n_nodes) top = e->n_nodes;
        size_t nbars = 0;
        for (size_t k = 0; k < top; k++) {
            const jc_est_node *x = &e->nodes[ix[k].i];
            snprintf(keys[nbars], sizeof keys[0], "nodes.%zu.energy_j", ix[k].i);
            nb[nbars] = (bar){x->name && *x->name ? x->name : "(unnamed)", x->op, x->energy_j, NAN, NAN,
                              keys[nbars], x->memory_bound ? "var(--idle)" : "var(--dyn)"};
            nbars++;
        }
        char other[80];
        if (top < e->n_nodes) {
            double rest = 0;
            for (size_t k = top; k < e->n_nodes; k++) rest += ix[k].e;
            snprintf(other, sizeof other, "other %zu nodes", e->n_nodes - top);
            nb[nbars++] = (bar){other, NULL, rest, NAN, NAN, NULL, "var(--pue)"};
        }
        fprintf(f, "<section id=\"nodes\"><h2>Energy per node</h2><p class=\"note\">Device energy of one forward "
                   "pass on one device (central), the %zu largest of %zu counted nodes; the rest grouped. Dark: "
                   "compute-bound, light: memory-bound.</p>\n", top, e->n_nodes);
        svg_hbars(f, nb, nbars, "J", 1060, 330, top ? 1.15 * ix[0].e : 0, 0);
        fprintf(f, "<div class=\"legend\"><span><i style=\"background:var(--dyn)\"></i>compute-bound</span>"
                   "<span><i style=\"background:var(--idle)\"></i>memory-bound</span>"
                   "<span><i style=\"background:var(--pue)\"></i>other nodes, grouped</span></div>\n</section>\n");

        fprintf(f, "<section id=\"node-table\"><h2>Per-node figures</h2><p class=\"note\">One forward pass, one "
                   "device, central case, in graph order.</p>\n<div class=\"scroll\"><table>\n<thead><tr><th>#</th>"
                   "<th>node</th><th>op</th><th class=\"n\">FLOP</th><th class=\"n\">bytes</th><th class=\"n\">time s"
                   "</th><th class=\"n\">time %%</th><th class=\"n\">energy J</th><th class=\"n\">energy %%</th>"
                   "<th>bound</th></tr></thead>\n<tbody>\n");
        for (size_t i = 0; i < e->n_nodes; i++) {
            const jc_est_node *x = &e->nodes[i];
            char k[64];
            fprintf(f, "<tr><td class=\"n\">%zu</td><td class=\"name\">", i + 1);
            esc(f, x->name);
            fprintf(f, "</td><td>");
            esc(f, x->op);
            fprintf(f, "</td><td class=\"n\">");
            snprintf(k, sizeof k, "nodes.%zu.flops", i);
            num(f, k, x->flops);
            fprintf(f, "</td><td class=\"n\">");
            snprintf(k, sizeof k, "nodes.%zu.bytes", i);
            num(f, k, x->bytes);
            fprintf(f, "</td><td class=\"n\">");
            snprintf(k, sizeof k, "nodes.%zu.time_s", i);
            num(f, k, x->time_s);
            fprintf(f, "</td><td class=\"n\">%.2f</td><td class=\"n\">", tt > 0 ? 100 * x->time_s / tt : 0);
            snprintf(k, sizeof k, "nodes.%zu.energy_j", i);
            num(f, k, x->energy_j);
            fprintf(f, "</td><td class=\"n\">%.2f</td><td>%s</td></tr>\n", tot > 0 ? 100 * x->energy_j / tot : 0,
                    x->memory_bound ? "memory" : "compute");
        }
        fprintf(f, "</tbody></table></div></section>\n");
        free(ix);
        free(nb);
        free(keys);
    }

    /* other figures */
    fprintf(f, "<section id=\"figures\"><h2>All figures</h2>\n<table><thead><tr><th>figure</th><th class=\"n\">low"
               "</th><th class=\"n\">central</th><th class=\"n\">high</th><th>unit</th></tr></thead><tbody>\n");
    struct { const char *label, *key, *unit; const jc_range *r; int on; } fr[] = {
        {"wall time", "results.wall_hours", "h", &e->wall_hours, 1},
        {"device-hours", "results.device_hours", "h", &e->device_hours, 1},
        {"energy, devices", "results.energy_device_kwh", "kWh", &e->energy_device_kwh, 1},
        {"&#160;&#160;idle floor", "results.energy_idle_kwh", "kWh", &e->energy_idle_kwh, 1},
        {"&#160;&#160;dynamic (above idle)", "results.energy_dynamic_kwh", "kWh", &e->energy_dynamic_kwh, 1},
        {"energy, host", "results.energy_host_kwh", "kWh", &e->energy_host_kwh, 1},
        {"energy, IT (devices + host)", "results.energy_it_kwh", "kWh", &e->energy_it_kwh, 1},
        {"energy, facility (IT &#215; PUE)", "results.energy_facility_kwh", "kWh", &e->energy_facility_kwh, 1},
        {"emissions, location-based", "results.co2_location_kg", "kgCO2e", &e->co2_kg, 1},
        {"implied utilisation of dense peak", "results.implied_utilization", "", &e->implied_utilization,
         e->implied_utilization.central > 0},
        {"average power per device", "results.avg_power_w_per_device", "W", &e->avg_power_w, 1},
        {"energy per sample (facility)", "results.j_per_sample", "J", &e->j_per_sample, e->j_per_sample.central > 0},
        {"samples per kWh", "results.samples_per_kwh", "", &e->samples_per_kwh, e->samples_per_kwh.central > 0},
        {"energy per token (facility)", "results.j_per_token", "J", &e->j_per_token, e->j_per_token.central > 0},
    };
    for (size_t i = 0; i < sizeof fr / sizeof fr[0]; i++) {
        if (!fr[i].on) continue;
        const char *ends[3] = {"low", "central", "high"};
        double vals[3] = {fr[i].r->low, fr[i].r->central, fr[i].r->high};
        fprintf(f, "<tr><td>%s</td>", fr[i].label);
        for (int k = 0; k < 3; k++) {
            char key[160];
            snprintf(key, sizeof key, "%s.%s", fr[i].key, ends[k]);
            fprintf(f, "<td class=\"n\">");
            num(f, key, vals[k]);
            fprintf(f, "</td>");
        }
        fprintf(f, "<td>%s</td></tr>\n", fr[i].unit);
    }
    fprintf(f, "</tbody></table></section>\n");

    if (e->n_equivalences) {
        fprintf(f, "<section id=\"equivalences\"><h2>Equivalent to</h2><p class=\"note\">Of the central "
                   "location-based emissions; each constant with its source.</p>\n");
        assumptions_table(f, e->equivalences, e->n_equivalences, "equivalences");
        fprintf(f, "</section>\n");
    }
    fprintf(f, "<section id=\"assumptions\"><h2>Assumptions</h2><p class=\"note\">Every number the estimate "
               "used, with its origin: a user option, a hardware-database entry with its file, line and "
               "publication, the model's count, a derived value or a documented default.</p>\n");
    assumptions_table(f, e->assumptions, e->n_assumptions, "assumptions");
    fprintf(f, "</section>\n");
    page_end(f);
    return ferror(f) ? JC_ERR_IO : JC_OK;
}

/* ---- compare ------------------------------------------------------------------------ */

jc_status jc_report_compare_html(const jc_compare_item *items, size_t n, FILE *f)
{
    if (!items || !n || !f) return JC_ERR_USAGE;
    for (size_t i = 0; i < n; i++)
        if (!items[i].est || !items[i].label) return JC_ERR_USAGE;
    const jc_estimate *e0 = items[0].est;
    char title[80];
    snprintf(title, sizeof title, "%zu models, one job", n);
    page_begin(f, "joulecast compare", title);
    hardware_line(f, e0);
    fprintf(f, "</header>\n");

    static const char *const palette[] = {"#1f6feb", "#e4572e", "#2e8b57", "#8e6bbf", "#f0a030", "#17a2b8",
                                          "#c2185b", "#6d4c41"};
    struct { const char *title, *key, *unit; int is_count; } figs[] = {
        {"MACs per forward pass", "macs", "", 1},
        {"Parameters", "params", "", 1},
        {"Wall time", "wall_hours", "h", 0},
        {"Energy, facility", "energy_kwh", "kWh", 0},
        {"Emissions, location-based", "co2_kg", "kgCO2e", 0},
        {"Energy per sample (facility)", "j_per_sample", "J", 0},
    };
    bar *b = malloc(n * sizeof *b);
    char (*keys)[64] = malloc(n * sizeof *keys);
    if (!b || !keys) {
        free(b);
        free(keys);
        return JC_ERR_NOMEM;
    }
    fprintf(f, "<div class=\"grid2\">\n");
    for (size_t k = 0; k < sizeof figs / sizeof figs[0]; k++) {
        size_t nb = 0;
        for (size_t i = 0; i < n; i++) {
            const jc_estimate *e = items[i].est;
            double v = NAN, lo = NAN, hi = NAN;
            switch (k) {
            case 0: v = items[i].macs >= 0 ? (double)items[i].macs : NAN; break;
            case 1: v = items[i].params >= 0 ? (double)items[i].params : NAN; break;
            case 2: v = e->wall_hours.central; lo = e->wall_hours.low; hi = e->wall_hours.high; break;
            case 3: v = e->energy_facility_kwh.central; lo = e->energy_facility_kwh.low;
                    hi = e->energy_facility_kwh.high; break;
            case 4: v = e->co2_kg.central; lo = e->co2_kg.low; hi = e->co2_kg.high; break;
            case 5: if (e->j_per_sample.central > 0) { v = e->j_per_sample.central; lo = e->j_per_sample.low;
                    hi = e->j_per_sample.high; } break;
            }
            if (isnan(v)) continue;
            if (figs[k].is_count) snprintf(keys[nb], sizeof keys[0], "models.%zu.%s", i, figs[k].key);
            else snprintf(keys[nb], sizeof keys[0], "models.%zu.%s.central", i, figs[k].key);
            b[nb] = (bar){items[i].label, NULL, v, lo, hi, keys[nb], palette[i % 8]};
            nb++;
        }
        fprintf(f, "<section><h2>%s</h2><p class=\"note\">%s</p>\n", figs[k].title,
                figs[k].is_count ? "Counted from the model at its batch." : "Bars: central; whiskers: low to high.");
        if (nb) svg_hbars(f, b, nb, figs[k].unit, 520, 170, 0, figs[k].is_count);
        else fprintf(f, "<p class=\"note\">n/a for every model</p>\n");
        fprintf(f, "</section>\n");
    }
    fprintf(f, "</div>\n");
    free(b);
    free(keys);

    fprintf(f, "<section id=\"table\"><h2>Side by side</h2><p class=\"note\">Ratios against the first model, ");
    esc(f, items[0].label);
    fprintf(f, ".</p>\n<table><thead><tr><th>model</th><th class=\"n\">batch</th><th>device</th><th>region</th>"
               "<th class=\"n\">MACs</th><th class=\"n\">params</th><th class=\"n\">wall h</th>"
               "<th class=\"n\">facility kWh</th><th class=\"n\">kgCO2e</th><th class=\"n\">J/sample</th>"
               "</tr></thead><tbody>\n");
    static const char *const rkeys[] = {"macs", "params", "wall_hours", "energy_kwh", "co2_kg", "j_per_sample"};
    for (size_t i = 0; i < n; i++) {
        const jc_compare_item *x = &items[i];
        const jc_estimate *e = x->est;
        char k[96];
        fprintf(f, "<tr><td class=\"name\">");
        esc(f, x->label);
        if (x->partial) fprintf(f, " <span class=\"tag derived\">partial count</span>");
        fprintf(f, "</td><td class=\"n\">");
        if (x->batch > 0) {
            snprintf(k, sizeof k, "models.%zu.batch", i);
            inum(f, k, x->batch);
        } else {
            fprintf(f, "-");
        }
        fprintf(f, "</td><td>");
        esc(f, e->device_id);
        fprintf(f, "</td><td>");
        esc(f, e->region_code ? e->region_code : "(--ci)");
        fprintf(f, "</td>");
        double vals[6] = {x->macs >= 0 ? (double)x->macs : NAN, x->params >= 0 ? (double)x->params : NAN,
                          e->wall_hours.central, e->energy_facility_kwh.central, e->co2_kg.central,
                          e->j_per_sample.central > 0 ? e->j_per_sample.central : NAN};
        for (int c = 0; c < 6; c++) {
            fprintf(f, "<td class=\"n\">");
            if (isnan(vals[c])) {
                fprintf(f, "n/a");
            } else {
                if (c < 2) snprintf(k, sizeof k, "models.%zu.%s", i, rkeys[c]);
                else snprintf(k, sizeof k, "models.%zu.%s.central", i, rkeys[c]);
                num(f, k, vals[c]);
                double base = c == 0 ? (double)items[0].macs : c == 1 ? (double)items[0].params
                            : c == 2 ? e0->wall_hours.central : c == 3 ? e0->energy_facility_kwh.central
                            : c == 4 ? e0->co2_kg.central : e0->j_per_sample.central;
                if (i > 0 && base > 0 && !(c < 2 && (items[0].macs < 0 || items[0].params < 0))) {
                    snprintf(k, sizeof k, "models.%zu.ratio.%s", i, rkeys[c]);
                    fprintf(f, "<br><span class=\"src\"><span class=\"num\"");
                    dattr(f, k, vals[c] / base);
                    fprintf(f, ">%.3g</span>&#215;</span>", vals[c] / base);
                }
            }
            fprintf(f, "</td>");
        }
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</tbody></table></section>\n");
    int any = 0;
    for (size_t i = 0; i < n; i++) any |= items[i].note != NULL || items[i].est->n_warnings > 0;
    if (any) {
        fprintf(f, "<div class=\"warn\"><b>Notes</b><ul>\n");
        for (size_t i = 0; i < n; i++) {
            if (items[i].note) {
                fprintf(f, "<li><b>");
                esc(f, items[i].label);
                fprintf(f, "</b>: ");
                esc(f, items[i].note);
                fprintf(f, "</li>\n");
            }
            for (size_t k = 0; k < items[i].est->n_warnings; k++) {
                fprintf(f, "<li><b>");
                esc(f, items[i].label);
                fprintf(f, "</b>: ");
                esc(f, items[i].est->warnings[k]);
                fprintf(f, "</li>\n");
            }
        }
        fprintf(f, "</ul></div>\n");
    }
    page_end(f);
    return ferror(f) ? JC_ERR_IO : JC_OK;
}

/* ---- sweep ---------------------------------------------------------------------------- */

typedef struct axis {
    int log;
    double lo, hi;     /* data range mapped (log: log10 of it) */
    double p0, p1;     /* pixel range */
} axis;

static axis make_axis(double mn, double mx, double p0, double p1)
{
    axis a;
    a.p0 = p0;
    a.p1 = p1;
    a.log = mn > 0 && mx / mn > 20;
    if (a.log) {
        /* the nearest 1, 2, 5 x 10^k around the data */
        double d = floor(log10(mn)), m = mn / pow(10, d);
        a.lo = d + (m >= 5 ? log10(5) : m >= 2 ? log10(2) : 0);
        d = floor(log10(mx));
        m = mx / pow(10, d);
        a.hi = d + (m <= 1 ? 0 : m <= 2 ? log10(2) : m <= 5 ? log10(5) : 1);
        if (a.hi <= a.lo) a.hi = a.lo + 1;
    } else {
        double span = mx - (mn < 0 ? mn : 0);
        double step = pow(10, floor(log10(span > 0 ? span : 1)));
        a.lo = 0;
        a.hi = ceil(mx / step) * step;
        if (a.hi <= 0) a.hi = 1;
    }
    return a;
}

static double ax_map(const axis *a, double v)
{
    double t = a->log ? (log10(v > 0 ? v : pow(10, a->lo)) - a->lo) / (a->hi - a->lo) : (v - a->lo) / (a->hi - a->lo);
    return a->p0 + t * (a->p1 - a->p0);
}

/* Tick values of an axis: decades (with 2 and 5 when few) or 5 linear steps. */
static size_t ax_ticks(const axis *a, double *t, size_t cap)
{
    size_t n = 0;
    if (a->log) {
        int few = a->hi - a->lo <= 3.5;
        static const double mult[3] = {1, 2, 5};
        for (int d = (int)floor(a->lo); d <= (int)ceil(a->hi) && n < cap; d++)
            for (int k = 0; k < (few ? 3 : 1) && n < cap; k++) {
                double v = mult[k] * pow(10, d), l = log10(v);
                if (l >= a->lo - 1e-9 && l <= a->hi + 1e-9) t[n++] = v;
            }
    } else {
        for (int i = 0; i <= 5 && n < cap; i++) t[n++] = a->lo + (a->hi - a->lo) * i / 5;
    }
    return n;
}

static const char *tick_label(char *b, size_t cap, double v)
{
    snprintf(b, cap, "%.3g", v);
    return b;
}

static void entry_title(FILE *f, const jc_sweep_entry *x)
{
    char a[48], b[48];
    esc(f, x->device_id);
    fprintf(f, " in ");
    esc(f, x->region_code ? x->region_code : "(--ci)");
    fprintf(f, ", %s", x->precision ? x->precision : "");
    if (x->batch > 0) fprintf(f, ", batch %g", x->batch);
    fprintf(f, ": %s h, %s kgCO2e", sig4(a, sizeof a, x->wall_hours.central), sig4(b, sizeof b, x->co2_kg.central));
}

static int by_time(const void *pa, const void *pb)
{
    const jc_sweep_entry *a = *(const jc_sweep_entry *const *)pa, *b = *(const jc_sweep_entry *const *)pb;
    if (a->wall_hours.central != b->wall_hours.central) return a->wall_hours.central < b->wall_hours.central ? -1 : 1;
    return (a->co2_kg.central > b->co2_kg.central) - (a->co2_kg.central < b->co2_kg.central);
}

static jc_status svg_scatter(FILE *f, const jc_sweep *s)
{
    const int vw = 1060, vh = 500, ml = 86, mr = 24, mt = 16, mb = 54;
    double tmin = INFINITY, tmax = 0, cmin = INFINITY, cmax = 0;
    for (size_t i = 0; i < s->n_entries; i++) {
        const jc_sweep_entry *x = &s->entries[i];
        if (x->wall_hours.central < tmin) tmin = x->wall_hours.central;
        if (x->wall_hours.central > tmax) tmax = x->wall_hours.central;
        if (x->co2_kg.central < cmin) cmin = x->co2_kg.central;
        if (x->co2_kg.central > cmax) cmax = x->co2_kg.central;
    }
    axis ax = make_axis(tmin, tmax, ml, vw - mr), ay = make_axis(cmin, cmax, vh - mb, mt);
    fprintf(f, "<svg viewBox=\"0 0 %d %d\" role=\"img\" class=\"chart scatter\">\n", vw, vh);
    double t[40];
    size_t nt = ax_ticks(&ax, t, 40);
    char b[48];
    for (size_t i = 0; i < nt; i++) {
        double x = ax_map(&ax, t[i]);
        fprintf(f, "<line class=\"gridl\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/><text class=\"tick\" "
                   "x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", x, mt, x, vh - mb, x, vh - mb + 16,
                tick_label(b, sizeof b, t[i]));
    }
    nt = ax_ticks(&ay, t, 40);
    for (size_t i = 0; i < nt; i++) {
        double y = ax_map(&ay, t[i]);
        fprintf(f, "<line class=\"gridl\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/><text class=\"tick\" "
                   "x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", ml, y, vw - mr, y, ml - 8, y + 4,
                tick_label(b, sizeof b, t[i]));
    }
    fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/><line class=\"axis\" x1=\"%d\" "
               "y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n", ml, vh - mb, vw - mr, vh - mb, ml, mt, ml, vh - mb);
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"12.5\" text-anchor=\"middle\">wall time, hours%s</text>\n",
            (ml + vw - mr) / 2, vh - 12, ax.log ? " (log scale)" : "");
    fprintf(f, "<text transform=\"translate(18 %d) rotate(-90)\" font-size=\"12.5\" text-anchor=\"middle\">"
               "emissions, kgCO2e%s</text>\n", (mt + vh - mb) / 2, ay.log ? " (log scale)" : "");
    /* every entry, then the front on top */
    fprintf(f, "<g fill=\"#7b8794\" fill-opacity=\"0.45\">\n");
    for (size_t i = 0; i < s->n_entries; i++) {
        const jc_sweep_entry *x = &s->entries[i];
        if (x->pareto) continue;
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\"><title>", ax_map(&ax, x->wall_hours.central),
                ax_map(&ay, x->co2_kg.central));
        entry_title(f, x);
        fprintf(f, "</title></circle>\n");
    }
    fprintf(f, "</g>\n");
    const jc_sweep_entry **fr = malloc((s->n_pareto ? s->n_pareto : 1) * sizeof *fr);
    if (!fr) return JC_ERR_NOMEM;
    size_t nf = 0;
    for (size_t i = 0; i < s->n_entries; i++)
        if (s->entries[i].pareto) fr[nf++] = &s->entries[i];
    qsort(fr, nf, sizeof *fr, by_time);
    if (nf > 1) {
        fprintf(f, "<path fill=\"none\" stroke=\"var(--front)\" stroke-width=\"2\" d=\"");
        for (size_t i = 0; i < nf; i++) {
            double x = ax_map(&ax, fr[i]->wall_hours.central), y = ax_map(&ay, fr[i]->co2_kg.central);
            if (i == 0) fprintf(f, "M%.1f %.1f", x, y);
            else fprintf(f, "H%.1fV%.1f", x, y);   /* a staircase: the front holds between points */
        }
        fprintf(f, "\"/>\n");
    }
    for (size_t i = 0; i < nf; i++) {
        size_t rank = (size_t)(fr[i] - s->entries);
        char k[96];
        fprintf(f, "<circle class=\"front\" cx=\"%.1f\" cy=\"%.1f\" r=\"5.5\" fill=\"var(--front)\" stroke=\"#fff\" "
                   "stroke-width=\"1.5\"", ax_map(&ax, fr[i]->wall_hours.central), ax_map(&ay, fr[i]->co2_kg.central));
        snprintf(k, sizeof k, "entries.%zu.co2_kg.central", rank);
        dattr(f, k, fr[i]->co2_kg.central);
        fprintf(f, "><title>Pareto front: ");
        entry_title(f, fr[i]);
        fprintf(f, "</title></circle>\n");
    }
    free(fr);
    fprintf(f, "</svg>\n<div class=\"legend\"><span><i style=\"background:var(--front)\"></i>Pareto front: no "
               "other entry is both faster and lower in emissions</span><span><i style=\"background:#b7bec7\"></i>"
               "other entries</span></div>\n");
    return JC_OK;
}

static void sweep_row(FILE *f, const jc_sweep *s, size_t i)
{
    const jc_sweep_entry *x = &s->entries[i];
    char k[96];
    fprintf(f, "<tr%s><td class=\"n\">%zu</td><td>%s</td><td class=\"name\">", x->pareto ? " class=\"front\"" : "",
            i + 1, x->pareto ? "&#9733;" : "");
    esc(f, x->device_id);
    fprintf(f, "<br><span class=\"src\">");
    esc(f, x->device_name);
    fprintf(f, "</span></td><td>");
    esc(f, x->region_code ? x->region_code : "(--ci)");
    fprintf(f, "</td><td>%s</td><td class=\"n\">", x->precision ? x->precision : "");
    if (x->batch > 0) {
        snprintf(k, sizeof k, "entries.%zu.batch", i);
        inum(f, k, x->batch);
    } else {
        fprintf(f, "-");
    }
    const char *rk[3] = {"wall_hours", "energy_kwh", "co2_kg"};
    const jc_range *rv[3] = {&x->wall_hours, &x->energy_kwh, &x->co2_kg};
    for (int c = 0; c < 3; c++) {
        fprintf(f, "</td><td class=\"n\">");
        snprintf(k, sizeof k, "entries.%zu.%s.central", i, rk[c]);
        num(f, k, rv[c]->central);
    }
    fprintf(f, "</td><td class=\"n\">");
    snprintf(k, sizeof k, "entries.%zu.ci_gco2e_per_kwh", i);
    num(f, k, x->ci);
    fprintf(f, "</td><td class=\"n\">");
    snprintf(k, sizeof k, "entries.%zu.pue", i);
    fnum(f, k, x->pue, 2);
    fprintf(f, "</td></tr>\n");
}

static void sweep_head(FILE *f)
{
    fprintf(f, "<thead><tr><th class=\"n\">rank</th><th></th><th>device</th><th>region</th><th>prec</th>"
               "<th class=\"n\">batch</th><th class=\"n\">wall h</th><th class=\"n\">facility kWh</th>"
               "<th class=\"n\">kgCO2e</th><th class=\"n\">gCO2e/kWh</th><th class=\"n\">PUE</th></tr></thead>\n");
}

jc_status jc_report_sweep_html(const jc_sweep *s, size_t top, FILE *f)
{
    if (!s || !f) return JC_ERR_USAGE;
    char b1[40];
    page_begin(f, "joulecast sweep", s->model ? s->model : "a job given by its FLOPs");
    fprintf(f, "<p class=\"sub\"><b>%s</b> &#183; %s method &#183; sorted by <b>%s</b> (central) &#183; %zu device%s "
               "&#215; %zu region%s &#215; %zu batch size%s &#215; %zu precision%s = %s points</p>\n</header>\n",
            jc_mode_name(s->mode), jc_method_name(s->method), jc_sweep_sort_name(s->sort), s->n_devices,
            s->n_devices == 1 ? "" : "s", s->n_regions, s->n_regions == 1 ? "" : "s", s->n_batches,
            s->n_batches == 1 ? "" : "s", s->n_precisions, s->n_precisions == 1 ? "" : "s",
            fmt_int(b1, sizeof b1, (int64_t)s->n_points));
    fprintf(f, "<div class=\"cards\">\n<div class=\"card\"><div class=\"label\">Estimated</div><div class=\"big\">");
    inum(f, "grid.estimated", (double)s->n_entries);
    fprintf(f, "</div><div class=\"range\">of ");
    inum(f, "grid.points", (double)s->n_points);
    fprintf(f, " grid points</div></div>\n<div class=\"card\"><div class=\"label\">Skipped</div><div class=\"big\">");
    inum(f, "grid.skipped_points", (double)s->n_skipped_points);
    fprintf(f, "</div><div class=\"range\">each listed with its reason</div></div>\n<div class=\"card\"><div "
               "class=\"label\">Pareto front</div><div class=\"big\">");
    inum(f, "grid.pareto", (double)s->n_pareto);
    fprintf(f, "</div><div class=\"range\">time vs emissions</div></div>\n");
    if (s->n_entries) {
        const jc_sweep_entry *x = &s->entries[0];
        fprintf(f, "<div class=\"card\"><div class=\"label\">Rank 1 by %s</div><div class=\"big\">",
                jc_sweep_sort_name(s->sort));
        if (s->sort == JC_SWEEP_BY_ENERGY) qty(f, "entries.0.energy_kwh.central", x->energy_kwh.central, U_KWH);
        else if (s->sort == JC_SWEEP_BY_TIME) qty(f, "entries.0.wall_hours.central", x->wall_hours.central, U_H);
        else qty(f, "entries.0.co2_kg.central", x->co2_kg.central, U_KG);
        fprintf(f, "</div><div class=\"range\">");
        esc_cut(f, x->device_id, 40);
        fprintf(f, " in ");
        esc(f, x->region_code ? x->region_code : "(--ci)");
        fprintf(f, "</div></div>\n");
    }
    fprintf(f, "</div>\n");
    if (s->n_entries) {
        fprintf(f, "<section id=\"scatter\"><h2>Time against emissions</h2><p class=\"note\">Every estimated entry "
                   "(central case); hover a point for its device, region, precision and batch. The line joins the "
                   "Pareto front.</p>\n");
        jc_status st = svg_scatter(f, s);
        if (st) return st;
        fprintf(f, "</section>\n");

        fprintf(f, "<section id=\"front\"><h2>Pareto front</h2><p class=\"note\">Fastest first. Moving along the "
                   "front trades time for emissions; every other entry is beaten on both by one of these.</p>\n"
                   "<table>");
        sweep_head(f);
        fprintf(f, "<tbody>\n");
        const jc_sweep_entry **fr = malloc((s->n_pareto ? s->n_pareto : 1) * sizeof *fr);
        if (!fr) return JC_ERR_NOMEM;
        size_t nf = 0;
        for (size_t i = 0; i < s->n_entries; i++)
            if (s->entries[i].pareto) fr[nf++] = &s->entries[i];
        qsort(fr, nf, sizeof *fr, by_time);
        for (size_t i = 0; i < nf; i++) sweep_row(f, s, (size_t)(fr[i] - s->entries));
        free(fr);
        fprintf(f, "</tbody></table></section>\n");

        size_t shown = top && top < s->n_entries ? top : s->n_entries;
        fprintf(f, "<section id=\"ranking\"><h2>Ranking by %s</h2><p class=\"note\">", jc_sweep_sort_name(s->sort));
        if (shown < s->n_entries)
            fprintf(f, "The first %zu of %zu entries (--csv and --json list them all). ", shown, s->n_entries);
        fprintf(f, "&#9733; marks the Pareto front.</p>\n<div class=\"scroll\"><table>");
        sweep_head(f);
        fprintf(f, "<tbody>\n");
        for (size_t i = 0; i < shown; i++) sweep_row(f, s, i);
        fprintf(f, "</tbody></table></div></section>\n");
    }
    if (s->n_skipped) {
        fprintf(f, "<section id=\"skipped\"><h2>Skipped</h2><p class=\"note\">Grid points that could not be "
                   "estimated, with what is missing; an empty device or region stands for all of them.</p>\n"
                   "<div class=\"scroll\"><table><thead><tr><th>device</th><th>region</th><th>prec</th>"
                   "<th class=\"n\">batch</th><th>reason</th></tr></thead><tbody>\n");
        for (size_t i = 0; i < s->n_skipped; i++) {
            const jc_sweep_entry *x = &s->skipped[i];
            fprintf(f, "<tr><td>");
            esc(f, x->device_id ? x->device_id : "(every device)");
            fprintf(f, "</td><td>");
            esc(f, x->region_code ? x->region_code : "(every region)");
            fprintf(f, "</td><td>%s</td><td class=\"n\">", x->precision ? x->precision : "");
            if (x->batch > 0) fprintf(f, "%g", x->batch);
            else fprintf(f, "all");
            fprintf(f, "</td><td class=\"src\">");
            esc(f, x->reason);
            fprintf(f, "</td></tr>\n");
        }
        fprintf(f, "</tbody></table></div></section>\n");
    }
    warn_box(f, "<b>Notes</b> (warnings of the estimates, each once)", s->notes, s->n_notes);
    page_end(f);
    return ferror(f) ? JC_ERR_IO : JC_OK;
}
