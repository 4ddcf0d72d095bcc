// A model's HeadTrace as the engine's Result of one sequence, so that what reads a Result
// for one head (Lab → Step by Step's tiles, explainCell's arithmetic of a weight) reads a
// real model's layer the same way. No Qt.
#pragma once

#include "engine/engine.h"
#include "models/languagemodel.h"

namespace attn {

// `trace` as a Result of one sequence (B = 1) and the model's H heads, of which only
// trace.head holds numbers: X, Q_h, K_h, V_h, S, the mask, P, O_h, the concatenation and
// the output projection; the other heads' matrices are empty. Its config is the layer's
// formula (trace.formula), its tokens the labels; it has no statistics. Read it only at
// head trace.head (numberedPipelineTiles, explainCell).
[[nodiscard]] Result headTraceResult(const HeadTrace& trace);

} // namespace attn
