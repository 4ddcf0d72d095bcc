#include "statisticspanel.h"

#include "formulabar.h"
#include "labels.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <functional>

namespace attn::ui {

QString fixed(double value, int decimals)
{
    if (std::isnan(value))
        return QStringLiteral("NaN");
    if (std::isinf(value))
        return value > 0 ? QStringLiteral("∞") : QStringLiteral("−∞");
    return QString::number(value, 'f', decimals);
}

namespace {

const QString kSeparator = QStringLiteral("&nbsp;&nbsp;·&nbsp;&nbsp;");

QString percent(double share)
{
    return QString::number(std::lround(share * 100.0));
}

// "0, 3, 5" or "0, 3, 5, 6, 7, 8, …": rows numbered from 0, as PyTorch indexes them.
QString rowList(const std::vector<int>& rows)
{
    constexpr std::size_t kShown = 6;
    QStringList shown;
    for (std::size_t k = 0; k < rows.size() && k < kShown; ++k)
        shown << QString::number(rows[k]);
    if (rows.size() > kShown)
        shown << QStringLiteral("…");
    return shown.join(QStringLiteral(", "));
}

// A table as large as its cells, or as tall as the room it has and scrolling. AdjustToContents
// alone also counts the scroll bars when they happen to show while the layout asks, which
// leaves an empty strip after the table has grown and they have gone.
class FittedTable : public QTableWidget {
public:
    using QTableWidget::QTableWidget;

    [[nodiscard]] QSize sizeHint() const override
    {
        const int frame = 2 * frameWidth();
        QSize size = viewportSizeHint() + QSize(frame, frame);
        // Its vertical scroll bar goes beside the columns, not over the last one.
        if (scrolls())
            size.rwidth() += verticalScrollBar()->sizeHint().width();
        return size;
    }
    // The scroll bars' own minimum would leave room for rows a single head does not have.
    [[nodiscard]] QSize minimumSizeHint() const override
    {
        return QTableWidget::minimumSizeHint().boundedTo(sizeHint());
    }

protected:
    void resizeEvent(QResizeEvent* event) override
    {
        QTableWidget::resizeEvent(event);
        if (scrolls() != scrolled_) { // its width with or without the scroll bar
            scrolled_ = scrolls();
            updateGeometry();
        }
    }

private:
    // Its rows are taller than the room it has.
    [[nodiscard]] bool scrolls() const
    {
        return rowCount() > 0 && viewportSizeHint().height() + 2 * frameWidth() > height();
    }

    bool scrolled_ = false;
};

bool hasPadding(const TokenBatch& tokens)
{
    for (int length : tokens.lengths)
        if (length < tokens.length())
            return true;
    return false;
}

} // namespace

StatisticsPanel::StatisticsPanel(QWidget* parent)
    : QWidget(parent), staleLabel_(new QLabel), headlineLabel_(new QLabel(this)),
      tableCaption_(new QLabel(this)), table_(new FittedTable(0, ColumnCount, this)),
      warningsCaption_(new QLabel(this)), warningsLayout_(new QVBoxLayout)
{
    staleLabel_->setObjectName(QStringLiteral("staleLabel"));
    staleLabel_->setTextFormat(Qt::RichText);
    staleLabel_->setWordWrap(true);
    staleLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    staleLabel_->hide();
    headlineLabel_->setTextFormat(Qt::RichText);
    headlineLabel_->setWordWrap(true);
    headlineLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont captionFont = font();
    captionFont.setBold(true);
    tableCaption_->setFont(captionFont);
    warningsCaption_->setFont(captionFont);

    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setWordWrap(false);
    table_->setCornerButtonEnabled(false);
    // Tab leaves the table for the next control (the arrow keys move between its cells):
    // it would otherwise keep the keyboard from the heatmaps after it.
    table_->setTabKeyNavigation(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setHighlightSections(false);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // As large as its rows and columns and no larger; it scrolls when the panel is smaller.
    table_->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    table_->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Maximum);

    // The table on the left, as tall as its heads or as the room there is (it scrolls
    // then); the warnings beside it, scrolling on their own when there are many, under the
    // note that the figures are old when they are. Neither changes the panel's height.
    auto* tableColumn = new QVBoxLayout;
    tableColumn->addWidget(tableCaption_);
    tableColumn->addWidget(table_);
    tableColumn->addStretch(1);
    warningsLayout_->setSpacing(6);
    auto* warnings = new QWidget;
    auto* warningsList = new QVBoxLayout(warnings);
    warningsList->setContentsMargins(0, 0, 0, 0);
    warningsList->addWidget(staleLabel_);
    warningsList->addLayout(warningsLayout_);
    warningsList->addStretch(1);
    auto* warningsScroll = new QScrollArea;
    warningsScroll->setWidget(warnings);
    warningsScroll->setWidgetResizable(true);
    warningsScroll->setFrameShape(QFrame::NoFrame);
    warningsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* warningsColumn = new QVBoxLayout;
    warningsColumn->addWidget(warningsCaption_);
    warningsColumn->addWidget(warningsScroll, 1);
    auto* columns = new QHBoxLayout;
    columns->addLayout(tableColumn);
    columns->addSpacing(12);
    columns->addLayout(warningsColumn, 1);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(headlineLabel_);
    layout->addSpacing(6);
    layout->addLayout(columns, 1);
    rebuild();
}

QSize StatisticsPanel::sizeHint() const
{
    // The headline's two lines, the caption and the table's header with about five heads:
    // the same for 1 head or 64, with one warning or five.
    return {QWidget::sizeHint().width(), 13 * fontMetrics().lineSpacing()};
}

void StatisticsPanel::setStale(const QString& reason)
{
    if (reason == staleReason_)
        return;
    staleReason_ = reason;
    fillStale();
}

void StatisticsPanel::fillStale()
{
    // Greyed as disabled widgets are, under one line in the alert's red that says why.
    for (QWidget* part :
         {static_cast<QWidget*>(headlineLabel_), static_cast<QWidget*>(tableCaption_),
          static_cast<QWidget*>(table_), static_cast<QWidget*>(warningsCaption_)})
        part->setEnabled(!isStale());
    for (int k = 0; k < warningsLayout_->count(); ++k)
        if (QWidget* row = warningsLayout_->itemAt(k)->widget())
            row->setEnabled(!isStale());
    staleLabel_->setVisible(isStale());
    if (!isStale())
        return;
    //: %1 is why the newest input cannot be computed
    staleLabel_->setText(QStringLiteral("<span style=\"color:%1\">%2</span>")
                             .arg(alertColor(palette()).name(),
                                  tr("<b>Not current.</b> %1 These figures are those of the last "
                                     "input that could be computed.")
                                      .arg(staleReason_.toHtmlEscaped())));
}

void StatisticsPanel::setResult(const Result& result, int sequence)
{
    // The figures need the statistics, the tokens and the request, not the (B, H, T, T)
    // tensors: the panel does not keep those alive (a large switch reuses their memory).
    result_ = withoutHeadTensors(result);
    sequence_ = result.batch() > 0 ? std::clamp(sequence, 0, result.batch() - 1) : 0;
    rebuild();
}

void StatisticsPanel::clear()
{
    setResult(Result{}, 0);
}

QString StatisticsPanel::headlineText() const
{
    return headlineLabel_->text();
}

void StatisticsPanel::changeEvent(QEvent* event)
{
    // Tints and red figures are chosen for the palette, so its change rebuilds too.
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange)
        rebuild();
    QWidget::changeEvent(event);
}

void StatisticsPanel::rebuild()
{
    setHeaders();
    fillHeadline();
    fillTable();
    fillWarnings();
    fillStale();
}

void StatisticsPanel::setHeaders()
{
    struct Header {
        QString text;
        QString toolTip;
    };
    const Header headers[ColumnCount] = {
        {tr("head", "attention head, table header"),
         tr("The head, numbered from 0 as PyTorch indexes it.")},
        {tr("std(S)", "standard deviation of the scores S = QKᵀ"),
         tr("Spread (standard deviation) of the raw scores S = QKᵀ of this head. It grows "
            "like √d_k.")},
        {tr("std(L)", "standard deviation of the logits L = S·scale/τ"),
         tr("Spread of the logits L = S·scale/τ that go into the softmax, before masking. "
            "The textbook ÷√d_k keeps it from growing with d_k.")},
        {tr("ratio", "std(L) / std(S)"),
         tr("std(L) ÷ std(S): the factor the scaling and the temperature applied, e.g. "
            "0.25 = 1/√16.")},
        {tr("entropy / max (bits)", "mean row entropy and its largest possible value"),
         tr("How spread out each row's attention is, in bits, averaged over the rows, and the "
            "most it could be (every visible key weighted alike). Near 0: each query picks one "
            "key.")},
        {tr("mean row max", "the mean over the rows of each row's largest weight"),
         tr("Each row's largest weight, averaged over the rows: 1 means every query looks at "
            "a single key. One cell of 1.00 in a heatmap does not make this 1 when the other "
            "rows spread their weight.")},
        {tr("saturated", "share of saturated rows"),
         tr("Share of rows whose largest weight is at least 0.99: almost one-hot, so little "
            "gradient flows back. Tinted from 25%.")},
        {tr("row sums", "smallest and largest sum of a row of weights"),
         tr("Smallest and largest row sum. Each row is a distribution over the keys and "
            "should sum to 1; tinted when one does not.")},
        {tr("column sums", "smallest and largest sum of a column of weights"),
         tr("Smallest and largest column sum. Columns need not sum to 1: a large sum means "
            "many queries look at that key.")},
        {tr("NaN", "count of weights that are not a number"),
         tr("How many weights are NaN (not a number), e.g. in a row whose keys are all masked "
            "with -inf. Tinted when not 0.")},
        {tr("std(L) final", "standard deviation of the logits after ALiBi and the cap"),
         tr("Spread of the logits after ALiBi's bias and the soft-cap c·tanh(L/c), the numbers "
            "the softmax really sees, before masking.")},
        {tr("sink max", "the largest weight the attention sink took from a row"),
         tr("The largest weight the sink took from a row of this head: what the query gave to "
            "nothing. Tinted when it is more than half.")},
    };
    for (int column = 0; column < ColumnCount; ++column) {
        auto* item = new QTableWidgetItem(headers[column].text);
        item->setToolTip(headers[column].toolTip);
        table_->setHorizontalHeaderItem(column, item);
    }
}

// "×0.25 = 1/√d_k": the factor between std(S) and std(L), and where it comes from.
QString StatisticsPanel::factorText() const
{
    const Config& config = result_.config();
    const bool tempered = !qFuzzyCompare(config.temperature, 1.0f);
    if (config.scale == ScaleMode::None && !tempered)
        return tr("×1, no scaling");
    QString source;
    switch (config.scale) {
    case ScaleMode::SqrtDk:
        source = tempered ? QStringLiteral("1/(√d_k·τ)") : QStringLiteral("1/√d_k");
        break;
    case ScaleMode::SqrtDModel:
        source = tempered ? QStringLiteral("1/(√d_model·τ)") : QStringLiteral("1/√d_model");
        break;
    case ScaleMode::None:
        source = QStringLiteral("1/τ");
        break;
    }
    const double factor = scaleFactor(config) / static_cast<double>(config.temperature);
    return QStringLiteral("×%1 = %2").arg(QString::number(factor, 'g', 4), source);
}

void StatisticsPanel::fillHeadline()
{
    if (!result_.stats) {
        headlineLabel_->setText(tr("No figures yet: type a sentence to compute its attention."));
        return;
    }
    const Statistics& stats = *result_.stats;
    const QString red = alertColor(palette()).name();
    auto flag = [&](const QString& html, bool trouble) {
        return trouble ? QStringLiteral("<span style=\"color:%1\"><b>%2</b></span>").arg(red, html)
                       : html;
    };

    //: %3 is the factor between them, e.g. "×0.25 = 1/√d_k"
    const QString spread = tr("std before scaling %1 → after %2 (%3)")
                               .toHtmlEscaped()
                               .arg(fixed(stats.stdScores, 4), fixed(stats.stdLogits, 4),
                                    factorText().toHtmlEscaped());
    QStringList figures;
    figures << tr("mean entropy %1 of at most %2 bits")
                   .toHtmlEscaped()
                   .arg(fixed(stats.meanEntropy, 2), fixed(stats.meanEntropyMax, 2));
    figures << flag(tr("saturated rows %1%").toHtmlEscaped().arg(percent(stats.saturatedShare)),
                    stats.saturatedShare >= kWarnShare);
    figures << flag(tr("row sums %1 – %2")
                        .toHtmlEscaped()
                        .arg(fixed(stats.rowSumMin, 4), fixed(stats.rowSumMax, 4)),
                    stats.notNormalizedRows > 0 && !sinkTakes());
    figures << flag(
        tr("NaN %1", "count of weights that are not a number").toHtmlEscaped().arg(stats.nanCount),
        stats.nanCount > 0);
    if (stats.posInfCount + stats.negInfCount > 0)
        figures << flag(tr("±inf %1", "count of infinite weights")
                            .toHtmlEscaped()
                            .arg(stats.posInfCount + stats.negInfCount),
                        true);
    todaysFigures(figures, flag);
    headlineLabel_->setText(
        QStringLiteral("<b>%1</b><br/>%2").arg(spread, figures.join(kSeparator)));
}

void StatisticsPanel::fillTable()
{
    table_->clearContents();
    // Today's columns only where their switch is on.
    const bool shifted = result_.stats && (result_.config().alibi || result_.config().softcap > 0);
    table_->setColumnHidden(FinalStdColumn, !shifted);
    table_->setColumnHidden(SinkColumn, !(result_.stats && result_.config().sink));
    if (!result_.stats) {
        table_->setRowCount(0);
        tableCaption_->setText(
            tr("Per head", "caption of the table with one row per attention head"));
        return;
    }
    const int H = result_.heads();
    const int b = sequence_;
    if (result_.stats->heads.size() < static_cast<std::size_t>((b + 1) * H)) {
        table_->setRowCount(0); // a result without per-head figures: nothing to list
        return;
    }
    if (result_.batch() > 1) {
        const TokenBatch& tokens = *result_.tokens;
        const auto& line = tokens.tokens[static_cast<std::size_t>(b)];
        QStringList words;
        for (int t = 0; t < tokens.lengths[static_cast<std::size_t>(b)]; ++t)
            words << QString::fromStdString(line[static_cast<std::size_t>(t)]);
        const QString text = fontMetrics().elidedText(words.join(QLatin1Char(' ')), Qt::ElideRight,
                                                      40 * fontMetrics().averageCharWidth());
        //: %1 is the sequence's number (from 0), %2 its first tokens
        tableCaption_->setText(tr("Per head of sequence %1: “%2”").arg(b).arg(text));
    } else {
        tableCaption_->setText(
            tr("Per head", "caption of the table with one row per attention head"));
    }

    QColor tint = alertColor(palette());
    tint.setAlpha(70);
    table_->setRowCount(H);
    for (int h = 0; h < H; ++h) {
        const HeadStatistics& s = result_.stats->heads[static_cast<std::size_t>(b * H + h)];
        auto set = [&](int column, const QString& text, bool trouble = false,
                       const QString& toolTip = {}) {
            auto* item = new QTableWidgetItem(text);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (trouble)
                item->setBackground(tint);
            item->setToolTip(toolTip);
            table_->setItem(h, column, item);
        };
        set(HeadColumn, QString::number(h));
        set(StdScoresColumn, fixed(s.stdScores, 4));
        set(StdLogitsColumn, fixed(s.stdLogits, 4));
        set(RatioColumn, fixed(s.stdLogits / s.stdScores, 4)); // 0/0 is NaN, shown as such
        set(EntropyColumn,
            QStringLiteral("%1 / %2").arg(fixed(s.meanEntropy, 2), fixed(s.meanEntropyMax, 2)));
        set(RowMaxColumn, fixed(s.meanRowMax, 3));
        set(SaturatedColumn, QStringLiteral("%1%").arg(percent(s.saturatedShare)),
            s.saturatedShare >= kWarnShare,
            tr("%1 of the %2 rows with more than one visible key are saturated")
                .arg(s.saturatedRows)
                .arg(s.choiceRows));
        set(RowSumsColumn,
            QStringLiteral("%1 – %2").arg(fixed(s.rowSumMin, 4), fixed(s.rowSumMax, 4)),
            !s.notNormalizedRows.empty() && !sinkTakes(),
            sinkTakes() ? tr("With a sink each row sums to 1 minus what the sink took.")
            : s.notNormalizedRows.empty()
                ? QString()
                : tr("Rows that do not sum to 1: %1").arg(rowList(s.notNormalizedRows)));
        set(ColumnSumsColumn,
            QStringLiteral("%1 – %2").arg(fixed(s.colSumMin, 4), fixed(s.colSumMax, 4)));
        set(NanColumn, QString::number(s.nanCount), s.nanCount > 0,
            s.nanRows.empty() ? QString() : tr("Rows with NaN: %1").arg(rowList(s.nanRows)));
        set(FinalStdColumn, fixed(s.stdFinalLogits, 4));
        std::vector<int> sinkRows; // where the sink took more than half
        for (std::size_t i = 0; i < s.sinkWeights.size(); ++i)
            if (s.sinkWeights[i] > kSinkMost)
                sinkRows.push_back(static_cast<int>(i));
        set(SinkColumn, fixed(s.maxSinkWeight, 3), !sinkRows.empty(),
            sinkRows.empty()
                ? QString()
                : tr("Rows whose sink took more than half: %1").arg(rowList(sinkRows)));
    }
}

void StatisticsPanel::fillWarnings()
{
    while (QLayoutItem* item = warningsLayout_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    warningTexts_.clear();
    warningsCaption_->setText(tr("Warnings", "heading of the list of warnings"));
    warningsCaption_->setVisible(result_.stats != nullptr);
    if (!result_.stats)
        return;

    const QIcon warningIcon = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    for (const Warning& warning : result_.stats->warnings) {
        warningTexts_ << ui::warningText(warning);
        addWarningRow(warningIcon, warningTexts_.last());
    }
    if (warningTexts_.isEmpty()) {
        const bool padded = result_.keyTokens && hasPadding(*result_.keyTokens);
        const bool textbook = FormulaBar::departuresOf(result_.config(), padded).isEmpty();
        addWarningRow(style()->standardIcon(QStyle::SP_MessageBoxInformation),
                      textbook ? tr("No warnings: this is the textbook formula behaving as "
                                    "expected.")
                               : tr("No warnings: the weights look healthy, although the "
                                    "formula is not the textbook one."));
    }
}

void StatisticsPanel::addWarningRow(const QIcon& icon, const QString& text)
{
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    const int extent = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    auto* iconLabel = new QLabel;
    iconLabel->setPixmap(icon.pixmap(QSize(extent, extent), devicePixelRatio()));
    auto* textLabel = new QLabel(text);
    textLabel->setTextFormat(Qt::PlainText);
    textLabel->setWordWrap(true);
    textLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(iconLabel, 0, Qt::AlignTop);
    layout->addWidget(textLabel, 1);
    warningsLayout_->addWidget(row);
}

} // namespace attn::ui
