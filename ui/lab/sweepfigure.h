// The figure of the d_k sweep for slides and handouts: a title, the four charts of
// SweepChart and a caption on a 16:10 page, as PNG, SVG or PDF. The charts are Qt Charts
// widgets, so this figure needs a QApplication and lives with the widgets.
#pragma once

#include "engine/engine.h"
#include "figureformat.h"
#include "lab/sweep.h"

#include <QByteArray>
#include <QSizeF>
#include <QString>

#include <optional>
#include <vector>

class QPainter;
class QRectF;

namespace attn::ui {

// The figure's size in points (a 16:10 slide); a PNG has kSweepFigureScale pixels per point.
inline constexpr QSizeF kSweepFigureSize(1120, 700);
inline constexpr double kSweepFigureScale = 2;

// One line naming what every point shares: the text (shortened), H = 1 and d_model = d_k,
// the seed and the switches that are not the default, translated.
[[nodiscard]] QString sweepCaption(const Request& base);

// Paints the figure (a title, the four charts, `caption`) on a white background, scaled
// to fit `target` and centred in it. Needs a QApplication (the charts are widgets).
void paintSweepFigure(QPainter& painter, const QRectF& target,
                      const std::vector<SweepPoint>& points, const QString& caption);

// The figure as PNG, SVG or PDF bytes; on failure nothing, with a translated one-line
// reason in `*error`. The number formats are not figures and fail.
[[nodiscard]] std::optional<QByteArray> sweepFigureBytes(FigureFormat format,
                                                         const std::vector<SweepPoint>& points,
                                                         const QString& caption,
                                                         QString* error = nullptr);

// Writes sweepFigureBytes() to `path` atomically (writeFigureFile): no partial file on failure,
// an existing file untouched. Returns an empty string on success, else a translated reason.
[[nodiscard]] QString exportSweepFigure(const QString& path, FigureFormat format,
                                        const std::vector<SweepPoint>& points,
                                        const QString& caption);

} // namespace attn::ui
