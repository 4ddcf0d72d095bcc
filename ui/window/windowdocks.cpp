#include "windowdocks.h"

#include "controlpanel.h"
#include "presetpanel.h"
#include "statisticspanel.h"

#include <QCoreApplication>
#include <QDockWidget>
#include <QMainWindow>
#include <QScrollArea>

namespace attn::ui {
namespace {

QDockWidget* addDock(QMainWindow* window, QWidget* content, const char* name,
                     Qt::DockWidgetArea area, QDockWidget::DockWidgetFeatures features)
{
    auto* dock = new QDockWidget(window);
    dock->setObjectName(QString::fromLatin1(name));
    dock->setWidget(content);
    dock->setFeatures(features);
    window->addDockWidget(area, dock);
    return dock;
}

constexpr QDockWidget::DockWidgetFeatures kFixed =
    QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable;

} // namespace

WindowDocks::WindowDocks(QMainWindow* window, ControlPanel* controlPanel,
                         StatisticsPanel* statisticsPanel, PresetPanel* presetPanel)
{
    auto* controlsScroll = new QScrollArea;
    controlsScroll->setWidget(controlPanel);
    controlsScroll->setWidgetResizable(true);
    controlsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    controlsScroll->setMinimumWidth(controlPanel->sizeHint().width() + 20);
    controls = addDock(window, controlsScroll, "controlsDock", Qt::LeftDockWidgetArea, kFixed);
    statistics =
        addDock(window, statisticsPanel, "statisticsDock", Qt::BottomDockWidgetArea, kFixed);
    presets = addDock(window, presetPanel, "presetsDock", Qt::RightDockWidgetArea,
                      kFixed | QDockWidget::DockWidgetClosable);
    presets->hide(); // shown when a preset is chosen
}

void WindowDocks::retranslate()
{
    controls->setWindowTitle(QCoreApplication::translate("WindowDocks", "Sentence and Formula"));
    statistics->setWindowTitle(
        QCoreApplication::translate("WindowDocks", "Statistics and Warnings"));
    presets->setWindowTitle(QCoreApplication::translate("WindowDocks", "Preset"));
}

void bringForward(QWidget* widget, bool activate)
{
    widget->show();
    widget->raise();
    if (activate)
        widget->activateWindow();
}

} // namespace attn::ui
