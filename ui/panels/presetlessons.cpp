#include "presetlessons.h"

#include "presetpanel.h"
#include "todayslessons.h"

namespace attn::ui {

// The numbers below are what AttnScope computes for each preset as it stands (tst_presets).
Lesson lessonOf(const QString& name)
{
    if (name == u"article")
        return {
            PresetPanel::tr("The tutorial's program (article)"),
            PresetPanel::tr("torch.manual_seed(42), x = torch.randn(2, 4, 16), one head, so "
                            "d_k = C = 16. The words are only labels here: in embedding mode "
                            "“torch” the vectors come from torch.randn, not from the words."),
            {
                PresetPanel::tr("<b>Std before scaling 1.1888, after 0.2972</b>: exactly 1/√d_k "
                                "= 1/√16 = 1/4 of it (PyTorch prints 1.19 and 0.30). Scaling "
                                "keeps the dot products' spread in check."),
                PresetPanel::tr("<b>Every row sums to 1.0000</b>: each query hands out exactly "
                                "one unit of attention; only the shares differ. Columns need not "
                                "sum to 1 (here 0.8602 to 1.1298)."),
                PresetPanel::tr("<b>The output has the shape (2, 4, 16)</b>, the same (B, T, C) "
                                "as x: attention does not change the shape, which is what lets "
                                "layers be stacked."),
                PresetPanel::tr("Exercise 1: set d_model to 512 and scaling to none. The std "
                                "grows to 8.2085 and 63% of the rows saturate to one-hot."),
            },
        };
    if (name == u"saturation")
        return {
            PresetPanel::tr("d_model 512 without √d_k (saturation)"),
            PresetPanel::tr("d_model = 512 with one head, so d_k = 512, and the logits are not "
                            "divided by √d_k: the tutorial's first common mistake."),
            {
                PresetPanel::tr("<b>Std before and after scaling are both 10.6405</b>: nothing "
                                "shrinks the dot products, whose spread grows like √d_k."),
                PresetPanel::tr("<b>27% of the rows are saturated</b> (3 of 11 have a largest "
                                "weight ≥ 0.99) and the mean largest weight is 0.80: the warning "
                                "says to turn scaling on."),
                PresetPanel::tr("<b>Entropy 0.72 of at most 3.46 bits</b>: most rows look at one "
                                "or two keys. A one-hot softmax passes almost no gradient back, "
                                "so the loss stops falling."),
                PresetPanel::tr("Set scaling to ÷ √d_k: the std after scaling drops to 0.4702 "
                                "(10.6405/√512), no row is saturated and the entropy rises to "
                                "3.33 bits."),
            },
        };
    if (name == u"wrong-axis-queries")
        return {
            PresetPanel::tr("Softmax over the queries, dim=-2 (wrong-axis-queries)"),
            PresetPanel::tr("The softmax normalises each column (one key, over all queries) "
                            "instead of each row (one query, over all keys): the tutorial's "
                            "second common mistake and exercise 2."),
            {
                PresetPanel::tr("<b>Every column sums to 1.0000</b>; <b>the rows do not</b>: "
                                "they range from 0.3557 to 1.6504."),
                PresetPanel::tr("A row is no longer a distribution over the keys, so a query's "
                                "output is no longer a weighted average of the values."),
                PresetPanel::tr("The heatmaps look plausible; the row sums in the statistics "
                                "and the warning give the mistake away."),
                PresetPanel::tr("Set the axis to keys (dim=-1): every row sums to 1 again."),
            },
        };
    if (name == u"wrong-axis-batch")
        return {
            PresetPanel::tr("Softmax over the batch, dim=0 (wrong-axis-batch)"),
            PresetPanel::tr("Two sentences of 7 tokens, and the softmax runs over dim=0: each "
                            "weight is normalised across the sentences of the batch instead of "
                            "across the keys."),
            {
                PresetPanel::tr("<b>Cell (i, j) of sentence 0 plus cell (i, j) of sentence 1 is "
                                "exactly 1</b>. Switch between the sentences in the toolbar to "
                                "compare them."),
                PresetPanel::tr("<b>So the rows sum to 2.0587 … 4.9413</b>, and row i of both "
                                "sentences together sums to T = 7."),
                PresetPanel::tr("One sentence's weights depend on the other sentence: the model "
                                "would answer differently depending on what else is in the "
                                "batch."),
                PresetPanel::tr("Set the axis to keys (dim=-1): each sentence's rows sum to 1 on "
                                "their own."),
            },
        };
    if (name == u"causal-decoder")
        return {
            PresetPanel::tr("A decoder's causal mask (causal-decoder)"),
            PresetPanel::tr("Query i may look only at keys j ≤ i: the logits above the diagonal "
                            "(torch.triu(ones(T, T), 1)) are filled with -inf before the "
                            "softmax, as in GPT."),
            {
                PresetPanel::tr("<b>The upper triangle is exactly 0</b> (hatched cells): no "
                                "token sees a later one."),
                PresetPanel::tr("<b>Row 0 is [1, 0, 0, …]</b>: the first token can only look at "
                                "itself. Row i spreads over i + 1 keys."),
                PresetPanel::tr("<b>Every row still sums to 1.0000</b>: masking before the "
                                "softmax hands the hidden keys' share to the visible ones."),
                PresetPanel::tr("Compare with mask-after-softmax, where the same mask comes one "
                                "step too late."),
            },
        };
    if (name == u"head-split-bug")
        return {
            PresetPanel::tr("Heads split with view only (head-split-bug)"),
            PresetPanel::tr("Q, K and V are cut into heads with view(B, H, T, d_k) instead of "
                            "view(B, T, H, d_k).transpose(1, 2): the tutorial's third common "
                            "mistake, “don't squeeze it with view”."),
            {
                PresetPanel::tr("<b>Row i of head h is no longer token i</b>: it is 16 of the 64 "
                                "features of token ⌊(11h + i)/4⌋. Rows 0–3 of head 0 all come "
                                "from “The”."),
                PresetPanel::tr("<b>The shapes are the same</b>, (1, 4, 11, 16), so PyTorch "
                                "raises no error."),
                PresetPanel::tr("<b>Every row still sums to 1.0000</b>: the sums cannot see this "
                                "bug. Only the warning and the pictures show it."),
                PresetPanel::tr("Set the head split to view + transpose: the heatmaps change "
                                "although no number you chose did."),
            },
        };
    if (name == u"mask-after-softmax")
        return {
            PresetPanel::tr("Mask after the softmax (mask-after-softmax)"),
            PresetPanel::tr("The causal mask is applied to the weights after the softmax, "
                            "P.masked_fill(M, 0), instead of to the logits before it."),
            {
                PresetPanel::tr("<b>The rows no longer sum to 1</b>: row 0 keeps only its own "
                                "weight (0.0992 to 0.1313, by head); only the last row, which "
                                "sees every key, still sums to 1.0000."),
                PresetPanel::tr("The upper triangle is 0 here too, so the heatmap looks almost "
                                "right: the row sums give it away."),
                PresetPanel::tr("The share the future keys had is simply thrown away: early "
                                "tokens get a shrunken average of the values."),
                PresetPanel::tr("Set the mask stage to before the softmax: this is the "
                                "causal-decoder preset, where every row sums to 1."),
            },
        };
    if (name == u"fully-masked-row")
        return {
            PresetPanel::tr("A fully masked slice: -inf against -1e9 (fully-masked-row)"),
            PresetPanel::tr(
                "“The cat slept .” is padded to 7 tokens: its keys 4–6 are &lt;pad&gt;, "
                "masked with -inf. The padding mask hides a key from every query, "
                "so over the keys no row is ever fully masked. Here the softmax runs "
                "over the queries (dim=-2), and the column of a &lt;pad&gt; key is a "
                "slice with every entry masked."),
            {
                PresetPanel::tr("<b>NaN in columns 4, 5 and 6 of sentence 1</b> (magenta): 84 "
                                "NaN = 3 columns × 7 rows × 4 heads. A softmax of nothing but "
                                "-inf is 0/0, in PyTorch too."),
                PresetPanel::tr("<b>Set the mask fill to -1e9</b>: no NaN; every cell of those "
                                "columns is 1/7 = 0.1429. All their logits are equal, so the "
                                "softmax is uniform: no error, but the &lt;pad&gt; keys now get "
                                "weight."),
                PresetPanel::tr("Set the axis to keys (dim=-1): no NaN with either fill, because "
                                "each query of “The cat slept .” still sees its 4 real keys."),
                PresetPanel::tr("The same NaN appears with the batch axis (dim=0) and the causal "
                                "mask: a future key is masked in both sentences. In real models a "
                                "query whose every key is padding does it."),
            },
        };
    if (name == u"cross-attention")
        return {
            PresetPanel::tr("Cross-attention: 我 爱 机器学习 reads “I love machine learning” "
                            "(cross-attention)"),
            PresetPanel::tr("A translation decoder writing 我 爱 机器学习 looks at the English "
                            "source: Q comes from the Chinese words, K and V from “I love "
                            "machine learning”. d_model 16, 2 heads, seed 42, no positional "
                            "encoding. The English words' vectors were designed, as in exercise "
                            "3, so that each Chinese word's row gives its source words 0.8 "
                            "together."),
            {
                PresetPanel::tr("<b>The heatmaps are 3 × 4, not square</b>: the rows are the 3 "
                                "Chinese words (T_q = 3), the columns the 4 English words "
                                "(T_k = 4). S = Q·Kᵀ is (B, H, T_q, T_k) = (1, 2, 3, 4)."),
                PresetPanel::tr("<b>Each row finds its source</b>: 我 puts 0.8000 on I, 爱 "
                                "0.8000 on love, and 机器学习 0.4000 on each of machine and "
                                "learning: one word of the output, two of the input."),
                PresetPanel::tr("<b>Rows sum to 1, columns need not</b>: the softmax runs over "
                                "the English keys of each Chinese query; the columns sum to "
                                "0.5333 to 0.9667."),
                PresetPanel::tr("<b>The causal mask is off and disabled</b>: no English word "
                                "lies in the future of a Chinese one, so there is nothing to "
                                "hide. Switch Attention to Self: the heatmaps become 3 × 3, "
                                "the Chinese words looking at each other."),
                PresetPanel::tr("<b>Set the seed to 7</b>: new W_q and W_k, and 我 gives I only "
                                "0.20. The design fits the layers it was made for."),
            },
        };
    if (name == u"coreference")
        return {
            PresetPanel::tr("Coreference: 它 looks at 猫 (coreference)"),
            PresetPanel::tr("Exercise 3 of the tutorial: make 它 take its output from 猫. d_model "
                            "16, 2 heads, seed 42, no positional encoding. Every word keeps its "
                            "random vector except 猫: W_q and W_k are the random layers of seed "
                            "42, so 猫's score against 它's query is linear in 猫's vector, and "
                            "AttnScope solved for the shortest vector that gives 猫 the weight "
                            "0.8 in every head."),
            {
                PresetPanel::tr("<b>Row 它 (row 6) puts 0.8000 on 猫 (column 0) in both "
                                "heads</b>, so 0.8000 in the mean too; no other key gets more "
                                "than 0.04."),
                PresetPanel::tr("<b>The output follows the weights</b>: 它's output (before W_o) "
                                "points along V(猫), cosine 0.9999."),
                PresetPanel::tr(
                    "<b>猫's vector is long</b>, norm 15.2 against 3.1 to 5.2: random "
                    "layers do not pair 它 with 猫 by themselves. Other rows look at 猫 "
                    "too (its column sums to 2.18 in head 0): only 它's row was "
                    "designed."),
                PresetPanel::tr("<b>Set the seed to 7</b>: new W_q and W_k, and 它 gives 猫 only "
                                "0.13. The weights are controllable, but only for the layers they "
                                "were designed for; training is what finds such layers."),
            },
        };
    if (name == u"coreference-en")
        return {
            PresetPanel::tr("Coreference: “it” looks at “cat” (coreference-en)"),
            PresetPanel::tr("Exercise 3 of the tutorial in English: make “it” take its output "
                            "from “cat”. d_model 16, 2 heads, seed 42, no positional encoding. "
                            "Every word keeps its random vector except “cat”, the shortest "
                            "vector that gives it the weight 0.8 in every head, solved from the "
                            "random W_q and W_k of seed 42."),
            {
                PresetPanel::tr("<b>Row “it” (row 7) puts 0.8000 on “cat” (column 1) in both "
                                "heads</b>, so 0.8000 in the mean too; no other key gets more "
                                "than 0.05."),
                PresetPanel::tr("<b>The output follows the weights</b>: the output of “it” "
                                "(before W_o) points along V(cat), cosine 0.9999."),
                PresetPanel::tr("<b>“cat” has a long vector</b>, norm 18.9 against 2.5 to 5.2. "
                                "Other rows look at it too: its column sums to 6.58 in head 1. "
                                "Only the row of “it” was designed."),
                PresetPanel::tr("<b>Set the seed to 7</b>: new W_q and W_k, and “it” gives “cat” "
                                "only 0.12. The design fits the layers it was made for."),
            },
        };
    return todaysLessonOf(name);
}

} // namespace attn::ui
