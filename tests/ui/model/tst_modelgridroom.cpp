// The model view's tiles grow with the room its window gives them: a wider window gives
// larger tiles, as far as the height keeps every layer in sight and up to
// ModelGrid::kLargestTile; they are never smaller than their usual size, and every tile
// stays inside the view.
#include "attention/attentionstack.h"
#include "modelgrid.h"
#include "modelwindow.h"

#include <QtTest>

#include <QScrollArea>

#include <memory>
#include <vector>

using namespace attn;
using namespace attn::ui;

namespace {

// A (L, 1, H, T, T) stack of uniform causal-free rows: the sizes are what matters here.
std::shared_ptr<MemoryAttentionStack> uniformStack(int layers, int heads, int tokens)
{
    const StackShape shape{layers, 1, heads, tokens, tokens};
    FloatBuffer weights(std::size_t(shape.headCount()) * std::size_t(tokens * tokens),
                        1.0f / float(tokens));
    return std::make_shared<MemoryAttentionStack>(shape, std::move(weights));
}

// A tile's side once the window is `width` × `height` and laid out.
int tileSideAt(ModelWindow& window, int width, int height)
{
    window.resize(width, height);
    QTest::qWait(0);
    QCoreApplication::processEvents();
    return window.grid()->tileRect(0, 0).width();
}

// Every tile inside the part of the grid the scroll area shows.
bool everyTileInSight(const ModelWindow& window)
{
    const ModelGrid* grid = window.grid();
    const auto* viewport = grid->parentWidget();
    const QRect last = grid->tileRect(grid->layers() - 1, grid->heads() - 1);
    const QRect seen(grid->mapFrom(viewport, QPoint(0, 0)), viewport->size());
    return seen.contains(last);
}

} // namespace

class TestModelGridRoom : public QObject {
    Q_OBJECT

private slots:
    void aWiderWindowGivesLargerTiles_data();
    void aWiderWindowGivesLargerTiles();
};

void TestModelGridRoom::aWiderWindowGivesLargerTiles_data()
{
    QTest::addColumn<int>("layers");
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("height");
    QTest::addColumn<bool>("grows"); // from 1000 to 1900 pixels wide
    QTest::newRow("2 layers × 4 heads: larger") << 2 << 4 << 820 << true;
    QTest::newRow("4 layers × 12 heads: larger") << 4 << 12 << 820 << true;
    // The layers fill the height already: the tiles keep their usual size.
    QTest::newRow("12 layers × 12 heads, 700 high: the usual size") << 12 << 12 << 700 << false;
}

void TestModelGridRoom::aWiderWindowGivesLargerTiles()
{
    QFETCH(int, layers);
    QFETCH(int, heads);
    QFETCH(int, height);
    QFETCH(bool, grows);
    ModelWindow window(uniformStack(layers, heads, 6));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const int narrow = tileSideAt(window, 1000, height);
    QVERIFY2(narrow >= 18, qPrintable(QString("tile %1 px in the narrow window").arg(narrow)));
    const int wide = tileSideAt(window, 1900, height);
    if (grows)
        QVERIFY2(wide > narrow, qPrintable(QString("tiles %1 → %2 px").arg(narrow).arg(wide)));
    else
        QCOMPARE(wide, narrow);
    QVERIFY(wide <= std::max(narrow, ModelGrid::kLargestTile));
    if (grows)
        QVERIFY(everyTileInSight(window));
    // Narrower again: back to what the room gives.
    QCOMPARE(tileSideAt(window, 1000, height), narrow);
    // As wide as a screen allows: never past the largest tile.
    QVERIFY(tileSideAt(window, 4000, 2000) <= ModelGrid::kLargestTile);
}

QTEST_MAIN(TestModelGridRoom)
#include "tst_modelgridroom.moc"
