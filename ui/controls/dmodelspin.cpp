#include "dmodelspin.h"

#include <algorithm>
#include <utility>

namespace attn::ui {
namespace {

// A typed whole number (up to 18 digits, so it fits qint64), or nothing.
std::optional<qint64> wholeNumber(const QString& input)
{
    const QString digits = input.trimmed();
    if (digits.isEmpty() || digits.size() > 18 ||
        !std::ranges::all_of(digits, [](QChar c) { return c.isDigit(); }))
        return std::nullopt;
    return digits.toLongLong();
}

} // namespace

DModelSpin::DModelSpin(QWidget* parent) : QSpinBox(parent)
{
    // Out of the range on Enter or on leaving the field: the nearest end of it.
    setCorrectionMode(QAbstractSpinBox::CorrectToNearestValue);
}

std::optional<qint64> DModelSpin::takeClamped()
{
    return std::exchange(clamped_, std::nullopt);
}

QValidator::State DModelSpin::validate(QString& input, int& position) const
{
    // QSpinBox refuses a key that takes the number past the maximum, so "99999" became
    // "9999" or less without a word; here it may be typed and is corrected afterwards.
    if (const std::optional<qint64> number = wholeNumber(input); number && *number > maximum())
        return QValidator::Intermediate;
    return QSpinBox::validate(input, position);
}

void DModelSpin::fixup(QString& input) const
{
    const std::optional<qint64> number = wholeNumber(input);
    if (!number || (*number >= minimum() && *number <= maximum()))
        return QSpinBox::fixup(input);
    clamped_ = *number;
    input = QString::number(std::clamp<qint64>(*number, minimum(), maximum()));
}

} // namespace attn::ui
