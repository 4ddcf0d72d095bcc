// What the window's foot says: help and hover texts are cut with "…" before the readouts on
// the right instead of running into them; an export says where it saved, with a way to open
// its folder, in the main window and in windows without a status bar; and every export
// dialog starts where the last export went (kept from one run to the next), else in the
// Pictures or home folder, never in the folder the application was started from.
#include "exportpath.h"
#include "figureformat.h"
#include "mainwindow.h"
#include "statusmessage.h"
#include "windowtest.h"

#include <QtTest>

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStatusTipEvent>
#include <QTemporaryDir>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

#include <array>

using namespace attn;
using namespace attn::ui;
using attn::test::child;

namespace {

QString longHelp()
{
    return QStringLiteral("Show the sum of every row and every column beside the heatmaps, so "
                          "that a wrong softmax axis shows at once: rows then no longer sum to "
                          "one across the sentence, while columns do");
}

} // namespace

class TestStatusFeedback : public WindowTest {
    Q_OBJECT

private slots:
    void initTestCase();
    void helpIsCutBeforeTheReadouts();
    void theLastExportFolderIsKept();
    void anExportDialogNeverStartsInTheWorkingFolder();
    void exportNumbersSaysWhereItSaved();
    void aWindowWithoutAStatusBarGetsALine();

private:
    QTemporaryDir config_;
};

void TestStatusFeedback::initTestCase()
{
    // The application's settings (the export folder) in a folder of this test's own.
    QVERIFY(config_.isValid());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, config_.path());
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QCoreApplication::setOrganizationName(QStringLiteral("AttnScopeTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_statusfeedback"));
}

void TestStatusFeedback::helpIsCutBeforeTheReadouts()
{
    MainWindow* w = open();
    w->resize(900, 600);
    QTRY_VERIFY(w->lastResult().valid());
    QStatusBar* bar = w->statusBar();
    QTRY_VERIFY(statusMessageRoom(bar) > 100);
    const int room = statusMessageRoom(bar);
    QVERIFY(bar->fontMetrics().horizontalAdvance(longHelp()) > room); // it would run in

    QStatusTipEvent tip(longHelp());
    QApplication::sendEvent(w, &tip);
    const QString shown = bar->currentMessage();
    QVERIFY2(shown.endsWith(QChar(0x2026)) && shown != longHelp(), qPrintable(shown));
    QVERIFY(longHelp().startsWith(shown.chopped(1)));
    QVERIFY2(bar->fontMetrics().horizontalAdvance(shown) <= room,
             qPrintable(QStringLiteral("%1 px in %2")
                            .arg(bar->fontMetrics().horizontalAdvance(shown))
                            .arg(room)));
    QCOMPARE(bar->toolTip(), longHelp()); // whole on hover

    // A short one stays whole, with no tooltip left over.
    QStatusTipEvent shortTip(QStringLiteral("Open a session"));
    QApplication::sendEvent(w, &shortTip);
    QCOMPARE(bar->currentMessage(), QStringLiteral("Open a session"));
    QVERIFY(bar->toolTip().isEmpty());
}

void TestStatusFeedback::theLastExportFolderIsKept()
{
    QTemporaryDir folder;
    rememberExportDirectory(folder.path());
    QCOMPARE(lastExportDirectory(), folder.path());
    // Kept in the settings, for the next run.
    QSettings settings;
    QCOMPARE(settings.value("export/folder").toString(), folder.path());
}

void TestStatusFeedback::anExportDialogNeverStartsInTheWorkingFolder()
{
    QTemporaryDir working;
    const QString before = QDir::currentPath();
    QVERIFY(QDir::setCurrent(working.path()));
    {
        QTemporaryDir gone;
        rememberExportDirectory(gone.path());
    } // removed: the dialog cannot start there
    const QString start = lastExportDirectory();
    QVERIFY(QDir::setCurrent(before));
    QVERIFY2(start != working.path() && QFileInfo(start).isDir(), qPrintable(start));
    const QString pictures = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    QVERIFY2(start == (QFileInfo(pictures).isDir() ? pictures : QDir::homePath()),
             qPrintable(start));
}

void TestStatusFeedback::exportNumbersSaysWhereItSaved()
{
    QTemporaryDir folder;
    rememberExportDirectory(folder.path());
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    const QString path = folder.filePath(QStringLiteral("numbers.csv"));
    QString startedIn;
    QTimer::singleShot(0, this, [&] {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        if (!dialog)
            return;
        startedIn = dialog->directory().absolutePath();
        dialog->selectFile(path);
        static_cast<QDialog*>(dialog)->accept(); // QFileDialog makes it protected
    });
    w->action(ActionId::ExportNumbers)->trigger();
    QCOMPARE(startedIn, QDir(folder.path()).absolutePath());
    QVERIFY(QFileInfo::exists(path));
    auto* notice = w->statusBar()->findChild<QLabel*>(QStringLiteral("savedNotice"));
    QVERIFY2(notice, "nothing said the file was saved");
    QVERIFY(notice->isVisible());
    QVERIFY2(notice->text().contains(QStringLiteral("Saved numbers.csv")),
             qPrintable(notice->text()));
    QVERIFY2(notice->text().contains(QUrl::fromLocalFile(folder.path()).toString()) &&
                 notice->text().contains(QStringLiteral("Open Folder")),
             qPrintable(notice->text()));
    QCOMPARE(notice->toolTip(), QDir::toNativeSeparators(path));
}

void TestStatusFeedback::aWindowWithoutAStatusBarGetsALine()
{
    QWidget window;
    auto* layout = new QVBoxLayout(&window);
    auto* button = new QLabel(QStringLiteral("the window's content"));
    layout->addWidget(button);
    window.show();
    QStatusBar* bar = announceSaved(button, QStringLiteral("/tmp/figure.png"));
    QVERIFY(bar);
    QCOMPARE(bar->parentWidget(), &window);
    QVERIFY(bar->isVisible());
    QCOMPARE(layout->indexOf(bar), layout->count() - 1); // at the window's foot
    // Saying it again uses the same line and notice.
    QCOMPARE(announceSaved(button, QStringLiteral("/tmp/figure.svg")), bar);
    const auto notices = bar->findChildren<QLabel*>(QStringLiteral("savedNotice"));
    QCOMPARE(notices.size(), 1);
    QVERIFY(notices.front()->text().contains(QStringLiteral("Saved figure.svg")));
    // It goes after a while, and the line with it.
    auto* timer = notices.front()->findChild<QTimer*>(QStringLiteral("savedNoticeTimer"));
    QVERIFY(timer && timer->isActive());
    QCOMPARE(timer->interval(), kSavedNoticeMs);
    timer->start(0);
    QTRY_VERIFY(!bar->isVisible());
}

QTEST_MAIN(TestStatusFeedback)
#include "tst_statusfeedback.moc"
