/*
 * fmt.h (base) - the one number format of joulecast's text, for every stage:
 * reports, HTML pages, statements, messages and CLI summaries
 * (docs/json-schemas.md, "Numbers in text and HTML"): four significant
 * digits (trailing zeros dropped), a whole number in full, thousands
 * separators from 1,000 on, an exponent only below 1e-4 or from 1e15 on,
 * "n/a" for an unknown; SI prefixes for FLOP and parameter counts; binary
 * units for bytes; and the number of a machine format (CSV, YAML).
 * Locale-independent: '.' is the point whatever LC_NUMERIC a client sets.
 * JSON numbers are cJSON's.
 */
#ifndef JCI_BASE_FMT_H
#define JCI_BASE_FMT_H

#include <stddef.h>
#include <stdint.h>

/* Room for any text these functions write (with its NUL). */
#define FMT_CAP 40

/* Any number of a text report (a figure: energy, time, power,
 * emissions, a rate, a factor; or a count): a whole number below 1e15 in
 * full ("0", "8", "938", "1,281,167"); else four significant digits,
 * trailing zeros dropped ("0.0579", "3.2", "222.3", "0.0001531"), the
 * whole part from 1,000 on in full ("2,039", "14,712,228"), an exponent
 * only below 1e-4 or from 1e15 on ("6.983e-05", "6.738e+24"); thousands
 * separators on every whole part from 1,000 on; "n/a" for a NaN or an
 * infinity (unknown).  Writes at most cap bytes to buf and returns buf. */
const char *fmt_num(char *buf, size_t cap, double v);
/* fmt_num into a buffer of its own that lives to the end of the enclosing
 * block: fprintf(f, "%s kWh", FMT_N(v)). */
#define FMT_N(v) fmt_num((char[FMT_CAP]){0}, FMT_CAP, (v))
/* An integer with thousands separators: "25,557,032". */
const char *fmt_int(char *buf, size_t cap, int64_t v);
/* Bytes in binary units with one decimal: "97.5 MiB" ("812 B" below 1 KiB). */
const char *fmt_bytes(char *buf, size_t cap, double bytes);
/* A number for a machine format (a CSV cell, a value of the hwdb layer
 * calibrate writes), not the text rule: six significant digits as %.6g
 * writes them, no thousands separators, an exponent where %g writes one,
 * "n/a" for unknown; '.' as the point. */
const char *fmt_machine(char *buf, size_t cap, double v);
/* fmt_machine into a buffer that lives to the end of the enclosing block. */
#define FMT_M(v) fmt_machine((char[FMT_CAP]){0}, FMT_CAP, (v))
/* A number exactly as given, for a message that compares it with a
 * limit: the fewest significant digits (6 to 17, %g's form) that read
 * back as v, so 5000.0001 is not shown as the limit 5000; "inf", "nan"
 * as %g writes them; '.' as the point. */
const char *fmt_exact(char *buf, size_t cap, double v);
/* fmt_exact into a buffer that lives to the end of the enclosing block. */
#define FMT_X(v) fmt_exact((char[FMT_CAP]){0}, FMT_CAP, (v))
/* An SI-prefixed magnitude, the mantissa by fmt_num's rule: "2.101 T",
 * "11.69 M", "812" (no prefix below 1,000); "n/a" for a NaN. */
const char *fmt_si(char *buf, size_t cap, double v);

#endif
