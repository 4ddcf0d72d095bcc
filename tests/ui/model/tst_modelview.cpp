// The model window of an attention file: the grid of thumbnails read back pixel by pixel,
// hover, opening a head with the file's exact numbers and its findings, the head patterns
// table, and the numbers it exports; a large stack's thumbnails and patterns from the worker.
#include "attention/attentionfile.h"
#include "attention/attentionreport.h"
#include "attention/headpatterns.h"
#include "base/parallel.h"
#include "colormap.h"
#include "fileheaddialog.h"
#include "formats/exporters.h"
#include "headpatternsmodel.h"
#include "heatmappainter.h"
#include "modelgrid.h"
#include "modelwindow.h"

#include <QtTest>

#include <QComboBox>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolTip>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <limits>
#include <memory>
#include <mutex>
#include <random>
#include <thread>

using namespace attn;
using namespace attn::ui;

namespace {

// A (L, 1, H, T, T) stack of softmax rows from a fixed seed; `rowSum` scales every row.
std::shared_ptr<MemoryAttentionStack> randomStack(int layers, int heads, int tokens,
                                                  float rowSum = 1.0f, unsigned seed = 1)
{
    std::mt19937 generator(seed);
    std::uniform_real_distribution<float> logit(-3.0f, 3.0f);
    const StackShape shape{layers, 1, heads, tokens, tokens};
    FloatBuffer weights(std::size_t(shape.headCount()) * std::size_t(tokens * tokens), 0.0f);
    for (std::size_t row = 0; row < weights.size() / std::size_t(tokens); ++row) {
        float* p = weights.data() + row * std::size_t(tokens);
        float sum = 0;
        for (int j = 0; j < tokens; ++j)
            sum += p[j] = std::exp(logit(generator));
        for (int j = 0; j < tokens; ++j)
            p[j] = p[j] / sum * rowSum;
    }
    return std::make_shared<MemoryAttentionStack>(shape, std::move(weights));
}

// The stack written as .npy (L, H, T, T), as core's exporter writes NumPy files.
QString writeNpy(const AttentionStack& stack, const QString& path)
{
    const StackShape& s = stack.shape();
    HeadStack heads(s.layers, s.heads, s.queries, s.keys);
    for (int l = 0; l < s.layers; ++l)
        for (int h = 0; h < s.heads; ++h)
            heads.at(l, h) = stack.head(l, 0, h);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write(QByteArray::fromStdString(npyMatrixStack(heads)));
    return path;
}

// A stack large to the window (L·H·T² weights a sequence) that holds only a few distinct
// heads a sequence, which its heads repeat, so that a test needs megabytes, not
// gigabytes. Its reads can be held at a gate: those of one sequence, after the first
// `after`, wait until release(), so that a test knows the worker's job is running and
// where. The test's own thread is never held, and a read held for 30 s goes on: a window
// that computed on the test's thread (through the pool's threads, held here) would fail
// its checks rather than hang.
class RepeatingStack : public AttentionStack {
public:
    RepeatingStack(StackShape shape, int distinct)
        : AttentionStack(shape, ElementType::F32, "repeating"), distinct_(distinct),
          reads_(std::size_t(shape.sequences))
    {
        const std::size_t cells = std::size_t(shape.queries) * std::size_t(shape.keys);
        weights_.resize(std::size_t(shape.sequences) * std::size_t(distinct) * cells);
        std::mt19937 generator(7);
        std::uniform_real_distribution<float> logit(-3.0f, 3.0f);
        for (std::size_t row = 0; row < weights_.size() / std::size_t(shape.keys); ++row) {
            float* p = weights_.data() + row * std::size_t(shape.keys);
            float sum = 0;
            for (int j = 0; j < shape.keys; ++j)
                sum += p[j] = std::exp(logit(generator));
            for (int j = 0; j < shape.keys; ++j)
                p[j] /= sum;
        }
    }
    ~RepeatingStack() override { release(); }

    void hold(int sequence, int after)
    {
        const std::lock_guard lock(mutex_);
        heldSequence_ = sequence;
        heldAfter_ = after;
    }
    void release()
    {
        {
            const std::lock_guard lock(mutex_);
            heldSequence_ = -1;
        }
        opened_.notify_all();
    }
    // Reads waiting at the gate now.
    [[nodiscard]] int waiting() const
    {
        const std::lock_guard lock(mutex_);
        return waiting_;
    }
    // Heads of `sequence` read so far.
    [[nodiscard]] int reads(int sequence) const { return reads_[std::size_t(sequence)]; }

private:
    [[nodiscard]] HeadView headView(int layer, int sequence, int head) const override
    {
        const int read = reads_[std::size_t(sequence)]++;
        if (std::this_thread::get_id() != owner_) {
            std::unique_lock lock(mutex_);
            if (sequence == heldSequence_ && read >= heldAfter_) {
                ++waiting_;
                opened_.wait_for(lock, std::chrono::seconds(30),
                                 [&] { return heldSequence_ != sequence; });
                --waiting_;
            }
        }
        const StackShape& s = shape();
        const std::size_t cells = std::size_t(s.queries) * std::size_t(s.keys);
        const int distinct = (layer * s.heads + head) % distinct_;
        const float* p =
            weights_.data() + (std::size_t(sequence) * std::size_t(distinct_) + distinct) * cells;
        return {reinterpret_cast<const std::byte*>(p),
                ElementType::F32,
                false,
                s.keys,
                1,
                s.queries,
                s.keys};
    }

    int distinct_;
    std::vector<float> weights_;
    const std::thread::id owner_ = std::this_thread::get_id();
    mutable std::vector<std::atomic<int>> reads_;
    mutable std::mutex mutex_;
    mutable std::condition_variable opened_;
    int heldSequence_ = -1;
    int heldAfter_ = 0;
    mutable int waiting_ = 0;
};

// Over 2^25 weights a sequence (12 × 12 heads of 512 × 512 = 37.7 M): the thumbnails are
// computed on the worker.
const StackShape kLargeShape{12, 2, 12, 512, 512};

QPoint tileCentre(const ModelGrid* grid, int layer, int head)
{
    return grid->tileRect(layer, head).center();
}

QString fixture(const char* name)
{
    return QStringLiteral(ATTN_REFERENCE_DIR "/attention/") + QString::fromLatin1(name);
}

} // namespace

class TestModelView : public QObject {
    Q_OBJECT

private slots:
    void gridShowsEveryHead_data();
    void gridShowsEveryHead();
    void hoverNamesLayerAndHead_data();
    void hoverNamesLayerAndHead();
    void openingAHeadShowsTheFilesNumbers_data();
    void openingAHeadShowsTheFilesNumbers();
    void headViewTellsWhatStandsOut_data();
    void headViewTellsWhatStandsOut();
    void findingsCountInEnglish_data();
    void findingsCountInEnglish();
    void tokensLabelTheHead_data();
    void tokensLabelTheHead();
    void patternsTableSorts_data();
    void patternsTableSorts();
    void headsLikeThisOne_data();
    void headsLikeThisOne();
    void sequenceSelectorShowsThatSequence();
    void aLargeFilesPatternsComeAfterItsGrid();
    void aLargeFilesThumbnailsComeAfterItsWindow_data();
    void aLargeFilesThumbnailsComeAfterItsWindow();
    void keysAndHoverWhileThumbnailsCompute();
    void aNewerSequenceCancelsTheOlder();
    void closingWhileComputingIsClean_data();
    void closingWhileComputingIsClean();
    void exportsTheLayersNumbers();
};

void TestModelView::gridShowsEveryHead_data()
{
    QTest::addColumn<int>("layers");
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("tokens");
    QTest::addColumn<bool>("nonFinite");
    QTest::newRow("2 layers × 3 heads, 5 tokens") << 2 << 3 << 5 << false;
    QTest::newRow("12 layers × 12 heads, 20 tokens") << 12 << 12 << 20 << false;
    QTest::newRow("32 layers × 32 heads, 6 tokens") << 32 << 32 << 6 << false;
    QTest::newRow("NaN and infinite weights in magenta") << 3 << 4 << 8 << true;
}

void TestModelView::gridShowsEveryHead()
{
    QFETCH(int, layers);
    QFETCH(int, heads);
    QFETCH(int, tokens);
    QFETCH(bool, nonFinite);
    std::shared_ptr<MemoryAttentionStack> stack = randomStack(layers, heads, tokens);
    if (nonFinite) { // layer 1, head 2: (0, 1) NaN, (3, 3) +inf, (7, 0) −inf
        float* head = stack->data() + std::size_t(1 * heads + 2) * std::size_t(tokens * tokens);
        head[1] = std::numeric_limits<float>::quiet_NaN();
        head[3 * tokens + 3] = std::numeric_limits<float>::infinity();
        head[7 * tokens + 0] = -std::numeric_limits<float>::infinity();
    }
    ModelWindow window(stack);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ModelGrid* grid = window.grid();
    QCOMPARE(grid->layers(), layers);
    QCOMPARE(grid->heads(), heads);

    const QImage image = grid->grab().toImage().convertToFormat(QImage::Format_RGB32);
    const Colormap viridis(ColormapName::Viridis);
    int wrong = 0;
    QString first;
    for (int l = 0; l < layers; ++l)
        for (int h = 0; h < heads; ++h) {
            const Matrix weights = stack->head(l, 0, h);
            const float top = finiteMax(weights);
            const QRect tile = grid->tileRect(l, h);
            for (int i = 0; i < tokens; ++i)
                for (int j = 0; j < tokens; ++j) {
                    const QPoint at(tile.x() + int((j + 0.5) * tile.width() / tokens),
                                    tile.y() + int((i + 0.5) * tile.height() / tokens));
                    const float w = weights(i, j);
                    const QRgb expected =
                        std::isfinite(w) ? viridis.color(w / top) : heatmapInvalidFill;
                    if (image.pixel(at) != expected && wrong++ == 0)
                        first = QStringLiteral("layer %1 head %2 cell (%3, %4): %5, expected %6")
                                    .arg(l)
                                    .arg(h)
                                    .arg(i)
                                    .arg(j)
                                    .arg(image.pixel(at), 8, 16)
                                    .arg(expected, 8, 16);
                }
        }
    QVERIFY2(wrong == 0,
             qPrintable(QStringLiteral("%1 cells wrong, first %2").arg(wrong).arg(first)));
}

void TestModelView::hoverNamesLayerAndHead_data()
{
    QTest::addColumn<int>("layer");
    QTest::addColumn<int>("head");
    QTest::newRow("first head") << 0 << 0;
    QTest::newRow("layer 2, head 7") << 2 << 7;
    QTest::newRow("last head") << 3 << 11;
}

void TestModelView::hoverNamesLayerAndHead()
{
    QFETCH(int, layer);
    QFETCH(int, head);
    ModelWindow window(randomStack(4, 12, 6));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ModelGrid* grid = window.grid();
    const QString name = QStringLiteral("Layer %1, head %2").arg(layer).arg(head);

    QTest::mouseMove(grid, tileCentre(grid, layer, head));
    QTRY_VERIFY2(window.hoverText().startsWith(name), qPrintable(window.hoverText()));

    QHelpEvent help(QEvent::ToolTip, tileCentre(grid, layer, head),
                    grid->mapToGlobal(tileCentre(grid, layer, head)));
    QApplication::sendEvent(grid, &help);
    QTRY_COMPARE(QToolTip::text(), name);
    QToolTip::hideText();

    // The keyboard: from the first head, Down `layer` times and Right `head` times.
    grid->setFocus();
    window.setCurrentHead(0, 0);
    for (int l = 0; l < layer; ++l)
        QTest::keyClick(grid, Qt::Key_Down);
    for (int h = 0; h < head; ++h)
        QTest::keyClick(grid, Qt::Key_Right);
    QCOMPARE(grid->current(), QPoint(layer, head));
    QVERIFY2(grid->accessibleDescription().startsWith(name),
             qPrintable(grid->accessibleDescription()));
}

void TestModelView::openingAHeadShowsTheFilesNumbers_data()
{
    QTest::addColumn<QString>("how");
    QTest::addColumn<int>("layer");
    QTest::addColumn<int>("head");
    QTest::newRow("click") << "click" << 1 << 2;
    QTest::newRow("arrow keys and Enter") << "keys" << 2 << 1;
    QTest::newRow("a row of the patterns table") << "table" << 0 << 3;
}

void TestModelView::openingAHeadShowsTheFilesNumbers()
{
    QFETCH(QString, how);
    QFETCH(int, layer);
    QFETCH(int, head);
    QTemporaryDir dir;
    const QString path = writeNpy(*randomStack(3, 4, 7, 1.0f, 5), dir.filePath("heads.npy"));
    std::shared_ptr<const AttentionStack> file = attn::openAttentionFile(path.toStdString());
    ModelWindow window(file);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ModelGrid* grid = window.grid();
    if (how == "click") {
        QTest::mouseClick(grid, Qt::LeftButton, {}, tileCentre(grid, layer, head));
    } else if (how == "keys") {
        grid->setFocus();
        for (int l = 0; l < layer; ++l)
            QTest::keyClick(grid, Qt::Key_Down);
        for (int h = 0; h < head; ++h)
            QTest::keyClick(grid, Qt::Key_Right);
        QVERIFY(!window.headDialog());
        QTest::keyClick(grid, Qt::Key_Return);
    } else {
        QTableView* table = window.patternsTable();
        const QModelIndex index = table->model()->index(
            window.patternsModel()->rowOf(layer * file->shape().heads + head), 0);
        emit table->activated(index);
    }
    FileHeadDialog* dialog = window.headDialog();
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    QCOMPARE(dialog->layer(), layer);
    QCOMPARE(dialog->head(), head);
    QCOMPARE(grid->current(), QPoint(layer, head));
    const Matrix shown = dialog->view()->data().weights;
    const Matrix stored = file->head(layer, 0, head);
    QCOMPARE(shown.rows(), Eigen::Index(7));
    QVERIFY2(shown == stored, "the head view shows the file's floats exactly");
    QVERIFY(
        dialog->windowTitle().contains(QStringLiteral("Layer %1 · head %2").arg(layer).arg(head)));
}

void TestModelView::headViewTellsWhatStandsOut_data()
{
    QTest::addColumn<float>("rowSum");
    QTest::addColumn<bool>("nan");
    QTest::addColumn<QString>("finding"); // empty: none
    QTest::newRow("rows of a softmax: nothing to say") << 1.0f << false << QString();
    QTest::newRow("rows that sum to 0.5") << 0.5f << false << QString("do not sum to 1");
    QTest::newRow("a NaN weight") << 1.0f << true << QString("NaN or infinite");
}

void TestModelView::headViewTellsWhatStandsOut()
{
    QFETCH(float, rowSum);
    QFETCH(bool, nan);
    QFETCH(QString, finding);
    std::shared_ptr<MemoryAttentionStack> stack = randomStack(1, 2, 6, rowSum);
    if (nan)
        stack->data()[6 * 6 + 8] = std::numeric_limits<float>::quiet_NaN(); // head 1, (1, 2)
    ModelWindow window(stack);
    window.show();
    window.openHead(0, 1);
    FileHeadDialog* dialog = window.headDialog();
    QVERIFY(dialog);
    const QStringList findings = dialog->findings();
    if (finding.isEmpty()) {
        QVERIFY2(findings.isEmpty(), qPrintable(findings.join(u'\n')));
    } else {
        QCOMPARE(findings.size(), 1);
        QVERIFY2(findings.first().contains(finding), qPrintable(findings.first()));
        const QLabel* label = dialog->findChild<QLabel*>("findings");
        QVERIFY(label && label->isVisible());
        QVERIFY(label->text().contains(finding));
    }
    QVERIFY(dialog->summaryText().contains(QStringLiteral("6 queries × 6 keys")));
}

void TestModelView::findingsCountInEnglish_data()
{
    // A head of 4 rows: `halved` rows scaled to sum to 0.5, `nans` NaN weights.
    QTest::addColumn<int>("halved");
    QTest::addColumn<int>("nans");
    QTest::addColumn<QString>("finding");
    QTest::newRow("one row off") << 1 << 0 << "Rows of this head that do not sum to 1: 1 (";
    QTest::newRow("three rows off") << 3 << 0 << "Rows of this head that do not sum to 1: 3 (";
    QTest::newRow("one NaN") << 0 << 1 << "NaN or infinite weights: 1 (NaN 1,";
    QTest::newRow("two NaN") << 0 << 2 << "NaN or infinite weights: 2 (NaN 2,";
}

// A count reads right in English whatever it is: no "row(s)".
void TestModelView::findingsCountInEnglish()
{
    QFETCH(int, halved);
    QFETCH(int, nans);
    QFETCH(QString, finding);
    Matrix weights(4, 4);
    weights << 0.7f, 0.1f, 0.1f, 0.1f, 0.1f, 0.7f, 0.1f, 0.1f, 0.1f, 0.1f, 0.7f, 0.1f, 0.1f, 0.1f,
        0.1f, 0.7f;
    weights.topRows(halved) *= 0.5f;
    for (int k = 0; k < nans; ++k)
        weights(3, k) = std::numeric_limits<float>::quiet_NaN();
    const QStringList findings = fileHeadFindings(weightStatistics(weights));
    QVERIFY2(!findings.isEmpty() && findings.first().startsWith(finding),
             qPrintable(findings.join(u'\n')));
    QVERIFY2(!findings.join(u' ').contains(u"(s)"), qPrintable(findings.join(u'\n')));
}

void TestModelView::tokensLabelTheHead_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("hasTokens");
    QTest::newRow("a file with tokens") << fixture("stack5_stored.npz") << true;
    QTest::newRow("a file without: numbers") << fixture("nonfinite.npz") << false;
}

void TestModelView::tokensLabelTheHead()
{
    QFETCH(QString, file);
    QFETCH(bool, hasTokens);
    std::shared_ptr<const AttentionStack> stack = attn::openAttentionFile(file.toStdString());
    ModelWindow window(stack);
    window.show();
    window.openHead(1, 2);
    const HeatmapData& data = window.headDialog()->view()->data();
    QCOMPARE(data.queryLabels.isEmpty(), !hasTokens);
    for (int i = 0; i < data.rows(); ++i)
        QCOMPARE(data.queryLabel(i),
                 hasTokens ? QString::fromStdString(stack->queryTokens(0)[std::size_t(i)])
                           : QString::number(i));
}

void TestModelView::patternsTableSorts_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<Qt::SortOrder>("order");
    for (int column : {int(HeadPatternsModel::Previous), int(HeadPatternsModel::Self),
                       int(HeadPatternsModel::First), int(HeadPatternsModel::Entropy),
                       int(HeadPatternsModel::Named), int(HeadPatternsModel::Head)})
        for (Qt::SortOrder order : {Qt::AscendingOrder, Qt::DescendingOrder})
            QTest::addRow("column %d %s", column, order == Qt::AscendingOrder ? "up" : "down")
                << column << order;
}

void TestModelView::patternsTableSorts()
{
    QFETCH(int, column);
    QFETCH(Qt::SortOrder, order);
    std::shared_ptr<MemoryAttentionStack> stack = randomStack(4, 5, 9, 1.0f, 3);
    ModelWindow window(stack);
    window.show();
    QTableView* table = window.patternsTable();
    QAbstractItemModel* model = table->model();
    QCOMPARE(model->rowCount(), 20);
    table->sortByColumn(column, order);
    const std::vector<HeadPatterns> expected = stackPatterns(*stack, 0);
    for (int row = 0; row < model->rowCount(); ++row) {
        // The row's numbers are its head's.
        const int index = window.patternsModel()->headAt(row);
        QCOMPARE(model->index(row, HeadPatternsModel::Layer).data(Qt::UserRole).toInt(), index / 5);
        QCOMPARE(model->index(row, HeadPatternsModel::Head).data(Qt::UserRole).toInt(), index % 5);
        QCOMPARE(model->index(row, HeadPatternsModel::Self).data(Qt::UserRole).toDouble(),
                 expected[std::size_t(index)].self);
        if (row == 0)
            continue;
        const double before = model->index(row - 1, column).data(Qt::UserRole).toDouble();
        const double here = model->index(row, column).data(Qt::UserRole).toDouble();
        QVERIFY2(order == Qt::AscendingOrder ? before <= here : before >= here,
                 qPrintable(QStringLiteral("row %1: %2 then %3").arg(row).arg(before).arg(here)));
    }
    // Selecting a row outlines its head's thumbnail.
    table->selectRow(7);
    const int index = window.patternsModel()->headAt(7);
    QCOMPARE(window.grid()->current(), QPoint(index / 5, index % 5));
}

void TestModelView::headsLikeThisOne_data()
{
    QTest::addColumn<int>("layer");
    QTest::addColumn<int>("head");
    QTest::newRow("layer 0, head 0") << 0 << 0;
    QTest::newRow("layer 2, head 3") << 2 << 3;
}

void TestModelView::headsLikeThisOne()
{
    QFETCH(int, layer);
    QFETCH(int, head);
    std::shared_ptr<MemoryAttentionStack> stack = randomStack(3, 4, 8, 1.0f, 11);
    ModelWindow window(stack);
    window.show();
    window.patternsTable()->sortByColumn(HeadPatternsModel::Entropy, Qt::DescendingOrder);
    window.setCurrentHead(layer, head);
    window.findChild<QPushButton*>("headsLike")->click();
    const std::vector<int> expected = headsLike(stackPatterns(*stack, 0), layer * 4 + head, 8);
    QCOMPARE(window.patternsModel()->order(), expected);
    QCOMPARE(window.patternsModel()->headAt(0), layer * 4 + head);
    QCOMPARE(window.patternsTable()->currentIndex().row(), 0);
    QCOMPARE(window.grid()->current(), QPoint(layer, head));
}

void TestModelView::sequenceSelectorShowsThatSequence()
{
    std::shared_ptr<const AttentionStack> stack =
        attn::openAttentionFile(fixture("stack5_stored.npz").toStdString()); // B = 2
    ModelWindow window(stack);
    window.show();
    auto* combo = window.findChild<QComboBox*>("sequence");
    QVERIFY(combo && combo->isEnabled());
    combo->setCurrentIndex(1);
    QCOMPARE(window.sequence(), 1);
    const Thumbnail expected = stack->thumbnail(1, 1, 2, 32);
    QCOMPARE(window.grid()->thumbnail(1, 2).values, expected.values);
    window.openHead(1, 2);
    QVERIFY(Matrix(window.headDialog()->view()->data().weights) == stack->head(1, 1, 2));
}

void TestModelView::aLargeFilesPatternsComeAfterItsGrid()
{
    // 2 × 2 heads of 2100 × 2100: 17.6 M weights, beyond what is computed at once.
    const int tokens = 2100;
    const StackShape shape{2, 1, 2, tokens, tokens};
    FloatBuffer weights(std::size_t(4) * tokens * tokens, 1.0f / tokens);
    for (std::size_t i = 0; i < weights.size(); i += tokens + 1)
        weights[i] += 0.5f; // something on the diagonal: "self"
    auto stack = std::make_shared<MemoryAttentionStack>(shape, std::move(weights));
    ModelWindow window(stack);
    window.show();
    QCOMPARE(window.grid()->layers(), 2); // the grid at once
    QVERIFY(window.patternsPending());
    QCOMPARE(window.patternsModel()->rowCount(), 0);
    QVERIFY(!window.findChild<QPushButton*>("headsLike")->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(!window.patternsPending(), 60000);
    QCOMPARE(window.patternsModel()->rowCount(), 4);
    const std::vector<HeadPatterns> expected = stackPatterns(*stack, 0);
    for (int i = 0; i < 4; ++i)
        QCOMPARE(window.patternsModel()->patterns()[std::size_t(i)].self,
                 expected[std::size_t(i)].self);
    QVERIFY(window.findChild<QPushButton*>("headsLike")->isEnabled());
    QCOMPARE(window.patternsTable()->currentIndex().row(), 0); // layer 0, head 0 selected
}

void TestModelView::aLargeFilesThumbnailsComeAfterItsWindow_data()
{
    QTest::addColumn<int>("layers");
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("tokens");
    QTest::newRow("12 layers × 12 heads of 512 tokens") << 12 << 12 << 512;
    QTest::newRow("4 layers × 40 heads of 720 tokens") << 4 << 40 << 720;
}

void TestModelView::aLargeFilesThumbnailsComeAfterItsWindow()
{
    QFETCH(int, layers);
    QFETCH(int, heads);
    QFETCH(int, tokens);
    auto stack = std::make_shared<RepeatingStack>(StackShape{layers, 2, heads, tokens, tokens}, 5);
    stack->hold(0, 0); // the worker's thumbnails wait until release()
    ModelWindow window(stack);
    // A failing check must not leave the worker held: the window's destructor joins it.
    const auto opened = qScopeGuard([&] { stack->release(); });
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ModelGrid* grid = window.grid();

    // 1. The window at once, its grid of empty tiles saying what it waits for.
    QVERIFY(window.thumbnailsPending());
    QVERIFY(grid->computing());
    QVERIFY(window.patternsPending());
    QCOMPARE(grid->layers(), layers);
    QCOMPARE(grid->heads(), heads);
    QVERIFY2(grid->accessibleDescription().contains(QStringLiteral("computing the thumbnails")),
             qPrintable(grid->accessibleDescription()));
    const QRect last = grid->tileRect(layers - 1, heads - 1); // under neither words nor outline
    QImage empty(last.size(), QImage::Format_RGB32);
    empty.fill(grid->palette().color(QPalette::Midlight));
    QCOMPARE(grid->grab().toImage().convertToFormat(QImage::Format_RGB32).copy(last), empty);

    // 2. Then the same thumbnails, and pixels, as a grid given them at once.
    stack->release();
    QTRY_VERIFY_WITH_TIMEOUT(!window.thumbnailsPending(), 60000);
    const std::vector<Thumbnail> expected = stack->thumbnails(0, 32);
    for (int l = 0; l < layers; ++l)
        for (int h = 0; h < heads; ++h)
            QVERIFY2(grid->thumbnail(l, h).values == expected[std::size_t(l * heads + h)].values,
                     qPrintable(QStringLiteral("layer %1 head %2").arg(l).arg(h)));
    window.setCurrentHead(-1, -1); // no outline over the tiles
    ModelGrid today;
    today.setThumbnails(expected, layers, heads);
    today.setRoom(grid->size()); // tiles of the window's size
    const QImage shown = grid->grab().toImage().convertToFormat(QImage::Format_RGB32);
    const QImage atOnce = today.grab().toImage().convertToFormat(QImage::Format_RGB32);
    QCOMPARE(shown.size(), atOnce.size());
    int wrong = 0;
    QString first;
    for (int l = 0; l < layers; ++l)
        for (int h = 0; h < heads; ++h)
            if (shown.copy(grid->tileRect(l, h)) != atOnce.copy(today.tileRect(l, h)) &&
                wrong++ == 0)
                first = QStringLiteral("layer %1 head %2").arg(l).arg(h);
    QVERIFY2(wrong == 0,
             qPrintable(QStringLiteral("%1 tiles differ, first %2").arg(wrong).arg(first)));

    // 3. The patterns after them.
    QTRY_VERIFY_WITH_TIMEOUT(!window.patternsPending(), 60000);
    QCOMPARE(window.patternsModel()->rowCount(), layers * heads);
}

void TestModelView::keysAndHoverWhileThumbnailsCompute()
{
    auto stack = std::make_shared<RepeatingStack>(kLargeShape, 5);
    stack->hold(0, 0);
    ModelWindow window(stack);
    // A failing check must not leave the worker held: the window's destructor joins it.
    const auto opened = qScopeGuard([&] { stack->release(); });
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ModelGrid* grid = window.grid();
    QVERIFY(window.thumbnailsPending());

    // The keys move the outline and Enter opens the head, its numbers the file's.
    grid->setFocus();
    window.setCurrentHead(0, 0);
    QTest::keyClick(grid, Qt::Key_Down);
    QTest::keyClick(grid, Qt::Key_Down);
    QTest::keyClick(grid, Qt::Key_Right);
    QCOMPARE(grid->current(), QPoint(2, 1));
    const QString description = grid->accessibleDescription();
    QVERIFY2(description.startsWith(QStringLiteral("Layer 2, head 1: computing the thumbnails")),
             qPrintable(description));
    QTest::keyClick(grid, Qt::Key_Return);
    FileHeadDialog* dialog = window.headDialog();
    QVERIFY(dialog && dialog->isVisible());
    QCOMPARE(dialog->layer(), 2);
    QCOMPARE(dialog->head(), 1);
    QVERIFY(Matrix(dialog->view()->data().weights) == stack->head(2, 0, 1));

    // Hover names the tile, its largest weight not known yet.
    QTest::mouseMove(grid, tileCentre(grid, 1, 2));
    QTRY_COMPARE(window.hoverText(),
                 QStringLiteral("Layer 1, head 2 · click or press Enter to open it"));
    QHelpEvent help(QEvent::ToolTip, tileCentre(grid, 1, 2),
                    grid->mapToGlobal(tileCentre(grid, 1, 2)));
    QApplication::sendEvent(grid, &help);
    QTRY_COMPARE(QToolTip::text(), QStringLiteral("Layer 1, head 2"));
    QToolTip::hideText();
    QVERIFY(window.thumbnailsPending());

    // Once the thumbnails come, the named tile gets its largest weight.
    stack->release();
    QTRY_VERIFY_WITH_TIMEOUT(!window.thumbnailsPending(), 60000);
    const QString weight = QLocale().toString(stack->thumbnail(1, 0, 2, 32).maximum, 'f', 3);
    QCOMPARE(window.hoverText(),
             QStringLiteral("Layer 1, head 2 · largest weight %1 · click or press Enter to open it")
                 .arg(weight));
    QVERIFY2(
        grid->accessibleDescription().startsWith(QStringLiteral("Layer 2, head 1: largest weight")),
        qPrintable(grid->accessibleDescription()));
}

void TestModelView::aNewerSequenceCancelsTheOlder()
{
    auto stack = std::make_shared<RepeatingStack>(kLargeShape, 5);
    stack->hold(0, 0);
    ModelWindow window(stack);
    // A failing check must not leave the worker held: the window's destructor joins it.
    const auto opened = qScopeGuard([&] { stack->release(); });
    window.show();
    QTRY_VERIFY(stack->waiting() > 0); // sequence 0's job is reading its heads
    window.findChild<QComboBox*>("sequence")->setCurrentIndex(1);
    QCOMPARE(window.sequence(), 1);
    QVERIFY(window.thumbnailsPending());
    QVERIFY(window.patternsPending());
    stack->release();
    QTRY_VERIFY_WITH_TIMEOUT(!window.thumbnailsPending(), 60000);
    QTRY_VERIFY_WITH_TIMEOUT(!window.patternsPending(), 60000);

    // The older job stopped at its next head: no more read than were in flight.
    const int heads = kLargeShape.layers * kLargeShape.heads;
    QVERIFY2(stack->reads(0) <= std::min(heads - 1, coreCount()),
             qPrintable(QStringLiteral("%1 heads of sequence 0 read").arg(stack->reads(0))));
    const std::vector<Thumbnail> thumbnails = stack->thumbnails(1, 32);
    const std::vector<HeadPatterns> patterns = stackPatterns(*stack, 1);
    for (int k = 0; k < heads; ++k) {
        QVERIFY2(window.grid()->thumbnail(k / kLargeShape.heads, k % kLargeShape.heads).values ==
                     thumbnails[std::size_t(k)].values,
                 qPrintable(QStringLiteral("head %1").arg(k)));
        QCOMPARE(window.patternsModel()->patterns()[std::size_t(k)].entropy,
                 patterns[std::size_t(k)].entropy);
    }
}

void TestModelView::closingWhileComputingIsClean_data()
{
    QTest::addColumn<int>("after"); // the worker's reads let through before the gate
    QTest::newRow("while its thumbnails compute") << 0;
    QTest::newRow("while its patterns compute") << kLargeShape.layers * kLargeShape.heads;
}

void TestModelView::closingWhileComputingIsClean()
{
    QFETCH(int, after);
    auto stack = std::make_shared<RepeatingStack>(kLargeShape, 5);
    stack->hold(0, after);
    QPointer<ModelWindow> window = new ModelWindow(stack);
    const auto cleanup = qScopeGuard([&] {
        stack->release(); // after a failing check: the destructor joins the worker
        delete window.data();
    });
    window->show();
    QTRY_VERIFY(stack->waiting() > 0);
    QTRY_COMPARE(window->thumbnailsPending(), after == 0); // the thumbnails shown first
    window->close(); // deleted from the event loop (Qt::WA_DeleteOnClose)
    stack->release();
    QTRY_VERIFY(window.isNull());
    // The job was cancelled and its thread joined: the worker let go of the stack, and
    // nothing it posted is left to run.
    QCOMPARE(stack.use_count(), 1L);
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
}

void TestModelView::exportsTheLayersNumbers()
{
    QTemporaryDir dir;
    std::shared_ptr<MemoryAttentionStack> stack = randomStack(3, 4, 5, 1.0f, 9);
    ModelWindow window(stack);
    window.setCurrentHead(2, 1);
    // NPY: (1, H, T, T) of layer 2, read back as an attention file of one layer.
    const QString npy = dir.filePath("layer.npy");
    QCOMPARE(window.exportTo(npy), QString());
    std::unique_ptr<AttentionStack> back = attn::openAttentionFile(npy.toStdString());
    QCOMPARE(back->shape(), (StackShape{1, 1, 4, 5, 5}));
    for (int h = 0; h < 4; ++h)
        QVERIFY(back->head(0, 0, h) == stack->head(2, 0, h));
    // CSV: a header and one line a weight of the layer.
    const QString csv = dir.filePath("layer.csv");
    QCOMPARE(window.exportTo(csv), QString());
    QFile csvFile(csv);
    QVERIFY(csvFile.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = csvFile.readAll().split('\n');
    QCOMPARE(lines.size(), 1 + 4 * 25 + 1); // the last line break leaves an empty piece
    QVERIFY(lines[1].startsWith("2,0,0,0,0,0,"));
    // JSON: the layer alone.
    const QString json = dir.filePath("layer.json");
    QCOMPARE(window.exportTo(json), QString());
    QFile jsonFile(json);
    QVERIFY(jsonFile.open(QIODevice::ReadOnly));
    const QJsonObject root = QJsonDocument::fromJson(jsonFile.readAll()).object();
    QCOMPARE(root["layers"].toArray().size(), 1);
    QCOMPARE(root["layers"].toArray()[0].toObject()["layer"].toInt(), 2);
    // PNG: the chosen head as a figure.
    const QString png = dir.filePath("head.png");
    QCOMPARE(window.exportTo(png), QString());
    QVERIFY(!QImage(png).isNull());
}

QTEST_MAIN(TestModelView)
#include "tst_modelview.moc"
