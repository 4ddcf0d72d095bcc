// The bytes of a figure file, PNG, SVG or PDF, from one painting: what the heatmap
// figures (figurefile.cpp) and the d_k sweep's figure (sweepfigure.cpp) share.
#pragma once

#include <QByteArray>
#include <QImage>
#include <QSizeF>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

class QPainter;
class QRectF;

namespace attn::ui {

struct FigureDocument {
    QSizeF size; // in points
    QString title;
    QString description;
    // The families an SVG viewer should try, the measured one first; sans-serif last.
    QStringList svgFamilies;
    // Paints the figure into `target` (the document's size, in the device's units).
    std::function<void(QPainter& painter, const QRectF& target)> paint;
    // The vector files' units per inch: 72, a unit a point, for figures laid out in
    // points; a screen's 96 for a widget painted as it paints itself, whose fonts are
    // then resolved as on that screen.
    int vectorResolution = 72;
};

// `image`, already painted, as PNG with the document's title and description.
[[nodiscard]] std::optional<QByteArray> encodePng(QImage image, const FigureDocument& document,
                                                  QString* error);
// One SVG unit per point; <title> and <desc> escaped; a style sheet names the families.
[[nodiscard]] std::optional<QByteArray> encodeSvg(const FigureDocument& document, QString* error);
// One page exactly the document's size, no margins.
[[nodiscard]] std::optional<QByteArray> encodePdf(const FigureDocument& document, QString* error);

} // namespace attn::ui
