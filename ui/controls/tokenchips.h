// The tokens of the batch as rounded chips: one line of chips per sequence, wrapping
// with the width, <pad> chips dashed and grey, and a count line "B = 2 · T = 7".
#pragma once

#include "engine/tokenizer.h"

#include <QWidget>

#include <optional>
#include <vector>

namespace attn::ui {

class TokenChips : public QWidget {
    Q_OBJECT

public:
    // Sequences longer than this show their first chips and a "+N more" chip.
    static constexpr int kMaxChipsPerSequence = 64;

    explicit TokenChips(QWidget* parent = nullptr);

    // Shows `batch` as chips and clears any error.
    void setTokens(const TokenBatch& batch);
    // Shows `message` in red instead of the chips, e.g. invalid UTF-8 or an empty text.
    void setError(const QString& message);
    // Shows nothing.
    void clear();
    // Whether the keys of <pad> tokens are masked; only the <pad> chips' tooltip says so.
    void setPaddingMasked(bool masked);
    // The chips of cross-attention's second text: the count line names T_k, not B and T.
    void setKeys(bool keys);

    [[nodiscard]] const TokenBatch& tokens() const { return batch_; }
    [[nodiscard]] const QString& error() const { return error_; }
    // The count line, e.g. "B = 2 sequences · T = 7 tokens"; empty without tokens.
    [[nodiscard]] QString countText() const;
    // How many <pad> chips are shown.
    [[nodiscard]] int padChipCount() const;
    // Where the chip of token `position` of sequence `sequence` is drawn at the current
    // width; an empty rectangle when it is not drawn.
    [[nodiscard]] QRect chipRect(int sequence, int position) const;
    // The tooltip of that chip: the whole token, or why a <pad> chip is there.
    [[nodiscard]] QString chipToolTip(int sequence, int position) const;
    // What a screen reader hears (the accessible description): the count line and each
    // sequence's tokens ("0: 小猫 · 坐在 · …", at most the chips shown), or the error.
    [[nodiscard]] QString accessibleText() const;

    [[nodiscard]] bool hasHeightForWidth() const override { return true; }
    [[nodiscard]] int heightForWidth(int width) const override;
    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct Chip {
        int sequence = 0;
        int position = 0; // kMoreChip for the "+N more" chip
        QRect rect;
        QString text; // elided to fit
    };
    struct ChipLayout {
        int width = -1;
        QRect countLine;
        std::vector<QRect> sequenceLabels; // "0:", "1:", … one per sequence
        std::vector<Chip> chips;
        QRect errorRect;
        int height = 0;
    };
    static constexpr int kMoreChip = -1;

    [[nodiscard]] const ChipLayout& chipLayout(int width) const;
    [[nodiscard]] ChipLayout computeLayout(int width) const;
    [[nodiscard]] const Chip* chipAt(QPoint point) const;
    // Tokens per sequence beyond kMaxChipsPerSequence (every sequence has T tokens).
    [[nodiscard]] int hiddenTokens() const;
    // "+N more": the last chip of a long sequence, and how a screen reader hears the rest.
    [[nodiscard]] static QString moreText(int hidden);
    [[nodiscard]] QFont padFont() const;
    void contentChanged();
    // The accessible name and description, told to a screen reader when they change.
    void describe();

    TokenBatch batch_;
    QString error_;
    bool paddingMasked_ = true;
    bool keys_ = false; // the second text of cross-attention
    mutable std::optional<ChipLayout> layout_;
};

} // namespace attn::ui
