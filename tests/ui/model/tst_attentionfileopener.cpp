// Opening attention files in the window: File → Open Attention…, drops on the main window,
// and a bad file's message (naming the file and the fault) that changes nothing else.
#include "attention/attentionfile.h"
#include "attentionfileopener.h"
#include "controlpanel.h"
#include "engine/options.h"
#include "language.h"
#include "mainwindow.h"
#include "modelgrid.h"
#include "modelwindow.h"

#include <QtTest>

#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QTemporaryDir>

#include <memory>

using namespace attn::ui;

namespace {

QString fixture(const char* name)
{
    return QStringLiteral(ATTN_REFERENCE_DIR "/attention/") + QString::fromLatin1(name);
}

// What core says of the file, the message the window must show.
QString coreReason(const QString& path)
{
    try {
        (void)attn::openAttentionFile(path.toStdString());
    } catch (const attn::InputError& error) {
        return QString::fromStdString(error.what());
    }
    return {};
}

void drop(QWidget* target, const QStringList& paths, bool expectAccepted)
{
    QMimeData mime;
    QList<QUrl> urls;
    for (const QString& path : paths)
        urls << QUrl::fromLocalFile(path);
    mime.setUrls(urls);
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &enter);
    QCOMPARE(enter.isAccepted(), expectAccepted);
    QDropEvent dropEvent(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(target, &dropEvent);
}

} // namespace

class TestAttentionFileOpener : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void namesByTheirSuffix_data();
    void namesByTheirSuffix();
    void opensAGoodFile_data();
    void opensAGoodFile();
    void aBadFileShowsAMessageAndChangesNothing_data();
    void aBadFileShowsAMessageAndChangesNothing();
    void droppingFilesOnTheMainWindowOpensThem();
    void openAttentionIsInTheFileMenu();

private:
    MainWindow* open();

    std::unique_ptr<QTemporaryDir> dir_;
    std::unique_ptr<QSettings> settings_;
    std::unique_ptr<Language> language_;
    std::unique_ptr<MainWindow> window_;
};

void TestAttentionFileOpener::init()
{
    dir_ = std::make_unique<QTemporaryDir>();
    settings_ = std::make_unique<QSettings>(dir_->filePath("settings.ini"), QSettings::IniFormat);
    language_ = std::make_unique<Language>();
    QVERIFY(language_->apply("en"));
}

void TestAttentionFileOpener::cleanup()
{
    window_.reset();
    language_.reset();
    settings_.reset();
    dir_.reset();
}

MainWindow* TestAttentionFileOpener::open()
{
    window_ = std::make_unique<MainWindow>(language_.get(), settings_.get());
    window_->show();
    return window_.get();
}

void TestAttentionFileOpener::namesByTheirSuffix_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("attention");
    QTest::newRow(".npz") << "/a/gpt2.npz" << true;
    QTest::newRow(".NPY in capitals") << "/a/B.NPY" << true;
    QTest::newRow(".safetensors") << "/a/model.safetensors" << true;
    QTest::newRow("a session") << "/a/lesson.attnscope" << false;
    QTest::newRow("no suffix") << "/a/npz" << false;
}

void TestAttentionFileOpener::namesByTheirSuffix()
{
    QFETCH(QString, path);
    QFETCH(bool, attention);
    QCOMPARE(isAttentionFileName(path), attention);
}

void TestAttentionFileOpener::opensAGoodFile_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow(".npz") << fixture("stack5_stored.npz");
    QTest::newRow(".npy") << fixture("stack5_f32.npy");
    QTest::newRow(".safetensors, a tensor a layer") << fixture("layers_bf16.safetensors");
}

void TestAttentionFileOpener::opensAGoodFile()
{
    QFETCH(QString, file);
    QWidget parent;
    ModelWindow* window = openAttentionFile(&parent, file);
    QVERIFY(window);
    QVERIFY(window->isVisible());
    QVERIFY(window->isWindow());
    QCOMPARE(window->parent(), &parent);
    const std::unique_ptr<attn::AttentionStack> stack = attn::openAttentionFile(file.toStdString());
    QCOMPARE(window->grid()->layers(), stack->shape().layers);
    QCOMPARE(window->grid()->heads(), stack->shape().heads);
    QVERIFY(window->windowTitle().contains(QFileInfo(file).fileName()));
    QVERIFY(!parent.findChild<QMessageBox*>("attentionFileError"));
}

void TestAttentionFileOpener::aBadFileShowsAMessageAndChangesNothing_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("bytes"); // written to `name`; empty: use the fixture
    QTest::newRow("not an attention file") << "words.npz" << QByteArray("just some words\n");
    QTest::newRow("a truncated .npy")
        << "cut.npy" << QByteArray("\x93NUMPY\x01\x00\x76\x00{'descr': '<f4', 'fortran_order'", 34);
    QTest::newRow("a safetensors header past the end")
        << "long.safetensors" << QByteArray("\xff\xff\x00\x00\x00\x00\x00\x00{}", 10);
    QTest::newRow("tokens that do not match T") << "tokens_mismatch.npz" << QByteArray();
    QTest::newRow("a missing file") << "missing.npz" << QByteArray("-");
}

void TestAttentionFileOpener::aBadFileShowsAMessageAndChangesNothing()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, bytes);
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    const std::string textBefore = w->controlPanel()->request().text;
    QString path = dir_->filePath(name);
    if (bytes.isEmpty()) {
        path = fixture(qPrintable(name));
    } else if (bytes != "-") {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
    }
    const QString reason = coreReason(path);
    QVERIFY2(reason.contains(QFileInfo(path).fileName()), qPrintable(reason));

    drop(w, {path}, true);
    auto* box = w->findChild<QMessageBox*>("attentionFileError");
    QVERIFY2(box, "a message box tells of the bad file");
    QCOMPARE(box->text(), reason);
    QVERIFY(box->isVisible());
    QVERIFY(w->findChildren<ModelWindow*>().isEmpty());
    QCOMPARE(w->controlPanel()->request().text, textBefore);
    QVERIFY(w->sessionFiles() != nullptr);
    box->accept();
}

void TestAttentionFileOpener::droppingFilesOnTheMainWindowOpensThem()
{
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    drop(w, {fixture("stack5_stored.npz"), fixture("layers4.npz")}, true);
    const QList<ModelWindow*> windows = w->findChildren<ModelWindow*>();
    QCOMPARE(windows.size(), 2);
    QStringList titles;
    for (const ModelWindow* window : windows)
        titles << window->windowTitle();
    QVERIFY2(titles.join(' ').contains("stack5_stored.npz") &&
                 titles.join(' ').contains("layers4.npz"),
             qPrintable(titles.join(' ')));

    // Another file is no attention file: not accepted, nothing opens.
    const QString other = dir_->filePath("notes.txt");
    QFile file(other);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();
    drop(w, {other}, false);
    QCOMPARE(w->findChildren<ModelWindow*>().size(), 2);
}

void TestAttentionFileOpener::openAttentionIsInTheFileMenu()
{
    MainWindow* w = open();
    QAction* action = w->action(ActionId::OpenAttention);
    QCOMPARE(action->text(), QStringLiteral("Open &Attention…"));
    QVERIFY(!action->shortcut().isEmpty());
    QMenu* file = w->menuBar()->actions().first()->menu();
    QVERIFY(file->actions().contains(action));
    QVERIFY(attentionFileFilter().contains("*.npz *.npy *.safetensors"));
}

QTEST_MAIN(TestAttentionFileOpener)
#include "tst_attentionfileopener.moc"
