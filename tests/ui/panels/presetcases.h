// The presets' requests, and PyTorch's numbers for them: tests/reference/preset_cases.json,
// written by tests/reference/gen_reference.py, by case name ("saturation",
// "saturation scale=sqrt-dk"). What a lesson quotes is checked against these, each check
// a message (empty when it holds).
#pragma once

#include "engine/engine.h"
#include "engine/statistics.h"
#include "lab/presets.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

#include <algorithm>
#include <cmath>
#include <functional>
#include <initializer_list>
#include <limits>
#include <map>

namespace attn::test {

inline Result compute(const Request& request)
{
    AttentionEngine engine;
    return engine.compute(request);
}

inline Request presetRequest(const QString& name)
{
    const Preset* preset = findPreset(name.toStdString());
    return preset ? preset->request : Request{};
}

// `request` with one change.
inline Request with(Request request, const std::function<void(Config&)>& change)
{
    change(request.config);
    return request;
}

inline bool near(double value, double expected, double tolerance)
{
    return std::abs(value - expected) <= tolerance;
}

// PyTorch's numbers for the presets and the variants their checks compute, by case name.
inline const QJsonObject& pytorchCases()
{
    static const QJsonObject cases = [] {
        QFile file(QStringLiteral(ATTN_REFERENCE_DIR "/preset_cases.json"));
        if (!file.open(QIODevice::ReadOnly))
            qFatal("cannot read %s", qPrintable(file.fileName()));
        return QJsonDocument::fromJson(file.readAll()).object();
    }();
    return cases;
}

inline QJsonObject pytorch(const QString& name)
{
    const QJsonValue found = pytorchCases()[name];
    if (!found.isObject())
        qFatal("preset_cases.json has no case '%s'", qPrintable(name));
    return found.toObject();
}

// One of the statistics panel's figures of a case, as PyTorch's weights give it.
inline double pytorchFigure(const QString& name, const char* figure)
{
    return pytorch(name)["figures"][QLatin1String(figure)].toDouble();
}

// The variants of a preset that its check computes: name → preset and change.
struct Variant {
    const char* preset;
    std::function<void(Config&)> change;
};

inline const std::map<QString, Variant>& variants()
{
    static const std::map<QString, Variant> table = {
        {"article d_model=512 scale=none",
         {"article",
          [](Config& c) {
              c.dModel = 512;
              c.scale = ScaleMode::None;
          }}},
        {"saturation scale=sqrt-dk",
         {"saturation", [](Config& c) { c.scale = ScaleMode::SqrtDk; }}},
        {"fully-masked-row mask_fill=-1e9",
         {"fully-masked-row", [](Config& c) { c.maskFill = MaskFill::NegBillion; }}},
        {"cross-attention seed=7", {"cross-attention", [](Config& c) { c.seed = 7; }}},
        {"coreference seed=7", {"coreference", [](Config& c) { c.seed = 7; }}},
        {"coreference-en seed=7", {"coreference-en", [](Config& c) { c.seed = 7; }}},
        {"rope-distance positional=sinusoidal",
         {"rope-distance", [](Config& c) { c.positional = Positional::Sinusoidal; }}},
        {"rope-distance positional=none",
         {"rope-distance", [](Config& c) { c.positional = Positional::None; }}},
        {"qk-norm scale=sqrt-dk", {"qk-norm", [](Config& c) { c.scale = ScaleMode::SqrtDk; }}},
        {"alibi alibi=false", {"alibi", [](Config& c) { c.alibi = false; }}},
        {"softcap softcap=1", {"softcap", [](Config& c) { c.softcap = 1; }}},
        {"softcap softcap=30", {"softcap", [](Config& c) { c.softcap = 30; }}},
        {"sliding-window window=off", {"sliding-window", [](Config& c) { c.window = 0; }}},
        {"attention-sink sink=0", {"attention-sink", [](Config& c) { c.sink = 0.0f; }}},
        {"attention-sink sink=off", {"attention-sink", [](Config& c) { c.sink.reset(); }}},
    };
    return table;
}

// The request of a case of preset_cases.json: a preset, or a variant of one.
inline Request caseRequest(const QString& name)
{
    const auto variant = variants().find(name);
    return variant == variants().end()
               ? presetRequest(name)
               : with(presetRequest(QLatin1String(variant->second.preset)), variant->second.change);
}

// The first problem of `problems`, or an empty string when there is none.
inline QString firstProblem(std::initializer_list<QString> problems)
{
    for (const QString& problem : problems)
        if (!problem.isEmpty())
            return problem;
    return {};
}

inline QString expect(bool holds, const QString& problem)
{
    return holds ? QString() : problem;
}

// A figure the explanation quotes, to `tolerance`.
inline QString expectFigure(const char* what, double value, double expected,
                            double tolerance = 5e-5)
{
    return expect(near(value, expected, tolerance), QStringLiteral("%1 is %2, expected %3")
                                                        .arg(QLatin1String(what))
                                                        .arg(value, 0, 'f', 6)
                                                        .arg(expected, 0, 'f', 6));
}

// The range [min, max] of the row or column sums the explanation quotes.
inline QString expectRange(const char* what, double min, double max, double from, double to,
                           double tolerance = 5e-5)
{
    return expect(near(min, from, tolerance) && near(max, to, tolerance),
                  QStringLiteral("%1 range from %2 to %3, expected %4 to %5")
                      .arg(QLatin1String(what))
                      .arg(min, 0, 'f', 6)
                      .arg(max, 0, 'f', 6)
                      .arg(from, 0, 'f', 4)
                      .arg(to, 0, 'f', 4));
}

inline QString expectRowSumsOne(const Statistics& s)
{
    return expectRange("row sums", s.rowSumMin, s.rowSumMax, 1.0, 1.0, 1e-5);
}

inline QString expectWarning(const Result& r, WarningKind kind, const char* name)
{
    const auto& warnings = r.stats->warnings;
    return expect(std::any_of(warnings.begin(), warnings.end(),
                              [kind](const Warning& w) { return w.kind == kind; }),
                  QStringLiteral("no %1 warning").arg(QLatin1String(name)));
}

// The largest |P[b][h][i][j] − expected(b, h, i, j)| over the cells `where` selects,
// as a problem naming it and where it is when it exceeds `tolerance`.
inline QString expectWeights(const Result& r, const char* what,
                             const std::function<bool(int, int, int, int)>& where,
                             const std::function<double(int, int, int, int)>& expected,
                             double tolerance)
{
    double largest = 0;
    QString at;
    for (int b = 0; b < r.batch(); ++b)
        for (int h = 0; h < r.heads(); ++h)
            for (int i = 0; i < r.length(); ++i)
                for (int j = 0; j < r.keyLength(); ++j) {
                    if (!where(b, h, i, j))
                        continue;
                    const double weight = r.weights->at(b, h)(i, j);
                    const double diff = std::abs(weight - expected(b, h, i, j));
                    if (!(diff <= largest)) { // NaN counts as the largest
                        largest = std::isnan(diff) ? std::numeric_limits<double>::infinity() : diff;
                        at = QStringLiteral("[%1][%2][%3][%4]").arg(b).arg(h).arg(i).arg(j);
                    }
                }
    return expect(
        largest <= tolerance,
        QStringLiteral("%1: off by %2 at %3").arg(QLatin1String(what)).arg(largest).arg(at));
}

} // namespace attn::test
