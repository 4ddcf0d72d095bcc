#include "interfacefont.h"

#include "figure.h"

#include <QApplication>
#include <QFontDatabase>
#include <QFontInfo>

#include <algorithm>

namespace attn::ui {
namespace {

// Whether `family` is made for Chinese, Japanese or Korean: such fonts carry Latin glyphs
// too, but sized and spaced for text set among ideographs.
bool isCjkFamily(const QString& family)
{
    const QList<QFontDatabase::WritingSystem> systems = QFontDatabase::writingSystems(family);
    return std::ranges::any_of(systems, [](QFontDatabase::WritingSystem system) {
        return system == QFontDatabase::SimplifiedChinese ||
               system == QFontDatabase::TraditionalChinese || system == QFontDatabase::Japanese ||
               system == QFontDatabase::Korean;
    });
}

} // namespace

QFont interfaceFont(const QFont& system)
{
    const QString resolved = QFontInfo(system).family();
    QStringList families = figureFontFamilies(); // Latin sans first, then Chinese
    families.removeAll(resolved);
    if (isCjkFamily(resolved))
        families.append(resolved); // still the system's choice for what the others lack
    else
        families.prepend(resolved);
    QFont font = system;
    font.setFamilies(families);
    return font;
}

void useInterfaceFont()
{
    QApplication::setFont(interfaceFont(QApplication::font()));
}

} // namespace attn::ui
