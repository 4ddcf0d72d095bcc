// File → Open Model…: a model folder or GGUF file chosen on disk, or one of the models the
// tools that download them already keep on this computer (core/models/modelcaches: Hugging
// Face, ModelScope, Ollama, LM Studio), each labelled with its tool, size and quantization.
// Nothing is downloaded; the dialog says where each tool keeps its models and how to get
// GPT-2.
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

    // The folder or GGUF file to open: typed, browsed to, or the listed model chosen; shown
    // as "~/…" under the home folder, and "~" read back as the home folder.
    [[nodiscard]] QString folder() const;
    void setFolder(const QString& folder);
    [[nodiscard]] QListWidget* cachedModels() const { return cached_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void listCachedModels();
    void browse();
    void chooseFile();
    void retranslateUi();

    QLabel* intro_;
    QLabel* cachedLabel_;
    QListWidget* cached_;
    QLabel* folderLabel_;
    QLineEdit* folder_;
    QPushButton* browse_;
    QPushButton* chooseFile_;
    QLabel* howTo_;
    QDialogButtonBox* buttons_;
    QStringList looked_; // every tool's folder ("Ollama: ~/.ollama/models"), for the texts
};

} // namespace attn::ui
