// Compare's two sides: the input they share, each side's switches and notes, and each
// side's engine (what it is asked, what it answers).
#include "comparedialog.h"

#include "computecontroller.h"
#include "formulabar.h"
#include "sentenceline.h"
#include "switchesform.h"

#include <QLabel>

#include <utility>

namespace attn::ui {
namespace {

constexpr int kSharedTextLimit = 60; // characters of the sentence in the shared line

} // namespace

void CompareDialog::setBase(const Request& current)
{
    base_ = current;
    forms_[0]->setConfig(textbookSwitches(current.config));
    forms_[1]->setConfig(current.config);
    showInputAndSubmit();
}

void CompareDialog::setSharedInput(const Request& current)
{
    base_ = current;
    for (SwitchesForm* form : forms_)
        form->setConfig(withSwitches(current.config, form->config()));
    showInputAndSubmit();
}

void CompareDialog::showInputAndSubmit()
{
    rebuildHeads();
    showSharedInput();
    showNotes();
    submit(Side::A);
    submit(Side::B);
}

Request CompareDialog::request(Side side) const
{
    Request request = base_;
    request.config = withSwitches(base_.config, forms_[sideIndex(side)]->config());
    return request;
}

void CompareDialog::setSwitches(Side side, const Config& switches)
{
    forms_[sideIndex(side)]->setConfig(withSwitches(base_.config, switches));
    showNotes();
    submit(side);
}

void CompareDialog::copyAToB()
{
    setSwitches(Side::B, forms_[0]->config());
}

void CompareDialog::swapAB()
{
    const Config a = forms_[0]->config();
    forms_[0]->setConfig(forms_[1]->config());
    forms_[1]->setConfig(a);
    // The results swap too, so the heatmaps change sides at once; both engines still
    // recompute, as one of them may be busy with what its side asked before.
    std::swap(results_[0], results_[1]);
    std::swap(failures_[0], failures_[1]);
    showNotes();
    showComparison();
    submit(Side::A);
    submit(Side::B);
}

void CompareDialog::submit(Side side)
{
    failures_[sideIndex(side)].clear();
    controllers_[sideIndex(side)]->submit(request(side));
    updateEnabled();
}

void CompareDialog::receive(Side side, const Result& result)
{
    // Only what the side asks for now: a result queued before a newer request is stale.
    if (result.request != request(side))
        return;
    Result& kept = results_[sideIndex(side)];
    const bool sameWeights = shown_ && kept.request == result.request &&
                             kept.weights == result.weights && kept.tokens == result.tokens;
    kept = result;
    failures_[sideIndex(side)].clear();
    if (sameWeights) { // the statistics came after the heatmaps: nothing new to paint
        updateEnabled();
        return;
    }
    rebuildSequences(result.batch());
    showNotes();
    showComparison();
}

void CompareDialog::showFailure(Side side, const QString& message)
{
    failures_[sideIndex(side)] = message;
    updateEnabled();
}

void CompareDialog::showNotes()
{
    const bool padding = results_[0].tokens && hasPadding(*results_[0].tokens);
    for (SwitchesForm* form : forms_) {
        const QStringList departures =
            FormulaBar::departuresOf(withSwitches(base_.config, form->config()), padding);
        if (departures.isEmpty())
            form->setNotes(tr("This is the textbook formula."), false);
        else
            form->setNotes(tr("Departs from the textbook: %1.")
                               .arg(departures.join(tr("; ", "separator between departures"))),
                           true);
    }
}

void CompareDialog::showSharedInput()
{
    const Config& c = base_.config;
    sharedLabel_->setText(
        tr("Both sides compute the same text and weights — “%1” · d_model %2 · heads %3 · "
           "d_k %4 · seed %5. Change them in the main window; here only the formula's "
           "switches differ.",
           "%1 is the sentence")
            .arg(sentenceLine(base_.text, kSharedTextLimit))
            .arg(c.dModel)
            .arg(c.heads)
            .arg(c.dK())
            .arg(qulonglong(c.seed)));
}

} // namespace attn::ui
