// The teaching lab's "Step by step" window: the pipeline strip of one sequence and head,
// choosers for both, and a panel that works one weight out with the real numbers — the
// dot product, the scaling, the mask and the softmax over its axis.
#pragma once

#include "colormap.h"
#include "engine/engine.h"
#include "explanationhtml.h"
#include "lab/explain.h"

#include <QDialog>

#include <optional>

class QComboBox;
class QLabel;
class QPushButton;
class QScrollArea;
class QTextBrowser;

namespace attn::ui {

class PipelineStrip;

class PipelineDialog : public QDialog {
    Q_OBJECT

public:
    explicit PipelineDialog(QWidget* parent);

    // Shows `result` (which needs its weights) for `sequence` and `head`, clamped to the
    // result's range. The explained cell stays when it still exists, else it becomes the
    // last real query's first key.
    void setResult(const attn::Result& result, int sequence, int head);
    // Lets go of the result's tensors (a large switch reuses their memory); the strip stays
    // as it is, its choosers do nothing, until setResult().
    void letGo();
    // The weights' tile in the main window's colormap and colour scale.
    void setColourScale(ColormapName colormap, bool logScale);

    // Explains weight [i][j] of the current sequence and head, and outlines it.
    void explainCell(int i, int j);

    [[nodiscard]] int sequence() const { return b_; }
    [[nodiscard]] int head() const { return h_; }
    [[nodiscard]] PipelineStrip* strip() const { return strip_; }
    [[nodiscard]] const std::optional<CellExplanation>& explanation() const { return explanation_; }
    // The panel's text as the student reads it.
    [[nodiscard]] QString explanationText() const;

    // Writes the strip as it is laid out, the outlined cell too, and below it the panel's
    // arithmetic of that cell, to `path` (.png at twice the screen's pixels, .svg or .pdf),
    // atomically. Returns an empty string on success, else a translated one-line reason.
    [[nodiscard]] QString exportTo(const QString& path);

protected:
    void changeEvent(QEvent* event) override;

private:
    void fillChoosers();
    void showChoice();
    void showExplanation();
    // The panel's arithmetic of the explained cell, or empty when there is none.
    [[nodiscard]] QString explanationHtmlShown() const;
    void retranslateUi();
    void chooseFileAndExport();

    Result result_;
    int b_ = 0;
    int h_ = 0;
    int i_ = -1;
    int j_ = -1;
    std::optional<CellExplanation> explanation_;

    QLabel* sequenceLabel_;
    QComboBox* sequenceCombo_;
    QLabel* headLabel_;
    QComboBox* headCombo_;
    QLabel* hintLabel_;
    QScrollArea* scroll_;
    PipelineStrip* strip_;
    QTextBrowser* panel_;
    QPushButton* exportButton_;
};

} // namespace attn::ui
