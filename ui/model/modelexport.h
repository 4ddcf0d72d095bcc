// What the model window and `attnscope export --attention-file` export: the numbers of one
// layer, one head, the mean head or every layer of one sequence (JSON as `attnscope compute
// --attention-file` writes it, a CSV long table, or NPY), and a head as a figure (PNG, SVG or
// PDF) through modelfigure.h. No widget: attn_figures.
#pragma once

#include "attention/attentionstack.h"
#include "colormap.h"
#include "figure.h"
#include "figurefile.h"
#include "figureformat.h"
#include "modelfigure.h"

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

// What `selection` shows of `sequence` as `format` (Json, Csv or Npy): head:H of layer
// `layer` (JSON attentionJson(stack, sequence, layer, H), CSV its rows, NPY (1, 1, T_q, T_k)),
// the mean head (attentionMeanJson, CSV rows of head "mean", NPY (1, 1, T_q, T_k)), or the
// model, every layer (attentionJson(stack, sequence), CSV every row, NPY (L, H, T_q, T_k)).
// Indices must be in range (checkSequenceAndLayer).
[[nodiscard]] QByteArray selectionNumbers(const AttentionStack& stack, int sequence, int layer,
                                          const FileSelection& selection, FigureFormat format);

// Head (layer, head) of `sequence` as a figure of one heatmap in `format` (Png, Svg or Pdf);
// nothing, with a translated reason in `*error`, when it cannot be made.
[[nodiscard]] std::optional<QByteArray> headFigure(const AttentionStack& stack, int sequence,
                                                   int layer, int head, ColormapName colormap,
                                                   FigureFormat format, QString* error);

} // namespace attn::ui
