// `attnscope export --attention-file FILE --layer L --what head:H|mean|model --out FIG`:
// the real binary without a display writes a head's, the mean head's or the model's
// figure (PNG of the layout's size with the weights' colours in its cells, valid SVG
// naming the tokens, a PDF), or the numbers (CSV, JSON, NPY) equal to the file's; bad
// input is exit status 2 (1 for a file that cannot be written) with one line naming it,
// and nothing written.
//
// Legend: L layers, B sequences, H heads, T_q queries, T_k keys.
#include "attention/attentionfile.h"
#include "base/jsonread.h"
#include "clirun.h"
#include "filebytes.h"
#include "modelfigure.h"
#include "processrun.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <charconv>
#include <cmath>

using namespace attn;
using attn::test::readAll;
using namespace attn::ui;
using attn::test::headless;
using attn::test::Run;

namespace {

const QString kDir = QStringLiteral(ATTN_REFERENCE_DIR "/attention/");

float toFloat(std::string_view text)
{
    float value = std::numeric_limits<float>::quiet_NaN();
    std::from_chars(text.data(), text.data() + text.size(), value);
    return value;
}

// The weights `what` shows of layer `layer`: [k] a (T_q, T_k) matrix, k over the heads
// shown (one for head:H and mean, L·H for the model).
std::vector<Matrix> shownWeights(const AttentionStack& stack, int sequence, int layer,
                                 const FileSelection& what)
{
    const StackShape& s = stack.shape();
    if (what.what == FileWhat::Head)
        return {stack.head(layer, sequence, what.head)};
    if (what.what == FileWhat::Mean)
        return {meanHead(stack, layer, sequence)};
    std::vector<Matrix> all;
    for (int l = 0; l < s.layers; ++l)
        for (int h = 0; h < s.heads; ++h)
            all.push_back(stack.head(l, sequence, h));
    return all;
}

// Every weight equal, bit for bit (NaN to NaN), else a message naming the first that is not.
QByteArray firstDifference(const std::vector<Matrix>& expected, const std::vector<float>& got)
{
    std::size_t k = 0;
    for (std::size_t m = 0; m < expected.size(); ++m)
        for (Eigen::Index i = 0; i < expected[m].rows(); ++i)
            for (Eigen::Index j = 0; j < expected[m].cols(); ++j, ++k) {
                if (k >= got.size())
                    return "only " + QByteArray::number(qulonglong(got.size())) + " weights";
                const float e = expected[m](i, j);
                if (!(e == got[k] || (std::isnan(e) && std::isnan(got[k]))))
                    return QStringLiteral("matrix %1 (%2, %3): %4 in the file, %5 exported")
                        .arg(m)
                        .arg(i)
                        .arg(j)
                        .arg(double(e))
                        .arg(double(got[k]))
                        .toUtf8();
            }
    if (k != got.size())
        return QByteArray::number(qulonglong(got.size())) + " weights, " +
               QByteArray::number(qulonglong(k)) + " expected";
    return {};
}

} // namespace

class TestAttentionExportCli : public QObject {
    Q_OBJECT

private slots:
    void png_data();
    void png();
    void vectorFigures_data();
    void vectorFigures();
    void numbers_data();
    void numbers();
    void refuses_data();
    void refuses();
};

void TestAttentionExportCli::png_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("sequence");
    QTest::addColumn<int>("layer");
    QTest::addColumn<QString>("what");
    QTest::newRow("npy f32, head:2 of layer 1") << "stack5_f32.npy" << 0 << 1 << "head:2";
    QTest::newRow("npz with tokens, sequence 1, head:0") << "hf_snippet.npz" << 1 << 0 << "head:0";
    QTest::newRow("safetensors bf16 per layer, mean")
        << "layers_bf16.safetensors" << 1 << 1 << "mean";
    QTest::newRow("cross npz, mean") << "cross.npz" << 0 << 0 << "mean";
    QTest::newRow("npz with tokens, model") << "hf_snippet.npz" << 0 << 0 << "model";
    QTest::newRow("NaN and inf, model") << "nonfinite.npz" << 0 << 0 << "model";
}

// The PNG has the size of the figure laid out here, twice its points; a head's cells have
// the colours of the file's weights, each over the head's largest; the model figure shows
// every thumbnail's largest weight in the colormap's top colour.
void TestAttentionExportCli::png()
{
    QFETCH(QString, file);
    QFETCH(int, sequence);
    QFETCH(int, layer);
    QFETCH(QString, what);
    QTemporaryDir dir;
    const QString out = dir.filePath("figure.png");
    const Run run = headless({"export", "--attention-file", kDir + file, "--sequence",
                              QString::number(sequence), "--layer", QString::number(layer),
                              "--what", what, "--out", out});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    QVERIFY2(run.err.isEmpty(), run.err.constData());
    const QImage image(out);
    QVERIFY2(!image.isNull(), "a PNG that loads");

    const auto stack = openAttentionFile((kDir + file).toStdString());
    FileFigureOptions options;
    options.selection = *fileSelectionFromSpelling(what);
    options.layer = layer;
    options.sequence = sequence;
    const Colormap viridis(ColormapName::Viridis);
    if (options.selection.what == FileWhat::Model) {
        const QSizeF points = modelFigureDocument(*stack, options).size;
        QCOMPARE(image.size(), (points * 2).toSize());
        // Every thumbnail has a cell at its head's largest weight: the top colour shows.
        bool top = false;
        for (int y = 0; y < image.height() && !top; ++y)
            for (int x = 0; x < image.width() && !top; ++x)
                top = image.pixel(x, y) == (viridis.color(1.0) | 0xff000000);
        QVERIFY2(top, "the thumbnails are drawn in the colormap's colours");
        return;
    }
    const FigureLayout figure = fileHeadFigureLayout(*stack, options);
    QCOMPARE(image.size(), (figure.size * 2).toSize());
    const FigureTile& tile = figure.tiles.front();
    const Matrix weights = shownWeights(*stack, sequence, layer, options.selection).front();
    for (int i = 0; i < weights.rows(); ++i)
        for (int j = 0; j < weights.cols(); ++j) {
            const QPointF centre = tile.layout.cellRect(i, j).center() + tile.origin;
            const QRgb got = image.pixel((centre * 2).toPoint());
            const QRgb want = viridis.color(weights(i, j) / tile.style.vmax);
            const int distance = std::abs(qRed(got) - qRed(want)) +
                                 std::abs(qGreen(got) - qGreen(want)) +
                                 std::abs(qBlue(got) - qBlue(want));
            QVERIFY2(distance <= 6, qPrintable(QStringLiteral("cell (%1, %2): %3, expected %4")
                                                   .arg(i)
                                                   .arg(j)
                                                   .arg(got, 0, 16)
                                                   .arg(want, 0, 16)));
        }
}

void TestAttentionExportCli::vectorFigures_data()
{
    QTest::addColumn<QString>("what");
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("title");
    QTest::newRow("head:1 as SVG") << "head:1"
                                   << "svg"
                                   << "Layer 1 · head 1 · sequence 0";
    QTest::newRow("mean as SVG") << "mean"
                                 << "svg"
                                 << "Layer 1 · mean of the heads · sequence 0";
    QTest::newRow("model as SVG") << "model"
                                  << "svg"
                                  << "Model view";
    QTest::newRow("head:1 as PDF") << "head:1"
                                   << "pdf"
                                   << "";
    QTest::newRow("model as PDF") << "model"
                                  << "pdf"
                                  << "";
}

// SVG: well-formed XML titled as the figure, its tokens as text, the caption naming the
// file; PDF: a PDF file.
void TestAttentionExportCli::vectorFigures()
{
    QFETCH(QString, what);
    QFETCH(QString, format);
    QFETCH(QString, title);
    QTemporaryDir dir;
    const QString out = dir.filePath("figure." + format);
    const Run run = headless({"export", "--attention-file", kDir + "hf_snippet.npz", "--layer", "1",
                              "--what", what, "--out", out});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const QByteArray bytes = readAll(out);
    if (format == u"pdf") {
        QVERIFY2(bytes.startsWith("%PDF-"), bytes.left(16).constData());
        return;
    }
    QXmlStreamReader xml(bytes);
    QString svgTitle, description, text;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        if (xml.name() == u"title")
            svgTitle = xml.readElementText();
        else if (xml.name() == u"desc")
            description = xml.readElementText();
        else if (xml.name() == u"text")
            text += xml.readElementText(QXmlStreamReader::IncludeChildElements) + u'|';
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(svgTitle, title);
    QVERIFY2(description.contains(u"hf_snippet.npz"), qPrintable(description));
    if (what != u"model") {
        const auto stack = openAttentionFile((kDir + "hf_snippet.npz").toStdString());
        for (const std::string& token : stack->queryTokens(0))
            QVERIFY2(text.contains(QString::fromStdString(token).trimmed()),
                     qPrintable("token " + QString::fromStdString(token) + " in " + text));
    }
}

void TestAttentionExportCli::numbers_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("what");
    QTest::addColumn<QString>("format");
    for (const char* format : {"csv", "json", "npy"})
        for (const char* what : {"head:2", "mean", "model"})
            QTest::addRow("stack5 f16 safetensors, %s as %s", what, format)
                << "stack5_f16.safetensors" << what << format;
    QTest::newRow("cross, head:0 as csv") << "cross.npz"
                                          << "head:0"
                                          << "csv";
    QTest::newRow("NaN and inf, model as json") << "nonfinite.npz"
                                                << "model"
                                                << "json";
}

// The numbers read back equal the file's weights as converted to float (the mean as
// meanHead computes it), in the order layer, head, query, key.
void TestAttentionExportCli::numbers()
{
    QFETCH(QString, file);
    QFETCH(QString, what);
    QFETCH(QString, format);
    QTemporaryDir dir;
    const QString out = dir.filePath("numbers." + format);
    const int layer = file.startsWith(u"stack5") ? 1 : 0;
    const Run run = headless({"export", "--attention-file", kDir + file, "--layer",
                              QString::number(layer), "--what", what, "--out", out});
    QVERIFY2(run.exitCode == 0, run.err.constData());
    const auto stack = openAttentionFile((kDir + file).toStdString());
    const FileSelection selection = *fileSelectionFromSpelling(what);
    const std::vector<Matrix> expected = shownWeights(*stack, 0, layer, selection);

    std::vector<float> got;
    const QByteArray bytes = readAll(out);
    if (format == u"csv") {
        // layer,head,i,j,query,key,weight; tokens are plain words here (no commas)
        const QList<QByteArray> lines = bytes.split('\n');
        QVERIFY(lines.first().contains("layer,head,i,j,query,key,weight"));
        for (qsizetype k = 1; k < lines.size(); ++k) {
            const QByteArray line = lines[k].trimmed();
            if (line.isEmpty())
                continue;
            if (selection.what == FileWhat::Mean)
                QCOMPARE(line.split(',').at(1), QByteArray("mean"));
            got.push_back(toFloat(line.split(',').last().toStdString()));
        }
    } else if (format == u"json") {
        const JsonValue json = parseJson(bytes.toStdString());
        for (const JsonValue& l : json.find("layers")->items())
            for (const JsonValue& h : l.find("heads")->items())
                for (const JsonValue& row : h.find("weights")->items())
                    for (const JsonValue& weight : row.items())
                        got.push_back(weight.isNull() ? std::numeric_limits<float>::quiet_NaN()
                                                      : toFloat(weight.text()));
        QCOMPARE(json.find("layers")->items().size(),
                 selection.what == FileWhat::Model ? std::size_t(stack->shape().layers) : 1u);
    } else {
        // The NPY opens as an attention file of its own: (1, 1, T_q, T_k) or (L, H, T_q, T_k).
        const auto back = openAttentionFile(out.toStdString());
        const StackShape& s = back->shape();
        for (int l = 0; l < s.layers; ++l)
            for (int b = 0; b < s.sequences; ++b)
                for (int h = 0; h < s.heads; ++h) {
                    const Matrix m = back->head(l, b, h);
                    for (Eigen::Index i = 0; i < m.rows(); ++i)
                        for (Eigen::Index j = 0; j < m.cols(); ++j)
                            got.push_back(m(i, j));
                }
    }
    const QByteArray difference = firstDifference(expected, got);
    QVERIFY2(difference.isEmpty(), difference.constData());
}

void TestAttentionExportCli::refuses_data()
{
    QTest::addColumn<QStringList>("arguments"); // after export --attention-file
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QStringList>("messageWords");
    const QString f32 = kDir + "stack5_f32.npy";
    QTest::newRow("layer out of range") << QStringList{f32, "--layer", "2", "--what", "mean"} << 2
                                        << QStringList{"--layer 2", "stack5_f32.npy", "2 layers"};
    QTest::newRow("head out of range")
        << QStringList{f32, "--layer", "0", "--what", "head:3"} << 2
        << QStringList{"--what head:3", "stack5_f32.npy", "3 heads, 0 to 2"};
    QTest::newRow("sequence out of range")
        << QStringList{f32, "--sequence", "5", "--layer", "0", "--what", "mean"} << 2
        << QStringList{"--sequence 5", "2 sequences"};
    QTest::newRow("unknown --what") << QStringList{f32, "--layer", "0", "--what", "heads"} << 2
                                    << QStringList{"--what must be head:H|mean|model", "'heads'"};
    QTest::newRow("no --what") << QStringList{f32, "--layer", "0"} << 2
                               << QStringList{"needs --what"};
    QTest::newRow("no --layer for a head")
        << QStringList{f32, "--what", "head:0"} << 2 << QStringList{"--what head:0 needs --layer"};
    QTest::newRow("corrupt file: tokens of the wrong length")
        << QStringList{kDir + "tokens_mismatch.npz", "--layer", "0", "--what", "mean"} << 2
        << QStringList{"tokens_mismatch.npz"};
    QTest::newRow("corrupt file: a zip bomb")
        << QStringList{kDir + "bomb_claims.npz", "--what", "model"} << 2
        << QStringList{"bomb_claims.npz", "zip bomb"};
    QTest::newRow("missing file") << QStringList{kDir + "missing.npz", "--what", "model"} << 2
                                  << QStringList{"missing.npz"};
    QTest::newRow("unwritable --out: a missing folder")
        << QStringList{f32, "--layer", "0", "--what", "mean", "--out", "@/missing/figure.png"} << 1
        << QStringList{"cannot write", "figure.png"};
}

void TestAttentionExportCli::refuses()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QStringList, messageWords);
    QTemporaryDir dir;
    QString out = dir.filePath("figure.png");
    for (QString& argument : arguments)
        if (argument.startsWith(u'@'))
            argument = out = dir.filePath(argument.mid(2));
    if (!arguments.contains("--out"))
        arguments << "--out" << out;
    const Run run = headless(QStringList{"export", "--attention-file"} + arguments);
    QCOMPARE(run.exitCode, exitCode);
    const QString message = QString::fromUtf8(run.err);
    QVERIFY2(message.startsWith("attnscope: ") && message.count(u'\n') == 1, run.err.constData());
    for (const QString& word : messageWords)
        QVERIFY2(message.contains(word), qPrintable(word + " in " + message));
    QVERIFY2(!QFile::exists(out), "nothing written");
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList());
}

QTEST_MAIN(TestAttentionExportCli)
#include "tst_attention_export_cli.moc"
