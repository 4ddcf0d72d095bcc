// The typed text on one line, for a label or a caption that names it: its lines joined
// with " / ", shortened with an ellipsis.
#pragma once

#include <QChar>
#include <QString>
#include <QStringList>

#include <string>

namespace attn::ui {

// "a / b": the text's lines on one line, shortened to `limit` characters with an ellipsis.
[[nodiscard]] inline QString sentenceLine(const std::string& text, int limit)
{
    QStringList lines = QString::fromStdString(text).split(u'\n', Qt::SkipEmptyParts);
    for (QString& line : lines)
        line = line.simplified();
    QString joined = lines.join(QStringLiteral(" / "));
    if (joined.size() > limit)
        joined = joined.left(limit - 1).trimmed() + QChar(0x2026);
    return joined;
}

} // namespace attn::ui
