// A text as the tokens a model wrote it in, wrapped like text: each token a chip, the
// newest outlined, every chip tinted by one attention row over them (the row that chose the
// newest token: how much it read each earlier one). Hover a chip for its weight. The model
// window's Let It Write dialog shows each column's text in one.
#pragma once

#include <QWidget>

#include <vector>

namespace attn::ui {

class TokenFlow : public QWidget {
    Q_OBJECT

public:
    explicit TokenFlow(QWidget* parent = nullptr);

    // The tokens' readable labels; the first `prompt` of them the prompt's (drawn plain).
    void setTokens(std::vector<QString> labels, int prompt);
    void addToken(const QString& label);
    // The attention row over the first weights.size() tokens (the rest untinted), or none.
    void setWeights(std::vector<float> weights);

    [[nodiscard]] int tokenCount() const { return int(labels_.size()); }
    [[nodiscard]] const std::vector<float>& weights() const { return weights_; }
    // Token `index`'s rectangle (tests), empty outside.
    [[nodiscard]] QRect chipRect(int index) const;
    [[nodiscard]] QString chipToolTip(int index) const;

    [[nodiscard]] bool hasHeightForWidth() const override { return true; }
    [[nodiscard]] int heightForWidth(int width) const override;
    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    // The chips laid out in `width`, and the height they take.
    int layOut(int width, std::vector<QRect>* rects) const;

    std::vector<QString> labels_;
    std::vector<float> weights_;
    std::vector<QRect> rects_;
    int prompt_ = 0;
};

} // namespace attn::ui
