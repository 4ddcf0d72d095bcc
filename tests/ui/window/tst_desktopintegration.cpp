// The desktop's way in: `attnscope FILE…` (a double click, the desktop entry's %F) opens
// the window with the first session that opens and says what happened to the others;
// a missing or damaged file changes nothing. The icon comes at every size.
#include "controlpanel.h"
#include "desktopintegration.h"
#include "language.h"
#include "mainwindow.h"
#include "session.h"
#include "sessionfiles.h"

#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

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

void TestDesktopIntegration::iconAtEverySize()
{
    const QIcon icon = applicationIcon();
    QVERIFY(!icon.isNull());
    for (const int size : {16, 32, 48, 64, 128, 256})
        QCOMPARE(icon.pixmap(QSize(size, size)).size(), QSize(size, size));
}

QTEST_MAIN(TestDesktopIntegration)
#include "tst_desktopintegration.moc"
