// `attnscope compute` refusing what it cannot do: bad options and values, invalid UTF-8,
// files it cannot write, a full standard output. Exit status 2 is bad input, 1 a file
// that could not be written; a failure prints one line "attnscope: <problem>" on standard
// error, nothing on standard output, and leaves no file behind.
#include "clirun.h"
#include "engine/options.h"
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

class TestCliErrors : public QObject {
    Q_OBJECT

private slots:
    void badInput_data();
    void badInput();
    void invalidUtf8_data();
    void invalidUtf8();
    void writeFailure_data();
    void writeFailure();
    void fullStandardOutput_data();
    void fullStandardOutput();
};

void TestCliErrors::badInput_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("keyword"); // part of the one line on standard error

    const QStringList text{"compute", "--text", "the cat sat"};
    QTest::newRow("unknown option")
        << text + QStringList{"--frobnicate", "1"} << "unknown option --frobnicate";
    QTest::newRow("unknown command") << QStringList{"frobnicate"} << "unknown command 'frobnicate'";
    QTest::newRow("help for no command")
        << QStringList{"help", "frobnicate"} << "no help for 'frobnicate': not a command";
    QTest::newRow("presets: a word")
        << QStringList{"presets", "all"} << "unexpected argument 'all'";
    QTest::newRow("presets: an option")
        << QStringList{"presets", "--preset", "article"} << "unknown option --preset";
    QTest::newRow("presets: --language fr")
        << QStringList{"presets", "--language", "fr"} << "--language must be en|zh_CN, not 'fr'";
    QTest::newRow("single dash") << text + QStringList{"-x"} << "unexpected argument '-x'";
    QTest::newRow("bare word") << text + QStringList{"hello"} << "unexpected argument 'hello'";
    QTest::newRow("missing value: --heads")
        << text + QStringList{"--heads"} << "--heads needs a value";
    QTest::newRow("missing value: --text")
        << QStringList{"compute", "--text"} << "--text needs a value";
    QTest::newRow("empty value: --heads=")
        << text + QStringList{"--heads="} << "--heads must be a whole number";

    forEachEnumOption([&](const QString& option, const QStringList& spellings) {
        QTest::addRow("bad value: --%s nosuch", qPrintable(option))
            << text + QStringList{"--" + option, "nosuch"}
            << "--" + option + " must be " + spellings.join('|') + ", not 'nosuch'";
        QTest::addRow("bad value: --%s %s (case)", qPrintable(option),
                      qPrintable(spellings[0].toUpper()))
            << text + QStringList{"--" + option, spellings[0].toUpper()}
            << "--" + option + " must be " + spellings.join('|');
    });
    QTest::newRow("bad value: --padding-mask yes") << text + QStringList{"--padding-mask", "yes"}
                                                   << "--padding-mask must be on|off, not 'yes'";

    QTest::newRow("--attention cross without --cross-text")
        << text + QStringList{"--attention", "cross"}
        << "cross-attention needs the keys' and values' text: give it with --cross-text";
    QTest::newRow("--cross-text blank")
        << text + QStringList{"--cross-text", " \t"} << "give it with --cross-text";
    QTest::newRow("--cross-text with --mask causal")
        << text + QStringList{"--cross-text", "a b", "--mask", "causal"}
        << "a causal mask has no meaning in cross-attention";
    QTest::newRow("--cross-text of 2 lines for 3")
        << QStringList{"compute", "--text", "a\nb\nc", "--cross-text", "x\ny"}
        << "the keys' and values' text has 2 lines and the queries' text 3";
    QTest::newRow("--heads 3 --d-model 16") << text + QStringList{"--heads", "3", "--d-model", "16"}
                                            << "heads (3) must divide d_model (16)";
    QTest::newRow("--heads 32 --d-model 16")
        << text + QStringList{"--heads", "32", "--d-model", "16"}
        << "heads must be between 1 and d_model (16), not 32";
    QTest::newRow("--heads 0") << text + QStringList{"--heads", "0"}
                               << "--heads must be between 1 and";
    QTest::newRow("--temperature 0")
        << text + QStringList{"--temperature", "0"} << "--temperature must be greater than 0";
    QTest::newRow("--temperature -1")
        << text + QStringList{"--temperature", "-1"} << "--temperature must be greater than 0";
    QTest::newRow("--temperature abc") << text + QStringList{"--temperature", "abc"}
                                       << "--temperature must be a number, not 'abc'";
    QTest::newRow("--temperature nan") << text + QStringList{"--temperature", "nan"}
                                       << "--temperature must be a number, not 'nan'";
    QTest::newRow("--temperature inf")
        << text + QStringList{"--temperature", "inf"} << "--temperature must be a number";
    QTest::newRow("--temperature 1e-7") << text + QStringList{"--temperature", "1e-7"}
                                        << "--temperature must be between 1e-06 and 1e+06";
    QTest::newRow("--temperature 2e6") << text + QStringList{"--temperature", "2e6"}
                                       << "--temperature must be between 1e-06 and 1e+06";
    QTest::newRow("--temperature '1 '")
        << text + QStringList{"--temperature", "1 "} << "--temperature must be a number";
    QTest::newRow("--d-model 0") << text + QStringList{"--d-model", "0"}
                                 << "--d-model must be between 1 and 4096, not 0";
    QTest::newRow("--d-model 5000") << text + QStringList{"--d-model", "5000"}
                                    << "--d-model must be between 1 and 4096, not 5000";
    QTest::newRow("--d-model 16.5") << text + QStringList{"--d-model", "16.5"}
                                    << "--d-model must be a whole number, not '16.5'";
    QTest::newRow("--seed -1") << text + QStringList{"--seed", "-1"}
                               << "--seed must be a whole number from 0 to 18446744073709551615";
    QTest::newRow("--seed 18446744073709551616")
        << text + QStringList{"--seed", "18446744073709551616"}
        << "--seed must be a whole number from 0 to 18446744073709551615";
    QTest::newRow("--seed 0x10") << text + QStringList{"--seed", "0x10"}
                                 << "--seed must be a whole number";
    // Today's models: each refusal one line, exit status 2.
    QTest::newRow("--kv-heads 3 of 4")
        << text + QStringList{"--kv-heads", "3"} << "the K/V heads (3) must divide the heads (4)";
    QTest::newRow("--kv-heads two")
        << text + QStringList{"--kv-heads", "two"} << "--kv-heads must be a whole number";
    QTest::newRow("--positional rope at odd d_k")
        << text + QStringList{"--positional", "rope", "--d-model", "12", "--heads", "4"}
        << "RoPE rotates pairs of features: d_k (3) must be even";
    QTest::newRow("--rope-theta -5")
        << text + QStringList{"--rope-theta", "-5"} << "--rope-theta must be a positive number";
    QTest::newRow("--window 0") << text + QStringList{"--window", "0"}
                                << "--window must be between 1 and 4096, not 0";
    QTest::newRow("--window -2") << text + QStringList{"--window", "-2"}
                                 << "--window must be between 1 and 4096, not -2";
    QTest::newRow("--softcap 0") << text + QStringList{"--softcap", "0"}
                                 << "--softcap must be a positive number or off, not 0";
    QTest::newRow("--softcap -3") << text + QStringList{"--softcap", "-3"}
                                  << "--softcap must be a positive number or off";
    QTest::newRow("--sink inf") << text + QStringList{"--sink", "inf"}
                                << "--sink must be a number, not 'inf'";
    QTest::newRow("--sink nan") << text + QStringList{"--sink", "nan"}
                                << "--sink must be a number, not 'nan'";
    QTest::newRow("--sink with --axis queries")
        << text + QStringList{"--sink", "0", "--axis", "queries"}
        << "a sink is one more key in each row: it needs the softmax over the keys";
    QTest::newRow("--sink with --axis batch")
        << text + QStringList{"--sink", "1.5", "--axis", "batch"}
        << "a sink is one more key in each row";
    QTest::newRow("--alibi maybe")
        << text + QStringList{"--alibi", "maybe"} << "--alibi must be on|off, not 'maybe'";
    QTest::newRow("empty --text") << QStringList{"compute", "--text", ""} << "no text";
    QTest::newRow("whitespace-only --text")
        << QStringList{"compute", "--text", " \t  "} << "no text";
    QTest::newRow("blank lines --text") << QStringList{"compute", "--text", "\n \n"} << "no text";
    QTest::newRow("neither --text nor --preset") << QStringList{"compute"} << "no text";
    QTest::newRow("--preset nosuch")
        << QStringList{"compute", "--preset", "nosuch"} << "--preset must be article|saturation|";
    QTest::newRow("--json ''") << text + QStringList{"--json", ""} << "--json needs a file name";
}

void TestCliErrors::badInput()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, keyword);
    // A --json file up front: bad input must not create it.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    if (arguments.first() == "compute")
        arguments = arguments.mid(0, 1) + QStringList{"--json", dir.filePath("out.json")} +
                    arguments.mid(1);

    const Run run = attnscope(arguments);
    QCOMPARE(run.exitCode, 2);
    const QByteArray problem = oneErrorLine(run.err, keyword);
    QVERIFY2(problem.isEmpty(), problem.constData());
    QCOMPARE(run.out, QByteArray());
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::Hidden),
             QStringList());
}

void TestCliErrors::invalidUtf8_data()
{
    // printf formats: QProcess's arguments are QStrings and cannot carry invalid UTF-8.
    QTest::addColumn<QString>("printf");
    QTest::addColumn<QString>("keyword");
    QTest::newRow("ff fe") << "\\377\\376"
                           << "invalid UTF-8 at byte 0";
    QTest::newRow("after a word") << "abc \\377"
                                  << "invalid UTF-8 at byte 4";
    QTest::newRow("truncated") << "caf\\303"
                               << "invalid UTF-8 at byte 3";
    QTest::newRow("overlong slash") << "\\300\\257"
                                    << "invalid UTF-8 at byte 0";
    QTest::newRow("surrogate") << "a\\355\\240\\200"
                               << "invalid UTF-8 at byte 1";
    QTest::newRow("second line") << "ok\\nno \\377"
                                 << "invalid UTF-8 at byte 6";
}

void TestCliErrors::invalidUtf8()
{
    QFETCH(QString, printf);
    QFETCH(QString, keyword);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const Run run = shell(R"sh("$0" compute --json "$1" --text "$(printf "$2")")sh",
                          {dir.filePath("out.json"), printf});
    QCOMPARE(run.exitCode, 2);
    const QByteArray problem = oneErrorLine(run.err, keyword);
    QVERIFY2(problem.isEmpty(), problem.constData());
    QCOMPARE(run.out, QByteArray());
    QVERIFY(QDir(dir.path()).isEmpty());

    // The same road carries valid bytes: "caf\303\251" is "café".
    const Run valid = shell(R"sh("$0" compute --json - --text "$(printf 'caf\303\251')")sh");
    QCOMPARE(valid.exitCode, 0);
    QVERIFY2(valid.out.contains("\"café\""), valid.out.left(200).constData());
}

void TestCliErrors::writeFailure_data()
{
    QTest::addColumn<QString>("target"); // "%1" is the temporary folder
    QTest::addColumn<QString>("keyword");
    QTest::addColumn<QStringList>("before"); // entries of the folder before and after

    QTest::newRow("folder does not exist") << "%1/missing/out.json"
                                           << "cannot write %1/missing/out.json" << QStringList();
    QTest::newRow("target is a folder") << "%1/out.json"
                                        << "cannot write %1/out.json" << QStringList{"out.json"};
    QTest::newRow("/proc/version") << "/proc/version"
                                   << "cannot write /proc/version" << QStringList();
}

void TestCliErrors::writeFailure()
{
    QFETCH(QString, target);
    QFETCH(QString, keyword);
    QFETCH(QStringList, before);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    for (const QString& folder : before)
        QVERIFY(QDir(dir.path()).mkdir(folder));
    auto inFolder = [&](const QString& text) {
        return text.contains("%1") ? text.arg(dir.path()) : text;
    };
    target = inFolder(target);

    const Run run = attnscope({"compute", "--preset", "article", "--json", target});
    QCOMPARE(run.exitCode, 1);
    const QByteArray problem = oneErrorLine(run.err, inFolder(keyword));
    QVERIFY2(problem.isEmpty(), problem.constData());
    QCOMPARE(run.out, QByteArray());
    // No partial file and no temporary file beside the target.
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::Hidden),
             before);
    for (const QString& folder : before)
        QVERIFY(QDir(dir.filePath(folder))
                    .isEmpty(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::Hidden));
}

void TestCliErrors::fullStandardOutput_data()
{
    QTest::addColumn<QString>("json"); // the --json value, or empty for the text report
    QTest::newRow("text report") << "";
    QTest::newRow("--json -") << "-";
}

void TestCliErrors::fullStandardOutput()
{
    // A report that cannot be written is a write failure, not a success.
    QFETCH(QString, json);
    if (!QFileInfo::exists("/dev/full"))
        QSKIP("no /dev/full here");
    const Run run = json.isEmpty()
                        ? shell(R"("$0" compute --preset article > /dev/full)")
                        : shell(R"("$0" compute --preset article --json "$1" > /dev/full)", {json});
    QCOMPARE(run.exitCode, 1);
    const QByteArray problem = oneErrorLine(run.err, "cannot write to standard output");
    QVERIFY2(problem.isEmpty(), problem.constData());
}

QTEST_GUILESS_MAIN(TestCliErrors)
#include "tst_clierrors.moc"
