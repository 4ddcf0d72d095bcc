#include "heatmaptext.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QLocale>
#include <QMutex>

#include <map>

namespace attn::ui {
namespace detail {

QString rowAxisTitle()
{
    return QCoreApplication::translate("Heatmap", "query ↓", "axis title: rows are query tokens");
}

QString columnAxisTitle()
{
    return QCoreApplication::translate("Heatmap", "key →", "axis title: columns are key tokens");
}

QString tickText(double value)
{
    return QLocale().toString(value, 'g', 3);
}

QFontMetricsF fontMetrics(const QFont& font, const QPaintDevice* device)
{
    return device ? QFontMetricsF(font, device) : QFontMetricsF(font);
}

LabelWidths::LabelWidths(const QFont& font, const QPaintDevice* device)
    : metrics_(fontMetrics(font, device)),
      key_(font.key() + QLatin1Char('@') + QString::number(device ? device->logicalDpiX() : 0) +
           QLatin1Char('x') + QString::number(device ? device->logicalDpiY() : 0))
{
    // One table per font and device; a table's address stays while the map grows.
    static std::map<QString, QHash<QString, double>> tables;
    const QMutexLocker lock(&mutex());
    widths_ = &tables[key_];
}

QMutex& LabelWidths::mutex()
{
    static QMutex m;
    return m;
}

double LabelWidths::operator()(const QString& text)
{
    {
        const QMutexLocker lock(&mutex());
        if (const auto it = widths_->constFind(text); it != widths_->constEnd())
            return *it;
    }
    const double width = metrics_.horizontalAdvance(text);
    const QMutexLocker lock(&mutex());
    if (widths_->size() > 200000) // a bound for a long session of long sentences
        widths_->clear();
    widths_->insert(text, width);
    return width;
}

} // namespace detail

} // namespace attn::ui
