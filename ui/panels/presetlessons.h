// What the preset panel (presetpanel.h) says about each preset, in the interface language:
// the lessons of the tutorial, with the numbers to expect.
#pragma once

#include <QString>
#include <QStringList>

namespace attn::ui {

// What the panel says about one preset, translated.
struct Lesson {
    QString menuText;     // "The tutorial's program (article)"
    QString setup;        // what the preset sets up, and why
    QStringList readings; // "how to read the output": 3–6 points with the numbers to expect
};

// The lesson of the preset called `name` (as attn::presets() spells it); empty for an
// unknown name. Its numbers are what AttnScope computes for each preset as it stands; the
// test tst_presets checks them, so a change of a preset shows up there.
[[nodiscard]] Lesson lessonOf(const QString& name);

} // namespace attn::ui
