// Attention by word: tokens grouped into ICU's words (wordgroups.h) for WordPiece (the
// test BERT vocabulary), Qwen3's tokenizer.json and GPT-2's byte pieces, special tokens on
// their own; and a (T, T) matrix made (W, W) by Clark et al.'s rule (sum of the columns,
// mean of the rows), checked on numbers worked by hand, for a matrix and a whole stack.
#include "attention/wordattention.h"
#include "text/gpt2tokenizer.h"
#include "text/hftokenizer.h"
#include "text/wordgroups.h"
#include "text/wordpiecetokenizer.h"
#include "tokenizerfiles.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using attn::WordGroup;

using attn::test::utf8;
using attn::test::zippedTokenizerText;

namespace {

attn::Matrix matrix(int rows, int cols, std::initializer_list<float> values)
{
    attn::Matrix m(rows, cols);
    auto value = values.begin();
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j)
            m(i, j) = *value++;
    return m;
}

WordGroup group(std::vector<int> tokens)
{
    WordGroup word;
    word.tokens = std::move(tokens);
    return word;
}

void compareMatrices(const attn::Matrix& found, const attn::Matrix& expected)
{
    QCOMPARE(found.rows(), expected.rows());
    QCOMPARE(found.cols(), expected.cols());
    for (Eigen::Index i = 0; i < found.rows(); ++i)
        for (Eigen::Index j = 0; j < found.cols(); ++j)
            QVERIFY2(std::abs(found(i, j) - expected(i, j)) < 1e-6f,
                     qPrintable(QStringLiteral("(%1, %2): %3, not %4")
                                    .arg(i)
                                    .arg(j)
                                    .arg(found(i, j))
                                    .arg(expected(i, j))));
}

} // namespace

class TestWordGroups : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void groups_data();
    void groups();
    void everyTokenOnce();
    void wordMatrix_data();
    void wordMatrix();
    void nanCarries();
    void badGroupsAreRefused();
    void wholeStack();

private:
    std::unique_ptr<attn::WordPieceTokenizer> bert_;
    std::optional<attn::HfTokenizer> qwen3_;
    std::optional<attn::Gpt2Tokenizer> gpt2_;
};

void TestWordGroups::initTestCase()
{
    bert_ = attn::WordPieceTokenizer::fromFolder(
        utf8(QStringLiteral(ATTN_REFERENCE_DIR "/../data/wordpiece")));
    qwen3_.emplace(zippedTokenizerText("qwen3"));
    gpt2_.emplace(
        attn::Gpt2Tokenizer::fromFolder(utf8(QStringLiteral(ATTN_REFERENCE_DIR "/../data/gpt2"))));
}

void TestWordGroups::groups_data()
{
    QTest::addColumn<QString>("tokenizer");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("words"); // each word's label
    QTest::addColumn<QList<int>>("sizes");  // each word's tokens
    QTest::newRow("bert chinese characters into words")
        << "bert" << QStringLiteral("我喜欢这个产品")
        << QStringList{"[CLS]", "我", "喜欢", "这个", "产品", "[SEP]"}
        << QList<int>{1, 1, 2, 2, 2, 1};
    QTest::newRow("bert pieces into a word")
        << "bert" << QStringLiteral("unaffable kindly")
        << QStringList{"[CLS]", "unaffable", "kindly", "[SEP]"} << QList<int>{1, 3, 2, 1};
    QTest::newRow("bert mask its own word")
        << "bert" << QStringLiteral("这个[MASK]品。")
        << QStringList{"[CLS]", "这个", "[MASK]", "品", "。", "[SEP]"}
        << QList<int>{1, 2, 1, 1, 1, 1};
    QTest::newRow("bert english words stay apart")
        << "bert" << QStringLiteral("the cat, sat")
        << QStringList{"[CLS]", "the", "cat", ",", "sat", "[SEP]"} << QList<int>{1, 1, 1, 1, 1, 1};
    QTest::newRow("qwen tokens that are words")
        << "qwen3" << QStringLiteral("我喜欢这个产品") << QStringList{"我喜欢", "这个", "产品"}
        << QList<int>{1, 1, 1};
    QTest::newRow("qwen special tokens apart")
        << "qwen3" << QStringLiteral("<|im_start|>user\n你好<|im_end|>")
        << QStringList{"<|im_start|>", "user", "↵", "你好", "<|im_end|>"}
        << QList<int>{1, 1, 1, 1, 1};
    QTest::newRow("gpt2 words with their spaces")
        << "gpt2" << QStringLiteral("The cat sat") << QStringList{"The", " cat", " sat"}
        << QList<int>{1, 1, 1};
    QTest::newRow("gpt2 pieces into a word")
        << "gpt2" << QStringLiteral("unaffable") << QStringList{"unaffable"} << QList<int>{3};
    QTest::newRow("gpt2 byte pieces into characters and words")
        << "gpt2" << QStringLiteral("我喜欢") << QStringList{"我", "喜欢"} << QList<int>{2, 6};
    QTest::newRow("qwen end of text apart")
        << "qwen3" << QStringLiteral("Hi<|endoftext|>there")
        << QStringList{"Hi", "<|endoftext|>", "there"} << QList<int>{1, 1, 1};
}

void TestWordGroups::groups()
{
    QFETCH(QString, tokenizer);
    QFETCH(QString, text);
    QFETCH(QStringList, words);
    QFETCH(QList<int>, sizes);
    const attn::ModelTokenizer& used = tokenizer == "bert" ? *bert_
                                       : tokenizer == "qwen3"
                                           ? static_cast<const attn::ModelTokenizer&>(*qwen3_)
                                           : *gpt2_;
    const auto tokenized = used.tokenize(utf8(text));
    const auto groups =
        attn::groupWords(attn::wordTokens(tokenized.labels, tokenizer == QLatin1String("bert")));
    QStringList labels;
    QList<int> found;
    int next = 0;
    for (const WordGroup& word : groups) {
        labels << QString::fromStdString(word.label);
        found << int(word.tokens.size());
        for (const int t : word.tokens)
            QCOMPARE(t, next++);
    }
    QCOMPARE(next, int(tokenized.ids.size()));
    QCOMPARE(labels, words);
    QCOMPARE(found, sizes);
}

// Hand-made tokens: white space runs, a "##" piece, a special token, invalid bytes.
void TestWordGroups::everyTokenOnce()
{
    std::vector<attn::WordToken> tokens{
        {"a", false, false, false},    {" ", false, false, false},
        {" b", false, false, false},   {"<s>", true, false, false},
        {"\xE4", false, false, false}, {"\xBD\xA0", false, false, false},
        {"\xFF", false, false, false}};
    const auto words = attn::groupWords(tokens);
    std::vector<std::vector<int>> found;
    for (const auto& word : words)
        found.push_back(word.tokens);
    const std::vector<std::vector<int>> expected{{0}, {1}, {2}, {3}, {4, 5}, {6}};
    QCOMPARE(found, expected);
    QCOMPARE(words[4].text, std::string("\xE4\xBD\xA0"));
    QCOMPARE(words[4].label, std::string("你"));
    QVERIFY(attn::groupWords({}).empty());
    QVERIFY(attn::usesWordPiece("bert"));
    QVERIFY(!attn::usesWordPiece("gpt2"));
}

void TestWordGroups::wordMatrix_data()
{
    QTest::addColumn<attn::Matrix>("weights");
    QTest::addColumn<QList<QList<int>>>("words");
    QTest::addColumn<attn::Matrix>("expected");
    // Word 1 = tokens 1, 2. Columns: row i → (A_i0, A_i1 + A_i2); rows: word 1 is the mean
    // of rows 1 and 2: ((0.5 + 0.2)/2, (0.5 + 0.8)/2).
    QTest::newRow("last two tokens one word")
        << matrix(3, 3, {1, 0, 0, 0.5f, 0.5f, 0, 0.2f, 0.3f, 0.5f})
        << QList<QList<int>>{{0}, {1, 2}} << matrix(2, 2, {1, 0, 0.35f, 0.65f});
    // Word 0 = tokens 0, 1: row 0 → (0.3, 0.3, 0.4), row 1 → (0.5, 0.25, 0.25); their mean
    // (0.4, 0.275, 0.325).
    QTest::newRow("first two tokens one word")
        << matrix(4, 4,
                  {0.1f, 0.2f, 0.3f, 0.4f, 0.25f, 0.25f, 0.25f, 0.25f, 0, 0, 1, 0, 0.4f, 0.3f, 0.2f,
                   0.1f})
        << QList<QList<int>>{{0, 1}, {2}, {3}}
        << matrix(3, 3, {0.4f, 0.275f, 0.325f, 0, 1, 0, 0.7f, 0.2f, 0.1f});
    QTest::newRow("one word") << matrix(2, 2, {0.6f, 0.4f, 0.1f, 0.9f}) << QList<QList<int>>{{0, 1}}
                              << matrix(1, 1, {1});
    QTest::newRow("every token a word")
        << matrix(2, 2, {0.6f, 0.4f, 0.1f, 0.9f}) << QList<QList<int>>{{0}, {1}}
        << matrix(2, 2, {0.6f, 0.4f, 0.1f, 0.9f});
}

void TestWordGroups::wordMatrix()
{
    QFETCH(attn::Matrix, weights);
    QFETCH(QList<QList<int>>, words);
    QFETCH(attn::Matrix, expected);
    std::vector<WordGroup> groups;
    for (const auto& word : words)
        groups.push_back(group({word.begin(), word.end()}));
    const attn::Matrix found = attn::wordAttention(weights, groups);
    compareMatrices(found, expected);
    for (Eigen::Index i = 0; i < found.rows(); ++i)
        QVERIFY(std::abs(found.row(i).sum() - 1.0f) < 1e-6f);
}

void TestWordGroups::nanCarries()
{
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const attn::Matrix found = attn::wordAttention(matrix(3, 3, {1, 0, 0, 0.5f, nan, 0, 0, 0, 1}),
                                                   {group({0}), group({1, 2})});
    QCOMPARE(found(0, 0), 1.0f);
    QVERIFY(std::isnan(found(1, 1)));
    QCOMPARE(found(1, 0), 0.25f);
}

void TestWordGroups::badGroupsAreRefused()
{
    const attn::Matrix weights = matrix(2, 2, {1, 0, 0, 1});
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             (void)attn::wordAttention(weights, {group({0})}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             (void)attn::wordAttention(weights, {group({0, 1}), group({1})}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             (void)attn::wordAttention(weights, {group({0}), group({2})}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             (void)attn::wordAttention(weights, {group({0, 1}), group({})}));
}

// Two layers × two heads of three tokens: every head grouped alike, the words' labels
// as the stack's tokens.
void TestWordGroups::wholeStack()
{
    const attn::StackShape shape{2, 1, 2, 3, 3};
    attn::FloatBuffer weights;
    for (int head = 0; head < 4; ++head) {
        const float x = 0.1f * float(head);
        for (const float w : {1.0f, 0.0f, 0.0f, 0.5f, 0.5f, 0.0f, x, 0.5f - x, 0.5f})
            weights.push_back(w);
    }
    const attn::MemoryAttentionStack stack(shape, weights, {{"[CLS]", "un", "aff"}});
    std::vector<WordGroup> words{group({0}), group({1, 2})};
    words[0].label = "[CLS]";
    words[1].label = "unaff";
    const auto grouped = attn::wordAttentionStack(stack, words);
    QCOMPARE(grouped->shape(), (attn::StackShape{2, 1, 2, 2, 2}));
    QCOMPARE(grouped->queryTokens(), (std::vector<std::string>{"[CLS]", "unaff"}));
    QCOMPARE(grouped->keyTokens(), (std::vector<std::string>{"[CLS]", "unaff"}));
    for (int l = 0; l < 2; ++l)
        for (int h = 0; h < 2; ++h) {
            const float x = 0.1f * float(l * 2 + h);
            // word 1's row: the mean of (0.5, 0.5) and (x, 1 − x)
            compareMatrices(grouped->head(l, 0, h),
                            matrix(2, 2, {1, 0, (0.5f + x) / 2, (1.5f - x) / 2}));
        }
}

QTEST_GUILESS_MAIN(TestWordGroups)
#include "tst_wordgroups.moc"
