/*
 * finetune.c (estimate) - fine-tuning in the training step model (issue 40):
 * --finetune lora|qlora|full, --lora-rank, --lora-targets read against the
 * model's shape; which parameters train (adapters of rank r on the named
 * projections: r (d_in + d_out) each, Hu et al. 2021, arXiv:2106.09685)
 * and which stay frozen; the adapters' own GEMMs per micro-batch through
 * efficiency.c's kernel model; QLoRA's NF4 base with double quantisation
 * (Dettmers et al. 2023, arXiv:2305.14314, section 3) dequantised to BF16
 * before every GEMM.  train_step.c lays the job out and times the step
 * with these figures (the frozen base: forward and activation gradients,
 * no weight gradients, no optimizer state); full fine-tuning is the
 * pre-training step on the tokens given.
 */
#include "estimate/finetune.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const target_names[JCI_FT_TARGETS] = {"q_proj", "k_proj", "v_proj", "o_proj",
                                                         "gate_proj", "up_proj", "down_proj"};
static const char *const default_targets = "q_proj,k_proj,v_proj,o_proj";

/* Target i's input and output widths in one layer of sh; 0 when the
 * shape has no such matrix (gate_proj without a gated MLP). */
static void target_dims(const jci_ft_shape *sh, int i, double *din, double *dout, int *col)
{
    const double in[JCI_FT_TARGETS] = {sh->d, sh->d, sh->d, sh->o_in, sh->d, sh->d, sh->ffn};
    const double out[JCI_FT_TARGETS] = {sh->q_out, sh->kv_out, sh->kv_out, sh->d, sh->gated ? sh->ffn : 0,
                                        sh->ffn, sh->d};
    *din = in[i];
    *dout = out[i];
    *col = !(i == 3 || i == 6);   /* o_proj and down_proj split their input */
}

/* The comma-separated list into ft's dims; "all": every projection. */
static jc_status parse_targets(est *s, const jci_ft_shape *sh, const char *list, jci_ft *ft)
{
    char buf[256];
    if (strlen(list) >= sizeof buf)
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--lora-targets: too long a list");
    strcpy(buf, list);
    int any = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ') tok++;
        int all = !strcmp(tok, "all"), hit = 0;
        for (int i = 0; i < JCI_FT_TARGETS; i++) {
            if (!all && strcmp(tok, target_names[i])) continue;
            hit = 1;
            double din, dout;
            target_dims(sh, i, &din, &dout, &ft->col[i]);
            if (!(dout > 0)) {
                if (all) continue;
                return jci_bld_fail(&s->b, JC_ERR_USAGE, "--lora-targets %s: the model's MLP is not gated (no "
                                    "gate_proj; up_proj and down_proj are its matrices)", tok);
            }
            if (i >= 4 && sh->moe)
                return jci_bld_fail(&s->b, JC_ERR_USAGE, "--lora-targets %s: adapters on a mixture of experts' "
                                    "MLPs are not modelled; adapt the attention projections (q_proj,k_proj,"
                                    "v_proj,o_proj)", all ? "all" : tok);
            ft->din[i] = din, ft->dout[i] = dout;
            any = 1;
        }
        if (!hit) {
            const char *near = jc_closest_name(tok, target_names, JCI_FT_TARGETS);
            return jci_bld_fail(&s->b, JC_ERR_USAGE, "--lora-targets: unknown projection '%s'%s%s%s (one of q_proj "
                                "k_proj v_proj o_proj gate_proj up_proj down_proj, or all)", tok,
                                near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
        }
    }
    if (!any) return jci_bld_fail(&s->b, JC_ERR_USAGE, "--lora-targets: no projection named");
    /* the adapted projections by name, in table order ("all" spelled out) */
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; i < JCI_FT_TARGETS; i++)
        if (ft->dout[i] > 0) n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", n ? "," : "", target_names[i]);
    ft->targets = jci_bld_str(&s->b, "%s", buf);
    return JC_OK;
}

/* Adapter options without adapters are refused (they would do nothing). */
static jc_status refuse_adapter_opts(est *s, const char *why)
{
    const jc_job *j = s->b.job;
    if (given(j->lora_rank) || j->lora_targets)
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--%s has no effect %s: LoRA adapters need --finetune lora or qlora",
                            given(j->lora_rank) ? "lora-rank" : "lora-targets", why);
    return JC_OK;
}

static jc_status resolve_kind(est *s, jci_ft *ft)
{
    const jc_job *j = s->b.job;
    static const char *const kinds[] = {"full", "lora", "qlora"};
    const char *k = j->finetune;
    if (!k) return refuse_adapter_opts(s, "without --finetune");
    for (int i = 0; i < 3; i++)
        if (!strcmp(k, kinds[i])) ft->kind = JCI_FT_FULL + i, ft->name = kinds[i];
    if (!ft->name) {
        const char *near = jc_closest_name(k, kinds, 3);
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--finetune '%s': one of lora, qlora, full%s%s%s", k,
                            near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
    }
    if (!given(j->batch))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--finetune needs --batch B (sequences per optimizer step): the "
                            "compute-optimal batch law is pre-training's");
    if (ft->kind == JCI_FT_FULL) return refuse_adapter_opts(s, "with --finetune full");
    return JC_OK;
}

jc_status jci_ft_resolve(est *s, const jci_ft_shape *sh, double P_total, jci_ft *ft)
{
    const jc_job *j = s->b.job;
    memset(ft, 0, sizeof *ft);
    ft->trainable = P_total;
    ft->w_bytes = 2;
    jc_status st = resolve_kind(s, ft);
    if (st || ft->kind == JCI_FT_NONE) return st;
    if (ft->kind == JCI_FT_FULL) {
        jci_bld_assume(&s->b, "finetune.trainable_params", "full fine-tuning: every parameter trains (the "
                       "pre-training step on the tokens given)", R1(P_total), "", JC_ORIGIN_DERIVED, "--finetune full");
        return JC_OK;
    }
    if (sh->mla)
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--finetune %s: adapters on MLA attention (low-rank projections) "
                            "are not modelled", ft->name);
    if (sh->cross)
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--finetune %s: adapters on an encoder-decoder (its decoder's "
                            "cross-attention) are not modelled; --finetune full is", ft->name);
    ft->rank = given(j->lora_rank) ? j->lora_rank : 16;
    ft->targets = j->lora_targets ? j->lora_targets : default_targets;
    if ((st = parse_targets(s, sh, ft->targets, ft))) return st;
    double per_layer = 0;
    for (int i = 0; i < JCI_FT_TARGETS; i++) per_layer += ft->rank * (ft->din[i] + ft->dout[i]);
    ft->trainable = sh->L * per_layer;
    ft->frozen = P_total;
    jci_bld_assume(&s->b, "finetune.lora_rank", "LoRA adapters' rank", R1(ft->rank), "",
                   given(j->lora_rank) ? JC_ORIGIN_USER : JC_ORIGIN_DEFAULT,
                   given(j->lora_rank) ? "--lora-rank" : "default 16 (the MLPerf Training Llama 2 70B LoRA reference; "
                                                           "give --lora-rank)");
    jci_bld_assume(&s->b, "finetune.trainable_params",
                   jci_bld_str(&s->b, "trainable parameters: rank %s adapters on %s, r (d_in + d_out) per matrix "
                               "x %s layers", FMT_N(ft->rank), ft->targets, FMT_N(sh->L)),
                   R1(ft->trainable), "", JC_ORIGIN_DERIVED,
                   j->lora_targets ? "--lora-targets (Hu et al. 2021, arXiv:2106.09685)"
                                   : "default targets: the attention projections (give --lora-targets)");
    jci_bld_assume(&s->b, "finetune.frozen_params", "frozen base parameters: forward and activation gradients, "
                   "no weight gradients or optimizer state", R1(ft->frozen), "", JC_ORIGIN_DERIVED, "the model");
    if (ft->kind == JCI_FT_QLORA) {
        ft->w_bytes = JCI_FT_NF4_BYTES;
        ft->paged_opt = 1;
    }
    jci_bld_assume(&s->b, "finetune.base_bytes", ft->kind == JCI_FT_QLORA
                   ? "frozen base storage per parameter: NF4 with double quantisation (4 + 8/64 + 32/(64 x 256) bits), "
                     "dequantised to BF16 for each GEMM; adapters' optimizer state paged to host memory"
                   : "frozen base storage per parameter (BF16)", R1(ft->w_bytes), "B", JC_ORIGIN_DERIVED,
                   ft->kind == JCI_FT_QLORA ? "Dettmers et al. 2023, arXiv:2305.14314, section 3" : "--finetune lora");
    return JC_OK;
}

double jci_ft_adapter_s(const est *s, const jci_ft *ft, const jci_eff_device *dv, double T, double Ls, double tp,
                        int sc, double *flops)
{
    if (ft->kind < JCI_FT_LORA) return 0;
    const jci_eff_model *m = &s->eff;
    double r = ft->rank, t = 0;
    for (int i = 0; i < JCI_FT_TARGETS; i++) {
        if (!(ft->dout[i] > 0)) continue;
        double din = ft->col[i] ? ft->din[i] : ft->din[i] / tp, dout = ft->col[i] ? ft->dout[i] / tp : ft->dout[i];
        /* forward x A (T x r over d_in), then B (T x d_out over r) */
        double fwd = jci_eff_gemm_s(m, dv, T, r, din, 1, sc) + jci_eff_gemm_s(m, dv, T, dout, r, 1, sc);
        /* backward: B's input and weight gradients, A's the same */
        double bwd = jci_eff_gemm_s(m, dv, T, r, dout, 1, sc) + jci_eff_gemm_s(m, dv, r, dout, T, 1, sc) +
                     jci_eff_gemm_s(m, dv, T, din, r, 1, sc) + jci_eff_gemm_s(m, dv, din, r, T, 1, sc);
        t += fwd * (1 + s->rc) + bwd;
        *flops += 3 * 2 * T * r * (din + dout) * Ls;
    }
    return t * Ls;
}

double jci_ft_dequant_s(const est *s, const jci_ft *ft, double params_dev, double n_mats, double bw, int sc)
{
    if (ft->kind != JCI_FT_QLORA || !(bw > 0)) return 0;
    double launch = jci_pick(s->eff.v[JCI_EFF_LAUNCH_S], sc, JCI_RAISES);
    return (2 + s->rc) * fmax(params_dev * (ft->w_bytes + 2) / bw, n_mats * launch);
}
