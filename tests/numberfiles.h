// Reading the number files back without the code that writes them: a strict RFC 4180
// CSV reader, a .npy header parser, numpy itself where a python3 with it is installed,
// and Qt's JSON parser. tst_exporters checks core's writers with them, tst_figure the files the
// window and the command line write.
//
// Legend: B sequences, T tokens, H heads; weights are indexed [b][h][i][j].
#pragma once

#include "engine/engine.h"

#include <QByteArray>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>

#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attn::test {

inline constexpr std::string_view kBom = "\xEF\xBB\xBF";
inline constexpr std::string_view kFormulaStarts = "=+-@\t\r";
inline constexpr int kColumns = 9;

using Table = std::vector<std::vector<std::string>>;

// A strict RFC 4180 reader: records end with CRLF, a quoted field doubles its quotes
// and may hold anything, an unquoted one holds no quote, CR or LF. Nothing on error.
inline std::optional<Table> parseCsv(std::string_view text)
{
    Table table;
    std::vector<std::string> record;
    std::string field;
    std::size_t k = 0;
    while (k < text.size()) {
        field.clear();
        if (text[k] == '"') {
            for (++k;; ++k) {
                if (k >= text.size())
                    return std::nullopt; // unterminated quote
                if (text[k] == '"') {
                    if (k + 1 < text.size() && text[k + 1] == '"') {
                        field += '"';
                        ++k;
                    } else {
                        ++k;
                        break;
                    }
                } else {
                    field += text[k];
                }
            }
        } else {
            for (; k < text.size() && text[k] != ',' && text[k] != '\r'; ++k) {
                if (text[k] == '"' || text[k] == '\n')
                    return std::nullopt;
                field += text[k];
            }
        }
        record.push_back(field);
        if (k < text.size() && text[k] == ',') {
            ++k;
            continue;
        }
        if (text.substr(k, 2) != "\r\n")
            return std::nullopt; // a field must end in a comma or CRLF
        k += 2;
        table.push_back(std::move(record));
        record.clear();
    }
    return table;
}

// Undoes csvToken's formula guard, as exporters.h tells a reader to.
inline std::string unguard(std::string_view field)
{
    const std::size_t first = field.find_first_not_of('\'');
    if (first != 0 && first != std::string_view::npos &&
        kFormulaStarts.find(field[first]) != std::string_view::npos)
        field.remove_prefix(1);
    return std::string(field);
}

inline std::optional<float> parseFloat(const std::string& text)
{
    float value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

inline bool sameFloat(float a, float b)
{
    return (std::isnan(a) && std::isnan(b)) ||
           std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}

// Checks that `csv` holds one row per (b, h, i, j) of `r`, every cell equal to the
// engine's; returns the parsed table for further checks.
inline Table checkCsvMatches(const Result& r, const std::string& csv)
{
    Table table;
    [&] {
        QVERIFY2(csv.starts_with(kBom), "the CSV does not start with the byte order mark");
        auto parsed = parseCsv(std::string_view(csv).substr(kBom.size()));
        QVERIFY2(parsed, "the CSV is not well-formed RFC 4180");
        table = std::move(*parsed);
        const int B = r.batch(), H = r.heads(), Tq = r.length(), Tk = r.keyLength();
        QCOMPARE(table.size(), std::size_t(B) * H * Tq * Tk + 1);
        QCOMPARE(table[0], (std::vector<std::string>{"b", "h", "i", "j", "query", "key", "score",
                                                     "logit", "weight"}));
        std::size_t row = 1;
        for (int b = 0; b < B; ++b)
            for (int h = 0; h < H; ++h)
                for (int i = 0; i < Tq; ++i)
                    for (int j = 0; j < Tk; ++j, ++row) {
                        const auto& f = table[row];
                        const QByteArray where = QByteArray("row ") + QByteArray::number(row);
                        QVERIFY2(f.size() == kColumns, where.constData());
                        QVERIFY2(f[0] == std::to_string(b) && f[1] == std::to_string(h) &&
                                     f[2] == std::to_string(i) && f[3] == std::to_string(j),
                                 where.constData());
                        const auto& queries = r.tokens->tokens[std::size_t(b)];
                        const auto& keys = r.keyTokens->tokens[std::size_t(b)];
                        QVERIFY2(unguard(f[4]) == queries[std::size_t(i)], where.constData());
                        QVERIFY2(unguard(f[5]) == keys[std::size_t(j)], where.constData());
                        const std::array<float, 3> expected{r.scores->at(b, h)(i, j),
                                                            r.logit(b, h, i, j),
                                                            r.weights->at(b, h)(i, j)};
                        for (std::size_t c = 0; c < expected.size(); ++c) {
                            const auto value = parseFloat(f[6 + c]);
                            QVERIFY2(value && sameFloat(*value, expected[c]),
                                     qPrintable(QStringLiteral("%1, column %2: \"%3\" != %4")
                                                    .arg(QString::fromLatin1(where))
                                                    .arg(6 + c)
                                                    .arg(QString::fromStdString(f[6 + c]))
                                                    .arg(double(expected[c]), 0, 'g', 9)));
                        }
                    }
    }();
    return table;
}

struct NpyHeader {
    QString dict;
    std::vector<long long> shape;
    std::size_t dataOffset = 0;
};

// Parses and checks a version 1.0 header; fails the test when it is not one.
inline std::optional<NpyHeader> parseNpyHeader(const std::string& npy)
{
    std::optional<NpyHeader> out;
    [&] {
        QVERIFY(npy.size() >= 10);
        QCOMPARE(npy.substr(0, 6), std::string("\x93NUMPY"));
        QCOMPARE(int(npy[6]), 1);
        QCOMPARE(int(npy[7]), 0);
        const std::size_t length =
            std::size_t(std::uint8_t(npy[8])) | std::size_t(std::uint8_t(npy[9])) << 8;
        QVERIFY(npy.size() >= 10 + length);
        QCOMPARE((10 + length) % 64, std::size_t(0));
        const std::string dict = npy.substr(10, length);
        QVERIFY2(dict.ends_with('\n'), "the header does not end with a newline");
        static const QRegularExpression form(
            QStringLiteral(R"(^\{'descr': '<f4', 'fortran_order': False, )"
                           R"('shape': \((\d+), (\d+), (\d+), (\d+)\), \} *\n$)"));
        const auto match = form.match(QString::fromLatin1(dict));
        QVERIFY2(match.hasMatch(), dict.c_str());
        NpyHeader header;
        header.dict = QString::fromLatin1(dict);
        for (int k = 1; k <= 4; ++k)
            header.shape.push_back(match.captured(k).toLongLong());
        header.dataOffset = 10 + length;
        out = header;
    }();
    return out;
}

inline const char* const kNumpyScript = R"(
import json, sys
import numpy as np
a = np.load(sys.argv[1])
print(json.dumps({"shape": list(a.shape), "dtype": a.dtype.str,
                  "bits": a.view("<u4").ravel().tolist()}))
)";

// The first python3 that can import numpy: the one on PATH (which may be a virtual
// environment's without it), else the system's. Empty when there is none.
inline QString pythonWithNumpy()
{
    for (const QString& python : {QStandardPaths::findExecutable(QStringLiteral("python3")),
                                  QStringLiteral("/usr/bin/python3")}) {
        if (python.isEmpty() || !QFileInfo(python).isExecutable())
            continue;
        QProcess probe;
        probe.start(python, {QStringLiteral("-c"), QStringLiteral("import numpy")});
        if (probe.waitForFinished(60'000) && probe.exitStatus() == QProcess::NormalExit &&
            probe.exitCode() == 0)
            return python;
    }
    return {};
}

// The quick start's test command installs python3-numpy, so on CI (CI set, as .ci/run
// runs) a missing numpy is a failure, not a check quietly left out.
inline constexpr const char* kNumpyMissing =
    "no python3 with numpy: `bash .ci/quickstart test` installs python3-numpy";
[[nodiscard]] inline bool numpyRequired()
{
    return qEnvironmentVariableIsSet("CI");
}

// Checks that the data of the .npy file `npy` (its header already parsed) holds `stack`
// bit for bit, NaN payloads included: little-endian float32 in C order.
inline void checkNpyMatches(const HeadStack& stack, const std::string& npy, const NpyHeader& header)
{
    const int B = stack.batch(), H = stack.heads();
    const int Tq = B * H > 0 ? int(stack.at(0, 0).rows()) : 0;
    const int Tk = B * H > 0 ? int(stack.at(0, 0).cols()) : 0;
    QCOMPARE(header.shape, (std::vector<long long>{B, H, Tq, Tk}));
    QCOMPARE(npy.size(), header.dataOffset + std::size_t(B) * H * Tq * Tk * sizeof(float));
    const char* data = npy.data() + header.dataOffset;
    for (int b = 0; b < B; ++b)
        for (int h = 0; h < H; ++h)
            for (int i = 0; i < Tq; ++i)
                for (int j = 0; j < Tk; ++j, data += 4) {
                    const std::uint32_t bits = std::uint32_t(std::uint8_t(data[0])) |
                                               std::uint32_t(std::uint8_t(data[1])) << 8 |
                                               std::uint32_t(std::uint8_t(data[2])) << 16 |
                                               std::uint32_t(std::uint8_t(data[3])) << 24;
                    const float expected = stack.at(b, h)(i, j);
                    QVERIFY2(bits == std::bit_cast<std::uint32_t>(expected),
                             qPrintable(QStringLiteral("[%1][%2][%3][%4]: %5 != %6")
                                            .arg(b)
                                            .arg(h)
                                            .arg(i)
                                            .arg(j)
                                            .arg(double(std::bit_cast<float>(bits)), 0, 'g', 9)
                                            .arg(double(expected), 0, 'g', 9)));
                }
}

// One (T_q, T_k) matrix of the JSON report equals `m`, float for float (null for NaN).
inline void checkJsonMatrix(const QJsonValue& rows, const Matrix& m, const QString& where)
{
    QCOMPARE(rows.toArray().size(), m.rows());
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        const QJsonArray row = rows[i].toArray();
        QCOMPARE(row.size(), m.cols());
        for (Eigen::Index j = 0; j < m.cols(); ++j)
            QVERIFY2(row[j].isNull() ? std::isnan(m(i, j))
                                     : sameFloat(float(row[j].toDouble()), m(i, j)),
                     qPrintable(QStringLiteral("%1[%2][%3]").arg(where).arg(i).arg(j)));
    }
}

// The JSON report, read with Qt's parser: its tokens, shape, scores and weights are the
// result's.
inline void checkJsonMatches(const Result& r, const QByteArray& bytes)
{
    QJsonParseError error;
    const QJsonObject json = QJsonDocument::fromJson(bytes, &error).object();
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    QCOMPARE(json["format"].toString(), QStringLiteral("attnscope-result"));
    const auto tokensOf = [](const TokenBatch& batch) {
        QList<QStringList> out;
        for (const auto& sequence : batch.tokens) {
            out.append(QStringList());
            for (const std::string& token : sequence)
                out.back() << QString::fromStdString(token);
        }
        return out;
    };
    const auto jsonTokens = [&json](const char* key) {
        QList<QStringList> out;
        for (const QJsonValue& sequence : json[QLatin1String(key)].toArray())
            out.append(sequence.toVariant().toStringList());
        return out;
    };
    QCOMPARE(jsonTokens("tokens"), tokensOf(*r.tokens));
    QCOMPARE(jsonTokens("key_tokens"), tokensOf(*r.keyTokens));
    QCOMPARE(json["shape"]["B"].toInt(), r.batch());
    QCOMPARE(json["shape"]["H"].toInt(), r.heads());
    QCOMPARE(json["shape"]["T"].toInt(), r.length());
    QCOMPARE(json["shape"]["T_k"].toInt(), r.keyLength());
    QCOMPARE(json["stats"]["nan_count"].toInt(), r.stats->nanCount);
    const QJsonArray heads = json["heads"].toArray();
    QCOMPARE(heads.size(), r.batch() * r.heads());
    for (const QJsonValue& head : heads) {
        const int b = head["batch"].toInt(), h = head["head"].toInt();
        const QString where = QStringLiteral("[%1][%2]").arg(b).arg(h);
        checkJsonMatrix(head["scores"], r.scores->at(b, h), "scores" + where);
        checkJsonMatrix(head["weights"], r.weights->at(b, h), "weights" + where);
        if (QTest::currentTestFailed())
            return;
    }
}

// numpy.load's shape and bits of the .npy file at `path` equal `r`'s weights (when a
// python3 with numpy is installed).
inline void checkNumpyLoads(const Result& r, const QString& path)
{
    const QString python = pythonWithNumpy();
    if (python.isEmpty()) {
        QVERIFY2(!numpyRequired(), kNumpyMissing);
        qWarning("%s: the numpy check is left out", kNumpyMissing);
        return;
    }
    QProcess process;
    process.start(python, {QStringLiteral("-c"), QString::fromLatin1(kNumpyScript), path});
    QVERIFY(process.waitForFinished(60'000));
    QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());
    const QJsonObject loaded = QJsonDocument::fromJson(process.readAllStandardOutput()).object();
    QCOMPARE(loaded["shape"].toArray(),
             (QJsonArray{r.batch(), r.heads(), r.length(), r.keyLength()}));
    QCOMPARE(loaded["dtype"].toString(), QStringLiteral("<f4"));
    const QJsonArray bits = loaded["bits"].toArray();
    qsizetype k = 0;
    for (int b = 0; b < r.batch(); ++b)
        for (int h = 0; h < r.heads(); ++h)
            for (int i = 0; i < r.length(); ++i)
                for (int j = 0; j < r.keyLength(); ++j, ++k)
                    QCOMPARE(bits[k].toInteger(),
                             qint64(std::bit_cast<std::uint32_t>(r.weights->at(b, h)(i, j))));
}

} // namespace attn::test
