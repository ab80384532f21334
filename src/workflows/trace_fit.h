/*
 * trace_fit.h (workflows) - calibrate's power fit (src/workflows/trace_fit.c) as
 * src/workflows/calibrate_run.c calls it: the device power model of
 * src/estimate/power.h fitted to the utilisation grid a trace keeps
 * (src/trace/trace_int.h).  Internal to src/workflows/.
 */
#ifndef JCI_TRACE_FIT_H
#define JCI_TRACE_FIT_H

#include "estimate/power.h"
#include "trace/trace_int.h"
#include "joulecast/workflows.h"
#include "joulecast/trace.h"

/* Fits the device power model to t's grid (trace_fit.c): pm0 is the
 * database's model of the device (coefficients, idle and TDP set, central
 * values used), uc_run / um_run the run's compute and memory utilisation
 * on the model's scale over the trace's active window (NAN or 0: unknown).
 * Fills *f (fitted, or why not in f->note); never fails. */
void jci_trace_power_fit(const jc_trace *t, const jci_power_model *pm0, double uc_run, double um_run,
                         jc_power_fit *f);

#endif /* JCI_TRACE_FIT_H */
