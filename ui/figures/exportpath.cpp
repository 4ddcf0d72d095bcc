#include "exportpath.h"

#include "settings.h"

#include <QBoxLayout>
#include <QCoreApplication>
#include <QDesktopServices>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMainWindow>
#include <QMessageBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTimer>
#include <QUrl>

#include <algorithm>

namespace attn::ui {
namespace {

constexpr const char* kOwnStatusBar = "savedStatusBar"; // added to a window without one
constexpr const char* kNotice = "savedNotice";

QStatusBar* statusBarOf(QWidget* from)
{
    QWidget* window = from->window();
    if (auto* main = qobject_cast<QMainWindow*>(window))
        return main->statusBar();
    if (auto* own = window->findChild<QStatusBar*>(QLatin1String(kOwnStatusBar),
                                                   Qt::FindDirectChildrenOnly))
        return own;
    auto* box = qobject_cast<QBoxLayout*>(window->layout());
    if (!box)
        return nullptr;
    auto* bar = new QStatusBar(window);
    bar->setObjectName(QLatin1String(kOwnStatusBar));
    bar->setSizeGripEnabled(false);
    box->addWidget(bar);
    return bar;
}

} // namespace

QString lastExportDirectory()
{
    const QString remembered = AppSettings().exportFolder();
    if (!remembered.isEmpty() && QFileInfo(remembered).isDir())
        return remembered;
    // QFileDialog starts in the working folder when given one that does not exist.
    const QString pictures = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    return !pictures.isEmpty() && QFileInfo(pictures).isDir() ? pictures : QDir::homePath();
}

void rememberExportDirectory(const QString& folder)
{
    AppSettings().setExportFolder(QFileInfo(folder).absoluteFilePath());
}

QString askSavePath(QWidget* parent, const QString& title, const QString& start,
                    const QString& filters, QString* selectedFilter)
{
    QFileDialog dialog(parent, title, QFileInfo(start).absolutePath(), filters);
    dialog.setObjectName(QStringLiteral("exportFileDialog"));
    dialog.setAcceptMode(QFileDialog::AcceptSave);
    dialog.selectFile(QFileInfo(start).fileName());
    if (selectedFilter && !selectedFilter->isEmpty())
        dialog.selectNameFilter(*selectedFilter);
    QTimer::singleShot(0, &dialog, [&dialog] {
        dialog.raise();
        dialog.activateWindow();
    });
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty())
        return {};
    if (selectedFilter)
        *selectedFilter = dialog.selectedNameFilter();
    return dialog.selectedFiles().constFirst();
}

QString chooseExportPath(QWidget* parent, const QString& title, const QString& suggestedName,
                         std::span<const FigureFormat> formats)
{
    QStringList filters;
    for (const FigureFormat format : formats)
        filters << formatFilter(format);
    QString filter = filters.first();
    QString path = askSavePath(parent, title, QDir(lastExportDirectory()).filePath(suggestedName),
                               filters.join(QStringLiteral(";;")), &filter);
    if (path.isEmpty())
        return {};
    if (QFileInfo(path).suffix().isEmpty())
        path += u'.' + formatSpelling(
                           formats[std::size_t(std::max<qsizetype>(0, filters.indexOf(filter)))]);
    rememberExportDirectory(QFileInfo(path).absolutePath());
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
    else
        announceSaved(parent, path);
}

QStatusBar* announceSaved(QWidget* from, const QString& path)
{
    QStatusBar* bar = from ? statusBarOf(from) : nullptr;
    if (!bar)
        return nullptr;
    auto* notice = bar->findChild<QLabel*>(QLatin1String(kNotice));
    if (!notice) {
        notice = new QLabel;
        notice->setObjectName(QLatin1String(kNotice));
        notice->setTextFormat(Qt::RichText);
        notice->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
        QObject::connect(notice, &QLabel::linkActivated, notice,
                         [](const QString& link) { QDesktopServices::openUrl(QUrl(link)); });
        bar->addWidget(notice);
        auto* timer = new QTimer(notice);
        timer->setObjectName(QStringLiteral("savedNoticeTimer"));
        timer->setSingleShot(true);
        timer->setInterval(kSavedNoticeMs);
        QObject::connect(timer, &QTimer::timeout, notice, [notice, bar] {
            notice->hide();
            if (bar->objectName() == QLatin1String(kOwnStatusBar))
                bar->hide(); // no empty line left at the window's foot
        });
    }
    const QFileInfo file(path);
    //: %1 is a file name, %2 the address of its folder
    notice->setText(
        QCoreApplication::translate("ExportPath", "Saved %1 · <a href=\"%2\">Open Folder</a>")
            .arg(file.fileName().toHtmlEscaped(),
                 QUrl::fromLocalFile(file.absolutePath()).toString()));
    notice->setToolTip(QDir::toNativeSeparators(file.absoluteFilePath()));
    bar->clearMessage(); // a message would hide it
    bar->show();
    notice->show();
    notice->findChild<QTimer*>(QStringLiteral("savedNoticeTimer"))->start();
    return bar;
}

} // namespace attn::ui
