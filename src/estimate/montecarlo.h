/*
 * montecarlo.h (estimate) - percentiles of an estimate from its inputs'
 * ranges taken as distributions (montecarlo.c, issue 45 item 2).
 */
#ifndef JCI_MONTECARLO_H
#define JCI_MONTECARLO_H

#include "base/jc_internal.h"
#include "joulecast/job.h"
#include "joulecast/estimate.h"

/* The project's own generator: xoshiro256** (Blackman and Vigna,
 * "Scrambled linear pseudorandom number generators", ACM TOMS 47(4),
 * 2021), seeded by splitmix64; the same 64-bit words on every platform. */
typedef struct jci_rng { uint64_t s[4]; } jci_rng;
void jci_rng_seed(jci_rng *r, uint64_t seed);
uint64_t jci_rng_next(jci_rng *r);
/* A double in [0, 1): the top 53 bits of the next word times 2^-53. */
double jci_rng_unit(jci_rng *r);

/* exp(x) by range reduction and a polynomial in IEEE-754 basic
 * operations only (each exactly rounded), so the same bits on every libc;
 * |x| <= 700.  Relative error below 1e-15. */
double jci_exp(double x);
/* The standard normal quantile of p in [0.02425, 0.97575] (Acklam's
 * rational central region: basic operations only). */
double jci_norm_central_quantile(double p);

/* Fills e->mc (e->has_mc) from e->sensitivity (its rows must be there):
 * job->draws draws (seed job->seed, 0 when not given), each input of the
 * table drawn from its stated distribution (montecarlo.c's table) and the
 * central figures moved by the product of the inputs' one-at-a-time
 * factors; p5/p50/p95 of emissions, facility energy and wall time.  The
 * arrays live in e's arena.  Errors: JC_ERR_NOMEM. */
jc_status jci_montecarlo_run(const jc_job *job, jc_estimate *e, jc_diag *d);

/* The p5/p50/p95 of emissions, facility energy and wall time (out[0..2])
 * that jci_montecarlo_run gives e for job (e's sensitivity rows read, e
 * not changed): reference = 0 by the fast path it takes (the stream's
 * words first, then input by input over blocks of draws, inputs that move
 * no figure skipped), 1 by the reference path (draw after draw, each input
 * in turn, as the model reads); the two agree bit for bit
 * (tests/unit/test_montecarlo.c).  Errors: JC_ERR_NOMEM. */
jc_status jci_montecarlo_percentiles(const jc_job *job, const jc_estimate *e, int reference, jc_pct out[3],
                                     jc_diag *d);

#endif /* JCI_MONTECARLO_H */
