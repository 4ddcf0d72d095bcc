#include "pipelinedialog.h"

#include "explanationhtml.h"
#include "exportpath.h"
#include "figurefile.h"
#include "pipelinestrip.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>

namespace attn::ui {
namespace {

constexpr FigureFormat kExportFormats[] = {FigureFormat::Png, FigureFormat::Svg, FigureFormat::Pdf};
constexpr double kExportPixelRatio = 2; // PNG pixels a screen pixel: sharp on slides

} // namespace

PipelineDialog::PipelineDialog(QWidget* parent)
    : QDialog(parent), sequenceLabel_(new QLabel), sequenceCombo_(new QComboBox),
      headLabel_(new QLabel), headCombo_(new QComboBox), hintLabel_(new QLabel),
      scroll_(new QScrollArea), strip_(new PipelineStrip), panel_(new QTextBrowser),
      exportButton_(new QPushButton)
{
    exportButton_->setEnabled(false); // until there is a strip
    setObjectName("PipelineDialog");
    sequenceCombo_->setObjectName("sequence");
    headCombo_->setObjectName("head");
    sequenceLabel_->setBuddy(sequenceCombo_);
    headLabel_->setBuddy(headCombo_);
    sequenceCombo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    hintLabel_->setWordWrap(true);

    // 1. Which sequence and head, and how to use the strip.
    auto* controls = new QHBoxLayout;
    controls->addWidget(sequenceLabel_);
    controls->addWidget(sequenceCombo_);
    controls->addSpacing(12);
    controls->addWidget(headLabel_);
    controls->addWidget(headCombo_);
    controls->addSpacing(12);
    controls->addWidget(hintLabel_, 1);
    // While the window computes a large switch the dialog has let go of the result: the
    // choice is kept for the result to come.
    connect(sequenceCombo_, &QComboBox::activated, this, [this](int index) {
        b_ = index;
        if (result_.hasWeights())
            showChoice();
    });
    connect(headCombo_, &QComboBox::activated, this, [this](int index) {
        h_ = index;
        if (result_.hasWeights())
            showChoice();
    });

    // 2. The strip over the explanation; both can be made taller.
    scroll_->setWidget(strip_);
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    scroll_->setBackgroundRole(QPalette::Window);
    connect(strip_, &PipelineStrip::cellClicked, this,
            [this](PipelineStage stage, int row, int column) {
                if (stage == PipelineStage::Scores || stage == PipelineStage::Logits ||
                    stage == PipelineStage::Masked || stage == PipelineStage::Weights)
                    explainCell(row, column);
            });
    panel_->setObjectName("explanation");
    panel_->setOpenLinks(false);
    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(scroll_);
    splitter->addWidget(panel_);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    exportButton_->setObjectName(QStringLiteral("exportButton"));
    connect(exportButton_, &QPushButton::clicked, this, &PipelineDialog::chooseFileAndExport);
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(exportButton_);
    bottom->addStretch(1);
    bottom->addWidget(buttons);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(splitter, 1);
    layout->addLayout(bottom);
    resize(1280, 880);
    splitter->setSizes({660, 200});
    retranslateUi();
}

void PipelineDialog::setResult(const Result& result, int sequence, int head)
{
    result_ = result;
    b_ = std::clamp(sequence, 0, std::max(0, result.batch() - 1));
    h_ = std::clamp(head, 0, std::max(0, result.heads() - 1));
    fillChoosers();
    showChoice();
}

void PipelineDialog::setColourScale(ColormapName colormap, bool logScale)
{
    strip_->setWeightColours({colormap, logScale});
}

void PipelineDialog::letGo()
{
    result_ = withoutHeadTensors(result_);
    strip_->letGo();
}

void PipelineDialog::fillChoosers()
{
    const QSignalBlocker blockSequences(sequenceCombo_);
    const QSignalBlocker blockHeads(headCombo_);
    sequenceCombo_->clear();
    headCombo_->clear();
    if (!result_.hasWeights())
        return;
    for (int b = 0; b < result_.batch(); ++b) {
        QStringList words;
        const auto& tokens = result_.tokens->tokens[std::size_t(b)];
        for (int t = 0; t < result_.tokens->lengths[std::size_t(b)]; ++t)
            words << QString::fromStdString(tokens[std::size_t(t)]);
        QString text = words.join(QLatin1Char(' '));
        if (text.size() > 40)
            text = text.left(39) + QStringLiteral("…");
        sequenceCombo_->addItem(tr("%1: %2", "sequence number: its tokens").arg(b).arg(text));
    }
    const Config& config = result_.config();
    for (int h = 0; h < result_.heads(); ++h)
        // With fewer K/V heads, the one each query head reads.
        headCombo_->addItem(config.kvHeadCount() != config.heads
                                ? tr("Head %1 · K/V %2", "head chooser: query head, its K/V head")
                                      .arg(h)
                                      .arg(config.kvHeadOf(h))
                                : tr("Head %1", "head chooser").arg(h));
    sequenceCombo_->setCurrentIndex(b_);
    headCombo_->setCurrentIndex(h_);
}

void PipelineDialog::showChoice()
{
    if (!result_.hasWeights()) {
        strip_->clear();
        exportButton_->setEnabled(false);
        explanation_.reset();
        showExplanation();
        return;
    }
    strip_->setResult(result_, b_, h_);
    exportButton_->setEnabled(strip_->count() > 0);
    if (i_ < 0 || i_ >= result_.length() || j_ < 0 || j_ >= result_.keyLength()) {
        // The last real query sees every key, even under a causal mask.
        i_ = std::max(0, result_.tokens->lengths[std::size_t(b_)] - 1);
        j_ = 0;
    }
    explainCell(i_, j_);
}

void PipelineDialog::explainCell(int i, int j)
{
    if (!result_.hasWeights() || i < 0 || j < 0 || i >= result_.length() ||
        j >= result_.keyLength())
        return;
    i_ = i;
    j_ = j;
    explanation_ = attn::explainCell(result_, b_, h_, i, j);
    strip_->setSelectedCell(i, j);
    showExplanation();
}

QString PipelineDialog::explanationHtmlShown() const
{
    const PipelineTile* weights = strip_->tile(PipelineStage::Weights);
    if (!explanation_ || !weights)
        return {};
    const HeatmapData& data = weights->tile().heatmap;
    return explanationHtml(*explanation_, data.queryLabel(explanation_->i),
                           data.keyLabel(explanation_->j));
}

void PipelineDialog::showExplanation()
{
    const QString html = explanationHtmlShown();
    panel_->setHtml(html.isEmpty() ? QStringLiteral("<p>%1</p>").arg(tr("Nothing computed yet."))
                                   : html);
}

QString PipelineDialog::explanationText() const
{
    return panel_->toPlainText();
}

void PipelineDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDialog::changeEvent(event);
}

void PipelineDialog::chooseFileAndExport()
{
    chooseAndExport(this, tr("Export the Steps"), QStringLiteral("attention-steps.png"),
                    kExportFormats, [this](const QString& path) { return exportTo(path); });
}

QString PipelineDialog::exportTo(const QString& path)
{
    QString error;
    const std::optional<FigureFormat> format = figureFormatOfPath(path, &error);
    if (!format)
        return error;
    const std::optional<QByteArray> bytes =
        strip_->figureBytes(*format, kExportPixelRatio, &error, explanationHtmlShown());
    return bytes ? writeFigureFile(path, *bytes) : error;
}

void PipelineDialog::retranslateUi()
{
    setWindowTitle(tr("Step by Step"));
    exportButton_->setText(tr("&Export…"));
    exportButton_->setToolTip(tr("Save the steps as they are laid out here as PNG, SVG or PDF, "
                                 "for a handout"));
    sequenceLabel_->setText(tr("&Sequence:"));
    headLabel_->setText(tr("&Head:"));
    hintLabel_->setText(tr("Each step's matrix, for one sequence and one head. Click a cell of "
                           "S, L or P (the framed steps) to see its arithmetic below."));
    fillChoosers();
    showExplanation();
}

} // namespace attn::ui
