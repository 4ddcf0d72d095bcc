// The arithmetic of one weight of Step by step, with the real numbers, as HTML: the
// dialog's panel and the figure's appendix print the same text.
#pragma once

#include "lab/explain.h"

#include <QString>

namespace attn::ui {

// The explanation of `e` as HTML: the dot product's terms (all when d_k ≤ 16, else the
// first 8), the scaling, the mask and the softmax's sum (its terms when there are ≤ 12).
// The labels name the query and key of the cell.
[[nodiscard]] QString explanationHtml(const CellExplanation& e, const QString& queryLabel,
                                      const QString& keyLabel);

} // namespace attn::ui
