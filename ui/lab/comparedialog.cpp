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
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QStandardPaths>
#include <QToolTip>
#include <QVBoxLayout>

#include <utility>

namespace attn::ui {
namespace {

constexpr FigureFormat kExportFormats[] = {FigureFormat::Png, FigureFormat::Svg, FigureFormat::Pdf};
constexpr int kSharedTextLimit = 60;       // characters of the sentence in the shared line
constexpr int kAnnotatedExportTokens = 16; // longer sentences export without values in cells

int index(CompareDialog::Side side)
{
    return side == CompareDialog::Side::A ? 0 : 1;
}

// "a / b": the text's lines on one line, shortened with an ellipsis.
QString shortText(const std::string& text)
{
    QStringList lines = QString::fromStdString(text).split(u'\n', Qt::SkipEmptyParts);
    for (QString& line : lines)
        line = line.simplified();
    QString joined = lines.join(QStringLiteral(" / "));
    if (joined.size() > kSharedTextLimit)
        joined = joined.left(kSharedTextLimit - 1).trimmed() + QChar(0x2026);
    return joined;
}

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
        SwitchesForm* form = forms_[index(side)];
        ComputeController* controller = controllers_[index(side)];
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

void CompareDialog::setBase(const Request& current)
{
    base_ = current;
    forms_[0]->setConfig(textbookSwitches(current.config));
    forms_[1]->setConfig(current.config);
    rebuildHeads();
    showSharedInput();
    showNotes();
    submit(Side::A);
    submit(Side::B);
}

void CompareDialog::setSharedInput(const Request& current)
{
    base_ = current;
    for (SwitchesForm* form : forms_)
        form->setConfig(withSwitches(current.config, form->config()));
    rebuildHeads();
    showSharedInput();
    showNotes();
    submit(Side::A);
    submit(Side::B);
}

Request CompareDialog::request(Side side) const
{
    Request request = base_;
    request.config = withSwitches(base_.config, forms_[index(side)]->config());
    return request;
}

void CompareDialog::setSwitches(Side side, const Config& switches)
{
    forms_[index(side)]->setConfig(withSwitches(base_.config, switches));
    showNotes();
    submit(side);
}

void CompareDialog::copyAToB()
{
    setSwitches(Side::B, forms_[0]->config());
}

void CompareDialog::swapAB()
{
    const Config a = forms_[0]->config();
    forms_[0]->setConfig(forms_[1]->config());
    forms_[1]->setConfig(a);
    // The results swap too, so the heatmaps change sides at once; both engines still
    // recompute, as one of them may be busy with what its side asked before.
    std::swap(results_[0], results_[1]);
    std::swap(failures_[0], failures_[1]);
    showNotes();
    showComparison();
    submit(Side::A);
    submit(Side::B);
}

int CompareDialog::head() const
{
    return headCombo_->currentData().toInt();
}

void CompareDialog::setHead(int head)
{
    if (const int found = headCombo_->findData(head); found >= 0)
        headCombo_->setCurrentIndex(found);
}

int CompareDialog::sequence() const
{
    return std::max(0, sequenceCombo_->currentData().toInt());
}

void CompareDialog::setSequence(int sequence)
{
    wantedSequence_ = sequence;
    if (const int found = sequenceCombo_->findData(sequence); found >= 0)
        sequenceCombo_->setCurrentIndex(found);
}

const Result& CompareDialog::result(Side side) const
{
    return results_[index(side)];
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

HeatmapView* CompareDialog::view(int index) const
{
    return views_[std::clamp(index, 0, 2)];
}

QString CompareDialog::captionText() const
{
    return captionLabel_->text();
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

bool CompareDialog::eventFilter(QObject* watched, QEvent* event)
{
    // The views' own tooltips would call B − A a weight: each cell's tooltip gives all three.
    auto* view = qobject_cast<HeatmapView*>(watched);
    if (view && event->type() == QEvent::Resize && shown_ && alignCells())
        applyStyles();
    if (view && event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const std::optional<QPoint> cell = view->heatmapLayout().cellAt(help->pos());
        if (cell && shown_)
            QToolTip::showText(
                help->globalPos(), comparisonHoverText(comparison_, cell->x(), cell->y()), view,
                view->heatmapLayout().cellRect(cell->x(), cell->y()).toAlignedRect());
        else
            QToolTip::hideText();
        return true;
    }
    return QDialog::eventFilter(watched, event);
}

void CompareDialog::submit(Side side)
{
    failures_[index(side)].clear();
    controllers_[index(side)]->submit(request(side));
    updateEnabled();
}

void CompareDialog::receive(Side side, const Result& result)
{
    // Only what the side asks for now: a result queued before a newer request is stale.
    if (result.request != request(side))
        return;
    Result& kept = results_[index(side)];
    const bool sameWeights = shown_ && kept.request == result.request &&
                             kept.weights == result.weights && kept.tokens == result.tokens;
    kept = result;
    failures_[index(side)].clear();
    if (sameWeights) { // the statistics came after the heatmaps: nothing new to paint
        updateEnabled();
        return;
    }
    rebuildSequences(result.batch());
    showNotes();
    showComparison();
}

void CompareDialog::showFailure(Side side, const QString& message)
{
    failures_[index(side)] = message;
    updateEnabled();
}

void CompareDialog::showComparison()
{
    shown_ = false;
    const Result& a = results_[0];
    const Result& b = results_[1];
    if (!comparable(a, b) || a.request != request(Side::A) || b.request != request(Side::B)) {
        updateEnabled();
        return;
    }
    comparison_ = compareResults(a, b, sequence(), head());
    views_[0]->setData(comparison_.a);
    views_[1]->setData(comparison_.b);
    views_[2]->setData(comparison_.difference);
    alignCells();
    applyStyles();
    captionLabel_->setText(differenceCaption(comparison_));
    shown_ = true;
    hoverLabel_->setText(comparisonHoverText(comparison_, hoverRow_, hoverColumn_));
    updateEnabled();
    emit comparisonChanged();
}

void CompareDialog::setColourScale(ColormapName colormap, bool logScale)
{
    if (colormap == colormap_ && logScale == logScale_)
        return;
    colormap_ = colormap;
    logScale_ = logScale;
    if (shown_) {
        alignCells(); // the colorbar's ticks change, and with them the room for cells
        applyStyles();
    }
}

HeatmapStyle CompareDialog::style(int index) const
{
    HeatmapStyle style =
        index < 2 ? weightStyle(comparison_, colormap_, logScale_) : differenceStyle(comparison_);
    style.annotate = true;
    style.maxCellSize = cellSize_;
    return style;
}

bool CompareDialog::alignCells()
{
    // Each view alone would fit its own cells: B − A's longer colorbar ticks leave it less
    // width, smaller cells, labels leaning and its rows lower than A's and B's. All three
    // take the largest cell that fits in every one, so that their rows line up.
    double cell = 0;
    for (int k = 0; k < 3; ++k) {
        HeatmapStyle natural = style(k);
        natural.maxCellSize = 0;
        natural.labelFont = views_[k]->font(); // as the view paints it
        const double fits =
            HeatmapLayout(QRectF(views_[k]->rect()), views_[k]->data(), natural, views_[k])
                .cellSize();
        cell = k == 0 ? fits : std::min(cell, fits);
    }
    if (cell == cellSize_)
        return false;
    cellSize_ = cell;
    return true;
}

void CompareDialog::applyStyles()
{
    for (int k = 0; k < 3; ++k) {
        HeatmapStyle style = this->style(k);
        style.highlightRow = hoverRow_;
        style.highlightCol = hoverColumn_;
        views_[k]->setHeatmapStyle(style);
    }
}

void CompareDialog::showNotes()
{
    const bool padding = results_[0].tokens && hasPadding(*results_[0].tokens);
    for (SwitchesForm* form : forms_) {
        const QStringList departures =
            FormulaBar::departuresOf(withSwitches(base_.config, form->config()), padding);
        if (departures.isEmpty())
            form->setNotes(tr("This is the textbook formula."), false);
        else
            form->setNotes(tr("Departs from the textbook: %1.")
                               .arg(departures.join(tr("; ", "separator between departures"))),
                           true);
    }
}

void CompareDialog::showSharedInput()
{
    const Config& c = base_.config;
    sharedLabel_->setText(
        tr("Both sides compute the same text and weights — “%1” · d_model %2 · heads %3 · "
           "d_k %4 · seed %5. Change them in the main window; here only the formula's "
           "switches differ.",
           "%1 is the sentence")
            .arg(shortText(base_.text))
            .arg(c.dModel)
            .arg(c.heads)
            .arg(c.dK())
            .arg(qulonglong(c.seed)));
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

void CompareDialog::rebuildHeads()
{
    const int heads = std::max(1, base_.config.heads);
    const int previous = headCombo_->count() > 0 ? head() : 0;
    {
        const QSignalBlocker blocker(headCombo_);
        headCombo_->clear();
        for (int h = 0; h < heads; ++h)
            headCombo_->addItem(tr("Head %1", "head chooser").arg(h), h);
        if (heads > 1)
            headCombo_->addItem(tr("Mean of the heads", "head chooser"), -1);
        const int found = headCombo_->findData(previous < heads ? previous : 0);
        headCombo_->setCurrentIndex(std::max(0, found));
    }
    showComparison();
}

void CompareDialog::rebuildSequences(int batch)
{
    batch = std::max(1, batch);
    if (sequenceCombo_->count() != batch) {
        const QSignalBlocker blocker(sequenceCombo_);
        sequenceCombo_->clear();
        for (int b = 0; b < batch; ++b)
            sequenceCombo_->addItem(tr("%1 of %2", "sequence chooser").arg(b + 1).arg(batch), b);
        sequenceCombo_->setCurrentIndex(std::clamp(wantedSequence_, 0, batch - 1));
    }
    sequenceLabel_->setVisible(batch > 1);
    sequenceCombo_->setVisible(batch > 1);
}

void CompareDialog::hoverCell(int row, int column)
{
    if (row == hoverRow_ && column == hoverColumn_)
        return;
    hoverRow_ = row;
    hoverColumn_ = column;
    if (!shown_)
        return;
    applyStyles();
    hoverLabel_->setText(comparisonHoverText(comparison_, row, column));
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
