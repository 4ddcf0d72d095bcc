// The monkey's actions: each changes the window as a person would (typing, pasting, the
// switches, the view, exports, sessions saved, opened and damaged), within the budget of
// monkeyoracle.h, and notes what it did for the action log.
//
// Legend: B sequences, T tokens each, C = d_model, H heads.
#include "computecontroller.h"
#include "controlpanel.h"
#include "embeddingeditor.h"
#include "figure.h"
#include "figurefile.h"
#include "figureformat.h"
#include "headdialog.h"
#include "heatmapgrid.h"
#include "heatmappainter.h"
#include "labels.h"
#include "language.h"
#include "mainwindow.h"
#include "monkeyoracle.h"
#include "session.h"
#include "sessionfiles.h"
#include "statisticspanel.h"
#include "tokenchips.h"
#include "tst_monkey.h"

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
using namespace attn::test;
using namespace Qt::StringLiterals;

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
    static const char* const combos[] = {"embeddingCombo",  "headSplitCombo", "scaleCombo",
                                         "maskFillCombo",   "maskStageCombo", "axisCombo",
                                         "positionalCombo", "kvHeadsCombo"};
    static const char* const checks[] = {"causalCheck", "paddingCheck", "qkNormCheck",
                                         "alibiCheck",  "softcapCheck", "windowCheck",
                                         "sinkCheck"};
    if (chance(60)) {
        auto* combo = child<QComboBox>(window_.get(),
                                       QLatin1StringView(combos[below(int(std::size(combos)))]));
        const int index = below(combo->count());
        note(QStringLiteral("%1 → %2").arg(combo->objectName()).arg(index));
        combo->setCurrentIndex(index);
    } else {
        auto* check = child<QCheckBox>(window_.get(),
                                       QLatin1StringView(checks[below(int(std::size(checks)))]));
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
