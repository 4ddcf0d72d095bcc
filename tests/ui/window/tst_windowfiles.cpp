// The window's files: settings kept from one run to the next, sessions saved and opened
// (a damaged one leaves the window as it was), dropped on the window, and the autosave
// removed on a clean exit.
#include "comparedialog.h"
#include "computecontroller.h"
#include "controlpanel.h"
#include "embeddingeditor.h"
#include "engine/embedding.h"
#include "figure.h"
#include "headdialog.h"
#include "heatmapgrid.h"
#include "lab/presets.h"
#include "labels.h"
#include "language.h"
#include "mainwindow.h"
#include "pipelinedialog.h"
#include "pipelinestrip.h"
#include "presetpanel.h"
#include "sessionfiles.h"
#include "statisticspanel.h"
#include "tokenchips.h"
#include "windowtest.h"

#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenuBar>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolBar>

using namespace attn;
using namespace attn::ui;
using namespace attn::test;

class TestWindowFiles : public WindowTest {
    Q_OBJECT

private slots:
    void settingsRoundTrip();
    void sessionRoundTripThroughTheWindow();
    void damagedSessionLeavesTheWindowAsItWas_data();
    void damagedSessionLeavesTheWindowAsItWas();
    void droppingASessionOpensIt();
    void autosaveIsWrittenAndRemovedOnCleanExit();
};

void TestWindowFiles::settingsRoundTrip()
{
    {
        MainWindow* w = open();
        QTRY_VERIFY(w->lastResult().valid());
        child<QSpinBox>(w, "dModelSpin")->setValue(48);
        chooseData(child<QComboBox>(w, "headsCombo"), 6);
        chooseData(child<QComboBox>(w, "axisCombo"), int(attn::SoftmaxAxis::Batch));
        child<QCheckBox>(w, "causalCheck")->setChecked(true);
        ViewOptions view = w->viewOptions();
        view.colormap = ColormapName::Magma;
        view.sharedScale = false;
        view.marginSums = true;
        view.logScale = true;
        w->setViewOptions(view);
        w->close();
        window_.reset();
    }
    MainWindow* w = open();
    const attn::Request r = w->controlPanel()->request();
    QCOMPARE(r.config.dModel, 48);
    QCOMPARE(r.config.heads, 6);
    QCOMPARE(r.config.axis, attn::SoftmaxAxis::Batch);
    QCOMPARE(r.config.mask, attn::MaskKind::Causal);
    QCOMPARE(w->viewOptions().colormap, ColormapName::Magma);
    QCOMPARE(w->viewOptions().sharedScale, false);
    QCOMPARE(w->viewOptions().marginSums, true);
    QVERIFY(w->action(ActionId::MarginSums)->isChecked());
    QCOMPARE(w->viewOptions().logScale, true);
    QVERIFY(w->action(ActionId::LogScale)->isChecked());
}

void TestWindowFiles::sessionRoundTripThroughTheWindow()
{
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    child<QCheckBox>(w, "causalCheck")->setChecked(true);
    chooseData(child<QComboBox>(w, "axisCombo"), int(attn::SoftmaxAxis::Queries));
    const attn::Request saved = w->controlPanel()->request();
    const QString path = dir_->filePath("lesson.attnscope");
    QString error;
    QVERIFY2(w->sessionFiles()->saveTo(path, &error), qPrintable(error));
    QCOMPARE(w->sessionFiles()->recentFiles().value(0), QFileInfo(path).absoluteFilePath());

    child<QCheckBox>(w, "causalCheck")->setChecked(false);
    QVERIFY(w->controlPanel()->request() != saved);
    QVERIFY2(w->sessionFiles()->open(path, &error), qPrintable(error));
    QCOMPARE(w->controlPanel()->request(), saved);
    QTRY_COMPARE(w->lastResult().request, saved);
    QVERIFY(w->windowFilePath().endsWith("lesson.attnscope"));
}

void TestWindowFiles::damagedSessionLeavesTheWindowAsItWas_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::newRow("garbage") << QByteArray("\x01\x02 not json at all");
    QTest::newRow("truncated") << QByteArray(
        R"({"format": "attnscope-session", "version": 1, "te)");
    QTest::newRow("not a session") << QByteArray(R"({"format": "something-else", "version": 1})");
    QTest::newRow("newer version")
        << QByteArray(R"({"format": "attnscope-session", "version": 9})");
    QTest::newRow("empty") << QByteArray();
    // A session of today's models with one value no switch can take.
    const auto withConfig = [](const char* key, const QJsonValue& value) {
        QJsonObject root = QJsonDocument::fromJson(sessionToJson(Session{})).object();
        QJsonObject config = root.value(QStringLiteral("config")).toObject();
        config.insert(QLatin1StringView(key), value);
        root.insert(QStringLiteral("config"), config);
        return QJsonDocument(root).toJson();
    };
    QTest::newRow("window 0") << withConfig("window", 0);
    QTest::newRow("softcap -1") << withConfig("softcap", -1);
    QTest::newRow("sink abc") << withConfig("sink", QStringLiteral("abc"));
}

void TestWindowFiles::damagedSessionLeavesTheWindowAsItWas()
{
    QFETCH(QByteArray, content);
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    const attn::Request before = w->controlPanel()->request();
    const ViewOptions viewBefore = w->viewOptions();
    const QString path = dir_->filePath("damaged.attnscope");
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(content);
    file.close();

    QString error;
    QVERIFY(!w->sessionFiles()->open(path, &error));
    QVERIFY2(!error.isEmpty(), "a damaged session must be explained");
    QCOMPARE(w->controlPanel()->request(), before);
    QCOMPARE(w->viewOptions(), viewBefore);
    QVERIFY(w->sessionFiles()->currentPath().isEmpty());
}

void TestWindowFiles::droppingASessionOpensIt()
{
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    Session session{w->controlPanel()->request(), w->viewOptions()};
    session.request.text = "dropped on the window";
    session.request.config.heads = 2;
    const QString path = dir_->filePath("dropped.attnscope");
    QVERIFY(saveSession(path, session));

    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(w, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(w, &drop);
    QCOMPARE(w->controlPanel()->request().text, session.request.text);
    QTRY_COMPARE(w->lastResult().heads(), 2);
}

void TestWindowFiles::autosaveIsWrittenAndRemovedOnCleanExit()
{
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    const QString autosave = w->sessionFiles()->autosavePath();
    child<QCheckBox>(w, "causalCheck")->setChecked(true);
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(autosave), 10000);
    QString error;
    const std::optional<Session> saved = loadSession(autosave, &error);
    QVERIFY2(saved, qPrintable(error));
    QCOMPARE(saved->request.config.mask, attn::MaskKind::Causal);
    w->close();
    QVERIFY2(!QFileInfo::exists(autosave), "a clean exit leaves no autosave behind");
}

QTEST_MAIN(TestWindowFiles)
#include "tst_windowfiles.moc"
