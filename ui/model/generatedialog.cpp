#include "generatedialog.h"

#include "engine/engine.h" // Cancelled
#include "languagemodelwindow.h"
#include "modelcomparison.h" // quotedToken, percentText
#include "tokenflow.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

namespace attn::ui {

// One column: the model as trained (0) or with the window's switches (1).
struct GenerateDialog::Column {
    QGroupBox* box = nullptr;
    QLabel* formula = nullptr; // which formula it runs
    TokenFlow* flow = nullptr;
    QLabel* text = nullptr;
    QLabel* status = nullptr;
    QPushButton* show = nullptr;
    std::vector<int> generated;
    std::vector<GenerationStep> steps;
    GenerationEnd end = GenerationEnd::Running;
    bool cached = false;
};

GenerateDialog::GenerateDialog(LanguageModelWindow* window)
    : QDialog(window), window_(window), intro_(new QLabel), tokensLabel_(new QLabel),
      tokens_(new QSpinBox), modeLabel_(new QLabel), mode_(new QComboBox),
      temperatureLabel_(new QLabel), temperature_(new QDoubleSpinBox), topKLabel_(new QLabel),
      topK_(new QSpinBox), topPLabel_(new QLabel), topP_(new QDoubleSpinBox),
      seedLabel_(new QLabel), seed_(new QSpinBox), both_(new QCheckBox), layerLabel_(new QLabel),
      layer_(new QComboBox), write_(new QPushButton), stop_(new QPushButton), problem_(new QLabel),
      worker_([this](Job& job, const std::atomic<bool>& cancel) { return work(job, cancel); })
{
    setObjectName("generateDialog");
    intro_->setWordWrap(true);
    problem_->setWordWrap(true);
    tokens_->setRange(1, std::min(kMaxNewTokens, window_->model().info().maxPositions));
    tokens_->setValue(std::min(20, tokens_->maximum()));
    mode_->addItem(QString());
    mode_->addItem(QString());
    temperature_->setRange(0.05, 10);
    temperature_->setSingleStep(0.1);
    temperature_->setValue(1.0);
    topK_->setRange(0, window_->model().info().vocabulary);
    topK_->setValue(40);
    topP_->setRange(0.01, 1);
    topP_->setSingleStep(0.05);
    topP_->setValue(0.95);
    seed_->setRange(0, INT32_MAX);
    for (int l = 0; l < window_->model().info().layers; ++l)
        layer_->addItem(QString(), l);
    layer_->setCurrentIndex(layer_->count() - 1);
    stop_->setEnabled(false);

    auto* settings = new QGridLayout;
    settings->addWidget(tokensLabel_, 0, 0);
    settings->addWidget(tokens_, 0, 1);
    settings->addWidget(modeLabel_, 0, 2);
    settings->addWidget(mode_, 0, 3);
    settings->addWidget(layerLabel_, 0, 4);
    settings->addWidget(layer_, 0, 5);
    settings->addWidget(temperatureLabel_, 1, 0);
    settings->addWidget(temperature_, 1, 1);
    settings->addWidget(topKLabel_, 1, 2);
    settings->addWidget(topK_, 1, 3);
    settings->addWidget(topPLabel_, 1, 4);
    settings->addWidget(topP_, 1, 5);
    settings->addWidget(seedLabel_, 1, 6);
    settings->addWidget(seed_, 1, 7);
    settings->setColumnStretch(8, 1);
    for (auto [label, field] :
         std::initializer_list<std::pair<QLabel*, QWidget*>>{{tokensLabel_, tokens_},
                                                             {modeLabel_, mode_},
                                                             {layerLabel_, layer_},
                                                             {temperatureLabel_, temperature_},
                                                             {topKLabel_, topK_},
                                                             {topPLabel_, topP_},
                                                             {seedLabel_, seed_}})
        label->setBuddy(field);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(both_, 1);
    buttons->addWidget(write_);
    buttons->addWidget(stop_);

    auto* columns = new QHBoxLayout;
    for (int c = 0; c < 2; ++c) {
        auto column = std::make_unique<Column>();
        column->box = new QGroupBox;
        column->formula = new QLabel;
        column->formula->setWordWrap(true);
        column->flow = new TokenFlow;
        column->text = new QLabel;
        column->text->setWordWrap(true);
        column->text->setTextInteractionFlags(Qt::TextSelectableByMouse);
        column->status = new QLabel;
        column->status->setWordWrap(true);
        column->show = new QPushButton;
        column->show->setEnabled(false);
        auto* inner = new QWidget;
        auto* innerLayout = new QVBoxLayout(inner);
        innerLayout->addWidget(column->flow);
        innerLayout->addWidget(column->text);
        innerLayout->addStretch(1);
        auto* scroll = new QScrollArea;
        scroll->setWidgetResizable(true);
        scroll->setWidget(inner);
        auto* boxLayout = new QVBoxLayout(column->box);
        boxLayout->addWidget(column->formula);
        boxLayout->addWidget(scroll, 1);
        boxLayout->addWidget(column->status);
        boxLayout->addWidget(column->show, 0, Qt::AlignLeft);
        columns->addWidget(column->box, 1);
        connect(column->show, &QPushButton::clicked, this, [this, c] { showInModelView(c); });
        columns_[std::size_t(c)] = std::move(column);
    }

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro_);
    layout->addLayout(settings);
    layout->addLayout(buttons);
    layout->addWidget(problem_);
    layout->addLayout(columns, 1);

    connect(mode_, &QComboBox::currentIndexChanged, this, &GenerateDialog::updateSampling);
    connect(layer_, &QComboBox::currentIndexChanged, this, [this] {
        showRow(0);
        showRow(1);
    });
    connect(write_, &QPushButton::clicked, this, &GenerateDialog::write);
    connect(stop_, &QPushButton::clicked, this, &GenerateDialog::stop);
    both_->setEnabled(false);
    connect(both_, &QCheckBox::toggled, this,
            [this] { columns_[1]->box->setVisible(sideBySide() || bothWritten_); });
    retranslateUi();
    updateSampling();
    follow();
    resize(980, 560);
}

GenerateDialog::~GenerateDialog() = default;

Sampling GenerateDialog::sampling() const
{
    Sampling s;
    s.greedy = mode_->currentIndex() == 0;
    s.temperature = temperature_->value();
    s.topK = topK_->value();
    s.topP = topP_->value();
    s.seed = std::uint64_t(seed_->value());
    return s;
}

bool GenerateDialog::sideBySide() const
{
    return both_->isEnabled() && both_->isChecked();
}

void GenerateDialog::follow()
{
    const ModelSwitches switched = window_->switches();
    const bool departs = !(switched == LanguageModelWindow::firstSwitches(window_->model().info()));
    if (both_->isEnabled() != departs) // offered anew: on; the user's choice kept after
        both_->setChecked(departs);
    both_->setEnabled(departs);
    both_->setToolTip(departs ? QString()
                              : tr("Flip a switch or knock a head out in the window to write "
                                   "with it beside the model as trained."));
    columns_[1]->box->setVisible(departs || bothWritten_);
    if (!writing_ && !bothWritten_)
        columns_[1]->formula->setText(window_->departuresText());
}

void GenerateDialog::updateSampling()
{
    const bool sampled = mode_->currentIndex() == 1;
    for (QWidget* w :
         std::initializer_list<QWidget*>{temperature_, topK_, topP_, seed_, temperatureLabel_,
                                         topKLabel_, topPLabel_, seedLabel_})
        w->setEnabled(sampled);
}

void GenerateDialog::write()
{
    const QString text = window_->text();
    Job job;
    job.model = window_->shownRun().model; // read here: the window's run is the GUI thread's
    job.text = text.toStdString();
    job.switches = {LanguageModelWindow::firstSwitches(window_->model().info()),
                    window_->switches()};
    job.both = sideBySide();
    job.sampling = sampling();
    job.tokens = tokens_->value();
    job.number = ++newest_;
    writing_ = true;
    bothWritten_ = job.both;
    for (auto& column : columns_) {
        column->generated.clear();
        column->steps.clear();
        column->end = GenerationEnd::Running;
        column->flow->setTokens({}, 0);
        column->text->clear();
        column->status->setText(tr("Writing…"));
        column->show->setEnabled(false);
    }
    columns_[1]->formula->setText(window_->departuresText());
    columns_[1]->box->setVisible(job.both);
    problem_->clear();
    write_->setEnabled(false);
    stop_->setEnabled(true);
    promptText_ = text;
    worker_.submit(std::move(job));
}

void GenerateDialog::stop()
{
    if (!writing_)
        return;
    ++newest_;
    Job stopping;
    stopping.stop = true;
    stopping.number = newest_;
    worker_.submit(stopping); // raises the running job's cancel flag
    end(newest_, {GenerationEnd::Stopped, GenerationEnd::Stopped}, {});
}

void GenerateDialog::showInModelView(int column)
{
    if (putInWindow(column))
        window_->raise();
}

bool GenerateDialog::putInWindow(int column)
{
    const Column& c = *columns_[std::size_t(column)];
    if (c.generated.empty())
        return false;
    window_->setText(promptText_ +
                     QString::fromStdString(generatedText(window_->model(), c.generated)));
    return true;
}

const std::vector<GenerationStep>& GenerateDialog::steps(int column) const
{
    return columns_[std::size_t(column)]->steps;
}

QString GenerateDialog::writtenText(int column) const
{
    return QString::fromStdString(
        generatedText(window_->model(), columns_[std::size_t(column)]->generated));
}

QString GenerateDialog::statusText(int column) const
{
    return columns_[std::size_t(column)]->status->text();
}

TokenFlow* GenerateDialog::flow(int column) const
{
    return columns_[std::size_t(column)]->flow;
}

QPushButton* GenerateDialog::showButton(int column) const
{
    return columns_[std::size_t(column)]->show;
}

QString GenerateDialog::problem() const
{
    return problem_->text();
}

// On the worker thread: both columns' generators, a token of each in turn.
std::function<void()> GenerateDialog::work(Job& job, const std::atomic<bool>& cancel)
{
    if (job.stop)
        return {};
    const std::uint64_t number = job.number;
    const auto post = [this](auto&& call) {
        QMetaObject::invokeMethod(this, std::forward<decltype(call)>(call), Qt::QueuedConnection);
    };
    const std::shared_ptr<const LanguageModel>& model = job.model;
    try {
        std::vector<int> ids;
        std::vector<TokenLabel> labels;
        model->tokenize(job.text, ids, labels);
        std::array<std::unique_ptr<Generator>, 2> generators;
        for (int c = 0; c < (job.both ? 2 : 1); ++c)
            generators[std::size_t(c)] = std::make_unique<Generator>(
                model, ids, job.switches[std::size_t(c)], job.sampling, job.tokens);
        const std::array<bool, 2> cached{generators[0]->cached(),
                                         generators[1] && generators[1]->cached()};
        const bool both = job.both;
        post([this, number, labels, both, cached] { begin(number, labels, both, cached); });
        for (bool more = true; more;) {
            more = false;
            for (int c = 0; c < 2; ++c) {
                Generator* g = generators[std::size_t(c)].get();
                if (!g || g->end() != GenerationEnd::Running)
                    continue;
                if (std::optional<GenerationStep> step = g->next(&cancel)) {
                    post([this, number, c, s = std::move(*step)] { add(number, c, s); });
                    more = true;
                }
            }
        }
        const std::array<GenerationEnd, 2> ends{
            generators[0]->end(), generators[1] ? generators[1]->end() : GenerationEnd::Length};
        return
            [this, post, number, ends] { post([this, number, ends] { end(number, ends, {}); }); };
    } catch (const Cancelled&) {
        return {};
    } catch (const std::exception& error) {
        const QString message = QString::fromStdString(error.what());
        return [this, post, number, message] {
            post([this, number, message] {
                end(number, {GenerationEnd::Stopped, GenerationEnd::Stopped}, message);
            });
        };
    }
}

void GenerateDialog::begin(std::uint64_t number, const std::vector<TokenLabel>& prompt, bool both,
                           std::array<bool, 2> cached)
{
    if (number != newest_)
        return;
    std::vector<QString> labels;
    for (const TokenLabel& label : prompt)
        labels.push_back(QString::fromStdString(label.label));
    for (int c = 0; c < (both ? 2 : 1); ++c) {
        Column& column = *columns_[std::size_t(c)];
        column.flow->setTokens(labels, int(labels.size()));
        column.cached = cached[std::size_t(c)];
    }
}

void GenerateDialog::add(std::uint64_t number, int column, const GenerationStep& step)
{
    if (number != newest_)
        return;
    Column& c = *columns_[std::size_t(column)];
    c.steps.push_back(step);
    c.generated.push_back(step.chosen.id);
    c.flow->addToken(QString::fromStdString(step.chosen.label));
    c.text->setText(promptText_ +
                    QString::fromStdString(generatedText(window_->model(), c.generated)));
    c.status->setText(tr("Token %1: %2, probability %3 (the most probable: %4)")
                          .arg(c.steps.size())
                          .arg(quotedToken(step.chosen.label), percentText(step.chosen.probability),
                               step.top.empty() ? QString() : quotedToken(step.top.front().label)));
    showRow(column);
}

void GenerateDialog::end(std::uint64_t number, std::array<GenerationEnd, 2> ends,
                         const QString& problem)
{
    if (number != newest_ || !writing_)
        return;
    writing_ = false;
    write_->setEnabled(true);
    stop_->setEnabled(false);
    problem_->setText(problem);
    for (int c = 0; c < 2; ++c) {
        Column& column = *columns_[std::size_t(c)];
        column.end = ends[std::size_t(c)];
        column.show->setEnabled(!column.generated.empty());
        if (!problem.isEmpty()) {
            column.status->clear();
            continue;
        }
        QString why;
        switch (column.end) {
        case GenerationEnd::EndOfText:
            why = tr("it wrote the model's end-of-text token");
            break;
        case GenerationEnd::Context:
            why = tr("the text reached the model's context length");
            break;
        case GenerationEnd::Stopped:
            why = tr("stopped");
            break;
        case GenerationEnd::Running:
        case GenerationEnd::Length:
            why = tr("the tokens asked for are written");
            break;
        }
        column.status->setText(
            tr("New tokens: %1; %2. %3")
                .arg(column.generated.size())
                .arg(why, column.cached ? tr("Each token ran one row a layer (a KV cache).")
                                        : tr("No KV cache: under these switches earlier rows "
                                             "read later tokens, so each token ran the whole "
                                             "text again.")));
    }
    // The whole sequence in the model view: the column written with the window's switches.
    if (problem.isEmpty())
        putInWindow(bothWritten_ ? 1 : 0);
    emit finished();
}

void GenerateDialog::showRow(int column)
{
    const Column& c = *columns_[std::size_t(column)];
    if (c.steps.empty())
        return;
    const GenerationStep& step = c.steps.back();
    const ModelInfo& info = window_->model().info();
    const int layer = std::clamp(layer_->currentIndex(), 0, info.layers - 1);
    const int H = info.heads, T = step.position;
    std::vector<float> row(std::size_t(T), 0.0f);
    for (int h = 0; h < H; ++h)
        for (int j = 0; j < T; ++j)
            row[std::size_t(j)] +=
                step.attention[std::size_t(layer * H + h) * std::size_t(T) + std::size_t(j)] /
                float(H);
    c.flow->setWeights(std::move(row));
}

void GenerateDialog::retranslateUi()
{
    setWindowTitle(tr("Let It Write"));
    intro_->setText(
        tr("The model writes on from the window's text, one token at a time. Beside "
           "the model as trained, the model with your switches and knock-outs "
           "writes from the same text. The tint of each token is how much the "
           "newest token's row read it (in the layer chosen above, the mean of its heads)."));
    tokensLabel_->setText(tr("New &tokens:"));
    modeLabel_->setText(tr("&Choose:"));
    mode_->setItemText(0, tr("the most probable (greedy)"));
    mode_->setItemText(1, tr("by sampling"));
    temperatureLabel_->setText(tr("Sampling t&emperature:"));
    temperature_->setToolTip(tr("Divides the next-token logits before their softmax: below 1 "
                                "the likely tokens grow likelier, above 1 the text wanders. "
                                "Not the formula's τ (the switches' temperature), which divides "
                                "every layer's attention scores."));
    topKLabel_->setText(tr("Top-&k:"));
    topK_->setToolTip(tr("Draw from the k most probable tokens only (0: every token)."));
    topPLabel_->setText(tr("Top-&p:"));
    topP_->setToolTip(tr("Draw from the fewest most probable tokens whose probabilities reach p."));
    seedLabel_->setText(tr("See&d:"));
    seed_->setToolTip(tr("The same seed draws the same text again."));
    layerLabel_->setText(tr("Row of &layer:"));
    for (int l = 0; l < layer_->count(); ++l)
        layer_->setItemText(l, tr("layer %1").arg(l));
    both_->setText(tr("Side by side with the model as trained"));
    write_->setText(tr("&Write"));
    stop_->setText(tr("&Stop"));
    for (auto& column : columns_)
        column->show->setText(tr("Show in &Model View"));
    columns_[0]->box->setTitle(tr("As trained"));
    columns_[0]->formula->setText(tr("The textbook formula in every layer, every head in place."));
    columns_[1]->box->setTitle(tr("With your switches"));
    follow();
}

void GenerateDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDialog::changeEvent(event);
}

} // namespace attn::ui
