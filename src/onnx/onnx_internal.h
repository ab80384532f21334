/*
 * onnx_internal.h - hooks of the ONNX loader for joulecast's own tests.
 * Not installed, not part of the API.
 */
#ifndef JC_ONNX_INTERNAL_H
#define JC_ONNX_INTERNAL_H

/* Checks that the field numbers the wire decoder uses agree with the
 * protobuf-c descriptors generated from Debian's onnx.proto.  Returns the
 * number of mismatches (0 when all agree) and writes the first mismatch's
 * description into buf. */
int jc__onnx_schema_selfcheck(char *buf, size_t cap);

#endif
