// What the command-line model tests share: the run's JSON ("layers", each with "heads", each
// with "weights") compared with a PyTorch reference case's "attention" (L × H × T × T).
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <cmath>

namespace attn::test {

// "" when every layer's every head's T × T weights of `layers` agree with `wantLayers`
// within `tolerance` (a null, NaN written by the JSON, only where torch's is null), else the
// first place they do not, or the shapes that differ.
inline QString jsonAttentionDifference(const QJsonArray& layers, const QJsonArray& wantLayers,
                                       int T, double tolerance)
{
    if (layers.size() != wantLayers.size())
        return QStringLiteral("%1 layers, torch %2").arg(layers.size()).arg(wantLayers.size());
    for (int l = 0; l < layers.size(); ++l) {
        const QJsonArray heads = layers[l].toObject().value(QLatin1String("heads")).toArray();
        const QJsonArray wantHeads = wantLayers[l].toArray();
        if (heads.size() != wantHeads.size())
            return QStringLiteral("layer %1: %2 heads, torch %3")
                .arg(l)
                .arg(heads.size())
                .arg(wantHeads.size());
        for (int h = 0; h < heads.size(); ++h) {
            const QJsonArray rows = heads[h].toObject().value(QLatin1String("weights")).toArray();
            const QJsonArray wantRows = wantHeads[h].toArray();
            if (rows.size() != T)
                return QStringLiteral("layer %1 head %2: %3 rows, not %4")
                    .arg(l)
                    .arg(h)
                    .arg(rows.size())
                    .arg(T);
            for (int i = 0; i < T; ++i) {
                const QJsonArray row = rows[i].toArray(), want = wantRows[i].toArray();
                if (row.size() != T)
                    return QStringLiteral("layer %1 head %2 row %3: %4 weights, not %5")
                        .arg(l)
                        .arg(h)
                        .arg(i)
                        .arg(row.size())
                        .arg(T);
                for (int j = 0; j < T; ++j) {
                    const bool same =
                        row[j].isNull()
                            ? want[j].isNull()
                            : std::abs(row[j].toDouble() - want[j].toDouble()) <= tolerance;
                    if (!same)
                        return QStringLiteral("layer %1 head %2 (%3, %4): %5 vs torch %6")
                            .arg(l)
                            .arg(h)
                            .arg(i)
                            .arg(j)
                            .arg(row[j].toDouble())
                            .arg(want[j].toDouble());
                }
            }
        }
    }
    return {};
}

} // namespace attn::test
