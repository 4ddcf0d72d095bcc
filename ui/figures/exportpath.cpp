#include "exportpath.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QStandardPaths>

#include <algorithm>

namespace attn::ui {

QString& lastExportDirectory()
{
    static QString directory = [] {
        const QString pictures = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
        return pictures.isEmpty() ? QDir::homePath() : pictures;
    }();
    return directory;
}

QString chooseExportPath(QWidget* parent, const QString& title, const QString& suggestedName,
                         std::span<const FigureFormat> formats)
{
    QStringList filters;
    for (const FigureFormat format : formats)
        filters << formatFilter(format);
    QString filter = filters.first();
    QString path = QFileDialog::getSaveFileName(parent, title,
                                                QDir(lastExportDirectory()).filePath(suggestedName),
                                                filters.join(QStringLiteral(";;")), &filter);
    if (path.isEmpty())
        return {};
    if (QFileInfo(path).suffix().isEmpty())
        path += u'.' + formatSpelling(
                           formats[std::size_t(std::max<qsizetype>(0, filters.indexOf(filter)))]);
    lastExportDirectory() = QFileInfo(path).absolutePath();
    return path;
}

void chooseAndExport(QWidget* parent, const QString& title, const QString& suggestedName,
                     std::span<const FigureFormat> formats,
                     const std::function<QString(const QString& path)>& write)
{
    const QString path = chooseExportPath(parent, title, suggestedName, formats);
    if (path.isEmpty())
        return;
    if (const QString error = write(path); !error.isEmpty())
        QMessageBox::warning(parent, title, error);
}

} // namespace attn::ui
