// The figure of the d_k sweep: a title, the four charts of SweepChart and a caption, laid
// out in points on a 16:10 page, and its files (PNG, SVG, PDF).
#include "sweepfigure.h"

#include "figure.h"
#include "figurefile.h"
#include "labels.h"
#include "sentenceline.h"
#include "sweepchart.h"

#include <QChart>
#include <QGraphicsScene>
#include <QLocale>
#include <QPainter>

#include <cmath>

namespace attn::ui {
namespace {

constexpr double kMargin = 22;     // points around everything
constexpr double kTitleSize = 24;  // points
constexpr double kChartTitle = 17; // points
constexpr double kLabelSize = 14;  // points: axes and legends
constexpr double kCaptionSize = 13;
constexpr double kGap = 10;           // between the parts
constexpr int kCaptionTextLimit = 60; // characters of the text in the caption

QString figureTitle()
{
    return SweepChart::tr("Why divide QKᵀ by √d_k? The same text at growing d_k");
}

// The sweep's figure as a document in points; an SVG viewer is told every family of the
// figure font, so a translated title still finds its glyphs.
FigureDocument sweepDocument(const std::vector<SweepPoint>& points, const QString& caption)
{
    return {kSweepFigureSize, figureTitle(), caption, figureFontFamilies(),
            [&points, &caption](QPainter& painter, const QRectF& target) {
                paintSweepFigure(painter, target, points, caption);
            }};
}

} // namespace

QString sweepCaption(const Request& base)
{
    const Config& c = base.config;
    const Config defaults;
    QStringList parts = {
        SweepChart::tr("“%1”", "the sentence, quoted")
            .arg(sentenceLine(base.text, kCaptionTextLimit)),
        SweepChart::tr("H = 1, d_model = d_k"),
        SweepChart::tr("seed %1").arg(qulonglong(c.seed)),
        captionPhrase(c.embedding),
    };
    if (c.positional != defaults.positional)
        parts << captionPhrase(c.positional);
    if (c.temperature != defaults.temperature)
        parts << SweepChart::tr("τ %1", "temperature").arg(QLocale().toString(c.temperature));
    if (c.axis != defaults.axis)
        parts << captionPhrase(c.axis);
    if (c.mask != defaults.mask)
        parts << captionPhrase(c.mask);
    if (c.mask != MaskKind::None && c.maskStage != defaults.maskStage)
        parts << captionPhrase(c.maskStage);
    if (c.headSplit != defaults.headSplit)
        parts << captionPhrase(c.headSplit);
    // Today's switches, which every point keeps (the K/V heads are 1 with H = 1).
    if (c.qkNorm)
        parts << SweepChart::tr("QK-norm");
    if (c.positional == Positional::Rope && c.ropeTheta != defaults.ropeTheta)
        parts << SweepChart::tr("RoPE θ %1").arg(QLocale().toString(c.ropeTheta));
    if (c.alibi)
        parts << SweepChart::tr("ALiBi");
    if (c.softcap > 0)
        parts << SweepChart::tr("soft-cap c = %1").arg(QLocale().toString(c.softcap));
    if (c.window > 0)
        parts << SweepChart::tr("window of %1 keys").arg(c.window);
    if (c.sink)
        parts << SweepChart::tr("sink s = %1").arg(QLocale().toString(*c.sink));
    return parts.join(QStringLiteral(" · "));
}

void paintSweepFigure(QPainter& painter, const QRectF& target,
                      const std::vector<SweepPoint>& points, const QString& caption)
{
    const QSizeF size = kSweepFigureSize;
    const double scale = std::min(target.width() / size.width(), target.height() / size.height());
    painter.save();
    painter.translate(target.center() - QPointF(size.width(), size.height()) * scale / 2);
    painter.scale(scale, scale);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    painter.fillRect(QRectF(QPointF(0, 0), size), Qt::white);

    // 1. The title on top, the caption at the bottom, the charts between them.
    const QRectF titleRect(kMargin, kMargin, size.width() - 2 * kMargin, kTitleSize * 1.4);
    const QRectF captionRect(kMargin, size.height() - kMargin - kCaptionSize * 1.4,
                             size.width() - 2 * kMargin, kCaptionSize * 1.4);
    const QRectF chartsRect(QPointF(kMargin, titleRect.bottom() + kGap),
                            QPointF(size.width() - kMargin, captionRect.top() - kGap));
    painter.setPen(Qt::black);
    painter.setFont(figureFont(kTitleSize, true));
    painter.drawText(titleRect, Qt::AlignHCenter | Qt::AlignVCenter, figureTitle());
    painter.setPen(QColor(0x50, 0x50, 0x50));
    painter.setFont(figureFont(kCaptionSize));
    painter.drawText(
        captionRect, Qt::AlignHCenter | Qt::AlignVCenter,
        painter.fontMetrics().elidedText(caption, Qt::ElideRight, int(captionRect.width())));

    // 2. The charts, 2 × 2, in a scene of their own laid out in points.
    SweepChartStyle style;
    style.titleFont = figureFont(kChartTitle, true);
    style.labelFont = figureFont(kLabelSize);
    style.markerSize = 5;
    QGraphicsScene scene(chartsRect);
    const QSizeF cell((chartsRect.width() - kGap) / 2, (chartsRect.height() - kGap) / 2);
    for (std::size_t k = 0; k < kSweepPanels.size(); ++k) {
        QChart* chart = createSweepChart(kSweepPanels[k], points, style);
        scene.addItem(chart); // the scene owns it
        chart->setGeometry(
            QRectF(chartsRect.topLeft() + QPointF(double(k % 2) * (cell.width() + kGap),
                                                  double(k / 2) * (cell.height() + kGap)),
                   cell));
    }
    scene.render(&painter, chartsRect, chartsRect);
    painter.restore();
}

std::optional<QByteArray> sweepFigureBytes(FigureFormat format,
                                           const std::vector<SweepPoint>& points,
                                           const QString& caption, QString* error)
{
    QString scratch;
    QString& reason = error ? *error : scratch;
    if (isFigureFormat(format))
        return documentBytes(format, sweepDocument(points, caption), kSweepFigureScale, &reason);
    reason = SweepChart::tr("The sweep's figure is a PNG, SVG or PDF file, not %1.")
                 .arg(formatSpelling(format).toUpper());
    return std::nullopt;
}

QString exportSweepFigure(const QString& path, FigureFormat format,
                          const std::vector<SweepPoint>& points, const QString& caption)
{
    QString error;
    const std::optional<QByteArray> bytes = sweepFigureBytes(format, points, caption, &error);
    return bytes ? writeFigureFile(path, *bytes) : error;
}

} // namespace attn::ui
