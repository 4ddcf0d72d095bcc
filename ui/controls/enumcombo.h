// Combo boxes for the formula's switches: each item holds an enum value in its data
// and shows displayName() of it. The control panel, the compare dialog's switches and
// the cross-attention input share them.
#pragma once

#include "engine/options.h"
#include "labels.h"

#include <QComboBox>

namespace attn::ui {

template <typename E> QComboBox* createEnumCombo(const char* objectName, QWidget* parent)
{
    auto* combo = new QComboBox(parent);
    combo->setObjectName(QLatin1StringView(objectName));
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(8);
    for (const auto& row : EnumTable<E>::rows)
        combo->addItem(displayName(row.value), static_cast<int>(row.value));
    return combo;
}

// The items' texts again, in the interface language now.
template <typename E> void retranslateItems(QComboBox* combo)
{
    for (int i = 0; i < combo->count(); ++i)
        combo->setItemText(i, displayName(static_cast<E>(combo->itemData(i).toInt())));
}

template <typename E> E currentValue(const QComboBox* combo)
{
    return static_cast<E>(combo->currentData().toInt());
}

template <typename E> void setCurrentValue(QComboBox* combo, E value)
{
    combo->setCurrentIndex(combo->findData(static_cast<int>(value)));
}

} // namespace attn::ui
