/*
 * cmd_opts.c (workflows) - the own options of `joulecast statement`,
 * `calibrate`, `hw` and `region` as data (src/workflows/cmd_opts.def),
 * parsed once for the command line, job files and the binding: one
 * setter per command's struct, each through the one table walk here, so
 * every refusal of a value is worded once; jci_command_opt_keys lists a
 * command's rows (sweep's too) for the CLI's rows and --help and the
 * binding's key lists.  The rules between the options of hw and region
 * (jci_lookup_opts_check) are here as well, and the statement formats'
 * names (jc_statement_formats_parse).
 */
#include "base/jc_internal.h"
#include "joulecast/hwdb.h"
#include "joulecast/workflows.h"
#include "joulecast/calibrate.h"
#include "workflows/cmd_opts.h"
#include "workflows/sweep_opts.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum { O_TEXT, O_WORDS, O_FORMATS, O_ROW, O_YEARS };

/* The struct each command's options go to. */
#define JCI_OPTS_statement jci_statement_keys
#define JCI_OPTS_calibrate jc_calibrate_opts
#define JCI_OPTS_hw jci_lookup_opts
#define JCI_OPTS_region jci_lookup_opts

#define CMD_OPT(command, name, arg, argument, kind, field, help) {name, arg, help, 1, argument},
static const jci_cmd_key keys[] = {
#include "workflows/cmd_opts.def"
};
#undef CMD_OPT
#define N_ROWS (sizeof keys / sizeof keys[0])

#define CMD_OPT(command, name, arg, argument, kind, field, help) {#command, O_##kind, offsetof(JCI_OPTS_##command, field)},
static const struct { const char *command; int kind; size_t off; } how[N_ROWS] = {
#include "workflows/cmd_opts.def"
};
#undef CMD_OPT

jc_status jc_statement_formats_parse(const char *s, unsigned *mask, jc_diag *d)
{
    static const struct { const char *name; unsigned mask; } t[] = {
        {"markdown", 1u << JC_STMT_MARKDOWN}, {"md", 1u << JC_STMT_MARKDOWN}, {"latex", 1u << JC_STMT_LATEX},
        {"tex", 1u << JC_STMT_LATEX}, {"hf", 1u << JC_STMT_HF},
        {"sentence", 1u << JC_STMT_SENTENCE},
        {"all", 1u << JC_STMT_MARKDOWN | 1u << JC_STMT_LATEX | 1u << JC_STMT_HF | 1u << JC_STMT_SENTENCE},
    };
    for (size_t i = 0; s && mask && i < sizeof t / sizeof t[0]; i++)
        if (!strcmp(s, t[i].name)) {
            *mask = t[i].mask;
            return JC_OK;
        }
    return jci_diag_set(d, JC_ERR_USAGE, "format expects markdown, latex, hf, sentence or all, got '%s'", s ? s : "");
}

const jci_cmd_key *jci_command_opt_keys(const char *command, size_t *n)
{
    size_t first = 0, k = 0;
    if (n) *n = 0;
    if (!command) return NULL;
    if (!strcmp(command, "sweep")) return jci_sweep_opt_keys(n);
    while (first < N_ROWS && strcmp(how[first].command, command)) first++;
    while (first + k < N_ROWS && !strcmp(how[first + k].command, command)) k++;
    if (n) *n = k;
    return k ? keys + first : NULL;
}

/* Option `key` of `command` from its text into the struct o: a
 * non-empty value, checked by the row's kind.  The message starts with
 * the key; JC_ERR_NOTFOUND for a key that is not the command's. */
static jc_status set(const char *command, void *o, const char *key, const char *value, jc_diag *d)
{
    if (!o || !key) return jci_diag_set(d, JC_ERR_USAGE, "%s options: NULL argument", command);
    size_t i = 0;
    while (i < N_ROWS && (strcmp(how[i].command, command) || strcmp(keys[i].name, key))) i++;
    if (i == N_ROWS) return jci_diag_set(d, JC_ERR_NOTFOUND, "%s: unknown option '%s'", command, key);
    int empty = !value || !*value;
    if (empty && (how[i].kind != O_WORDS || !value))
        return jci_diag_set(d, JC_ERR_USAGE, "%s expects a value, got nothing", key);
    char *at = (char *)o + how[i].off;
    switch (how[i].kind) {
    case O_TEXT:
    case O_WORDS: *(const char **)at = value; return JC_OK;
    case O_FORMATS: {   /* each given adds its formats (--format all: the three) */
        unsigned m = 0;
        jc_status st = jc_statement_formats_parse(value, &m, d);
        *(unsigned *)at |= m;
        return st;
    }
    case O_ROW: {
        char *end = NULL;
        double r = strtod(value, &end);
        if (*end || !(r >= 1) || r != floor(r) || r > 1e9)
            return jci_diag_set(d, JC_ERR_USAGE, "%s expects a whole number >= 1 (a data row, 1 = first), got '%s'",
                                key, value);
        *(double *)at = r;
        return JC_OK;
    }
    case O_YEARS: {
        jc_hw_filter f = {0};
        jc_status st = jc_hw_filter_years(value, &f, d);
        if (!st) *(const char **)at = value;
        return st;
    }
    }
    return jci_diag_set(d, JC_ERR_INTERNAL, "%s options: bad key table", command);
}

jc_status jci_statement_keys_set(jci_statement_keys *o, const char *key, const char *value, jc_diag *d)
{
    return set("statement", o, key, value, d);
}

jc_status jc_calibrate_opts_set(jc_calibrate_opts *o, const char *key, const char *value, jc_diag *d)
{
    return set("calibrate", o, key, value, d);
}

jc_status jci_lookup_opts_set(jci_lookup_opts *o, const char *command, const char *key, const char *value,
                             jc_diag *d)
{
    if (!command || (strcmp(command, "hw") && strcmp(command, "region")))
        return jci_diag_set(d, JC_ERR_USAGE, "jci_lookup_opts_set: the command is hw or region, not '%s'",
                            command ? command : "(null)");
    return set(command, o, key, value, d);
}

jc_status jci_lookup_opts_check(const jci_lookup_opts *o, const char *command, jc_hw_filter *f, jc_diag *d)
{
    if (!o || !command || !f) return jci_diag_set(d, JC_ERR_USAGE, "jci_lookup_opts_check: NULL argument");
    memset(f, 0, sizeof *f);
    if (!strcmp(command, "region")) {
        if (o->show && (o->provider || o->type))
            return jci_diag_set(d, JC_ERR_USAGE, "--provider and --type filter the list; show names one region: "
                                "not both");
        return JC_OK;
    }
    if (o->show && (o->kind || o->vendor || o->form_factor || o->year))
        return jci_diag_set(d, JC_ERR_USAGE, "--kind, --vendor, --form-factor and --year filter the list; show "
                            "names one device or host: not both");
    *f = (jc_hw_filter){.kind = o->kind, .vendor = o->vendor, .form_factor = o->form_factor};
    return o->year ? jc_hw_filter_years(o->year, f, d) : JC_OK;
}
