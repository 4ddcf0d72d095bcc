// Attention files open to the very weights numpy and PyTorch wrote (every layout and
// element type, tokens, cross-attention, safetensors' single and per-layer forms), and
// each bad file is refused with a message naming the file and the fault.
//
// Legend: L layers, B sequences, H heads, T_q queries, T_k keys; expected.json holds the
// generator's (L, B, H, T, T) stack as float32 and as converted from float16/bfloat16.
#include "attention/attentionfile.h"
#include "engine/options.h"
#include "io/npy.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>

using namespace attn;

Q_DECLARE_METATYPE(attn::StackShape)

namespace {

const QString kDir = QStringLiteral(ATTN_REFERENCE_DIR "/attention/");

QByteArray fixture(const QString& name)
{
    QFile file(kDir + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", qPrintable(name));
    return file.readAll();
}

const QJsonObject& expected()
{
    static const QJsonObject object =
        QJsonDocument::fromJson(fixture(QStringLiteral("expected.json"))).object();
    return object;
}

// expected[kind][l][b][h][i][j] as the float it stands for.
float expectedWeight(const QString& kind, int l, int b, int h, int i, int j)
{
    return float(expected()[kind][l][b][h][i][j].toDouble());
}

std::span<const std::byte> bytesOf(const QByteArray& data)
{
    return {reinterpret_cast<const std::byte*>(data.constData()), std::size_t(data.size())};
}

std::vector<std::string> expectedTokens(const char* key, int first = 0, int count = -1)
{
    std::vector<std::string> out;
    const QJsonArray all = expected()[QLatin1String(key)].toArray();
    for (int k = first; k < (count < 0 ? all.size() : first + count); ++k)
        out.push_back(all[k].toString().toStdString());
    return out;
}

// "x.safetensors" bytes with this header text and `dataBytes` zero bytes of data.
QByteArray safetensors(const QByteArray& header, qsizetype dataBytes, quint64 length = ~0ull)
{
    const quint64 n = length == ~0ull ? quint64(header.size()) : length;
    QByteArray out(8, '\0');
    for (int k = 0; k < 8; ++k)
        out[k] = char((n >> (8 * k)) & 0xFF);
    return out + header + QByteArray(dataBytes, '\0');
}

} // namespace

class TestAttentionFiles : public QObject {
    Q_OBJECT

private slots:
    void opens_data();
    void opens();
    void refuses_data();
    void refuses();
    void npyByteStrings_data();
    void npyByteStrings();
    void npyEmptyStrings_data();
    void npyEmptyStrings();
    void keepsNonFiniteWeights();
    void memberNameLookupFails();
    void fileOnDisk();
};

// Each row: the file; the stack it must give; which expected tensor it holds and where
// in it (fixed l, b, h; −1 where the file has that axis); tokens and cross.
void TestAttentionFiles::opens_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<StackShape>("shape");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("fixL");
    QTest::addColumn<int>("fixB");
    QTest::addColumn<int>("fixH");
    QTest::addColumn<bool>("tokens");
    QTest::addColumn<bool>("cross");

    const StackShape full{2, 2, 3, 5, 5};
    const auto row = [&](const char* file, StackShape shape, const char* kind, int l, int b, int h,
                         bool tokens, bool cross = false) {
        QTest::newRow(file) << QString::fromLatin1(file) << shape << QString::fromLatin1(kind) << l
                            << b << h << tokens << cross;
    };
    row("stack5_f32.npy", full, "f32", -1, -1, -1, false);
    row("stack5_f32_v2.npy", full, "f32", -1, -1, -1, false);
    row("stack5_f32_v3.npy", full, "f32", -1, -1, -1, false);
    row("stack5_f16.npy", full, "f16", -1, -1, -1, false);
    row("stack5_f64.npy", full, "f32", -1, -1, -1, false);
    row("stack5_f32_big.npy", full, "f32", -1, -1, -1, false);
    row("stack5_f32_fortran.npy", full, "f32", -1, -1, -1, false);
    row("stack5_stored.npz", full, "f32", -1, -1, -1, true);
    row("stack5_deflated.npz", full, "f32", -1, -1, -1, true);
    row("hf_snippet.npz", full, "f32", -1, -1, -1, true);
    row("batch_tokens.npz", full, "f32", -1, -1, -1, true);
    row("arr0.npz", full, "f32", -1, -1, -1, false);
    row("layers4.npz", {2, 1, 3, 5, 5}, "f32", -1, 0, -1, true);
    row("heads3.npz", {1, 1, 3, 5, 5}, "f32", 0, 1, -1, false);
    row("head2.npz", {1, 1, 1, 5, 5}, "f16", 1, 0, 2, false);
    row("stack5_f32.safetensors", full, "f32", -1, -1, -1, true);
    row("stack5_f16.safetensors", full, "f16", -1, -1, -1, true);
    row("stack5_bf16.safetensors", full, "bf16", -1, -1, -1, false);
    row("layers_bf16.safetensors", full, "bf16", -1, -1, -1, true);
    row("layers_f32.safetensors", full, "f32", -1, -1, -1, true);
    row("cross.npz", {1, 1, 2, 3, 6}, "cross", -1, -1, -1, true, true);
    row("cross.safetensors", {1, 1, 2, 3, 6}, "cross", -1, -1, -1, true, true);
}

void TestAttentionFiles::opens()
{
    QFETCH(QString, file);
    QFETCH(StackShape, shape);
    QFETCH(QString, kind);
    QFETCH(int, fixL);
    QFETCH(int, fixB);
    QFETCH(int, fixH);
    QFETCH(bool, tokens);
    QFETCH(bool, cross);

    const QByteArray data = fixture(file);
    const std::unique_ptr<AttentionStack> stack =
        openAttentionBytes(bytesOf(data), file.toStdString());
    const StackShape& s = stack->shape();
    QCOMPARE(s, shape);
    QCOMPARE(stack->isCross(), cross);
    // 1. Every weight, exactly (float32 as written; float16 and bfloat16 as torch
    // converts them to float32; float64 as rounded to float32).
    int wrong = 0;
    QString first;
    for (int l = 0; l < s.layers; ++l)
        for (int b = 0; b < s.sequences; ++b)
            for (int h = 0; h < s.heads; ++h) {
                const Matrix m = stack->head(l, b, h);
                for (int i = 0; i < s.queries; ++i)
                    for (int j = 0; j < s.keys; ++j) {
                        const float want =
                            expectedWeight(kind, fixL < 0 ? l : fixL, fixB < 0 ? b : fixB,
                                           fixH < 0 ? h : fixH, i, j);
                        if (m(i, j) != want && !(std::isnan(want) && std::isnan(m(i, j)))) {
                            if (wrong++ == 0)
                                first = QStringLiteral("(%1,%2,%3,%4,%5): %6 instead of %7")
                                            .arg(l)
                                            .arg(b)
                                            .arg(h)
                                            .arg(i)
                                            .arg(j)
                                            .arg(double(m(i, j)), 0, 'g', 9)
                                            .arg(double(want), 0, 'g', 9);
                        }
                    }
            }
    QVERIFY2(wrong == 0,
             qPrintable(QStringLiteral("%1 weights differ, first %2").arg(wrong).arg(first)));
    // 2. The tokens: the queries', and the keys' (the queries' again in self-attention).
    if (!tokens) {
        QVERIFY(stack->queryTokens().empty());
        QVERIFY(stack->keyTokens().empty());
    } else if (cross) {
        QCOMPARE(stack->queryTokens(), expectedTokens("tokens", 0, 3));
        QCOMPARE(stack->keyTokens(), expectedTokens("key_tokens"));
    } else {
        QCOMPARE(stack->queryTokens(), expectedTokens("tokens"));
        QCOMPARE(stack->keyTokens(), expectedTokens("tokens"));
        if (file == u"batch_tokens.npz") {
            std::vector<std::string> reversed = expectedTokens("tokens");
            std::ranges::reverse(reversed);
            QCOMPARE(stack->queryTokens(1), reversed);
        }
    }
    // 3. The thumbnail of a head no larger than it is the head itself.
    const Thumbnail t = stack->thumbnail(0, 0, 0, 64);
    const Matrix head = stack->head(0, 0, 0);
    QCOMPARE(t.rows, s.queries);
    QCOMPARE(t.cols, s.keys);
    for (int i = 0; i < t.rows; ++i)
        for (int j = 0; j < t.cols; ++j)
            QCOMPARE(t.values[std::size_t(i * t.cols + j)], head(i, j));
}

namespace {

// The stack5_f32.npy fixture with `from` replaced by `to` in its header (same length).
QByteArray npyWithHeader(const QByteArray& from, const QByteArray& to)
{
    QByteArray data = fixture(QStringLiteral("stack5_f32.npy"));
    const qsizetype at = data.indexOf(from);
    Q_ASSERT(at > 0 && at < 128);
    return data.left(at) + to + data.mid(at + from.size());
}

// An .npy version 1 with this header dict (padded) and `dataBytes` zero bytes.
QByteArray npy(const QByteArray& dict, qsizetype dataBytes)
{
    QByteArray header = dict;
    while ((10 + header.size() + 1) % 64)
        header += ' ';
    header += '\n';
    QByteArray out("\x93NUMPY\x01\x00", 8);
    out += char(header.size() & 0xFF);
    out += char(header.size() >> 8);
    return out + header + QByteArray(dataBytes, '\0');
}

} // namespace

// Each row: the bytes (named as the file), a limit for inflating, and what the message
// must say after "<file>: ".
void TestAttentionFiles::refuses_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<qulonglong>("inflateLimit");
    QTest::addColumn<QString>("fault");

    const qulonglong deflt = AttentionFileLimits{}.inflateBytes;
    const QByteArray f32 = fixture(QStringLiteral("stack5_f32.npy"));
    const auto row = [&](const char* name, const char* file, const QByteArray& bytes,
                         const char* fault, qulonglong limit = 0) {
        QTest::newRow(name) << QString::fromLatin1(file) << bytes << (limit ? limit : deflt)
                            << QString::fromUtf8(fault);
    };
    // Not an attention file at all.
    row("empty file", "a.npz", QByteArray(), "not an attention file");
    row("text", "a.txt", QByteArray("hello, world\n"), "not an attention file");
    // .npy
    row("npy truncated data", "a.npy", f32.chopped(10),
        "truncated .npy file: the shape needs 1200 bytes of data, the file has 1190");
    row("npy truncated header", "a.npy", f32.left(40), "truncated .npy file: the header's length");
    row("npy extra bytes", "a.npy", f32 + "xx", "2 bytes after the array's data");
    row("npy version 4", "a.npy", f32.left(6) + char(4) + f32.mid(7), ".npy version 4");
    row("npy unknown dtype", "a.npy", npyWithHeader("'<f4'", "'<i4'"), "unknown dtype '<i4'");
    row("npy structured dtype", "a.npy", npyWithHeader("'<f4'", "[('a'"), "not a plain one");
    row("npy shape overflow", "a.npy",
        npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 16), }",
            16),
        "the shape's byte count overflows");
    row("npy six axes", "a.npy",
        npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1, 1, 2, 2), }", 16),
        "the attentions have the shape (1, 1, 1, 1, 2, 2)");
    row("npy empty axis", "a.npy",
        npy("{'descr': '<f4', 'fortran_order': False, 'shape': (0, 2, 2), }", 0), "empty axis");
    // Found by fuzz_npy: the empty axis makes the byte count 0, the others' product overflows.
    row("npy empty axis beside a huge one", "a.npy",
        npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 300000002072167919, 0, 5, "
            "5), }",
            0),
        "the attentions' axis 1 (300000002072167919) is too long");
    row("npy empty axis among long ones", "a.npy",
        npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2147483647, 0, 2147483647, "
            "2147483647, 2147483647), }",
            0),
        "with an empty axis (1)");
    row("npy bad header", "a.npy", npy("{'descr': '<f4', 'shape': (2, 2), }", 16),
        "not a valid .npy header");
    row("npy strings", "tokens_only.npy", fixture(QStringLiteral("tokens_only.npy")),
        "unknown dtype '<U4'");
    // .npz
    row("npz zip bomb (claims)", "bomb_claims.npz", fixture(QStringLiteral("bomb_claims.npz")),
        "member attentions.npy claims 4294967280 bytes uncompressed, more than the limit of "
        "2147483648 (a zip bomb?)");
    row("npz zip bomb (zeros)", "bomb_zeros.npz", fixture(QStringLiteral("bomb_zeros.npz")),
        "member attentions.npy claims 16777344 bytes uncompressed, more than the limit of "
        "1048576 (a zip bomb?)",
        1 << 20);
    row("npz truncated", "a.npz", fixture(QStringLiteral("stack5_stored.npz")).left(900),
        "not a valid .npz (zip) archive");
    QByteArray corrupt = fixture(QStringLiteral("stack5_deflated.npz"));
    for (int k = 200; k < 400; ++k)
        corrupt[k] = char(corrupt[k] ^ 0x5A);
    row("npz corrupt deflate", "a.npz", corrupt, "member attentions.npy: cannot inflate it");
    row("npz tokens length", "t.npz", fixture(QStringLiteral("tokens_mismatch.npz")),
        "tokens has 4 tokens, the attention 5 queries (T_q)");
    row("npz empty tokens", "e.npz", fixture(QStringLiteral("empty_tokens.npz")),
        "member tokens.npy: the tokens are empty (shape 300000000000, 0, items of 16 bytes)");
    row("npz integer weights", "i.npz", fixture(QStringLiteral("int_weights.npz")),
        "member attentions.npy: unknown dtype '<i8'");
    row("npz no attentions", "n.npz", fixture(QStringLiteral("no_attentions.npz")),
        "no array 'attentions' in the .npz (it holds: weights.npy, other.npy)");
    // .safetensors
    const QByteArray one = R"({"a":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}})";
    row("st empty axis among long ones", "a.safetensors",
        safetensors(
            R"({"a":{"dtype":"F32","shape":[2147483647,0,2147483647,2147483647,2147483647],)"
            R"("data_offsets":[0,0]}})",
            0),
        "with an empty axis (1)");
    row("st fewer than 8 bytes", "a.safetensors", QByteArray("abc"), "fewer than the 8");
    row("st header length past end", "a.safetensors", safetensors(one, 16, 100000),
        "the header's length 100000 goes past the end of the file (81 bytes)");
    row("st header over 100 MB", "a.safetensors", safetensors(one, 16, 200000000),
        "the header's length 200000000 is over the limit of 100 MB");
    row("st not JSON", "a.safetensors", safetensors("{\"a\": [1, 2,]}", 0),
        "the header is not valid JSON: line 1, column 13: not a JSON value");
    row("st data past end", "a.safetensors",
        safetensors(R"({"a":{"dtype":"F32","shape":[2,2],"data_offsets":[8,24]}})", 16),
        "tensor 'a': its data_offsets [8, 24] go past the end of the data (16 bytes)");
    row("st overlap", "a.safetensors",
        safetensors(R"({"a.0":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]},)"
                    R"("a.1":{"dtype":"F32","shape":[2,2],"data_offsets":[8,24]}})",
                    24),
        "the data of tensors 'a.0' and 'a.1' overlap");
    row("st shape mismatch", "a.safetensors",
        safetensors(R"({"a":{"dtype":"F32","shape":[2,2],"data_offsets":[0,12]}})", 16),
        "tensor 'a': its shape needs 16 bytes, its data_offsets give 12");
    row("st shape overflow", "a.safetensors",
        safetensors(R"({"a":{"dtype":"F32","shape":[4294967296,4294967296,4294967296],)"
                    R"("data_offsets":[0,16]}})",
                    16),
        "its shape's byte count overflows");
    row("st unknown dtype", "a.safetensors",
        safetensors(R"({"a":{"dtype":"F7","shape":[2,2],"data_offsets":[0,16]}})", 16),
        "tensor 'a' has an unknown dtype 'F7'");
    row("st integer weights", "i.safetensors", fixture(QStringLiteral("int_weights.safetensors")),
        "tensor 'attentions' has dtype I64, not one of the weights' types");
    row("st no fields", "a.safetensors", safetensors(R"({"a":{"dtype":"F32"}})", 0),
        "tensor 'a' lacks dtype, shape or data_offsets");
    row("st layers unlike", "a.safetensors",
        safetensors(R"({"l.0":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]},)"
                    R"("l.1":{"dtype":"F32","shape":[1,2],"data_offsets":[16,24]}})",
                    24),
        "tensor 'l.1' has the shape (1, 2) and dtype F32, unlike 'l.0'");
    row("st no layer number", "a.safetensors",
        safetensors(R"({"x":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]},)"
                    R"("y":{"dtype":"F32","shape":[2,2],"data_offsets":[16,32]}})",
                    32),
        "tensor 'x' is not 'attentions' and its name does not end in a layer number");
    row("st tokens not a list", "a.safetensors",
        safetensors(R"({"__metadata__":{"tokens":"a b"},)"
                    R"("a":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}})",
                    16),
        "__metadata__[\"tokens\"] is not a JSON list of strings: line 1, column 1: not a JSON "
        "value");
    row("st tokens length", "a.safetensors",
        safetensors(R"({"__metadata__":{"tokens":"[\"a\"]"},)"
                    R"("a":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}})",
                    16),
        "tokens has 1 tokens, the attention 2 queries (T_q)");
    row("st key tokens length", "a.safetensors",
        safetensors(R"({"__metadata__":{"key_tokens":"[\"a\",\"b\",\"c\"]"},)"
                    R"("a":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}})",
                    16),
        "key_tokens has 3 tokens, the attention 2 keys (T_k)");
}

void TestAttentionFiles::refuses()
{
    QFETCH(QString, file);
    QFETCH(QByteArray, bytes);
    QFETCH(qulonglong, inflateLimit);
    QFETCH(QString, fault);
    try {
        const auto stack =
            openAttentionBytes(bytesOf(bytes), file.toStdString(), {.inflateBytes = inflateLimit});
        QFAIL("the file was not refused");
    } catch (const InputError& error) {
        const QString message = QString::fromUtf8(error.what());
        QVERIFY2(message.startsWith(file + QStringLiteral(": ")), qPrintable(message));
        QVERIFY2(message.contains(fault), qPrintable(message));
    }
}

// Tokens as bytes ('|S4', one token): well-formed UTF-8 reads back without its padding
// NULs; what U+10FFFF-bounded, surrogate-free UTF-8 forbids is refused, as for text.
void TestAttentionFiles::npyByteStrings_data()
{
    QTest::addColumn<QByteArray>("item"); // the token's four bytes
    QTest::addColumn<bool>("valid");
    QTest::newRow("ASCII") << QByteArray("cat\0", 4) << true;
    QTest::newRow("two bytes") << QByteArray("\xC3\xA9\0\0", 4) << true;
    QTest::newRow("four bytes") << QByteArray("\xF0\x9F\x98\x80", 4) << true;
    QTest::newRow("stray continuation byte") << QByteArray("\x80"
                                                           "a\0\0",
                                                           4)
                                             << false;
    QTest::newRow("cut sequence") << QByteArray("\xE4\xB8\0\0", 4) << false;
    QTest::newRow("overlong") << QByteArray("\xC0\xAF\0\0", 4) << false;
    QTest::newRow("surrogate") << QByteArray("\xED\xA0\x80\0", 4) << false;
    QTest::newRow("above U+10FFFF") << QByteArray("\xF5\x80\x80\x80", 4) << false;
}

void TestAttentionFiles::npyByteStrings()
{
    QFETCH(QByteArray, item);
    QFETCH(bool, valid);
    const QByteArray bytes =
        npy("{'descr': '|S4', 'fortran_order': False, 'shape': (1,), }", 0) + item;
    const NpyArray array = parseNpy(bytesOf(bytes), "t.npy");
    try {
        const auto lists = npyStrings(array, "t.npy");
        QVERIFY2(valid, "ill-formed UTF-8 was accepted");
        const std::string token(item.constData()); // up to the first NUL
        QCOMPARE(lists, std::vector<std::vector<std::string>>{{token}});
    } catch (const InputError& error) {
        QVERIFY2(!valid, error.what());
        QCOMPARE(QString::fromUtf8(error.what()), QStringLiteral("t.npy: token 0 is not UTF-8"));
    }
}

// Token arrays whose byte count is 0 though an axis is huge: refused before that axis sizes
// a list.
void TestAttentionFiles::npyEmptyStrings_data()
{
    QTest::addColumn<QByteArray>("dict");
    QTest::addColumn<QString>("fault");
    QTest::newRow("empty row")
        << QByteArray("{'descr': '<U4', 'fortran_order': False, 'shape': (300000000000, 0), }")
        << QStringLiteral("t.npy: the tokens are empty (shape "
                          "300000000000, 0, items of 16 bytes)");
    QTest::newRow("no rows")
        << QByteArray("{'descr': '<U4', 'fortran_order': False, 'shape': (0, 300000000000), }")
        << QStringLiteral("t.npy: the tokens are empty (shape 0, "
                          "300000000000, items of 16 bytes)");
    QTest::newRow("no tokens") << QByteArray("{'descr': '|S2', 'fortran_order': False, "
                                             "'shape': (0,), }")
                               << QStringLiteral("t.npy: the tokens are empty (shape 0, items "
                                                 "of 2 bytes)");
}

void TestAttentionFiles::npyEmptyStrings()
{
    QFETCH(QByteArray, dict);
    QFETCH(QString, fault);
    const QByteArray bytes = npy(dict, 0);
    const NpyArray array = parseNpy(bytesOf(bytes), "t.npy");
    try {
        (void)npyStrings(array, "t.npy");
        QFAIL("empty tokens were accepted");
    } catch (const InputError& error) {
        const QString message = QString::fromUtf8(error.what());
        QVERIFY2(message.contains(fault), qPrintable(message));
    }
}

void TestAttentionFiles::keepsNonFiniteWeights()
{
    const QByteArray data = fixture(QStringLiteral("nonfinite.npz"));
    const auto stack = openAttentionBytes(bytesOf(data), "nonfinite.npz");
    QVERIFY(std::isnan(stack->head(0, 0, 0)(1, 0)));
    QVERIFY(std::isinf(stack->head(1, 1, 2)(4, 3)));
    const std::vector<Thumbnail> all = stack->thumbnails(0, 2);
    QCOMPARE(all[0].nonFinite, 1);
    QVERIFY(std::isnan(all[0].values[0])); // the NaN's block shows as NaN
    QCOMPARE(stack->thumbnail(1, 1, 2, 8).nonFinite, 1);
    QCOMPARE(stack->thumbnail(1, 0, 2, 8).nonFinite, 0);
}

// An archive whose member libzip lists under a name its own lookup by that name does not
// find (the fuzzer found one: "attentions." with a control byte): the member is read by the index
// it was listed with, not dereferenced as found.
void TestAttentionFiles::memberNameLookupFails()
{
    const QByteArray data = fixture(QStringLiteral("name_lookup_fails.npz"));
    try {
        const auto stack = openAttentionBytes(bytesOf(data), "odd.npz");
        QCOMPARE(stack->shape().layers, 2);
    } catch (const InputError& error) {
        QFAIL(error.what());
    }
}

// A file on disk is mapped, and stays readable however it was opened; one that cannot
// be opened names itself.
void TestAttentionFiles::fileOnDisk()
{
    const auto stack =
        openAttentionFile((kDir + QStringLiteral("stack5_stored.npz")).toStdString());
    QCOMPARE(stack->head(1, 1, 2)(4, 1), expectedWeight(QStringLiteral("f32"), 1, 1, 2, 4, 1));
    try {
        (void)openAttentionFile("/nonexistent/a.npz");
        QFAIL("a missing file opened");
    } catch (const InputError& error) {
        QVERIFY2(QString::fromUtf8(error.what())
                     .startsWith(QStringLiteral("/nonexistent/a.npz: cannot open the file")),
                 error.what());
    }
    QTemporaryDir dir;
    try {
        (void)openAttentionFile(dir.path().toStdString());
        QFAIL("a folder opened");
    } catch (const InputError& error) {
        QVERIFY2(QString::fromUtf8(error.what()).endsWith(QStringLiteral("not a regular file")),
                 error.what());
    }
}

QTEST_GUILESS_MAIN(TestAttentionFiles)
#include "tst_attentionfiles.moc"
