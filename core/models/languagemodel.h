// A trained language model run natively, with the formula's switches inside every layer.
//
// A model folder in Hugging Face's layout (config.json, model.safetensors, the tokenizer's
// files) is opened once (openModel); its weights stay memory-mapped. run() tokenizes a text
// and runs the forward pass, every layer's attention computed by the same kernels as the
// engine's (core/engine/softmax, core/engine/projection) under the request's switches, and returns
// every layer's weights as an AttentionStack (L, 1, H, T, T) and the final hidden states, from
// which predictions() makes any position's next-token distribution on demand.
//
// The GPT-2 family is the first implementation (gpt2model), the Qwen/Llama family the
// second (llamamodel), BERT the third (bertmodel): an encoder, whose predictions() are its
// masked-LM head's fill-ins at a position rather than a next token. No Qt.
#pragma once

#include "attention/attentionstack.h"
#include "base/tensor.h"
#include "engine/options.h"
#include "models/modelkernels.h"
#include "text/gpt2labels.h"
#include "text/modeltokenizer.h"

#include <array>
#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

// A model folder or one of its files that cannot be used: what() names the file (or the
// folder) and the fault in one English line, e.g. "config.json: n_embd 100 is not divisible
// by n_head 12". The command line prints it and exits 2; the window shows it and keeps
// what it had.
class ModelError : public std::runtime_error {
public:
    ModelError(const std::filesystem::path& file, const std::string& fault);
    [[nodiscard]] const std::filesystem::path& file() const { return file_; }
    [[nodiscard]] const std::string& fault() const { return fault_; }

private:
    std::filesystem::path file_;
    std::string fault_;
};

// The fault of a ModelError asking a model without an output head (ModelInfo::predicts) for
// logits: a BERT GGUF file, whose converter drops the masked-LM head.
inline constexpr std::string_view kNoOutputHead =
    "this GGUF file has no masked-language-model head: attention only";

// What a model is, from its config.json.
struct ModelInfo {
    std::string family; // config's model_type: "gpt2", "qwen2", "qwen3", "llama", "bert"
    std::string name;   // the folder's name, or the hub's "gpt2" from models--gpt2
    int layers = 0;     // L (n_layer)
    int heads = 0;      // H (n_head), query heads: every one is shown
    int dModel = 0;     // C (n_embd)
    int headDim = 0;    // d_k: C / H, or the config's head_dim
    // Grouped-query attention (the Qwen/Llama family): H_kv K/V heads, H / H_kv query heads
    // reading each; H_kv = H where every query head has its own (GPT-2).
    int kvHeads = 0;
    bool rotary = false;    // positions by rotary embedding: the RoPE switch acts
    int maxPositions = 0;   // the longest text in tokens (n_positions)
    int vocabulary = 0;     // V (vocab_size)
    std::string weightType; // the stored dtype of the weights: "F32", "F16" or "BF16"
    bool causal = true;     // a decoder: the textbook formula masks the future
    // An output head to predict with: false for a model kept without it (a BERT GGUF file:
    // llama.cpp's converter drops the masked-LM head), whose runs show attention only and
    // whose logits and predictions throw ModelError.
    bool predicts = true;
    // Mistral's sliding window W (config sliding_window): under the causal mask, query i
    // also cannot see keys j with i − j ≥ W. 0: no window, every earlier key is seen.
    int slidingWindow = 0;
    // The ids that end a text (config.json's eos_token_id, one or a list): generation stops
    // when it writes one. None where the config names none.
    std::vector<int> endTokens;
    std::filesystem::path folder;

    bool operator==(const ModelInfo&) const = default;

    // The K/V head query head `h` reads: h / (H / H_kv) (HF's repeat_kv).
    [[nodiscard]] int kvHeadOf(int h) const
    {
        return kvHeads > 0 && heads >= kvHeads ? h / (heads / kvHeads) : h;
    }
};

// The fields of the configuration table (core/formats/requestfields) a model run takes, as the
// command line, the JSON and the window spell them: the formula's switches. The others
// (C, H, the seed, the embedding, the tokenizer …) are the model's own.
inline constexpr std::array<std::string_view, 7> kModelSwitchFields{
    "scale", "temperature", "axis", "mask", "mask-fill", "mask-stage", "head-split"};

// A head of a model: layer `layer`, head `head`, each from 0 ("5.1" on the command line).
struct HeadIndex {
    int layer = 0;
    int head = 0;
    auto operator<=>(const HeadIndex&) const = default;
};

// What a knocked-out head's output P_h·V_h becomes before the output projection, as
// TransformerLens's ablations: zeros, or its mean over the positions of the text.
enum class KnockOutMode { Zero, Mean };

// The switches of the formula a model run uses: the request's scale, temperature, softmax
// axis, mask kind, fill and stage, and head split (Config's other fields, C, H, the seed,
// the embedding and the tokenizer, come from the model and are ignored). `onlyLayer` ≥ 0
// applies them to that layer alone, every other layer runs the textbook formula
// ("break only layer 5"); -1 applies them to every layer.
struct ModelSwitches {
    Config formula = textbookFormula();
    int onlyLayer = -1;
    // Rotary positions on Q and K (the Qwen/Llama family; no effect where info().rotary is
    // false): off, attention sees no position but the causal mask's. Follows onlyLayer as
    // the formula's switches do.
    bool rope = true;
    // Heads knocked out, each once, in order (knockOuts() makes the list): their outputs
    // replaced as `knockOut` says, whatever onlyLayer says; every later layer and the
    // predictions follow.
    std::vector<HeadIndex> knockedOut;
    KnockOutMode knockOut = KnockOutMode::Zero;
    bool operator==(const ModelSwitches&) const = default;

    // The formula the model was trained with: scaled by 1/√d_k, τ = 1, softmax over the
    // keys, a causal mask before it filled with −∞ (what finfo.min gives after the
    // softmax), heads split by transpose.
    [[nodiscard]] static Config textbookFormula(bool causal = true);
    // The same with the model's own values of today's switches (Mistral's sliding window).
    [[nodiscard]] static Config textbookFormula(const ModelInfo& info);
};

// Throws std::out_of_range naming the switch when `formula` switches what the model has of
// its own (K/V heads, QK-norm, ALiBi, the lab's RoPE) or is not a valid formula at the
// model's size (checkConfig: a sink with another axis, a bad window).
void checkModelFormula(const Config& formula, const ModelInfo& info);

// One candidate for the next token.
struct Prediction {
    int id = 0;
    std::string token;     // the vocabulary's spelling ("Ġmat")
    std::string label;     // readable (" mat"), as TokenLabel::label
    float probability = 0; // softmax of the logits at that position
    float logit = 0;
    bool operator==(const Prediction&) const = default;
};

class LanguageModel;
struct KvCache;

// One head of one layer inside a run, stage by stage: what Lab → Step by Step draws,
// with the model's own numbers (headtrace.h makes the figure's Result of it).
// T tokens, C = d_model, H heads, d_k = C / H (GPT-2) or head_dim.
// In the Qwen/Llama family: X is the layer's input_layernorm output; Q_h is head h of
// q_proj's output after Qwen3's q_norm and the rotary positions (unless the RoPE switch
// takes them away in this layer); K_h and V_h are those of the K/V head h shares,
// h / (H / H_kv), from k_proj and v_proj (K normed and rotated as Q); `merged` is
// (T, H·d_k), and `output` o_proj's.
struct HeadTrace {
    std::vector<int> ids;           // T token ids
    std::vector<TokenLabel> labels; // T readable labels
    ModelSwitches switches;
    int layer = 0;
    int head = 0;
    std::string family; // the model's: ModelInfo::family ("gpt2", "qwen3" …)
    int kvHeads = 0;    // ModelInfo::kvHeads
    // The formula this layer ran: the switches', or the textbook one when switches.onlyLayer
    // names another layer; its dModel is H·d_k (the width the heads are split from) and
    // heads H. ÷ √d_model divides by the hidden size C, input's width, as the run does.
    Config formula;
    Matrix input;      // X (T, C): the layer's input after its first norm (GPT-2's ln_1)
    Matrix queries;    // Q_h (T, d_k): the head's slice of the query projection, split as
    Matrix keys;       // K_h  the formula's head split says (GPT-2: c_attn's columns
    Matrix values;     // V_h  [0, C), [C, 2C), [2C, 3C), 64 columns a head)
    Matrix scores;     // S = Q_h K_hᵀ (T, T), before any scaling
    MaskMatrix mask;   // (T, T) true = key j hidden from query i
    Matrix weights;    // P (T, T): the run's attention of this layer and head, bit for bit
    Matrix headOutput; // O_h = P·V_h (T, d_k)
    Matrix merged;     // every head's O_h side by side (T, C)
    Matrix output;     // the attention's output projection of `merged` (T, C): what the
                       // layer adds to its residual stream (GPT-2's c_proj)
};

// One forward pass over one text.
struct ModelRun {
    std::vector<int> ids;           // T token ids
    std::vector<TokenLabel> labels; // T readable labels (a run of byte tokens spelt out)
    ModelSwitches switches;
    // Every layer's attention weights P, (L, 1, H, T, T), with the labels' texts as tokens.
    std::shared_ptr<const MemoryAttentionStack> attention;
    // The last layer's output after the final norm, (T, C): predictions() reads it.
    Matrix hidden;
    // Which model made it; predictions() needs its output embedding.
    std::shared_ptr<const LanguageModel> model;

    // The k most probable next tokens after position `position` (0 … T−1; the last
    // position predicts the text's continuation), most probable first, ties by lower id;
    // for a masked language model (BERT) the k most probable tokens at `position` itself
    // (its masked-LM head's fill-ins). Throws std::out_of_range for a position outside
    // 0 … T−1.
    [[nodiscard]] std::vector<Prediction> predictions(int position, int k = 10) const;
    // The positions of the model's [MASK] token in the ids, in order (none for a model
    // without one: the next-token families).
    [[nodiscard]] std::vector<int> maskedPositions() const;
    // The logits (V values) at `position`.
    [[nodiscard]] std::vector<float> logits(int position) const;
};

// What a family's forward pass gives: every layer's attention and the final hidden states.
struct Forward {
    FloatBuffer weights; // (L, 1, H, T, T) every layer's P, every query head
    Matrix hidden;       // (T, C) after the final norm (BERT: the last layer's output)
};

// One layer's attention as the forward ran it, for trace(): what its heads read and wrote.
// The forward stops after that layer's attention (`hidden` then stays empty).
struct LayerCapture {
    int layer = 0;
    Matrix input;      // X (T, C): what the attention's projections read (after the
                       // layer's first norm; BERT, post-LN, the layer's input)
    HeadStack queries; // Q (1, H, T, d_k) as the layer split them (and normed and rotated)
    HeadStack keys;    // K (1, H_kv, T, d_k), the same
    HeadStack values;  // V (1, H_kv, T, d_k)
    Matrix merged;     // every head's P·V side by side (T, H·d_k)
    Matrix projected;  // the attention's output projection of `merged` (T, C)
};

// What a forward lets its caller watch and change, layer by layer: the cancel flag, a
// layer to capture for trace(), and the hooks interventions use (knocking heads out,
// reading the residual stream). Every family's forward calls them at the same places.
struct ForwardHooks {
    const std::atomic<bool>* cancel = nullptr; // true between layers: Cancelled is thrown
    LayerCapture* capture = nullptr;           // keep this layer's attention, then stop
    // Layer `layer`'s heads' outputs, P_h·V_h side by side (T, H·d_k), just before the
    // output projection; may change them (a head knocked out: its d_k columns set to 0).
    std::function<void(int layer, Matrix& headOutputs)> headOutputs;
    // The residual stream after block `layer` (T, C), as the next block reads it (after the
    // last block, before the final norm).
    std::function<void(int layer, const Matrix& residual)> residual;
    // Start at block `startLayer` with `startResidual` (T, C) as its input, the residual a
    // run gave after block startLayer − 1: the embedding and the blocks before it are not
    // run, and their attention is left unwritten (call forward() directly: a scan reads
    // only what follows). 0 and null: from the embedding.
    int startLayer = 0;
    const Matrix* startResidual = nullptr;
    // A KV cache (models/kvcache.h): the forward runs only the positions after the cache's
    // `past` ones, appends their K and V, and its Forward holds their rows only; with
    // past = 0 it runs every position and fills the cache. Only a decoder (GPT-2,
    // Qwen/Llama) under switches kvCacheUsable accepts; null: no cache.
    KvCache* cache = nullptr;
};

// A trained model. Everything around a forward pass is here, written once for every
// family: the tokenizer, run and runIds, the trace of one head, the logits, the tokens'
// spellings and labels. A family (core/models/<family>/model.h) adds its forward pass and,
// where its output head is not a plain output embedding, its logits.
class LanguageModel : public std::enable_shared_from_this<LanguageModel> {
public:
    virtual ~LanguageModel() = default;
    LanguageModel(const LanguageModel&) = delete;
    LanguageModel& operator=(const LanguageModel&) = delete;

    [[nodiscard]] const ModelInfo& info() const { return info_; }
    // The model's tokenizer; null for a model that runs token ids only (the benchmarks'
    // random ones), whose tokens are labelled and spelt by their numbers.
    [[nodiscard]] const ModelTokenizer* tokenizer() const { return tokenizer_.get(); }

    // The text's token ids and readable labels, without running the model (the chips).
    // Throws InputError for invalid UTF-8, ModelError naming the tokenizer's file when the
    // model has none.
    void tokenize(const std::string& text, std::vector<int>& ids,
                  std::vector<TokenLabel>& labels) const;

    // Runs the model on `text` under `switches`. Throws InputError for an empty text, or one
    // of nothing the tokenizer keeps but its template's tokens (BERT's [CLS] [SEP] of white
    // space) (Refusal::EmptyText), a text longer than info().maxPositions tokens
    // (Refusal::TextTooLong, naming both counts) and invalid UTF-8; Cancelled (engine.h)
    // when `cancel` becomes true between layers.
    [[nodiscard]] ModelRun run(const std::string& text, const ModelSwitches& switches,
                               const std::atomic<bool>* cancel = nullptr) const;
    // The same with `hooks` (ForwardHooks), as runIds.
    [[nodiscard]] ModelRun run(const std::string& text, const ModelSwitches& switches,
                               const ForwardHooks& hooks) const;

    // Runs the model on token ids (the chips labelled by the tokenizer, or by the ids
    // where the model has none) under `switches`, with `hooks` (ForwardHooks: cancel, and
    // the interventions' hooks; its capture is trace()'s). Throws InputError for no ids
    // (Refusal::EmptyText) or more than info().maxPositions (Refusal::TextTooLong), and
    // std::out_of_range for an id outside 0 … V−1; Cancelled as run().
    [[nodiscard]] ModelRun runIds(const std::vector<int>& ids, const ModelSwitches& switches,
                                  const ForwardHooks& hooks) const;
    [[nodiscard]] ModelRun runIds(const std::vector<int>& ids, const ModelSwitches& switches,
                                  const std::atomic<bool>* cancel = nullptr) const;

    // The forward pass on `text` under `switches` up to layer `layer`, and that layer's
    // stages for head `head` (HeadTrace), the run's own numbers. Throws as run() does, and
    // std::out_of_range for a layer or head the model does not have.
    [[nodiscard]] HeadTrace trace(const std::string& text, const ModelSwitches& switches, int layer,
                                  int head, const std::atomic<bool>* cancel = nullptr) const;

    // Logits at one position from a final hidden row (C values): by default the output
    // embedding's (lm_head, or the input embedding where they are tied). V values.
    [[nodiscard]] virtual std::vector<float> logitsOf(const float* hiddenRow) const;
    // The logits of every row of `hidden` (T, C) at once, (T, V): what logitsOf gives each
    // row, in one product (the output embedding read once, not once a row).
    [[nodiscard]] virtual Matrix logitsOfRows(const Matrix& hidden) const;

    // The k most probable tokens of `logits` (V values), most probable first, ties and NaN
    // logits by lower id, each with its softmax probability (summed in double).
    [[nodiscard]] std::vector<Prediction> topPredictions(const std::vector<float>& logits,
                                                         int k) const;

    // The family's final norm on a residual stream (T, C), what its forward does to the
    // last block's output before the logits: GPT-2's ln_f, Qwen/Llama's final RMSNorm,
    // nothing for BERT (its masked-LM head's transform is in its logitsOf).
    virtual void finalNorm(const Matrix& residual, Matrix& out) const = 0;

    // The vocabulary's spelling and readable label of an id (its number without a
    // tokenizer).
    [[nodiscard]] std::string tokenSpelling(int id) const;
    [[nodiscard]] std::string tokenLabel(int id) const;

    // The ids the tokenizer gives an empty text: its template alone (Llama's <s>, BERT's
    // [CLS] [SEP]; none for GPT-2 and Qwen, or without a tokenizer).
    [[nodiscard]] const std::vector<int>& templateIds() const { return template_; }

    // The id of the token a masked language model fills in ([MASK]); none for a model that
    // predicts the next token (GPT-2, Qwen/Llama) or has no tokenizer to name it.
    [[nodiscard]] std::optional<int> maskId() const { return maskId_; }

    // The family's forward pass over token ids (1 … info().maxPositions of them, each
    // below V) under `switches`, calling `hooks` as ForwardHooks says. Throws
    // std::out_of_range for other ids or counts, Cancelled when hooks.cancel becomes true
    // between layers. Its shape, for every family: the embedding; per layer its first
    // norm, the attention through modelattention with the layer's formula (LayerFormulas),
    // the hooks, the residual, the MLP; the final norm.
    [[nodiscard]] virtual Forward forward(const std::vector<int>& ids,
                                          const ModelSwitches& switches,
                                          const ForwardHooks& hooks = {}) const = 0;

protected:
    // A model of `info`, read with `tokenizer` (null: ids only) from `tokenizerFile` (named
    // when it is missing); `maskId` is the tokenizer's [MASK] for a masked language model.
    LanguageModel(ModelInfo info, std::unique_ptr<const ModelTokenizer> tokenizer,
                  std::filesystem::path tokenizerFile, std::optional<int> maskId = std::nullopt);

    // The output embedding (V, C) the default logitsOf multiplies by.
    [[nodiscard]] virtual WeightView outputEmbedding() const = 0;

private:
    [[nodiscard]] const ModelTokenizer& requireTokenizer() const;
    [[nodiscard]] std::vector<int> encodeText(const std::string& text) const;

    ModelInfo info_;
    std::unique_ptr<const ModelTokenizer> tokenizer_;
    std::filesystem::path tokenizerFile_;
    std::optional<int> maskId_;
    std::vector<int> template_; // the ids the tokenizer gives an empty text
};

// A model folder's name for titles: the folder's own ("gpt2"), or in the Hugging Face
// cache the repository's ("openai-community/gpt2" for
// …/models--openai-community--gpt2/snapshots/<revision>).
[[nodiscard]] std::string modelName(const std::filesystem::path& folder);

} // namespace attn
