// The presets' requests, and PyTorch's numbers for them: tests/reference/preset_cases.json,
// written by tests/reference/gen_reference.py, by case name ("saturation",
// "saturation scale=sqrt-dk"). What a lesson quotes is checked against these.
#pragma once

#include "engine.h"
#include "presets.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

#include <cmath>
#include <functional>
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

} // namespace attn::test
