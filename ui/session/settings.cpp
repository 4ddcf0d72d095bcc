#include "settings.h"

#include "formats/requestfields.h"

#include <QCoreApplication>

#include <array>

namespace attn::ui {
namespace {

using namespace Qt::StringLiterals;

struct SettingDefault {
    QString key;
    QVariant value;
};

// The key of a field of the table (requestfields.h): the texts under input/, the switches
// under formula/.
QString fieldKey(const RequestField& field)
{
    return QLatin1StringView(field.inConfig ? "formula/" : "input/") +
           QString::fromStdString(field.name);
}

// A field's value as the settings keep it: numbers and flags as such, but the seed as a
// string of digits (a QVariant's number would round a uint64); enums by their spelling.
QVariant fieldValue(const RequestField& field, const Request& r)
{
    if (const auto* m = std::get_if<int Config::*>(&field.member))
        return r.config.**m;
    if (const auto* m = std::get_if<float Config::*>(&field.member))
        return double(r.config.**m);
    if (const auto* m = std::get_if<bool Config::*>(&field.member))
        return r.config.**m;
    return QString::fromStdString(field.print(r));
}

// The one table: every key and its default.
const std::vector<SettingDefault>& defaults()
{
    static const std::vector<SettingDefault> table = [] {
        const ViewOptions v;
        std::vector<SettingDefault> rows;
        // input/text: empty, the example sentence of the language; then the cross text and
        // the switches, each at its default.
        for (const RequestField& field : requestFields())
            rows.push_back({fieldKey(field), fieldValue(field, Request{})});
        for (SettingDefault row : std::initializer_list<SettingDefault>{
                 {u"view/colormap"_s, Colormap::spelling(v.colormap)},
                 {u"view/shared-scale"_s, v.sharedScale},
                 {u"view/annotate"_s, v.annotate},
                 {u"view/sequence"_s, v.sequence},
                 {u"view/margin-sums"_s, v.marginSums},
                 {u"view/color-scale"_s, QStringLiteral("linear")},
                 {u"window/language"_s, QString()},
                 {u"window/geometry"_s, QByteArray()},
                 {u"window/state"_s, QByteArray()},
                 {u"export/folder"_s, QString()},
             })
            rows.push_back(std::move(row));
        return rows;
    }();
    return table;
}

} // namespace

QString exampleSentence(const QString& languageCode)
{
    if (languageCode.startsWith(u"zh"))
        return QStringLiteral("小猫坐在垫子上，因为它很累。");
    return QStringLiteral("The cat sat on the mat because it was tired.");
}

QVariant AppSettings::defaultValue(const QString& key)
{
    for (const SettingDefault& row : defaults())
        if (key == row.key)
            return row.value;
    Q_ASSERT_X(false, "AppSettings", "a key missing from the settings table");
    return {};
}

QVariant AppSettings::value(const QString& key) const
{
    if (settings_)
        return settings_->value(key, defaultValue(key));
    return QSettings().value(key, defaultValue(key));
}

void AppSettings::setValue(const QString& key, const QVariant& value)
{
    if (settings_)
        settings_->setValue(key, value);
    else
        QSettings().setValue(key, value);
}

Request AppSettings::request(const QString& languageCode) const
{
    Request r;
    for (const RequestField& field : requestFields()) {
        const QVariant stored = value(fieldKey(field));
        if (const auto* m = std::get_if<int Config::*>(&field.member)) {
            r.config.** m = stored.toInt();
        } else if (const auto* m = std::get_if<float Config::*>(&field.member)) {
            r.config.** m = stored.toFloat();
        } else if (const auto* m = std::get_if<bool Config::*>(&field.member)) {
            r.config.** m = stored.toBool();
        } else {
            try {
                field.parse(r, stored.toString().toStdString());
            } catch (const InputError&) {
                // An unknown spelling or seed (a damaged file) keeps the default.
            }
        }
    }
    if (r.text.empty())
        r.text = exampleSentence(languageCode).toStdString();
    // A damaged or hand-edited file must not stop the window from opening.
    if (!validate(r.config).empty())
        r.config = Config{};
    return r;
}

void AppSettings::setRequest(const Request& r)
{
    for (const RequestField& field : requestFields())
        setValue(fieldKey(field), fieldValue(field, r));
}

ViewOptions AppSettings::view() const
{
    ViewOptions v;
    v.colormap = Colormap::fromSpelling(value("view/colormap").toString()).value_or(v.colormap);
    v.sharedScale = value("view/shared-scale").toBool();
    v.annotate = value("view/annotate").toBool();
    v.sequence = qMax(0, value("view/sequence").toInt());
    v.marginSums = value("view/margin-sums").toBool();
    v.logScale = value("view/color-scale").toString() == u"log";
    return v;
}

void AppSettings::setView(const ViewOptions& v)
{
    setValue("view/colormap", Colormap::spelling(v.colormap));
    setValue("view/shared-scale", v.sharedScale);
    setValue("view/annotate", v.annotate);
    setValue("view/sequence", v.sequence);
    setValue("view/margin-sums", v.marginSums);
    setValue("view/color-scale", v.logScale ? QStringLiteral("log") : QStringLiteral("linear"));
}

QString AppSettings::language() const
{
    return value("window/language").toString();
}
void AppSettings::setLanguage(const QString& code)
{
    setValue("window/language", code);
}
QString AppSettings::exportFolder() const
{
    return value("export/folder").toString();
}
void AppSettings::setExportFolder(const QString& folder)
{
    setValue("export/folder", folder);
}
QByteArray AppSettings::geometry() const
{
    return value("window/geometry").toByteArray();
}
QByteArray AppSettings::windowState() const
{
    return value("window/state").toByteArray();
}

void AppSettings::setWindow(const QByteArray& geometry, const QByteArray& state)
{
    setValue("window/geometry", geometry);
    setValue("window/state", state);
}

} // namespace attn::ui
