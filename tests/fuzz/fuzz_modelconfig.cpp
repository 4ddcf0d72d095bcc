// libFuzzer target: every family's config.json reader (the family table's describe: GPT-2's,
// the Qwen/Llama/Mistral family's, BERT's, and any family added to the table) on arbitrary
// bytes. Each either refuses them with a ModelError naming config.json, or returns sizes a
// model can be built from.
#include "models/configfields.h"
#include "models/families.h"
#include "models/languagemodel.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

void checkRefusal(const attn::ModelError& error)
{
    if (error.file() != "config.json" || error.fault().empty())
        std::abort();
}

bool inRange(int size)
{
    return size > 0 && size <= attn::kMaxConfigSize;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    attn::ModelFolder folder;
    try {
        folder = attn::readModelConfig(text);
    } catch (const attn::ModelError& error) {
        checkRefusal(error);
        return 0;
    }
    for (const attn::ModelFamily& family : attn::modelFamilies()) {
        try {
            const attn::ModelInfo m = family.describe(folder);
            const bool sane = m.family == folder.modelType && inRange(m.layers) &&
                              inRange(m.heads) && inRange(m.kvHeads) && m.heads % m.kvHeads == 0 &&
                              inRange(m.dModel) && inRange(m.headDim) && inRange(m.maxPositions) &&
                              inRange(m.vocabulary) && m.kvHeadOf(m.heads - 1) == m.kvHeads - 1 &&
                              (!m.rotary || m.headDim % 2 == 0) && m.slidingWindow >= 0 &&
                              (m.heads * m.headDim == m.dModel || family.name != "GPT-2");
            if (!sane)
                std::abort();
        } catch (const attn::ModelError& error) {
            checkRefusal(error);
        }
    }
    return 0;
}
