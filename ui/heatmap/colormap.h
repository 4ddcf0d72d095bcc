// The colour scales a heatmap can use, and the one place that names them.
#pragma once

#include <QRgb>
#include <QString>
#include <QStringView>

#include <array>
#include <optional>
#include <span>

namespace attn::ui {

enum class ColormapName { Viridis, Magma, Inferno, Cividis, Grey, Diverging };

// A 256-entry lookup table from matplotlib (see resources/colormaps/gen_colormaps.py).
// Cheap to copy: it refers to a static table.
class Colormap {
public:
    static constexpr int size = 256;

    explicit Colormap(ColormapName name = ColormapName::Viridis);

    [[nodiscard]] ColormapName name() const { return name_; }

    // The colour of t in [0, 1] (clamped), binned as matplotlib bins it:
    // entry floor(t · 256), with t = 1 in the last entry. t must not be NaN.
    [[nodiscard]] QRgb color(double t) const;
    [[nodiscard]] QRgb entry(int index) const { return lut_[static_cast<std::size_t>(index)]; }
    [[nodiscard]] std::span<const QRgb, size> entries() const { return lut_; }

    // Every name, in the order the UI lists them.
    [[nodiscard]] static const std::array<ColormapName, 6>& names();
    // The spelling used by the command line, the JSON and the settings, e.g. "viridis".
    [[nodiscard]] static QString spelling(ColormapName name);
    // The name spelled `text` (in any case), or nothing.
    [[nodiscard]] static std::optional<ColormapName> fromSpelling(QStringView text);
    // The translated name for menus and combo boxes.
    [[nodiscard]] static QString displayName(ColormapName name);

    // WCAG relative luminance of an sRGB colour, 0 (black) to 1 (white).
    [[nodiscard]] static double relativeLuminance(QRgb color);
    // True when black text contrasts more with `background` than white text does.
    [[nodiscard]] static bool contrastIsDark(QRgb background);

private:
    ColormapName name_;
    std::span<const QRgb, size> lut_;
};

} // namespace attn::ui
