/*
 * test_request.c - the one request path (src/job/request.c) against its
 * contract: SHA-256 test vectors (FIPS 180-4 examples), the batch rules
 * (validation, the fixed-batch rule both ways, the default batch of 1),
 * the --seq check, the partial-count policy with the message naming what
 * is missing, bindings that only some models have (compare), and a model
 * read from a stream giving the same count and identity as from its path.
 * A committed model that cannot be loaded is a failure, never a skip.
 */
#include "check.h"

#include "joulecast.h"
#include "base/jc_internal.h"
#include "estimate/akeys.h"
#include "job/reqset.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *TESTDATA_CONV = "/usr/share/libonnx-testdata/data/pytorch-converted/test_Conv2d/model.onnx";

static void hex_of(const char *s, size_t n, size_t repeat, char out[65])
{
    jci_sha256 h;
    jci_sha256_init(&h);
    for (size_t i = 0; i < repeat; i++) jci_sha256_update(&h, s, n);
    jci_sha256_hex(&h, out);
}

static void test_sha256_vectors(void)
{
    char out[65];
    hex_of("", 0, 1, out);
    CHECK_STR(out, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    hex_of("abc", 3, 1, out);
    CHECK_STR(out, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    hex_of(two, strlen(two), 1, out);
    CHECK_STR(out, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    /* one million 'a', fed in pieces that straddle block boundaries */
    hex_of("aaaaaaaaaaaaaaaaaaaaaaaaa", 25, 40000, out);
    CHECK_STR(out, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

static void test_batch_check(void)
{
    jc_diag d;
    CHECK_I64(jc_batch_check(NAN, "--batch", &d), JC_OK);
    CHECK_I64(jc_batch_check(1, "--batch", &d), JC_OK);
    CHECK_I64(jc_batch_check(1e9, "--batch", &d), JC_OK);
    CHECK_I64(jc_batch_check(0, "--batch", &d), JC_ERR_USAGE);
    CHECK(strstr(d.msg, "--batch") != NULL);
    CHECK_I64(jc_batch_check(1.5, "--batch", &d), JC_ERR_USAGE);
    CHECK_I64(jc_batch_check(2e9, "--batch", &d), JC_ERR_RANGE);
    CHECK(strstr(d.msg, "at most") != NULL);
}

/* The ranges of job_keys.def: one check for a value given as text
 * (jc_job_set) and for a job filled in field by field (jc_job_check). */
static void test_job_key_ranges(void)
{
    jc_diag d;
    jc_job j;
    jc_job_init(&j);
    CHECK_I64(jc_job_check(&j, &d), JC_OK);                /* nothing given */
    CHECK_I64(jc_job_set(&j, "count", "8.5", &d), JC_ERR_USAGE);
    CHECK_STR(d.msg, "count must be a whole number >= 1 (got 8.5 devices)");
    CHECK_I64(jc_job_set(&j, "zero", "0", &d), JC_OK);     /* WHOLE0 */
    CHECK_I64(jc_job_set(&j, "zero", "4", &d), JC_ERR_RANGE);
    CHECK_I64(jc_job_set(&j, "host-power", "0", &d), JC_OK); /* GE0 */
    CHECK_I64(jc_job_set(&j, "flops", "0", &d), JC_ERR_USAGE); /* GT0 */
    CHECK_I64(jc_job_set(&j, "hidden", "4096.5", &d), JC_ERR_USAGE); /* a width is whole */
    CHECK_I64(jc_job_set(&j, "pue", "-1", &d), JC_ERR_USAGE); /* IN: [1, 3] */
    CHECK_STR(d.msg, "pue must be in [1, 3] (got -1)");
    CHECK(jc_job_key_max("pue") == NULL);                  /* an interval, not a size limit */
    CHECK_I64(jc_job_set(&j, "scaling", "1", &d), JC_OK);  /* INGT: (0, 1] */
    CHECK_I64(jc_job_set(&j, "scaling", "0", &d), JC_ERR_USAGE);
    CHECK_STR(d.msg, "scaling must be in (0, 1] (got 0)");
    CHECK_I64(jc_job_set(&j, "ci", "2001", &d), JC_ERR_USAGE);
    CHECK_STR(d.msg, "ci must be in [0, 2000] gCO2e/kWh (got 2001)");
    CHECK_I64(jc_job_set(&j, "backward-factor", "11", &d), JC_ERR_USAGE);
    /* --avg-power: at most 5,000 W per device, the hwdb's bound on tdp_w
     * (the table said 1e5 while the estimate refused above 5,000) */
    CHECK_I64(jc_job_set(&j, "avg-power", "5000", &d), JC_OK);
    CHECK_I64(jc_job_set(&j, "avg-power", "6000", &d), JC_ERR_RANGE);
    CHECK(jc_job_key_max("avg-power") && *jc_job_key_max("avg-power") == 5000);
    CHECK_I64(jc_job_set(&j, "seq", "0.5", &d), JC_ERR_USAGE);     /* GE 1 */
    CHECK_I64(jc_job_set(&j, "requests", "0.5", &d), JC_ERR_USAGE);
    CHECK(jc_job_key_max("count") && *jc_job_key_max("count") == 1e8);
    jc_job_init(&j);
    j.tp = 2.5;                                             /* as a C caller fills it */
    CHECK_I64(jc_job_check(&j, &d), JC_ERR_USAGE);
    CHECK_STR(d.msg, "--tp must be a whole number >= 1 (got 2.5 devices)");
    j.tp = 2;
    j.hosts = 1e9;
    CHECK_I64(jc_job_check(&j, &d), JC_ERR_RANGE);
    CHECK(strstr(d.msg, "--hosts") && strstr(d.msg, "at most 1e+07 hosts"));
    CHECK_I64(jc_job_check_value("batch", "--batches", 0, &d), JC_ERR_USAGE);
    CHECK(!strncmp(d.msg, "--batches must be", 17));
    CHECK_I64(jc_job_check_value("device", NULL, 1, &d), JC_ERR_INTERNAL);
    /* the one bound between two keys */
    jc_job_init(&j);
    j.params = 7e9;
    j.active_params = 8e9;
    CHECK_I64(jc_job_check(&j, &d), JC_ERR_USAGE);
    CHECK_STR(d.msg, "--active-params 8e+09 is above --params 7e+09");
    j.active_params = 1e9;
    CHECK_I64(jc_job_check(&j, &d), JC_OK);
}

static jc_status prepare(const char *model, const jc_job *job, jc_request *rq, jc_prepared **p, jc_diag *d)
{
    rq->job = job;
    rq->model = model;
    return jc_request_prepare(rq, p, d);
}

/* An unbound symbolic batch is counted at 1; --batch binds it. */
static void test_default_batch(void)
{
    jc_job j;
    jc_job_init(&j);
    jc_request rq;
    jc_request_init(&rq);
    jc_prepared *p = NULL;
    jc_diag d;
    rq.hash_weights = 1;
    CHECK_I64(prepare("models/resnet18.onnx", &j, &rq, &p, &d), JC_OK);
    rq.hash_weights = 0;
    if (!p) return;
    CHECK(p->info.batch == 1);
    CHECK(!p->info.partial);
    int64_t macs1 = p->analysis->totals.macs;
    char want[65];
    CHECK_I64(jci_sha256_file("models/resnet18.onnx", want, &d), JC_OK);
    CHECK_STR(p->model->sha256, want);
    jc_prepared_free(p);
    j.batch = 4;
    CHECK_I64(prepare("models/resnet18.onnx", &j, &rq, &p, &d), JC_OK);
    if (!p) return;
    CHECK(p->info.batch == 4);
    CHECK_I64(p->analysis->totals.macs, 4 * macs1);
    jc_prepared_free(p);
}

/* The graph identity (issue 28 item 1): the same graph and file size with
 * other weights has the same graph_sha256, a renamed node or weights in
 * another field another; the whole file is hashed only with hash_weights
 * (tests/models/gen_identity_models.py). */
static void test_graph_identity(void)
{
    static const char *const f[] = {"same_a", "same_b", "renamed", "typed_a", "typed_b"};
    char g[5][65], w[5][65];
    jc_request rq;
    jc_request_init(&rq);
    jc_diag d;
    for (int i = 0; i < 5; i++) {
        char path[128];
        snprintf(path, sizeof path, "tests/models/identity/%s.onnx", f[i]);
        jc_model *m = NULL;
        rq.model = path;
        rq.hash_weights = 0;
        CHECK_I64(jc_request_load(&rq, &m, &d), JC_OK);
        if (!m) return;
        CHECK_I64((int64_t)strlen(m->graph_sha256), 64);
        CHECK_STR(m->sha256, "");               /* the weights are not read */
        snprintf(g[i], sizeof g[i], "%s", m->graph_sha256);
        jc_model_free(m);
        rq.hash_weights = 1;
        CHECK_I64(jc_request_load(&rq, &m, &d), JC_OK);
        if (!m) return;
        CHECK_STR(m->graph_sha256, g[i]);       /* the same identity either way */
        CHECK_I64(jci_sha256_file(path, w[i], &d), JC_OK);
        CHECK_STR(m->sha256, w[i]);
        jc_model_free(m);
    }
    CHECK_STR(g[0], g[1]);                      /* other weights, same graph */
    CHECK(strcmp(w[0], w[1]) != 0);             /* ... but another file */
    CHECK(strcmp(g[0], g[2]) != 0);             /* a renamed node */
    CHECK_STR(g[3], g[4]);                      /* float_data payloads too */
    CHECK(strcmp(g[0], g[3]) != 0);
    /* the file size is part of the identity: a byte appended (an unknown
     * field 99 of the ModelProto, varint 0) changes it */
    FILE *in = fopen("tests/models/identity/same_a.onnx", "rb");
    CHECK(in != NULL);
    if (!in) return;
    static unsigned char buf[32768];
    size_t n = fread(buf, 1, sizeof buf - 3, in);
    fclose(in);
    buf[n++] = 0x98; buf[n++] = 0x06; buf[n++] = 0x00;   /* field 99, varint 0 */
    jc_model *m = NULL;
    CHECK_I64(jc_model_load_buffer(buf, n, "appended", &m, &d), JC_OK);
    if (m) CHECK(strcmp(m->graph_sha256, g[0]) != 0);
    jc_model_free(m);
}

/* A fixed batch dim that differs from --batch: refused, with no way
 * around it (issue 28 item 8: compare counted it at its own batch). */
static void test_fixed_batch(void)
{
    jc_job j;
    jc_job_init(&j);
    j.batch = 8;
    jc_request rq;
    jc_request_init(&rq);
    jc_prepared *p = NULL;
    jc_diag d;
    CHECK_I64(prepare(TESTDATA_CONV, &j, &rq, &p, &d), JC_ERR_USAGE);
    CHECK(strstr(d.msg, "fixed batch dim") != NULL && strstr(d.msg, "--batch 8") != NULL);
    CHECK(p == NULL);
    j.batch = 2;                                /* its own batch */
    CHECK_I64(prepare(TESTDATA_CONV, &j, &rq, &p, &d), JC_OK);
    if (!p) return;
    CHECK(p->info.batch == 2);
    jc_prepared_free(p);
}

/* A partial count is refused with a message naming the unbound dim;
 * allow_partial lets it through and says so. */
static void test_partial_policy(void)
{
    jc_job j;
    jc_job_init(&j);
    j.batch = 8;
    jc_request rq;
    jc_request_init(&rq);
    jc_prepared *p = NULL;
    jc_diag d;
    CHECK_I64(prepare("models/bert_base.onnx", &j, &rq, &p, &d), JC_ERR_INCOMPLETE);
    CHECK(strstr(d.msg, "unknown dim 'sequence'") != NULL);
    CHECK(strstr(d.msg, "--dim sequence=N") != NULL);
    rq.allow_partial = 1;
    CHECK_I64(prepare("models/bert_base.onnx", &j, &rq, &p, &d), JC_OK);
    if (p) {
        CHECK(p->info.partial);
        char words[400];
        jc_analysis_partial_words(p->analysis, words, sizeof words);
        CHECK(strstr(words, "sequence") != NULL);
        jc_prepared_free(p);
    }
    /* bound: complete, not partial */
    jc_dim_binding seq = {"sequence", 128};
    rq.allow_partial = 0;
    rq.dims = &seq;
    rq.n_dims = 1;
    CHECK_I64(prepare("models/bert_base.onnx", &j, &rq, &p, &d), JC_OK);
    if (p) {
        CHECK(!p->info.partial);
        char words[400];
        jc_analysis_partial_words(p->analysis, words, sizeof words);
        CHECK_STR(words, "");
        jc_prepared_free(p);
    }
}

/* --seq must agree with the sequence length the model was counted at. */
static void test_seq_check(void)
{
    jc_job j;
    jc_job_init(&j);
    j.batch = 2;
    j.seq = 1024;
    jc_dim_binding seq = {"sequence", 512};
    jc_request rq;
    jc_request_init(&rq);
    rq.dims = &seq;
    rq.n_dims = 1;
    jc_prepared *p = NULL;
    jc_diag d;
    CHECK_I64(prepare("models/gpt2_small.onnx", &j, &rq, &p, &d), JC_ERR_USAGE);
    CHECK(strstr(d.msg, "--seq 1024") != NULL && strstr(d.msg, "512") != NULL);
    j.seq = 512;
    CHECK_I64(prepare("models/gpt2_small.onnx", &j, &rq, &p, &d), JC_OK);
    jc_prepared_free(p);
}

/* Bindings the model lacks: an error by default (jc_analyze), skipped
 * and marked unused with bindings_if_present. */
static void test_bindings_if_present(void)
{
    jc_job j;
    jc_job_init(&j);
    jc_dim_binding dims[2] = {{"sequence", 128}, {"nosuchdim", 3}};
    jc_request rq;
    jc_request_init(&rq);
    rq.job = &j;
    rq.dims = dims;
    rq.n_dims = 2;
    rq.model = "models/bert_base.onnx";
    jc_model *m = NULL;
    jc_diag d;
    CHECK_I64(jc_request_load(&rq, &m, &d), JC_OK);
    if (!m) return;
    jc_analysis *an = NULL;
    CHECK(jc_request_analyze(&rq, m, NAN, &an, NULL, &d) != JC_OK);
    CHECK(an == NULL);
    rq.bindings_if_present = 1;
    unsigned char used[2] = {0, 0};
    jc_request_info info;
    memset(&info, 0, sizeof info);
    info.dim_used = used;
    CHECK_I64(jc_request_analyze(&rq, m, NAN, &an, &info, &d), JC_OK);
    CHECK_I64(used[0], 1);
    CHECK_I64(used[1], 0);
    jc_analysis_free(an);
    jc_model_free(m);
}

/* "-" reads the stream: the same count and the same SHA-256 as the path. */
static void test_stream_source(void)
{
    jc_job j;
    jc_job_init(&j);
    j.batch = 2;
    jc_request rq;
    jc_request_init(&rq);
    jc_prepared *a = NULL, *b = NULL;
    jc_diag d;
    CHECK_I64(prepare("models/resnet50.onnx", &j, &rq, &a, &d), JC_OK);
    rq.in = fopen("models/resnet50.onnx", "rb");
    CHECK(rq.in != NULL);
    if (!rq.in || !a) {
        jc_prepared_free(a);
        return;
    }
    CHECK_I64(prepare("-", &j, &rq, &b, &d), JC_OK);
    fclose(rq.in);
    if (b) {
        CHECK_STR(b->model->graph_sha256, a->model->graph_sha256);
        CHECK(b->model->graph_sha256[0] != 0);
        CHECK_I64(b->analysis->totals.macs, a->analysis->totals.macs);
        CHECK_I64(b->analysis->totals.flops, a->analysis->totals.flops);
        CHECK_STR(b->model->path, "<stdin>");
    }
    /* an empty stream is a model error, not a crash */
    rq.in = tmpfile();
    if (rq.in) {
        jc_prepared *c = NULL;
        CHECK_I64(prepare("-", &j, &rq, &c, &d), JC_ERR_MODEL);
        fclose(rq.in);
    }
    jc_prepared_free(a);
    jc_prepared_free(b);
}

/* The typed result: the estimate of a prepared request carries the
 * model's identity, the batch, the precision enum, PUE and intensity, and
 * every assumption key comes from the one table (assumption_keys.def). */
static void test_typed_result(void)
{
    jc_hwdb *db = NULL;
    jc_diag d;
    CHECK_I64(jc_hwdb_load("hwdb", NULL, 0, NULL, &db, &d), JC_OK);
    if (!db) return;
    jc_job j;
    jc_job_init(&j);
    j.device = "a100";
    j.region = "FR";
    j.requests = 100;
    jc_request rq;
    jc_request_init(&rq);
    jc_prepared *p = NULL;
    CHECK_I64(prepare("models/resnet18.onnx", &j, &rq, &p, &d), JC_OK);
    jc_estimate *e = NULL;
    if (p) CHECK_I64(jc_estimate_run(&j, p->analysis, db, &e, &d), JC_OK);
    if (e) {
        CHECK_STR(e->model_path, "models/resnet18.onnx");
        CHECK(e->model_sha256 == NULL);         /* not asked for (hash_weights) */
        CHECK_STR(e->model_graph_sha256, p->model->graph_sha256);
        CHECK_I64(e->model_size_bytes, p->model->file_size);
        CHECK(e->hwdb_version != NULL && db->data_version && !strcmp(e->hwdb_version, db->data_version));
        CHECK(e->batch == 1);
        CHECK_I64(e->prec, JC_PREC_BF16);
        CHECK_STR(e->precision, jc_precision_name(e->prec));
        CHECK(!e->lower_bound);
        const jc_assumption *pue = jci_estimate_assumption(e, JCI_AK_PUE);
        const jc_assumption *ci = jci_estimate_assumption(e, JCI_AK_CI);
        CHECK(pue && pue->value.central == e->pue.central && pue->source == e->pue_source);
        CHECK(ci && ci->value.central == e->ci.central && e->ci_dataset_id && e->ci_year > 2000);
        /* every key: a line of the table (its pointer), or an hwdb constant's own id */
        for (size_t i = 0; i < e->n_assumptions; i++) {
            const jc_constant *c = NULL;
            jc_diag cd;
            int ok = jci_akey_canonical(e->assumptions[i].key) == e->assumptions[i].key ||
                     jc_hwdb_constant(db, e->assumptions[i].key, &c, &cd) == JC_OK;
            if (!ok) printf("  key '%s' is in neither table\n", e->assumptions[i].key);
            CHECK(ok);
        }
        CHECK(e->device && !strcmp(e->device->id, e->device_id));
        CHECK(e->utilization.central >= 0 && e->utilization.central <= 1);
    }
    jc_estimate_free(e);
    jc_prepared_free(p);
    jc_hwdb_free(db);
}

/* issue 38 item 4: the request keys' value grammar, one for the CLI, job
 * files and the bindings (src/job/reqparse.c) */
static void test_value_grammar(void)
{
    jc_diag d;
    size_t nl = 0, n = 0;
    int64_t v = 0, dims[4], iv[4];
    double fv[4];
    int rank = 0, on = -1;
    CHECK_I64(jc_parse_binding("dim", "batch=8", 1, &nl, &v, &d), JC_OK);
    CHECK(nl == 5 && v == 8);
    CHECK_I64(jc_parse_binding("dim", "batch=0", 1, &nl, &v, &d), JC_ERR_USAGE);
    CHECK_STR(d.msg, "dim expects NAME=VALUE with VALUE >= 1, got 'batch=0'");
    CHECK_I64(jc_parse_binding("assume", "n=0", 0, &nl, &v, &d), JC_OK);
    CHECK_I64(jc_parse_binding("dim", "=3", 1, &nl, &v, &d), JC_ERR_USAGE);
    CHECK_I64(jc_parse_shape_binding("input", "x=1x3,224X5", dims, 4, &rank, &nl, &d), JC_OK);
    CHECK(rank == 4 && nl == 1 && dims[0] == 1 && dims[1] == 3 && dims[2] == 224 && dims[3] == 5);
    CHECK_I64(jc_parse_shape_binding("input", "x=1x", dims, 4, &rank, &nl, &d), JC_ERR_USAGE);
    CHECK_I64(jc_parse_shape_binding("input", "x=1x2x3x4x5", dims, 4, &rank, &nl, &d), JC_ERR_USAGE);
    CHECK_STR(d.msg, "input expects NAME=AxBxC (e.g. input=1x3x224x224; up to 4 dims), got 'x=1x2x3x4x5'");
    CHECK_I64(jc_parse_shape_binding("input", "x=-1x3", dims, 4, &rank, &nl, &d), JC_ERR_USAGE);
    /* integers exact past 2^53, other numbers as doubles, "NAME=" empty */
    CHECK(jc_parse_values_count("s=1,-1,768") == 3 && jc_parse_values_count("s=") == 0);
    CHECK_I64(jc_parse_values_binding("input-value", "s=9007199254740993,-1,0.5", iv, fv, 4, &n, &nl, &d), JC_OK);
    CHECK(n == 3 && iv[0] == 9007199254740993LL && iv[1] == -1 && iv[2] == 0 && fv[2] == 0.5);
    CHECK_I64(jc_parse_values_binding("input-value", "s=", iv, fv, 4, &n, &nl, &d), JC_OK);
    CHECK(n == 0 && nl == 1);
    CHECK_I64(jc_parse_values_binding("input-value", "s=1,,2", iv, fv, 4, &n, &nl, &d), JC_ERR_USAGE);
    CHECK_I64(jc_parse_values_binding("input-value", "s=1,2,3,4,5", iv, fv, 4, &n, &nl, &d), JC_ERR_USAGE);
    CHECK_STR(d.msg, "input-value expects at most 4 values, got 5");
    const char *yes[] = {NULL, "", "true", "yes", "on", "1"}, *no[] = {"false", "no", "off", "0"};
    for (size_t i = 0; i < 6; i++) {
        on = 0;
        CHECK(jc_parse_flag("strict", yes[i], &on, &d) == JC_OK && on == 1);
    }
    for (size_t i = 0; i < 4; i++) {
        on = 1;
        CHECK(jc_parse_flag("strict", no[i], &on, &d) == JC_OK && on == 0);
    }
    CHECK_I64(jc_parse_flag("strict", "maybe", &on, &d), JC_ERR_USAGE);
    CHECK_STR(d.msg, "strict expects true or false, got 'maybe'");
    /* a job file's paths, read from its folder */
    char buf[64];
    CHECK_STR(jc_jobfile_path("jobs/a.yaml", "model", "m.onnx", buf, sizeof buf), "jobs/m.onnx");
    CHECK_STR(jc_jobfile_path("jobs/a.yaml", "hwdb", "/abs/hw", buf, sizeof buf), "/abs/hw");
    CHECK_STR(jc_jobfile_path("a.yaml", "op-rules", "r.yaml", buf, sizeof buf), "r.yaml");
    CHECK_STR(jc_jobfile_path("jobs/a.yaml", "device", "a100", buf, sizeof buf), "a100");
    CHECK(jc_jobfile_path("jobs/a.yaml", "model", "m.onnx", buf, 8) == NULL);
    /* a job key's flag through jc_job_set: the same grammar */
    jc_job job;
    jc_job_init(&job);
    CHECK_I64(jc_job_set(&job, "per-node", "on", &d), JC_OK);
    CHECK_I64(jc_job_set(&job, "per-node", "maybe", &d), JC_ERR_USAGE);
    CHECK_STR(d.msg, "per-node expects true or false, got 'maybe'");
}

/* The one key->field setter (src/job/reqset.c) as both front ends use it:
 * a job file's pairs (paths made relative to it) beneath the caller's; the
 * caller's binding of a NAME replaces the file's, the file's hwdb layers
 * go first even when set after the caller's, two values of one key or two
 * modes clash, strict turns allow-partial off. */
static void test_reqset_layering(void)
{
    jc_job job;
    jc_job_init(&job);
    jci_reqset r;
    jci_reqset_init(&r, &job);
    jc_diag d;
    CHECK_I64(jci_reqset_set(&r, "hwdb", "mine", &d), JC_OK);
    CHECK_I64(jci_reqset_set(&r, "dim", "N=4", &d), JC_OK);
    r.under = 1;   /* the file's, set after the caller's (calibrate) */
    CHECK_I64(jci_reqset_set(&r, "hwdb", "dir/file-layer", &d), JC_OK);
    CHECK_I64(jci_reqset_set(&r, "dim", "N=2", &d), JC_OK);   /* skipped: the caller bound N */
    CHECK_I64(jci_reqset_set(&r, "dim", "S=7", &d), JC_OK);
    CHECK_I64(jci_reqset_set(&r, "input", "x=1x3", &d), JC_OK);
    r.under = 0;
    CHECK_I64(jci_reqset_set(&r, "input", "x=2x3", &d), JC_OK);   /* replaces the file's */
    CHECK_I64(r.n_layers, 2);
    CHECK_STR(r.layers[0], "dir/file-layer");
    CHECK_STR(r.layers[1], "mine");
    CHECK_I64(r.n_dims, 2);
    CHECK_STR(r.dims[0].name, "N");
    CHECK_I64(r.dims[0].value, 4);
    CHECK_STR(r.dims[1].name, "S");
    CHECK_I64(r.n_inputs, 1);
    CHECK_I64(r.inputs[0].dims[0], 2);
    CHECK_I64(jci_reqset_set(&r, "batch", "8", &d), JC_OK);   /* a job key */
    CHECK_I64(job.batch, 8);
    CHECK_I64(jci_reqset_set(&r, "allow-partial", NULL, &d), JC_OK);
    CHECK_I64(jci_reqset_set(&r, "strict", "true", &d), JC_OK);
    CHECK_I64(r.allow_partial, 0);
    CHECK_I64(jci_reqset_set(&r, "model", "", &d), JC_ERR_USAGE);
    CHECK_STR(d.msg, "model expects a file name, got nothing");
    CHECK_I64(jci_reqset_set(&r, "dim", "N", &d), JC_ERR_USAGE);
    CHECK_I64(jci_reqset_set(&r, "no-such-key", "1", &d), JC_ERR_NOTFOUND);
    jc_request rq;
    jci_reqset_request(&r, &rq);
    CHECK_I64(rq.n_dims, 2);
    CHECK(rq.job == &job);
    jci_reqset_free(&r);

    const char *k[] = {"batch", "mfu", "train", "utilization", "mode", "batch", "dim", "dim"};
    const char *v[] = {"8", "0.4", NULL, "0.5", "infer", "8", "N=1", "N=2"};
    int mode;
    CHECK_I64(jci_pairs_clash(k, v, 0, 3, &mode), 1);   /* utilization is mfu's field */
    CHECK_I64(mode, 0);
    CHECK_I64(jci_pairs_clash(k, v, 2, 3, &mode), -1);  /* only [lo, i) */
    CHECK_I64(jci_pairs_clash(k, v, 0, 4, &mode), 2);   /* train against mode infer */
    CHECK_I64(mode, 1);
    CHECK_I64(jci_pairs_clash(k, v, 0, 5, &mode), -1);  /* the same value twice */
    CHECK_I64(jci_pairs_clash(k, v, 0, 7, &mode), -1);  /* dim repeats */
    CHECK_STR(jci_key_mode("mode", "train"), "training");
}

int main(void)
{
    RUN(test_sha256_vectors);
    RUN(test_graph_identity);
    RUN(test_batch_check);
    RUN(test_job_key_ranges);
    RUN(test_default_batch);
    RUN(test_fixed_batch);
    RUN(test_partial_policy);
    RUN(test_seq_check);
    RUN(test_bindings_if_present);
    RUN(test_stream_source);
    RUN(test_typed_result);
    RUN(test_value_grammar);
    RUN(test_reqset_layering);
    return check_summary();
}
