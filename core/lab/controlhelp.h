// What each control of the window's left panel does, in the words of its tooltip and
// status tip: English templates marked for translation (context "ControlHelp"), which
// the window translates, as core/engine/warnings does for the warnings.
#pragma once

namespace attn {

enum class ControlHelp {
    Sentence,
    Tokenizer,
    DModel,
    DModelPreset, // %1: the width the button sets
    Heads,
    Dk,
    Seed,
    Embedding,
    Positional,
    HeadSplit,
    Scale,
    Temperature,
    TemperatureReset,
    Causal,
    Padding,
    MaskFill,
    MaskStage,
    Axis,
    // Today's models:
    KvHeads,
    QkNorm,
    RopeTheta,
    Alibi,
    Softcap,
    Window,
    Sink,
    SinkNeedsKeys, // why the sink is off while the softmax runs over another axis
};

// The English text of `control`'s help.
[[nodiscard]] const char* controlHelp(ControlHelp control);

} // namespace attn
