// libFuzzer target: .attnscope session files, as sessionFromJson reads them.
//
// Arbitrary bytes give a session or nothing with a reason. A session read must save
// (sessionToJson) to a file that reads back, and saving that gives the same bytes
// again; when it is small, the window computes it, so this computes it too (with its
// hand-set embeddings, which may hold NaN and infinities).
#include "engine/engine.h"
#include "session.h"

#include <QByteArray>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace {

constexpr int kMaxFuzzDModel = 128;
constexpr int kMaxFuzzBatch = 4;
constexpr int kMaxFuzzTokens = 24;

[[noreturn]] void broken(const char* promise, const QByteArray& detail = {})
{
    std::fprintf(stderr, "sessions broke a promise: %s\n%s\n", promise, detail.constData());
    std::abort();
}

void compute(const attn::Request& request)
{
    if (request.config.dModel > kMaxFuzzDModel)
        return;
    try {
        const attn::TokenBatch tokens = attn::previewTokens(request.text, request.config.tokenizer);
        if (tokens.batch() > kMaxFuzzBatch || tokens.length() > kMaxFuzzTokens)
            return;
        attn::AttentionEngine engine;
        (void)engine.compute(request);
    } catch (const attn::InputError&) {
        // an empty text, say: the window shows the reason
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes =
        QByteArray::fromRawData(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    QString error;
    const std::optional<attn::ui::Session> session = attn::ui::sessionFromJson(bytes, &error);
    if (!session) {
        if (error.isEmpty())
            broken("a session was refused without a reason");
        return 0;
    }

    // 1. What was read saves, and the saved file reads back to the same file.
    const QByteArray saved = attn::ui::sessionToJson(*session);
    const std::optional<attn::ui::Session> reread = attn::ui::sessionFromJson(saved, &error);
    if (!reread)
        broken("a saved session does not read back", error.toUtf8());
    if (attn::ui::sessionToJson(*reread) != saved)
        broken("a saved session reads back different", saved);

    // 2. The window would compute it.
    compute(session->request);
    return 0;
}
