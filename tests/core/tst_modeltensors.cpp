// core/models/modeltensors: a BF16 tensor is converted to float once, at open, and its bytes
// in the mapped file are let go of after (only the float copy stays in the process's resident
// set: a Qwen2.5-0.5B-sized BF16 model otherwise peaked at 1.5x its float weights). The
// conversion runs in bands over the cores: values at the bands' edges are checked.
#include "models/modeltensors.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

// The process's resident file-backed pages, in bytes (RssFile of /proc/self/status), or -1.
double residentFileBytes()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("RssFile:", 0) == 0)
            return std::stod(line.substr(8)) * 1024.0;
    return -1;
}

// The BF16 value of the float `i` gets: i / 1024 rounded down to BF16's 8 bits of mantissa.
std::uint16_t bf16Of(float v)
{
    std::uint32_t bits;
    std::memcpy(&bits, &v, 4);
    return std::uint16_t(bits >> 16);
}

float floatOf(std::uint16_t b)
{
    const std::uint32_t bits = std::uint32_t(b) << 16;
    float v;
    std::memcpy(&v, &bits, 4);
    return v;
}

// Writes a safetensors file at `path` of one tensor "w" (rows, cols) of `dtype` whose
// elements are `values` (their bytes as they are in memory: little-endian here).
template <typename T>
void writeOneTensor(const std::string& path, const char* dtype, std::int64_t rows,
                    std::int64_t cols, const std::vector<T>& values)
{
    const auto bytes = std::int64_t(sizeof(T)) * rows * cols;
    std::ostringstream json; // (a chain of std::string + here sets off GCC 12's -Warray-bounds)
    json << "{\"w\":{\"dtype\":\"" << dtype << "\",\"shape\":[" << rows << "," << cols
         << "],\"data_offsets\":[0," << bytes << "]}}";
    std::string header = json.str();
    header.append((8 - header.size() % 8) % 8, ' ');
    std::ofstream out(path, std::ios::binary);
    const std::uint64_t length = header.size();
    out.write(reinterpret_cast<const char*>(&length), 8);
    out << header;
    out.write(reinterpret_cast<const char*>(values.data()), std::streamsize(bytes));
}

} // namespace

class TestModelTensors : public QObject {
    Q_OBJECT

private slots:
    void bf16ConvertedAndItsPagesLetGo();
    void f32PagesLetGoReadBack();
};

void TestModelTensors::bf16ConvertedAndItsPagesLetGo()
{
    // A (4096, 1024) BF16 tensor: 8 MB in the file, 16 MB as floats, 4 bands of conversion.
    constexpr std::int64_t rows = 4096, cols = 1024;
    QTemporaryDir dir;
    const std::string path = dir.filePath("model.safetensors").toStdString();
    std::vector<std::uint16_t> values(std::size_t(rows * cols));
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = bf16Of(float(i % 100000) - 50000.0f);
    writeOneTensor(path, "BF16", rows, cols, values);

    attn::StoredWeights stored;
    attn::ModelTensors read(path, stored);
    const double before = residentFileBytes();
    if (before < 0)
        QSKIP("no RssFile in /proc/self/status");
    const attn::WeightView w = read("w", {rows, cols});
    const double grown = residentFileBytes() - before;

    QCOMPARE(w.rows, rows);
    QCOMPARE(w.cols, cols);
    for (const std::size_t i : {std::size_t(0), std::size_t(1) << 20, (std::size_t(1) << 20) - 1,
                                std::size_t(3) << 20, values.size() - 1})
        QCOMPARE(w.data[i], floatOf(values[i]));
    // The 8 MB read are let go of (a page at each end of the tensor may stay).
    QVERIFY2(
        grown < 1e6,
        qPrintable(QString("the mapped file grew the resident set by %1 MB").arg(grown / 1e6)));
}

// An F32 tensor read in place whose pages are let go (as GPT-2's are once packed): they
// leave the resident set, and the view still reads the file's values (the pages come back).
void TestModelTensors::f32PagesLetGoReadBack()
{
    constexpr std::int64_t rows = 2048, cols = 1024; // 8 MB
    QTemporaryDir dir;
    const std::string path = dir.filePath("model.safetensors").toStdString();
    std::vector<float> values(std::size_t(rows * cols));
    for (std::size_t i = 0; i < values.size(); ++i)
        values[i] = float(i % 100003) * 0.5f;
    writeOneTensor(path, "F32", rows, cols, values);
    attn::StoredWeights stored;
    attn::ModelTensors read(path, stored);
    const attn::WeightView w = read("w", {rows, cols});
    QVERIFY(stored.converted.empty()); // in place
    QVERIFY(stored.fileHolding(w.data));
    QVERIFY(!stored.fileHolding(values.data()));
    stored.files.front()->release(values.data(),
                                  4 * values.size()); // not the mapping's: nothing happens
    QCOMPARE(values[12345], float(12345) * 0.5f);

    const double before = residentFileBytes();
    if (before < 0)
        QSKIP("no RssFile in /proc/self/status");
    const auto bytes = std::size_t(rows * cols) * sizeof(float);
    QVERIFY(std::equal(w.data, w.data + rows * cols, values.begin())); // every page read
    const double touched = residentFileBytes() - before;
    QVERIFY2(touched > 4e6,
             qPrintable(QString("reading grew RssFile by %1 MB").arg(touched / 1e6)));
    stored.files.front()->release(w.data, bytes);
    const double kept = residentFileBytes() - before;
    QVERIFY2(kept < 1e6, qPrintable(QString("%1 MB stayed resident").arg(kept / 1e6)));
    QVERIFY(std::equal(w.data, w.data + rows * cols, values.begin())); // read again
}

QTEST_APPLESS_MAIN(TestModelTensors)
#include "tst_modeltensors.moc"
