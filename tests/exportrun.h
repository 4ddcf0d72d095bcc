// Running `attnscope`'s figure commands as on a machine with no display, in a directory of
// their own, and reading back the one file they must leave there.
#pragma once

#include "filebytes.h"
#include "processrun.h"

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

namespace attn::test {

inline constexpr int kExportTimeoutMs = 120'000;

inline const QString kChinese = QStringLiteral("我喜欢这个产品的设计");

// Runs attnscope in `directory` as if no display were there.
inline Run attnscope(const QStringList& arguments, const QString& directory)
{
    return attn::test::runProgram(QStringLiteral(ATTN_BINARY), arguments, kExportTimeoutMs,
                                  directory, true);
}

inline QStringList entries(const QString& directory)
{
    return QDir(directory).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden,
                                     QDir::Name);
}

// The first bytes every file of the format starts with.
inline QByteArray magic(const QString& format)
{
    if (format == u"png")
        return "\x89PNG\r\n\x1a\n";
    if (format == u"svg")
        return "<?xml";
    if (format == u"pdf")
        return "%PDF-";
    if (format == u"csv")
        return "\xef\xbb\xbf"
               "b,h,i,j,query,key";
    if (format == u"npy")
        return "\x93NUMPY";
    return "{";
}

// The text of every <text> element of an SVG, run together.
inline QString svgTexts(const QByteArray& svg)
{
    QXmlStreamReader xml(svg);
    QString texts;
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == u"text")
            texts += xml.readElementText();
    return xml.hasError() ? QString() : texts;
}

// Runs attnscope `arguments` in a new directory and returns the bytes of `file`, the one
// file it must leave there; with a quiet, successful run, and the format's first bytes.
// Else an empty array and the problem in `*problem`.
inline QByteArray writtenFigure(const QStringList& arguments, const QString& file, QString* problem)
{
    QTemporaryDir dir;
    const Run run = attnscope(arguments, dir.path());
    const QString format = file.endsWith(".png") ? "png" : file.endsWith(".svg") ? "svg" : "pdf";
    const QByteArray bytes = readAll(dir.filePath(file));
    if (run.exitCode != 0 || !run.err.isEmpty() || !run.out.isEmpty())
        *problem = QStringLiteral("exit %1: %2").arg(run.exitCode).arg(QString::fromUtf8(run.err));
    else if (entries(dir.path()) != QStringList{file}) // no temporary file either
        *problem = entries(dir.path()).join(u' ');
    else if (!bytes.startsWith(magic(format)))
        *problem = QString::fromLatin1(bytes.left(16).toHex());
    return problem->isEmpty() ? bytes : QByteArray();
}

// A refused command (data columns `arguments`, `exitCode`, `keyword`) in a directory with an
// older figure and a directory where a file is expected: one line "attnscope: …" naming
// `keyword`, the exit status, nothing on standard output, nothing written or left behind.
inline void checkRefusal()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, keyword);
    QTemporaryDir dir;
    // An older figure of the same name, and a directory where a file is expected.
    QVERIFY(QDir(dir.path()).mkdir("folder.pdf"));
    const QByteArray old = "last week's figure";
    {
        QFile file(dir.filePath("f.png"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(old);
    }
    const QStringList before = entries(dir.path());
    const Run run = attnscope(arguments, dir.path());
    QCOMPARE(run.exitCode, exitCode);
    QVERIFY2(run.err.startsWith("attnscope: ") && run.err.count('\n') == 1 &&
                 run.err.endsWith('\n'),
             run.err.constData());
    QVERIFY2(QString::fromUtf8(run.err).contains(keyword), run.err.constData());
    QCOMPARE(run.out, QByteArray());
    QCOMPARE(entries(dir.path()), before); // nothing partial, nothing temporary
    QCOMPARE(readAll(dir.filePath("f.png")), old);
}

} // namespace attn::test
