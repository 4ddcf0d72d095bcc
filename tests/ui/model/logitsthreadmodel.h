// A model that counts its logits made on the GUI thread, for the tests that promise none
// are made there (they are V × C products, 15 ms for GPT-2 small): pointing at a row,
// Compare A/B's predictions. Otherwise it is `inner`: its forward, logits and tokenizer.
#pragma once

#include "models/languagemodel.h"

#include <QCoreApplication>
#include <QThread>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace attn::test {

// `inner`'s tokenizer, borrowed.
class BorrowedTokenizer final : public ModelTokenizer {
public:
    explicit BorrowedTokenizer(const ModelTokenizer& inner) : inner_(inner) {}
    [[nodiscard]] std::vector<int> encodeIds(std::string_view text) const override
    {
        return inner_.encodeIds(text);
    }
    [[nodiscard]] int vocabularySize() const override { return inner_.vocabularySize(); }
    [[nodiscard]] const std::string& token(int id) const override { return inner_.token(id); }
    [[nodiscard]] std::optional<int> id(std::string_view token) const override
    {
        return inner_.id(token);
    }
    [[nodiscard]] const std::string& bytes(int id) const override { return inner_.bytes(id); }

private:
    const ModelTokenizer& inner_;
};

class LogitsThreadModel final : public LanguageModel {
public:
    explicit LogitsThreadModel(std::shared_ptr<const LanguageModel> inner)
        : LanguageModel(inner->info(), std::make_unique<BorrowedTokenizer>(*inner->tokenizer()),
                        "tokenizer.json", inner->maskId()),
          inner_(std::move(inner))
    {}
    [[nodiscard]] Forward forward(const std::vector<int>& ids, const ModelSwitches& switches,
                                  const ForwardHooks& hooks = {}) const override
    {
        return inner_->forward(ids, switches, hooks);
    }
    [[nodiscard]] std::vector<float> logitsOf(const float* hiddenRow) const override
    {
        if (QThread::currentThread() == QCoreApplication::instance()->thread())
            ++onGuiThread;
        return inner_->logitsOf(hiddenRow);
    }

    void finalNorm(const Matrix& residual, Matrix& out) const override
    {
        inner_->finalNorm(residual, out);
    }

    mutable std::atomic<int> onGuiThread{0};

private:
    [[nodiscard]] WeightView outputEmbedding() const override { return {}; } // logitsOf's own

    std::shared_ptr<const LanguageModel> inner_;
};

} // namespace attn::test
