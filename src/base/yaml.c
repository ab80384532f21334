/*
 * yaml.c (base) - the YAML boundary of joulecast: the only file that includes
 * <yaml.h>.  Reads one file (size-capped), runs libyaml's event parser over
 * it once and builds a small located tree (base/yaml_tree.h) that the
 * hardware database (src/hwdb/build.c), job files (src/job/jobfile.c) and
 * op rules (src/analysis/ops/oprules.c) validate.
 *
 * Defences: a file over 64 MiB is refused before it is read; anchors,
 * aliases and tags are refused (no alias bombs); nesting is capped at
 * HW_MAX_DEPTH; duplicate mapping keys are errors.  Exactly one libyaml
 * event is alive at a time and it is deleted before anything else can
 * fail; the parser is deleted on every path.
 */
#include "base/yaml_tree.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

typedef struct yp {
    yaml_parser_t parser;
    jci_arena *scratch, *db;
    const hw_file *file;
    const unsigned char *buf;
    size_t len;
    jc_diag *d;
    jc_status err;       /* JC_ERR_HWDB, or JC_ERR_USAGE for a job file */
    const char *what;    /* "hwdb files", "job files" or "op-rules files" */
    const char *syn;     /* "YAML syntax error" or "job file: YAML syntax error" */
} yp;

static jc_status oom(yp *p)
{
    return jci_diag_set(p->d, JC_ERR_NOMEM, "%s: out of memory", p->file->path);
}

/* 1-based line and column of byte offset off in the buffer. */
static void offset_pos(const yp *p, size_t off, int *line, int *col)
{
    int l = 1, c = 1;
    for (size_t i = 0; i < off && i < p->len; i++) {
        if (p->buf[i] == '\n') {
            l++;
            c = 1;
        } else if ((p->buf[i] & 0xC0) != 0x80) {
            c++;
        }
    }
    *line = l;
    *col = c;
}

/* libyaml's error, located. */
static jc_status syntax_error(yp *p)
{
    yaml_parser_t *ps = &p->parser;
    int line, col;
    if (ps->error == YAML_MEMORY_ERROR) return oom(p);
    if (ps->error == YAML_READER_ERROR) {
        offset_pos(p, ps->problem_offset, &line, &col);
        return jci_diag_yaml(p->d, p->err, p->file->path, line, col,
                            "%s: %s (byte %zu)", p->syn,
                            ps->problem ? ps->problem : "unreadable input",
                            ps->problem_offset);
    }
    line = (int)ps->problem_mark.line + 1;
    col = (int)ps->problem_mark.column + 1;
    if (ps->context)
        return jci_diag_yaml(p->d, p->err, p->file->path, line, col,
                            "%s: %s %s (line %d)", p->syn,
                            ps->problem ? ps->problem : "invalid YAML",
                            ps->context, (int)ps->context_mark.line + 1);
    return jci_diag_yaml(p->d, p->err, p->file->path, line, col,
                        "%s: %s", p->syn,
                        ps->problem ? ps->problem : "invalid YAML");
}

static jc_status next_event(yp *p, yaml_event_t *ev)
{
    if (!yaml_parser_parse(&p->parser, ev)) return syntax_error(p);
    return JC_OK;
}

/* Appends child (and key) to a map or seq node, doubling its arrays. */
static bool append(yp *p, hnode *n, size_t *cap, hnode *key, hnode *val)
{
    if (n->n == *cap) {
        size_t nc = *cap ? *cap * 2 : 8;
        hnode **nv = jci_arena_calloc(p->scratch, nc, sizeof *nv);
        hnode **nk = key ? jci_arena_calloc(p->scratch, nc, sizeof *nk) : NULL;
        if (!nv || (key && !nk)) return false;
        if (n->n) {
            memcpy(nv, n->vals, n->n * sizeof *nv);
            if (key) memcpy(nk, n->keys, n->n * sizeof *nk);
        }
        n->vals = nv;
        if (key) n->keys = nk;
        *cap = nc;
    }
    if (key) n->keys[n->n] = key;
    n->vals[n->n++] = val;
    return true;
}

/* Duplicate keys of a finished mapping: quadratic for small maps, a hash
 * map otherwise. */
static jc_status check_dup_keys(yp *p, const hnode *m)
{
    if (m->n <= 16) {
        for (size_t i = 1; i < m->n; i++)
            for (size_t j = 0; j < i; j++)
                if (!strcmp(m->keys[i]->s, m->keys[j]->s))
                    return jci_diag_yaml(p->d, p->err, p->file->path,
                                        m->keys[i]->line, m->keys[i]->col,
                                        "duplicate key '%s' (first at line %d)",
                                        m->keys[i]->s, m->keys[j]->line);
        return JC_OK;
    }
    jci_strmap sm;
    if (!jci_strmap_init(&sm, p->scratch, m->n)) return oom(p);
    for (size_t i = 0; i < m->n; i++) {
        int32_t prev = jci_strmap_put(&sm, m->keys[i]->s, (int32_t)i);
        if (prev >= 0)
            return jci_diag_yaml(p->d, p->err, p->file->path,
                                m->keys[i]->line, m->keys[i]->col,
                                "duplicate key '%s' (first at line %d)",
                                m->keys[i]->s, m->keys[prev]->line);
    }
    return JC_OK;
}

/* Builds the node that starts with event *ev, which this function owns
 * and deletes first thing (its data is copied out beforehand). */
static jc_status build(yp *p, yaml_event_t *ev, int depth, hnode **out)
{
    int line = (int)ev->start_mark.line + 1, col = (int)ev->start_mark.column + 1;
    yaml_event_type_t type = ev->type;
    const char *why = NULL;
    char name[64] = "";
    hnode *n = NULL;

    switch (type) {
    case YAML_ALIAS_EVENT:
        why = "alias";
        snprintf(name, sizeof name, "%s", (const char *)ev->data.alias.anchor);
        break;
    case YAML_SCALAR_EVENT:
        if (ev->data.scalar.anchor) {
            why = "anchor";
            snprintf(name, sizeof name, "%s", (const char *)ev->data.scalar.anchor);
        } else if (ev->data.scalar.tag) {
            why = "tag";
            snprintf(name, sizeof name, "%s", (const char *)ev->data.scalar.tag);
        } else if (memchr(ev->data.scalar.value, 0, ev->data.scalar.length)) {
            why = "nul";
        } else {
            n = jci_arena_alloc(p->scratch, sizeof *n);
            char *s = n ? jci_arena_strndup(p->db, (const char *)ev->data.scalar.value,
                                           ev->data.scalar.length) : NULL;
            if (!s) {
                yaml_event_delete(ev);
                return oom(p);
            }
            n->kind = HN_SCALAR;
            n->s = s;
            n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
        }
        break;
    case YAML_MAPPING_START_EVENT:
        if (ev->data.mapping_start.anchor) {
            why = "anchor";
            snprintf(name, sizeof name, "%s", (const char *)ev->data.mapping_start.anchor);
        } else if (ev->data.mapping_start.tag) {
            why = "tag";
            snprintf(name, sizeof name, "%s", (const char *)ev->data.mapping_start.tag);
        }
        break;
    case YAML_SEQUENCE_START_EVENT:
        if (ev->data.sequence_start.anchor) {
            why = "anchor";
            snprintf(name, sizeof name, "%s", (const char *)ev->data.sequence_start.anchor);
        } else if (ev->data.sequence_start.tag) {
            why = "tag";
            snprintf(name, sizeof name, "%s", (const char *)ev->data.sequence_start.tag);
        }
        break;
    default:
        why = "event";
        break;
    }
    yaml_event_delete(ev);

    if (why) {
        const char *msg =
            !strcmp(why, "alias") ? "aliases (*%s) are not allowed in %s" :
            !strcmp(why, "anchor") ? "anchors (&%s) are not allowed in %s" :
            !strcmp(why, "tag") ? "tags (%s) are not allowed in %s" :
            !strcmp(why, "nul") ? "a string holds a NUL character%s%s" :
                                  "unexpected YAML event%s%s";
        return jci_diag_yaml(p->d, p->err, p->file->path, line, col, msg, name,
                            strcmp(why, "nul") && strcmp(why, "event") ? p->what : "");
    }
    if (depth > HW_MAX_DEPTH)
        return jci_diag_yaml(p->d, p->err, p->file->path, line, col,
                            "nesting deeper than %d levels", HW_MAX_DEPTH);
    if (type == YAML_SCALAR_EVENT) {
        n->line = line;
        n->col = col;
        n->file = p->file;
        *out = n;
        return JC_OK;
    }

    n = jci_arena_alloc(p->scratch, sizeof *n);
    if (!n) return oom(p);
    n->kind = type == YAML_MAPPING_START_EVENT ? HN_MAP : HN_SEQ;
    n->line = line;
    n->col = col;
    n->file = p->file;
    size_t cap = 0;
    for (;;) {
        yaml_event_t e;
        jc_status st = next_event(p, &e);
        if (st) return st;
        if (e.type == YAML_MAPPING_END_EVENT || e.type == YAML_SEQUENCE_END_EVENT) {
            yaml_event_delete(&e);
            break;
        }
        hnode *k = NULL, *v = NULL;
        if (n->kind == HN_MAP) {
            st = build(p, &e, depth + 1, &k);
            if (st) return st;
            if (k->kind != HN_SCALAR)
                return jci_diag_yaml(p->d, p->err, p->file->path, k->line,
                                    k->col, "a mapping key must be a plain string");
            st = next_event(p, &e);
            if (st) return st;
        }
        st = build(p, &e, depth + 1, &v);
        if (st) return st;
        if (!append(p, n, &cap, k, v)) return oom(p);
    }
    if (n->kind == HN_MAP) {
        jc_status st = check_dup_keys(p, n);
        if (st) return st;
    }
    *out = n;
    return JC_OK;
}

/* Events of the whole stream: STREAM-START [DOCUMENT-START node
 * DOCUMENT-END] STREAM-END. */
static jc_status parse_stream(yp *p, hnode **root)
{
    yaml_event_t ev;
    jc_status st = next_event(p, &ev);
    if (st) return st;
    yaml_event_delete(&ev);          /* STREAM-START */
    if ((st = next_event(p, &ev))) return st;
    if (ev.type == YAML_STREAM_END_EVENT) {
        yaml_event_delete(&ev);
        return JC_OK;                /* no document */
    }
    yaml_event_delete(&ev);          /* DOCUMENT-START */
    if ((st = next_event(p, &ev))) return st;
    if ((st = build(p, &ev, 1, root))) return st;
    if ((st = next_event(p, &ev))) return st;
    yaml_event_delete(&ev);          /* DOCUMENT-END */
    if ((st = next_event(p, &ev))) return st;
    if (ev.type != YAML_STREAM_END_EVENT) {
        int line = (int)ev.start_mark.line + 1, col = (int)ev.start_mark.column + 1;
        yaml_event_delete(&ev);
        return jci_diag_yaml(p->d, p->err, p->file->path, line, col,
                            "more than one YAML document in the file");
    }
    yaml_event_delete(&ev);
    return JC_OK;
}

jc_status hw_parse_file(jci_arena *scratch, jci_arena *db, const hw_file *f,
                        hnode **root, jc_diag *d)
{
    *root = NULL;
    struct stat sb;
    if (stat(f->path, &sb) != 0)
        return jci_diag_at(d, JC_ERR_IO, f->path, -1, "cannot open: %s", strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return jci_diag_at(d, JC_ERR_IO, f->path, -1, "not a regular file");
    if ((uint64_t)sb.st_size > HW_MAX_FILE_BYTES)
        return jci_diag_yaml(d, f->job ? JC_ERR_USAGE : JC_ERR_HWDB, f->path, 1, 1,
                            "file is %llu bytes; %s are limited to %llu MiB "
                            "(not read)",
                            (unsigned long long)sb.st_size,
                            f->job == 2 ? "op-rules files" : f->job ? "job files" : "hwdb files",
                            (unsigned long long)(HW_MAX_FILE_BYTES >> 20));
    FILE *fp = fopen(f->path, "rb");
    if (!fp)
        return jci_diag_at(d, JC_ERR_IO, f->path, -1, "cannot open: %s", strerror(errno));
    size_t len = (size_t)sb.st_size;
    unsigned char *buf = malloc(len ? len : 1);
    if (!buf) {
        fclose(fp);
        return jci_diag_set(d, JC_ERR_NOMEM, "%s: out of memory", f->path);
    }
    size_t got = len ? fread(buf, 1, len, fp) : 0;
    int rerr = ferror(fp);
    fclose(fp);
    if (got != len || rerr) {
        free(buf);
        return jci_diag_at(d, JC_ERR_IO, f->path, -1, "read error");
    }

    yp p;
    memset(&p, 0, sizeof p);
    p.scratch = scratch;
    p.db = db;
    p.file = f;
    p.buf = buf;
    p.len = len;
    p.d = d;
    p.err = f->job ? JC_ERR_USAGE : JC_ERR_HWDB;
    p.what = f->job == 2 ? "op-rules files" : f->job ? "job files" : "hwdb files";
    p.syn = f->job == 2 ? "op-rules file: YAML syntax error" : f->job ? "job file: YAML syntax error"
                                                                      : "YAML syntax error";
    jc_status st;
    if (!yaml_parser_initialize(&p.parser)) {
        st = jci_diag_set(d, JC_ERR_NOMEM, "%s: out of memory", f->path);
    } else {
        yaml_parser_set_input_string(&p.parser, buf, len);
        st = parse_stream(&p, root);
        yaml_parser_delete(&p.parser);
    }
    free(buf);
    if (st) *root = NULL;
    return st;
}
