#include "tracetiles.h"

#include "headtrace.h"

#include <QCoreApplication>

namespace attn::ui {
namespace {

class TraceWords {
    Q_DECLARE_TR_FUNCTIONS(attn::ui::TraceTiles)
};

// "c_attn.W[:, 32:64] + c_attn.b[32:64]": columns [first, first + count) of c_attn.
QString attnColumns(int first, int count)
{
    return QStringLiteral("c_attn.W[:, %1:%2] + c_attn.b[%1:%2]").arg(first).arg(first + count);
}

} // namespace

std::vector<StageTile> headTraceTiles(const HeadTrace& trace, const WeightColours& colours)
{
    const Result result = headTraceResult(trace);
    std::vector<StageTile> tiles = pipelineTiles(result, 0, trace.head, colours);
    const int l = trace.layer, h = trace.head, C = result.dModel(), dK = result.dK();
    const bool transposed = trace.formula.headSplit == HeadSplit::Transpose;
    for (StageTile& tile : tiles) {
        switch (tile.stage) {
        case PipelineStage::Input:
            tile.title = TraceWords::tr("X — layer %1's input after ln_1").arg(l);
            tile.formula = l == 0 ? QStringLiteral("X = ln_1(wte[token] + wpe[t])")
                                  : QStringLiteral("X = ln_1(h_%1)").arg(l);
            if (l > 0)
                tile.note +=
                    TraceWords::tr("; h_%1: the residual stream after layer %2").arg(l).arg(l - 1);
            break;
        case PipelineStage::Queries:
        case PipelineStage::Keys:
        case PipelineStage::Values: {
            // c_attn's 3C columns are Q, K, V; the split after them stays the lab's.
            const int block = tile.stage == PipelineStage::Queries ? 0
                              : tile.stage == PipelineStage::Keys  ? 1
                                                                   : 2;
            const QString symbol = QStringLiteral("QKV").mid(block, 1);
            const qsizetype arrow = tile.formula.indexOf(QStringLiteral(" → "));
            tile.formula = QStringLiteral("%1 = X·%2").arg(symbol, attnColumns(block * C, C)) +
                           (arrow >= 0 ? tile.formula.mid(arrow) : QString());
            if (transposed)
                tile.note += TraceWords::tr("; c_attn's columns %1–%2")
                                 .arg(block * C + h * dK)
                                 .arg(block * C + (h + 1) * dK - 1);
            break;
        }
        case PipelineStage::Output:
            tile.title = TraceWords::tr("output — through c_proj");
            tile.formula = QStringLiteral("out = concat·c_proj.W + c_proj.b");
            tile.note = TraceWords::tr("drawn: [0]; layer %1 adds it to its residual stream: "
                                       "h_%2 = h_%1 + out + MLP(…)")
                            .arg(l)
                            .arg(l + 1);
            break;
        default:
            break;
        }
    }
    numberTiles(tiles);
    return tiles;
}

} // namespace attn::ui
