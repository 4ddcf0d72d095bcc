#include "tracetiles.h"

#include "models/headtrace.h"

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

// 0, 1, 2 for the Q, K and V tiles.
int projectionBlock(PipelineStage stage)
{
    return stage == PipelineStage::Queries ? 0 : stage == PipelineStage::Keys ? 1 : 2;
}

// `product` (what the model names the projection) followed by the lab's formula's head
// split (" → .view(…).transpose(…)"), which stays as the lab wrote it.
QString withSplit(const QString& product, const QString& labFormula)
{
    const qsizetype arrow = labFormula.indexOf(QStringLiteral(" → "));
    return product + (arrow >= 0 ? labFormula.mid(arrow) : QString());
}

// The Qwen/Llama family's names: input_layernorm, q/k/v_proj (K and V of the K/V head the
// query head shares, Q and K rotated by position), o_proj.
void nameLlamaTile(StageTile& tile, const HeadTrace& trace)
{
    const int l = trace.layer, h = trace.head, H = trace.formula.heads;
    const int kvHeads = trace.kvHeads > 0 ? trace.kvHeads : H, group = H / kvHeads;
    const bool broken = trace.switches.onlyLayer < 0 || trace.switches.onlyLayer == l;
    const bool rotated = !broken || trace.switches.rope;
    switch (tile.stage) {
    case PipelineStage::Input:
        tile.title = TraceWords::tr("X — layer %1's input after input_layernorm").arg(l);
        tile.formula = l == 0 ? QStringLiteral("X = input_layernorm(embed_tokens[token])")
                              : QStringLiteral("X = input_layernorm(h_%1)").arg(l);
        if (l > 0)
            tile.note +=
                TraceWords::tr("; h_%1: the residual stream after layer %2").arg(l).arg(l - 1);
        break;
    case PipelineStage::Queries:
    case PipelineStage::Keys:
    case PipelineStage::Values: {
        const int block = projectionBlock(tile.stage);
        const QString symbol = QStringLiteral("QKV").mid(block, 1);
        tile.formula = withSplit(QStringLiteral("%1 = X·%2_proj.Wᵀ").arg(symbol, symbol.toLower()),
                                 tile.formula);
        if (block > 0 && kvHeads < H)
            tile.note += TraceWords::tr("; K/V head %1, shared by heads %2–%3")
                             .arg(h / group)
                             .arg(h / group * group)
                             .arg(h / group * group + group - 1);
        if (block < 2)
            tile.note += rotated ? TraceWords::tr("; rotated by its position (RoPE)")
                                 : TraceWords::tr("; not rotated (RoPE off)");
        break;
    }
    case PipelineStage::Output:
        tile.title = TraceWords::tr("output — through o_proj");
        tile.formula = QStringLiteral("out = concat·o_proj.Wᵀ");
        tile.note = TraceWords::tr("drawn: [0]; layer %1 adds it to its residual stream: "
                                   "h_%2 = h_%1 + out + MLP(…)")
                        .arg(l)
                        .arg(l + 1);
        break;
    default:
        break;
    }
}

// GPT-2's names: ln_1, c_attn's column blocks (Q, K, V), c_proj.
void nameGpt2Tile(StageTile& tile, const HeadTrace& trace, int C, int dK)
{
    const int l = trace.layer, h = trace.head;
    const bool transposed = trace.formula.headSplit == HeadSplit::Transpose;
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
        const int block = projectionBlock(tile.stage);
        const QString symbol = QStringLiteral("QKV").mid(block, 1);
        tile.formula = withSplit(QStringLiteral("%1 = X·%2").arg(symbol, attnColumns(block * C, C)),
                                 tile.formula);
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

// BERT's names: post-LN, so X is the previous layer's output as it is (no norm before the
// attention); query, key and value (nn.Linear: X·Wᵀ + b); attention.output.dense, whose
// output the layer adds to X and normalises.
void nameBertTile(StageTile& tile, const HeadTrace& trace, int dK)
{
    const int l = trace.layer, h = trace.head;
    const bool transposed = trace.formula.headSplit == HeadSplit::Transpose;
    switch (tile.stage) {
    case PipelineStage::Input:
        tile.title = TraceWords::tr("X — layer %1's input").arg(l);
        tile.formula = l == 0 ? QStringLiteral("X = LayerNorm(word[token] + position[t] + type[0])")
                              : QStringLiteral("X = h_%1").arg(l);
        if (l > 0)
            tile.note += TraceWords::tr("; h_%1: layer %2's output, already normalised (BERT "
                                        "normalises after each block, not before)")
                             .arg(l)
                             .arg(l - 1);
        break;
    case PipelineStage::Queries:
    case PipelineStage::Keys:
    case PipelineStage::Values: {
        const int block = projectionBlock(tile.stage);
        const QString symbol = QStringLiteral("QKV").mid(block, 1);
        const QString name = QStringList{"query", "key", "value"}[block];
        tile.formula =
            withSplit(QStringLiteral("%1 = X·%2.Wᵀ + %2.b").arg(symbol, name), tile.formula);
        if (transposed)
            tile.note += TraceWords::tr("; %1's output columns %2–%3")
                             .arg(name)
                             .arg(h * dK)
                             .arg((h + 1) * dK - 1);
        break;
    }
    case PipelineStage::Output:
        tile.title = TraceWords::tr("output — through attention.output.dense");
        tile.formula = QStringLiteral("out = concat·dense.Wᵀ + dense.b");
        tile.note = TraceWords::tr("drawn: [0]; layer %1 adds it to its input and normalises: "
                                   "LayerNorm(h_%1 + out), then the MLP")
                        .arg(l);
        break;
    default:
        break;
    }
}

} // namespace

std::vector<StageTile> headTraceTiles(const HeadTrace& trace, const WeightColours& colours)
{
    const Result result = headTraceResult(trace);
    std::vector<StageTile> tiles = pipelineTiles(result, 0, trace.head, colours);
    for (StageTile& tile : tiles) {
        if (trace.family == "bert")
            nameBertTile(tile, trace, result.dK());
        else if (trace.family == "gpt2" || trace.family.empty())
            nameGpt2Tile(tile, trace, result.dModel(), result.dK());
        else
            nameLlamaTile(tile, trace);
    }
    numberTiles(tiles);
    return tiles;
}

} // namespace attn::ui
