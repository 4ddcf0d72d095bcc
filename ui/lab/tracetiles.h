// Step by step inside a real model: the tiles of one head of one layer (a model's
// HeadTrace), made by the lab's own pipelineTiles from the trace's Result, with the
// model's names in the formulas (GPT-2's ln_1, c_attn and c_proj; the Qwen/Llama family's
// input_layernorm, q/k/v_proj and o_proj, with the K/V head a query head shares; BERT's
// query, key, value and attention.output.dense, its X the previous layer's output). The strip,
// the figure and `attnscope steps --model` draw them as they draw the lab's.
#pragma once

#include "models/languagemodel.h"
#include "pipelinetiles.h"

#include <vector>

namespace attn::ui {

// The numbered tiles of `trace`: X (the layer's input after ln_1), Q_h, K_h and V_h (c_attn's
// column blocks), S, L, the mask, P, O_h, the concatenation and the output (c_proj).
[[nodiscard]] std::vector<StageTile> headTraceTiles(const HeadTrace& trace,
                                                    const WeightColours& colours = {});

} // namespace attn::ui
