// The scales of the window's controls, as numbers: the temperature slider's logarithmic
// positions and the head counts d_model allows.
#pragma once

#include <vector>

namespace attn {

// The temperature slider is logarithmic: τ = 0.05 · 400^(position / kTemperatureSteps).
// Because 400 = 20², its middle position is exactly τ = 1.
inline constexpr int kTemperatureSteps = 1000;
inline constexpr float kSliderMinTemperature = 0.05f;
inline constexpr float kSliderMaxTemperature = 20.0f;

// τ at slider `position` (clamped to 0..kTemperatureSteps); the middle gives exactly 1.
[[nodiscard]] float temperatureAtPosition(int position);
// The slider position whose τ is nearest to `temperature` (clamped to the slider's ends).
[[nodiscard]] int positionOfTemperature(float temperature);

// The head counts d_model allows: its divisors, ascending.
[[nodiscard]] std::vector<int> headCounts(int dModel);
// `heads` when it divides d_model, else the nearest divisor (the smaller one on a tie,
// which keeps d_k larger).
[[nodiscard]] int nearestHeadCount(int dModel, int heads);

} // namespace attn
