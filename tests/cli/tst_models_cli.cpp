// `attnscope models`: the models already on this computer, in a fake home with models in
// every tool's folder (tests/diskmodels.h), one a line with its name, tool, size,
// quantization and path; an empty home names the folders looked in; an option is refused.
#include "clirun.h"
#include "diskmodels.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace attn::test;

namespace {

// `attnscope models …` with HOME `home` and no other variable naming a tool's folder.
Run models(const QString& home, const QStringList& arguments = {})
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const char* name :
         {"HF_HUB_CACHE", "HF_HOME", "XDG_CACHE_HOME", "MODELSCOPE_CACHE", "OLLAMA_MODELS"})
        environment.remove(QString::fromLatin1(name));
    environment.insert(QStringLiteral("HOME"), home);
    process.setProcessEnvironment(environment);
    process.setProgram(QStringLiteral(ATTN_BINARY));
    process.setArguments(QStringList{"models"} + arguments);
    return finish(process, kCliTimeoutMs);
}

// "48 B", "4.1 KB": as the command prints the fake models' sizes.
QString sizeText(unsigned long long bytes)
{
    return bytes < 1000 ? QStringLiteral("%1 B").arg(bytes)
                        : QStringLiteral("%1 KB").arg(double(bytes) / 1000, 0, 'f', 1);
}

} // namespace

class TestModelsCli : public QObject {
    Q_OBJECT

private slots:
    void listsEveryToolsModels();
    void anEmptyHomeSaysWhereItLooked();
    void refusesAnOption();
};

void TestModelsCli::listsEveryToolsModels()
{
    QTemporaryDir dir;
    const std::vector<diskmodels::Expected> expected =
        diskmodels::writeModelCaches(dir.path().toStdString());
    const Run run = models(dir.path());
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.err, QByteArray());
    const QStringList lines = QString::fromUtf8(run.out).split('\n', Qt::SkipEmptyParts);
    QVERIFY2(lines.value(0).startsWith("NAME "), qPrintable(lines.value(0)));
    QVERIFY(lines.value(0).contains(" QUANTIZATION "));
    for (const diskmodels::Expected& model : expected) {
        const QString name = QString::fromStdString(model.name);
        const auto line =
            std::ranges::find_if(lines, [&](const QString& l) { return l.startsWith(name + ' '); });
        QVERIFY2(line != lines.end(), qPrintable(name));
        const QStringList cells = line->split(QRegularExpression("  +"));
        QCOMPARE(cells.value(1), QString::fromStdString(model.source));
        QCOMPARE(cells.value(2), sizeText(model.bytes));
        QCOMPARE(cells.value(3), model.quantization.empty()
                                     ? QStringLiteral("-")
                                     : QString::fromStdString(model.quantization));
        QVERIFY2(cells.value(4).startsWith(dir.path() + '/'), qPrintable(*line));
        QCOMPARE(cells.value(4).endsWith(" (missing)"), model.missing);
    }
    // The Ollama model's path is its blob, the GGUF file --model opens.
    const auto ollama =
        std::ranges::find_if(lines, [](const QString& l) { return l.startsWith("qwen2.5:0.5b "); });
    QVERIFY(ollama->endsWith("/.ollama/models/blobs/sha256-" + QString(64, 'a')));
}

void TestModelsCli::anEmptyHomeSaysWhereItLooked()
{
    QTemporaryDir dir;
    const Run run = models(dir.path());
    QCOMPARE(run.exitCode, 0);
    const QString out = QString::fromUtf8(run.out);
    if (!out.startsWith("No models"))
        QSKIP("this machine's Ollama service keeps models");
    QVERIFY2(out.startsWith("No models on this computer. Looked in:\n"), qPrintable(out));
    for (const QString folder : {".cache/huggingface/hub", ".cache/modelscope/hub",
                                 ".ollama/models", ".lmstudio/models", ".cache/lm-studio/models"})
        QVERIFY2(out.contains(dir.filePath(folder) + '\n'), qPrintable(out));
}

void TestModelsCli::refusesAnOption()
{
    QTemporaryDir dir;
    const Run run = models(dir.path(), {"--json"});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.startsWith("attnscope: ") && run.err.contains("--json"), run.err.constData());
    QCOMPARE(run.out, QByteArray());
}

QTEST_GUILESS_MAIN(TestModelsCli)
#include "tst_models_cli.moc"
