// What the engine runs on: the worker pool's parallel loops, and OpenBLAS's kernels.
#include "base/blas.h"
#include "base/parallel.h"

#include <QtTest>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

class TestParallel : public QObject {
    Q_OBJECT

private slots:
    void parallelLoopsRunEveryItemOnce();
    void blasMultipliesWithTheCpusKernels();
};

// The worker pool under the engine: every item runs once, whatever the count; a loop
// inside a loop, loops from two threads at once, loops in quick succession (the workers
// still watching) and after a pause (the workers asleep), loops after the workers were
// woken ahead of them (within the time they watch, after it, woken again and again, and
// from another thread meanwhile) all complete; an item's exception reaches the caller
// after the other items stop.
void TestParallel::parallelLoopsRunEveryItemOnce()
{
    auto countOnce = [](int count) {
        std::vector<std::atomic<int>> hits(static_cast<std::size_t>(count));
        attn::parallelFor(count, [&](int i) { ++hits[static_cast<std::size_t>(i)]; });
        for (const auto& h : hits)
            if (h != 1)
                return false;
        return true;
    };
    for (const int count : {0, 1, 2, 3, 17, 1000})
        QVERIFY2(countOnce(count), qPrintable(QString::number(count)));
    for (int round = 0; round < 2000; ++round) // back to back: the workers never sleep
        QVERIFY(countOnce(2 + round % 5));
    for (int round = 0; round < 20; ++round) { // each after the workers fell asleep
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        QVERIFY(countOnce(8));
    }

    using std::chrono::microseconds;
    for (int round = 0; round < 200; ++round) { // woken ahead, the loop within the time
        attn::wakeWorkersAhead(microseconds(500));
        QVERIFY(countOnce(1 + round % 9));
    }
    for (int round = 0; round < 10; ++round) { // the loop after the workers gave up
        attn::wakeWorkersAhead(microseconds(100 * round));
        std::this_thread::sleep_for(microseconds(100 * round + 300));
        QVERIFY(countOnce(8));
    }
    for (int round = 0; round < 200; ++round) { // woken again while they watch
        attn::wakeWorkersAhead(microseconds(50));
        attn::wakeWorkersAhead(microseconds(2000));
        if (round % 3 == 0)
            QVERIFY(countOnce(5));
    }
    std::atomic<bool> waking{true};
    std::thread waker([&] {
        while (waking)
            attn::wakeWorkersAhead(microseconds(200));
    });
    bool allOnce = true;
    for (int round = 0; round < 500; ++round)
        allOnce = countOnce(3 + round % 4) && allOnce;
    waking = false;
    waker.join();
    QVERIFY(allOnce);

    std::atomic<int> inner{0};
    attn::parallelFor(4, [&](int) { attn::parallelFor(5, [&](int) { ++inner; }); });
    QCOMPARE(inner.load(), 20);

    std::atomic<int> fromTwo{0};
    auto many = [&] {
        for (int round = 0; round < 300; ++round)
            attn::parallelFor(6, [&](int) { ++fromTwo; });
    };
    std::thread other(many);
    many();
    other.join();
    QCOMPARE(fromTwo.load(), 2 * 300 * 6);

    bool thrown = false;
    try {
        attn::parallelFor(100, [](int i) {
            if (i == 37)
                throw std::runtime_error("item 37");
        });
    } catch (const std::runtime_error& e) {
        thrown = QByteArray(e.what()) == "item 37";
    }
    QVERIFY(thrown);
    QVERIFY(countOnce(50)); // and the pool serves on
}

// OpenBLAS 0.3.21 takes a CPU model newer than it knows (an Emerald Rapids Xeon) for a
// Prescott and multiplies with its SSE3 kernels at a fifth of the machine's rate, and gives
// AMD's Zen 4 and 5 its AVX2 kernels at half their rate; the core makes it choose again.
// Wherever the CPU has AVX2 + FMA, the kernels in use are AVX2 or AVX-512 ones, and
// AVX-512 ones where it has AVX-512.
void TestParallel::blasMultipliesWithTheCpusKernels()
{
    QVERIFY(!attn::areVectorKernels("Prescott"));
    QVERIFY(!attn::areVectorKernels(""));
    QVERIFY(attn::areVectorKernels("skylakex"));
    QVERIFY(attn::shouldChooseKernelsAgain("Prescott", "Haswell"));
    QVERIFY(attn::shouldChooseKernelsAgain("Zen", "SkylakeX"));
    QVERIFY(attn::shouldChooseKernelsAgain("Haswell", "SkylakeX"));
    QVERIFY(!attn::shouldChooseKernelsAgain("Haswell", "Haswell"));
    QVERIFY(!attn::shouldChooseKernelsAgain("Zen", "Haswell"));
    QVERIFY(!attn::shouldChooseKernelsAgain("SkylakeX", "SkylakeX"));
    QVERIFY(!attn::shouldChooseKernelsAgain("Cooperlake", "SkylakeX"));
    QVERIFY(!attn::shouldChooseKernelsAgain("Prescott", ""));
    if (attn::blasKernelsForThisCpu().empty())
        QSKIP("no OpenBLAS, or a CPU without AVX2");
    if (qEnvironmentVariableIsSet("OPENBLAS_CORETYPE"))
        QSKIP("OPENBLAS_CORETYPE chooses the kernels");
    QVERIFY2(attn::areVectorKernels(attn::blasKernels()), attn::blasKernels().c_str());
    QVERIFY2(!attn::shouldChooseKernelsAgain(attn::blasKernels(), attn::blasKernelsForThisCpu()),
             attn::blasKernels().c_str());
    QVERIFY(attn::matrixProductLibrary().find(attn::blasKernels()) != std::string::npos);
}

QTEST_GUILESS_MAIN(TestParallel)
#include "tst_parallel.moc"
