// Text helpers the heatmap's layout and its painting share (not part of the ui API).
#pragma once

#include <QFont>
#include <QFontMetricsF>
#include <QHash>
#include <QPaintDevice>
#include <QString>

class QMutex;

#include <numbers>

namespace attn::ui::detail {

inline constexpr double sqrt2 = std::numbers::sqrt2;

// The axis titles, "query ↓" and "key →", translated.
[[nodiscard]] QString rowAxisTitle();
[[nodiscard]] QString columnAxisTitle();
// A colorbar tick as printed, e.g. "0.5".
[[nodiscard]] QString tickText(double value);
// The metrics of `font` on `device`, or on the screen without one.
[[nodiscard]] QFontMetricsF fontMetrics(const QFont& font, const QPaintDevice* device);

// The widths of token labels in one font on one kind of device, remembered: every head of
// a sentence has the same labels, and a switch of the formula lays every heatmap out again
// (shaping 2 × 512 labels for each of 13 heatmaps took longer than computing them).
class LabelWidths {
public:
    LabelWidths(const QFont& font, const QPaintDevice* device);
    [[nodiscard]] double operator()(const QString& text);
    // The font's and device's key: equal keys measure alike.
    [[nodiscard]] const QString& key() const { return key_; }

private:
    static QMutex& mutex();

    QFontMetricsF metrics_;
    QString key_;
    QHash<QString, double>* widths_ = nullptr;
};

} // namespace attn::ui::detail
