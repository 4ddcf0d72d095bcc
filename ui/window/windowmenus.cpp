#include "windowmenus.h"

#include "sessionfiles.h"
#include "windowactions.h"

#include <QActionGroup>
#include <QCoreApplication>
#include <QMainWindow>
#include <QMenuBar>

namespace attn::ui {

WindowMenus::WindowMenus(QMainWindow* window, const WindowActions& actions, SessionFiles* sessions,
                         QMenu* presets)
{
    QMenuBar* bar = window->menuBar();
    file_ = bar->addMenu(QString());
    file_->addAction(actions.action(ActionId::OpenSession));
    file_->addAction(actions.action(ActionId::OpenAttention));
    file_->addAction(actions.action(ActionId::OpenModel));
    recent_ = file_->addMenu(QString());
    sessions->attachRecentMenu(recent_);
    file_->addAction(actions.action(ActionId::SaveSession));
    file_->addAction(actions.action(ActionId::SaveSessionAs));
    file_->addSeparator();
    file_->addAction(actions.action(ActionId::ExportFigure));
    file_->addAction(actions.action(ActionId::ExportNumbers));
    file_->addSeparator();
    file_->addAction(actions.action(ActionId::Quit));

    edit_ = bar->addMenu(QString());
    edit_->addAction(actions.action(ActionId::CopyFigure));

    view_ = bar->addMenu(QString());
    colormap_ = view_->addMenu(QString());
    colormap_->addActions(actions.colormaps()->actions());
    for (const ViewToggle& toggle : kViewToggles)
        view_->addAction(actions.action(toggle.id));
    view_->addSeparator();
    language_ = view_->addMenu(QString());
    language_->addActions(actions.languages()->actions());

    bar->addMenu(presets);

    lab_ = bar->addMenu(QString());
    lab_->addAction(actions.action(ActionId::StepByStep));
    lab_->addAction(actions.action(ActionId::Compare));
    lab_->addAction(actions.action(ActionId::DkSweep));
    lab_->addAction(actions.action(ActionId::EmbeddingEditor));

    help_ = bar->addMenu(QString());
    help_->addAction(actions.action(ActionId::HowToRead));
    help_->addSeparator();
    help_->addAction(actions.action(ActionId::About));
    help_->addAction(actions.action(ActionId::AboutQt));
}

void WindowMenus::retranslate()
{
    file_->setTitle(tr("&File"));
    edit_->setTitle(tr("&Edit"));
    view_->setTitle(tr("&View"));
    colormap_->setTitle(tr("&Colormap"));
    language_->setTitle(tr("&Language"));
    help_->setTitle(tr("&Help"));
    recent_->setTitle(tr("Open &Recent"));
    lab_->setTitle(tr("&Lab"));
}

} // namespace attn::ui
