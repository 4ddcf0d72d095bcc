// What the tokenizer tests share: a QString's UTF-8, a reference file read or the test
// stopped, ids as a QList for QCOMPARE, and a tokenizer.json from the zip it is committed in
// (tests/data/<model>/tokenizer.json.zip).
#pragma once

#include "io/npz.h"
#include "text/hftokenizer.h"
#include "text/modeltokenizer.h"

#include <QByteArray>
#include <QFile>
#include <QList>
#include <QString>
#include <QStringList>
#include <QtGlobal>

#include <span>
#include <string>
#include <vector>

namespace attn::test {

inline std::string utf8(const QString& text)
{
    const QByteArray bytes = text.toUtf8();
    return {bytes.constData(), static_cast<std::size_t>(bytes.size())};
}

// The file's bytes; a file the test needs and cannot read stops it (qFatal).
inline QByteArray readOrStop(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return file.readAll();
}

inline QList<int> toList(const std::vector<int>& ids)
{
    return {ids.begin(), ids.end()};
}

// The labels of a tokenized text and the length of the run each begins, for QCOMPARE.
struct LabelRuns {
    QStringList labels;
    QList<int> runLengths;
};
inline LabelRuns labelRuns(const TokenizedText& tokens)
{
    LabelRuns out;
    for (const auto& label : tokens.labels) {
        out.labels << QString::fromStdString(label.label);
        out.runLengths << label.runLength;
    }
    return out;
}

// What HfTokenizer says of the tokenizer.json text `json`: its TokenizerFileError's message
// ("tokenizer.json: …"), or "accepted" when it reads the file.
inline QString tokenizerFault(const QByteArray& json)
{
    try {
        (void)HfTokenizer(json.toStdString());
        return QStringLiteral("accepted");
    } catch (const TokenizerFileError& error) {
        return QString::fromUtf8(error.what());
    }
}

// tests/data/`model`/tokenizer.json.zip's tokenizer.json (qwen3, mistral).
inline QByteArray zippedTokenizerJson(const char* model)
{
    const QByteArray archive =
        readOrStop(QStringLiteral(ATTN_REFERENCE_DIR "/../data/") + QLatin1String(model) +
                   QStringLiteral("/tokenizer.json.zip"));
    NpzReader zip(
        std::as_bytes(std::span(archive.constData(), static_cast<std::size_t>(archive.size()))),
        "tokenizer.json.zip");
    const auto member = zip.read("tokenizer.json");
    if (!member)
        qFatal("%s/tokenizer.json.zip has no tokenizer.json", model);
    return {reinterpret_cast<const char*>(member->bytes.data()),
            static_cast<qsizetype>(member->bytes.size())};
}

// The same as text, for the tokenizers' readers.
inline std::string zippedTokenizerText(const char* model)
{
    const QByteArray json = zippedTokenizerJson(model);
    return {json.constData(), static_cast<std::size_t>(json.size())};
}

} // namespace attn::test
