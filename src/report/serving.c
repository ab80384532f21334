/*
 * serving.c (report) - renders a jc_serving (LLM generation) as text, JSON
 * and CSV: the serving figures (TTFT, inter-token latency, tokens/s, J per
 * output token and per request, power by phase, memory) followed by the
 * workload's energy and emissions exactly as the estimate report renders
 * them (jc_report_estimate_*), so the energy keys stay one schema.
 * Formatting only.  JSON keys: docs/json-schemas.md ("generation").
 */
#include "base/jc_internal.h"
#include "base/fmt.h"
#include "report/rjson.h"
#include "joulecast/serving.h"
#include "joulecast/estimate.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void row(FILE *f, const char *label, jc_range r, double scale, const char *unit)
{
    char a[40], b[40], c[40];
    fprintf(f, "  %-34s %14s %14s %14s  %s\n", label, fmt_num(a, sizeof a, r.low * scale),
            fmt_num(b, sizeof b, r.central * scale), fmt_num(c, sizeof c, r.high * scale), unit);
}

/* The estimate's text with its first line (mode, method) replaced. */
static jc_status estimate_body(const jc_estimate *e, FILE *f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return JC_ERR_NOMEM;
    jc_status st = jc_report_estimate_text(e, m);
    if (fclose(m) || st) { free(buf); return st ? st : JC_ERR_IO; }
    const char *nl = buf ? strchr(buf, '\n') : NULL;
    fputs(nl ? nl + 1 : "", f);
    free(buf);
    return JC_OK;
}

jc_status jc_report_serving_text(const jc_serving *s, FILE *f)
{
    char b1[64], b2[64], b3[64];
    const jc_estimate *e = s->estimate;
    fprintf(f, "joulecast estimate: generation (LLM serving)\n");
    fprintf(f, "model      %s%s%s%s, %s parameters", s->model, s->model_type ? " (" : "",
            s->model_type ? s->model_type : "", s->model_type ? ")" : "", fmt_si(b1, sizeof b1, s->params_total));
    if (s->params_active < s->params_total) fprintf(f, ", %s active", fmt_si(b2, sizeof b2, s->params_active));
    fprintf(f, "\nworkload   %s requests x (%s prompt + %s output tokens), %s running sequences per replica%s\n",
            s->requests == floor(s->requests) && s->requests < 1e15 ? fmt_int(b1, sizeof b1, (int64_t)s->requests)
                                                                   : fmt_num(b1, sizeof b1, s->requests),
            FMT_N(s->prompt_tokens), FMT_N(s->output_tokens), FMT_N(s->concurrency),
            s->memory_limited ? " (KV-memory bound)" : "");
    fprintf(f, "parallel   tp %s x pp %s", FMT_N(s->tp), FMT_N(s->pp));
    if (s->ep > 0) fprintf(f, ", ep %s", FMT_N(s->ep));
    fprintf(f, ", %s replica%s, %s device%s; weights %s%s%s%s, KV %s, arithmetic %s\n", FMT_N(s->replicas),
            s->replicas == 1 ? "" : "s", FMT_N(s->devices), s->devices == 1 ? "" : "s", s->weights,
            s->expert_weights ? " (experts " : "", s->expert_weights ? s->expert_weights : "",
            s->expert_weights ? ")" : "", s->kv_format, s->compute_precision);
    char b4[64], b5[64];
    char b6[64];
    fprintf(f, "memory     weights %s, KV cache %s (%s per token), activations %s, %s used of %s per device\n",
            fmt_bytes(b1, sizeof b1, s->weight_bytes), fmt_bytes(b2, sizeof b2, s->kv_bytes),
            s->kv_bytes_per_token > 0 ? fmt_bytes(b3, sizeof b3, s->kv_bytes_per_token) : "n/a",
            fmt_bytes(b6, sizeof b6, s->activation_bytes),
            fmt_bytes(b4, sizeof b4, s->memory_per_device), fmt_bytes(b5, sizeof b5, s->memory_capacity));
    fprintf(f, "work       prefill %s FLOP per request; decode %s FLOP per token, %s read per step (mean)",
            fmt_si(b1, sizeof b1, s->prefill_flops), fmt_si(b2, sizeof b2, s->decode_flops_per_token),
            fmt_bytes(b3, sizeof b3, s->decode_bytes_per_step));
    if (s->experts_touched > 0) fprintf(f, "; %s experts touched per MoE layer per step", FMT_N(s->experts_touched));
    fprintf(f, "\n\n  %-34s %14s %14s %14s\n", "serving", "low", "central", "high");
    row(f, "time to first token (TTFT)", s->ttft_s, 1e3, "ms (queueing excluded)");
    row(f, "inter-token latency (mean)", s->itl_s, 1e3, "ms");
    row(f, "output tokens/s, all devices", s->tokens_per_s, 1, "tok/s");
    row(f, "output tokens/s per device", s->tokens_per_s_per_device, 1, "tok/s");
    row(f, "output tokens/s per sequence", s->tokens_per_s_per_seq, 1, "tok/s");
    row(f, "energy per output token, devices", s->j_per_output_token_device, 1, "J");
    row(f, "energy per output token, facility", s->j_per_output_token, 1, "J");
    row(f, "energy per request, facility", s->j_per_request, 1, "J");
    fprintf(f, "  %-34s %14s %14.1f%% %14s\n", "  prefill share (device energy)", "", 100 * s->prefill_energy_share, "");
    row(f, "power per device, prefill", s->power_prefill_w, 1, "W");
    row(f, "power per device, decode", s->power_decode_w, 1, "W");
    if (s->n_nodes) {
        fprintf(f, "\none decode step, per device (central; %zu nodes)\n", s->n_nodes);
        fprintf(f, "  %-36s %-18s %12s %12s %10s %10s\n", "node", "op", "FLOP", "bytes", "time us", "bound");
        for (size_t i = 0; i < s->n_nodes; i++) {
            const jc_est_node *n = &s->nodes[i];
            fprintf(f, "  %-36s %-18s %12s %12s %10s %10s\n", n->name, n->op, fmt_si(b1, sizeof b1, n->flops),
                    fmt_si(b2, sizeof b2, n->bytes), FMT_N(n->time_s * 1e6), rj_bound(n));
        }
    }
    fprintf(f, "\n");
    return estimate_body(e, f);
}

char *jc_report_serving_json(const jc_serving *s)
{
    cJSON *root = rj_estimate(s->estimate);
    char *out = NULL;
    if (!root) return NULL;
    cJSON *o;
    const rj_field results[] = {
        RJF_R("ttft_s", s->ttft_s), RJF_R("itl_s", s->itl_s), RJF_R("tokens_per_s", s->tokens_per_s),
        RJF_R("tokens_per_s_per_device", s->tokens_per_s_per_device),
        RJF_R("tokens_per_s_per_sequence", s->tokens_per_s_per_seq),
        RJF_R("j_per_output_token", s->j_per_output_token),
        RJF_R("j_per_output_token_device", s->j_per_output_token_device), RJF_R("j_per_request", s->j_per_request),
        RJF_N("prefill_energy_share", s->prefill_energy_share),
        RJF_R("power_prefill_w_per_device", s->power_prefill_w), RJF_R("power_decode_w_per_device", s->power_decode_w),
    };
    const rj_field serving[] = {
        RJF_S("model", s->model), RJF_S("model_type", s->model_type), RJF_N("params_total", s->params_total),
        RJF_N("params_active", s->params_active), RJF_N("prompt_tokens", s->prompt_tokens),
        RJF_N("output_tokens", s->output_tokens), RJF_N("requests", s->requests),
        RJF_N("concurrency_asked", s->concurrency_asked), RJF_N("concurrency", s->concurrency),
        RJF_B("memory_limited", s->memory_limited), RJF_N("tp", s->tp), RJF_N("pp", s->pp),
        RJF_N("ep", s->ep > 0 ? s->ep : NAN), RJF_N("replicas", s->replicas), RJF_S("weights", s->weights),
        RJF_S("expert_weights", s->expert_weights), RJF_S("kv_format", s->kv_format),
        RJF_S("compute_precision", s->compute_precision),
        RJF_N("weight_bytes", s->weight_bytes), RJF_N("kv_bytes_per_token", rj_known(s->kv_bytes_per_token)),
        RJF_N("kv_bytes", s->kv_bytes), RJF_N("activation_bytes", s->activation_bytes),
        RJF_N("memory_per_device_bytes", s->memory_per_device),
        RJF_N("memory_capacity_bytes", s->memory_capacity), RJF_N("prefill_flops_per_request", s->prefill_flops),
        RJF_N("decode_flops_per_token", s->decode_flops_per_token),
        RJF_N("decode_bytes_per_step", s->decode_bytes_per_step),
        RJF_N("experts_touched_per_step", rj_known(s->experts_touched)),
        RJF_N("collective_s_per_step", s->collective_s_per_step), RJF_N("decode_flop_util", s->decode_flop_util),
        RJF_N("decode_bw_util", s->decode_bw_util), RJF_N("prefill_flop_util", s->prefill_flop_util),
        RJF_N("prefill_time_share", s->prefill_time_share), RJF_N("decode_busy_share", s->decode_busy_share),
    };
    cJSON_ReplaceItemInObjectCaseSensitive(root, "mode", cJSON_CreateString("generation"));
    cJSON_ReplaceItemInObjectCaseSensitive(root, "schema", cJSON_CreateString("joulecast-estimate/1"));
    REQ(o = cJSON_GetObjectItemCaseSensitive(root, "results"));
    REQ(rj_fields(o, results, sizeof results / sizeof results[0]));
    REQ(o = cJSON_AddObjectToObject(root, "serving"));
    REQ(rj_fields(o, serving, sizeof serving / sizeof serving[0]));
    REQ(rj_nodes(o, "decode_step_nodes", s->nodes, s->n_nodes));
    out = rj_print(root);
done:
    cJSON_Delete(root);
    return out;
}

jc_status jc_report_serving_csv(const jc_serving *s, FILE *f, int header)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return JC_ERR_NOMEM;
    jc_status st = jc_report_estimate_csv(s->estimate, m, header);
    if (fclose(m) || st) { free(buf); return st ? st : JC_ERR_IO; }
    static const char *cols[] = {"ttft_s", "itl_s", "tokens_per_s", "tokens_per_s_per_device",
                                 "j_per_output_token", "j_per_output_token_device", "j_per_request",
                                 "power_prefill_w", "power_decode_w"};
    const jc_range *v[] = {&s->ttft_s, &s->itl_s, &s->tokens_per_s, &s->tokens_per_s_per_device,
                           &s->j_per_output_token, &s->j_per_output_token_device, &s->j_per_request,
                           &s->power_prefill_w, &s->power_decode_w};
    size_t n = sizeof cols / sizeof cols[0];
    char *line = buf, *nl;
    if (header && (nl = strchr(line, '\n'))) {
        fwrite(line, 1, (size_t)(nl - line), f);
        fprintf(f, ",prompt_tokens,output_tokens,concurrency,tp,pp,weights,kv_format");
        for (size_t i = 0; i < n; i++) fprintf(f, ",%s_low,%s,%s_high", cols[i], cols[i], cols[i]);
        fprintf(f, "\n");
        line = nl + 1;
    }
    nl = strchr(line, '\n');
    if (!strncmp(line, "inference,", 10)) {   /* the estimate's mode column: this is generation */
        fputs("generation", f);
        line += 9;
    }
    fwrite(line, 1, nl ? (size_t)(nl - line) : strlen(line), f);
    fprintf(f, ",%g,%g,%g,%g,%g,%s,%s", s->prompt_tokens, s->output_tokens, s->concurrency, s->tp, s->pp,
            s->weights, s->kv_format);
    for (size_t i = 0; i < n; i++) rcsv_range(f, *v[i]);
    fprintf(f, "\n");
    free(buf);
    return ferror(f) ? JC_ERR_IO : JC_OK;
}

/* ---- sweep --generate ----------------------------------------------------------- */

static const char *ms(char *buf, size_t cap, double s)
{
    if (isnan(s)) snprintf(buf, cap, "none");
    else snprintf(buf, cap, "%s ms", FMT_N(s * 1e3));
    return buf;
}

jc_status jc_report_serving_sweep_text(const jc_serving_sweep *s, size_t top, FILE *f)
{
    char b1[32], b2[32];
    fprintf(f, "joulecast sweep --generate: %zu points, %zu estimated, %zu meet the targets (ITL <= %s, TTFT <= %s), "
               "%zu on the Pareto front (*: GPU J/token vs ITL)\n\n", s->n_entries, s->n_estimated, s->n_meeting,
            ms(b1, sizeof b1, s->max_itl_s), ms(b2, sizeof b2, s->max_ttft_s), s->n_pareto);
    fprintf(f, "  %-4s %-26s %6s %4s %-6s %6s %6s %10s %10s %10s %12s %12s  %s\n", "rank", "device", "count", "tp",
            "weights", "conc", "used", "TTFT ms", "ITL ms", "tok/s", "J/tok GPU", "J/tok fac.", "");
    size_t shown = 0;
    for (size_t i = 0; i < s->n_estimated; i++) {
        const jc_serving_sweep_entry *e = &s->entries[i];
        if (top && shown >= top && !e->pareto) continue;
        shown++;
        fprintf(f, "  %-4zu %-26s %6s %4s %-6s %6s %6s%s %9s %10s %10s %12s %12s  %s%s\n", i + 1,
                e->device_id, FMT_N(e->count), FMT_N(e->tp), e->weights, FMT_N(e->concurrency_asked), FMT_N(e->concurrency),
                e->memory_limited ? "m" : " ", FMT_N(e->ttft_s * 1e3), FMT_N(e->itl_s * 1e3), FMT_N(e->tokens_per_s),
                FMT_N(e->j_per_output_token), FMT_N(e->j_per_output_token_facility), e->pareto ? "*" : "",
                e->meets ? "" : e->reason);
    }
    if (s->n_estimated < s->n_entries) {
        fprintf(f, "\nnot estimated\n");
        for (size_t i = s->n_estimated; i < s->n_entries; i++) {
            const jc_serving_sweep_entry *e = &s->entries[i];
            fprintf(f, "  %-26s count %s tp %s conc %s %s: %s\n", e->device_id, FMT_N(e->count), FMT_N(e->tp),
                    FMT_N(e->concurrency_asked), e->weights, e->reason ? e->reason : "");
        }
    }
    fprintf(f, "\n(m: the KV memory, not the asked concurrency, bounds the running sequences)\n");
    return ferror(f) ? JC_ERR_IO : JC_OK;
}

char *jc_report_serving_sweep_json(const jc_serving_sweep *s)
{
    cJSON *root = cJSON_CreateObject(), *arr, *o;
    char *out = NULL;
    if (!root) return NULL;
    const rj_field head[] = {
        RJF_S("schema", "joulecast-serving-sweep/1"), RJF_N("max_itl_s", s->max_itl_s),
        RJF_N("max_ttft_s", s->max_ttft_s), RJF_N("points", (double)s->n_entries),
        RJF_N("estimated", (double)s->n_estimated), RJF_N("meeting_targets", (double)s->n_meeting),
    };
    REQ(rj_fields(root, head, sizeof head / sizeof head[0]));
    REQ(arr = cJSON_AddArrayToObject(root, "entries"));
    for (size_t i = 0; i < s->n_entries; i++) {
        const jc_serving_sweep_entry *e = &s->entries[i];
        const rj_field point[] = {
            RJF_S("device", e->device_id), RJF_N("count", e->count), RJF_N("tp", e->tp),
            RJF_S("weights", e->weights), RJF_N("concurrency_asked", e->concurrency_asked),
            RJF_B("estimated", e->estimated),
        };
        const rj_field figures[] = {
            RJF_N("concurrency", e->concurrency), RJF_B("memory_limited", e->memory_limited),
            RJF_N("ttft_s", e->ttft_s), RJF_N("itl_s", e->itl_s), RJF_N("tokens_per_s", e->tokens_per_s),
            RJF_N("j_per_output_token_device", e->j_per_output_token),
            RJF_N("j_per_output_token", e->j_per_output_token_facility), RJF_N("co2_location_kg", e->co2_kg),
            RJF_B("meets_targets", e->meets), RJF_B("pareto", e->pareto),
        };
        REQ(o = rj_push_object(arr));
        REQ(rj_fields(o, point, sizeof point / sizeof point[0]));
        if (e->estimated) REQ(rj_fields(o, figures, sizeof figures / sizeof figures[0]));
        REQ(rj_str(o, "reason", e->reason));
    }
    out = rj_print(root);
done:
    cJSON_Delete(root);
    return out;
}

jc_status jc_report_serving_sweep_csv(const jc_serving_sweep *s, FILE *f)
{
    fprintf(f, "device,count,tp,weights,concurrency_asked,concurrency,memory_limited,ttft_s,itl_s,tokens_per_s,"
               "j_per_output_token_device,j_per_output_token,meets_targets,pareto,reason\n");
    for (size_t i = 0; i < s->n_entries; i++) {
        const jc_serving_sweep_entry *e = &s->entries[i];
        jci_csv_field(f, e->device_id, 0);
        fprintf(f, ",%g,%g,", e->count, e->tp);
        jci_csv_field(f, e->weights, 0);
        if (e->estimated) {
            fprintf(f, ",%g,%g,%d", e->concurrency_asked, e->concurrency, e->memory_limited);
            const double v[] = {e->ttft_s, e->itl_s, e->tokens_per_s, e->j_per_output_token,
                                e->j_per_output_token_facility};
            for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
                fputc(',', f);
                rcsv_num(f, v[k]);
            }
            fprintf(f, ",%d,%d,", e->meets, e->pareto);
        } else
            fprintf(f, ",%g,n/a,n/a,n/a,n/a,n/a,n/a,n/a,0,0,", e->concurrency_asked);
        jci_csv_field(f, e->reason, 0);
        fprintf(f, "\n");
    }
    return ferror(f) ? JC_ERR_IO : JC_OK;
}
