/*
 * naive_unpack.c - the baseline joulecast's loader is measured against:
 * read the whole file and unpack the complete ModelProto with protobuf-c
 * (which copies every weight payload), then count nodes.  Not part of the
 * library; built by bench/run.sh only.
 */
#include "onnx.pb-c.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: naive_unpack MODEL.onnx\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 3; }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc((size_t)n);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) { fclose(f); return 3; }
    fclose(f);
    Onnx__ModelProto *m = onnx__model_proto__unpack(NULL, (size_t)n, buf);
    free(buf);
    if (!m) { fprintf(stderr, "unpack failed\n"); return 4; }
    printf("%zu nodes, %zu initializers\n", m->graph ? m->graph->n_node : 0,
           m->graph ? m->graph->n_initializer : 0);
    onnx__model_proto__free_unpacked(m, NULL);
    return 0;
}
