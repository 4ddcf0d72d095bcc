// The lesson of the current preset, in the tutorial's "how to read the output" manner:
// what the preset sets up, then a few points to look at, with the numbers to expect.
// Also the Presets menu that chooses one.
#pragma once

#include "engine/engine.h"

#include <QStringList>
#include <QWidget>

#include <functional>

class QLabel;
class QMenu;
class QTextBrowser;

namespace attn::ui {

// A side panel (the main window puts it in a dock). Object names: presetTitle,
// presetExplanation, presetLeft (the note that the window no longer shows the preset).
class PresetPanel : public QWidget {
    Q_OBJECT

public:
    explicit PresetPanel(QWidget* parent = nullptr);

    // Explains the preset called `name` (as attn::presets() spells it); an unknown name
    // clears the panel.
    void showPreset(const QString& name);
    // Shows a short hint to choose a preset instead of a lesson.
    void clear();
    // The window's request now: once it is no longer the preset's, the panel says so, dims
    // the lesson (its numbers no longer describe the heatmaps) and offers to load the
    // preset again; back at the preset's request, the lesson is current again.
    void setCurrentRequest(const Request& request);
    // The window has left the preset explained.
    [[nodiscard]] bool hasLeft() const { return left_; }

    // The preset explained now; empty when the panel shows the hint.
    [[nodiscard]] QString presetName() const { return name_; }
    // The title and the explanation (rich text) shown now, in the interface language.
    [[nodiscard]] QString title() const;
    [[nodiscard]] QString explanation() const { return html_; }

    // Every preset's name, in menu order (the core's order).
    [[nodiscard]] static QStringList presetNames();
    // The translated menu text of a preset, e.g. "The tutorial's program (article)".
    [[nodiscard]] static QString displayName(const QString& name);
    // One translated line: what the preset shows (the menu's status tip).
    [[nodiscard]] static QString summary(const QString& name);
    // The translated explanation of a preset as rich text; empty for an unknown name.
    [[nodiscard]] static QString explanationHtml(const QString& name);

signals:
    // "Load it again" was clicked: the window should apply the preset `name`.
    void reloadRequested(const QString& name);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void showLeft();

    QString name_;
    QString html_;
    bool left_ = false;
    QLabel* titleLabel_;
    QLabel* leftLabel_;
    QTextBrowser* browser_;
};

// A "Presets" menu with one action per preset, in menu order; choosing one calls
// `onChosen` with its name. The menu belongs to `parent` and retranslates itself.
// Action object names: preset-<name>; each action's data is the name.
[[nodiscard]] QMenu* createPresetMenu(QWidget* parent,
                                      std::function<void(const QString&)> onChosen);

} // namespace attn::ui
