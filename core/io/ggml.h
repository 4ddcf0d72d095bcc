// ggml's tensor types, as GGUF files (llama.cpp, Ollama, LM Studio) store them: the table of
// every type id ggml.h's enum ggml_type has (name, elements and bytes of a block), the row
// dequantizers of the types AttnScope reads, and llama.cpp's names of a file's general.file_type.
// Quantized weights stay quantized in memory; a product dequantizes its rows as it goes, to
// float32, with the operations of ggml-quants.c's dequantize_row_* in their order, so that a
// row here has the bits it has in ggml. No Qt.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace attn {

// ggml's type ids, as in ggml.h's enum ggml_type. The ids ggml removed (4 and 5: Q4_2, Q4_3;
// 31 to 33: Q4_0_4_4 …; 36 to 38: IQ4_NL_4_4 …) have no name here: a file that uses them is
// not a GGUF file ggml reads.
enum class GgmlType : std::uint32_t {
    F32 = 0,
    F16 = 1,
    Q4_0 = 2,
    Q4_1 = 3,
    Q5_0 = 6,
    Q5_1 = 7,
    Q8_0 = 8,
    Q8_1 = 9,
    Q2_K = 10,
    Q3_K = 11,
    Q4_K = 12,
    Q5_K = 13,
    Q6_K = 14,
    Q8_K = 15,
    IQ2_XXS = 16,
    IQ2_XS = 17,
    IQ3_XXS = 18,
    IQ1_S = 19,
    IQ4_NL = 20,
    IQ3_S = 21,
    IQ2_S = 22,
    IQ4_XS = 23,
    I8 = 24,
    I16 = 25,
    I32 = 26,
    I64 = 27,
    F64 = 28,
    IQ1_M = 29,
    BF16 = 30,
    TQ1_0 = 34,
    TQ2_0 = 35,
    MXFP4 = 39,
    NVFP4 = 40,
    Q1_0 = 41,
    Q2_0 = 42,
};

struct GgmlTypeInfo {
    std::string_view name;      // "Q4_K": ggml's type_traits name ("q4_K") as llama.cpp prints it
    std::int64_t blockElements; // elements per block: 1 for F32, F16, BF16; 32; 256 for K-quants
    std::int64_t blockBytes;    // bytes per block
    bool dequantizable;         // whether dequantizeRow reads it
};

// The type with id `id`, or nullopt for an id ggml does not have.
[[nodiscard]] std::optional<GgmlTypeInfo> ggmlTypeInfo(std::uint32_t id);

// Bytes of a row of n elements of `type`, or nullopt where n is negative, not a multiple of the
// type's blockElements, or its byte count overflows 64 bits (or `type` is no ggml type).
[[nodiscard]] std::optional<std::uint64_t> ggmlRowBytes(GgmlType type, std::int64_t n);

// Dequantizes one row: n elements from the ggmlRowBytes(type, n) bytes at `src` (any alignment)
// into dst[0 … n), exactly as ggml-quants.c's dequantize_row_* (and ggml's fp16 and bf16
// conversions) do, in float32. Throws std::invalid_argument where `type` is not dequantizable
// or n is not a non-negative multiple of its blockElements.
void dequantizeRow(GgmlType type, const std::byte* src, float* dst, std::int64_t n);

// llama.cpp's name of general.file_type (its enum llama_ftype) as llama-quantize spells it:
// "F32", "F16", "Q4_K_M", "IQ4_XS", "BF16" …; "" for a value llama.h does not have.
[[nodiscard]] std::string_view ggmlFileTypeName(std::uint32_t fileType);

} // namespace attn
