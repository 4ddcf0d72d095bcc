#include "models/runwords.h"

namespace attn {

std::vector<WordGroup> runWords(const ModelRun& run)
{
    const bool wordPiece = run.model && usesWordPiece(run.model->info().family);
    return groupWords(wordTokens(run.labels, wordPiece));
}

std::shared_ptr<const MemoryAttentionStack> runWordAttention(const ModelRun& run,
                                                             const std::vector<WordGroup>& words)
{
    return wordAttentionStack(*run.attention, words);
}

} // namespace attn
