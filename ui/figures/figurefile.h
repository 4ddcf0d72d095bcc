// The files of a figure (PNG, SVG, PDF) and of its numbers (CSV, NPY, JSON): one path
// for every figure, FigureDocument → documentBytes() (renderDocument and encodePng,
// or encodeSvg and encodePdf) → writeFigureFile().
#pragma once

#include "engine/engine.h"
#include "figure.h"
#include "figureencoding.h"
#include "figureformat.h"
#include "figurewriter.h"

#include <QByteArray>
#include <QString>

#include <optional>

namespace attn::ui {

// Most cells a vector figure draws one by one.
inline constexpr qint64 kMaxVectorCells = 250'000;

// `document` as PNG of `pixelsPerUnit` pixels per unit (refused beyond kMaxFigurePixels),
// SVG or PDF (refused beyond kMaxVectorCells cells); nothing for the number formats. On
// failure returns nothing with a translated one-line reason in `*error`.
[[nodiscard]] std::optional<QByteArray> documentBytes(FigureFormat format,
                                                      const FigureDocument& document,
                                                      double pixelsPerUnit,
                                                      QString* error = nullptr);

// `document` as SVG or PDF (`format`); refused, with a translated reason in `*error`, when
// it has more than kMaxVectorCells `cells` (a PNG is the way out) or `format` is neither.
[[nodiscard]] std::optional<QByteArray> vectorFigureBytes(FigureFormat format,
                                                          const FigureDocument& document,
                                                          qint64 cells, QString* error);

// The file's bytes in `format`; on failure returns nothing with a translated one-line
// reason in `*error`. Number formats ignore the options: CSV is csvReport, NPY the
// weights P (B, H, T, T), JSON jsonReport.
[[nodiscard]] std::optional<QByteArray> figureBytes(FigureFormat format, const Result& result,
                                                    const FigureOptions& options,
                                                    QString* error = nullptr);

// The bytes of a figure laid out before (e.g. a comparison of two configurations) as PNG
// with `pixelsPerPoint` pixels per point, SVG or PDF; nothing for the number formats. On
// failure returns nothing with a translated one-line reason in `*error`.
[[nodiscard]] std::optional<QByteArray> figureLayoutBytes(FigureFormat format,
                                                          const FigureLayout& layout,
                                                          double pixelsPerPoint,
                                                          QString* error = nullptr);

// Writes figureBytes() to `path` atomically (writeFigureFile): on failure no partial file is
// left and an existing file is untouched. Returns an empty string on success, else a
// translated one-line reason.
[[nodiscard]] QString exportFigure(const QString& path, FigureFormat format, const Result& result,
                                   const FigureOptions& options);

} // namespace attn::ui
