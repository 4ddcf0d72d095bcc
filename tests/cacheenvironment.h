// The environment variables that say where each tool keeps its models (core/models/hfcache,
// modelcaches), cleared for a test and restored after it, so that a test sees only the
// fake home it makes, not the machine's own caches.
#pragma once

#include <QByteArray>
#include <QString>
#include <QtGlobal>

#include <iterator>
#include <vector>

namespace attn::test {

class CacheEnvironment {
public:
    // Every variable unset; HOME set to `home` when one is given.
    explicit CacheEnvironment(const QString& home = {})
    {
        for (const char* name : kNames) {
            saved_.push_back(qgetenv(name));
            had_.push_back(qEnvironmentVariableIsSet(name));
            qunsetenv(name);
        }
        if (!home.isEmpty())
            qputenv("HOME", home.toUtf8());
    }
    ~CacheEnvironment()
    {
        for (std::size_t i = 0; i < std::size(kNames); ++i)
            if (had_[i])
                qputenv(kNames[i], saved_[i]);
            else
                qunsetenv(kNames[i]);
    }
    CacheEnvironment(const CacheEnvironment&) = delete;
    CacheEnvironment& operator=(const CacheEnvironment&) = delete;

    static constexpr const char* kNames[] = {"HF_HUB_CACHE",     "HF_HOME",       "XDG_CACHE_HOME",
                                             "MODELSCOPE_CACHE", "OLLAMA_MODELS", "HOME"};

private:
    std::vector<QByteArray> saved_;
    std::vector<bool> had_;
};

} // namespace attn::test
