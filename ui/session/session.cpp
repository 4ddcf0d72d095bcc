#include "session.h"

#include "figurewriter.h"
#include "formats/requestfields.h"
#include "labels.h"
#include "sessionvalues.h"
#include "systemerror.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <string_view>

namespace attn::ui {
namespace {

using namespace Qt::StringLiterals;
using namespace sessionvalues;

constexpr QLatin1StringView kFormat("attnscope-session");

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

// A number the table keeps as text, because "off" is one of its values (softcap, window,
// sink): written as its printed text ("off", "30"), read from that or from a JSON number,
// as a hand-written file may say.
void numberTextFromJson(const RequestField& f, const QJsonValue& value, Request& r)
{
    const QString field = u"config."_s + latin1(f.name);
    const bool whole = f.kind == FieldKind::Integer;
    // A real field that refuses −1 wants a positive number (the cap c); one that takes it,
    // any finite number (the sink s).
    const bool positive = [&f] {
        Request probe;
        try {
            f.parse(probe, "-1");
            return false;
        } catch (const InputError&) {
            return true;
        }
    }();
    const QString expected =
        whole ? QCoreApplication::translate("Session", "a whole number from %1 to %2, or \"off\"")
                    .arg(f.min)
                    .arg(f.max)
        : positive ? QCoreApplication::translate("Session", "a positive number or \"off\"")
                   : QCoreApplication::translate("Session", "a number or \"off\"");
    QString text;
    if (value.isString())
        text = value.toString();
    else if (value.isDouble())
        text = QString::number(value.toDouble(), 'g', 17);
    else
        failType(field, expected, value);
    try {
        f.parse(r, text.toStdString());
    } catch (const InputError&) {
        failType(field, expected, value);
    }
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
    } else if (f.kind == FieldKind::Integer || f.kind == FieldKind::Real) {
        numberTextFromJson(f, value, r);
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
        // Today's models' switches came later too: a file without them has the 2017 formula.
        if ((f.addedLater || f.name == EnumTable<AttentionKind>::option) && !o.contains(key))
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
    } catch (const SessionProblem& problem) {
        setError(error, problem.message);
        return std::nullopt;
    }
}

bool saveSession(const QString& path, const Session& session, QString* error)
{
    // Until the rename the data goes to a temporary file beside `path`; when any step
    // fails, the temporary file is removed and the old file stays as it was.
    const std::optional<QString> reason = writeFile(path, sessionToJson(session));
    if (!reason)
        return true;
    //: %1 is a file path, %2 the system's reason.
    setError(error, QCoreApplication::translate("Session", "Cannot save %1: %2")
                        .arg(QDir::toNativeSeparators(path), *reason));
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
