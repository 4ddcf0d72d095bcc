// Which heads matter for one prediction: each head knocked out alone (zero, or its mean where
// the switches' knock-out mode says so), and the change
// in the log-probability of one token at one position (TransformerLens-style direct
// ablation scan). The residual stream up to a head's layer is the intact run's, so a scan
// runs only the blocks from that layer on. No Qt.
#pragma once

#include "models/languagemodel.h"

#include <atomic>
#include <functional>
#include <optional>
#include <vector>

namespace attn {

struct HeadImportance {
    int position = 0;  // where the token is predicted: the last (a decoder) or
                       // the first [MASK] (BERT)
    int target = 0;    // the token: the intact run's top 1 unless named
    double intact = 0; // log p(target) of the intact run (its switches and knock-outs)
    std::vector<std::vector<double>> change; // L × H: log p(target) with the head knocked
                                             // out − intact; 0 for a head already out
};

// Scans every head of `ids` under `switches` (its knock-outs stay out in every run).
// `progress(done, total)` after each head; Cancelled (engine.h) when `cancel` becomes true.
// Throws InputError for a masked language model's ids without [MASK], or a target outside
// the vocabulary, and as LanguageModel::runIds does; ModelError (kNoOutputHead) for a model
// without an output head (ModelInfo::predicts).
[[nodiscard]] HeadImportance
headImportance(const LanguageModel& model, const std::vector<int>& ids,
               const ModelSwitches& switches, std::optional<int> target = std::nullopt,
               const std::function<void(int done, int total)>& progress = {},
               const std::atomic<bool>* cancel = nullptr);

} // namespace attn
