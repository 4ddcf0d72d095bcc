// Knocking heads out: the list read from "L.H,L.*", written back, checked against a model,
// and what a knocked-out head's output becomes (zero, or its mean over the positions).
// Their effect inside every family's forward is checked against PyTorch by the parity
// tests (the reference cases "knock_out=…").
#include "engine/options.h"
#include "models/knockout.h"

#include <QtTest>

#include <string>
#include <vector>

using attn::HeadIndex;
using attn::Matrix;

Q_DECLARE_METATYPE(std::vector<HeadIndex>)

class TestKnockOut : public QObject {
    Q_OBJECT

private slots:
    void parse_data();
    void parse();
    void refusals_data();
    void refusals();
    void checkedAgainstTheModel();
    void outputsReplaced();
};

void TestKnockOut::parse_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<std::vector<HeadIndex>>("heads");
    QTest::addColumn<QString>("list");
    QTest::newRow("one head") << "1.2" << std::vector<HeadIndex>{{1, 2}} << "1.2";
    QTest::newRow("sorted, each once")
        << "3.0,0.1,3.0" << std::vector<HeadIndex>{{0, 1}, {3, 0}} << "0.1,3.0";
    QTest::newRow("a whole layer")
        << "2.*" << std::vector<HeadIndex>{{2, 0}, {2, 1}, {2, 2}, {2, 3}} << "2.*";
    QTest::newRow("a layer and one of its heads")
        << "0.3,0.*" << std::vector<HeadIndex>{{0, 0}, {0, 1}, {0, 2}, {0, 3}} << "0.*";
    QTest::newRow("the whole layer by name")
        << "1.0,1.1,1.2,1.3,3.3" << std::vector<HeadIndex>{{1, 0}, {1, 1}, {1, 2}, {1, 3}, {3, 3}}
        << "1.*,3.3";
}

// Layers 0 … 3 of heads 0 … 3; knockOutList writes what parseKnockOuts reads.
void TestKnockOut::parse()
{
    QFETCH(QString, text);
    QFETCH(std::vector<HeadIndex>, heads);
    QFETCH(QString, list);
    const std::vector<HeadIndex> parsed = attn::parseKnockOuts(text.toStdString(), 4, 4);
    QVERIFY(parsed == heads);
    QCOMPARE(QString::fromStdString(attn::knockOutList(parsed, 4)), list);
    QVERIFY(attn::parseKnockOuts(list.toStdString(), 4, 4) == heads);
}

void TestKnockOut::refusals_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << ""
                           << "knock-out: name heads as L.H or L.*";
    QTest::newRow("no dot") << "3"
                            << "knock-out '3': name a head as L.H, or a whole layer as L.*";
    QTest::newRow("layer too large") << "4.0"
                                     << "knock-out '4.0': the model has 4 layers (0 … 3)";
    QTest::newRow("head too large") << "0.9"
                                    << "knock-out '0.9': the model has 4 heads (0 … 3)";
    QTest::newRow("negative") << "-1.0"
                              << "knock-out '-1.0': the layer must be a number from 0";
    QTest::newRow("sign") << "+1.0"
                          << "knock-out '+1.0': the layer must be a number from 0";
    QTest::newRow("no head") << "1."
                             << "knock-out '1.': the head must be a number from 0";
    QTest::newRow("two dots") << "1.2.3"
                              << "knock-out '1.2.3': the head must be a number from 0";
    QTest::newRow("a space") << "1. 2"
                             << "knock-out '1. 2': the head must be a number from 0";
    QTest::newRow("trailing comma") << "1.2,"
                                    << "knock-out '': name a head as L.H";
    QTest::newRow("huge") << "99999999999.0"
                          << "knock-out '99999999999.0': the layer must be";
}

void TestKnockOut::refusals()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    try {
        (void)attn::parseKnockOuts(text.toStdString(), 4, 4);
        QFAIL("accepted");
    } catch (const attn::InputError& error) {
        QVERIFY2(QString::fromUtf8(error.what()).startsWith(message), error.what());
    }
}

// A list made by hand (a session file, a test) is checked before a forward uses it.
void TestKnockOut::checkedAgainstTheModel()
{
    attn::ModelInfo info;
    info.layers = 2;
    info.heads = 3;
    attn::checkKnockOuts({{0, 0}, {1, 2}}, info);
    for (const std::vector<HeadIndex>& bad :
         {std::vector<HeadIndex>{{2, 0}}, {{0, 3}}, {{-1, 0}}, {{1, 0}, {0, 1}}, {{1, 1}, {1, 1}}})
        QVERIFY_THROWS_EXCEPTION(attn::InputError, attn::checkKnockOuts(bad, info));
}

// Zero: the head's d_k columns are 0; mean: each of its rows is the mean of its rows. The
// other heads, and the other layers' knock-outs, leave the matrix alone.
void TestKnockOut::outputsReplaced()
{
    const int T = 5, H = 3, dK = 2;
    Matrix merged(T, H * dK);
    for (int i = 0; i < T; ++i)
        for (int j = 0; j < H * dK; ++j)
            merged(i, j) = float(10 * i + j);
    attn::ModelSwitches switches;
    switches.knockedOut = {{0, 2}, {1, 0}, {1, 2}};

    Matrix zero = merged;
    attn::knockOutHeads(switches, 1, H, zero);
    QVERIFY(zero.leftCols(dK).isZero(0));
    QCOMPARE(Matrix(zero.middleCols(dK, dK)), Matrix(merged.middleCols(dK, dK)));
    QVERIFY(zero.rightCols(dK).isZero(0));

    switches.knockOut = attn::KnockOutMode::Mean;
    Matrix mean = merged;
    attn::knockOutHeads(switches, 0, H, mean);
    QCOMPARE(Matrix(mean.leftCols(2 * dK)), Matrix(merged.leftCols(2 * dK)));
    for (int i = 0; i < T; ++i) { // column j's rows: 10·i + j, their mean 20 + j
        QCOMPARE(mean(i, 4), 24.0f);
        QCOMPARE(mean(i, 5), 25.0f);
    }

    Matrix untouched = merged;
    attn::knockOutHeads(switches, 2, H, untouched);
    QCOMPARE(untouched, merged);
}

QTEST_APPLESS_MAIN(TestKnockOut)
#include "tst_knockout.moc"
