// What the model window exports: the numbers of one layer of one sequence (JSON as
// `attnscope compute --attention-file` writes it, a CSV long table, or NPY), and the shown
// head as a figure (PNG, SVG or PDF) through the figures' own layout and encoders.
#pragma once

#include "attentionstack.h"
#include "colormap.h"
#include "figure.h"
#include "figurefile.h"
#include "figureformat.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace attn::ui {

// Layer `layer` of sequence `sequence` as `format` (Json, Csv or Npy):
//  * JSON: attentionJson(stack, sequence, layer), every weight, statistics and patterns;
//  * CSV: layer,head,i,j,query,key,weight, one row a weight, the shortest decimals that
//    read back as the same float, tokens guarded as csvReport guards them;
//  * NPY: the layer's heads as float32 (1, H, T_q, T_k).
[[nodiscard]] QByteArray layerNumbers(const AttentionStack& stack, int sequence, int layer,
                                      FigureFormat format);

// Head (layer, head) of `sequence` as a figure of one heatmap in `format` (Png, Svg or Pdf);
// nothing, with a translated reason in `*error`, when it cannot be made.
[[nodiscard]] std::optional<QByteArray> headFigure(const AttentionStack& stack, int sequence,
                                                   int layer, int head, ColormapName colormap,
                                                   FigureFormat format, QString* error);

} // namespace attn::ui
