#include "lab/presets.h"

#include "base/translatable.h"
#include "engine/embedding.h"
#include "engine/tokenizer.h"
#include "engine/torchrng.h"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>

namespace attn {
namespace {

Request request(std::string text, Config config)
{
    return Request{std::move(text), config, {}, {}};
}

using MatrixD = Eigen::MatrixXd;
using VectorD = Eigen::VectorXd;

// Exercise 3 of the tutorial: a vector for `antecedent` that makes `pronoun`'s row give
// it `weight` in every head. The other tokens keep their table vectors; positional
// encoding must be off, because the design assumes x is exactly the table.
//
// The layers are the ones the engine draws for `config` in mode "table": W_q, W_k
// (then W_v, W_o) = nn.Linear(C, C) right after manual_seed. With q_h = pronoun's
// query in head h (d_k) and W_k^h, b_k^h head h's rows of W_k, the antecedent's score
// in head h is linear in its vector x:
//     s_h(x) = q_h · (W_k^h x + b_k^h) = g_hᵀ x + c_h,  g_h = (W_k^h)ᵀ q_h,  c_h = q_h · b_k^h.
// So H targets s_h = t_h are H linear equations in C unknowns; x is their shortest
// solution, Gᵀ (G Gᵀ)⁻¹ (t − c).
std::vector<float> designAntecedent(const Config& config, const std::vector<std::string>& tokens,
                                    const std::string& pronoun, const std::string& antecedent,
                                    double weight)
{
    const int C = config.dModel, H = config.heads, dK = config.dK();
    const double scale = scaleFactor(config) / config.temperature; // logit = score · scale

    // 1. The layers, as engine.cpp draws them: W_q first, then W_k.
    TorchGenerator generator(config.seed);
    const Linear wq = generator.linear(C, C);
    const Linear wk = generator.linear(C, C);
    const auto table = [&](const std::string& token) {
        return tokenVector(config.seed, token, C).cast<double>().eval();
    };

    // 2. The pronoun's query, (C) = H heads of d_k.
    const VectorD q = wq.weight.cast<double>() * table(pronoun) + wq.bias.cast<double>();

    MatrixD g(H, C); // rows g_hᵀ
    VectorD rhs(H);  // t_h − c_h
    for (int h = 0; h < H; ++h) {
        const VectorD qh = q.segment(h * dK, dK);
        const MatrixD wkh = wk.weight.middleRows(h * dK, dK).cast<double>(); // (d_k, C)
        const VectorD bkh = wk.bias.segment(h * dK, dK).cast<double>();

        // 3. The logits of every other key in head h (the pronoun's own key among them),
        //    summed as log Σ exp(l_j), shifted by the largest for stability.
        std::vector<double> logits;
        for (const std::string& token : tokens)
            if (token != antecedent)
                logits.push_back(scale * qh.dot(wkh * table(token) + bkh));
        double largest = logits.front();
        for (double l : logits)
            largest = std::max(largest, l);
        double sum = 0;
        for (double l : logits)
            sum += std::exp(l - largest);
        const double logSumExp = largest + std::log(sum);

        // 4. weight = e^l / (e^l + Σ e^l_j) ⇔ l = log(weight / (1 − weight)) + log Σ e^l_j.
        const double target = (std::log(weight / (1.0 - weight)) + logSumExp) / scale;
        g.row(h) = (wkh.transpose() * qh).transpose();
        rhs(h) = target - qh.dot(bkh);
    }

    // 5. The shortest x with G x = t − c.
    const VectorD x = g.transpose() * (g * g.transpose()).ldlt().solve(rhs);
    std::vector<float> values(static_cast<std::size_t>(C));
    for (int c = 0; c < C; ++c)
        values[static_cast<std::size_t>(c)] = static_cast<float>(x(c));
    return values;
}

// Cross-attention as a translation decoder uses it: the vectors of the source words (the
// keys) are designed so that each target word's query (the rows) gives its aligned source
// words kAlignedShare of its weight together, in every head.
//
// For a key x_j the logit of query i in head h is linear in x_j, as in designAntecedent:
//     l_ih(x_j) = scale · q_ih · (W_k^h x_j + b_k^h).
// The target is t_i for the keys aligned with query i and 0 for the others, so that the
// n_i aligned keys of the T_k share e^t_i·n_i / (e^t_i·n_i + T_k − n_i) = kAlignedShare:
//     e^t_i = kAlignedShare (T_k − n_i) / ((1 − kAlignedShare) n_i).
// That is H·T_q equations in C unknowns per key, solved for the shortest x_j.
constexpr double kAlignedShare = 0.8;

std::map<std::string, std::vector<float>>
designAlignment(const Config& config, const std::vector<std::string>& queries,
                const std::vector<std::string>& keys, const std::vector<std::vector<int>>& aligned)
{
    const int C = config.dModel, H = config.heads, dK = config.dK();
    const int Tq = static_cast<int>(queries.size()), Tk = static_cast<int>(keys.size());
    const double scale = scaleFactor(config) / config.temperature;

    // 1. The layers, as engine.cpp draws them in mode "table": W_q first, then W_k.
    TorchGenerator generator(config.seed);
    const Linear wq = generator.linear(C, C);
    const Linear wk = generator.linear(C, C);

    // 2. One equation per (query i, head h): g_ihᵀ x = target − scale · q_ih · b_k^h.
    MatrixD g(H * Tq, C);
    VectorD offset(H * Tq);
    std::vector<double> alignedTarget(static_cast<std::size_t>(Tq));
    for (int i = 0; i < Tq; ++i) {
        const VectorD x =
            tokenVector(config.seed, queries[static_cast<std::size_t>(i)], C).cast<double>();
        const VectorD q = wq.weight.cast<double>() * x + wq.bias.cast<double>();
        // n: how many keys are aligned with query i.
        const auto n = static_cast<int>(
            std::count_if(aligned.begin(), aligned.end(), [i](const std::vector<int>& rows) {
                return std::find(rows.begin(), rows.end(), i) != rows.end();
            }));
        alignedTarget[static_cast<std::size_t>(i)] =
            n > 0 ? std::log(kAlignedShare * (Tk - n) / ((1.0 - kAlignedShare) * n)) : 0.0;
        for (int h = 0; h < H; ++h) {
            const VectorD qh = q.segment(h * dK, dK);
            const MatrixD wkh = wk.weight.middleRows(h * dK, dK).cast<double>();
            const VectorD bkh = wk.bias.segment(h * dK, dK).cast<double>();
            g.row(h * Tq + i) = scale * (wkh.transpose() * qh).transpose();
            offset(h * Tq + i) = scale * qh.dot(bkh);
        }
    }

    // 3. Each key's shortest vector.
    const Eigen::LDLT<MatrixD> gram(g * g.transpose());
    std::map<std::string, std::vector<float>> vectors;
    for (int j = 0; j < Tk; ++j) {
        VectorD target = -offset;
        for (int i : aligned[static_cast<std::size_t>(j)])
            for (int h = 0; h < H; ++h)
                target(h * Tq + i) += alignedTarget[static_cast<std::size_t>(i)];
        const VectorD x = g.transpose() * gram.solve(target);
        std::vector<float>& values = vectors[keys[static_cast<std::size_t>(j)]];
        for (int c = 0; c < C; ++c)
            values.push_back(static_cast<float>(x(c)));
    }
    return vectors;
}

// The lessons with designed vectors: seed 42, C = 16, 2 heads, the table embedding and no
// positional encoding, because a design assumes x is exactly the vectors it solved for.
Config designedLessonConfig()
{
    Config config;
    config.tokenizer = TokenizerMode::Spaces;
    config.seed = 42;
    config.dModel = 16;
    config.heads = 2;
    config.embedding = EmbeddingMode::Table;
    config.positional = Positional::None;
    return config;
}

// A decoder writing Chinese attends to the English source: 我 → I, 爱 → love,
// 机器学习 → machine and learning. T_q = 3 rows, T_k = 4 columns.
Request crossAttention()
{
    Config config = designedLessonConfig();
    config.attention = AttentionKind::Cross;

    const std::string target = "我 爱 机器学习";
    const std::string source = "I love machine learning";
    Request lesson = request(target, config);
    lesson.crossText = source;
    // The query rows each key is aligned with: I ← 我, love ← 爱, machine, learning ← 机器学习.
    lesson.embeddingOverrides =
        designAlignment(config, tokenizeLine(target, config.tokenizer),
                        tokenizeLine(source, config.tokenizer), {{0}, {1}, {2}, {2}});
    return lesson;
}

// A coreference lesson on `text` (one line, tokens separated by spaces): `pronoun`'s row puts
// kCoreferenceWeight on `antecedent` in every head, by design.
constexpr double kCoreferenceWeight = 0.8;

Request coreference(std::string text, const std::string& pronoun, const std::string& antecedent)
{
    const Config config = designedLessonConfig();

    const std::vector<std::string> tokens = tokenizeLine(text, config.tokenizer);
    Request lesson = request(std::move(text), config);
    lesson.embeddingOverrides[antecedent] =
        designAntecedent(config, tokens, pronoun, antecedent, kCoreferenceWeight);
    return lesson;
}

// The lessons of today's models' switches (options.h), each one switch on a classic preset's
// set-up, so that the switch is the only thing that differs from the formula of 2017.
void addTodaysLessons(std::vector<Preset>& list)
{
    const std::string sentence = "The cat sat on the mat because it was tired .";

    Config gqa;
    gqa.heads = 8;
    gqa.kvHeads = 2;
    list.push_back(
        {"gqa", "8 query heads share 2 K/V heads: heads 0-3 read K/V head 0, heads 4-7 head 1",
         QT_TRANSLATE_NOOP("Presets", "Grouped-query attention: 8 query heads share 2 K/V heads."),
         request(sentence, gqa)});

    // A repeated pair: with RoPE the score of (b, a) at distance 1 is the same at 1, 4 and 7.
    Config rope;
    rope.tokenizer = TokenizerMode::Spaces;
    rope.heads = 2;
    rope.positional = Positional::Rope;
    list.push_back(
        {"rope-distance",
         "RoPE: the score of a pair depends only on its distance, not on where it stands",
         QT_TRANSLATE_NOOP("Presets", "RoPE: the same two tokens, the same distance, "
                                      "the same score wherever they stand."),
         request("a b c a b d a b", rope)});

    Config saturation;
    saturation.dModel = 512;
    saturation.heads = 1;
    saturation.scale = ScaleMode::None;
    Config qkNorm = saturation;
    qkNorm.qkNorm = true;
    list.push_back(
        {"qk-norm", "QK-norm without √d_k: every |logit| ≤ d_k, but the std doubles to 21.1494",
         QT_TRANSLATE_NOOP("Presets", "QK-norm bounds the logits but does not replace ÷√d_k."),
         request(sentence, qkNorm)});

    Config alibi;
    alibi.heads = 8;
    alibi.positional = Positional::None;
    alibi.alibi = true;
    list.push_back({"alibi", "ALiBi: no position embeddings, a band along the diagonal in head 0",
                    QT_TRANSLATE_NOOP("Presets", "ALiBi: positions without embeddings, weights "
                                                 "that fade with the distance."),
                    request(sentence, alibi)});

    Config softcap = saturation;
    softcap.softcap = 10;
    list.push_back({"softcap", "the saturation preset capped at c = 10: no row one-hot",
                    QT_TRANSLATE_NOOP("Presets", "Soft-capping the saturated logits: c·tanh(L/c) "
                                                 "keeps the rows from going one-hot."),
                    request(sentence, softcap)});

    Config window;
    window.mask = MaskKind::Causal;
    window.window = 4;
    list.push_back(
        {"sliding-window", "a causal mask with a sliding window of 4: each row sees 4 keys",
         QT_TRANSLATE_NOOP("Presets",
                           "A sliding window of 4 keys: a causal band instead of a triangle."),
         request("The cat sat on the mat because it was tired , and the dog slept under the "
                 "old table all day .",
                 window)});

    Config sink;
    sink.mask = MaskKind::Causal;
    sink.sink = 1.0f;
    list.push_back({"attention-sink",
                    "a sink logit s = 1: the first token no longer takes the weight of row 0",
                    QT_TRANSLATE_NOOP("Presets", "An attention sink: a head with nothing to "
                                                 "attend to rests on the sink, not on token 0."),
                    request(sentence, sink)});
}

std::vector<Preset> makePresets()
{
    std::vector<Preset> list;

    // The tutorial's program: seed 42, B=2, T=4, C=16, x = torch.randn(B, T, C).
    Config article;
    article.tokenizer = TokenizerMode::Spaces;
    article.seed = 42;
    article.dModel = 16;
    article.heads = 1;
    article.embedding = EmbeddingMode::Torch;
    article.positional = Positional::None;
    list.push_back({"article", "the tutorial's program: std 1.1888 before scaling, 0.2972 after",
                    QT_TRANSLATE_NOOP("Presets", "The tutorial's 20 lines, number for number."),
                    request("我 喜欢 这个 产品\n它 的 设计 很好", article)});

    Config saturation;
    saturation.dModel = 512;
    saturation.heads = 1;
    saturation.scale = ScaleMode::None;
    list.push_back({"saturation", "C = 512 without √d_k: the softmax saturates to one-hot",
                    QT_TRANSLATE_NOOP(
                        "Presets", "Forgetting ÷√d_k at d_model 512: the softmax turns one-hot."),
                    request("The cat sat on the mat because it was tired .", saturation)});

    Config queries;
    queries.axis = SoftmaxAxis::Queries;
    list.push_back(
        {"wrong-axis-queries", "softmax over dim=-2: columns sum to 1, rows do not",
         QT_TRANSLATE_NOOP("Presets", "softmax(dim=-2): the columns sum to 1, the rows do not."),
         request("The cat sat on the mat because it was tired .", queries)});

    Config batch;
    batch.axis = SoftmaxAxis::Batch;
    list.push_back(
        {"wrong-axis-batch", "softmax over dim=0: the two sentences share each weight",
         QT_TRANSLATE_NOOP("Presets", "softmax(dim=0): the two sentences share each weight."),
         request("The cat sat on the mat .\nA dog slept under the table .", batch)});

    Config causal;
    causal.mask = MaskKind::Causal;
    list.push_back(
        {"causal-decoder", "a decoder's causal mask: no token sees the future",
         QT_TRANSLATE_NOOP("Presets", "The causal mask of a decoder: no token sees the future."),
         request("The cat sat on the mat because it was tired .", causal)});

    Config view;
    view.headSplit = HeadSplit::View;
    list.push_back(
        {"head-split-bug", "view(B, H, T, d_k) instead of transpose: heads mix tokens",
         QT_TRANSLATE_NOOP("Presets", "view(B, H, T, d_k) instead of transpose: heads mix tokens."),
         request("The cat sat on the mat because it was tired .", view)});

    Config after;
    after.mask = MaskKind::Causal;
    after.maskStage = MaskStage::AfterSoftmax;
    list.push_back(
        {"mask-after-softmax", "masking after the softmax: rows no longer sum to 1",
         QT_TRANSLATE_NOOP("Presets", "Masking after the softmax: the rows no longer sum to 1."),
         request("The cat sat on the mat because it was tired .", after)});

    // The padding mask hides a <pad> key from every query, so over the keys no row is
    // ever fully masked. Over the queries (dim=-2) a <pad> key's column is: every entry
    // of the slice the softmax normalises is masked, and -inf turns it into 0/0.
    Config fullyMasked;
    fullyMasked.tokenizer = TokenizerMode::Spaces;
    fullyMasked.axis = SoftmaxAxis::Queries;
    fullyMasked.maskFill = MaskFill::NegInf;
    fullyMasked.paddingMask = true;
    list.push_back(
        {"fully-masked-row",
         "a softmax slice with every entry masked: NaN with -inf, uniform with -1e9",
         QT_TRANSLATE_NOOP("Presets",
                           "Every entry of a softmax masked: NaN with -inf, uniform with -1e9."),
         request("The cat sat on the mat .\nThe cat slept .", fullyMasked)});

    list.push_back(
        {"cross-attention",
         "queries from 我 爱 机器学习, keys and values from \"I love machine learning\"",
         QT_TRANSLATE_NOOP(
             "Presets",
             "Queries from one sentence, keys and values from another: T_q × T_k heatmaps."),
         crossAttention()});
    list.push_back(
        {"coreference",
         "exercise 3: a designed vector for 猫 draws 它's attention to 猫 in every head",
         QT_TRANSLATE_NOOP("Presets",
                           "Exercise 3: a designed vector for 猫 draws 它's attention to 猫."),
         coreference("猫 坐 在 垫子 上 因为 它 累 了", "它", "猫")});
    list.push_back(
        {"coreference-en",
         "exercise 3 in English: a designed vector for \"cat\" draws the attention of \"it\"",
         QT_TRANSLATE_NOOP(
             "Presets",
             "Exercise 3 in English: a designed vector for “cat” draws the attention of “it”."),
         coreference("The cat sat on the mat because it was tired", "it", "cat")});

    addTodaysLessons(list);
    return list;
}

} // namespace

const std::vector<Preset>& presets()
{
    static const std::vector<Preset> list = makePresets();
    return list;
}

const Preset* findPreset(std::string_view name)
{
    for (const Preset& preset : presets())
        if (preset.name == name)
            return &preset;
    return nullptr;
}

} // namespace attn
