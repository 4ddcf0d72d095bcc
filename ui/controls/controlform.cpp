#include "controlform.h"

#include <QCoreApplication>
#include <QFormLayout>
#include <QLabel>

namespace attn::ui {

QString helpText(ControlHelp control)
{
    return QCoreApplication::translate("ControlHelp", controlHelp(control));
}

void setHelp(std::initializer_list<QWidget*> widgets, const QString& text)
{
    const QString toolTip = QStringLiteral("<p>%1</p>").arg(text.toHtmlEscaped());
    for (QWidget* widget : widgets) {
        widget->setToolTip(toolTip);
        widget->setStatusTip(text);
    }
}

QLabel* createLabel(QWidget* buddy)
{
    auto* label = new QLabel(buddy->parentWidget());
    label->setBuddy(buddy);
    return label;
}

QFormLayout* createFormLayout(QWidget* parent)
{
    auto* form = new QFormLayout(parent);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    // Compact: the panel lives in a dock about 320 px wide beside the heatmaps.
    form->setContentsMargins(6, 4, 6, 6);
    form->setVerticalSpacing(4);
    return form;
}

} // namespace attn::ui
