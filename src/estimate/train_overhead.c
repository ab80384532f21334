/*
 * train_overhead.c (estimate) - the evaluation and checkpoint overhead a
 * training job states (issue 39 item 3): an evaluation of --eval-samples M
 * samples every --eval-every N training samples (forward only) and a
 * checkpoint of --checkpoint-gb every --checkpoint-every K steps written
 * at --storage-gbs.  One rule for both training paths: evaluation adds
 * M / N of the training's forward time (the evaluation runs the same
 * kernels on the same devices, at the run's per-device batch), and a
 * checkpoint adds its size / bandwidth / K to every step (the steps wait
 * for the write: asynchronous checkpointing, which hides it, is not
 * modelled).  The training step model (train_step.c) shows both in its
 * step breakdown (parts `evaluation`, `checkpoint`); a MODEL.onnx
 * training estimate (energy.c) adds them to the wall time.  Equations:
 * docs/energy-model.md "Evaluation and checkpoints".
 */
#include "estimate/estimate_int.h"

/* --eval-every with --eval-samples, --checkpoint-every with --storage-gbs
 * (and --checkpoint-gb): each needs its partner. */
static jc_status check_pairs(est *s)
{
    const jc_job *j = s->b.job;
    if (given(j->eval_every) != given(j->eval_samples))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--%s needs --%s too (an evaluation of M samples every N training "
                            "samples)", given(j->eval_every) ? "eval-every" : "eval-samples",
                            given(j->eval_every) ? "eval-samples" : "eval-every");
    if (!given(j->checkpoint_every) && (given(j->storage_gbs) || given(j->checkpoint_gb)))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--%s sizes the checkpoints of --checkpoint-every K: give it too, or "
                            "leave --%s out", given(j->storage_gbs) ? "storage-gbs" : "checkpoint-gb",
                            given(j->storage_gbs) ? "storage-gbs" : "checkpoint-gb");
    if (given(j->checkpoint_every) && !given(j->storage_gbs))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--checkpoint-every needs --storage-gbs W: the write bandwidth the "
                            "checkpoint reaches (no default: it is the storage's, all writers together)");
    return JC_OK;
}

jc_status jci_est_resolve_overhead(est *s, double trainable, int step_model)
{
    const jc_job *j = s->b.job;
    s->ov_eval = 0;
    s->ov_ckpt_step_s = 0;
    jc_status st = check_pairs(s);
    if (st) return st;
    if (!step_model && s->have_nodes && !given(s->known_T))   /* said, as the step model says its own */
        jci_bld_assume(&s->b, "train.goodput", "goodput: share of wall time in productive steps", R1(1), "",
                       JC_ORIGIN_DEFAULT, "1: a MODEL.onnx training estimate charges no restarts or lost time (its "
                       "wall time is the steps', with the evaluations and checkpoints --eval-every and "
                       "--checkpoint-every state); the training step model (--hf-config, or --params with "
                       "--layers) sets a goodput by run length, --goodput G there");
    if (!given(j->eval_every) && !given(j->checkpoint_every)) return JC_OK;
    if (given(s->known_T))
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--%s has no effect with a known runtime (--hours / --device-hours): "
                            "the evaluations and checkpoints are part of it", given(j->eval_every) ? "eval-every"
                                                                                                  : "checkpoint-every");
    if (!step_model && !s->have_nodes)
        return jci_bld_fail(&s->b, JC_ERR_USAGE, "--%s needs a forward pass to time: a MODEL.onnx, or the training "
                            "step model (--hf-config, or --params with --layers)",
                            given(j->eval_every) ? "eval-every" : "checkpoint-every");
    if (given(j->eval_every)) {
        s->ov_eval = j->eval_samples / j->eval_every;
        jci_bld_assume(&s->b, "train.eval", jci_bld_str(&s->b, "evaluation: %s samples every %s training samples, "
                                                        "forward only: this share of the training's forward time",
                                                        FMT_N(j->eval_samples), FMT_N(j->eval_every)),
                       R1(s->ov_eval), "", JC_ORIGIN_USER, "--eval-samples / --eval-every");
    }
    if (given(j->checkpoint_every)) {
        double gb = given(j->checkpoint_gb) ? j->checkpoint_gb : 14 * trainable / 1e9;
        jci_bld_assume(&s->b, "train.checkpoint_gb", "one checkpoint's size", R1(gb), "GB",
                       given(j->checkpoint_gb) ? JC_ORIGIN_USER : JC_ORIGIN_DERIVED,
                       given(j->checkpoint_gb) ? "--checkpoint-gb"
                                               : "14 B per trainable parameter: its BF16 weight 2 and the mixed-"
                                                 "precision Adam state 12 (FP32 master weight, two moments; "
                                                 "Rajbhandari et al. 2020, ZeRO, section 3.1); a frozen base is not "
                                                 "saved (give --checkpoint-gb)");
        double each = gb / j->storage_gbs;
        s->ov_ckpt_step_s = each / j->checkpoint_every;
        jci_bld_assume(&s->b, "train.checkpoint_s", jci_bld_str(&s->b, "seconds per checkpoint (size / %s GB/s), one "
                                                                "every %s steps; the steps wait for it",
                                                                FMT_N(j->storage_gbs), FMT_N(j->checkpoint_every)),
                       R1(each), "s", JC_ORIGIN_DERIVED, "--checkpoint-gb (or its default) / --storage-gbs");
    }
    return JC_OK;
}
