#include "headpatternsmodel.h"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attn::ui {

HeadPatternsModel::HeadPatternsModel(QObject* parent) : QAbstractTableModel(parent) {}

void HeadPatternsModel::setPatterns(std::vector<HeadPatterns> patterns, int heads, int keys)
{
    beginResetModel();
    patterns_ = std::move(patterns);
    heads_ = std::max(1, heads);
    keys_ = std::max(1, keys);
    order_.resize(patterns_.size());
    std::iota(order_.begin(), order_.end(), 0);
    endResetModel();
}

int HeadPatternsModel::rowOf(int index) const
{
    const auto it = std::ranges::find(order_, index);
    return it == order_.end() ? -1 : int(it - order_.begin());
}

void HeadPatternsModel::orderLike(int index)
{
    emit layoutAboutToBeChanged();
    const QModelIndexList before = persistentIndexList();
    std::vector<int> heads;
    for (const QModelIndex& i : before)
        heads.push_back(headAt(i.row()));
    order_ = headsLike(patterns_, index, keys_);
    for (std::size_t k = 0; k < heads.size(); ++k)
        changePersistentIndex(before[qsizetype(k)],
                              createIndex(rowOf(heads[k]), before[qsizetype(k)].column()));
    emit layoutChanged();
}

int HeadPatternsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(order_.size());
}

int HeadPatternsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

double HeadPatternsModel::value(int index, int column) const
{
    const HeadPatterns& p = patterns_[std::size_t(index)];
    switch (column) {
    case Layer:
        return index / heads_;
    case Head:
        return index % heads_;
    case Previous:
        return p.previous;
    case Self:
        return p.self;
    case First:
        return p.first;
    case Entropy:
        return p.entropy;
    case Named: // sorts the heads of a role together
        return double(headRole(p));
    default:
        return std::nan("");
    }
}

QString HeadPatternsModel::roleName(HeadRole role)
{
    switch (role) {
    case HeadRole::PreviousToken:
        return tr("previous token", "a head that puts most of its weight on the token before");
    case HeadRole::Self:
        return tr("self", "a head that puts most of its weight on the token itself");
    case HeadRole::FirstToken:
        return tr("attention sink (first token)",
                  "a head that puts most of its weight on the first token");
    case HeadRole::Broad:
        return tr("broad", "a head that spreads its weight evenly over the keys");
    case HeadRole::NoClearPattern:
        break;
    }
    return tr("no clear pattern", "a head that none of the named patterns describes");
}

QString HeadPatternsModel::patternName(int index) const
{
    return roleName(headRole(patterns_[std::size_t(index)]));
}

QString HeadPatternsModel::rolesExplained()
{
    //: %1 and %2 are thresholds such as 0.5 and 80%
    return tr("What the head does most, from its numbers: previous token, self or attention "
              "sink (first token) when that column exceeds %1 — more than half of the "
              "queries' weight, on average (a sink parks its weight on the first token whatever "
              "it is: Xiao et al., 2023); otherwise broad when the entropy is at least %2 of "
              "the most it could be over the keys each query weighs; otherwise no clear "
              "pattern. Untrained (random) heads are mostly broad.")
        .arg(QLocale().toString(kRoleThreshold, 'f', 1),
             QLocale().toString(100 * kBroadThreshold, 'f', 0) + QLatin1Char('%'));
}

QVariant HeadPatternsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const int head = headAt(index.row());
    const double v = value(head, index.column());
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == Named)
            return patternName(head);
        if (index.column() <= Head)
            return QLocale().toString(int(v));
        return std::isnan(v) ? tr("—", "a measure that has no meaning here")
                             : QLocale().toString(v, 'f', index.column() == Entropy ? 2 : 3);
    case Qt::UserRole:
        return v;
    case Qt::TextAlignmentRole:
        return int((index.column() == Named ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (std::isnan(v))
            return tr("Not measured: previous and self have no meaning in cross-attention");
        if (index.column() == Named) // whole, where the column is too narrow for it
            return patternName(head) + QStringLiteral("\n\n") + rolesExplained();
        return {};
    default:
        return {};
    }
}

QVariant HeadPatternsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return role == Qt::DisplayRole ? QVariant(section + 1) : QVariant();
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Layer:
            return tr("Layer");
        case Head:
            return tr("Head");
        case Previous:
            return tr("Previous", "head pattern: weight on the previous token");
        case Self:
            return tr("Self", "head pattern: weight on the token itself");
        case First:
            return tr("First", "head pattern: weight on the first token");
        case Entropy:
            return tr("Entropy", "head pattern: mean entropy in bits");
        case Named:
            return tr("Pattern", "head pattern: what the head does most");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Previous:
            return tr("Mean weight each query gives the token just before it");
        case Self:
            return tr("Mean weight each query gives itself");
        case First:
            return tr("Mean weight on the first token (the \"sink\")");
        case Entropy:
            return tr("Mean entropy of a query's weights in bits, over the queries after the "
                      "first (query 0 is left out, as in the other columns: under a causal mask "
                      "it sees one key); 0 when a query looks at one key, log2 of the keys it "
                      "sees when at all alike. The head view's mean entropy averages every row.");
        case Named:
            return rolesExplained();
        default:
            return {};
        }
    }
    return {};
}

void HeadPatternsModel::sort(int column, Qt::SortOrder order)
{
    if (column < 0 || column >= ColumnCount)
        return;
    emit layoutAboutToBeChanged();
    const QModelIndexList before = persistentIndexList();
    std::vector<int> heads;
    for (const QModelIndex& i : before)
        heads.push_back(headAt(i.row()));
    std::ranges::stable_sort(order_, [&](int a, int b) {
        const double x = value(a, column);
        const double y = value(b, column);
        if (std::isnan(x) || std::isnan(y))
            return !std::isnan(x) && std::isnan(y);
        return order == Qt::AscendingOrder ? x < y : x > y;
    });
    for (std::size_t k = 0; k < heads.size(); ++k)
        changePersistentIndex(before[qsizetype(k)],
                              createIndex(rowOf(heads[k]), before[qsizetype(k)].column()));
    emit layoutChanged();
}

} // namespace attn::ui
