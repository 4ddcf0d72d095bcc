// The window's font. On Linux a zh_CN locale makes fontconfig answer "sans-serif" with a
// CJK font, whose Latin letters and mathematical signs are set apart from each other: the
// √ stands off from d_k, "·" becomes a wide "・" and the underscore of T_k thins to a
// hairline. The window therefore takes Latin text and mathematics from a Latin font and
// only the Chinese characters from the CJK font, in either language.
#pragma once

#include <QFont>

namespace attn::ui {

// `system` with families that take Latin text, digits and mathematical signs from a Latin
// font and Chinese from a Simplified Chinese one: unchanged but for a Chinese fallback when
// `system` is a Latin font; the figures' Latin sans first when it is a CJK font.
[[nodiscard]] QFont interfaceFont(const QFont& system);

// Sets interfaceFont(QApplication::font()) as the application's font. Call once, before
// the first window is built.
void useInterfaceFont();

} // namespace attn::ui
