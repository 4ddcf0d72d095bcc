// The formula the engine actually computes, softmax(QKᵀ/√d_k + M)·V as the switches
// make it, with every departure from the textbook form marked in red and listed in
// plain words underneath.
#pragma once

#include "engine/formula.h"
#include "engine/options.h"

#include <QColor>
#include <QStringList>
#include <QWidget>

class QLabel;

namespace attn::ui {

// The red that marks a departure or a figure in trouble, readable on `palette`'s
// base colour whether the palette is light or dark.
[[nodiscard]] QColor alertColor(const QPalette& palette);

class FormulaBar : public QWidget {
    Q_OBJECT

public:
    explicit FormulaBar(QWidget* parent = nullptr);

    // Shows the formula `config` computes; `hasPadding` says whether some sequence of
    // the text is padded with <pad> tokens, so that a padding mask takes part in M.
    void setConfig(const attn::Config& config, bool hasPadding);

    // The formula and its legend (what M, τ and d_k are), as the rich text shown.
    [[nodiscard]] QString formulaHtml() const;
    // Each departure from the textbook formula in plain words; empty for the textbook.
    [[nodiscard]] QStringList departures() const { return departures_; }

    // The departures of `config` from the textbook formula, as departures() lists them.
    [[nodiscard]] static QStringList departuresOf(const attn::Config& config, bool hasPadding);

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    void setSummary();
    // The least height of each label, the same for every formula.
    void reserveLines();
    [[nodiscard]] QString alert(const QString& html) const;
    [[nodiscard]] QString maskLegend() const;
    void todaysLegend(const Formula& formula, QStringList& legend, QStringList& notes) const;

    attn::Config config_;
    bool hasPadding_ = false;
    QStringList departures_;
    QLabel* formulaLabel_;
    QLabel* legendLabel_;
    QLabel* summaryLabel_;
};

} // namespace attn::ui
