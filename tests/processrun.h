// Running the attnscope binary (or a shell around it) from a test: its exit status and
// both outputs, or a note in `err` when it did not finish normally.
#pragma once

#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace attn::test {

struct Run {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

// Starts `process` (program and arguments set) and waits at most `timeoutMs`.
inline Run finish(QProcess& process, int timeoutMs)
{
    process.start();
    Run run;
    if (!process.waitForFinished(timeoutMs) || process.exitStatus() != QProcess::NormalExit) {
        run.err = "the process did not finish normally: " + process.errorString().toUtf8();
        return run;
    }
    run.exitCode = process.exitCode();
    run.out = process.readAllStandardOutput();
    run.err = process.readAllStandardError();
    return run;
}

// Runs `program` with `arguments` in `directory` (empty: the current one); without a
// display when `headless`, as a batch job on a server would.
inline Run runProgram(const QString& program, const QStringList& arguments, int timeoutMs,
                      const QString& directory = {}, bool headless = false)
{
    QProcess process;
    if (headless) {
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
            environment.remove(QString::fromLatin1(name));
        process.setProcessEnvironment(environment);
    }
    if (!directory.isEmpty())
        process.setWorkingDirectory(directory);
    process.setProgram(program);
    process.setArguments(arguments);
    return finish(process, timeoutMs);
}

} // namespace attn::test
