// An experiment's file from its numbers: what each experiment dialog's Export… writes
// (Logit Lens, Which Heads Matter, Find Induction Heads, Rollout) and what
// `attnscope export --model … --experiment …` writes, one code for both. The figures
// (PNG, SVG, PDF) are the dialogs' tables and heatmaps; CSV and JSON their numbers
// (experimentexport.h). The dialogs draw their tables from the same TableFigure.
#pragma once

#include "experimentexport.h"
#include "models/headimportance.h"
#include "models/logitlens.h"

#include <array>

class QTableWidget;

namespace attn::ui {

// The logit lens as a table: a row a block ("after block ℓ"), a column a position (its
// token), each cell the top token there coloured by its probability (viridis, grey NaN).
[[nodiscard]] TableFigure logitLensTable(const ModelRun& run, const LogitLens& lens);
[[nodiscard]] std::optional<QByteArray> logitLensFile(FigureFormat format, const ModelRun& run,
                                                      const LogitLens& lens, QString* error);

// Which heads matter as a table: L × H changes of log p(target), red where the token loses
// without the head, blue where it gains (the diverging map, scaled by the largest change).
[[nodiscard]] TableFigure headImportanceTable(const ModelRun& run, const HeadImportance& scan);
[[nodiscard]] std::optional<QByteArray> headImportanceFile(FigureFormat format, const ModelRun& run,
                                                           const HeadImportance& scan,
                                                           QString* error);

// The head detector's roles in the order the dialog and the files show them, and each one's
// L × H grid of `scores`.
inline constexpr std::array kDetectorRoles{DetectorRole::PreviousToken,
                                           DetectorRole::DuplicateToken, DetectorRole::Induction};
[[nodiscard]] const std::vector<std::vector<double>>& scoresOf(const HeadScores& scores,
                                                               DetectorRole role);

// The three L × H grids of the head detector (previous-token, duplicate-token, induction),
// titled, and their heatmaps' style (numbers in the cells, 0 to 1).
[[nodiscard]] std::array<HeatmapData, 3> headRoleData(const HeadScores& scores);
[[nodiscard]] HeatmapStyle headRoleStyle();
// `seed`: the induction test's, named in the title (none: scores of the run's own ids).
[[nodiscard]] std::optional<QByteArray> headRolesFile(FigureFormat format, const ModelRun& run,
                                                      const HeadScores& scores,
                                                      std::optional<std::uint32_t> seed,
                                                      QString* error);

// The rollout (T × T) with the run's tokens on both axes; its figure adds row `row` under
// it as one annotated row.
[[nodiscard]] HeatmapData rolloutData(const ModelRun& run, const Matrix& rollout);
[[nodiscard]] std::optional<QByteArray> rolloutFile(FigureFormat format, const ModelRun& run,
                                                    const Matrix& rollout, int row, QString* error);

// Fills `table` with `figure`'s headers, texts and fills (the text black or white on its
// fill); tooltips are the caller's.
void fillTable(QTableWidget& table, const TableFigure& figure);

} // namespace attn::ui
