// File → Open Model…'s list of the models already on disk, in a fake home with models in
// every tool's folder (tests/diskmodels.h): each labelled with its name, family,
// quantization, size and tool; choosing one fills the path (a folder or a GGUF file); a
// model whose file is gone is listed but cannot be chosen; the text names every folder
// looked in. And what the window takes for a model: a folder with config.json or a GGUF
// file, whatever its name.
#include "cacheenvironment.h"
#include "diskmodels.h"
#include "modelopener.h"
#include "openmodeldialog.h"

#include <QtTest>

#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QMimeData>
#include <QPushButton>

using namespace attn::ui;

namespace {

// The list's item whose text starts with `name` and a " · ", or null.
QListWidgetItem* itemOf(QListWidget* list, const QString& name)
{
    for (int row = 0; row < list->count(); ++row)
        if (list->item(row)->text().startsWith(name + QStringLiteral(" · ")))
            return list->item(row);
    return nullptr;
}

} // namespace

class TestOpenModelDialog : public QObject {
    Q_OBJECT

private slots:
    void listsEveryToolsModels();
    void choosingOneFillsThePath_data();
    void choosingOneFillsThePath();
    void anEmptyListSaysWhereItLooked();
    void browsesForAFolderOrAFile();
    void recognisesModels_data();
    void recognisesModels();
};

void TestOpenModelDialog::listsEveryToolsModels()
{
    QTemporaryDir dir;
    const attn::test::CacheEnvironment home(dir.path());
    const std::vector<diskmodels::Expected> expected =
        diskmodels::writeModelCaches(dir.path().toStdString());
    OpenModelDialog dialog;
    QListWidget* list = dialog.cachedModels();
    QVERIFY(list->count() >= int(expected.size())); // the machine's service folder may add some
    const QLocale locale;
    for (const diskmodels::Expected& model : expected) {
        const QString name = QString::fromStdString(model.name);
        QListWidgetItem* item = itemOf(list, name);
        QVERIFY2(item, qPrintable(name));
        const QString text = item->text();
        QVERIFY2(text.contains(
                     locale.formattedDataSize(qint64(model.bytes), 1, QLocale::DataSizeSIFormat)),
                 qPrintable(text));
        QVERIFY2(text.contains(QString::fromStdString(model.source)), qPrintable(text));
        if (!model.quantization.empty())
            QVERIFY2(text.contains(" · " + QString::fromStdString(model.quantization) + " · "),
                     qPrintable(text));
        QCOMPARE(item->flags() == Qt::NoItemFlags, model.missing);
        QCOMPARE(text.contains("missing"), model.missing);
    }
    QVERIFY(dialog.focusWidget() != dialog.findChild<QLineEdit*>("modelFolder"));
    // The text says that nothing is downloaded, and where each tool keeps its models.
    QVERIFY(dialog.findChild<QLabel*>("modelFolderIntro")->text().contains("downloads nothing"));
    const QString howTo = dialog.findChild<QLabel*>("howToGetModel")->text();
    for (const char* folder : {".cache/huggingface/hub", ".cache/modelscope/hub", ".ollama/models",
                               ".lmstudio/models", ".cache/lm-studio/models"})
        QVERIFY2(howTo.contains(QStringLiteral("~/") + folder), qPrintable(howTo));
}

void TestOpenModelDialog::choosingOneFillsThePath_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("path"); // under the fake home
    QTest::newRow("Hugging Face") << "Qwen/Qwen2.5-0.5B"
                                  << ".cache/huggingface/hub/models--Qwen--Qwen2.5-0.5B/"
                                     "snapshots/a1b2c3d4e5f6";
    QTest::newRow("ModelScope") << "Qwen/Qwen2.5-0.5B-Instruct"
                                << ".cache/modelscope/hub/models/Qwen/Qwen2___5-0___5B-Instruct";
    QTest::newRow("Ollama, a blob") << "qwen2.5:0.5b"
                                    << ".ollama/models/blobs/sha256-" + QString(64, 'a');
    QTest::newRow("LM Studio, a GGUF file")
        << "TheBloke/TinyLlama-GGUF/tinyllama.IQ4_XS.gguf"
        << ".cache/lm-studio/models/TheBloke/TinyLlama-GGUF/tinyllama.IQ4_XS.gguf";
}

void TestOpenModelDialog::choosingOneFillsThePath()
{
    QFETCH(QString, name);
    QFETCH(QString, path);
    QTemporaryDir dir;
    const attn::test::CacheEnvironment home(dir.path());
    diskmodels::writeModelCaches(dir.path().toStdString());
    OpenModelDialog dialog;
    QListWidgetItem* item = itemOf(dialog.cachedModels(), name);
    QVERIFY(item);
    dialog.cachedModels()->setCurrentItem(item);
    // Shown under ~, read back whole.
    QCOMPARE(dialog.findChild<QLineEdit*>("modelFolder")->text(), "~/" + path);
    QCOMPARE(dialog.folder(), QDir::toNativeSeparators(dir.filePath(path)));
    QVERIFY(isModelPath(dialog.folder()));
}

void TestOpenModelDialog::anEmptyListSaysWhereItLooked()
{
    QTemporaryDir dir;
    const attn::test::CacheEnvironment home(dir.path());
    OpenModelDialog dialog;
    QListWidget* list = dialog.cachedModels();
    if (list->count() != 1)
        QSKIP("this machine's Ollama service keeps models");
    const QString text = list->item(0)->text();
    QVERIFY2(text.startsWith("None in"), qPrintable(text));
    QVERIFY2(text.contains("~/.ollama/models"), qPrintable(text));
    QVERIFY2(text.contains("LM Studio"), qPrintable(text));
    QCOMPARE(list->item(0)->flags(), Qt::NoItemFlags);
    QVERIFY(dialog.folder().isEmpty());
    // Nothing to choose: the path field has the focus, for a path typed or pasted.
    QCOMPARE(dialog.focusWidget(), dialog.findChild<QLineEdit*>("modelFolder"));
}

void TestOpenModelDialog::browsesForAFolderOrAFile()
{
    OpenModelDialog dialog;
    QVERIFY(dialog.findChild<QPushButton*>("browseModel"));
    auto* file = dialog.findChild<QPushButton*>("chooseModelFile");
    QVERIFY(file);
    QCOMPARE(file->text(), QStringLiteral("Choose Fi&le…"));
    // A typed GGUF file opens as a folder does; "~" is the home folder, as in a shell.
    dialog.setFolder(QStringLiteral("/models/qwen2.5-0.5b-instruct-q4_k_m.gguf"));
    QCOMPARE(dialog.folder(), QStringLiteral("/models/qwen2.5-0.5b-instruct-q4_k_m.gguf"));
    dialog.findChild<QLineEdit*>("modelFolder")->setText(QStringLiteral("~/models/tiny.gguf"));
    QCOMPARE(dialog.folder(), QDir::homePath() + QStringLiteral("/models/tiny.gguf"));
}

void TestOpenModelDialog::recognisesModels_data()
{
    QTest::addColumn<QString>("name");     // under a temporary folder; "/" at the end: a folder
    QTest::addColumn<QByteArray>("bytes"); // the file's, or a config.json's for a folder
    QTest::addColumn<bool>("model");
    QTest::newRow("a folder with config.json") << "qwen/" << QByteArray("{}") << true;
    QTest::newRow("a folder without") << "empty/" << QByteArray() << false;
    QTest::newRow("a .gguf file") << "tiny-Q4_K_M.gguf" << QByteArray("GGUF\3\0\0\0") << true;
    QTest::newRow("a .GGUF file, any bytes") << "TINY.GGUF" << QByteArray("x") << true;
    QTest::newRow("an Ollama blob") << "sha256-abcdef" << QByteArray("GGUF\3\0\0\0") << true;
    QTest::newRow("another file") << "notes.txt" << QByteArray("GGU") << false;
    QTest::newRow("an attention file") << "gpt2.npz" << QByteArray("PK\3\4") << false;
}

void TestOpenModelDialog::recognisesModels()
{
    QFETCH(QString, name);
    QFETCH(QByteArray, bytes);
    QFETCH(bool, model);
    QTemporaryDir dir;
    const QString path = dir.filePath(name);
    const bool folder = name.endsWith('/');
    QVERIFY(QDir().mkpath(folder ? path : dir.path()));
    if (!folder || !bytes.isEmpty()) {
        QFile file(folder ? path + "config.json" : path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
    }
    QCOMPARE(isModelPath(path), model);
    QCOMPARE(isGgufFile(path), model && !folder);
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    QCOMPARE(droppedModels(&mime).size(), model ? 1 : 0);
}

QTEST_MAIN(TestOpenModelDialog)
#include "tst_openmodeldialog.moc"
