#include "todayslessons.h"

#include "presetpanel.h"

namespace attn::ui {

// The numbers below are what AttnScope computes for each preset as it stands (tst_presets,
// against tests/reference/preset_cases.json).
Lesson todaysLessonOf(const QString& name)
{
    if (name == u"gqa")
        return {
            PresetPanel::tr("Grouped-query attention: 8 heads, 2 K/V heads (gqa)"),
            PresetPanel::tr("d_model 64, 8 query heads of d_k = 8, but only 2 K/V heads: W_k and "
                            "W_v project to 2 × 8 = 16 features instead of 64, and query head h "
                            "reads K/V head ⌊h / 4⌋, as Llama 3 and Mistral do (repeat_kv)."),
            {
                PresetPanel::tr("<b>Heads 0–3 share K/V head 0, heads 4–7 share K/V head 1</b>: "
                                "within a group, column j of every heatmap is the same key k_j "
                                "and the same value v_j; only the query rows differ."),
                PresetPanel::tr("<b>The heatmaps of a group still differ</b>: every head has its "
                                "own queries, so it reads the same keys with other questions. "
                                "The rows sum to 1.0000, the columns to 0.4582 … 1.6838."),
                PresetPanel::tr("<b>The K/V cache is 4 times smaller</b>: a decoder keeps 16 "
                                "numbers of K and 16 of V per token instead of 64 each. That "
                                "memory, not the arithmetic, is why today's models share K/V "
                                "heads."),
                PresetPanel::tr("Set K/V heads to 1 (multi-query attention): all 8 heads read "
                                "one key and one value per token. Set it to 8: every head has "
                                "its own again, the formula of 2017."),
            },
        };
    if (name == u"rope-distance")
        return {
            PresetPanel::tr("RoPE: the same pair farther along (rope-distance)"),
            PresetPanel::tr("“a b c a b d a b”: the pair “a b” stands at positions 0–1, 3–4 and "
                            "6–7. d_model 64, 2 heads, positional “rope”: nothing is added to x; "
                            "Q_h and K_h are rotated by their positions instead (Llama, Qwen). "
                            "Hover the cells to read their scores."),
            {
                PresetPanel::tr("<b>b looking at a scores -3.3090 three times</b> in head 0 "
                                "(rows 1, 4 and 7, one column to the left; 1.4289 in head 1): "
                                "with RoPE, q_i·k_j depends on the two tokens and on i − j "
                                "only."),
                PresetPanel::tr("<b>At distance 4 the score is another, fixed as well</b>: b at 4 "
                                "looking at a at 0 and b at 7 looking at a at 3 both score "
                                "-1.7591 in head 0."),
                PresetPanel::tr("Set positional to sinusoidal: the three cells of distance 1 score "
                                "-3.4802, -4.0195 and -5.2636. The encoding added to x mixes the "
                                "absolute positions into q and k."),
                PresetPanel::tr("Set positional to none: all five cells score -2.6949, near or "
                                "far: without positions, attention cannot tell them apart."),
            },
        };
    if (name == u"qk-norm")
        return {
            PresetPanel::tr("QK-norm without √d_k (qk-norm)"),
            PresetPanel::tr("The saturation preset (d_model 512, one head, no ÷√d_k) with QK-norm: "
                            "every row of Q_h and K_h is divided by its root mean square (Qwen3, "
                            "OLMo 2), so every q and k has length √d_k and |q·k| ≤ d_k = 512. "
                            "Does that make ÷√d_k unnecessary? The numbers say no."),
            {
                PresetPanel::tr("<b>The std of the logits doubles</b>: 21.1494 against 10.6405 "
                                "without QK-norm. The normed q and k are longer than the "
                                "projections were, and their angles spread as before, so q·k "
                                "still spreads like √d_k."),
                PresetPanel::tr("<b>4 of 11 rows are saturated</b> (3 without QK-norm), the "
                                "entropy falls to 0.44 of 3.46 bits. The largest |logit| is "
                                "49.51: inside the bound of 512, far past what a softmax can "
                                "take."),
                PresetPanel::tr("<b>Set scaling to ÷ √d_k</b>: the std drops to 0.9347, no row "
                                "is saturated, and every |logit| ≤ √d_k ≈ 22.6 (here at most "
                                "2.19). Qwen3 does both: QK-norm and ÷√d_k."),
                PresetPanel::tr("What QK-norm adds is the bound itself: however large the "
                                "activations grow in training, the logits cannot. Without it "
                                "the scaled std here is 0.4702, bounded by nothing."),
            },
        };
    if (name == u"alibi")
        return {
            PresetPanel::tr("ALiBi: positions from a bias (alibi)"),
            PresetPanel::tr("d_model 64, 8 heads, and no positional encoding. ALiBi (BLOOM, MPT) "
                            "subtracts m_h·|i − j| from every logit instead: a penalty growing "
                            "with the distance, steepest in head 0 (m = 1/2), halving from head to "
                            "head down to 1/256 in head 7."),
            {
                PresetPanel::tr("<b>Head 0 shows a band along the diagonal</b>: its weights "
                                "average 0.3031 on the diagonal, 0.1741 one key away, 0.0225 "
                                "five away and 0.0029 ten away."),
                PresetPanel::tr("<b>Head 7 is almost flat</b>: 0.0943 on the diagonal, close to "
                                "1/11 = 0.0909, because its slope 1/256 barely moves the logits. "
                                "Together the heads look near and far."),
                PresetPanel::tr("<b>The std of the logits is 0.3177 from the dot products, 0.8385 "
                                "with ALiBi's bias</b>: the distance penalty spreads the logits "
                                "more than the words do."),
                PresetPanel::tr("Set ALiBi off: head 0 averages 0.0939 on the diagonal, no band "
                                "is left; without positions, attention cannot tell near from "
                                "far."),
            },
        };
    if (name == u"softcap")
        return {
            PresetPanel::tr("Soft-capping the saturated logits (softcap)"),
            PresetPanel::tr("The saturation preset (d_model 512, one head, no ÷√d_k) with "
                            "soft-capping at c = 10: every logit L becomes c·tanh(L/c), close to L "
                            "while small, never beyond ±10 (Gemma 2 caps its attention logits "
                            "at 50)."),
            {
                PresetPanel::tr("<b>No row is saturated</b>: 0 of 11, against 3 of 11 without the "
                                "cap; the mean largest weight falls from 0.80 to 0.51."),
                PresetPanel::tr("<b>The std of the logits is 10.6405 before the cap and 6.8783 "
                                "after it</b>: the cap squeezes the large logits, the ones that "
                                "made the rows one-hot."),
                PresetPanel::tr("<b>The entropy rises from 0.72 to 1.64 bits</b> (of 3.46): the "
                                "rows still prefer some keys, but none takes everything. The "
                                "warning still calls them peaked."),
                PresetPanel::tr("Try c = 30: 2 of 11 rows saturate again (std 9.8409 after the "
                                "cap). Try c = 1: std 0.9733 and 3.07 bits, the rows almost "
                                "uniform. The cap does not replace ÷√d_k."),
            },
        };
    if (name == u"sliding-window")
        return {
            PresetPanel::tr("A sliding window of 4 keys (sliding-window)"),
            PresetPanel::tr("A causal mask over a sentence of 22 tokens, and a sliding window "
                            "W = 4: query i sees only keys i − 3 … i (Mistral, Gemma's local "
                            "layers). Key j is masked when j > i or i − j ≥ 4."),
            {
                PresetPanel::tr("<b>A band 4 keys wide instead of a triangle</b>: the last row "
                                "(“.”) puts 0.2993, 0.1691, 0.2229 and 0.3087 on “table all day "
                                ".” in head 0, and exactly 0 on the 18 keys before them."),
                PresetPanel::tr("<b>The rows still sum to 1.0000</b>: the hidden keys' share goes "
                                "to the 4 visible ones. The mean largest weight rises from 0.23 "
                                "to 0.41, the entropy falls from 3.07 to 1.76 bits (at most 2 "
                                "bits for 4 keys)."),
                PresetPanel::tr("<b>The first token is seen by 4 rows only</b>: its column sums to "
                                "2.4728 in head 0, against 4.4807 without the window."),
                PresetPanel::tr("Information still travels farther than 4 tokens, through the "
                                "layers: each one passes it 3 keys on. Set the window to off: the "
                                "triangle of causal-decoder is back."),
            },
        };
    if (name == u"attention-sink")
        return {
            PresetPanel::tr("An attention sink (attention-sink)"),
            PresetPanel::tr("A causal mask, and a sink: one more logit s = 1 in every row's "
                            "softmax, a key without a value that is dropped after the softmax "
                            "(gpt-oss; s = 0 is “softmax off by one”). A head that finds nothing "
                            "worth reading can give its weight to the sink."),
            {
                PresetPanel::tr("<b>Row 0 no longer puts 1.0000 on the first token</b>: “The” "
                                "sees only itself, and without a sink it takes everything. With "
                                "s = 1 row 0 gives it 0.2256 to 0.2956 (by head), the sink the "
                                "rest."),
                PresetPanel::tr("<b>The first token's column sums to 2.0039 in head 0</b>, against "
                                "3.6412 without the sink: in a causal model the first token "
                                "collects the weight of heads with nothing to do; the sink takes "
                                "over that job."),
                PresetPanel::tr("<b>The rows sum to 0.2256 … 0.9030, not 1</b>: what is missing "
                                "went to the sink. The warning counts 8 rows whose sink takes "
                                "more than half."),
                PresetPanel::tr("Set the sink to 0: row 0 gives the first token about half (0.4419 "
                                "to 0.5329). Set it to off: this is the causal-decoder preset."),
            },
        };
    return {};
}

} // namespace attn::ui
