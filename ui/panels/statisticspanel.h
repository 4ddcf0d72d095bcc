// The figures beside the heatmaps: a headline in the tutorial's words, one table row
// per head of the chosen sequence, and the warnings with what to try. The table and the
// warnings scroll inside a panel of a steady height, so that the heatmaps beside it keep
// their room and their place whatever the number of heads and warnings.
#pragma once

#include "engine/engine.h"

#include <QStringList>
#include <QWidget>

#include <functional>

class QLabel;
class QTableWidget;
class QVBoxLayout;

namespace attn::ui {

// A figure with `decimals` decimals as the panel writes it; NaN and infinities spelled out.
[[nodiscard]] QString fixed(double value, int decimals);

class StatisticsPanel : public QWidget {
    Q_OBJECT

public:
    // The table's columns, left to right.
    enum Column {
        HeadColumn,
        StdScoresColumn,  // std(S)
        StdLogitsColumn,  // std(L)
        RatioColumn,      // std(L) / std(S)
        EntropyColumn,    // mean entropy / max, in bits
        RowMaxColumn,     // mean largest weight
        SaturatedColumn,  // share of saturated rows
        RowSumsColumn,    // min – max
        ColumnSumsColumn, // min – max
        NanColumn,        // NaN count
        FinalStdColumn,   // std of L after ALiBi and the cap (shown when either is on)
        SinkColumn,       // the largest weight the sink took (shown with a sink)
        ColumnCount
    };

    explicit StatisticsPanel(QWidget* parent = nullptr);

    // Shows the figures of `result`; the table lists the heads of batch element
    // `sequence` (clamped to the batch). An invalid result clears the panel.
    void setResult(const attn::Result& result, int sequence);
    void clear();
    // Out of date: the newest input was refused for `reason` (in the interface language);
    // the figures stay, greyed, under a line saying why. An empty reason: current again
    // (setResult() alone does not change it: the window shows the same figures again for
    // another sequence).
    void setStale(const QString& reason);
    [[nodiscard]] bool isStale() const { return !staleReason_.isEmpty(); }
    [[nodiscard]] QString staleReason() const { return staleReason_; }

    // As wide as the figures, and a few table rows high whatever they hold: a dock keeps
    // this height until the user drags its splitter.
    [[nodiscard]] QSize sizeHint() const override;

    [[nodiscard]] QTableWidget* table() const { return table_; }
    // The headline over the table, as the rich text shown.
    [[nodiscard]] QString headlineText() const;
    // The warnings shown, in the interface language; empty when there are none.
    [[nodiscard]] QStringList warningTexts() const { return warningTexts_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void setHeaders();
    void fillHeadline();
    void fillTable();
    void fillWarnings();
    void addWarningRow(const QIcon& icon, const QString& text);
    void fillStale();
    [[nodiscard]] QString factorText() const;
    [[nodiscard]] bool sinkTakes() const;
    void todaysFigures(QStringList& figures,
                       const std::function<QString(const QString&, bool)>& flag) const;

    attn::Result result_; // withoutHeadTensors(): the statistics, tokens and request
    int sequence_ = 0;
    QStringList warningTexts_;
    QString staleReason_;
    QLabel* staleLabel_; // above the warnings, while stale
    QLabel* headlineLabel_;
    QLabel* tableCaption_;
    QTableWidget* table_;
    QLabel* warningsCaption_;
    QVBoxLayout* warningsLayout_;
};

} // namespace attn::ui
