/*
 * actx.h - the few services of the analysis driver (src/shape.c) that
 * operator rules call back into: the result arena, value names,
 * --assume bindings, data-dependence and overflow reporting.
 */
#ifndef JC_ACTX_H
#define JC_ACTX_H

#include "ops/ops.h"

/* The analysis arena (everything a rule allocates lives there). */
jc_arena *ax_arena(struct actx *ax);
/* Name of output k of the node being analysed ("" if omitted). */
const char *ax_value_name(opctx *c, int k);
/* true (and *v) when sym is bound by --assume or --dim. */
bool ax_assumed(struct actx *ax, const char *sym, int64_t *v);
/* Records that the node's output size depends on data (symbol sym). */
void ax_data_dependent(opctx *c, const char *sym);
/* Records a 64-bit overflow in the node's cost; returns JC_ERR_RANGE. */
jc_status ax_overflow(opctx *c);
/* Custom op rules (src/ops/oprules.c): the rule for domain:op, if the
 * user's --op-rules file has one; it fills shapes and cost. */
bool ax_custom_rule(opctx *c);

#endif
