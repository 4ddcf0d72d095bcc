// libFuzzer target: the GGUF reader (header, metadata of every type, tensor infos, alignment,
// offsets), the tokenizer made from its metadata (text/ggufvocab through HfTokenizer), the
// dequantizers on each tensor's first rows, and openModel on the bytes as a .gguf file, whose
// model, when it opens, runs two ids forward. Every refusal is an InputError or a ModelError
// naming the file and a fault; any other exception, a crash or a sanitizer report is a
// finding. Seeds: tests/reference/gguf's small files (tests/fuzz/corpus/gguf/).
#include "engine/options.h"
#include "io/gguf.h"
#include "models/families.h"
#include "models/languagemodel.h"
#include "text/ggufvocab.h"
#include "text/hftokenizer.h"
#include "text/modeltokenizer.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>
#include <system_error>
#include <vector>

namespace {

[[noreturn]] void broken(const char* promise)
{
    std::fprintf(stderr, "the GGUF reader broke its promise: %s\n", promise);
    std::abort();
}

// The file the bytes are written to, in a folder made once per process.
const std::filesystem::path& file()
{
    static const std::filesystem::path made = [] {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "attn-fuzz-gguf-XXXXXX").string();
        if (!mkdtemp(pattern.data()))
            broken("no temporary folder");
        return std::filesystem::path(pattern) / "model.gguf";
    }();
    // Registered after `made` is built, so that it runs before `made` is destroyed.
    static const bool cleaned = [] {
        std::atexit([] {
            std::error_code ignored;
            std::filesystem::remove_all(made.parent_path(), ignored);
        });
        return true;
    }();
    (void)cleaned;
    return made;
}

void checkMessage(const std::string& message)
{
    if (message.rfind("fuzz.gguf: ", 0) != 0 || message.size() <= 11)
        broken("an InputError that does not name the file and a fault");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
    // 1. The reader alone, and what is read from it.
    try {
        const attn::GgufFile parsed = attn::parseGguf(bytes, "fuzz.gguf");
        for (const attn::GgufTensor& tensor : parsed.tensors) {
            if (tensor.data.data() < bytes.data() ||
                tensor.data.data() + tensor.data.size() > bytes.data() + bytes.size())
                broken("a tensor's data outside the file");
            const auto info = attn::ggmlTypeInfo(tensor.typeId);
            if (!info || !info->dequantizable || tensor.ne.empty() || tensor.ne[0] > 4096)
                continue;
            const auto rowBytes = attn::ggmlRowBytes(tensor.type, tensor.ne[0]);
            std::vector<float> row(std::size_t(tensor.ne[0]));
            for (std::int64_t r = 0; r < std::min<std::int64_t>(tensor.rows(), 2); ++r)
                attn::dequantizeRow(tensor.type, tensor.data.data() + std::size_t(r) * *rowBytes,
                                    row.data(), tensor.ne[0]);
        }
        for (const auto& [key, value] : parsed.metadata) {
            (void)value.asNumber();
            (void)value.asString();
            (void)value.strings();
            (void)value.numbers();
        }
        const attn::GgufVocabulary vocabulary = attn::ggufVocabulary(parsed, "fuzz.gguf");
        try {
            const attn::HfTokenizer tokenizer(vocabulary.json, "fuzz.gguf");
            (void)tokenizer.encodeIds("The cat 猫 <s>", true);
        } catch (const attn::TokenizerFileError& error) {
            if (error.fault().empty())
                broken("a tokenizer refusal without a fault");
        }
    } catch (const attn::InputError& error) {
        checkMessage(error.what());
    }
    // 2. The whole model, from a file.
    {
        std::ofstream out(file(), std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
        if (!out)
            broken("cannot write the file");
    }
    std::shared_ptr<const attn::LanguageModel> model;
    try {
        model = attn::openModel(file());
    } catch (const attn::ModelError& error) {
        if (error.file() != file() || error.fault().empty())
            broken("a ModelError that does not name the file and the fault");
        return 0;
    }
    const attn::ModelInfo& info = model->info();
    if (info.vocabulary < 2 || info.layers < 1 || info.heads < 1)
        broken("a model without sizes");
    const attn::ModelRun run = model->runIds({0, 1}, attn::ModelSwitches{});
    const attn::StackShape& shape = run.attention->shape();
    if (shape.layers != info.layers || shape.heads != info.heads || shape.queries != 2)
        broken("attention of the wrong shape");
    return 0;
}
