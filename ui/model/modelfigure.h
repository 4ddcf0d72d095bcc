// The figures of an attention file, without a widget: one head of a layer or the layer's
// mean head as a heatmap figure (title, token labels, a caption naming the file, layer and
// head), and the model figure, every layer and head of a sequence as a grid of thumbnails
// (layers as rows, heads as columns). The window's exports and `attnscope export
// --attention-file` make them; the model figure takes any AttentionStack, so a model run
// here (which fills a MemoryAttentionStack) draws the same figure.
//
// Legend: L layers, B sequences, H heads, T_q queries, T_k keys.
#pragma once

#include "attention/attentionstack.h"
#include "colormap.h"
#include "figure.h"
#include "figureencoding.h"
#include "figureformat.h"
#include "heatmapdata.h"

#include <QByteArray>
#include <QImage>
#include <QString>
#include <QStringList>
#include <QStringView>

#include <optional>

namespace attn::ui {

// What a figure of a file shows: head H of a layer, the mean of the layer's heads, or the
// whole model.
enum class FileWhat { Head, Mean, Model };

// As the command line's --what spells it: "head:H", "mean" or "model".
struct FileSelection {
    FileWhat what = FileWhat::Head;
    int head = 0; // for FileWhat::Head
    bool operator==(const FileSelection&) const = default;
};
[[nodiscard]] QString fileSelectionSpelling(const FileSelection& selection);
// The selection spelled `text`, or nothing (head numbers are not checked against H here).
[[nodiscard]] std::optional<FileSelection> fileSelectionFromSpelling(QStringView text);
// "head:H|mean|model".
[[nodiscard]] QString allFileSelectionSpellings();

struct FileFigureOptions {
    FileSelection selection;
    int layer = 0;    // l (not used by the model figure)
    int sequence = 0; // b
    QString title;    // empty: the head's ("Layer 3 · head 2"), the model's ("Model view")
    bool caption = true;
    QStringList captionNotes; // end the caption (a model run's departures from its formula)
    bool colorbar = true;
    bool annotate = false;
    bool marginSums = false;
    ColormapName colormap = ColormapName::Viridis;
    bool logScale = false;
    double labelPointSize = 10;
    double scale = 2.0; // PNG pixels per point
    int dpi = 0;        // if > 0, overrides scale for PNG: pixels = points · dpi / 72
};

// The colours of one thumbnail: cell (r, c) is `colormap` at value / the head's largest
// finite weight (each head its own scale, so that its pattern shows whatever its size);
// NaN and ±inf magenta (heatmapInvalidFill), as in the heatmaps.
[[nodiscard]] QImage thumbnailImage(const Thumbnail& thumbnail, const Colormap& colormap);

// Head h of sequence b in layer l as a heatmap: the file's weights, exactly, titled with
// the layer and head, labelled with the file's tokens (indices when it has none).
[[nodiscard]] HeatmapData fileHeadHeatmap(const AttentionStack& stack, int layer, int sequence,
                                          int head);
// The mean of layer l's heads (meanHead) as a heatmap, titled "Layer 3 · mean of the heads".
[[nodiscard]] HeatmapData fileMeanHeatmap(const AttentionStack& stack, int layer, int sequence);
// The heatmap `selection` names (Head or Mean) of layer `layer`.
[[nodiscard]] HeatmapData fileHeatmap(const AttentionStack& stack, int layer, int sequence,
                                      const FileSelection& selection);

// The stack's name as windows and captions show it: its source's file name ("gpt2.npz",
// "gpt2"), and "(by word)" in the interface's language when its rows are words.
[[nodiscard]] QString stackName(const AttentionStack& stack);
// The start of a file name suggested for its exports: "gpt2", "gpt2-by-word" (the words
// translated).
[[nodiscard]] QString stackFileStem(const AttentionStack& stack);

// "gpt2.npz · layer 3 · head 2 · sequence 1 of 2 · float32", translated: what the figure
// shows and where it comes from (the model figure's names no layer and head).
[[nodiscard]] QString fileFigureCaption(const AttentionStack& stack,
                                        const FileFigureOptions& options);

// The layout of a head's or the mean head's figure (options.selection Head or Mean).
[[nodiscard]] FigureLayout fileHeadFigureLayout(const AttentionStack& stack,
                                                const FileFigureOptions& options);

// The model figure of sequence `options.sequence`: the L × H thumbnails (each head its own
// colour range, as in the model view), layer numbers left of the rows, head numbers above
// the columns, the title and caption. The document holds everything it paints, so it
// outlives `stack`.
[[nodiscard]] FigureDocument modelFigureDocument(const AttentionStack& stack,
                                                 const FileFigureOptions& options);

// The figure `options` selects as `format` (Png, Svg or Pdf); nothing, with a translated
// reason in `*error`, when it cannot be made. Indices must be in range (checkSequenceAndLayer).
[[nodiscard]] std::optional<QByteArray> fileFigureBytes(FigureFormat format,
                                                        const AttentionStack& stack,
                                                        const FileFigureOptions& options,
                                                        QString* error);

} // namespace attn::ui
