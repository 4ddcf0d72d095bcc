// HfTokenizer: Qwen3's real tokenizer.json (tests/data/qwen3) gives the ids of two
// independent JavaScript readers of it on 485 texts (tests/reference/gen_hf_ids.js); the
// labels of byte runs and special tokens; what a small tokenizer.json's options do
// (ignore_merges, a template, lstrip/rstrip); bad files refused, naming tokenizer.json
// and the fault.
#include "engine/options.h"
#include "text/gpt2tokenizer.h"
#include "text/hftokenizer.h"
#include "tokenizerfiles.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using attn::HfTokenizer;

using attn::test::readOrStop;
using attn::test::toList;
using attn::test::utf8;
using attn::test::zippedTokenizerText;

namespace {

// GPT-2's byte alphabet: the letter byte `b` is spelt with in a vocabulary.
QString byteLetter(int b)
{
    const bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE);
    if (printable)
        return QString(QChar(b));
    int next = 256;
    for (int c = 0; c < b; ++c)
        if (!((c >= '!' && c <= '~') || (c >= 0xA1 && c <= 0xAC) || (c >= 0xAE)))
            ++next;
    return QString(QChar(next));
}

// A small byte-level tokenizer.json: ids 0–255 the bytes, 256 "ab", 257 "abc" (no merge
// makes it), 258 "Ġx"; added tokens 300 "<s>" and 301 "<mask>" (which swallows the white
// space on either side); Qwen's pattern; NFC.
QJsonObject tinyTokenizer()
{
    QJsonObject vocab;
    for (int b = 0; b < 256; ++b)
        vocab.insert(byteLetter(b), b);
    vocab.insert(QStringLiteral("ab"), 256);
    vocab.insert(QStringLiteral("abc"), 257);
    vocab.insert(QStringLiteral("\u0120x"), 258);
    const QJsonArray merges{QJsonArray{"a", "b"}, QStringLiteral("\u0120 x")};
    const QJsonObject model{{"type", "BPE"},          {"vocab", vocab},
                            {"merges", merges},       {"ignore_merges", false},
                            {"byte_fallback", false}, {"dropout", QJsonValue()}};
    const QJsonArray added{
        QJsonObject{{"id", 300}, {"content", "<s>"}, {"special", true}},
        QJsonObject{{"id", 301}, {"content", "<mask>"}, {"lstrip", true}, {"rstrip", true}}};
    const QJsonObject split{
        {"type", "Split"},
        {"pattern", QJsonObject{{"Regex", "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?"
                                          "\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*"
                                          "[\\r\\n]+|\\s+(?!\\S)|\\s+"}}},
        {"behavior", "Isolated"},
        {"invert", false}};
    const QJsonObject byteLevel{
        {"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", false}};
    return {{"version", "1.0"},
            {"added_tokens", added},
            {"normalizer", QJsonObject{{"type", "NFC"}}},
            {"pre_tokenizer",
             QJsonObject{{"type", "Sequence"}, {"pretokenizers", QJsonArray{split, byteLevel}}}},
            {"post_processor", QJsonValue()},
            {"model", model}};
}

using Edit = std::function<void(QJsonObject& root, QJsonObject& model)>;

std::string tinyWith(const Edit& edit)
{
    QJsonObject root = tinyTokenizer();
    QJsonObject model = root.value("model").toObject();
    edit(root, model);
    if (!model.isEmpty())
        root.insert("model", model);
    return QJsonDocument(root).toJson(QJsonDocument::Compact).toStdString();
}

} // namespace

class TestHfTokenizer : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void matchesJavaScript_data();
    void matchesJavaScript();
    void labels_data();
    void labels();
    void specialTokens();
    void modelTokenizerInterface();
    void tinyTokenizer_data();
    void tinyTokenizer();
    void encodeFromSeveralThreads();
    void unknownIdIsRefused();
    void invalidUtf8TextIsRefused();
    void missingFileIsRefused();
    void badFiles_data();
    void badFiles();

private:
    std::optional<HfTokenizer> qwen3_;
};

void TestHfTokenizer::initTestCase()
{
    qwen3_.emplace(zippedTokenizerText("qwen3"));
    QCOMPARE(qwen3_->vocabularySize(), 151669);
    QCOMPARE(qwen3_->addedTokens().size(), std::size_t(26));
    QVERIFY(qwen3_->templatePrefix().empty());
    QVERIFY(qwen3_->templateSuffix().empty());
}

void TestHfTokenizer::matchesJavaScript_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QList<int>>("ids");
    const QJsonObject root =
        QJsonDocument::fromJson(readOrStop(QStringLiteral(ATTN_REFERENCE_DIR "/qwen3_ids.json")))
            .object();
    const QJsonArray cases = root.value(QStringLiteral("cases")).toArray();
    QVERIFY2(cases.size() >= 400, "tests/reference/qwen3_ids.json has too few cases");
    for (const auto& value : cases) {
        const QJsonObject row = value.toObject();
        QList<int> ids;
        for (const auto& id : row.value(QStringLiteral("ids")).toArray())
            ids << id.toInt();
        QTest::newRow(qPrintable(row.value(QStringLiteral("name")).toString()))
            << row.value(QStringLiteral("text")).toString() << ids;
    }
}

// Every text's ids, and decode() gives the text back in NFC.
void TestHfTokenizer::matchesJavaScript()
{
    QFETCH(QString, text);
    QFETCH(QList<int>, ids);
    const std::vector<int> found = qwen3_->encodeIds(utf8(text));
    QCOMPARE(toList(found), ids);
    QCOMPARE(qwen3_->decode(found), utf8(text.normalized(QString::NormalizationForm_C)));
}

void TestHfTokenizer::labels_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("labels");
    QTest::addColumn<QList<int>>("runLengths");
    QTest::newRow("chinese words") << QStringLiteral("我喜欢这个产品")
                                   << QStringList{"我喜欢", "这个", "产品"} << QList<int>{1, 1, 1};
    QTest::newRow("rare han split into bytes")
        << QStringLiteral("\U00020000\U0002A6D6")
        << QStringList{"\U00020000", "\u22EF", "\u22EF", "\U0002A6D6", "\u22EF", "\u22EF"}
        << QList<int>{3, 3, 3, 3, 3, 3};
    QTest::newRow("zwj family one cluster") << QStringLiteral("👨‍👩‍👧‍👦")
                                            << QStringList{"👨‍👩‍👧‍👦",
                                                           "\u22EF",
                                                           "\u22EF",
                                                           "\u22EF",
                                                           "\u22EF",
                                                           "\u22EF",
                                                           "\u22EF",
                                                           "\u22EF",
                                                           "\u22EF",
                                                           "\u22EF"}
                                            << QList<int>(10, 10);
    QTest::newRow("special tokens and newline")
        << QStringLiteral("<|im_start|>user\n你好<|im_end|>")
        << QStringList{"<|im_start|>", "user", "\u21B5", "你好", "<|im_end|>"}
        << QList<int>{1, 1, 1, 1, 1};
    QTest::newRow("space run") << QStringLiteral("  x") << QStringList{"\u2423", " x"}
                               << QList<int>{1, 1};
}

// Labels are readable: a character over several tokens shown whole by the first.
void TestHfTokenizer::labels()
{
    QFETCH(QString, text);
    QFETCH(QStringList, labels);
    QFETCH(QList<int>, runLengths);
    const attn::test::LabelRuns found = attn::test::labelRuns(qwen3_->tokenize(utf8(text)));
    QCOMPARE(found.labels, labels);
    QCOMPARE(found.runLengths, runLengths);
}

void TestHfTokenizer::specialTokens()
{
    QCOMPARE(qwen3_->id("<|im_start|>"), std::optional<int>(151644));
    QCOMPARE(qwen3_->token(151645), std::string("<|im_end|>"));
    QCOMPARE(qwen3_->bytes(151643), std::string("<|endoftext|>"));
    QCOMPARE(qwen3_->id("\xC4\xA0the"), std::optional<int>(279)); // "Ġthe"
    const auto& endOfText = qwen3_->addedTokens().front();
    QCOMPARE(endOfText.content, std::string("<|endoftext|>"));
    QVERIFY(endOfText.special);
    QVERIFY(!qwen3_->addedTokens().back().special); // </think>
    QCOMPARE(toList(qwen3_->encodeIds("<|im_start|>x", false)),
             toList(qwen3_->encodeIds("<|im_start|>x", true)));
}

// The model holds either tokenizer as a ModelTokenizer.
void TestHfTokenizer::modelTokenizerInterface()
{
    const attn::Gpt2Tokenizer gpt2 =
        attn::Gpt2Tokenizer::fromFolder(ATTN_REFERENCE_DIR "/../data/gpt2");
    for (const attn::ModelTokenizer* tokenizer :
         {static_cast<const attn::ModelTokenizer*>(&gpt2),
          static_cast<const attn::ModelTokenizer*>(&*qwen3_)}) {
        const attn::TokenizedText tokens = tokenizer->tokenize("The cat sat.");
        QCOMPARE(tokens.ids.size(), std::size_t(4));
        QCOMPARE(tokens.labels, tokenizer->labels(tokens.ids));
        QCOMPARE(tokenizer->label(tokens.ids[1]).label, std::string(" cat"));
        QCOMPARE(tokenizer->decode(tokens.ids), std::string("The cat sat."));
    }
}

void TestHfTokenizer::tinyTokenizer_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QList<int>>("ids");
    const auto tiny = [](const Edit& edit) { return QByteArray::fromStdString(tinyWith(edit)); };
    const auto withPre = [&](const QJsonObject& preTokenizer) {
        return tiny([preTokenizer](QJsonObject& root, QJsonObject&) {
            root.insert("pre_tokenizer", preTokenizer);
        });
    };
    const QByteArray plain = tiny([](QJsonObject&, QJsonObject&) {});
    QTest::newRow("merges") << plain << "abc x" << QList<int>{256, 'c', 258};
    QTest::newRow("ignore_merges takes a whole piece")
        << tiny([](QJsonObject&, QJsonObject& model) { model.insert("ignore_merges", true); })
        << "abc x" << QList<int>{257, 258};
    QTest::newRow("added tokens") << plain << "<s>ab<s>" << QList<int>{300, 256, 300};
    QTest::newRow("lstrip and rstrip swallow white space")
        << plain << "ab  <mask>\n x" << QList<int>{256, 301, 'x'};
    QTest::newRow("NFC before merges") << plain << "a\u0301" << QList<int>{0xC3, 0xA1};

    // Llama 3's post-processor: a Sequence of ByteLevel and a template.
    const auto special = [](const char* name) {
        return QJsonObject{{"SpecialToken", QJsonObject{{"id", name}}}};
    };
    const QJsonObject text{{"Sequence", QJsonObject{{"id", "A"}}}};
    const QJsonObject specials{{"<s>", QJsonObject{{"ids", QJsonArray{300}}}},
                               {"</s>", QJsonObject{{"ids", QJsonArray{'!'}}}}};
    const QJsonObject templated{{"type", "TemplateProcessing"},
                                {"single", QJsonArray{special("<s>"), text, special("</s>")}},
                                {"special_tokens", specials}};
    const QJsonObject processor{
        {"type", "Sequence"},
        {"processors", QJsonArray{QJsonObject{{"type", "ByteLevel"}}, templated}}};
    QTest::newRow("template prefix and suffix")
        << tiny([processor](QJsonObject& root, QJsonObject&) {
               root.insert("post_processor", processor);
           })
        << "ab" << QList<int>{300, 256, '!'};

    QTest::newRow("ByteLevel alone with GPT-2's regex and a prefix space")
        << withPre(QJsonObject{{"type", "ByteLevel"}, {"add_prefix_space", true}}) << "x"
        << QList<int>{258};
    const QJsonObject literal{
        {"type", "Split"}, {"pattern", QJsonObject{{"String", "b"}}}, {"behavior", "Isolated"}};
    const QJsonObject bytes{{"type", "ByteLevel"}, {"use_regex", false}};
    QTest::newRow("Split by a literal string")
        << withPre(QJsonObject{{"type", "Sequence"}, {"pretokenizers", QJsonArray{literal, bytes}}})
        << "abab" << QList<int>{'a', 'b', 'a', 'b'};
}

// What the options of a small tokenizer.json do.
void TestHfTokenizer::tinyTokenizer()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, text);
    QFETCH(QList<int>, ids);
    const HfTokenizer tokenizer(json.toStdString());
    QCOMPARE(toList(tokenizer.encodeIds(utf8(text))), ids);
}

// One tokenizer shared by threads gives each the ids it gives alone (the merge cache and
// ICU's matchers are per call or locked).
void TestHfTokenizer::encodeFromSeveralThreads()
{
    const std::vector<std::string> texts{"<|im_start|>user\n我喜欢这个产品<|im_end|>",
                                         "The cat sat on the mat.", "猫坐在垫子上\n它很累",
                                         "def f(x):\n    return x ** 2\n"};
    const HfTokenizer fresh(zippedTokenizerText("qwen3")); // its cache empty
    std::vector<std::vector<int>> alone;
    for (const auto& text : texts)
        alone.push_back(fresh.encodeIds(text));
    std::vector<std::vector<std::vector<int>>> found(texts.size());
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < texts.size(); ++t)
        threads.emplace_back([&, t] {
            for (int round = 0; round < 50; ++round)
                found[t].push_back(qwen3_->encodeIds(texts[(t + round) % texts.size()]));
        });
    for (auto& thread : threads)
        thread.join();
    for (std::size_t t = 0; t < texts.size(); ++t)
        for (int round = 0; round < 50; ++round)
            QCOMPARE(found[t][static_cast<std::size_t>(round)],
                     alone[(t + static_cast<std::size_t>(round)) % texts.size()]);
}

void TestHfTokenizer::unknownIdIsRefused()
{
    const std::vector<int> tooLarge{151669};
    const std::vector<int> negative{-1};
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, (void)qwen3_->decode(tooLarge));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, (void)qwen3_->labels(negative));
    QCOMPARE(qwen3_->id("no such token"), std::nullopt);
}

void TestHfTokenizer::invalidUtf8TextIsRefused()
{
    try {
        (void)qwen3_->encodeIds("ok \xC3\x28");
        QFAIL("invalid UTF-8 was accepted");
    } catch (const attn::InputError& error) {
        QCOMPARE(error.refusal(), attn::Refusal::InvalidUtf8);
        QCOMPARE(error.arguments(), std::vector<std::string>{"3"});
    }
}

void TestHfTokenizer::missingFileIsRefused()
{
    QTemporaryDir dir;
    const std::string path = utf8(dir.filePath("tokenizer.json"));
    try {
        (void)HfTokenizer::fromFile(path);
        QFAIL("a missing file was accepted");
    } catch (const attn::TokenizerFileError& error) {
        QCOMPARE(error.file().string(), path);
        QVERIFY2(QString::fromUtf8(error.what()).contains("the file is missing"), error.what());
    }
}

void TestHfTokenizer::badFiles_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("fault"); // a part of what() after "tokenizer.json: "
    const auto tiny = [](const Edit& edit) { return QByteArray::fromStdString(tinyWith(edit)); };
    const auto preTokenizer = [&](const QJsonObject& step) {
        return tiny([step](QJsonObject& root, QJsonObject&) {
            root.insert("pre_tokenizer",
                        QJsonObject{{"type", "Sequence"},
                                    {"pretokenizers",
                                     QJsonArray{step, QJsonObject{{"type", "ByteLevel"}}}}});
        });
    };
    const auto split = [](const QJsonObject& pattern, const QString& behavior) {
        return QJsonObject{{"type", "Split"}, {"pattern", pattern}, {"behavior", behavior}};
    };
    QTest::newRow("not JSON") << QByteArray("{\"model\": ")
                              << "line 1, column 11: the text ends early";
    QTest::newRow("not an object") << QByteArray("[1, 2]") << "the file is not a JSON object";
    QTest::newRow("model missing") << tiny([](QJsonObject& root, QJsonObject& model) {
        root.remove("model");
        model = {};
    }) << "there is no \"model\"";
    QTest::newRow("model WordPiece")
        << tiny([](QJsonObject&, QJsonObject& model) { model.insert("type", "WordPiece"); })
        << "the model type \"WordPiece\" is not supported (supported: BPE";
    QTest::newRow("model Unigram")
        << tiny([](QJsonObject&, QJsonObject& model) { model.insert("type", "Unigram"); })
        << "the model type \"Unigram\" is not supported";
    QTest::newRow("byte_fallback")
        << tiny([](QJsonObject&, QJsonObject& model) { model.insert("byte_fallback", true); })
        << "byte_fallback";
    QTest::newRow("subword prefix") << tiny([](QJsonObject&, QJsonObject& model) {
        model.insert("continuing_subword_prefix", "##");
    }) << "continuing_subword_prefix is not supported";
    QTest::newRow("vocab missing")
        << tiny([](QJsonObject&, QJsonObject& model) { model.remove("vocab"); })
        << "the model has no \"vocab\" object";
    QTest::newRow("vocab id a string") << tiny([](QJsonObject&, QJsonObject& model) {
        QJsonObject vocab = model.value("vocab").toObject();
        vocab.insert("ab", "256");
        model.insert("vocab", vocab);
    }) << "the vocab's id of \"ab\" is not a whole number";
    QTest::newRow("vocab byte missing") << tiny([](QJsonObject&, QJsonObject& model) {
        QJsonObject vocab = model.value("vocab").toObject();
        vocab.remove("!");
        model.insert("vocab", vocab);
    }) << "the token of byte 33";
    QTest::newRow("vocab outside the byte alphabet") << tiny([](QJsonObject&, QJsonObject& model) {
        QJsonObject vocab = model.value("vocab").toObject();
        vocab.insert("a b", 259);
        model.insert("vocab", vocab);
    }) << "the token with id 259 is not spelt in GPT-2's byte alphabet";
    QTest::newRow("merges missing")
        << tiny([](QJsonObject&, QJsonObject& model) { model.remove("merges"); })
        << "the model has no \"merges\" list";
    QTest::newRow("merge of unknown tokens") << tiny([](QJsonObject&, QJsonObject& model) {
        model.insert("merges", QJsonArray{QJsonValue(QJsonArray{"zq", "xj"})});
    }) << "the merge \"zq xj\" (rank 0) needs \"zq\", which model.vocab lacks";
    QTest::newRow("merge whose result is unknown") << tiny([](QJsonObject&, QJsonObject& model) {
        model.insert("merges", QJsonArray{"a b", "b a"});
    }) << "the merge \"b a\" (rank 1) needs \"ba\", which model.vocab lacks";
    QTest::newRow("merge of three tokens") << tiny([](QJsonObject&, QJsonObject& model) {
        model.insert("merges", QJsonArray{"a b c"});
    }) << "the merge of rank 0 is neither";
    QTest::newRow("pre-tokenizer missing")
        << tiny([](QJsonObject& root, QJsonObject&) { root.remove("pre_tokenizer"); })
        << "there is no pre_tokenizer";
    QTest::newRow("pre-tokenizer Metaspace")
        << preTokenizer(QJsonObject{{"type", "Metaspace"}})
        << "the pre-tokenizer \"Metaspace\" is not supported (supported: ByteLevel, Split";
    QTest::newRow("pre-tokenizer without ByteLevel") << tiny([](QJsonObject& root, QJsonObject&) {
        root.insert("pre_tokenizer", QJsonObject{{"type", "Split"},
                                                 {"pattern", QJsonObject{{"Regex", "\\s+"}}},
                                                 {"behavior", "Isolated"}});
    }) << "the pre_tokenizer has no ByteLevel step";
    QTest::newRow("Split removed") << preTokenizer(split({{"Regex", "x"}}, "Removed"))
                                   << "behavior \"Removed\" is not supported (supported: Isolated)";
    QTest::newRow("Split bad regex") << preTokenizer(split({{"Regex", "(x"}}, "Isolated"))
                                     << "ICU cannot compile the Split pattern \"(x\"";
    QTest::newRow("Split without pattern")
        << preTokenizer(split({}, "Isolated")) << "a Split pre-tokenizer has no pattern";
    QTest::newRow("normalizer Lowercase") << tiny([](QJsonObject& root, QJsonObject&) {
        root.insert("normalizer", QJsonObject{{"type", "Lowercase"}});
    }) << "the normalizer \"Lowercase\" is not supported";
    QTest::newRow("post-processor BertProcessing") << tiny([](QJsonObject& root, QJsonObject&) {
        root.insert("post_processor", QJsonObject{{"type", "BertProcessing"}});
    }) << "the post_processor \"BertProcessing\" is not supported";
    QTest::newRow("template names an unknown token") << tiny([](QJsonObject& root, QJsonObject&) {
        root.insert("post_processor",
                    QJsonObject{{"type", "TemplateProcessing"},
                                {"single", QJsonArray{QJsonObject{
                                               {"SpecialToken", QJsonObject{{"id", "<x>"}}}}}},
                                {"special_tokens", QJsonObject{}}});
    }) << "its \"special_tokens\" lacks";
    QTest::newRow("added token single_word") << tiny([](QJsonObject& root, QJsonObject&) {
        root.insert("added_tokens", QJsonArray{QJsonObject{
                                        {"id", 300}, {"content", "<s>"}, {"single_word", true}}});
    }) << "the added token \"<s>\" is single_word, which is not supported";
    QTest::newRow("added tokens with one id") << tiny([](QJsonObject& root, QJsonObject&) {
        root.insert("added_tokens", QJsonArray{QJsonObject{{"id", 300}, {"content", "<s>"}},
                                               QJsonObject{{"id", 300}, {"content", "</s>"}}});
    }) << "two added tokens have the id 300";
    QTest::newRow("added token without content") << tiny([](QJsonObject& root, QJsonObject&) {
        root.insert("added_tokens", QJsonArray{QJsonObject{{"id", 300}}});
    }) << "an added token has no id";
}

// A file HfTokenizer cannot read the way Hugging Face's tokenizers would is refused, with
// the file's name and the fault.
void TestHfTokenizer::badFiles()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, fault);
    const QString what = attn::test::tokenizerFault(json);
    QVERIFY2(what.startsWith("tokenizer.json: "), qPrintable(what));
    QVERIFY2(what.contains(fault), qPrintable(what));
}

QTEST_GUILESS_MAIN(TestHfTokenizer)
#include "tst_hftokenizer.moc"
