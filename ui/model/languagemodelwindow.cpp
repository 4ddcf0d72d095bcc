#include "languagemodelwindow.h"

#include "controlpanel.h"
#include "engine/engine.h"
#include "formulabar.h"
#include "generatebutton.h"
#include "headimportancedialog.h"
#include "headrolesdialog.h"
#include "knockoutbar.h"
#include "labels.h"
#include "logitlensdialog.h"
#include "modelcomparebutton.h"
#include "modelcomparison.h"
#include "models/runwords.h"
#include "modelwindow.h"
#include "predictionpanel.h"
#include "predictionworker.h"
#include "reportnewest.h"
#include "rolloutdialog.h"
#include "shownpath.h"
#include "switchesform.h"
#include "todaysform.h"
#include "tokenchips.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

#include <new>

namespace attn::ui {
namespace {

// The chips of a run: one sequence of its readable labels.
TokenBatch chipTokens(const std::vector<TokenLabel>& labels)
{
    TokenBatch batch;
    batch.tokens.emplace_back();
    for (const TokenLabel& label : labels)
        batch.tokens[0].push_back(label.label);
    batch.lengths.push_back(int(labels.size()));
    return batch;
}

} // namespace

LanguageModelWindow::LanguageModelWindow(std::shared_ptr<const LanguageModel> model, ModelRun run,
                                         const QString& text, QWidget* parent)
    : QWidget(parent, Qt::Window), model_(std::move(model)),
      run_(std::make_shared<const ModelRun>(std::move(run))), caption_(new QLabel),
      textLabel_(new QLabel), text_(new QLineEdit(text)), refusalLabel_(new QLabel),
      cutButton_(new QPushButton), chips_(new TokenChips),
      modelView_(new ModelWindow(run_->attention, this)), switches_(new SwitchesForm),
      todays_(new TodaysForm), rope_(new QCheckBox), scopeLabel_(new QLabel), scope_(new QComboBox),
      departures_(new QLabel), groupWords_(new QCheckBox), knockOut_(new KnockOutBar),
      predictions_(new PredictionPanel), predictionWorker_(new PredictionWorker(this)),
      worker_([this](RunJob& job, const std::atomic<bool>& cancel) { return compute(job, cancel); })
{
    setObjectName("languageModelWindow");
    setAttribute(Qt::WA_DeleteOnClose);
    text_->setObjectName("modelText");
    refusalLabel_->setObjectName("modelRefusal");
    cutButton_->setObjectName("cutText");
    scope_->setObjectName("switchScope");
    rope_->setObjectName("ropeCheck");
    departures_->setObjectName("departures");
    groupWords_->setObjectName("groupWords");
    caption_->setObjectName("modelCaption");
    caption_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    caption_->setWordWrap(true);
    departures_->setWordWrap(true);
    refusalLabel_->setWordWrap(true);
    refusalLabel_->setStyleSheet(QStringLiteral("color: %1").arg(alertColor(palette()).name()));
    refusalLabel_->hide();
    cutButton_->hide();
    textLabel_->setBuddy(text_);
    scopeLabel_->setBuddy(scope_);
    modelView_->setEmbedded();
    modelView_->setKvHeads(model_->info().kvHeads);

    // A model's own formula: its mask is causal (or not) by its kind; no <pad> in one text.
    switches_->setConfig(ModelSwitches::textbookFormula(model_->info()));
    todays_->showModelSwitchesOnly(); // the window, the cap and the sink; Mistral's own window
    todays_->setConfig(switches_->config());
    predictions_->setMaskedLanguageModel(!model_->info().causal);
    if (auto* padding = switches_->findChild<QCheckBox*>(QStringLiteral("paddingCheck")))
        padding->hide();
    // Rotary positions: a switch of the models that have them (Qwen/Llama), on as trained;
    // unticked and greyed for those that add learned positions (GPT-2, BERT), which it says.
    rope_->setChecked(model_->info().rotary);
    rope_->setEnabled(model_->info().rotary);
    scope_->addItem(QString(), -1);
    for (int l = 0; l < model_->info().layers; ++l)
        scope_->addItem(QString(), l);

    auto* textRow = new QHBoxLayout;
    textRow->addWidget(textLabel_);
    textRow->addWidget(text_, 1);
    textRow->addWidget(new GenerateButton(this));
    auto* refusalRow = new QHBoxLayout;
    refusalRow->addWidget(refusalLabel_, 1);
    refusalRow->addWidget(cutButton_);

    auto* scopeRow = new QHBoxLayout;
    scopeRow->addWidget(scopeLabel_);
    scopeRow->addWidget(scope_, 1);
    auto* side = new QWidget;
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(switches_);
    sideLayout->addWidget(todays_);
    sideLayout->addWidget(rope_);
    sideLayout->addLayout(scopeRow);
    sideLayout->addWidget(knockOut_);
    sideLayout->addWidget(departures_);
    sideLayout->addWidget(groupWords_);
    auto* experiments = new QHBoxLayout;
    experiments->addWidget(new ModelCompareButton(this));
    experiments->addWidget(new LogitLensButton(this));
    experiments->addWidget(new HeadImportanceButton(this));
    experiments->addStretch(1);
    sideLayout->addLayout(experiments);
    auto* roles = new QHBoxLayout; // a second row: the side panel is narrow
    roles->addWidget(new HeadRolesButton(this));
    roles->addWidget(new RolloutButton(this));
    roles->addStretch(1);
    sideLayout->addLayout(roles);
    sideLayout->addSpacing(8);
    sideLayout->addWidget(predictions_, 1);

    auto* splitter = new QSplitter;
    splitter->addWidget(modelView_);
    splitter->addWidget(side);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 0);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(caption_);
    layout->addLayout(textRow);
    layout->addLayout(refusalRow);
    layout->addWidget(chips_);
    layout->addWidget(splitter, 1);

    debounce_.setSingleShot(true);
    debounce_.setInterval(ControlPanel::kDebounceMs); // as the main window's sentence
    connect(&debounce_, &QTimer::timeout, this, &LanguageModelWindow::submit);
    connect(text_, &QLineEdit::textEdited, this, [this] {
        pending_ = true;
        debounce_.start();
    });
    connect(switches_, &SwitchesForm::switchesChanged, this, &LanguageModelWindow::submit);
    connect(todays_, &TodaysForm::switchesChanged, this, &LanguageModelWindow::submit);
    connect(scope_, &QComboBox::currentIndexChanged, this, &LanguageModelWindow::submit);
    connect(rope_, &QCheckBox::toggled, this, &LanguageModelWindow::submit);
    knockOut_->attach(modelView_->grid());
    connect(knockOut_, &KnockOutBar::changed, this, &LanguageModelWindow::submit);
    connect(cutButton_, &QPushButton::clicked, this, &LanguageModelWindow::cutText);
    connect(groupWords_, &QCheckBox::toggled, this, [this] {
        showAttention();
        // the panel's word (or token) named anew
        showPredictionsAt(predictions_->atLast() ? -1 : predictions_->position());
    });
    connect(modelView_, &ModelWindow::queryHovered, this,
            [this](int query) { showPredictionsAt(tokenOfQuery(query)); });
    connect(predictionWorker_, &PredictionWorker::ready, this,
            &LanguageModelWindow::showPredictions);
    connect(predictions_, &PredictionPanel::maskChosen, this, [this] { showPredictionsAt(-1); });

    chips_->setTokens(chipTokens(run_->labels));
    predictions_->setMasks(run_->maskedPositions());
    predictionWorker_->setRun(run_);
    showPredictionsAt(-1);
    updateDepartures();
    retranslateUi();
    resize(1440, 900);
    splitter->setSizes({1060, 380});
}

LanguageModelWindow::~LanguageModelWindow() = default;

const char* LanguageModelWindow::firstText(const ModelInfo& info)
{
    return info.causal ? kFirstText : kFirstMaskedText;
}

ModelSwitches LanguageModelWindow::firstSwitches(const ModelInfo& info)
{
    ModelSwitches switches;
    switches.formula = ModelSwitches::textbookFormula(info);
    return switches;
}

QString LanguageModelWindow::text() const
{
    return text_->text();
}

void LanguageModelWindow::setText(const QString& text)
{
    text_->setText(text);
    emit text_->textEdited(text);
}

ModelSwitches LanguageModelWindow::switches() const
{
    ModelSwitches switches;
    switches.formula = todays_->apply(switches_->config());
    switches.onlyLayer = scope_->currentData().toInt();
    // A model without rotary positions runs as it was trained: nothing to switch off.
    switches.rope = rope_->isChecked() || !model_->info().rotary;
    switches.knockedOut = knockOut_->heads();
    switches.knockOut = knockOut_->mode();
    return switches;
}

void LanguageModelWindow::setSwitches(const ModelSwitches& switches)
{
    switches_->setConfig(switches.formula);
    todays_->setConfig(switches.formula);
    const QSignalBlocker blocker(scope_);
    scope_->setCurrentIndex(std::max(0, scope_->findData(switches.onlyLayer)));
    const QSignalBlocker ropeBlocker(rope_);
    rope_->setChecked(switches.rope && model_->info().rotary);
    knockOut_->set(switches.knockedOut, switches.knockOut);
    submit();
}

QString LanguageModelWindow::captionText() const
{
    return caption_->text();
}

QString LanguageModelWindow::departuresText() const
{
    return departuresSentence_;
}

void LanguageModelWindow::submit()
{
    debounce_.stop();
    todays_->setAxis(switches_->config().axis); // a sink needs the softmax over the keys
    updateDepartures();
    pending_ = true;
    worker_.submit({model_, text_->text().toStdString(), switches(), ++newestJob_});
}

// On the worker thread. What it reports is posted to the window, where newestJob_ lives;
// the window's destructor joins this thread, so `this` is alive while a call is posted.
std::function<void()> LanguageModelWindow::compute(const RunJob& job,
                                                   const std::atomic<bool>& cancel)
{
    const std::uint64_t number = job.number;
    const auto post = [this, number](auto show) {
        return reportIfNewest(this, newestJob_, number, std::move(show));
    };
    try {
        auto run = std::make_shared<ModelRun>(job.model->run(job.text, job.switches, &cancel));
        // The last position's predictions here too (each [MASK]'s, for a masked language
        // model): the window shows them with the run.
        auto made = std::make_shared<std::map<int, std::vector<Prediction>>>();
        const ModelInfo& info = job.model->info();
        const std::vector<int> shown = !info.predicts ? std::vector<int>{}
                                       : info.causal  ? std::vector<int>{int(run->ids.size()) - 1}
                                                      : run->maskedPositions();
        for (const int position : shown)
            (*made)[position] = run->predictions(position, PredictionWorker::kTop);
        return post([this, run, made] { showRun(std::move(*run), std::move(*made)); });
    } catch (const Cancelled&) {
        return {}; // a newer request, or the window closed
    } catch (const InputError& error) {
        const QString message = refusalText(error);
        return post([this, message] { showRefusal(message); });
    } catch (const std::bad_alloc&) {
        return post([this] { showRefusal(tr("Not enough memory to run the model.")); });
    } catch (const std::exception& error) {
        const QString message = QString::fromStdString(error.what());
        return post([this, message] { showRefusal(message); });
    }
}

void LanguageModelWindow::showRun(ModelRun run, std::map<int, std::vector<Prediction>> made)
{
    pending_ = false;
    refusal_.clear();
    refusalLabel_->hide();
    cutButton_->hide();
    const int shown = predictions_->atLast() ? -1 : predictions_->position();
    run_ = std::make_shared<const ModelRun>(std::move(run));
    predictionWorker_->setRun(run_, std::move(made));
    showAttention();
    chips_->setTokens(chipTokens(run_->labels));
    predictions_->setMasks(run_->maskedPositions());
    const int hovered = modelView_->hoveredQuery();
    showPredictionsAt(hovered >= 0 ? tokenOfQuery(hovered) : shown);
    emit runShown();
}

void LanguageModelWindow::showAttention()
{
    words_.clear();
    if (!groupWords_->isChecked()) {
        modelView_->setStack(run_->attention);
        return;
    }
    words_ = runWords(*run_);
    modelView_->setStack(runWordAttention(*run_, words_));
}

int LanguageModelWindow::tokenOfQuery(int query) const
{
    if (words_.empty() || query < 0 || query >= int(words_.size()))
        return query;
    return words_[std::size_t(query)].tokens.back();
}

void LanguageModelWindow::showRefusal(const QString& message)
{
    pending_ = false;
    // "Too long": say by how much, and offer to cut the text to what the model reads.
    const int limit = model_->info().maxPositions;
    std::vector<int> ids;
    std::vector<TokenLabel> labels;
    try {
        model_->tokenize(text_->text().toStdString(), ids, labels);
    } catch (const InputError&) {
    }
    const bool tooLong = int(ids.size()) > limit;
    refusal_ =
        tooLong
            ? tr("The text has %1 tokens; the model reads at most %2.").arg(ids.size()).arg(limit)
            : message;
    refusalLabel_->setText(refusal_);
    refusalLabel_->show();
    cutButton_->setVisible(tooLong);
    emit runShown();
}

void LanguageModelWindow::cutText()
{
    // The longest beginning of the text the model reads whole, found by tokenizing
    // beginnings (a bisection over its characters): a token's label need not spell the
    // text's bytes (BERT lowercases, strips accents, writes "##"), and BERT's count
    // includes [CLS] and [SEP].
    const QString text = text_->text();
    const std::size_t limit = std::size_t(model_->info().maxPositions);
    std::vector<qsizetype> ends{0}; // where each character ends, surrogate pairs whole
    for (qsizetype i = 0; i < text.size(); ++i)
        if (!(text[i].isHighSurrogate() && i + 1 < text.size() && text[i + 1].isLowSurrogate()))
            ends.push_back(i + 1);
    const auto fits = [&](qsizetype length) {
        std::vector<int> ids;
        std::vector<TokenLabel> labels;
        try {
            model_->tokenize(text.left(length).toStdString(), ids, labels);
        } catch (const InputError&) {
            return false;
        }
        return ids.size() <= limit;
    };
    std::size_t lo = 0, hi = ends.size() - 1; // fits(ends[lo]); the answer is in lo … hi
    while (lo < hi) {
        const std::size_t mid = (lo + hi + 1) / 2;
        if (fits(ends[mid]))
            lo = mid;
        else
            hi = mid - 1;
    }
    text_->setText(text.left(ends[lo]));
    submit();
}

void LanguageModelWindow::showPredictionsAt(int position)
{
    if (!model_->info().predicts) { // no output head (a BERT GGUF file): attention only
        predictions_->setMessage(PredictionPanel::noHeadMessage());
        return;
    }
    const int tokens = int(run_->ids.size());
    if (!model_->info().causal && (position < 0 || position >= tokens)) {
        // A masked language model away from the rows: the chosen [MASK]'s fill-ins.
        if (predictions_->chosenMask() >= 0)
            predictionWorker_->request(predictions_->chosenMask());
        else
            predictions_->clearPredictions(); // the hint to type [MASK]
        return;
    }
    const int shown = position < 0 || position >= tokens - 1 ? tokens - 1 : position;
    if (shown >= 0)
        predictionWorker_->request(shown); // off the GUI thread: V × C products
}

void LanguageModelWindow::showPredictions(int position, const std::vector<Prediction>& predictions)
{
    // By word, the word that ends at the position names it (not its last byte piece's ⋯).
    std::string after = run_->labels[std::size_t(position)].label;
    for (const WordGroup& word : words_)
        if (word.tokens.back() == position)
            after = word.label;
    // "last": where the panel rests unpointed (the last position, or the chosen [MASK]).
    const int resting =
        model_->info().causal ? int(run_->ids.size()) - 1 : predictions_->chosenMask();
    predictions_->setPredictions(predictions, position, QString::fromStdString(after),
                                 position == resting);
}

void LanguageModelWindow::updateDepartures()
{
    // The command line's list (modelDepartures); the sentence here says where they act.
    ModelSwitches switched = switches();
    const int only = switched.onlyLayer;
    switched.onlyLayer = -1;
    const QStringList departures = modelDepartures(switched, model_->info());
    const QString where = only < 0 ? tr("in every layer") : tr("in layer %1 only").arg(only);
    // The sentence in plain text (departuresText); the label shows a departure in red.
    departuresSentence_ =
        departures.isEmpty()
            ? tr("The model's textbook formula, as it was trained.")
            : tr("Departs from the textbook %1: %2.")
                  .arg(where, departures.join(tr("; ", "separator between departures")));
    departures_->setText(departures.isEmpty() ? departuresSentence_.toHtmlEscaped()
                                              : QStringLiteral("<span style='color:%1'>%2</span>")
                                                    .arg(alertColor(palette()).name(),
                                                         departuresSentence_.toHtmlEscaped()));
}

void LanguageModelWindow::retranslateUi()
{
    const ModelInfo& info = model_->info();
    const QString name = QString::fromStdString(info.name);
    setWindowTitle(tr("%1 — Language Model").arg(name));
    // Grouped-query attention: "14 query heads, 2 K/V heads".
    const QString heads = info.kvHeads > 0 && info.kvHeads < info.heads
                              ? tr("%1 query heads, %2 K/V heads").arg(info.heads).arg(info.kvHeads)
                              : tr("%1 heads").arg(info.heads);
    caption_->setText(
        tr("<b>%1</b> · %2 · %3 layers × %4 · d_model %5 · %6 tokens at most · %7 weights · %8")
            .arg(name.toHtmlEscaped(), QString::fromStdString(info.family).toHtmlEscaped())
            .arg(info.layers)
            .arg(heads)
            .arg(info.dModel)
            .arg(info.maxPositions)
            .arg(QString::fromStdString(info.weightType),
                 shownPath(QString::fromStdString(info.folder.string())).toHtmlEscaped()));
    textLabel_->setText(tr("&Text:"));
    text_->setPlaceholderText(info.causal
                                  ? tr("Type a sentence; the model predicts what comes next")
                                  : tr("Type a sentence with [MASK]; the model fills it in"));
    cutButton_->setText(tr("Cut to %1 Tokens").arg(info.maxPositions));
    scopeLabel_->setText(tr("&Apply the switches to:"));
    scope_->setItemText(0, tr("Every layer"));
    for (int i = 1; i < scope_->count(); ++i)
        scope_->setItemText(i, tr("Only layer %1").arg(scope_->itemData(i).toInt()));
    scope_->setToolTip(tr("Break one layer alone: the others keep the textbook formula"));
    groupWords_->setText(tr("&Group into words"));
    groupWords_->setToolTip(
        tr("Show attention by word (ICU's words; Chinese by its dictionary): attention to a "
           "word is the sum over its tokens, attention from a word the mean over its tokens' "
           "rows, so each row still sums to 1 (Clark et al. 2019)"));
    rope_->setText(model_->info().rotary
                       ? tr("Rotary positions (&RoPE)")
                       : tr("No rotary positions (RoPE): this model adds learned positions"));
    rope_->setToolTip(
        model_->info().rotary
            ? tr("Rotate each query and key by its position, as the model was trained; off, "
                 "the layers' attention sees no position but the causal mask's")
            : tr("This model has no rotary positions: its positions are added to the "
                 "embeddings"));
    updateDepartures();
}

void LanguageModelWindow::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (!shownBefore_) // the model view's width is known now
        modelView_->fitGrid();
    shownBefore_ = true;
}

void LanguageModelWindow::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

} // namespace attn::ui
