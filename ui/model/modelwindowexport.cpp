// ModelWindow's exports: a layer's numbers and a head's figure, to a file the user names.
#include "modelwindow.h"

#include "exportpath.h"
#include "figurewriter.h"
#include "modelexport.h"
#include "modelfigure.h"

#include <QComboBox>
#include <QFileInfo>

#include <array>

namespace attn::ui {
namespace {

constexpr std::array kNumberFormats{FigureFormat::Json, FigureFormat::Csv, FigureFormat::Npy};
constexpr std::array kFigureFormats{FigureFormat::Png, FigureFormat::Svg, FigureFormat::Pdf};

} // namespace

QString ModelWindow::exportTo(const QString& path) const
{
    QString error;
    const std::optional<FigureFormat> format = formatFromPath(path);
    if (!format) {
        return tr("Cannot tell the format of %1: name it .json, .csv, .npy, .png, .svg or .pdf.")
            .arg(QFileInfo(path).fileName());
    }
    if (!isFigureFormat(*format))
        return writeFigureFile(path,
                               layerNumbers(*stack_, sequence_, std::max(0, layer()), *format));
    const std::optional<QByteArray> bytes =
        headFigure(*stack_, sequence_, std::max(0, layer()), std::max(0, head()),
                   ColormapName(colormapCombo_->currentData().toInt()), *format, &error);
    return bytes ? writeFigureFile(path, *bytes) : error;
}

void ModelWindow::exportNumbers()
{
    const QString name =
        stackFileStem(*stack_) + QStringLiteral("-layer%1").arg(std::max(0, layer()));
    chooseAndExport(this, tr("Export Numbers"), name, kNumberFormats,
                    [this](const QString& path) { return exportTo(path); });
}

void ModelWindow::exportFigure()
{
    const QString name =
        stackFileStem(*stack_) +
        QStringLiteral("-layer%1-head%2").arg(std::max(0, layer())).arg(std::max(0, head()));
    chooseAndExport(this, tr("Export Figure"), name, kFigureFormats,
                    [this](const QString& path) { return exportTo(path); });
}

} // namespace attn::ui
