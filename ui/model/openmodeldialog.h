// File → Open Model…: a model folder chosen on disk, or one of the models already in the
// user's Hugging Face cache (core/models/hfcache). Nothing is downloaded; the dialog says
// how to get GPT-2.
#pragma once

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace attn::ui {

class OpenModelDialog : public QDialog {
    Q_OBJECT

public:
    explicit OpenModelDialog(QWidget* parent = nullptr);

    // The folder to open: typed, browsed to, or the cached model chosen.
    [[nodiscard]] QString folder() const;
    void setFolder(const QString& folder);
    [[nodiscard]] QListWidget* cachedModels() const { return cached_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void listCachedModels();
    void browse();
    void retranslateUi();

    QLabel* intro_;
    QLabel* cachedLabel_;
    QListWidget* cached_;
    QLabel* folderLabel_;
    QLineEdit* folder_;
    QPushButton* browse_;
    QLabel* howTo_;
    QDialogButtonBox* buttons_;
    QString hub_; // the cache's folder, for the empty list's text
};

} // namespace attn::ui
