// Every persistent setting and its default, in one table, read and written through
// QSettings. Switches are stored with the command line's spellings.
#pragma once

#include "engine/engine.h"
#include "viewoptions.h"

#include <QByteArray>
#include <QSettings>
#include <QString>

namespace attn::ui {

// The example sentence the window opens with, in the language `languageCode`.
[[nodiscard]] QString exampleSentence(const QString& languageCode);

class AppSettings {
public:
    // Uses the application's QSettings (organisation and name set in main).
    AppSettings() = default;
    // Uses `settings` (tests pass an INI file).
    explicit AppSettings(QSettings* settings) : settings_(settings) {}

    [[nodiscard]] Request request(const QString& languageCode) const;
    void setRequest(const Request& request);

    [[nodiscard]] ViewOptions view() const;
    void setView(const ViewOptions& view);

    // "" = follow the system locale.
    [[nodiscard]] QString language() const;
    void setLanguage(const QString& code);

    // Where the last export went; "" before the first.
    [[nodiscard]] QString exportFolder() const;
    void setExportFolder(const QString& folder);

    [[nodiscard]] QByteArray geometry() const;
    [[nodiscard]] QByteArray windowState() const;
    void setWindow(const QByteArray& geometry, const QByteArray& state);

    // The key of every setting with its default, as the table holds them.
    [[nodiscard]] static QVariant defaultValue(const QString& key);

private:
    [[nodiscard]] QVariant value(const QString& key) const;
    void setValue(const QString& key, const QVariant& value);

    QSettings* settings_ = nullptr;
};

} // namespace attn::ui
