#include "windowactions.h"

#include "colormap.h"
#include "language.h"

#include <QAction>
#include <QActionGroup>
#include <QCoreApplication>
#include <QKeySequence>
#include <QSignalBlocker>

namespace attn::ui {
namespace {

// The one action table: text, status tip and shortcut of every action.
struct ActionSpec {
    ActionId id;
    const char* text;
    const char* statusTip;
    QKeySequence::StandardKey standardKey;
    const char* shortcut; // used when there is no standard key
    bool checkable;
};

constexpr ActionSpec kActions[] = {
    {ActionId::OpenSession, QT_TRANSLATE_NOOP("MainWindow", "&Open Session…"),
     QT_TRANSLATE_NOOP("MainWindow",
                       "Open a saved .attnscope session: its text, switches and view"),
     QKeySequence::Open, "Ctrl+O", false},
    {ActionId::OpenAttention, QT_TRANSLATE_NOOP("MainWindow", "Open &Attention…"),
     QT_TRANSLATE_NOOP("MainWindow", "Open the attention weights of a real model from a .npz, "
                                     ".npy or .safetensors file, in a model view of its own"),
     QKeySequence::UnknownKey, "Ctrl+Shift+O", false},
    {ActionId::OpenModel, QT_TRANSLATE_NOOP("MainWindow", "Open &Model…"),
     QT_TRANSLATE_NOOP("MainWindow", "Run a language model (GPT-2, Qwen, Llama, Mistral, BERT) "
                                     "from its Hugging Face folder, with every switch of the "
                                     "formula inside its layers"),
     QKeySequence::UnknownKey, "Ctrl+M", false},
    {ActionId::SaveSession, QT_TRANSLATE_NOOP("MainWindow", "&Save Session"),
     QT_TRANSLATE_NOOP("MainWindow", "Save the text, every switch and the view to a session file"),
     QKeySequence::Save, "Ctrl+S", false},
    {ActionId::SaveSessionAs, QT_TRANSLATE_NOOP("MainWindow", "Save Session &As…"),
     QT_TRANSLATE_NOOP("MainWindow", "Save the session under a new name"), QKeySequence::SaveAs,
     "Ctrl+Shift+S", false},
    {ActionId::ExportFigure, QT_TRANSLATE_NOOP("MainWindow", "Export &Figure…"),
     QT_TRANSLATE_NOOP("MainWindow",
                       "Save the heatmaps as a PNG, SVG or PDF figure for slides and handouts"),
     QKeySequence::UnknownKey, "Ctrl+Shift+E", false},
    {ActionId::ExportNumbers, QT_TRANSLATE_NOOP("MainWindow", "Export &Numbers…"),
     QT_TRANSLATE_NOOP("MainWindow",
                       "Save every weight as CSV for a spreadsheet, NPY for NumPy, or JSON"),
     QKeySequence::UnknownKey, "", false},
    {ActionId::CopyFigure, QT_TRANSLATE_NOOP("MainWindow", "&Copy Figure"),
     QT_TRANSLATE_NOOP("MainWindow", "Copy the heatmaps of all heads as an image, to paste "
                                     "into slides"),
     QKeySequence::Copy, "Ctrl+C", false},
    {ActionId::Quit, QT_TRANSLATE_NOOP("MainWindow", "&Quit"),
     QT_TRANSLATE_NOOP("MainWindow", "Close AttnScope; the configuration is kept for next time"),
     QKeySequence::Quit, "Ctrl+Q", false},
    {ActionId::SharedScale, QT_TRANSLATE_NOOP("MainWindow", "&One Colour Scale for All Heads"),
     QT_TRANSLATE_NOOP("MainWindow",
                       "On: every head uses the same colour range, so heads compare directly. "
                       "Off: each head uses its own range"),
     QKeySequence::UnknownKey, "Ctrl+K", true},
    {ActionId::Annotate, QT_TRANSLATE_NOOP("MainWindow", "Show &Values in Cells"),
     QT_TRANSLATE_NOOP("MainWindow", "Print each weight inside its cell when the cell is large "
                                     "enough"),
     QKeySequence::UnknownKey, "Ctrl+E", true},
    {ActionId::MarginSums, QT_TRANSLATE_NOOP("MainWindow", "Row and Column &Sums"),
     QT_TRANSLATE_NOOP("MainWindow",
                       "Show each row's and each column's sum beside the heatmap, in red where it "
                       "is not 1: with the softmax over the keys every row sums to 1"),
     QKeySequence::UnknownKey, "Ctrl+Shift+M", true},
    {ActionId::LogScale, QT_TRANSLATE_NOOP("MainWindow", "Lo&garithmic Colour Scale"),
     QT_TRANSLATE_NOOP("MainWindow",
                       "Colour by the weights' logarithm, a few decades below the largest: in "
                       "long sentences and under a causal mask most weights are small, and a "
                       "linear scale shows them all in its darkest colour"),
     QKeySequence::UnknownKey, "Ctrl+Shift+L", true},
    {ActionId::DkSweep, QT_TRANSLATE_NOOP("MainWindow", "d_k &Sweep…"),
     QT_TRANSLATE_NOOP("MainWindow", "Exercise 1: the same sentence at d_k = 16 … 1024, with and "
                                     "without √d_k scaling"),
     QKeySequence::UnknownKey, "Ctrl+Shift+D", false},
    {ActionId::Compare, QT_TRANSLATE_NOOP("MainWindow", "&Compare…"),
     QT_TRANSLATE_NOOP("MainWindow", "The textbook formula and your switches side by side, with "
                                     "their difference B − A"),
     QKeySequence::UnknownKey, "Ctrl+Shift+C", false},
    {ActionId::StepByStep, QT_TRANSLATE_NOOP("MainWindow", "&Step by Step…"),
     QT_TRANSLATE_NOOP("MainWindow", "The whole pipeline of one head, matrix by matrix, and the "
                                     "arithmetic of any weight"),
     QKeySequence::UnknownKey, "Ctrl+Shift+P", false},
    {ActionId::EmbeddingEditor, QT_TRANSLATE_NOOP("MainWindow", "&Embedding Editor…"),
     QT_TRANSLATE_NOOP("MainWindow", "Exercise 3: type a token's vector, copy another token's, "
                                     "or copy it with a little noise"),
     QKeySequence::UnknownKey, "Ctrl+Shift+V", false},
    {ActionId::HowToRead, QT_TRANSLATE_NOOP("MainWindow", "&How to Read These Heatmaps"),
     QT_TRANSLATE_NOOP("MainWindow", "What rows, columns, colours and warnings mean"),
     QKeySequence::HelpContents, "F1", false},
    {ActionId::About, QT_TRANSLATE_NOOP("MainWindow", "&About AttnScope"),
     QT_TRANSLATE_NOOP("MainWindow", "Version and purpose of AttnScope"), QKeySequence::UnknownKey,
     "", false},
    {ActionId::AboutQt, QT_TRANSLATE_NOOP("MainWindow", "About &Qt"),
     QT_TRANSLATE_NOOP("MainWindow", "The Qt version AttnScope runs on"), QKeySequence::UnknownKey,
     "", false},
};

// The texts keep the context "MainWindow", whose words they are.
QString trMain(const char* text)
{
    return QCoreApplication::translate("MainWindow", text);
}

} // namespace

WindowActions::WindowActions(QObject* parent)
    : colormaps_(new QActionGroup(parent)), languages_(new QActionGroup(parent))
{
    for (const ActionSpec& spec : kActions) {
        auto* action = new QAction(parent);
        action->setCheckable(spec.checkable);
        if (spec.standardKey != QKeySequence::UnknownKey &&
            !QKeySequence::keyBindings(spec.standardKey).isEmpty())
            action->setShortcuts(spec.standardKey);
        else if (*spec.shortcut)
            action->setShortcut(QKeySequence(QString::fromLatin1(spec.shortcut)));
        actions_[spec.id] = action;
    }
    for (ColormapName name : Colormap::names()) {
        auto* action = colormaps_->addAction(QString());
        action->setCheckable(true);
        action->setData(int(name));
    }
    for (const QString& code : Language::available()) {
        auto* action = languages_->addAction(Language::nativeName(code));
        action->setCheckable(true);
        action->setData(code);
    }
}

void WindowActions::showView(const ViewOptions& view)
{
    for (const ViewToggle& toggle : kViewToggles) {
        const QSignalBlocker blocker(action(toggle.id));
        action(toggle.id)->setChecked(view.*toggle.member);
    }
    for (QAction* a : colormaps_->actions())
        a->setChecked(ColormapName(a->data().toInt()) == view.colormap);
}

void WindowActions::retranslate(const QString& language)
{
    for (const ActionSpec& spec : kActions) {
        action(spec.id)->setText(trMain(spec.text));
        action(spec.id)->setStatusTip(trMain(spec.statusTip));
        action(spec.id)->setToolTip(trMain(spec.statusTip));
    }
    for (QAction* a : colormaps_->actions())
        a->setText(Colormap::displayName(ColormapName(a->data().toInt())));
    for (QAction* a : languages_->actions())
        a->setChecked(a->data().toString() == language);
}

} // namespace attn::ui
