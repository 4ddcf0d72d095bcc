#include "engine/embedding.h"

#include "base/parallel.h"
#include "engine/torchrng.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>

namespace attn {
namespace {

// splitmix64: spreads every bit of its input over the output.
std::uint64_t mix(std::uint64_t z)
{
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// FNV-1a over the token's UTF-8 bytes: stable on every platform, unlike std::hash.
std::uint64_t fnv1a(const std::string& text)
{
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (unsigned char byte : text) {
        hash ^= byte;
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

} // namespace

Vector tokenVector(std::uint64_t seed, const std::string& token, int dModel)
{
    TorchGenerator generator(mix(seed ^ mix(fnv1a(token))));
    Vector v(dModel);
    generator.randn(v.data(), static_cast<std::size_t>(dModel));
    return v;
}

Matrix sinusoidalEncoding(int length, int dModel)
{
    // PE(pos, 2i) = sin(pos / 10000^(2i/C)), PE(pos, 2i+1) = cos(pos / 10000^(2i/C)).
    Matrix pe(length, dModel); // (T, C)
    // 1. One frequency per pair of columns, computed once rather than per position.
    std::vector<double> frequency(static_cast<std::size_t>(dModel));
    for (int c = 0; c < dModel; ++c)
        frequency[static_cast<std::size_t>(c)] =
            1.0 / std::pow(10000.0, 2.0 * (c / 2) / static_cast<double>(dModel));
    // 2. sin on even columns, cos on odd ones; the positions on every core (T·C calls of
    // sin or cos are most of this stage's time at long T).
    const int parts = std::min(length, 4 * coreCount());
    parallelFor(parts, [&](int part) {
        for (int pos = length * part / parts; pos < length * (part + 1) / parts; ++pos)
            for (int c = 0; c < dModel; ++c) {
                const double angle = pos * frequency[static_cast<std::size_t>(c)];
                pe(pos, c) = static_cast<float>(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
            }
    });
    return pe;
}

std::shared_ptr<const Matrix> sharedSinusoidalEncoding(int length, int dModel)
{
    // Row pos depends on pos and C alone, so the rows of the longest encoding made so far
    // serve every shorter sentence: typing changes T at every word.
    constexpr double kKeptBytes = 64.0 * 1024 * 1024;
    static std::mutex mutex; // two engines may embed at once (the compare dialog)
    static std::shared_ptr<const Matrix> kept;
    {
        std::lock_guard lock(mutex);
        if (kept && kept->cols() == dModel && kept->rows() >= length)
            return kept;
    }
    auto made = std::make_shared<const Matrix>(sinusoidalEncoding(length, dModel));
    if (double(length) * dModel * sizeof(float) <= kKeptBytes) {
        std::lock_guard lock(mutex);
        if (!kept || kept->cols() != dModel || kept->rows() < length)
            kept = made;
    }
    return made;
}

std::vector<Matrix> embed(const TokenBatch& tokens, const Config& config,
                          const std::map<std::string, std::vector<float>>& overrides,
                          TorchGenerator& generator)
{
    const int B = tokens.batch();
    const int T = tokens.length();
    const int C = config.dModel;
    std::vector<Matrix> x(static_cast<std::size_t>(B), Matrix(T, C)); // B × (T, C)

    if (config.embedding == EmbeddingMode::Torch) {
        // 1. x = torch.randn(B, T, C): one call over the contiguous B·T·C values.
        std::vector<float> values(static_cast<std::size_t>(B) * T * C);
        generator.randn(values.data(), values.size());
        for (int b = 0; b < B; ++b)
            x[static_cast<std::size_t>(b)] =
                Eigen::Map<const Matrix>(values.data() + static_cast<std::size_t>(b) * T * C, T, C);
    } else {
        // 1. One vector per distinct token string; hand-set vectors take precedence.
        std::map<std::string, Vector> table;
        for (int b = 0; b < B; ++b) {
            for (int t = 0; t < T; ++t) {
                const std::string& token =
                    tokens.tokens[static_cast<std::size_t>(b)][static_cast<std::size_t>(t)];
                auto it = table.find(token);
                if (it == table.end()) {
                    Vector v;
                    if (auto o = overrides.find(token);
                        o != overrides.end() && static_cast<int>(o->second.size()) == C)
                        v = Eigen::Map<const Vector>(o->second.data(), C);
                    else
                        v = tokenVector(config.seed, token, C);
                    it = table.emplace(token, std::move(v)).first;
                }
                x[static_cast<std::size_t>(b)].row(t) = it->second.transpose();
            }
        }
    }

    // 2. Position is added on top, so equal tokens at different places differ.
    if (config.positional == Positional::Sinusoidal) {
        const std::shared_ptr<const Matrix> pe = sharedSinusoidalEncoding(T, C);
        for (auto& xb : x)
            xb += pe->topRows(T);
    }
    return x;
}

} // namespace attn
