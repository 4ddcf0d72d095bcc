// What the session tests share: a base session and its JSON, edits of that JSON, the
// rows of every value of a switch, a request with every field set, and file reading
// and writing.
#pragma once

#include "base/json.h"
#include "figurefile.h"
#include "filebytes.h"
#include "filesizelimit.h"
#include "formats/report.h"
#include "formats/requestfields.h"
#include "language.h"
#include "session.h"
#include "settings.h"
#include "systemerror.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

Q_DECLARE_METATYPE(attn::ui::Session)
Q_DECLARE_METATYPE(attn::Request)

namespace attn::ui::test {

using namespace Qt::StringLiterals;

using Edit = std::function<void(QJsonObject& root)>;

inline const QJsonValue kRemoved(QJsonValue::Undefined); // setIn/setRoot remove the key

inline Session baseSession()
{
    Session s;
    s.request.text = "the cat sat on the mat\nit was tired";
    s.request.config.dModel = 16;
    s.request.config.heads = 4;
    return s;
}

inline QJsonObject baseJson()
{
    return QJsonDocument::fromJson(sessionToJson(baseSession())).object();
}

inline QByteArray edited(const Edit& edit)
{
    QJsonObject root = baseJson();
    edit(root);
    return QJsonDocument(root).toJson(QJsonDocument::Compact);
}

// Sets root[object][key] = value; kRemoved removes the key.
inline Edit setIn(const QString& object, const QString& key, const QJsonValue& value)
{
    return [=](QJsonObject& root) {
        QJsonObject inner = root.value(object).toObject();
        if (value.isUndefined())
            inner.remove(key);
        else
            inner.insert(key, value);
        root.insert(object, inner);
    };
}

inline Edit setRoot(const QString& key, const QJsonValue& value)
{
    return [=](QJsonObject& root) {
        if (value.isUndefined())
            root.remove(key);
        else
            root.insert(key, value);
    };
}

inline QString latin1(std::string_view text)
{
    return QString::fromLatin1(text.data(), qsizetype(text.size()));
}

// One round-trip row per value of E, named "option=spelling".
template <typename E> void addEnumRows(void (*set)(Config&, E))
{
    for (const auto& row : EnumTable<E>::rows) {
        Session s = baseSession();
        set(s.request.config, row.value);
        QTest::addRow("%s=%s", EnumTable<E>::option.data(), row.text.data()) << s;
    }
}

using attn::test::readAll;
using attn::test::writeAll;

// Every field of the request away from its default (a causal mask needs self-attention,
// so `cross` chooses between the two), the cross text kept either way.
inline Request everyField(bool cross)
{
    Request r;
    r.text = "the cat sat\nthe dog sat on the mat";
    r.crossText = "le chat a dormi";
    Config& c = r.config;
    c.attention = cross ? AttentionKind::Cross : AttentionKind::Self;
    c.tokenizer = TokenizerMode::Spaces;
    c.dModel = 24;
    c.heads = 3;
    c.seed = std::numeric_limits<std::uint64_t>::max();
    c.embedding = EmbeddingMode::Torch;
    c.positional = Positional::None;
    c.scale = ScaleMode::SqrtDModel;
    c.temperature = 0.7f;
    c.axis = SoftmaxAxis::Queries;
    c.mask = cross ? MaskKind::None : MaskKind::Causal;
    c.maskFill = MaskFill::NegBillion;
    c.maskStage = MaskStage::AfterSoftmax;
    c.headSplit = HeadSplit::View;
    c.paddingMask = false;
    // Today's models' (a sink needs the softmax over the keys: its own rows test it).
    c.kvHeads = 1;
    c.qkNorm = true;
    c.ropeTheta = 123.5f;
    c.alibi = true;
    c.softcap = 30;
    c.window = 2;
    return r;
}

} // namespace attn::ui::test
