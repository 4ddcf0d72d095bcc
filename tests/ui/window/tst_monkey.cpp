// The main window under stress: thousands of random actions from a fixed seed — typed
// and pasted text of every kind, every switch, both languages, view options, exports,
// saved, opened and damaged session files — each followed by the checks every state of
// the window must pass once the worker has settled.
//
// ATTN_MONKEY_SEED replays a run (the seed is printed first), ATTN_MONKEY_ACTIONS sets
// how many actions run (default 2000) and ATTN_MONKEY_SECONDS the wall clock after
// which the run stops early (default 60). An action that would compute more than the
// budget allows is skipped, so a run takes about a minute on two cores, sanitizers too.
//
// Legend: B sequences, T tokens each, C = d_model, H heads.
#include "computecontroller.h"
#include "controlpanel.h"
#include "embeddingeditor.h"
#include "figurefile.h"
#include "headdialog.h"
#include "heatmapgrid.h"
#include "heatmappainter.h"
#include "labels.h"
#include "language.h"
#include "mainwindow.h"
#include "session.h"
#include "sessionfiles.h"
#include "statisticspanel.h"
#include "tokenchips.h"

#include <QtTest>

#include <QAction>
#include <QBuffer>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QGuiApplication>
#include <QImage>
#include <QImageReader>
#include <QLineEdit>
#include <QMenuBar>
#include <QMimeData>
#include <QPaintEngine>
#include <QPainter>
#include <QPlainTextEdit>
#include <QSlider>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolButton>

#include <array>
#include <climits>
#include <cmath>
#include <deque>
#include <functional>
#include <optional>
#include <random>

using namespace attn;
using namespace attn::ui;
using namespace Qt::StringLiterals;

namespace {

// Unoptimised and sanitised builds (CI's Debug + ASan/UBSan pass) run an order of
// magnitude slower; they get a smaller budget, so the run still ends within minutes.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif
#ifdef NDEBUG
constexpr bool kFastBuild = !kSanitized;
#else
constexpr bool kFastBuild = false;
#endif

// The most one action may ask of the engine and the painting.
struct Budget {
    qint64 cells;       // B·H·T²: each (B, H, T, T) tensor, the statistics, the heatmaps
    qint64 projection;  // B·T·C²: each of the four linear layers
    qint64 layers;      // C²: the draws of W_q, W_k, W_v, W_o
    int heads;          // H: one heatmap widget and one table row each
    qint64 numberCells; // B·H·T² written as CSV, NPY or JSON
    qint64 figureCells; // (H + 1)·T² drawn into a PNG or the clipboard
    int settleMs;       // the longest one action may take to settle
};
constexpr Budget kBudget =
    kFastBuild ? Budget{40'000'000, 400'000'000, 4096 * 4096, 512, 200'000, 2'000'000, 60'000}
               : Budget{3'000'000, 20'000'000, 4096 * 4096, 64, 20'000, 200'000, 120'000};

constexpr std::uint32_t kDefaultSeed = 20240611;
constexpr int kDefaultActions = 2000;
constexpr int kDefaultSeconds = 60;
constexpr int kLongTextTokens = 3000;
constexpr int kHistory = 25; // actions printed when a check fails

int environmentInt(const char* name, int fallback)
{
    bool ok = false;
    const int value = qEnvironmentVariableIntValue(name, &ok);
    return ok && value > 0 ? value : fallback;
}

template <typename W> W* child(QWidget* root, const QString& name)
{
    W* widget = root->findChild<W*>(name);
    if (!widget)
        qFatal("no child widget %s", qPrintable(name));
    return widget;
}

// The offscreen platform and the font fallback for rare scripts talk a lot while the
// monkey works; none of it is a failure, and it would bury the action log.
QtMessageHandler qtTestHandler = nullptr;

void quietHandler(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    if (type == QtWarningMsg && (message.startsWith(u"This plugin does not support") ||
                                 message.contains(u"OpenType support missing")))
        return;
    qtTestHandler(type, context, message);
}

// Runs the event loop until done() or the timeout; false on the timeout. Unlike
// QTest::qWaitFor it wakes on every event, not every 10 ms, so a quick action costs
// little more than its work.
bool waitUntil(const std::function<bool()>& done, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    QTimer tick; // wakes the wait below even when no event comes
    tick.start(20);
    for (;;) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        if (done())
            return true;
        if (deadline.hasExpired())
            return false;
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents);
    }
}

// `text` for the action log: controls as \\uXXXX, at most 40 characters.
QString shown(const QString& text)
{
    QString out;
    for (QChar c : text.left(40))
        out += c.category() == QChar::Other_Control || c.category() == QChar::Other_Format
                   ? QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'))
                   : QString(c);
    return text.size() > 40 ? out + QStringLiteral("…") : out;
}

// The tokens of `request`, or the core's one-line reason why there are none.
struct Outcome {
    std::optional<TokenBatch> tokens;
    std::optional<TokenBatch> keys; // the second text's in cross-attention, else tokens
    QString error;
};

// The window's refusal of `request`: the core's message, or for a text of white space
// the window's own, in the interface language.
Outcome expectedOutcome(const Request& request)
{
    if (const std::optional<InputError> problem = checkConfig(request.config))
        return {std::nullopt, std::nullopt, refusalText(*problem)};
    try {
        TokenBatch tokens = tokenize(request.text, request.config.tokenizer);
        TokenBatch keys =
            request.config.attention == AttentionKind::Cross
                ? crossTokens(request.crossText, request.config.tokenizer, tokens.batch())
                : tokens;
        return {std::move(tokens), std::move(keys), {}};
    } catch (const InputError& error) {
        return {std::nullopt, std::nullopt, refusalText(error)};
    }
}

bool affordable(const Request& request)
{
    const Outcome outcome = expectedOutcome(request);
    if (!outcome.tokens)
        return true; // refused before anything is computed
    const qint64 B = outcome.tokens->batch(), T = outcome.tokens->length();
    const qint64 Tk = outcome.keys->length();
    const qint64 C = request.config.dModel, H = request.config.heads;
    return B * H * T * Tk <= kBudget.cells && B * std::max(T, Tk) * C * C <= kBudget.projection &&
           C * C <= kBudget.layers && H <= kBudget.heads;
}

// "B 2 · T 7 · C 64 · H 4 · tokenizer auto" for the action log, or the refusal.
QString describe(const Request& request)
{
    const Outcome outcome = expectedOutcome(request);
    const Config& c = request.config;
    const QString model = QStringLiteral("C %1 · H %2 · tokenizer %3")
                              .arg(c.dModel)
                              .arg(c.heads)
                              .arg(QLatin1StringView(spellingOf(c.tokenizer)));
    if (!outcome.tokens)
        return QStringLiteral("refused (%1) · ").arg(outcome.error) + model;
    return QStringLiteral("B %1 · T %2 · ")
               .arg(outcome.tokens->batch())
               .arg(outcome.tokens->length()) +
           model;
}

// Where two sessions differ, for the failure message.
QString sessionDifference(const Session& a, const Session& b)
{
    if (a.request.text != b.request.text) {
        const QString x = QString::fromStdString(a.request.text);
        const QString y = QString::fromStdString(b.request.text);
        qsizetype at = 0;
        while (at < x.size() && at < y.size() && x[at] == y[at])
            ++at;
        return QStringLiteral("the text, from character %1: \"%2\" became \"%3\"")
            .arg(at)
            .arg(shown(x.mid(at, 10)), shown(y.mid(at, 10)));
    }
    if (a.request.config != b.request.config)
        return QStringLiteral("the config");
    if (a.request.embeddingOverrides != b.request.embeddingOverrides)
        return QStringLiteral("the embedding overrides");
    return QStringLiteral("the view (sequence %1 became %2)")
        .arg(a.view.sequence)
        .arg(b.view.sequence);
}

qint64 weightCells(const Result& result)
{
    return qint64(result.batch()) * result.heads() * result.length() * result.keyLength();
}

// Empty when every weight is a probability, or NaN where PyTorch gives NaN too: a
// softmax over a slice that the -inf fill masked entirely, which only a softmax over
// the queries or the batch can meet (every row keeps at least key 0).
QString weightProblems(const Result& result)
{
    const Config& c = result.config();
    const bool nanAllowed = c.maskFill == MaskFill::NegInf &&
                            c.maskStage == MaskStage::BeforeSoftmax && c.axis != SoftmaxAxis::Keys;
    const bool rowsSumToOne =
        c.axis == SoftmaxAxis::Keys && c.maskStage == MaskStage::BeforeSoftmax;
    const int T = result.length(), Tk = result.keyLength();
    for (int b = 0; b < result.batch(); ++b)
        for (int h = 0; h < result.heads(); ++h) {
            const Matrix& p = result.weights->at(b, h);
            const MaskMatrix& m = (*result.mask)[std::size_t(b)];
            if (p.rows() != T || p.cols() != Tk)
                return QStringLiteral("weights[%1][%2] are %3×%4, not T_q×T_k = %5×%6")
                    .arg(b)
                    .arg(h)
                    .arg(p.rows())
                    .arg(p.cols())
                    .arg(T)
                    .arg(Tk);
            for (int i = 0; i < T; ++i) {
                for (int j = 0; j < Tk; ++j) {
                    const float v = p(i, j);
                    const bool ok = std::isnan(v) ? nanAllowed && m(i, j) : v >= 0 && v <= 1.0001f;
                    if (!ok)
                        return QStringLiteral("weights[%1][%2][%3][%4] = %5 (mask %6)")
                            .arg(b)
                            .arg(h)
                            .arg(i)
                            .arg(j)
                            .arg(double(v))
                            .arg(m(i, j));
                }
                if (const float sum = p.row(i).sum(); rowsSumToOne && std::abs(sum - 1) > 1e-3f)
                    return QStringLiteral("row %1 of weights[%2][%3] sums to %4")
                        .arg(i)
                        .arg(b)
                        .arg(h)
                        .arg(double(sum));
            }
        }
    return {};
}

// Counts what a painting draws, drawing nothing: the cost of a repaint without a clock.
class CountingEngine final : public QPaintEngine {
public:
    CountingEngine() : QPaintEngine(AllFeatures) {}
    bool begin(QPaintDevice*) override { return true; }
    bool end() override { return true; }
    void updateState(const QPaintEngineState&) override {}
    void drawPixmap(const QRectF&, const QPixmap&, const QRectF&) override {}
    void drawPolygon(const QPointF*, int, PolygonDrawMode) override {}
    void drawPath(const QPainterPath&) override {}
    void drawTextItem(const QPointF&, const QTextItem&) override { ++texts; }
    void drawRects(const QRectF*, int count) override { rects += count; }
    void drawRects(const QRect*, int count) override { rects += count; }
    [[nodiscard]] Type type() const override { return User; }

    qint64 texts = 0;
    qint64 rects = 0;
};

class CountingDevice final : public QPaintDevice {
public:
    [[nodiscard]] QPaintEngine* paintEngine() const override { return &engine_; }
    [[nodiscard]] CountingEngine& engine() { return engine_; }

protected:
    [[nodiscard]] int metric(PaintDeviceMetric metric) const override
    {
        switch (metric) {
        case PdmWidth:
        case PdmHeight:
            return 1'000'000;
        case PdmWidthMM:
        case PdmHeightMM:
            return 264'583;
        case PdmDpiX:
        case PdmDpiY:
        case PdmPhysicalDpiX:
        case PdmPhysicalDpiY:
            return 96;
        case PdmDepth:
            return 32;
        case PdmNumColors:
            return INT_MAX;
        case PdmDevicePixelRatio:
            return 1;
        case PdmDevicePixelRatioScaled:
            return int(devicePixelRatioFScale());
        }
        return 0;
    }

private:
    mutable CountingEngine engine_;
};

// Text of every kind a person pastes: languages, emoji, controls, nothing, a book.
class TextMaker {
public:
    explicit TextMaker(std::mt19937& rng) : rng_(rng) {}

    int below(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
    bool chance(int percent) { return below(100) < percent; }

    QString word()
    {
        static const char* const words[] = {"The",      "cat",       "sat",   "on",     "the",
                                            "mat",      "attention", "is",    "all",    "you",
                                            "need",     "e.g.",      "don't", "Hello,", "world!",
                                            "=SUM(A1)", "<pad>",     "42",    "3.14",   "a"};
        return QString::fromUtf8(words[below(std::size(words))]);
    }

    QString words(int count)
    {
        QStringList list;
        for (int k = 0; k < count; ++k)
            list << word();
        return list.join(u' ');
    }

    QString chinese()
    {
        static const char* const phrases[] = {"我喜欢这个产品的设计", "它很好", "注意力机制",
                                              "猫坐在垫子上", "你好，世界！"};
        QString text = QString::fromUtf8(phrases[below(std::size(phrases))]);
        for (int k = below(6); k > 0; --k)
            text += QChar(char16_t(0x4E00 + below(0x9FA5 - 0x4E00)));
        return text;
    }

    QString emoji()
    {
        static const char* const pieces[] = {"👨‍👩‍👧‍👦",
                                             "🇨🇳",
                                             "👍🏽",
                                             "❤️",
                                             "🙂",
                                             "🏳️‍🌈",
                                             "e\u0301",
                                             "👩🏿‍💻"};
        QStringList list;
        for (int k = 1 + below(5); k > 0; --k)
            list << QString::fromUtf8(pieces[below(std::size(pieces))]);
        return list.join(chance(50) ? QStringLiteral(" ") : QString());
    }

    QString controls()
    {
        static const char16_t specials[] = {0x0000, 0x0001, 0x0008, 0x001B, 0x007F, 0x0085,
                                            0x00A0, 0x200B, 0x200D, 0x200E, 0x202E, 0x2028,
                                            0x2029, 0x3000, 0xFEFF, 0xFFFD, 0x000C, 0x000D};
        QString text;
        for (int k = 1 + below(12); k > 0; --k) {
            if (chance(40))
                text += word();
            text += QChar(specials[below(std::size(specials))]);
        }
        return text;
    }

    QString whitespace()
    {
        static const char16_t spaces[] = {u' ', u'\t', u'\n', 0x3000, 0x00A0, 0x2003, u'\r'};
        QString text;
        for (int k = 1 + below(20); k > 0; --k)
            text += QChar(spaces[below(std::size(spaces))]);
        return text;
    }

    QString manyLines()
    {
        QStringList lines;
        for (int k = 2 + below(80); k > 0; --k) // past kMaxSequences sometimes
            lines << (chance(15) ? QString() : chance(30) ? chinese() : words(1 + below(10)));
        return lines.join(u'\n');
    }

    QString longText(int tokens) { return words(tokens); }

    QString codePoints()
    {
        struct Range {
            char32_t first, last;
        };
        static const Range ranges[] = {{0x20, 0x7E},       {0x00, 0x1F},        {0xA0, 0x24F},
                                       {0x300, 0x36F},     {0x590, 0x6FF},      {0x900, 0x97F},
                                       {0x3040, 0x30FF},   {0x4E00, 0x9FFF},    {0xAC00, 0xD7A3},
                                       {0xE000, 0xE0FF},   {0xFE00, 0xFE0F},    {0xFFF0, 0xFFFF},
                                       {0x1F300, 0x1FAFF}, {0x10FFF0, 0x10FFFF}};
        std::u32string text;
        for (int k = 1 + below(40); k > 0; --k) {
            const Range& r = ranges[below(std::size(ranges))];
            text += char32_t(r.first + char32_t(below(int(r.last - r.first) + 1)));
        }
        return QString::fromStdU32String(text);
    }

    QString longToken() { return QString(1000 + below(20'000), QChar(u"aé猫"[below(3)])); }

    // Any of the above; `longTextPercent` of the time the ~3000-token text.
    QString any(int longTextPercent)
    {
        if (chance(longTextPercent))
            return longText(kLongTextTokens - 200 + below(400));
        switch (below(11)) {
        case 0:
            return {};
        case 1:
            return whitespace();
        case 2:
            return chinese();
        case 3:
            return emoji();
        case 4:
            return controls();
        case 5:
            return manyLines();
        case 6:
            return codePoints();
        case 7:
            return chance(20) ? longToken() : words(1 + below(12));
        case 8:
            return chance(10) ? longText(kMaxTokens + 1) // one past the limit
                              : words(1 + below(5)) + u'\n' + chinese();
        case 9:
            return word() + u' ' + emoji() + u' ' + chinese();
        default:
            return words(1 + below(12));
        }
    }

private:
    std::mt19937& rng_;
};

} // namespace

class TestMonkey : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void emptyTextSupersedesARunningCompute();
    void aRefusalOutlivesALanguageSwitch();
    void theMeanTileOfNewerHeatmapsOpens();
    void aZoomedHeatmapPaintsOnlyWhatShows();
    void randomActions();

private:
    struct ActionKind {
        const char* name;
        int weight;
        void (TestMonkey::*run)();
    };

    [[nodiscard]] MainWindow* open();
    int below(int n) { return text_->below(n); }
    bool chance(int percent) { return text_->chance(percent); }
    void note(const QString& what);
    [[nodiscard]] QString history() const;
    [[nodiscard]] bool settle(QString* problem);
    [[nodiscard]] QString invariantProblems();
    void submitNow();

    // The actions.
    void typeText();
    void pressKeys();
    void submitUnlessOverBudget(QPlainTextEdit* edit, const QString& before);
    void chooseTokenizer();
    void chooseDModel();
    void chooseHeads();
    void typeSeed();
    void flipSwitch();
    void crossAttention();
    void editEmbedding();
    void moveTemperature();
    void switchLanguage();
    void changeView();
    void exportFile();
    void saveSession();
    void openSession();
    void openDamagedSession();
    void poke();

    void makeRoomForLongText();
    [[nodiscard]] bool tryModel(int dModel, int heads);
    void expectFilesIntact(const QString& where);

    std::unique_ptr<QTemporaryDir> dir_;
    std::unique_ptr<QSettings> settings_;
    std::unique_ptr<Language> language_;
    std::unique_ptr<MainWindow> window_;

    std::mt19937 rng_;
    std::unique_ptr<TextMaker> text_;
    std::deque<QString> history_;
    int action_ = 0;
    int skipped_ = 0;
    QStringList problems_; // found inside actions, reported after them
    QStringList savedSessions_;
    std::map<QString, QByteArray> files_; // every file an action left, with its bytes
    const void* checkedWeights_ = nullptr;
    QStringList modals_; // modal dialogs that appeared (and were closed)
};

void TestMonkey::initTestCase()
{
    qtTestHandler = qInstallMessageHandler(quietHandler);
}

void TestMonkey::init()
{
    dir_ = std::make_unique<QTemporaryDir>();
    QVERIFY(dir_->isValid());
    settings_ = std::make_unique<QSettings>(dir_->filePath("settings.ini"), QSettings::IniFormat);
    language_ = std::make_unique<Language>();
    QVERIFY(language_->apply("en"));
}

void TestMonkey::cleanup()
{
    window_.reset();
    language_.reset();
    settings_.reset();
    dir_.reset();
}

MainWindow* TestMonkey::open()
{
    window_ = std::make_unique<MainWindow>(language_.get(), settings_.get());
    window_->show();
    return window_.get();
}

void TestMonkey::emptyTextSupersedesARunningCompute()
{
    // Emptying the text while a long compute runs: the empty text's message must stay,
    // not be replaced by the stale result when it arrives.
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    auto* edit = child<QPlainTextEdit>(w, "sentenceEdit");
    auto* chips = child<TokenChips>(w, "tokenChips");
    edit->setPlainText(TextMaker(rng_).longText(1500));
    emit w->controlPanel()->requestChanged(); // the debounce, at once
    QVERIFY(w->controller()->busy());
    edit->setPlainText(QString());
    emit w->controlPanel()->requestChanged();
    QTRY_VERIFY_WITH_TIMEOUT(!w->controller()->busy(), kBudget.settleMs);
    QTest::qWait(50);
    QVERIFY2(!chips->error().isEmpty(), "the empty text's message was replaced");
    QCOMPARE(w->lastResult().request.text, std::string(exampleSentence("en").toStdString()));
}

void TestMonkey::aRefusalOutlivesALanguageSwitch()
{
    // Switching the language showed the last result again, chips and all, over the
    // refusal of the newer text; the refusal stays now, reworded in the new language.
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    auto* edit = child<QPlainTextEdit>(w, "sentenceEdit");
    auto* chips = child<TokenChips>(w, "tokenChips");
    const QString limit = QStringLiteral("more than the limit of 4096 per sequence");
    edit->setPlainText(TextMaker(rng_).longText(kMaxTokens + 1));
    emit w->controlPanel()->requestChanged();
    QTRY_VERIFY_WITH_TIMEOUT(chips->error().contains(limit), kBudget.settleMs);
    const QString english = chips->error();
    w->setLanguage("zh_CN");
    QVERIFY2(chips->error() != english && chips->error().contains(QStringLiteral("4096")),
             qPrintable(chips->error()));
    w->setLanguage("en");
    QCOMPARE(chips->error(), english);

    edit->setPlainText(QStringLiteral(" \t "));
    emit w->controlPanel()->requestChanged();
    QTRY_VERIFY(!chips->error().isEmpty() && !chips->error().contains(limit));
    QCOMPARE(chips->error(),
             QStringLiteral("The text is empty: type a sentence, one line per sequence."));
    w->setLanguage("zh_CN");
    QVERIFY(chips->error() !=
            QStringLiteral("The text is empty: type a sentence, one line per sequence."));
}

void TestMonkey::theMeanTileOfNewerHeatmapsOpens()
{
    // A new request's heatmaps show before its statistics, so the grid can hold fewer
    // heads than the last complete result. A click on its mean tile then opened the tile
    // at the old head count, past the grid's end.
    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    QCOMPARE(w->lastResult().heads(), 4);
    Request request = w->controlPanel()->request();
    request.config.heads = 2;
    AttentionEngine engine;
    const Result partial = engine.compute(request, nullptr, Stage::Normalize);
    w->heatmapGrid()->setResult(partial, w->viewOptions()); // as weightsReady does
    QCOMPARE(w->heatmapGrid()->count(), 3);
    emit w->heatmapGrid()->headActivated(-1); // the mean tile, clicked
    auto* dialog = w->findChild<HeadDialog*>();
    QVERIFY(dialog && dialog->isVisible());
    QCOMPARE(dialog->windowTitle(), w->heatmapGrid()->view(2)->data().title);
}

void TestMonkey::aZoomedHeatmapPaintsOnlyWhatShows()
{
    // The monkey's first hang: a head dialog open while a long text came in repainted
    // all T² cells, one text per cell, for a window that shows a few hundred (seconds
    // per repaint at T = 1000, minutes at 3000). The cells and values outside the clip
    // are not drawn now.
    constexpr int T = 600;
    constexpr double cell = 32;
    HeatmapData data;
    data.weights = Matrix::Constant(T, T, 1.0f / T);
    for (int t = 0; t < T; ++t)
        data.queryLabels << QStringLiteral("w%1").arg(t);
    data.keyLabels = data.queryLabels;
    HeatmapStyle style;
    style.annotate = true;
    const HeatmapLayout layout = HeatmapLayout::forCellSize(data, style, cell);
    CountingDevice device;
    {
        QPainter painter(&device);
        painter.setClipRect(QRect(0, 0, 800, 600)); // what a head dialog shows
        paintHeatmap(painter, layout, data, style);
    }
    const qint64 shown = qint64(800 / cell + 2) * qint64(600 / cell + 2);
    const qint64 labels = 2 * T + 50; // every label, titles and the colorbar's
    QVERIFY2(device.engine().texts <= shown + labels,
             qPrintable(QStringLiteral("%1 texts drawn").arg(device.engine().texts)));
    QVERIFY2(device.engine().rects <= shown + labels,
             qPrintable(QStringLiteral("%1 rectangles drawn").arg(device.engine().rects)));
    QVERIFY(device.engine().texts > 0);
}

void TestMonkey::note(const QString& what)
{
    history_.push_back(QStringLiteral("#%1 %2").arg(action_).arg(what.left(160)));
    if (history_.size() > kHistory)
        history_.pop_front();
}

QString TestMonkey::history() const
{
    QStringList lines;
    for (const QString& line : history_)
        lines << QStringLiteral("  ") + line;
    return lines.join(u'\n');
}

void TestMonkey::submitNow()
{
    // What the debounce timer does kControlPanel::kDebounceMs after the last keystroke;
    // now and then the test waits for the real one instead.
    if (chance(12)) {
        QTest::qWait(ControlPanel::kDebounceMs + 30);
        return;
    }
    emit window_->controlPanel()->requestChanged();
}

// Waits until the window shows the outcome of the controls' request: its result, or
// its error in place of the token chips.
bool TestMonkey::settle(QString* problem)
{
    MainWindow* w = window_.get();
    auto* chips = child<TokenChips>(w, "tokenChips");
    const Request request = w->controlPanel()->request();
    const Outcome expected = expectedOutcome(request);
    const bool settled = waitUntil(
        [&] {
            if (w->controller()->busy())
                return false;
            return expected.tokens ? w->lastResult().request == request
                                   : chips->error() == expected.error;
        },
        kBudget.settleMs);
    if (!settled)
        *problem = QStringLiteral("did not settle within %1 s (busy %2, error \"%3\")")
                       .arg(kBudget.settleMs / 1000)
                       .arg(w->controller()->busy())
                       .arg(chips->error());
    return settled;
}

QString TestMonkey::invariantProblems()
{
    MainWindow* w = window_.get();
    if (!w->isVisible())
        return QStringLiteral("the window is gone");
    if (!modals_.isEmpty())
        return QStringLiteral("a modal dialog appeared: ") + modals_.join(u"; ");
    if (!problems_.isEmpty())
        return problems_.join(u"; ");
    auto* chips = child<TokenChips>(w, "tokenChips");
    const Request request = w->controlPanel()->request();
    const Outcome expected = expectedOutcome(request);
    if (!expected.tokens) {
        if (chips->error() != expected.error)
            return QStringLiteral("the error shown is \"%1\", not \"%2\"")
                .arg(chips->error(), expected.error);
        if (chips->error().contains(u'\n'))
            return QStringLiteral("the error is not one line: ") + chips->error();
        // A large result let go of before the refused compute came back with its numbers.
        if (w->heatmapGrid()->hasLetGo())
            return QStringLiteral("the heatmaps stay without their numbers after a refusal");
        return {};
    }

    const Result& r = w->lastResult();
    if (!r.valid())
        return QStringLiteral("no valid result for a valid request");
    if (r.request != request)
        return QStringLiteral("the result is not the controls' request");
    if (*r.tokens != *expected.tokens)
        return QStringLiteral("the result's tokens (B=%1, T=%2) are not the tokenizer's (B=%3, "
                              "T=%4)")
            .arg(r.batch())
            .arg(r.length())
            .arg(expected.tokens->batch())
            .arg(expected.tokens->length());
    if (*r.keyTokens != *expected.keys)
        return QStringLiteral("the result's keys (T_k=%1) are not the second text's (T_k=%2)")
            .arg(r.keyLength())
            .arg(expected.keys->length());
    if (r.isCross() && r.config().mask != MaskKind::None)
        return QStringLiteral("a causal mask in cross-attention");
    if (!chips->error().isEmpty())
        return QStringLiteral("an error is shown beside a valid result: ") + chips->error();
    if (chips->tokens() != *r.tokens)
        return QStringLiteral("the chips do not show the result's tokens");
    // Every head, and their mean when there are several.
    if (w->heatmapGrid()->count() != r.heads() + (r.heads() > 1 ? 1 : 0))
        return QStringLiteral("%1 heatmaps for %2 heads")
            .arg(w->heatmapGrid()->count())
            .arg(r.heads());
    for (int k = 0; k < w->heatmapGrid()->count(); ++k) {
        const HeatmapData& data = w->heatmapGrid()->view(k)->data();
        if (data.rows() != r.length() || data.columns() != r.keyLength() ||
            data.keyLabels.size() != r.keyLength())
            return QStringLiteral("heatmap %1 is %2×%3 with %4 key labels, T_q×T_k = %5×%6")
                .arg(k)
                .arg(data.rows())
                .arg(data.columns())
                .arg(data.keyLabels.size())
                .arg(r.length())
                .arg(r.keyLength());
        // Every tile on the view's colour scale: from 0, or on the logarithmic one from its
        // floor below the same maximum.
        const HeatmapStyle& style = w->heatmapGrid()->view(k)->heatmapStyle();
        const bool log = w->viewOptions().logScale;
        if (style.logScale != log ||
            (log ? !(style.vmin > 0 && style.vmin < style.vmax) : style.vmin != 0))
            return QStringLiteral("heatmap %1's colour scale is %2 from %3 to %4, the view's %5")
                .arg(k)
                .arg(style.logScale ? u"logarithmic"_s : u"linear"_s)
                .arg(style.vmin)
                .arg(style.vmax)
                .arg(log ? u"logarithmic"_s : u"linear"_s);
    }
    if (child<QCheckBox>(w, "causalCheck")->isEnabled() == r.isCross())
        return QStringLiteral("the causal switch is %1 in %2-attention")
            .arg(r.isCross() ? u"enabled"_s : u"disabled"_s, r.isCross() ? u"cross"_s : u"self"_s);
    if (w->statisticsPanel()->table()->rowCount() != r.heads())
        return QStringLiteral("the statistics list %1 rows for %2 heads")
            .arg(w->statisticsPanel()->table()->rowCount())
            .arg(r.heads());
    if (const int s = w->viewOptions().sequence; s < 0 || s >= r.batch())
        return QStringLiteral("the view shows sequence %1 of %2").arg(s).arg(r.batch());
    if (r.weights.get() != checkedWeights_) { // the weights are shared until they change
        checkedWeights_ = r.weights.get();
        if (const QString problem = weightProblems(r); !problem.isEmpty())
            return problem;
    }
    return {};
}

// The actions ----------------------------------------------------------------------

// Sets d_model and H through the controls if that is within the budget.
bool TestMonkey::tryModel(int dModel, int heads)
{
    Request r = window_->controlPanel()->request();
    r.config.dModel = dModel;
    r.config.heads = nearestHeadCount(dModel, heads);
    if (!affordable(r))
        return false;
    child<QSpinBox>(window_.get(), "dModelSpin")->setValue(dModel);
    auto* combo = child<QComboBox>(window_.get(), "headsCombo");
    combo->setCurrentIndex(combo->findData(r.config.heads));
    return true;
}

void TestMonkey::makeRoomForLongText()
{
    const int dModel = std::array{8, 16, 32, 64}[std::size_t(below(4))];
    if (tryModel(dModel, 1 + below(kFastBuild ? 4 : 1)))
        note(QStringLiteral("  room for a long text: d_model %1").arg(dModel));
}

void TestMonkey::typeText()
{
    auto* edit = child<QPlainTextEdit>(window_.get(), "sentenceEdit");
    const QString piece = text_->any(kFastBuild ? 6 : 3);
    if (piece.size() > 4000)
        makeRoomForLongText();
    const QString before = edit->toPlainText();
    QString how;
    QTextCursor cursor = edit->textCursor();
    // A long text makes every later action slow: it is usually replaced soon.
    const bool longAlready = before.size() > 200'000 || (before.size() > 5000 && chance(50));
    switch (below(longAlready ? 1 : 5)) {
    case 0:
        how = QStringLiteral("replace");
        edit->selectAll();
        edit->insertPlainText(piece);
        break;
    case 1:
        how = QStringLiteral("insert");
        cursor.setPosition(below(int(before.size()) + 1));
        edit->setTextCursor(cursor);
        edit->insertPlainText(piece);
        break;
    case 2:
        how = QStringLiteral("paste");
        QGuiApplication::clipboard()->setText(piece);
        if (chance(50))
            edit->selectAll();
        edit->paste();
        break;
    case 3: {
        how = QStringLiteral("key clicks");
        QString ascii;
        for (QChar c : piece.left(30))
            if (c.unicode() >= 0x20 && c.unicode() < 0x7F)
                ascii += c;
        QTest::keyClicks(edit, ascii);
        break;
    }
    default:
        how = QStringLiteral("delete a range");
        cursor.setPosition(below(int(before.size()) + 1));
        cursor.setPosition(below(int(before.size()) + 1), QTextCursor::KeepAnchor);
        cursor.removeSelectedText();
        break;
    }
    note(QStringLiteral("type (%1, %2 chars): %3").arg(how).arg(piece.size()).arg(shown(piece)));
    submitUnlessOverBudget(edit, before);
}

// Submits the edited text at once, or, when it would cost more than the budget, puts
// `before` back before the debounce can submit it: nothing expensive ever runs.
void TestMonkey::submitUnlessOverBudget(QPlainTextEdit* edit, const QString& before)
{
    if (affordable(window_->controlPanel()->request())) {
        submitNow();
        return;
    }
    const QSignalBlocker block(edit);
    edit->setPlainText(before);
    note(QStringLiteral("  undone: over the budget"));
    ++skipped_;
}

void TestMonkey::pressKeys()
{
    auto* edit = child<QPlainTextEdit>(window_.get(), "sentenceEdit");
    const QString before = edit->toPlainText();
    struct Key {
        Qt::Key key;
        Qt::KeyboardModifiers modifiers;
        const char* name;
    };
    static const Key keys[] = {
        {Qt::Key_Backspace, Qt::NoModifier, "Backspace"},
        {Qt::Key_Delete, Qt::NoModifier, "Delete"},
        {Qt::Key_Return, Qt::NoModifier, "Return"},
        {Qt::Key_Z, Qt::ControlModifier, "Ctrl+Z"},
        {Qt::Key_Y, Qt::ControlModifier, "Ctrl+Y"},
        {Qt::Key_A, Qt::ControlModifier, "Ctrl+A"},
        {Qt::Key_End, Qt::ControlModifier, "Ctrl+End"},
        {Qt::Key_Home, Qt::NoModifier, "Home"},
        {Qt::Key_Tab, Qt::NoModifier, "Tab"},
    };
    QStringList names;
    for (int n = 1 + below(6); n > 0; --n) {
        const Key& k = keys[below(std::size(keys))];
        QTest::keyClick(edit, k.key, k.modifiers);
        names << QString::fromLatin1(k.name);
    }
    note(QStringLiteral("keys: ") + names.join(u' '));
    submitUnlessOverBudget(edit, before); // an undo may bring a book back
}

void TestMonkey::chooseTokenizer()
{
    auto* combo = child<QComboBox>(window_.get(), "tokenizerCombo");
    const int index = below(combo->count());
    Request r = window_->controlPanel()->request();
    r.config.tokenizer = TokenizerMode(combo->itemData(index).toInt());
    note(QStringLiteral("tokenizer %1").arg(QLatin1StringView(spellingOf(r.config.tokenizer))));
    if (!affordable(r)) {
        ++skipped_;
        note(QStringLiteral("  skipped: over the budget"));
        return;
    }
    combo->setCurrentIndex(index);
}

void TestMonkey::chooseDModel()
{
    static constexpr int values[] = {1, 2, 3, 5, 7, 12, 16, 48, 64, 100, 128, 512, 768, 1000, 4096};
    const int dModel = chance(80) ? values[below(std::size(values))] : 1 + below(kMaxDModel);
    const int heads = window_->controlPanel()->request().config.heads;
    Request r = window_->controlPanel()->request();
    r.config.dModel = dModel;
    r.config.heads = nearestHeadCount(dModel, heads);
    note(QStringLiteral("d_model %1").arg(dModel));
    if (!affordable(r)) {
        ++skipped_;
        note(QStringLiteral("  skipped: over the budget"));
        return;
    }
    auto* spin = child<QSpinBox>(window_.get(), "dModelSpin");
    const QString preset = QStringLiteral("dModelPreset%1").arg(dModel);
    if (auto* button = window_->findChild<QToolButton*>(preset); button && chance(50)) {
        button->click();
    } else if (chance(30)) {
        // Typed, with keyboard tracking off: only Return makes it count.
        spin->selectAll();
        QTest::keyClicks(spin, QString::number(dModel));
        QTest::keyClick(spin, Qt::Key_Return);
    } else {
        spin->setValue(dModel);
    }
}

void TestMonkey::chooseHeads()
{
    auto* combo = child<QComboBox>(window_.get(), "headsCombo");
    const int index = below(combo->count());
    Request r = window_->controlPanel()->request();
    r.config.heads = combo->itemData(index).toInt();
    note(QStringLiteral("heads %1").arg(r.config.heads));
    if (!affordable(r)) {
        ++skipped_;
        note(QStringLiteral("  skipped: over the budget"));
        return;
    }
    combo->setCurrentIndex(index);
}

void TestMonkey::typeSeed()
{
    static const char* const seeds[] = {
        "0", "18446744073709551615", "18446744073709551616", "42", "007", "-1", "1e5", ""};
    const QString seed = chance(70)
                             ? QString::fromLatin1(seeds[below(std::size(seeds))])
                             : QString::number(std::uniform_int_distribution<quint64>()(rng_));
    note(QStringLiteral("seed \"%1\"").arg(seed));
    // The layers are drawn again: C² draws.
    if (const qint64 C = window_->controlPanel()->request().config.dModel; C * C > kBudget.layers) {
        ++skipped_;
        return;
    }
    auto* edit = child<QLineEdit>(window_.get(), "seedEdit");
    edit->selectAll();
    QTest::keyClicks(edit, seed); // the validator drops what is not a seed
    QTest::keyClick(edit, Qt::Key_Return);
    submitNow();
}

void TestMonkey::flipSwitch()
{
    static const char* const combos[] = {"embeddingCombo", "headSplitCombo", "scaleCombo",
                                         "maskFillCombo",  "maskStageCombo", "axisCombo"};
    static const char* const checks[] = {"positionalCheck", "causalCheck", "paddingCheck"};
    if (chance(60)) {
        auto* combo = child<QComboBox>(window_.get(), QLatin1StringView(combos[below(6)]));
        const int index = below(combo->count());
        note(QStringLiteral("%1 → %2").arg(combo->objectName()).arg(index));
        combo->setCurrentIndex(index);
    } else {
        auto* check = child<QCheckBox>(window_.get(), QLatin1StringView(checks[below(3)]));
        note(QStringLiteral("%1 toggled").arg(check->objectName()));
        chance(50) ? check->click() : check->toggle();
    }
}

// The self/cross switch, or cross-attention's second text: a few words, as many lines as
// the first text or not, blank, or a pasted piece of anything.
void TestMonkey::crossAttention()
{
    auto* attention = child<QComboBox>(window_.get(), "attentionCombo");
    auto* edit = child<QPlainTextEdit>(window_.get(), "crossEdit");
    if (chance(40)) {
        const int index = below(attention->count());
        note(QStringLiteral("attentionCombo → %1").arg(index));
        attention->setCurrentIndex(index);
        return;
    }
    QString text;
    switch (below(4)) {
    case 0:
        text = text_->words(1 + below(12));
        break;
    case 1: {
        const int lines = 1 + below(4);
        for (int k = 0; k < lines; ++k)
            text += (k > 0 ? u"\n"_s : QString()) + text_->words(1 + below(6));
        break;
    }
    case 2:
        text = chance(50) ? QString() : u" \t\n "_s;
        break;
    default:
        text = text_->any(3);
        break;
    }
    Request r = window_->controlPanel()->request();
    r.crossText = text.toStdString();
    if (!affordable(r)) {
        ++skipped_;
        return;
    }
    note(QStringLiteral("crossEdit ← \"%1\"").arg(shown(text)));
    edit->setPlainText(text);
}

void TestMonkey::moveTemperature()
{
    auto* slider = child<QSlider>(window_.get(), "temperatureSlider");
    switch (below(4)) {
    case 0: {
        const int position =
            chance(30) ? (chance(50) ? 0 : kTemperatureSteps) : below(kTemperatureSteps + 1);
        note(QStringLiteral("τ slider to %1").arg(position));
        slider->setValue(position);
        break;
    }
    case 1:
        note(QStringLiteral("τ slider page step"));
        slider->triggerAction(chance(50) ? QSlider::SliderPageStepAdd : QSlider::SliderPageStepSub);
        break;
    case 2:
        note(QStringLiteral("τ slider keys"));
        QTest::keyClick(slider, chance(50) ? Qt::Key_Home : Qt::Key_End);
        QTest::keyClick(slider, chance(50) ? Qt::Key_Left : Qt::Key_Right);
        break;
    default:
        note(QStringLiteral("τ reset"));
        child<QToolButton>(window_.get(), "temperatureReset")->click();
        break;
    }
}

void TestMonkey::switchLanguage()
{
    const QString code = chance(50) ? QStringLiteral("zh_CN") : QStringLiteral("en");
    note(QStringLiteral("language %1").arg(code));
    window_->setLanguage(code);
    if (language_->current() != code)
        problems_ << QStringLiteral("the language is %1, not %2").arg(language_->current(), code);
}

void TestMonkey::changeView()
{
    MainWindow* w = window_.get();
    switch (below(6)) {
    case 0: {
        const auto names = Colormap::names();
        const ColormapName name = names[std::size_t(below(int(names.size())))];
        note(QStringLiteral("colormap %1").arg(Colormap::spelling(name)));
        ViewOptions view = w->viewOptions();
        view.colormap = name;
        w->setViewOptions(view);
        break;
    }
    case 1:
        note(QStringLiteral("shared scale toggled"));
        w->action(ActionId::SharedScale)->trigger();
        break;
    case 2:
        note(QStringLiteral("annotate toggled"));
        w->action(ActionId::Annotate)->trigger();
        break;
    case 3:
        note(QStringLiteral("log scale toggled"));
        w->action(ActionId::LogScale)->trigger();
        break;
    default: {
        ViewOptions view = w->viewOptions();
        view.sequence = below(w->lastResult().batch() + 4) - 2; // out of range too
        note(QStringLiteral("sequence %1").arg(view.sequence));
        w->setViewOptions(view);
        break;
    }
    }
}

// Every file written before still holds its bytes, and no other file (a partial one, a
// temporary one) is left in the folder.
void TestMonkey::expectFilesIntact(const QString& where)
{
    for (const auto& [path, bytes] : files_) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly) || file.readAll() != bytes)
            problems_ << QStringLiteral("%1 changed %2").arg(where, path);
    }
    const QDir dir(dir_->path());
    for (const QString& name : dir.entryList(QDir::Files | QDir::Hidden | QDir::System))
        if (!name.startsWith(QStringLiteral("settings.ini")) &&
            name != QFileInfo(window_->sessionFiles()->autosavePath()).fileName() &&
            !files_.contains(dir.filePath(name)))
            problems_ << QStringLiteral("%1 left a stray file %2").arg(where, name);
}

void TestMonkey::exportFile()
{
    const Result& r = window_->lastResult();
    if (!r.valid())
        return;
    const auto format = FigureFormat(below(6));
    const QString suffix = formatSpelling(format);
    FigureOptions options = figureOptions(window_->viewOptions());
    options.what = FigureWhat(below(3));
    options.head = below(r.heads());
    options.scale = chance(50) ? 1.0 : 0.5;
    options.title = chance(30) ? text_->any(0).left(200) : QString();
    options.caption = chance(80);
    options.colorbar = chance(80);
    const int tiles = options.what == FigureWhat::Grid ? r.heads() + (r.heads() > 1 ? 1 : 0) : 1;
    const qint64 figureCells = qint64(tiles) * r.length() * r.length();
    if (isFigureFormat(format) ? figureCells > kBudget.figureCells
                               : weightCells(r) > kBudget.numberCells) {
        note(QStringLiteral("export %1: skipped, over the budget").arg(suffix));
        ++skipped_;
        return;
    }
    // Where: a new file, one written before (replaced), or a place that cannot be written.
    QString path = dir_->filePath(QStringLiteral("export-%1.%2").arg(action_).arg(suffix));
    bool writable = true;
    if (const int where = below(10); where == 0) {
        path = dir_->filePath(QStringLiteral("missing/figure.") + suffix);
        writable = false;
    } else if (where == 1 && !files_.empty()) {
        auto it = files_.begin();
        std::advance(it, below(int(files_.size())));
        path = it->first + QStringLiteral("/inside.") + suffix; // a file as a folder
        writable = false;
    } else if (where == 2) {
        QStringList exports; // replaced below, if the export succeeds
        for (const auto& [file, bytes] : files_)
            if (QFileInfo(file).fileName().startsWith(u"export-"))
                exports << file;
        if (!exports.isEmpty())
            path = exports[below(int(exports.size()))];
    }
    note(QStringLiteral("export %1 (what %2) to %3")
             .arg(suffix)
             .arg(int(options.what))
             .arg(path.section(u'/', -2)));
    const bool vectorTooLarge = (format == FigureFormat::Svg || format == FigureFormat::Pdf) &&
                                figureCells > kMaxVectorCells;
    const bool existed = files_.contains(path);
    const QString error = exportFigure(path, format, r, options);
    if (!writable || vectorTooLarge) {
        // A clear line, and the file as it was: still there (checked below) or absent.
        if (error.isEmpty())
            problems_ << QStringLiteral("exporting to %1 succeeded").arg(path);
        else if (error.contains(u'\n'))
            problems_ << QStringLiteral("the export error is not one line: ") + error;
        if (!existed && QFileInfo(path).isFile())
            problems_ << QStringLiteral("a failed export left %1").arg(path);
    } else if (!error.isEmpty()) {
        problems_ << QStringLiteral("export %1 failed: %2").arg(suffix, error);
    } else {
        QFile file(path);
        const QByteArray bytes = file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
        if (bytes.isEmpty())
            problems_ << QStringLiteral("the export %1 is empty").arg(path);
        if (format == FigureFormat::Png) {
            QBuffer buffer(const_cast<QByteArray*>(&bytes));
            QImageReader reader(&buffer, "png");
            reader.setAllocationLimit(0); // a grid of 500 heads is a large image
            if (reader.read().isNull())
                problems_ << QStringLiteral("the PNG %1 does not load: %2")
                                 .arg(path, reader.errorString());
        }
        if (format == FigureFormat::Npy && !bytes.startsWith("\x93NUMPY"))
            problems_ << QStringLiteral("the NPY %1 has no magic").arg(path);
        files_[path] = bytes;
    }
    expectFilesIntact(QStringLiteral("an export"));
}

void TestMonkey::saveSession()
{
    SessionFiles* sessions = window_->sessionFiles();
    Session expected{window_->controlPanel()->request(), window_->viewOptions()};
    // Qt's UTF-8 decoding drops a leading U+FEFF (a byte order mark) on the way into the
    // file; the tokenizer ignores one anyway, so the numbers stay the same.
    expected.request.text = QString::fromStdString(expected.request.text).toStdString();
    const QString before = sessions->currentPath();
    if (chance(10)) {
        const QString path = dir_->filePath(QStringLiteral("missing/lesson.attnscope"));
        note(QStringLiteral("save into a missing folder"));
        QString error;
        if (sessions->saveTo(path, &error) || error.isEmpty() || sessions->currentPath() != before)
            problems_ << QStringLiteral("saving into a missing folder: \"%1\"").arg(error);
        return;
    }
    if (chance(20) && !before.isEmpty()) {
        note(QStringLiteral("save (Ctrl+S) to ") + QFileInfo(before).fileName());
        window_->action(ActionId::SaveSession)->trigger();
    } else {
        const QString path = dir_->filePath(QStringLiteral("session-%1.attnscope").arg(below(12)));
        note(QStringLiteral("save to ") + QFileInfo(path).fileName());
        QString error;
        if (!sessions->saveTo(path, &error)) {
            problems_ << QStringLiteral("saving failed: ") + error;
            return;
        }
    }
    const QString path = sessions->currentPath();
    QString error;
    const std::optional<Session> loaded = loadSession(path, &error);
    if (!loaded)
        problems_ << QStringLiteral("the saved session does not load: ") + error;
    else if (*loaded != expected)
        problems_ << QStringLiteral("the saved session differs from the window's: ") +
                         sessionDifference(expected, *loaded);
    if (!savedSessions_.contains(path))
        savedSessions_ << path;
    QFile file(path);
    if (file.open(QIODevice::ReadOnly))
        files_[path] = file.readAll();
}

void TestMonkey::openSession()
{
    if (savedSessions_.isEmpty())
        return saveSession();
    const QString path = savedSessions_[below(int(savedSessions_.size()))];
    QString error;
    const std::optional<Session> session = loadSession(path, &error);
    if (!session) {
        problems_ << QStringLiteral("a saved session does not load: ") + error;
        return;
    }
    note(QStringLiteral("open %1: %2").arg(QFileInfo(path).fileName(), describe(session->request)));
    if (!affordable(session->request)) {
        ++skipped_;
        note(QStringLiteral("  skipped: over the budget"));
        return;
    }
    if (chance(30)) { // dropped on the window
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(path)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton,
                              Qt::NoModifier);
        QApplication::sendEvent(window_.get(), &enter);
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(window_.get(), &drop);
    } else if (!window_->sessionFiles()->open(path, &error)) {
        problems_ << QStringLiteral("opening a saved session failed: ") + error;
        return;
    }
    if (window_->controlPanel()->request() != session->request)
        problems_ << QStringLiteral("the opened session's request is not in the controls");
    if (window_->sessionFiles()->currentPath() != path)
        problems_ << QStringLiteral("the window's file is not the opened one");
}

void TestMonkey::openDamagedSession()
{
    const QString path = dir_->filePath(QStringLiteral("damaged-%1.attnscope").arg(action_));
    QByteArray valid =
        sessionToJson(Session{window_->controlPanel()->request(), window_->viewOptions()});
    QByteArray content;
    QString kind;
    switch (below(9)) {
    case 0:
        kind = QStringLiteral("truncated");
        content = valid.left(below(int(valid.size()) - 2));
        break;
    case 1: {
        kind = QStringLiteral("garbage");
        content.resize(below(4096));
        for (char& c : content)
            c = char(below(256));
        break;
    }
    case 2:
        kind = QStringLiteral("deeply nested");
        content = QByteArray(100'000 + below(1'000'000), '[');
        break;
    case 3:
        kind = QStringLiteral("newer version");
        content = valid.replace("\"version\": 1", "\"version\": 2");
        break;
    case 4:
        kind = QStringLiteral("heads do not divide d_model");
        content =
            valid.replace(QByteArray("\"heads\": ") +
                              QByteArray::number(window_->controlPanel()->request().config.heads),
                          "\"heads\": 4097");
        break;
    case 5:
        kind = QStringLiteral("a list for the config");
        content = QByteArray(
            R"({"format": "attnscope-session", "version": 1, "text": "a", "config": []})");
        break;
    case 6:
        kind = QStringLiteral("empty");
        break;
    case 7:
        kind = QStringLiteral("larger than the limit (sparse)");
        break;
    default:
        kind = QStringLiteral("missing");
        break;
    }
    note(QStringLiteral("open a damaged session: ") + kind);
    if (kind != QStringLiteral("missing")) {
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(content) != content.size() ||
            (kind.startsWith(QStringLiteral("larger")) && !file.resize(kMaxSessionBytes + 1))) {
            problems_ << QStringLiteral("cannot write the damaged session");
            return;
        }
    }
    const Request request = window_->controlPanel()->request();
    const ViewOptions view = window_->viewOptions();
    const QString current = window_->sessionFiles()->currentPath();
    QString error;
    if (window_->sessionFiles()->open(path, &error))
        problems_ << QStringLiteral("a %1 session opened").arg(kind);
    else if (error.isEmpty() || error.contains(u'\n'))
        problems_ << QStringLiteral("the error for a %1 session is \"%2\"").arg(kind, error);
    if (window_->controlPanel()->request() != request || window_->viewOptions() != view ||
        window_->sessionFiles()->currentPath() != current)
        problems_ << QStringLiteral("a failed open (%1) changed the window").arg(kind);
    QFile::remove(path);
}

void TestMonkey::poke()
{
    MainWindow* w = window_.get();
    const Result& r = w->lastResult();
    switch (below(5)) {
    case 0: {
        const QSize size(300 + below(1500), 250 + below(1000));
        note(QStringLiteral("resize %1×%2").arg(size.width()).arg(size.height()));
        w->resize(size);
        break;
    }
    case 1:
        if (w->heatmapGrid()->count() > 0) {
            const int k = below(w->heatmapGrid()->count());
            HeatmapView* view = w->heatmapGrid()->view(k);
            const QPoint at(below(std::max(1, view->width())), below(std::max(1, view->height())));
            note(QStringLiteral("hover heatmap %1 at %2,%3").arg(k).arg(at.x()).arg(at.y()));
            QTest::mouseMove(view, at);
        }
        break;
    case 2:
        if (const int tiles = w->heatmapGrid()->count(); tiles > 0) { // what a click can reach
            const int head = below(tiles) - 1;
            note(QStringLiteral("open head %1").arg(head));
            emit w->heatmapGrid()->headActivated(head);
        }
        break;
    case 3:
        if (r.valid() && qint64(r.heads() + 1) * r.length() * r.length() <= kBudget.figureCells) {
            note(QStringLiteral("copy figure"));
            w->action(ActionId::CopyFigure)->trigger();
        }
        break;
    default:
        note(QStringLiteral("how to read"));
        w->action(ActionId::HowToRead)->trigger();
        break;
    }
}

// The embedding editor: a typed value (sometimes not a number), a copied vector, a copy
// plus noise, a reset.
void TestMonkey::editEmbedding()
{
    MainWindow* w = window_.get();
    auto* editor = w->findChild<EmbeddingEditor*>();
    if (!editor || !editor->isVisible()) {
        note(QStringLiteral("open the embedding editor"));
        w->action(ActionId::EmbeddingEditor)->trigger();
        editor = w->findChild<EmbeddingEditor*>();
    }
    auto* tokens = child<QComboBox>(editor, "tokenCombo");
    if (tokens->count() == 0)
        return;
    tokens->setCurrentIndex(below(tokens->count()));
    const QString token = tokens->currentText();
    const QString source = tokens->itemText(below(tokens->count()));
    auto* table = child<QTableWidget>(editor, "vectorTable");
    switch (below(5)) {
    case 0:
    case 1:
        if (table->rowCount() > 0) {
            const int row = below(table->rowCount());
            const QString text =
                chance(80) ? QString::number((below(2001) - 1000) / 100.0) : text_->word();
            note(
                QStringLiteral("x[%1] of \"%2\" ← \"%3\"").arg(row).arg(shown(token), shown(text)));
            table->item(row, 0)->setText(text);
        }
        break;
    case 2:
        note(QStringLiteral("\"%1\" ← vector of \"%2\"").arg(shown(token), shown(source)));
        editor->copyFrom(source);
        break;
    case 3:
        note(QStringLiteral("\"%1\" ← vector of \"%2\" + noise").arg(shown(token), shown(source)));
        editor->copyWithNoise(source, 0.1, std::uint32_t(below(1000)));
        break;
    default:
        note(QStringLiteral("reset \"%1\"").arg(shown(token)));
        chance(50) ? editor->resetToken() : editor->resetAll();
        break;
    }
}

void TestMonkey::randomActions()
{
    const auto seed = std::uint32_t(environmentInt("ATTN_MONKEY_SEED", kDefaultSeed));
    const int actions = environmentInt("ATTN_MONKEY_ACTIONS", kDefaultActions);
    const int seconds = environmentInt("ATTN_MONKEY_SECONDS", kDefaultSeconds);
    qInfo("monkey: seed %u, %d actions, at most %d s, %s budget (replay with "
          "ATTN_MONKEY_SEED=%u)",
          seed, actions, seconds, kFastBuild ? "optimised" : "debug/sanitizer", seed);
    rng_.seed(seed);
    text_ = std::make_unique<TextMaker>(rng_);

    MainWindow* w = open();
    QTRY_VERIFY(w->lastResult().valid());
    // A modal dialog would block the run: close it and count it as a failure.
    QTimer modalWatch;
    connect(&modalWatch, &QTimer::timeout, this, [this] {
        if (QWidget* modal = QApplication::activeModalWidget()) {
            modals_ << modal->windowTitle();
            modal->close();
        }
    });
    modalWatch.start(200);

    static const ActionKind kinds[] = {
        {"type", 24, &TestMonkey::typeText},
        {"keys", 6, &TestMonkey::pressKeys},
        {"tokenizer", 5, &TestMonkey::chooseTokenizer},
        {"d_model", 7, &TestMonkey::chooseDModel},
        {"heads", 6, &TestMonkey::chooseHeads},
        {"seed", 3, &TestMonkey::typeSeed},
        {"switch", 14, &TestMonkey::flipSwitch},
        {"cross", 5, &TestMonkey::crossAttention},
        {"embedding", 4, &TestMonkey::editEmbedding},
        {"temperature", 5, &TestMonkey::moveTemperature},
        {"language", 3, &TestMonkey::switchLanguage},
        {"view", 8, &TestMonkey::changeView},
        {"export", 6, &TestMonkey::exportFile},
        {"save", 3, &TestMonkey::saveSession},
        {"open", 3, &TestMonkey::openSession},
        {"damaged", 3, &TestMonkey::openDamagedSession},
        {"poke", 4, &TestMonkey::poke},
    };
    std::vector<int> weights;
    for (const ActionKind& kind : kinds)
        weights.push_back(kind.weight);
    std::discrete_distribution<int> pickKind(weights.begin(), weights.end());
    std::map<QString, int> counts;
    std::map<QString, qint64> milliseconds; // with the settling that followed

    QElapsedTimer clock;
    clock.start();
    int burst = 0; // actions left to run without settling in between
    for (action_ = 1; action_ <= actions; ++action_) {
        if (clock.elapsed() > qint64(seconds) * 1000) {
            qInfo("monkey: stopped after %d s of wall clock", seconds);
            break;
        }
        const ActionKind& kind = kinds[pickKind(rng_)];
        ++counts[QString::fromLatin1(kind.name)];
        QElapsedTimer actionClock;
        actionClock.start();
        (this->*kind.run)();
        if (burst == 0 && chance(5))
            burst = 2 + below(5); // several changes while the worker computes
        if (burst > 0 && --burst > 0)
            continue;
        QString problem;
        if (settle(&problem))
            problem = invariantProblems();
        milliseconds[QString::fromLatin1(kind.name)] += actionClock.elapsed();
        if (!problem.isEmpty()) {
            qWarning("monkey: the last actions before the failure (seed %u):\n%s", seed,
                     qPrintable(history()));
            QFAIL(qPrintable(QStringLiteral("after action #%1 (%2): %3")
                                 .arg(action_)
                                 .arg(QLatin1StringView(kind.name), problem)));
        }
    }
    const int ran = action_ - 1;
    QStringList summary;
    for (const auto& [name, count] : counts)
        summary << QStringLiteral("%1 %2 (%3 ms)").arg(name).arg(count).arg(milliseconds[name]);
    qInfo("monkey: %d actions in %.1f s, %d skipped as over the budget: %s", ran,
          clock.elapsed() / 1000.0, skipped_, qPrintable(summary.join(QStringLiteral(", "))));
    QVERIFY(ran > 0);

    // The window closes cleanly after all of it, its autosave removed.
    const QString autosave = w->sessionFiles()->autosavePath();
    QVERIFY(w->close());
    QVERIFY(!QFileInfo::exists(autosave));
}

QTEST_MAIN(TestMonkey)
#include "tst_monkey.moc"
