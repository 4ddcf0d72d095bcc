// The monkey's test class: its checks and the random run are in tst_monkey.cpp, its
// actions in monkeyactions.cpp.
#pragma once

#include "language.h"
#include "mainwindow.h"
#include "textmaker.h"

#include <QObject>
#include <QSettings>
#include <QStringList>
#include <QTemporaryDir>

#include <deque>
#include <map>
#include <memory>
#include <random>

class QPlainTextEdit;
class QWidget;

namespace attn::test {

template <typename W> W* child(QWidget* root, const QString& name)
{
    W* widget = root->findChild<W*>(name);
    if (!widget)
        qFatal("no child widget %s", qPrintable(name));
    return widget;
}

} // namespace attn::test

class TestMonkey : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void emptyTextSupersedesARunningCompute();
    void aRefusalOutlivesALanguageSwitch();
    void theMeanTileOfNewerHeatmapsOpens();
    void aZoomedHeatmapPaintsOnlyWhatShows();
    void randomActions();

private:
    struct ActionKind {
        const char* name;
        int weight;
        void (TestMonkey::*run)();
    };

    [[nodiscard]] attn::ui::MainWindow* open();
    int below(int n) { return text_->below(n); }
    bool chance(int percent) { return text_->chance(percent); }
    void note(const QString& what);
    [[nodiscard]] QString history() const;
    [[nodiscard]] bool settle(QString* problem);
    [[nodiscard]] QString invariantProblems();
    void submitNow();

    // The actions.
    void typeText();
    void pressKeys();
    void submitUnlessOverBudget(QPlainTextEdit* edit, const QString& before);
    void chooseTokenizer();
    void chooseDModel();
    void chooseHeads();
    void typeSeed();
    void flipSwitch();
    void crossAttention();
    void editEmbedding();
    void moveTemperature();
    void switchLanguage();
    void changeView();
    void exportFile();
    void saveSession();
    void openSession();
    void openDamagedSession();
    void poke();

    void makeRoomForLongText();
    [[nodiscard]] bool tryModel(int dModel, int heads);
    void expectFilesIntact(const QString& where);

    std::unique_ptr<QTemporaryDir> dir_;
    std::unique_ptr<QSettings> settings_;
    std::unique_ptr<attn::ui::Language> language_;
    std::unique_ptr<attn::ui::MainWindow> window_;

    std::mt19937 rng_;
    std::unique_ptr<attn::test::TextMaker> text_;
    std::deque<QString> history_;
    int action_ = 0;
    int skipped_ = 0;
    QStringList problems_; // found inside actions, reported after them
    QStringList savedSessions_;
    std::map<QString, QByteArray> files_; // every file an action left, with its bytes
    const void* checkedWeights_ = nullptr;
    QStringList modals_; // modal dialogs that appeared (and were closed)
};
