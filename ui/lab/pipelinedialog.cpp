#include "pipelinedialog.h"

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
#include <cmath>

namespace attn::ui {
namespace {

constexpr FigureFormat kExportFormats[] = {FigureFormat::Png, FigureFormat::Svg, FigureFormat::Pdf};
constexpr double kExportPixelRatio = 2; // PNG pixels a screen pixel: sharp on slides

constexpr std::size_t kAllDotTerms = 16;  // d_k up to this: every term of q·k
constexpr std::size_t kFirstDotTerms = 8; // else these first ones
constexpr std::size_t kAllSumTerms = 12;  // the softmax's sum: every term up to this
constexpr std::size_t kFirstSumTerms = 8;

// A number as the panel prints it: four significant digits, NaN and ±inf spelled out.
QString num(double value)
{
    if (std::isnan(value))
        return QStringLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    return QString::number(value, 'g', 4);
}

// A number after a minus sign: "0.37", or "(-0.37)" so that two signs never meet.
QString subtrahend(double value)
{
    return value < 0 ? QStringLiteral("(%1)").arg(num(value)) : num(value);
}

QString sub(const QString& base, const QString& index)
{
    return QStringLiteral("%1<sub>%2</sub>").arg(base, index);
}

// "L[3][0]" in a head's (T, T) matrix, or "L[0][1][3][0]" when the batch is the axis.
QString cell(const CellExplanation& e, const QString& symbol, int b, int i, int j)
{
    if (e.axis == SoftmaxAxis::Batch)
        return QStringLiteral("%1[%2][%3][%4][%5]").arg(symbol).arg(b).arg(e.h).arg(i).arg(j);
    return QStringLiteral("%1[%2][%3]").arg(symbol).arg(i).arg(j);
}

// The slice the softmax normalises: "L[3][·]", "L[·][0]" or "L[·][1][3][0]".
QString sliceName(const CellExplanation& e)
{
    switch (e.axis) {
    case SoftmaxAxis::Keys:
        return QStringLiteral("L[%1][·]").arg(e.i);
    case SoftmaxAxis::Queries:
        return QStringLiteral("L[·][%1]").arg(e.j);
    case SoftmaxAxis::Batch:
        return QStringLiteral("L[·][%1][%2][%3]").arg(e.h).arg(e.i).arg(e.j);
    }
    return {};
}

QString axisSentence(const CellExplanation& e)
{
    switch (e.axis) {
    case SoftmaxAxis::Keys:
        return PipelineDialog::tr("softmax over the keys (dim=-1): row %1 of L").arg(e.i);
    case SoftmaxAxis::Queries:
        return PipelineDialog::tr("softmax over the queries (dim=-2): column %1 of L").arg(e.j);
    case SoftmaxAxis::Batch:
        return PipelineDialog::tr(
                   "softmax over the batch (dim=0): L[·][%1][%2][%3], one value from each of the "
                   "%4 sequences")
            .arg(e.h)
            .arg(e.i)
            .arg(e.j)
            .arg(e.slice.size());
    }
    return {};
}

// 1. S[i][j] = q_i · k_j with its terms.
QString scoreParagraph(const CellExplanation& e)
{
    const QString i = QString::number(e.i), j = QString::number(e.j);
    QStringList terms;
    const std::size_t shown = e.terms.size() <= kAllDotTerms ? e.terms.size() : kFirstDotTerms;
    for (std::size_t k = 0; k < shown; ++k)
        terms << QStringLiteral("(%1·%2)").arg(num(e.terms[k].query), num(e.terms[k].key));
    QString sum = terms.join(QStringLiteral(" + "));
    if (shown < e.terms.size())
        sum += PipelineDialog::tr(" + … (%1 terms in all)", "the dot product's terms")
                   .arg(e.terms.size());
    return QStringLiteral(
               "<p><b>%1</b> %2 = %3 · %4 = Σ<sub>k</sub> %5·%6<br/>= %7 = <b>%8</b></p>")
        .arg(PipelineDialog::tr("① Score"), cell(e, QStringLiteral("S"), e.b, e.i, e.j),
             sub("q", i), sub("k", j), sub("q", i + QLatin1Char('k')),
             sub("k", j + QLatin1Char('k')), sum, num(e.score));
}

// 2. L[i][j] = S·scale/τ, and what the mask does to it.
QString logitParagraph(const CellExplanation& e)
{
    const QString name = cell(e, QStringLiteral("L"), e.b, e.i, e.j);
    QString text =
        QStringLiteral("<p><b>%1</b> %2 = %3 × scale / τ = %4 × %5 / %6 = <b>%7</b>")
            .arg(PipelineDialog::tr("② Logit"), name, cell(e, QStringLiteral("S"), e.b, e.i, e.j),
                 num(e.score), num(e.scale), num(e.temperature), num(e.scaledScore));
    if (e.masked && e.maskStage == MaskStage::BeforeSoftmax)
        text += QStringLiteral("<br/>") +
                PipelineDialog::tr("The mask hides key %1 from query %2, so it is "
                                   "filled: %3 = <b>%4</b>")
                    .arg(e.j)
                    .arg(e.i)
                    .arg(name, num(e.logit));
    else if (e.masked)
        text += QStringLiteral("<br/>") +
                PipelineDialog::tr(
                    "The mask hides key %1 from query %2, but only after the softmax (the bug): "
                    "the logit goes in as it is.")
                    .arg(e.j)
                    .arg(e.i);
    return text + QStringLiteral("</p>");
}

// 3. P[i][j] = exp(L[i][j] − max) / Σ exp(L[·] − max).
QString weightParagraph(const CellExplanation& e)
{
    QStringList terms;
    bool anyMasked = false;
    float maskedLogit = 0; // the fill, -inf or -1e9
    const std::size_t shown = e.slice.size() <= kAllSumTerms ? e.slice.size() : kFirstSumTerms;
    for (std::size_t n = 0; n < shown; ++n) {
        const SoftmaxTerm& term = e.slice[n];
        QString value = num(term.shiftedExp);
        if (int(n) == e.position)
            value = QStringLiteral("<b>%1</b>").arg(value);
        else if (term.masked && e.maskStage == MaskStage::BeforeSoftmax)
            value = QStringLiteral("<span style=\"color:gray\">%1</span>").arg(value);
        if (term.masked && e.maskStage == MaskStage::BeforeSoftmax) {
            anyMasked = true;
            maskedLogit = term.logit;
        }
        terms << value;
    }
    QString sum = terms.join(QStringLiteral(" + "));
    if (shown < e.slice.size())
        sum +=
            PipelineDialog::tr(" + … (%1 terms in all)", "the softmax's terms").arg(e.slice.size());

    const QString slice = sliceName(e);
    const QString name = cell(e, QStringLiteral("L"), e.b, e.i, e.j);
    const QString weight = cell(e, QStringLiteral("P"), e.b, e.i, e.j);
    QString text =
        QStringLiteral("<p><b>%1</b> %2<br/>").arg(PipelineDialog::tr("③ Weight"), axisSentence(e));
    text +=
        PipelineDialog::tr("max = %1, subtracted only so that exp cannot overflow").arg(num(e.max));
    text += QStringLiteral("<br/>Σ exp(%1 − max) = %2 = %3").arg(slice, sum, num(e.denominator));
    if (anyMasked && std::isfinite(e.max))
        text += PipelineDialog::tr(" (grey: masked, exp(%1 − max) = 0)").arg(num(maskedLogit));
    const double result = e.zeroedAfterSoftmax ? e.quotient : double(e.weight);
    text += QStringLiteral("<br/>%1 = exp(%2 − max) / Σ exp(%3 − max) = exp(%4 − %5) / %6 = %7 / "
                           "%6 = <b>%8</b>")
                .arg(weight, name, slice, num(e.logit), subtrahend(e.max), num(e.denominator),
                     num(e.numerator), num(result));
    if (std::isinf(e.max) && e.max < 0)
        text += QStringLiteral("<br/>") +
                PipelineDialog::tr(
                    "Every logit of %1 is -inf: max = -inf and -inf − (-inf) = NaN, so the weight "
                    "is NaN, as in torch.")
                    .arg(slice);
    text += QStringLiteral("</p>");
    if (e.zeroedAfterSoftmax)
        text += QStringLiteral("<p>") +
                PipelineDialog::tr(
                    "Then the mask, after the softmax (the bug): %1 = <b>%2</b>, so what is left "
                    "no longer sums to 1.")
                    .arg(weight, num(e.weight)) +
                QStringLiteral("</p>");
    return text;
}

} // namespace

QString explanationHtml(const CellExplanation& e, const QString& queryLabel,
                        const QString& keyLabel)
{
    const QString header =
        QStringLiteral("<p>") +
        PipelineDialog::tr(
            "Sequence %1, head %2: how query <b>%3</b> (row %4) weighs key <b>%5</b> "
            "(column %6).")
            .arg(e.b)
            .arg(e.h)
            .arg(queryLabel.toHtmlEscaped())
            .arg(e.i)
            .arg(keyLabel.toHtmlEscaped())
            .arg(e.j) +
        QStringLiteral("</p>");
    return header + scoreParagraph(e) + logitParagraph(e) + weightParagraph(e);
}

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
    for (int h = 0; h < result_.heads(); ++h)
        headCombo_->addItem(tr("Head %1", "head chooser").arg(h));
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
