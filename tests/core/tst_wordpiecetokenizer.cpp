// WordPieceTokenizer: a small BERT vocabulary (tests/data/wordpiece, made by
// tests/reference/gen_wordpiece_vocab.js) gives the ids of @huggingface/tokenizers on 594
// texts, lower-cased and cased (tests/reference/gen_wordpiece_ids.js); the basic
// tokenizer's words; tokenizer_config.json's casing; the labels of characters, pieces and
// special tokens; bad folders refused, naming the file and the fault.
#include "engine/options.h"
#include "text/gpt2files.h"
#include "text/wordpiecetokenizer.h"
#include "tokenizerfiles.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using attn::WordPieceTokenizer;

using attn::test::readOrStop;
using attn::test::toList;
using attn::test::utf8;

namespace {

const QString kDataDir = QStringLiteral(ATTN_REFERENCE_DIR "/../data/wordpiece");

QStringList toStrings(const std::vector<std::string>& words)
{
    QStringList out;
    for (const auto& word : words)
        out << QString::fromStdString(word);
    return out;
}

std::string testVocab()
{
    return readOrStop(kDataDir + "/vocab.txt").toStdString();
}

// A tokenizer of the test vocabulary with the casing of `config` (a tokenizer_config.json).
std::unique_ptr<WordPieceTokenizer> withConfig(const char* config)
{
    return WordPieceTokenizer::fromText(testVocab(), std::string_view(config));
}

void writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
}

} // namespace

class TestWordPieceTokenizer : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void matchesJavaScript_data();
    void matchesJavaScript();
    void basicWords_data();
    void basicWords();
    void casing_data();
    void casing();
    void labels_data();
    void labels();
    void modelTokenizerInterface();
    void encodeFromSeveralThreads();
    void invalidUtf8TextIsRefused();
    void badFolders_data();
    void badFolders();

private:
    std::unique_ptr<WordPieceTokenizer> uncased_, cased_;
};

void TestWordPieceTokenizer::initTestCase()
{
    uncased_ = WordPieceTokenizer::fromFolder(utf8(kDataDir));
    cased_ = withConfig(R"({"do_lower_case": false})");
    QCOMPARE(uncased_->vocabularySize(), 2710);
    QVERIFY(uncased_->casing().lowerCase);
    QVERIFY(uncased_->casing().stripsAccents());
    QVERIFY(!cased_->casing().lowerCase);
    QVERIFY(!cased_->casing().stripsAccents());
}

void TestWordPieceTokenizer::matchesJavaScript_data()
{
    QTest::addColumn<bool>("lowercase");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QList<int>>("ids");
    const QJsonObject root =
        QJsonDocument::fromJson(
            readOrStop(QStringLiteral(ATTN_REFERENCE_DIR "/wordpiece_ids.json")))
            .object();
    const QJsonArray cases = root.value(QStringLiteral("cases")).toArray();
    QVERIFY2(cases.size() >= 1000, "tests/reference/wordpiece_ids.json has too few cases");
    for (const auto& value : cases) {
        const QJsonObject row = value.toObject();
        const bool lowercase = row.value(QStringLiteral("lowercase")).toBool();
        QList<int> ids;
        for (const auto& id : row.value(QStringLiteral("ids")).toArray())
            ids << id.toInt();
        const QString name = row.value(QStringLiteral("name")).toString() +
                             (lowercase ? QStringLiteral(", uncased") : QStringLiteral(", cased"));
        QTest::newRow(qPrintable(name))
            << lowercase << row.value(QStringLiteral("text")).toString() << ids;
    }
}

void TestWordPieceTokenizer::matchesJavaScript()
{
    QFETCH(bool, lowercase);
    QFETCH(QString, text);
    QFETCH(QList<int>, ids);
    const WordPieceTokenizer& tokenizer = lowercase ? *uncased_ : *cased_;
    QCOMPARE(toList(tokenizer.encodeIds(utf8(text))), ids);
}

void TestWordPieceTokenizer::basicWords_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("uncased");
    QTest::addColumn<QStringList>("cased");
    QTest::newRow("punctuation and han")
        << QStringLiteral("Hello, 世界!") << QStringList{"hello", ",", "世", "界", "!"}
        << QStringList{"Hello", ",", "世", "界", "!"};
    QTest::newRow("accents") << QStringLiteral("Café NAÏVE") << QStringList{"cafe", "naive"}
                             << QStringList{"Café", "NAÏVE"};
    QTest::newRow("mask stays as typed")
        << QStringLiteral("I[MASK]it") << QStringList{"i", "[MASK]", "it"}
        << QStringList{"I", "[MASK]", "it"};
    QTest::newRow("mask in lower case is text")
        << QStringLiteral("[mask]") << QStringList{"[", "mask", "]"}
        << QStringList{"[", "mask", "]"};
    QTest::newRow("controls dropped, white space splits")
        << QStringLiteral("a\u0000b\u200Bc\u3000d\te") << QStringList{"abc", "d", "e"}
        << QStringList{"abc", "d", "e"};
    QTest::newRow("kana and hangul stay whole, hangul decomposed when uncased")
        << QStringLiteral("こんにちは한국")
        << QStringList{QStringLiteral("こんにちは\u1112\u1161\u11AB\u1100\u116E\u11A8")}
        << QStringList{"こんにちは한국"};
    QTest::newRow("extension b apart")
        << QStringLiteral("a\U00020000b") << QStringList{"a", "\U00020000", "b"}
        << QStringList{"a", "\U00020000", "b"};
    QTest::newRow("empty") << QString() << QStringList{} << QStringList{};
}

void TestWordPieceTokenizer::basicWords()
{
    QFETCH(QString, text);
    QFETCH(QStringList, uncased);
    QFETCH(QStringList, cased);
    QCOMPARE(toStrings(uncased_->basicWords(utf8(text))), uncased);
    QCOMPARE(toStrings(cased_->basicWords(utf8(text))), cased);
}

void TestWordPieceTokenizer::casing_data()
{
    QTest::addColumn<QString>("config");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("words");
    QTest::newRow("no fields: lower case, no accents")
        << "{}" << QStringLiteral("Café 中文") << QStringList{"cafe", "中", "文"};
    QTest::newRow("cased keeps accents")
        << R"({"do_lower_case": false})" << QStringLiteral("Café") << QStringList{"Café"};
    QTest::newRow("cased, accents stripped") << R"({"do_lower_case": false, "strip_accents": true})"
                                             << QStringLiteral("Café") << QStringList{"Cafe"};
    QTest::newRow("lower case, accents kept")
        << R"({"do_lower_case": true, "strip_accents": false})" << QStringLiteral("Café")
        << QStringList{"café"};
    QTest::newRow("strip_accents null") << R"({"do_lower_case": true, "strip_accents": null})"
                                        << QStringLiteral("Café") << QStringList{"cafe"};
    QTest::newRow("chinese characters not apart")
        << R"({"tokenize_chinese_chars": false})" << QStringLiteral("中文 x")
        << QStringList{"中文", "x"};
    QTest::newRow("other fields ignored")
        << R"({"model_max_length": 512, "tokenizer_class": "BertTokenizer"})" << QStringLiteral("A")
        << QStringList{"a"};
}

void TestWordPieceTokenizer::casing()
{
    QFETCH(QString, config);
    QFETCH(QString, text);
    QFETCH(QStringList, words);
    const auto tokenizer = withConfig(utf8(config).c_str());
    QCOMPARE(toStrings(tokenizer->basicWords(utf8(text))), words);
}

void TestWordPieceTokenizer::labels_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("labels");
    QTest::addColumn<QStringList>("pieces");
    QTest::newRow("chinese characters")
        << QStringLiteral("我喜欢这个产品")
        << QStringList{"[CLS]", "我", "喜", "欢", "这", "个", "产", "品", "[SEP]"}
        << QStringList{"[CLS]", "我", "喜", "欢", "这", "个", "产", "品", "[SEP]"};
    QTest::newRow("pieces spell their letters")
        << QStringLiteral("unaffable") << QStringList{"[CLS]", "un", "aff", "able", "[SEP]"}
        << QStringList{"[CLS]", "un", "##aff", "##able", "[SEP]"};
    QTest::newRow("mask") << QStringLiteral("[MASK]") << QStringList{"[CLS]", "[MASK]", "[SEP]"}
                          << QStringList{"[CLS]", "[MASK]", "[SEP]"};
    QTest::newRow("unknown") << QStringLiteral("黎") << QStringList{"[CLS]", "[UNK]", "[SEP]"}
                             << QStringList{"[CLS]", "[UNK]", "[SEP]"};
}

void TestWordPieceTokenizer::labels()
{
    QFETCH(QString, text);
    QFETCH(QStringList, labels);
    QFETCH(QStringList, pieces);
    const auto found = uncased_->tokenize(utf8(text));
    QStringList foundLabels, foundPieces;
    for (const auto& label : found.labels) {
        foundLabels << QString::fromStdString(label.label);
        foundPieces << QString::fromStdString(label.piece);
        QCOMPARE(label.runLength, 1);
        QVERIFY(!label.continuation);
    }
    QCOMPARE(foundLabels, labels);
    QCOMPARE(foundPieces, pieces);
}

void TestWordPieceTokenizer::modelTokenizerInterface()
{
    const WordPieceTokenizer& t = *uncased_;
    QCOMPARE(t.token(t.clsId()), std::string("[CLS]"));
    QCOMPARE(t.token(t.sepId()), std::string("[SEP]"));
    QCOMPARE(t.token(t.unkId()), std::string("[UNK]"));
    QVERIFY(t.maskId());
    QCOMPARE(t.token(*t.maskId()), std::string("[MASK]"));
    QCOMPARE(t.padId(), std::optional<int>(0));
    QCOMPARE(t.clsId(), 12);
    QCOMPARE(t.sepId(), 13);
    const auto aff = t.id("##aff");
    QVERIFY(aff);
    QCOMPARE(t.bytes(*aff), std::string("aff"));
    QCOMPARE(t.token(*aff), std::string("##aff"));
    QCOMPARE(t.bytes(*t.id("#")), std::string("#"));
    QCOMPARE(t.bytes(*t.maskId()), std::string("[MASK]"));
    QCOMPARE(t.id("not in it"), std::nullopt);
    const std::vector<int> ids = t.encodeIds("unaffable");
    QCOMPARE(t.decode(ids), std::string("[CLS]unaffable[SEP]"));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, (void)t.token(t.vocabularySize()));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, (void)t.bytes(-1));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, (void)t.label(99999));
}

void TestWordPieceTokenizer::encodeFromSeveralThreads()
{
    const std::string text = "猫坐在垫子上，因为它很累。The cat sat on the [MASK] mat, unaffable.";
    const std::vector<int> expected = uncased_->encodeIds(text);
    std::vector<std::vector<int>> found(4);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < found.size(); ++i)
        threads.emplace_back([&, i] {
            for (int repeat = 0; repeat < 50; ++repeat)
                found[i] = uncased_->encodeIds(text);
        });
    for (auto& thread : threads)
        thread.join();
    for (const auto& ids : found)
        QCOMPARE(ids, expected);
}

void TestWordPieceTokenizer::invalidUtf8TextIsRefused()
{
    try {
        (void)uncased_->encodeIds("abc\xE4\xBD");
        QFAIL("invalid UTF-8 was encoded");
    } catch (const attn::InputError& error) {
        QCOMPARE(error.refusal(), attn::Refusal::InvalidUtf8);
        QCOMPARE(error.arguments(), std::vector<std::string>{"3"});
    }
}

void TestWordPieceTokenizer::badFolders_data()
{
    QTest::addColumn<QByteArray>("vocab");  // vocab.txt, none when null
    QTest::addColumn<QByteArray>("config"); // tokenizer_config.json, none when null
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("fault"); // a part of what() after the file
    const QByteArray specials("[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\n");
    const QByteArray vocab = specials + "a\n##b\n";
    QTest::newRow("vocab missing") << QByteArray() << QByteArray() << "vocab.txt"
                                   << "the file is missing";
    QTest::newRow("vocab empty") << QByteArray("") << QByteArray() << "vocab.txt"
                                 << "the file is empty";
    QTest::newRow("vocab token twice") << QByteArray(vocab + "a\n") << QByteArray() << "vocab.txt"
                                       << "the token \"a\" is on line 6 and again on line 8";
    QTest::newRow("vocab token twice, crlf")
        << QByteArray("[UNK]\r\n[CLS]\r\n[SEP]\r\nx\r\nx") << QByteArray() << "vocab.txt"
        << "the token \"x\" is on line 4 and again on line 5";
    QTest::newRow("vocab without unk")
        << QByteArray("[PAD]\n[CLS]\n[SEP]\na\n") << QByteArray() << "vocab.txt"
        << "the vocabulary has no [UNK] token";
    QTest::newRow("vocab without cls")
        << QByteArray("[UNK]\n[SEP]\na\n") << QByteArray() << "vocab.txt"
        << "the vocabulary has no [CLS] token";
    QTest::newRow("vocab without sep")
        << QByteArray("[UNK]\n[CLS]\na\n") << QByteArray() << "vocab.txt"
        << "the vocabulary has no [SEP] token";
    QTest::newRow("vocab lower-case specials")
        << QByteArray("[unk]\n[cls]\n[sep]\n") << QByteArray() << "vocab.txt"
        << "the vocabulary has no [UNK] token";
    QTest::newRow("vocab not utf-8")
        << QByteArray(specials + "ok\nbad\xFF\n") << QByteArray() << "vocab.txt"
        << "line 7 is not valid UTF-8";
    QTest::newRow("config not JSON")
        << vocab << QByteArray("{\"do_lower_case\": tru") << "tokenizer_config.json"
        << "not JSON: line 1, column 19";
    QTest::newRow("config not an object")
        << vocab << QByteArray("[true]") << "tokenizer_config.json"
        << "not a JSON object";
    QTest::newRow("config lower case a string")
        << vocab << QByteArray(R"({"do_lower_case": "yes"})") << "tokenizer_config.json"
        << "\"do_lower_case\" is not true or false";
    QTest::newRow("config strip accents a number")
        << vocab << QByteArray(R"({"strip_accents": 1})") << "tokenizer_config.json"
        << "\"strip_accents\" is not true or false (or null)";
    QTest::newRow("config chinese null")
        << vocab << QByteArray(R"({"tokenize_chinese_chars": null})") << "tokenizer_config.json"
        << "\"tokenize_chinese_chars\" is not true or false";
    QTest::newRow("bad vocab told before bad config")
        << QByteArray("a\n") << QByteArray("{") << "vocab.txt"
        << "no [UNK]";
}

void TestWordPieceTokenizer::badFolders()
{
    QFETCH(QByteArray, vocab);
    QFETCH(QByteArray, config);
    QFETCH(QString, file);
    QFETCH(QString, fault);
    QTemporaryDir dir;
    if (!vocab.isNull())
        writeFile(dir.filePath("vocab.txt"), vocab);
    if (!config.isNull())
        writeFile(dir.filePath("tokenizer_config.json"), config);
    try {
        (void)WordPieceTokenizer::fromFolder(utf8(dir.path()));
        QFAIL("a bad folder was accepted");
    } catch (const attn::TokenizerFileError& error) {
        QCOMPARE(QString::fromStdString(error.file().string()), dir.filePath(file));
        QVERIFY2(QString::fromStdString(error.fault()).contains(fault), error.what());
    }
}

QTEST_GUILESS_MAIN(TestWordPieceTokenizer)
#include "tst_wordpiecetokenizer.moc"
