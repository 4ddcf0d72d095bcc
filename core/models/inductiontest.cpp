#include "models/inductiontest.h"

#include "engine/options.h"
#include "text/wordgroups.h"

#include <algorithm>
#include <random>
#include <string>

namespace attn {

std::pair<int, int> textPositions(const LanguageModel& model, const std::vector<int>& ids)
{
    const std::vector<int>& frame = model.templateIds();
    int first = 0, end = int(ids.size());
    if (!frame.empty() && !ids.empty() && ids.front() == frame.front())
        first = 1;
    if (frame.size() >= 2 && end > first && ids.back() == frame.back())
        --end;
    return {first, end};
}

std::vector<int> inductionIds(const LanguageModel& model, int N, std::uint32_t seed)
{
    const std::vector<int>& frame = model.templateIds();
    const int extra = int(std::min<std::size_t>(frame.size(), 2));
    if (N < 2 || 2 * N + extra > model.info().maxPositions)
        throw InputError("the induction test needs 2 to " +
                         std::to_string((model.info().maxPositions - extra) / 2) +
                         " tokens a copy, not " + std::to_string(N));
    const ModelTokenizer* tokenizer = model.tokenizer();
    const auto ordinary = [&](int id) {
        if (std::find(frame.begin(), frame.end(), id) != frame.end())
            return false;
        return !tokenizer || tokenizer->token(id) != tokenizer->bytes(id) ||
               !readsAsSpecial(tokenizer->bytes(id));
    };
    std::mt19937 generator(seed);
    const auto V = std::uint32_t(model.info().vocabulary);
    std::vector<int> copy;
    while (int(copy.size()) < N) {
        const int id = int(generator() % V);
        if (ordinary(id))
            copy.push_back(id);
    }
    std::vector<int> ids;
    if (!frame.empty())
        ids.push_back(frame.front());
    ids.insert(ids.end(), copy.begin(), copy.end());
    ids.insert(ids.end(), copy.begin(), copy.end());
    if (frame.size() >= 2)
        ids.push_back(frame.back());
    return ids;
}

} // namespace attn
