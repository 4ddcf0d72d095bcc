// Opening a language model in the window: File → Open Model… and its dialog (a folder, or
// a model in the Hugging Face cache), a model folder dropped on the main window, and each
// kind of bad folder: a message naming the file and the fault, and the window unchanged.
#include "controlpanel.h"
#include "language.h"
#include "languagemodelwindow.h"
#include "mainwindow.h"
#include "modelgrid.h"
#include "modelopener.h"
#include "models/families.h"
#include "models/hfcache.h"
#include "models/languagemodel.h"
#include "modelwindow.h"
#include "openingindicator.h"
#include "openmodeldialog.h"
#include "predictionpanel.h"
#include "tinygpt2.h"
#include "windowactions.h"

#include <QtTest>

#include <QAction>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QTemporaryDir>

#include <memory>

using namespace attn::ui;
using attn::test::TinyGpt2;
using attn::test::writeTinyGpt2;

namespace {

void writeText(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

// What core says of the folder: the message the window must show.
QString coreReason(const QString& folder)
{
    try {
        (void)attn::openModel(folder.toStdString());
    } catch (const attn::ModelError& error) {
        return QString::fromStdString(error.what());
    }
    return {};
}

// The top-level windows of an attention file among `parent`'s children (a language model
// window's model view is a part of it, not a window).
int attentionFileWindows(QWidget* parent)
{
    int windows = 0;
    for (const ModelWindow* window : parent->findChildren<ModelWindow*>())
        windows += window->isWindow() ? 1 : 0;
    return windows;
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

class TestModelOpener : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void opensAGoodFolder();
    void aBadFolderShowsAMessageAndChangesNothing_data();
    void aBadFolderShowsAMessageAndChangesNothing();
    void droppingAModelFolderOpensIt();
    void aDropOfSeveralOpensEach_data();
    void aDropOfSeveralOpensEach();
    void theStatusBarSaysWhatOpens();
    void aFailureKeepsWhatWasOpen();
    void opensAndDropsGgufFiles();
    void recognisesModelFolders_data();
    void recognisesModelFolders();
    void openModelIsInTheFileMenu();
    void theDialogListsTheCachedModels();

private:
    MainWindow* open();

    std::unique_ptr<QTemporaryDir> dir_;
    std::unique_ptr<QSettings> settings_;
    std::unique_ptr<Language> language_;
    std::unique_ptr<MainWindow> window_;
};

void TestModelOpener::init()
{
    dir_ = std::make_unique<QTemporaryDir>();
    settings_ = std::make_unique<QSettings>(dir_->filePath("settings.ini"), QSettings::IniFormat);
    language_ = std::make_unique<Language>();
    QVERIFY(language_->apply("en"));
}

void TestModelOpener::cleanup()
{
    window_.reset();
    language_.reset();
    settings_.reset();
    dir_.reset();
}

MainWindow* TestModelOpener::open()
{
    window_ = std::make_unique<MainWindow>(language_.get(), settings_.get());
    window_->show();
    return window_.get();
}

// The model opens on the worker into a window of its own: every layer and head in the
// grid, the predictions after the first text's last token, the model named in the title.
void TestModelOpener::opensAGoodFolder()
{
    const QString folder = writeTinyGpt2(dir_->filePath("tiny-random-gpt2"));
    MainWindow* w = open();
    QSignalSpy opened(w->modelOpener(), &ModelOpener::opened);
    w->modelOpener()->open(folder);
    QVERIFY(opened.wait(20000));
    const QList<LanguageModelWindow*> windows = w->findChildren<LanguageModelWindow*>();
    QCOMPARE(windows.size(), 1);
    LanguageModelWindow* window = windows.first();
    QVERIFY(window->isVisible());
    QVERIFY(window->isWindow());
    QVERIFY2(window->windowTitle().contains("tiny-random-gpt2"), qPrintable(window->windowTitle()));
    QCOMPARE(window->modelView()->grid()->layers(), 2);
    QCOMPARE(window->modelView()->grid()->heads(), 2);
    QCOMPARE(window->text(), QString::fromUtf8(LanguageModelWindow::kFirstText));
    const int tokens = int(window->shownRun().ids.size());
    QTRY_COMPARE(window->predictionPanel()->position(), tokens - 1); // from its worker
    QCOMPARE(window->predictionPanel()->predictions(), window->shownRun().predictions(tokens - 1));
    QCOMPARE(window->predictionPanel()->predictions().size(), std::size_t(10));
    QVERIFY(w->modelOpener()->idle());
    QVERIFY(!w->findChild<QMessageBox*>("modelError"));
}

void TestModelOpener::aBadFolderShowsAMessageAndChangesNothing_data()
{
    QTest::addColumn<QString>("fault");     // what is done to a good folder
    QTest::addColumn<QString>("faultFile"); // the file the message must name
    QTest::newRow("no config.json") << "remove config.json"
                                    << "config.json";
    QTest::newRow("config.json not JSON") << "config {not json"
                                          << "config.json";
    QTest::newRow("n_embd not divisible by n_head") << "config heads 3"
                                                    << "config.json";
    QTest::newRow("a model_type not supported") << "config t5"
                                                << "config.json";
    QTest::newRow("no weights") << "remove model.safetensors"
                                << "model.safetensors";
    QTest::newRow("a tensor missing") << "missing h.1.ln_2.bias"
                                      << "model.safetensors";
    QTest::newRow("a tensor of the wrong shape") << "transposed h.0.attn.c_attn.weight"
                                                 << "model.safetensors";
    QTest::newRow("an unknown dtype") << "dtype Q4"
                                      << "model.safetensors";
    QTest::newRow("a truncated weights file") << "truncate"
                                              << "model.safetensors";
    QTest::newRow("no merges.txt") << "remove merges.txt"
                                   << "merges.txt";
    QTest::newRow("no vocab.json") << "remove vocab.json"
                                   << "vocab.json";
    QTest::newRow("not a folder") << "remove folder"
                                  << "tiny";
}

void TestModelOpener::aBadFolderShowsAMessageAndChangesNothing()
{
    QFETCH(QString, fault);
    QFETCH(QString, faultFile);
    const QString folder = dir_->filePath("tiny");
    TinyGpt2 spec;
    if (fault.startsWith("missing "))
        spec.missingTensor = fault.section(' ', 1).toStdString();
    if (fault.startsWith("transposed "))
        spec.transposedTensor = fault.section(' ', 1).toStdString();
    if (fault.startsWith("dtype "))
        spec.wrongDtype = fault.section(' ', 1).toStdString();
    writeTinyGpt2(folder, spec);
    QDir dir(folder);
    if (fault == "remove folder")
        QVERIFY(dir.removeRecursively());
    else if (fault.startsWith("remove "))
        QVERIFY(QFile::remove(dir.filePath(fault.section(' ', 1))));
    else if (fault == "config {not json")
        writeText(dir.filePath("config.json"), "{not json");
    else if (fault == "config heads 3")
        writeText(dir.filePath("config.json"),
                  R"({"model_type": "gpt2", "n_layer": 2, "n_head": 3, "n_embd": 16,
                      "n_positions": 24, "vocab_size": 269})");
    else if (fault == "config t5")
        writeText(dir.filePath("config.json"), R"({"model_type": "t5"})");
    else if (fault == "truncate")
        QVERIFY(QFile::resize(dir.filePath("model.safetensors"),
                              QFileInfo(dir.filePath("model.safetensors")).size() / 2));
    const QString reason = coreReason(folder);
    QVERIFY2(reason.contains(faultFile), qPrintable(reason));

    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    const std::string textBefore = w->controlPanel()->request().text;
    QSignalSpy failed(w->modelOpener(), &ModelOpener::failed);
    w->modelOpener()->open(folder);
    QVERIFY(failed.wait(20000));
    auto* box = w->findChild<QMessageBox*>("modelError");
    QVERIFY2(box, "a message box tells of the bad folder");
    QCOMPARE(box->text(), reason);
    QVERIFY(box->isVisible());
    QVERIFY(w->findChildren<LanguageModelWindow*>().isEmpty());
    QCOMPARE(w->controlPanel()->request().text, textBefore);
    QVERIFY(w->lastResult().valid());
    box->accept();
}

void TestModelOpener::droppingAModelFolderOpensIt()
{
    const QString folder = writeTinyGpt2(dir_->filePath("dropped-gpt2"));
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    QSignalSpy opened(w->modelOpener(), &ModelOpener::opened);
    drop(w, {folder}, true);
    QVERIFY(opened.wait(20000));
    const QList<LanguageModelWindow*> windows = w->findChildren<LanguageModelWindow*>();
    QCOMPARE(windows.size(), 1);
    QVERIFY(windows.first()->windowTitle().contains("dropped-gpt2"));

    // A folder without config.json is no model: not accepted, nothing opens.
    QVERIFY(QDir().mkpath(dir_->filePath("empty")));
    drop(w, {dir_->filePath("empty")}, false);
    QTest::qWait(50);
    QCOMPARE(w->findChildren<LanguageModelWindow*>().size(), 1);
    QVERIFY(w->modelOpener()->idle());
}

void TestModelOpener::aDropOfSeveralOpensEach_data()
{
    QTest::addColumn<QStringList>("dropped"); // model folders by name, attention files by suffix
    QTest::newRow("two model folders") << QStringList{"first-gpt2", "second-gpt2"};
    QTest::newRow("three model folders") << QStringList{"first-gpt2", "second-gpt2", "third-gpt2"};
    QTest::newRow("a model folder and an attention file")
        << QStringList{"first-gpt2", "stack5_stored.npz"};
    QTest::newRow("two attention files") << QStringList{"stack5_stored.npz", "layers4.npz"};
}

// Every model folder and attention file of one drop opens in a window of its own.
void TestModelOpener::aDropOfSeveralOpensEach()
{
    QFETCH(QStringList, dropped);
    QStringList paths, models;
    for (const QString& name : dropped) {
        if (name.endsWith(".npz")) {
            paths << QStringLiteral(ATTN_REFERENCE_DIR "/attention/") + name;
        } else {
            paths << writeTinyGpt2(dir_->filePath(name));
            models << name;
        }
    }
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    drop(w, paths, true);
    QTRY_COMPARE_WITH_TIMEOUT(int(w->findChildren<LanguageModelWindow*>().size()),
                              int(models.size()), 30000);
    QTRY_VERIFY(w->modelOpener()->idle());
    QStringList titles;
    for (const LanguageModelWindow* window : w->findChildren<LanguageModelWindow*>())
        titles << window->windowTitle();
    for (const QString& model : models)
        QVERIFY2(titles.filter(model).size() == 1, qPrintable(titles.join(", ")));
    QCOMPARE(attentionFileWindows(w), int(paths.size() - models.size()));
    QVERIFY(!w->findChild<QMessageBox*>("modelError"));
}

// While models open the status bar names the one opening and how many wait; the window
// answers meanwhile, and the bar is gone once every one is open.
void TestModelOpener::theStatusBarSaysWhatOpens()
{
    const QString first = writeTinyGpt2(dir_->filePath("first-gpt2"));
    const QString second = writeTinyGpt2(dir_->filePath("second-gpt2"));
    MainWindow* w = open();
    auto* indicator = w->findChild<OpeningIndicator*>("modelOpening");
    QVERIFY(indicator);
    QVERIFY(!indicator->isVisible());
    w->modelOpener()->open(first);
    w->modelOpener()->open(second);
    // open() came back before either model was mapped: the opening is the worker's.
    QVERIFY(w->findChildren<LanguageModelWindow*>().isEmpty());
    QVERIFY(indicator->isVisible());
    QCOMPARE(indicator->text(), QStringLiteral("Opening first-gpt2… (1 more waiting)"));
    QTRY_COMPARE_WITH_TIMEOUT(int(w->findChildren<LanguageModelWindow*>().size()), 2, 30000);
    QVERIFY(!indicator->isVisible());
    QVERIFY(indicator->text().isEmpty());
    QVERIFY(w->modelOpener()->idle());
}

// A folder that fails says why, and the model windows already open stay as they were.
void TestModelOpener::aFailureKeepsWhatWasOpen()
{
    const QString good = writeTinyGpt2(dir_->filePath("good-gpt2"));
    const QString bad = dir_->filePath("bad-gpt2");
    TinyGpt2 spec;
    spec.missingTensor = "wpe.weight";
    writeTinyGpt2(bad, spec);
    MainWindow* w = open();
    QSignalSpy opened(w->modelOpener(), &ModelOpener::opened);
    w->modelOpener()->open(good);
    QVERIFY(opened.wait(20000));
    auto* window = opened.first().first().value<LanguageModelWindow*>();
    const std::vector<int> ids = window->shownRun().ids;

    QSignalSpy failed(w->modelOpener(), &ModelOpener::failed);
    w->modelOpener()->open(bad);
    QCOMPARE(w->findChild<OpeningIndicator*>("modelOpening")->text(),
             QStringLiteral("Opening bad-gpt2…"));
    QVERIFY(failed.wait(20000));
    auto* box = w->findChild<QMessageBox*>("modelError");
    QVERIFY(box);
    QCOMPARE(box->text(), coreReason(bad));
    QVERIFY(box->text().contains("wpe.weight"));
    QCOMPARE(w->findChildren<LanguageModelWindow*>(), QList<LanguageModelWindow*>{window});
    QVERIFY(window->isVisible());
    QCOMPARE(window->shownRun().ids, ids);
    QVERIFY(!w->findChild<OpeningIndicator*>("modelOpening")->isVisible());
    box->accept();
}

void TestModelOpener::opensAndDropsGgufFiles()
{
    // A GGUF file opens as a folder does (the test fixtures' random Llama, general.name
    // "llama-mix"); dropped under an Ollama blob's name without ".gguf", it is still one; a
    // truncated one is refused naming the file, and the open window stays as it was.
    const QString good = QStringLiteral(ATTN_REFERENCE_DIR "/gguf/llama-mix.gguf");
    const QString blob = dir_->filePath("sha256-0123abcd");
    const QString broken = dir_->filePath("broken.gguf");
    QVERIFY(QFile::copy(good, blob));
    QVERIFY(QFile::copy(good, broken));
    QVERIFY(QFile::resize(broken, QFileInfo(broken).size() / 2));
    MainWindow* w = open();
    QSignalSpy opened(w->modelOpener(), &ModelOpener::opened);
    w->modelOpener()->open(good);
    QVERIFY(opened.wait(20000));
    auto* window = opened.first().first().value<LanguageModelWindow*>();
    QVERIFY2(window->windowTitle().contains("llama-mix"), qPrintable(window->windowTitle()));
    QCOMPARE(window->modelView()->grid()->layers(), 2);
    QCOMPARE(window->modelView()->grid()->heads(), 4);
    drop(w, {blob}, true);
    QVERIFY(opened.wait(20000));
    QCOMPARE(w->findChildren<LanguageModelWindow*>().size(), 2);

    QSignalSpy failed(w->modelOpener(), &ModelOpener::failed);
    w->modelOpener()->open(broken);
    QVERIFY(failed.wait(20000));
    auto* box = w->findChild<QMessageBox*>("modelError");
    QVERIFY(box);
    QVERIFY2(box->text().contains("broken.gguf") && box->text().contains("truncated"),
             qPrintable(box->text()));
    QCOMPARE(w->findChildren<LanguageModelWindow*>().size(), 2);
    box->accept();
}

void TestModelOpener::recognisesModelFolders_data()
{
    QTest::addColumn<QString>("make"); // "config", "file", "empty"
    QTest::addColumn<bool>("model");
    QTest::newRow("a folder with config.json") << "config" << true;
    QTest::newRow("an empty folder") << "empty" << false;
    QTest::newRow("a file") << "file" << false;
}

void TestModelOpener::recognisesModelFolders()
{
    QFETCH(QString, make);
    QFETCH(bool, model);
    const QString path = dir_->filePath("thing");
    if (make == "file") {
        writeText(path, "x");
    } else {
        QVERIFY(QDir().mkpath(path));
        if (make == "config")
            writeText(QDir(path).filePath("config.json"), "{}");
    }
    QCOMPARE(isModelFolder(path), model);
}

void TestModelOpener::openModelIsInTheFileMenu()
{
    MainWindow* w = open();
    QAction* action = w->action(ActionId::OpenModel);
    QCOMPARE(action->text(), QStringLiteral("Open &Model…"));
    QVERIFY(!action->shortcut().isEmpty());
    QMenu* file = w->menuBar()->actions().first()->menu();
    QVERIFY(file->actions().contains(action));
    // No other action of the window shares its shortcut.
    for (QAction* other : w->findChildren<QAction*>())
        if (other != action && !other->shortcut().isEmpty())
            QVERIFY2(other->shortcut() != action->shortcut(), qPrintable(other->text()));
}

// The dialog lists the snapshots of the cache HF_HOME names, picks one's folder, and says
// how to get GPT-2 without downloading anything itself.
void TestModelOpener::theDialogListsTheCachedModels()
{
    const QByteArray before = qgetenv("HF_HOME");
    const bool had = qEnvironmentVariableIsSet("HF_HOME");
    qputenv("HF_HOME", dir_->filePath("hf").toUtf8());
    const QString snapshot = dir_->filePath("hf/hub/models--gpt2/snapshots/abc123");
    writeTinyGpt2(snapshot);
    {
        OpenModelDialog dialog;
        QListWidget* list = dialog.cachedModels();
        QCOMPARE(list->count(), 1);
        QVERIFY2(list->item(0)->text().startsWith("gpt2 · gpt2"),
                 qPrintable(list->item(0)->text()));
        list->setCurrentRow(0);
        QCOMPARE(dialog.folder(), QDir::toNativeSeparators(snapshot));
        QVERIFY(dialog.findChild<QLabel*>("howToGetModel")
                    ->text()
                    .contains("huggingface-cli download gpt2"));
        // What each family's folder needs, not GPT-2's files alone.
        const QString intro = dialog.findChild<QLabel*>("modelFolderIntro")->text();
        for (const char* file : {"vocab.json", "merges.txt", "tokenizer.json", "vocab.txt"})
            QVERIFY2(intro.contains(file), qPrintable(intro));
        for (const char* family : {"GPT-2", "Qwen", "Llama", "Mistral", "BERT"})
            QVERIFY2(intro.contains(family), qPrintable(intro));
    }
    qputenv("HF_HOME", dir_->filePath("nowhere").toUtf8());
    {
        OpenModelDialog dialog;
        QCOMPARE(dialog.cachedModels()->count(), 1);
        QVERIFY(dialog.cachedModels()->item(0)->text().startsWith("None in"));
        QVERIFY(dialog.folder().isEmpty());
    }
    if (had)
        qputenv("HF_HOME", before);
    else
        qunsetenv("HF_HOME");
}

QTEST_MAIN(TestModelOpener)
#include "tst_modelopener.moc"
