// softmax(QKᵀ/√d_k + M)·V as a configuration makes it: the formula in parts, left to
// right, each marked when it departs from the textbook formula, and the departures the
// formula itself cannot show. The formula bar, Compare's titles and Step by step spell
// these parts (ui/panels/formulatext); none of them decides again which switch departs.
#pragma once

#include "engine/options.h"

#include <vector>

namespace attn {

// One piece of the written formula.
enum class FormulaPart {
    Open,            // softmax(
    Scores,          // QKᵀ
    ScaleSqrtDk,     // / √d_k, the textbook scaling
    NoScale,         // the textbook's / √d_k, struck out
    ScaleSqrtDModel, // / √d_model
    Temperature,     // / τ
    AddMask,         // + M, the mask added to the logits
    AxisKeys,        // , dim=-1
    AxisQueries,     // , dim=-2
    AxisBatch,       // , dim=0
    Close,           // )
    MaskAfter,       // ⊙ (1 − M), the mask multiplied into the weights
    TimesV,          // · V
    // Today's models (appended, so that the parts above keep their numbers):
    SinkOpen,            // [ , the row's logits and the sink's in one softmax
    CapOpen,             // c·tanh(
    GroupOpen,           // ( around the logits when ALiBi is capped too
    ScoresNormed,        // Q̂K̂ᵀ: QK-norm
    ScoresRotated,       // (R_i Q)(R_j K)ᵀ: RoPE
    ScoresNormedRotated, // (R_i Q̂)(R_j K̂)ᵀ
    Alibi,               // − m_h·|i − j|
    GroupClose,          // )
    CapClose,            // / c)
    AddWindowMask,       // + M_W: the mask with a sliding window
    SinkClose,           // , s]
};
inline constexpr FormulaPart kLastFormulaPart = FormulaPart::SinkClose;

struct FormulaTerm {
    FormulaPart part;
    bool departs; // from the textbook formula
};

struct Formula {
    std::vector<FormulaTerm> terms; // left to right
    bool masked = false;            // M takes part: a causal mask, or padding masked
    bool maskAfter = false;         // M multiplied in after the softmax (departs)
    bool temperature = false;       // τ ≠ 1 (departs)
    bool viewSplit = false;         // heads split with view alone (departs; not in the terms)
    bool paddingAttended = false;   // <pad> keys not masked (departs; not in the terms)
    bool sharedKeys = false;        // fewer K/V heads than query heads (not in the terms)
};

// The formula `config` computes; `hasPadding` says whether some sequence is padded with
// <pad>, so that a padding mask takes part in M.
[[nodiscard]] Formula formulaOf(const Config& config, bool hasPadding);

// The term that writes the softmax's axis.
[[nodiscard]] FormulaPart axisPart(SoftmaxAxis axis);

} // namespace attn
