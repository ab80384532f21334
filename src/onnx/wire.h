/*
 * wire.h (onnx) - a bounds-checked reader of the protobuf wire format, used to
 * decode the large ONNX messages (ModelProto, GraphProto, NodeProto,
 * TensorProto, ...) field by field without copying weight payloads.
 * Every read checks the remaining length; nothing here allocates.
 */
#ifndef JCI_WIRE_H
#define JCI_WIRE_H

#include <stddef.h>
#include <stdint.h>

enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2, WT_SGROUP = 3, WT_EGROUP = 4,
       WT_I32 = 5 };

typedef struct wire {
    const uint8_t *p, *end;
} wire;

/* A decoded field header plus, for WT_LEN, its payload span and, for
 * scalars, the value (varint, or raw bits of fixed32/fixed64). */
typedef struct wfield {
    uint32_t num;
    int wt;
    const uint8_t *start;     /* first byte of the tag */
    const uint8_t *data;      /* WT_LEN payload */
    size_t len;
    uint64_t u;               /* scalar value */
} wfield;

/* Reads one varint; 0 on success, -1 on truncation or > 10 bytes. */
static inline int wire_varint(wire *w, uint64_t *v)
{
    uint64_t r = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (w->p >= w->end) return -1;
        uint8_t b = *w->p++;
        r |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = r;
            return 0;
        }
    }
    return -1;
}

/* Reads the next field (tag + payload).  Returns 1 when a field was read,
 * 0 at the end of the buffer, -1 on malformed input (bad tag, wire type,
 * truncated payload); *why then names the problem. */
static inline int wire_next(wire *w, wfield *f, const char **why)
{
    if (w->p >= w->end) return 0;
    f->start = w->p;
    uint64_t tag;
    if (wire_varint(w, &tag) < 0) { *why = "truncated field tag"; return -1; }
    f->num = (uint32_t)(tag >> 3);
    f->wt = (int)(tag & 7);
    if ((tag >> 3) == 0 || (tag >> 3) > 536870911u) {
        *why = "invalid field number 0";
        return -1;
    }
    f->data = NULL;
    f->len = 0;
    f->u = 0;
    switch (f->wt) {
    case WT_VARINT:
        if (wire_varint(w, &f->u) < 0) { *why = "truncated varint"; return -1; }
        return 1;
    case WT_I64:
        if (w->end - w->p < 8) { *why = "truncated fixed64"; return -1; }
        for (int i = 7; i >= 0; i--) f->u = (f->u << 8) | w->p[i];
        w->p += 8;
        return 1;
    case WT_I32:
        if (w->end - w->p < 4) { *why = "truncated fixed32"; return -1; }
        for (int i = 3; i >= 0; i--) f->u = (f->u << 8) | w->p[i];
        w->p += 4;
        return 1;
    case WT_LEN: {
        uint64_t n;
        if (wire_varint(w, &n) < 0) { *why = "truncated length"; return -1; }
        if (n > (uint64_t)(w->end - w->p)) {
            *why = "length runs past the end of the enclosing message";
            return -1;
        }
        f->data = w->p;
        f->len = (size_t)n;
        w->p += n;
        return 1;
    }
    default:
        *why = "unsupported wire type (groups are not used by ONNX)";
        return -1;
    }
}

#endif
