// Let It Write… in the model window, on a tiny random GPT-2 written at test time: the
// columns write the ids core's generate writes (as trained, and with the window's switches
// and knock-outs beside it), each token's chips tinted by the row that chose it, sampling's
// settings reach the generator, Stop stops, a text the model refuses is said, and Show in
// Model View puts a column's text in the window.
#include "generatebutton.h"
#include "generatedialog.h"
#include "knockoutbar.h"
#include "languagemodelwindow.h"
#include "models/families.h"
#include "models/generation.h"
#include "switchesform.h"
#include "tinygpt2.h"
#include "tokenflow.h"

#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTemporaryDir>

#include <memory>

using namespace attn;
using namespace attn::ui;

class TestGenerateDialog : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void writesWhatCoreWrites();
    void sideBySideWithTheSwitches();
    void samplingSettingsReachTheGenerator();
    void stopStops();
    void aRefusedTextIsSaid();
    void showInModelView();

private:
    GenerateDialog* openDialog();
    void waitForRun();
    // Writes and waits for the end.
    void writeAndWait(GenerateDialog* dialog);
    std::vector<int> promptIds() const;

    QTemporaryDir dir_;
    std::shared_ptr<const LanguageModel> model_;
    std::unique_ptr<LanguageModelWindow> window_;
};

void TestGenerateDialog::initTestCase()
{
    model_ = openModel(test::writeTinyGpt2(dir_.filePath("tiny-random-gpt2")).toStdString());
}

void TestGenerateDialog::init()
{
    window_ = std::make_unique<LanguageModelWindow>(
        model_, model_->run(LanguageModelWindow::kFirstText, {}),
        QString::fromUtf8(LanguageModelWindow::kFirstText));
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
}

void TestGenerateDialog::cleanup()
{
    window_.reset();
}

void TestGenerateDialog::waitForRun()
{
    QSignalSpy shown(window_.get(), &LanguageModelWindow::runShown);
    if (window_->running())
        QVERIFY(shown.wait(20000));
    QVERIFY(!window_->running());
}

GenerateDialog* TestGenerateDialog::openDialog()
{
    auto* button = window_->findChild<GenerateButton*>(QStringLiteral("generate"));
    if (!button || !button->isEnabled())
        return nullptr;
    button->click();
    return button->dialog();
}

void TestGenerateDialog::writeAndWait(GenerateDialog* dialog)
{
    QSignalSpy finished(dialog, &GenerateDialog::finished);
    dialog->writeButton()->click();
    QVERIFY(dialog->writing());
    QVERIFY(finished.wait(30000));
    QVERIFY(!dialog->writing());
}

std::vector<int> TestGenerateDialog::promptIds() const
{
    std::vector<int> ids;
    std::vector<TokenLabel> labels;
    model_->tokenize(window_->text().toStdString(), ids, labels);
    return ids;
}

// Greedy, as trained: the ids, probabilities and rows of core's generate, shown as chips.
void TestGenerateDialog::writesWhatCoreWrites()
{
    GenerateDialog* dialog = openDialog();
    QVERIFY(dialog && dialog->isVisible());
    QVERIFY(!dialog->sideBySide()); // the window runs the textbook formula: nothing beside
    dialog->tokensSpin()->setValue(6);
    const std::vector<int> prompt = promptIds();
    writeAndWait(dialog);
    const Generation expected = generate(model_, prompt, ModelSwitches{}, Sampling{}, 6);
    QCOMPARE(dialog->steps(0).size(), expected.steps.size());
    for (std::size_t s = 0; s < expected.steps.size(); ++s) {
        QCOMPARE(dialog->steps(0)[s].chosen.id, expected.steps[s].chosen.id);
        QCOMPARE(dialog->steps(0)[s].attention, expected.steps[s].attention);
    }
    QCOMPARE(dialog->writtenText(0),
             QString::fromStdString(generatedText(*model_, expected.generated)));
    // The chips: the prompt's and the new tokens, tinted by the last step's row, layer L − 1.
    const TokenFlow* flow = dialog->flow(0);
    QCOMPARE(flow->tokenCount(), int(expected.prompt.size() + expected.generated.size()));
    const GenerationStep& last = expected.steps.back();
    const int L = model_->info().layers, H = model_->info().heads, T = last.position;
    QCOMPARE(int(flow->weights().size()), T);
    float mean = 0;
    for (int h = 0; h < H; ++h)
        mean += last.attention[std::size_t((L - 1) * H + h) * std::size_t(T)] / float(H);
    QVERIFY(std::abs(flow->weights()[0] - mean) < 1e-6f);
    QVERIFY(flow->chipToolTip(0).contains(QLocale().toString(double(mean), 'f', 3)));
    QVERIFY(dialog->statusText(0).contains(QLatin1String("KV cache")));
    QVERIFY(dialog->showButton(0)->isEnabled());
    // Another layer's row.
    dialog->layerCombo()->setCurrentIndex(0);
    mean = 0;
    for (int h = 0; h < H; ++h)
        mean += last.attention[std::size_t(h) * std::size_t(T)] / float(H);
    QVERIFY(std::abs(flow->weights()[0] - mean) < 1e-6f);
}

// A switch and a knock-out in the window: the second column writes with them, the first as
// trained, from the same text; the first column's ids are the textbook ones.
void TestGenerateDialog::sideBySideWithTheSwitches()
{
    ModelSwitches switched;
    switched.formula.scale = ScaleMode::None;
    switched.knockedOut = {{0, 1}};
    window_->setSwitches(switched);
    waitForRun();
    GenerateDialog* dialog = openDialog();
    QVERIFY(dialog);
    QVERIFY(dialog->sideBySide());
    dialog->tokensSpin()->setValue(8);
    const std::vector<int> prompt = promptIds();
    writeAndWait(dialog);
    const Generation trained = generate(model_, prompt, ModelSwitches{}, Sampling{}, 8);
    const Generation mine = generate(model_, prompt, switched, Sampling{}, 8);
    const auto idsOf = [](const std::vector<GenerationStep>& steps) {
        std::vector<int> ids;
        for (const GenerationStep& s : steps)
            ids.push_back(s.chosen.id);
        return ids;
    };
    QCOMPARE(idsOf(dialog->steps(0)), trained.generated);
    QCOMPARE(idsOf(dialog->steps(1)), mine.generated);
    QVERIFY(trained.generated != mine.generated);
    // Unchecked, only the model as trained writes.
    dialog->findChild<QCheckBox*>()->setChecked(false);
    QVERIFY(!dialog->sideBySide());
    writeAndWait(dialog);
    QVERIFY(dialog->steps(1).empty());
}

void TestGenerateDialog::samplingSettingsReachTheGenerator()
{
    GenerateDialog* dialog = openDialog();
    QVERIFY(dialog);
    QVERIFY(!dialog->temperatureSpin()->isEnabled());
    dialog->modeCombo()->setCurrentIndex(1);
    QVERIFY(dialog->temperatureSpin()->isEnabled());
    dialog->temperatureSpin()->setValue(1.7);
    dialog->topKSpin()->setValue(30);
    dialog->topPSpin()->setValue(0.9);
    dialog->seedSpin()->setValue(5);
    const Sampling sampling = dialog->sampling();
    QVERIFY(!sampling.greedy);
    QCOMPARE(sampling.temperature, 1.7);
    QCOMPARE(sampling.topK, 30);
    QCOMPARE(sampling.topP, 0.9);
    QCOMPARE(sampling.seed, std::uint64_t(5));
    dialog->tokensSpin()->setValue(10);
    const std::vector<int> prompt = promptIds();
    writeAndWait(dialog);
    const Generation expected = generate(model_, prompt, ModelSwitches{}, sampling, 10);
    QCOMPARE(dialog->steps(0).size(), expected.steps.size());
    for (std::size_t s = 0; s < expected.steps.size(); ++s)
        QCOMPARE(dialog->steps(0)[s].chosen.id, expected.steps[s].chosen.id);
    QVERIFY(dialog->temperatureSpin()->toolTip().contains(QStringLiteral("τ")));
}

// Stop at once: whatever the worker has made since is dropped, the writing is over.
void TestGenerateDialog::stopStops()
{
    GenerateDialog* dialog = openDialog();
    QVERIFY(dialog);
    dialog->tokensSpin()->setValue(dialog->tokensSpin()->maximum());
    QSignalSpy finished(dialog, &GenerateDialog::finished);
    dialog->writeButton()->click();
    QVERIFY(dialog->stopButton()->isEnabled());
    dialog->stopButton()->click();
    QVERIFY(!dialog->writing());
    QCOMPARE(finished.count(), 1);
    QVERIFY(dialog->writeButton()->isEnabled());
    QVERIFY(!dialog->stopButton()->isEnabled());
    QVERIFY2(dialog->statusText(0).contains(QLatin1String("stopped")),
             qPrintable(dialog->statusText(0)));
    QTest::qWait(300); // what the worker posts after Stop is not shown
    QVERIFY(dialog->steps(0).empty());
    QCOMPARE(finished.count(), 1);
    // It writes again.
    dialog->tokensSpin()->setValue(3);
    writeAndWait(dialog);
    QCOMPARE(dialog->steps(0).size(), std::size_t(3));
}

void TestGenerateDialog::aRefusedTextIsSaid()
{
    GenerateDialog* dialog = openDialog();
    QVERIFY(dialog);
    window_->setText(QString());
    writeAndWait(dialog);
    QVERIFY2(dialog->problem().contains(QLatin1String("empty")), qPrintable(dialog->problem()));
    QVERIFY(dialog->steps(0).empty());
    QVERIFY(!dialog->showButton(0)->isEnabled());
}

// A writing that ends puts the whole sequence in the window (the switched column's when
// both wrote); Show in Model View puts the other column's there.
void TestGenerateDialog::showInModelView()
{
    ModelSwitches switched;
    switched.formula.scale = ScaleMode::None;
    window_->setSwitches(switched);
    waitForRun();
    GenerateDialog* dialog = openDialog();
    QVERIFY(dialog);
    dialog->tokensSpin()->setValue(4);
    const QString before = window_->text();
    writeAndWait(dialog);
    QCOMPARE(window_->text(), before + dialog->writtenText(1));
    waitForRun();
    std::vector<int> ids = promptIds();
    QCOMPARE(window_->shownRun().ids, ids);
    QCOMPARE(window_->shownRun().switches, switched);
    dialog->showButton(0)->click();
    QCOMPARE(window_->text(), before + dialog->writtenText(0));
    waitForRun();
    // The next writing writes on from there.
    ids = promptIds();
    dialog->tokensSpin()->setValue(2);
    writeAndWait(dialog);
    QCOMPARE(dialog->steps(0).front().position, int(ids.size()));
}

QTEST_MAIN(TestGenerateDialog)
#include "tst_generatedialog.moc"
