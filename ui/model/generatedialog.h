// Let It Write… in a language model's window: the model writes on from the window's text,
// token by token (core/models/generation), greedily or sampled (the sampling's temperature,
// top-k, top-p and seed, labelled apart from the formula's τ). Side by side, the model as
// trained and the model with the window's switches and knock-outs write from the same
// prompt, so that one sees what a switch does to what the model says ("without √d_k GPT-2
// repeats itself"). Each column's text is a flow of token chips tinted by the attention row
// that chose the newest token (one layer's mean over its heads), so the row is seen as it
// is made; Show in Model View puts a column's whole text in the window. Both columns are
// written on one worker thread, a token of each in turn; Stop ends them.
#pragma once

#include "latestworker.h"
#include "models/generation.h"

#include <QDialog>

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace attn::ui {

class LanguageModelWindow;
class TokenFlow;

class GenerateDialog : public QDialog {
    Q_OBJECT

public:
    explicit GenerateDialog(LanguageModelWindow* window);
    ~GenerateDialog() override;

    // Writes from the window's text with the settings shown (a writing one is stopped).
    void write();
    // Stops the writing.
    void stop();
    // Puts column `column`'s whole text (prompt and new tokens) in the window, and raises
    // it. A writing that ends puts its own there (the switched column's when both wrote).
    void showInModelView(int column);
    // The window's switches or knock-outs changed: whether the second column is offered.
    void follow();

    // Column 0: the model as trained; 1: with the window's switches (when they depart).
    [[nodiscard]] bool writing() const { return writing_; }
    [[nodiscard]] const std::vector<GenerationStep>& steps(int column) const;
    [[nodiscard]] QString writtenText(int column) const; // the new tokens' text
    [[nodiscard]] QString statusText(int column) const;
    [[nodiscard]] TokenFlow* flow(int column) const;
    [[nodiscard]] bool sideBySide() const; // the second column is written too
    [[nodiscard]] QString problem() const; // why the last write was refused ("" when none)

    [[nodiscard]] QSpinBox* tokensSpin() const { return tokens_; }
    [[nodiscard]] QComboBox* modeCombo() const { return mode_; } // greedy, sampled
    [[nodiscard]] QDoubleSpinBox* temperatureSpin() const { return temperature_; }
    [[nodiscard]] QSpinBox* topKSpin() const { return topK_; }
    [[nodiscard]] QDoubleSpinBox* topPSpin() const { return topP_; }
    [[nodiscard]] QSpinBox* seedSpin() const { return seed_; }
    [[nodiscard]] QComboBox* layerCombo() const { return layer_; }
    [[nodiscard]] QPushButton* writeButton() const { return write_; }
    [[nodiscard]] QPushButton* stopButton() const { return stop_; }
    [[nodiscard]] QPushButton* showButton(int column) const;
    [[nodiscard]] Sampling sampling() const;

signals:
    // A writing ended (its length, an end token, the context, Stop or a refusal).
    void finished();

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Job {
        std::shared_ptr<const LanguageModel> model;
        std::string text; // the prompt; empty with `stop`
        std::array<ModelSwitches, 2> switches;
        bool both = false;
        Sampling sampling;
        int tokens = 0;
        std::uint64_t number = 0;
        bool stop = false;
    };
    struct Column;
    std::function<void()> work(Job& job, const std::atomic<bool>& cancel);
    // From the worker, on the GUI thread.
    void begin(std::uint64_t number, const std::vector<TokenLabel>& prompt, bool both,
               std::array<bool, 2> cached);
    void add(std::uint64_t number, int column, const GenerationStep& step);
    void end(std::uint64_t number, std::array<GenerationEnd, 2> ends, const QString& problem);
    void showRow(int column);
    // The window's text becomes the column's (false: it wrote nothing).
    bool putInWindow(int column);
    void updateSampling();
    void retranslateUi();

    LanguageModelWindow* window_;
    QLabel* intro_;
    QLabel* tokensLabel_;
    QSpinBox* tokens_;
    QLabel* modeLabel_;
    QComboBox* mode_;
    QLabel* temperatureLabel_;
    QDoubleSpinBox* temperature_;
    QLabel* topKLabel_;
    QSpinBox* topK_;
    QLabel* topPLabel_;
    QDoubleSpinBox* topP_;
    QLabel* seedLabel_;
    QSpinBox* seed_;
    QCheckBox* both_;
    QLabel* layerLabel_;
    QComboBox* layer_;
    QPushButton* write_;
    QPushButton* stop_;
    QLabel* problem_;
    std::array<std::unique_ptr<Column>, 2> columns_;
    QString promptText_; // the window's text the columns write on from
    bool writing_ = false;
    bool bothWritten_ = false;
    std::uint64_t newest_ = 0;
    // Last: destroyed first, it cancels the running job and joins its thread.
    LatestWorker<Job> worker_;
};

} // namespace attn::ui
