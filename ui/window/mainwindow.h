// The main window: controls on the left, the formula and the heatmaps in the middle,
// the statistics and warnings below.
#pragma once

#include "engine.h"
#include "settings.h"

#include <QMainWindow>

#include <optional>

#include <map>

class QActionGroup;
class QComboBox;
class QLabel;
class QMenu;
class QToolBar;

namespace attn::ui {

class ComputeController;
class ControlPanel;
class FormulaBar;
class HeadDialog;
class HeatmapGrid;
class HelpDialog;
class Language;
class PresetPanel;
class SessionFiles;
class SweepDialog;
class CompareDialog;
class EmbeddingEditor;
class PipelineDialog;
class StatisticsPanel;

// Every action of the window; the table in mainwindow.cpp gives each its text,
// status tip and shortcut.
enum class ActionId {
    OpenSession,
    OpenAttention,
    SaveSession,
    SaveSessionAs,
    ExportFigure,
    ExportNumbers,
    Quit,
    CopyFigure,
    SharedScale,
    Annotate,
    MarginSums,
    LogScale,
    DkSweep,
    Compare,
    StepByStep,
    EmbeddingEditor,
    HowToRead,
    About,
    AboutQt,
};

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    // `settings` null: the application's QSettings.
    explicit MainWindow(Language* language, QSettings* settings = nullptr,
                        QWidget* parent = nullptr);
    ~MainWindow() override;

    [[nodiscard]] QAction* action(ActionId id) const { return actions_.at(id); }
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
    // After a crash, asks whether to restore the autosaved session (call once shown); the
    // question waits window-modal, without blocking, and nothing overwrites the autosave
    // before its answer.
    void offerRecovery();
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
    // computes the next result, so that the engine writes the new ones into their memory
    // instead of beside them (kLetGoBytes; tests lower it).
    void setLetGoBytes(double bytes) { letGoBytes_ = bytes; }
    static constexpr double kLetGoBytes = 128.0 * 1024 * 1024;

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void createActions();
    void createMenus();
    void createToolBar();
    void createDocks();
    void createStatusBar();
    void readSettings();
    void writeSettings();
    void retranslateUi();

    void submit();
    // Before a compute: lets go of the shown result's (B, H, T, T) tensors everywhere the
    // window holds them when they take letGoBytes_ or more (the views keep their
    // pictures until the new result comes).
    void letGoOfShownTensors();
    void showResult(const Result& result);
    void showFailure(const QString& message);
    void updateSequenceChoice();
    void openHead(int head);
    void about();
    void exportFigure();
    void exportNumbers();
    void copyFigure();

    Language* language_;
    AppSettings settings_;
    ComputeController* controller_;
    ControlPanel* controls_;
    FormulaBar* formula_;
    HeatmapGrid* grid_;
    StatisticsPanel* statistics_;
    HeadDialog* headDialog_ = nullptr;
    HelpDialog* helpDialog_ = nullptr;
    SessionFiles* sessions_ = nullptr;
    PresetPanel* presets_ = nullptr;
    SweepDialog* sweepDialog_ = nullptr;
    CompareDialog* compareDialog_ = nullptr;
    PipelineDialog* pipelineDialog_ = nullptr;
    EmbeddingEditor* embeddingEditor_ = nullptr;
    QMenu* labMenu_ = nullptr;
    QDockWidget* presetsDock_ = nullptr;
    QMenu* presetMenu_ = nullptr;
    QMenu* recentMenu_ = nullptr;

    std::map<ActionId, QAction*> actions_;
    QActionGroup* colormapGroup_ = nullptr;
    QActionGroup* languageGroup_ = nullptr;
    QMenu* fileMenu_ = nullptr;
    QMenu* editMenu_ = nullptr;
    QMenu* viewMenu_ = nullptr;
    QMenu* colormapMenu_ = nullptr;
    QMenu* languageMenu_ = nullptr;
    QMenu* helpMenu_ = nullptr;
    QToolBar* viewToolBar_ = nullptr;
    QComboBox* sequenceCombo_ = nullptr;
    QLabel* sequenceLabel_ = nullptr;
    QComboBox* colormapCombo_ = nullptr;
    QLabel* shapeLabel_ = nullptr;
    QLabel* busyLabel_ = nullptr;
    QDockWidget* controlsDock_ = nullptr;
    QDockWidget* statisticsDock_ = nullptr;

    Result result_;
    std::optional<InputError> refusal_; // of the newest request, until a result comes
    double letGoBytes_ = kLetGoBytes;
    // The request of the result the window let go of, until a result comes: a refusal of
    // a newer request asks the engine for that result again (it still has it).
    std::optional<Request> letGoOf_;
    bool restoring_ = false;             // the result coming is that one, after a refusal
    std::optional<int> pendingHead_;     // clicked while the grid had let go; opens with the result
    std::optional<int> sessionSequence_; // of a session opened, until its result comes
    ViewOptions view_;
    int openHead_ = 0;
};

} // namespace attn::ui
