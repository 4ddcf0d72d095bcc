#include "helpdialog.h"

#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QEvent>
#include <QMessageBox>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace attn::ui {

QString howToReadHtml()
{
    return HelpDialog::tr(
        "<h2>How to read these heatmaps</h2>"
        "<p>Each square is one head's attention weights <b>P = softmax(QKᵀ/√d_k + M)</b>. "
        "<b>Row i</b> is the query token i: the word that is looking. <b>Column j</b> is the "
        "key token j: the word being looked at. The colour of cell (i, j) is how much of "
        "word j's value vector flows into word i's output. Rows and columns are numbered "
        "from 0, as PyTorch indexes them.</p>"
        "<h3>What to look for</h3>"
        "<ul>"
        "<li><b>Every row sums to 1.</b> The softmax runs over the keys (dim=-1), so each "
        "query hands out exactly one unit of attention. If the sums in the statistics are "
        "not 1, the softmax ran over the wrong axis, or the mask came after it.</li>"
        "<li><b>A bright diagonal</b>: tokens attend to themselves. Common in untrained "
        "weights.</li>"
        "<li><b>One bright cell per row</b>: the row is saturated (largest weight ≥ 0.99). "
        "The softmax is almost one-hot and passes almost no gradient. Without √d_k scaling "
        "this happens as d_model grows: try d_model 512 with scaling off.</li>"
        "<li><b>Flat rows</b>: every key gets the same weight; the head only averages.</li>"
        "<li><b>Hatched grey cells</b> are masked: the causal mask hides future keys (j &gt; "
        "i), the padding mask hides &lt;pad&gt; keys. <b>Magenta cells</b> are NaN or ±∞: a "
        "row whose keys are all masked with -inf has nothing to normalise.</li>"
        "<li><b>A long sentence under a causal mask looks dark</b>: the first row's only "
        "weight is 1 and later rows' weights are about 1/i, so the linear colour scale leaves "
        "them in its darkest colours. View → Logarithmic Colour Scale gives each decade of "
        "weight the same share of colours.</li>"
        "<li><b>A rectangle, not a square</b>: cross-attention. The rows are the sentence's "
        "tokens (T_q queries), the columns the second text's (T_k keys), as a translation "
        "decoder looks at its source; rows still sum to 1, and there is no causal mask.</li>"
        "</ul>"
        "<h3>Try this</h3>"
        "<ol>"
        "<li>Raise d_model from 16 to 512 and watch the std before scaling grow like "
        "√d_k, while the std after scaling stays near 1.</li>"
        "<li>Set the softmax axis to queries (dim=-2) and compare the row sums with the "
        "column sums.</li>"
        "<li>Switch the head split to “view only” and see the heads lose the token "
        "structure.</li>"
        "</ol>"
        "<p>Hover a cell to read its weight, its logit (after scaling and mask) and its raw "
        "score q·k. Click a head to open it large.</p>");
}

HelpDialog::HelpDialog(QWidget* parent) : QDialog(parent), browser_(new QTextBrowser)
{
    browser_->setOpenExternalLinks(false);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(browser_);
    layout->addWidget(buttons);
    resize(640, 620);
    retranslateUi();
}

void HelpDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDialog::changeEvent(event);
}

void HelpDialog::retranslateUi()
{
    setWindowTitle(tr("How to Read These Heatmaps"));
    browser_->setHtml(howToReadHtml());
}

void showAbout(QWidget* parent)
{
    QMessageBox::about(
        parent, HelpDialog::tr("About AttnScope"),
        HelpDialog::tr(
            "<h3>AttnScope %1</h3>"
            "<p>See softmax(QKᵀ/√d_k + M)·V for your own sentence, head by head, and change "
            "the formula to watch what each part does.</p>"
            "<p>With the embedding “torch.randn(B, T, C)” the numbers equal PyTorch's "
            "torch.manual_seed(seed); torch.randn(…); nn.Linear(…) bit for bit.</p>")
            .arg(QCoreApplication::applicationVersion()));
}

} // namespace attn::ui
