#include "sweep.h"

#include "json.h"
#include "report.h"

#include <algorithm>
#include <bit>
#include <cstdio>

namespace attn {
namespace {

bool isPowerOfTwo(int n)
{
    return n > 0 && std::has_single_bit(static_cast<unsigned>(n));
}

SweepPoint pointOf(const Result& result, bool scaled)
{
    const Statistics& s = *result.stats;
    return {result.dK(),      scaled,       s.stdScores,        s.stdLogits,     s.meanEntropy,
            s.meanEntropyMax, s.meanRowMax, s.meanJacobianNorm, s.saturatedShare};
}

// The two points of one d_k, when both are there: (scaled, unscaled).
std::pair<const SweepPoint*, const SweepPoint*> pairAt(const std::vector<SweepPoint>& points,
                                                       int dK)
{
    const SweepPoint* scaled = nullptr;
    const SweepPoint* unscaled = nullptr;
    for (const SweepPoint& p : points)
        if (p.dK == dK)
            (p.scaled ? scaled : unscaled) = &p;
    return {scaled, unscaled};
}

} // namespace

std::vector<int> sweepDkValues(int from, int to)
{
    std::vector<int> values;
    if (!sweepRangeProblem(from, to).empty())
        return values;
    for (int dK = from; dK <= to; dK *= 2)
        values.push_back(dK);
    return values;
}

std::string sweepRangeProblem(int from, int to)
{
    const std::string max = std::to_string(kMaxSweepDk);
    if (from < 1 || from > kMaxSweepDk)
        return "--from must be between 1 and " + max + ", not " + std::to_string(from);
    // Rounding would compute other points than asked for: d_k doubles from `from`, so the
    // log-scale chart needs a power of two to start at.
    if (!isPowerOfTwo(from))
        return "--from must be a power of two (1, 2, 4, … " + max + "), not " +
               std::to_string(from);
    if (to < 1 || to > kMaxSweepDk)
        return "--to must be between 1 and " + max + ", not " + std::to_string(to);
    if (to < from)
        return "--to (" + std::to_string(to) + ") must not be less than --from (" +
               std::to_string(from) + ")";
    return {};
}

Request sweepRequest(const Request& base, int dK, bool scaled)
{
    Request request = base;
    request.config.heads = 1;
    request.config.dModel = dK;
    request.config.scale = scaled ? ScaleMode::SqrtDk : ScaleMode::None;
    // Hand-set vectors have the base's C values; at another d_model they do not fit.
    if (dK != base.config.dModel)
        request.embeddingOverrides.clear();
    return request;
}

std::vector<SweepPoint> sweepDk(const Request& base, int from, int to,
                                const std::atomic<bool>* cancel, const SweepProgress& progress)
{
    if (const std::string problem = sweepRangeProblem(from, to); !problem.empty())
        throw InputError(problem);
    const std::vector<int> values = sweepDkValues(from, to);
    const int total = 2 * static_cast<int>(values.size());

    // One engine for all: between the scaled and the unscaled point of a d_k only the
    // scaling changes, so the second recomputes from stage 6 and shares S.
    AttentionEngine engine;
    std::vector<SweepPoint> points;
    points.reserve(static_cast<std::size_t>(total));
    for (const int dK : values) {
        for (const bool scaled : {true, false}) {
            const Result result = engine.compute(sweepRequest(base, dK, scaled), cancel);
            points.push_back(pointOf(result, scaled));
            if (progress)
                progress(static_cast<int>(points.size()), total);
        }
    }
    return points;
}

std::string sweepJson(const std::vector<SweepPoint>& points, const Request& base)
{
    JsonWriter json;
    json.beginObject();
    json.key("text");
    json.value(base.text);
    json.key("config");
    Config shared = base.config;
    shared.heads = 1;
    writeConfig(json, shared);
    json.key("varies");
    json.beginArray();
    json.value("d-model");
    json.value("scale");
    json.endArray();

    json.key("points");
    json.beginArray();
    for (const SweepPoint& p : points) {
        json.beginObject();
        json.key("d_k");
        json.value(p.dK);
        json.key("scaled");
        json.value(p.scaled);
        for (const auto& [name, number] : {std::pair{"std_scores", p.stdScores},
                                           {"std_scaled", p.stdLogits},
                                           {"mean_entropy", p.meanEntropy},
                                           {"mean_entropy_max", p.meanEntropyMax},
                                           {"mean_row_max", p.meanRowMax},
                                           {"jacobian_norm", p.meanJacobianNorm},
                                           {"saturated_share", p.saturatedShare}}) {
            json.key(name);
            json.value(number);
        }
        json.endObject();
    }
    json.endArray();
    json.endObject();
    std::string text = json.take();
    text += '\n';
    return text;
}

std::string sweepText(const std::vector<SweepPoint>& points)
{
    std::string out =
        "The same text at each d_k (H = 1, d_model = d_k), without and with the 1/√d_k scaling.\n"
        "         std of the logits   row entropy (bits)    largest weight     Jacobian norm  "
        "   saturated rows\n"
        "  d_k    unscaled  scaled    unscaled  scaled    unscaled  scaled   unscaled  scaled "
        "  unscaled  scaled\n";
    std::vector<int> seen;
    double entropyMax = 0;
    char line[256];
    for (const SweepPoint& p : points) {
        if (std::ranges::find(seen, p.dK) != seen.end())
            continue;
        seen.push_back(p.dK);
        const auto [scaled, unscaled] = pairAt(points, p.dK);
        if (!scaled || !unscaled)
            continue;
        entropyMax = scaled->meanEntropyMax;
        std::snprintf(
            line, sizeof line,
            "%5d  %10.4f %7.4f  %10.3f %7.3f  %10.3f %7.3f  %9.3f %7.3f  %8.0f%% %6.0f%%\n", p.dK,
            unscaled->stdLogits, scaled->stdLogits, unscaled->meanEntropy, scaled->meanEntropy,
            unscaled->meanRowMax, scaled->meanRowMax, unscaled->meanJacobianNorm,
            scaled->meanJacobianNorm, 100 * unscaled->saturatedShare, 100 * scaled->saturatedShare);
        out += line;
    }
    std::snprintf(line, sizeof line,
                  "A uniform row has %.3f bits; a saturated row puts ≥ %.2f on one key.\n",
                  entropyMax, static_cast<double>(kSaturatedRowMax));
    out += line;
    return out;
}

} // namespace attn
