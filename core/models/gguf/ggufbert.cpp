// The bert architecture of a GGUF file, as llama.cpp's convert_hf_to_gguf.py writes a Hugging
// Face BERT (its BertModel): bert.* metadata (block_count, context_length, embedding_length,
// feed_forward_length, attention.head_count, attention.layer_norm_epsilon, attention.causal
// false); token_embd, token_types, position_embd (the last two kept F32), token_embd_norm,
// and per layer blk.N.attn_q/attn_k/attn_v, attn_output, attn_output_norm, ffn_up, ffn_down,
// layer_output_norm, weights and biases; the vocabulary as tokenizer.ggml.* (model "bert",
// text/ggufwordpiece). The converter drops the pooler and the masked-LM head
// (cls.predictions): the model runs and shows every layer's attention but predicts nothing.
#include "models/bert/model.h"
#include "models/families.h"
#include "models/gguf/ggufparts.h"
#include "text/ggufwordpiece.h"

namespace attn {
namespace {

// The rows of the matrix `name` (ggml's ne[1]), or a ModelError naming it.
int matrixRows(const GgufFile& file, const GgufMetadata& meta, const std::string& name)
{
    const GgufTensor* t = file.tensor(name);
    if (!t || t->ne.size() != 2)
        meta.fail("the tensor " + name + " is missing or not a matrix");
    if (t->ne[1] < 1 || t->ne[1] > kMaxConfigSize)
        meta.fail(name + " has " + std::to_string(t->ne[1]) + " rows");
    return int(t->ne[1]);
}

BertConfig bertConfigOf(const GgufFile& file, const std::filesystem::path& path)
{
    const GgufMetadata meta(file, path, "bert");
    BertConfig c;
    c.layers = meta.size("block_count");
    c.dModel = meta.size("embedding_length");
    c.inner = meta.size("feed_forward_length");
    c.heads = meta.size("attention.head_count");
    c.positions = meta.size("context_length");
    if (c.dModel % c.heads != 0)
        meta.fail("bert.embedding_length is not a multiple of the heads");
    c.headDim = c.dModel / c.heads;
    c.epsilon = meta.real("attention.layer_norm_epsilon", 1e-12);
    const GgufValue* causal = file.find("bert.attention.causal");
    if (causal && causal->asBool().value_or(false))
        meta.fail("bert.attention.causal is true: a BERT's attention is bidirectional");
    c.vocabulary = embeddingRows(file, meta);
    c.tokenTypes = matrixRows(file, meta, "token_types.weight");
    return c;
}

// llama.cpp's LayerNorm `name`.weight and `name`.bias.
BertNorm normOf(GgufTensors& read, const std::string& name, std::int64_t C)
{
    return {read.vector(name + ".weight", C), read.vector(name + ".bias", C)};
}

BertWeights bertWeightsOf(const GgufFile& file, const std::filesystem::path& path,
                          const BertConfig& config, std::shared_ptr<const MappedFile> mapped)
{
    BertWeights w;
    w.files.push_back(std::move(mapped));
    GgufTensors read(file, path, w);
    const std::int64_t C = config.dModel, V = config.vocabulary, I = config.inner;
    // 1. The embeddings (llama.cpp keeps position_embd and token_types in F32).
    w.wordEmbedding = read.matrix("token_embd.weight", V, C);
    w.storedType = read.typeOf("token_embd.weight");
    w.positionEmbedding = read.matrix("position_embd.weight", config.positions, C);
    w.typeEmbedding = read.matrix("token_types.weight", config.tokenTypes, C);
    w.embeddingNorm = normOf(read, "token_embd_norm", C);
    // 2. The layers, HF's names in llama.cpp's.
    for (int l = 0; l < config.layers; ++l) {
        const std::string p = "blk." + std::to_string(l) + ".";
        BertBlock b;
        b.qWeight = read.matrix(p + "attn_q.weight", C, C);
        b.qBias = read.vector(p + "attn_q.bias", C);
        b.kWeight = read.matrix(p + "attn_k.weight", C, C);
        b.kBias = read.vector(p + "attn_k.bias", C);
        b.vWeight = read.matrix(p + "attn_v.weight", C, C);
        b.vBias = read.vector(p + "attn_v.bias", C);
        b.oWeight = read.matrix(p + "attn_output.weight", C, C);
        b.oBias = read.vector(p + "attn_output.bias", C);
        b.attentionNorm = normOf(read, p + "attn_output_norm", C);
        b.inWeight = read.matrix(p + "ffn_up.weight", I, C);
        b.inBias = read.vector(p + "ffn_up.bias", I);
        b.outWeight = read.matrix(p + "ffn_down.weight", C, I);
        b.outBias = read.vector(p + "ffn_down.bias", C);
        b.outputNorm = normOf(read, p + "layer_output_norm", C);
        w.blocks.push_back(b);
    }
    // 3. No masked-LM head: the converter dropped cls.predictions.
    return w;
}

} // namespace

std::shared_ptr<const LanguageModel> openGgufBert(const GgufFile& gguf,
                                                  const std::filesystem::path& file,
                                                  std::shared_ptr<const MappedFile> mapped)
{
    // 1. The config from bert.* and the tensors' sizes.
    BertConfig config = bertConfigOf(gguf, file);
    // 2. The tokenizer from the metadata, before the weights: a broken one fails at once.
    std::unique_ptr<const WordPieceTokenizer> tokenizer =
        readTokenizer([&] { return ggufWordPiece(gguf, file); });
    ModelFolder::checkVocabulary(*tokenizer, config.vocabulary, file);
    // 3. The weights, in the mapping.
    BertWeights weights = bertWeightsOf(gguf, file, config, std::move(mapped));

    ModelInfo info = ggufInfo(gguf, file, "bert", weights.storedType);
    info.layers = config.layers;
    info.heads = info.kvHeads = config.heads;
    info.dModel = config.dModel;
    info.headDim = config.headDim;
    info.maxPositions = config.positions;
    info.vocabulary = config.vocabulary;
    info.causal = false;   // bidirectional: every token sees every other
    info.predicts = false; // no masked-LM head
    return std::make_shared<const BertModel>(std::move(info), std::move(config), std::move(weights),
                                             std::move(tokenizer), std::nullopt);
}

} // namespace attn
