// The step-by-step dialog around the strip: its choosers of sequence and head, the head
// row, partial and empty results, the tiles' cell images at length, the window's colours,
// the export of the strip, and the dialog painted for every preset and in Chinese.
#include "pipelinetest.h"

using namespace attn;
using namespace attn::ui;
using namespace attn::ui::test;

class TestPipelineDialog : public QObject {
    Q_OBJECT

private slots:
    void choosersSwitchSequenceAndHead();
    void headRowSource_data();
    void headRowSource();
    void partialAndEmptyResults();
    void longSentenceTilesKeepTheirImages();
    void weightsFollowTheWindowsColours();
    void exportWritesTheStrip();
    void exportRefusals();
    void dialogRenders_data();
    void dialogRenders();
};

void TestPipelineDialog::choosersSwitchSequenceAndHead()
{
    Config config;
    const Result result = compute(requestOf("The cat sat on the mat\nit was tired", config));
    PipelineDialog dialog(nullptr);
    dialog.setResult(result, 0, 0);
    auto* sequence = dialog.findChild<QComboBox*>("sequence");
    auto* head = dialog.findChild<QComboBox*>("head");
    QVERIFY(sequence && head);
    QCOMPARE(sequence->count(), 2);
    QCOMPARE(head->count(), 4);

    head->setCurrentIndex(3);
    emit head->activated(3);
    sequence->setCurrentIndex(1);
    emit sequence->activated(1);
    QCOMPARE(dialog.head(), 3);
    QCOMPARE(dialog.sequence(), 1);
    QVERIFY(mismatch(dialog.strip()->tile(PipelineStage::Weights)->tile().values,
                     result.weights->at(1, 3))
                .isEmpty());
    QCOMPARE(dialog.explanation()->b, 1);
    QCOMPARE(dialog.explanation()->h, 3);

    // Out of range: clamped.
    dialog.setResult(result, 9, -2);
    QCOMPARE(dialog.sequence(), 1);
    QCOMPARE(dialog.head(), 0);
}

void TestPipelineDialog::headRowSource_data()
{
    QTest::addColumn<int>("split");
    QTest::newRow("transpose") << int(HeadSplit::Transpose);
    QTest::newRow("view (the bug)") << int(HeadSplit::View);
}

// Row r of Q_h is the d_k features of one token that headRowSource names, and the tile's
// row label says which: the token, or with "view" the token and its slice of features.
void TestPipelineDialog::headRowSource()
{
    QFETCH(int, split);
    Config config;
    config.headSplit = HeadSplit(split);
    const Result result =
        compute(requestOf("The cat sat on the mat because it was tired .", config));
    const int T = result.length(), dK = result.dK();
    PipelineStrip strip;
    for (int h = 0; h < result.heads(); ++h) {
        strip.setResult(result, 0, h);
        const HeatmapData& labels = strip.tile(PipelineStage::Queries)->tile().heatmap;
        for (int r = 0; r < T; ++r) {
            const HeadRowSource source = attn::headRowSource(config, T, h, r);
            const Matrix expected =
                result.projection->q[0].row(source.token).segment(source.firstFeature, dK);
            QCOMPARE(mismatch(result.split->q.at(0, h).row(r), expected), QByteArray());
            const QString token =
                QString::fromStdString(result.tokens->tokens[0][std::size_t(source.token)]);
            QCOMPARE(labels.queryLabel(r), config.headSplit == HeadSplit::Transpose
                                               ? token
                                               : QStringLiteral("%1[%2:%3]")
                                                     .arg(token)
                                                     .arg(source.firstFeature)
                                                     .arg(source.firstFeature + dK));
        }
    }
}

// The weights' tile takes the main window's colormap and colour scale, at once and through
// a new result and a let-go; the signed tiles keep their diverging colours.
void TestPipelineDialog::weightsFollowTheWindowsColours()
{
    Config causal;
    causal.mask = MaskKind::Causal;
    const Result result =
        compute(requestOf("The cat sat on the mat because it was tired .", causal));
    const int keys = result.keyLength();
    PipelineDialog dialog(nullptr);
    dialog.resize(1200, 800);
    dialog.setResult(result, 0, 1);
    PipelineStrip* strip = dialog.strip();
    PipelineTile* weights = strip->tile(PipelineStage::Weights);
    QVERIFY(weights);
    QCOMPARE(weights->tile().style.colormap, ColormapName::Viridis);
    QVERIFY(!weights->tile().style.logScale);
    QCOMPARE(weights->tile().style.vmin, 0.0);
    const QImage viridis = weights->grab().toImage();

    dialog.setColourScale(ColormapName::Magma, true);
    const auto isMagmaByLog = [&](const HeatmapStyle& style) {
        return style.colormap == ColormapName::Magma && style.logScale && style.vmax == 1.0 &&
               style.vmin == logScaleFloor(1.0, keys) && style.vmin > 0;
    };
    QVERIFY(isMagmaByLog(strip->tile(PipelineStage::Weights)->tile().style));
    const QImage magma = strip->tile(PipelineStage::Weights)->grab().toImage();
    QVERIFY(magma != viridis);
    for (const PipelineStage stage : {PipelineStage::Scores, PipelineStage::Logits,
                                      PipelineStage::Masked, PipelineStage::Queries})
        QCOMPARE(strip->tile(stage)->tile().style.colormap, ColormapName::Diverging);

    // Another head: the new tiles are made in the chosen colours.
    dialog.setResult(result, 0, 2);
    QVERIFY(isMagmaByLog(strip->tile(PipelineStage::Weights)->tile().style));

    // Let go (a large switch): the kept tile is recoloured all the same.
    dialog.letGo();
    dialog.setColourScale(ColormapName::Grey, false);
    const HeatmapStyle& grey = strip->tile(PipelineStage::Weights)->tile().style;
    QCOMPARE(grey.colormap, ColormapName::Grey);
    QVERIFY(!grey.logScale);
    QCOMPARE(grey.vmin, 0.0);
}

// Export… writes the strip as it is laid out for a handout, the outlined cell included and
// its arithmetic below: a PNG of twice its pixels on white, an SVG whose text is every
// tile's title and the arithmetic, a PDF.
void TestPipelineDialog::exportWritesTheStrip()
{
    Config causal;
    causal.mask = MaskKind::Causal;
    const Result result =
        compute(requestOf("The cat sat on the mat because it was tired .", causal));
    PipelineDialog dialog(nullptr);
    auto* button = dialog.findChild<QPushButton*>(QStringLiteral("exportButton"));
    QVERIFY(button && !button->isEnabled()); // nothing to export yet
    dialog.setResult(result, 0, 1);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QVERIFY(button->isEnabled());
    QTemporaryDir dir;

    const QString png = dir.filePath(QStringLiteral("steps.png"));
    QCOMPARE(dialog.exportTo(png), QString());
    const QImage image(png);
    QCOMPARE(image.width(), dialog.strip()->width() * 2);
    QVERIFY(image.height() > dialog.strip()->height() * 2 + 100); // the arithmetic below
    QCOMPARE(image.pixel(1, 1), qRgb(255, 255, 255)); // a handout's white, not the window's
    // The weights' tile is there: its top-left cell (weight 1 under the causal mask) in
    // the colormap's brightest colour.
    const PipelineTile* weights = dialog.strip()->tile(PipelineStage::Weights);
    const QPoint corner =
        weights->cellRect(0, 0).topLeft().toPoint() + QPoint(3, 3); // not its text
    const QPoint cell = weights->mapTo(dialog.strip(), corner);
    QCOMPARE(image.pixel(cell * 2), Colormap(ColormapName::Viridis).color(1.0));

    const QString svg = dir.filePath(QStringLiteral("steps.svg"));
    QCOMPARE(dialog.exportTo(svg), QString());
    QFile svgFile(svg);
    QVERIFY(svgFile.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(svgFile.readAll());
    QString texts;
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == u"text")
            texts += xml.readElementText();
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    // Below the tiles, the panel's arithmetic of the outlined cell: its numbers too.
    const CellExplanation& e = *dialog.explanation();
    QVERIFY2(texts.contains(QStringLiteral("weighs key")), qPrintable(texts.right(300)));
    QVERIFY(texts.contains(QString::number(double(e.weight), 'g', 4)));
    for (int k = 0; k < dialog.strip()->count(); ++k)
        QVERIFY2(texts.contains(dialog.strip()->tileAt(k)->tile().title.left(8)),
                 qPrintable(dialog.strip()->tileAt(k)->tile().title));
    QVERIFY(QSvgRenderer(svg).isValid());

    const QString pdf = dir.filePath(QStringLiteral("steps.pdf"));
    QCOMPARE(dialog.exportTo(pdf), QString());
    QFile pdfFile(pdf);
    QVERIFY(pdfFile.open(QIODevice::ReadOnly));
    QVERIFY(pdfFile.read(5) == "%PDF-");
}

// What cannot be exported says why and writes nothing: an unknown extension, a missing
// directory, and a strip with too many cells for a vector file (a PNG of it works).
void TestPipelineDialog::exportRefusals()
{
    PipelineDialog dialog(nullptr);
    QTemporaryDir dir;
    QVERIFY(!dialog.exportTo(dir.filePath(QStringLiteral("empty.png"))).isEmpty());

    std::string text;
    for (int t = 0; t < 260; ++t)
        text += "w" + std::to_string(t) + " ";
    Config config;
    config.tokenizer = TokenizerMode::Spaces;
    config.dModel = 16;
    config.heads = 2;
    dialog.setResult(compute(requestOf(text, config)), 0, 0);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QVERIFY(dialog.exportTo(dir.filePath(QStringLiteral("steps.bmp"))).contains(u"steps.bmp"));
    QVERIFY(!dialog.exportTo(dir.filePath(QStringLiteral("missing/steps.png"))).isEmpty());
    const QString vector = dialog.exportTo(dir.filePath(QStringLiteral("steps.svg")));
    QVERIFY2(vector.contains(u"PNG"), qPrintable(vector));      // 4 × 260² cells: export a PNG
    QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty()); // nothing partial
    QCOMPARE(dialog.exportTo(dir.filePath(QStringLiteral("steps.png"))), QString());
}

void TestPipelineDialog::partialAndEmptyResults()
{
    // Stopped after the softmax: the tiles up to P, and the explanation works.
    Config config;
    AttentionEngine engine;
    const Result weightsOnly =
        engine.compute(requestOf("The cat sat on the mat", config), nullptr, Stage::Normalize);
    PipelineDialog dialog(nullptr);
    dialog.setResult(weightsOnly, 0, 1);
    QCOMPARE(dialog.strip()->count(), 8);
    QVERIFY(!dialog.strip()->tile(PipelineStage::HeadOutput));
    QVERIFY(dialog.explanation());
    QVERIFY(
        dialog.strip()->tile(PipelineStage::Scores)->tile().note.indexOf(QStringLiteral("std")) <
        0); // no statistics yet

    // Nothing computed: no tiles, no explanation.
    dialog.setResult(Result{}, 0, 0);
    QCOMPARE(dialog.strip()->count(), 0);
    QVERIFY(!dialog.explanation());
    QVERIFY(!dialog.explanationText().isEmpty());
}

void TestPipelineDialog::dialogRenders_data()
{
    QTest::addColumn<Request>("request");
    QTest::addColumn<QString>("language");
    QTest::addColumn<QString>("name");
    QTest::newRow("article") << findPreset("article")->request << QStringLiteral("en")
                             << QStringLiteral("article");
    Config chinese;
    chinese.mask = MaskKind::Causal;
    chinese.heads = 4;
    chinese.dModel = 64;
    QTest::newRow("Chinese, 4 heads, causal, in Chinese")
        << requestOf("小猫坐在垫子上，因为它很累。", chinese) << QStringLiteral("zh_CN")
        << QStringLiteral("chinese-causal");
    for (const Preset& preset : presets())
        if (preset.name != "article")
            QTest::addRow("preset %s", std::string(preset.name).c_str())
                << preset.request << QStringLiteral("en")
                << QStringLiteral("preset-%1").arg(QLatin1String(preset.name));
}

// The dialog paints every tile; with ATTN_PIPELINE_PNG_DIR set it also writes the
// picture there, e.g. to look at it.
// At T = 2048 the strip's four T × T tiles are 4 M cells each. A tile keeps its coloured
// cells between paints (a scroll or an outlined cell used to colour them all again) and
// makes them anew for new data; its heatmap shares the tile's own copy of the matrix
// instead of copying it once more, and that copy is not the result's (the strip keeps its
// tiles after letting the result go, so that a large switch can reuse its memory).
void TestPipelineDialog::longSentenceTilesKeepTheirImages()
{
    std::string text;
    for (int t = 0; t < 600; ++t) // cells of about 2 px: drawn as one image
        text += "w" + std::to_string(t) + " ";
    Config config;
    config.dModel = 16;
    config.heads = 2;
    config.tokenizer = TokenizerMode::Spaces;
    Request request = requestOf(text, config);
    const Result unmasked = compute(request);
    request.config.mask = MaskKind::Causal;
    const Result causal = compute(request);

    PipelineStrip strip;
    strip.setResult(unmasked, 0, 0);
    strip.layOut(1300);
    for (const PipelineStage stage : {PipelineStage::Scores, PipelineStage::Weights}) {
        PipelineTile* tile = strip.tile(stage);
        QVERIFY(tile);
        QVERIFY(tile->tile().heatmap.weights.sharesWith(tile->tile().values));
        QVERIFY(!tile->tile().values.sharesWith(stage == PipelineStage::Scores
                                                    ? unmasked.scores->at(0, 0)
                                                    : unmasked.weights->at(0, 0)));
        QVERIFY(!tile->grab().isNull());
        QCOMPARE(tile->cellImageRenders(), 1);
        QVERIFY(!tile->grab().isNull()); // a repaint: a scroll, an expose
        strip.setSelectedCell(5, 3);     // the outlined cell
        QVERIFY(!tile->grab().isNull());
        QCOMPARE(tile->cellImageRenders(), 1);
    }
    strip.setResult(causal, 0, 1);
    for (const PipelineStage stage : {PipelineStage::Scores, PipelineStage::Weights}) {
        PipelineTile* tile = strip.tile(stage);
        QVERIFY(tile);
        QVERIFY(!tile->grab().isNull());
        QCOMPARE(tile->cellImageRenders(), 1); // a new tile's first image, for the new data
        QVERIFY(!mismatch(tile->tile().values, engineMatrix(causal, stage, 0, 1)).size());
    }
    // The weights under a causal mask are drawn hatched: their own matrix, masked cells 0.
    QVERIFY(!strip.tile(PipelineStage::Weights)
                 ->tile()
                 .heatmap.weights.sharesWith(strip.tile(PipelineStage::Weights)->tile().values));
}

void TestPipelineDialog::dialogRenders()
{
    QFETCH(Request, request);
    QFETCH(QString, language);
    QFETCH(QString, name);
    const Result result = compute(request);
    PipelineDialog dialog(nullptr);
    dialog.setResult(result, 0, result.heads() > 1 ? 1 : 0);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));

    // A language switch retranslates the open window: titles, formulas and the panel.
    const QString englishTitle = dialog.strip()->tile(PipelineStage::Weights)->tile().title;
    const QString englishPanel = dialog.explanationText();
    Language languages;
    QVERIFY(languages.apply(language));
    const auto restoreEnglish = qScopeGuard([&] { languages.apply(QStringLiteral("en")); });
    const bool translated = language != QStringLiteral("en");
    QCOMPARE(dialog.strip()->tile(PipelineStage::Weights)->tile().title != englishTitle,
             translated);
    QCOMPARE(dialog.explanationText() != englishPanel, translated);
    const QImage image = dialog.grab().toImage();
    QVERIFY(!image.isNull());
    const QImage strip = dialog.strip()->grab().toImage(); // every tile, scrolled or not
    QVERIFY(!strip.isNull());
    if (const QByteArray directory = qgetenv("ATTN_PIPELINE_PNG_DIR"); !directory.isEmpty()) {
        const QDir out(QString::fromLocal8Bit(directory));
        QVERIFY(image.save(out.filePath(QStringLiteral("pipeline-%1.png").arg(name))));
        QVERIFY(strip.save(out.filePath(QStringLiteral("pipeline-%1-strip.png").arg(name))));
    }
}

QTEST_MAIN(TestPipelineDialog)
#include "tst_pipelinedialog.moc"
