// libFuzzer target: the config.json readers (GPT-2's, the Qwen/Llama family's) on arbitrary
// bytes. Each either refuses them with a ModelError naming config.json, or returns sizes a
// model can be built from.
#include "models/configfields.h"
#include "models/gpt2/config.h"
#include "models/languagemodel.h"
#include "models/llama/config.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const attn::Gpt2Config c =
            attn::parseGpt2Config(attn::parseConfigObject(text, "config.json"), "config.json");
        const bool sane = c.layers > 0 && c.heads > 0 && c.dModel > 0 && c.positions > 0 &&
                          c.vocabulary > 0 && c.inner > 0 && c.dModel % c.heads == 0 &&
                          c.headDim() * c.heads == c.dModel && c.epsilon >= 0 &&
                          c.layers <= attn::kMaxConfigSize && c.dModel <= attn::kMaxConfigSize;
        if (!sane)
            std::abort();
    } catch (const attn::ModelError& error) {
        if (error.file() != "config.json" || error.fault().empty())
            std::abort();
    }
    try {
        const attn::LlamaConfig c =
            attn::parseLlamaConfig(attn::parseConfigObject(text, "config.json"), "config.json");
        const bool sane = c.layers > 0 && c.heads > 0 && c.kvHeads > 0 &&
                          c.heads % c.kvHeads == 0 && c.dModel > 0 && c.headDim > 0 &&
                          c.headDim % 2 == 0 && c.inner > 0 && c.positions > 0 &&
                          c.vocabulary > 0 && c.epsilon >= 0 && c.ropeTheta > 0 &&
                          c.kvHeadOf(c.heads - 1) == c.kvHeads - 1;
        if (!sane)
            std::abort();
    } catch (const attn::ModelError& error) {
        if (error.file() != "config.json" || error.fault().empty())
            std::abort();
    }
    return 0;
}
