// The one spelling of the formula's parts (core/engine/formula): rich text for the formula bar,
// one compact plain line for figure titles. Symbols are written as the tutorial writes
// them, not translated.
#pragma once

#include "engine/formula.h"

#include <QColor>
#include <QString>
#include <QStringList>

namespace attn::ui {

enum class FormulaMarkup {
    RichText,  // italic symbols, sub- and superscripts; departures in the alert colour
    PlainText, // "softmax(QKᵀ/√d_k + M, dim=-1)·V"; a missing scaling is left out
};

// `formula` written out; in rich text each departing part is coloured `alert`.
[[nodiscard]] QString writeFormula(const Formula& formula, FormulaMarkup markup,
                                   const QColor& alert = {});
// One part's symbol without the space or comma before it, e.g. "dim=-1".
[[nodiscard]] QString formulaSymbol(FormulaPart part, FormulaMarkup markup);
// The departures of `config` from the textbook formula, in plain words of the interface's
// language ("no scaling by √d_k", "mask applied after the softmax instead of before"), as
// the formula bar's line, Compare's captions and the command line's figures say them.
// `hasPadding`: the text has <pad> keys (an unmasked one is then a departure).
[[nodiscard]] QStringList formulaDepartures(const attn::Config& config, bool hasPadding);

// `html` in the alert colour.
[[nodiscard]] QString alertSpan(const QString& html, const QColor& alert);

} // namespace attn::ui
