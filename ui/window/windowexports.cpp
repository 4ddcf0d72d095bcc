#include "windowexports.h"

#include "engine/engine.h"
#include "exportdialog.h"
#include "settings.h"
#include "statusmessage.h"

#include <QCoreApplication>
#include <QMainWindow>
#include <QStatusBar>

namespace attn::ui {
namespace {

bool canExport(QMainWindow* window, const Result& result)
{
    if (result.valid())
        return true;
    showStatusMessage(
        window, QCoreApplication::translate("WindowExports",
                                            "Nothing to export yet: the heatmaps are computing."));
    return false;
}

} // namespace

void exportFigure(QMainWindow* window, const Result& result, const ViewOptions& view, int head)
{
    if (!canExport(window, result))
        return;
    ExportDialog dialog(result, view, head, window);
    dialog.exec();
}

void exportNumbers(QMainWindow* window, const Result& result)
{
    if (canExport(window, result))
        exportNumbersInteractively(window, result);
}

void copyFigure(QMainWindow* window, const Result& result, const ViewOptions& view)
{
    if (!canExport(window, result))
        return;
    copyFigureToClipboard(result, view);
    showStatusMessage(window, QCoreApplication::translate("WindowExports", "Figure copied."), 3000);
}

} // namespace attn::ui
