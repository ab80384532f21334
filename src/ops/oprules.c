/*
 * oprules.c - user rules for custom ops (--op-rules FILE, YAML).
 * (Parsing is added in a later commit; until then a rules file is
 * refused with a clear error rather than ignored.)
 */
#include "ops/actx.h"

static void *active;

jc_status oprules_load(jc_arena *a, const char *path, void **out, jc_diag *d);
void oprules_set(void *rules);

jc_status oprules_load(jc_arena *a, const char *path, void **out, jc_diag *d)
{
    (void)a;
    *out = NULL;
    return jc_diag_set(d, JC_ERR_USAGE, "%s: --op-rules is not available in this build", path);
}

void oprules_set(void *rules) { active = rules; }

bool ax_custom_rule(opctx *c)
{
    (void)c;
    return active != NULL && false;
}
