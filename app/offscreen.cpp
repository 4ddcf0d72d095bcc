#include "offscreen.h"

#include <cstdio>

namespace attn::cli {

void keepQtQuiet(QtMsgType type, const QMessageLogContext&, const QString& message)
{
    if (type == QtFatalMsg)
        std::fprintf(stderr, "attnscope: %s\n", qPrintable(message));
}

int fail(int status, const std::string& message)
{
    std::fprintf(stderr, "attnscope: %s\n", message.c_str());
    return status;
}

} // namespace attn::cli
