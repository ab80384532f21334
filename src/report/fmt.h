/*
 * fmt.h - number formatting shared by the text reports: thousands
 * separators, SI prefixes, byte sizes.  Locale-independent.
 */
#ifndef JC_FMT_H
#define JC_FMT_H

#include <stddef.h>
#include <stdint.h>

/* "25,557,032" */
const char *fmt_int(char *buf, size_t cap, int64_t v);
/* "97.5 MiB" (binary units for bytes) */
const char *fmt_bytes(char *buf, size_t cap, double bytes);
/* "4.09 G" style with 3 significant digits and an SI prefix */
const char *fmt_si(char *buf, size_t cap, double v);

#endif
