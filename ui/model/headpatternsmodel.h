// The head patterns of one sequence as a table (layer, head, previous, self, first,
// entropy, and what the head does most: "previous token" … "no clear pattern", headRole()),
// one row a head, sortable by any column and orderable by likeness to a head
// ("show heads like this one", headsLike()).
#pragma once

#include "attention/headpatterns.h"

#include <QAbstractTableModel>

#include <vector>

namespace attn::ui {

class HeadPatternsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Layer, Head, Previous, Self, First, Entropy, Named, ColumnCount };

    explicit HeadPatternsModel(QObject* parent = nullptr);

    // The patterns [l·H + h] of a stack of `heads` heads a layer and `keys` keys.
    void setPatterns(std::vector<HeadPatterns> patterns, int heads, int keys);
    [[nodiscard]] const std::vector<HeadPatterns>& patterns() const { return patterns_; }

    // The head (its index l·H + h) shown in `row`, and the row showing head `index`.
    [[nodiscard]] int headAt(int row) const { return order_.at(std::size_t(row)); }
    [[nodiscard]] int rowOf(int index) const;
    // The heads in the order the rows show them.
    [[nodiscard]] const std::vector<int>& order() const { return order_; }
    // Orders the rows as headsLike(patterns, index, keys): head `index` first.
    void orderLike(int index);

    [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
    [[nodiscard]] QVariant data(const QModelIndex& index, int role) const override;
    [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation,
                                      int role) const override;
    // NaN measures (cross-attention's previous and self) sort last either way.
    void sort(int column, Qt::SortOrder order) override;

    // A role's name in the Pattern column.
    [[nodiscard]] static QString roleName(HeadRole role);
    // How the roles are decided, thresholds included: the Pattern column's tooltip.
    [[nodiscard]] static QString rolesExplained();

private:
    // The value of `column` for head `index` (NaN when it has none).
    [[nodiscard]] double value(int index, int column) const;
    // The name of head `index`'s role.
    [[nodiscard]] QString patternName(int index) const;

    std::vector<HeadPatterns> patterns_;
    std::vector<int> order_;
    int heads_ = 1;
    int keys_ = 1;
};

} // namespace attn::ui
