#include "letgo.h"

#include <utility>

namespace attn::ui {

bool LetGo::beforeCompute(const Result& shown, bool blankText)
{
    restoring_ = false;
    if (blankText || !shown.hasWeights())
        return false; // nothing shown yet, or let go of already
    const double bytes =
        bytesOf(shown.weights->items()) + (shown.scores ? bytesOf(shown.scores->items()) : 0.0);
    if (bytes < threshold_)
        return false;
    letGoOf_ = shown.request;
    return true;
}

bool LetGo::resultCame()
{
    letGoOf_.reset();
    return std::exchange(restoring_, false);
}

std::optional<Request> LetGo::refused()
{
    if (letGoOf_ && !std::exchange(restoring_, true))
        return letGoOf_;
    return std::nullopt;
}

} // namespace attn::ui
