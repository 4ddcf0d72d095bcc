// The models already on disk for File → Open Model… and `attnscope models`: where each tool
// keeps them by the environment, and what each folder holds, in a fake home with models in
// every tool's folder (tests/diskmodels.h).
#include "cacheenvironment.h"
#include "diskmodels.h"
#include "models/modelcaches.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <map>

using namespace attn;
namespace fs = std::filesystem;

namespace {

QString describe(const DiskModel& m)
{
    return QStringLiteral("%1 | %2 | %3 | %4 | %5%6")
        .arg(QString::fromUtf8(modelSourceName(m.source).data()), QString::fromStdString(m.name),
             QString::fromStdString(m.family))
        .arg(m.bytes)
        .arg(QString::fromStdString(m.quantization), m.missing ? " | missing" : "");
}

QString describe(const diskmodels::Expected& m)
{
    return QStringLiteral("%1 | %2 | %3 | %4 | %5%6")
        .arg(QString::fromStdString(m.source), QString::fromStdString(m.name),
             QString::fromStdString(m.family))
        .arg(m.bytes)
        .arg(QString::fromStdString(m.quantization), m.missing ? " | missing" : "");
}

} // namespace

class TestModelCaches : public QObject {
    Q_OBJECT

private slots:
    void folders_data();
    void folders();
    void everyCache();
    void pathsToOpen();
    void missingFoldersHaveNone();
    void modelScopeUnderItsCacheRoot();
    void ggufHeaderNamesFamilyAndQuantization();
    void quantizationOfFileName_data();
    void quantizationOfFileName();
    void ollamaName_data();
    void ollamaName();
    void modelScopeName_data();
    void modelScopeName();
    void dtypeName_data();
    void dtypeName();
};

// Each row sets some variables (name=value;…, values relative to a temporary folder) and
// expects these folders, "source:folder" joined by ";".
void TestModelCaches::folders_data()
{
    QTest::addColumn<QString>("variables");
    QTest::addColumn<QString>("folders");
    const QString hfHome = QStringLiteral("Hugging Face:h/.cache/huggingface/hub;");
    const QString service = QStringLiteral("Ollama:/usr/share/ollama/.ollama/models;");
    const QString lmStudio =
        QStringLiteral("LM Studio:h/.lmstudio/models;LM Studio:h/.cache/lm-studio/models");
    QTest::newRow("HOME alone") << "HOME=h"
                                << hfHome +
                                       "ModelScope:h/.cache/modelscope/hub;"
                                       "Ollama:h/.ollama/models;" +
                                       service + lmStudio;
    QTest::newRow("every tool's variable")
        << "HOME=h;HF_HUB_CACHE=hf;MODELSCOPE_CACHE=ms;OLLAMA_MODELS=ol"
        << "Hugging Face:hf;ModelScope:ms;Ollama:ol;" + lmStudio;
    QTest::newRow("no HOME") << "" << service.chopped(1);
}

void TestModelCaches::folders()
{
    QFETCH(QString, variables);
    QFETCH(QString, folders);
    const attn::test::CacheEnvironment environment;
    QTemporaryDir dir;
    const QString root = dir.path() + '/';
    for (const QString& pair : variables.split(';', Qt::SkipEmptyParts)) {
        const QStringList nameValue = pair.split('=');
        qputenv(nameValue[0].toUtf8(), (root + nameValue[1]).toUtf8());
    }
    QStringList got;
    for (const ModelCacheFolder& cache : modelCacheFolders())
        got << QString::fromUtf8(modelSourceName(cache.source).data()) + ':' +
                   QString::fromStdString(cache.folder.string()).remove(root);
    QCOMPARE(got.join(';'), folders);
}

void TestModelCaches::everyCache()
{
    const attn::test::CacheEnvironment environment;
    QTemporaryDir dir;
    const fs::path home = dir.path().toStdString();
    const std::vector<diskmodels::Expected> expected = diskmodels::writeModelCaches(home);
    qputenv("HOME", dir.path().toUtf8());
    QStringList want, got;
    for (const diskmodels::Expected& m : expected)
        want << describe(m);
    for (const DiskModel& m : findDiskModels(modelCacheFolders()))
        if (m.path.string().starts_with(home.string())) // not the machine's own service folder
            got << describe(m);
    QCOMPARE(got, want);
}

void TestModelCaches::pathsToOpen()
{
    const attn::test::CacheEnvironment environment;
    QTemporaryDir dir;
    const fs::path home = dir.path().toStdString();
    diskmodels::writeModelCaches(home);
    qputenv("HOME", dir.path().toUtf8());
    std::map<std::string, DiskModel> byName;
    for (const DiskModel& m : findDiskModels(modelCacheFolders()))
        byName[m.name] = m;
    // A folder with config.json, or a GGUF file.
    QCOMPARE(byName["Qwen/Qwen2.5-0.5B"].path,
             home / ".cache/huggingface/hub/models--Qwen--Qwen2.5-0.5B/snapshots/a1b2c3d4e5f6");
    QCOMPARE(byName["Qwen/Qwen2.5-0.5B"].revision, std::string("a1b2c3d4e5f6"));
    QCOMPARE(byName["Qwen/Qwen2.5-0.5B-Instruct"].path,
             home / ".cache/modelscope/hub/models/Qwen/Qwen2___5-0___5B-Instruct");
    QCOMPARE(byName["qwen2.5:0.5b"].path,
             home / ".ollama/models/blobs" / ("sha256-" + std::string(64, 'a')));
    QCOMPARE(byName["qwen2.5:0.5b"].revision, "sha256:" + std::string(64, 'a'));
    QCOMPARE(byName["mlx-community/SmolLM2-135M"].path,
             home / ".lmstudio/models/mlx-community/SmolLM2-135M");
    // An Ollama blob is a GGUF file whatever its name.
    std::ifstream blob(byName["qwen2.5:0.5b"].path, std::ios::binary);
    char magic[4] = {};
    blob.read(magic, 4);
    QCOMPARE(std::string(magic, 4), std::string("GGUF"));
}

void TestModelCaches::missingFoldersHaveNone()
{
    QTemporaryDir dir;
    const fs::path nowhere = fs::path(dir.path().toStdString()) / "nowhere";
    for (const ModelSource source : {ModelSource::HuggingFace, ModelSource::ModelScope,
                                     ModelSource::Ollama, ModelSource::LmStudio}) {
        QVERIFY(findModelsIn({source, nowhere}).empty());
        QVERIFY(findModelsIn({source, {}}).empty());
    }
}

// A newer ModelScope's MODELSCOPE_CACHE is the cache's root: its models lie under hub/.
void TestModelCaches::modelScopeUnderItsCacheRoot()
{
    const attn::test::CacheEnvironment environment;
    QTemporaryDir dir;
    const fs::path root = fs::path(dir.path().toStdString()) / "ms";
    diskmodels::write(root / "hub/models/Org/Name-v1___5/config.json", R"({"model_type": "bert"})");
    diskmodels::write(root / "hub/Old/Name/config.json", R"({"model_type": "gpt2"})");
    qputenv("MODELSCOPE_CACHE", QByteArray::fromStdString(root.string()));
    QStringList got;
    for (const DiskModel& m : findDiskModels(modelCacheFolders()))
        if (m.source == ModelSource::ModelScope)
            got << QString::fromStdString(m.name + " " + m.family);
    QCOMPARE(got, (QStringList{"Old/Name gpt2", "Org/Name-v1.5 bert"}));
}

void TestModelCaches::ggufHeaderNamesFamilyAndQuantization()
{
    // An LM Studio file whose name says nothing: its header's general.architecture and
    // general.file_type say it (a name that says Q8_0 is overruled by the header too).
    const attn::test::CacheEnvironment environment;
    QTemporaryDir dir;
    const fs::path home = dir.path().toStdString();
    const fs::path repository = home / ".lmstudio/models/someone/tiny";
    fs::create_directories(repository);
    fs::copy_file(fs::path(ATTN_REFERENCE_DIR) / "gguf/llama-mix.gguf", repository / "model.gguf");
    fs::copy_file(fs::path(ATTN_REFERENCE_DIR) / "gguf/qwen2-f32.gguf",
                  repository / "tiny-Q8_0.gguf");
    qputenv("HOME", dir.path().toUtf8());
    std::map<std::string, DiskModel> byName;
    for (const DiskModel& m : findDiskModels(modelCacheFolders()))
        byName[m.name] = m;
    QCOMPARE(byName["someone/tiny/model.gguf"].family, std::string("llama"));
    QCOMPARE(byName["someone/tiny/model.gguf"].quantization, std::string("Q4_K_M"));
    QCOMPARE(byName["someone/tiny/tiny-Q8_0.gguf"].family, std::string("qwen2"));
    QCOMPARE(byName["someone/tiny/tiny-Q8_0.gguf"].quantization, std::string("F32"));
}

void TestModelCaches::quantizationOfFileName_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("quantization");
    QTest::newRow("Q4_K_M lower case") << "qwen2.5-0.5b-instruct-q4_k_m.gguf"
                                       << "Q4_K_M";
    QTest::newRow("IQ4_XS after a dot") << "tinyllama.IQ4_XS.gguf"
                                        << "IQ4_XS";
    QTest::newRow("Q8_0") << "Llama-3.2-1B-Instruct-Q8_0.gguf"
                          << "Q8_0";
    QTest::newRow("F16") << "gemma-2b-f16.gguf"
                         << "F16";
    QTest::newRow("BF16") << "Qwen3-0.6B-BF16.gguf"
                          << "BF16";
    QTest::newRow("fp16 shown as F16") << "phi-2.fp16.gguf"
                                       << "F16";
    QTest::newRow("Q2_K") << "model-Q2_K.gguf"
                          << "Q2_K";
    QTest::newRow("none") << "model.gguf"
                          << "";
    QTest::newRow("a size is not one") << "Qwen2.5-0.5B.gguf"
                                       << "";
    QTest::newRow("Qwen is not Q") << "Qwen.gguf"
                                   << "";
}

void TestModelCaches::quantizationOfFileName()
{
    QFETCH(QString, file);
    QFETCH(QString, quantization);
    QCOMPARE(QString::fromStdString(attn::quantizationOfFileName(file.toStdString())),
             quantization);
}

void TestModelCaches::ollamaName_data()
{
    QTest::addColumn<QString>("path"); // registry/namespace/model/tag
    QTest::addColumn<QString>("name");
    QTest::newRow("the library's") << "registry.ollama.ai/library/qwen2.5/0.5b"
                                   << "qwen2.5:0.5b";
    QTest::newRow("a user's") << "registry.ollama.ai/someone/tiny/latest"
                              << "someone/tiny:latest";
    QTest::newRow("another registry") << "hf.co/bartowski/SmolLM2-135M-GGUF/Q8_0"
                                      << "hf.co/bartowski/SmolLM2-135M-GGUF:Q8_0";
}

void TestModelCaches::ollamaName()
{
    QFETCH(QString, path);
    QFETCH(QString, name);
    const QStringList p = path.split('/');
    QCOMPARE(QString::fromStdString(ollamaModelName(p[0].toStdString(), p[1].toStdString(),
                                                    p[2].toStdString(), p[3].toStdString())),
             name);
}

void TestModelCaches::modelScopeName_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QString>("name");
    QTest::newRow("dots") << "Qwen2___5-0___5B-Instruct"
                          << "Qwen2.5-0.5B-Instruct";
    QTest::newRow("no dot") << "gpt2"
                            << "gpt2";
    QTest::newRow("underscores kept") << "a_b__c"
                                      << "a_b__c";
}

void TestModelCaches::modelScopeName()
{
    QFETCH(QString, folder);
    QFETCH(QString, name);
    QCOMPARE(QString::fromStdString(attn::modelScopeName(folder.toStdString())), name);
}

void TestModelCaches::dtypeName_data()
{
    QTest::addColumn<QString>("torch");
    QTest::addColumn<QString>("dtype");
    QTest::newRow("bfloat16") << "bfloat16"
                              << "BF16";
    QTest::newRow("float16") << "float16"
                             << "F16";
    QTest::newRow("float32") << "float32"
                             << "F32";
    QTest::newRow("torch.bfloat16") << "torch.bfloat16"
                                    << "BF16";
    QTest::newRow("another") << "float8_e4m3fn"
                             << "FLOAT8_E4M3FN";
    QTest::newRow("none") << ""
                          << "";
}

void TestModelCaches::dtypeName()
{
    QFETCH(QString, torch);
    QFETCH(QString, dtype);
    QCOMPARE(QString::fromStdString(attn::dtypeName(torch.toStdString())), dtype);
}

QTEST_GUILESS_MAIN(TestModelCaches)
#include "tst_modelcaches.moc"
