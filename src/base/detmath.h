/*
 * detmath.h (base) - math functions that give the same bits on every libc:
 * built from IEEE-754 basic operations (each exactly rounded) and
 * frexp/ldexp (exact) alone, so the CLI (glibc, which picks an FMA
 * variant of pow or cbrt on CPUs that have one) and the WebAssembly page
 * (musl) print the same figures.  The Monte Carlo draws' exp and log are
 * montecarlo.c's (jci_exp), built the same way.
 */
#ifndef JCI_BASE_DETMATH_H
#define JCI_BASE_DETMATH_H

/* The cube root of x, within about one unit in the last place: a
 * negative x gives -cbrt(-x); 0, an infinity and a NaN come back as they
 * are.  Pure function. */
double jci_cbrt(double x);

#endif
