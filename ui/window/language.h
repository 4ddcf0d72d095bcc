// The interface languages, and switching between them at run time.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <QTranslator>

namespace attn::ui {

class Language : public QObject {
    Q_OBJECT

public:
    explicit Language(QObject* parent = nullptr);

    // Codes of the languages the interface speaks: "en", "zh_CN".
    [[nodiscard]] static QStringList available();
    // The language's own name ("English", "简体中文"), never translated.
    [[nodiscard]] static QString nativeName(const QString& code);
    // The available language closest to the system locale.
    [[nodiscard]] static QString systemDefault();

    // Installs `code`'s translations (ours and Qt's own dialogs'); every widget then
    // receives QEvent::LanguageChange. Returns false, changing nothing, when the
    // translation cannot be loaded.
    bool apply(const QString& code);
    [[nodiscard]] QString current() const { return current_; }

signals:
    void changed(const QString& code);

private:
    QTranslator app_;
    QTranslator qt_;
    QString current_ = QStringLiteral("en");
};

} // namespace attn::ui
