// What the step-by-step window's tests share: results of the engine, its matrix of each
// stage and shape line, the stages, and comparing matrices within a tolerance.
#pragma once

#include "engine/engine.h"
#include "lab/explain.h"
#include "lab/presets.h"
#include "language.h"
#include "pipelinedialog.h"
#include "pipelinestrip.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocument>
#include <QXmlStreamReader>

#include <cmath>
#include <limits>

Q_DECLARE_METATYPE(attn::Request)
Q_DECLARE_METATYPE(attn::ui::PipelineStage)

namespace attn::ui::test {

inline constexpr double kDotTolerance = 1e-5;    // Σ q·k in double against the engine's sgemm
inline constexpr double kWeightTolerance = 1e-6; // the softmax in double against the engine's float

inline Result compute(const Request& request)
{
    AttentionEngine engine;
    return engine.compute(request);
}

inline Request requestOf(const std::string& text, Config config)
{
    return Request{text, config, {}, {}};
}

inline bool same(float a, float b)
{
    return a == b || (std::isnan(a) && std::isnan(b));
}

// Empty when `actual` equals `expected` element for element (NaN equals NaN); else one
// line naming the largest difference and where it is.
inline QByteArray mismatch(const Matrix& actual, const Matrix& expected)
{
    if (actual.rows() != expected.rows() || actual.cols() != expected.cols())
        return QByteArray("shape (") + QByteArray::number(actual.rows()) + ", " +
               QByteArray::number(actual.cols()) + "), expected (" +
               QByteArray::number(expected.rows()) + ", " + QByteArray::number(expected.cols()) +
               ")";
    double largest = -1;
    Eigen::Index worstRow = 0, worstColumn = 0;
    for (Eigen::Index r = 0; r < actual.rows(); ++r)
        for (Eigen::Index c = 0; c < actual.cols(); ++c) {
            if (same(actual(r, c), expected(r, c)))
                continue;
            const double difference = std::abs(double(actual(r, c)) - double(expected(r, c)));
            if (!(difference <= largest)) {
                largest = difference;
                worstRow = r;
                worstColumn = c;
            }
        }
    if (largest < 0)
        return {};
    return "largest difference " + QByteArray::number(largest, 'g', 3) + " at [" +
           QByteArray::number(worstRow) + "][" + QByteArray::number(worstColumn) +
           "]: " + QByteArray::number(actual(worstRow, worstColumn), 'g', 9) + " instead of " +
           QByteArray::number(expected(worstRow, worstColumn), 'g', 9);
}

// The engine's matrix of `stage` for sequence b and head h, taken straight from `r`.
inline Matrix engineMatrix(const Result& r, PipelineStage stage, int b, int h)
{
    switch (stage) {
    case PipelineStage::Input:
        return (*r.x)[std::size_t(b)];
    case PipelineStage::Queries:
        return r.split->q.at(b, h);
    case PipelineStage::Keys:
        return r.split->k.at(b, h);
    case PipelineStage::Values:
        return r.split->v.at(b, h);
    case PipelineStage::Scores:
        return r.scores->at(b, h);
    case PipelineStage::Logits: {
        // The engine's logits where no mask filled them; S·scale/τ, as torch computes it,
        // where one did.
        Matrix logits = r.logits(b, h);
        const float scale = float(scaleFactor(r.config()));
        for (Eigen::Index i = 0; i < logits.rows(); ++i)
            for (Eigen::Index j = 0; j < logits.cols(); ++j)
                if ((*r.mask)[std::size_t(b)](i, j) &&
                    r.config().maskStage == MaskStage::BeforeSoftmax)
                    logits(i, j) = (r.scores->at(b, h)(i, j) * scale) / r.config().temperature;
        return logits;
    }
    case PipelineStage::Masked:
        return r.logits(b, h);
    case PipelineStage::Weights:
        return r.weights->at(b, h);
    case PipelineStage::HeadOutput:
        return r.aggregation->headOutputs.at(b, h);
    case PipelineStage::Concat:
        return r.aggregation->merged[std::size_t(b)];
    case PipelineStage::Output:
        return r.aggregation->output[std::size_t(b)];
    case PipelineStage::QueriesRotated:
        return r.split->q.at(b, h); // the last of stage 4's transforms
    case PipelineStage::KeysRotated:
        return r.split->k.at(b, h);
    case PipelineStage::QueriesNormed: // today's other tiles: tst_pipeline's todaysTiles
    case PipelineStage::KeysNormed:
    case PipelineStage::Alibi:
    case PipelineStage::Shifted:
    case PipelineStage::Sink:
        break;
    }
    return {};
}

inline QString expectedShape(const Result& r, PipelineStage stage)
{
    const QString B = QString::number(r.batch()), T = QString::number(r.length()),
                  C = QString::number(r.dModel()), H = QString::number(r.heads()),
                  dK = QString::number(r.dK()), Tk = QString::number(r.keyLength());
    if (r.isCross()) // queries T_q, keys and values T_k
        switch (stage) {
        case PipelineStage::Input:
        case PipelineStage::Concat:
        case PipelineStage::Output:
            return QStringLiteral("(B, T_q, C) = (%1, %2, %3)").arg(B, T, C);
        case PipelineStage::Queries:
        case PipelineStage::HeadOutput:
            return QStringLiteral("(B, H, T_q, d_k) = (%1, %2, %3, %4)").arg(B, H, T, dK);
        case PipelineStage::Keys:
        case PipelineStage::Values:
            return QStringLiteral("(B, H, T_k, d_k) = (%1, %2, %3, %4)").arg(B, H, Tk, dK);
        default:
            return QStringLiteral("(B, H, T_q, T_k) = (%1, %2, %3, %4)").arg(B, H, T, Tk);
        }
    switch (stage) {
    case PipelineStage::Input:
    case PipelineStage::Concat:
    case PipelineStage::Output:
        return QStringLiteral("(B, T, C) = (%1, %2, %3)").arg(B, T, C);
    case PipelineStage::Queries:
    case PipelineStage::Keys:
    case PipelineStage::Values:
    case PipelineStage::HeadOutput:
        return QStringLiteral("(B, H, T, d_k) = (%1, %2, %3, %4)").arg(B, H, T, dK);
    default:
        return QStringLiteral("(B, H, T, T) = (%1, %2, %3, %3)").arg(B, H, T);
    }
}

inline constexpr PipelineStage kStages[] = {
    PipelineStage::Input,  PipelineStage::Queries, PipelineStage::Keys,
    PipelineStage::Values, PipelineStage::Scores,  PipelineStage::Logits,
    PipelineStage::Masked, PipelineStage::Weights, PipelineStage::HeadOutput,
    PipelineStage::Concat, PipelineStage::Output,
};

// The panel's spelling of a number (four significant digits).
inline QString printed(double value)
{
    if (std::isnan(value))
        return QStringLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    return QString::number(value, 'g', 4);
}

} // namespace attn::ui::test
