/*
 * cmd_hw.c (cli) - `joulecast hw list [--kind K] [--vendor V] [--form-factor F]
 * [--year Y|Y1-Y2] [--json]` and `joulecast hw show ID [--json]`: the
 * devices and hosts of the hardware database, every value with its
 * source.  The options are the library's (jci_command_opt_keys("hw"),
 * parsed by jci_lookup_opts_set and checked by jci_lookup_opts_check), as
 * the binding's; the command line around them is src/cli/lookup.c's,
 * which `region` shares.
 */
#include "cli/lookup.h"
#include "workflows/cmd_opts.h"

#include <string.h>

/* hw show ID: the device or host. */
static int show(const jc_hwdb *db, const jci_lookup_opts *o, const jc_hw_filter *flt, int json)
{
    const jc_device *dev;
    const jc_host *host;
    jc_diag d;
    (void)flt;
    if (jc_hwdb_hardware(db, o->show, &dev, &host, &d)) return cli_fail(&d);
    if (json) return cli_emit_json(dev ? jc_report_device_json(dev) : jc_report_host_json(host));
    return cli_written(dev ? jc_report_device_text(dev, stdout) : jc_report_host_text(host, stdout));
}

/* hw list: the entries the filter keeps. */
static int list(const jc_hwdb *db, const jci_lookup_opts *o, const jc_hw_filter *flt, int json)
{
    jc_diag d;
    (void)o;
    if (jc_hw_list_check(db, flt, &d)) return cli_fail(&d);
    return json ? cli_emit_json(jc_report_hw_list_json(db, flt)) : cli_written(jc_report_hw_list_text(db, flt, stdout));
}

int cmd_hw(int argc, char **argv)
{
    return lookup_run("hw", argc, argv, list, show);
}
