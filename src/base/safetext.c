/*
 * safetext.c (base) - terminal-safe text (issue 27): the one escaping rule for
 * every text a person may read in a terminal.  Model, graph, node, trace,
 * hwdb and diff strings are untrusted: a control byte (ESC, BEL, CR, an
 * OSC title sequence, a NUL), a C1 control, a bidi override or isolate
 * (U+202A-U+202E, U+2066-U+2069) or a byte that is not UTF-8 is written
 * as an escape: "\xHH" for a byte, "\uHHHH" for a code point (U+202E:
 * "\u202e").  The CLI routes stdout and stderr through jc_safe_stream (so every text writer and every diagnostic goes
 * through this rule, with newlines and tabs kept: they are the reports'
 * own layout); jc_text_escape escapes one string (newlines and tabs too),
 * for names that must stay on their line.  CSV string cells that a
 * spreadsheet would run as a formula are prefixed with "'" (OWASP) unless
 * the thread turned the guard off (jc_csv_raw, count/compare --csv-raw).
 */
#define _GNU_SOURCE 1
#include "base/jc_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The code point of the UTF-8 sequence of n bytes at p (n from a check). */
static unsigned decode(const unsigned char *p, size_t n)
{
    if (n == 2) return ((p[0] & 0x1Fu) << 6) | (p[1] & 0x3Fu);
    if (n == 3) return ((p[0] & 0x0Fu) << 12) | ((p[1] & 0x3Fu) << 6) | (p[2] & 0x3Fu);
    return ((p[0] & 0x07u) << 18) | ((p[1] & 0x3Fu) << 12) | ((p[2] & 0x3Fu) << 6) | (p[3] & 0x3Fu);
}

static bool unsafe_cp(unsigned cp)
{
    return (cp >= 0x80 && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
           cp == 0x200E || cp == 0x200F || cp == 0x061C;
}

/* Length of a well-formed UTF-8 sequence at p within avail bytes: 1..4, 0
 * when the bytes are not one, -1 when they may be one cut by the end. */
static int seq_len(const unsigned char *p, size_t avail)
{
    unsigned char tmp[4] = {0};
    size_t want = p[0] >= 0xF0 ? 4 : p[0] >= 0xE0 ? 3 : p[0] >= 0xC0 ? 2 : 1;
    if (avail < want) {
        memcpy(tmp, p, avail);
        /* the bytes so far are a valid prefix: wait for the rest */
        for (size_t i = 1; i < avail; i++)
            if ((tmp[i] & 0xC0) != 0x80) return 0;
        return p[0] >= 0xC2 && p[0] <= 0xF4 ? -1 : 0;
    }
    memcpy(tmp, p, want);
    return (int)jci_utf8_len(tmp);
}

/* Writes the escaped form of p[0..n) with put(); keep_layout keeps '\n'
 * and '\t'.  Returns the number of bytes consumed: less than n only when
 * the tail may be a UTF-8 sequence cut short (and !final). */
static size_t escape_run(const unsigned char *p, size_t n, bool keep_layout, bool final,
                         void (*put)(void *, const char *, size_t), void *ctx)
{
    size_t i = 0, run = 0;
    char esc[16];
    while (i < n) {
        unsigned char b = p[i];
        int len = 1;
        const char *e = NULL;
        if (b < 0x20 || b == 0x7F) {
            if (!(keep_layout && (b == '\n' || b == '\t'))) e = esc, snprintf(esc, sizeof esc, "\\x%02x", b);
        } else if (b >= 0x80) {
            len = seq_len(p + i, n - i);
            if (len < 0 && !final) break;
            if (len <= 0) {
                len = 1;
                e = esc, snprintf(esc, sizeof esc, "\\x%02x", b);
            } else if (unsafe_cp(decode(p + i, (size_t)len))) {
                e = esc, snprintf(esc, sizeof esc, "\\u%04x", decode(p + i, (size_t)len));
            }
        }
        if (e) {
            if (i > run) put(ctx, (const char *)p + run, i - run);
            put(ctx, e, strlen(e));
            run = i + (size_t)len;
        }
        i += (size_t)len;
    }
    if (i > run) put(ctx, (const char *)p + run, i - run);
    return i;
}

static void put_file(void *ctx, const char *s, size_t n) { fwrite(s, 1, n, (FILE *)ctx); }

void jc_text_escape(FILE *f, const char *s)
{
    if (s) escape_run((const unsigned char *)s, strlen(s), false, true, put_file, f);
}

int jc_text_is_safe(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; p && *p;) {
        if (*p < 0x20 || *p == 0x7F) return false;
        if (*p < 0x80) { p++; continue; }
        size_t n = jci_utf8_len(p);
        if (!n || unsafe_cp(decode(p, n))) return false;
        p += n;
    }
    return true;
}

/* ---- a FILE that escapes what it is given (glibc's fopencookie) ---- */

#if defined(__GLIBC__)
typedef struct safe_out {
    int fd;
    unsigned char pend[4];   /* the start of a UTF-8 sequence cut by a write */
    size_t npend;
    char buf[4096];
    size_t nbuf;
    int err;                 /* the errno of the first failed write, 0: none */
} safe_out;

static void flush_buf(safe_out *o)
{
    size_t off = 0;
    while (off < o->nbuf && !o->err) {
        ssize_t w = write(o->fd, o->buf + off, o->nbuf - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) o->err = w < 0 && errno ? errno : EIO;
        else off += (size_t)w;
    }
    o->nbuf = 0;
}

static void put_safe(void *ctx, const char *s, size_t n)
{
    safe_out *o = ctx;
    while (n) {
        if (o->nbuf == sizeof o->buf) flush_buf(o);
        size_t k = sizeof o->buf - o->nbuf < n ? sizeof o->buf - o->nbuf : n;
        memcpy(o->buf + o->nbuf, s, k);
        o->nbuf += k;
        s += k;
        n -= k;
    }
}

/* Escapes p[0..n) into o's buffer; a UTF-8 sequence cut by the end of
 * a write waits in o->pend (at most 3 bytes) for the next one. */
static void feed(safe_out *o, const unsigned char *p, size_t n, bool final)
{
    while (o->npend && n) {   /* complete the pending sequence a byte at a time */
        o->pend[o->npend++] = *p++;
        n--;
        size_t used = escape_run(o->pend, o->npend, true, false, put_safe, o);
        memmove(o->pend, o->pend + used, o->npend - used);
        o->npend -= used;
    }
    if (final && o->npend) {
        escape_run(o->pend, o->npend, true, true, put_safe, o);
        o->npend = 0;
    }
    size_t used = escape_run(p, n, true, final, put_safe, o);
    memcpy(o->pend + o->npend, p + used, n - used);
    o->npend += n - used;
}

static ssize_t safe_write(void *cookie, const char *buf, size_t size)
{
    safe_out *o = cookie;
    feed(o, (const unsigned char *)buf, size, false);
    flush_buf(o);
    /* a failed write is kept (o->err) and reported by the close, not here:
     * glibc's fputs of a string longer than the buffer reads past the
     * string when a cookie write returns -1 (ASan: SEGV in memmove under
     * _IO_default_xsputn, `hw list --json > /dev/full`) */
    return (ssize_t)size;
}

static int safe_close(void *cookie)
{
    safe_out *o = cookie;
    feed(o, (const unsigned char *)"", 0, true);
    flush_buf(o);
    int err = o->err;
    free(o);
    if (err) errno = err;
    return err ? EOF : 0;
}

FILE *jc_safe_stream(int fd, int buffered)
{
    safe_out *o = calloc(1, sizeof *o);
    if (!o) return NULL;
    o->fd = fd;
    cookie_io_functions_t io = {NULL, safe_write, NULL, safe_close};
    FILE *f = fopencookie(o, "w", io);
    if (!f) {
        free(o);
        return NULL;
    }
    setvbuf(f, NULL, buffered ? _IOFBF : _IONBF, buffered ? BUFSIZ : 0);
    return f;
}
#else
FILE *jc_safe_stream(int fd, int buffered)
{
    (void)fd;
    (void)buffered;
    return NULL;   /* no fopencookie: the caller keeps its raw stream */
}
#endif

/* ---- CSV formula cells ---- */

static _Thread_local int csv_raw;

void jc_csv_raw(int raw) { csv_raw = raw != 0; }

bool jci_csv_formula(const char *s)
{
    return !csv_raw && s && (*s == '=' || *s == '+' || *s == '-' || *s == '@' || *s == '\t' || *s == '\r');
}

/* ---- an escaped copy in an arena ---- */

typedef struct sink { char *p; size_t n; } sink;

static void put_count(void *ctx, const char *s, size_t n)
{
    (void)s;
    ((sink *)ctx)->n += n;
}

static void put_copy(void *ctx, const char *s, size_t n)
{
    sink *k = ctx;
    memcpy(k->p + k->n, s, n);
    k->n += n;
}

const char *jci_text_escaped(jci_arena *a, const char *s)
{
    if (!s || jc_text_is_safe(s)) return s;
    size_t len = strlen(s);
    sink k = {NULL, 0};
    escape_run((const unsigned char *)s, len, false, true, put_count, &k);
    char *out = jci_arena_alloc(a, k.n + 1);
    if (!out) return NULL;
    k.p = out;
    k.n = 0;
    escape_run((const unsigned char *)s, len, false, true, put_copy, &k);
    out[k.n] = 0;
    return out;
}
