// Peak memory against the bytes the heatmaps need, in the window itself (offscreen unless
// QT_QPA_PLATFORM says otherwise): a sentence of T = 2048 tokens with C = 1024, H = 16 and
// a causal mask is typed into the window and computed, its heads shown; then the scaling is
// switched, as a user does, and the window lets go of the shown tensors before the compute
// (S and P here are far above kLetGoBytes (ui/window/letgo.h); the tiles keep their pictures);
// last, for comparison, the scaling is switched back with letting go turned off, so the
// old P stays held beside the new one (what the window does below kLetGoBytes). Each
// figure is the process's peak resident size (VmHWM) over the bytes of S and P, the
// (B, H, T, T) matrices the views read (a view shows L too, made from S for the cell under
// the mouse; the engine does not store it). Everything else counts against it: Qt, the
// fonts, x, Q, K, V, the outputs, the statistics, the tiles' images.
//   build/bench/attnscope_memory [T] [C] [H]
#include "computecontroller.h"
#include "controlpanel.h"
#include "language.h"
#include "mainwindow.h"
#include "residentmemory.h"

#include <QApplication>
#include <QComboBox>
#include <QPlainTextEdit>
#include <QSettings>
#include <QTemporaryDir>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>

using attn::bench::peakResidentBytes;

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int T = argc > 1 ? std::atoi(argv[1]) : 2048;
    const int C = argc > 2 ? std::atoi(argv[2]) : 1024;
    const int H = argc > 3 ? std::atoi(argv[3]) : 16;

    QTemporaryDir dir; // settings of its own: none of the user's
    QSettings settings(dir.filePath("settings.ini"), QSettings::IniFormat);
    attn::ui::Language language;
    language.apply("en");
    attn::ui::MainWindow window(&language, &settings);
    window.resize(1600, 1000);
    window.show();
    // Until the window's newest request has its complete result and `done` says it is the
    // one wanted, and the repaints it caused have run.
    auto waitFor = [&](auto done) {
        do
            app.processEvents(QEventLoop::AllEvents, 50);
        while (window.controller()->busy() || !window.lastResult().valid() || !done());
        for (int k = 0; k < 10; ++k)
            app.processEvents(QEventLoop::AllEvents, 10);
    };
    waitFor([] { return true; }); // the example sentence
    const double before = peakResidentBytes();

    attn::Request r = window.controlPanel()->request();
    r.config.tokenizer = attn::TokenizerMode::Spaces;
    r.config.dModel = C;
    r.config.heads = H;
    r.config.mask = attn::MaskKind::Causal;
    r.config.scale = attn::ScaleMode::SqrtDk;
    window.controlPanel()->setRequest(r);
    std::string text;
    for (int t = 0; t < T; ++t)
        text += "w" + std::to_string(t % 997) + " ";
    window.findChild<QPlainTextEdit*>("sentenceEdit")->setPlainText(QString::fromStdString(text));
    waitFor([&] { return window.lastResult().length() == T; });
    const double first = peakResidentBytes();

    auto* scale = window.findChild<QComboBox*>("scaleCombo");
    auto switchScale = [&](attn::ScaleMode mode) {
        scale->setCurrentIndex(scale->findData(int(mode)));
        waitFor([&] { return window.lastResult().config().scale == mode; });
    };
    switchScale(attn::ScaleMode::None);
    const double switched = peakResidentBytes();

    window.setLetGoBytes(std::numeric_limits<double>::infinity());
    switchScale(attn::ScaleMode::SqrtDk);
    const double held = peakResidentBytes();

    const double needed = 2.0 * H * double(T) * T * sizeof(float);
    std::printf("T=%d C=%d H=%d: S and P need %.0f MB (the window before: %.0f MB)\n", T, C, H,
                needed / 1e6, before / 1e6);
    std::printf("first compute, heads shown: peak %.0f MB = %.2fx\n", first / 1e6, first / needed);
    std::printf("scaling switched, shown tensors let go: peak %.0f MB = %.2fx\n", switched / 1e6,
                switched / needed);
    std::printf("scaling switched while shown: peak %.0f MB = %.2fx\n", held / 1e6, held / needed);
    return 0;
}
