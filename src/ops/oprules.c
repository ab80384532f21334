/*
 * oprules.c - user cost rules for custom ops (--op-rules FILE).
 * The YAML reader is not written yet: a rules file is refused with a
 * usage error (never silently ignored), and no custom rule applies, so an
 * op without a registry line stays "unsupported" in the report.
 */
#include "ops/actx.h"

jc_status oprules_load(jc_arena *a, const char *path, void **out, jc_diag *d);
void oprules_set(void *rules);

/* Loads a rules file into *out.  Until the reader exists: JC_ERR_USAGE. */
jc_status oprules_load(jc_arena *a, const char *path, void **out, jc_diag *d)
{
    (void)a;
    *out = NULL;
    return jc_diag_set(d, JC_ERR_USAGE, "%s: --op-rules is not available in this build", path);
}

/* Makes `rules` the active rule set for the running analysis. */
void oprules_set(void *rules)
{
    (void)rules;
}

/* Applies a custom rule to c's node; false when none matches. */
bool ax_custom_rule(opctx *c)
{
    (void)c;
    return false;
}
