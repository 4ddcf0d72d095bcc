// What a worker's job reports, shown only while it is still the newest: the report posts
// `show` to `target`'s thread (QMetaObject::invokeMethod, queued), where it runs only when
// `number` is still `newest` there — a job superseded meanwhile shows nothing. `newest`
// lives in `target` (its GUI-thread counter), which must outlive the worker's thread (its
// destructor joins it).
#pragma once

#include <QMetaObject>
#include <QObject>

#include <cstdint>
#include <utility>

namespace attn::ui {

template <typename Show>
[[nodiscard]] auto reportIfNewest(QObject* target, const std::uint64_t& newest,
                                  std::uint64_t number, Show show)
{
    return [target, &newest, number, show = std::move(show)]() mutable {
        QMetaObject::invokeMethod(
            target,
            [&newest, number, show = std::move(show)]() mutable {
                if (number == newest)
                    show();
            },
            Qt::QueuedConnection);
    };
}

} // namespace attn::ui
