#include "exportdialog.h"

#include "exportpath.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QVBoxLayout>

namespace attn::ui {
namespace {

constexpr QSize kPreviewSize(460, 360);
constexpr FigureFormat kFigureFormats[] = {FigureFormat::Png, FigureFormat::Svg, FigureFormat::Pdf};
constexpr FigureFormat kNumberFormats[] = {FigureFormat::Csv, FigureFormat::Npy,
                                           FigureFormat::Json};

QString defaultBaseName(const FigureOptions& options)
{
    switch (options.what) {
    case FigureWhat::Head:
        return QStringLiteral("attention-head%1").arg(options.head);
    case FigureWhat::Mean:
        return QStringLiteral("attention-mean");
    case FigureWhat::Grid:
        break;
    }
    return QStringLiteral("attention-heads");
}

} // namespace

ExportDialog::ExportDialog(const Result& result, const ViewOptions& view, int head, QWidget* parent)
    : QDialog(parent), result_(result), whatBox_(new QGroupBox), whatGroup_(new QButtonGroup(this)),
      headButton_(new QRadioButton), gridButton_(new QRadioButton), meanButton_(new QRadioButton),
      headSpin_(new QSpinBox), fileBox_(new QGroupBox), formatCombo_(new QComboBox),
      scaleSpin_(new QDoubleSpinBox), dpiSpin_(new QSpinBox), sizeLabel_(new QLabel),
      lookBox_(new QGroupBox), titleEdit_(new QLineEdit), colormapCombo_(new QComboBox),
      labelSizeSpin_(new QSpinBox), captionCheck_(new QCheckBox), colorbarCheck_(new QCheckBox),
      annotateCheck_(new QCheckBox), sumsCheck_(new QCheckBox), logCheck_(new QCheckBox),
      previewLabel_(new QLabel), exportButton_(nullptr), formatLabel_(new QLabel),
      scaleLabel_(new QLabel), dpiLabel_(new QLabel), titleLabel_(new QLabel),
      colormapLabel_(new QLabel), labelSizeLabel_(new QLabel), sequence_(view.sequence),
      sharedScale_(view.sharedScale)
{
    setObjectName("ExportDialog");

    // What: one head (with its number), all heads, or their mean.
    whatGroup_->addButton(headButton_, int(FigureWhat::Head));
    whatGroup_->addButton(gridButton_, int(FigureWhat::Grid));
    whatGroup_->addButton(meanButton_, int(FigureWhat::Mean));
    headSpin_->setRange(0, std::max(0, result_.heads() - 1));
    auto* headRow = new QHBoxLayout;
    headRow->addWidget(headButton_);
    headRow->addWidget(headSpin_);
    headRow->addStretch();
    auto* whatLayout = new QVBoxLayout(whatBox_);
    whatLayout->addLayout(headRow);
    whatLayout->addWidget(gridButton_);
    whatLayout->addWidget(meanButton_);
    meanButton_->setVisible(result_.heads() > 1); // the mean of one head is that head

    // File: the format, and for PNG the pixels per point.
    for (const FigureFormat format : kFigureFormats)
        formatCombo_->addItem(formatSpelling(format).toUpper(), int(format));
    scaleSpin_->setRange(0.5, 8);
    scaleSpin_->setSingleStep(0.5);
    scaleSpin_->setDecimals(1);
    dpiSpin_->setRange(0, 2400);
    dpiSpin_->setSingleStep(50);
    auto* fileLayout = new QFormLayout(fileBox_);
    fileLayout->addRow(formatLabel_, formatCombo_);
    fileLayout->addRow(scaleLabel_, scaleSpin_);
    fileLayout->addRow(dpiLabel_, dpiSpin_);
    fileLayout->addRow(sizeLabel_);

    // Look: title, colours, text size and the optional parts.
    for (const ColormapName name : Colormap::names())
        colormapCombo_->addItem(QString(), int(name));
    labelSizeSpin_->setRange(6, 28);
    auto* lookLayout = new QFormLayout(lookBox_);
    lookLayout->addRow(titleLabel_, titleEdit_);
    lookLayout->addRow(colormapLabel_, colormapCombo_);
    lookLayout->addRow(labelSizeLabel_, labelSizeSpin_);
    lookLayout->addRow(captionCheck_);
    lookLayout->addRow(colorbarCheck_);
    lookLayout->addRow(annotateCheck_);
    lookLayout->addRow(sumsCheck_);
    lookLayout->addRow(logCheck_);

    previewLabel_->setFixedSize(kPreviewSize);
    previewLabel_->setAlignment(Qt::AlignCenter);
    previewLabel_->setFrameShape(QFrame::StyledPanel);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    exportButton_ = buttons->addButton(QString(), QDialogButtonBox::AcceptRole);
    exportButton_->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &ExportDialog::chooseFileAndExport);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* settings = new QVBoxLayout;
    settings->addWidget(whatBox_);
    settings->addWidget(fileBox_);
    settings->addWidget(lookBox_);
    settings->addStretch();
    auto* columns = new QHBoxLayout;
    columns->addLayout(settings);
    columns->addWidget(previewLabel_, 0, Qt::AlignTop);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(columns, 1);
    layout->addWidget(buttons);

    FigureOptions options = attn::ui::figureOptions(view);
    options.head = std::clamp(head, 0, std::max(0, result_.heads() - 1));
    setFigureOptions(options, FigureFormat::Png);

    // Every change redraws the preview.
    const auto changed = [this] {
        updateEnabled();
        updatePreview();
    };
    connect(whatGroup_, &QButtonGroup::idToggled, this, changed);
    connect(headSpin_, &QSpinBox::valueChanged, this, changed);
    connect(formatCombo_, &QComboBox::currentIndexChanged, this, changed);
    connect(scaleSpin_, &QDoubleSpinBox::valueChanged, this, changed);
    connect(dpiSpin_, &QSpinBox::valueChanged, this, changed);
    connect(titleEdit_, &QLineEdit::textChanged, this, changed);
    connect(colormapCombo_, &QComboBox::currentIndexChanged, this, changed);
    connect(labelSizeSpin_, &QSpinBox::valueChanged, this, changed);
    for (QCheckBox* check : {captionCheck_, colorbarCheck_, annotateCheck_, sumsCheck_, logCheck_})
        connect(check, &QCheckBox::toggled, this, changed);

    retranslateUi();
}

FigureOptions ExportDialog::figureOptions() const
{
    FigureOptions options;
    options.what = FigureWhat(whatGroup_->checkedId());
    options.head = headSpin_->value();
    options.sequence = sequence_;
    options.title = titleEdit_->text().trimmed();
    options.caption = captionCheck_->isChecked();
    options.colorbar = colorbarCheck_->isChecked();
    options.annotate = annotateCheck_->isChecked();
    options.marginSums = sumsCheck_->isChecked();
    options.logScale = logCheck_->isChecked();
    options.colormap = ColormapName(colormapCombo_->currentData().toInt());
    options.sharedScale = sharedScale_;
    options.labelPointSize = labelSizeSpin_->value();
    options.scale = scaleSpin_->value();
    options.dpi = dpiSpin_->value();
    return options;
}

FigureFormat ExportDialog::format() const
{
    return FigureFormat(formatCombo_->currentData().toInt());
}

void ExportDialog::setFigureOptions(const FigureOptions& options, FigureFormat format)
{
    {
        const QSignalBlocker blockers[] = {
            QSignalBlocker(whatGroup_),     QSignalBlocker(headSpin_),
            QSignalBlocker(formatCombo_),   QSignalBlocker(scaleSpin_),
            QSignalBlocker(dpiSpin_),       QSignalBlocker(titleEdit_),
            QSignalBlocker(colormapCombo_), QSignalBlocker(labelSizeSpin_),
            QSignalBlocker(captionCheck_),  QSignalBlocker(colorbarCheck_),
            QSignalBlocker(annotateCheck_), QSignalBlocker(sumsCheck_),
            QSignalBlocker(logCheck_),
        };
        whatGroup_->button(int(options.what))->setChecked(true);
        headSpin_->setValue(options.head);
        formatCombo_->setCurrentIndex(std::max(0, formatCombo_->findData(int(format))));
        scaleSpin_->setValue(options.scale);
        dpiSpin_->setValue(options.dpi);
        titleEdit_->setText(options.title);
        colormapCombo_->setCurrentIndex(colormapCombo_->findData(int(options.colormap)));
        labelSizeSpin_->setValue(qRound(options.labelPointSize));
        captionCheck_->setChecked(options.caption);
        colorbarCheck_->setChecked(options.colorbar);
        annotateCheck_->setChecked(options.annotate);
        sumsCheck_->setChecked(options.marginSums);
        logCheck_->setChecked(options.logScale);
    }
    sequence_ = options.sequence;
    sharedScale_ = options.sharedScale;
    updateEnabled();
    updatePreview();
}

bool ExportDialog::exportTo(const QString& path)
{
    const QString error = exportFigure(path, format(), result_, figureOptions());
    if (!error.isEmpty()) {
        QMessageBox::warning(this, tr("Export Figure"), error);
        return false;
    }
    return true;
}

void ExportDialog::chooseFileAndExport()
{
    const FigureOptions options = figureOptions();
    FigureFormat chosen = format();
    const QString suggested =
        QDir(lastExportDirectory())
            .filePath(defaultBaseName(options) + u'.' + formatSpelling(chosen));
    QString path = askSavePath(this, tr("Export Figure"), suggested, formatFilter(chosen));
    if (path.isEmpty())
        return;
    // A typed suffix of another figure format wins; otherwise the chosen one is added.
    if (const auto typed = formatFromPath(path); typed && isFigureFormat(*typed))
        formatCombo_->setCurrentIndex(formatCombo_->findData(int(*typed)));
    else
        path += u'.' + formatSpelling(chosen);
    rememberExportDirectory(QFileInfo(path).absolutePath());
    if (exportTo(path)) {
        accept();
        announceSaved(parentWidget() ? parentWidget() : this, path);
    }
}

void ExportDialog::updateEnabled()
{
    headSpin_->setEnabled(headButton_->isChecked());
    const bool png = format() == FigureFormat::Png;
    scaleSpin_->setEnabled(png && dpiSpin_->value() == 0);
    dpiSpin_->setEnabled(png);
}

void ExportDialog::updatePreview()
{
    const FigureOptions options = figureOptions();
    const qreal ratio = devicePixelRatioF();
    preview_ = QImage(kPreviewSize * ratio, QImage::Format_RGB32);
    preview_.setDevicePixelRatio(ratio);
    preview_.fill(palette().color(QPalette::Window).darker(115));
    {
        QPainter painter(&preview_);
        paintFigure(painter, QRectF(QPointF(0, 0), kPreviewSize).adjusted(10, 10, -10, -10),
                    result_, options);
    }
    previewLabel_->setPixmap(QPixmap::fromImage(preview_));

    const QSizeF points = figureSize(result_, options);
    if (format() == FigureFormat::Png) {
        const QSize pixels = figurePixelSize(result_, options);
        const int dpi = options.dpi > 0 ? options.dpi : qRound(72 * options.scale);
        sizeLabel_->setText(tr("%1 × %2 pixels at %3 dpi", "PNG size")
                                .arg(pixels.width())
                                .arg(pixels.height())
                                .arg(dpi));
    } else {
        sizeLabel_->setText(tr("%1 × %2 cm, vector", "page size")
                                .arg(QLocale().toString(points.width() * 2.54 / 72, 'f', 1))
                                .arg(QLocale().toString(points.height() * 2.54 / 72, 'f', 1)));
    }
}

void ExportDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDialog::changeEvent(event);
}

void ExportDialog::retranslateUi()
{
    setWindowTitle(tr("Export Figure"));
    whatBox_->setTitle(tr("Show"));
    headButton_->setText(tr("One &head:"));
    gridButton_->setText(result_.heads() > 1 ? tr("&All heads, with their mean")
                                             : tr("&All heads", "what to export, with one head"));
    meanButton_->setText(tr("&Mean of the heads"));
    fileBox_->setTitle(tr("File"));
    formatLabel_->setText(tr("&Format:"));
    formatLabel_->setBuddy(formatCombo_);
    formatCombo_->setToolTip(tr("PNG for slides and the web; SVG and PDF stay sharp at any size"));
    scaleLabel_->setText(tr("&Scale:"));
    scaleLabel_->setBuddy(scaleSpin_);
    scaleSpin_->setSuffix(tr("×", "scale factor suffix"));
    scaleSpin_->setToolTip(tr("PNG pixels per point: 2× is sharp on most projectors"));
    dpiLabel_->setText(tr("&DPI:"));
    dpiLabel_->setBuddy(dpiSpin_);
    dpiSpin_->setSpecialValueText(tr("from the scale"));
    dpiSpin_->setToolTip(tr("Dots per inch for print; replaces the scale when set"));
    lookBox_->setTitle(tr("Look"));
    titleLabel_->setText(tr("&Title:"));
    titleLabel_->setBuddy(titleEdit_);
    titleEdit_->setPlaceholderText(tr("No title"));
    colormapLabel_->setText(tr("&Colormap:"));
    colormapLabel_->setBuddy(colormapCombo_);
    for (int k = 0; k < colormapCombo_->count(); ++k)
        colormapCombo_->setItemText(
            k, Colormap::displayName(ColormapName(colormapCombo_->itemData(k).toInt())));
    labelSizeLabel_->setText(tr("&Label size:"));
    labelSizeLabel_->setBuddy(labelSizeSpin_);
    labelSizeSpin_->setSuffix(tr(" pt", "unit: typographic points"));
    captionCheck_->setText(tr("Ca&ption with the configuration"));
    colorbarCheck_->setText(tr("Colour &bar"));
    annotateCheck_->setText(tr("&Values in cells"));
    sumsCheck_->setText(tr("&Row and column sums"));
    sumsCheck_->setToolTip(tr("Each row's sum right of the heatmap and each column's below it, "
                              "in red where it is not 1"));
    logCheck_->setText(tr("Lo&garithmic colour scale"));
    logCheck_->setToolTip(tr("Colour by the weights' logarithm, a few decades below the largest: "
                             "for long sentences and causal masks, whose small weights a linear "
                             "scale shows all alike"));
    exportButton_->setText(tr("&Export…"));
    previewLabel_->setToolTip(tr("Preview of the figure"));
    updatePreview();
}

bool exportNumbersInteractively(QWidget* parent, const Result& result)
{
    QStringList filters;
    for (const FigureFormat format : kNumberFormats)
        filters << formatFilter(format);
    QString selected = filters.first();
    QString path =
        askSavePath(parent, ExportDialog::tr("Export Numbers"),
                    QDir(lastExportDirectory()).filePath(QStringLiteral("attention.csv")),
                    filters.join(QStringLiteral(";;")), &selected);
    if (path.isEmpty())
        return false;
    auto format = formatFromPath(path);
    if (!format || isFigureFormat(*format)) {
        format = kNumberFormats[std::max<qsizetype>(0, filters.indexOf(selected))];
        path += u'.' + formatSpelling(*format);
    }
    rememberExportDirectory(QFileInfo(path).absolutePath());
    if (const QString error = exportFigure(path, *format, result, {}); !error.isEmpty()) {
        QMessageBox::warning(parent, ExportDialog::tr("Export Numbers"), error);
        return false;
    }
    announceSaved(parent, path);
    return true;
}

void copyFigureToClipboard(const Result& result, const ViewOptions& view)
{
    if (!result.valid())
        return;
    QGuiApplication::clipboard()->setImage(renderFigureImage(result, figureOptions(view)));
}

} // namespace attn::ui
