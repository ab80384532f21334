/*
 * statement.c (report) - `joulecast statement`: a ready-to-paste carbon
 * statement of an estimate, as a Markdown paragraph with footnotes, the
 * same in LaTeX, or the Hugging Face model-card `co2_eq_emissions` block.
 *
 * Also the one-sentence form (--format sentence): the same figures in one
 * Markdown sentence without footnotes, the command that reproduces it at
 * its end.
 *
 * Rule: no figure without its source.  Each figure of the paragraph gets
 * a footnote built from the estimate's own assumption records (the hwdb
 * file:line and publication, the option the user gave, or the model
 * count), so the statement can never cite something the estimate did not
 * use.  Formatting only: every number comes from the jc_estimate.
 */
#include "joulecast.h" /* JC_VERSION */
#include "base/jc_internal.h"
#include "estimate/akeys.h"
#include "base/fmt.h"

#include <math.h>
#include <string.h>

#define EN_DASH "\xe2\x80\x93"

/* A sentence-sized text with its footnotes, built for one format. */
typedef struct stmt {
    jc_statement_format fmt;
    FILE *f;
    const char *notes[12];
    char notebuf[12][1400];
    int n_notes;
} stmt;

/* LaTeX: a URL at t as \url{...} (hyperref or the url package; % and #
 * escaped, as a footnote argument needs); returns its length, 0 when t
 * starts no URL.  It ends at a space or a closing bracket, without a
 * final full stop, comma or semicolon. */
static size_t put_url(stmt *s, const char *t)
{
    if (strncmp(t, "http://", 7) && strncmp(t, "https://", 8)) return 0;
    size_t n = strcspn(t, " \t\n)]}");
    while (n > 8 && strchr(".,;:", t[n - 1])) n--;
    fputs("\\url{", s->f);
    for (size_t i = 0; i < n; i++) {
        if (strchr("%#{}\\", t[i])) fputc('\\', s->f);
        fputc(t[i], s->f);
    }
    fputc('}', s->f);
    return n;
}

/* Writes s with the escapes of the format (Markdown: inline emphasis and
 * link characters; LaTeX: the ten special characters, "--" kept as two
 * hyphens ("-{}-", not an en dash: option names), the en dash of a range
 * as "--" and URLs as \url).  Text is written with an en dash (EN_DASH)
 * for every range, so one spelling serves both formats. */
static void put_esc(stmt *s, const char *t)
{
    for (; t && *t; t++) {
        unsigned char c = (unsigned char)*t;
        if (s->fmt == JC_STMT_LATEX) {
            size_t u = put_url(s, t);
            if (u) {
                t += u - 1;
                continue;
            }
            if (c == '-' && t[1] == '-') {
                fputs("-{}", s->f);
                continue;
            }
            if (!strncmp(t, EN_DASH, 3)) {
                fputs("--", s->f);
                t += 2;
                continue;
            }
            switch (c) {
            case '\\': fputs("\\textbackslash{}", s->f); continue;
            case '~': fputs("\\textasciitilde{}", s->f); continue;
            case '^': fputs("\\textasciicircum{}", s->f); continue;
            case '&': case '%': case '$': case '#': case '_': case '{': case '}':
                fputc('\\', s->f);
                fputc(c, s->f);
                continue;
            default: break;
            }
        } else if (strchr("*_[]<>`\\", c)) {
            fputc('\\', s->f);
        }
        fputc(c, s->f);
    }
}

/* After a vsnprintf into b[cap] that wanted n bytes: when the text was
 * cut, ends it at a word boundary with "..." (never mid-word, never
 * inside a UTF-8 character). */
static void ellipsize(char *b, size_t cap, int n)
{
    if (n < 0 || (size_t)n < cap || cap < 8) return;
    size_t end = cap - 4;
    size_t sp = end;
    while (sp > cap / 2 && b[sp] != ' ') sp--;
    if (b[sp] == ' ') end = sp;
    while (end > 0 && ((unsigned char)b[end] & 0xC0) == 0x80) end--;
    while (end > 0 && strchr(" ,;(", b[end - 1])) end--;
    memcpy(b + end, "...", 4);
}

/* Adds a footnote (printf-style text) and writes its marker. */
static void note(stmt *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(stmt *s, const char *fmt, ...)
{
    if (s->n_notes >= 12) return;
    char *b = s->notebuf[s->n_notes];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b, sizeof s->notebuf[0], fmt, ap);
    va_end(ap);
    ellipsize(b, sizeof s->notebuf[0], n);
    s->notes[s->n_notes++] = b;
    if (s->fmt == JC_STMT_LATEX) {
        fputs("\\footnote{", s->f);
        put_esc(s, b);
        fputs("}", s->f);
    } else {
        fprintf(s->f, "[^%d]", s->n_notes);
    }
}

/* The source text of an assumption: "user option --pue", "hwdb/...". */
static const char *src_text(char *buf, size_t cap, const jc_assumption *a)
{
    if (!a) { snprintf(buf, cap, "not recorded"); return buf; }
    int n;
    switch (a->origin) {
    case JC_ORIGIN_USER: n = snprintf(buf, cap, "given by the user (%s)", a->source ? a->source : "option"); break;
    case JC_ORIGIN_MODEL: n = snprintf(buf, cap, "counted from the model (%s)", a->source ? a->source : ""); break;
    case JC_ORIGIN_DEFAULT: n = snprintf(buf, cap, "joulecast default: %s", a->source ? a->source : ""); break;
    default: n = snprintf(buf, cap, "%s", a->source && *a->source ? a->source : "joulecast hardware database"); break;
    }
    ellipsize(buf, cap, n);
    /* the footnote adds its own full stop */
    size_t len = strlen(buf);
    if (len > 1 && buf[len - 1] == '.' && buf[len - 2] != '.') buf[len - 1] = 0;
    return buf;
}

static const char *unit_co2(const stmt *s)
{
    return s->fmt == JC_STMT_LATEX ? "kgCO2e" : "kgCO\xe2\x82\x82" "e";
}

/* The path p as a reader names the file: "a/../" and "./" collapsed
 * ("docs/examples/../../models/x.onnx" is "models/x.onnx"), written into
 * out (capacity cap); p itself when it does not fit. */
static const char *tidy_path(char *out, size_t cap, const char *p)
{
    size_t n = strlen(p), o = 0;
    if (n >= cap) return p;
    const char *q = p;
    if (*q == '/') out[o++] = *q++;
    size_t root = o;
    while (*q) {
        const char *e = strchr(q, '/');
        size_t len = e ? (size_t)(e - q) : strlen(q);
        if ((len == 1 && q[0] == '.') || len == 0) {
            /* "./" or "//": nothing */
        } else if (len == 2 && q[0] == '.' && q[1] == '.' && o > root &&
                   !(o - root >= 2 && out[o - 1] == '.' && out[o - 2] == '.' && (o - root == 2 || out[o - 3] == '/'))) {
            while (o > root && out[o - 1] != '/') o--;   /* drop the last name */
            if (o > root) o--;                           /* and its slash */
        } else {
            if (o > root) out[o++] = '/';
            memcpy(out + o, q, len);
            o += len;
        }
        q += len + (e ? 1 : 0);
    }
    out[o] = 0;
    return o ? out : p;
}

/* " on N x DEVICE[^n] in H hosts": the hardware with its footnote, then
 * in words the precision (prec: when the time model used it) and the
 * host, each saying whether it was given or assumed. */
static void hardware(stmt *s, const jc_estimate *e, int prec)
{
    FILE *f = s->f;
    char t1[1100], al[200] = "";
    fprintf(f, " on %s %s ", FMT_N(e->devices), s->fmt == JC_STMT_LATEX ? "$\\times$" : "\xc3\x97");
    put_esc(s, e->device_name);
    const jc_assumption *dv = jci_estimate_assumption(e, JCI_AK_DEVICES);
    if (e->device_alias)
        snprintf(al, sizeof al, " ('%s' is an alias that picks this variant; joulecast hw list shows the others)",
                 e->device_alias);
    if (e->device_file)
        note(s, "Hardware: device %s%s, %s:%d; device count %s; host %s: %s.", e->device_id, al, e->device_file,
             e->device_line, src_text(t1, sizeof t1, dv), e->host_given ? "given" : "assumed",
             e->host_assumed ? e->host_assumed : "none");
    else
        note(s, "Hardware: device %s%s of the joulecast hardware database; device count %s; host %s: %s.",
             e->device_id, al, src_text(t1, sizeof t1, dv), e->host_given ? "given" : "assumed",
             e->host_assumed ? e->host_assumed : "none");
    if (prec && e->precision) {
        const jc_assumption *pr = jci_estimate_assumption(e, JCI_AK_PRECISION);
        fputs(" in ", f);
        put_esc(s, e->precision);
        fputs(pr && pr->origin == JC_ORIGIN_USER ? " arithmetic" : " arithmetic (assumed: the device's default)", f);
    }
    if (e->host_id) {
        if (e->hosts == 1) fputs(" in one ", f);
        else fprintf(f, " in %s ", FMT_N(e->hosts));
        put_esc(s, e->host_id);
        fputs(e->hosts == 1 ? " host" : " hosts", f);
        if (!e->host_given) fputs(" (assumed: the provider's instance for these devices)", f);
    } else if (e->host_given) {
        fputs(" with the host power given", f);
    } else if (e->host_class && strcmp(e->host_class, "none") && e->hosts > 0) {
        char n[64];
        if (e->hosts == 1) snprintf(n, sizeof n, "one server");
        else if (e->hosts < 1) snprintf(n, sizeof n, "a %s share of one server", FMT_N(e->hosts));
        else snprintf(n, sizeof n, "%s servers", FMT_N(e->hosts));
        fprintf(f, " with the host power of %s of the system class '", n);
        put_esc(s, e->host_class);
        fputs("' (assumed: no host named)", f);
    }
}

/* When no host was named: that the host figure is the system class's,
 * a reference server's, so a footnote that cites another system's
 * datasheet is read as the class's source, not as this run's host
 * (into buf; "" when a host was named or given). */
static const char *host_class_words(char *buf, size_t cap, const jc_estimate *e)
{
    buf[0] = 0;
    if (!e->host_id && !e->host_given && e->host_class && strcmp(e->host_class, "none") && e->hosts > 0)
        snprintf(buf, cap, "no host named, so the system class '%s' is assumed: the power of its reference server, "
                 "not of this run's host (--host ID names yours); ", e->host_class);
    return buf;
}

/* The code span of a file name or command (Markdown backticks, LaTeX \texttt). */
static void code(stmt *s, const char *t)
{
    if (s->fmt == JC_STMT_LATEX) { fputs("\\texttt{", s->f); put_esc(s, t); fputs("}", s->f); }
    else fprintf(s->f, "`%s`", t);
}

/* How the figures came about: the method sentence of the tail. */
enum { STMT_PREDICTED, STMT_COMPUTED, STMT_SERVING };

/* The intensity basis in words, for the grid footnote (into buf, cap
 * bytes): the region's own default figure beside the common basis; ""
 * when there is nothing to say (a region on another basis: the
 * intensity's own source says why). */
static const char *basis_note(char *buf, size_t cap, const jc_estimate *e)
{
    char a[64], yr[16];
    const jc_intensity *own = e->region ? e->region->default_intensity : NULL;
    buf[0] = 0;
    /* a region on another basis: the intensity's own source says why */
    if (e->ci_basis_fallback) return buf;
    if (!isnan(e->ci_region_default) && own) {
        const char *oname = own->dataset && own->dataset->name ? own->dataset->name : own->dataset_id;
        snprintf(yr, sizeof yr, "%d", own->value.year);
        snprintf(buf, cap, " joulecast puts every region on this one dataset; the region's own default figure, "
                 "%s gCO2e/kWh (%s%s%s), is not used.", fmt_num(a, sizeof a, e->ci_region_default), oname,
                 strstr(oname, yr) ? "" : ", ", strstr(oname, yr) ? "" : yr);
    }
    return buf;
}

/* The rest of the paragraph, shared by every estimate: PUE, grid,
 * emissions, method, reproduction and (Markdown) the footnotes. */
/* issue 45: the water the job consumes and what it costs, each with its
 * basis and source in a footnote; nothing for what is not known.  Then
 * the assumption that dominates the emissions' range (the sensitivity's
 * top driver), when the estimate ranked them. */
static void water_cost(stmt *s, const jc_estimate *e)
{
    FILE *f = s->f;
    char a[64], b[64], c[64], t[1100];
    const char *dash = s->fmt == JC_STMT_LATEX ? "--" : "\xe2\x80\x93", *nb = s->fmt == JC_STMT_LATEX ? "~" : " ";
    if (e->has_water) {
        fprintf(f, "; it consumes about %s%sL of water (range %s%s%s%sL)", fmt_num(a, sizeof a, e->water_l.central), nb,
                fmt_num(b, sizeof b, e->water_l.low), dash, fmt_num(c, sizeof c, e->water_l.high), nb);
        int n = snprintf(t, sizeof t, "Water: %s", e->water_basis);
        if (!isnan(e->wue_l_per_kwh) && n > 0 && (size_t)n < sizeof t)
            n += snprintf(t + n, sizeof t - n, "; WUE %s L/kWh, %s", FMT_N(e->wue_l_per_kwh), e->wue_source);
        if (!isnan(e->grid_water_l_per_kwh) && n > 0 && (size_t)n < sizeof t)
            snprintf(t + n, sizeof t - n, "; %s L per kWh generated, %s", FMT_N(e->grid_water_l_per_kwh),
                     e->grid_water_source);
        note(s, "%s.", t);
    }
    if (e->has_cost) {
        fprintf(f, ", and costs about %s %s (range %s%s%s %s)", fmt_num(a, sizeof a, e->cost.central), e->cost_currency,
                fmt_num(b, sizeof b, e->cost.low), dash, fmt_num(c, sizeof c, e->cost.high), e->cost_currency);
        note(s, "Cost (%s): %s %s x %s; %s%s%s.", e->cost_basis, FMT_N(e->cost_rate), e->cost_rate_unit,
             isnan(e->cost_units) ? "facility kWh" : "instances x wall hours", e->cost_source,
             e->cost_date ? ", dated " : "", e->cost_date ? e->cost_date : "");
    }
    if (e->n_sensitivity) {
        const jc_sensitivity *r = &e->sensitivity[0];
        fprintf(f, ". The assumption that dominates this range is the %s: alone from its low to its high it moves the "
                   "emissions from %s to %s %s", r->label, fmt_num(a, sizeof a, r->co2_low),
                fmt_num(b, sizeof b, r->co2_high), unit_co2(s));
        note(s, "Sensitivity: each ranged assumption moved alone from its low to its high, the others central; "
                "%s (%s to %s%s%s) swings the emissions most of the %zu ranked.", r->key, FMT_N(r->low), FMT_N(r->high),
             r->unit && *r->unit ? " " : "", r->unit ? r->unit : "", e->n_sensitivity);
    }
}

static void tail(stmt *s, const jc_estimate *e, const jc_statement_opts *o, int how)
{
    FILE *f = s->f;
    char a[64], b[64], c[64], t1[1100];
    const char *dash = s->fmt == JC_STMT_LATEX ? "--" : "\xe2\x80\x93";   /* en dash */
    /* PUE */
    const jc_assumption *pue = jci_estimate_assumption(e, JCI_AK_PUE);
    fprintf(f, " at a PUE of %s", e->pue.central > 0 ? fmt_num(a, sizeof a, e->pue.central) : "n/a");
    note(s, "PUE: %s.", src_text(t1, sizeof t1, pue));

    /* grid */
    const jc_assumption *ci = jci_estimate_assumption(e, JCI_AK_CI);
    fprintf(f, ". With a grid carbon intensity of %s gCO%se/kWh", fmt_num(a, sizeof a, e->ci.central),
            s->fmt == JC_STMT_LATEX ? "$_2$" : "\xe2\x82\x82");
    if (e->region_code) {
        fputs(" for ", f);
        put_esc(s, e->region_name ? e->region_name : e->region_code);
        fputs(" (", f);
        put_esc(s, e->region_code);
        if (!e->ci_dataset_id) fputs(")", f);
    }
    if (e->ci_dataset_id) {
        const char *dname = e->ci_dataset_name ? e->ci_dataset_name : e->ci_dataset_id;
        /* the dataset in the sentence, its basis in the footnote */
        fputs(e->region_code ? "; " : ", dataset ", f);
        put_esc(s, dname);
        char yr[16], bn[600];
        snprintf(yr, sizeof yr, "%d", e->ci_year);   /* the year once: not when the name says it */
        if (!strstr(dname, yr)) fprintf(f, ", %s", yr);
        if (e->region_code) fputs(")", f);
        note(s, "Grid intensity: dataset %s (%s), year %d, %s; basis %s.%s", e->ci_dataset_id, dname,
             e->ci_year, src_text(t1, sizeof t1, ci), e->ci_basis ? e->ci_basis : "not stated",
             basis_note(bn, sizeof bn, e));
    } else {
        note(s, "Grid intensity: %s%s%s.", ci ? ci->label : "", ci ? "; " : "", src_text(t1, sizeof t1, ci));
    }

    /* emissions */
    if (s->fmt == JC_STMT_LATEX)
        fprintf(f, ", this amounts to %s~kgCO$_2$e of location-based emissions (range %s--%s~kgCO$_2$e)",
                fmt_num(a, sizeof a, e->co2_kg.central), fmt_num(b, sizeof b, e->co2_kg.low), fmt_num(c, sizeof c, e->co2_kg.high));
    else
        fprintf(f, ", this amounts to %s %s of location-based emissions (range %s%s%s %s)",
                fmt_num(a, sizeof a, e->co2_kg.central), unit_co2(s), fmt_num(b, sizeof b, e->co2_kg.low), dash,
                fmt_num(c, sizeof c, e->co2_kg.high), unit_co2(s));
    note(s, "Emissions = facility energy x grid carbon intensity (operational, location-based%s); the range "
            "combines the energy range with the spread of the region's grid datasets.",
         e->has_embodied ? "; the embodied share is reported apart by joulecast" : "; embodied emissions excluded");
    water_cost(s, e);

    /* method and reproduction */
    if (e->has_measured)
        fprintf(f, ". The %s energy was measured (%s, %s trace) and the rest %s with joulecast %s (%s method)",
                e->measured_scope, e->trace->path, jc_trace_format_name(e->trace->format),
                e->lower_bound ? "computed as lower bounds" : "computed", JC_VERSION, jc_method_name(e->method));
    else if (how == STMT_SERVING)
        fprintf(f, ". These figures are %spredicted with joulecast %s (serving model, docs/workflow-serving.md), "
                "not measured", e->lower_bound ? "lower bounds, " : "", JC_VERSION);
    else if (how == STMT_COMPUTED && e->method == JC_METHOD_ROOFLINE)
        fprintf(f, ". These figures are %scomputed with joulecast %s from the runtime given and the device power "
                   "model, not measured", e->lower_bound ? "lower bounds, " : "", JC_VERSION);
    else
        fprintf(f, ". These figures are %s%s with joulecast %s (%s method), not measured",
                e->lower_bound ? "lower bounds, " : "", how == STMT_COMPUTED ? "computed" : "predicted", JC_VERSION,
                jc_method_name(e->method));
    if (e->lower_bound) {
        fputs(" (the model's operation count is partial: the work not counted adds time, energy and emissions)", f);
        note(s, "Lower bound: the model's count is partial (joulecast count names the unbound dims and ops "
                "it could not count); the estimate was let through with --allow-partial.");
    }
    if (o->reproduce) {
        fputs("; ", f);
        code(s, o->reproduce);
        fputs(" reproduces them", f);
        if (o->db && o->db->data_version) {
            fputs(" with joulecast ", f);
            fputs(JC_VERSION, f);
            fputs(" and hwdb data ", f);
            put_esc(s, o->db->data_version);
        }
        if (e->model_sha256) {   /* the file, weights included (statement hashes it) */
            fputs(" for the model file of SHA-256 ", f);
            put_esc(s, e->model_sha256);
        }
    }
    fputs(".\n", f);

    if (s->fmt == JC_STMT_MARKDOWN) {
        fputs("\n", f);
        for (int i = 0; i < s->n_notes; i++) {
            fprintf(f, "[^%d]: ", i + 1);
            put_esc(s, s->notes[i]);
            fputs("\n", f);
        }
    }
}

/* "Training the model `m`" / "Running inference with a model of 7
 * billion parameters": what ran, only as the user gave it. */
static void subject(stmt *s, const jc_estimate *e, const jc_statement_opts *o)
{
    FILE *f = s->f;
    char a[64];
    int train = e->mode == JC_MODE_TRAINING;
    const jc_assumption *np = jci_estimate_assumption(e, JCI_AK_PARAMS), *fl = jci_estimate_assumption(e, JCI_AK_TOTAL_FLOPS);
    const jc_assumption *tp = jci_estimate_assumption(e, JCI_AK_TR_PARAMS_ACTIVE);
    if (!np && tp && tp->origin == JC_ORIGIN_USER) np = tp;   /* the step model's --params */
    if (o->model) {
        fputs(train ? "Training the model " : "Running inference with the model ", f);
        char tidy[1024];
        code(s, tidy_path(tidy, sizeof tidy, o->model));
    } else if (np) {
        double n = np->value.central;
        int big = n >= 1e9 ? 9 : n >= 1e6 ? 6 : 0;
        fprintf(f, "%s a model of %s%s parameters", train ? "Training" : "Running inference with",
                FMT_N(n / pow(10, big)), big == 9 ? " billion" : big == 6 ? " million" : "");
    } else if (fl && fl->origin == JC_ORIGIN_USER) {
        fprintf(f, "%s job of %s FLOP", train ? "A training" : "An inference", fmt_si(a, sizeof a, fl->value.central));
    } else {
        fputs(train ? "A training job" : "An inference job", f);
    }
}

/* Writes the paragraph (Markdown or LaTeX). */
static void paragraph(stmt *s, const jc_estimate *e, const jc_statement_opts *o)
{
    FILE *f = s->f;
    char a[64], b[64], c[64], t1[1100], t2[1100];
    const char *dash = s->fmt == JC_STMT_LATEX ? "--" : "\xe2\x80\x93";   /* en dash */

    const jc_assumption *rh = jci_estimate_assumption(e, JCI_AK_RUNTIME_HOURS), *rdh = jci_estimate_assumption(e, JCI_AK_RUNTIME_DEVICE_HOURS);
    subject(s, e, o);
    hardware(s, e, !(rh || rdh));

    /* time */
    fprintf(f, " takes %s%s h of wall-clock time (%s device-hours)", rh || rdh ? "" : "an estimated ",
            fmt_num(a, sizeof a, e->wall_hours.central), fmt_num(b, sizeof b, e->device_hours.central));
    if (rh || rdh) {
        note(s, "Runtime %s.", src_text(t1, sizeof t1, rh ? rh : rdh));
    } else {
        const jc_assumption *u = jci_estimate_assumption(e, JCI_AK_UTILIZATION);
        char ur[160] = "";
        if (u && u->value.low != u->value.high)
            snprintf(ur, sizeof ur, ", range %s" EN_DASH "%s", fmt_num(b, sizeof b, u->value.low),
                     fmt_num(c, sizeof c, u->value.high));
        if (u) {
            note(s, "Runtime predicted by joulecast's roofline model from %s FLOP of work at a utilisation of "
                    "%s of dense peak%s; utilisation: %s.",
                 fmt_si(a, sizeof a, e->flops_total), fmt_num(t2, 40, u->value.central), ur, src_text(t1, sizeof t1, u));
        } else {
            /* no utilisation was assumed: the time is modelled node by node,
             * and the utilisation is what that time implies */
            const jc_range *iu = &e->implied_utilization;
            if (!isnan(iu->central) && iu->low != iu->high)
                snprintf(ur, sizeof ur, ", range %s" EN_DASH "%s", fmt_num(b, sizeof b, iu->low), fmt_num(c, sizeof c, iu->high));
            note(s, "Runtime predicted by joulecast's roofline model from %s FLOP of work, node by node from each "
                    "node's FLOPs and bytes at the runtime profile's achievable fractions of peak (docs/energy-model.md); "
                    "implied utilisation %s of dense peak%s; runtime profile: %s.",
                 fmt_si(a, sizeof a, e->flops_total), isnan(iu->central) ? "n/a" : fmt_num(t2, 40, iu->central), ur,
                 src_text(t1, sizeof t1, jci_estimate_assumption(e, JCI_AK_RUNTIME)));
        }
    }

    /* energy */
    fprintf(f, " and uses %s%s kWh of facility energy (range %s%s%s kWh)", rh || rdh ? "" : "an estimated ",
            fmt_num(a, sizeof a, e->energy_facility_kwh.central), fmt_num(b, sizeof b, e->energy_facility_kwh.low), dash,
            fmt_num(c, sizeof c, e->energy_facility_kwh.high));
    {
        const jc_assumption *tdp = jci_estimate_assumption(e, JCI_AK_TDP), *ap = jci_estimate_assumption(e, JCI_AK_AVG_POWER),
                            *hp = jci_estimate_assumption(e, JCI_AK_HOST_POWER);
        char dp[1100];
        if (ap) snprintf(dp, sizeof dp, "measured average power %s W per device, %s",
                         fmt_num(a, sizeof a, ap->value.central), src_text(t2, sizeof t2, ap));
        else if (tdp && e->method == JC_METHOD_ROOFLINE && !e->has_measured && !isnan(e->avg_power_w.central))
            snprintf(dp, sizeof dp, "on average %s W per device from the utilisation-based power model between "
                                    "idle and TDP; device TDP %s W, %s", fmt_num(a, sizeof a, e->avg_power_w.central),
                     fmt_num(c, sizeof c, tdp->value.central), src_text(t2, sizeof t2, tdp));
        else if (tdp) snprintf(dp, sizeof dp, "device TDP %s W, %s", fmt_num(a, sizeof a, tdp->value.central),
                               src_text(t2, sizeof t2, tdp));
        else snprintf(dp, sizeof dp, "device power not recorded");
        char how_e[80];
        if ((rh || rdh) && e->method == JC_METHOD_ROOFLINE) snprintf(how_e, sizeof how_e, "device power model over the runtime given");
        else snprintf(how_e, sizeof how_e, "%s method", jc_method_name(e->method));
        note(s, "Energy by joulecast's %s (docs/energy-model.md): device energy %s kWh (%s), "
                "host energy %s kWh (%s%s), times the PUE. The range takes every ranged input at the end "
                "that lowers, then raises, the energy (docs/energy-model.md, section 5).",
             how_e, fmt_num(b, sizeof b, e->energy_device_kwh.central), dp,
             fmt_num(c, sizeof c, e->energy_host_kwh.central), host_class_words(t2, sizeof t2, e),
             src_text(t1, sizeof t1, hp));
    }

    tail(s, e, o, rh || rdh ? STMT_COMPUTED : STMT_PREDICTED);
}

/* The serving paragraph (Markdown or LaTeX): the model and workload,
 * the hardware and parallelism, the serving time, the facility energy and
 * what it comes to per output token and per request, then the tail. */
static void serving_paragraph(stmt *s, const jc_serving *v, const jc_statement_opts *o)
{
    const jc_estimate *e = v->estimate;
    FILE *f = s->f;
    char a[64], b[64], c[64], t1[1100], t2[1100], t3[1100];
    const char *dash = s->fmt == JC_STMT_LATEX ? "--" : "\xe2\x80\x93";   /* en dash */
    const char *pct = s->fmt == JC_STMT_LATEX ? "\\%" : "%";

    fputs("Serving the model ", f);
    code(s, o->model ? o->model : v->model);
    fprintf(f, " (");
    if (v->model_type) { put_esc(s, v->model_type); fputs(", ", f); }
    fprintf(f, "%s parameters", fmt_si(a, sizeof a, v->params_total));
    if (v->params_active < v->params_total) fprintf(f, ", %s active", fmt_si(b, sizeof b, v->params_active));
    fprintf(f, ") for %s requests of %s prompt and %s output tokens", fmt_num(a, sizeof a, v->requests),
            FMT_N(v->prompt_tokens), FMT_N(v->output_tokens));
    hardware(s, e, 0);
    fprintf(f, " (%s replica%s of tensor parallel %s, pipeline %s, ", FMT_N(v->replicas), v->replicas == 1 ? "" : "s",
            FMT_N(v->tp), FMT_N(v->pp));
    if (v->ep > 0) fprintf(f, "expert parallel %s, ", FMT_N(v->ep));
    fprintf(f, "%s running sequences per replica%s, ", FMT_N(v->concurrency),
            v->memory_limited ? " as the KV-cache memory allows" : "");
    put_esc(s, v->weights);
    fputs(" weights, ", f);
    if (v->expert_weights) {
        put_esc(s, v->expert_weights);
        fputs(" experts, ", f);
    }
    put_esc(s, v->kv_format);
    fputs(" KV cache)", f);

    fprintf(f, " takes an estimated %s h of serving time (%s device-hours)", fmt_num(a, sizeof a, e->wall_hours.central),
            fmt_num(b, sizeof b, e->device_hours.central));
    note(s, "Serving time predicted by joulecast's serving model (docs/workflow-serving.md): per request a "
            "prefill over the prompt and decode steps over the context growing from %s to %s tokens, "
            "continuous batching at %s running sequences; time to first token %s ms, inter-token latency "
            "%s ms, %s output tokens/s per device (central); the phase efficiencies and runtime overheads "
            "are constants of hwdb/serving.yaml, each listed with its line and source among the estimate's "
            "assumptions.", FMT_N(v->prompt_tokens), FMT_N(v->prompt_tokens + v->output_tokens), FMT_N(v->concurrency),
         fmt_num(a, sizeof a, v->ttft_s.central * 1e3), fmt_num(b, sizeof b, v->itl_s.central * 1e3),
         fmt_num(c, sizeof c, v->tokens_per_s_per_device.central));

    fprintf(f, " and uses an estimated %s kWh of facility energy (range %s%s%s kWh)",
            fmt_num(a, sizeof a, e->energy_facility_kwh.central), fmt_num(b, sizeof b, e->energy_facility_kwh.low), dash,
            fmt_num(c, sizeof c, e->energy_facility_kwh.high));
    const jc_assumption *ap = jci_estimate_assumption(e, JCI_AK_AVG_POWER), *hp = jci_estimate_assumption(e, JCI_AK_HOST_POWER);
    snprintf(t2, sizeof t2, "prefill %s W, decode %s W", fmt_num(a, sizeof a, v->power_prefill_w.central),
             fmt_num(b, sizeof b, v->power_decode_w.central));
    note(s, "Energy by joulecast's serving model: device energy %s kWh at an average of %s W per device "
            "(%s; %s), host energy %s kWh (%s), times the PUE. The range takes every ranged input at the end "
            "that lowers, then raises, the energy (docs/energy-model.md, section 5).",
         fmt_num(c, sizeof c, e->energy_device_kwh.central), fmt_num(a, 32, e->avg_power_w.central), t2,
         src_text(t1, sizeof t1, ap), fmt_num(b, sizeof b, e->energy_host_kwh.central),
         src_text(t3, sizeof t3, hp));
    fprintf(f, ", %s J per output token (%s J at the devices alone) and %s J per request, %s%s of the device "
               "energy in prefill,", fmt_num(a, sizeof a, v->j_per_output_token.central),
            fmt_num(b, sizeof b, v->j_per_output_token_device.central), fmt_num(c, sizeof c, v->j_per_request.central),
            fmt_num(t1, 64, 100 * v->prefill_energy_share), pct);
    tail(s, e, o, STMT_SERVING);
}

/* The one-sentence form (Markdown; no footnotes): what ran on what, the
 * time, the facility energy and the emissions with their ranges, the
 * PUE and the intensity with its region and dataset, how the figures came
 * about and the command that reproduces them.  v: a serving estimate. */
static void sentence(stmt *s, const jc_estimate *e, const jc_serving *v, const jc_statement_opts *o)
{
    FILE *f = s->f;
    char a[64], b[64], c[64], d[64], g[64], h[64];
    int known = !v && (jci_estimate_assumption(e, JCI_AK_RUNTIME_HOURS) || jci_estimate_assumption(e, JCI_AK_RUNTIME_DEVICE_HOURS));
    if (v) {
        fputs("Serving the model ", f);
        code(s, o->model ? o->model : v->model);
        fprintf(f, " for %s requests", fmt_num(a, sizeof a, v->requests));
    } else {
        subject(s, e, o);
    }
    fprintf(f, " on %s \xc3\x97 ", FMT_N(e->devices));
    put_esc(s, e->device_name);
    fprintf(f, " takes %s%s h (%s device-hours), uses %s kWh of facility energy (range %s" EN_DASH "%s kWh) at a "
               "PUE of %s and emits ", known ? "" : "an estimated ", fmt_num(a, sizeof a, e->wall_hours.central),
            fmt_num(b, sizeof b, e->device_hours.central), fmt_num(c, sizeof c, e->energy_facility_kwh.central),
            fmt_num(d, sizeof d, e->energy_facility_kwh.low), fmt_num(g, sizeof g, e->energy_facility_kwh.high),
            e->pue.central > 0 ? fmt_num(h, sizeof h, e->pue.central) : "n/a");
    fprintf(f, "%s %s (range %s" EN_DASH "%s %s) at %s gCO\xe2\x82\x82" "e/kWh", fmt_num(a, sizeof a, e->co2_kg.central),
            unit_co2(s), fmt_num(b, sizeof b, e->co2_kg.low), fmt_num(c, sizeof c, e->co2_kg.high), unit_co2(s),
            fmt_num(d, sizeof d, e->ci.central));
    if (e->region_code || e->ci_dataset_id) {
        fputs(" (", f);
        if (e->region_code) put_esc(s, e->region_name ? e->region_name : e->region_code);
        if (e->region_code && e->ci_dataset_id) fputs(", ", f);
        if (e->ci_dataset_id) put_esc(s, e->ci_dataset_name ? e->ci_dataset_name : e->ci_dataset_id);
        fputs(")", f);
    }
    fprintf(f, "; %s%s with joulecast %s (%s%s)%s", e->lower_bound ? "lower bounds, " : "",
            e->has_measured ? "partly measured, the rest computed" : known ? "computed" : "predicted", JC_VERSION,
            v ? "serving model" : jc_method_name(e->method), v ? "" : " method", e->has_measured ? "" : ", not measured");
    if (o->reproduce) {
        fputs("; ", f);
        code(s, o->reproduce);
        fputs(" reproduces it", f);
    }
    fputs(".\n", f);
}

static jc_status hf_block(FILE *f, const jc_estimate *e, const jc_statement_opts *o)
{
    char a[64], buf[1400];
    double g = e->co2_kg.central * 1000;
    fputs("co2_eq_emissions:\n", f);
    /* grams as a YAML number (no thousands separators): whole grams from
     * 100 g on, else the reports' four significant digits */
    if (g >= 100) fprintf(f, "  emissions: %.0f\n", g);
    else fprintf(f, "  emissions: %s\n", fmt_num(a, sizeof a, g));
    if (e->lower_bound)
        fputs("  # lower bound: the model's operation count is partial (--allow-partial)\n", f);
    const int known = jci_estimate_assumption(e, JCI_AK_RUNTIME_HOURS) || jci_estimate_assumption(e, JCI_AK_RUNTIME_DEVICE_HOURS);
    char meth[64] = "";
    if (!known || e->method != JC_METHOD_ROOFLINE) snprintf(meth, sizeof meth, " (%s method)", jc_method_name(e->method));
    int n = snprintf(buf, sizeof buf, "joulecast %s %s%s, %s; "
             "location-based, range %s-%s g%s%s%s%s", JC_VERSION,
             e->lower_bound ? "lower bound (partial count)" : "estimate", meth,
             e->has_measured ? (!strcmp(e->measured_scope, "device") ? "device energy measured (trace), host modelled"
                                : !strcmp(e->measured_scope, "host") ? "host energy measured (trace), devices modelled"
                                : "energy measured (trace)")
             : known ? "computed from the runtime given and the device power model, not measured"
                             : "predicted, not measured",
             fmt_num(a, 32, e->co2_kg.low * 1000), fmt_num(a + 32, 32, e->co2_kg.high * 1000),
             o->reproduce ? "; reproduce: " : "", o->reproduce ? o->reproduce : "",
             o->reproduce && o->db && o->db->data_version ? " with hwdb data " : "",
             o->reproduce && o->db && o->db->data_version ? o->db->data_version : "");
    ellipsize(buf, sizeof buf, n);
    fputs("  source: ", f);
    jci_yaml_quote(f, buf);
    if (!o->training_type)
        fputs("\n  # training_type: the default, pre-training; --training-type fine-tuning for a fine-tune", f);
    fputs("\n  training_type: ", f);
    jci_yaml_quote(f, o->training_type ? o->training_type : "pre-training");
    fputs("\n  geographical_location: ", f);
    if (o->location) jci_yaml_quote(f, o->location);
    else if (e->region_code) {
        snprintf(buf, sizeof buf, "%s (%s)", e->region_name ? e->region_name : e->region_code, e->region_code);
        jci_yaml_quote(f, buf);
    } else {
        jci_yaml_quote(f, "not stated (grid intensity given directly)");
    }
    snprintf(buf, sizeof buf, "%s x %s", FMT_N(e->devices), e->device_name);
    fputs("\n  hardware_used: ", f);
    jci_yaml_quote(f, buf);
    fputs("\n", f);
    return JC_OK;
}

/* Both statements: checks, the HF block or the paragraph (v: serving). */
static jc_status write_statement(const jc_estimate *e, const jc_serving *v, const jc_statement_opts *o,
                                 jc_statement_format fmt, FILE *f, jc_diag *d)
{
    jci_diag_clear(d);
    jc_statement_opts none;
    memset(&none, 0, sizeof none);
    if (!o) o = &none;
    if (!e || !f) return jci_diag_set(d, JC_ERR_USAGE, "jc_report_statement: NULL argument");
    /* the HF block's own fields: refused where nothing prints them */
    if (fmt != JC_STMT_HF && (o->training_type || o->location))
        return jci_diag_set(d, JC_ERR_USAGE, "statement: --%s fills the Hugging Face block (--format hf or all); "
                           "the %s statement has no such field: drop it, or add --format hf",
                           o->training_type ? "training-type" : "location", fmt == JC_STMT_LATEX ? "LaTeX" : "Markdown");
    if (o->location && !*o->location)
        return jci_diag_set(d, JC_ERR_USAGE, "statement: --location is empty: give the place, or drop it for the "
                           "region's name");
    if (fmt == JC_STMT_HF) {
        if (v)
            return jci_diag_set(d, JC_ERR_USAGE, "statement: the Hugging Face co2_eq_emissions block describes "
                               "training (pre-training or fine-tuning); this is a serving (generation) estimate: "
                               "use --format markdown or latex, whose paragraph can go in the model card's text");
        if (e->mode != JC_MODE_TRAINING)
            return jci_diag_set(d, JC_ERR_USAGE, "statement: the Hugging Face co2_eq_emissions block describes "
                               "training (pre-training or fine-tuning); this is an inference estimate");
        if (o->training_type && strcmp(o->training_type, "pre-training") && strcmp(o->training_type, "fine-tuning"))
            return jci_diag_set(d, JC_ERR_USAGE, "statement: --training-type must be pre-training or fine-tuning "
                               "(got '%s')", o->training_type);
        hf_block(f, e, o);
    } else if (fmt == JC_STMT_SENTENCE) {
        stmt s;
        memset(&s, 0, sizeof s);
        s.fmt = JC_STMT_MARKDOWN;
        s.f = f;
        sentence(&s, e, v, o);
    } else if (fmt == JC_STMT_MARKDOWN || fmt == JC_STMT_LATEX) {
        stmt s;
        memset(&s, 0, sizeof s);
        s.fmt = fmt;
        s.f = f;
        if (v) serving_paragraph(&s, v, o);
        else paragraph(&s, e, o);
    } else {
        return jci_diag_set(d, JC_ERR_USAGE, "statement: unknown format %d", (int)fmt);
    }
    if (ferror(f)) return jci_diag_set(d, JC_ERR_IO, "statement: write failed");
    return JC_OK;
}

jc_status jc_report_statement(const jc_estimate *e, const jc_statement_opts *o,
                              jc_statement_format fmt, FILE *f, jc_diag *d)
{
    return write_statement(e, NULL, o, fmt, f, d);
}

jc_status jc_report_serving_statement(const jc_serving *v, const jc_statement_opts *o,
                                      jc_statement_format fmt, FILE *f, jc_diag *d)
{
    return write_statement(v ? v->estimate : NULL, v, o, fmt, f, d);
}
