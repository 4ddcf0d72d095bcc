// After a crash: the start-up path main() takes (openMainWindow) must keep the autosaved
// work until the user has answered, restore every field of it, bring back the work left on
// purpose when the user declines, open the files it was given only after the answer, and
// the real binary must leave the autosave untouched while its question waits.
#include "computecontroller.h"
#include "controlpanel.h"
#include "filebytes.h"
#include "language.h"
#include "mainwindow.h"
#include "session.h"
#include "sessionfiles.h"
#include "settings.h"
#include "windowstart.h"

#include <QtTest>

#include <QAbstractButton>
#include <QFile>
#include <QMessageBox>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>

using namespace attn::ui;
using attn::test::readAll;

namespace {

// A session with every field away from its default: cross-attention over two lines, every
// switch flipped where cross-attention allows it, a hand-set vector and the view changed.
Session everyFieldChanged()
{
    Session s;
    s.request.text = "the cat sat\nthe dog ran far";
    s.request.crossText = "le chat\nle chien";
    attn::Config& c = s.request.config;
    c.attention = attn::AttentionKind::Cross;
    c.tokenizer = attn::TokenizerMode::Spaces;
    c.dModel = 32;
    c.heads = 2;
    c.seed = 7;
    c.positional = attn::Positional::None;
    c.scale = attn::ScaleMode::None;
    c.temperature = 1.5f;
    c.axis = attn::SoftmaxAxis::Queries;
    c.maskFill = attn::MaskFill::NegBillion;
    c.maskStage = attn::MaskStage::AfterSoftmax;
    c.headSplit = attn::HeadSplit::View;
    c.paddingMask = false;
    s.request.embeddingOverrides["cat"] = std::vector<float>(32, 0.25f);
    s.view.colormap = ColormapName::Magma;
    s.view.sharedScale = false;
    s.view.annotate = false;
    s.view.sequence = 1;
    s.view.marginSums = true;
    s.view.logScale = true;
    return s;
}

} // namespace

class TestRecovery : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void answerWaitsAndDecides_data();
    void answerWaitsAndDecides();
    void questionDatesInTheInterfaceLanguage();
    void theAutosaveKeepsTheViewNotTheWork();
    void discardBringsBackTheWorkLeftOnPurpose_data();
    void discardBringsBackTheWorkLeftOnPurpose();
    void argumentsOpenOnlyAfterTheAnswer_data();
    void argumentsOpenOnlyAfterTheAnswer();
    void restoredWorkIsNotReplacedByASessionArgument();
    void theBinaryKeepsTheAutosaveWhileAsking();

private:
    // The window as main() opens it, with this test's settings, `arguments`, and the
    // autosave beside them holding `saved`.
    MainWindow* start(const std::optional<Session>& saved, const QStringList& arguments = {});
    // The window's text set to `text`; returns once its autosave holds it.
    void typeAndAutosave(MainWindow* w, const std::string& text);
    // The visible top-level windows other than the main window and the question.
    static QWidgetList otherWindows(MainWindow* w);

    std::unique_ptr<QTemporaryDir> dir_;
    std::unique_ptr<QSettings> settings_;
    std::unique_ptr<Language> language_;
    std::unique_ptr<MainWindow> window_;
};

void TestRecovery::init()
{
    dir_ = std::make_unique<QTemporaryDir>();
    QVERIFY(dir_->isValid());
    settings_ = std::make_unique<QSettings>(dir_->filePath("settings.ini"), QSettings::IniFormat);
    settings_->setValue("window/language", "en");
    language_ = std::make_unique<Language>();
}

void TestRecovery::cleanup()
{
    window_.reset();
    language_.reset();
    settings_.reset();
    dir_.reset();
}

MainWindow* TestRecovery::start(const std::optional<Session>& saved, const QStringList& arguments)
{
    if (saved) {
        QString error;
        if (!saveSession(dir_->filePath("autosave.attnscope"), *saved, &error))
            qFatal("cannot write the autosave: %s", qPrintable(error));
    }
    window_ = openMainWindow(*language_, settings_.get(), arguments);
    return window_.get();
}

void TestRecovery::typeAndAutosave(MainWindow* w, const std::string& text)
{
    attn::Request changed = w->controlPanel()->request();
    changed.text = text;
    w->controlPanel()->setRequest(changed);
    const QString autosave = w->sessionFiles()->autosavePath();
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(autosave) && loadSession(autosave) &&
                                 loadSession(autosave)->request.text == text,
                             10000);
}

QWidgetList TestRecovery::otherWindows(MainWindow* w)
{
    QWidgetList others;
    for (QWidget* top : QApplication::topLevelWidgets())
        if (top->isVisible() && top != w && top != w->sessionFiles()->recoveryQuestion())
            others << top;
    return others;
}

void TestRecovery::answerWaitsAndDecides_data()
{
    QTest::addColumn<bool>("restore");
    QTest::newRow("Yes restores every field") << true;
    QTest::newRow("Discard removes the autosave") << false;
}

void TestRecovery::answerWaitsAndDecides()
{
    QFETCH(bool, restore);
    const Session saved = everyFieldChanged();
    MainWindow* w = start(saved);
    const QString autosave = w->sessionFiles()->autosavePath();
    QCOMPARE(autosave, dir_->filePath("autosave.attnscope"));
    const QByteArray before = readAll(autosave);

    // The question waits while the window computes its start-up sentence; the autosave
    // delay passes twice over, and the file still holds the lost work.
    QMessageBox* question = w->sessionFiles()->recoveryQuestion();
    QVERIFY2(question && question->isVisible(), "no question after an abnormal exit");
    QTRY_VERIFY_WITH_TIMEOUT(w->lastResult().valid(), 20000);
    QTest::qWait(2 * SessionFiles::kAutosaveDelayMs + 500);
    QCOMPARE(readAll(autosave), before);
    QVERIFY(w->sessionFiles()->recoveryPending());

    QSignalSpy answered(w->sessionFiles(), &SessionFiles::recoveryAnswered);
    question->button(restore ? QMessageBox::Yes : QMessageBox::Discard)->click();
    QCOMPARE(answered.size(), 1);
    QCOMPARE(answered.front().front().toBool(), restore);
    QVERIFY(!w->sessionFiles()->recoveryPending());

    if (restore) {
        QCOMPARE(w->controlPanel()->request(), saved.request);
        QTRY_VERIFY_WITH_TIMEOUT(
            w->lastResult().valid() && w->lastResult().request == saved.request, 20000);
        QCOMPARE(w->lastResult().keyLength(), 2); // "le chien": the keys are the cross text
        QCOMPARE(w->viewOptions(), saved.view);
        // The restored work is the work now: the autosave follows it.
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(autosave), 10000);
        const std::optional<Session> again = loadSession(autosave);
        QVERIFY(again);
        QCOMPARE(again->request, saved.request);
    } else {
        QVERIFY2(!QFileInfo::exists(autosave), "Discard leaves the autosave behind");
        QVERIFY(w->controlPanel()->request() != saved.request);
        // The window's own work is saved again from now on.
        w->controlPanel()->setRequest([&] {
            attn::Request r = w->controlPanel()->request();
            r.config.heads = 2;
            return r;
        }());
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(autosave), 10000);
        QCOMPARE(loadSession(autosave)->request.config.heads, 2);
    }
}

void TestRecovery::questionDatesInTheInterfaceLanguage()
{
    settings_->setValue("window/language", "zh_CN");
    MainWindow* w = start(everyFieldChanged());
    QMessageBox* question = w->sessionFiles()->recoveryQuestion();
    QVERIFY(question);
    const QDateTime when = QFileInfo(w->sessionFiles()->autosavePath()).lastModified();
    const QString chinese =
        QLocale(QLocale::Chinese, QLocale::China).toString(when, QLocale::ShortFormat);
    const QString english = QLocale(QLocale::English).toString(when, QLocale::ShortFormat);
    QVERIFY(chinese != english);
    QVERIFY2(question->text().contains(chinese), qPrintable(question->text()));
    QVERIFY2(!question->text().contains(english), qPrintable(question->text()));
    QVERIFY2(!question->text().contains("did not close"), qPrintable(question->text()));
}

void TestRecovery::theAutosaveKeepsTheViewNotTheWork()
{
    MainWindow* w = start(std::nullopt);
    QVERIFY(!w->sessionFiles()->recoveryQuestion());
    QTRY_VERIFY_WITH_TIMEOUT(w->lastResult().valid(), 20000);
    const std::string before = w->controlPanel()->request().text;
    ViewOptions view = w->viewOptions();
    view.colormap = ColormapName::Magma;
    w->setViewOptions(view);
    typeAndAutosave(w, "a sentence typed before the crash");
    // No clean quit: the settings hold the view, but the work as it was left on purpose.
    settings_->sync();
    QSettings reread(dir_->filePath("settings.ini"), QSettings::IniFormat);
    QCOMPARE(AppSettings(&reread).view().colormap, ColormapName::Magma);
    QCOMPARE(AppSettings(&reread).request(QStringLiteral("en")).text, before);
}

void TestRecovery::discardBringsBackTheWorkLeftOnPurpose_data()
{
    QTest::addColumn<bool>("saveAsFile");
    QTest::newRow("closed normally") << false;
    QTest::newRow("saved to a session file") << true;
}

void TestRecovery::discardBringsBackTheWorkLeftOnPurpose()
{
    QFETCH(bool, saveAsFile);
    // The first run leaves its work on purpose, by closing or by saving.
    MainWindow* w = start(std::nullopt);
    QTRY_VERIFY_WITH_TIMEOUT(w->lastResult().valid(), 20000);
    typeAndAutosave(w, "the work left on purpose");
    if (saveAsFile) {
        QVERIFY(w->sessionFiles()->saveTo(dir_->filePath("lesson.attnscope")));
    } else {
        w->close();
        QVERIFY(!QFileInfo::exists(w->sessionFiles()->autosavePath()));
    }
    window_.reset();
    // The second run types on and ends abnormally: no close, its autosave left behind.
    w = start(std::nullopt);
    QVERIFY(!saveAsFile || w->sessionFiles()->recoveryQuestion() != nullptr);
    if (QMessageBox* question = w->sessionFiles()->recoveryQuestion()) // saved, never closed
        question->button(QMessageBox::Discard)->click();
    QCOMPARE(w->controlPanel()->request().text, "the work left on purpose");
    QTRY_VERIFY_WITH_TIMEOUT(w->lastResult().valid(), 20000);
    typeAndAutosave(w, "the crashed work");
    window_.reset();
    // The third run asks; Discard shows the work left on purpose, not the crashed work.
    w = start(std::nullopt);
    QMessageBox* question = w->sessionFiles()->recoveryQuestion();
    QVERIFY(question);
    QCOMPARE(w->controlPanel()->request().text, "the work left on purpose");
    question->button(QMessageBox::Discard)->click();
    QCOMPARE(w->controlPanel()->request().text, "the work left on purpose");
    QVERIFY(!QFileInfo::exists(w->sessionFiles()->autosavePath()));
}

void TestRecovery::argumentsOpenOnlyAfterTheAnswer_data()
{
    QTest::addColumn<bool>("restore");
    QTest::newRow("Yes") << true;
    QTest::newRow("Discard") << false;
}

void TestRecovery::argumentsOpenOnlyAfterTheAnswer()
{
    QFETCH(bool, restore);
    const QString file = QStringLiteral(ATTN_REFERENCE_DIR "/attention/heads3.npz");
    QVERIFY(QFileInfo::exists(file));
    MainWindow* w = start(everyFieldChanged(), {file});
    QMessageBox* question = w->sessionFiles()->recoveryQuestion();
    QVERIFY(question && question->isVisible());
    // The question says what opens after it, and nothing opens before it is answered.
    QVERIFY2(question->text().contains("heads3.npz"), qPrintable(question->text()));
    QTest::qWait(500);
    QVERIFY2(otherWindows(w).isEmpty(), "a window opened before the question was answered");
    question->button(restore ? QMessageBox::Yes : QMessageBox::Discard)->click();
    QTRY_VERIFY_WITH_TIMEOUT(!otherWindows(w).isEmpty(), 10000);
    QCOMPARE(otherWindows(w).front()->objectName(), "modelWindow");
    for (QWidget* other : otherWindows(w))
        other->close();
}

void TestRecovery::restoredWorkIsNotReplacedByASessionArgument()
{
    Session lesson;
    lesson.request.text = "the session named on the command line";
    const QString file = dir_->filePath("lesson.attnscope");
    QVERIFY(saveSession(file, lesson));
    const Session crashed = everyFieldChanged();
    MainWindow* w = start(crashed, {file});
    QMessageBox* question = w->sessionFiles()->recoveryQuestion();
    QVERIFY(question);
    QVERIFY2(question->text().contains("lesson.attnscope"), qPrintable(question->text()));
    question->button(QMessageBox::Yes)->click();
    QCOMPARE(w->controlPanel()->request(), crashed.request);
    auto* message = w->findChild<QMessageBox*>("sessionArgumentsMessage");
    QVERIFY2(message && message->isVisible(), "nothing says the session was left unopened");
    QVERIFY2(message->text().contains("lesson.attnscope"), qPrintable(message->text()));
}

void TestRecovery::theBinaryKeepsTheAutosaveWhileAsking()
{
    // main() itself: the autosave where the application keeps it, the process left
    // waiting at its question for longer than the autosave delay, then ended as a crash.
    QTemporaryDir home;
    QVERIFY(home.isValid());
    const QString data = home.filePath("data/AttnScope/AttnScope");
    QVERIFY(QDir().mkpath(data));
    const QString autosave = data + "/autosave.attnscope";
    QVERIFY(saveSession(autosave, everyFieldChanged()));
    const QByteArray before = readAll(autosave);

    QProcess app;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert("QT_QPA_PLATFORM", "offscreen");
    environment.insert("XDG_CONFIG_HOME", home.filePath("config"));
    environment.insert("XDG_DATA_HOME", home.filePath("data"));
    environment.insert("HOME", home.path());
    app.setProcessEnvironment(environment);
    app.start(QStringLiteral(ATTN_BINARY), {});
    QVERIFY2(app.waitForStarted(), qPrintable(app.errorString()));
    QTest::qWait(3 * SessionFiles::kAutosaveDelayMs + 1500);
    QCOMPARE(app.state(), QProcess::Running);
    app.kill();
    app.waitForFinished();
    QCOMPARE(readAll(autosave), before);
}

QTEST_MAIN(TestRecovery)
#include "tst_recovery.moc"
