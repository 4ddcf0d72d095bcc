#include "lab/controlscales.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace attn {

float temperatureAtPosition(int position)
{
    position = std::clamp(position, 0, kTemperatureSteps);
    // The ends and the middle exactly, whatever pow() rounds to.
    if (position == 0)
        return kSliderMinTemperature;
    if (position == kTemperatureSteps)
        return kSliderMaxTemperature;
    if (2 * position == kTemperatureSteps)
        return 1.0f;
    const double range = double{kSliderMaxTemperature} / double{kSliderMinTemperature};
    return static_cast<float>(kSliderMinTemperature *
                              std::pow(range, double(position) / kTemperatureSteps));
}

int positionOfTemperature(float temperature)
{
    if (!(temperature > kSliderMinTemperature)) // NaN too
        return 0;
    const double range = double{kSliderMaxTemperature} / double{kSliderMinTemperature};
    const double position =
        kTemperatureSteps * std::log(temperature / double{kSliderMinTemperature}) / std::log(range);
    return std::clamp(static_cast<int>(std::lround(position)), 0, kTemperatureSteps);
}

std::vector<int> headCounts(int dModel)
{
    std::vector<int> divisors;
    for (int heads = 1; heads <= dModel; ++heads)
        if (dModel % heads == 0)
            divisors.push_back(heads);
    return divisors;
}

int nearestHeadCount(int dModel, int heads)
{
    int nearest = 1;
    for (int divisor : headCounts(dModel))
        if (std::abs(divisor - heads) < std::abs(nearest - heads))
            nearest = divisor;
    return nearest;
}

} // namespace attn
