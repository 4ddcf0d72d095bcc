#include "labels.h"

#include "warnings.h"

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

QString warningText(const Warning& warning)
{
    QString text = QCoreApplication::translate(kWarningContext, warningTemplate(warning.kind));
    for (const std::string& argument : warning.arguments)
        text = text.arg(QString::fromStdString(argument));
    return text;
}

} // namespace attn::ui
