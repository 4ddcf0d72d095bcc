// One head of an attention file, large: the head view (hover, zoom, values in cells, row
// and column sums) with the head's statistics and what they reveal. Imported weights are
// taken as stored, so rows that do not sum to 1 are a finding, not an error.
#pragma once

#include "attentionstack.h"
#include "headdialog.h"
#include "statistics.h"

#include <QStringList>

class QCheckBox;
class QLabel;

namespace attn::ui {

// Head h of sequence b in layer l as a heatmap: the file's weights, exactly, titled with
// the layer and head, labelled with the file's tokens (indices when it has none).
[[nodiscard]] HeatmapData fileHeadHeatmap(const AttentionStack& stack, int layer, int sequence,
                                          int head);

// The head's figures, one line: shape, row sums, entropy, largest weights.
[[nodiscard]] QString fileHeadSummary(const HeadStatistics& stats);
// What the figures reveal, most important first: rows that do not sum to 1, NaN and
// infinite weights, saturated or uniform rows. Empty when nothing stands out.
[[nodiscard]] QStringList fileHeadFindings(const HeadStatistics& stats);

class FileHeadDialog : public HeadDialog {
    Q_OBJECT

public:
    explicit FileHeadDialog(QWidget* parent = nullptr);

    // Shows head (layer, head) of `sequence`, with its statistics and findings.
    void showHead(const AttentionStack& stack, int layer, int sequence, int head,
                  ColormapName colormap);
    [[nodiscard]] int layer() const { return layer_; }
    [[nodiscard]] int head() const { return head_; }
    [[nodiscard]] const HeadStatistics& statistics() const { return stats_; }
    [[nodiscard]] QString summaryText() const;
    [[nodiscard]] QStringList findings() const { return fileHeadFindings(stats_); }

protected:
    void changeEvent(QEvent* event) override;

private:
    void applyStyle();
    void retranslate();

    QCheckBox* annotate_;
    QCheckBox* sums_;
    QLabel* summary_;
    QLabel* findings_;
    HeatmapStyle style_;
    HeadStatistics stats_;
    int layer_ = -1;
    int head_ = -1;
};

} // namespace attn::ui
