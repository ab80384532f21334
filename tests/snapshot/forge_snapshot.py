#!/usr/bin/env python3
"""forge_snapshot.py - writes a forged copy of a hwdb snapshot whose checksum
is recomputed, as anyone can (issue 43 item 1): the checksum catches
accidental corruption only, so the reader must refuse the forged pointer by
validation.  tests/hostile_io.sh and the Python binding's tests use it.

usage: forge_snapshot.py IN OUT MODE [N]
MODE: header (the Nth pointer of the image after the header aims into the
header), past_end (past the image's end), misaligned (3 bytes past its
target), self (at its own word: a cycle), count (the Nth count-like word
after a pointer set to 2^40), string_unterminated (every NUL byte from the
Nth pointer's target to the end of the image made 'A': the string section,
last in the file, loses its final NUL), checksum_only (nothing changed but
the checksum rewritten: must still be used).
"""
import struct
import sys

M = (1 << 64) - 1
BASE = 0x7A6A00000000
HDR = 4096
CHECKSUM_AT = 80   # offsetof(hs_header, checksum)


def mix(h, v):
    h ^= (v + 0x9E3779B97F4A7C15 + ((h << 6) & M) + (h >> 2)) & M
    return (h * 0xFF51AFD7ED558CCD) & M


def checksum(p):
    """hs_checksum of src/hwdb/snapshot.c: eight 64-bit lanes over 64-byte
    blocks and their running sums, then the tail byte by byte."""
    n = len(p)
    nb = n // 64
    words = struct.unpack_from("<%dQ" % (nb * 8), p, 0)
    s = [0] * 8
    t = [0] * 8
    for b in range(nb):
        w = words[8 * b:8 * b + 8]
        for k in range(8):
            s[k] = (s[k] + w[k]) & M
            t[k] = (t[k] + s[k]) & M
    h = 0x6A6F756C65636173
    for k in range(4):   # s0..s3 (lanes 2k, 2k+1), then t0..t3
        h = mix(mix(h, s[2 * k]), s[2 * k + 1])
    for k in range(4):
        h = mix(mix(h, t[2 * k]), t[2 * k + 1])
    for i in range(nb * 64, n):
        h = mix(h, p[i])
    return h ^ n


def image_checksum(img):
    hdr = bytearray(img[:HDR])
    hdr[CHECKSUM_AT:CHECKSUM_AT + 8] = bytes(8)
    return mix(checksum(bytes(hdr)), checksum(bytes(img[HDR:])))


def pointers(img):
    """Offsets of 8-aligned words after the header that hold an image address."""
    n = len(img)
    out = []
    for at in range(HDR, n - 7, 8):
        (v,) = struct.unpack_from("<Q", img, at)
        if BASE + HDR <= v < BASE + n:
            out.append(at)
    return out


def main():
    src, dst, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    nth = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    img = bytearray(open(src, "rb").read())
    ptrs = pointers(img)
    at = ptrs[nth % len(ptrs)]
    (v,) = struct.unpack_from("<Q", img, at)
    if mode == "header":
        struct.pack_into("<Q", img, at, BASE + 64)
    elif mode == "past_end":
        struct.pack_into("<Q", img, at, BASE + len(img) + 4096)
    elif mode == "misaligned":
        struct.pack_into("<Q", img, at, v + 3)
    elif mode == "self":
        struct.pack_into("<Q", img, at, BASE + at)
    elif mode == "count":
        struct.pack_into("<Q", img, at + 8, 1 << 40)
    elif mode == "string_unterminated":
        o = v - BASE
        img[o:] = img[o:].replace(b"\0", b"A")
    elif mode != "checksum_only":
        sys.exit("unknown mode " + mode)
    struct.pack_into("<Q", img, CHECKSUM_AT, image_checksum(img))
    open(dst, "wb").write(img)


if __name__ == "__main__":
    main()
