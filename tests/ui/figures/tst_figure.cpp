// Figures for slides and handouts: the format and --what spellings, the caption, the
// layout, and the PNG, SVG and PDF files themselves read back — sizes, colours, text
// kept as text (CJK and hostile tokens included), pages — and writes that never leave a
// partial file behind.
#include "colormap.h"
#include "comparefigure.h"
#include "engine/engine.h"
#include "exportdialog.h"
#include "figure.h"
#include "figureencoding.h"
#include "filebytes.h"
#include "heatmapgrid.h"
#include "lab/presets.h"
#include "numberfiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QRadioButton>
#include <QRawFont>
#include <QRegularExpression>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QTextLayout>
#include <QXmlStreamReader>

#include <cmath>
#include <optional>

using namespace attn;
using namespace attn::ui;
using namespace attn::test;

Q_DECLARE_METATYPE(attn::ui::FigureFormat)
Q_DECLARE_METATYPE(attn::ui::FigureOptions)
Q_DECLARE_METATYPE(attn::Request)
Q_DECLARE_METATYPE(std::optional<attn::ui::FigureFormat>)
Q_DECLARE_METATYPE(std::optional<attn::ui::FigureSelection>)

namespace {

const QString kChinese = QStringLiteral("我喜欢这个产品的设计");
// Tokens a figure must keep as text, never as markup, formulas or raw control bytes.
const QStringList kHostileTokens = {
    QStringLiteral("<b>"),      QStringLiteral("&"),      QStringLiteral("\"quoted\""),
    QStringLiteral("=SUM(A1)"), QStringLiteral("a\x01z"), QStringLiteral("猫"),
};

Request request(const QString& text, int heads = 4, MaskKind mask = MaskKind::Causal,
                TokenizerMode tokenizer = TokenizerMode::Auto)
{
    Request r;
    r.text = text.toStdString();
    r.config.heads = heads;
    r.config.mask = mask;
    r.config.tokenizer = tokenizer;
    return r;
}

Request hostileRequest()
{
    return request(kHostileTokens.join(u' '), 2, MaskKind::None, TokenizerMode::Spaces);
}

Result compute(const Request& r)
{
    AttentionEngine engine;
    return engine.compute(r);
}

FigureOptions options(FigureWhat what, int head = 0)
{
    FigureOptions o;
    o.what = what;
    o.head = head;
    return o;
}

// The file names in `dir`, to prove that a failed export leaves nothing behind.
QStringList entries(const QTemporaryDir& dir)
{
    return QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
}

QString hex(QRgb color)
{
    return QColor::fromRgb(color).name();
}

// Over the queries, the <pad> keys' columns are fully masked: NaN weights.
Request nanRequest()
{
    Request r = request(QStringLiteral("The cat sat on the mat .\nThe cat slept ."), 2,
                        MaskKind::None, TokenizerMode::Spaces);
    r.config.axis = SoftmaxAxis::Queries;
    return r;
}

} // namespace

class TestFigure : public QObject {
    Q_OBJECT

private slots:
    void formatSpellings_data();
    void formatSpellings();
    void selectionSpellings_data();
    void selectionSpellings();
    void caption_data();
    void caption();
    void layout_data();
    void layout();
    void shortSentenceLabelsLieAcross_data();
    void shortSentenceLabelsLieAcross();
    void cjkFontIsFound();
    void png_data();
    void png();
    void svg_data();
    void svg();
    void pdf_data();
    void pdf();
    void numbers_data();
    void numbers();
    void failedWrites_data();
    void failedWrites();
    void paintFitsTarget();
    void rasterTextKeepsItsMeasuredWidth_data();
    void rasterTextKeepsItsMeasuredWidth();
    void dialog();
    void dialogOffersTheMeanOfSeveralHeads_data();
    void dialogOffersTheMeanOfSeveralHeads();
};

void TestFigure::formatSpellings_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<std::optional<FigureFormat>>("format");
    QTest::newRow("figure.png") << "figure.png" << std::optional(FigureFormat::Png);
    QTest::newRow("upper case FIGURE.PNG") << "FIGURE.PNG" << std::optional(FigureFormat::Png);
    QTest::newRow("slides/heads.svg") << "slides/heads.svg" << std::optional(FigureFormat::Svg);
    QTest::newRow("handout.pdf") << "handout.pdf" << std::optional(FigureFormat::Pdf);
    QTest::newRow("weights.csv") << "weights.csv" << std::optional(FigureFormat::Csv);
    QTest::newRow("weights.npy") << "weights.npy" << std::optional(FigureFormat::Npy);
    QTest::newRow("everything.json") << "everything.json" << std::optional(FigureFormat::Json);
    QTest::newRow("unknown figure.bmp") << "figure.bmp" << std::optional<FigureFormat>();
    QTest::newRow("no extension") << "figure" << std::optional<FigureFormat>();
    QTest::newRow("archive.tar.gz") << "archive.tar.gz" << std::optional<FigureFormat>();
}

void TestFigure::formatSpellings()
{
    QFETCH(QString, path);
    QFETCH(std::optional<FigureFormat>, format);
    QCOMPARE(formatFromPath(path), format);
    if (format) {
        QCOMPARE(formatFromSpelling(formatSpelling(*format)), format);
        QVERIFY(allFormatSpellings().split(u'|').contains(formatSpelling(*format)));
        QVERIFY2(formatFilter(*format).contains("*." + formatSpelling(*format)),
                 qPrintable(formatFilter(*format)));
        QCOMPARE(isFigureFormat(*format), *format == FigureFormat::Png ||
                                              *format == FigureFormat::Svg ||
                                              *format == FigureFormat::Pdf);
    }
}

void TestFigure::selectionSpellings_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<std::optional<FigureSelection>>("selection");
    const auto some = [](FigureWhat what, int head) {
        return std::optional(FigureSelection{what, head});
    };
    QTest::newRow("heads") << "heads" << some(FigureWhat::Grid, 0);
    QTest::newRow("mean") << "mean" << some(FigureWhat::Mean, 0);
    QTest::newRow("head:0") << "head:0" << some(FigureWhat::Head, 0);
    QTest::newRow("head:12") << "head:12" << some(FigureWhat::Head, 12);
    for (const char* bad : {"head:", "head:-1", "head:+1", "head: 1", "head:x", "head:1.5",
                            "head:1234567", "head", "Heads", "all", ""})
        QTest::newRow(qPrintable(QStringLiteral("refused '%1'").arg(bad)))
            << QString::fromLatin1(bad) << std::optional<FigureSelection>();
}

void TestFigure::selectionSpellings()
{
    QFETCH(QString, text);
    QFETCH(std::optional<FigureSelection>, selection);
    QCOMPARE(selectionFromSpelling(text), selection);
    if (selection)
        QCOMPARE(selectionSpelling(*selection), text);
}

void TestFigure::caption_data()
{
    QTest::addColumn<Request>("request");
    QTest::addColumn<int>("sequence");
    QTest::addColumn<QString>("expected"); // the whole caption, or a part it must contain
    QTest::addColumn<bool>("whole");

    QTest::newRow("defaults with a causal mask")
        << request(kChinese) << 0
        << "d_model 64 · heads 4 · d_k 16 · seed 42 · ÷ √d_k · softmax over the keys (dim=-1) · "
           "causal mask · τ 1.00"
        << true;
    // The caption names each switch in a phrase of its own, never "mask No mask".
    Request plain = request(kChinese);
    plain.config.mask = MaskKind::None;
    plain.config.scale = attn::ScaleMode::None;
    plain.config.axis = attn::SoftmaxAxis::Queries;
    plain.config.positional = attn::Positional::None;
    plain.config.embedding = attn::EmbeddingMode::Torch;
    QTest::newRow("no mask, no scaling, another axis, torch's x, no positions")
        << plain << 0
        << "d_model 64 · heads 4 · d_k 16 · seed 42 · no scaling · softmax over the queries "
           "(dim=-2) · no mask · τ 1.00 · x = torch.randn(B, T, C) · no positional encoding"
        << true;
    Request bug = request(kChinese);
    bug.config.maskStage = MaskStage::AfterSoftmax;
    bug.config.maskFill = attn::MaskFill::NegBillion;
    QTest::newRow("mask after the softmax is named")
        << bug << 0 << "causal mask · τ 1.00 · mask after the softmax (bug) · fill -1e9" << false;
    Request view = request(kChinese);
    view.config.headSplit = HeadSplit::View;
    QTest::newRow("view-only head split is named")
        << view << 0 << "heads split by view only (bug)" << false;
    Request hot = request(kChinese);
    hot.config.temperature = 0.25f;
    QTest::newRow("temperature") << hot << 0 << "τ 0.25" << false;
    Request cross = request(QStringLiteral("the cat sat\nit was tired"));
    cross.config.attention = AttentionKind::Cross;
    cross.config.mask = MaskKind::None; // request() sets a causal mask
    cross.crossText = "猫 坐 在 垫子 上";
    QTest::newRow("cross-attention names both lengths")
        << cross << 0 << "cross-attention: T_q 3 × T_k 5 · d_model 64" << false;
    QTest::newRow("second sequence of two")
        << request(QStringLiteral("the cat sat\nit was tired")) << 1 << "sequence 2 of 2" << false;
}

void TestFigure::caption()
{
    QFETCH(Request, request);
    QFETCH(int, sequence);
    QFETCH(QString, expected);
    QFETCH(bool, whole);
    // Parts keep their words together with no-break spaces; compare them as spaces.
    const QString caption =
        figureCaption(compute(request), sequence).replace(QChar(QChar::Nbsp), u' ');
    if (whole)
        QCOMPARE(caption, expected);
    else
        QVERIFY2(caption.contains(expected), qPrintable(caption));
}

void TestFigure::layout_data()
{
    QTest::addColumn<FigureOptions>("before");
    QTest::addColumn<FigureOptions>("after");
    QTest::addColumn<int>("widthChange"); // -1 narrower, 0 same, 1 wider
    QTest::addColumn<int>("heightChange");
    QTest::addColumn<int>("tilesAfter");

    const FigureOptions head = options(FigureWhat::Head, 1);
    FigureOptions grid = options(FigureWhat::Grid);
    QTest::newRow("grid of 4 heads and the mean is larger than one head")
        << head << grid << 1 << 1 << 5;
    QTest::newRow("mean is one tile") << grid << options(FigureWhat::Mean) << -1 << -1 << 1;
    FigureOptions noCaption = head;
    noCaption.caption = false;
    // The caption's one line is wider than one head of six tokens.
    QTest::newRow("no caption is shorter and narrower") << head << noCaption << -1 << -1 << 1;
    FigureOptions noColorbar = noCaption;
    noColorbar.colorbar = false;
    QTest::newRow("no colorbar is narrower") << noCaption << noColorbar << -1 << 0 << 1;
    FigureOptions titled = head;
    titled.title = QStringLiteral("Causal attention");
    QTest::newRow("a title is taller") << head << titled << 0 << 1 << 1;
    FigureOptions annotated = grid;
    annotated.annotate = true;
    QTest::newRow("values in cells enlarge the cells") << grid << annotated << 1 << 1 << 5;
    FigureOptions sums = grid;
    sums.marginSums = true;
    QTest::newRow("row and column sums widen and lengthen every tile")
        << grid << sums << 1 << 1 << 5;
    FigureOptions large = head;
    large.labelPointSize = 16;
    QTest::newRow("larger labels, larger figure") << head << large << 1 << 1 << 1;
}

void TestFigure::layout()
{
    QFETCH(FigureOptions, before);
    QFETCH(FigureOptions, after);
    QFETCH(int, widthChange);
    QFETCH(int, heightChange);
    QFETCH(int, tilesAfter);
    const Result result = compute(request(kChinese));
    const FigureLayout a = figureLayout(result, before);
    const FigureLayout b = figureLayout(result, after);
    const auto sign = [](double d) { return d > 0.5 ? 1 : d < -0.5 ? -1 : 0; };
    QCOMPARE(sign(b.size.width() - a.size.width()), widthChange);
    QCOMPARE(sign(b.size.height() - a.size.height()), heightChange);
    QCOMPARE(int(b.tiles.size()), tilesAfter);
    QCOMPARE(figureSize(result, after), b.size);
    // Whole points, every tile inside the figure, tiles apart from each other.
    QCOMPARE(b.size.width(), std::ceil(b.size.width()));
    const QRectF figure(QPointF(0, 0), b.size);
    for (std::size_t k = 0; k < b.tiles.size(); ++k) {
        const QRectF tile = b.tiles[k].layout.boundingRect().translated(b.tiles[k].origin);
        QVERIFY2(figure.contains(tile), qPrintable(QStringLiteral("tile %1").arg(k)));
        for (std::size_t other = 0; other < k; ++other)
            QVERIFY(!tile.intersects(
                b.tiles[other].layout.boundingRect().translated(b.tiles[other].origin)));
    }
}

void TestFigure::shortSentenceLabelsLieAcross_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("across");
    // The tutorial's sentence: cells of 9 tokens on a grid were narrower than 垫子 and
    // 因为, which leaned over the upright 上 and 它 and read 垫子上, 因为它.
    QTest::newRow("two-character words")
        << QStringLiteral("猫 坐 在 垫子 上 因为 它 累 了") << true;
    QTest::newRow("a three-character word") << QStringLiteral("我 用 注意力 看 猫") << true;
    // Too long to lie across without doubling the figure: the labels lean, the cell stays.
    QTest::newRow("a long word") << QStringLiteral("the representation of a cat") << false;
}

// A short sentence's figure widens its cells until every key label lies across its
// column (within 3.5 label heights), in every tile, for the grid and the compare figure;
// a long word or a long sentence keeps the cells its length gives.
void TestFigure::shortSentenceLabelsLieAcross()
{
    QFETCH(QString, text);
    QFETCH(bool, across);
    const Request textbook = request(text, 4, MaskKind::Causal, TokenizerMode::Spaces);
    const Result result = compute(textbook);
    const FigureOptions grid = options(FigureWhat::Grid);
    const FigureLayout figure = figureLayout(result, grid);
    QCOMPARE(int(figure.tiles.size()), 5);
    for (const FigureTile& tile : figure.tiles)
        QCOMPARE(tile.layout.columnLabelAngle() == 0, across);
    const FigureTile& tile = figure.tiles.front();
    const double label = grid.labelPointSize;
    QCOMPARE(cellWithLabelsAcross(1.0, result.length(), tile, label) > 1.0, across);
    QCOMPARE(cellWithLabelsAcross(tile.layout.cellSize(), result.length(), tile, label),
             tile.layout.cellSize());
    QCOMPARE(cellWithLabelsAcross(1.0, 25, tile, label), 1.0);

    Request unscaled = textbook;
    unscaled.config.scale = ScaleMode::None;
    ComparisonOptions compare;
    compare.annotate = false;
    const FigureLayout pair = comparisonLayout(result, compute(unscaled), compare);
    QCOMPARE(int(pair.tiles.size()), 3);
    for (const FigureTile& side : pair.tiles)
        QCOMPARE(side.layout.columnLabelAngle() == 0, across);
}

void TestFigure::cjkFontIsFound()
{
    // Offscreen, fonts come from fontconfig; a CJK token must get real glyphs, not boxes.
    const FigureLayout figure = figureLayout(compute(request(kChinese)), options(FigureWhat::Mean));
    QTextLayout text(kChinese, figure.tiles.front().style.labelFont);
    text.beginLayout();
    text.createLine();
    text.endLayout();
    const QList<QGlyphRun> runs = text.glyphRuns();
    QVERIFY(!runs.isEmpty());
    for (const QGlyphRun& run : runs) {
        QVERIFY2(run.rawFont().supportsCharacter(kChinese.at(0)) ||
                     run.rawFont().supportsCharacter(kChinese.at(1)),
                 qPrintable(run.rawFont().familyName()));
        for (const quint32 glyph : run.glyphIndexes())
            QVERIFY2(glyph != 0, "a CJK character has no glyph (.notdef)");
    }
}

void TestFigure::png_data()
{
    QTest::addColumn<FigureOptions>("figure");
    QTest::addColumn<double>("pixelsPerPoint");

    const auto row = [](const char* name, FigureOptions o, double factor) {
        QTest::newRow(name) << o << factor;
    };
    FigureOptions o = options(FigureWhat::Grid);
    o.scale = 1;
    row("grid at scale 1", o, 1);
    o.scale = 2;
    row("grid at scale 2", o, 2);
    o.scale = 3.5;
    row("grid at scale 3.5", o, 3.5);
    o.dpi = 150;
    row("grid at 150 dpi overrides the scale", o, 150 / 72.0);
    o = options(FigureWhat::Head, 2);
    o.dpi = 300;
    o.colormap = ColormapName::Magma;
    row("head 2 at 300 dpi, magma", o, 300 / 72.0);
    o = options(FigureWhat::Grid);
    o.sharedScale = false;
    o.colormap = ColormapName::Cividis;
    row("grid, one scale per head, cividis", o, 2);
    o = options(FigureWhat::Mean);
    o.colormap = ColormapName::Diverging;
    o.scale = 1.5;
    row("mean, diverging, scale 1.5", o, 1.5);
}

void TestFigure::png()
{
    QFETCH(FigureOptions, figure);
    QFETCH(double, pixelsPerPoint);
    const Result result = compute(request(kChinese));
    QTemporaryDir dir;
    const QString path = dir.filePath("figure.png");
    QCOMPARE(exportFigure(path, FigureFormat::Png, result, figure), QString());
    QImage image(path);
    QVERIFY(!image.isNull());

    // 1. The size follows the scale or the DPI, and the file says its DPI.
    const FigureLayout layout = figureLayout(result, figure);
    QCOMPARE(image.size(), QSize(qRound(layout.size.width() * pixelsPerPoint),
                                 qRound(layout.size.height() * pixelsPerPoint)));
    QCOMPARE(figurePixelSize(result, figure), image.size());
    const double dpi = image.dotsPerMeterX() * 0.0254;
    QVERIFY2(std::abs(dpi - 72 * pixelsPerPoint) < 0.1, qPrintable(QString::number(dpi)));

    // 2. The centre of every cell that is not masked has the colormap's colour of its weight.
    const Colormap colormap(figure.colormap);
    int checked = 0;
    for (const FigureTile& tile : layout.tiles) {
        const int k = int(&tile - layout.tiles.data());
        const int h = figure.what == FigureWhat::Head   ? figure.head
                      : figure.what == FigureWhat::Mean ? -1
                      : k < result.heads()              ? k
                                                        : -1;
        const auto [vmin, vmax] = weightRange(result, 0, h, figure.sharedScale);
        QCOMPARE(tile.style.vmin, vmin);
        QCOMPARE(tile.style.vmax, vmax);
        for (int i = 0; i < tile.data.rows(); ++i) {
            for (int j = 0; j < tile.data.columns(); ++j) {
                if (tile.data.isMasked(i, j))
                    continue;
                const QPointF centre =
                    (tile.layout.cellRect(i, j).center() + tile.origin) * pixelsPerPoint;
                const QRgb actual = image.pixel(int(centre.x()), int(centre.y()));
                const QRgb expected =
                    colormap.color((tile.data.weights(i, j) - vmin) / (vmax - vmin));
                QVERIFY2(qRgb(qRed(actual), qGreen(actual), qBlue(actual)) == expected,
                         qPrintable(QStringLiteral("%1 cell (%2, %3): %4, expected %5")
                                        .arg(tile.data.title)
                                        .arg(i)
                                        .arg(j)
                                        .arg(hex(actual), hex(expected))));
                ++checked;
            }
        }
    }
    QVERIFY(checked > 0);
}

void TestFigure::svg_data()
{
    QTest::addColumn<Request>("request");
    QTest::addColumn<QString>("title");
    QTest::addColumn<QString>("shownTitle"); // a title loses its control characters
    QTest::addColumn<QStringList>("tokens");
    QTest::newRow("CJK sentence") << request(kChinese) << QStringLiteral("注意力 · 因果掩码")
                                  << QStringLiteral("注意力 · 因果掩码")
                                  << QStringList{"我", "喜欢", "这个", "产品", "的", "设计"};
    // The tokenizer splits a\x01z into a and z; the XML must stay valid either way.
    QTest::newRow("hostile tokens and title")
        << hostileRequest() << QStringLiteral("<script>&\"title\"\x02</script>\x7f")
        << QStringLiteral("<script>&\"title\"</script>")
        << QStringList{"<b>", "&", "\"quoted\"", "=SUM(A1)", "a", "z", "猫"};
    QTest::newRow("a title like the generator's placeholder")
        << request(kChinese) << QStringLiteral("attnscope-figure-title")
        << QStringLiteral("attnscope-figure-title") << QStringList{"我"};
    // Cross-attention: the query labels from the one text, the key labels from the other.
    QTest::newRow("cross-attention preset")
        << findPreset("cross-attention")->request << QStringLiteral("Cross-attention")
        << QStringLiteral("Cross-attention")
        << QStringList{"我", "爱", "机器学习", "I", "love", "machine", "learning"};
}

void TestFigure::svg()
{
    QFETCH(Request, request);
    QFETCH(QString, title);
    QFETCH(QString, shownTitle);
    QFETCH(QStringList, tokens);
    QTemporaryDir dir;
    const QString path = dir.filePath("figure.svg");
    FigureOptions o = options(FigureWhat::Grid);
    o.title = title;
    QCOMPARE(exportFigure(path, FigureFormat::Svg, compute(request), o), QString());
    const QByteArray bytes = readAll(path);

    // 1. Well-formed XML, whatever the tokens hold; every <text> collected.
    QXmlStreamReader xml(bytes);
    QString texts;
    QString documentTitle;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        if (xml.name() == u"text") // a word in two fonts is two <text> elements in a row
            texts += xml.readElementText();
        else if (xml.name() == u"title")
            documentTitle = xml.readElementText();
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY(QSvgRenderer(bytes).isValid());
    for (char control = 1; control < 0x20; ++control)
        if (control != '\n' && control != '\t' && control != '\r')
            QVERIFY2(!bytes.contains(control), "a raw control character would make invalid XML");

    // 2. Tokens and the title are text (searchable, selectable), not outlines.
    for (const QString& token : tokens)
        QVERIFY2(texts.contains(token), qPrintable(token + " not in: " + texts));
    QCOMPARE(documentTitle, shownTitle);
    QVERIFY2(texts.contains(shownTitle), qPrintable(texts));
}

void TestFigure::pdf_data()
{
    QTest::addColumn<Request>("request");
    QTest::addColumn<FigureOptions>("figure");
    QTest::addColumn<QString>("title");
    QTest::addColumn<int>("pages");
    QTest::newRow("CJK grid") << request(kChinese) << options(FigureWhat::Grid) << QString() << 1;
    QTest::newRow("one head, titled")
        << request(kChinese) << options(FigureWhat::Head, 3) << QStringLiteral("Head 3") << 1;
    QTest::newRow("hostile tokens, mean")
        << hostileRequest() << options(FigureWhat::Mean) << QStringLiteral("<b>&") << 1;
}

void TestFigure::pdf()
{
    QFETCH(Request, request);
    QFETCH(FigureOptions, figure);
    QFETCH(QString, title);
    QFETCH(int, pages);
    figure.title = title;
    const Result result = compute(request);
    QTemporaryDir dir;
    const QString path = dir.filePath("figure.pdf");
    QCOMPARE(exportFigure(path, FigureFormat::Pdf, result, figure), QString());
    const QByteArray bytes = readAll(path);
    QVERIFY(bytes.startsWith("%PDF-"));
    QVERIFY2(bytes.trimmed().endsWith("%%EOF"), bytes.right(40).constData());
    // Page objects, not the /Pages tree that holds them.
    const QRegularExpression page(QStringLiteral("/Type\\s*/Page(?![a-zA-Z])"));
    int pageCount = 0;
    for (auto it = page.globalMatch(QString::fromLatin1(bytes)); it.hasNext(); it.next())
        ++pageCount;
    QCOMPARE(pageCount, pages);
    // The page is the figure's size in points, and the fonts travel with the file.
    const QSizeF size = figureSize(result, figure);
    const QRegularExpression mediaBox(QStringLiteral("/MediaBox \\[0 0 ([0-9.]+) ([0-9.]+)\\]"));
    const auto box = mediaBox.match(QString::fromLatin1(bytes));
    QVERIFY(box.hasMatch());
    QCOMPARE(qRound(box.captured(1).toDouble()), qRound(size.width()));
    QCOMPARE(qRound(box.captured(2).toDouble()), qRound(size.height()));
    QVERIFY(bytes.contains("/FontFile2"));
    QVERIFY(bytes.contains("/Title"));
}

void TestFigure::numbers_data()
{
    QTest::addColumn<FigureFormat>("format");
    QTest::addColumn<Request>("request");
    for (const FigureFormat format : {FigureFormat::Csv, FigureFormat::Npy, FigureFormat::Json}) {
        const QByteArray spelling = formatSpelling(format).toLatin1();
        QTest::newRow(spelling + ", hostile tokens") << format << hostileRequest();
        QTest::newRow(spelling + ", NaN columns") << format << nanRequest();
    }
}

// The number files read back by readers of their own, not by the functions that write
// them: an RFC 4180 reader for CSV, the .npy header by hand and numpy, Qt's JSON parser.
void TestFigure::numbers()
{
    QFETCH(FigureFormat, format);
    QFETCH(Request, request);
    const Result result = compute(request);
    QTemporaryDir dir;
    const QString path = dir.filePath("numbers." + formatSpelling(format));
    QCOMPARE(exportFigure(path, format, result, {}), QString());
    const QByteArray bytes = readAll(path);
    if (format == FigureFormat::Csv) {
        (void)checkCsvMatches(result, bytes.toStdString());
    } else if (format == FigureFormat::Npy) {
        const auto header = parseNpyHeader(bytes.toStdString());
        QVERIFY(header);
        checkNpyMatches(*result.weights, bytes.toStdString(), *header);
        QVERIFY(!QTest::currentTestFailed());
        checkNumpyLoads(result, path);
    } else {
        checkJsonMatches(result, bytes);
    }
}

void TestFigure::failedWrites_data()
{
    QTest::addColumn<QString>("name"); // inside the temporary directory
    QTest::addColumn<FigureFormat>("format");
    QTest::addColumn<double>("scale");
    QTest::addColumn<bool>("existing"); // a file of that name is there before
    QTest::newRow("png into a missing directory")
        << "missing/figure.png" << FigureFormat::Png << 2.0 << false;
    QTest::newRow("svg into a missing directory")
        << "missing/figure.svg" << FigureFormat::Svg << 2.0 << false;
    QTest::newRow("csv into a missing directory")
        << "missing/figure.csv" << FigureFormat::Csv << 2.0 << false;
    QTest::newRow("pdf onto a directory") << "directory" << FigureFormat::Pdf << 2.0 << false;
    QTest::newRow("png too large keeps the old file")
        << "figure.png" << FigureFormat::Png << 200.0 << true;
}

void TestFigure::failedWrites()
{
    QFETCH(QString, name);
    QFETCH(FigureFormat, format);
    QFETCH(double, scale);
    QFETCH(bool, existing);
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkdir("directory"));
    const QByteArray old = "the figure from last week";
    if (existing) {
        QFile file(dir.filePath(name));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(old);
    }
    const QStringList before = entries(dir);
    FigureOptions o = options(FigureWhat::Grid);
    o.scale = scale;
    const QString error = exportFigure(dir.filePath(name), format, compute(request(kChinese)), o);
    QVERIFY(!error.isEmpty());
    QVERIFY2(!error.contains(u'\n'), qPrintable(error));
    QCOMPARE(entries(dir), before); // no partial or temporary file
    if (existing)
        QCOMPARE(readAll(dir.filePath(name)), old);
}

void TestFigure::paintFitsTarget()
{
    // paintFigure scales the figure into any rectangle (the dialog's preview) and paints
    // nothing outside it.
    const Result result = compute(request(kChinese));
    QImage image(400, 300, QImage::Format_RGB32);
    image.fill(Qt::red);
    const QRect target(50, 40, 300, 200);
    {
        QPainter painter(&image);
        paintFigure(painter, target, result, options(FigureWhat::Grid));
    }
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (!target.adjusted(-1, -1, 1, 1).contains(x, y))
                QCOMPARE(hex(image.pixel(x, y)), hex(qRgb(255, 0, 0)));
    QCOMPARE(hex(image.pixel(target.center())) == hex(qRgb(255, 0, 0)), false);
}

void TestFigure::rasterTextKeepsItsMeasuredWidth_data()
{
    QTest::addColumn<int>("resolution");
    QTest::addColumn<double>("pixelsPerUnit");
    QTest::newRow("points, 1x") << 72 << 1.0;
    QTest::newRow("points, 2x") << 72 << 2.0;
    QTest::newRow("screen units, 1x") << 96 << 1.0;
    QTest::newRow("screen units, 2x (Step by step's PNG)") << 96 << 2.0;
    QTest::newRow("screen units, 3x") << 96 << 3.0;
}

void TestFigure::rasterTextKeepsItsMeasuredWidth()
{
    // A document laid out in units of 1/resolution inch (Step by step's tiles measure their
    // fonts on a 96 dpi screen) rasterises its text at the width it was measured, times the
    // pixels per unit: text twice as wide overran the tiles' headings and labels.
    QFETCH(int, resolution);
    QFETCH(double, pixelsPerUnit);
    // A font in points, as a widget's: resolved at the device's resolution (figures' own
    // fonts are in pixels and never were affected).
    QFont font;
    font.setPointSizeF(12);
    QImage measuring(1, 1, QImage::Format_RGB32);
    const int dotsPerMeter = qRound(resolution / 0.0254);
    measuring.setDotsPerMeterX(dotsPerMeter);
    measuring.setDotsPerMeterY(dotsPerMeter);
    const QString text = QStringLiteral("MMMMMMMMMM");
    const double measured = QFontMetricsF(font, &measuring).horizontalAdvance(text);

    FigureDocument document;
    document.vectorResolution = resolution;
    document.size = QSizeF(2 * measured + 20, 40) * (72.0 / resolution);
    document.paint = [&](QPainter& painter, const QRectF& target) {
        painter.setFont(font);
        painter.setPen(Qt::black);
        painter.drawText(target.topLeft() + QPointF(0, 30), text);
    };
    const QImage image = renderDocument(document, pixelsPerUnit);
    QVERIFY(!image.isNull());
    int right = -1;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (qGray(image.pixel(x, y)) < 128)
                right = std::max(right, x);
    const double inked = (right + 1) / pixelsPerUnit;
    QVERIFY2(inked > 0.85 * measured && inked < 1.05 * measured,
             qPrintable(QStringLiteral("ink %1 units wide, measured %2").arg(inked).arg(measured)));
    QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), qRound(resolution * pixelsPerUnit));
}

void TestFigure::dialog()
{
    const Result result = compute(request(kChinese));
    ViewOptions view;
    view.colormap = ColormapName::Magma;
    view.marginSums = true;
    view.logScale = true;
    ExportDialog dialog(result, view, 2);
    QCOMPARE(dialog.figureOptions().colormap, ColormapName::Magma);
    QCOMPARE(dialog.figureOptions().head, 2);
    QCOMPARE(dialog.figureOptions().marginSums, true); // the window's view, as figureOptions()
    QCOMPARE(dialog.figureOptions().logScale, true);
    QVERIFY(!dialog.previewImage().isNull());

    FigureOptions chosen = options(FigureWhat::Head, 3);
    chosen.title = QStringLiteral("Head 3");
    chosen.annotate = true;
    chosen.colorbar = false;
    chosen.labelPointSize = 12;
    chosen.dpi = 300;
    chosen.marginSums = false;
    chosen.logScale = false;
    dialog.setFigureOptions(chosen, FigureFormat::Svg);
    const FigureOptions read = dialog.figureOptions();
    QCOMPARE(read.what, FigureWhat::Head);
    QCOMPARE(read.head, 3);
    QCOMPARE(read.title, chosen.title);
    QCOMPARE(read.annotate, true);
    QCOMPARE(read.colorbar, false);
    QCOMPARE(read.labelPointSize, 12.0);
    QCOMPARE(read.dpi, 300);
    QCOMPARE(read.marginSums, false);
    QCOMPARE(read.logScale, false);
    QCOMPARE(dialog.format(), FigureFormat::Svg);

    QTemporaryDir dir;
    QVERIFY(dialog.exportTo(dir.filePath("head3.svg")));
    QVERIFY(readAll(dir.filePath("head3.svg")).contains("<svg"));
}

// With one head its mean is the head itself: the dialog offers the head and "all heads",
// which are then one tile, and no mean.
void TestFigure::dialogOffersTheMeanOfSeveralHeads_data()
{
    QTest::addColumn<int>("heads");
    QTest::addColumn<QStringList>("offered"); // the choices of what to show
    QTest::newRow("1 head") << 1 << QStringList{"One head:", "All heads"};
    QTest::newRow("4 heads") << 4
                             << QStringList{"One head:", "All heads, with their mean",
                                            "Mean of the heads"};
}

void TestFigure::dialogOffersTheMeanOfSeveralHeads()
{
    QFETCH(int, heads);
    QFETCH(QStringList, offered);
    const Result result = compute(request(kChinese, heads));
    ExportDialog dialog(result, ViewOptions{}, 0);
    QStringList shown;
    for (const QRadioButton* button : dialog.findChildren<QRadioButton*>())
        if (button->isVisibleTo(&dialog))
            shown << button->text().remove(u'&');
    QCOMPARE(shown, offered);
    QCOMPARE(dialog.figureOptions().what, FigureWhat::Grid);
}

QTEST_MAIN(TestFigure)
#include "tst_figure.moc"
