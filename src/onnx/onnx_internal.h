/*
 * onnx_internal.h (onnx) - hooks of the ONNX loader for joulecast's own tests
 * (the schema self-check, the backend suite's tensor files).
 * Not installed, not part of the API.
 */
#ifndef JCI_ONNX_INTERNAL_H
#define JCI_ONNX_INTERNAL_H

#include "joulecast/model.h"

/* Reads a serialized TensorProto file (the backend suite's *.pb) and gives
 * its dtype and dims (up to cap of them; *rank is the true rank).  Errors:
 * JC_ERR_IO, JC_ERR_MODEL. */
jc_status jci_tensor_file_dims(const char *path, int *dtype, int64_t *dims,
                              int cap, int *rank, jc_diag *diag);

/* The same, and the tensor's values when it has at most vcap elements of
 * an integer, bool or floating dtype: ivals/fvals (caller-owned arrays of
 * vcap entries each, either may be NULL) receive them and *n_vals their
 * count; *n_vals is -1 when the values were not kept (too many, another
 * dtype, external data).  Errors as jci_tensor_file_dims. */
jc_status jci_tensor_file_values(const char *path, int *dtype, int64_t *dims,
                                int cap, int *rank, int64_t *ivals,
                                double *fvals, int64_t vcap, int64_t *n_vals,
                                jc_diag *diag);

/* Checks that the field numbers the wire decoder uses agree with the
 * protobuf-c descriptors generated from Debian's onnx.proto.  Returns the
 * number of mismatches (0 when all agree) and writes the first mismatch's
 * description into buf. */
int jci_onnx_schema_selfcheck(char *buf, size_t cap);

#endif
