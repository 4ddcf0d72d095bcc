// A read-mostly matrix that a heatmap shares with the engine's result instead of copying.
#pragma once

#include "base/tensor.h"

#include <memory>

namespace attn::ui {

// Holds either a matrix of its own or one inside a result's stage (keeping that stage
// alive, so the engine's buffer recycler will not write into it while a view shows it).
// Copies share; edit() makes a private copy first when anybody else holds the matrix.
template <typename M> class SharedMatrix {
public:
    using Scalar = typename M::Scalar;

    SharedMatrix() = default;
    // A matrix of its own (computed for the view: a mean, a difference, a test's cells).
    SharedMatrix(M owned) // NOLINT(google-explicit-constructor): assigned like a matrix
    {
        auto own = std::make_shared<M>(std::move(owned));
        owned_ = own.get();
        matrix_ = owned_;
        owner_ = std::move(own);
    }
    // An Eigen expression's values, as a matrix of its own.
    template <typename Derived>
    SharedMatrix(const Eigen::EigenBase<Derived>& values) // NOLINT(google-explicit-constructor)
        : SharedMatrix(M(values.derived()))
    {}
    // `matrix` inside an object `owner` keeps alive, e.g. one head of a result's stage.
    template <typename Owner>
    SharedMatrix(std::shared_ptr<Owner> owner, const M& matrix)
        : owner_(std::move(owner), &matrix), matrix_(&matrix)
    {}

    [[nodiscard]] const M& get() const { return matrix_ ? *matrix_ : empty(); }
    operator const M&() const { return get(); } // NOLINT(google-explicit-constructor)

    [[nodiscard]] Scalar operator()(Eigen::Index row, Eigen::Index column) const
    {
        return get()(row, column);
    }
    [[nodiscard]] Eigen::Index rows() const { return get().rows(); }
    [[nodiscard]] Eigen::Index cols() const { return get().cols(); }
    [[nodiscard]] Eigen::Index size() const { return get().size(); }
    [[nodiscard]] const Scalar* data() const { return get().data(); }
    [[nodiscard]] auto row(Eigen::Index i) const { return get().row(i); }
    [[nodiscard]] auto col(Eigen::Index j) const { return get().col(j); }

    // The matrix to write into: this handle's own, copied first if anybody else may read it.
    [[nodiscard]] M& edit()
    {
        if (!owned_ || owner_.use_count() > 1) {
            auto copy = std::make_shared<M>(get());
            owned_ = copy.get();
            matrix_ = owned_;
            owner_ = std::move(copy);
        }
        return *owned_;
    }

    // Whether both show the very same cells (no copy in between).
    [[nodiscard]] bool sharesWith(const M& other) const { return matrix_ == &other; }

private:
    static const M& empty()
    {
        static const M none;
        return none;
    }

    std::shared_ptr<const void> owner_;
    const M* matrix_ = nullptr;
    M* owned_ = nullptr; // set when owner_ is a matrix of this handle's own
};

using SharedWeights = SharedMatrix<Matrix>;
using SharedMask = SharedMatrix<MaskMatrix>;

} // namespace attn::ui
