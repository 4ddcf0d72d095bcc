#include "labels.h"

#include "engine/engine.h"
#include "engine/warnings.h"

#include <QCoreApplication>

namespace attn::ui {

// Each text is translated in the context "Labels", the comment telling translators
// which switch the short word belongs to.
QString displayName(TokenizerMode value)
{
    switch (value) {
    case TokenizerMode::Auto:
        return QCoreApplication::translate("Labels", "Automatic (words)", "tokenizer mode");
    case TokenizerMode::Spaces:
        return QCoreApplication::translate("Labels", "Spaces only", "tokenizer mode");
    case TokenizerMode::Chars:
        return QCoreApplication::translate("Labels", "Characters", "tokenizer mode");
    }
    return {};
}

QString displayName(EmbeddingMode value)
{
    switch (value) {
    case EmbeddingMode::Table:
        return QCoreApplication::translate("Labels", "Table (one vector per word)",
                                           "embedding mode");
    case EmbeddingMode::Torch:
        return QCoreApplication::translate("Labels", "torch.randn(B, T, C)", "embedding mode");
    }
    return {};
}

QString displayName(Positional value)
{
    switch (value) {
    case Positional::Sinusoidal:
        return QCoreApplication::translate("Labels", "Sinusoidal", "positional encoding");
    case Positional::None:
        return QCoreApplication::translate("Labels", "None", "positional encoding");
    case Positional::Rope:
        return QCoreApplication::translate("Labels", "RoPE (rotate Q and K)",
                                           "positional encoding");
    }
    return {};
}

QString displayName(ScaleMode value)
{
    switch (value) {
    case ScaleMode::SqrtDk:
        return QCoreApplication::translate("Labels", "÷ √d_k (textbook)", "scaling mode");
    case ScaleMode::None:
        return QCoreApplication::translate("Labels", "None", "scaling mode");
    case ScaleMode::SqrtDModel:
        return QCoreApplication::translate("Labels", "÷ √d_model", "scaling mode");
    }
    return {};
}

QString displayName(SoftmaxAxis value)
{
    switch (value) {
    case SoftmaxAxis::Keys:
        return QCoreApplication::translate("Labels", "Keys (dim=-1)", "softmax axis");
    case SoftmaxAxis::Queries:
        return QCoreApplication::translate("Labels", "Queries (dim=-2)", "softmax axis");
    case SoftmaxAxis::Batch:
        return QCoreApplication::translate("Labels", "Batch (dim=0)", "softmax axis");
    }
    return {};
}

QString displayName(MaskKind value)
{
    switch (value) {
    case MaskKind::None:
        return QCoreApplication::translate("Labels", "No mask", "mask kind");
    case MaskKind::Causal:
        return QCoreApplication::translate("Labels", "Causal (triu)", "mask kind");
    }
    return {};
}

QString displayName(MaskFill value)
{
    switch (value) {
    case MaskFill::NegInf:
        return QCoreApplication::translate("Labels", "-inf", "mask fill value");
    case MaskFill::NegBillion:
        return QCoreApplication::translate("Labels", "-1e9", "mask fill value");
    }
    return {};
}

QString displayName(MaskStage value)
{
    switch (value) {
    case MaskStage::BeforeSoftmax:
        return QCoreApplication::translate("Labels", "Before softmax (correct)", "mask stage");
    case MaskStage::AfterSoftmax:
        return QCoreApplication::translate("Labels", "After softmax (bug)", "mask stage");
    }
    return {};
}

QString displayName(HeadSplit value)
{
    switch (value) {
    case HeadSplit::Transpose:
        return QCoreApplication::translate("Labels", "view + transpose (correct)", "head split");
    case HeadSplit::View:
        return QCoreApplication::translate("Labels", "view only (bug)", "head split");
    }
    return {};
}

QString displayName(AttentionKind value)
{
    switch (value) {
    case AttentionKind::Self:
        return QCoreApplication::translate("Labels", "Self: Q, K, V from the text", "attention");
    case AttentionKind::Cross:
        return QCoreApplication::translate("Labels", "Cross: K, V from a second text", "attention");
    }
    return {};
}

// Translated in the context "Figure", where the captions' other parts are.
QString captionPhrase(ScaleMode value)
{
    switch (value) {
    case ScaleMode::SqrtDk:
        return QCoreApplication::translate("Figure", "÷ √d_k", "caption: the scaling");
    case ScaleMode::None:
        return QCoreApplication::translate("Figure", "no scaling", "caption: the scaling");
    case ScaleMode::SqrtDModel:
        return QCoreApplication::translate("Figure", "÷ √d_model", "caption: the scaling");
    }
    return {};
}

QString captionPhrase(SoftmaxAxis value)
{
    switch (value) {
    case SoftmaxAxis::Keys:
        return QCoreApplication::translate("Figure", "softmax over the keys (dim=-1)");
    case SoftmaxAxis::Queries:
        return QCoreApplication::translate("Figure", "softmax over the queries (dim=-2)");
    case SoftmaxAxis::Batch:
        return QCoreApplication::translate("Figure", "softmax over the batch (dim=0)");
    }
    return {};
}

QString captionPhrase(MaskKind value)
{
    switch (value) {
    case MaskKind::None:
        return QCoreApplication::translate("Figure", "no mask");
    case MaskKind::Causal:
        return QCoreApplication::translate("Figure", "causal mask");
    }
    return {};
}

QString captionPhrase(EmbeddingMode value)
{
    switch (value) {
    case EmbeddingMode::Table:
        return QCoreApplication::translate("Figure", "x from a table, a vector per word");
    case EmbeddingMode::Torch:
        return QCoreApplication::translate("Figure", "x = torch.randn(B, T, C)");
    }
    return {};
}

QString captionPhrase(Positional value)
{
    switch (value) {
    case Positional::Sinusoidal:
        return QCoreApplication::translate("Figure", "sinusoidal positions");
    case Positional::None:
        return QCoreApplication::translate("Figure", "no positional encoding");
    case Positional::Rope:
        return QCoreApplication::translate("Figure", "RoPE positions");
    }
    return {};
}

QString captionPhrase(MaskStage value)
{
    switch (value) {
    case MaskStage::BeforeSoftmax:
        return QCoreApplication::translate("Figure", "mask before the softmax");
    case MaskStage::AfterSoftmax:
        return QCoreApplication::translate("Figure", "mask after the softmax (bug)");
    }
    return {};
}

QString captionPhrase(HeadSplit value)
{
    switch (value) {
    case HeadSplit::Transpose:
        return QCoreApplication::translate("Figure", "heads split by view + transpose");
    case HeadSplit::View:
        return QCoreApplication::translate("Figure", "heads split by view only (bug)");
    }
    return {};
}

namespace {

// The template of a refusal, %1… its arguments in order; empty for Refusal::Other.
QString refusalTemplate(Refusal refusal)
{
    switch (refusal) {
    case Refusal::Other:
        return {};
    case Refusal::TextTooLong:
        return QCoreApplication::translate("Refusal", "The text is too long: more than 2 GiB.");
    case Refusal::InvalidUtf8:
        return QCoreApplication::translate("Refusal", "The text is not valid UTF-8 at byte %1.");
    case Refusal::LineTooLong:
        return QCoreApplication::translate(
            "Refusal", "Line %1 has %2 tokens, more than the limit of %3 per sequence.");
    case Refusal::TooManyLines:
        return QCoreApplication::translate("Refusal",
                                           "The text has more than %1 non-blank lines; each "
                                           "line is one sequence and the limit is %1.");
    case Refusal::EmptyText:
        return QCoreApplication::translate(
            "Refusal", "The text is empty: type a sentence, one line per sequence.");
    case Refusal::CrossTextMissing:
        return QCoreApplication::translate(
            "Refusal", "Cross-attention needs a second text, for the keys and values.");
    case Refusal::CrossLines:
        return QCoreApplication::translate(
            "Refusal", "The keys' and values' text has %1 lines and the queries' text %2: give "
                       "it one line, or one for each line of the queries.");
    case Refusal::DModelRange:
        return QCoreApplication::translate("Refusal", "d_model must be between %1 and %2, not %3.");
    case Refusal::HeadsRange:
        return QCoreApplication::translate(
            "Refusal", "The number of heads must be between 1 and d_model (%1), not %2.");
    case Refusal::HeadsDivide:
        return QCoreApplication::translate("Refusal",
                                           "The number of heads (%1) must divide d_model (%2).");
    case Refusal::TemperatureNaN:
        return QCoreApplication::translate("Refusal", "The temperature must be a positive number.");
    case Refusal::TemperatureRange:
        return QCoreApplication::translate("Refusal",
                                           "The temperature must be between 1e-06 and 1e+06.");
    case Refusal::CausalCross:
        return QCoreApplication::translate(
            "Refusal", "A causal mask has no meaning in cross-attention: the keys come from the "
                       "other text, so none of them is in a query's future.");
    case Refusal::KvHeadsDivide:
        return QCoreApplication::translate(
            "Refusal", "The K/V heads (%1) must divide the number of heads (%2).");
    case Refusal::RopeOddDk:
        return QCoreApplication::translate(
            "Refusal", "RoPE rotates pairs of features: d_k (%1) must be even.");
    case Refusal::RopeTheta:
        return QCoreApplication::translate("Refusal", "The RoPE base θ must be a positive number.");
    case Refusal::Softcap:
        return QCoreApplication::translate("Refusal",
                                           "The soft-capping c must be a positive number.");
    case Refusal::Window:
        return QCoreApplication::translate("Refusal",
                                           "The sliding window must be between 1 and 4096 keys.");
    case Refusal::SinkValue:
        return QCoreApplication::translate("Refusal", "The sink logit must be a finite number.");
    case Refusal::SinkAxis:
        return QCoreApplication::translate(
            "Refusal", "A sink is one more key in each row: it needs the softmax over the keys "
                       "(dim=-1).");
    case Refusal::Memory:
        return QCoreApplication::translate(
            "Refusal", "This needs about %1 GiB of memory, more than the %2 GiB this machine "
                       "can give; use fewer tokens, heads or lines.");
    case Refusal::MemoryBeside:
        //: %1 GiB in all, %2 GiB of it held by the heatmaps shown now, %3 GiB available
        return QCoreApplication::translate(
            "Refusal", "This needs about %1 GiB of memory together with the %2 GiB the heatmaps "
                       "on screen hold until they are replaced, more than the %3 GiB this "
                       "machine can give; use fewer tokens, heads or lines.");
    case Refusal::OutOfMemory:
        return QCoreApplication::translate("Refusal", "Not enough memory for this configuration.");
    }
    return {};
}

} // namespace

QString fillArguments(const QString& text, const std::vector<std::string>& arguments)
{
    QString filled;
    filled.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c == u'%' && i + 1 < text.size() && text[i + 1] >= u'1' && text[i + 1] <= u'9') {
            const auto n = std::size_t(text[i + 1].unicode() - u'1');
            if (n < arguments.size()) {
                filled += QString::fromStdString(arguments[n]);
                ++i;
                continue;
            }
        }
        filled += c;
    }
    return filled;
}

QString refusalText(const InputError& error)
{
    QString text = refusalTemplate(error.refusal());
    if (text.isEmpty())
        return QString::fromUtf8(error.what());
    text = fillArguments(text, error.arguments());
    if (error.inKeysText())
        //: %1 is the refusal, e.g. "The text is not valid UTF-8 at byte 3."
        text =
            QCoreApplication::translate("Refusal", "In the keys' and values' text: %1").arg(text);
    return text;
}

QString warningText(const Warning& warning)
{
    return fillArguments(
        QCoreApplication::translate(kWarningContext, warningTemplate(warning.kind)),
        warning.arguments);
}

ReportWords reportWords()
{
    // Each text a literal, for lupdate.
    auto word = [](const QString& translated) { return translated.toStdString(); };
    ReportWords words;
    words.tokens = word(QCoreApplication::translate("Report", "tokens", "heading of the tokens"));
    words.crossQueries = word(QCoreApplication::translate("Report", "cross-attention, queries from",
                                                          "heading of the queries' tokens"));
    words.crossKeys = word(QCoreApplication::translate("Report", "keys and values from",
                                                       "heading of the keys' tokens"));
    words.config = word(QCoreApplication::translate(
        "Report", "config:", "before the switches, spelled as options"));
    words.stdBefore =
        word(QCoreApplication::translate("Report", "std before scaling:", "then the number"));
    words.stdAfter =
        word(QCoreApplication::translate("Report", "std after scaling:", "then the number"));
    words.scale = word(QCoreApplication::translate("Report", "scale", "the factor: scale 0.2500"));
    words.temperature =
        word(QCoreApplication::translate("Report", "temperature", "temperature 1.0000"));
    words.rowSums =
        word(QCoreApplication::translate("Report", "row sums:", "of the weights; then a range"));
    words.columnSums =
        word(QCoreApplication::translate("Report", "column sums:", "of the weights; then a range"));
    words.to = word(QCoreApplication::translate("Report", "to", "a range: 0.86 to 1.13"));
    words.sequence = word(QCoreApplication::translate(
        "Report", "seq", "heading of the heads' table: the sequence's number"));
    words.head = word(QCoreApplication::translate("Report", "head", "heading of the heads' table"));
    words.ratio = word(QCoreApplication::translate("Report", "ratio",
                                                   "heading of the heads' table: std(L) / std(S)"));
    words.entropyOfMax = word(QCoreApplication::translate(
        "Report", "entropy/max", "heading of the heads' table: mean entropy / its maximum"));
    words.largestWeight = word(QCoreApplication::translate(
        "Report", "max w", "heading of the heads' table: the mean largest weight of a row"));
    words.saturated = word(QCoreApplication::translate(
        "Report", "saturated", "heading of the heads' table: the share of saturated rows"));
    words.headRowSums = word(
        QCoreApplication::translate("Report", "row sums", "heading of the heads' table: a range"));
    words.headColumnSums = word(
        QCoreApplication::translate("Report", "col sums", "heading of the heads' table: a range"));
    words.noWarnings = word(QCoreApplication::translate("Report", "no warnings"));
    words.warnings =
        word(QCoreApplication::translate("Report", "warnings:", "then one warning a line"));
    words.warning = [](const Warning& w) { return ui::warningText(w).toStdString(); };
    return words;
}

SweepWords sweepWords()
{
    auto word = [](const QString& translated) { return translated.toStdString(); };
    SweepWords words;
    words.title = word(QCoreApplication::translate(
        "Sweep table",
        "The same text at each d_k (H = 1, d_model = d_k), without and with the 1/√d_k "
        "scaling.",
        "the first line of attnscope sweep's table"));
    words.dK = word(QCoreApplication::translate("Sweep table", "d_k", "column heading"));
    words.stdLogits = word(
        QCoreApplication::translate("Sweep table", "std of the logits", "heading of two columns"));
    words.entropy = word(
        QCoreApplication::translate("Sweep table", "row entropy (bits)", "heading of two columns"));
    words.rowMax = word(
        QCoreApplication::translate("Sweep table", "largest weight", "heading of two columns"));
    words.jacobian =
        word(QCoreApplication::translate("Sweep table", "Jacobian norm", "heading of two columns"));
    words.saturated = word(
        QCoreApplication::translate("Sweep table", "saturated rows", "heading of two columns"));
    words.stdFinal = word(QCoreApplication::translate(
        "Sweep table", "std after ALiBi/cap",
        "heading of two columns: the std of the logits after ALiBi's bias and the soft-cap"));
    words.unscaled = word(
        QCoreApplication::translate("Sweep table", "unscaled", "column heading: without 1/√d_k"));
    words.scaled =
        word(QCoreApplication::translate("Sweep table", "scaled", "column heading: with 1/√d_k"));
    words.footer = word(QCoreApplication::translate(
        "Sweep table", "A uniform row has %1 bits; a saturated row puts ≥ %2 on one key.",
        "%1 bits of entropy (2.000), %2 a weight (0.99)"));
    return words;
}

// The shape line of the status bar, "B = 2 · T = 6 · d_model = 16 · H = 2 · d_k = 8".
QString shapeText(const Result& result)
{
    if (result.isCross())
        return QCoreApplication::translate(
                   "Labels", "B = %1 · T_q = %2 · T_k = %3 · d_model = %4 · H = %5 · d_k = %6",
                   "cross-attention: T_q query tokens, T_k key tokens")
            .arg(result.batch())
            .arg(result.length())
            .arg(result.keyLength())
            .arg(result.dModel())
            .arg(result.heads())
            .arg(result.dK());
    return QCoreApplication::translate("Labels",
                                       "B = %1 · T = %2 · d_model = %3 · H = %4 · d_k = %5")
        .arg(result.batch())
        .arg(result.length())
        .arg(result.dModel())
        .arg(result.heads())
        .arg(result.dK());
}

} // namespace attn::ui
