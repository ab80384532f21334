/*
 * test_snapshot.c - hwdb snapshots (src/hwdb/snapshot.c): a snapshot opened
 * in place or relocated is the same database as the YAML parse (a deep
 * comparison driven by the record table, which also catches a pointer
 * field the table forgot, plus every text and JSON view; the stored name
 * maps slot by slot and by lookups); stale folders, corrupt files, forged
 * images (the checksum recomputed: every pointer, count, string, reference,
 * enum, name and map checked on both open paths) and bad arguments give
 * their documented statuses.
 */
#include "check.h"
#include "hwdb/hwdb_int.h"

#include <stddef.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define HWDB "hwdb"

static char tmpdir[256];

static const char *tmp(const char *name)
{
    static char buf[4][512];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmpdir, name);
    return buf[k];
}

/* ---- deep comparison over hs_types() ------------------------------------ */

static char where[512];
static int n_compared;

static bool same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

/* Copies a record with its listed pointer fields (recursively through
 * embedded records) zeroed: what is left must be byte-identical. */
static void mask(int type, unsigned char *rec)
{
    const hs_type *T = hs_types();
    for (const hs_field *f = T[type].fields; f->kind; f++) {
        if (f->kind == HS_EMB) {
            for (unsigned k = 0; k < f->n; k++) mask(f->type, rec + f->off + k * T[f->type].size);
        } else {
            memset(rec + f->off, 0, sizeof(void *));
        }
    }
}

static bool same_plain(int type, const unsigned char *a, const unsigned char *b)
{
    size_t sz = hs_types()[type].size;
    unsigned char *x = malloc(sz), *y = malloc(sz);
    memcpy(x, a, sz);
    memcpy(y, b, sz);
    mask(type, x);
    mask(type, y);
    bool same = !memcmp(x, y, sz);
    free(x);
    free(y);
    return same;
}

static const void *ptr_at(const unsigned char *rec, unsigned off)
{
    const void *p;
    memcpy(&p, rec + off, sizeof p);
    return p;
}

static size_t count_at(const unsigned char *rec, unsigned off)
{
    size_t c;
    memcpy(&c, rec + off, sizeof c);
    return c;
}

/* deep: follow owned arrays; references compare their targets' plain
 * bytes and strings only (they are compared in full where owned). */
static bool same_rec(int type, const unsigned char *a, const unsigned char *b, bool deep)
{
    const hs_type *T = hs_types();
    n_compared++;
    if (!same_plain(type, a, b)) {
        snprintf(where, sizeof where, "%s: plain fields differ", T[type].name);
        return false;
    }
    for (const hs_field *f = T[type].fields; f->kind; f++) {
        const void *pa = f->kind == HS_EMB ? NULL : ptr_at(a, f->off);
        const void *pb = f->kind == HS_EMB ? NULL : ptr_at(b, f->off);
        switch (f->kind) {
        case HS_STR:
            if (!same_str(pa, pb)) {
                snprintf(where, sizeof where, "%s+%u: \"%s\" vs \"%s\"", T[type].name, f->off,
                         pa ? (const char *)pa : "(null)", pb ? (const char *)pb : "(null)");
                return false;
            }
            break;
        case HS_STRS: {
            size_t c = count_at(a, f->count_off);
            if (!pa != !pb) return snprintf(where, sizeof where, "%s: list NULL", T[type].name), false;
            for (size_t i = 0; pa && i < c; i++)
                if (!same_str(((const char *const *)pa)[i], ((const char *const *)pb)[i])) {
                    snprintf(where, sizeof where, "%s+%u[%zu]", T[type].name, f->off, i);
                    return false;
                }
            break;
        }
        case HS_ARR:
        case HS_ONE: {
            if (!deep) break;
            size_t c = f->kind == HS_ONE ? 1 : count_at(a, f->count_off);
            if (!pa != !pb) return snprintf(where, sizeof where, "%s: array NULL", T[type].name), false;
            for (size_t i = 0; pa && i < c; i++)
                if (!same_rec(f->type, (const unsigned char *)pa + i * T[f->type].size,
                              (const unsigned char *)pb + i * T[f->type].size, true))
                    return false;
            break;
        }
        case HS_REF:
            if (!pa != !pb) return snprintf(where, sizeof where, "%s+%u: ref NULL", T[type].name, f->off), false;
            if (pa && deep && !same_rec(f->type, pa, pb, false)) return false;
            break;
        case HS_EMB:
            for (unsigned k = 0; k < f->n; k++)
                if (!same_rec(f->type, a + f->off + k * T[f->type].size,
                              b + f->off + k * T[f->type].size, deep))
                    return false;
            break;
        case HS_NULL:
            break;
        }
    }
    return true;
}

/* ---- rendered views ------------------------------------------------------------- */

static char *render(const jc_hwdb *db)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    jc_report_hw_list_text(db, NULL, f);
    jc_hw_filter hosts = {.kind = "host"};
    jc_report_hw_list_text(db, &hosts, f);
    jc_report_region_list_text(db, NULL, NULL, f);
    for (size_t i = 0; i < db->n_devices; i++) {
        jc_report_device_text(&db->devices[i], f);
        char *j = jc_report_device_json(&db->devices[i]);
        fputs(j ? j : "(oom)", f);
        free(j);
    }
    for (size_t i = 0; i < db->n_hosts; i++) jc_report_host_text(&db->hosts[i], f);
    for (size_t i = 0; i < db->n_regions; i++) jc_report_region_text(&db->regions[i], f);
    char *j = jc_report_hw_list_json(db, NULL);
    fputs(j ? j : "(oom)", f);
    free(j);
    fclose(f);
    return buf;
}

/* ---- tests -------------------------------------------------------------------------- */

static jc_hwdb *yaml_db;
static char *yaml_view;

static void test_write(void)
{
    jc_diag d;
    CHECK_I64(jc_hwdb_load(HWDB, NULL, 0, NULL, &yaml_db, &d), JC_OK);
    yaml_view = yaml_db ? render(yaml_db) : NULL;
    CHECK_I64(jc_hwdb_snapshot_write(HWDB, tmp("db.snap"), &d), JC_OK);
    struct stat sb;
    CHECK(stat(tmp("db.snap"), &sb) == 0 && sb.st_size > 4096);
}

/* Every name of every namespace of the YAML database is found in the
 * snapshot's stored map, at the same index. */
static bool check_names(const jc_hwdb *y, const jc_hwdb *s)
{
    const hw_internal *a = y->internal_, *b = s->internal_;
    const hw_ns *na[] = {&a->hw, &a->regions, &a->providers, &a->constants, &a->datasets, &a->ga};
    const hw_ns *nb[] = {&b->hw, &b->regions, &b->providers, &b->constants, &b->datasets, &b->ga};
    for (size_t k = 0; k < sizeof na / sizeof na[0]; k++) {
        if (na[k]->n != nb[k]->n) return false;
        for (size_t i = 0; i < na[k]->n; i++)
            if (jci_strmap_get(&nb[k]->map, na[k]->names[i].lower) != (int32_t)i) return false;
    }
    return true;
}

static void check_same(unsigned flags, int expect_mode)
{
    jc_diag d;
    jc_hwdb *db = NULL;
    CHECK_I64(jc_hwdb_snapshot_open(tmp("db.snap"), HWDB, flags, &db, &d), JC_OK);
    if (!db || !yaml_db) return;
    int mode = jc_hwdb_from_snapshot(db);
    if (expect_mode) CHECK_I64(mode, expect_mode);
    else CHECK(mode == 1 || mode == 2);
    CHECK_I64(jc_hwdb_from_snapshot(yaml_db), 0);
    n_compared = 0;
    where[0] = 0;
    bool same = same_rec(HT_HWDB, (const unsigned char *)yaml_db, (const unsigned char *)db, true);
    if (!same) printf("  first difference: %s\n", where);
    CHECK(same);
    CHECK(check_names(yaml_db, db));
    if (n_compared < 30000) printf("  compared %d records\n", n_compared);
    CHECK(n_compared > 30000);
    char *view = render(db);
    CHECK(view && yaml_view && !strcmp(view, yaml_view));
    free(view);
    /* lookups through the name indexes land on the same records */
    for (size_t i = 0; i < yaml_db->n_devices; i++) {
        const jc_device *x = NULL;
        for (size_t k = 0; k <= yaml_db->devices[i].n_aliases; k++) {
            const char *nm = k ? yaml_db->devices[i].aliases[k - 1] : yaml_db->devices[i].id;
            CHECK(jc_hwdb_device(db, nm, &x, &d) == JC_OK && x == &db->devices[i]);
        }
    }
    const jc_region *r = NULL;
    CHECK(jc_hwdb_region(db, "us-ca", &r, &d) == JC_OK && r && !strcmp(r->code, "US-CA"));
    CHECK(jc_hwdb_region(db, "frnace", &r, &d) == JC_ERR_NOTFOUND && strstr(d.msg, "did you mean France (FR)"));
    jc_hwdb_free(db);
}

static void test_mapped(void)
{
    check_same(0, 0);
}

static void test_relocated(void)
{
    check_same(JCI_SNAPSHOT_RELOCATE, 1);
}

/* a second database while the first is still mapped at the fixed address */
static void test_two_at_once(void)
{
    jc_diag d;
    jc_hwdb *a = NULL, *b = NULL;
    CHECK_I64(jc_hwdb_snapshot_open(tmp("db.snap"), HWDB, 0, &a, &d), JC_OK);
    CHECK_I64(jc_hwdb_snapshot_open(tmp("db.snap"), HWDB, 0, &b, &d), JC_OK);
    if (a && b) {
        CHECK(jc_hwdb_from_snapshot(b) == 1);
        CHECK(a->n_devices == b->n_devices && !strcmp(a->devices[0].id, b->devices[0].id));
    }
    jc_hwdb_free(a);
    jc_hwdb_free(b);
}

/* file paths are spelled from the folder argument, as jc_hwdb_load does */
static void test_paths_follow_folder(void)
{
    jc_diag d;
    jc_hwdb *a = NULL, *b = NULL;
    CHECK_I64(jc_hwdb_load("./" HWDB "/", NULL, 0, NULL, &a, &d), JC_OK);
    CHECK_I64(jc_hwdb_snapshot_open(tmp("db.snap"), "./" HWDB "/", 0, &b, &d), JC_OK);
    if (a && b) {
        CHECK_STR(b->files[0], a->files[0]);
        CHECK(!strncmp(b->files[0], "./" HWDB "/", 7));
        CHECK_STR(b->devices[0].file, a->devices[0].file);
        CHECK_STR(b->devices[0].tdp_w.source ? b->devices[0].tdp_w.source->file : "",
                  a->devices[0].tdp_w.source ? a->devices[0].tdp_w.source->file : "");
    }
    jc_hwdb_free(a);
    jc_hwdb_free(b);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

static const char *small_db =
    "schema: joulecast-hwdb/1\n"
    "sources:\n"
    "  s: {citation: test, year: 2024}\n"
    "constants:\n"
    "  - {id: memory_w_per_gb, unit: W/GB, value: 0.3725, source: s}\n";

static void test_stale(void)
{
    jc_diag d;
    jc_hwdb *db = NULL;
    char dir[512];
    snprintf(dir, sizeof dir, "%s", tmp("small"));
    mkdir(dir, 0755);
    write_text(tmp("small/a.yaml"), small_db);
    CHECK_I64(jc_hwdb_snapshot_write(dir, tmp("small.snap"), &d), JC_OK);
    CHECK_I64(jc_hwdb_snapshot_open(tmp("small.snap"), dir, 0, &db, &d), JC_OK);
    CHECK(db && db->n_constants == 1);
    jc_hwdb_free(db);
    db = NULL;
    /* the same size, another modification time */
    struct timespec ts[2] = {{0, UTIME_OMIT}, {1000000000, 0}};
    utimensat(AT_FDCWD, tmp("small/a.yaml"), ts, 0);
    CHECK_I64(jc_hwdb_snapshot_open(tmp("small.snap"), dir, 0, &db, &d), JC_ERR_NOTFOUND);
    if (!strstr(d.msg, "a.yaml changed since the snapshot was written")) printf("  %s\n", d.msg);
    CHECK(db == NULL && strstr(d.msg, "a.yaml changed since the snapshot was written"));
    /* rewritten, then a file added */
    CHECK_I64(jc_hwdb_snapshot_write(dir, tmp("small.snap"), &d), JC_OK);
    write_text(tmp("small/b.yaml"), "# nothing yet\n");
    CHECK_I64(jc_hwdb_snapshot_open(tmp("small.snap"), dir, 0, &db, &d), JC_ERR_NOTFOUND);
    if (!strstr(d.msg, "small: an entry was added, removed or renamed")) printf("  %s\n", d.msg);
    CHECK(strstr(d.msg, "small: an entry was added, removed or renamed"));
    remove(tmp("small/b.yaml"));
    /* another folder with the same file names */
    CHECK_I64(jc_hwdb_snapshot_open(tmp("small.snap"), HWDB, 0, &db, &d), JC_ERR_NOTFOUND);
    /* an invalid folder is refused like jc_hwdb_load refuses it */
    write_text(tmp("small/a.yaml"), "schema: joulecast-hwdb/1\nconstants: [\n");
    CHECK_I64(jc_hwdb_snapshot_write(dir, tmp("small2.snap"), &d), JC_ERR_HWDB);
    if (!strstr(d.msg, "a.yaml:")) printf("  %s\n", d.msg);
    CHECK(strstr(d.msg, "a.yaml:"));
    struct stat sb;
    CHECK(stat(tmp("small2.snap"), &sb) != 0);
    remove(tmp("small/a.yaml"));
    rmdir(dir);
    remove(tmp("small.snap"));
}

static void spit(const char *path, const unsigned char *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fwrite(b, 1, n, f);
    fclose(f);
}

static void forged(const unsigned char *img, size_t n);

static void test_corrupt(void)
{
    jc_diag d;
    jc_hwdb *db = NULL;
    size_t n = 0;
    unsigned char *img = check_slurp(tmp("db.snap"), &n);
    CHECK(img && n > 8192);
    if (!img) return;
    const char *bad = tmp("bad.snap");
    /* truncated: every mode refuses it from the header */
    spit(bad, img, n - 100);
    CHECK_I64(jc_hwdb_snapshot_open(bad, HWDB, 0, &db, &d), JC_ERR_HWDB);
    CHECK(strstr(d.msg, "truncated"));
    spit(bad, img, 10);
    CHECK_I64(jc_hwdb_snapshot_open(bad, HWDB, 0, &db, &d), JC_ERR_HWDB);
    /* not a snapshot */
    spit(bad, (const unsigned char *)"devices: []\n", 12);
    CHECK_I64(jc_hwdb_snapshot_open(bad, HWDB, 0, &db, &d), JC_ERR_HWDB);
    unsigned char *c = malloc(n);
    memcpy(c, img, n);
    memcpy(c, "XXXXXXXX", 8);
    spit(bad, c, n);
    CHECK_I64(jc_hwdb_snapshot_open(bad, HWDB, 0, &db, &d), JC_ERR_HWDB);
    CHECK(strstr(d.msg, "not a joulecast hwdb snapshot"));
    /* another record layout */
    memcpy(c, img, n);
    c[12] ^= 1;
    spit(bad, c, n);
    CHECK_I64(jc_hwdb_snapshot_open(bad, HWDB, 0, &db, &d), JC_ERR_HWDB);
    CHECK(strstr(d.msg, "different build"));
    /* bit flips anywhere in the file, header included: both the relocating
     * and the mapping reader refuse each one (the checksum covers the
     * whole file), never a crash and never a silently changed value */
    srand(7);
    int caught = 0, caught_mapped = 0, said = 0;
    for (int k = 0; k < 40; k++) {
        memcpy(c, img, n);
        size_t at = k < 8 ? 16 + (size_t)rand() % (4096 - 16) : (size_t)rand() % n;
        c[at] ^= (unsigned char)(1u << (rand() % 8));
        spit(bad, c, n);
        jc_status st = jc_hwdb_snapshot_open(bad, HWDB, JCI_SNAPSHOT_RELOCATE, &db, &d);
        caught += st == JC_ERR_HWDB;
        jc_hwdb_free(db);
        db = NULL;
        st = jc_hwdb_snapshot_open(bad, HWDB, 0, &db, &d);
        caught_mapped += st == JC_ERR_HWDB;
        said += st == JC_ERR_HWDB && strstr(d.msg, "checksum mismatch") != NULL;
        jc_hwdb_free(db);
        db = NULL;
    }
    CHECK_I64(caught, 40);
    CHECK_I64(caught_mapped, 40);
    CHECK(said >= 30);   /* the rest: header fields the header check refuses first */
    /* a pointer aimed outside the image with the checksum recomputed:
     * the bounds check catches what the checksum cannot */
    hs_header h;
    memcpy(&h, img, sizeof h);
    memcpy(c, img, n);
    uint64_t wild = h.base + h.length + 64;
    memcpy(c + h.root + offsetof(jc_hwdb, devices), &wild, sizeof wild);
    h.checksum = hs_image_checksum(c, n);
    memcpy(c, &h, sizeof h);
    spit(bad, c, n);
    CHECK_I64(jc_hwdb_snapshot_open(bad, HWDB, JCI_SNAPSHOT_RELOCATE, &db, &d), JC_ERR_HWDB);
    CHECK(strstr(d.msg, "corrupt (a pointer"));
    CHECK_I64(jc_hwdb_snapshot_open(bad, HWDB, 0, &db, &d), JC_ERR_HWDB);   /* the mapped path too */
    /* a string without its NUL at the very end of the image */
    memcpy(c, img, n);
    memset(c + n - 16, 'x', 16);
    uint64_t tail = h.base + n - 16;
    memcpy(c + h.root + offsetof(jc_hwdb, files), &tail, sizeof tail);
    memcpy(&h, img, sizeof h);
    h.checksum = hs_image_checksum(c, n);
    memcpy(c, &h, sizeof h);
    spit(bad, c, n);
    CHECK_I64(jc_hwdb_snapshot_open(bad, HWDB, JCI_SNAPSHOT_RELOCATE, &db, &d), JC_ERR_HWDB);
    CHECK_I64(jc_hwdb_snapshot_open(bad, HWDB, 0, &db, &d), JC_ERR_HWDB);
    free(c);
    forged(img, n);
    free(img);
    remove(bad);
    CHECK_I64(jc_hwdb_snapshot_open(tmp("missing.snap"), HWDB, 0, &db, &d), JC_ERR_IO);
    CHECK(db == NULL);
}

/* One forgery of the image: the checksum recomputed, then opened mapped
 * and relocated; both must refuse it (JC_ERR_HWDB naming the kind of
 * corruption) and leave *out NULL.  Issue 43 item 1: the mapped path
 * checked only the checksum, so each of these crashed every command. */
static int forge_open(const unsigned char *c, size_t n, const char *what)
{
    const char *bad = tmp("forged.snap");
    hs_header h;
    unsigned char *x = malloc(n);
    memcpy(x, c, n);
    memcpy(&h, x, sizeof h);
    h.checksum = 0;
    memcpy(x, &h, sizeof h);
    h.checksum = hs_image_checksum(x, n);
    memcpy(x, &h, sizeof h);
    spit(bad, x, n);
    free(x);
    int refused = 0;
    for (unsigned flags = 0; flags <= JCI_SNAPSHOT_RELOCATE; flags++) {
        jc_hwdb *db = (jc_hwdb *)&h;
        jc_diag d;
        jc_status st = jc_hwdb_snapshot_open(bad, HWDB, flags, &db, &d);
        if (st == JC_ERR_HWDB && db == NULL && strstr(d.msg, "corrupt")) refused++;
        else printf("  %s (flags %u): status %d, %s\n", what, flags, (int)st, d.msg);
        if (st == JC_OK) jc_hwdb_free(db);
    }
    remove(bad);
    return refused == 2;
}

static void put64(unsigned char *c, size_t at, uint64_t v)
{
    memcpy(c + at, &v, sizeof v);
}

static uint64_t get64(const unsigned char *c, size_t at)
{
    uint64_t v;
    memcpy(&v, c + at, sizeof v);
    return v;
}

static void forged(const unsigned char *img, size_t n)
{
    hs_header h;
    memcpy(&h, img, sizeof h);
    unsigned char *c = malloc(n);
    size_t root = (size_t)h.root;
    uint64_t devs = get64(img, root + offsetof(jc_hwdb, devices)), regs = get64(img, root + offsetof(jc_hwdb, regions));
    size_t dev0 = (size_t)(devs - h.base), in_off = (size_t)(get64(img, root + offsetof(jc_hwdb, internal_)) - h.base);
#define FORGE(what, edit) do { memcpy(c, img, n); edit; CHECK(forge_open(c, n, what)); } while (0)
    /* a record array aimed into the header, misaligned, at itself */
    FORGE("devices into the header", put64(c, root + offsetof(jc_hwdb, devices), h.base + 64));
    FORGE("devices misaligned", put64(c, root + offsetof(jc_hwdb, devices), devs + 4));
    FORGE("devices at the root", put64(c, root + offsetof(jc_hwdb, devices), h.base + root));
    /* two owned arrays sharing memory (a cycle or a double claim) */
    FORGE("hosts = devices", put64(c, root + offsetof(jc_hwdb, hosts), devs));
    /* a count past the image, and a NULL array with a count */
    FORGE("n_devices 2^40", put64(c, root + offsetof(jc_hwdb, n_devices), (uint64_t)1 << 40));
    FORGE("n_devices + 1", put64(c, root + offsetof(jc_hwdb, n_devices), get64(img, root + offsetof(jc_hwdb, n_devices)) + 1));
    FORGE("NULL devices, count kept", put64(c, root + offsetof(jc_hwdb, devices), 0));
    /* a string aimed into a record, and one without a NUL before a record */
    FORGE("device id into a record", put64(c, dev0 + offsetof(jc_device, id), devs + 8));
    /* a borrowed reference at a record of another type, and between records */
    size_t src_at = dev0 + offsetof(jc_device, tdp_w) + offsetof(jc_sourced, source);
    CHECK(get64(img, src_at) != 0);
    FORGE("source -> a region", put64(c, src_at, regs));
    FORGE("source -> inside a source", put64(c, src_at, get64(img, src_at) + 8));
    /* an enum out of its names, a name of no entry */
    FORGE("device kind 1000", { int k = 1000; memcpy(c + dev0 + offsetof(jc_device, kind), &k, sizeof k); });
    size_t names = (size_t)(get64(img, in_off + offsetof(hw_internal, hw) + offsetof(hw_ns, names)) - h.base);
    FORGE("name idx 1e6", { int32_t k = 1000000; memcpy(c + names + offsetof(hw_name, idx), &k, sizeof k); });
    FORGE("name of kind 99", { int k = 99; memcpy(c + names + offsetof(hw_name, kind), &k, sizeof k); });
    /* a stored map: a capacity not a power of two, one past its arrays, a
     * value that is no index of its names */
    size_t map = in_off + offsetof(hw_internal, hw) + offsetof(hw_ns, map);
    uint64_t cap = get64(img, map + offsetof(jci_strmap, cap));
    FORGE("map capacity 12", put64(c, map + offsetof(jci_strmap, cap), 12));
    FORGE("map capacity x2", put64(c, map + offsetof(jci_strmap, cap), 2 * cap));
    size_t keys = (size_t)(get64(img, map + offsetof(jci_strmap, keys)) - h.base);
    size_t vals = (size_t)(get64(img, map + offsetof(jci_strmap, vals)) - h.base), used = 0;
    while (used < cap && !get64(img, keys + 8 * used)) used++;
    CHECK(used < cap);
    FORGE("map value 1e6", { int32_t k = 1000000; memcpy(c + vals + 4 * used, &k, sizeof k); });
    /* a string aimed past the string section, into the lists' section, at a
     * slot's middle; the string section without its last NUL */
    const uint64_t *so = h.sec_off, *sl = h.sec_len;
    size_t id_at = dev0 + offsetof(jc_device, id);
    FORGE("device id past the strings", put64(c, id_at, h.base + so[HS_SEC_STR] + sl[HS_SEC_STR]));
    FORGE("device id into the lists", put64(c, id_at, h.base + so[HS_SEC_STRS]));
    FORGE("device id into a slot", put64(c, id_at, h.base + h.slots + 1));
    FORGE("last NUL of the strings", c[so[HS_SEC_STR] + sl[HS_SEC_STR] - 1] = 'x');
    /* the header's tables: sections out of order, a section past the file,
     * a partial record, the slots over the file table */
    hs_header hx;
#define FORGE_HDR(what, edit) FORGE(what, { memcpy(&hx, img, sizeof hx); edit; memcpy(c, &hx, sizeof hx); })
    FORGE_HDR("sections out of order", hx.sec_off[HS_SEC_STR] = hx.sec_off[HS_SEC_STRS]);
    FORGE_HDR("section past the file", hx.sec_len[HS_SEC_STR] += 4096);
    FORGE_HDR("a partial device", hx.sec_len[hs_type_sec(HT_DEVICE)] -= 8);
    FORGE_HDR("slots over the file table", hx.slots = hx.files);
#undef FORGE_HDR
#undef FORGE
    free(c);
}

static void test_bad_args(void)
{
    jc_diag d;
    jc_hwdb *db = (jc_hwdb *)&d;
    CHECK_I64(jc_hwdb_snapshot_open(NULL, HWDB, 0, &db, &d), JC_ERR_USAGE);
    CHECK(db == NULL);
    CHECK_I64(jc_hwdb_snapshot_open(tmp("db.snap"), NULL, 0, &db, &d), JC_ERR_USAGE);
    CHECK_I64(jc_hwdb_snapshot_open(tmp("db.snap"), HWDB, 0, NULL, &d), JC_ERR_USAGE);
    CHECK_I64(jc_hwdb_snapshot_write(NULL, tmp("x.snap"), &d), JC_ERR_USAGE);
    CHECK_I64(jc_hwdb_snapshot_write(HWDB, "/nonexistent-dir/x.snap", &d), JC_ERR_IO);
    CHECK(strstr(d.msg, "/nonexistent-dir/x.snap"));
    CHECK_I64(jc_hwdb_snapshot_write("/nonexistent-hwdb", tmp("x.snap"), &d), JC_ERR_IO);
    CHECK_I64(jc_hwdb_from_snapshot(NULL), 0);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "%s/jc-snap-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return 1;
    }
    RUN(test_write);
    RUN(test_mapped);
    RUN(test_relocated);
    RUN(test_two_at_once);
    RUN(test_paths_follow_folder);
    RUN(test_stale);
    RUN(test_corrupt);
    RUN(test_bad_args);
    jc_hwdb_free(yaml_db);
    free(yaml_view);
    remove(tmp("db.snap"));
    remove(tmp("x.snap"));
    rmdir(tmpdir);
    return check_summary();
}
