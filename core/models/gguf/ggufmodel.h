// Opening a model kept as one GGUF file (llama.cpp, Ollama's blobs, LM Studio): its metadata
// read as a config (general.architecture's {arch}.* keys), its tokenizer from
// tokenizer.ggml.* (text/ggufvocab), its tensors by llama.cpp's names (token_embd,
// blk.N.attn_q …) as the family's weights. Quantized, F16 and BF16 tensors stay as their
// blocks in the mapped file and are dequantized by the products as they go
// (WeightView::rowsOf), so that memory holds the file once; F32 ones are read in place.
// llama.cpp's converter reorders the rows of Q and K of the llama architecture (each head's
// halves interleaved, for its adjacent-pair rotation): the order is undone through the
// views' rowOrder, so that every head, trace and number is the Hugging Face model's.
// Architectures: llama (Llama, TinyLlama, SmolLM2, Mistral), qwen2, qwen3 (LlamaModel),
// gpt2 (Gpt2Model; its Conv1D weights transposed by the converter: ggufgpt2.cpp), and bert
// (BertModel without the masked-LM head, which the converter drops: ggufbert.cpp). No Qt.
#pragma once

#include "models/languagemodel.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace attn {

// Whether `path` is a regular file that begins with GGUF's magic (whatever its name:
// Ollama's blobs are "sha256-…").
[[nodiscard]] bool isGgufFile(const std::filesystem::path& path);

// What a GGUF file's header says of it, for a list of models: general.architecture and
// llama.cpp's name of general.file_type ("Q4_K_M"), each "" when absent; nullopt when the
// file cannot be read as GGUF. Only the header's pages are read.
struct GgufSummary {
    std::string architecture;
    std::string fileType;
};
[[nodiscard]] std::optional<GgufSummary> ggufSummary(const std::filesystem::path& file);

// Opens the GGUF file `file`. Throws ModelError naming the file and the fault: a file that
// is not GGUF or is truncated or corrupt (parseGguf's faults), an architecture AttnScope does
// not run, a missing metadata key or tensor, a tensor of the wrong shape or of a type it does
// not read (naming the type and the tensor), a tokenizer it cannot read.
[[nodiscard]] std::shared_ptr<const LanguageModel> openGgufModel(const std::filesystem::path& file);

} // namespace attn
