/*
 * base.h (public API) - status codes, diagnostics and terminal-safe text (src/base/).
 * Part of the public API; include <joulecast.h>, which states the
 * conventions (errors, ownership, units) that hold here too.
 */
#ifndef JOULECAST_BASE_H
#define JOULECAST_BASE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Each public header's declarations sit between JC_BEGIN_DECLS and
 * JC_END_DECLS: C linkage for a C++ client, and default visibility (the
 * library is built with -fvisibility=hidden, so only what these headers
 * declare is exported from libjoulecast.so; JC_NO_VISIBILITY turns the
 * pragma off). */
#if defined(__GNUC__) && !defined(JC_NO_VISIBILITY)
#define JC_VISIBLE_BEGIN_ _Pragma("GCC visibility push(default)")
#define JC_VISIBLE_END_ _Pragma("GCC visibility pop")
#else
#define JC_VISIBLE_BEGIN_
#define JC_VISIBLE_END_
#endif
#ifdef __cplusplus
#define JC_BEGIN_DECLS extern "C" { JC_VISIBLE_BEGIN_
#define JC_END_DECLS JC_VISIBLE_END_ }
#else
#define JC_BEGIN_DECLS JC_VISIBLE_BEGIN_
#define JC_END_DECLS JC_VISIBLE_END_
#endif

JC_BEGIN_DECLS

/* ------------------------------------------------------------------ */
/* Status and diagnostics                                               */
/* ------------------------------------------------------------------ */

/* Status codes.  Also the CLI's exit codes; keep README/man in step. */
typedef enum jc_status {
    JC_OK = 0,
    JC_ERR_INTERNAL = 1,  /* a bug in joulecast: please report */
    JC_ERR_USAGE = 2,     /* bad command line or API argument */
    JC_ERR_IO = 3,        /* cannot open, map or read a file */
    JC_ERR_MODEL = 4,     /* the file is not a well-formed ONNX model */
    JC_ERR_HWDB = 5,      /* hardware database YAML invalid */
    JC_ERR_NOTFOUND = 6,  /* unknown device, host, region, op, dim name */
    JC_ERR_RANGE = 7,     /* arithmetic overflow or absurd value */
    JC_ERR_NOMEM = 8,     /* out of memory */
    JC_ERR_INCOMPLETE = 9,/* a partial count (unbound dim, unsupported op)
                             refused: by every request (jc_request) unless
                             allow_partial, by count only with --strict */
    JC_ERR_BUDGET = 10    /* an energy/emission budget was exceeded */
} jc_status;

/* A diagnostic: the first error of a call, with its location.  Fields that
 * do not apply are empty strings / -1.  `msg` is the complete, printable
 * message including the location prefix. */
typedef struct jc_diag {
    jc_status status;
    char msg[1024];
    char file[512];
    int64_t offset;   /* byte offset in the file, or -1 */
    int line, col;    /* 1-based YAML position, or 0 */
    char node[256];   /* ONNX node name (or op type), or "" */
} jc_diag;

/* Human-readable name of a status ("model error", ...).  Static string. */
const char *jc_status_name(jc_status st);

/* Value types every stage names (base, so that a file that uses them
 * needs no later stage's header): the precisions of peak throughput and
 * energy per operation (int8/int4 in TOPS; jc_precision_name, hwdb.h), and
 * a ranged figure, low <= central <= high (the estimate's scenarios). */
typedef enum jc_precision {
    JC_PREC_FP64 = 0, JC_PREC_FP32, JC_PREC_TF32, JC_PREC_FP16,
    JC_PREC_BF16, JC_PREC_FP8, JC_PREC_INT8, JC_PREC_INT4,
    JC_PREC_COUNT
} jc_precision;

typedef struct jc_range { double low, central, high; } jc_range;

/* A counting convention, which a request names and an analysis reports
 * in: compatibility views, other aggregations of the same buckets
 * (docs/counting.md; jc_convention_name and the views: analysis.h). */
typedef enum jc_convention {
    JC_CONV_JOULECAST = 0, /* macs, flops, special_ops apart (default) */
    JC_CONV_TORCHVISION,   /* macs only (torchvision's "GFLOPS") */
    JC_CONV_FLOPS2X,       /* 2 x macs (torch.utils.flop_counter, MLPerf) */
    JC_CONV_FVCORE,        /* macs + norm/upsample/adaptive-pool terms */
    JC_CONV_ONNX_TOOL      /* macs + weighted non-MAC work (onnx-tool) */
} jc_convention;

/* ------------------------------------------------------------------ */
/* Terminal-safe text and CSV cells (owner src/base/safetext.c)        */
/* ------------------------------------------------------------------ */
/* Strings from models, traces, hwdb layers and JSON files are untrusted.
 * jc_text_escape writes s to f with every control byte (newline and tab
 * included), C1 control, bidi override or isolate (U+202A-U+202E,
 * U+2066-U+2069, U+200E/U+200F/U+061C) and non-UTF-8 byte escaped as
 * "\xHH" (a byte) / "\uHHHH" (a code point: "\u202e"); NULL writes nothing.  jc_text_is_safe: s needs no
 * escape (NULL: true). */
void jc_text_escape(FILE *f, const char *s);
int jc_text_is_safe(const char *s);
/* A stream writing to file descriptor fd through the same rule, newlines
 * and tabs kept (the CLI's stdout and stderr: every text report and
 * diagnostic); buffered or not.  NULL where the C library has no
 * fopencookie (then write raw) or out of memory.  fclose flushes it.  A
 * failed write (a full disk) is kept, not reported by each write: fclose
 * returns EOF with errno of the first failure (ferror stays clear). */
FILE *jc_safe_stream(int fd, int buffered);
/* CSV string cells starting with = + - @ TAB or CR are written with a
 * leading "'" so that a spreadsheet shows them instead of running them
 * (OWASP CSV injection).  jc_csv_raw(1) turns that off for the calling
 * thread (count/compare/estimate --csv-raw), jc_csv_raw(0) back on. */
void jc_csv_raw(int raw);

/* Writes v into buf (cap bytes) by the one number rule of the text and
 * HTML reports (docs/json-schemas.md, "Numbers in text and HTML"): four
 * significant digits with trailing zeros dropped, a whole number in full,
 * thousands separators from 1,000 on, an exponent only below 1e-4 or from
 * 1e15 on, "n/a" for a NaN or an infinity.  Returns buf.  For a client
 * that prints a figure of its own next to a report's. */
const char *jc_format_number(char *buf, size_t cap, double v);

JC_END_DECLS
#endif /* JOULECAST_BASE_H */
