/*
 * detmath.c (base) - math functions that give the same bits on every libc
 * (detmath.h): IEEE-754 basic operations and frexp/ldexp only.
 */
#include "base/detmath.h"

#include <math.h>

/* Newton's steps from the first guess (m + 2) / 3 of the cube root of m
 * in [0.5, 4): a relative error of at most 0.26 squares at each step, so
 * six reach the double's precision; the seventh settles the last bit. */
#define CBRT_STEPS 7

double jci_cbrt(double x)
{
    if (x < 0) return -jci_cbrt(-x);
    if (!(x > 0) || x == INFINITY) return x;   /* 0, NaN, infinity */
    int e;
    double m = frexp(x, &e);                   /* x = m 2^e, m in [0.5, 1) */
    int r = ((e % 3) + 3) % 3;                 /* m 2^r 2^(e - r), e - r a multiple of 3 */
    m = ldexp(m, r);                           /* exact: m in [0.5, 4) */
    double y = (m + 2) / 3;
    for (int i = 0; i < CBRT_STEPS; i++) y -= (y * y * y - m) / (3 * y * y);
    return ldexp(y, (e - r) / 3);
}
