// lupdate finds the texts core prints in another language (the warnings, the command
// line's help) through this marker; core itself stays free of Qt, so outside Qt it is the
// text itself. Spelt as qglobal.h spells it, so that either may come first.
#pragma once

#ifndef QT_TRANSLATE_NOOP
#define QT_TRANSLATE_NOOP(scope, x) x
#endif
