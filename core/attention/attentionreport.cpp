#include "attention/attentionreport.h"

#include "attention/headpatterns.h"
#include "base/json.h"
#include "base/parallel.h"
#include "engine/options.h"
#include "engine/statistics.h"
#include "formats/reportjson.h"

#include <cmath>
#include <cstdio>

namespace attn {
namespace {

void writeTokens(JsonWriter& json, const char* key, const std::vector<std::string>& tokens)
{
    json.key(key);
    json.beginArray();
    for (const std::string& token : tokens)
        json.value(token);
    json.endArray();
}

void writePatterns(JsonWriter& json, const HeadPatterns& p)
{
    json.beginObject();
    json.key("previous");
    json.value(p.previous);
    json.key("self");
    json.value(p.self);
    json.key("first");
    json.value(p.first);
    json.key("entropy");
    json.value(p.entropy);
    json.key("entropy_max");
    json.value(p.entropyMax);
    json.key("role");
    json.value(headRoleSpelling(headRole(p)));
    json.key("queries");
    json.value(p.queries);
    json.endObject();
}

// {"file", "dtype", "shape", "sequence", "cross", "tokens", "key_tokens", "layers": [
// — the layers follow, then endStackJson().
void beginStackJson(JsonWriter& json, const AttentionStack& stack, int sequence)
{
    const StackShape& s = stack.shape();
    json.beginObject();
    json.key("file");
    json.value(stack.source());
    json.key("dtype");
    json.value(elementName(stack.storedType()));
    json.key("shape");
    json.beginObject();
    for (const auto& [name, n] : {std::pair{"layers", s.layers},
                                  {"sequences", s.sequences},
                                  {"heads", s.heads},
                                  {"queries", s.queries},
                                  {"keys", s.keys}}) {
        json.key(name);
        json.value(n);
    }
    json.endObject();
    json.key("sequence");
    json.value(sequence);
    json.key("cross");
    json.value(stack.isCross());
    if (!stack.queryTokens(sequence).empty())
        writeTokens(json, "tokens", stack.queryTokens(sequence));
    if (stack.isCross() && !stack.keyTokens(sequence).empty())
        writeTokens(json, "key_tokens", stack.keyTokens(sequence));
    json.key("layers");
    json.beginArray();
}

std::string endStackJson(JsonWriter& json)
{
    json.endArray();
    json.endObject();
    return json.take() + "\n";
}

// A head's "weights", "statistics" and "patterns", inside its object.
void writeHead(JsonWriter& json, const Matrix& m, const HeadStatistics& stats, bool cross)
{
    json.key("weights");
    writeMatrix(json, m);
    json.key("statistics");
    // A file's head has no scores and no mask: the figures of its weights alone.
    writeHeadStatistics(json, stats, StatisticsReport::File);
    json.key("patterns");
    writePatterns(json, headPatterns(m, cross));
}

} // namespace

HeadStatistics weightStatistics(const Matrix& weights)
{
    return headStatistics(Matrix(), 1.0f, 1.0f, weights, MaskMatrix());
}

void checkSequenceAndLayer(const AttentionStack& stack, int sequence, std::optional<int> layer,
                           std::optional<int> head)
{
    const StackShape& s = stack.shape();
    // "--layer 7: gpt2.npz has 1 layer, 0 to 0"
    const auto refuse = [&stack](const std::string& given, int count, const char* one,
                                 const char* many) {
        throw InputError(given + ": " + stack.source() + " has " + std::to_string(count) + " " +
                         (count == 1 ? one : many) + ", 0 to " + std::to_string(count - 1));
    };
    if (sequence < 0 || sequence >= s.sequences)
        refuse("--sequence " + std::to_string(sequence), s.sequences, "sequence", "sequences");
    if (layer && (*layer < 0 || *layer >= s.layers))
        refuse("--layer " + std::to_string(*layer), s.layers, "layer", "layers");
    if (head && (*head < 0 || *head >= s.heads))
        refuse("--what head:" + std::to_string(*head), s.heads, "head", "heads");
}

std::string attentionJson(const AttentionStack& stack, int sequence, std::optional<int> layer,
                          std::optional<int> head)
{
    checkSequenceAndLayer(stack, sequence, layer, head);
    const StackShape& s = stack.shape();
    JsonWriter json;
    beginStackJson(json, stack, sequence);
    const int firstLayer = layer.value_or(0);
    const int endLayer = layer ? *layer + 1 : s.layers;
    const int firstHead = head.value_or(0);
    const int heads = head ? 1 : s.heads;
    for (int l = firstLayer; l < endLayer; ++l) {
        // 1. The layer's heads converted and measured on every core, then written in order.
        std::vector<Matrix> weights(static_cast<std::size_t>(heads));
        std::vector<HeadStatistics> stats(static_cast<std::size_t>(heads));
        parallelFor(heads, [&](int k) {
            weights[std::size_t(k)] = stack.head(l, sequence, firstHead + k);
            stats[std::size_t(k)] = weightStatistics(weights[std::size_t(k)]);
        });
        json.beginObject();
        json.key("layer");
        json.value(l);
        json.key("heads");
        json.beginArray();
        for (int k = 0; k < heads; ++k) {
            json.beginObject();
            json.key("head");
            json.value(firstHead + k);
            writeHead(json, weights[std::size_t(k)], stats[std::size_t(k)], stack.isCross());
            json.endObject();
        }
        json.endArray();
        json.endObject();
    }
    return endStackJson(json);
}

std::string attentionMeanJson(const AttentionStack& stack, int sequence, int layer)
{
    checkSequenceAndLayer(stack, sequence, layer);
    const Matrix mean = meanHead(stack, layer, sequence);
    JsonWriter json;
    beginStackJson(json, stack, sequence);
    json.beginObject();
    json.key("layer");
    json.value(layer);
    json.key("heads");
    json.beginArray();
    json.beginObject();
    json.key("head");
    json.value("mean");
    writeHead(json, mean, weightStatistics(mean), stack.isCross());
    json.endObject();
    json.endArray();
    json.endObject();
    return endStackJson(json);
}

std::string attentionSummary(const AttentionStack& stack, int sequence, std::optional<int> layer)
{
    checkSequenceAndLayer(stack, sequence, layer);
    const StackShape& s = stack.shape();
    std::string out = stack.source() + ": " + elementName(stack.storedType()) + ", " +
                      std::to_string(s.layers) + " layers × " + std::to_string(s.sequences) +
                      " sequences × " + std::to_string(s.heads) + " heads × " +
                      std::to_string(s.queries) + " queries × " + std::to_string(s.keys) + " keys" +
                      (stack.isCross() ? " (cross-attention)" : "") + "\n";
    const auto tokenLine = [&out](const char* label, const std::vector<std::string>& tokens) {
        out += label;
        for (const std::string& t : tokens)
            out += " " + t;
        out += "\n";
    };
    if (!stack.queryTokens(sequence).empty())
        tokenLine("tokens:", stack.queryTokens(sequence));
    if (stack.isCross() && !stack.keyTokens(sequence).empty())
        tokenLine("key tokens:", stack.keyTokens(sequence));
    out += "sequence " + std::to_string(sequence) +
           "; head patterns (mean weight on the previous token, itself, the first token; "
           "mean row entropy in bits, over the queries after the first; what the head does "
           "most):\n";
    out += "layer  head  previous    self   first  entropy  role\n";
    const std::vector<HeadPatterns> all = stackPatterns(stack, sequence);
    for (int l = layer.value_or(0); l < (layer ? *layer + 1 : s.layers); ++l)
        for (int h = 0; h < s.heads; ++h) {
            const HeadPatterns& p = all[std::size_t(l * s.heads + h)];
            char line[128];
            std::snprintf(line, sizeof line, "%5d  %4d  %8.3f  %6.3f  %6.3f  %7.3f  %s\n", l, h,
                          p.previous, p.self, p.first, p.entropy, headRoleSpelling(headRole(p)));
            out += line;
        }
    return out;
}

} // namespace attn
