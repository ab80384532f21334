/*
 * lookup.c (cli) - the command line that `joulecast hw` and `region` share (see
 * lookup.h): each option of the library's table (jci_command_opt_keys) as
 * --name V or --name=V, given once, set by jci_lookup_opts_set; the
 * argument of show as the "show" key; the rules between them
 * (jci_lookup_opts_check) are the library's, so the binding refuses the
 * same things in the same words.
 */
#include "cli/lookup.h"
#include "cli/jobopts.h"
#include "workflows/cmd_opts.h"

#include <stdlib.h>
#include <string.h>

/* The command line's own row beside the library's and --json. */
static const jo_opt hwdb_row[] = {
    {"hwdb", JO_REQ, 0, "DIR", "an override layer on the bundled database (repeatable; $JOULECAST_HWDB too)"},
};

void lookup_help(FILE *f, const char *cmd)
{
    jo_spec s = {cmd, JO_TAKES_LIB | JO_TAKES_JSON, NULL, hwdb_row, 1};
    size_t n = 0;
    jo_opt *rows = jo_spec_rows(&s, &n);
    if (rows) jo_help_rows(f, rows, n);
    free(rows);
}

/* The argument of show: the table's "show" row names it (ID, CODE). */
static const char *show_arg(const char *cmd)
{
    size_t n = 0;
    const jci_cmd_key *k = jci_command_opt_keys(cmd, &n);
    for (size_t i = 0; i < n; i++)
        if (k[i].argument) return k[i].arg;
    return "NAME";
}

/* argv[*i] as one of the library's options: 1 when it is one (*rc the
 * exit code of setting it), 0 when it is not. */
static int lib_opt(const char *cmd, int argc, char **argv, int *i, jci_lookup_opts *o, int *rc)
{
    size_t n = 0;
    const jci_cmd_key *k = jci_command_opt_keys(cmd, &n);
    for (size_t r = 0; r < n; r++) {
        char name[64];
        const char *v = NULL;
        int err = 0;
        if (k[r].argument) continue;
        snprintf(name, sizeof name, "--%s", k[r].name);
        if (!cli_opt_once(argc, argv, i, cmd, name, &v, &err)) continue;
        jc_diag d;
        *rc = err ? JC_ERR_USAGE : jo_lib_status(cmd, "command line", jci_lookup_opts_set(o, cmd, k[r].name, v, &d), &d);
        return 1;
    }
    return 0;
}

/* One argument of the command line after the subcommand. */
static int one_arg(const char *cmd, int show, int argc, char **argv, int *i, jci_lookup_opts *o,
                   const char **layers, size_t *n_layers, int *json)
{
    int err = 0, rc = 0;
    jc_diag d;
    if (cli_hwdb_layer_opt(argc, argv, i, layers, n_layers, &err)) return err ? JC_ERR_USAGE : 0;
    if (!strcmp(argv[*i], "--json")) {
        *json = 1;
        return 0;
    }
    if (lib_opt(cmd, argc, argv, i, o, &rc)) return rc;
    if (argv[*i][0] == '-' && argv[*i][1]) return cli_usage(cmd, "unknown option '%s'", argv[*i]);
    if (!show || o->show) return cli_usage(cmd, "unexpected argument '%s'", argv[*i]);
    return jo_lib_status(cmd, "command line", jci_lookup_opts_set(o, cmd, "show", argv[*i], &d), &d);
}

int lookup_run(const char *cmd, int argc, char **argv, lookup_fn list, lookup_fn show)
{
    const char *arg = show_arg(cmd);
    if (argc < 2 || (strcmp(argv[1], "list") && strcmp(argv[1], "show")))
        return cli_usage(cmd, "expected '%s list' or '%s show %s'", cmd, cmd, arg);
    int is_show = !strcmp(argv[1], "show");
    const char **layers = calloc((size_t)argc, sizeof *layers);
    if (!layers) return JC_ERR_NOMEM;
    size_t n = 0;
    jci_lookup_opts o = {0};
    jc_hw_filter flt;
    jc_diag d;
    int json = 0, rc = 0;
    for (int i = 2; i < argc && !rc; i++) rc = one_arg(cmd, is_show, argc, argv, &i, &o, layers, &n, &json);
    if (!rc && is_show && !o.show) rc = cli_usage(cmd, "missing %s (see 'joulecast %s list')", arg, cmd);
    if (!rc && jci_lookup_opts_check(&o, cmd, &flt, &d)) rc = cli_usage(cmd, "%s", d.msg);
    jc_hwdb *db = NULL;
    if (!rc) rc = cli_hwdb_open(layers, n, &db);
    if (!rc) rc = (is_show ? show : list)(db, &o, &flt, json);
    jc_hwdb_free(db);
    free(layers);
    return rc;
}
