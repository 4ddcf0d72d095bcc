// The step-by-step window: every tile shows the engine's matrix of its stage with the
// tutorial's shape line, and the explanation of a weight works it out with the
// engine's own numbers — the dot product, the scaling, the mask and the softmax over
// whichever axis is set.
#include "engine.h"
#include "explain.h"
#include "language.h"
#include "pipelinedialog.h"
#include "pipelinestrip.h"
#include "presets.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>
#include <QXmlStreamReader>

#include <cmath>
#include <limits>

using namespace attn;
using namespace attn::ui;

Q_DECLARE_METATYPE(attn::Request)
Q_DECLARE_METATYPE(attn::ui::PipelineStage)

namespace {

constexpr double kDotTolerance = 1e-5;    // Σ q·k in double against the engine's sgemm
constexpr double kWeightTolerance = 1e-6; // the softmax in double against the engine's float

Result compute(const Request& request)
{
    AttentionEngine engine;
    return engine.compute(request);
}

Request requestOf(const std::string& text, Config config)
{
    return Request{text, config, {}, {}};
}

bool same(float a, float b)
{
    return a == b || (std::isnan(a) && std::isnan(b));
}

// Empty when `actual` equals `expected` element for element (NaN equals NaN); else one
// line naming the largest difference and where it is.
QByteArray mismatch(const Matrix& actual, const Matrix& expected)
{
    if (actual.rows() != expected.rows() || actual.cols() != expected.cols())
        return QByteArray("shape (") + QByteArray::number(actual.rows()) + ", " +
               QByteArray::number(actual.cols()) + "), expected (" +
               QByteArray::number(expected.rows()) + ", " + QByteArray::number(expected.cols()) +
               ")";
    double largest = -1;
    Eigen::Index worstRow = 0, worstColumn = 0;
    for (Eigen::Index r = 0; r < actual.rows(); ++r)
        for (Eigen::Index c = 0; c < actual.cols(); ++c) {
            if (same(actual(r, c), expected(r, c)))
                continue;
            const double difference = std::abs(double(actual(r, c)) - double(expected(r, c)));
            if (!(difference <= largest)) {
                largest = difference;
                worstRow = r;
                worstColumn = c;
            }
        }
    if (largest < 0)
        return {};
    return "largest difference " + QByteArray::number(largest, 'g', 3) + " at [" +
           QByteArray::number(worstRow) + "][" + QByteArray::number(worstColumn) +
           "]: " + QByteArray::number(actual(worstRow, worstColumn), 'g', 9) + " instead of " +
           QByteArray::number(expected(worstRow, worstColumn), 'g', 9);
}

// The engine's matrix of `stage` for sequence b and head h, taken straight from `r`.
Matrix engineMatrix(const Result& r, PipelineStage stage, int b, int h)
{
    switch (stage) {
    case PipelineStage::Input:
        return (*r.x)[std::size_t(b)];
    case PipelineStage::Queries:
        return r.split->q.at(b, h);
    case PipelineStage::Keys:
        return r.split->k.at(b, h);
    case PipelineStage::Values:
        return r.split->v.at(b, h);
    case PipelineStage::Scores:
        return r.scores->at(b, h);
    case PipelineStage::Logits: {
        // The engine's logits where no mask filled them; S·scale/τ, as torch computes it,
        // where one did.
        Matrix logits = r.logits(b, h);
        const float scale = float(scaleFactor(r.config()));
        for (Eigen::Index i = 0; i < logits.rows(); ++i)
            for (Eigen::Index j = 0; j < logits.cols(); ++j)
                if ((*r.mask)[std::size_t(b)](i, j) &&
                    r.config().maskStage == MaskStage::BeforeSoftmax)
                    logits(i, j) = (r.scores->at(b, h)(i, j) * scale) / r.config().temperature;
        return logits;
    }
    case PipelineStage::Masked:
        return r.logits(b, h);
    case PipelineStage::Weights:
        return r.weights->at(b, h);
    case PipelineStage::HeadOutput:
        return r.aggregation->headOutputs.at(b, h);
    case PipelineStage::Concat:
        return r.aggregation->merged[std::size_t(b)];
    case PipelineStage::Output:
        return r.aggregation->output[std::size_t(b)];
    }
    return {};
}

QString expectedShape(const Result& r, PipelineStage stage)
{
    const QString B = QString::number(r.batch()), T = QString::number(r.length()),
                  C = QString::number(r.dModel()), H = QString::number(r.heads()),
                  dK = QString::number(r.dK()), Tk = QString::number(r.keyLength());
    if (r.isCross()) // queries T_q, keys and values T_k
        switch (stage) {
        case PipelineStage::Input:
        case PipelineStage::Concat:
        case PipelineStage::Output:
            return QStringLiteral("(B, T_q, C) = (%1, %2, %3)").arg(B, T, C);
        case PipelineStage::Queries:
        case PipelineStage::HeadOutput:
            return QStringLiteral("(B, H, T_q, d_k) = (%1, %2, %3, %4)").arg(B, H, T, dK);
        case PipelineStage::Keys:
        case PipelineStage::Values:
            return QStringLiteral("(B, H, T_k, d_k) = (%1, %2, %3, %4)").arg(B, H, Tk, dK);
        default:
            return QStringLiteral("(B, H, T_q, T_k) = (%1, %2, %3, %4)").arg(B, H, T, Tk);
        }
    switch (stage) {
    case PipelineStage::Input:
    case PipelineStage::Concat:
    case PipelineStage::Output:
        return QStringLiteral("(B, T, C) = (%1, %2, %3)").arg(B, T, C);
    case PipelineStage::Queries:
    case PipelineStage::Keys:
    case PipelineStage::Values:
    case PipelineStage::HeadOutput:
        return QStringLiteral("(B, H, T, d_k) = (%1, %2, %3, %4)").arg(B, H, T, dK);
    default:
        return QStringLiteral("(B, H, T, T) = (%1, %2, %3, %3)").arg(B, H, T);
    }
}

constexpr PipelineStage kStages[] = {
    PipelineStage::Input,  PipelineStage::Queries, PipelineStage::Keys,
    PipelineStage::Values, PipelineStage::Scores,  PipelineStage::Logits,
    PipelineStage::Masked, PipelineStage::Weights, PipelineStage::HeadOutput,
    PipelineStage::Concat, PipelineStage::Output,
};

// The panel's spelling of a number (four significant digits).
QString printed(double value)
{
    if (std::isnan(value))
        return QStringLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    return QString::number(value, 'g', 4);
}

} // namespace

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

void TestPipeline::choosersSwitchSequenceAndHead()
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

void TestPipeline::headRowSource_data()
{
    QTest::addColumn<int>("split");
    QTest::newRow("transpose") << int(HeadSplit::Transpose);
    QTest::newRow("view (the bug)") << int(HeadSplit::View);
}

// Row r of Q_h is the d_k features of one token that headRowSource names, and the tile's
// row label says which: the token, or with "view" the token and its slice of features.
void TestPipeline::headRowSource()
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
void TestPipeline::weightsFollowTheWindowsColours()
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
void TestPipeline::exportWritesTheStrip()
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
void TestPipeline::exportRefusals()
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

void TestPipeline::partialAndEmptyResults()
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

void TestPipeline::dialogRenders_data()
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
void TestPipeline::longSentenceTilesKeepTheirImages()
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

void TestPipeline::dialogRenders()
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

QTEST_MAIN(TestPipeline)
#include "tst_pipeline.moc"
