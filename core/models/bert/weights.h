// The BERT family's weights from model.safetensors, as float views the forward reads (read by
// modeltensors: F32 in place from the mapped file, F16 and BF16 converted once). Names with or
// without "bert." before the encoder's; LayerNorm as weight/bias or gamma/beta (old TF
// conversions); nn.Linear weights stored [out, in]. The pooler and cls.seq_relationship are
// not read. No Qt.
#pragma once

#include "io/mappedfile.h"
#include "models/bert/config.h"
#include "models/modelkernels.h"
#include "models/modeltensors.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace attn {

// A LayerNorm's scale and shift (C values each).
struct BertNorm {
    WeightView weight, bias;
};

// One encoder layer's tensors (HF's names under encoder.layer.N.).
struct BertBlock {
    WeightView qWeight, qBias;     // attention.self.query (C, C), (C)
    WeightView kWeight, kBias;     // attention.self.key
    WeightView vWeight, vBias;     // attention.self.value
    WeightView oWeight, oBias;     // attention.output.dense (C, C), (C)
    BertNorm attentionNorm;        // attention.output.LayerNorm
    WeightView inWeight, inBias;   // intermediate.dense (I, C), (I)
    WeightView outWeight, outBias; // output.dense (C, I), (C)
    BertNorm outputNorm;           // output.LayerNorm
};

struct BertWeights : StoredWeights {
    // The embeddings, as floats or (a GGUF file's) in blocks: read a row at a time (rowsOf).
    WeightView wordEmbedding;     // embeddings.word_embeddings (V, C): also the MLM decoder
    WeightView positionEmbedding; // embeddings.position_embeddings (P, C)
    WeightView typeEmbedding;     // embeddings.token_type_embeddings (types, C)
    BertNorm embeddingNorm;       // embeddings.LayerNorm
    std::vector<BertBlock> blocks;
    // The masked-LM head; none (not present()) in a GGUF file, whose converter drops it.
    WeightView headWeight, headBias; // cls.predictions.transform.dense (C, C), (C)
    BertNorm headNorm;               // cls.predictions.transform.LayerNorm
    WeightView decoderBias;          // cls.predictions.bias (V)
};

// Reads `file` (model.safetensors, or a sharded model's index) for a model of `config`. Throws
// ModelError naming the file and the tensor: missing, of the wrong shape, of a dtype other than
// F32, F16 or BF16, or a file that is not safetensors.
[[nodiscard]] BertWeights loadBertWeights(const std::filesystem::path& file,
                                          const BertConfig& config);

} // namespace attn
