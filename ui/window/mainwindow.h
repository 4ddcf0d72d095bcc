// The main window: controls on the left, the formula and the heatmaps in the middle,
// the statistics and warnings below.
#pragma once

#include "engine/engine.h"
#include "letgo.h"
#include "settings.h"
#include "windowactions.h"
#include "windowdocks.h"
#include "windowmenus.h"

#include <QMainWindow>

#include <functional>
#include <optional>

class QLabel;

namespace attn::ui {

class ComputeController;
class ControlPanel;
class FormulaBar;
class HeadDialog;
class HeatmapGrid;
class HelpDialog;
class ModelOpener;
class Language;
class PresetPanel;
class SessionFiles;
class SweepDialog;
class CompareDialog;
class EmbeddingEditor;
class PipelineDialog;
class StatisticsPanel;
struct Session;
class ViewToolBar;

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    // `settings` null: the application's QSettings.
    explicit MainWindow(Language* language, QSettings* settings = nullptr,
                        QWidget* parent = nullptr);
    ~MainWindow() override = default;

    [[nodiscard]] QAction* action(ActionId id) const { return actions_.action(id); }
    [[nodiscard]] ControlPanel* controlPanel() const { return controls_; }
    [[nodiscard]] HeatmapGrid* heatmapGrid() const { return grid_; }
    [[nodiscard]] StatisticsPanel* statisticsPanel() const { return statistics_; }
    [[nodiscard]] FormulaBar* formulaBar() const { return formula_; }
    [[nodiscard]] ComputeController* controller() const { return controller_; }
    [[nodiscard]] const Result& lastResult() const { return result_; }
    [[nodiscard]] const ViewOptions& viewOptions() const { return view_; }
    void setViewOptions(const ViewOptions& view);
    // Chooses the interface language ("en", "zh_CN") as the View menu does.
    void setLanguage(const QString& code);
    [[nodiscard]] SessionFiles* sessionFiles() const { return sessions_; }
    // Opens language models (File → Open Model…, dropped folders) on its worker.
    [[nodiscard]] ModelOpener* modelOpener() const { return modelOpener_; }
    // After a crash, asks whether to restore the autosaved session (call once shown); the
    // question waits window-modal, without blocking, and nothing overwrites the autosave
    // before its answer. `followUp`: a sentence the question adds (what opens after it).
    void offerRecovery(const QString& followUp = {});
    // Loads the preset called `name` (as --preset spells it) and explains it.
    void applyPreset(const QString& name);
    // Exercise 1: the d_k sweep of the current text.
    void showSweep();
    // Two configurations side by side with their difference.
    void showCompare();
    // The pipeline of one head, matrix by matrix.
    void showStepByStep();
    void showEmbeddingEditor();
    void updateEmbeddingEditor();
    [[nodiscard]] PresetPanel* presetPanel() const { return presets_; }
    // From how many bytes of S and P on screen the window lets go of them while it
    // computes the next result (kLetGoBytes, letgo.h; tests lower it).
    void setLetGoBytes(double bytes) { letGo_.setThreshold(bytes); }

protected:
    bool event(QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void connectActions();
    void readSettings();
    // What is not work (the view, the window's geometry, the language): written with every
    // autosave, so a crash loses none of it.
    void writeSettings();
    // The work (sentence and switches) too: only when it is left on purpose (saved, or the
    // window closed normally), so that declining a crash's autosave brings that back.
    void writeSettingsWithWork();
    void retranslateUi();

    // setViewOptions() with what `edit` changes of the current view.
    void changeView(const std::function<void(ViewOptions&)>& edit);
    void openSession(const Session& session);
    void submit();
    // Lets go of the shown result's (B, H, T, T) tensors everywhere the window holds them
    // (the views keep their pictures until the new result comes).
    void letGoOfShownTensors();
    void showResult(const Result& result);
    void showFailure(const QString& message);
    void openHead(int head);
    // A hovered cell's words in the status bar; empty: none.
    void showHover(const QString& text);

    Language* language_;
    AppSettings settings_;
    ComputeController* controller_;
    ControlPanel* controls_;
    FormulaBar* formula_;
    HeatmapGrid* grid_;
    StatisticsPanel* statistics_;
    PresetPanel* presets_;
    SessionFiles* sessions_;
    ModelOpener* modelOpener_;
    WindowActions actions_;
    WindowMenus menus_;
    ViewToolBar* toolBar_;
    WindowDocks docks_;
    HeadDialog* headDialog_ = nullptr;
    HelpDialog* helpDialog_ = nullptr;
    SweepDialog* sweepDialog_ = nullptr;
    CompareDialog* compareDialog_ = nullptr;
    PipelineDialog* pipelineDialog_ = nullptr;
    EmbeddingEditor* embeddingEditor_ = nullptr;
    QLabel* shapeLabel_;
    QLabel* busyLabel_;

    Result result_;
    std::optional<InputError> refusal_; // of the newest request, until a result comes
    LetGo letGo_;
    std::optional<int> pendingHead_;     // clicked while the grid had let go; opens with the result
    std::optional<int> sessionSequence_; // of a session opened, until its result comes
    ViewOptions view_;
    int openHead_ = 0;
};

} // namespace attn::ui
