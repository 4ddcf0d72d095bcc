#include "sweepchart.h"
#include "widgetaccess.h"

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QGridLayout>
#include <QLegend>
#include <QLineSeries>
#include <QLocale>
#include <QLogValueAxis>
#include <QPen>
#include <QValueAxis>
#include <QXYSeries>

#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

// Okabe–Ito colours: told apart with every kind of colour blindness and on a projector.
const QColor kUnscaledColor(0xD5, 0x5E, 0x00); // vermilion
const QColor kScaledColor(0x00, 0x72, 0xB2);   // blue
const QColor kReferenceColor(0x70, 0x70, 0x70);
const QColor kGridColor(0xE2, 0xE2, 0xE2);

// The d_k axis reaches a quarter of a doubling beyond the first and last point, so that
// their markers are not cut in half.
constexpr double kAxisPadding = 1.19; // 2^0.25

// The d_k shown when there are no points yet: the tutorial's exercise, 16 to 1024.
constexpr int kDefaultFrom = 16;
constexpr int kDefaultTo = 1024;

std::pair<int, int> dkRange(const std::vector<SweepPoint>& points)
{
    if (points.empty())
        return {kDefaultFrom, kDefaultTo};
    const auto [low, high] = std::ranges::minmax_element(points, {}, &SweepPoint::dK);
    return {low->dK, high->dK};
}

// The points of one scaling, in the order of d_k.
std::vector<const SweepPoint*> pointsOf(const std::vector<SweepPoint>& points, bool scaled)
{
    std::vector<const SweepPoint*> chosen;
    for (const SweepPoint& p : points)
        if (p.scaled == scaled)
            chosen.push_back(&p);
    std::ranges::sort(chosen, {}, &SweepPoint::dK);
    return chosen;
}

// Builds one chart's axes and series.
class ChartBuilder {
public:
    ChartBuilder(const std::vector<SweepPoint>& points, const SweepChartStyle& style)
        : points_(points), style_(style), chart_(new QChart)
    {
        chart_->setAnimationOptions(QChart::NoAnimation);
        chart_->setBackgroundRoundness(0);
        chart_->setMargins(QMargins(2, 2, 2, 2));
        chart_->setTitleFont(style.titleFont);
        chart_->legend()->setFont(style.labelFont);
        chart_->legend()->setAlignment(Qt::AlignBottom);
        chart_->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);

        const auto [from, to] = dkRange(points);
        x_ = new QLogValueAxis;
        x_->setBase(2);
        x_->setLabelFormat(QStringLiteral("%d"));
        x_->setRange(from / kAxisPadding, to * kAxisPadding);
        x_->setMinorTickCount(0);
        x_->setTitleText(SweepChart::tr("d_k (each step doubles it)"));
        decorate(x_);
        chart_->addAxis(x_, Qt::AlignBottom);

        y_ = new QValueAxis;
        decorate(y_);
        chart_->addAxis(y_, Qt::AlignLeft);
    }

    QChart* take() { return chart_; }
    QChart* chart() const { return chart_; }
    QValueAxis* y() const { return y_; }
    double xMin() const { return x_->min(); }
    double xMax() const { return x_->max(); }

    // The unscaled or scaled points' `field` as a line with markers.
    QLineSeries* addMeasured(const char* objectName, const QString& name, bool scaled,
                             double SweepPoint::*field)
    {
        auto* series = addSeries(objectName, name, scaled ? kScaledColor : kUnscaledColor,
                                 Qt::SolidLine, true);
        for (const SweepPoint* p : pointsOf(points_, scaled))
            series->append(p->dK, p->*field);
        return series;
    }

    // A grey dashed line without markers.
    QLineSeries* addReference(const char* objectName, const QString& name)
    {
        return addSeries(objectName, name, kReferenceColor, Qt::DashLine, false);
    }

    // The y axis from 0 to a little above `top` and above everything drawn so far (a
    // reference curve may rise above the points), with round ticks.
    void setYRange(double top, const QString& title, const char* labelFormat)
    {
        if (!std::isfinite(top))
            top = 0;
        for (const QAbstractSeries* series : chart_->series())
            if (const auto* line = qobject_cast<const QXYSeries*>(series))
                for (const QPointF& point : line->points())
                    if (std::isfinite(point.y()))
                        top = std::max(top, point.y());
        y_->setRange(0, top > 0 ? top * 1.08 : 1.0);
        y_->applyNiceNumbers();
        y_->setLabelFormat(QString::fromLatin1(labelFormat));
        y_->setTitleText(title);
    }

private:
    void decorate(QAbstractAxis* axis) const
    {
        axis->setLabelsFont(style_.labelFont);
        axis->setTitleFont(style_.labelFont);
        axis->setGridLineColor(kGridColor);
        axis->setLinePenColor(kReferenceColor);
    }

    QLineSeries* addSeries(const char* objectName, const QString& name, const QColor& color,
                           Qt::PenStyle penStyle, bool markers)
    {
        auto* series = new QLineSeries;
        series->setObjectName(QString::fromLatin1(objectName));
        series->setName(name);
        QPen pen(color, markers ? style_.lineWidth : style_.lineWidth * 0.75, penStyle,
                 Qt::RoundCap, Qt::RoundJoin);
        series->setPen(pen);
        series->setPointsVisible(markers);
        series->setMarkerSize(style_.markerSize);
        chart_->addSeries(series);
        series->attachAxis(x_);
        series->attachAxis(y_);
        return series;
    }

    const std::vector<SweepPoint>& points_;
    const SweepChartStyle& style_;
    QChart* chart_;
    QLogValueAxis* x_;
    QValueAxis* y_;
};

double largest(const std::vector<SweepPoint>& points, double SweepPoint::*field)
{
    double top = 0;
    for (const SweepPoint& p : points)
        if (std::isfinite(p.*field))
            top = std::max(top, p.*field);
    return top;
}

void buildSpread(ChartBuilder& b, const std::vector<SweepPoint>& points)
{
    b.chart()->setTitle(SweepChart::tr("How wide are the logits? std(QKᵀ) and std(QKᵀ/√d_k)"));
    b.addMeasured("std-unscaled", SweepChart::tr("not scaled"), false, &SweepPoint::stdLogits);
    b.addMeasured("std-scaled", SweepChart::tr("scaled by 1/√d_k"), true, &SweepPoint::stdLogits);
    // With ALiBi or a soft-cap, L's std after them, dashed in the same colours: the cap
    // flattens it as d_k grows, while the std before it keeps growing like √d_k.
    if (std::ranges::any_of(points, &SweepPoint::shifted)) {
        for (const bool scaled : {false, true}) {
            QLineSeries* final =
                b.addMeasured(scaled ? "std-final-scaled" : "std-final-unscaled",
                              scaled ? SweepChart::tr("scaled, after ALiBi/cap")
                                     : SweepChart::tr("not scaled, after ALiBi/cap"),
                              scaled, &SweepPoint::stdFinalLogits);
            QPen pen = final->pen();
            pen.setStyle(Qt::DashLine);
            final->setPen(pen);
        }
    }
    // c·√d_k through the first unscaled point, sampled finely: a curve on the log axis.
    QLineSeries* reference = b.addReference("std-reference", SweepChart::tr("grows like √d_k"));
    const std::vector<const SweepPoint*> unscaled = pointsOf(points, false);
    if (!unscaled.empty()) {
        const double first = unscaled.front()->dK;
        const double c = unscaled.front()->stdLogits / std::sqrt(first);
        const int samples = kReferenceSamplesPerDoubling *
                            static_cast<int>(std::lround(std::log2(unscaled.back()->dK / first)));
        for (int k = 0; k <= samples; ++k) {
            const double dK = first * std::exp2(double(k) / kReferenceSamplesPerDoubling);
            reference->append(dK, c * std::sqrt(dK));
        }
    }
    // Whole numbers from 10 up; below, one decimal, also so that no label is a single
    // character: Qt Charts then leaves the axis title too little room for a Chinese
    // one and shows "…" instead of 标准差.
    b.setYRange(largest(points, &SweepPoint::stdLogits),
                SweepChart::tr("standard deviation", "of the logits"),
                largest(points, &SweepPoint::stdLogits) >= 10 ? "%.0f" : "%.1f");
}

void buildEntropy(ChartBuilder& b, const std::vector<SweepPoint>& points)
{
    b.chart()->setTitle(SweepChart::tr("How spread is each row? Its entropy"));
    b.addMeasured("entropy-unscaled", SweepChart::tr("not scaled"), false,
                  &SweepPoint::meanEntropy);
    b.addMeasured("entropy-scaled", SweepChart::tr("scaled by 1/√d_k"), true,
                  &SweepPoint::meanEntropy);
    QLineSeries* uniform = b.addReference("entropy-max", SweepChart::tr("uniform row"));
    for (const SweepPoint* p : pointsOf(points, true))
        uniform->append(p->dK, p->meanEntropyMax);
    b.setYRange(largest(points, &SweepPoint::meanEntropyMax), SweepChart::tr("entropy (bits)"),
                "%.1f");
}

void buildRowMax(ChartBuilder& b, const std::vector<SweepPoint>&)
{
    b.chart()->setTitle(SweepChart::tr("How close to one-hot? The largest weight of a row"));
    b.addMeasured("rowmax-unscaled", SweepChart::tr("not scaled"), false, &SweepPoint::meanRowMax);
    b.addMeasured("rowmax-scaled", SweepChart::tr("scaled by 1/√d_k"), true,
                  &SweepPoint::meanRowMax);
    QLineSeries* saturated = b.addReference(
        "rowmax-saturated",
        SweepChart::tr("saturated (%1)").arg(QLocale().toString(kSaturatedRowMax, 'f', 2)));
    saturated->append(b.xMin(), kSaturatedRowMax);
    saturated->append(b.xMax(), kSaturatedRowMax);
    b.y()->setRange(0, 1.05);
    b.y()->setTickType(QValueAxis::TicksDynamic);
    b.y()->setTickAnchor(0);
    b.y()->setTickInterval(0.2);
    b.y()->setLabelFormat(QStringLiteral("%.1f"));
    b.y()->setTitleText(SweepChart::tr("largest weight"));
}

void buildJacobian(ChartBuilder& b, const std::vector<SweepPoint>& points)
{
    b.chart()->setTitle(SweepChart::tr("How much gradient flows back? ‖diag(p) − ppᵀ‖"));
    b.addMeasured("jacobian-unscaled", SweepChart::tr("not scaled"), false,
                  &SweepPoint::meanJacobianNorm);
    b.addMeasured("jacobian-scaled", SweepChart::tr("scaled by 1/√d_k"), true,
                  &SweepPoint::meanJacobianNorm);
    b.setYRange(largest(points, &SweepPoint::meanJacobianNorm), SweepChart::tr("Jacobian norm"),
                "%.2f");
}

SweepChartStyle windowStyle(const QWidget& widget)
{
    SweepChartStyle style;
    style.labelFont = widget.font();
    style.labelFont.setPointSizeF(widget.font().pointSizeF() * 1.1);
    style.titleFont = widget.font();
    style.titleFont.setPointSizeF(widget.font().pointSizeF() * 1.3);
    style.titleFont.setBold(true);
    return style;
}

} // namespace

QChart* createSweepChart(SweepPanel panel, const std::vector<SweepPoint>& points,
                         const SweepChartStyle& style)
{
    ChartBuilder builder(points, style);
    switch (panel) {
    case SweepPanel::Spread:
        buildSpread(builder, points);
        break;
    case SweepPanel::Entropy:
        buildEntropy(builder, points);
        break;
    case SweepPanel::RowMax:
        buildRowMax(builder, points);
        break;
    case SweepPanel::Jacobian:
        buildJacobian(builder, points);
        break;
    }
    return builder.take();
}

SweepChart::SweepChart(QWidget* parent) : QWidget(parent)
{
    setObjectName("SweepChart");
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(6);
    for (std::size_t k = 0; k < views_.size(); ++k) {
        views_[k] = new QChartView;
        views_[k]->setRenderHint(QPainter::Antialiasing);
        views_[k]->setMinimumSize(360, 260);
        grid->addWidget(views_[k], int(k / 2), int(k % 2));
    }
    rebuild();
}

void SweepChart::setPoints(const std::vector<SweepPoint>& points)
{
    points_ = points;
    rebuild();
}

QChart* SweepChart::chart(SweepPanel panel) const
{
    return view(panel)->chart();
}

QChartView* SweepChart::view(SweepPanel panel) const
{
    return views_[static_cast<std::size_t>(panel)];
}

void SweepChart::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::FontChange)
        rebuild();
    QWidget::changeEvent(event);
}

QString SweepChart::chartText(SweepPanel panel) const
{
    // Each measured line with its points; the references (√d_k, log2 T, the saturation
    // threshold) are in the title's question and the caption.
    QStringList lines;
    for (const QAbstractSeries* series : chart(panel)->series()) {
        const auto* line = qobject_cast<const QXYSeries*>(series);
        if (!line || line->count() == 0 ||
            !(line->objectName().endsWith(QLatin1String("-scaled")) ||
              line->objectName().endsWith(QLatin1String("-unscaled"))))
            continue;
        QStringList points;
        for (const QPointF& p : line->points())
            points << tr("d_k %1 → %2", "a point of a chart, for screen readers")
                          .arg(int(std::lround(p.x())))
                          .arg(QLocale().toString(p.y(), 'g', 4));
        lines << tr("%1: %2", "a chart's line and its points")
                     .arg(line->name(), points.join(QStringLiteral(", ")));
    }
    if (lines.isEmpty())
        lines << tr("No points yet.", "a sweep chart before its compute, for screen readers");
    return lines.join(QLatin1Char('\n'));
}

void SweepChart::rebuild()
{
    const SweepChartStyle style = windowStyle(*this);
    for (const SweepPanel panel : kSweepPanels) {
        QChartView* v = view(panel);
        QChart* old = v->chart();
        v->setChart(createSweepChart(panel, points_, style));
        delete old; // setChart gives up the old chart without deleting it
        setAccessibleText(v, v->chart()->title(), chartText(panel));
    }
}

} // namespace attn::ui
