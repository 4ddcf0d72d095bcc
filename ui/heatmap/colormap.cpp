#include "colormap.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <string_view>

namespace attn::ui {
namespace {

// kViridis, kMagma, kInferno, kCividis, kGrey, kDiverging: generated data, kept
// beside its generator with the other resources.
#include "../../resources/colormaps/colormaps.inc"

struct ColormapRow {
    ColormapName name;
    std::string_view spelling;
    const char* displayName;
    const std::array<QRgb, Colormap::size>& lut;
};

// The one table: name, spelling, translatable display name, data.
const std::array<ColormapRow, 6> colormapTable{{
    {ColormapName::Viridis, "viridis", QT_TRANSLATE_NOOP("Colormap", "Viridis"), kViridis},
    {ColormapName::Magma, "magma", QT_TRANSLATE_NOOP("Colormap", "Magma"), kMagma},
    {ColormapName::Inferno, "inferno", QT_TRANSLATE_NOOP("Colormap", "Inferno"), kInferno},
    {ColormapName::Cividis, "cividis", QT_TRANSLATE_NOOP("Colormap", "Cividis"), kCividis},
    {ColormapName::Grey, "grey", QT_TRANSLATE_NOOP("Colormap", "Grey"), kGrey},
    {ColormapName::Diverging, "diverging",
     QT_TRANSLATE_NOOP("Colormap", "Diverging (blue–white–red)"), kDiverging},
}};

const ColormapRow& rowFor(ColormapName name)
{
    const auto it = std::ranges::find(colormapTable, name, &ColormapRow::name);
    Q_ASSERT(it != colormapTable.end());
    return *it;
}

} // namespace

Colormap::Colormap(ColormapName name) : name_(name), lut_(rowFor(name).lut) {}

QRgb Colormap::color(double t) const
{
    Q_ASSERT(!std::isnan(t));
    const double index = std::floor(std::clamp(t, 0.0, 1.0) * size);
    return entry(std::min(static_cast<int>(index), size - 1));
}

const std::array<ColormapName, 6>& Colormap::names()
{
    static const std::array<ColormapName, 6> all = [] {
        std::array<ColormapName, 6> result{};
        std::ranges::transform(colormapTable, result.begin(), &ColormapRow::name);
        return result;
    }();
    return all;
}

QString Colormap::spelling(ColormapName name)
{
    const std::string_view text = rowFor(name).spelling;
    return QString::fromLatin1(text.data(), static_cast<qsizetype>(text.size()));
}

std::optional<ColormapName> Colormap::fromSpelling(QStringView text)
{
    for (const auto& row : colormapTable) {
        const auto spelling =
            QLatin1StringView(row.spelling.data(), static_cast<qsizetype>(row.spelling.size()));
        if (text.compare(spelling, Qt::CaseInsensitive) == 0)
            return row.name;
    }
    return std::nullopt;
}

QString Colormap::displayName(ColormapName name)
{
    return QCoreApplication::translate("Colormap", rowFor(name).displayName);
}

double Colormap::relativeLuminance(QRgb color)
{
    // sRGB channel to linear light, as WCAG 2 defines it.
    const auto linear = [](int channel) {
        const double c = channel / 255.0;
        return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * linear(qRed(color)) + 0.7152 * linear(qGreen(color)) +
           0.0722 * linear(qBlue(color));
}

bool Colormap::contrastIsDark(QRgb background)
{
    // Compare the WCAG contrast ratios of black and of white text on this background.
    const double luminance = relativeLuminance(background);
    return (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05);
}

} // namespace attn::ui
