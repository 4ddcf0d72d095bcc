// The figures beside the heatmaps: a headline in the tutorial's words, one table row
// per head of the chosen sequence, and the warnings with what to try.
#pragma once

#include "engine.h"

#include <QStringList>
#include <QWidget>

class QLabel;
class QTableWidget;
class QVBoxLayout;

namespace attn::ui {

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
        ColumnCount
    };

    explicit StatisticsPanel(QWidget* parent = nullptr);

    // Shows the figures of `result`; the table lists the heads of batch element
    // `sequence` (clamped to the batch). An invalid result clears the panel.
    void setResult(const attn::Result& result, int sequence);
    void clear();

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
    [[nodiscard]] QString factorText() const;

    attn::Result result_; // withoutHeadTensors(): the statistics, tokens and request
    int sequence_ = 0;
    QStringList warningTexts_;
    QLabel* headlineLabel_;
    QLabel* tableCaption_;
    QTableWidget* table_;
    QLabel* warningsCaption_;
    QVBoxLayout* warningsLayout_;
};

} // namespace attn::ui
