#include "models/bert/weights.h"

#include "models/modeltensors.h"

namespace attn {
namespace {

// A LayerNorm stored as `name`.weight/bias, or as `name`.gamma/beta (TF's names).
BertNorm readNorm(ModelTensors& read, const std::string& name, std::int64_t C)
{
    const bool tf = !read.has(name + ".weight") && read.has(name + ".gamma");
    return {read(name + (tf ? ".gamma" : ".weight"), {C}),
            read(name + (tf ? ".beta" : ".bias"), {C})};
}

} // namespace

BertWeights loadBertWeights(const std::filesystem::path& file, const BertConfig& config)
{
    BertWeights w;
    ModelTensors read(file, w, "bert."); // BertForMaskedLM's names
    const std::int64_t C = config.dModel, V = config.vocabulary, I = config.inner;
    // 1. The embeddings.
    w.wordEmbedding = read("embeddings.word_embeddings.weight", {V, C});
    w.storedType = read.dtypeOf("embeddings.word_embeddings.weight");
    w.positionEmbedding = read("embeddings.position_embeddings.weight", {config.positions, C});
    w.typeEmbedding = read("embeddings.token_type_embeddings.weight", {config.tokenTypes, C});
    w.embeddingNorm = readNorm(read, "embeddings.LayerNorm", C);
    // 2. The layers.
    for (int l = 0; l < config.layers; ++l) {
        const std::string p = "encoder.layer." + std::to_string(l) + ".";
        BertBlock b;
        b.qWeight = read(p + "attention.self.query.weight", {C, C});
        b.qBias = read(p + "attention.self.query.bias", {C});
        b.kWeight = read(p + "attention.self.key.weight", {C, C});
        b.kBias = read(p + "attention.self.key.bias", {C});
        b.vWeight = read(p + "attention.self.value.weight", {C, C});
        b.vBias = read(p + "attention.self.value.bias", {C});
        b.oWeight = read(p + "attention.output.dense.weight", {C, C});
        b.oBias = read(p + "attention.output.dense.bias", {C});
        b.attentionNorm = readNorm(read, p + "attention.output.LayerNorm", C);
        b.inWeight = read(p + "intermediate.dense.weight", {I, C});
        b.inBias = read(p + "intermediate.dense.bias", {I});
        b.outWeight = read(p + "output.dense.weight", {C, I});
        b.outBias = read(p + "output.dense.bias", {C});
        b.outputNorm = readNorm(read, p + "output.LayerNorm", C);
        w.blocks.push_back(b);
    }
    // 3. The masked-LM head; its decoder is tied to the word embeddings.
    w.headWeight = read("cls.predictions.transform.dense.weight", {C, C});
    w.headBias = read("cls.predictions.transform.dense.bias", {C});
    w.headNorm = readNorm(read, "cls.predictions.transform.LayerNorm", C);
    w.decoderBias = read("cls.predictions.bias", {V});
    return w;
}

} // namespace attn
