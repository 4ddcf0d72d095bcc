// The Hugging Face cache's models for File → Open Model…: where the cache is, by the
// environment, and which snapshots in it hold a model.
#include "cacheenvironment.h"
#include "models/hfcache.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>

using namespace attn;
namespace fs = std::filesystem;

namespace {

void writeFile(const fs::path& path, const std::string& text)
{
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
}

} // namespace

class TestHfCache : public QObject {
    Q_OBJECT

private slots:
    void hubDirectory_data();
    void hubDirectory();
    void modelName_data();
    void modelName();
    void findsSnapshots();
    void missingCacheHasNone();
    void findsTheCacheOfTheEnvironment();
};

// Each row sets some variables (name=value;…, the value relative to a temporary folder)
// and expects the hub folder there.
void TestHfCache::hubDirectory_data()
{
    QTest::addColumn<QString>("variables");
    QTest::addColumn<QString>("expected");
    QTest::newRow("HOME alone") << "HOME=home"
                                << "home/.cache/huggingface/hub";
    QTest::newRow("XDG_CACHE_HOME before HOME") << "HOME=home;XDG_CACHE_HOME=xdg"
                                                << "xdg/huggingface/hub";
    QTest::newRow("HF_HOME before XDG_CACHE_HOME") << "HOME=home;XDG_CACHE_HOME=xdg;HF_HOME=hf"
                                                   << "hf/hub";
    QTest::newRow("HF_HUB_CACHE before HF_HOME") << "HOME=home;HF_HOME=hf;HF_HUB_CACHE=hubcache"
                                                 << "hubcache";
    QTest::newRow("an empty HF_HOME is not set") << "HOME=home;HF_HOME="
                                                 << "home/.cache/huggingface/hub";
    QTest::newRow("nothing set") << ""
                                 << "";
}

void TestHfCache::hubDirectory()
{
    QFETCH(QString, variables);
    QFETCH(QString, expected);
    const attn::test::CacheEnvironment environment;
    QTemporaryDir dir;
    const fs::path root = dir.path().toStdString();
    for (const QString& pair : variables.split(';', Qt::SkipEmptyParts)) {
        const QString name = pair.section('=', 0, 0);
        const QString value = pair.section('=', 1);
        qputenv(name.toLatin1(),
                value.isEmpty() ? QByteArray()
                                : QByteArray::fromStdString((root / value.toStdString()).string()));
    }
    const fs::path hub = huggingFaceHubDirectory();
    QCOMPARE(QString::fromStdString(hub.string()),
             expected.isEmpty() ? QString()
                                : QString::fromStdString((root / expected.toStdString()).string()));
}

void TestHfCache::modelName_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<QString>("name");
    QTest::newRow("models--gpt2") << "models--gpt2"
                                  << "gpt2";
    QTest::newRow("models--openai-community--gpt2") << "models--openai-community--gpt2"
                                                    << "openai-community/gpt2";
    QTest::newRow("a data set") << "datasets--wikitext"
                                << "";
    QTest::newRow(".locks") << ".locks"
                            << "";
    QTest::newRow("models-- alone") << "models--"
                                    << "";
}

void TestHfCache::modelName()
{
    QFETCH(QString, folder);
    QFETCH(QString, name);
    QCOMPARE(QString::fromStdString(hubModelName(folder.toStdString())), name);
}

// Snapshots with a config.json are listed by name and snapshot, with their model_type;
// snapshots without one, other kinds of folders and a broken config are handled.
void TestHfCache::findsSnapshots()
{
    QTemporaryDir dir;
    const fs::path hub = fs::path(dir.path().toStdString()) / "hub";
    writeFile(hub / "models--gpt2/snapshots/bbb/config.json", R"({"model_type": "gpt2"})");
    writeFile(hub / "models--gpt2/snapshots/aaa/config.json", R"({"model_type": "gpt2"})");
    writeFile(hub / "models--gpt2/refs/main", "bbb");
    writeFile(hub / "models--distilgpt2/snapshots/ccc/config.json", "{not json");
    writeFile(hub / "models--Qwen--Qwen3-0.6B/snapshots/ddd/model.safetensors", "");
    writeFile(hub / "datasets--wikitext/snapshots/eee/config.json", "{}");
    writeFile(hub / "version.txt", "1");

    const std::vector<CachedModel> models = findCachedModels(hub);
    QCOMPARE(models.size(), std::size_t(3));
    QCOMPARE(QString::fromStdString(models[0].name), QString("distilgpt2"));
    QCOMPARE(QString::fromStdString(models[0].family), QString()); // not JSON: no family
    QCOMPARE(QString::fromStdString(models[1].name), QString("gpt2"));
    QCOMPARE(QString::fromStdString(models[1].snapshot), QString("aaa"));
    QCOMPARE(QString::fromStdString(models[2].snapshot), QString("bbb"));
    QCOMPARE(QString::fromStdString(models[2].family), QString("gpt2"));
    QCOMPARE(models[2].folder, hub / "models--gpt2/snapshots/bbb");
}

void TestHfCache::missingCacheHasNone()
{
    QTemporaryDir dir;
    QVERIFY(findCachedModels(fs::path(dir.path().toStdString()) / "nowhere").empty());
    QVERIFY(findCachedModels({}).empty());
}

// The list comes from the cache the environment names: a temporary HF_HOME.
void TestHfCache::findsTheCacheOfTheEnvironment()
{
    const attn::test::CacheEnvironment environment;
    QTemporaryDir dir;
    qputenv("HF_HOME", dir.path().toUtf8());
    writeFile(fs::path(dir.path().toStdString()) / "hub/models--gpt2/snapshots/abc/config.json",
              R"({"model_type": "gpt2"})");
    const std::vector<CachedModel> models = findCachedModels(huggingFaceHubDirectory());
    QCOMPARE(models.size(), std::size_t(1));
    QCOMPARE(QString::fromStdString(models[0].name), QString("gpt2"));
}

QTEST_GUILESS_MAIN(TestHfCache)
#include "tst_hfcache.moc"
