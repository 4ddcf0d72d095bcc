// The desktop's way in: `attnscope FILE…` (a double click, the desktop entry's %F) opens
// the window with the first session that opens and says what happened to the others;
// a missing or damaged file changes nothing. An attention file opens the window with its
// model window. The icon comes at every size.
#include "controlpanel.h"
#include "desktopintegration.h"
#include "language.h"
#include "languagemodelwindow.h"
#include "mainwindow.h"
#include "modelopener.h"
#include "modelwindow.h"
#include "session.h"
#include "sessionfiles.h"

#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include "ui/model/tinygpt2.h"

using namespace attn::ui;

class TestDesktopIntegration : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void isSessionArgument_data();
    void isSessionArgument();
    void openSessionArguments_data();
    void openSessionArguments();
    void isWindowArgument_data();
    void isWindowArgument();
    void openAttentionArguments_data();
    void openAttentionArguments();
    void openModelFolderArgument();
    void iconAtEverySize();

private:
    std::unique_ptr<QTemporaryDir> dir_;
    std::unique_ptr<QSettings> settings_;
    std::unique_ptr<Language> language_;
};

void TestDesktopIntegration::init()
{
    dir_ = std::make_unique<QTemporaryDir>();
    settings_ = std::make_unique<QSettings>(dir_->filePath("settings.ini"), QSettings::IniFormat);
    language_ = std::make_unique<Language>();
    QVERIFY(language_->apply("en"));
}

void TestDesktopIntegration::cleanup()
{
    language_.reset();
    settings_.reset();
    dir_.reset();
}

void TestDesktopIntegration::isSessionArgument_data()
{
    QTest::addColumn<QString>("argument");
    QTest::addColumn<bool>("session");

    QTest::newRow("lesson.attnscope") << "lesson.attnscope" << true;
    QTest::newRow("a path") << "/home/teacher/课程/lesson 1.attnscope" << true;
    QTest::newRow("upper case") << "LESSON.ATTNSCOPE" << true;
    QTest::newRow("the extension alone") << ".attnscope" << false;
    QTest::newRow("a command: compute") << "compute" << false;
    QTest::newRow("an option: --help") << "--help" << false;
    QTest::newRow("another extension") << "lesson.json" << false;
    QTest::newRow("extension inside") << "lesson.attnscope.bak" << false;
}

void TestDesktopIntegration::isSessionArgument()
{
    QFETCH(QString, argument);
    QFETCH(bool, session);
    QCOMPARE(attn::ui::isSessionArgument(argument.toStdString()), session);
}

void TestDesktopIntegration::openSessionArguments_data()
{
    // Files: "good-N" is a valid session whose text is "session N", "missing" does not
    // exist, "damaged" is not JSON.
    QTest::addColumn<QStringList>("files");
    QTest::addColumn<QString>("opened");           // the file open afterwards; empty: none
    QTest::addColumn<QStringList>("messageWords"); // empty: no message at all

    QTest::newRow("one session") << QStringList{"good-1"} << "good-1" << QStringList{};
    QTest::newRow("two sessions: the first opens, the second is named")
        << QStringList{"good-1", "good-2"} << "good-1"
        << QStringList{"One window shows one session", "good-1.attnscope is open",
                       "not " + QStringLiteral("%1/good-2.attnscope")};
    QTest::newRow("missing file") << QStringList{"missing"} << ""
                                  << QStringList{"Cannot open", "missing.attnscope"};
    QTest::newRow("damaged file") << QStringList{"damaged"} << ""
                                  << QStringList{"damaged.attnscope", "not valid JSON"};
    QTest::newRow("missing, then a session: that one opens")
        << QStringList{"missing", "good-2"} << "good-2"
        << QStringList{"Cannot open", "missing.attnscope"};
    QTest::newRow("nothing given") << QStringList{} << "" << QStringList{};
}

void TestDesktopIntegration::openSessionArguments()
{
    QFETCH(QStringList, files);
    QFETCH(QString, opened);
    QFETCH(QStringList, messageWords);

    MainWindow window(language_.get(), settings_.get());
    window.show();
    const attn::Request before = window.controlPanel()->request();
    QStringList paths;
    for (const QString& file : files) {
        const QString path = dir_->filePath(file + ".attnscope");
        paths << path;
        if (file.startsWith("good-")) {
            Session session{before, window.viewOptions()};
            session.request.text = "session " + file.mid(5).toStdString();
            QVERIFY(saveSession(path, session));
        } else if (file == "damaged") {
            QFile out(path);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write("{\"format\": \"attnscope-session\", \"text\": ");
        }
    }

    const QString message = attn::ui::openSessionArguments(window, paths);

    if (opened.isEmpty()) {
        QCOMPARE(window.sessionFiles()->currentPath(), QString());
        QCOMPARE(window.controlPanel()->request(), before); // nothing changed
    } else {
        QCOMPARE(window.sessionFiles()->currentPath(), dir_->filePath(opened + ".attnscope"));
        QCOMPARE(window.controlPanel()->request().text, "session " + opened.mid(5).toStdString());
    }
    auto* box = window.findChild<QMessageBox*>("sessionArgumentsMessage");
    if (messageWords.isEmpty()) {
        QCOMPARE(message, QString());
        QVERIFY2(!box, "no message when all went as asked");
        return;
    }
    QVERIFY2(box, "the window says what happened");
    QVERIFY2(box->isVisible(), "the message is shown over the window");
    QCOMPARE(box->text(), message);
    for (QString word : messageWords) {
        if (word.contains("%1"))
            word = word.arg(dir_->path());
        QVERIFY2(message.contains(word), qPrintable(message + "\nlacks: " + word));
    }
}

void TestDesktopIntegration::isWindowArgument_data()
{
    QTest::addColumn<QString>("argument");
    QTest::addColumn<bool>("window");

    QTest::newRow("a session: lesson.attnscope") << "lesson.attnscope" << true;
    QTest::newRow("gpt2.npz") << "gpt2.npz" << true;
    QTest::newRow("a path: /data/注意力.npy") << "/data/注意力.npy" << true;
    QTest::newRow("upper case: MODEL.SAFETENSORS") << "MODEL.SAFETENSORS" << true;
    QTest::newRow("a command: export") << "export" << false;
    QTest::newRow("an option: --attention-file") << "--attention-file" << false;
    QTest::newRow("another extension: gpt2.json") << "gpt2.json" << false;
    QTest::newRow("extension inside: gpt2.npz.bak") << "gpt2.npz.bak" << false;
    QTest::newRow("a model folder") << QStringLiteral(ATTN_REFERENCE_DIR "/gpt2/small-f32") << true;
    QTest::newRow("a folder without config.json") << QStringLiteral(ATTN_REFERENCE_DIR) << false;
}

void TestDesktopIntegration::isWindowArgument()
{
    QFETCH(QString, argument);
    QFETCH(bool, window);
    QCOMPARE(attn::ui::isWindowArgument(argument.toStdString()), window);
}

void TestDesktopIntegration::openAttentionArguments_data()
{
    // Paths: a name of tests/reference/attention, "missing.npz" (no such file), or
    // "session" (a valid session file).
    QTest::addColumn<QStringList>("files");
    QTest::addColumn<QStringList>("modelWindows"); // the files shown, in order
    QTest::addColumn<bool>("error");               // the attention file warning is shown
    QTest::addColumn<bool>("sessionOpened");

    QTest::newRow("an attention file alone")
        << QStringList{"stack5_f32.npy"} << QStringList{"stack5_f32.npy"} << false << false;
    QTest::newRow("two attention files")
        << QStringList{"hf_snippet.npz", "layers_bf16.safetensors"}
        << QStringList{"hf_snippet.npz", "layers_bf16.safetensors"} << false << false;
    QTest::newRow("a missing attention file")
        << QStringList{"missing.npz"} << QStringList{} << true << false;
    QTest::newRow("a damaged attention file: a zip bomb")
        << QStringList{"bomb_claims.npz"} << QStringList{} << true << false;
    QTest::newRow("a session and an attention file")
        << QStringList{"session", "stack5_f32.npy"} << QStringList{"stack5_f32.npy"} << false
        << true;
}

void TestDesktopIntegration::openAttentionArguments()
{
    QFETCH(QStringList, files);
    QFETCH(QStringList, modelWindows);
    QFETCH(bool, error);
    QFETCH(bool, sessionOpened);

    MainWindow window(language_.get(), settings_.get());
    window.show();
    QStringList paths;
    for (const QString& file : files) {
        if (file == u"session") {
            paths << dir_->filePath("lesson.attnscope");
            Session session{window.controlPanel()->request(), window.viewOptions()};
            session.request.text = "a session beside a file";
            QVERIFY(saveSession(paths.last(), session));
        } else {
            paths << QStringLiteral(ATTN_REFERENCE_DIR "/attention/") + file;
        }
    }

    const QString message = attn::ui::openSessionArguments(window, paths);

    QCOMPARE(message, QString()); // the sessions' message: none here
    QStringList shown;
    for (const ModelWindow* model : window.findChildren<ModelWindow*>()) {
        QVERIFY2(model->isVisible(), "the model window is shown");
        shown << QFileInfo(QString::fromStdString(model->stack().source())).fileName();
    }
    QCOMPARE(shown, modelWindows);
    auto* box = window.findChild<QMessageBox*>("attentionFileError");
    QCOMPARE(box != nullptr, error);
    if (box)
        QVERIFY2(box->text().contains(files.first()), qPrintable(box->text()));
    QCOMPARE(window.sessionFiles()->currentPath(),
             sessionOpened ? dir_->filePath("lesson.attnscope") : QString());
}

void TestDesktopIntegration::openModelFolderArgument()
{
    // `attnscope gpt2/` (a folder holding a config.json) opens the window and runs the
    // model in a language model window of its own; a session beside it still opens.
    const QString model = attn::test::writeTinyGpt2(dir_->filePath("tiny-gpt2"));
    QVERIFY(!model.isEmpty());
    MainWindow window(language_.get(), settings_.get());
    window.show();
    const QString session = dir_->filePath("lesson.attnscope");
    Session lesson{window.controlPanel()->request(), window.viewOptions()};
    lesson.request.text = "a session beside a model";
    QVERIFY(saveSession(session, lesson));
    QSignalSpy opened(window.modelOpener(), &ModelOpener::opened);

    QCOMPARE(attn::ui::openSessionArguments(window, {model, session}), QString());

    QVERIFY(opened.wait(20000));
    const QList<LanguageModelWindow*> shown = window.findChildren<LanguageModelWindow*>();
    QCOMPARE(shown.size(), 1);
    QVERIFY(shown.first()->isVisible());
    QCOMPARE(QFileInfo(shown.first()->model().info().folder).canonicalFilePath(),
             QFileInfo(model).canonicalFilePath());
    QCOMPARE(window.sessionFiles()->currentPath(), session);
}

void TestDesktopIntegration::iconAtEverySize()
{
    const QIcon icon = applicationIcon();
    QVERIFY(!icon.isNull());
    for (const int size : {16, 32, 48, 64, 128, 256})
        QCOMPARE(icon.pixmap(QSize(size, size)).size(), QSize(size, size));
}

QTEST_MAIN(TestDesktopIntegration)
#include "tst_desktopintegration.moc"
