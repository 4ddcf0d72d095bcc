// The gpt2 architecture of a GGUF file, as llama.cpp's convert_hf_to_gguf.py writes GPT-2
// (its GPT2Model): gpt2.* metadata (block_count, context_length = n_ctx, embedding_length,
// feed_forward_length = 4·n_embd, attention.head_count, attention.layer_norm_epsilon), the
// Conv1D weights c_attn, attn.c_proj, mlp.c_fc and mlp.c_proj transposed to nn.Linear's [out,
// in] (attn_qkv, attn_output, ffn_up, ffn_down), h.N.attn.bias and masked_bias dropped,
// position_embd kept F32, output.weight only where the checkpoint had an lm_head of its own.
// The forward is Gpt2Model's on nn.Linear-shaped views (Gpt2MatrixLayout::Linear).
#include "models/gguf/ggufparts.h"
#include "models/gpt2/model.h"

namespace attn {
namespace {

// GPT-2's config from gpt2.* keys and token_embd's rows.
Gpt2Config gpt2ConfigOf(const GgufFile& file, const std::filesystem::path& path)
{
    const GgufMetadata meta(file, path, "gpt2");
    Gpt2Config c;
    c.layers = meta.size("block_count");
    c.dModel = meta.size("embedding_length");
    c.inner = meta.size("feed_forward_length", 4 * c.dModel);
    c.heads = meta.size("attention.head_count");
    c.positions = meta.size("context_length");
    if (c.dModel % c.heads != 0)
        meta.fail("gpt2.embedding_length " + std::to_string(c.dModel) +
                  " is not a multiple of gpt2.attention.head_count " + std::to_string(c.heads));
    if (meta.size("attention.head_count_kv", c.heads) != c.heads)
        meta.fail("gpt2.attention.head_count_kv differs from head_count: GPT-2 has a K and a V "
                  "head for every query head");
    c.epsilon = meta.real("attention.layer_norm_epsilon", 1e-5);
    c.vocabulary = embeddingRows(file, meta);
    return c;
}

// The tensors by llama.cpp's names, every matrix (out, in) as nn.Linear.
Gpt2Weights gpt2WeightsOf(const GgufFile& file, const std::filesystem::path& path,
                          const Gpt2Config& config, std::shared_ptr<const MappedFile> mapped)
{
    Gpt2Weights w;
    w.files.push_back(std::move(mapped));
    w.layout = Gpt2MatrixLayout::Linear;
    GgufTensors read(file, path, w);
    const std::int64_t C = config.dModel, V = config.vocabulary, P = config.positions;
    const std::int64_t I = config.inner;
    // 1. Embeddings: rows read one a token (WeightView::rowsOf), in blocks or not.
    w.tokenEmbedding = read.matrix("token_embd.weight", V, C);
    w.positionEmbedding = read.matrix("position_embd.weight", P, C);
    w.storedType = read.typeOf("token_embd.weight");
    // 2. The blocks.
    for (int l = 0; l < config.layers; ++l) {
        const std::string p = "blk." + std::to_string(l) + ".";
        Gpt2Block b;
        b.ln1Weight = read.vector(p + "attn_norm.weight", C);
        b.ln1Bias = read.vector(p + "attn_norm.bias", C);
        b.attnWeight = read.matrix(p + "attn_qkv.weight", 3 * C, C);
        b.attnBias = read.vector(p + "attn_qkv.bias", 3 * C);
        b.projWeight = read.matrix(p + "attn_output.weight", C, C);
        b.projBias = read.vector(p + "attn_output.bias", C);
        b.ln2Weight = read.vector(p + "ffn_norm.weight", C);
        b.ln2Bias = read.vector(p + "ffn_norm.bias", C);
        b.fcWeight = read.matrix(p + "ffn_up.weight", I, C);
        b.fcBias = read.vector(p + "ffn_up.bias", I);
        b.fcProjWeight = read.matrix(p + "ffn_down.weight", C, I);
        b.fcProjBias = read.vector(p + "ffn_down.bias", C);
        w.blocks.push_back(b);
    }
    // 3. The final norm, and lm_head where the converter found one (else tied to wte).
    w.finalNormWeight = read.vector("output_norm.weight", C);
    w.finalNormBias = read.vector("output_norm.bias", C);
    if (read.has("output.weight"))
        w.outputEmbedding = read.matrix("output.weight", V, C);
    return w;
}

} // namespace

std::shared_ptr<const LanguageModel> openGgufGpt2(const GgufFile& file,
                                                  const std::filesystem::path& path,
                                                  std::shared_ptr<const MappedFile> mapped)
{
    // 1. The config; 2. the tokenizer, before the weights; 3. the weights, in the mapping.
    Gpt2Config config = gpt2ConfigOf(file, path);
    GgufTokenizer tokenizer = readGgufTokenizer(file, path, config.vocabulary);
    Gpt2Weights weights = gpt2WeightsOf(file, path, config, std::move(mapped));

    ModelInfo info = ggufInfo(file, path, config.modelType, weights.storedType);
    info.endTokens = std::move(tokenizer.endTokens);
    info = Gpt2Model::infoOf(std::move(info), config);
    return std::make_shared<const Gpt2Model>(std::move(info), std::move(config), std::move(weights),
                                             std::move(tokenizer.tokenizer));
}

} // namespace attn
