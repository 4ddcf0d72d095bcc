#include "models/knockout.h"

#include "engine/options.h"

#include <algorithm>
#include <charconv>

namespace attn {

namespace {

// A layer or head number: digits only, below `limit`.
int parseIndex(std::string_view text, int limit, std::string_view entry, const char* what)
{
    int value = -1;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() || value < 0)
        throw InputError("knock-out '" + std::string(entry) + "': the " + what +
                         " must be a number from 0");
    if (value >= limit)
        throw InputError("knock-out '" + std::string(entry) + "': the model has " +
                         std::to_string(limit) + " " + what + "s (0 … " +
                         std::to_string(limit - 1) + ")");
    return value;
}

} // namespace

std::vector<HeadIndex> parseKnockOuts(std::string_view text, int layers, int heads)
{
    std::vector<HeadIndex> knocked;
    if (text.empty())
        throw InputError("knock-out: name heads as L.H or L.* (every head of layer L), "
                         "comma-separated");
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string_view entry = text.substr(start, comma - start);
        const std::size_t dot = entry.find('.');
        if (dot == std::string_view::npos)
            throw InputError("knock-out '" + std::string(entry) +
                             "': name a head as L.H, or a whole layer as L.*");
        const int layer = parseIndex(entry.substr(0, dot), layers, entry, "layer");
        const std::string_view head = entry.substr(dot + 1);
        if (head == "*") {
            for (int h = 0; h < heads; ++h)
                knocked.push_back({layer, h});
        } else {
            knocked.push_back({layer, parseIndex(head, heads, entry, "head")});
        }
        start = comma + 1;
    }
    std::sort(knocked.begin(), knocked.end());
    knocked.erase(std::unique(knocked.begin(), knocked.end()), knocked.end());
    return knocked;
}

KnockOutMode parseKnockOutMode(std::string_view text)
{
    if (text == "zero")
        return KnockOutMode::Zero;
    if (text == "mean")
        return KnockOutMode::Mean;
    throw InputError("knock-out-mode must be zero|mean, not '" + std::string(text) + "'");
}

std::string_view spellingOf(KnockOutMode mode)
{
    return mode == KnockOutMode::Mean ? "mean" : "zero";
}

std::string headName(const HeadIndex& head)
{
    return std::to_string(head.layer) + "." + std::to_string(head.head);
}

std::string knockOutList(const std::vector<HeadIndex>& knocked, int heads)
{
    std::string list;
    for (std::size_t i = 0; i < knocked.size();) {
        if (!list.empty())
            list += ',';
        const int layer = knocked[i].layer;
        std::size_t end = i;
        while (end < knocked.size() && knocked[end].layer == layer)
            ++end;
        if (int(end - i) == heads) { // sorted and unique: every head of the layer
            list += std::to_string(layer) + ".*";
            i = end;
        } else {
            list += headName(knocked[i++]);
        }
    }
    return list;
}

void checkKnockOuts(const std::vector<HeadIndex>& heads, const ModelInfo& info)
{
    for (std::size_t i = 0; i < heads.size(); ++i) {
        const HeadIndex& head = heads[i];
        if (head.layer < 0 || head.layer >= info.layers || head.head < 0 || head.head >= info.heads)
            throw InputError("knock-out " + headName(head) + ": the model has " +
                             std::to_string(info.layers) + " layers of " +
                             std::to_string(info.heads) + " heads");
        if (i > 0 && !(heads[i - 1] < head))
            throw InputError("knock-out " + headName(head) + ": named twice or out of order");
    }
}

void knockOutHeads(const ModelSwitches& switches, int layer, int heads, Matrix& headOutputs)
{
    const Eigen::Index dK = headOutputs.cols() / heads;
    const auto first = std::lower_bound(switches.knockedOut.begin(), switches.knockedOut.end(),
                                        HeadIndex{layer, 0});
    for (auto it = first; it != switches.knockedOut.end() && it->layer == layer; ++it) {
        auto columns = headOutputs.middleCols(it->head * dK, dK);
        if (switches.knockOut == KnockOutMode::Zero) {
            columns.setZero();
        } else {
            const Eigen::RowVectorXf mean = columns.colwise().mean();
            columns.rowwise() = mean;
        }
    }
}

} // namespace attn
