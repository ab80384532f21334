/*
 * jc_wasm.c - the page's one door into libjoulecast (built only by
 * `make web`; tools/web_deps.sh builds its C libraries): jcw_run takes a command name and its
 * key/value pairs as a JSON array of [key, value] pairs, calls the
 * library's binding entry point for that command (src/bind/: the same
 * jc_run_*_json functions the Python package calls), and answers one JSON
 * envelope.  No figure is computed here or in the page's script: the
 * envelope carries the library's own document unchanged.
 */
#include "joulecast.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The hardware database embedded in the module's file system (emcc
 * --embed-file hwdb@/hwdb), named from the working folder "/" so that
 * its citations read "hwdb/devices/...yaml:LINE" as the CLI's do. */
#define JCW_HWDB "hwdb"

typedef jc_status (*jcw_entry)(const char *hwdb_dir, const char *const *keys,
                               const char *const *values, size_t n, char **out, jc_diag *d);

static const struct {
    const char *name;
    jcw_entry fn;
} jcw_commands[] = {
    {"estimate", jc_run_estimate_json}, {"compare", jc_run_compare_json},
    {"statement", jc_run_statement_text}, {"sweep", jc_run_sweep_json},
    {"hw", jc_run_hw_json}, {"region", jc_run_region_json}, {"ga", jc_run_ga_json},
};

/* The envelope {"status", "status_name", "message", "file", "line",
 * "col", "node", "output"}: output is the entry point's document (or
 * the command line for "command"), null on error. */
static char *envelope(jc_status st, const jc_diag *d, const char *out)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    cJSON_AddNumberToObject(o, "status", (double)st);
    cJSON_AddStringToObject(o, "status_name", jc_status_name(st));
    cJSON_AddStringToObject(o, "message", st ? d->msg : "");
    cJSON_AddStringToObject(o, "file", st ? d->file : "");
    cJSON_AddNumberToObject(o, "line", st ? d->line : 0);
    cJSON_AddNumberToObject(o, "col", st ? d->col : 0);
    cJSON_AddStringToObject(o, "node", st ? d->node : "");
    if (out) cJSON_AddStringToObject(o, "output", out);
    else cJSON_AddNullToObject(o, "output");
    char *s = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return s;
}

/* Reads pairs_json ([["device","a100"],["batch","8"],...]) into keys and
 * values pointing into the parsed tree *tree (the caller deletes it).
 * Returns the pair count, or -1 when the text is not such an array. */
static long read_pairs(const char *pairs_json, cJSON **tree, const char ***keys,
                       const char ***values)
{
    *tree = cJSON_Parse(pairs_json ? pairs_json : "[]");
    if (!cJSON_IsArray(*tree)) return -1;
    int n = cJSON_GetArraySize(*tree);
    *keys = calloc((size_t)n + 1, sizeof **keys);
    *values = calloc((size_t)n + 1, sizeof **values);
    if (!*keys || !*values) return -1;
    for (int i = 0; i < n; i++) {
        cJSON *p = cJSON_GetArrayItem(*tree, i);
        cJSON *k = cJSON_GetArrayItem(p, 0), *v = cJSON_GetArrayItem(p, 1);
        if (cJSON_GetArraySize(p) != 2 || !cJSON_IsString(k) || !cJSON_IsString(v)) return -1;
        (*keys)[i] = k->valuestring;
        (*values)[i] = v->valuestring;
    }
    return n;
}

/* Runs command `cmd` ("estimate", "compare", "statement", "sweep", "hw",
 * "region", "ga", or "command": the CLI command line of an estimate or
 * compare request, the first pair naming which as ["command", NAME]) with
 * the pairs.  Returns the envelope (malloc'd, released with jcw_free), or
 * NULL when out of memory.  Never aborts: a bad request is a non-zero
 * status with the library's diagnostic. */
char *jcw_run(const char *cmd, const char *pairs_json)
{
    jc_diag d;
    memset(&d, 0, sizeof d);
    cJSON *tree = NULL;
    const char **keys = NULL, **values = NULL;
    long n = read_pairs(pairs_json, &tree, &keys, &values);
    char *out = NULL, *env;
    jc_status st = JC_ERR_USAGE;
    if (n < 0) {
        snprintf(d.msg, sizeof d.msg, "jcw_run: the pairs are not a JSON array of [key, value] strings");
    } else if (cmd && !strcmp(cmd, "command")) {
        char line[4096];
        st = jc_command_line(n ? values[0] : "", keys + (n > 0), values + (n > 0),
                             n ? (size_t)n - 1 : 0, line, sizeof line, &d);
        if (!st) out = strdup(line);
    } else {
        size_t i = 0, nc = sizeof jcw_commands / sizeof jcw_commands[0];
        while (i < nc && (!cmd || strcmp(cmd, jcw_commands[i].name))) i++;
        if (i == nc)
            snprintf(d.msg, sizeof d.msg, "jcw_run: unknown command '%s'", cmd ? cmd : "(null)");
        else
            st = jcw_commands[i].fn(JCW_HWDB, keys, values, (size_t)n, &out, &d);
    }
    env = envelope(st, &d, st ? NULL : out);
    jc_free(out);
    free(keys);
    free(values);
    cJSON_Delete(tree);
    return env;
}

/* Releases what jcw_run returned.  NULL: no-op. */
void jcw_free(char *p)
{
    free(p);
}
