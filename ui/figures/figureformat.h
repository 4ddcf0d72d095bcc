// The file formats of an export, PNG, SVG and PDF figures and CSV, NPY and JSON numbers:
// one table of their spellings (also the suffix) and file-dialog filters.
#pragma once

#include <QString>
#include <QStringView>

#include <optional>

namespace attn::ui {

// The file formats of an export: three figures, then three number formats.
enum class FigureFormat { Png, Svg, Pdf, Csv, Npy, Json };

// True for PNG, SVG and PDF; false for the number formats.
[[nodiscard]] bool isFigureFormat(FigureFormat format);
// "png", "svg", "pdf", "csv", "npy", "json": the command line's spelling and the suffix.
[[nodiscard]] QString formatSpelling(FigureFormat format);
// The format spelled `text` (in any case), or nothing.
[[nodiscard]] std::optional<FigureFormat> formatFromSpelling(QStringView text);
// The format a file name's suffix names (in any case), or nothing.
[[nodiscard]] std::optional<FigureFormat> formatFromPath(const QString& path);
// "png|svg|pdf|csv|npy|json", for help texts and error messages.
[[nodiscard]] QString allFormatSpellings();
// A QFileDialog name filter, e.g. "PNG image (*.png)", translated.
[[nodiscard]] QString formatFilter(FigureFormat format);

// The figure format (PNG, SVG or PDF) `path`'s suffix names; else nothing, and a
// translated reason in `*error`.
[[nodiscard]] std::optional<FigureFormat> figureFormatOfPath(const QString& path, QString* error);

} // namespace attn::ui
