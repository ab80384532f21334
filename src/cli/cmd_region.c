/*
 * cmd_region.c (cli) - `joulecast region list [--provider P] [--type T] [--json]`
 * and `joulecast region show CODE [--json]`: grid regions and cloud
 * regions with every dataset's intensity, the default and why.  The
 * options are the library's (jci_command_opt_keys("region")), as the
 * binding's; the command line around them is src/cli/lookup.c's.
 */
#include "cli/lookup.h"
#include "workflows/cmd_opts.h"

/* region show CODE. */
static int show(const jc_hwdb *db, const jci_lookup_opts *o, const jc_hw_filter *flt, int json)
{
    const jc_region *r;
    jc_diag d;
    (void)flt;
    if (jc_hwdb_region(db, o->show, &r, &d)) return cli_fail(&d);
    return json ? cli_emit_json(jc_report_region_json(r)) : cli_written(jc_report_region_text(r, stdout));
}

/* region list, by provider and type. */
static int list(const jc_hwdb *db, const jci_lookup_opts *o, const jc_hw_filter *flt, int json)
{
    jc_diag d;
    (void)flt;
    if (jc_region_list_check(db, o->provider, o->type, &d))
        return d.status == JC_ERR_USAGE ? cli_usage("region", "%s", d.msg) : cli_fail(&d);
    if (json) return cli_emit_json(jc_report_region_list_json(db, o->provider, o->type));
    return cli_written(jc_report_region_list_text(db, o->provider, o->type, stdout));
}

int cmd_region(int argc, char **argv)
{
    return lookup_run("region", argc, argv, list, show);
}
