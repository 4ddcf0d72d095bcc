// The logit lens (nostalgebraist, 2020): the residual stream after each block read as the
// model's prediction, through the family's final norm and output head (GPT-2: ln_f, then
// wteᵀ; Qwen/Llama: the final RMSNorm, then lm_head; BERT: the masked-LM head). The last
// block's reading is the model's own prediction. No Qt.
#pragma once

#include "models/languagemodel.h"

#include <atomic>
#include <vector>

namespace attn {

// Entry ℓ: the reading after block ℓ (0 … L−1), a list over the T positions, each the k
// most probable tokens there (topPredictions: next tokens, or BERT's fill-ins).
using LogitLens = std::vector<std::vector<std::vector<Prediction>>>;

// Hooks that keep the residual stream after every block: residuals[ℓ] (T, C).
[[nodiscard]] ForwardHooks residualCapture(std::vector<Matrix>& residuals);

// The readings of residuals captured by residualCapture (one a block).
[[nodiscard]] LogitLens readLogitLens(const LanguageModel& model,
                                      const std::vector<Matrix>& residuals, int k = 5);

// Runs `ids` under `switches` (knock-outs included) and reads every block. Throws as
// LanguageModel::runIds does.
[[nodiscard]] LogitLens logitLens(const LanguageModel& model, const std::vector<int>& ids,
                                  const ModelSwitches& switches, int k = 5,
                                  const std::atomic<bool>* cancel = nullptr);

} // namespace attn
