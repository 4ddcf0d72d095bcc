#include "lab/sweep.h"

#include "base/json.h"
#include "formats/report.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <utility>
#include <vector>

namespace attn {
namespace {

bool isPowerOfTwo(int n)
{
    return n > 0 && std::has_single_bit(static_cast<unsigned>(n));
}

SweepPoint pointOf(const Result& result, bool scaled)
{
    const Statistics& s = *result.stats;
    SweepPoint p{result.dK(),      scaled,       s.stdScores,        s.stdLogits,     s.meanEntropy,
                 s.meanEntropyMax, s.meanRowMax, s.meanJacobianNorm, s.saturatedShare};
    p.stdFinalLogits = s.stdFinalLogits;
    p.maxSinkWeight = s.maxSinkWeight;
    p.shifted = result.config().alibi || result.config().softcap > 0;
    return p;
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
    request.config.kvHeads = 0; // one head, one K/V head
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
    shared.kvHeads = 0;
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
                                           {"saturated_share", p.saturatedShare},
                                           {"std_final_logits", p.stdFinalLogits},
                                           {"max_sink_weight", p.maxSinkWeight}}) {
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

std::string sweepText(const std::vector<SweepPoint>& points, const SweepWords& words)
{
    // Five groups of two numbers (six with ALiBi or a cap), unscaled then scaled. Each number is
    // right-aligned in its field; a field widens for a heading that would not fit, a group for its
    // title.
    struct Group {
        const std::string* title;
        int unscaledWidth, scaledWidth, decimals;
        bool percent;
        double SweepPoint::*figure;
    };
    std::vector<Group> groups{{
        {&words.stdLogits, 10, 7, 4, false, &SweepPoint::stdLogits},
        {&words.entropy, 10, 7, 3, false, &SweepPoint::meanEntropy},
        {&words.rowMax, 10, 7, 3, false, &SweepPoint::meanRowMax},
        {&words.jacobian, 9, 7, 3, false, &SweepPoint::meanJacobianNorm},
        {&words.saturated, 9, 7, 0, true, &SweepPoint::saturatedShare},
    }};
    // With ALiBi or a cap, the std of L after them beside the std before.
    if (std::ranges::any_of(points, &SweepPoint::shifted))
        groups.insert(groups.begin() + 1,
                      {&words.stdFinal, 10, 7, 4, false, &SweepPoint::stdFinalLogits});
    constexpr int kGap = 2; // spaces before a group
    const int dKWidth = std::max(5, terminalColumns(words.dK) + 2);
    for (Group& g : groups) {
        g.unscaledWidth = std::max(g.unscaledWidth, terminalColumns(words.unscaled) + 1);
        g.scaledWidth = std::max(g.scaledWidth, terminalColumns(words.scaled) + 1);
        const int span = g.unscaledWidth + 1 + g.scaledWidth;
        g.unscaledWidth += std::max(0, terminalColumns(*g.title) - span);
    }
    auto padded = [](const std::string& text, int width) {
        return std::string(std::size_t(std::max(0, width - terminalColumns(text))), ' ') + text;
    };
    auto trimmed = [](std::string line) {
        line.erase(line.find_last_not_of(' ') + 1);
        return line + "\n";
    };

    std::string out = words.title + "\n";
    std::string titles(std::size_t(dKWidth), ' ');
    std::string headings = padded(words.dK, dKWidth);
    for (const Group& g : groups) {
        // The title centred over its group's two fields.
        const int span = g.unscaledWidth + 1 + g.scaledWidth;
        const int left = (span - terminalColumns(*g.title)) / 2;
        titles += std::string(std::size_t(kGap + left), ' ') + *g.title +
                  std::string(std::size_t(span - left - terminalColumns(*g.title)), ' ');
        headings += std::string(kGap, ' ') + padded(words.unscaled, g.unscaledWidth) + " " +
                    padded(words.scaled, g.scaledWidth);
    }
    out += trimmed(titles) + trimmed(headings);

    auto number = [](double value, int width, int decimals, bool percent) {
        char buffer[64];
        if (percent)
            std::snprintf(buffer, sizeof buffer, "%*.0f%%", width - 1, 100 * value);
        else
            std::snprintf(buffer, sizeof buffer, "%*.*f", width, decimals, value);
        return std::string(buffer);
    };
    std::vector<int> seen;
    double entropyMax = 0;
    for (const SweepPoint& p : points) {
        if (std::ranges::find(seen, p.dK) != seen.end())
            continue;
        seen.push_back(p.dK);
        const auto [scaled, unscaled] = pairAt(points, p.dK);
        if (!scaled || !unscaled)
            continue;
        entropyMax = scaled->meanEntropyMax;
        std::string line = padded(std::to_string(p.dK), dKWidth);
        for (const Group& g : groups)
            line += std::string(kGap, ' ') +
                    number(unscaled->*g.figure, g.unscaledWidth, g.decimals, g.percent) + " " +
                    number(scaled->*g.figure, g.scaledWidth, g.decimals, g.percent);
        out += line + "\n";
    }
    char bits[32], weight[32];
    std::snprintf(bits, sizeof bits, "%.3f", entropyMax);
    std::snprintf(weight, sizeof weight, "%.2f", static_cast<double>(kSaturatedRowMax));
    std::string footer = words.footer;
    for (const auto& [placeholder, value] :
         {std::pair<std::string, std::string>{"%1", bits}, {"%2", weight}})
        if (const auto at = footer.find(placeholder); at != std::string::npos)
            footer.replace(at, placeholder.size(), value);
    return out + footer + "\n";
}

} // namespace attn
