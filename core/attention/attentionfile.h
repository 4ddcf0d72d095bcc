// Opening an attention file: the weights someone computed elsewhere, of any model, as an
// AttentionStack whose heads are read from the mapped file when shown. No Qt.
//
// Formats (recognised by their first bytes, not by the name):
// - NumPy .npz (np.savez, np.savez_compressed): an array `attentions`, optional `tokens`
//   and `key_tokens` (numpy unicode arrays, one axis (T) or two (B, T)).
// - NumPy .npy: the attentions alone.
// - .safetensors: one tensor with the whole stack (named `attentions`, or the only one),
//   or one tensor a layer whose names end in the layer's number (`layer.0`,
//   `attentions.11`), in the order of that number; tokens from __metadata__["tokens"] and
//   ["key_tokens"], each a JSON list of strings (or a list of lists, one per sequence).
// Layouts of the whole stack, by the number of axes:
//   5: (L, B, H, T_q, T_k)   4: (L, H, T_q, T_k)   3: (H, T_q, T_k)   2: (T_q, T_k)
// A layer's tensor: 4: (B, H, T_q, T_k) (Hugging Face's output_attentions), 3 or 2 as above.
// Elements: float32, float16, float64 (npy, npz, safetensors) and bfloat16 (safetensors),
// either byte order, C or Fortran order. NaN and ±inf weights are kept.
#pragma once

#include "attention/attentionstack.h"
#include "io/npz.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace attn {

struct AttentionFileLimits {
    // The largest .npz member inflated into memory (a zip bomb stops here).
    std::uint64_t inflateBytes = kDefaultInflateLimit;
};

// Opens `path`. Throws InputError, its message "<path>: <the fault>", for a file that
// cannot be read or is not an attention file of the formats above.
[[nodiscard]] std::unique_ptr<AttentionStack>
openAttentionFile(const std::string& path, const AttentionFileLimits& limits = {});

// The same from bytes already in memory (tests, fuzzers); `bytes` must outlive the stack.
// `where` names the file in messages.
[[nodiscard]] std::unique_ptr<AttentionStack>
openAttentionBytes(std::span<const std::byte> bytes, const std::string& where,
                   const AttentionFileLimits& limits = {});

} // namespace attn
