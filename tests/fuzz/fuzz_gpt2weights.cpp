// libFuzzer target: GPT-2's weights loader (core/models/gpt2weights.cpp) through openModel,
// on arbitrary bytes as a model folder's model.safetensors. The folder's other files are
// fixed and tiny: config.json below (2 layers, 2 heads, C 4, 8 positions, n_inner 8) and
// the small vocabulary of tests/reference/gpt2/small-f32 (307 ids). The bytes either make
// openModel throw a ModelError naming model.safetensors, or a model that runs a short text
// forward (textbook, and under one switch picked by the input's size) into attention and
// hidden states of the right shapes and ten distinct predictions, most probable first.
// Any other exception, a crash or a sanitizer report is a finding.
#include "engine/engine.h"
#include "engine/options.h"
#include "models/families.h"
#include "models/languagemodel.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <system_error>

namespace {

constexpr int kLayers = 2, kHeads = 2, kDModel = 4, kVocabulary = 307;

constexpr const char* kConfig = R"({"model_type": "gpt2", "activation_function": "gelu_new",
 "n_layer": 2, "n_head": 2, "n_embd": 4, "n_positions": 8, "n_inner": 8,
 "vocab_size": 307, "layer_norm_epsilon": 1e-05})";

[[noreturn]] void broken(const char* promise)
{
    std::fprintf(stderr, "the GPT-2 weights loader broke its promise: %s\n", promise);
    std::abort();
}

void removeFolder(const std::filesystem::path& folder)
{
    std::error_code ignored;
    std::filesystem::remove_all(folder, ignored);
}

// The model folder, made once per process: config.json and the tokenizer's files.
const std::filesystem::path& folder()
{
    static const std::filesystem::path made = [] {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "attn-fuzz-gpt2-XXXXXX").string();
        if (!mkdtemp(pattern.data()))
            broken("no temporary folder");
        const std::filesystem::path path(pattern);
        std::ofstream(path / "config.json") << kConfig;
        const std::filesystem::path vocabulary(ATTN_GPT2_SMALL_DIR);
        std::filesystem::copy_file(vocabulary / "vocab.json", path / "vocab.json");
        std::filesystem::copy_file(vocabulary / "merges.txt", path / "merges.txt");
        return path;
    }();
    static const bool cleaned = [] {
        std::atexit([] { removeFolder(made); });
        return true;
    }();
    (void)cleaned;
    return made;
}

attn::ModelSwitches switchOf(std::size_t pick)
{
    attn::ModelSwitches s;
    switch (pick % 6) {
    case 1:
        s.formula.scale = attn::ScaleMode::None;
        break;
    case 2:
        s.formula.axis = attn::SoftmaxAxis::Queries;
        break;
    case 3:
        s.formula.mask = attn::MaskKind::None;
        s.onlyLayer = 1;
        break;
    case 4:
        s.formula.headSplit = attn::HeadSplit::View;
        break;
    case 5:
        s.formula.maskStage = attn::MaskStage::AfterSoftmax;
        s.formula.maskFill = attn::MaskFill::NegBillion;
        break;
    default:
        break;
    }
    return s;
}

void checkRun(const attn::ModelRun& run)
{
    const int T = int(run.ids.size());
    const attn::StackShape& s = run.attention->shape();
    if (T < 1 || s.layers != kLayers || s.sequences != 1 || s.heads != kHeads || s.queries != T ||
        s.keys != T)
        broken("attention of the wrong shape");
    if (run.hidden.rows() != T || run.hidden.cols() != kDModel)
        broken("hidden states of the wrong shape");
    for (const int position : {0, T - 1}) {
        const std::vector<attn::Prediction> top = run.predictions(position, 10);
        if (top.size() != 10)
            broken("not ten predictions");
        std::set<int> ids;
        for (std::size_t i = 0; i < top.size(); ++i) {
            if (top[i].id < 0 || top[i].id >= kVocabulary || !ids.insert(top[i].id).second)
                broken("a prediction's id outside the vocabulary, or twice");
            const float p = top[i].probability;
            if (!std::isnan(p) && (p < 0 || p > 1))
                broken("a probability outside 0 … 1");
            if (i > 0 && top[i].logit > top[i - 1].logit)
                broken("predictions not most probable first");
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::filesystem::path weights = folder() / "model.safetensors";
    {
        std::ofstream file(weights, std::ios::binary | std::ios::trunc);
        file.write(reinterpret_cast<const char*>(data), std::streamsize(size));
        if (!file)
            broken("cannot write model.safetensors");
    }
    std::shared_ptr<const attn::LanguageModel> model;
    try {
        model = attn::openModel(folder());
    } catch (const attn::ModelError& error) {
        if (error.file() != weights || error.fault().empty())
            broken("a ModelError that does not name model.safetensors and the fault");
        return 0;
    }
    const attn::ModelInfo& info = model->info();
    if (info.layers != kLayers || info.heads != kHeads || info.dModel != kDModel ||
        (info.weightType != "F32" && info.weightType != "F16" && info.weightType != "BF16"))
        broken("the model's info is not config.json's, or an unknown weight type");
    checkRun(model->run("The cat sat on", {}));
    checkRun(model->run("the dog", switchOf(size)));
    return 0;
}
