// A model that counts its logits made on the GUI thread, for the tests that promise none
// are made there (they are V × C products, 15 ms for GPT-2 small): pointing at a row,
// Compare A/B's predictions. Otherwise it is `inner`.
#pragma once

#include "models/languagemodel.h"

#include <QCoreApplication>
#include <QThread>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace attn::test {

class LogitsThreadModel final : public LanguageModel {
public:
    explicit LogitsThreadModel(std::shared_ptr<const LanguageModel> inner)
        : inner_(std::move(inner))
    {}
    [[nodiscard]] const ModelInfo& info() const override { return inner_->info(); }
    void tokenize(const std::string& text, std::vector<int>& ids,
                  std::vector<TokenLabel>& labels) const override
    {
        inner_->tokenize(text, ids, labels);
    }
    [[nodiscard]] ModelRun run(const std::string& text, const ModelSwitches& switches,
                               const std::atomic<bool>* cancel = nullptr) const override
    {
        ModelRun run = inner_->run(text, switches, cancel);
        run.model = shared_from_this(); // its predictions() come here
        return run;
    }
    [[nodiscard]] ModelRun runIds(const std::vector<int>& ids, const ModelSwitches& switches,
                                  const std::atomic<bool>* cancel = nullptr) const override
    {
        ModelRun run = inner_->runIds(ids, switches, cancel);
        run.model = shared_from_this();
        return run;
    }
    [[nodiscard]] HeadTrace trace(const std::string& text, const ModelSwitches& switches, int layer,
                                  int head,
                                  const std::atomic<bool>* cancel = nullptr) const override
    {
        return inner_->trace(text, switches, layer, head, cancel);
    }
    [[nodiscard]] std::vector<float> logitsOf(const float* hiddenRow) const override
    {
        if (QThread::currentThread() == QCoreApplication::instance()->thread())
            ++onGuiThread;
        return inner_->logitsOf(hiddenRow);
    }
    [[nodiscard]] std::string tokenSpelling(int id) const override
    {
        return inner_->tokenSpelling(id);
    }
    [[nodiscard]] std::string tokenLabel(int id) const override { return inner_->tokenLabel(id); }

    mutable std::atomic<int> onGuiThread{0};

private:
    std::shared_ptr<const LanguageModel> inner_;
};

} // namespace attn::test
