// The bytes of a figure file, PNG, SVG or PDF, from one painting: every figure (a head's
// or the grid's, Compare's, Step by step's and the d_k sweep's) is a FigureDocument,
// rasterised by renderDocument() and encoded by one encoder per format.
#pragma once

#include <QByteArray>
#include <QImage>
#include <QSize>
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
    // The cells it draws one by one in a vector file (vectorFigureBytes refuses too many).
    qint64 cells = 0;
};

// Largest PNG side.
inline constexpr int kMaxFigurePixels = 32768;

// The document's size in its own units: points, or a widget's screen pixels.
[[nodiscard]] QSize documentUnits(const FigureDocument& document);

// `document` painted on white into an image of `pixelsPerUnit` pixels per unit (its
// device-pixel ratio), its dots per metre set so that a saved PNG carries its DPI. Null
// when a side would be beyond kMaxFigurePixels.
[[nodiscard]] QImage renderDocument(const FigureDocument& document, double pixelsPerUnit);

// `image`, already painted, as PNG with the document's title and description.
[[nodiscard]] std::optional<QByteArray> encodePng(QImage image, const FigureDocument& document,
                                                  QString* error);
// One SVG unit per point; <title> and <desc> escaped; a style sheet names the families.
[[nodiscard]] std::optional<QByteArray> encodeSvg(const FigureDocument& document, QString* error);
// One page exactly the document's size, no margins.
[[nodiscard]] std::optional<QByteArray> encodePdf(const FigureDocument& document, QString* error);

} // namespace attn::ui
