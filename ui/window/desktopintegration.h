// How AttnScope meets the desktop: its id (the desktop entry's, the AppStream
// component's, the icon's), its icon, and the session and attention files a double click
// or the desktop entry's %F hand to `attnscope FILE…`.
#pragma once

#include <QIcon>
#include <QString>
#include <QStringList>

#include <string_view>

namespace attn::ui {

class MainWindow;

// The reverse-DNS id: packaging/<id>.desktop, <id>.metainfo.xml and the icon's name.
inline constexpr auto kDesktopId = "io.github.attnscope.attnscope";

// The icon at every size from 16 to 256 px (embedded; the installed theme icon wins
// where the desktop has one).
[[nodiscard]] QIcon applicationIcon();

// Whether a command-line argument names a session file (it ends in .attnscope, in any
// case), so that `attnscope lesson.attnscope` opens the window instead of a command.
[[nodiscard]] bool isSessionArgument(std::string_view argument);

// Whether a command-line argument opens the window: a session file, an attention file
// (.npz, .npy, .safetensors, in any case), so that `attnscope gpt2.npz` shows its model,
// or a model folder (one holding a config.json) or GGUF file, so that `attnscope gpt2/` runs
// it.
[[nodiscard]] bool isWindowArgument(std::string_view argument);

// Opens each attention file among `paths` in a model window over `window` (one that cannot
// be read gets its warning, attentionfileopener.h) and each model folder in a language
// model window (on the window's ModelOpener: a folder that cannot be used gets its
// message), then the first of the other paths, the
// session files, that can be opened in `window` (a missing or damaged one changes
// nothing). Everything else worth saying about the sessions (a file that could not be
// opened, files left unopened because one window shows one session) goes to standard
// error and into a message box over the window, and is returned; empty when the first
// session opened and was the only one.
QString openSessionArguments(MainWindow& window, const QStringList& paths);

} // namespace attn::ui
