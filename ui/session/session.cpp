#include "session.h"

#include "labels.h"
#include "requestfields.h"
#include "systemerror.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include <charconv>
#include <cmath>
#include <limits>
#include <string_view>

namespace attn::ui {
namespace {

using namespace Qt::StringLiterals;

constexpr QLatin1StringView kFormat("attnscope-session");
constexpr double kMaxExactJsonInteger = 9007199254740992.0; // 2^53
constexpr qsizetype kMaxShownLength = 40;                   // characters of a value in a message

// Thrown inside this file only; sessionFromJson turns it into its error text.
struct Problem {
    QString message;
};

[[noreturn]] void fail(QString message)
{
    throw Problem{std::move(message)};
}

QString latin1(std::string_view text)
{
    return QString::fromLatin1(text.data(), static_cast<qsizetype>(text.size()));
}

// A value as an error message shows it: on one line and short.
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

// What was found where something else was expected, e.g. `"4"`, `null`, `a list`.
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

// Refuses `text` in `field`, naming the values allowed.
[[noreturn]] void failChoice(const QString& field, const QString& text, const QString& choices)
{
    //: %1 is a field such as "config.axis", %2 the unknown value, %3 the values allowed.
    fail(QCoreApplication::translate("Session",
                                     "The session's \"%1\" cannot be \"%2\"; it must be one of %3.")
             .arg(field, shown(text), choices));
}

// A seed is a decimal string (exact for every uint64), or a whole number up to 2^53,
// the largest every JSON reader keeps exactly.
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

// Override numbers: JSON has no NaN or infinity, so those are the strings CSV uses.
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

QJsonObject configToJson(const Config& c)
{
    // Every switch of the field table (requestfields.h); numbers as numbers but the seed,
    // a string of digits so that every uint64 stays exact.
    Request request;
    request.config = c;
    QJsonObject o;
    for (const RequestField& field : requestFields()) {
        if (!field.inConfig)
            continue;
        const QString key = latin1(field.name);
        if (const auto* m = std::get_if<int Config::*>(&field.member))
            o.insert(key, c.**m);
        else if (const auto* m = std::get_if<float Config::*>(&field.member))
            o.insert(key, floatToJson(c.**m));
        else
            o.insert(key, QString::fromStdString(field.print(request))); // seed, on|off, enums
    }
    return o;
}

// A field of the table from the session's "config" object, checked for its type and
// its values; the fields together are checked by configFromJson.
void fieldFromJson(const RequestField& f, const QJsonValue& value, Request& r)
{
    const QString field = u"config."_s + latin1(f.name);
    if (const auto* m = std::get_if<int Config::*>(&f.member)) {
        r.config.** m = wholeNumberAt(value, field, int(f.min), int(f.max));
    } else if (const auto* m = std::get_if<std::uint64_t Config::*>(&f.member)) {
        r.config.** m = seedAt(value);
    } else if (const auto* m = std::get_if<float Config::*>(&f.member)) {
        r.config.** m = floatAt(value, field);
    } else if (const auto* m = std::get_if<bool Config::*>(&f.member)) {
        // "on"/"off" as on the command line; true/false as a hand-written file may say.
        if (value.isBool())
            r.config.** m = value.toBool();
        else if (value == QJsonValue(u"on"_s) || value == QJsonValue(u"off"_s))
            r.config.** m = value == QJsonValue(u"on"_s);
        else
            failType(field, QCoreApplication::translate("Session", "\"on\" or \"off\""), value);
    } else {
        const QString text = stringAt(value, field);
        try {
            f.parse(r, text.toStdString());
        } catch (const InputError&) {
            QString choices = latin1(f.valueName);
            choices.replace(u'|', QStringLiteral(", "));
            failChoice(field, text, choices);
        }
    }
}

Config configFromJson(const QJsonObject& o)
{
    Request r;
    for (const RequestField& f : requestFields()) {
        if (!f.inConfig)
            continue;
        const QString key = latin1(f.name);
        // Added to format 1 with cross-attention; files written before it are self-attention.
        if (f.name == EnumTable<AttentionKind>::option && !o.contains(key))
            continue;
        fieldFromJson(f, require(o, key, u"config."_s + key), r);
    }
    if (const std::optional<InputError> problem = checkConfig(r.config))
        //: %1 is the problem, a sentence of its own, e.g. "The number of heads (3) must divide
        //: d_model (16)."
        fail(QCoreApplication::translate("Session", "The session's settings are invalid. %1")
                 .arg(refusalText(*problem)));
    return r.config;
}

std::map<std::string, std::vector<float>> overridesFromJson(const QJsonObject& o)
{
    std::map<std::string, std::vector<float>> overrides;
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString field = QStringLiteral("embedding_overrides.") + shown(it.key());
        if (!it.value().isArray())
            failType(field, QCoreApplication::translate("Session", "a list"), it.value());
        const QJsonArray numbers = it.value().toArray();
        // A vector edited at another d_model is kept, unused until d_model is its length
        // again (the engine uses only vectors of d_model numbers).
        if (numbers.isEmpty() || numbers.size() > kMaxDModel)
            //: %2 numbers given, %3 = the largest d_model.
            fail(QCoreApplication::translate("Session", "The session's \"%1\" has %2 numbers; a "
                                                        "vector has 1 to %3.")
                     .arg(field)
                     .arg(numbers.size())
                     .arg(kMaxDModel));
        std::vector<float>& vector = overrides[it.key().toStdString()];
        for (qsizetype k = 0; k < numbers.size(); ++k)
            vector.push_back(floatAt(numbers[k], field + u'[' + QString::number(k) + u']'));
    }
    return overrides;
}

QJsonObject viewToJson(const ViewOptions& v)
{
    return QJsonObject{{u"colormap"_s, Colormap::spelling(v.colormap)},
                       {u"shared-scale"_s, v.sharedScale},
                       {u"annotate"_s, v.annotate},
                       {u"sequence"_s, v.sequence},
                       {u"margin-sums"_s, v.marginSums},
                       {u"color-scale"_s, v.logScale ? u"log"_s : u"linear"_s}};
}

ViewOptions viewFromJson(const QJsonObject& o)
{
    ViewOptions v;
    if (const QJsonValue colormap = o.value(u"colormap"); !colormap.isUndefined()) {
        const QString text = stringAt(colormap, u"view.colormap"_s);
        const auto name = Colormap::fromSpelling(text);
        if (!name) {
            QStringList choices;
            for (ColormapName n : Colormap::names())
                choices << Colormap::spelling(n);
            failChoice(u"view.colormap"_s, text, choices.join(u", "));
        }
        v.colormap = *name;
    }
    if (const QJsonValue shared = o.value(u"shared-scale"); !shared.isUndefined())
        v.sharedScale = boolAt(shared, u"view.shared-scale"_s);
    if (const QJsonValue annotate = o.value(u"annotate"); !annotate.isUndefined())
        v.annotate = boolAt(annotate, u"view.annotate"_s);
    if (const QJsonValue sequence = o.value(u"sequence"); !sequence.isUndefined())
        v.sequence = wholeNumberAt(sequence, u"view.sequence"_s, 0, kMaxSequences - 1);
    // Added after version 1 files were written: a file without it shows no sums.
    if (const QJsonValue sums = o.value(u"margin-sums"); !sums.isUndefined())
        v.marginSums = boolAt(sums, u"view.margin-sums"_s);
    // Spelled as export's --color-scale; added later too: a file without it colours linearly.
    if (const QJsonValue scale = o.value(u"color-scale"); !scale.isUndefined()) {
        const QString text = stringAt(scale, u"view.color-scale"_s);
        if (text != u"linear" && text != u"log")
            failChoice(u"view.color-scale"_s, text, u"linear, log"_s);
        v.logScale = text == u"log";
    }
    return v;
}

QString tooLarge()
{
    return QCoreApplication::translate("Session",
                                       "The file is larger than %1 MiB, too large to be a session.")
        .arg(kMaxSessionBytes / (1024 * 1024));
}

Session parseSession(const QByteArray& json)
{
    // 1. Refuse what cannot be a session before parsing it.
    if (json.size() > kMaxSessionBytes)
        fail(tooLarge());
    if (json.trimmed().isEmpty())
        fail(QCoreApplication::translate("Session", "The file is empty."));
    // An editor such as Notepad may have put a byte order mark in front.
    const qsizetype bom = json.startsWith("\xEF\xBB\xBF") ? 3 : 0;
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json.sliced(bom), &parseError);
    // Qt reads only an object or an array as a document; a lone string or number is
    // JSON all the same, just not a session.
    const bool scalar = parseError.error != QJsonParseError::NoError &&
                        QJsonDocument::fromJson('[' + json.sliced(bom) + ']').isArray();
    if (parseError.error != QJsonParseError::NoError && !scalar)
        //: %1 is Qt's description of the JSON error, %2 a byte offset.
        fail(QCoreApplication::translate("Session", "The file is not valid JSON: %1 at byte %2.")
                 .arg(parseError.errorString())
                 .arg(parseError.offset + bom));

    // 2. Make sure it is a session, and one this version can read.
    const QJsonObject root = document.object();
    const QJsonValue format = root.value(u"format");
    if (scalar || !document.isObject() || format != QJsonValue(kFormat)) {
        //: %1 is "attnscope-session", the marker every session file has.
        QString message = QCoreApplication::translate(
                              "Session", "The file is not an AttnScope session (it has no "
                                         "\"format\": \"%1\").")
                              .arg(kFormat);
        if (format.isString())
            message = QCoreApplication::translate(
                          "Session", "The file is not an AttnScope session: its format is \"%1\".")
                          .arg(shown(format.toString()));
        fail(message);
    }
    const QJsonValue versionValue = require(root, u"version"_s, u"version"_s);
    const double version = versionValue.isDouble() ? versionValue.toDouble() : 0;
    if (version == std::floor(version) && version > kSessionVersion)
        //: %1 is the file's format number, %2 the one this version reads.
        fail(QCoreApplication::translate("Session", "This session was saved by a newer AttnScope "
                                                    "(format %1); this version reads format %2.")
                 .arg(describe(versionValue))
                 .arg(kSessionVersion));
    if (version != kSessionVersion)
        failType(u"version"_s, QString::number(kSessionVersion), versionValue);

    // 3. The fields, each checked for its type and its values.
    Session session;
    session.request.text = stringAt(require(root, u"text"_s, u"text"_s), u"text"_s).toStdString();
    session.request.config =
        configFromJson(objectAt(require(root, u"config"_s, u"config"_s), u"config"_s));
    if (const QJsonValue cross = root.value(u"cross_text"); !cross.isUndefined())
        session.request.crossText = stringAt(cross, u"cross_text"_s).toStdString();
    if (const QJsonValue overrides = root.value(u"embedding_overrides"); !overrides.isUndefined())
        session.request.embeddingOverrides =
            overridesFromJson(objectAt(overrides, u"embedding_overrides"_s));
    if (const QJsonValue view = root.value(u"view"); !view.isUndefined())
        session.view = viewFromJson(objectAt(view, u"view"_s));
    return session;
}

void setError(QString* error, const QString& message)
{
    if (error)
        *error = message;
}

} // namespace

QByteArray sessionToJson(const Session& session)
{
    const Request& r = session.request;
    QJsonObject overrides;
    for (const auto& [token, vector] : r.embeddingOverrides) {
        QJsonArray numbers;
        for (float value : vector)
            numbers.append(floatToJson(value));
        overrides.insert(QString::fromStdString(token), numbers);
    }
    const QJsonObject root{
        {u"format"_s, kFormat},
        {u"version"_s, kSessionVersion},
        {u"text"_s, QString::fromStdString(r.text)},
        {u"cross_text"_s, QString::fromStdString(r.crossText)},
        {u"config"_s, configToJson(r.config)},
        {u"embedding_overrides"_s, overrides},
        {u"view"_s, viewToJson(session.view)},
    };
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

std::optional<Session> sessionFromJson(const QByteArray& json, QString* error)
{
    try {
        return parseSession(json);
    } catch (const Problem& problem) {
        setError(error, problem.message);
        return std::nullopt;
    }
}

bool saveSession(const QString& path, const Session& session, QString* error)
{
    const QByteArray json = sessionToJson(session);
    QSaveFile file(path);
    // Until commit() the data goes to a temporary file beside `path`; when any step
    // fails, QSaveFile's destructor removes it and the old file stays as it was.
    qint64 written = -1;
    if (file.open(QIODevice::WriteOnly)) {
        written = file.write(json);
        if (written == json.size() && file.commit())
            return true;
    }
    // A short write sets no error of its own (the system wrote what it could).
    QString reason = systemErrorText(file.errorString());
    if (file.error() == QFileDevice::NoError && written >= 0 && written < json.size())
        //: %1 and %2 are numbers of bytes.
        reason = QCoreApplication::translate(
                     "Session", "only %1 of %2 bytes could be written; is the disk full?")
                     .arg(written)
                     .arg(json.size());
    //: %1 is a file path, %2 the system's reason.
    setError(error, QCoreApplication::translate("Session", "Cannot save %1: %2")
                        .arg(QDir::toNativeSeparators(path), reason));
    return false;
}

std::optional<Session> loadSession(const QString& path, QString* error)
{
    const QString shownPath = QDir::toNativeSeparators(path);
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        //: %1 is a file path, %2 the system's reason.
        setError(error, QCoreApplication::translate("Session", "Cannot open %1: %2")
                            .arg(shownPath, systemErrorText(file.errorString())));
        return std::nullopt;
    }
    // Read no more than the limit and one byte, so that neither a huge file nor an
    // endless device (whose size() is 0) fills the memory.
    QByteArray bytes;
    if (file.size() <= kMaxSessionBytes) {
        constexpr qint64 chunk = 1024 * 1024;
        while (bytes.size() <= kMaxSessionBytes) {
            const QByteArray part = file.read(chunk);
            if (part.isEmpty())
                break;
            bytes += part;
        }
    }
    if (file.error() != QFileDevice::NoError) {
        setError(error, QCoreApplication::translate("Session", "Cannot read %1: %2")
                            .arg(shownPath, systemErrorText(file.errorString())));
        return std::nullopt;
    }
    QString reason;
    std::optional<Session> session;
    if (file.size() > kMaxSessionBytes)
        reason = tooLarge();
    else
        session = sessionFromJson(bytes, &reason);
    if (!session) {
        //: %1 is a file path, %2 what is wrong with the file.
        setError(error, QCoreApplication::translate("Session", "%1: %2").arg(shownPath, reason));
        return std::nullopt;
    }
    return session;
}

} // namespace attn::ui
