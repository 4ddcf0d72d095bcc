// What every model family's run does around its own forward pass, once: refuse an empty
// or too long text (languagemodel.h's contract), label the ids, and pack the weights and
// the hidden states into a ModelRun; the logits from an output embedding, and a token's
// spelling and label. A model without a tokenizer (the benchmark's random ones) labels
// and spells its ids by their numbers. No Qt.
#pragma once

#include "models/languagemodel.h"
#include "models/modelkernels.h"
#include "text/modeltokenizer.h"

#include <string>
#include <vector>

namespace attn {

// Throws InputError: Refusal::EmptyText for no tokens, Refusal::TextTooLong (naming both
// counts) for more than `maxPositions`.
void checkTokenCount(std::size_t tokens, int maxPositions);

// A trace of `model`'s head `head` in layer `layer` on `text`, begun: the layer and head
// checked (std::out_of_range outside info()'s layers and heads), the text tokenized and its
// length checked (as checkTokenCount), and the formula that layer runs, as the forward pass
// picks it (the switches', or the textbook one where switches.onlyLayer names another
// layer), with `dModel` — the width the heads are split from — and info().heads.
[[nodiscard]] HeadTrace beginTrace(const LanguageModel& model, const std::string& text,
                                   const ModelSwitches& switches, int layer, int head, int dModel);

// Q_h, K_h and V_h of the trace's head cut from the layer's whole q, k and v (T, H·d_k
// each) as the trace's formula splits heads (transpose, or the view bug): the families
// whose every head has its own K and V (GPT-2, BERT).
void splitTraceHeads(HeadTrace& trace, Matrix q, Matrix k, Matrix v);

// A trace whose input and Q_h, K_h, V_h are set, ended: S = Q_h K_hᵀ in full (a forward
// may skip the products a causal mask hides), the layer's mask, P of the head as the run
// wrote it (`weights`: every layer's, (L, 1, H, T, T)), O_h as head h's block of `merged`
// (every head's P·V side by side, as the layer made it), and `projected`, the attention's
// output projection of it.
void endTrace(HeadTrace& trace, const FloatBuffer& weights, Matrix merged, Matrix projected);

// Room for every layer's attention of a run, (L, 1, H, T, T), its values unwritten (the
// forward writes each one) and, above a few MB, its pages already mapped: the kernel maps
// and zeroes them now, a share on each core (MADV_POPULATE_WRITE, Linux 5.14 on), instead
// of 150 000 page faults one at a time on the thread that first writes them (600 MB at
// T = 1024 in GPT-2 small).
[[nodiscard]] FloatBuffer attentionBuffer(int layers, int heads, int tokens);

// A readable label per id, by `tokenizer`, or each id's number when there is none.
[[nodiscard]] std::vector<TokenLabel> labelIds(const ModelTokenizer* tokenizer,
                                               const std::vector<int>& ids);

// The run of `model` on `ids` (labelled `labels`) under `switches`: `weights` is every
// layer's attention, (L, 1, H, T, T) in that order, `hidden` the final norm's output (T, C).
[[nodiscard]] ModelRun packRun(const LanguageModel& model, std::vector<int> ids,
                               std::vector<TokenLabel> labels, FloatBuffer weights, Matrix hidden,
                               const ModelSwitches& switches);

// logits = h · Eᵀ for an output embedding E (V, C) and a hidden row h (C values).
[[nodiscard]] std::vector<float> embeddingLogits(const WeightView& embedding,
                                                 const float* hiddenRow);

// The vocabulary's spelling and the readable label of `id` (its number without a
// tokenizer).
[[nodiscard]] std::string tokenSpellingOf(const ModelTokenizer* tokenizer, int id);
[[nodiscard]] std::string tokenLabelOf(const ModelTokenizer* tokenizer, int id);

} // namespace attn
