// One row of the attention rollout as a bar chart: a bar per input token, its height the
// share of that token in the position's representation at the top (the row sums to 1),
// the tokens under the bars, the largest bar's value on the axis; hover a bar for its value.
#pragma once

#include <QStringList>
#include <QWidget>

#include <vector>

namespace attn::ui {

class RolloutBars : public QWidget {
    Q_OBJECT

public:
    explicit RolloutBars(QWidget* parent = nullptr);

    // The values over the tokens `labels`, under `title`.
    void setRow(std::vector<double> values, QStringList labels, const QString& title);
    [[nodiscard]] const std::vector<double>& values() const { return values_; }
    [[nodiscard]] QString title() const { return title_; }
    // The bar under `pos`, or −1.
    [[nodiscard]] int barAt(QPoint pos) const;

    [[nodiscard]] QSize sizeHint() const override { return {600, 220}; }
    [[nodiscard]] QSize minimumSizeHint() const override { return {200, 140}; }

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    [[nodiscard]] QRectF plotRect() const;

    std::vector<double> values_;
    QStringList labels_;
    QString title_;
};

} // namespace attn::ui
