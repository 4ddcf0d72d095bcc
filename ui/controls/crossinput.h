// The self/cross switch and cross-attention's second text: in cross-attention the
// queries come from the sentence above and the keys and values from this one, as a
// decoder's words attend to the encoder's.
#pragma once

#include "engine/options.h"
#include "engine/tokenizer.h"

#include <QWidget>

#include <string>

class QComboBox;
class QLabel;
class QPlainTextEdit;

namespace attn::ui {

class TokenChips;

// Object names: attentionCombo, crossEdit, crossChips, crossNote.
class CrossInput : public QWidget {
    Q_OBJECT

public:
    explicit CrossInput(QWidget* parent = nullptr);

    [[nodiscard]] AttentionKind attention() const;
    [[nodiscard]] std::string crossText() const;
    // Sets both without emitting a signal; the second text stays while self-attention
    // is chosen, ready for the switch back.
    void set(AttentionKind attention, const std::string& crossText);

    // The keys' tokens under the second text (cross-attention only).
    void setTokens(const TokenBatch& keys);
    void clearTokens();
    void setPaddingMasked(bool masked);

    // The label of the switch, to align it in the caller's form.
    [[nodiscard]] QLabel* attentionLabel() const { return attentionLabel_; }
    [[nodiscard]] QComboBox* attentionCombo() const { return attentionCombo_; }

signals:
    void attentionChanged(); // at once
    void textEdited();       // every keystroke; the caller debounces

protected:
    void changeEvent(QEvent* event) override;

private:
    void showAttention();
    void retranslateUi();

    QLabel* attentionLabel_ = nullptr;
    QComboBox* attentionCombo_ = nullptr;
    QLabel* crossLabel_ = nullptr;
    QPlainTextEdit* crossEdit_ = nullptr;
    TokenChips* crossChips_ = nullptr;
    QLabel* note_ = nullptr;
};

} // namespace attn::ui
