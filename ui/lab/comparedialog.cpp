// The Compare dialog itself: its layout and wiring, its words, what it reports of its
// state, and Export…. The two sides' switches are in comparesides.cpp, the choosers and
// the three heatmaps in compareheatmaps.cpp.
#include "comparedialog.h"

#include "computecontroller.h"
#include "exportpath.h"
#include "formulabar.h"
#include "heatmapview.h"
#include "labels.h"
#include "switchesform.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace attn::ui {
namespace {

constexpr FigureFormat kExportFormats[] = {FigureFormat::Png, FigureFormat::Svg, FigureFormat::Pdf};
constexpr int kAnnotatedExportTokens = 16; // longer sentences export without values in cells

void enlargeFont(QWidget* widget, double factor)
{
    QFont font = widget->font();
    font.setPointSizeF(font.pointSizeF() * factor);
    widget->setFont(font);
}

} // namespace

CompareDialog::CompareDialog(QWidget* parent)
    : QDialog(parent), controllers_{new ComputeController(this), new ComputeController(this)},
      forms_{new SwitchesForm, new SwitchesForm}, sharedLabel_(new QLabel),
      copyButton_(new QPushButton), swapButton_(new QPushButton), headLabel_(new QLabel),
      headCombo_(new QComboBox), sequenceLabel_(new QLabel), sequenceCombo_(new QComboBox),
      busyLabel_(new QLabel), views_{new HeatmapView, new HeatmapView, new HeatmapView},
      captionLabel_(new QLabel), hoverLabel_(new QLabel), statusLabel_(new QLabel),
      exportButton_(new QPushButton)
{
    setObjectName("CompareDialog");
    forms_[0]->setObjectName(QStringLiteral("switchesA"));
    forms_[1]->setObjectName(QStringLiteral("switchesB"));
    for (SwitchesForm* form : forms_) // two forms side by side: no Alt+letter of their own
        form->setMnemonics(false);
    copyButton_->setObjectName(QStringLiteral("copyButton"));
    swapButton_->setObjectName(QStringLiteral("swapButton"));
    headCombo_->setObjectName(QStringLiteral("headCombo"));
    sequenceCombo_->setObjectName(QStringLiteral("sequenceCombo"));
    captionLabel_->setObjectName(QStringLiteral("captionLabel"));
    exportButton_->setObjectName(QStringLiteral("exportButton"));

    // 1. What both sides share, then the two sides' switches with the buttons between them.
    sharedLabel_->setWordWrap(true);
    sharedLabel_->setTextFormat(Qt::PlainText);
    auto* buttons = new QVBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(copyButton_);
    buttons->addWidget(swapButton_);
    buttons->addStretch(1);
    auto* sides = new QHBoxLayout;
    sides->addWidget(forms_[0], 1);
    sides->addLayout(buttons);
    sides->addWidget(forms_[1], 1);

    // 2. Which heatmap of the batch, then A, B and B − A side by side.
    headLabel_->setBuddy(headCombo_);
    sequenceLabel_->setBuddy(sequenceCombo_);
    busyLabel_->hide();
    auto* choosers = new QHBoxLayout;
    choosers->addWidget(headLabel_);
    choosers->addWidget(headCombo_);
    choosers->addSpacing(12);
    choosers->addWidget(sequenceLabel_);
    choosers->addWidget(sequenceCombo_);
    choosers->addStretch(1);
    choosers->addWidget(busyLabel_);
    auto* heatmaps = new QHBoxLayout;
    for (HeatmapView* view : views_) {
        enlargeFont(view, 1.15); // read from the back of a classroom
        view->installEventFilter(this);
        // The views take the height the rest leaves, never the labels' lines.
        view->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
        view->setMinimumSize(240, 240);
        heatmaps->addWidget(view, 1);
        connect(view, &HeatmapView::cellHovered, this, &CompareDialog::hoverCell);
    }

    // 3. The largest difference, the cell under the mouse, problems.
    enlargeFont(captionLabel_, 1.15);
    captionLabel_->setWordWrap(true);
    captionLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    hoverLabel_->setWordWrap(true);
    hoverLabel_->setMinimumHeight(hoverLabel_->fontMetrics().lineSpacing()); // no jump on hover
    statusLabel_->setWordWrap(true);
    statusLabel_->hide();

    auto* closeBox = new QDialogButtonBox(QDialogButtonBox::Close);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(exportButton_);
    bottom->addStretch(1);
    bottom->addWidget(closeBox);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(sharedLabel_);
    layout->addLayout(sides);
    layout->addLayout(choosers);
    layout->addLayout(heatmaps, 1);
    layout->addWidget(captionLabel_);
    layout->addWidget(hoverLabel_);
    layout->addWidget(statusLabel_);
    layout->addLayout(bottom);

    for (const Side side : {Side::A, Side::B}) {
        SwitchesForm* form = forms_[sideIndex(side)];
        ComputeController* controller = controllers_[sideIndex(side)];
        connect(form, &SwitchesForm::switchesChanged, this, [this, side] {
            showNotes();
            submit(side);
        });
        connect(controller, &ComputeController::weightsReady, this,
                [this, side](const Result& partial) { receive(side, partial); });
        connect(controller, &ComputeController::resultReady, this,
                [this, side](const Result& result) { receive(side, result); });
        connect(controller, &ComputeController::failed, this,
                [this, side](const InputError& refusal, const Request& request) {
                    if (request == this->request(side))
                        showFailure(side, refusalText(refusal));
                });
        connect(controller, &ComputeController::busyChanged, this, &CompareDialog::showBusy);
    }
    connect(copyButton_, &QPushButton::clicked, this, &CompareDialog::copyAToB);
    connect(swapButton_, &QPushButton::clicked, this, &CompareDialog::swapAB);
    connect(headCombo_, &QComboBox::currentIndexChanged, this, &CompareDialog::showComparison);
    connect(sequenceCombo_, &QComboBox::currentIndexChanged, this, [this] {
        wantedSequence_ = sequence();
        showComparison();
    });
    connect(exportButton_, &QPushButton::clicked, this, &CompareDialog::chooseFileAndExport);
    connect(closeBox, &QDialogButtonBox::rejected, this, &QDialog::reject);

    rebuildHeads();
    rebuildSequences(1);
    retranslateUi();
    updateEnabled();
    resize(1400, 880);
}

const Result& CompareDialog::result(Side side) const
{
    return results_[sideIndex(side)];
}

bool CompareDialog::upToDate() const
{
    return shown_ && results_[0].request == request(Side::A) &&
           results_[1].request == request(Side::B);
}

bool CompareDialog::complete() const
{
    return upToDate() && results_[0].valid() && results_[1].valid();
}

bool CompareDialog::busy() const
{
    return controllers_[0]->busy() || controllers_[1]->busy();
}

QString CompareDialog::exportTo(const QString& path) const
{
    QString error;
    const std::optional<FigureFormat> format = figureFormatOfPath(path, &error);
    if (!format)
        return error;
    if (!complete())
        return tr("The comparison is still being computed; export it in a moment.");
    return exportComparison(path, *format, results_[0], results_[1], exportOptions());
}

void CompareDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDialog::changeEvent(event);
}

void CompareDialog::showBusy()
{
    busyLabel_->setVisible(busy());
    updateEnabled();
}

void CompareDialog::updateEnabled()
{
    exportButton_->setEnabled(complete());
    QStringList problems;
    if (!failures_[0].isEmpty())
        problems << tr("A cannot be computed: %1").arg(failures_[0]);
    if (!failures_[1].isEmpty())
        problems << tr("B cannot be computed: %1").arg(failures_[1]);
    statusLabel_->setText(problems.join(u'\n'));
    statusLabel_->setVisible(!problems.isEmpty());
    QPalette palette = statusLabel_->palette();
    palette.setColor(QPalette::WindowText, alertColor(this->palette()));
    statusLabel_->setPalette(palette);
}

void CompareDialog::chooseFileAndExport()
{
    chooseAndExport(this, tr("Export the Comparison"), QStringLiteral("attention-compare.png"),
                    kExportFormats, [this](const QString& path) { return exportTo(path); });
}

ComparisonOptions CompareDialog::exportOptions() const
{
    ComparisonOptions options;
    options.head = head();
    options.sequence = sequence();
    options.annotate = results_[0].length() <= kAnnotatedExportTokens;
    options.colormap = colormap_;
    options.logScale = logScale_;
    return options;
}

void CompareDialog::retranslateUi()
{
    setWindowTitle(tr("Compare Two Configurations"));
    forms_[0]->setTitle(tr("Configuration A"));
    forms_[1]->setTitle(tr("Configuration B"));
    copyButton_->setText(tr("Copy A → B"));
    copyButton_->setToolTip(tr("Give B the switches of A; the difference becomes 0"));
    swapButton_->setText(tr("Swap A ↔ B"));
    swapButton_->setToolTip(tr("Exchange the two configurations; the difference changes sign"));
    headLabel_->setText(tr("&Head:"));
    sequenceLabel_->setText(tr("&Sequence:", "which line of the batch"));
    busyLabel_->setText(tr("computing…"));
    exportButton_->setText(tr("&Export…"));
    exportButton_->setToolTip(tr("Save A, B and B − A side by side as PNG, SVG or PDF"));
    hoverLabel_->setToolTip(tr("Point at a cell of any heatmap to read it on all three"));
    // Texts made of translated parts are made again.
    const int heads = headCombo_->count();
    for (int k = 0; k < heads; ++k) {
        const int h = headCombo_->itemData(k).toInt();
        headCombo_->setItemText(k, h < 0 ? tr("Mean of the heads", "head chooser")
                                         : tr("Head %1", "head chooser").arg(h));
    }
    const int batch = sequenceCombo_->count();
    for (int b = 0; b < batch; ++b)
        sequenceCombo_->setItemText(b, tr("%1 of %2", "sequence chooser").arg(b + 1).arg(batch));
    showSharedInput();
    showNotes();
    updateEnabled();
    if (shown_)
        showComparison();
}

} // namespace attn::ui
