// The matrix types every stage shares.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <vector>

namespace attn {

// float32, row-major, as torch stores a contiguous tensor's last two dimensions.
using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vector = Eigen::Matrix<float, Eigen::Dynamic, 1>;
using MaskMatrix = Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// A (B, H, rows, cols) tensor stored as B·H matrices, indexed [b][h].
class HeadStack {
public:
    HeadStack() = default;
    HeadStack(int batch, int heads, Eigen::Index rows, Eigen::Index cols)
        : batch_(batch), heads_(heads), items_(static_cast<std::size_t>(batch * heads))
    {
        for (auto& m : items_)
            m.resize(rows, cols);
    }

    // Gives the stack this shape; a matrix that keeps its number of values keeps its memory
    // (and its stale values).
    void reshape(int batch, int heads, Eigen::Index rows, Eigen::Index cols)
    {
        batch_ = batch;
        heads_ = heads;
        items_.resize(static_cast<std::size_t>(batch * heads));
        for (auto& m : items_)
            m.resize(rows, cols);
    }

    [[nodiscard]] int batch() const { return batch_; }
    [[nodiscard]] int heads() const { return heads_; }
    [[nodiscard]] bool empty() const { return items_.empty(); }
    [[nodiscard]] Matrix& at(int b, int h) { return items_[index(b, h)]; }
    [[nodiscard]] const Matrix& at(int b, int h) const { return items_[index(b, h)]; }
    [[nodiscard]] std::vector<Matrix>& items() { return items_; }
    [[nodiscard]] const std::vector<Matrix>& items() const { return items_; }

private:
    [[nodiscard]] std::size_t index(int b, int h) const
    {
        return static_cast<std::size_t>(b * heads_ + h);
    }

    int batch_ = 0;
    int heads_ = 0;
    std::vector<Matrix> items_;
};

// An nn.Linear(in, out): y = x·Wᵀ + b.
struct Linear {
    Matrix weight; // (out, in)
    Vector bias;   // (out)
};

} // namespace attn
