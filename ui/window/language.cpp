#include "language.h"

#include <QCoreApplication>
#include <QEvent>
#include <QLibraryInfo>
#include <QLocale>

namespace attn::ui {

Language::Language(QObject* parent) : QObject(parent) {}

QStringList Language::available()
{
    return {QStringLiteral("en"), QStringLiteral("zh_CN")};
}

QString Language::nativeName(const QString& code)
{
    if (code == u"zh_CN")
        return QStringLiteral("简体中文");
    return QStringLiteral("English");
}

QString Language::systemDefault()
{
    const QLocale locale;
    return locale.language() == QLocale::Chinese ? QStringLiteral("zh_CN") : QStringLiteral("en");
}

bool Language::apply(const QString& code)
{
    if (!available().contains(code))
        return false;
    if (code == u"en") {
        // English is the source language: no translator at all.
        QCoreApplication::removeTranslator(&app_);
        QCoreApplication::removeTranslator(&qt_);
    } else {
        QTranslator app;
        if (!app.load(QStringLiteral(":/i18n/attnscope_%1.qm").arg(code)))
            return false;
        QCoreApplication::removeTranslator(&app_);
        QCoreApplication::removeTranslator(&qt_);
        (void)app_.load(QStringLiteral(":/i18n/attnscope_%1.qm").arg(code));
        QCoreApplication::installTranslator(&app_);
        // Qt's own strings (standard buttons, file dialogs), when Debian's
        // qt6-translations-l10n is installed; without it they stay English.
        if (qt_.load(QStringLiteral("qtbase_%1").arg(code),
                     QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QCoreApplication::installTranslator(&qt_);
    }
    // Qt posts LanguageChange to every window; deliver those events now, so that the
    // whole interface speaks the new language as soon as apply() returns.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LanguageChange);
    current_ = code;
    emit changed(code);
    return true;
}

} // namespace attn::ui
