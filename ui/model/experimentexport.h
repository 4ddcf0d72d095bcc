// The exports of a language model window's experiments (Logit Lens, Which Heads Matter,
// Head Roles, Rollout): each dialog's figure as PNG, SVG or PDF, and its numbers as CSV
// and as JSON of the command line's shape (modelRunJson with the experiment's section and
// the layers' weights left out). One path for all four: the format from the file's
// suffix, the bytes from the dialog, the file written atomically (writeFigureFile).
#pragma once

#include "figure.h"
#include "figureformat.h"
#include "heatmapdata.h"
#include "models/modeljson.h"

#include <QByteArray>
#include <QColor>
#include <QString>
#include <QStringList>

#include <array>
#include <functional>
#include <optional>
#include <vector>

class QWidget;

namespace attn::ui {

// The formats an experiment offers, the default first.
inline constexpr std::array kExperimentFormats{
    FigureFormat::Png, FigureFormat::Svg, FigureFormat::Pdf, FigureFormat::Csv, FigureFormat::Json};

// An experiment's file in `format` (one of kExperimentFormats); nothing, with a translated
// reason in `*error`, when it cannot be made.
using ExperimentBytes = std::function<std::optional<QByteArray>(FigureFormat, QString* error)>;

// Writes `bytes`' file to `path`, its format from the suffix: an empty string on
// success, else a translated one-line reason (an unknown suffix, nothing to export yet,
// a file that cannot be written — an existing file is left untouched).
[[nodiscard]] QString exportExperimentTo(const QString& path, const ExperimentBytes& bytes);

// The dialogs' Export… button: a save dialog offering kExperimentFormats, suggesting
// `stem`; a failure is shown in a warning titled `title`, a success announced.
void exportExperimentInteractively(QWidget* parent, const QString& title, const QString& stem,
                                   const ExperimentBytes& bytes);

// An L × H grid (rows layers, columns heads) as a heatmap's data, titled `title`, its
// rows "layer l" and columns "head h".
[[nodiscard]] HeatmapData layerHeadData(const std::vector<std::vector<double>>& grid,
                                        const QString& title);

// A figure of heatmaps in a row, each its own title and style (their fonts set here),
// under `title`, captioned `caption`.
struct FigureHeatmap {
    HeatmapData data;
    HeatmapStyle style;
};
[[nodiscard]] FigureLayout heatmapsFigure(std::vector<FigureHeatmap> heatmaps, const QString& title,
                                          const QString& caption);

// A table of text cells (the logit lens: a token in each), each with its fill, rows and
// columns labelled; as a figure document under `title` and `caption`.
struct TableFigure {
    QString title;
    QString caption;
    QStringList rowLabels;
    QStringList columnLabels;
    std::vector<QString> texts; // rows × columns, row by row
    std::vector<QColor> fills;  // the same
};
[[nodiscard]] std::optional<QByteArray> tableFigureBytes(FigureFormat format,
                                                         const TableFigure& table, QString* error);
// The figure `layout` as `format` (PNG at 2 pixels a point).
[[nodiscard]] std::optional<QByteArray>
heatmapsFigureBytes(FigureFormat format, const FigureLayout& layout, QString* error);

// A number as the CSV files write it: enough digits to read back the same double.
[[nodiscard]] QByteArray csvNumber(double value);
// A text field of a CSV file (RFC 4180 quoting, csvField).
[[nodiscard]] QByteArray csvText(const QString& text);

// The command line's JSON for `run` with `extras` (an experiment's section), without the
// layers' weights.
[[nodiscard]] QByteArray experimentJson(const ModelRun& run, ModelRunExtras extras);

// "gpt2 · layers 12 × heads 12 · the textbook formula" / "…· departs: …": what a figure's
// caption says about the run it shows.
[[nodiscard]] QString runCaption(const ModelRun& run);

} // namespace attn::ui
