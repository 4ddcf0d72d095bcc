// Two heads of one attention stack side by side (a file's, or a model run's): the head the
// head view shows (A) and another head or layer mean of the same sequence (B), drawn as the
// head view draws them on one colour scale, the value of both cells and their difference
// on hover, and a line of numbers: where and how much they differ, and each side's row
// sums and mean entropy. The stack's weights are taken as stored.
#pragma once

#include "attention/attentionstack.h"
#include "colormap.h"
#include "modelfigure.h"

#include <QDialog>

#include <memory>
#include <utility>

class QComboBox;
class QLabel;
class QSpinBox;

namespace attn::ui {

class HeatmapView;

// How two weight matrices of one shape differ, over the cells where both are finite: the
// largest |A − B| and its cell (row, column; −1 when no cell counts), the mean |A − B|.
struct HeadDifference {
    double largest = 0;
    int row = -1;
    int column = -1;
    double mean = 0;
    int cells = 0; // the cells counted
};
[[nodiscard]] HeadDifference headDifference(const Matrix& a, const Matrix& b);

// What B is when the comparison opens: the same selection in the next layer; in the last
// layer, the layer before; with one layer, the next head of the layer (the mean after the
// last head, the first head after the mean).
[[nodiscard]] std::pair<int, FileSelection> defaultComparison(const StackShape& shape, int layer,
                                                              const FileSelection& selection);

class HeadCompareDialog : public QDialog {
    Q_OBJECT

public:
    explicit HeadCompareDialog(QWidget* parent = nullptr);

    // Compares `selection` of layer `layer` (A) with defaultComparison() (B). The dialog
    // shares `stack`, as FileHeadDialog does.
    void compare(std::shared_ptr<const AttentionStack> stack, int layer, int sequence,
                 const FileSelection& selection, ColormapName colormap);
    // Chooses B, as the layer and head selectors do.
    void setOther(int layer, const FileSelection& selection);
    [[nodiscard]] int otherLayer() const;
    [[nodiscard]] FileSelection otherSelection() const;

    [[nodiscard]] HeatmapView* viewA() const { return viewA_; }
    [[nodiscard]] HeatmapView* viewB() const { return viewB_; }
    [[nodiscard]] const HeadDifference& difference() const { return difference_; }
    [[nodiscard]] QString numbersText() const;
    // What a hover on cell (row, column) of either side says: both weights and B − A.
    [[nodiscard]] QString cellText(int row, int column) const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void refresh();
    void retranslate();
    void fillHeads();

    QSpinBox* layer_;
    QComboBox* head_;
    QLabel* layerLabel_;
    QLabel* headLabel_;
    HeatmapView* viewA_;
    HeatmapView* viewB_;
    QLabel* hover_;
    QLabel* numbers_;
    std::shared_ptr<const AttentionStack> stack_;
    int layerA_ = 0;
    int sequence_ = 0;
    FileSelection selectionA_;
    ColormapName colormap_ = ColormapName::Viridis;
    HeadDifference difference_;
    bool filling_ = false;
};

} // namespace attn::ui
