#include "engine/positions.h"

#include "base/parallel.h"
#include "engine/projection.h"

#include <cmath>

namespace attn {
namespace {

// HF's _compute_llama3_parameters on one frequency, in float as torch's float32 tensors.
float llama3Frequency(float inverse, const RopeScaling& s)
{
    const float factor = float(s.factor), low = float(s.lowFreqFactor),
                high = float(s.highFreqFactor), original = float(s.originalPositions);
    const float lowWavelength = original / low, highWavelength = original / high;
    const float wavelength = float(2 * 3.14159265358979323846) / inverse;
    if (wavelength < highWavelength)
        return inverse;
    if (wavelength > lowWavelength)
        return inverse / factor;
    const float smooth = (original / wavelength - low) / (high - low);
    return (1 - smooth) * inverse / factor + smooth * inverse;
}

} // namespace

RotaryTable rotaryTable(int T, int headDim, double theta, const RopeScaling& scaling)
{
    // inv_freq = 1 / θ^(arange(0, d, 2) / d), rounded as torch's: the exponent a float, the
    // power rounded to float, then 1.0f / it; freqs = t · inv_freq in float.
    const int half = headDim / 2;
    RotaryTable table;
    table.cos.resize(T, headDim);
    table.sin.resize(T, headDim);
    for (int i = 0; i < half; ++i) {
        const float exponent = float(2 * i) / float(headDim);
        float inverse = 1.0f / float(std::pow(theta, double(exponent)));
        if (scaling.type == RopeScaling::Type::Linear)
            inverse /= float(scaling.factor);
        else if (scaling.type == RopeScaling::Type::Llama3)
            inverse = llama3Frequency(inverse, scaling);
        if (!scaling.frequencyFactors.empty())
            inverse /= scaling.frequencyFactors[std::size_t(i)];
        for (int t = 0; t < T; ++t) {
            const float angle = float(t) * inverse;
            table.cos(t, i) = table.cos(t, i + half) = std::cos(angle);
            table.sin(t, i) = table.sin(t, i + half) = std::sin(angle);
        }
    }
    return table;
}

void applyRotary(Matrix& x, const RotaryTable& table)
{
    // x: (T, d_k); halves x₁ = x[:, :d/2], x₂ = x[:, d/2:]
    const Eigen::Index half = x.cols() / 2;
    for (Eigen::Index t = 0; t < x.rows(); ++t)
        for (Eigen::Index i = 0; i < half; ++i) {
            const float x1 = x(t, i), x2 = x(t, i + half);
            x(t, i) = x1 * table.cos(t, i) + -x2 * table.sin(t, i);
            x(t, i + half) = x2 * table.cos(t, i + half) + x1 * table.sin(t, i + half);
        }
}

void rmsNormRowsUnit(Matrix& x, double epsilon)
{
    // mean(x²) summed in double; rsqrt and the product in float, as torch's.
    for (Eigen::Index t = 0; t < x.rows(); ++t) {
        double squares = 0;
        for (Eigen::Index c = 0; c < x.cols(); ++c)
            squares += double(x(t, c)) * double(x(t, c));
        const float rstd = float(1.0 / std::sqrt(squares / double(x.cols()) + epsilon));
        x.row(t) *= rstd;
    }
}

float alibiSlope(int h, int H)
{
    // closest_power_of_2 = 2^⌊log2 H⌋; base = 2^(−2^−(log2 n − 3)) = 2^(−8/n) in float, and
    // slopes = base^(1..n); the remaining heads take extra_base = 2^(−4/n)'s odd powers.
    int n = 1;
    while (n * 2 <= H)
        n *= 2;
    if (h < n) {
        const float base = float(std::pow(2.0, -8.0 / n));
        return std::pow(base, float(h + 1));
    }
    const float extraBase = float(std::pow(2.0, -4.0 / n));
    return std::pow(extraBase, float(2 * (h - n) + 1));
}

bool transformsHeads(const Config& config)
{
    return config.qkNorm || config.positional == Positional::Rope ||
           config.kvHeadCount() != config.heads;
}

void transformHeads(const Config& config, HeadStack& q, HeadStack& k)
{
    const bool rope = config.positional == Positional::Rope;
    if (!config.qkNorm && !rope)
        return;
    const int B = q.batch();
    const int dK = config.dK();
    const int Hq = q.heads(), Hk = k.heads();
    const auto rows = [](const HeadStack& s) { return s.empty() ? 0 : int(s.at(0, 0).rows()); };
    const RotaryTable queries = rope ? rotaryTable(rows(q), dK, config.ropeTheta) : RotaryTable{};
    const RotaryTable keys = rope ? rotaryTable(rows(k), dK, config.ropeTheta) : RotaryTable{};
    parallelFor(B * (Hq + Hk), [&](int item) {
        const int b = item / (Hq + Hk), head = item % (Hq + Hk);
        const bool isQuery = head < Hq;
        Matrix& x = isQuery ? q.at(b, head) : k.at(b, head - Hq);
        if (config.qkNorm)
            rmsNormRowsUnit(x, kQkNormEpsilon);
        if (rope)
            applyRotary(x, isQuery ? queries : keys);
    });
}

void repeatKvHeads(const HeadStack& kv, int H, HeadStack& out)
{
    const int B = kv.batch(), K = kv.heads();
    if (kv.empty()) {
        out.reshape(B, H, 0, 0);
        return;
    }
    const Matrix& first = kv.at(0, 0);
    out.reshape(B, H, first.rows(), first.cols());
    for (int b = 0; b < B; ++b)
        for (int h = 0; h < H; ++h)
            out.at(b, h) = kv.at(b, h / (H / K));
}

HeadTransformSteps headTransformSteps(const Config& config, const Matrix& projected, int heads,
                                      int head)
{
    HeadTransformSteps steps;
    const std::vector<Matrix> sequence{projected};
    HeadStack split;
    splitHeads({{&sequence, &split}}, heads, config.headSplit);
    steps.split = split.at(0, head);
    Matrix x = steps.split;
    if (config.qkNorm) {
        rmsNormRowsUnit(x, kQkNormEpsilon);
        steps.normed = x;
    }
    if (config.positional == Positional::Rope) {
        applyRotary(x, rotaryTable(int(x.rows()), int(x.cols()), config.ropeTheta));
        steps.rotated = std::move(x);
    }
    return steps;
}

} // namespace attn
