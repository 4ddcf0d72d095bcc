// Knocking heads out (TransformerLens's ablations): which heads, read from "5.1,7.*", and
// what their outputs P_h·V_h become inside a forward, before the output projection. Every
// family's forward applies them at the same place (ForwardFrame::headOutputs). No Qt.
#pragma once

#include "base/tensor.h"
#include "models/languagemodel.h"

#include <string>
#include <string_view>
#include <vector>

namespace attn {

// "L.H" or "L.*" (every head of layer L), comma-separated, layers and heads from 0 → the
// heads, each once, in order. Throws InputError naming the entry for a malformed list, or
// a layer or head the model (`layers` layers of `heads` heads) lacks.
[[nodiscard]] std::vector<HeadIndex> parseKnockOuts(std::string_view text, int layers, int heads);

// "zero" or "mean" → the mode; throws InputError for another word.
[[nodiscard]] KnockOutMode parseKnockOutMode(std::string_view text);
[[nodiscard]] std::string_view spellingOf(KnockOutMode mode);

// "5.1".
[[nodiscard]] std::string headName(const HeadIndex& head);

// The list as parseKnockOuts reads it: "2.*,5.1" (a layer whose `heads` heads are all in
// the list as L.*).
[[nodiscard]] std::string knockOutList(const std::vector<HeadIndex>& knocked, int heads);

// Throws InputError when a knocked-out head is not one of the model's, or a head is
// named twice or out of order (the list parseKnockOuts makes is neither).
void checkKnockOuts(const std::vector<HeadIndex>& heads, const ModelInfo& info);

// Layer `layer`'s heads' outputs, (T, H·d_k) with head h in columns [h·d_k, (h+1)·d_k):
// each head of the layer in `switches.knockedOut` set to 0 (Zero), or every row of it to
// the mean of its rows (Mean).
void knockOutHeads(const ModelSwitches& switches, int layer, int heads, Matrix& headOutputs);

} // namespace attn
