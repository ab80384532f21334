/*
 * replay_main.c - a main() for the fuzz targets outside libFuzzer: runs
 * LLVMFuzzerTestOneInput once on each file named on the command line
 * (folders are walked one level deep) and prints "PASS <target> <file>"
 * after each input that returns.  tests/fuzz_regress.sh links it with
 * each target against the ASan+UBSan library (build/asan/) to replay the
 * regression corpora in `make test`: a crash, sanitizer report or leak
 * makes the process fail, which the test runner reports as a FAIL.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static FILE *out;  /* our stdout: the CLI target points stdout at /dev/null */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int run_file(const char *target, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(out, "FAIL %s %s: cannot open\n", target, path); return 1; }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (!buf) { fclose(f); fprintf(out, "FAIL %s %s: out of memory\n", target, path); return 1; }
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break;
        uint8_t *nb = realloc(buf, cap * 2);
        if (!nb) free(buf);
        buf = nb;
        cap *= 2;
    }
    fclose(f);
    fprintf(stderr, "replay %s %s (%zu bytes)\n", target, path, n);
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    fprintf(out, "PASS %s %s\n", target, path);
    fflush(out);
    return 0;
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: %s TARGET-NAME FILE|DIR...\n", argv[0]); return 2; }
    out = fdopen(dup(1), "w");
    if (!out) return 2;
    if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
    const char *target = argv[1];
    int bad = 0;
    for (int i = 2; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb) == 0 && S_ISDIR(sb.st_mode)) {
            DIR *d = opendir(argv[i]);
            if (!d) { fprintf(out, "FAIL %s %s: cannot open folder\n", target, argv[i]); bad++; continue; }
            char **names = NULL;
            size_t nn = 0;
            struct dirent *e;
            while ((e = readdir(d))) {
                if (e->d_name[0] == '.') continue;
                char **nx = realloc(names, (nn + 1) * sizeof *nx);
                if (!nx) break;
                names = nx;
                size_t l = strlen(argv[i]) + strlen(e->d_name) + 2;
                if (!(names[nn] = malloc(l))) break;
                snprintf(names[nn++], l, "%s/%s", argv[i], e->d_name);
            }
            closedir(d);
            qsort(names, nn, sizeof *names, cmp);
            for (size_t k = 0; k < nn; k++) { bad += run_file(target, names[k]); free(names[k]); }
            free(names);
        } else {
            bad += run_file(target, argv[i]);
        }
    }
    fflush(out);
    return bad ? 1 : 0;
}
