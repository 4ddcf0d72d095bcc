// Lines of text laid out once and drawn again, for widgets that repaint the same labels.
#pragma once

#include <QFont>
#include <QHash>
#include <QRectF>
#include <QString>
#include <QTextLayout>

#include <memory>
#include <vector>

class QPainter;

namespace attn::ui {

// Lines of text laid out once and drawn again: the labels, titles and ticks of a widget
// that repaints the same heatmap for every hover, scroll and switch of the formula.
// QPainter::drawText lays its text out and shapes it anew on every call (two thirds of a
// tile's repaint at T = 2048); a QTextLayout laid out once keeps its glyphs, and draws
// the same pixels. Raster painters only: paintHeatmap draws plain drawText on a vector
// device (SVG, PDF) and without a cache.
class TextCache {
public:
    // `text` in the painter's font and pen, placed as painter.drawText(rect, flags, text)
    // places one line (flags: alignment), and clipped to `rect` as drawText clips text that
    // overflows it.
    void draw(QPainter& painter, const QRectF& rect, int flags, const QString& text);
    // The lines kept, over every font, for tests.
    [[nodiscard]] int size() const;

private:
    struct FontLines {
        QFont font;
        int dpi = 0;
        QHash<QString, std::shared_ptr<QTextLayout>> lines;
    };
    // A few fonts (labels, bold labels, titles, italic axis titles, values in cells) of
    // at most kLinesPerFont lines each: values in cells change with every switch.
    static constexpr int kFonts = 8;
    static constexpr int kLinesPerFont = 4096;
    std::vector<FontLines> fonts_;
};

namespace detail {
// Whether `painter` draws on SVG, PDF or a QPicture: one rectangle per cell, no cached text.
[[nodiscard]] bool isVectorDevice(const QPainter& painter);
// One line of text as painter.drawText(rect, flags, text) draws it: through `texts` on a
// raster painter, plain drawText on a vector device or without a cache.
void drawLine(QPainter& painter, TextCache* texts, const QRectF& rect, int flags,
              const QString& text);
} // namespace detail

} // namespace attn::ui
