/*
 * joulecast.h (public API) - the public header of libjoulecast: what it does, the
 * conventions of its whole API, and its headers in stage order.
 *
 * joulecast predicts the time, energy (kWh) and emissions (kgCO2e) of
 * training or running a neural network from its ONNX file, a hardware
 * database and a workload description, before any code runs.
 *
 * The library is a one-directional pipeline; each stage reads the previous
 * stage's output and nothing later:
 *
 *   jc_model_load()   file bytes      -> jc_model (graph, tensors, attributes)
 *   jc_analyze()      jc_model + dims -> jc_analysis (shapes, per-node cost)
 *   jc_hwdb_load()    YAML folders    -> jc_hwdb (devices, hosts, regions, ...)
 *   jc_estimate_run() analysis + hwdb + workload config -> jc_estimate
 *   jc_report_*()     any result      -> text / JSON / CSV
 *
 * Conventions, stated once for the whole API:
 *
 *  - Errors.  Every fallible function returns a jc_status and, when the
 *    caller passes a non-NULL jc_diag, fills it with a message that names
 *    where the problem is (file, byte offset, node name, YAML line:column).
 *    The library never prints, never exits and never aborts on bad input.
 *    The status values double as the CLI's exit codes (documented in README).
 *  - Ownership.  Every loaded object (model, analysis, hwdb, estimate) owns
 *    one arena and is released by exactly one *_free() call.  Pointers you
 *    get from an object (names, arrays, nested structs) are borrowed: valid
 *    until that object is freed, never to be freed by you.  Structs declared
 *    here are read-only for clients.
 *  - Returned strings.  A `char *` that a function returns (every *_json
 *    document, every rendered string) is the caller's: release it with
 *    jc_free(), once.  Nothing else the library hands out is yours to free.
 *  - Units.  Counts are exact 64-bit integers (overflow is an error, never a
 *    wrap).  1 MAC = 2 FLOPs.  Energy in joules/kWh as named, power in W,
 *    carbon in gCO2e/kgCO2e as named.  No function depends on the locale.
 */
#ifndef JOULECAST_H
#define JOULECAST_H

#define JC_VERSION "0.1.0"

/* The API, one header per stage in the order a request flows through
 * them; each includes the earlier ones it needs and compiles on its own.
 * libjoulecast is built with -fvisibility=hidden: only the functions these
 * headers declare are exported from libjoulecast.so (their visibility
 * pragma), so the stage-internal jci_, op_, hw_ ... functions and the
 * bundled protobuf-c code cannot clash with a client's own.  The library
 * itself includes the headers of joulecast/ (src/base/jc_internal.h), not
 * this one: a change here rebuilds the clients (the CLI), not the stages. */
#include "joulecast/base.h"      /* jc_status, jc_diag, jc_free; terminal-safe text */
#include "joulecast/model.h"     /* jc_model_load: the ONNX graph */
#include "joulecast/analysis.h"  /* jc_analyze: shapes, per-node cost */
#include "joulecast/hwdb.h"      /* jc_hwdb_load: devices, hosts, regions */
#include "joulecast/job.h"       /* jc_job: what runs, where, how much */
#include "joulecast/estimate.h"  /* requests, jc_estimate_run, job files */
#include "joulecast/trace.h"     /* measured power traces */
#include "joulecast/serving.h"   /* LLM serving from a config.json */
#include "joulecast/ga.h"        /* the Green-Algorithms calculator */
#include "joulecast/inspect.h"   /* the inspect view of a model */
#include "joulecast/workflows.h" /* statement, CodeCarbon, budget, diff, calibration */
#include "joulecast/calibrate.h" /* the calibrate flow */
#include "joulecast/sweep.h"     /* compare and sweep */
#include "joulecast/html.h"      /* HTML reports */
#include "joulecast/bind.h"      /* bindings: key/value strings in, JSON out */

#endif /* JOULECAST_H */
