#include "settings.h"

#include <QCoreApplication>

#include <array>

namespace attn::ui {
namespace {

struct SettingDefault {
    const char* key;
    QVariant value;
};

template <typename E> QString spelled(E value)
{
    return QString::fromLatin1(spellingOf(value).data(), qsizetype(spellingOf(value).size()));
}

template <typename E> QString key(const char* group)
{
    return QString::fromLatin1(group) + u'/' + QString::fromLatin1(EnumTable<E>::option.data());
}

// The one table: every key and its default.
const std::vector<SettingDefault>& defaults()
{
    static const std::vector<SettingDefault> table = [] {
        const Config c;
        const ViewOptions v;
        return std::vector<SettingDefault>{
            {"input/text", QString()},       // empty: the example sentence of the language
            {"input/cross-text", QString()}, // cross-attention's second text
            {"formula/tokenizer", spelled(c.tokenizer)},
            {"formula/d-model", c.dModel},
            {"formula/heads", c.heads},
            {"formula/seed", QString::number(c.seed)},
            {"formula/embedding", spelled(c.embedding)},
            {"formula/positional", spelled(c.positional)},
            {"formula/scale", spelled(c.scale)},
            {"formula/temperature", double(c.temperature)},
            {"formula/axis", spelled(c.axis)},
            {"formula/mask", spelled(c.mask)},
            {"formula/mask-fill", spelled(c.maskFill)},
            {"formula/mask-stage", spelled(c.maskStage)},
            {"formula/head-split", spelled(c.headSplit)},
            {"formula/padding-mask", c.paddingMask},
            {"formula/attention", spelled(c.attention)},
            {"view/colormap", Colormap::spelling(v.colormap)},
            {"view/shared-scale", v.sharedScale},
            {"view/annotate", v.annotate},
            {"view/sequence", v.sequence},
            {"view/margin-sums", v.marginSums},
            {"view/color-scale", QStringLiteral("linear")},
            {"window/language", QString()},
            {"window/geometry", QByteArray()},
            {"window/state", QByteArray()},
        };
    }();
    return table;
}

template <typename E> void readEnum(const QVariant& stored, E& target)
{
    if (auto parsed = fromString<E>(stored.toString().toStdString()))
        target = *parsed; // an unknown spelling (a damaged file) keeps the default
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
        if (key == QLatin1String(row.key))
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
    r.text = value("input/text").toString().toStdString();
    if (r.text.empty())
        r.text = exampleSentence(languageCode).toStdString();
    r.crossText = value("input/cross-text").toString().toStdString();
    Config& c = r.config;
    readEnum(value(key<TokenizerMode>("formula")), c.tokenizer);
    readEnum(value(key<EmbeddingMode>("formula")), c.embedding);
    readEnum(value(key<Positional>("formula")), c.positional);
    readEnum(value(key<ScaleMode>("formula")), c.scale);
    readEnum(value(key<SoftmaxAxis>("formula")), c.axis);
    readEnum(value(key<MaskKind>("formula")), c.mask);
    readEnum(value(key<MaskFill>("formula")), c.maskFill);
    readEnum(value(key<MaskStage>("formula")), c.maskStage);
    readEnum(value(key<HeadSplit>("formula")), c.headSplit);
    readEnum(value(key<AttentionKind>("formula")), c.attention);
    c.dModel = value("formula/d-model").toInt();
    c.heads = value("formula/heads").toInt();
    bool ok = false;
    const qulonglong seed = value("formula/seed").toString().toULongLong(&ok);
    c.seed = ok ? seed : Config{}.seed;
    c.temperature = value("formula/temperature").toFloat();
    c.paddingMask = value("formula/padding-mask").toBool();
    // A damaged or hand-edited file must not stop the window from opening.
    if (!validate(c).empty())
        c = Config{};
    return r;
}

void AppSettings::setRequest(const Request& r)
{
    const Config& c = r.config;
    setValue("input/text", QString::fromStdString(r.text));
    setValue("input/cross-text", QString::fromStdString(r.crossText));
    setValue(key<TokenizerMode>("formula"), spelled(c.tokenizer));
    setValue("formula/d-model", c.dModel);
    setValue("formula/heads", c.heads);
    setValue("formula/seed", QString::number(c.seed));
    setValue(key<EmbeddingMode>("formula"), spelled(c.embedding));
    setValue(key<Positional>("formula"), spelled(c.positional));
    setValue(key<ScaleMode>("formula"), spelled(c.scale));
    setValue("formula/temperature", double(c.temperature));
    setValue(key<SoftmaxAxis>("formula"), spelled(c.axis));
    setValue(key<MaskKind>("formula"), spelled(c.mask));
    setValue(key<MaskFill>("formula"), spelled(c.maskFill));
    setValue(key<MaskStage>("formula"), spelled(c.maskStage));
    setValue(key<HeadSplit>("formula"), spelled(c.headSplit));
    setValue("formula/padding-mask", c.paddingMask);
    setValue(key<AttentionKind>("formula"), spelled(c.attention));
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
