#include "modelkernels.h"

#include "parallel.h"

#include <algorithm>
#include <cmath>

namespace attn {

void layerNorm(const Matrix& x, const WeightView& weight, const WeightView& bias, double epsilon,
               Matrix& y)
{
    // x, y: (T, C)
    const Eigen::Index T = x.rows(), C = x.cols();
    y.resize(T, C);
    const auto w = weight.row();
    const auto b = bias.row();
    constexpr Eigen::Index kRows = 64; // bands of rows on every core
    parallelFor(int((T + kRows - 1) / kRows), [&](int band) {
        for (Eigen::Index t = band * kRows; t < std::min(T, (band + 1) * kRows); ++t) {
            // 1. mean and biased variance, summed in double so that a row of large values
            //    loses nothing to cancellation.
            double sum = 0, squares = 0;
            for (Eigen::Index c = 0; c < C; ++c)
                sum += x(t, c);
            const double mean = sum / double(C);
            for (Eigen::Index c = 0; c < C; ++c) {
                const double d = x(t, c) - mean;
                squares += d * d;
            }
            const double rstd = 1.0 / std::sqrt(squares / double(C) + epsilon);
            // 2. normalize, then scale and shift.
            for (Eigen::Index c = 0; c < C; ++c)
                y(t, c) = float((x(t, c) - mean) * rstd) * w(c) + b(c);
        }
    });
}

void geluTanh(Matrix& x)
{
    // Eigen's vectorised tanh, in bands of rows on every core: at T = 1024 GPT-2 small
    // takes 38 million of them a forward, a second with std::tanh.
    const float k = std::sqrt(2.0f / float(M_PI));
    constexpr Eigen::Index kRows = 32;
    const int bands = int((x.rows() + kRows - 1) / kRows);
    parallelFor(bands, [&](int band) {
        const Eigen::Index row = band * kRows, rows = std::min(kRows, x.rows() - row);
        auto u = x.middleRows(row, rows).array();
        u = 0.5f * u * (1.0f + (k * (u + 0.044715f * u * u * u)).tanh());
    });
}

void conv1d(const Matrix& x, const WeightView& weight, const WeightView& bias, Matrix& y)
{
    // x: (T, in), W: (in, N) → y: (T, N)
    const Eigen::Index T = x.rows(), N = weight.cols;
    y.resize(T, N);
    const Eigen::Map<const Matrix> w = weight.matrix();
    const auto b = bias.row();
    // Tiles of 256 rows × 384 columns: GPT-2's widths (768, 2304, 3072) split into an
    // even count of them, enough to keep both cores busy at T = 128, each large enough
    // for sgemm's own blocking (smaller tiles cost 10–15 % in packing at T = 128).
    constexpr Eigen::Index kRows = 256, kCols = 384;
    const int rowTiles = int((T + kRows - 1) / kRows);
    const int colTiles = int((N + kCols - 1) / kCols);
    parallelFor(rowTiles * colTiles, [&](int item) {
        const Eigen::Index r = Eigen::Index(item / colTiles) * kRows;
        const Eigen::Index c = Eigen::Index(item % colTiles) * kCols;
        const Eigen::Index rows = std::min(kRows, T - r), cols = std::min(kCols, N - c);
        auto tile = y.block(r, c, rows, cols);
        tile.noalias() = x.middleRows(r, rows) * w.middleCols(c, cols);
        tile.rowwise() += b.segment(c, cols);
    });
}

void rmsNormRows(Matrix& x, const WeightView& weight, double epsilon)
{
    // x: (T, n) in place
    const Eigen::Index T = x.rows(), n = x.cols();
    const auto w = weight.row();
    constexpr Eigen::Index kRows = 64;
    parallelFor(int((T + kRows - 1) / kRows), [&](int band) {
        for (Eigen::Index t = band * kRows; t < std::min(T, (band + 1) * kRows); ++t) {
            // mean(x²) summed in double; rsqrt and the products in float, as torch's.
            double squares = 0;
            for (Eigen::Index c = 0; c < n; ++c)
                squares += double(x(t, c)) * double(x(t, c));
            const float rstd = float(1.0 / std::sqrt(squares / double(n) + epsilon));
            for (Eigen::Index c = 0; c < n; ++c)
                x(t, c) = w(c) * (x(t, c) * rstd);
        }
    });
}

void rmsNorm(const Matrix& x, const WeightView& weight, double epsilon, Matrix& y)
{
    y = x;
    rmsNormRows(y, weight, epsilon);
}

void siluMultiply(Matrix& gate, const Matrix& up)
{
    constexpr Eigen::Index kRows = 32;
    const int bands = int((gate.rows() + kRows - 1) / kRows);
    parallelFor(bands, [&](int band) {
        const Eigen::Index row = band * kRows, rows = std::min(kRows, gate.rows() - row);
        auto g = gate.middleRows(row, rows).array();
        g = g / (1.0f + (-g).exp()) * up.middleRows(row, rows).array();
    });
}

void linear(const Matrix& x, const WeightView& weight, const WeightView& bias, Matrix& y)
{
    // x: (T, in), W: (N, in) → y: (T, N)
    const Eigen::Index T = x.rows(), N = weight.rows;
    y.resize(T, N);
    const Eigen::Map<const Matrix> w = weight.matrix();
    constexpr Eigen::Index kRows = 256, kCols = 384;
    const int rowTiles = int((T + kRows - 1) / kRows);
    const int colTiles = int((N + kCols - 1) / kCols);
    parallelFor(rowTiles * colTiles, [&](int item) {
        const Eigen::Index r = Eigen::Index(item / colTiles) * kRows;
        const Eigen::Index c = Eigen::Index(item % colTiles) * kCols;
        const Eigen::Index rows = std::min(kRows, T - r), cols = std::min(kCols, N - c);
        auto tile = y.block(r, c, rows, cols);
        tile.noalias() = x.middleRows(r, rows) * w.middleRows(c, cols).transpose();
        if (bias.data)
            tile.rowwise() += bias.row().segment(c, cols);
    });
}

} // namespace attn
