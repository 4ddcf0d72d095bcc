#include "models/languagemodel.h"

#include "models/bertconfig.h"
#include "models/bertmodel.h"
#include "models/configfields.h"
#include "models/gpt2model.h"
#include "models/llamaconfig.h"
#include "models/llamamodel.h"
#include "text/gpt2files.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace attn {

ModelError::ModelError(const std::filesystem::path& file, const std::string& fault)
    : std::runtime_error(file.string() + ": " + fault), file_(file), fault_(fault)
{}

Config ModelSwitches::textbookFormula(bool causal)
{
    Config formula;
    formula.scale = ScaleMode::SqrtDk;
    formula.temperature = 1.0f;
    formula.axis = SoftmaxAxis::Keys;
    formula.mask = causal ? MaskKind::Causal : MaskKind::None;
    formula.maskFill = MaskFill::NegInf;
    formula.maskStage = MaskStage::BeforeSoftmax;
    formula.headSplit = HeadSplit::Transpose;
    formula.paddingMask = false;
    return formula;
}

std::vector<float> ModelRun::logits(int position) const
{
    if (position < 0 || position >= hidden.rows())
        throw std::out_of_range("position " + std::to_string(position) + " outside 0 … " +
                                std::to_string(hidden.rows() - 1));
    return model->logitsOf(hidden.row(position).data());
}

std::vector<Prediction> ModelRun::predictions(int position, int k) const
{
    const std::vector<float> z = logits(position);
    const int V = int(z.size());
    // softmax(z): subtract the maximum only for numerical stability; sum in double.
    const float top = *std::max_element(z.begin(), z.end());
    double sum = 0;
    for (float value : z)
        sum += std::exp(double(value) - double(top));
    // The k largest logits (the same order as their probabilities), ties by lower id.
    std::vector<int> order(static_cast<std::size_t>(V));
    std::iota(order.begin(), order.end(), 0);
    const int count = std::clamp(k, 0, V);
    std::partial_sort(order.begin(), order.begin() + count, order.end(), [&](int a, int b) {
        // NaN logits (weights with NaN or inf in them) last, so that the order stays a
        // strict weak ordering: numbers most probable first, ties and NaNs by lower id.
        const float za = z[std::size_t(a)], zb = z[std::size_t(b)];
        const bool nanA = std::isnan(za), nanB = std::isnan(zb);
        if (nanA != nanB)
            return nanB;
        return !nanA && za != zb ? za > zb : a < b;
    });
    std::vector<Prediction> out;
    out.reserve(std::size_t(count));
    for (int i = 0; i < count; ++i) {
        const int id = order[std::size_t(i)];
        Prediction p;
        p.id = id;
        p.token = model->tokenSpelling(id);
        p.label = model->tokenLabel(id);
        p.logit = z[std::size_t(id)];
        p.probability = float(std::exp(double(p.logit) - double(top)) / sum);
        out.push_back(std::move(p));
    }
    return out;
}

std::vector<int> ModelRun::maskedPositions() const
{
    std::vector<int> positions;
    const std::optional<int> mask = model ? model->maskId() : std::nullopt;
    for (std::size_t t = 0; mask && t < ids.size(); ++t)
        if (ids[t] == *mask)
            positions.push_back(int(t));
    return positions;
}

std::string modelName(const std::filesystem::path& folder)
{
    // The hub's cache: …/models--openai-community--gpt2/snapshots/<revision>/.
    const std::filesystem::path path = folder.filename().empty() ? folder.parent_path() : folder;
    const std::filesystem::path snapshots = path.parent_path();
    const std::string repository = snapshots.parent_path().filename().string();
    if (snapshots.filename() == "snapshots" && repository.starts_with("models--")) {
        std::string name = repository.substr(std::string("models--").size());
        for (std::size_t at = name.find("--"); at != std::string::npos; at = name.find("--", at))
            name.replace(at, 2, "/");
        return name;
    }
    return path.filename().string();
}

std::shared_ptr<const LanguageModel> openModel(const std::filesystem::path& folder)
{
    if (!std::filesystem::is_directory(folder))
        throw ModelError(folder, "not a folder");
    if (!std::filesystem::exists(folder / "config.json"))
        throw ModelError(folder / "config.json", "missing: a model folder holds config.json, "
                                                 "model.safetensors, vocab.json and merges.txt");
    // Every family reads its own config: model_type picks the family, GPT-2's reader
    // refusing any model_type no family has.
    const std::filesystem::path configFile = folder / "config.json";
    std::string text;
    try {
        text = readTokenizerFile(configFile);
    } catch (const TokenizerFileError& error) {
        throw ModelError(configFile, error.fault());
    }
    const JsonValue config = parseConfigObject(text, configFile);
    if (const JsonValue* type = config.find("model_type");
        type && type->isString() && isLlamaFamily(type->text()))
        return LlamaModel::open(folder);
    if (const JsonValue* type = config.find("model_type");
        type && type->isString() && isBertFamily(type->text()))
        return BertModel::open(folder);
    return Gpt2Model::open(folder);
}

} // namespace attn
