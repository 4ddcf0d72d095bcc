// libFuzzer target: `attnscope compute`'s command line, then the engine.
//
// The input is argv as /proc/self/cmdline holds it: words separated by NUL bytes. An
// empty word (two NULs in a row) ends a first command line and starts a second. Each
// one that parseComputeArguments accepts (else it must throw InputError) and that is
// small enough is computed as the window computes: on one engine, the second command
// line after the first (staged, through the heatmaps, then the statistics). The staged
// result must equal, bit for bit, what a fresh engine computes, and the reports the
// command line prints must be made without a crash — the JSON one must be JSON.
#include "engine/engine.h"
#include "formats/commandline.h"
#include "formats/exporters.h"
#include "formats/report.h"

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace {

// Larger inputs are parsed but not computed, so that one run stays fast.
constexpr int kMaxFuzzBatch = 4;
constexpr int kMaxFuzzTokens = 24;
constexpr int kMaxFuzzDModel = 128;

[[noreturn]] void broken(const char* promise)
{
    std::fprintf(stderr, "compute broke its promise: %s\n", promise);
    std::abort();
}

// The request of `words`, when they parse and describe a small computation.
std::optional<attn::Request> smallRequest(const std::vector<std::string>& words)
{
    attn::ComputeOptions options;
    try {
        options = attn::parseComputeArguments(words);
    } catch (const attn::InputError&) {
        return std::nullopt;
    }
    const attn::Request& request = options.request;
    if (!attn::validate(request.config).empty())
        broken("parseComputeArguments accepted an invalid configuration");
    if (request.config.dModel > kMaxFuzzDModel)
        return std::nullopt;
    try {
        const attn::TokenBatch tokens = attn::previewTokens(request.text, request.config.tokenizer);
        if (tokens.batch() > kMaxFuzzBatch || tokens.length() > kMaxFuzzTokens)
            return std::nullopt;
    } catch (const attn::InputError&) {
        return request; // compute() must throw InputError too
    }
    return request;
}

bool sameBits(const attn::Matrix& a, const attn::Matrix& b)
{
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<std::size_t>(a.size())) == 0;
}

bool sameBits(const std::vector<attn::Matrix>& a, const std::vector<attn::Matrix>& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t k = 0; k < a.size(); ++k)
        if (!sameBits(a[k], b[k]))
            return false;
    return true;
}

void compareResults(const attn::Result& staged, const attn::Result& fresh)
{
    if (!staged.valid() || !fresh.valid())
        broken("a complete compute left a stage empty");
    if (*staged.tokens != *fresh.tokens)
        broken("staged tokens differ from a fresh compute's");
    if (!sameBits(*staged.x, *fresh.x))
        broken("staged x differs from a fresh compute's");
    if (!sameBits(staged.scores->items(), fresh.scores->items()))
        broken("staged scores differ from a fresh compute's");
    if (!sameBits(staged.allLogits().items(), fresh.allLogits().items()))
        broken("staged logits differ from a fresh compute's");
    if (!sameBits(staged.weights->items(), fresh.weights->items()))
        broken("staged weights differ from a fresh compute's");
    if (!sameBits(staged.aggregation->output, fresh.aggregation->output))
        broken("staged output differs from a fresh compute's");
}

// What `attnscope compute` and `attnscope export` write from a result.
void writeReports(const attn::Result& result)
{
    (void)attn::textReport(result);
    const std::string json = attn::jsonReport(result);
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(
        QByteArray::fromRawData(json.data(), qsizetype(json.size())), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject()) {
        std::fprintf(stderr, "%s at byte %d\n", qPrintable(error.errorString()), error.offset);
        broken("jsonReport wrote something that is not a JSON object");
    }
    (void)attn::csvReport(result);
    (void)attn::npyWeights(result);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    // 1. Split into words, and the words into at most two command lines.
    std::vector<std::vector<std::string>> commandLines(1);
    std::string word;
    bool inWord = false;
    for (std::size_t k = 0; k <= size; ++k) {
        if (k < size && data[k] != 0) {
            word += static_cast<char>(data[k]);
            inWord = true;
            continue;
        }
        if (inWord)
            commandLines.back().push_back(std::move(word));
        else if (k < size && commandLines.size() < 2)
            commandLines.emplace_back();
        word.clear();
        inWord = false;
    }

    // 2. Compute each small one on one engine, the way the window does.
    attn::AttentionEngine staged;
    for (const auto& words : commandLines) {
        const std::optional<attn::Request> request = smallRequest(words);
        if (!request)
            continue;
        attn::Result result;
        try {
            (void)staged.compute(*request, nullptr, attn::Stage::Normalize);
            result = staged.compute(*request);
        } catch (const attn::InputError&) {
            continue;
        }
        attn::AttentionEngine fresh;
        compareResults(result, fresh.compute(*request));
        writeReports(result);
    }
    return 0;
}
