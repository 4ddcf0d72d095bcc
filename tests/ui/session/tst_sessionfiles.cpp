// Saving and loading .attnscope files: a failed save never harms the file already
// there, errors name the path (in Chinese too), and a newer version or a huge file is
// refused.
#include "sessiontest.h"

using namespace attn;
using namespace attn::ui;
using namespace Qt::StringLiterals;
using namespace attn::ui::test;

class TestSessionFiles : public QObject {
    Q_OBJECT

private slots:
    void newerVersionMessage();
    void saveAndLoad();
    void failedSaveKeepsTheOldFile_data();
    void failedSaveKeepsTheOldFile();
#ifdef Q_OS_UNIX
    void saveFailingMidwayKeepsTheOldFile();
#endif
    void loadErrorsNameThePath_data();
    void loadErrorsNameThePath();
    void loadRefusesAHugeFile();
    void systemErrorsInChinese_data();
    void systemErrorsInChinese();
    void fileErrorsInChinese_data();
    void fileErrorsInChinese();
};

void TestSessionFiles::newerVersionMessage()
{
    QString error;
    QVERIFY(!sessionFromJson(edited(setRoot(u"version"_s, 3)), &error));
    QCOMPARE(error, u"This session was saved by a newer AttnScope (format 3); this version reads "
                    "format 1."_s);
}

void TestSessionFiles::saveAndLoad()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"lesson.attnscope"_s);
    Session s = baseSession();
    s.request.config.seed = std::numeric_limits<std::uint64_t>::max();
    s.request.embeddingOverrides["cat"] = std::vector<float>(16, 0.25f);
    s.view.colormap = ColormapName::Cividis;
    QString error;
    QVERIFY2(saveSession(path, s, &error), qPrintable(error));
    QCOMPARE(readAll(path), sessionToJson(s));
    const auto loaded = loadSession(path, &error);
    QVERIFY2(loaded, qPrintable(error));
    QVERIFY(*loaded == s);
    // Saving over it replaces it, and leaves no temporary file behind.
    s.request.text = "a second lesson";
    QVERIFY2(saveSession(path, s, &error), qPrintable(error));
    QVERIFY(*loadSession(path) == s);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{u"lesson.attnscope"_s});
}

void TestSessionFiles::failedSaveKeepsTheOldFile_data()
{
    QTest::addColumn<QString>("target"); // relative to the temporary directory

    QTest::newRow("directory does not exist") << u"missing/lesson.attnscope"_s;
    QTest::newRow("path is a directory") << u"folder"_s;
}

void TestSessionFiles::failedSaveKeepsTheOldFile()
{
    QFETCH(QString, target);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QDir(dir.path()).mkdir(u"folder"_s));
    const QString existing = dir.filePath(u"lesson.attnscope"_s);
    QVERIFY(saveSession(existing, baseSession()));
    const QByteArray before = readAll(existing);

    const QString path = dir.filePath(target);
    QString error;
    Session changed = baseSession();
    changed.request.text = "changed";
    QVERIFY(!saveSession(path, changed, &error));
    QVERIFY2(error.contains(QDir::toNativeSeparators(path)), qPrintable(error));
    QVERIFY2(!error.contains(u'\n'), qPrintable(error));
    QCOMPARE(readAll(existing), before);
    QVERIFY(QFileInfo(dir.filePath(u"folder"_s)).isDir());
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{u"lesson.attnscope"_s});
}

#ifdef Q_OS_UNIX
// The file system fills up half-way through the write (simulated with a file size
// limit, which binds root too): the old file must come through byte for byte.
void TestSessionFiles::saveFailingMidwayKeepsTheOldFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"lesson.attnscope"_s);
    QVERIFY(saveSession(path, baseSession()));
    const QByteArray before = readAll(path);

    Session large = baseSession();
    large.request.text = std::string(200'000, 'a');
    QString error;
    bool saved = false;
    {
        const attn::test::FileSizeLimit limit(4096);
        QVERIFY(limit.active());
        saved = saveSession(path, large, &error);
    }

    QVERIFY(!saved);
    QVERIFY2(error.contains(QDir::toNativeSeparators(path)), qPrintable(error));
    QCOMPARE(readAll(path), before);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{u"lesson.attnscope"_s});
}
#endif

void TestSessionFiles::loadErrorsNameThePath_data()
{
    QTest::addColumn<QByteArray>("content"); // written to the file first, unless null
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("mention");

    QTest::newRow("no such file") << QByteArray() << u"absent.attnscope"_s << QString();
    QTest::newRow("a directory") << QByteArray() << u"folder"_s << QString();
    QTest::newRow("corrupt file") << QByteArray("{\"format\": \"attnscope-session\", ")
                                  << u"broken.attnscope"_s << u"not valid JSON"_s;
    QTest::newRow("empty file") << QByteArray("") << u"empty.attnscope"_s << u"empty"_s;
}

void TestSessionFiles::loadErrorsNameThePath()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, name);
    QFETCH(QString, mention);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QDir(dir.path()).mkdir(u"folder"_s));
    const QString path = dir.filePath(name);
    if (!content.isNull())
        QVERIFY(writeAll(path, content));
    QString error;
    QVERIFY(!loadSession(path, &error));
    QVERIFY2(error.contains(QDir::toNativeSeparators(path)), qPrintable(error));
    QVERIFY2(error.contains(mention), qPrintable(error));
    QVERIFY2(!error.contains(u'\n'), qPrintable(error));
}

void TestSessionFiles::loadRefusesAHugeFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"huge.attnscope"_s);
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QVERIFY(file.write(sessionToJson(baseSession())) > 0);
    QVERIFY(file.resize(kMaxSessionBytes + 1)); // sparse: takes no disk space
    file.close();
    QString error;
    QVERIFY(!loadSession(path, &error));
    QVERIFY2(error.contains(QDir::toNativeSeparators(path)), qPrintable(error));
    QVERIFY2(error.contains(u"too large"_s), qPrintable(error));
}

void TestSessionFiles::systemErrorsInChinese_data()
{
    QTest::addColumn<QString>("system"); // as QFileDevice::errorString() gives it
    QTest::addColumn<QString>("chinese");

    const auto c = [](int code) { return QString::fromLocal8Bit(std::strerror(code)); };
    QTest::newRow("EACCES") << c(EACCES) << u"没有权限（%1）"_s.arg(c(EACCES));
    QTest::newRow("EPERM") << c(EPERM) << u"没有权限（%1）"_s.arg(c(EPERM));
    QTest::newRow("ENOSPC") << c(ENOSPC) << u"磁盘已满（%1）"_s.arg(c(ENOSPC));
    QTest::newRow("ENOENT") << c(ENOENT) << u"文件或文件夹不存在（%1）"_s.arg(c(ENOENT));
    QTest::newRow("EROFS") << c(EROFS) << u"磁盘是只读的（%1）"_s.arg(c(EROFS));
    QTest::newRow("EISDIR") << c(EISDIR) << u"这是一个文件夹（%1）"_s.arg(c(EISDIR));
    QTest::newRow("Qt's own English words")
        << u"Permission denied"_s << u"没有权限（Permission denied）"_s;
    QTest::newRow("an unknown reason stays as the system says it")
        << u"Stale file handle"_s << u"Stale file handle"_s;
}

void TestSessionFiles::systemErrorsInChinese()
{
    QFETCH(QString, system);
    QFETCH(QString, chinese);

    QCOMPARE(systemErrorText(system), system); // English: the system's words alone
    Language language;
    QVERIFY(language.apply(u"zh_CN"_s));
    QCOMPARE(systemErrorText(system), chinese);
}

void TestSessionFiles::fileErrorsInChinese_data()
{
    QTest::addColumn<QString>("what");
    QTest::newRow("save a session") << u"save"_s;
    QTest::newRow("open a session") << u"open"_s;
    QTest::newRow("write a figure") << u"figure"_s;
}

void TestSessionFiles::fileErrorsInChinese()
{
    QFETCH(QString, what);

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"missing/lesson.attnscope"_s);
    Language language;
    QVERIFY(language.apply(u"zh_CN"_s));
    QString error;
    if (what == u"save")
        QVERIFY(!saveSession(path, baseSession(), &error));
    else if (what == u"open")
        QVERIFY(!loadSession(path, &error));
    else
        error = writeFigureFile(path, QByteArrayLiteral("P5\n1 1\n255\n\0"));
    const QString system = QString::fromLocal8Bit(std::strerror(ENOENT));
    QVERIFY2(error.contains(u"文件或文件夹不存在（%1）"_s.arg(system)), qPrintable(error));
    QVERIFY2(error.contains(QDir::toNativeSeparators(path)), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestSessionFiles)
#include "tst_sessionfiles.moc"
