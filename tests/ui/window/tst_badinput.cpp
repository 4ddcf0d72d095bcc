// Bad input, one row per case, each held to its documented behaviour: accepted with
// sound numbers, or refused with one clear line naming the problem — never a crash, a
// changed previous state or a damaged file. The README's table of these cases follows
// the rows of this file.
//
// Three roads in: the engine (core), the command line (the real binary, as a user runs
// it) and session files (the ui functions the window uses).
//
// Legend: B sequences, T tokens each, C = d_model, H heads.
#include "engine/engine.h"
#include "formats/commandline.h"
#include "processrun.h"
#include "session.h"
#include "sessionfiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

#include <cmath>
#include <limits>

using namespace attn;
using namespace attn::ui;

namespace {

// What an accepted row checks besides sound weights.
enum class Check {
    Refused,   // the row expects an InputError
    Sound,     // finite probabilities, every row summing to 1
    OneToken,  // T = 1: the only weight is exactly 1
    Padded,    // the keys of <pad> tokens get weight 0
    Saturated, // every row's largest weight ≥ 0.99
    Uniform,   // every weight 1/T
};

// A file a row creates in its temporary folder before it runs: `bytes`, extended by a
// hole to `size` bytes (a sparse file) when size is larger.
struct File {
    QString name;
    QByteArray bytes;
    qint64 size = 0;
};
using Files = QList<File>;

} // namespace

Q_DECLARE_METATYPE(Check)
Q_DECLARE_METATYPE(Files)

namespace {

constexpr int kTimeoutMs = 300'000; // the sanitizer build is slow

QByteArray words(int count, const char* word = "w")
{
    QByteArrayList list;
    for (int k = 0; k < count; ++k)
        list << word;
    return list.join(' ');
}

// "d-model=4096", "heads=16", "temperature=1e-6", "seed=…", "tokenizer=chars".
Config configFrom(const QStringList& settings)
{
    Config c;
    for (const QString& setting : settings) {
        const QString key = setting.section(u'=', 0, 0);
        const QString value = setting.section(u'=', 1);
        if (key == u"d-model")
            c.dModel = value.toInt();
        else if (key == u"heads")
            c.heads = value.toInt();
        else if (key == u"temperature")
            c.temperature = value.toFloat();
        else if (key == u"seed")
            c.seed = value.toULongLong();
        else if (key == u"tokenizer")
            c.tokenizer = *fromString<TokenizerMode>(value.toStdString());
        else
            qFatal("unknown setting %s", qPrintable(key));
    }
    return c;
}

// Empty when every weight of `r` is a finite probability and every row sums to 1
// (the default softmax over the keys, masked before it); else the first offence.
QByteArray soundWeights(const Result& r)
{
    for (int b = 0; b < r.batch(); ++b)
        for (int h = 0; h < r.heads(); ++h) {
            const Matrix& p = r.weights->at(b, h);
            for (int i = 0; i < p.rows(); ++i) {
                for (int j = 0; j < p.cols(); ++j)
                    if (!(p(i, j) >= 0 && p(i, j) <= 1))
                        return QStringLiteral("weights[%1][%2][%3][%4] = %5")
                            .arg(b)
                            .arg(h)
                            .arg(i)
                            .arg(j)
                            .arg(double(p(i, j)))
                            .toUtf8();
                if (const float sum = p.row(i).sum(); std::abs(sum - 1) > 1e-4f)
                    return QStringLiteral("row %1 of weights[%2][%3] sums to %4")
                        .arg(i)
                        .arg(b)
                        .arg(h)
                        .arg(double(sum))
                        .toUtf8();
            }
        }
    return {};
}

// Empty when `r` passes `check`; else why not.
QByteArray checkResult(const Result& r, Check check)
{
    if (const QByteArray problem = soundWeights(r); !problem.isEmpty())
        return problem;
    const int T = r.length();
    for (int b = 0; b < r.batch(); ++b)
        for (int h = 0; h < r.heads(); ++h) {
            const Matrix& p = r.weights->at(b, h);
            for (int i = 0; i < T; ++i) {
                if (check == Check::Saturated && T > 1 && p.row(i).maxCoeff() < 0.99f)
                    return "row " + QByteArray::number(i) + " is not saturated: largest weight " +
                           QByteArray::number(p.row(i).maxCoeff());
                for (int j = 0; j < T; ++j) {
                    if (check == Check::Uniform && std::abs(p(i, j) - 1.0f / T) > 1e-5f)
                        return "weight [" + QByteArray::number(i) + "][" + QByteArray::number(j) +
                               "] = " + QByteArray::number(p(i, j)) + ", not 1/T";
                    if (check == Check::Padded && r.tokens->isPad(b, j) && p(i, j) != 0)
                        return "the <pad> key " + QByteArray::number(j) + " of sequence " +
                               QByteArray::number(b) + " has weight " + QByteArray::number(p(i, j));
                }
            }
            if (check == Check::OneToken && (T != 1 || p(0, 0) != 1.0f))
                return "one token must attend to itself with weight 1";
        }
    return {};
}

using attn::test::Run;

// Runs `script` with /bin/sh: $0 is the attnscope binary, $1 the row's folder.
Run shell(const QString& script, const QString& folder)
{
    return attn::test::runProgram(
        QStringLiteral("/bin/sh"),
        {QStringLiteral("-c"), script, QStringLiteral(ATTN_BINARY), folder}, kTimeoutMs);
}

void createFiles(const QString& folder, const Files& files)
{
    for (const File& f : files) {
        QFile file(QDir(folder).filePath(f.name));
        QVERIFY(file.open(QIODevice::WriteOnly));
        QCOMPARE(file.write(f.bytes), f.bytes.size());
        if (f.size > f.bytes.size())
            QVERIFY(file.resize(f.size));
    }
}

// Empty when `folder` holds exactly `files`, unchanged, and the entries `created`.
QByteArray folderProblems(const QString& folder, const Files& files, QStringList created)
{
    for (const File& f : files) {
        QFile file(QDir(folder).filePath(f.name));
        if (!file.open(QIODevice::ReadOnly))
            return f.name.toUtf8() + " is gone";
        if (file.size() != std::max(f.size, qint64(f.bytes.size())) ||
            file.read(f.bytes.size()) != f.bytes)
            return f.name.toUtf8() + " was changed";
        created << f.name;
    }
    QStringList entries =
        QDir(folder).entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::Hidden);
    entries.sort();
    created.sort();
    if (entries != created)
        return "the folder holds " + entries.join(u' ').toUtf8() + ", expected " +
               created.join(u' ').toUtf8();
    return {};
}

// A valid session file, and the same cut short, from a newer version, and so on.
QByteArray validSession()
{
    Session session;
    session.request.text = "the cat sat on the mat";
    return sessionToJson(session);
}

QByteArray newerSession()
{
    return validSession().replace("\"version\": 1", "\"version\": 2");
}

} // namespace

class TestBadInput : public QObject {
    Q_OBJECT

private slots:
    void engine_data();
    void engine();
    void moreMemoryThanTheMachineHas();
    void commandLine_data();
    void commandLine();
    void sessionFiles_data();
    void sessionFiles();
    void savingSessions_data();
    void savingSessions();
};

void TestBadInput::engine_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QStringList>("settings");
    QTest::addColumn<Check>("check");
    QTest::addColumn<int>("batch"); // B and T of an accepted row
    QTest::addColumn<int>("length");
    QTest::addColumn<QString>("message"); // part of the refusal

    const QStringList none;
    const QString empty = QStringLiteral("the text is empty: type a sentence");
    const QStringList small = {"d-model=8", "heads=1"};
    QTest::newRow("empty text") << QByteArray() << none << Check::Refused << 0 << 0 << empty;
    QTest::newRow("white space only")
        << QByteArray(" \t\r\n \xE3\x80\x80\f\n") << none << Check::Refused << 0 << 0 << empty;
    QTest::newRow("control characters only")
        << QByteArray("\x01\x1b\x7f") << none << Check::Refused << 0 << 0 << empty;
    QTest::newRow("NUL bytes only")
        << QByteArray("\0\0\0", 3) << none << Check::Refused << 0 << 0 << empty;
    QTest::newRow("NUL bytes between words: separators")
        << QByteArray("a\0b\0\0c", 6) << none << Check::Sound << 1 << 3 << QString();
    QTest::newRow("one token") << QByteArray("cat") << none << Check::OneToken << 1 << 1
                               << QString();
    QTest::newRow("one very long token (100 000 bytes)")
        << QByteArray(100'000, 'a') << none << Check::OneToken << 1 << 1 << QString();
    QTest::newRow("4096 tokens: the limit")
        << words(kMaxTokens) << small << Check::Sound << 1 << kMaxTokens << QString();
    QTest::newRow("4097 tokens") << words(kMaxTokens + 1) << none << Check::Refused << 0 << 0
                                 << "line 1 has 4097 tokens, more than the limit of 4096 per "
                                    "sequence";
    QTest::newRow("4097 tokens on line 3") << "a\n\n" + words(kMaxTokens + 1) << none
                                           << Check::Refused << 0 << 0 << "line 3 has 4097 tokens";
    QTest::newRow("ten lines of different lengths")
        << QByteArray("1\n1 2 3\n1 2\n1 2 3 4 5 6 7\n1\n1 2 3 4\n1 2 3 4 5 6 7 8 9 10\n1 2 "
                      "3\n1 2 3 4 5\n1 2")
        << none << Check::Padded << 10 << 10 << QString();
    QByteArray lines64, lines65;
    for (int k = 0; k < kMaxSequences; ++k)
        lines64 += "line\n";
    lines65 = lines64 + "one more";
    QTest::newRow("64 lines: the limit") << lines64 << none << Check::Sound << 64 << 1 << QString();
    QTest::newRow("65 lines") << lines65 << none << Check::Refused << 0 << 0
                              << "the text has more than 64 non-blank lines";
    const QByteArray sentence = "the cat sat on the mat";
    QTest::newRow("d_model 1") << sentence << QStringList{"d-model=1", "heads=1"} << Check::Sound
                               << 1 << 6 << QString();
    QTest::newRow("d_model 4096, 16 heads") << sentence << QStringList{"d-model=4096", "heads=16"}
                                            << Check::Sound << 1 << 6 << QString();
    QTest::newRow("d_model 4096, 4096 heads (d_k = 1)")
        << sentence << QStringList{"d-model=4096", "heads=4096"} << Check::Sound << 1 << 6
        << QString();
    QTest::newRow("d_model 0") << sentence << QStringList{"d-model=0", "heads=1"} << Check::Refused
                               << 0 << 0 << "d_model must be between 1 and 4096, not 0";
    QTest::newRow("d_model 4097") << sentence << QStringList{"d-model=4097", "heads=1"}
                                  << Check::Refused << 0 << 0
                                  << "d_model must be between 1 and 4096, not 4097";
    QTest::newRow("heads not dividing d_model")
        << sentence << QStringList{"d-model=64", "heads=3"} << Check::Refused << 0 << 0
        << "heads (3) must divide d_model (64)";
    QTest::newRow("more heads than d_model")
        << sentence << QStringList{"d-model=16", "heads=32"} << Check::Refused << 0 << 0
        << "heads must be between 1 and d_model (16), not 32";
    QTest::newRow("τ 1e-6: saturated")
        << sentence << QStringList{"temperature=1e-6"} << Check::Saturated << 1 << 6 << QString();
    QTest::newRow("τ 1e6: uniform")
        << sentence << QStringList{"temperature=1e6"} << Check::Uniform << 1 << 6 << QString();
    QTest::newRow("τ 0") << sentence << QStringList{"temperature=0"} << Check::Refused << 0 << 0
                         << "temperature must be a positive number";
    QTest::newRow("τ 1e-7") << sentence << QStringList{"temperature=1e-7"} << Check::Refused << 0
                            << 0 << "temperature must be between 1e-06 and 1e+06";
    QTest::newRow("τ nan") << sentence << QStringList{"temperature=nan"} << Check::Refused << 0 << 0
                           << "temperature must be a positive number";
    QTest::newRow("seed 0") << sentence << QStringList{"seed=0"} << Check::Sound << 1 << 6
                            << QString();
    QTest::newRow("seed 2^64 - 1") << sentence << QStringList{"seed=18446744073709551615"}
                                   << Check::Sound << 1 << 6 << QString();
    QTest::newRow("invalid UTF-8")
        << QByteArray("abc \xff") << none << Check::Refused << 0 << 0 << "invalid UTF-8 at byte 4";
    QTest::newRow("invalid UTF-8 on line 2: offset in the whole text")
        << QByteArray("ok\nno \xff") << none << Check::Refused << 0 << 0
        << "invalid UTF-8 at byte 6";
    QTest::newRow("overlong UTF-8")
        << QByteArray("\xc0\xaf") << none << Check::Refused << 0 << 0 << "invalid UTF-8 at byte 0";
    QTest::newRow("UTF-16 surrogate in UTF-8")
        << QByteArray("a\xed\xa0\x80") << none << Check::Refused << 0 << 0
        << "invalid UTF-8 at byte 1";
}

void TestBadInput::engine()
{
    QFETCH(QByteArray, text);
    QFETCH(QStringList, settings);
    QFETCH(Check, check);
    QFETCH(int, batch);
    QFETCH(int, length);
    QFETCH(QString, message);

    AttentionEngine engine;
    const Result before = engine.compute(Request{"the previous sentence", Config{}, {}, {}});
    const Request request{text.toStdString(), configFrom(settings), {}, {}};
    try {
        const Result r = engine.compute(request);
        QVERIFY2(check != Check::Refused, "accepted, but it must be refused");
        QVERIFY(r.valid());
        QCOMPARE(r.batch(), batch);
        QCOMPARE(r.length(), length);
        const QByteArray problem = checkResult(r, check);
        QVERIFY2(problem.isEmpty(), problem.constData());
    } catch (const InputError& error) {
        QVERIFY2(check == Check::Refused, error.what());
        const QString what = QString::fromUtf8(error.what());
        QVERIFY2(what.contains(message), error.what());
        QVERIFY2(!what.contains(u'\n'), "the message is more than one line");
        // The previous result stays, every stage of it.
        QCOMPARE(engine.result().request, before.request);
        QVERIFY(engine.result().weights == before.weights);
        QVERIFY(engine.result().stats == before.stats);
    }
}

void TestBadInput::moreMemoryThanTheMachineHas()
{
    // 64 lines of 4096 tokens with 64 heads: each (B, H, T, T) tensor alone is 256 GiB.
    // The engine refuses it before allocating any of it, and the estimate must say so
    // before this test dares to ask.
    QByteArray text;
    for (int b = 0; b < kMaxSequences; ++b)
        text += words(kMaxTokens) + '\n';
    const Config config = configFrom({"d-model=64", "heads=64"});
    QVERIFY(estimatedBytes(kMaxSequences, kMaxTokens, 64, 64) > memoryLimitBytes());
    AttentionEngine engine;
    try {
        (void)engine.compute(Request{text.toStdString(), config, {}, {}});
        QFAIL("accepted, but it needs more memory than the machine has");
    } catch (const InputError& error) {
        QVERIFY2(QString::fromUtf8(error.what()).contains("GiB of memory"), error.what());
    }
    QVERIFY(!engine.result().valid());
}

void TestBadInput::commandLine_data()
{
    QTest::addColumn<QString>("script"); // $0 is attnscope, $1 the row's folder
    QTest::addColumn<Files>("files");    // created before, intact after
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message"); // part of the one error line; %1 is the folder
    QTest::addColumn<QStringList>("created");

    const Files none;
    const QStringList nothing;
    // A full disk: write() fails with EFBIG once a file passes one block. The signal
    // SIGXFSZ, which would kill the process instead, is ignored, and stays ignored
    // across exec.
    const QString fullDisk = QStringLiteral("trap '' XFSZ; ulimit -f 1; exec ");
    const QString compute = QStringLiteral("\"$0\" compute --text 'the cat sat' ");
    const Files figure = {{"figure.png", "the previous figure"}};

    QTest::newRow("empty text") << R"sh("$0" compute --text '')sh" << none << 2
                                << "no text: give a "
                                   "sentence"
                                << nothing;
    QTest::newRow("white space only") << R"sh("$0" compute --text "$(printf ' \t\r\n\f ')")sh"
                                      << none << 2 << "no text" << nothing;
    QTest::newRow("ideographic space only") << R"sh("$0" compute --text '　')sh" << none << 2
                                            << "the text is empty: type a sentence" << nothing;
    QTest::newRow("4097 tokens")
        << R"sh("$0" compute --text "$(yes w | head -n 4097 | tr '\n' ' ')")sh" << none << 2
        << "line 1 has 4097 tokens, more than the limit of 4096 per sequence" << nothing;
    QTest::newRow("invalid UTF-8") << R"sh("$0" compute --text "$(printf 'abc \377')")sh" << none
                                   << 2 << "invalid UTF-8 at byte 4" << nothing;
    QTest::newRow("one very long token (100 000 bytes)")
        << R"sh("$0" compute --text "$(head -c 100000 /dev/zero | tr '\0' a)" > /dev/null)sh"
        << none << 0 << QString() << nothing;
    QTest::newRow("d_model 4097") << compute + "--d-model 4097" << none << 2
                                  << "--d-model must be between 1 and 4096, not 4097" << nothing;
    QTest::newRow("heads not dividing d_model") << compute + "--d-model 64 --heads 3" << none << 2
                                                << "heads (3) must divide d_model (64)" << nothing;
    QTest::newRow("τ 1e-6") << compute + "--temperature 1e-6" << none << 0 << QString() << nothing;
    QTest::newRow("τ 1e6") << compute + "--temperature 1e6" << none << 0 << QString() << nothing;
    QTest::newRow("τ 1e-7") << compute + "--temperature 1e-7" << none << 2
                            << "--temperature must be between 1e-06 and 1e+06, not 1e-7" << nothing;
    QTest::newRow("seed 0") << compute + "--seed 0" << none << 0 << QString() << nothing;
    QTest::newRow("seed 2^64 - 1")
        << compute + "--seed 18446744073709551615" << none << 0 << QString() << nothing;
    QTest::newRow("seed 2^64") << compute + "--seed 18446744073709551616" << none << 2
                               << "--seed must be a whole number from 0 to 18446744073709551615"
                               << nothing;

    QTest::newRow("export into a missing folder")
        << R"sh("$0" export --preset article --out "$1/missing/figure.png")sh" << none << 1
        << "cannot write %1/missing/figure.png" << nothing;
    QTest::newRow("export into a file used as a folder")
        << R"sh("$0" export --preset article --out "$1/figure.png/inside.png")sh" << figure << 1
        << "cannot write %1/figure.png/inside.png: Not a directory" << nothing;
    QTest::newRow("export a figure onto a full disk")
        << fullDisk + R"sh("$0" export --preset article --out "$1/figure.png")sh" << none << 1
        << "cannot write %1/figure.png: File too large" << nothing;
    QTest::newRow("export over an existing file onto a full disk")
        << fullDisk + R"sh("$0" export --preset article --out "$1/figure.png")sh" << figure << 1
        << "cannot write %1/figure.png: File too large" << nothing;
    QTest::newRow("compute --json onto a full disk")
        << fullDisk + R"sh("$0" compute --preset article --json "$1/numbers.json")sh" << none << 1
        << "cannot write %1/numbers.json: File too large" << nothing;
    QTest::newRow("export, for comparison: the same with room")
        << R"sh("$0" export --preset article --out "$1/figure.png")sh" << none << 0 << QString()
        << QStringList{"figure.png"};

    // A damaged --session: refused before anything is written; the target stays.
    const QString session =
        QStringLiteral(R"sh("$0" export --session "$1/lesson.attnscope" --out "$1/figure.png")sh");
    auto withSession = [&](const QByteArray& bytes, qint64 size = 0) {
        return Files{{"lesson.attnscope", bytes, size}, figure.first()};
    };
    QTest::newRow("session truncated")
        << session << withSession(validSession().left(40)) << 2
        << "%1/lesson.attnscope: The file is not valid JSON" << nothing;
    QTest::newRow("session of garbage")
        << session << withSession(QByteArray("\x89PNG\r\n\x1a\n\0\0garbage", 17)) << 2
        << "%1/lesson.attnscope: The file is not valid JSON" << nothing;
    QTest::newRow("session larger than 64 MiB (sparse)")
        << session << withSession("{", kMaxSessionBytes + 1) << 2
        << "%1/lesson.attnscope: The file is larger than 64 MiB, too large to be a session."
        << nothing;
    QTest::newRow("session from a newer version")
        << session << withSession(newerSession()) << 2
        << "%1/lesson.attnscope: This session was saved by a newer AttnScope (format 2); this "
           "version reads format 1."
        << nothing;
    QTest::newRow("session missing")
        << session << figure << 2 << "Cannot open %1/lesson.attnscope" << nothing;
}

void TestBadInput::commandLine()
{
    QFETCH(QString, script);
    QFETCH(Files, files);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    QFETCH(QStringList, created);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    createFiles(dir.path(), files);
    if (QTest::currentTestFailed())
        return;
    const Run run = shell(script, dir.path());
    QVERIFY2(run.exitCode == exitCode, run.err.constData());
    if (exitCode != 0) {
        // One line, "attnscope: <problem>", and nothing on standard output.
        const QString err = QString::fromUtf8(run.err);
        QVERIFY2(err.startsWith("attnscope: ") && err.endsWith(u'\n') && err.count(u'\n') == 1,
                 run.err.constData());
        QVERIFY2(err.contains(message.contains("%1") ? message.arg(dir.path()) : message),
                 run.err.constData());
        QCOMPARE(run.out, QByteArray());
    }
    // No partial file, no temporary file, every existing file as it was.
    const QByteArray problem = folderProblems(dir.path(), files, created);
    QVERIFY2(problem.isEmpty(), problem.constData());
}

void TestBadInput::sessionFiles_data()
{
    QTest::addColumn<QString>("path"); // %1 is the row's folder
    QTest::addColumn<Files>("files");
    QTest::addColumn<QString>("message");

    const QString damaged = QStringLiteral("%1/damaged.attnscope");
    auto file = [](const QByteArray& bytes, qint64 size = 0) {
        return Files{{"damaged.attnscope", bytes, size}};
    };
    QTest::newRow("truncated") << damaged << file(validSession().chopped(30))
                               << "The file is not valid JSON";
    QTest::newRow("garbage") << damaged << file(QByteArray("\x01\x02\xff\xfe garbage", 12))
                             << "The file is not valid JSON";
    QTest::newRow("empty") << damaged << file(QByteArray()) << "The file is empty.";
    QTest::newRow("larger than 64 MiB (sparse)")
        << damaged << file("{", kMaxSessionBytes + 1)
        << "The file is larger than 64 MiB, too large to be a session.";
    QTest::newRow("nested a million deep")
        << damaged << file(QByteArray(1'000'000, '[')) << "The file is not valid JSON";
    QTest::newRow("from a newer version")
        << damaged << file(newerSession())
        << "This session was saved by a newer AttnScope (format 2); this version reads format 1.";
    QTest::newRow("not a session") << damaged << file(R"sh({"format": "something-else"})sh")
                                   << "The file is not an AttnScope session";
    QTest::newRow("heads not dividing d_model")
        << damaged << file(validSession().replace("\"heads\": 4", "\"heads\": 3"))
        << "heads (3) must divide d_model (64)";
    QTest::newRow("a folder") << QStringLiteral("%1/folder.attnscope") << Files{}
                              << "Cannot open %1/folder.attnscope";
    QTest::newRow("missing") << damaged << Files{} << "Cannot open %1/damaged.attnscope";
    if (QFileInfo::exists("/dev/zero"))
        QTest::newRow("an endless device") << QStringLiteral("/dev/zero") << Files{}
                                           << "/dev/zero: The file is larger than 64 MiB";
}

void TestBadInput::sessionFiles()
{
    QFETCH(QString, path);
    QFETCH(Files, files);
    QFETCH(QString, message);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const Files good = {{"good.attnscope", validSession()}};
    createFiles(dir.path(), good + files);
    if (path.contains("folder.attnscope"))
        QVERIFY(QDir(dir.path()).mkdir("folder.attnscope"));
    if (path.contains("%1"))
        path = path.arg(dir.path());

    // The window's state: a session opened before.
    QSettings settings(dir.filePath("settings.ini"), QSettings::IniFormat);
    QWidget window;
    int applied = 0;
    SessionFiles sessions(
        &window, &settings, [] { return Session{}; }, [&applied](const Session&) { ++applied; });
    QString error;
    QVERIFY2(sessions.open(dir.filePath("good.attnscope"), &error), qPrintable(error));
    const QStringList recent = sessions.recentFiles();

    QVERIFY(!sessions.open(path, &error));
    QVERIFY2(error.contains(message.contains("%1") ? message.arg(dir.path()) : message),
             qPrintable(error));
    QVERIFY2(error.contains(QDir::toNativeSeparators(path)), qPrintable(error));
    QVERIFY2(!error.contains(u'\n'), qPrintable(error));
    QCOMPARE(applied, 1);
    QCOMPARE(sessions.currentPath(), dir.filePath("good.attnscope"));
    QCOMPARE(sessions.recentFiles(), recent);

    // Every file as it was (the settings beside them hold the recent files).
    QStringList created = {"settings.ini"};
    if (path.contains("folder.attnscope"))
        created << "folder.attnscope";
    settings.sync();
    const QByteArray problem = folderProblems(dir.path(), good + files, created);
    QVERIFY2(problem.isEmpty(), problem.constData());
}

void TestBadInput::savingSessions_data()
{
    QTest::addColumn<QString>("path"); // %1 is the row's folder
    QTest::addColumn<QString>("message");
    QTest::newRow("into a missing folder") << "%1/missing/lesson.attnscope"
                                           << "Cannot save %1/missing/lesson.attnscope";
    QTest::newRow("into a file used as a folder")
        << "%1/good.attnscope/lesson.attnscope"
        << "Cannot save %1/good.attnscope/lesson.attnscope";
    QTest::newRow("onto a folder") << "%1/folder"
                                   << "Cannot save %1/folder";
}

void TestBadInput::savingSessions()
{
    QFETCH(QString, path);
    QFETCH(QString, message);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const Files good = {{"good.attnscope", validSession()}};
    createFiles(dir.path(), good);
    QVERIFY(QDir(dir.path()).mkdir("folder"));

    QSettings settings(dir.filePath("settings.ini"), QSettings::IniFormat);
    QWidget window;
    Session current;
    current.request.text = "a new sentence";
    SessionFiles sessions(
        &window, &settings, [&current] { return current; }, [](const Session&) {});
    QString error;
    QVERIFY2(sessions.open(dir.filePath("good.attnscope"), &error), qPrintable(error));

    QVERIFY(!sessions.saveTo(path.arg(dir.path()), &error));
    QVERIFY2(error.startsWith(message.arg(dir.path())), qPrintable(error));
    QVERIFY2(!error.contains(u'\n'), qPrintable(error));
    QCOMPARE(sessions.currentPath(), dir.filePath("good.attnscope"));
    settings.sync();
    const QByteArray problem = folderProblems(dir.path(), good, {"settings.ini", "folder"});
    QVERIFY2(problem.isEmpty(), problem.constData());
    QVERIFY(QDir(dir.filePath("folder")).isEmpty());
}

QTEST_MAIN(TestBadInput)
#include "tst_badinput.moc"
