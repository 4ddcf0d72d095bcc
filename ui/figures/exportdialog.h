// File → Export Figure…: what to show, the format and the look, with a live preview;
// and the two one-step exports beside it, File → Export Numbers… and Edit → Copy Figure.
#pragma once

#include "figurefile.h"

#include <QDialog>

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QSpinBox;

namespace attn::ui {

class ExportDialog : public QDialog {
    Q_OBJECT

public:
    // `result` must be valid(); the dialog starts from the window's view, head `head` chosen
    // for "one head".
    ExportDialog(const Result& result, const ViewOptions& view, int head,
                 QWidget* parent = nullptr);

    [[nodiscard]] FigureOptions figureOptions() const;
    [[nodiscard]] FigureFormat format() const;
    void setFigureOptions(const FigureOptions& options, FigureFormat format);

    // Writes the figure to `path`; on failure shows the reason in a message box.
    bool exportTo(const QString& path);

    // The preview as last rendered, for tests and screenshots.
    [[nodiscard]] QImage previewImage() const { return preview_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void chooseFileAndExport();
    void updatePreview();
    void updateEnabled();
    void retranslateUi();

    Result result_;
    QImage preview_;

    QGroupBox* whatBox_;
    QButtonGroup* whatGroup_;
    QRadioButton* headButton_;
    QRadioButton* gridButton_;
    QRadioButton* meanButton_;
    QSpinBox* headSpin_;
    QGroupBox* fileBox_;
    QComboBox* formatCombo_;
    QDoubleSpinBox* scaleSpin_;
    QSpinBox* dpiSpin_;
    QLabel* sizeLabel_;
    QGroupBox* lookBox_;
    QLineEdit* titleEdit_;
    QComboBox* colormapCombo_;
    QSpinBox* labelSizeSpin_;
    QCheckBox* captionCheck_;
    QCheckBox* colorbarCheck_;
    QCheckBox* annotateCheck_;
    QCheckBox* sumsCheck_;
    QCheckBox* logCheck_;
    QLabel* previewLabel_;
    QPushButton* exportButton_;
    QLabel* formatLabel_;
    QLabel* scaleLabel_;
    QLabel* dpiLabel_;
    QLabel* titleLabel_;
    QLabel* colormapLabel_;
    QLabel* labelSizeLabel_;

    int sequence_ = 0;
    bool sharedScale_ = true;
};

// File → Export Numbers…: asks for a CSV, NPY or JSON file name and writes the numbers of
// `result`; a failure is shown in a message box. Returns true when a file was written.
bool exportNumbersInteractively(QWidget* parent, const Result& result);

// Edit → Copy Figure: the figure of what the window shows (all heads) on the clipboard.
void copyFigureToClipboard(const Result& result, const ViewOptions& view);

} // namespace attn::ui
