// A tiny random GPT-2 checkpoint in Hugging Face's folder layout, written at test time:
// config.json, model.safetensors (F32), vocab.json (GPT-2's 256 byte tokens and a few
// merges) and merges.txt. Its weights are large enough that its heads are peaked, so that
// every switch of the formula changes what it predicts.
#pragma once

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace attn::test {

struct TinyGpt2 {
    int layers = 2;
    int heads = 2;
    int dModel = 16;
    int positions = 24;
    unsigned seed = 7;
    // Faults a bad checkpoint has: a tensor left out, a dtype the reader does not know, a
    // tensor of the wrong shape.
    std::string missingTensor;
    std::string wrongDtype = "F32";
    std::string transposedTensor; // its two axes swapped in the header
};

// GPT-2's printable stand-ins for the 256 bytes (OpenAI's bytes_to_unicode), as UTF-8.
inline std::vector<QString> gpt2ByteSymbols()
{
    std::vector<int> bytes;
    for (int b = '!'; b <= '~'; ++b)
        bytes.push_back(b);
    for (int b = 0xA1; b <= 0xAC; ++b)
        bytes.push_back(b);
    for (int b = 0xAE; b <= 0xFF; ++b)
        bytes.push_back(b);
    std::vector<QString> symbols(256);
    for (int b : bytes)
        symbols[std::size_t(b)] = QChar(b);
    int next = 0;
    for (int b = 0; b < 256; ++b)
        if (symbols[std::size_t(b)].isEmpty())
            symbols[std::size_t(b)] = QChar(256 + next++);
    return symbols;
}

// Writes the checkpoint into `folder` (made if missing); its path.
inline QString writeTinyGpt2(const QString& folder, const TinyGpt2& spec = {})
{
    QDir().mkpath(folder);
    const QDir dir(folder);
    const auto write = [&](const char* name, const QByteArray& bytes) {
        QFile file(dir.filePath(QString::fromLatin1(name)));
        if (file.open(QIODevice::WriteOnly))
            file.write(bytes);
    };

    // The vocabulary: the 256 bytes, then the merges' results.
    const std::vector<QString> symbols = gpt2ByteSymbols();
    QJsonObject vocab;
    for (int b = 0; b < 256; ++b)
        vocab.insert(symbols[std::size_t(b)], b);
    const std::vector<std::pair<QString, QString>> merges{
        {"Ġ", "t"},   {"h", "e"}, {"Ġt", "he"}, {"Ġ", "c"}, {"a", "t"},   {"Ġc", "at"}, {"Ġ", "s"},
        {"Ġs", "at"}, {"o", "n"}, {"Ġ", "on"},  {"Ġ", "m"}, {"Ġm", "at"}, {"T", "he"}};
    QByteArray mergesText = "#version: 0.2\n";
    int id = 256;
    for (const auto& [left, right] : merges) {
        vocab.insert(left + right, id++);
        mergesText += (left + ' ' + right + '\n').toUtf8();
    }
    write("vocab.json", QJsonDocument(vocab).toJson(QJsonDocument::Compact));
    write("merges.txt", mergesText);

    const int V = id, C = spec.dModel, P = spec.positions;
    QJsonObject config{{"model_type", "gpt2"},       {"n_layer", spec.layers},
                       {"n_head", spec.heads},       {"n_embd", C},
                       {"n_positions", P},           {"vocab_size", V},
                       {"layer_norm_epsilon", 1e-5}, {"activation_function", "gelu_new"}};
    write("config.json", QJsonDocument(config).toJson());

    // The tensors, random: normal with a standard deviation that peaks the heads.
    std::mt19937 generator(spec.seed);
    std::map<std::string, std::pair<std::vector<std::int64_t>, std::vector<float>>> tensors;
    const auto add = [&](const std::string& name, std::vector<std::int64_t> shape, float sd,
                         float mean = 0) {
        std::int64_t count = 1;
        for (std::int64_t n : shape)
            count *= n;
        std::normal_distribution<float> normal(mean, sd);
        std::vector<float> values(static_cast<std::size_t>(count));
        for (float& v : values)
            v = sd > 0 ? normal(generator) : mean;
        tensors[name] = {std::move(shape), std::move(values)};
    };
    add("wte.weight", {V, C}, 0.5f);
    add("wpe.weight", {P, C}, 0.3f);
    for (int l = 0; l < spec.layers; ++l) {
        const std::string h = "h." + std::to_string(l) + ".";
        add(h + "ln_1.weight", {C}, 0, 1);
        add(h + "ln_1.bias", {C}, 0);
        add(h + "attn.c_attn.weight", {C, 3 * C}, 0.6f);
        add(h + "attn.c_attn.bias", {3 * C}, 0.1f);
        add(h + "attn.c_proj.weight", {C, C}, 0.3f);
        add(h + "attn.c_proj.bias", {C}, 0.02f);
        add(h + "ln_2.weight", {C}, 0, 1);
        add(h + "ln_2.bias", {C}, 0);
        add(h + "mlp.c_fc.weight", {C, 4 * C}, 0.2f);
        add(h + "mlp.c_fc.bias", {4 * C}, 0.02f);
        add(h + "mlp.c_proj.weight", {4 * C, C}, 0.2f);
        add(h + "mlp.c_proj.bias", {C}, 0.02f);
    }
    add("ln_f.weight", {C}, 0, 1);
    add("ln_f.bias", {C}, 0);
    if (!spec.missingTensor.empty())
        tensors.erase(spec.missingTensor);

    // safetensors: the header's length (u64 little-endian), the JSON header, the data.
    QJsonObject header;
    QByteArray data;
    for (const auto& [name, tensor] : tensors) {
        QJsonArray shape;
        for (std::int64_t n : tensor.first)
            shape.append(qint64(n));
        if (name == spec.transposedTensor && shape.size() == 2)
            shape = QJsonArray{shape[1], shape[0]};
        const qint64 begin = data.size();
        data.append(reinterpret_cast<const char*>(tensor.second.data()),
                    qsizetype(tensor.second.size() * sizeof(float)));
        header.insert(QString::fromStdString(name),
                      QJsonObject{{"dtype", QString::fromStdString(spec.wrongDtype)},
                                  {"shape", shape},
                                  {"data_offsets", QJsonArray{begin, qint64(data.size())}}});
    }
    QByteArray json = QJsonDocument(header).toJson(QJsonDocument::Compact);
    while (json.size() % 8 != 0)
        json += ' ';
    QByteArray file(8, '\0');
    const std::uint64_t length = std::uint64_t(json.size());
    std::memcpy(file.data(), &length, 8); // the machines this runs on are little-endian
    write("model.safetensors", file + json + data);
    return folder;
}

} // namespace attn::test
