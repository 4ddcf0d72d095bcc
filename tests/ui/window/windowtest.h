// What the main window's tests share: a window of their own with its settings in a
// temporary directory and English as its language (init, cleanup, open), and reaching
// its controls by object name.
#pragma once

#include "language.h"
#include "mainwindow.h"

#include <QComboBox>
#include <QObject>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QVariant>

#include <memory>

namespace attn::test {

template <typename W> W* child(QWidget* root, const char* name)
{
    W* widget = root->findChild<W*>(QString::fromLatin1(name));
    if (!widget)
        qFatal("no child widget %s", name);
    return widget;
}

inline void chooseData(QComboBox* combo, const QVariant& data)
{
    const int index = combo->findData(data);
    QVERIFY2(index >= 0, qPrintable(QStringLiteral("no item with data %1").arg(data.toString())));
    combo->setCurrentIndex(index);
}

} // namespace attn::test

// The base of a test class that drives a main window: every test starts with settings and
// language of its own, and open() shows a new window on them.
class WindowTest : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();

protected:
    [[nodiscard]] attn::ui::MainWindow* open();

    std::unique_ptr<QTemporaryDir> dir_;
    std::unique_ptr<QSettings> settings_;
    std::unique_ptr<attn::ui::Language> language_;
    std::unique_ptr<attn::ui::MainWindow> window_;
};
