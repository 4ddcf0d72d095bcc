// writeAtomically, the one writer of the command line's and the window's files: what it
// leaves on disk, and the failure (path and errno) the window words in its language.
#include "filebytes.h"
#include "io/atomicwrite.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

using namespace attn;
using attn::test::readAll;

class TestAtomicWrite : public QObject {
    Q_OBJECT

private slots:
    void writes();
    void keepsWhatItReplaces();
    void failures_data();
    void failures();
};

namespace {} // namespace

void TestAtomicWrite::writes()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("figure.png"));
    QVERIFY(!writeAtomically(path.toStdString(), "first"));
    QVERIFY(!writeAtomically(path.toStdString(), std::string_view("\0second", 7)));
    QCOMPARE(readAll(path), QByteArray("\0second", 7));
    // No temporary file is left, and the file has a new file's permissions.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("figure.png")});
    const mode_t mask = ::umask(0);
    ::umask(mask);
    struct stat status {};
    QCOMPARE(::stat(QFile::encodeName(path).constData(), &status), 0);
    QCOMPARE(status.st_mode & 0777, 0666 & ~mask);
}

// As QSaveFile did for the window: a replaced file keeps its permissions, and a link is
// written through rather than replaced by a file.
void TestAtomicWrite::keepsWhatItReplaces()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("private.json"));
    QVERIFY(!writeAtomically(path.toStdString(), "old"));
    QVERIFY(::chmod(QFile::encodeName(path).constData(), 0600) == 0);
    const QString link = dir.filePath(QStringLiteral("link.json"));
    QVERIFY(QFile::link(path, link));

    QVERIFY(!writeAtomically(link.toStdString(), "new"));
    QVERIFY(QFileInfo(link).isSymLink());
    QCOMPARE(readAll(path), QByteArray("new"));
    struct stat status {};
    QCOMPARE(::stat(QFile::encodeName(path).constData(), &status), 0);
    QCOMPARE(status.st_mode & 0777, mode_t(0600));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::System),
             (QStringList{QStringLiteral("link.json"), QStringLiteral("private.json")}));
}

void TestAtomicWrite::failures_data()
{
    QTest::addColumn<QString>("target"); // in a folder holding "existing" and "folder/"
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("message");
    QTest::newRow("into a missing folder")
        << "missing/out.json" << ENOENT << "cannot write %1/missing/out.json: %2";
    QTest::newRow("into a file used as a folder")
        << "existing/out.json" << ENOTDIR << "cannot write %1/existing/out.json: %2";
    QTest::newRow("onto a folder") << "folder" << EISDIR << "cannot write %1/folder: %2";
}

void TestAtomicWrite::failures()
{
    QFETCH(QString, target);
    QFETCH(int, code);
    QFETCH(QString, message);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("folder")));
    const QString existing = dir.filePath(QStringLiteral("existing"));
    QVERIFY(!writeAtomically(existing.toStdString(), "kept"));

    const std::string path = dir.filePath(target).toStdString();
    const std::optional<WriteFailure> failure = writeAtomically(path, "new");
    QVERIFY(failure);
    QCOMPARE(failure->path, path);
    QCOMPARE(failure->code, code);
    const QString expected = message.arg(dir.path(), QString::fromLocal8Bit(std::strerror(code)));
    QCOMPARE(QString::fromStdString(failureMessage(*failure)), expected);
    QCOMPARE(QString::fromStdString(writeFileAtomically(path, "new")), expected);
    // Nothing is left behind, and what was there stays as it was.
    QCOMPARE(readAll(existing), QByteArray("kept"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("existing")});
    QVERIFY(QDir(dir.filePath(QStringLiteral("folder"))).isEmpty());
}

QTEST_GUILESS_MAIN(TestAtomicWrite)
#include "tst_atomicwrite.moc"
