#include "openmodeldialog.h"

#include "shownpath.h"

#include "models/families.h"
#include "models/modelcaches.h"
#include "shownpath.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

namespace attn::ui {
namespace {

// Where the last model was chosen from: the next dialog starts there.
QString& lastDirectory()
{
    static QString directory = QDir::homePath();
    return directory;
}

} // namespace

OpenModelDialog::OpenModelDialog(QWidget* parent)
    : QDialog(parent), intro_(new QLabel), cachedLabel_(new QLabel), cached_(new QListWidget),
      folderLabel_(new QLabel), folder_(new QLineEdit), browse_(new QPushButton),
      chooseFile_(new QPushButton), howTo_(new QLabel),
      buttons_(new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel))
{
    setObjectName("openModelDialog");
    cached_->setObjectName("cachedModels");
    folder_->setObjectName("modelFolder");
    browse_->setObjectName("browseModel");
    chooseFile_->setObjectName("chooseModelFile");
    howTo_->setObjectName("howToGetModel");
    intro_->setObjectName("modelFolderIntro");
    intro_->setWordWrap(true);
    howTo_->setWordWrap(true);
    howTo_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    cachedLabel_->setBuddy(cached_);
    folderLabel_->setBuddy(folder_);

    auto* folderRow = new QHBoxLayout;
    folderRow->addWidget(folderLabel_);
    folderRow->addWidget(folder_, 1);
    folderRow->addWidget(browse_);
    folderRow->addWidget(chooseFile_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro_);
    layout->addWidget(cachedLabel_);
    layout->addWidget(cached_, 1);
    layout->addLayout(folderRow);
    layout->addWidget(howTo_);
    layout->addWidget(buttons_);

    connect(cached_, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* item) {
        if (item && !item->data(Qt::UserRole).toString().isEmpty())
            setFolder(item->data(Qt::UserRole).toString());
    });
    connect(cached_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        if (!item->data(Qt::UserRole).toString().isEmpty())
            accept();
    });
    connect(folder_, &QLineEdit::textChanged, this, [this](const QString& text) {
        buttons_->button(QDialogButtonBox::Open)->setEnabled(!text.trimmed().isEmpty());
    });
    connect(browse_, &QPushButton::clicked, this, &OpenModelDialog::browse);
    connect(chooseFile_, &QPushButton::clicked, this, &OpenModelDialog::chooseFile);
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    buttons_->button(QDialogButtonBox::Open)->setEnabled(false);

    listCachedModels();
    // Nothing to choose: the path is what the learner gives, so it has the focus.
    if (cached_->count() == 1 && cached_->item(0)->flags() == Qt::NoItemFlags)
        folder_->setFocus();
    retranslateUi();
    resize(720, 520);
}

QString OpenModelDialog::folder() const
{
    // "~" and "~/…" as a shell reads them: the home folder.
    const QString text = folder_->text().trimmed();
    if (text == QLatin1String("~") || text.startsWith(QStringLiteral("~") + QDir::separator()) ||
        text.startsWith(QLatin1String("~/")))
        return QDir::toNativeSeparators(QDir::homePath()) + text.mid(1);
    return text;
}

void OpenModelDialog::setFolder(const QString& folder)
{
    folder_->setText(shownPath(folder));
}

void OpenModelDialog::listCachedModels()
{
    const std::vector<ModelCacheFolder> caches = modelCacheFolders();
    for (const ModelCacheFolder& cache : caches)
        looked_ << QStringLiteral("%1: %2").arg(
            QString::fromUtf8(modelSourceName(cache.source).data()),
            shownPath(QString::fromStdString(cache.folder.string())));
    const QLocale locale;
    for (const DiskModel& model : findDiskModels(caches)) {
        // name · family · quantization · size · tool: the tool's name for the model first.
        QStringList parts{QString::fromStdString(model.name),
                          QString::fromStdString(model.family.empty() ? "?" : model.family)};
        if (!model.quantization.empty())
            parts << QString::fromStdString(model.quantization);
        // Powers of 1000, as the tools show their models' sizes ("397 MB").
        parts << locale.formattedDataSize(qint64(model.bytes), 1, QLocale::DataSizeSIFormat)
              << QString::fromUtf8(modelSourceName(model.source).data());
        auto* item = new QListWidgetItem(parts.join(QStringLiteral(" · ")), cached_);
        const QString path = QString::fromStdString(model.path.string());
        item->setToolTip(shownPath(path));
        item->setData(Qt::UserRole + 1, model.missing);
        if (model.missing) // listed so that the learner sees why it does not open
            item->setFlags(Qt::NoItemFlags);
        else
            item->setData(Qt::UserRole, path);
    }
    if (cached_->count() == 0) {
        auto* item = new QListWidgetItem(cached_);
        item->setFlags(Qt::NoItemFlags);
    }
}

void OpenModelDialog::browse()
{
    const QString chosen = QFileDialog::getExistingDirectory(
        this, tr("Model Folder"), folder().isEmpty() ? lastDirectory() : folder());
    if (chosen.isEmpty())
        return;
    lastDirectory() = chosen;
    setFolder(chosen);
}

void OpenModelDialog::chooseFile()
{
    // Every file too: an Ollama blob is a GGUF file named sha256-… without an extension.
    const QString chosen = QFileDialog::getOpenFileName(
        this, tr("Model File"), folder().isEmpty() ? lastDirectory() : folder(),
        tr("GGUF models (*.gguf);;All files (*)"));
    if (chosen.isEmpty())
        return;
    lastDirectory() = QFileInfo(chosen).absolutePath();
    setFolder(chosen);
}

void OpenModelDialog::retranslateUi()
{
    setWindowTitle(tr("Open Model"));
    // The families and their files, from the table openModel reads (core/models/families).
    QString families;
    for (const attn::ModelFamily& family : attn::modelFamilies())
        families +=
            QStringLiteral("<li>%1</li>")
                .arg(tr("%1: %2", "a model family and the files of its folder")
                         .arg(QString::fromUtf8(family.name.data(), qsizetype(family.name.size())),
                              QString::fromUtf8(family.files.data(),
                                                qsizetype(family.files.size()))));
    intro_->setText(tr("A model folder as the Hugging Face hub keeps it: config.json and the "
                       "files of its family —<ul>%1</ul>or a GGUF file. AttnScope runs the "
                       "model itself and downloads nothing.")
                        .arg(families));
    cachedLabel_->setText(tr("Models already on this &computer:"));
    const bool empty = cached_->count() == 1 && cached_->item(0)->flags() == Qt::NoItemFlags &&
                       !cached_->item(0)->data(Qt::UserRole + 1).toBool();
    if (empty)
        cached_->item(0)->setText(
            tr("None in %1").arg(looked_.isEmpty() ? tr("(no cache)") : looked_.join("\n")));
    for (int row = 0; row < cached_->count(); ++row)
        if (QListWidgetItem* item = cached_->item(row); item->data(Qt::UserRole + 1).toBool())
            item->setText(item->text().section(QStringLiteral(" — "), 0, 0) +
                          QStringLiteral(" — ") +
                          tr("its file is missing", "an Ollama model whose blob was deleted"));
    folderLabel_->setText(tr("&Folder or file:"));
    browse_->setText(tr("&Browse Folder…"));
    chooseFile_->setText(tr("Choose Fi&le…", "a GGUF model file"));
    QString folders; // every tool's folder, one a line
    for (const QString& folder : looked_)
        folders +=
            (folders.isEmpty() ? QString() : QStringLiteral("<br/>")) + folder.toHtmlEscaped();
    howTo_->setText(
        tr("To get GPT-2 (about 550 MB), run in a terminal:<br/><tt>huggingface-cli download gpt2 "
           "config.json model.safetensors vocab.json merges.txt --local-dir ~/models/gpt2</tt>"
           "<br/>then choose that folder; without <tt>--local-dir</tt> it goes to the cache "
           "and appears in the list above.") +
        QStringLiteral("<br/><br/>") +
        tr("The list shows the models these tools downloaded, from the folders where they keep "
           "them:<br/>%1")
            .arg(folders));
}

void OpenModelDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDialog::changeEvent(event);
}

} // namespace attn::ui
