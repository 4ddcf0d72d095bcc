#include "modelcomparedialog.h"

#include "engine/engine.h"
#include "exportpath.h"
#include "figurewriter.h"
#include "formulabar.h" // alertColor
#include "heatmapview.h"
#include "modelcomparison.h"
#include "models/predictioncomparison.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QSpinBox>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <array>

namespace attn::ui {
namespace {

constexpr std::array kFigureFormats{FigureFormat::Png, FigureFormat::Svg, FigureFormat::Pdf};
constexpr int kAnnotatedTokens = 16; // longer texts export without values in cells

} // namespace

ModelCompareDialog::ModelCompareDialog(QWidget* parent)
    : QDialog(parent), layerLabel_(new QLabel), layer_(new QSpinBox), headLabel_(new QLabel),
      head_(new QComboBox), status_(new QLabel), viewA_(new HeatmapView), viewB_(new HeatmapView),
      viewDifference_(new HeatmapView), hover_(new QLabel), difference_(new QLabel),
      titleA_(new QLabel), titleB_(new QLabel), predictionsA_(new QTreeWidget),
      predictionsB_(new QTreeWidget), summary_(new QLabel), exportButton_(new QPushButton),
      closeButton_(new QPushButton),
      worker_(
          [this](CompareJob& job, const std::atomic<bool>& cancel) { return compute(job, cancel); })
{
    setObjectName("modelCompareDialog");
    layer_->setObjectName("compareLayer");
    head_->setObjectName("compareHead");
    viewA_->setObjectName("compareA");
    viewB_->setObjectName("compareB");
    viewDifference_->setObjectName("compareDifference");
    status_->setObjectName("compareStatus");
    status_->setWordWrap(true);
    hover_->setObjectName("compareHover");
    summary_->setObjectName("predictionSummary");
    predictionsA_->setObjectName("predictionsA");
    predictionsB_->setObjectName("predictionsB");
    exportButton_->setObjectName("exportButton");
    layerLabel_->setBuddy(layer_);
    headLabel_->setBuddy(head_);
    for (QLabel* label : {difference_, summary_, titleB_})
        label->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    for (QTreeWidget* list : {predictionsA_, predictionsB_}) {
        list->setColumnCount(4);
        list->setRootIsDecorated(false);
        list->setSelectionMode(QAbstractItemView::NoSelection);
        list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    }

    connect(layer_, &QSpinBox::valueChanged, this, [this] {
        if (!filling_)
            refresh();
    });
    connect(head_, &QComboBox::currentIndexChanged, this, [this] {
        if (!filling_)
            refresh();
    });
    for (HeatmapView* view : {viewA_, viewB_, viewDifference_})
        connect(view, &HeatmapView::cellHovered, this,
                [this](int row, int column) { hover_->setText(cellText(row, column)); });
    connect(exportButton_, &QPushButton::clicked, this, &ModelCompareDialog::chooseFileAndExport);
    connect(closeButton_, &QPushButton::clicked, this, &QDialog::close);

    auto* choose = new QHBoxLayout;
    choose->addWidget(layerLabel_);
    choose->addWidget(layer_);
    choose->addWidget(headLabel_);
    choose->addWidget(head_);
    choose->addWidget(status_, 1);
    auto* views = new QHBoxLayout;
    for (HeatmapView* view : {viewA_, viewB_, viewDifference_})
        views->addWidget(view, 1);
    auto* lists = new QGridLayout;
    lists->addWidget(titleA_, 0, 0);
    lists->addWidget(titleB_, 0, 1);
    lists->addWidget(predictionsA_, 1, 0);
    lists->addWidget(predictionsB_, 1, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(exportButton_);
    buttons->addWidget(closeButton_);
    // The heatmaps above, the words and predictions below, with a handle between: a long
    // text's heatmaps can take the height they need to label every token.
    auto* top = new QWidget;
    auto* topBox = new QVBoxLayout(top);
    topBox->setContentsMargins(0, 0, 0, 0);
    topBox->addLayout(views, 1);
    topBox->addWidget(hover_);
    auto* bottom = new QWidget;
    auto* bottomBox = new QVBoxLayout(bottom);
    bottomBox->setContentsMargins(0, 0, 0, 0);
    bottomBox->addWidget(difference_);
    bottomBox->addLayout(lists);
    bottomBox->addWidget(summary_);
    bottomBox->addStretch(1);
    auto* split = new QSplitter(Qt::Vertical);
    split->setObjectName("compareSplit");
    split->addWidget(top);
    split->addWidget(bottom);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 0);
    split->setChildrenCollapsible(false);
    auto* box = new QVBoxLayout(this);
    box->addLayout(choose);
    box->addWidget(split, 1);
    box->addLayout(buttons);
    // As tall as the screen allows, up to 1100: the heatmaps get what the lists leave.
    const QRect screen = this->screen() ? this->screen()->availableGeometry() : QRect();
    resize(screen.isValid() ? std::min(1440, screen.width() - 40) : 1320,
           screen.isValid() ? std::clamp(screen.height() - 80, 600, 1100) : 860);
    retranslate();
}

ModelCompareDialog::~ModelCompareDialog() = default;

void ModelCompareDialog::follow(std::shared_ptr<const ModelRun> switched, const QString& text)
{
    if (!switched || !switched->model)
        return;
    const bool first = !switched_;
    switched_ = std::move(switched);
    if (first) {
        filling_ = true;
        layer_->setRange(0, std::max(0, switched_->model->info().layers - 1));
        fillHeads();
        filling_ = false;
    }
    // Layers before the one the switches act in are the same in A and B: show that one.
    const int firstSwitched = std::max(0, switched_->switches.onlyLayer);
    if (firstSwitched != firstSwitched_) {
        firstSwitched_ = firstSwitched;
        filling_ = true;
        layer_->setValue(firstSwitched);
        filling_ = false;
    }
    computing_ = true;
    worker_.submit({switched_, textbook_, text.toStdString(), ++newestJob_});
    retranslate(); // "Computing the textbook model…" or "Comparing the predictions…"
}

// On the worker thread. The dialog's destructor joins it, so `this` is alive while a call
// is posted.
std::function<void()> ModelCompareDialog::compute(const CompareJob& job,
                                                  const std::atomic<bool>& cancel)
{
    const std::uint64_t number = job.number;
    const auto post = [this, number](std::shared_ptr<const ModelRun> textbook,
                                     std::shared_ptr<const ModelRun> switched,
                                     std::shared_ptr<const PredictionComparison> predictions) {
        return [this, number, textbook, switched, predictions] {
            QMetaObject::invokeMethod(
                this,
                [this, number, textbook, switched, predictions] {
                    if (number == newestJob_)
                        showComparison(textbook, switched, predictions);
                },
                Qt::QueuedConnection);
        };
    };
    try {
        std::shared_ptr<const ModelRun> textbook = job.textbook;
        if (!textbook || textbook->ids != job.switched->ids) {
            ModelSwitches switches;
            switches.formula = ModelSwitches::textbookFormula(job.switched->model->info());
            textbook = std::make_shared<const ModelRun>(
                job.switched->model->run(job.text, switches, &cancel));
        }
        if (textbook->ids != job.switched->ids) // B is of another text than the one given
            return post(nullptr, nullptr, nullptr);
        auto predictions = std::make_shared<const PredictionComparison>(
            comparePredictions(*textbook, *job.switched));
        return post(textbook, job.switched, predictions);
    } catch (const Cancelled&) {
        return {};
    } catch (const std::exception&) {
        // A text the model refuses: the window says why; A stays as it was.
        return post(nullptr, nullptr, nullptr);
    }
}

void ModelCompareDialog::showComparison(std::shared_ptr<const ModelRun> textbook,
                                        std::shared_ptr<const ModelRun> switched,
                                        std::shared_ptr<const PredictionComparison> predictions)
{
    computing_ = false;
    if (textbook) {
        textbook_ = std::move(textbook);
        predicted_ = std::move(switched);
        predictions_ = std::move(predictions);
    }
    refresh();
}

bool ModelCompareDialog::ready() const
{
    return textbook_ && switched_ && textbook_->ids == switched_->ids && predictions_ &&
           predicted_ == switched_;
}

void ModelCompareDialog::fillHeads()
{
    const int current = head_->currentIndex();
    head_->clear();
    const int heads = switched_ ? switched_->model->info().heads : 0;
    for (int h = 0; h < heads; ++h)
        head_->addItem(tr("Head %1").arg(h), h);
    head_->addItem(tr("Mean of the heads"), -1);
    head_->setCurrentIndex(current >= 0 && current < head_->count() ? current : 0);
}

void ModelCompareDialog::setSelection(int layer, const FileSelection& selection)
{
    filling_ = true;
    layer_->setValue(layer);
    const int wanted = selection.what == FileWhat::Mean ? -1 : selection.head;
    head_->setCurrentIndex(std::max(0, head_->findData(wanted)));
    filling_ = false;
    refresh();
}

int ModelCompareDialog::layer() const
{
    return layer_->value();
}

FileSelection ModelCompareDialog::selection() const
{
    const int h = head_->currentData().toInt();
    return h >= 0 ? FileSelection{FileWhat::Head, h} : FileSelection{FileWhat::Mean, 0};
}

void ModelCompareDialog::refresh()
{
    retranslate();
    if (!ready())
        return;
    comparison_ = compareRuns(*textbook_, *switched_, layer(), selection());
    const HeatmapStyle weights = weightStyle(comparison_, ColormapName::Viridis);
    viewA_->setData(comparison_.a);
    viewB_->setData(comparison_.b);
    viewDifference_->setData(comparison_.difference);
    viewA_->setHeatmapStyle(weights);
    viewB_->setHeatmapStyle(weights);
    viewDifference_->setHeatmapStyle(differenceStyle(comparison_));
    difference_->setText(differenceCaption(comparison_));
    hover_->clear();
    fillPredictions();
    emit compared();
}

void ModelCompareDialog::fillPredictions()
{
    const PredictionComparison& predictions = *predictions_;
    const QColor alert = alertColor(palette());
    const auto fill = [&](QTreeWidget* list, const std::vector<RankedPrediction>& side, char name) {
        list->clear();
        for (std::size_t i = 0; i < side.size(); ++i) {
            const RankedPrediction& c = side[i];
            const int rank = int(i) + 1;
            auto* item = new QTreeWidgetItem(
                list, {QString::number(rank), quotedToken(c.prediction.label),
                       percentText(c.prediction.probability), otherRankText(c, rank, name)});
            item->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
            if (c.otherRank != rank)
                item->setForeground(3, alert);
        }
    };
    fill(predictionsA_, predictions.a, 'A');
    fill(predictionsB_, predictions.b, 'B');
    // Each list as tall as its rows, no taller: the heatmaps take the rest.
    for (QTreeWidget* list : {predictionsA_, predictionsB_})
        list->setFixedHeight(list->header()->sizeHint().height() +
                             list->topLevelItemCount() * std::max(1, list->sizeHintForRow(0)) +
                             2 * list->frameWidth() + 2);
    const QStringList departures = modelDepartures(switched_->switches, switched_->model->info());
    summary_->setText(predictionSummary(predictions, departures));
    summary_->setStyleSheet(predictions.topChanged()
                                ? QStringLiteral("color: %1; font-weight: bold").arg(alert.name())
                                : QString());
}

QString ModelCompareDialog::summaryText() const
{
    return summary_->text();
}

QString ModelCompareDialog::cellText(int row, int column) const
{
    return ready() ? comparisonHoverText(comparison_, row, column) : QString();
}

QString ModelCompareDialog::exportTo(const QString& path) const
{
    const std::optional<FigureFormat> format = formatFromPath(path);
    if (!format || !isFigureFormat(*format))
        return tr("Cannot tell the format of %1: name it .png, .svg or .pdf.")
            .arg(QFileInfo(path).fileName());
    if (!ready())
        return tr("The textbook model is still being computed; export it in a moment.");
    ModelComparisonOptions options;
    options.layer = layer();
    options.selection = selection();
    options.departures = modelDepartures(switched_->switches, switched_->model->info());
    options.figure.annotate = int(switched_->ids.size()) <= kAnnotatedTokens;
    options.ranked = predictions_;
    QString error;
    const std::optional<QByteArray> bytes =
        modelComparisonBytes(*format, *textbook_, *switched_, options, &error);
    return bytes ? writeFigureFile(path, *bytes) : error;
}

void ModelCompareDialog::chooseFileAndExport()
{
    const FileSelection s = selection();
    const QString name =
        QStringLiteral("%1-compare-layer%2-%3")
            .arg(switched_ ? QString::fromStdString(switched_->model->info().name).section(u'/', -1)
                           : QStringLiteral("model"))
            .arg(layer())
            .arg(s.what == FileWhat::Mean ? QStringLiteral("mean")
                                          : QStringLiteral("head%1").arg(s.head));
    chooseAndExport(this, tr("Export the Comparison"), name, kFigureFormats,
                    [this](const QString& path) { return exportTo(path); });
}

void ModelCompareDialog::retranslate()
{
    setWindowTitle(tr("Compare A/B: the textbook model and the switched one"));
    layerLabel_->setText(tr("&Layer"));
    headLabel_->setText(tr("&Head"));
    const bool textbookReady = textbook_ && switched_ && textbook_->ids == switched_->ids;
    const int only = switched_ ? switched_->switches.onlyLayer : -1;
    status_->setText(computing_ ? (textbookReady ? tr("Comparing the predictions…")
                                                 : tr("Computing the textbook model…"))
                     : only > layer()
                         ? tr("The switches act in layer %1 only: layer %2 comes before it, so A "
                              "and B are the same here (B − A = 0).")
                               .arg(only)
                               .arg(layer())
                         : QString());
    // What both lists are of: next tokens, or a masked language model's fill-ins for the
    // [MASK] the comparison answers.
    QString place = tr("next tokens");
    if (predictions_ && predicted_ == switched_ && switched_)
        place = predictionsPlace(*predictions_, *switched_);
    else if (switched_ && !switched_->model->info().causal)
        place = tr("fill-ins for [MASK]");
    titleA_->setText(tr("<b>A: the textbook formula</b> — %1").arg(place.toHtmlEscaped()));
    const QStringList departures =
        switched_ ? modelDepartures(switched_->switches, switched_->model->info()) : QStringList();
    titleB_->setText(tr("<b>B: switched</b> (%1) — %2")
                         .arg(departures.isEmpty() ? tr("no departure")
                                                   : departures
                                                         .join(QCoreApplication::translate(
                                                             "attn::ui::LanguageModelWindow", "; ",
                                                             "separator between departures"))
                                                         .toHtmlEscaped(),
                              place.toHtmlEscaped()));
    predictionsA_->setHeaderLabels({tr("#", "rank"), tr("Token"), tr("Probability"), tr("In B")});
    predictionsB_->setHeaderLabels({tr("#", "rank"), tr("Token"), tr("Probability"), tr("In A")});
    exportButton_->setText(tr("&Export…"));
    exportButton_->setToolTip(tr("Save A, B, B − A and both predictions as PNG, SVG or PDF"));
    closeButton_->setText(tr("Close"));
}

void ModelCompareDialog::changeEvent(QEvent* event)
{
    QDialog::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        filling_ = true;
        fillHeads();
        filling_ = false;
        refresh(); // the titles and sentences come translated from modelcomparison
    }
}

} // namespace attn::ui
