#include "models/modeljson.h"

#include "base/json.h"
#include "formats/report.h"
#include "models/knockout.h"
#include "models/runwords.h"

namespace attn {

void writePredictions(JsonWriter& w, const std::vector<Prediction>& predictions, bool brief)
{
    w.beginArray();
    for (const Prediction& p : predictions) {
        w.beginObject();
        w.key("id");
        w.value(p.id);
        w.key("token");
        w.value(p.label);
        if (!brief) {
            w.key("piece");
            w.value(p.token);
        }
        w.key("probability");
        w.value(p.probability);
        if (!brief) {
            w.key("logit");
            w.value(p.logit);
        }
        w.endObject();
    }
    w.endArray();
}

void writeModelAndSwitches(JsonWriter& w, const ModelInfo& info, const ModelSwitches& switches)
{
    w.key("model");
    w.beginObject();
    w.key("family");
    w.value(info.family);
    w.key("name");
    w.value(info.name);
    w.key("layers");
    w.value(info.layers);
    w.key("heads");
    w.value(info.heads);
    w.key("d_model");
    w.value(info.dModel);
    w.key("head_dim");
    w.value(info.headDim);
    if (info.rotary) {
        // Grouped-query attention: each query head's K/V head.
        w.key("key_value_heads");
        w.value(info.kvHeads);
        w.key("key_value_head_of");
        w.beginArray();
        for (int h = 0; h < info.heads; ++h)
            w.value(info.kvHeadOf(h));
        w.endArray();
    }
    w.key("vocabulary");
    w.value(info.vocabulary);
    w.key("weight_type");
    w.value(info.weightType);
    w.endObject();
    // The switches keyed and spelled as compute's "config" and the command line spell them.
    w.key("switches");
    beginConfigObject(w, switches.formula, kModelSwitchFields);
    w.key("only-layer");
    w.value(switches.onlyLayer);
    if (info.rotary) {
        w.key("rope");
        w.value(switches.rope ? "on" : "off");
    }
    w.endObject();
    // The heads knocked out, [layer, head] each, and what their outputs became.
    w.key("knocked_out");
    w.beginArray();
    for (const HeadIndex& head : switches.knockedOut) {
        w.beginArray();
        w.value(head.layer);
        w.value(head.head);
        w.endArray();
    }
    w.endArray();
    w.key("knock_out_mode");
    w.value(spellingOf(switches.knockOut));
}

std::string modelRunJson(const ModelRun& run, int topK, const ModelRunExtras& extras)
{
    const std::vector<WordGroup>* words = extras.words;
    JsonWriter w;
    const ModelInfo& info = run.model->info();
    const auto byWord = words ? runWordAttention(run, *words) : nullptr;
    const AttentionStack& stack = byWord ? *byWord : *run.attention;
    const StackShape& shape = stack.shape();
    w.beginObject();
    // 1. The model and the switches.
    writeModelAndSwitches(w, info, run.switches);
    // 2. The tokens.
    w.key("token_ids");
    w.beginArray();
    for (int id : run.ids)
        w.value(id);
    w.endArray();
    w.key("tokens");
    w.beginArray();
    for (const TokenLabel& label : run.labels)
        w.value(label.label);
    w.endArray();
    w.key("pieces");
    w.beginArray();
    for (const TokenLabel& label : run.labels)
        w.value(label.piece);
    w.endArray();
    if (words) {
        w.key("words");
        w.beginArray();
        for (const WordGroup& word : *words) {
            w.beginObject();
            w.key("text");
            w.value(word.text);
            w.key("tokens");
            w.beginArray();
            for (const int t : word.tokens)
                w.value(t);
            w.endArray();
            w.endObject();
        }
        w.endArray();
    }
    // 3. Every layer's heads, (T, T) each, or (W, W) by word; none without `weights`.
    w.key("layers");
    w.beginArray();
    for (int l = 0; l < (extras.weights ? shape.layers : 0); ++l) {
        w.beginObject();
        w.key("heads");
        w.beginArray();
        for (int h = 0; h < shape.heads; ++h) {
            const Matrix p = stack.head(l, 0, h);
            w.beginObject();
            w.key("weights");
            w.beginArray();
            for (Eigen::Index i = 0; i < p.rows(); ++i) {
                w.beginArray();
                for (Eigen::Index j = 0; j < p.cols(); ++j)
                    w.value(p(i, j));
                w.endArray();
            }
            w.endArray();
            w.endObject();
        }
        w.endArray();
        w.endObject();
    }
    w.endArray();
    // 4. What the model predicts: after the text (a decoder), or at each [MASK] (BERT).
    if (info.causal) {
        w.key("next_tokens");
        writePredictions(w, run.predictions(int(run.ids.size()) - 1, topK));
    } else {
        w.key("masked_predictions");
        w.beginArray();
        for (const int position : run.maskedPositions()) {
            w.beginObject();
            w.key("position");
            w.value(position);
            w.key("predictions");
            writePredictions(w, run.predictions(position, topK));
            w.endObject();
        }
        w.endArray();
    }
    // 5. The experiments.
    // L × H numbers, or null for none.
    const auto writeGrid = [&w](const std::vector<std::vector<double>>& grid) {
        if (grid.empty()) {
            w.null();
            return;
        }
        w.beginArray();
        for (const std::vector<double>& row : grid) {
            w.beginArray();
            for (const double value : row)
                w.value(value);
            w.endArray();
        }
        w.endArray();
    };
    if (extras.logitLens) {
        w.key("logit_lens");
        w.beginArray();
        for (const auto& layer : *extras.logitLens) {
            w.beginArray();
            for (const std::vector<Prediction>& position : layer)
                writePredictions(w, position, true);
            w.endArray();
        }
        w.endArray();
    }
    if (const HeadImportance* scan = extras.headImportance) {
        w.key("head_importance");
        writeGrid(scan->change);
        w.key("head_importance_target");
        w.beginObject();
        w.key("id");
        w.value(scan->target);
        w.key("token");
        w.value(run.model->tokenLabel(scan->target));
        w.key("position");
        w.value(scan->position);
        w.key("log_probability");
        w.value(scan->intact);
        w.endObject();
    }
    if (const HeadScores* scores = extras.headScores) {
        w.key("head_scores");
        w.beginObject();
        w.key("positions");
        w.beginArray();
        w.value(scores->first);
        w.value(scores->end);
        w.endArray();
        w.key("copy");
        w.value(scores->copy);
        w.key("previous_token");
        writeGrid(scores->previousToken);
        w.key("duplicate_token");
        writeGrid(scores->duplicateToken);
        w.key("induction");
        writeGrid(scores->induction);
        w.endObject();
    }
    if (extras.rollout) {
        w.key("rollout");
        w.beginArray();
        for (Eigen::Index i = 0; i < extras.rollout->rows(); ++i) {
            w.beginArray();
            for (Eigen::Index j = 0; j < extras.rollout->cols(); ++j)
                w.value((*extras.rollout)(i, j));
            w.endArray();
        }
        w.endArray();
    }
    w.endObject();
    return w.take() + "\n";
}

} // namespace attn
