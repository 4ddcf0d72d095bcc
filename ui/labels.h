// The translated names the window shows for the formula's switches. The stored
// values stay the core enums; this is the only place that turns them into words.
#pragma once

#include "options.h"
#include "warnings.h"

#include <QString>

#include <string>
#include <vector>

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

// `text` with %1…%9 replaced by the arguments in one pass: an argument's own "%2" stays
// as typed (a token may hold one), and a placeholder without an argument stays too.
[[nodiscard]] QString fillArguments(const QString& text, const std::vector<std::string>& arguments);

// A refusal of the core in the interface language; English what() for Refusal::Other.
[[nodiscard]] QString refusalText(const InputError& error);

// A warning in the interface language: its template translated, then filled.
[[nodiscard]] QString warningText(const Warning& warning);

} // namespace attn::ui
