#include "fileheaddialog.h"

#include "attention/attentionreport.h"
#include "exportpath.h"
#include "figurewriter.h"
#include "formulabar.h"
#include "headcomparedialog.h"
#include "modelexport.h"
#include "modelfigure.h"
#include "modelgrid.h"

#include <QBoxLayout>
#include <QCheckBox>
#include <QEvent>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QPushButton>

#include <algorithm>
#include <array>
#include <cmath>

namespace attn::ui {
namespace {

QString number(double value, int decimals = 3)
{
    return QLocale().toString(value, 'f', decimals);
}

constexpr std::array kExportFormats{FigureFormat::Png, FigureFormat::Svg, FigureFormat::Pdf,
                                    FigureFormat::Csv, FigureFormat::Npy, FigureFormat::Json};

} // namespace

QString fileHeadSummary(const HeadStatistics& s)
{
    const int rows = int(s.rowSums.size());
    const int keys = int(s.colSums.size());
    return FileHeadDialog::tr("%1 queries × %2 keys · rows sum to %3 … %4 · mean entropy %5 "
                              "of %6 bits over all rows · mean row max %7")
        .arg(rows)
        .arg(keys)
        .arg(number(s.rowSumMin, 4), number(s.rowSumMax, 4), number(s.meanEntropy, 2),
             number(s.meanEntropyMax, 2), number(s.meanRowMax));
}

QStringList fileHeadFindings(const HeadStatistics& s)
{
    QStringList findings;
    if (!s.notNormalizedRows.empty())
        findings << FileHeadDialog::tr(
                        "Rows of this head that do not sum to 1: %n (sums from %1 to %2). The "
                        "file's weights are shown as stored, not rescaled: a softmax over the "
                        "keys makes every row sum to 1, so these weights were normalised "
                        "otherwise, masked after the softmax, rounded, or are not attention "
                        "weights.",
                        "", int(s.notNormalizedRows.size()))
                        .arg(number(s.rowSumMin, 4), number(s.rowSumMax, 4));
    const int nonFinite = s.nanCount + s.posInfCount + s.negInfCount;
    if (nonFinite > 0)
        findings << FileHeadDialog::tr("NaN or infinite weights: %n (NaN %1, +inf %2, −inf "
                                       "%3), shown in magenta, counted, and left out of the "
                                       "head patterns.",
                                       "", nonFinite)
                        .arg(s.nanCount)
                        .arg(s.posInfCount)
                        .arg(s.negInfCount);
    if (s.choiceRows > 0 && s.saturatedShare >= kWarnShare)
        findings << FileHeadDialog::tr("%1 % of the queries put %2 or more of their weight on "
                                       "one key.")
                        .arg(std::lround(100 * s.saturatedShare))
                        .arg(number(kSaturatedRowMax, 2));
    if (s.choiceRows > 0 && double(s.uniformRows.size()) >= kWarnShare * s.choiceRows)
        findings << FileHeadDialog::tr("Query rows that spread their weight evenly over every "
                                       "key: %n.",
                                       "", int(s.uniformRows.size()));
    return findings;
}

FileHeadDialog::FileHeadDialog(QWidget* parent)
    : HeadDialog(parent), annotate_(new QCheckBox), sums_(new QCheckBox), export_(new QPushButton),
      compare_(new QPushButton), summary_(new QLabel), findings_(new QLabel)
{
    setObjectName("fileHeadDialog");
    annotate_->setObjectName("annotate");
    sums_->setObjectName("marginSums");
    export_->setObjectName("exportHead");
    compare_->setObjectName("compareHead");
    findings_->setObjectName("findings");
    summary_->setObjectName("summary");
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    findings_->setWordWrap(true);
    findings_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    findings_->setStyleSheet(QStringLiteral("color: %1").arg(alertColor(palette()).name()));
    connect(annotate_, &QCheckBox::toggled, this, &FileHeadDialog::applyStyle);
    connect(sums_, &QCheckBox::toggled, this, &FileHeadDialog::applyStyle);
    connect(export_, &QPushButton::clicked, this, &FileHeadDialog::exportInteractively);
    connect(compare_, &QPushButton::clicked, this, &FileHeadDialog::openCompare);

    auto* checks = new QHBoxLayout;
    checks->addWidget(annotate_);
    checks->addWidget(sums_);
    checks->addStretch(1);
    checks->addWidget(compare_);
    checks->addWidget(export_);
    // HeadDialog lays out its view, zoom and hover line in a QVBoxLayout; the figures go
    // under them.
    if (auto* box = qobject_cast<QBoxLayout*>(layout())) {
        box->addLayout(checks);
        box->addWidget(summary_);
        box->addWidget(findings_);
    }
    retranslate();
}

void FileHeadDialog::showHead(std::shared_ptr<const AttentionStack> stack, int layer, int sequence,
                              int head, ColormapName colormap)
{
    showSelection(std::move(stack), layer, sequence, {FileWhat::Head, head}, colormap);
}

void FileHeadDialog::showSelection(std::shared_ptr<const AttentionStack> stack, int layer,
                                   int sequence, const FileSelection& selection,
                                   ColormapName colormap)
{
    stack_ = std::move(stack);
    sequence_ = sequence;
    selection_ = selection;
    layer_ = layer;
    head_ = selection.what == FileWhat::Head ? selection.head : -1;
    const HeatmapData data = fileHeatmap(*stack_, layer, sequence, selection);
    stats_ = weightStatistics(data.weights);
    style_ = HeatmapStyle();
    style_.colormap = colormap;
    const float top = finiteMax(data.weights);
    style_.vmax = top > 0 ? top : 1.0;
    style_.annotate = annotate_->isChecked();
    style_.marginSums = sums_->isChecked();
    setHeatmap(data, style_);
    retranslate();
    if (compareDialog_ && compareDialog_->isVisible()) {
        // A (the new head, sequence or stack) against the same B when it still exists.
        const int otherLayer = compareDialog_->otherLayer();
        const FileSelection other = compareDialog_->otherSelection();
        compareDialog_->compare(stack_, layer, sequence, selection, colormap);
        if (otherLayer < stack_->shape().layers &&
            (other.what != FileWhat::Head || other.head < stack_->shape().heads))
            compareDialog_->setOther(otherLayer, other);
    }
}

QString FileHeadDialog::exportTo(const QString& path) const
{
    const std::optional<FigureFormat> format = formatFromPath(path);
    if (!format)
        return tr("Cannot tell the format of %1: name it .png, .svg, .pdf, .csv, .npy or .json.")
            .arg(QFileInfo(path).fileName());
    if (!stack_)
        return {};
    if (!isFigureFormat(*format))
        return writeFigureFile(path,
                               selectionNumbers(*stack_, sequence_, layer_, selection_, *format));
    FileFigureOptions options;
    options.selection = selection_;
    options.layer = layer_;
    options.sequence = sequence_;
    options.colormap = style_.colormap;
    options.annotate = style_.annotate;
    options.marginSums = style_.marginSums;
    QString error;
    const std::optional<QByteArray> bytes = fileFigureBytes(*format, *stack_, options, &error);
    return bytes ? writeFigureFile(path, *bytes) : error;
}

void FileHeadDialog::exportInteractively()
{
    if (!stack_)
        return;
    const QString name = stackFileStem(*stack_) +
                         (head_ >= 0 ? QStringLiteral("-layer%1-head%2").arg(layer_).arg(head_)
                                     : QStringLiteral("-layer%1-mean").arg(layer_));
    chooseAndExport(this, tr("Export"), name, kExportFormats,
                    [this](const QString& path) { return exportTo(path); });
}

void FileHeadDialog::openCompare()
{
    if (!stack_)
        return;
    if (!compareDialog_)
        compareDialog_ = new HeadCompareDialog(this);
    compareDialog_->compare(stack_, layer_, sequence_, selection_, style_.colormap);
    compareDialog_->show();
    compareDialog_->raise();
    compareDialog_->activateWindow();
}

void FileHeadDialog::setKvHeads(int kvHeads)
{
    kvHeads_ = kvHeads;
    retranslate();
}

QString FileHeadDialog::summaryText() const
{
    return summary_->text();
}

void FileHeadDialog::applyStyle()
{
    style_.annotate = annotate_->isChecked();
    style_.marginSums = sums_->isChecked();
    if (layer_ >= 0)
        setHeatmap(view()->data(), style_);
}

void FileHeadDialog::retranslate()
{
    // A file and a model's run hold the weights alone: no logit or score to promise.
    setHoverHint(tr("Hover a cell to read its query, its key and the weight between them."));
    annotate_->setText(tr("Show &values in cells"));
    sums_->setText(tr("Row and column &sums"));
    export_->setText(tr("&Export…"));
    export_->setToolTip(tr("Save what is shown as a figure (PNG, SVG, PDF) with its title and "
                           "a caption naming the file, or its numbers (CSV, NPY, JSON)"));
    compare_->setText(tr("&Compare…"));
    compare_->setToolTip(tr("Show this head beside another head or layer mean of the same "
                            "sequence, on one colour scale, with where and how much they "
                            "differ"));
    compare_->setEnabled(layer_ >= 0);
    if (layer_ < 0)
        return;
    setWindowTitle(view()->data().title);
    const QString sharing = head_ >= 0 && stack_
                                ? ModelGrid::kvSharing(head_, stack_->shape().heads, kvHeads_)
                                : QString();
    summary_->setText(sharing.isEmpty() ? fileHeadSummary(stats_)
                                        : sharing + u'\n' + fileHeadSummary(stats_));
    const QStringList findings = fileHeadFindings(stats_);
    findings_->setText(findings.join(u'\n'));
    findings_->setVisible(!findings.isEmpty());
}

void FileHeadDialog::hideEvent(QHideEvent* event)
{
    HeadDialog::hideEvent(event);
    emit hidden();
    if (compareDialog_)
        compareDialog_->hide();
}

void FileHeadDialog::changeEvent(QEvent* event)
{
    HeadDialog::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

} // namespace attn::ui
