/*
 * inspect.h (public API) - the inspect view of a model (src/report/inspect.c).
 * Part of the public API; include <joulecast.h>, which states the
 * conventions (errors, ownership, units) that hold here too.
 */
#ifndef JOULECAST_INSPECT_H
#define JOULECAST_INSPECT_H

#include "base.h"

/* named by pointer only here: their headers define them (C11 allows the
 * typedef twice), so a change to those headers does not rebuild the
 * files that include only this one */
typedef struct jc_model jc_model;

JC_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* Reports (owner src/report/)                                          */
/* ------------------------------------------------------------------ */

/* Writes the `inspect` view of a model as text to `f`.  Never fails on a
 * loaded model except for I/O; returns JC_ERR_IO if writing failed. */
jc_status jc_report_inspect_text(const jc_model *m, FILE *f);

/* Returns the `inspect` view as a JSON document (schema in
 * docs/json-schemas.md), released with jc_free().
 * NULL on out-of-memory. */
char *jc_report_inspect_json(const jc_model *m);

JC_END_DECLS
#endif /* JOULECAST_INSPECT_H */
