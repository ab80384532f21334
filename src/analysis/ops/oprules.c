/*
 * oprules.c (analysis/ops) - user cost rules for custom ops (`count --op-rules FILE`).
 *
 * A rules file is YAML (read by the shared located reader,
 * hw_parse_file in src/base/yaml.c, the one libyaml user):
 *
 *   rules:
 *     "com.example:FusedDense":
 *       class: matrix                      # matrix|vector|memory|none
 *       outputs:                           # per output: inK, or dim exprs
 *         - ["dim(in0, 0)", "dim(in1, 1)"]
 *       macs: "numel(out0) * dim(in0, 1)"
 *       flops: "numel(out0)"               # besides the 2 x macs
 *       special: "0"                       # transcendentals
 *       bytes_read: ...                    # optional (both or neither)
 *       bytes_written: ...
 *
 * Expressions are integers with + - * / % (floor division and modulo),
 * unary minus, parentheses and the functions numel(T), rank(T), dim(T, i)
 * (i < 0 counts from the end), attr(NAME[, default]), ints(NAME, i),
 * min(a, b), max(a, b), cdiv(a, b) (ceiling division); T is in<k> or
 * out<k> (outputs only in cost expressions).  They are compiled when the
 * file is read (a syntax error or an unknown function is reported with
 * file:line:col) and evaluated per node with checked 64-bit arithmetic:
 * an overflow is JC_ERR_RANGE naming the node, an unknown dim leaves the
 * cost unknown (with its blocking symbol), never zero.
 *
 * The compiled rules live in the analysis arena and travel in the
 * analysis context (actx.h: ax_rules); there is no global state.
 */
#include "analysis/ops/actx.h"
#include "base/yaml_tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- expressions ------------------------------------------------------------ */

typedef enum { E_NUM, E_ADD, E_SUB, E_MUL, E_DIV, E_MOD, E_NEG, E_FN, E_CHAIN } ekind;

/* Expressions nest (parentheses, unary minus, calls) at most this deep:
 * deeper is refused when the file is read, so that neither the parser nor
 * the evaluator recurses without bound.  A long sum or product is not
 * nesting: it is one E_CHAIN node, parsed and evaluated in a loop. */
#define MAX_NEST 200
typedef enum { F_NUMEL, F_RANK, F_DIM, F_ATTR, F_INTS, F_MIN, F_MAX, F_CDIV } efn;

typedef struct expr {
    ekind kind;
    efn fn;
    int64_t v;                 /* E_NUM */
    int t_out, t_k;            /* tensor argument of numel/rank/dim */
    const char *name;          /* attribute of attr/ints */
    struct expr *a, *b;        /* operands / extra arguments */
    struct expr **args;        /* E_CHAIN: n operands, combined left to right */
    ekind *ops;                /* E_CHAIN: ops[i] combines args[i] (i >= 1; E_ADD..E_MOD) */
    int *cols;                 /* E_CHAIN: column of operator i */
    size_t n;
    int line, col;             /* position in the file */
} expr;

/* A located expression source: the YAML scalar it came from. */
typedef struct esrc {
    const char *text;
    const char *file;
    int line, col;             /* column of the first character of text */
} esrc;

typedef struct outspec {
    int like;                  /* >= 0: same as input `like` */
    int rank;
    expr **dims;
} outspec;

typedef struct oprule {
    const char *domain, *op;
    jc_op_class cls;
    expr *macs, *flops, *special, *bread, *bwritten;
    size_t n_outs;
    outspec *outs;
    const char *file;
    int line, col;
    const char *where;         /* "FILE:LINE" for node notes */
} oprule;

struct oprules {
    size_t n;
    oprule *r;
};

typedef struct parser {
    jci_arena *a;
    const esrc *src;
    const char *p, *s;
    int allow_out;
    jc_diag *d;
    jc_status st;
    int depth;                 /* current nesting (MAX_NEST) */
} parser;

static const struct { const char *name; efn fn; int nargs_min, nargs_max; } fns[] = {
    {"numel", F_NUMEL, 1, 1}, {"rank", F_RANK, 1, 1}, {"dim", F_DIM, 2, 2},
    {"attr", F_ATTR, 1, 2},   {"ints", F_INTS, 2, 2}, {"min", F_MIN, 2, 2},
    {"max", F_MAX, 2, 2},     {"cdiv", F_CDIV, 2, 2},
};

static int pcol(const parser *P) { return P->src->col + (int)(P->p - P->s); }

static expr *perr(parser *P, const char *fmt, const char *arg)
{
    if (!P->st) {
        char msg[256];
        snprintf(msg, sizeof msg, fmt, arg);
        P->st = jci_diag_yaml(P->d, JC_ERR_USAGE, P->src->file, P->src->line, pcol(P), "%s in \"%.80s%s\"", msg,
                             P->s, strlen(P->s) > 80 ? "..." : "");
    }
    return NULL;
}

static void skip_ws(parser *P)
{
    while (*P->p == ' ' || *P->p == '\t') P->p++;
}

static bool is_id(char ch, bool first)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || ch == '.' ||
           (!first && ch >= '0' && ch <= '9');
}

static expr *mk(parser *P, ekind k, int col)
{
    expr *e = jci_arena_alloc(P->a, sizeof *e);
    if (!e) {
        if (!P->st) P->st = jci_diag_set(P->d, JC_ERR_NOMEM, "out of memory");
        return NULL;
    }
    e->kind = k;
    e->line = P->src->line;
    e->col = col;
    e->t_k = -1;
    return e;
}

static expr *parse_sum(parser *P);

/* in<k> / out<k> */
static bool parse_tensor(parser *P, expr *e)
{
    skip_ws(P);
    const char *q = P->p;
    int out = 0;
    if (!strncmp(q, "in", 2)) q += 2;
    else if (!strncmp(q, "out", 3)) q += 3, out = 1;
    else {
        perr(P, "expected a tensor (in0, in1, ..., out0, ...)%s", "");
        return false;
    }
    if (*q < '0' || *q > '9') {
        perr(P, "expected a tensor (in0, in1, ..., out0, ...)%s", "");
        return false;
    }
    int k = 0;
    while (*q >= '0' && *q <= '9' && k < 1000) k = k * 10 + (*q++ - '0');
    if (k >= 256 || is_id(*q, false)) {
        perr(P, "expected a tensor (in0, in1, ..., out0, ...)%s", "");
        return false;
    }
    if (out && !P->allow_out) {
        perr(P, "outputs (out%s) are not known yet in an output shape", "<k>");
        return false;
    }
    e->t_out = out;
    e->t_k = k;
    P->p = q;
    return true;
}

static expr *parse_call(parser *P, const char *id, size_t len, int col)
{
    int f = -1;
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        if (strlen(fns[i].name) == len && !strncmp(fns[i].name, id, len)) f = (int)i;
    if (f < 0) {
        char nm[64];
        snprintf(nm, sizeof nm, "%.*s", (int)(len < 60 ? len : 60), id);
        P->p = id;
        return perr(P, "unknown function '%s' (numel, rank, dim, attr, ints, min, max, cdiv)", nm);
    }
    expr *e = mk(P, E_FN, col);
    if (!e) return NULL;
    e->fn = fns[f].fn;
    P->p++; /* '(' */
    int nargs = 0;
    if (e->fn == F_NUMEL || e->fn == F_RANK || e->fn == F_DIM) {
        if (!parse_tensor(P, e)) return NULL;
        nargs = 1;
    } else if (e->fn == F_ATTR || e->fn == F_INTS) {
        skip_ws(P);
        const char *q = P->p;
        while (is_id(*q, q == P->p)) q++;
        if (q == P->p) return perr(P, "expected an attribute name%s", "");
        e->name = jci_arena_strndup(P->a, P->p, (size_t)(q - P->p));
        if (!e->name) {
            if (!P->st) P->st = jci_diag_set(P->d, JC_ERR_NOMEM, "out of memory");
            return NULL;
        }
        P->p = q;
        nargs = 1;
    } else {
        if (!(e->a = parse_sum(P))) return NULL;
        nargs = 1;
    }
    skip_ws(P);
    while (*P->p == ',') {
        P->p++;
        if (nargs >= fns[f].nargs_max) return perr(P, "too many arguments to %s()", fns[f].name);
        expr *x = parse_sum(P);
        if (!x) return NULL;
        if (e->fn == F_MIN || e->fn == F_MAX || e->fn == F_CDIV) e->b = x;
        else e->a = x;
        nargs++;
        skip_ws(P);
    }
    if (nargs < fns[f].nargs_min) return perr(P, "too few arguments to %s()", fns[f].name);
    if (*P->p != ')') return perr(P, "expected ')'%s", "");
    P->p++;
    return e;
}

static expr *parse_atom_in(parser *P);

/* One operand: counts a nesting level around parse_atom_in. */
static expr *parse_atom(parser *P)
{
    if (P->depth >= MAX_NEST) {
        skip_ws(P);
        char lim[16];
        snprintf(lim, sizeof lim, "%d", MAX_NEST);
        return perr(P, "expression nested more than %s deep (parentheses, unary minus, calls)", lim);
    }
    P->depth++;
    expr *e = parse_atom_in(P);
    P->depth--;
    return e;
}

static expr *parse_atom_in(parser *P)
{
    skip_ws(P);
    int col = pcol(P);
    char ch = *P->p;
    if (ch == '(') {
        P->p++;
        expr *e = parse_sum(P);
        if (!e) return NULL;
        skip_ws(P);
        if (*P->p != ')') return perr(P, "expected ')'%s", "");
        P->p++;
        return e;
    }
    if (ch == '-') {
        P->p++;
        expr *e = mk(P, E_NEG, col);
        if (!e || !(e->a = parse_atom(P))) return NULL;
        return e;
    }
    if (ch >= '0' && ch <= '9') {
        int64_t v = 0;
        while (*P->p >= '0' && *P->p <= '9') {
            if (!jci_mul_ok(v, 10, &v) || !jci_add_ok(v, *P->p - '0', &v))
                return perr(P, "number too large for 64 bits%s", "");
            P->p++;
        }
        if (is_id(*P->p, true)) return perr(P, "unexpected character after a number%s", "");
        expr *e = mk(P, E_NUM, col);
        if (e) e->v = v;
        return e;
    }
    if (is_id(ch, true)) {
        const char *id = P->p;
        while (is_id(*P->p, false)) P->p++;
        size_t len = (size_t)(P->p - id);
        skip_ws(P);
        if (*P->p == '(') return parse_call(P, id, len, col);
        P->p = id;
        return perr(P, "a name must be a function call (numel(in0), dim(in0, 1), attr(group), ...)%s", "");
    }
    if (!ch) return perr(P, "unexpected end of expression%s", "");
    return perr(P, "unexpected character%s", "");
}

/* Appends operand x (joined by op at column col) to the chain *ch, which
 * starts as the single operand first; arrays grow by doubling in the arena. */
static bool chain_push(parser *P, expr **ch, expr *first, ekind op, int col, expr *x, size_t *cap)
{
    expr *e = *ch;
    if (e == first) {
        if (!(e = mk(P, E_CHAIN, first->col))) return false;
        e->line = first->line;
        *cap = 0;
        e->n = 1;
        *ch = e;
    }
    if (e->n == *cap || !*cap) {
        size_t nc = *cap ? *cap * 2 : 8;
        expr **na = jci_arena_alloc(P->a, nc * sizeof *na);
        ekind *no = jci_arena_alloc(P->a, nc * sizeof *no);
        int *ncl = jci_arena_alloc(P->a, nc * sizeof *ncl);
        if (!na || !no || !ncl) {
            if (!P->st) P->st = jci_diag_set(P->d, JC_ERR_NOMEM, "out of memory");
            return false;
        }
        if (*cap) {
            memcpy(na, e->args, e->n * sizeof *na);
            memcpy(no, e->ops, e->n * sizeof *no);
            memcpy(ncl, e->cols, e->n * sizeof *ncl);
        } else {
            na[0] = first;
            no[0] = E_ADD;
            ncl[0] = first->col;
        }
        e->args = na;
        e->ops = no;
        e->cols = ncl;
        *cap = nc;
    }
    e->args[e->n] = x;
    e->ops[e->n] = op;
    e->cols[e->n] = col;
    e->n++;
    return true;
}

/* level 0: a product (operands parse_atom, * / %); level 1: a sum
 * (operands products, + -).  A run of operators is one E_CHAIN. */
static expr *parse_chain(parser *P, int level)
{
    expr *first = level ? parse_chain(P, 0) : parse_atom(P);
    if (!first) return NULL;
    expr *l = first;
    size_t cap = 0;
    for (;;) {
        skip_ws(P);
        char ch = *P->p;
        ekind op;
        if (level && (ch == '+' || ch == '-')) op = ch == '+' ? E_ADD : E_SUB;
        else if (!level && (ch == '*' || ch == '/' || ch == '%')) op = ch == '*' ? E_MUL : ch == '/' ? E_DIV : E_MOD;
        else return l;
        int col = pcol(P);
        P->p++;
        expr *x = level ? parse_chain(P, 0) : parse_atom(P);
        if (!x || !chain_push(P, &l, first, op, col, x, &cap)) return NULL;
    }
}

static expr *parse_sum(parser *P) { return parse_chain(P, 1); }

/* Compiles the scalar node sc into an expression tree (arena a). */
static jc_status compile(jci_arena *a, const char *file, const hnode *sc, int allow_out, expr **out,
                         jc_diag *d)
{
    esrc src = {sc->s, file, sc->line, sc->col + (sc->plain ? 0 : 1)};
    parser P = {a, &src, sc->s, sc->s, allow_out, d, JC_OK, 0};
    expr *e = parse_sum(&P);
    if (e) {
        skip_ws(&P);
        if (*P.p) e = perr(&P, "unexpected text after the expression%s", "");
    }
    if (!e) return P.st ? P.st : jci_diag_yaml(d, JC_ERR_USAGE, src.file, src.line, src.col, "bad expression");
    *out = e;
    return JC_OK;
}

/* ---- evaluation ------------------------------------------------------------------ */

typedef enum { EV_OK = 0, EV_UNKNOWN, EV_FAIL } evr;

typedef struct evctx {
    opctx *c;
    const oprule *r;
    const char *sym;           /* symbol of the last unknown dim */
    jc_status st;
} evctx;

static const jc_tshape *ev_tensor(evctx *E, const expr *e)
{
    opctx *c = E->c;
    if (e->t_out) return e->t_k < c->nout ? c->out[e->t_k] : NULL;
    return e->t_k < c->nin ? c->in[e->t_k] : NULL;
}

static evr eval(evctx *E, const expr *e, int64_t *r);

static evr fail_at(evctx *E, const expr *e, const char *fmt, const char *arg)
{
    char msg[300];
    snprintf(msg, sizeof msg, fmt, arg);
    if (!E->st) {
        char full[900];
        snprintf(full, sizeof full, "%.500s:%d:%d: %s", E->r->file, e->line, e->col, msg);
        E->st = ax_rule_error(E->c, full);
    }
    return EV_FAIL;
}

static evr eval_fn(evctx *E, const expr *e, int64_t *r)
{
    opctx *c = E->c;
    int64_t x, y;
    evr q;
    switch (e->fn) {
    case F_NUMEL:
    case F_RANK:
    case F_DIM: {
        const jc_tshape *t = ev_tensor(E, e);
        if (!t) return fail_at(E, e, "%s is not an input/output of this node", e->t_out ? "the output" : "the input");
        if (t->rank < 0) {
            E->sym = NULL;
            return EV_UNKNOWN;
        }
        if (e->fn == F_RANK) {
            *r = t->rank;
            return EV_OK;
        }
        if (e->fn == F_NUMEL) {
            int64_t p = 1;
            bool unk = false;
            for (int i = 0; i < t->rank; i++) {
                if (t->dims[i].v < 0) {
                    unk = true;
                    E->sym = t->dims[i].sym;
                } else if (!unk && !jci_mul_ok(p, t->dims[i].v, &p)) {
                    op_overflow(c);
                    return EV_FAIL;
                }
            }
            if (unk) return EV_UNKNOWN;
            *r = p;
            return EV_OK;
        }
        if ((q = eval(E, e->a, &x))) return q;
        if (x < 0) x += t->rank;
        if (x < 0 || x >= t->rank) return fail_at(E, e, "dim() index out of range%s", "");
        if (t->dims[x].v < 0) {
            E->sym = t->dims[x].sym;
            return EV_UNKNOWN;
        }
        *r = t->dims[x].v;
        return EV_OK;
    }
    case F_ATTR: {
        const jc_attr *at = op_attr(c, e->name);
        if (!at) {
            if (e->a) return eval(E, e->a, r);
            return fail_at(E, e, "the node has no attribute '%s' and the rule gives no default", e->name);
        }
        if (at->type == JC_ATTR_INT) *r = at->i;
        else if (at->type == JC_ATTR_FLOAT && at->f > -9.2e18 && at->f < 9.2e18) *r = (int64_t)at->f;
        else return fail_at(E, e, "attribute '%s' is not a number", e->name);
        return EV_OK;
    }
    case F_INTS: {
        const int64_t *v;
        size_t n = op_attr_ints(c, e->name, &v);
        if (!op_attr(c, e->name)) return fail_at(E, e, "the node has no attribute '%s'", e->name);
        if ((q = eval(E, e->a, &x))) return q;
        if (x < 0) x += (int64_t)n;
        if (x < 0 || x >= (int64_t)n) return fail_at(E, e, "ints(%s, i): index out of range", e->name);
        *r = v[x];
        return EV_OK;
    }
    case F_MIN:
    case F_MAX:
    case F_CDIV:
        if ((q = eval(E, e->a, &x)) || (q = eval(E, e->b, &y))) return q;
        if (e->fn == F_MIN) *r = x < y ? x : y;
        else if (e->fn == F_MAX) *r = x > y ? x : y;
        else {
            if (y == 0) return fail_at(E, e, "division by zero%s", "");
            if (x == INT64_MIN && y == -1) return op_overflow(c), EV_FAIL;
            int64_t qd = x / y;
            if ((x % y != 0) && ((x < 0) == (y < 0))) qd++;
            *r = qd;
        }
        return EV_OK;
    }
    return fail_at(E, e, "bad function%s", "");
}

/* One binary step x op y -> *r (checked); the error names e at column col. */
static evr apply(evctx *E, const expr *e, int col, ekind op, int64_t x, int64_t y, int64_t *r)
{
    bool ok = true;
    switch (op) {
    case E_ADD: ok = !__builtin_add_overflow(x, y, r); break;
    case E_SUB: ok = !__builtin_sub_overflow(x, y, r); break;
    case E_MUL: ok = !__builtin_mul_overflow(x, y, r); break;
    case E_DIV:
    case E_MOD:
        if (y == 0) {
            expr at = *e;
            at.col = col;
            return fail_at(E, &at, "division by zero%s", "");
        }
        if (y == -1) {   /* INT64_MIN / -1 overflows; x % -1 is 0 (and traps on x86) */
            if (op == E_MOD) *r = 0;
            else ok = !__builtin_sub_overflow((int64_t)0, x, r);
            break;
        }
        if (op == E_DIV) {
            *r = x / y;
            if ((x % y != 0) && ((x < 0) != (y < 0))) (*r)--;
        } else {
            *r = x % y;
            if (*r && ((*r < 0) != (y < 0))) *r += y;
        }
        break;
    default: return fail_at(E, e, "bad expression%s", "");
    }
    if (!ok) {
        op_overflow(E->c);
        return EV_FAIL;
    }
    return EV_OK;
}

/* Recursion is bounded by the nesting the parser allows (MAX_NEST): a
 * chain is evaluated in a loop.  An unknown operand leaves the whole
 * expression unknown, but a hard error in a later operand still wins. */
static evr eval(evctx *E, const expr *e, int64_t *r)
{
    int64_t x, y;
    evr q;
    switch (e->kind) {
    case E_NUM: *r = e->v; return EV_OK;
    case E_FN: return eval_fn(E, e, r);
    case E_NEG:
        if ((q = eval(E, e->a, &x))) return q;
        if (x == INT64_MIN) return op_overflow(E->c), EV_FAIL;
        *r = -x;
        return EV_OK;
    case E_CHAIN:
        if ((q = eval(E, e->args[0], &x))) return q;
        for (size_t i = 1; i < e->n; i++) {
            if ((q = eval(E, e->args[i], &y))) return q;
            if ((q = apply(E, e, e->cols[i], e->ops[i], x, y, &x))) return q;
        }
        *r = x;
        return EV_OK;
    default: return fail_at(E, e, "bad expression%s", "");
    }
}

/* ---- the rule applied to a node ----------------------------------------------------- */

static const oprule *find_rule(const oprules *rs, const jc_node *n)
{
    if (!rs) return NULL;
    const char *dom = n->domain && *n->domain ? n->domain : "";
    if (!strcmp(dom, "ai.onnx")) dom = "";
    for (size_t i = 0; i < rs->n; i++)
        if (!strcmp(rs->r[i].op, n->op_type) && !strcmp(rs->r[i].domain, dom)) return &rs->r[i];
    return NULL;
}

/* Evaluates one cost expression into *dst via add(); unknown marks the
 * cost unknown with the blocking symbol.  false on a hard error. */
static bool cost_term(evctx *E, const expr *e, int which)
{
    if (!e) return true;
    int64_t v;
    evr q = eval(E, e, &v);
    if (q == EV_FAIL) return false;
    if (q == EV_UNKNOWN) {
        if (E->c->cost.state == JC_COST_OK) E->c->cost.state = JC_COST_UNKNOWN_DIMS;
        if (E->sym && E->c->n_blocked < 8) E->c->blocked[E->c->n_blocked++] = E->sym;
        else if (!E->sym) E->c->anon_blocked = 1;
        return true;
    }
    if (v < 0) {
        fail_at(E, e, "the expression is negative%s", "");
        return false;
    }
    switch (which) {
    case 0: return op_macs(E->c, v);
    case 1: return op_flops(E->c, v, 1);
    case 2: return op_specials(E->c, v, 1);
    case 3: return op_add(E->c, E->c->cost.bytes_read, v, &E->c->cost.bytes_read);
    default: return op_add(E->c, E->c->cost.bytes_written, v, &E->c->cost.bytes_written);
    }
}

bool ax_custom_rule(opctx *c)
{
    const oprule *r = find_rule(ax_rules(c->ax), c->n);
    if (!r) return false;
    evctx E = {c, r, NULL, JC_OK};
    /* output shapes */
    for (int k = 0; k < c->nout; k++) {
        if (!c->out[k]) continue;
        const jc_tshape *x0 = c->nin ? c->in[0] : NULL;
        if ((size_t)k >= r->n_outs || r->outs[k].like >= 0) {
            int like = (size_t)k < r->n_outs ? r->outs[k].like : 0;
            const jc_tshape *src = like < c->nin ? c->in[like] : NULL;
            if (op_copy_out(c, k, src, 0)) goto oom;
            continue;
        }
        const outspec *o = &r->outs[k];
        jc_dim d[64];
        for (int i = 0; i < o->rank; i++) {
            int64_t v;
            E.sym = NULL;
            evr q = eval(&E, o->dims[i], &v);
            if (q == EV_FAIL) goto fail;
            d[i].v = q == EV_OK ? v : -1;
            d[i].sym = q == EV_OK ? NULL : E.sym;
            if (q == EV_OK && v < 0) {
                fail_at(&E, o->dims[i], "a dim expression is negative%s", "");
                goto fail;
            }
        }
        if (op_set_out(c, k, x0 ? x0->dtype : 0, o->rank, d)) goto oom;
    }
    c->cost.cls = r->cls;
    if (!cost_term(&E, r->macs, 0) || !cost_term(&E, r->flops, 1) || !cost_term(&E, r->special, 2))
        goto fail;
    if (r->bread || r->bwritten) {
        c->bytes_set = 1;
        if (!cost_term(&E, r->bread, 3) || !cost_term(&E, r->bwritten, 4)) goto fail;
    }
    op_note(c, "cost from --op-rules %s", r->where);
    return true;
oom:
    ax_rule_error(c, NULL);
    return true;
fail:
    return true;    /* the error is in the analysis context */
}

/* ---- loading ----------------------------------------------------------------------- */

static jc_status bad(jc_diag *d, const char *file, const hnode *n, const char *fmt, const char *arg)
{
    char msg[400];
    snprintf(msg, sizeof msg, fmt, arg);
    return jci_diag_yaml(d, JC_ERR_USAGE, file, n->line, n->col, "%s", msg);
}

static jc_status load_rule(jci_arena *a, const char *file, const hnode *key, const hnode *v, oprule *r,
                           jc_diag *d)
{
    const char *k = key->s, *colon = strrchr(k, ':');
    if (!*k || (colon && !colon[1]))
        return bad(d, file, key, "'%s': a rule is named domain:op (e.g. com.example:MyOp)", k);
    r->domain = colon ? jci_arena_strndup(a, k, (size_t)(colon - k)) : "";
    r->op = jci_arena_strdup(a, colon ? colon + 1 : k);
    if (!r->domain || !r->op) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    if (!strcmp(r->domain, "ai.onnx")) r->domain = "";
    r->file = file;
    r->line = key->line;
    r->col = key->col;
    char where[600];
    snprintf(where, sizeof where, "%.500s:%d", file, key->line);
    r->where = jci_arena_strdup(a, where);
    if (!r->where) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    r->cls = JC_CLASS_VECTOR;
    if (v->kind != HN_MAP) return bad(d, file, v, "rule '%s': expected a mapping (class, outputs, macs, ...)", k);
    for (size_t i = 0; i < v->n; i++) {
        const hnode *fk = v->keys[i], *fv = v->vals[i];
        const char *f = fk->s;
        jc_status st;
        expr **slot = !strcmp(f, "macs") ? &r->macs : !strcmp(f, "flops") ? &r->flops
                    : !strcmp(f, "special") ? &r->special : !strcmp(f, "bytes_read") ? &r->bread
                    : !strcmp(f, "bytes_written") ? &r->bwritten : NULL;
        if (slot) {
            if (fv->kind != HN_SCALAR) return bad(d, file, fv, "'%s': expected an expression", f);
            if ((st = compile(a, file, fv, 1, slot, d))) return st;
        } else if (!strcmp(f, "class")) {
            static const char *const names[] = {"none", "matrix", "vector", "memory"};
            int found = -1;
            for (int q = 0; q < 4; q++)
                if (fv->kind == HN_SCALAR && !strcmp(fv->s, names[q])) found = q;
            if (found < 0) return bad(d, file, fv, "class: expected matrix, vector, memory or none%s", "");
            r->cls = (jc_op_class)found;
        } else if (!strcmp(f, "outputs")) {
            if (fv->kind != HN_SEQ) return bad(d, file, fv, "outputs: expected a list (one entry per output)%s", "");
            r->n_outs = fv->n;
            r->outs = jci_arena_calloc(a, fv->n ? fv->n : 1, sizeof *r->outs);
            if (!r->outs) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
            for (size_t j = 0; j < fv->n; j++) {
                const hnode *it = fv->vals[j];
                outspec *o = &r->outs[j];
                o->like = -1;
                if (it->kind == HN_SCALAR) {
                    char *end;
                    long q = !strncmp(it->s, "in", 2) ? strtol(it->s + 2, &end, 10) : -1;
                    if (q < 0 || q > 255 || end == it->s + 2 || *end)
                        return bad(d, file, it, "outputs: '%s': expected in<k> or a list of dim expressions",
                                   it->s);
                    o->like = (int)q;
                    continue;
                }
                if (it->kind != HN_SEQ || it->n > 64)
                    return bad(d, file, it, "outputs: expected in<k> or a list of dim expressions%s", "");
                o->rank = (int)it->n;
                o->dims = jci_arena_calloc(a, it->n ? it->n : 1, sizeof *o->dims);
                if (!o->dims) return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
                for (size_t q = 0; q < it->n; q++) {
                    if (it->vals[q]->kind != HN_SCALAR)
                        return bad(d, file, it->vals[q], "outputs: a dim is an expression%s", "");
                    if ((st = compile(a, file, it->vals[q], 0, &o->dims[q], d))) return st;
                }
            }
        } else {
            return bad(d, file, fk,
                       "unknown key '%s' (class, outputs, macs, flops, special, bytes_read, bytes_written)", f);
        }
    }
    return JC_OK;
}

jc_status oprules_load(jci_arena *a, const char *path, const oprules **out, jc_diag *d)
{
    *out = NULL;
    jci_arena *scratch = jci_arena_new();
    hw_file *hf = jci_arena_calloc(a, 1, sizeof *hf);
    oprules *rs = jci_arena_alloc(a, sizeof *rs);
    jc_status st = JC_OK;
    if (!scratch || !hf || !rs) {
        jci_arena_free(scratch);
        return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    }
    hf->job = 2;   /* YAML errors: JC_ERR_USAGE (exit 2) naming an op-rules file, as the schema's */
    hf->path = jci_arena_strdup(a, path);
    if (!hf->path) {
        jci_arena_free(scratch);
        return jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
    }
    hnode *root = NULL;
    if ((st = hw_parse_file(scratch, a, hf, &root, d))) goto done;
    if (!root || root->kind != HN_MAP) {
        st = jci_diag_yaml(d, JC_ERR_USAGE, path, root ? root->line : 1, root ? root->col : 1,
                          "an op-rules file is a mapping with a 'rules' key (docs/counting.md)");
        goto done;
    }
    const hnode *rules = NULL;
    for (size_t i = 0; i < root->n; i++) {
        if (!strcmp(root->keys[i]->s, "rules")) rules = root->vals[i];
        else {
            st = bad(d, path, root->keys[i], "unknown top-level key '%s' (expected 'rules')", root->keys[i]->s);
            goto done;
        }
    }
    if (!rules || rules->kind != HN_MAP) {
        st = jci_diag_yaml(d, JC_ERR_USAGE, path, rules ? rules->line : root->line, rules ? rules->col : root->col,
                          "'rules' must map domain:op names to rules");
        goto done;
    }
    rs->n = rules->n;
    rs->r = jci_arena_calloc(a, rules->n ? rules->n : 1, sizeof *rs->r);
    if (!rs->r) {
        st = jci_diag_set(d, JC_ERR_NOMEM, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < rules->n && !st; i++)
        st = load_rule(a, hf->path, rules->keys[i], rules->vals[i], &rs->r[i], d);
    if (!st) *out = rs;
done:
    jci_arena_free(scratch);
    return st;
}
