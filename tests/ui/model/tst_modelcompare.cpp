// Compare A/B of a language model window, on a tiny random GPT-2 written at test time: the
// button is enabled only while the switches depart from the textbook; the dialog shows the
// textbook run (A, computed on its worker) beside the window's switched run (B) for the
// chosen layer and head or mean, B − A on its own scale, both and their difference on hover,
// both top-10 predictions with where each stands in the other, and a sentence on the top
// prediction; it follows the window's switches (A kept) and text (A recomputed), and
// exports its figure as PNG, SVG and PDF. comparePredictions' ranks are checked against
// each run's whole ordered distribution.
#include "heatmapview.h"
#include "language.h"
#include "languagemodelwindow.h"
#include "logitsthreadmodel.h"
#include "modelcomparebutton.h"
#include "modelcomparedialog.h"
#include "modelcomparison.h"
#include "models/families.h"
#include "models/languagemodel.h"
#include "models/predictioncomparison.h"
#include "tinygpt2.h"

#include <QtTest>

#include <QComboBox>
#include <QImage>
#include <QLabel>
#include <QTemporaryDir>
#include <QTreeWidget>

#include <cmath>
#include <functional>
#include <memory>

using namespace attn;
using namespace attn::ui;

Q_DECLARE_METATYPE(std::function<void(attn::ModelSwitches&)>)
Q_DECLARE_METATYPE(attn::ui::FileSelection)

namespace {

using Change = std::function<void(ModelSwitches&)>;

// The largest |x − y| of two matrices of one shape (NaN where both are NaN counts as equal).
double largestGap(const Matrix& x, const Matrix& y)
{
    if (x.rows() != y.rows() || x.cols() != y.cols())
        return INFINITY;
    double largest = 0;
    for (Eigen::Index i = 0; i < x.rows(); ++i)
        for (Eigen::Index j = 0; j < x.cols(); ++j)
            if (!(std::isnan(x(i, j)) && std::isnan(y(i, j))))
                largest = std::max(largest, double(std::abs(x(i, j) - y(i, j))));
    return largest;
}

ModelSwitches noScaling()
{
    ModelSwitches s;
    s.formula.scale = ScaleMode::None;
    return s;
}

} // namespace

class TestModelCompare : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void theButtonIsEnabledByADeparture_data();
    void theButtonIsEnabledByADeparture();
    void showsTextbookBesideSwitched_data();
    void showsTextbookBesideSwitched();
    void predictionsSideBySide_data();
    void predictionsSideBySide();
    void followsTheSwitchesAndTheText();
    void comparingMakesNoLogitsOnTheGuiThread();
    void exportsTheFigure_data();
    void exportsTheFigure();
    void ranksInTheOtherRun();
    void opensOnTheLayerTheSwitchesChange();
    void theSummaryReadsInEachLanguage_data();
    void theSummaryReadsInEachLanguage();

private:
    void waitForRun();
    // Opens the dialog under `switches` and waits until A and B are shown.
    ModelCompareDialog* openCompare(const ModelSwitches& switches);

    QTemporaryDir dir_;
    std::shared_ptr<const LanguageModel> model_;
    std::unique_ptr<LanguageModelWindow> window_;
};

void TestModelCompare::initTestCase()
{
    model_ = openModel(test::writeTinyGpt2(dir_.filePath("tiny-random-gpt2")).toStdString());
}

void TestModelCompare::init()
{
    window_ = std::make_unique<LanguageModelWindow>(
        model_, model_->run(LanguageModelWindow::kFirstText, {}),
        QString::fromUtf8(LanguageModelWindow::kFirstText));
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
}

void TestModelCompare::cleanup()
{
    window_.reset();
}

void TestModelCompare::waitForRun()
{
    QSignalSpy shown(window_.get(), &LanguageModelWindow::runShown);
    if (window_->running())
        QVERIFY(shown.wait(20000));
}

ModelCompareDialog* TestModelCompare::openCompare(const ModelSwitches& switches)
{
    window_->setSwitches(switches);
    waitForRun();
    auto* button = window_->findChild<ModelCompareButton*>("compareAB");
    if (!button || !button->isEnabled())
        return nullptr;
    QTest::mouseClick(button, Qt::LeftButton);
    ModelCompareDialog* dialog = button->dialog();
    const bool ready = dialog && QTest::qWaitFor([&] { return dialog->ready(); }, 20000);
    return ready ? dialog : nullptr;
}

void TestModelCompare::theButtonIsEnabledByADeparture_data()
{
    QTest::addColumn<Change>("change");
    QTest::addColumn<bool>("enabled");
    QTest::newRow("textbook") << Change([](ModelSwitches&) {}) << false;
    QTest::newRow("no √d_k scaling")
        << Change([](ModelSwitches& s) { s.formula.scale = ScaleMode::None; }) << true;
    QTest::newRow("τ = 2") << Change([](ModelSwitches& s) { s.formula.temperature = 2; }) << true;
    QTest::newRow("no causal mask")
        << Change([](ModelSwitches& s) { s.formula.mask = MaskKind::None; }) << true;
    QTest::newRow("heads split with view")
        << Change([](ModelSwitches& s) { s.formula.headSplit = HeadSplit::View; }) << true;
    QTest::newRow("only layer 1, textbook formula")
        << Change([](ModelSwitches& s) { s.onlyLayer = 1; }) << false;
    QTest::newRow("only layer 1, no scaling") << Change([](ModelSwitches& s) {
        s.onlyLayer = 1;
        s.formula.scale = ScaleMode::None;
    }) << true;
}

void TestModelCompare::theButtonIsEnabledByADeparture()
{
    QFETCH(Change, change);
    QFETCH(bool, enabled);
    auto* button = window_->findChild<ModelCompareButton*>("compareAB");
    QVERIFY(button);
    QVERIFY(!button->isEnabled()); // the window opens on the textbook formula
    ModelSwitches switches;
    change(switches);
    window_->setSwitches(switches);
    waitForRun();
    QCOMPARE(button->isEnabled(), enabled);
}

void TestModelCompare::showsTextbookBesideSwitched_data()
{
    QTest::addColumn<int>("layer");
    QTest::addColumn<FileSelection>("selection");
    QTest::newRow("layer 0, head 0") << 0 << FileSelection{FileWhat::Head, 0};
    QTest::newRow("layer 1, head 1") << 1 << FileSelection{FileWhat::Head, 1};
    QTest::newRow("layer 1, mean of the heads") << 1 << FileSelection{FileWhat::Mean, 0};
}

// A is the textbook run's head, B the window's, B − A their difference; A and B on one
// colour scale, B − A symmetric around 0; the hover says A, B and B − A of the cell.
void TestModelCompare::showsTextbookBesideSwitched()
{
    QFETCH(int, layer);
    QFETCH(FileSelection, selection);
    ModelCompareDialog* dialog = openCompare(noScaling());
    QVERIFY(dialog);
    dialog->setSelection(layer, selection);
    const ModelRun textbook = model_->run(LanguageModelWindow::kFirstText, {});
    const ModelRun& switched = window_->shownRun();
    const Matrix a = fileHeatmap(*textbook.attention, layer, 0, selection).weights;
    const Matrix b = fileHeatmap(*switched.attention, layer, 0, selection).weights;
    QCOMPARE(largestGap(dialog->viewA()->data().weights, a), 0.0);
    QCOMPARE(largestGap(dialog->viewB()->data().weights, b), 0.0);
    const Matrix delta = b - a;
    QVERIFY(largestGap(dialog->viewDifference()->data().weights, delta) < 1e-6);
    QVERIFY2(delta.cwiseAbs().maxCoeff() > 1e-3, "no √d_k changes the head");
    QCOMPARE(dialog->viewA()->heatmapStyle().vmax, dialog->viewB()->heatmapStyle().vmax);
    QCOMPARE(dialog->viewDifference()->heatmapStyle().vmin,
             -dialog->viewDifference()->heatmapStyle().vmax);
    QVERIFY(dialog->viewA()->data().title.contains("textbook"));
    QVERIFY(dialog->viewB()->data().title.contains("switched"));

    // The cell that changes most (its weights print with two decimals).
    Eigen::Index row = 0, column = 0;
    delta.cwiseAbs().maxCoeff(&row, &column);
    const QString hover = dialog->cellText(int(row), int(column));
    for (const QString& value : {QStringLiteral("A %1").arg(a(row, column), 0, 'f', 2),
                                 QStringLiteral("B %1").arg(b(row, column), 0, 'f', 2),
                                 QStringLiteral("B − A %1").arg(delta(row, column), 0, 'f', 2)})
        QVERIFY2(hover.contains(value), qPrintable(hover + " lacks " + value));
    emit dialog->viewB()->cellHovered(int(row), int(column));
    QCOMPARE(dialog->findChild<QLabel*>("compareHover")->text(), hover);
}

void TestModelCompare::predictionsSideBySide_data()
{
    QTest::addColumn<Change>("change");
    QTest::addColumn<bool>("topChanges"); // on this tiny model and text
    QTest::newRow("no √d_k scaling")
        << Change([](ModelSwitches& s) { s.formula.scale = ScaleMode::None; }) << false;
    QTest::newRow("τ = 0.25") << Change([](ModelSwitches& s) { s.formula.temperature = 0.25f; })
                              << false;
    QTest::newRow("no causal mask")
        << Change([](ModelSwitches& s) { s.formula.mask = MaskKind::None; }) << true;
    QTest::newRow("heads split with view")
        << Change([](ModelSwitches& s) { s.formula.headSplit = HeadSplit::View; }) << true;
}

// Both top 10s, each row with the rank the other run gives it, and the sentence: the top
// prediction changes from A's to B's, or both predict the same first.
void TestModelCompare::predictionsSideBySide()
{
    QFETCH(Change, change);
    QFETCH(bool, topChanges);
    ModelSwitches switches;
    change(switches);
    ModelCompareDialog* dialog = openCompare(switches);
    QVERIFY(dialog);
    const ModelRun textbook = model_->run(LanguageModelWindow::kFirstText, {});
    const ModelRun& switched = window_->shownRun();
    const int last = int(textbook.ids.size()) - 1;
    const std::vector<Prediction> a = textbook.predictions(last);
    const std::vector<Prediction> b = switched.predictions(last);
    const std::vector<Prediction> allA = textbook.predictions(last, model_->info().vocabulary);
    QCOMPARE(dialog->predictionsA()->topLevelItemCount(), 10);
    QCOMPARE(dialog->predictionsB()->topLevelItemCount(), 10);
    for (int i = 0; i < 10; ++i) {
        QCOMPARE(dialog->predictionsA()->topLevelItem(i)->text(1), quotedToken(a[i].label));
        const QTreeWidgetItem* row = dialog->predictionsB()->topLevelItem(i);
        QCOMPARE(row->text(1), quotedToken(b[i].label));
        const auto inA = std::ranges::find(allA, b[i].id, &Prediction::id);
        const int rankInA = int(inA - allA.begin()) + 1;
        QVERIFY2(rankInA == i + 1
                     ? row->text(3) == "same rank in A"
                     : row->text(3).startsWith(QStringLiteral("#%1 in A").arg(rankInA)),
                 qPrintable(row->text(3)));
    }
    const QString summary = dialog->summaryText();
    QCOMPARE(a.front().id != b.front().id, topChanges);
    if (topChanges)
        QVERIFY2(summary.startsWith(QStringLiteral("The top prediction changes from %1")
                                        .arg(quotedToken(a.front().label))) &&
                     summary.contains(QStringLiteral("to %1").arg(quotedToken(b.front().label))) &&
                     summary.contains("B departs from the textbook: "),
                 qPrintable(summary));
    else
        QVERIFY2(summary.startsWith(
                     QStringLiteral("Both predict %1 first").arg(quotedToken(a.front().label))),
                 qPrintable(summary));
}

// A switch changes B only (A is kept); a new text makes a new A, of the text's tokens.
void TestModelCompare::followsTheSwitchesAndTheText()
{
    ModelCompareDialog* dialog = openCompare(noScaling());
    QVERIFY(dialog);
    const ModelRun* textbook = dialog->textbookRun();
    QSignalSpy compared(dialog, &ModelCompareDialog::compared);

    ModelSwitches hot;
    hot.formula.temperature = 4;
    window_->setSwitches(hot);
    waitForRun();
    QVERIFY(compared.count() > 0 || compared.wait(20000));
    QCOMPARE(dialog->switchedRun()->switches, hot);
    QCOMPARE(dialog->textbookRun(), textbook); // not computed again
    QVERIFY(!dialog->computing());
    const ModelRun expected = model_->run(LanguageModelWindow::kFirstText, hot);
    QCOMPARE(largestGap(
                 dialog->viewB()->data().weights,
                 fileHeatmap(*expected.attention, dialog->layer(), 0, dialog->selection()).weights),
             0.0);

    compared.clear();
    window_->setText("The mat sat on the cat");
    waitForRun();
    QVERIFY(QTest::qWaitFor([&] { return dialog->ready() && !dialog->computing(); }, 20000));
    const ModelRun newTextbook = model_->run("The mat sat on the cat", {});
    QCOMPARE(dialog->textbookRun()->ids, newTextbook.ids);
    QCOMPARE(
        largestGap(
            dialog->viewA()->data().weights,
            fileHeatmap(*newTextbook.attention, dialog->layer(), 0, dialog->selection()).weights),
        0.0);
    QCOMPARE(dialog->predictionsA()->topLevelItem(0)->text(1),
             quotedToken(newTextbook.predictions(int(newTextbook.ids.size()) - 1)[0].label));
}

// The predictions are ranked over the whole vocabulary on the dialog's worker: neither a
// new run nor another layer or head makes logits on the GUI thread.
void TestModelCompare::comparingMakesNoLogitsOnTheGuiThread()
{
    window_.reset();
    auto model = std::make_shared<test::LogitsThreadModel>(model_);
    window_ = std::make_unique<LanguageModelWindow>(
        model, model->run(LanguageModelWindow::kFirstText, {}),
        QString::fromUtf8(LanguageModelWindow::kFirstText));
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    ModelCompareDialog* dialog = openCompare(noScaling());
    QVERIFY(dialog);
    dialog->setSelection(1, {FileWhat::Head, 1});
    dialog->setSelection(0, {FileWhat::Mean, 0});
    ModelSwitches hot;
    hot.formula.temperature = 4;
    window_->setSwitches(hot);
    waitForRun();
    QVERIFY(QTest::qWaitFor(
        [&] {
            return dialog->ready() && !dialog->computing() &&
                   dialog->switchedRun()->switches == hot;
        },
        20000));

    const ModelRun expected = model_->run(LanguageModelWindow::kFirstText, hot);
    const int last = int(expected.ids.size()) - 1;
    QCOMPARE(dialog->predictionsB()->topLevelItem(0)->text(1),
             quotedToken(expected.predictions(last)[0].label));
    // Export… writes the captioned figure from the ranking the dialog already has.
    QTemporaryDir out;
    QCOMPARE(dialog->exportTo(out.filePath("compare.svg")), QString());
    QCOMPARE(model->onGuiThread.load(), 0);
}

void TestModelCompare::exportsTheFigure_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("PNG") << "compare.png";
    QTest::newRow("SVG") << "compare.svg";
    QTest::newRow("PDF") << "compare.pdf";
}

void TestModelCompare::exportsTheFigure()
{
    QFETCH(QString, name);
    ModelCompareDialog* dialog = openCompare(noScaling());
    QVERIFY(dialog);
    dialog->setSelection(1, {FileWhat::Mean, 0});
    QTemporaryDir out;
    const QString path = out.filePath(name);
    QCOMPARE(dialog->exportTo(path), QString());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    const ModelRun& b = *dialog->switchedRun();
    if (name.endsWith("png")) {
        ModelComparisonOptions options;
        options.layer = 1;
        options.selection = {FileWhat::Mean, 0};
        options.departures = modelDepartures(b.switches, b.model->info());
        options.figure.annotate = true;
        const QSizeF points = modelComparisonLayout(*dialog->textbookRun(), b, options).size;
        const QImage image = QImage::fromData(bytes, "PNG");
        QCOMPARE(image.size(), QSize(qRound(points.width() * 2), qRound(points.height() * 2)));
    } else if (name.endsWith("svg")) {
        const QString svg = QString::fromUtf8(bytes);
        QVERIFY(svg.contains("B − A"));
        QVERIFY(svg.contains("no scaling by √d_k"));
        const std::vector<Prediction> top = b.predictions(int(b.ids.size()) - 1);
        QVERIFY2(svg.contains(printableToken(QString::fromStdString(top[0].label)).toHtmlEscaped()),
                 top[0].label.c_str());
    } else {
        QVERIFY(bytes.startsWith("%PDF"));
    }
    QVERIFY(dialog->exportTo(out.filePath("compare.txt")).contains("compare.txt"));
}

// Each token of one side's top 10 has the rank and probability it has in the other run's
// whole distribution.
void TestModelCompare::ranksInTheOtherRun()
{
    const ModelRun a = model_->run(LanguageModelWindow::kFirstText, {});
    const ModelRun b = model_->run(LanguageModelWindow::kFirstText, noScaling());
    const int V = model_->info().vocabulary;
    const PredictionComparison c = comparePredictions(a, b);
    QCOMPARE(c.position, int(a.ids.size()) - 1);
    QCOMPARE(c.a.size(), std::size_t(10));
    const std::vector<Prediction> allA = a.predictions(c.position, V);
    const std::vector<Prediction> allB = b.predictions(c.position, V);
    for (const auto& [side, other] : {std::pair{&c.a, &allB}, std::pair{&c.b, &allA}})
        for (const RankedPrediction& p : *side) {
            const auto at = std::ranges::find(*other, p.prediction.id, &Prediction::id);
            QCOMPARE(p.otherRank, int(at - other->begin()) + 1);
            QVERIFY(std::abs(p.otherProbability - at->probability) < 1e-6f);
        }
    QCOMPARE(c.topChanged(), allA.front().id != allB.front().id);
    const ModelRun other = model_->run("The mat", {});
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)comparePredictions(a, other));
}

// "Only layer 1": the dialog opens on layer 1, where B differs, not on layer 0, where it
// cannot; on layer 0 it says why B − A is 0 there.
void TestModelCompare::opensOnTheLayerTheSwitchesChange()
{
    ModelSwitches onlyOne = noScaling();
    onlyOne.onlyLayer = 1;
    ModelCompareDialog* dialog = openCompare(onlyOne);
    QVERIFY(dialog);
    QCOMPARE(dialog->layer(), 1);
    auto* status = dialog->findChild<QLabel*>("compareStatus");
    QVERIFY(status->text().isEmpty());
    dialog->setSelection(0, {FileWhat::Head, 0});
    QVERIFY2(status->text().contains("layer 1 only") && status->text().contains("B − A = 0"),
             qPrintable(status->text()));
    // Every layer switched: the dialog follows to layer 0, and says nothing of it.
    QSignalSpy compared(dialog, &ModelCompareDialog::compared);
    window_->setSwitches(noScaling());
    waitForRun();
    QVERIFY(compared.wait(20000));
    QCOMPARE(dialog->layer(), 0);
    QVERIFY(status->text().isEmpty());
}

void TestModelCompare::theSummaryReadsInEachLanguage_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<QString>("expected");
    QTest::newRow("en") << "en"
                        << "The top prediction changes from “␣mat” (31.2%) to “␣the” (9.8%). B "
                           "departs from the textbook: no causal mask: every token sees the ones "
                           "after it; no scaling. Their top 2 share 2 tokens.";
    // The departures in a sentence of their own (a list does not fit a "%1时" template), and
    // full-width brackets in Chinese text.
    QTest::newRow("zh_CN") << "zh_CN"
                           << "最可能的预测从 “␣mat”（31.2%） 变为 “␣the”（9.8%）。B "
                              "与教科书公式的不同之处：no causal mask: every token sees the ones "
                              "after it；no scaling。两边的前 2 个中有 2 个词元相同。";
}

void TestModelCompare::theSummaryReadsInEachLanguage()
{
    QFETCH(QString, language);
    QFETCH(QString, expected);
    Language interface;
    QVERIFY(interface.apply(language));
    PredictionComparison predictions;
    const auto ranked = [](int id, const char* label, float probability) {
        RankedPrediction r;
        r.prediction.id = id;
        r.prediction.label = label;
        r.prediction.probability = probability;
        return r;
    };
    predictions.a = {ranked(1, " mat", 0.312f), ranked(2, " the", 0.098f)};
    predictions.b = {ranked(2, " the", 0.098f), ranked(1, " mat", 0.312f)};
    // The departures as given (the window translates them itself).
    const QString summary = predictionSummary(
        predictions, {"no causal mask: every token sees the ones after it", "no scaling"});
    QVERIFY(interface.apply("en"));
    QCOMPARE(summary, expected);
}

QTEST_MAIN(TestModelCompare)
#include "tst_modelcompare.moc"
