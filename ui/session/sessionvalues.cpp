#include "sessionvalues.h"

#include <QCoreApplication>

#include <charconv>
#include <cmath>
#include <limits>

namespace attn::ui::sessionvalues {
namespace {

constexpr double kMaxExactJsonInteger = 9007199254740992.0; // 2^53
constexpr qsizetype kMaxShownLength = 40;                   // characters of a value in a message

} // namespace

[[noreturn]] void fail(QString message)
{
    throw SessionProblem{std::move(message)};
}

QString latin1(std::string_view text)
{
    return QString::fromLatin1(text.data(), static_cast<qsizetype>(text.size()));
}

QString shown(QString text)
{
    for (QChar& c : text)
        if (c.category() == QChar::Other_Control || c == QChar::LineSeparator ||
            c == QChar::ParagraphSeparator)
            c = u' ';
    if (text.size() > kMaxShownLength)
        text = text.left(kMaxShownLength - 1) + u'…';
    return text;
}

QString describe(const QJsonValue& value)
{
    switch (value.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double:
        return QString::number(value.toDouble(), 'g', 17);
    case QJsonValue::String:
        return u'"' + shown(value.toString()) + u'"';
    case QJsonValue::Array:
        //: What a session file holds instead of the expected value: a JSON array.
        return QCoreApplication::translate("Session", "a list");
    case QJsonValue::Object:
        //: What a session file holds instead of the expected value: a JSON object.
        return QCoreApplication::translate("Session", "an object");
    case QJsonValue::Undefined:
        break;
    }
    return QCoreApplication::translate("Session", "nothing");
}

[[noreturn]] void failType(const QString& field, const QString& expected, const QJsonValue& found)
{
    //: %1 is a field such as "config.heads", %2 a kind of value such as "a number",
    //: %3 what the file holds instead.
    fail(QCoreApplication::translate("Session", "The session's \"%1\" must be %2, not %3.")
             .arg(field, expected, describe(found)));
}

QJsonValue require(const QJsonObject& object, const QString& key, const QString& field)
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined())
        fail(QCoreApplication::translate("Session", "The session has no \"%1\".").arg(field));
    return value;
}

QString stringAt(const QJsonValue& value, const QString& field)
{
    if (!value.isString())
        failType(field, QCoreApplication::translate("Session", "a string"), value);
    return value.toString();
}

QJsonObject objectAt(const QJsonValue& value, const QString& field)
{
    if (!value.isObject())
        failType(field, QCoreApplication::translate("Session", "an object"), value);
    return value.toObject();
}

bool boolAt(const QJsonValue& value, const QString& field)
{
    if (!value.isBool())
        failType(field, QCoreApplication::translate("Session", "true or false"), value);
    return value.toBool();
}

int wholeNumberAt(const QJsonValue& value, const QString& field, int min, int max)
{
    const double number = value.isDouble() ? value.toDouble() : std::nan("");
    if (!(number == std::floor(number) && number >= min && number <= max))
        //: %1 and %2 are the smallest and the largest value allowed.
        failType(field,
                 QCoreApplication::translate("Session", "a whole number from %1 to %2")
                     .arg(min)
                     .arg(max),
                 value);
    return static_cast<int>(number);
}

[[noreturn]] void failChoice(const QString& field, const QString& text, const QString& choices)
{
    //: %1 is a field such as "config.axis", %2 the unknown value, %3 the values allowed.
    fail(QCoreApplication::translate("Session",
                                     "The session's \"%1\" cannot be \"%2\"; it must be one of %3.")
             .arg(field, shown(text), choices));
}

std::uint64_t seedAt(const QJsonValue& value)
{
    const QString field = QStringLiteral("config.seed");
    if (value.isDouble()) {
        const double number = value.toDouble();
        if (number == std::floor(number) && number >= 0 && number <= kMaxExactJsonInteger)
            return static_cast<std::uint64_t>(number);
        if (number > kMaxExactJsonInteger)
            fail(QCoreApplication::translate("Session",
                                             "The session's \"%1\" is too large to be exact as a "
                                             "number; write it as a string of digits.")
                     .arg(field));
    } else if (value.isString()) {
        const std::string text = value.toString().toStdString();
        std::uint64_t seed = 0;
        const auto [end, status] = std::from_chars(text.data(), text.data() + text.size(), seed);
        if (!text.empty() && status == std::errc() && end == text.data() + text.size())
            return seed;
    }
    failType(field,
             QCoreApplication::translate("Session", "a whole number from 0 to %1")
                 .arg(std::numeric_limits<std::uint64_t>::max()),
             value);
}

QJsonValue floatToJson(float value)
{
    if (std::isnan(value))
        return QStringLiteral("nan");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    // The double nearest the float's shortest decimal, so the file says 0.7 for 0.7f
    // rather than 0.699999988079071, and reads back as the same float. (-0 reads back
    // as 0: Qt parses "-0" as the integer 0.)
    char buffer[32];
    const auto written = std::to_chars(buffer, buffer + sizeof buffer, value);
    double decimal = 0;
    std::from_chars(buffer, written.ptr, decimal);
    return decimal;
}

float floatAt(const QJsonValue& value, const QString& field)
{
    if (value.isString()) {
        const QString text = value.toString();
        if (text == u"nan")
            return std::numeric_limits<float>::quiet_NaN();
        if (text == u"inf")
            return std::numeric_limits<float>::infinity();
        if (text == u"-inf")
            return -std::numeric_limits<float>::infinity();
    }
    if (!value.isDouble())
        failType(field, QCoreApplication::translate("Session", "a number"), value);
    // Doubles from 2^128 − 2^103 on round to infinity as float32.
    const double number = value.toDouble();
    if (std::abs(number) >= std::ldexp(1.0, 128) - std::ldexp(1.0, 103))
        fail(QCoreApplication::translate("Session",
                                         "The session's \"%1\" is %2, beyond the range of float32.")
                 .arg(field, describe(value)));
    return static_cast<float>(number);
}

} // namespace attn::ui::sessionvalues
