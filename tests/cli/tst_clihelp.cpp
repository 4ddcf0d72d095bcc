// `attnscope --version`, `help` and every command's `--help`, in English and Chinese; the
// help commands' refusals; and a session file as the only argument, which opens the window.
#include "clirun.h"
#include "engine/options.h"
#include "formats/commandline.h"
#include "formats/report.h"
#include "lab/presets.h"
#include "processrun.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace attn;
using namespace attn::test;

class TestCliHelp : public QObject {
    Q_OBJECT

private slots:
    void versionAndHelp_data();
    void versionAndHelp();
    void helpInChinese_data();
    void helpInChinese();
    void helpRefusals_data();
    void helpRefusals();
    void sessionFileOpensTheWindow_data();
    void sessionFileOpensTheWindow();
};

void TestCliHelp::versionAndHelp_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("pattern"); // a regular expression for standard output

    QTest::newRow("--version")
        << QStringList{"--version"}
        << R"(^attnscope \d+\.\d+\.\d+\nmatrix products: (OpenBLAS .*\(1 thread per call(; kernels chosen by AttnScope[^)]*)?\)|Eigen's own kernels)\nmodel layers: AttnScope's product kernel, (AVX-512|AVX2\+FMA|portable)\n$)";
    QTest::newRow("--help") << QStringList{"--help"}
                            << R"(usage:[\s\S]*--axis keys\|queries\|batch)";
    QTest::newRow("help") << QStringList{"help"} << R"(usage:[\s\S]*--json FILE)";
    QTest::newRow("-h") << QStringList{"-h"} << R"(usage:[\s\S]*--mask-fill neg-inf\|-1e9)";
    // A command's own help: its usage, then compute's options where it computes, then its own.
    QTest::newRow("export --help")
        << QStringList{"export", "--help"}
        << R"(^usage:\n  attnscope export \[options\] --out FILE\s+write a figure[\s\S]*)"
           R"(options of compute:\n  --text TEXT[\s\S]*options of export[\s\S]*--png-scale)";
    QTest::newRow("export --help, with a model")
        << QStringList{"export", "--help"}
        << R"(options of export with a model[^\n]*\n[^\n]*\n  --model DIR +run a model folder as )"
           R"(compute --model does[\s\S]*--only-layer N)";
    QTest::newRow("sweep -h")
        << QStringList{"sweep", "-h"}
        << R"(^usage:\n  attnscope sweep [\s\S]*options of sweep[\s\S]*--from N)";
    QTest::newRow("models --help")
        << QStringList{"models", "--help"}
        << R"(^usage:\n  attnscope models +list the models already on this computer\n)";
    QTest::newRow("compute --help")
        << QStringList{"compute", "--help"}
        << R"(^usage:\n  attnscope compute \[options\] +compute attention[\s\S]*--language en\|zh_CN)";
    QTest::newRow("help steps")
        << QStringList{"help", "steps"}
        << R"(^usage:\n  attnscope steps [\s\S]*options of steps[\s\S]*--cell I,J)";
    QTest::newRow("presets --help")
        << QStringList{"presets", "--help"}
        << R"(^usage:\n  attnscope presets \[--language en\|zh_CN\]\n[\s\S]*options of presets:\n  --language)";
    QString every;
    for (const Preset& preset : presets())
        every += "[\\s\\S]*" + QRegularExpression::escape(QString::fromUtf8(
                                   preset.name.data(), static_cast<qsizetype>(preset.name.size())));
    QTest::newRow("presets") << QStringList{"presets"} << "^" + every;
}

void TestCliHelp::versionAndHelp()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, pattern);
    const Run run = attnscope(arguments);
    QCOMPARE(run.exitCode, 0);
    QCOMPARE(run.err, QByteArray());
    const QString out = QString::fromUtf8(run.out);
    QVERIFY2(QRegularExpression(pattern).match(out).hasMatch(), qPrintable(out));
}

// The help in Chinese: every piece of English help text is translated (none of the English
// help's phrases is left), and the lines still fit a terminal of 80 columns, a CJK
// character taking two.
void TestCliHelp::helpInChinese_data()
{
    QTest::addColumn<QStringList>("english");
    QTest::addColumn<QString>("heading"); // in the Chinese help
    QTest::newRow("--help") << QStringList{"--help"} << "compute 的选项：";
    QTest::newRow("help export") << QStringList{"help", "export"}
                                 << "export 的选项（以及 compute 的选项，--json 除外）：";
    QTest::newRow("help export, with a model")
        << QStringList{"help", "export"} << "export 使用模型时的选项";
    QTest::newRow("sweep --help") << QStringList{"sweep", "--help"}
                                  << "sweep 的选项（以及 compute 的选项，--d-model、--heads 和 "
                                     "--scale 除外）：";
    QTest::newRow("compare -h") << QStringList{"compare", "-h"}
                                << "A 的 mask-stage（默认：标准公式的）";
    QTest::newRow("help steps") << QStringList{"help", "steps"} << "--cell I,J";
    QTest::newRow("presets --help") << QStringList{"presets", "--help"} << "presets 的选项：";
}

void TestCliHelp::helpInChinese()
{
    QFETCH(QStringList, english);
    QFETCH(QString, heading);
    const Run en = attnscope(english);
    const Run zh = attnscope(english + QStringList{"--language", "zh_CN"});
    QCOMPARE(zh.exitCode, 0);
    QCOMPARE(zh.err, QByteArray());
    const QString chinese = QString::fromUtf8(zh.out);
    QVERIFY2(chinese.startsWith(english.size() == 1 ? u"AttnScope " : u"用法：\n"),
             qPrintable(chinese.left(200)));
    QVERIFY2(chinese.contains(heading), qPrintable(chinese));
    // The English help's phrases: on each line, the text after the option or usage column,
    // where it has two words of letters in a row ("the format", "K and V").
    const QRegularExpression words(QStringLiteral(R"(\b[A-Za-z]{2,} [A-Za-z]{3,}\b)"));
    int phrases = 0;
    for (const QString& line : QString::fromUtf8(en.out).split(u'\n')) {
        const bool option = line.startsWith(u"  --") || line.startsWith(QString(30, u' '));
        if (!option && !line.startsWith(u"  attnscope "))
            continue; // headings, examples
        const int column = option ? 30 : 33;
        if (line.mid(column - 2, 2) != u"  ")
            continue; // a usage or option longer than its column: no text beside it
        const QString text = line.mid(column).trimmed();
        if (text.isEmpty() || !words.match(text).hasMatch() || text.startsWith(u"attnscope "))
            continue;
        ++phrases;
        QVERIFY2(!chinese.contains(text), qPrintable(QStringLiteral("untranslated: ") + text));
    }
    QVERIFY(phrases >= 2);
    for (const QString& line : chinese.split(u'\n'))
        QVERIFY2(terminalColumns(line.toStdString()) <= 80, qPrintable(line));
    for (const QString& line : QString::fromUtf8(en.out).split(u'\n'))
        QVERIFY2(terminalColumns(line.toStdString()) <= 80, qPrintable(line));
    // In English, --language en is the help without it.
    QCOMPARE(attnscope(english + QStringList{"--language", "en"}).out, en.out);
}

// What the help refuses, each with a message and exit status 2.
void TestCliHelp::helpRefusals_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown option")
        << QStringList{"--help", "--bogus"} << "attnscope: unknown option --bogus\n";
    QTest::newRow("unknown language") << QStringList{"help", "--language", "fr"}
                                      << "attnscope: --language must be en|zh_CN, not 'fr'\n";
    QTest::newRow("no value") << QStringList{"export", "--help", "--language"}
                              << "attnscope: --language needs a value (en|zh_CN)\n";
    QTest::newRow("not a command")
        << QStringList{"help", "nothing", "--language", "zh_CN"}
        << "attnscope: no help for 'nothing': not a command (try: attnscope --help)\n";
}

void TestCliHelp::helpRefusals()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, message);
    const Run run = attnscope(arguments);
    QCOMPARE(run.exitCode, 2);
    QCOMPARE(run.out, QByteArray());
    QCOMPARE(QString::fromUtf8(run.err), message);
}

// `attnscope lesson.attnscope` (a double click) opens the window with the session, not a
// command: a file that cannot be opened is named on standard error while the window
// stays open (offscreen here), never refused as an unknown command.
void TestCliHelp::sessionFileOpensTheWindow_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("contents"); // empty: the file does not exist
    QTest::addColumn<QString>("reason");      // part of the line on standard error

    QTest::newRow("missing lesson.attnscope")
        << "lesson.attnscope" << QByteArray() << "Cannot open";
    QTest::newRow("missing, upper case") << "LESSON.ATTNSCOPE" << QByteArray() << "Cannot open";
    QTest::newRow("damaged lesson.attnscope")
        << "lesson.attnscope" << QByteArray("{\"format\": \"attnscope-session\"")
        << "not valid JSON";
}

void TestCliHelp::sessionFileOpensTheWindow()
{
    QFETCH(QString, file);
    QFETCH(QByteArray, contents);
    QFETCH(QString, reason);

    QTemporaryDir dir;
    const QString path = dir.filePath(file);
    if (!contents.isEmpty()) {
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(contents);
    }
    // Settings and the autosave in the temporary folder, so no recovery is offered.
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert("QT_QPA_PLATFORM", "offscreen");
    environment.insert("HOME", dir.path());
    environment.insert("XDG_CONFIG_HOME", dir.filePath("config"));
    environment.insert("XDG_DATA_HOME", dir.filePath("data"));
    QProcess process;
    process.setProcessEnvironment(environment);
    process.setReadChannel(QProcess::StandardError);
    process.start(QStringLiteral(ATTN_BINARY), {path});
    // Qt's own warnings may come first; the line that matters starts with "attnscope: ".
    QByteArray all;
    QByteArray err;
    while (err.isEmpty() && process.waitForReadyRead(60000)) {
        all += process.readAllStandardError();
        for (const QByteArray& line : all.split('\n'))
            if (line.startsWith("attnscope: ") && all.contains(line + '\n'))
                err = line;
    }
    const bool running = process.state() == QProcess::Running;
    process.kill();
    process.waitForFinished();
    QVERIFY2(!all.contains("unknown command"), all.constData());
    QVERIFY2(!err.isEmpty(), all.constData());
    QVERIFY2(err.contains(QDir::toNativeSeparators(path).toUtf8()), err.constData());
    QVERIFY2(err.contains(reason.toUtf8()), err.constData());
    QVERIFY2(running, "the window closed after the message");
}

QTEST_GUILESS_MAIN(TestCliHelp)
#include "tst_clihelp.moc"
