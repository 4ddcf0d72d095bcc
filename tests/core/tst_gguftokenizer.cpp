// ggufVocabulary on real vocabularies: GGUF files holding Qwen3's, Mistral 7B's and GPT-2's
// tokenizers as llama.cpp's converter writes them (tests/data/gguf, gen_gguf_vocab.py), read
// by HfTokenizer, give llama.cpp's own ids on every text of tests/reference/gguf_ids.json
// (gen_gguf_ids.js: llama_tokenize with special tokens parsed, through node-llama-cpp), and
// put BOS (EOS) around a text exactly when llama.cpp does.
#include "io/gguf.h"
#include "io/npz.h"
#include "text/ggufvocab.h"
#include "text/hftokenizer.h"
#include "tokenizerfiles.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

using attn::HfTokenizer;

using attn::test::readOrStop;
using attn::test::toList;
using attn::test::utf8;

namespace {

// The tokenizer ggufVocabulary makes of tests/data/gguf/<name>.gguf.zip's <name>.gguf.
std::unique_ptr<HfTokenizer> zippedGgufTokenizer(const QString& zipPath)
{
    const QByteArray archive = readOrStop(QStringLiteral(ATTN_REFERENCE_DIR "/../../") + zipPath);
    const std::string where = QFileInfo(zipPath).completeBaseName().toStdString();
    attn::NpzReader zip(
        std::as_bytes(std::span(archive.constData(), static_cast<std::size_t>(archive.size()))),
        zipPath.toStdString());
    const auto member = zip.read(where);
    if (!member)
        qFatal("%s has no %s", qPrintable(zipPath), where.c_str());
    const attn::GgufFile file = attn::parseGguf(member->bytes, where);
    return std::make_unique<HfTokenizer>(attn::ggufVocabulary(file, where).json, where);
}

QList<int> idList(const QJsonValue& value)
{
    QList<int> ids;
    for (const auto& id : value.toArray())
        ids << id.toInt();
    return ids;
}

} // namespace

class TestGgufTokenizer : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void matchesLlamaCpp_data();
    void matchesLlamaCpp();

private:
    QJsonArray vocabularies_;
    std::map<QString, std::unique_ptr<HfTokenizer>> tokenizers_; // by file
};

void TestGgufTokenizer::initTestCase()
{
    vocabularies_ =
        QJsonDocument::fromJson(readOrStop(QStringLiteral(ATTN_REFERENCE_DIR "/gguf_ids.json")))
            .object()
            .value(QStringLiteral("vocabularies"))
            .toArray();
    QCOMPARE(vocabularies_.size(), 3);
    for (const auto& value : vocabularies_) {
        const QString file = value.toObject().value(QStringLiteral("file")).toString();
        tokenizers_[file] = zippedGgufTokenizer(file);
    }
}

void TestGgufTokenizer::matchesLlamaCpp_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QList<int>>("ids");
    QTest::addColumn<QList<int>>("withSpecial"); // the ids as llama.cpp's add_special gives
    for (const auto& value : vocabularies_) {
        const QJsonObject vocabulary = value.toObject();
        const QString file = vocabulary.value(QStringLiteral("file")).toString();
        const QString name = QFileInfo(file).completeBaseName();
        const QJsonArray cases = vocabulary.value(QStringLiteral("cases")).toArray();
        QVERIFY2(cases.size() >= 500, qPrintable(name + QStringLiteral(" has too few cases")));
        const auto special = [&](const char* add, const char* id) {
            return vocabulary.value(QLatin1String(add)).toBool()
                       ? QList<int>{vocabulary.value(QLatin1String(id)).toInt()}
                       : QList<int>{};
        };
        const QList<int> bos = special("add_bos", "bos");
        const QList<int> eos = special("add_eos", "eos");
        for (const auto& row : cases) {
            const QJsonObject c = row.toObject();
            const QList<int> ids = idList(c.value(QStringLiteral("ids")));
            QTest::addRow("%s: %s", qPrintable(name),
                          qPrintable(c.value(QStringLiteral("name")).toString()))
                << file << c.value(QStringLiteral("text")).toString() << ids << bos + ids + eos;
        }
    }
}

void TestGgufTokenizer::matchesLlamaCpp()
{
    QFETCH(QString, file);
    QFETCH(QString, text);
    QFETCH(QList<int>, ids);
    QFETCH(QList<int>, withSpecial);
    const HfTokenizer& tokenizer = *tokenizers_.at(file);
    QCOMPARE(toList(tokenizer.encodeIds(utf8(text), false)), ids);
    QCOMPARE(toList(tokenizer.encodeIds(utf8(text), true)), withSpecial);
}

QTEST_GUILESS_MAIN(TestGgufTokenizer)
#include "tst_gguftokenizer.moc"
