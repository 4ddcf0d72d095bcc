// The values of a session file (session.h) read by their type: each reader returns the
// value or throws SessionProblem with a translated one-line message (context "Session")
// that names the field, e.g. `The session's "config.heads" must be a whole number from 1
// to 4096, not "4".`
#pragma once

#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <cstdint>
#include <string_view>

namespace attn::ui::sessionvalues {

// Thrown by the readers and by session.cpp's checks; sessionFromJson turns it into its
// error text.
struct SessionProblem {
    QString message;
};

[[noreturn]] void fail(QString message);

QString latin1(std::string_view text);

// A value as an error message shows it: on one line and short.
QString shown(QString text);

// What was found where something else was expected, e.g. `"4"`, `null`, `a list`.
QString describe(const QJsonValue& value);

// Refuses `found` in `field`, which must be `expected` ("a number").
[[noreturn]] void failType(const QString& field, const QString& expected, const QJsonValue& found);

// Refuses `text` in `field`, naming the values allowed.
[[noreturn]] void failChoice(const QString& field, const QString& text, const QString& choices);

// `object`'s `key`, which must be there; `field` names it in the message.
QJsonValue require(const QJsonObject& object, const QString& key, const QString& field);

QString stringAt(const QJsonValue& value, const QString& field);
QJsonObject objectAt(const QJsonValue& value, const QString& field);
bool boolAt(const QJsonValue& value, const QString& field);
int wholeNumberAt(const QJsonValue& value, const QString& field, int min, int max);

// A seed is a decimal string (exact for every uint64), or a whole number up to 2^53,
// the largest every JSON reader keeps exactly.
std::uint64_t seedAt(const QJsonValue& value);

// Override numbers: JSON has no NaN or infinity, so those are the strings CSV uses.
QJsonValue floatToJson(float value);
float floatAt(const QJsonValue& value, const QString& field);

} // namespace attn::ui::sessionvalues
