// Lines of text laid out once and drawn again (TextCache), and the one-line drawText that
// goes through it on a raster painter.
#include "textcache.h"

#include <QPaintEngine>
#include <QPainter>
#include <QTextLayout>

#include <algorithm>

namespace attn::ui {
namespace detail {

bool isVectorDevice(const QPainter& painter)
{
    const QPaintEngine* engine = painter.paintEngine();
    if (!engine)
        return false;
    const auto type = engine->type();
    return type == QPaintEngine::SVG || type == QPaintEngine::Pdf || type == QPaintEngine::Picture;
}

// One line of text as painter.drawText(rect, flags, text) draws it: through `texts` on a
// raster painter, plain drawText on a vector device or without a cache.
void drawLine(QPainter& painter, TextCache* texts, const QRectF& rect, int flags,
              const QString& text)
{
    if (texts && !isVectorDevice(painter))
        texts->draw(painter, rect, flags, text);
    else
        painter.drawText(rect, flags, text);
}

} // namespace detail

void TextCache::draw(QPainter& painter, const QRectF& rect, int flags, const QString& text)
{
    if (text.isEmpty())
        return;
    // Lines are kept per font and per resolution (a window moved to another screen).
    const QFont& font = painter.font();
    const int dpi = painter.device()->logicalDpiY();
    auto entry = std::find_if(fonts_.begin(), fonts_.end(), [&](const FontLines& lines) {
        return lines.dpi == dpi && lines.font == font;
    });
    if (entry == fonts_.end()) {
        if (int(fonts_.size()) >= kFonts)
            fonts_.erase(fonts_.begin());
        fonts_.push_back({font, dpi, {}});
        entry = fonts_.end() - 1;
    }
    auto found = entry->lines.find(text);
    if (found == entry->lines.end()) {
        if (entry->lines.size() >= kLinesPerFont)
            entry->lines.clear();
        // Laid out as drawText lays out one line (qt_format_text): a QTextLayout of the
        // painter's font, one line as wide as it likes, its glyphs kept (cache enabled).
        auto layout = std::make_shared<QTextLayout>(text, font, painter.device());
        layout->setCacheEnabled(true);
        layout->beginLayout();
        QTextLine line = layout->createLine();
        if (line.isValid()) {
            line.setLineWidth(0x01000000);
            line.setPosition(QPointF(0, 0));
        }
        layout->endLayout();
        found = entry->lines.insert(text, layout);
    }
    const QTextLayout& layout = **found;
    if (layout.lineCount() == 0)
        return;
    const QTextLine line = layout.lineAt(0);
    // drawText's placement of one line: its advance and height aligned in the rectangle
    // (the height unrounded, ascent + descent: QTextLine::height() rounds it up).
    const double advance = line.horizontalAdvance(), height = line.ascent() + line.descent();
    double x = 0, y = 0;
    if (flags & Qt::AlignRight)
        x = rect.width() - advance;
    else if (flags & Qt::AlignHCenter)
        x = (rect.width() - advance) / 2;
    if (flags & Qt::AlignBottom)
        y = rect.height() - height;
    else if (flags & Qt::AlignVCenter)
        y = (rect.height() - height) / 2;
    const bool overflows =
        !rect.contains(QRectF(rect.x() + x, rect.y() + y, line.naturalTextWidth(), height));
    if (overflows) {
        painter.save();
        painter.setClipRect(rect, Qt::IntersectClip);
    }
    line.draw(&painter, QPointF(rect.x() + x, rect.y() + y));
    if (overflows)
        painter.restore();
}

int TextCache::size() const
{
    int lines = 0;
    for (const FontLines& font : fonts_)
        lines += int(font.lines.size());
    return lines;
}

} // namespace attn::ui
