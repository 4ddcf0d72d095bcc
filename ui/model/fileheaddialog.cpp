#include "fileheaddialog.h"

#include "attentionreport.h"

#include <QBoxLayout>
#include <QCheckBox>
#include <QEvent>
#include <QLabel>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

QStringList tokenLabels(const std::vector<std::string>& tokens)
{
    QStringList labels;
    labels.reserve(qsizetype(tokens.size()));
    for (const std::string& token : tokens)
        labels << QString::fromStdString(token);
    return labels;
}

QString number(double value, int decimals = 3)
{
    return QLocale().toString(value, 'f', decimals);
}

} // namespace

HeatmapData fileHeadHeatmap(const AttentionStack& stack, int layer, int sequence, int head)
{
    HeatmapData data;
    data.weights = stack.head(layer, sequence, head); // (T_q, T_k), converted to float
    data.queryLabels = tokenLabels(stack.queryTokens(sequence));
    data.keyLabels = tokenLabels(stack.keyTokens(sequence));
    data.title = stack.shape().sequences > 1
                     ? FileHeadDialog::tr("Layer %1 · head %2 · sequence %3")
                           .arg(layer)
                           .arg(head)
                           .arg(sequence)
                     : FileHeadDialog::tr("Layer %1 · head %2").arg(layer).arg(head);
    return data;
}

QString fileHeadSummary(const HeadStatistics& s)
{
    const int rows = int(s.rowSums.size());
    const int keys = int(s.colSums.size());
    return FileHeadDialog::tr("%1 queries × %2 keys · rows sum to %3 … %4 · mean entropy %5 "
                              "of %6 bits · mean largest weight %7")
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
                        "%n row(s) of this head do not sum to 1 (sums from %1 to %2). The "
                        "file's weights are shown as stored, not rescaled: a softmax over the "
                        "keys makes every row sum to 1, so these weights were normalised "
                        "otherwise, masked after the softmax, rounded, or are not attention "
                        "weights.",
                        "", int(s.notNormalizedRows.size()))
                        .arg(number(s.rowSumMin, 4), number(s.rowSumMax, 4));
    const int nonFinite = s.nanCount + s.posInfCount + s.negInfCount;
    if (nonFinite > 0)
        findings << FileHeadDialog::tr("%n weight(s) are NaN or infinite (NaN %1, +inf %2, −inf "
                                       "%3): shown in magenta, counted, and left out of the "
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
        findings << FileHeadDialog::tr("%n query row(s) spread their weight evenly over every key.",
                                       "", int(s.uniformRows.size()));
    return findings;
}

FileHeadDialog::FileHeadDialog(QWidget* parent)
    : HeadDialog(parent), annotate_(new QCheckBox), sums_(new QCheckBox), summary_(new QLabel),
      findings_(new QLabel)
{
    setObjectName("fileHeadDialog");
    annotate_->setObjectName("annotate");
    sums_->setObjectName("marginSums");
    findings_->setObjectName("findings");
    summary_->setObjectName("summary");
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    findings_->setWordWrap(true);
    findings_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    findings_->setStyleSheet(QStringLiteral("color: #b3261e"));
    connect(annotate_, &QCheckBox::toggled, this, &FileHeadDialog::applyStyle);
    connect(sums_, &QCheckBox::toggled, this, &FileHeadDialog::applyStyle);

    auto* checks = new QHBoxLayout;
    checks->addWidget(annotate_);
    checks->addWidget(sums_);
    checks->addStretch(1);
    // HeadDialog lays out its view, zoom and hover line in a QVBoxLayout; the figures go
    // under them.
    if (auto* box = qobject_cast<QBoxLayout*>(layout())) {
        box->addLayout(checks);
        box->addWidget(summary_);
        box->addWidget(findings_);
    }
    retranslate();
}

void FileHeadDialog::showHead(const AttentionStack& stack, int layer, int sequence, int head,
                              ColormapName colormap)
{
    layer_ = layer;
    head_ = head;
    const HeatmapData data = fileHeadHeatmap(stack, layer, sequence, head);
    stats_ = weightStatistics(data.weights);
    style_ = HeatmapStyle();
    style_.colormap = colormap;
    const float top = finiteMax(data.weights);
    style_.vmax = top > 0 ? top : 1.0;
    style_.annotate = annotate_->isChecked();
    style_.marginSums = sums_->isChecked();
    setHeatmap(data, style_);
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
    annotate_->setText(tr("Show &values in cells"));
    sums_->setText(tr("Row and column &sums"));
    if (layer_ < 0)
        return;
    setWindowTitle(view()->data().title);
    summary_->setText(fileHeadSummary(stats_));
    const QStringList findings = fileHeadFindings(stats_);
    findings_->setText(findings.join(u'\n'));
    findings_->setVisible(!findings.isEmpty());
}

void FileHeadDialog::changeEvent(QEvent* event)
{
    HeadDialog::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

} // namespace attn::ui
