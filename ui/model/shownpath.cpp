#include "shownpath.h"

#include <QDir>

namespace attn::ui {

QString shownPath(const QString& path)
{
    const QString clean = QDir::cleanPath(path);
    const QString home = QDir::cleanPath(QDir::homePath());
    if (home != QLatin1String("/") && (clean == home || clean.startsWith(home + QLatin1Char('/'))))
        return QDir::toNativeSeparators(QStringLiteral("~") + clean.mid(home.size()));
    return QDir::toNativeSeparators(clean);
}

} // namespace attn::ui
