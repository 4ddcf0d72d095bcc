// The window of one language model run natively (GPT-2 first): the sentence and its
// tokens, the model view of every layer and head (ModelWindow), the switches of the
// formula with the layers they apply to, and the prediction panel.
//
// Every change (the text after the typing debounce, a switch, the layers they apply to)
// runs the model again on a worker thread that runs only the newest job (LatestWorker):
// an older run still going is cancelled between layers, and its result, if it came,
// dropped. Until the new run arrives the window shows the last one; a text the model
// refuses (empty, too long) is said under the text and the last run stays. The predictions
// at the last position are made with the run; those at a query row the mouse points at on
// a worker of their own (PredictionWorker), so that pointing never waits for the logits.
// A masked language model (BERT) shows the fill-ins of each [MASK] instead (made with the
// run, a tab each), and at a query row pointed at that position's masked-LM distribution.
#pragma once

#include "latestworker.h"
#include "models/languagemodel.h"
#include "text/wordgroups.h"

#include <QTimer>
#include <QWidget>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace attn::ui {

class KnockOutBar;
class ModelWindow;
class PredictionPanel;
class PredictionWorker;
class SwitchesForm;
class TodaysForm;
class TokenChips;

class LanguageModelWindow : public QWidget {
    Q_OBJECT

public:
    // The text the window opens with: its last token is where "the mat" is predicted.
    static constexpr const char* kFirstText = "The cat sat on the";
    // A masked language model's (BERT's): the [MASK] it fills in ("France").
    static constexpr const char* kFirstMaskedText = "巴黎是[MASK]国的首都。";
    // The text a window of `info`'s model opens with, run under its textbook formula
    // (firstSwitches).
    [[nodiscard]] static const char* firstText(const ModelInfo& info);
    [[nodiscard]] static ModelSwitches firstSwitches(const ModelInfo& info);

    // Shows `run`, made by `model` from `text` (the opener's first run, on its worker).
    LanguageModelWindow(std::shared_ptr<const LanguageModel> model, ModelRun run,
                        const QString& text, QWidget* parent = nullptr);
    ~LanguageModelWindow() override;

    [[nodiscard]] const LanguageModel& model() const { return *model_; }
    // The run shown.
    [[nodiscard]] const ModelRun& shownRun() const { return *run_; }
    [[nodiscard]] QString text() const;
    // Types `text` as the user would: it runs after the debounce.
    void setText(const QString& text);
    [[nodiscard]] ModelSwitches switches() const;
    // Shows `switches` and runs the model under them at once.
    void setSwitches(const ModelSwitches& switches);

    [[nodiscard]] ModelWindow* modelView() const { return modelView_; }
    [[nodiscard]] PredictionPanel* predictionPanel() const { return predictions_; }
    // The predictions made off the GUI thread (each run's last position or [MASK]s among them).
    [[nodiscard]] PredictionWorker* predictionWorker() const { return predictionWorker_; }
    [[nodiscard]] SwitchesForm* switchesForm() const { return switches_; }
    [[nodiscard]] QComboBox* scopeCombo() const { return scope_; }
    // "Rotary positions (RoPE)": enabled for the models with rotary positions.
    [[nodiscard]] QCheckBox* ropeCheck() const { return rope_; }
    [[nodiscard]] TokenChips* tokenChips() const { return chips_; }
    // "Group into words": the model view shows attention by word (runwords.h), off at first.
    [[nodiscard]] QCheckBox* groupWordsCheck() const { return groupWords_; }
    // The heads knocked out and what their outputs become (the model view's menu and K).
    [[nodiscard]] KnockOutBar* knockOutBar() const { return knockOut_; }
    // The words the model view shows, in order; empty when it shows tokens.
    [[nodiscard]] const std::vector<WordGroup>& shownWords() const { return words_; }
    [[nodiscard]] QString captionText() const;
    // The line of departures from the model's textbook formula, in plain text.
    [[nodiscard]] QString departuresText() const;
    // Why the last request was refused (empty text, too long …); empty when it ran.
    [[nodiscard]] QString refusal() const { return refusal_; }

    // A run is waiting or running (tests).
    [[nodiscard]] bool running() const { return pending_; }

signals:
    // A new run is shown.
    void runShown();

protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct RunJob {
        std::shared_ptr<const LanguageModel> model;
        std::string text;
        ModelSwitches switches;
        std::uint64_t number = 0;
    };

    // On the worker thread.
    std::function<void()> compute(const RunJob& job, const std::atomic<bool>& cancel);
    void submit();
    // `made`: the predictions made with the run (its last position's, or each [MASK]'s).
    void showRun(ModelRun run, std::map<int, std::vector<Prediction>> made);
    void showRefusal(const QString& message);
    // Gives the model view the run's attention, by token or by word as the option says.
    void showAttention();
    // The token whose predictions a query row of the model view stands for: the row's own,
    // or by word the word's last token.
    [[nodiscard]] int tokenOfQuery(int query) const;
    // Asks for the predictions after `position`; −1 or a position past the text: the last
    // (a masked language model: the chosen [MASK]'s, or the hint when there is none).
    void showPredictionsAt(int position);
    // Shows them when they come (from the prediction worker).
    void showPredictions(int position, const std::vector<Prediction>& predictions);
    void cutText();
    void updateDepartures();
    void retranslateUi();

    std::shared_ptr<const LanguageModel> model_;
    std::shared_ptr<const ModelRun> run_;
    QLabel* caption_;
    QLabel* textLabel_;
    QLineEdit* text_;
    QLabel* refusalLabel_;
    QPushButton* cutButton_;
    TokenChips* chips_;
    ModelWindow* modelView_;
    SwitchesForm* switches_;
    TodaysForm* todays_; // the window, the cap and the sink inside every layer
    QCheckBox* rope_;
    QLabel* scopeLabel_;
    QComboBox* scope_;
    QLabel* departures_;
    QString departuresSentence_; // departures_'s sentence, without its colour
    QCheckBox* groupWords_;
    KnockOutBar* knockOut_;
    std::vector<WordGroup> words_; // the words shown, when grouped
    PredictionPanel* predictions_;
    PredictionWorker* predictionWorker_; // the hovered rows' predictions, off the GUI thread
    QTimer debounce_;
    QString refusal_;
    bool pending_ = false;
    bool shownBefore_ = false;
    std::uint64_t newestJob_ = 0; // GUI thread only
    // Last: destroyed first, it cancels the running job and joins its thread.
    LatestWorker<RunJob> worker_;
};

} // namespace attn::ui
