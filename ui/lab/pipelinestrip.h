// "Step by step": the whole attention pipeline of one head as a row of matrices that
// wraps with the width — X, Q_h, K_h, V_h, S, L, the mask, P, O_h, the concatenation
// and the output — each with its formula and its shape written as the tutorial prints it.
//
// pipelinetiles.h makes the tiles (numberedPipelineTiles), PipelineTile shows one,
// PipelineStrip lines them up; pipelinefigure.h draws both and writes the figure.
#pragma once

#include "engine/engine.h"
#include "figureformat.h"
#include "pipelinetile.h"
#include "pipelinetiles.h"

#include <QByteArray>
#include <QString>
#include <QWidget>

#include <optional>
#include <vector>

namespace attn::ui {

class PipelineStrip : public QWidget {
    Q_OBJECT

public:
    explicit PipelineStrip(QWidget* parent = nullptr);

    // Shows sequence b and head h of `result`, which must have its weights.
    void setResult(const Result& result, int b, int h);
    void clear();
    // Lets go of the result (a large switch reuses its memory); the tiles keep their own
    // copies of the head's matrices and stay as they are until setResult().
    void letGo() { result_ = Result{}; }
    // Recolours the weights' tile (also one kept through letGo()).
    void setWeightColours(const WeightColours& colours);
    [[nodiscard]] const WeightColours& weightColours() const { return colours_; }

    [[nodiscard]] int count() const { return static_cast<int>(tiles_.size()); }
    [[nodiscard]] PipelineTile* tileAt(int index) const { return tiles_[std::size_t(index)]; }
    // The tile of `stage`, or nullptr when the result does not have it.
    [[nodiscard]] PipelineTile* tile(PipelineStage stage) const;

    // Outlines query i and key j: their row and column in S, L, the mask and P, q_i in
    // Q_h, k_j in K_h and row i of O_h. (−1, −1) clears.
    void setSelectedCell(int i, int j);

    // Lays the strip out `width` pixels wide (wider where a tile needs it) at once, shown
    // or not: for a figure made without a window.
    void layOut(int width);

    // The strip as it is laid out now, as a figure file for a handout: pipelineFigureBytes
    // of its tiles at its size, in its font and colours, the chosen cell outlined.
    [[nodiscard]] std::optional<QByteArray> figureBytes(FigureFormat format, double pixelsPerPixel,
                                                        QString* error,
                                                        const QString& appendixHtml = {});

    [[nodiscard]] bool hasHeightForWidth() const override { return true; }
    [[nodiscard]] int heightForWidth(int width) const override;
    [[nodiscard]] QSize sizeHint() const override;

signals:
    // A cell of the tile of `stage` was clicked.
    void cellClicked(attn::ui::PipelineStage stage, int row, int column);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    // The tiles left to right, wrapped into lines `width` wide.
    [[nodiscard]] TileFlow flow(int width) const;
    void rebuild();
    void relayout();

    Result result_;
    int b_ = 0;
    int h_ = 0;
    int selectedRow_ = -1;
    int selectedColumn_ = -1;
    WeightColours colours_;
    std::vector<PipelineTile*> tiles_;
};

} // namespace attn::ui
