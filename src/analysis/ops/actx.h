/*
 * actx.h (analysis/ops) - the few services of the analysis driver (src/analysis/analyze.c) that
 * operator rules call back into: the result arena, value names,
 * --assume bindings, data-dependence and overflow reporting.
 */
#ifndef JCI_ACTX_H
#define JCI_ACTX_H

#include "analysis/ops/ops.h"

/* The analysis arena (everything a rule allocates lives there). */
jci_arena *ax_arena(struct actx *ax);
/* Name of output k of the node being analysed ("" if omitted). */
const char *ax_value_name(opctx *c, int k);
/* Name of input k of the node being analysed ("" if omitted). */
const char *ax_input_name(opctx *c, int k);
/* true (and *v) when sym is bound by --assume or --dim. */
bool ax_assumed(struct actx *ax, const char *sym, int64_t *v);
/* Records that the node's output size depends on data (symbol sym). */
void ax_data_dependent(opctx *c, const char *sym);
/* Records a 64-bit overflow in the node's cost; returns JC_ERR_RANGE. */
jc_status ax_overflow(opctx *c);
/* Records that the shape arithmetic of `what` (an attribute name, or
 * "input NAME") overflows 64 bits: JC_ERR_RANGE "node 'N' (Op): attribute
 * 'what': the output shape overflows 64 bits" (the first error wins);
 * returns the status. */
jc_status ax_shape_overflow(opctx *c, const char *what);
/* Fails the analysis with JC_ERR_MODEL naming the node being analysed
 * and msg (NULL: out of memory, JC_ERR_NOMEM); returns the status. */
jc_status ax_rule_error(opctx *c, const char *msg);

/* ---- custom op rules (src/analysis/ops/oprules.c) ---- */
typedef struct oprules oprules;
/* Reads and compiles an --op-rules YAML file into *out (everything in
 * arena a, owned by the analysis).  Errors: JC_ERR_IO (unreadable),
 * JC_ERR_USAGE with file:line:col (YAML, schema or expression errors),
 * JC_ERR_NOMEM. */
jc_status oprules_load(jci_arena *a, const char *path, const oprules **out, jc_diag *d);
/* The rules of the running analysis, or NULL. */
const oprules *ax_rules(struct actx *ax);
/* Applies the user's rule for the node's domain:op if there is one:
 * fills output shapes and cost and returns true.  An evaluation error
 * (overflow, missing attribute, division by zero) is recorded in the
 * analysis context (the driver checks it).  false: no rule. */
bool ax_custom_rule(opctx *c);

#endif
