// Running `attnscope` (or a shell around it) as the command-line tests do, and what they
// expect of a refusal; every enum option of `compute` with its spellings.
#pragma once

#include "engine/options.h"
#include "processrun.h"

#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <tuple>

namespace attn::test {

inline constexpr int kCliTimeoutMs = 120'000;

inline Run attnscope(const QStringList& arguments)
{
    QProcess process;
    process.setProgram(QStringLiteral(ATTN_BINARY));
    process.setArguments(arguments);
    return finish(process, kCliTimeoutMs);
}

// The binary without a display, as a batch job on a server would run it.
inline Run headless(const QStringList& arguments)
{
    return runProgram(QStringLiteral(ATTN_BINARY), arguments, kCliTimeoutMs, {}, true);
}

// Runs `script` with /bin/sh: $0 is the attnscope binary, $1 … are `arguments`.
inline Run shell(const QString& script, const QStringList& arguments = {})
{
    QProcess process;
    process.setProgram(QStringLiteral("/bin/sh"));
    process.setArguments(QStringList{"-c", script, QStringLiteral(ATTN_BINARY)} + arguments);
    return finish(process, kCliTimeoutMs);
}

// Empty when `err` is exactly one line "attnscope: …" holding `keyword`; else why not.
inline QByteArray oneErrorLine(const QByteArray& err, const QString& keyword)
{
    if (!err.startsWith("attnscope: ") || !err.endsWith('\n') || err.count('\n') != 1)
        return "standard error is not one line \"attnscope: …\": \"" + err + "\"";
    if (!QString::fromUtf8(err).contains(keyword))
        return "standard error \"" + err.trimmed() + "\" does not name \"" + keyword.toUtf8() +
               "\"";
    return {};
}

// Calls add(option, spellings) for enum option E.
template <typename E, typename Add> void addEnumOption(Add& add)
{
    QStringList spellings;
    for (const auto& row : EnumTable<E>::rows)
        spellings << QString::fromUtf8(row.text.data(), static_cast<qsizetype>(row.text.size()));
    add(QString::fromUtf8(EnumTable<E>::option.data(),
                          static_cast<qsizetype>(EnumTable<E>::option.size())),
        spellings);
}

// Calls add(option, spellings) for every enum option.
template <typename Add> void forEachEnumOption(Add&& add)
{
    [&]<typename... E>(std::tuple<E...>*) {
        (addEnumOption<E>(add), ...);
    }(static_cast<std::tuple<TokenizerMode, EmbeddingMode, Positional, ScaleMode, SoftmaxAxis,
                             MaskKind, MaskFill, MaskStage, HeadSplit, AttentionKind>*>(nullptr));
}

} // namespace attn::test
