// The memory "let go" protocol. Before a compute, the window lets go of the shown
// result's (B, H, T, T) tensors when they take kLetGoBytes or more, so that the engine
// writes the new S and P into their memory instead of beside them; the views keep a
// picture until the new result comes. Should the new request be refused, the engine
// still has the result let go of, and it is asked for again, once.
#pragma once

#include "engine/engine.h"

#include <optional>

namespace attn::ui {

// From how many bytes of S and P on screen the window lets go of them.
inline constexpr double kLetGoBytes = 128.0 * 1024 * 1024;

class LetGo {
public:
    // Tests lower it.
    void setThreshold(double bytes) { threshold_ = bytes; }

    // A new request goes to the engine: true when the window is to let go of `shown`
    // (what the heatmaps show), which is remembered. Never for a blank text, which the
    // engine refuses.
    [[nodiscard]] bool beforeCompute(const Result& shown, bool blankText);
    // A result came: true when it is the one let go of, asked for again after a refusal
    // (the refusal of the newer request then stays).
    [[nodiscard]] bool resultCame();
    // The newest request was refused: the request of the result let go of, to ask for
    // again, once (should that compute fail too, the pictures stay with the message).
    [[nodiscard]] std::optional<Request> refused();

private:
    double threshold_ = kLetGoBytes;
    // The request of the result let go of, until a result comes.
    std::optional<Request> letGoOf_;
    bool restoring_ = false; // the result coming is that one, after a refusal
};

} // namespace attn::ui
