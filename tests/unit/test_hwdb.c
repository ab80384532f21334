/*
 * test_hwdb.c - unit tests of the hardware-database loader (src/hwdb/):
 * the broken-YAML corpus under tests/hwdb/bad/ (each case's error text,
 * with file:line:column, must contain its .expect line), the 100 MB file
 * cap, override layers (a field overridden, a device added, env layers),
 * case-insensitive lookups with "did you mean", and spot checks of the
 * bundled hwdb/ (values held here, read from the YAML, not the CSVs).
 * Runs under ASan+UBSan (make test), so every error path is leak-checked.
 */
#include "check.h"
#include "joulecast.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef JC_HWDB_DIR
#define JC_HWDB_DIR "hwdb"
#endif
#define BAD_DIR "tests/hwdb/bad"
#define OVR_DIR "tests/hwdb/override"

static jc_hwdb *bundled;   /* loaded once, by test_bundled_loads */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One corpus case: BAD_DIR/<name>.yaml or the folder BAD_DIR/<name>/,
 * loaded as a database of its own; the message must contain the .expect
 * line (which names file:line:col). */
static void bad_case(const char *name)
{
    char expect_path[512], input[512], want[1024] = "", label[600];
    snprintf(expect_path, sizeof expect_path, "%s/%s.expect", BAD_DIR, name);
    snprintf(input, sizeof input, "%s/%s.yaml", BAD_DIR, name);
    struct stat sb;
    if (stat(input, &sb) != 0) snprintf(input, sizeof input, "%s/%s", BAD_DIR, name);
    FILE *f = fopen(expect_path, "r");
    int failed = 0;
    if (!f || !fgets(want, sizeof want, f)) failed = 1;
    if (f) fclose(f);
    want[strcspn(want, "\n")] = 0;
    const char *layers[1] = {input};
    jc_hwdb *db = NULL;
    jc_diag d;
    jc_status st = jc_hwdb_load(NULL, layers, 1, NULL, &db, &d);
    if (st != JC_ERR_HWDB || db != NULL || !want[0] || !strstr(d.msg, want) ||
        d.line <= 0 || d.col <= 0) {
        printf("  %s: status %d, got \"%s\"\n  expected \"%s\"\n", name, st, d.msg, want);
        failed = 1;
    }
    jc_hwdb_free(db);
    snprintf(label, sizeof label, "hwdb_bad/%s", name);
    check_case(label, failed);
}

static void test_bad_corpus(void)
{
    DIR *dp = opendir(BAD_DIR);
    CHECK(dp != NULL);
    if (!dp) return;
    char *names[256];
    size_t n = 0;
    struct dirent *de;
    while ((de = readdir(dp)) && n < 256) {
        size_t l = strlen(de->d_name);
        if (l > 7 && !strcmp(de->d_name + l - 7, ".expect"))
            names[n++] = strndup(de->d_name, l - 7);
    }
    closedir(dp);
    qsort(names, n, sizeof *names, cmp_str);
    CHECK(n >= 40);
    for (size_t i = 0; i < n; i++) {
        bad_case(names[i]);
        free(names[i]);
    }
}

/* A 100 MB file is refused before it is read (sparse, made at test time). */
static void test_huge_file(void)
{
    const char *dir = "build/test-hwdb-huge";
    const char *path = "build/test-hwdb-huge/huge.yaml";
    mkdir("build", 0755);
    mkdir(dir, 0755);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs("schema: joulecast-hwdb/1\n", f);
    fclose(f);
    CHECK(truncate(path, (off_t)100 * 1000 * 1000) == 0);
    const char *layers[1] = {dir};
    jc_hwdb *db = NULL;
    jc_diag d;
    CHECK_I64(jc_hwdb_load(NULL, layers, 1, NULL, &db, &d), JC_ERR_HWDB);
    CHECK(db == NULL);
    CHECK(strstr(d.msg, "huge.yaml:1:1: file is 100000000 bytes; hwdb files are limited to 64 MiB") != NULL);
    unlink(path);
    rmdir(dir);
}

static void test_missing_folder(void)
{
    const char *layers[1] = {"tests/hwdb/no-such-folder"};
    jc_hwdb *db = NULL;
    jc_diag d;
    CHECK_I64(jc_hwdb_load(NULL, layers, 1, NULL, &db, &d), JC_ERR_IO);
    CHECK(strstr(d.msg, "no-such-folder") != NULL);
    CHECK_I64(jc_hwdb_load(NULL, NULL, 0, NULL, &db, &d), JC_ERR_USAGE);
    CHECK_I64(jc_hwdb_load(NULL, NULL, 0, "::", &db, &d), JC_ERR_USAGE);
}

static void test_bundled_loads(void)
{
    jc_diag d;
    jc_status st = jc_hwdb_load(JC_HWDB_DIR, NULL, 0, NULL, &bundled, &d);
    if (st) printf("  bundled hwdb: %s\n", d.msg);
    CHECK_I64(st, JC_OK);
    if (st) return;
    CHECK(bundled->n_devices >= 45 + 28);
    CHECK(bundled->n_hosts >= 15);
    CHECK(bundled->n_regions >= 210);
    CHECK(bundled->n_providers >= 6);
    CHECK(bundled->n_ga >= 6);
    /* sorted by id, every present value sourced and dated */
    for (size_t i = 0; i < bundled->n_devices; i++) {
        const jc_device *dv = &bundled->devices[i];
        if (i) CHECK(strcmp(bundled->devices[i - 1].id, dv->id) <= 0 ||
                     strcasecmp(bundled->devices[i - 1].id, dv->id) < 0);
        const jc_sourced *sv[] = {&dv->tdp_w, &dv->idle_w, &dv->memory_gb,
                                  &dv->memory_bw_gbs, &dv->util_training,
                                  &dv->util_inference, &dv->embodied_kgco2e};
        for (size_t k = 0; k < sizeof sv / sizeof sv[0]; k++)
            if (sv[k]->present) CHECK(sv[k]->source && sv[k]->year >= 1900 && sv[k]->line > 0);
        for (int p = 0; p < JC_PREC_COUNT; p++)
            if (dv->peak_tflops[p].present) CHECK(dv->peak_tflops[p].source != NULL);
    }
    for (size_t i = 0; i < bundled->n_hosts; i++)
        CHECK(bundled->hosts[i].host_power_w.present && bundled->hosts[i].host_power_w.source);
    size_t with_default = 0;
    for (size_t i = 0; i < bundled->n_regions; i++) {
        const jc_region *r = &bundled->regions[i];
        CHECK(r->default_reason != NULL);
        if (r->default_intensity) with_default++;
        for (size_t k = 0; k < r->n_intensity; k++)
            CHECK(r->intensity[k].value.source && r->intensity[k].value.year >= 1900);
    }
    CHECK(with_default >= 210);
}

static void test_spot_checks(void)
{
    if (!bundled) return;
    const jc_device *dv;
    jc_diag d;
    CHECK_I64(jc_hwdb_device(bundled, "nvidia-a100-sxm4-80gb", &dv, &d), JC_OK);
    if (dv) {
        CHECK_NEAR(dv->tdp_w.value, 400, 1e-9);
        CHECK_NEAR(dv->memory_gb.value, 80, 1e-9);
        CHECK_NEAR(dv->peak_tflops[JC_PREC_FP16].value, 312, 1e-9);
        CHECK(dv->tdp_w.source && dv->tdp_w.source->citation);
    }
    CHECK_I64(jc_hwdb_device(bundled, "H100-SXM5-80GB", &dv, &d), JC_OK);
    if (dv) {
        CHECK_STR(dv->id, "nvidia-h100-sxm5");
        CHECK_NEAR(dv->tdp_w.value, 700, 1e-9);
    }
    const jc_region *fr, *de;
    CHECK_I64(jc_hwdb_region(bundled, "fr", &fr, &d), JC_OK);
    CHECK_I64(jc_hwdb_region(bundled, "DE", &de, &d), JC_OK);
    if (fr && de) {
        const jc_intensity *it = jc_region_intensity(fr, "ember", 0);
        CHECK(it != NULL);
        if (it) CHECK_NEAR(it->value.value, 44.18, 1e-9);
        it = jc_region_intensity(fr, "electricitymaps-2024", 2024);
        CHECK(it != NULL);
        if (it) CHECK_NEAR(it->value.value, 33, 1e-9);
        it = jc_region_intensity(de, "electricitymaps-2024", 0);
        CHECK(it != NULL);
        if (it) CHECK_NEAR(it->value.value, 341, 1e-9);
        it = jc_region_intensity(de, "ga-v3.0", 0);
        CHECK(it != NULL);
        if (it) CHECK_NEAR(it->value.value, 338.66, 1e-9);
        CHECK(fr->default_intensity != NULL && fr->default_from == fr);
    }
    /* a cloud region without values of its own falls back to its grid */
    size_t fallbacks = 0;
    for (size_t i = 0; i < bundled->n_regions; i++) {
        const jc_region *r = &bundled->regions[i];
        if (r->type == JC_REGION_CLOUD && r->default_from && r->default_from != r) {
            CHECK(r->default_from == r->grid_region);
            CHECK(strstr(r->default_reason, "grid zone") != NULL);
            fallbacks++;
        }
    }
    CHECK(fallbacks > 0);
    const jc_ga_version *ga;
    CHECK_I64(jc_hwdb_ga(bundled, NULL, &ga, &d), JC_OK);
    if (ga) CHECK_STR(ga->version, "3.0");
    CHECK_I64(jc_hwdb_ga(bundled, "1.0", &ga, &d), JC_OK);
    CHECK_I64(jc_hwdb_ga(bundled, "9.9", &ga, &d), JC_ERR_NOTFOUND);
}

static void test_lookups(void)
{
    if (!bundled) return;
    const jc_device *dv;
    const jc_host *h;
    jc_diag d;
    CHECK_I64(jc_hwdb_device(bundled, "A100", &dv, &d), JC_OK);
    if (dv) CHECK_STR(dv->id, "nvidia-a100-sxm4-80gb");
    CHECK_I64(jc_hwdb_device(bundled, "NVIDIA-A100-SXM4-80GB", &dv, &d), JC_OK);
    /* typo: no fallback, three suggestions */
    CHECK_I64(jc_hwdb_device(bundled, "nvidia-a100-sxm4-80g", &dv, &d), JC_ERR_NOTFOUND);
    CHECK(dv == NULL);
    CHECK(strstr(d.msg, "did you mean nvidia-a100-sxm4-80gb") != NULL);
    /* a model number that is a word of the id comes before look-alike typos */
    CHECK_I64(jc_hwdb_device(bundled, "p100", &dv, &d), JC_ERR_NOTFOUND);
    CHECK(strstr(d.msg, "did you mean nvidia-tesla-p100, nvidia-tesla-p100-pcie") != NULL);
    CHECK_I64(jc_hwdb_device(bundled, "h10", &dv, &d), JC_ERR_NOTFOUND);
    CHECK(strstr(d.msg, "did you mean h100 (nvidia-h100-sxm5)") != NULL);
    CHECK_I64(jc_hwdb_device(bundled, "zzzzqqqq-nothing", &dv, &d), JC_ERR_NOTFOUND);
    CHECK(strstr(d.msg, "no device named 'zzzzqqqq-nothing'") != NULL);
    /* hosts share the namespace, but a device lookup does not return one */
    CHECK_I64(jc_hwdb_host(bundled, "P4D.24XLARGE", &h, &d), JC_OK);
    if (h) {
        CHECK(h->accel != NULL && h->n_accel == 8);
        CHECK_I64(jc_hwdb_device(bundled, "p4d.24xlarge", &dv, &d), JC_ERR_NOTFOUND);
        CHECK(strstr(d.msg, "is a host") != NULL);
    }
    const jc_region *r;
    CHECK_I64(jc_hwdb_region(bundled, "AWS:US-EAST-1", &r, &d), JC_OK);
    CHECK_I64(jc_hwdb_region(bundled, "frnace", &r, &d), JC_ERR_NOTFOUND);
    const jc_provider *p;
    CHECK_I64(jc_hwdb_provider(bundled, "GCP", &p, &d), JC_OK);
    const jc_constant *c;
    CHECK_I64(jc_hwdb_constant(bundled, "memory_w_per_gb", &c, &d), JC_OK);
    if (c) CHECK(c->value.source != NULL);
    const jc_dataset *ds = NULL;
    CHECK_I64(jc_hwdb_dataset(bundled, "ember", &ds, &d), JC_OK);
    if (ds) {
        CHECK_STR(ds->id, "ember");
        CHECK(ds->source != NULL && ds->n_values > 100);
    }
    CHECK_I64(jc_hwdb_dataset(bundled, "no-such-dataset", &ds, &d), JC_ERR_NOTFOUND);
}

/* tests/hwdb/override: A100 tdp_w overridden, a new device added. */
static void test_override_layer(void)
{
    const char *layers[1] = {OVR_DIR};
    jc_hwdb *db = NULL;
    jc_diag d;
    jc_status st = jc_hwdb_load(JC_HWDB_DIR, layers, 1, NULL, &db, &d);
    if (st) printf("  override: %s\n", d.msg);
    CHECK_I64(st, JC_OK);
    if (st) return;
    const jc_device *dv;
    CHECK_I64(jc_hwdb_device(db, "a100", &dv, &d), JC_OK);
    if (dv) {
        CHECK_NEAR(dv->tdp_w.value, 450, 1e-9);
        CHECK(strstr(dv->tdp_w.file, "tests/hwdb/override/") != NULL);
        CHECK_STR(dv->tdp_w.source->id, "lab-meter");
        CHECK_NEAR(dv->memory_gb.value, 80, 1e-9);          /* untouched */
        CHECK_NEAR(dv->peak_tflops[JC_PREC_FP16].value, 312, 1e-9); /* merged map */
        CHECK_NEAR(dv->peak_tflops[JC_PREC_FP8].value, 1, 1e-9);
    }
    CHECK_I64(jc_hwdb_device(db, "my-lab-npu", &dv, &d), JC_OK);
    if (dv) {
        CHECK_I64(dv->kind, JC_DEVICE_ACCELERATOR);
        CHECK_NEAR(dv->tdp_w.value, 75, 1e-9);
    }
    CHECK_I64(db->n_devices, bundled ? bundled->n_devices + 1 : db->n_devices);
    /* a host's fabric: scale-up domain and NICs per accelerator */
    const jc_host *h = NULL;
    for (size_t i = 0; i < db->n_hosts; i++)
        if (!strcmp(db->hosts[i].id, "lab-rack-72")) h = &db->hosts[i];
    CHECK(h != NULL);
    if (h) {
        CHECK_STR(h->fabric_up, "Lab switch");
        CHECK_NEAR(h->up_devices.value, 72, 1e-9);
        CHECK_NEAR(h->up_gbs.value, 900, 1e-9);
        CHECK_NEAR(h->up_reduce.value, 1, 1e-9);
        CHECK_NEAR(h->out_gbs.value, 100, 1e-9);
        CHECK(h->out_reduce.present && h->out_reduce.value == 0);
        CHECK_STR(h->out_gbs.source->id, "lab-rack");
    }
    jc_hwdb_free(db);

    /* the same layer from a colon-separated env list (empty entries skipped) */
    st = jc_hwdb_load(JC_HWDB_DIR, NULL, 0, ":" OVR_DIR ":", &db, &d);
    CHECK_I64(st, JC_OK);
    if (!st) {
        CHECK_I64(jc_hwdb_device(db, "LabNPU", &dv, &d), JC_OK);
        jc_hwdb_free(db);
    }
    /* an override alone is incomplete: the A100 entry lacks kind/vendor */
    st = jc_hwdb_load(NULL, layers, 1, NULL, &db, &d);
    CHECK_I64(st, JC_ERR_HWDB);
    CHECK(db == NULL);
}

/* issue 38 item 4: the one hwdb search order of the CLI and the bindings
 * (jc_hwdb_find_dir, jc_hwdb_find_snapshot), on a tree made here:
 * anchors tried in order, per anchor A/hwdb, A/../share/joulecast/hwdb,
 * A/../hwdb, A/../../hwdb; $JOULECAST_HWDB_DIR first; the fallback last. */
static void test_search_order(void)
{
    char root[] = "/tmp/jc-find-XXXXXX", p[600], buf[4200];
    if (!mkdtemp(root)) {
        CHECK(0);
        return;
    }
    const char *dirs[] = {"pkg", "pkg/hwdb", "prefix", "prefix/bin", "prefix/share", "prefix/share/joulecast",
                          "prefix/share/joulecast/hwdb", "src", "src/hwdb", "src/build", "src/python",
                          "src/python/joulecast"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", root, dirs[i]);
        CHECK(mkdir(p, 0700) == 0);
    }
    char pkg[600], bin[600], build[600], pyd[600];
    snprintf(pkg, sizeof pkg, "%s/pkg", root);
    snprintf(bin, sizeof bin, "%s/prefix/bin", root);
    snprintf(build, sizeof build, "%s/src/build", root);
    snprintf(pyd, sizeof pyd, "%s/src/python/joulecast", root);
    unsetenv("JOULECAST_HWDB_DIR");
    unsetenv("JOULECAST_HWDB_SNAPSHOT");
    const char *a1[] = {pkg, bin};
    const char *r = jc_hwdb_find_dir(a1, 2, NULL, 0, buf, sizeof buf);
    snprintf(p, sizeof p, "%s/pkg/hwdb", root);
    CHECK(r && !strcmp(r, p));   /* a pip package's own copy first */
    const char *a2[] = {bin};
    r = jc_hwdb_find_dir(a2, 1, NULL, 0, buf, sizeof buf);
    snprintf(p, sizeof p, "%s/prefix/bin/../share/joulecast/hwdb", root);
    CHECK(r && !strcmp(r, p));   /* installed: PREFIX/bin -> PREFIX/share/joulecast/hwdb */
    const char *a3[] = {build};
    r = jc_hwdb_find_dir(a3, 1, NULL, 0, buf, sizeof buf);
    snprintf(p, sizeof p, "%s/src/build/../hwdb", root);
    CHECK(r && !strcmp(r, p));   /* a build tree */
    const char *a4[] = {pyd};
    r = jc_hwdb_find_dir(a4, 1, NULL, 0, buf, sizeof buf);
    snprintf(p, sizeof p, "%s/src/python/joulecast/../../hwdb", root);
    CHECK(r && !strcmp(r, p));   /* a source tree's python/joulecast */
    /* none next to the anchors: the fallback, tidied to its real path */
    const char *a5[] = {root};
    snprintf(p, sizeof p, "%s/src/hwdb", root);
    r = jc_hwdb_find_dir(a5, 1, p, 1, buf, sizeof buf);
    char real[4200];
    CHECK(realpath(p, real) != NULL);
    CHECK(r && !strcmp(r, real));
    CHECK(jc_hwdb_find_dir(a5, 1, NULL, 0, buf, sizeof buf) == NULL);
    /* the override names the folder, whatever the anchors */
    setenv("JOULECAST_HWDB_DIR", "/nonexistent/hwdb", 1);
    r = jc_hwdb_find_dir(a1, 2, NULL, 0, buf, sizeof buf);
    CHECK(r && !strcmp(r, "/nonexistent/hwdb"));
    unsetenv("JOULECAST_HWDB_DIR");
    /* the snapshot: beside the anchor, then the installed prefix; "off" */
    CHECK(jc_hwdb_find_snapshot(a3, 1, 0, buf, sizeof buf) == NULL);
    snprintf(p, sizeof p, "%s/src/build/hwdb.snap", root);
    FILE *f = fopen(p, "w");
    CHECK(f != NULL);
    if (f) fclose(f);
    r = jc_hwdb_find_snapshot(a3, 1, 0, buf, sizeof buf);
    CHECK(r && !strcmp(r, p));
    setenv("JOULECAST_HWDB_SNAPSHOT", "off", 1);
    CHECK(jc_hwdb_find_snapshot(a3, 1, 0, buf, sizeof buf) == NULL);
    unsetenv("JOULECAST_HWDB_SNAPSHOT");
    remove(p);
    for (size_t i = sizeof dirs / sizeof dirs[0]; i-- > 0;) {
        snprintf(p, sizeof p, "%s/%s", root, dirs[i]);
        rmdir(p);
    }
    rmdir(root);
}

int main(void)
{
    RUN(test_bad_corpus);
    RUN(test_huge_file);
    RUN(test_missing_folder);
    RUN(test_bundled_loads);
    RUN(test_spot_checks);
    RUN(test_lookups);
    RUN(test_override_layer);
    RUN(test_search_order);
    jc_hwdb_free(bundled);
    return check_summary();
}
