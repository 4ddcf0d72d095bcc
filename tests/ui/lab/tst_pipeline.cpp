// The step-by-step window: every tile shows the engine's matrix of its stage with the
// tutorial's shape line, and the explanation of a weight works it out with the
// engine's own numbers — the dot product, the scaling, the mask and the softmax over
// whichever axis is set.
#include "engine/positions.h"
#include "pipelinetest.h"

using namespace attn;
using namespace attn::ui;
using namespace attn::ui::test;

class TestPipeline : public QObject {
    Q_OBJECT

private slots:
    void tilesMatchTheEngine_data();
    void tilesMatchTheEngine();
    void shapeLines_data();
    void shapeLines();
    void explanationNumbers_data();
    void explanationNumbers();
    void explanationLists_data();
    void explanationLists();
    void clickExplainsTheCell_data();
    void clickExplainsTheCell();
    void keyboardExplainsTheCell();
    void fullyMaskedSliceIsNaN();
    void otherTilesDoNotExplain();
    void todaysTiles();

private:
    static void addConfigs();
};

void TestPipeline::addConfigs()
{
    QTest::addColumn<Request>("request");
    const std::string sentence = "The cat sat on the mat because it was tired .";
    const std::string twoLines = "The cat sat on the mat\nit was tired";
    Config config;
    QTest::newRow("default") << requestOf(sentence, config);
    Config causal;
    causal.mask = MaskKind::Causal;
    QTest::newRow("causal") << requestOf(sentence, causal);
    Config queries;
    queries.axis = SoftmaxAxis::Queries;
    QTest::newRow("axis=queries") << requestOf(sentence, queries);
    Config batch;
    batch.axis = SoftmaxAxis::Batch;
    QTest::newRow("axis=batch, 2 lines") << requestOf(twoLines, batch);
    Config view;
    view.headSplit = HeadSplit::View;
    QTest::newRow("view head split") << requestOf(sentence, view);
    Config none;
    none.scale = ScaleMode::None;
    QTest::newRow("scale none") << requestOf(sentence, none);
    Config hot;
    hot.temperature = 0.5f;
    QTest::newRow("tau=0.5") << requestOf(sentence, hot);
    Config after = causal;
    after.maskStage = MaskStage::AfterSoftmax;
    QTest::newRow("causal, mask after softmax") << requestOf(twoLines, after);
    Config billion = causal;
    billion.maskFill = MaskFill::NegBillion;
    QTest::newRow("causal, fill -1e9, 2 lines") << requestOf(twoLines, billion);
    Config nan = causal;
    nan.axis = SoftmaxAxis::Batch;
    QTest::newRow("causal, axis=batch: NaN above the diagonal") << requestOf(twoLines, nan);
    QTest::newRow("article preset") << findPreset("article")->request;
    QTest::newRow("cross-attention preset, 3 x 4") << findPreset("cross-attention")->request;
    Request cross = requestOf(twoLines, batch); // T_q = 6, T_k = 3 and 1 (padded)
    cross.config.attention = AttentionKind::Cross;
    cross.config.headSplit = HeadSplit::View;
    cross.crossText = "a b c\nd";
    QTest::newRow("cross, axis=batch, view split, padded keys") << cross;
}

void TestPipeline::tilesMatchTheEngine_data()
{
    addConfigs();
}

void TestPipeline::tilesMatchTheEngine()
{
    QFETCH(Request, request);
    const Result result = compute(request);
    PipelineStrip strip;
    for (int b = 0; b < result.batch(); ++b)
        for (int h = 0; h < result.heads(); ++h) {
            strip.setResult(result, b, h);
            QCOMPARE(strip.count(), int(std::size(kStages)));
            for (const PipelineStage stage : kStages) {
                const PipelineTile* tile = strip.tile(stage);
                QVERIFY(tile);
                const QByteArray problem =
                    mismatch(tile->tile().values, engineMatrix(result, stage, b, h));
                QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("stage %1, [%2, %3]: %4")
                                                           .arg(int(stage))
                                                           .arg(b)
                                                           .arg(h)
                                                           .arg(problem)));
            }
        }
}

void TestPipeline::shapeLines_data()
{
    addConfigs();
}

void TestPipeline::shapeLines()
{
    QFETCH(Request, request);
    const Result result = compute(request);
    PipelineStrip strip;
    strip.setResult(result, 0, result.heads() - 1);
    for (const PipelineStage stage : kStages)
        QCOMPARE(strip.tile(stage)->tile().shape, expectedShape(result, stage));
    // The tutorial's own line: torch.Size([2, 4, 4]) for att, one head.
    if (QTest::currentDataTag() == QByteArray("article preset"))
        QCOMPARE(strip.tile(PipelineStage::Scores)->tile().shape,
                 QStringLiteral("(B, H, T, T) = (2, 1, 4, 4)"));
}

void TestPipeline::explanationNumbers_data()
{
    addConfigs();
}

void TestPipeline::explanationNumbers()
{
    QFETCH(Request, request);
    const Result result = compute(request);
    const Config& config = result.config();
    const int B = result.batch(), T = result.length(), Tk = result.keyLength();
    for (int b = 0; b < B; ++b)
        for (int h = 0; h < result.heads(); ++h)
            for (int i = 0; i < T; ++i)
                for (int j = 0; j < Tk; ++j) {
                    const CellExplanation e = explainCell(result, b, h, i, j);
                    const QByteArray where = "[" + QByteArray::number(b) + "][" +
                                             QByteArray::number(h) + "][" + QByteArray::number(i) +
                                             "][" + QByteArray::number(j) + "]";
                    const bool masked = (*result.mask)[std::size_t(b)](i, j);

                    // 1. The dot product's terms are q_i and k_j; their sum is the score.
                    QCOMPARE(int(e.terms.size()), result.dK());
                    for (int k = 0; k < result.dK(); ++k) {
                        QCOMPARE(e.terms[std::size_t(k)].query, result.split->q.at(b, h)(i, k));
                        QCOMPARE(e.terms[std::size_t(k)].key, result.split->k.at(b, h)(j, k));
                    }
                    const float score = result.scores->at(b, h)(i, j);
                    QCOMPARE(e.score, score);
                    QVERIFY2(std::abs(e.dotProduct - score) <= kDotTolerance,
                             where + ": Σ q·k = " + QByteArray::number(e.dotProduct, 'g', 9) +
                                 ", S = " + QByteArray::number(score, 'g', 9));

                    // 2. S·scale/τ is the engine's logit wherever no mask filled it.
                    const float logit = result.logit(b, h, i, j);
                    QCOMPARE(e.logit, logit);
                    QCOMPARE(e.masked, masked);
                    QCOMPARE(e.scale, scaleFactor(config));
                    if (!masked || config.maskStage == MaskStage::AfterSoftmax)
                        QVERIFY2(e.scaledScore == logit,
                                 where + ": " + QByteArray::number(e.scaledScore, 'g', 9) +
                                     " instead of " + QByteArray::number(logit, 'g', 9));

                    // 3. The softmax runs over the axis's slice; its quotient is the weight.
                    const int expectedSize = config.axis == SoftmaxAxis::Batch  ? B
                                             : config.axis == SoftmaxAxis::Keys ? Tk
                                                                                : T;
                    QCOMPARE(int(e.slice.size()), expectedSize);
                    const SoftmaxTerm& self = e.slice[std::size_t(e.position)];
                    QCOMPARE(self.b, b);
                    QCOMPARE(self.i, i);
                    QCOMPARE(self.j, j);
                    for (const SoftmaxTerm& term : e.slice) {
                        if (config.axis == SoftmaxAxis::Keys)
                            QVERIFY(term.b == b && term.i == i);
                        if (config.axis == SoftmaxAxis::Queries)
                            QVERIFY(term.b == b && term.j == j);
                        if (config.axis == SoftmaxAxis::Batch)
                            QVERIFY(term.i == i && term.j == j);
                        QVERIFY(same(term.logit, result.logit(term.b, h, term.i, term.j)));
                    }
                    const float weight = result.weights->at(b, h)(i, j);
                    QVERIFY(same(e.weight, weight));
                    QCOMPARE(e.zeroedAfterSoftmax,
                             masked && config.maskStage == MaskStage::AfterSoftmax);
                    if (e.zeroedAfterSoftmax) {
                        QCOMPARE(weight, 0.0f);
                        QVERIFY(e.quotient >= 0 && e.quotient <= 1);
                    } else if (std::isnan(weight)) {
                        QVERIFY2(std::isnan(e.quotient), where);
                    } else {
                        QVERIFY2(std::abs(e.quotient - weight) <= kWeightTolerance,
                                 where + ": quotient " + QByteArray::number(e.quotient, 'g', 9) +
                                     ", P = " + QByteArray::number(weight, 'g', 9));
                    }
                }
}

void TestPipeline::explanationLists_data()
{
    QTest::addColumn<Request>("request");
    QTest::addColumn<QString>("dotEnd");    // what the dot product's line says last
    QTest::addColumn<int>("dotTermsShown"); // terms "(q·k)" printed
    QTest::addColumn<int>("sumTermsShown"); // terms of the softmax's sum printed

    Config config; // d_k = 16, 12 tokens
    QTest::newRow("d_k 16: every term; 12 keys: every term")
        << requestOf("a b c d e f g h i j k l", config) << QString() << 16 << 12;
    Config wide;
    wide.heads = 1; // d_k = 64
    QTest::newRow("d_k 64: 8 terms; 13 keys: 8 terms")
        << requestOf("a b c d e f g h i j k l m", wide) << QStringLiteral("(64 terms in all)") << 8
        << 8;
}

void TestPipeline::explanationLists()
{
    QFETCH(Request, request);
    QFETCH(QString, dotEnd);
    QFETCH(int, dotTermsShown);
    QFETCH(int, sumTermsShown);
    const Result result = compute(request);
    const CellExplanation e = explainCell(result, 0, 0, 2, 1);
    QTextDocument document;
    document.setHtml(explanationHtml(e, QStringLiteral("c"), QStringLiteral("b")));
    const QStringList lines = document.toPlainText().split(QLatin1Char('\n'));

    // The dot product: "S[2][1] = q2 · k1 = Σk q2k·k1k" then "= (a·b) + … = S".
    const int scoreLine = int(lines.indexOf(QRegularExpression(QStringLiteral("^= \\(.*"))));
    QVERIFY(scoreLine >= 0);
    const QString dot = lines[scoreLine];
    QCOMPARE(int(dot.count(QStringLiteral("·"))), dotTermsShown);
    QVERIFY2(dot.endsWith(QStringLiteral(" = ") + printed(e.score)), qPrintable(dot));
    if (!dotEnd.isEmpty())
        QVERIFY2(dot.contains(dotEnd), qPrintable(dot));
    for (int k = 0; k < dotTermsShown; ++k)
        QVERIFY2(dot.contains(QStringLiteral("(%1·%2)").arg(printed(e.terms[std::size_t(k)].query),
                                                            printed(e.terms[std::size_t(k)].key))),
                 qPrintable(dot));

    // The softmax's sum: "Σ exp(L[2][·] − max) = t + t + … = Σ".
    const int sumLine = int(lines.indexOf(QRegularExpression(QStringLiteral("^Σ exp.*"))));
    QVERIFY(sumLine >= 0);
    const QString sum = lines[sumLine];
    const QString terms = sum.section(QStringLiteral(" = "), 1, 1);
    QCOMPARE(int(terms.split(QStringLiteral(" + ")).size()),
             sumTermsShown + (sumTermsShown < int(e.slice.size()) ? 1 : 0));
    QVERIFY2(sum.endsWith(QStringLiteral(" = ") + printed(e.denominator)), qPrintable(sum));
}

void TestPipeline::clickExplainsTheCell_data()
{
    QTest::addColumn<Request>("request");
    QTest::addColumn<PipelineStage>("stage");
    QTest::addColumn<int>("head");
    QTest::addColumn<int>("i");
    QTest::addColumn<int>("j");

    Config causal;
    causal.mask = MaskKind::Causal;
    const Request sentence = requestOf("The cat sat on the mat because it was tired .", causal);
    QTest::newRow("P[7][1], head 2") << sentence << PipelineStage::Weights << 2 << 7 << 1;
    QTest::newRow("S[0][0], head 0") << sentence << PipelineStage::Scores << 0 << 0 << 0;
    QTest::newRow("L[3][9], head 1 (masked)") << sentence << PipelineStage::Logits << 1 << 3 << 9;
    QTest::newRow("L+M[5][2], head 3") << sentence << PipelineStage::Masked << 3 << 5 << 2;
    Config batch;
    batch.axis = SoftmaxAxis::Batch;
    QTest::newRow("axis=batch, P[2][4]") << requestOf("The cat sat on the mat\nit was tired", batch)
                                         << PipelineStage::Weights << 1 << 2 << 4;
    QTest::newRow("article, P[2][1]")
        << findPreset("article")->request << PipelineStage::Weights << 0 << 2 << 1;
}

void TestPipeline::clickExplainsTheCell()
{
    QFETCH(Request, request);
    QFETCH(PipelineStage, stage);
    QFETCH(int, head);
    QFETCH(int, i);
    QFETCH(int, j);
    const Result result = compute(request);
    PipelineDialog dialog(nullptr);
    dialog.setResult(result, 0, head);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    PipelineTile* tile = dialog.strip()->tile(stage);
    QVERIFY(tile);
    QVERIFY(dialog.explanation()); // a default cell is explained from the start
    QVERIFY(dialog.explanation()->i != i || dialog.explanation()->j != j);

    QTest::mouseClick(tile, Qt::LeftButton, {}, tile->cellRect(i, j).center().toPoint());
    QVERIFY(dialog.explanation());
    const CellExplanation& e = *dialog.explanation();
    QCOMPARE(e.b, 0);
    QCOMPARE(e.h, head);
    QCOMPARE(e.i, i);
    QCOMPARE(e.j, j);

    // The panel prints the engine's numbers of that cell.
    const QString text = dialog.explanationText();
    const float score = result.scores->at(0, head)(i, j);
    const float logit = result.logit(0, head, i, j);
    const float weight = result.weights->at(0, head)(i, j);
    for (const QString& expected : {QStringLiteral(" = %1\n").arg(printed(score)),
                                    QStringLiteral(" = %1").arg(printed(logit)),
                                    QStringLiteral(" = %1").arg(printed(weight))})
        QVERIFY2(text.contains(expected),
                 qPrintable(expected + QStringLiteral(" not in:\n") + text));

    // The strip outlines the cell, q_i in Q_h and k_j in K_h.
    QCOMPARE(tile->highlightRow(), i);
    QCOMPARE(tile->highlightColumn(), j);
    QCOMPARE(dialog.strip()->tile(PipelineStage::Queries)->highlightRow(), i);
    QCOMPARE(dialog.strip()->tile(PipelineStage::Keys)->highlightRow(), j);
}

// The keyboard's way to the arithmetic: Tab reaches every tile, the arrow keys move a cell
// from the explained one, and on S, L, the mask and P each move explains it as a click
// does; on the other tiles the cell only tells its value, and leaving gives the outline
// back to the explained cell.
void TestPipeline::keyboardExplainsTheCell()
{
    Config causal;
    causal.mask = MaskKind::Causal;
    const Result result =
        compute(requestOf("The cat sat on the mat because it was tired .", causal));
    PipelineDialog dialog(nullptr);
    dialog.setResult(result, 0, 1);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    dialog.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    PipelineStrip* strip = dialog.strip();
    for (int k = 0; k < strip->count(); ++k)
        QVERIFY(strip->tileAt(k)->focusPolicy() & Qt::TabFocus);
    const auto explained = [&] {
        return dialog.explanation() ? QPoint(dialog.explanation()->i, dialog.explanation()->j)
                                    : QPoint(-1, -1);
    };
    const QPoint start = explained(); // the last query's first key
    QCOMPARE(start, QPoint(10, 0));

    // Tab from the tile before P lands on P, its keyboard cell on the explained one.
    PipelineTile* weights = strip->tile(PipelineStage::Weights);
    PipelineTile* masked = strip->tile(PipelineStage::Masked);
    masked->setFocus(Qt::TabFocusReason);
    QTest::keyClick(masked, Qt::Key_Tab);
    QCOMPARE(QApplication::focusWidget(), weights);
    QCOMPARE(weights->keyboardCell(), start);
    QCOMPARE(explained(), start); // reaching it explains nothing new

    const auto press = [&](Qt::Key key, Qt::KeyboardModifiers modifiers = {}) {
        QTest::keyClick(weights, key, modifiers);
        return explained();
    };
    QCOMPARE(press(Qt::Key_Right), QPoint(10, 1));
    QCOMPARE(press(Qt::Key_Up), QPoint(9, 1));
    QCOMPARE(press(Qt::Key_End), QPoint(9, 10)); // a masked weight is explained too
    QCOMPARE(press(Qt::Key_Home, Qt::ControlModifier), QPoint(0, 0));
    QCOMPARE(press(Qt::Key_Left), QPoint(0, 0));
    QCOMPARE(press(Qt::Key_Down), QPoint(1, 0));
    QCOMPARE(weights->keyboardCell(), QPoint(1, 0));
    // The strip follows: the cell in S, q_1 in Q_h, k_0 in K_h.
    QCOMPARE(strip->tile(PipelineStage::Scores)->highlightRow(), 1);
    QCOMPARE(strip->tile(PipelineStage::Scores)->highlightColumn(), 0);
    QCOMPARE(strip->tile(PipelineStage::Queries)->highlightRow(), 1);
    QCOMPARE(strip->tile(PipelineStage::Keys)->highlightRow(), 0);
    // The panel works out that weight, and a screen reader hears the cell.
    const float weight = result.weights->at(0, 1)(1, 0);
    QVERIFY(dialog.explanationText().contains(QStringLiteral(" = %1").arg(printed(weight))));
    QCOMPARE(weights->accessibleName(), weights->tile().title);
    QCOMPARE(weights->accessibleDescription(), weights->cellText(1, 0, false));
    QVERIFY(weights->accessibleDescription().contains(QStringLiteral("cat")));
    // Enter explains the cell again and keeps the dialog open.
    QTest::keyClick(weights, Qt::Key_Return);
    QVERIFY(dialog.isVisible());
    QCOMPARE(explained(), QPoint(1, 0));

    // Q_h explains nothing: its cell starts on q_1's row and tells a feature's value.
    PipelineTile* queries = strip->tile(PipelineStage::Queries);
    queries->setFocus(Qt::TabFocusReason);
    QCOMPARE(queries->keyboardCell(), QPoint(1, 0));
    QTest::keyClick(queries, Qt::Key_Right);
    QTest::keyClick(queries, Qt::Key_Down);
    QCOMPARE(queries->keyboardCell(), QPoint(2, 1));
    QCOMPARE(explained(), QPoint(1, 0));
    QCOMPARE(queries->accessibleDescription(), queries->cellText(2, 1));
    QVERIFY(queries->accessibleDescription().contains(
        QLocale().toString(queries->tile().values(2, 1), 'g', 4)));
    // Tabbing on gives the outline back to q_1 and the description to the tile's formula.
    QTest::keyClick(queries, Qt::Key_Tab);
    QCOMPARE(queries->keyboardCell(), QPoint(-1, -1));
    QCOMPARE(queries->highlightRow(), 1);
    QVERIFY(queries->accessibleDescription().startsWith(queries->tile().formula));
}

// Over the queries, a <pad> key's column is masked everywhere: -inf − (-inf) = NaN.
void TestPipeline::fullyMaskedSliceIsNaN()
{
    const Result result = compute(findPreset("fully-masked-row")->request);
    const int b = 1, pad = result.tokens->lengths[1]; // the first <pad> key
    QVERIFY(pad < result.length());
    PipelineDialog dialog(nullptr);
    dialog.setResult(result, b, 0);
    dialog.explainCell(0, pad);
    const CellExplanation& e = *dialog.explanation();
    QVERIFY(std::isinf(e.max) && e.max < 0);
    QVERIFY(std::isnan(e.quotient));
    QVERIFY(std::isnan(e.weight));
    QVERIFY(std::isnan(result.weights->at(b, 0)(0, pad)));
    const QString text = dialog.explanationText();
    QVERIFY2(text.contains(QStringLiteral(" = NaN")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("L[·][%1] is -inf").arg(pad)), qPrintable(text));
}

void TestPipeline::otherTilesDoNotExplain()
{
    Config config;
    const Result result = compute(requestOf("The cat sat on the mat", config));
    PipelineDialog dialog(nullptr);
    dialog.setResult(result, 0, 0);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    const CellExplanation before = *dialog.explanation();
    for (const PipelineStage stage : {PipelineStage::Input, PipelineStage::Queries,
                                      PipelineStage::HeadOutput, PipelineStage::Output}) {
        PipelineTile* tile = dialog.strip()->tile(stage);
        QTest::mouseClick(tile, Qt::LeftButton, {}, tile->cellRect(0, 1).center().toPoint());
        QCOMPARE(dialog.explanation()->i, before.i);
        QCOMPARE(dialog.explanation()->j, before.j);
    }
}

// Today's models' tiles, each where its stage comes: Q_h and K_h as split, then normed
// and rotated (ending in the engine's Q_h and K_h), K/V head shared, ALiBi's bias, the
// logits after it and the cap, the window's mask, the sink's weights.
void TestPipeline::todaysTiles()
{
    Config config;
    config.kvHeads = 2;
    config.qkNorm = true;
    config.positional = attn::Positional::Rope;
    config.alibi = true;
    config.softcap = 5;
    config.window = 3;
    config.sink = 0.5f;
    const Result result =
        compute(requestOf("The cat sat on the mat because it was tired .", config));
    QVERIFY(result.hasWeights());
    const int T = result.length();
    PipelineStrip strip;
    for (int h = 0; h < result.heads(); ++h) {
        strip.setResult(result, 0, h);
        QCOMPARE(strip.count(), int(std::size(kStages)) + 7);
        const auto values = [&](PipelineStage stage) -> Matrix {
            const PipelineTile* tile = strip.tile(stage);
            return tile ? Matrix(tile->tile().values.get()) : Matrix();
        };
        const attn::HeadTransformSteps q =
            attn::headTransformSteps(config, result.projection->q[0], config.heads, h);
        QCOMPARE(mismatch(values(PipelineStage::Queries), q.split), QByteArray());
        QCOMPARE(mismatch(values(PipelineStage::QueriesNormed), q.normed), QByteArray());
        for (const PipelineStage stage :
             {PipelineStage::QueriesRotated, PipelineStage::KeysRotated})
            QCOMPARE(mismatch(values(stage), engineMatrix(result, stage, 0, h)), QByteArray());
        // The K/V head query head h reads, in K's tile.
        const StageTile& keys = strip.tile(PipelineStage::Keys)->tile();
        QVERIFY2(keys.title.contains(QStringLiteral("K/V head %1").arg(config.kvHeadOf(h))),
                 qPrintable(keys.title));
        QCOMPARE(keys.shape, QStringLiteral("(B, K, T, d_k) = (1, 2, %1, 16)").arg(T));
        // ALiBi's bias, and L after it and the cap: the engine's logits where nothing is masked.
        const Matrix bias = values(PipelineStage::Alibi);
        const Matrix shifted = values(PipelineStage::Shifted);
        const Matrix logits = result.logits(0, h);
        const attn::MaskMatrix& mask = (*result.mask)[0];
        const float slope = attn::alibiSlope(h, config.heads);
        for (int i = 0; i < T; ++i)
            for (int j = 0; j < T; ++j) {
                QCOMPARE(bias(i, j), -slope * float(std::abs(i - j)));
                QVERIFY(std::abs(shifted(i, j)) < config.softcap);
                if (!mask(i, j))
                    QCOMPARE(shifted(i, j), logits(i, j));
                else
                    QVERIFY(std::abs(i - j) >= config.window);
            }
        QVERIFY(strip.tile(PipelineStage::Masked)->tile().title.contains("sliding window"));
        // The sink's column: what each row of P lacks.
        const Matrix sink = values(PipelineStage::Sink);
        QCOMPARE(sink.rows(), Eigen::Index(T));
        QCOMPARE(sink.cols(), Eigen::Index(1));
        const Matrix& weights = result.weights->at(0, h);
        for (int i = 0; i < T; ++i) {
            QVERIFY(sink(i, 0) > 0);
            QVERIFY(std::abs(weights.row(i).sum() + sink(i, 0) - 1.0f) < 1e-5f);
        }
    }
    // Without the switches, none of these tiles.
    strip.setResult(compute(requestOf("the cat sat", Config{})), 0, 0);
    QCOMPARE(strip.count(), int(std::size(kStages)));
    QVERIFY(!strip.tile(PipelineStage::Sink));
}

QTEST_MAIN(TestPipeline)
#include "tst_pipeline.moc"
