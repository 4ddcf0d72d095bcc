// The matrix types every stage shares.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace attn {

// float32, row-major, as torch stores a contiguous tensor's last two dimensions.
using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vector = Eigen::Matrix<float, Eigen::Dynamic, 1>;
using MaskMatrix = Eigen::Matrix<bool, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

namespace detail {
// The blocks of BufferAllocator from kSpareBytes on: taken from the spare or new, and given
// back to be kept as the spare or freed.
constexpr std::size_t kSpareBytes = std::size_t(8) << 20;
[[nodiscard]] void* takeBlock(std::size_t bytes);
void giveBlock(void* block, std::size_t bytes) noexcept;
} // namespace detail

// std::allocator for a model run's attention, with two differences. A vector's resize
// leaves new values default-initialised (uninitialised for float) instead of zeroing them:
// the forward writes every value anyway. And a large block freed while another is still in
// use (the run on screen while the next one is made) is kept as the spare, the spare
// before it freed, and handed out again for a block of the same size: at T = 1024 every
// layer's attention of GPT-2 small is 600 MB, and memory the kernel maps anew costs more
// than computing into it (each page faulted and zeroed, and on a virtual machine mapped by
// the host too: the first write to fresh memory ran at 0.6–4 GB/s here, against 28 GB/s
// to memory already mapped). A switch re-runs the same text: the run the window drops
// frees the block the next run takes. The spare is freed with the last block in use, so
// nothing stays behind a closed window; at most it doubles what is in use.
template <typename T> struct BufferAllocator {
    using value_type = T;
    BufferAllocator() noexcept = default;
    template <typename U> BufferAllocator(const BufferAllocator<U>&) noexcept {}
    [[nodiscard]] T* allocate(std::size_t n)
    {
        const std::size_t bytes = n * sizeof(T);
        if (bytes >= detail::kSpareBytes)
            return static_cast<T*>(detail::takeBlock(bytes));
        return std::allocator<T>().allocate(n);
    }
    void deallocate(T* p, std::size_t n) noexcept
    {
        const std::size_t bytes = n * sizeof(T);
        if (bytes >= detail::kSpareBytes)
            detail::giveBlock(p, bytes);
        else
            std::allocator<T>().deallocate(p, n);
    }
    template <typename U> void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>)
    {
        ::new (static_cast<void*>(p)) U;
    }
    template <typename U, typename... Args> void construct(U* p, Args&&... args)
    {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
    template <typename U> bool operator==(const BufferAllocator<U>&) const noexcept { return true; }
};

// Floats that a resize does not zero, their large blocks recycled (BufferAllocator): every
// layer's attention of a model run.
using FloatBuffer = std::vector<float, BufferAllocator<float>>;

// The size of BufferAllocator's spare block (0: none), for the tests.
[[nodiscard]] std::size_t spareBufferBytes() noexcept;

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

    // Gives the stack this shape, its values stale. A matrix that keeps its number of
    // values keeps its memory; one that changes it keeps its pages too (resizeKeepingPages).
    void reshape(int batch, int heads, Eigen::Index rows, Eigen::Index cols)
    {
        batch_ = batch;
        heads_ = heads;
        items_.resize(static_cast<std::size_t>(batch * heads));
        for (auto& m : items_)
            resizeKeepingPages(m, rows, cols);
    }

    // Gives `m` the shape (rows, cols), its values unspecified. A head of S or P at long T
    // is a block of its own, and new memory costs more than the arithmetic in it: the
    // kernel zeroes every page on first touch. Blocks above 32 MB (a head beyond
    // T ≈ 2900) are always mapped on their own by glibc, which gives freed ones back, so
    // these go through realloc, which moves a block's pages (mremap) and maps only the
    // difference. Smaller blocks are left to malloc: glibc keeps freed ones in its heap
    // and hands them out again, where realloc would copy.
    static void resizeKeepingPages(Matrix& m, Eigen::Index rows, Eigen::Index cols)
    {
        constexpr Eigen::Index kMappedAlone =
            (Eigen::Index(32) << 20) / Eigen::Index(sizeof(float));
        const Eigen::Index size = rows * cols;
        if (m.size() != size && m.size() > kMappedAlone && size > kMappedAlone) {
            // A row-major matrix that changes only its number of rows is resized by
            // realloc (Eigen's conservativeResize): one column, the same values, then the new
            // count, then the shape, which keeps the count.
            m.resize(m.size(), 1);
            m.conservativeResize(size, 1);
        }
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
