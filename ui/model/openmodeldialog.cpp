#include "openmodeldialog.h"

#include "models/families.h"

#include "models/hfcache.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
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
      howTo_(new QLabel),
      buttons_(new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel))
{
    setObjectName("openModelDialog");
    cached_->setObjectName("cachedModels");
    folder_->setObjectName("modelFolder");
    browse_->setObjectName("browseModel");
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
    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    buttons_->button(QDialogButtonBox::Open)->setEnabled(false);

    listCachedModels();
    retranslateUi();
    resize(640, 440);
}

QString OpenModelDialog::folder() const
{
    return folder_->text().trimmed();
}

void OpenModelDialog::setFolder(const QString& folder)
{
    folder_->setText(QDir::toNativeSeparators(folder));
}

void OpenModelDialog::listCachedModels()
{
    const std::filesystem::path hub = huggingFaceHubDirectory();
    hub_ = QDir::toNativeSeparators(QString::fromStdString(hub.string()));
    for (const CachedModel& model : attn::findCachedModels(hub)) {
        auto* item = new QListWidgetItem(
            QStringLiteral("%1 · %2 · %3")
                .arg(QString::fromStdString(model.name),
                     QString::fromStdString(model.family.empty() ? "?" : model.family),
                     QString::fromStdString(model.snapshot).left(10)),
            cached_);
        const QString folder = QString::fromStdString(model.folder.string());
        item->setData(Qt::UserRole, folder);
        item->setToolTip(QDir::toNativeSeparators(folder));
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
                       "files of its family —<ul>%1</ul>AttnScope runs the model itself and "
                       "downloads nothing.")
                        .arg(families));
    cachedLabel_->setText(tr("Models in your Hugging Face &cache:"));
    if (cached_->count() == 1 && cached_->item(0)->data(Qt::UserRole).toString().isEmpty())
        cached_->item(0)->setText(tr("None in %1").arg(hub_.isEmpty() ? tr("(no cache)") : hub_));
    folderLabel_->setText(tr("&Folder:"));
    browse_->setText(tr("&Browse…"));
    howTo_->setText(
        tr("To get GPT-2 (about 550 MB), run in a terminal:<br/><tt>huggingface-cli download gpt2 "
           "config.json model.safetensors vocab.json merges.txt --local-dir ~/models/gpt2</tt>"
           "<br/>then choose that folder; without <tt>--local-dir</tt> it goes to the cache "
           "and appears in the list above."));
}

void OpenModelDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDialog::changeEvent(event);
}

} // namespace attn::ui
