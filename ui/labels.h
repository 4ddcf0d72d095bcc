// The translated names the window shows for the formula's switches. The stored
// values stay the core enums; this is the only place that turns them into words.
#pragma once

#include "engine/options.h"
#include "engine/warnings.h"
#include "formats/report.h"
#include "lab/sweep.h"

#include <QString>

#include <string>
#include <vector>

namespace attn {
struct Result;
}

namespace attn::ui {

[[nodiscard]] QString displayName(TokenizerMode value);
[[nodiscard]] QString displayName(EmbeddingMode value);
[[nodiscard]] QString displayName(Positional value);
[[nodiscard]] QString displayName(ScaleMode value);
[[nodiscard]] QString displayName(SoftmaxAxis value);
[[nodiscard]] QString displayName(MaskKind value);
[[nodiscard]] QString displayName(MaskFill value);
[[nodiscard]] QString displayName(MaskStage value);
[[nodiscard]] QString displayName(HeadSplit value);
[[nodiscard]] QString displayName(AttentionKind value);

// The same switches as a figure's caption names them in its running text: a phrase of
// its own, not the control's label ("mask No mask" read as a slip on a slide).
[[nodiscard]] QString captionPhrase(ScaleMode value);
[[nodiscard]] QString captionPhrase(SoftmaxAxis value);
[[nodiscard]] QString captionPhrase(MaskKind value);
[[nodiscard]] QString captionPhrase(MaskStage value);
[[nodiscard]] QString captionPhrase(HeadSplit value);
[[nodiscard]] QString captionPhrase(EmbeddingMode value);
[[nodiscard]] QString captionPhrase(Positional value);

// `text` with %1…%9 replaced by the arguments in one pass: an argument's own "%2" stays
// as typed (a token may hold one), and a placeholder without an argument stays too.
[[nodiscard]] QString fillArguments(const QString& text, const std::vector<std::string>& arguments);

// A refusal of the core in the interface language; English what() for Refusal::Other.
[[nodiscard]] QString refusalText(const InputError& error);

// A warning in the interface language: its template translated, then filled.
[[nodiscard]] QString warningText(const Warning& warning);

// The words of `attnscope compute`'s report in the interface language, as the Chinese
// tutorials' own printouts word them (缩放前标准差, 权重行和).
[[nodiscard]] ReportWords reportWords();

// The words of `attnscope sweep`'s table in the interface language, as the sweep's charts
// word them.
[[nodiscard]] SweepWords sweepWords();

// The result's shape as the status bar shows it: "B = 2 · T = 6 · d_model = 16 · H = 2 ·
// d_k = 8", and T_q and T_k in cross-attention.
[[nodiscard]] QString shapeText(const Result& result);

} // namespace attn::ui
