// Small (T, T) weight matrices written out as rows, masks as "..x" rows (x marks a key
// hidden from that query), and the figures headStatistics gives them; for
// tst_statistics and tst_warnings.
#pragma once

#include "engine/engine.h"
#include "engine/statistics.h"
#include "lab/presets.h"

#include <QByteArray>
#include <QList>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <limits>

namespace attn::test {

using Rows = QList<QList<double>>;

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kThird = 1.0 / 3.0;

// (T, T) from nested lists.
inline Matrix toMatrix(const Rows& rows)
{
    const auto n = static_cast<Eigen::Index>(rows.size());
    Matrix m(n, n);
    for (Eigen::Index i = 0; i < n; ++i) // a short row reads as NaN, and fails its test
        for (Eigen::Index j = 0; j < n; ++j)
            m(i, j) = static_cast<float>(rows[i].value(j, kNaN));
    return m;
}

// (T, T) mask from "..x" rows; no rows = nothing masked.
inline MaskMatrix toMask(const QStringList& rows, Eigen::Index n)
{
    MaskMatrix m = MaskMatrix::Constant(n, n, false);
    for (Eigen::Index i = 0; i < std::min(n, static_cast<Eigen::Index>(rows.size())); ++i)
        for (Eigen::Index j = 0; j < std::min(n, static_cast<Eigen::Index>(rows[i].size())); ++j)
            m(i, j) = rows[i][j] == u'x';
    return m;
}

inline Rows uniform(int n)
{
    return Rows(n, QList<double>(n, 1.0 / n));
}

inline Rows identity(int n)
{
    Rows rows(n, QList<double>(n, 0.0));
    for (int i = 0; i < n; ++i)
        rows[i][i] = 1.0;
    return rows;
}

inline QStringList causal(int n)
{
    QStringList rows;
    for (int i = 0; i < n; ++i)
        rows << QString(i + 1, u'.') + QString(n - i - 1, u'x');
    return rows;
}

inline HeadStatistics statisticsOf(const Rows& weights, const QStringList& mask = {})
{
    const Matrix p = toMatrix(weights);
    const Matrix scores = Matrix::Zero(p.rows(), p.cols());
    return headStatistics(scores, 1.0f, 1.0f, p, toMask(mask, p.rows()));
}

inline bool close(double actual, double expected, double tolerance)
{
    if (std::isnan(expected))
        return std::isnan(actual);
    return std::abs(actual - expected) <= tolerance;
}

inline QByteArray closeMessage(const char* what, double actual, double expected)
{
    return QByteArray(what) + ": got " + QByteArray::number(actual, 'g', 9) + ", expected " +
           QByteArray::number(expected, 'g', 9) + ", difference " +
           QByteArray::number(std::abs(actual - expected), 'g', 3);
}

// The preset's request; one without text when there is no such preset (the test says so).
inline Request presetRequest(const char* name)
{
    const Preset* preset = findPreset(name);
    return preset ? preset->request : Request{};
}

} // namespace attn::test
