// A model run as JSON: what `attnscope compute --model DIR --json OUT` writes. No Qt.
#pragma once

#include "attention/headscores.h"
#include "models/headimportance.h"
#include "models/languagemodel.h"
#include "models/logitlens.h"
#include "text/wordgroups.h"

#include <string>
#include <vector>

namespace attn {

class JsonWriter;

// {"model": {"family", "name", "layers", "heads", "d_model", "head_dim", "vocabulary",
//  "weight_type"}, "switches": {"scale", "temperature", "axis", "mask", "mask_fill",
//  "mask_stage", "head_split", "only_layer"}, "token_ids": [T], "tokens": [T readable
//  labels], "pieces": [T vocabulary spellings], "layers": [L × {"heads": [H × {"weights":
//  T × T}]}], "next_tokens": [k × {"id", "token" (readable), "piece", "probability",
//  "logit"}] at the last position, most probable first}. A model that is not causal (BERT)
// predicts no next token: "masked_predictions": [one {"position", "predictions": [k × the
// same objects]} per [MASK] in the ids, in order] instead of "next_tokens" (an empty list
// for a text without [MASK]). A NaN weight or logit is null.
// With `words` (runwords.h), the weights are (W, W), word by word, and "words": [W ×
// {"text", "tokens": [indices into token_ids]}] follows "pieces".
// "knocked_out": [[layer, head] …] and "knock_out_mode": "zero" or "mean" name the run's
// knock-outs. The experiments' results follow when given: "logit_lens": [L × [T × [k ×
// {"id", "token", "probability"}]]] (entry ℓ after block ℓ); "head_importance": [L × [H
// numbers]] (log p(target) with that head knocked out − intact) and "head_importance_target":
// {"id", "token", "position", "log_probability"} (the intact run's).
// "head_scores": {"positions": [first, end], "copy": N (0: no repeat), "previous_token":
// L × H, "duplicate_token": L × H or null, "induction": L × H or null}; "rollout": T × T.
struct ModelRunExtras {
    const std::vector<WordGroup>* words = nullptr;
    const LogitLens* logitLens = nullptr;
    const HeadImportance* headImportance = nullptr;
    const HeadScores* headScores = nullptr;
    const Matrix* rollout = nullptr;
    bool weights = true; // false: "layers" written empty (an experiment's numbers alone)
};
// Predictions as an array of {"id", "token" (readable), "piece", "probability", "logit"}, or
// with `brief` only id, token and probability (the logit lens's many).
void writePredictions(JsonWriter& w, const std::vector<Prediction>& predictions,
                      bool brief = false);

// The "model", "switches", "knocked_out" and "knock_out_mode" members above, into an open
// object (generate's JSON begins with them too).
void writeModelAndSwitches(JsonWriter& w, const ModelInfo& info, const ModelSwitches& switches);

[[nodiscard]] std::string modelRunJson(const ModelRun& run, int topK = 10,
                                       const ModelRunExtras& extras = {});

} // namespace attn
