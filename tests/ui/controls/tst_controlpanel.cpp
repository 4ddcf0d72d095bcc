// The control panel: Request round trips, one requestChanged per change, the typing
// debounce, the heads offered for d_model, the temperature slider, the token chips and
// retranslation.
#include "controlpanel.h"
#include "tokenchips.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTest>
#include <QToolButton>
#include <QTranslator>

#include <algorithm>
#include <limits>

Q_DECLARE_METATYPE(attn::Request)
Q_DECLARE_METATYPE(attn::TokenizerMode)

using attn::Config;
using attn::Request;
using attn::ui::ControlPanel;
using attn::ui::TokenChips;

namespace {

// Every field on its own line, so a failed comparison shows which one differs.
QString dump(const Request& request)
{
    const Config& c = request.config;
    QStringList lines{
        QStringLiteral("text=%1").arg(QString::fromStdString(request.text)),
        QStringLiteral("tokenizer=%1").arg(QString::fromUtf8(attn::spellingOf(c.tokenizer))),
        QStringLiteral("dModel=%1 heads=%2").arg(c.dModel).arg(c.heads),
        QStringLiteral("seed=%1").arg(c.seed),
        QStringLiteral("embedding=%1").arg(QString::fromUtf8(attn::spellingOf(c.embedding))),
        QStringLiteral("positional=%1").arg(QString::fromUtf8(attn::spellingOf(c.positional))),
        QStringLiteral("scale=%1").arg(QString::fromUtf8(attn::spellingOf(c.scale))),
        QStringLiteral("temperature=%1").arg(double{c.temperature}, 0, 'g', 9),
        QStringLiteral("axis=%1").arg(QString::fromUtf8(attn::spellingOf(c.axis))),
        QStringLiteral("mask=%1").arg(QString::fromUtf8(attn::spellingOf(c.mask))),
        QStringLiteral("maskFill=%1").arg(QString::fromUtf8(attn::spellingOf(c.maskFill))),
        QStringLiteral("maskStage=%1").arg(QString::fromUtf8(attn::spellingOf(c.maskStage))),
        QStringLiteral("headSplit=%1").arg(QString::fromUtf8(attn::spellingOf(c.headSplit))),
        QStringLiteral("paddingMask=%1").arg(c.paddingMask),
        QStringLiteral("overrides=%1").arg(request.embeddingOverrides.size())};
    return lines.join(QLatin1Char('\n'));
}

Request baseRequest()
{
    Request request;
    request.text = "猫坐在垫子上\n它很累";
    request.config.temperature = 2.0f; // off the slider's grid, and not 1 for the reset
    return request;
}

// One row per value of E: `field` of the base request set to that value.
template <typename E> void addEnumRows(E Config::*field)
{
    for (const auto& row : attn::EnumTable<E>::rows) {
        Request request = baseRequest();
        request.config.*field = row.value;
        const std::string name =
            std::string(attn::EnumTable<E>::option) + "=" + std::string(row.text);
        QTest::newRow(name.c_str()) << request;
    }
}

// QTest::keyClicks() sends Latin-1 only; this types any text, one key per character,
// and returns the longest time between two keys in milliseconds.
qint64 typeText(QWidget* widget, const QString& text, int delay = -1)
{
    QElapsedTimer clock;
    qint64 longestGap = 0;
    for (QChar character : text) {
        if (clock.isValid())
            longestGap = std::max(longestGap, clock.elapsed());
        QTest::sendKeyEvent(QTest::Click, widget, Qt::Key_unknown, QString(character),
                            Qt::NoModifier, delay);
        clock.start();
    }
    return longestGap;
}

std::vector<int> bruteForceDivisors(int n)
{
    std::vector<int> divisors;
    for (int d = 1; d <= n; ++d)
        if (n % d == 0)
            divisors.push_back(d);
    return divisors;
}

std::vector<int> comboHeads(const QComboBox* combo)
{
    std::vector<int> heads;
    for (int i = 0; i < combo->count(); ++i)
        heads.push_back(combo->itemData(i).toInt());
    return heads;
}

// Group titles, labels, button texts and combo items: what the user reads.
QStringList shownTexts(const QWidget& panel)
{
    QStringList texts;
    for (const QGroupBox* group : panel.findChildren<QGroupBox*>())
        texts << group->title();
    for (const QLabel* label : panel.findChildren<QLabel*>())
        if (!label->isHidden() || !label->text().isEmpty()) // an unused note has no text
            texts << label->text();
    for (const QAbstractButton* button : panel.findChildren<QAbstractButton*>())
        texts << button->text();
    for (const QComboBox* combo : panel.findChildren<QComboBox*>())
        for (int i = 0; i < combo->count(); ++i)
            texts << combo->itemText(i);
    return texts;
}

// The panel's own controls: named ones, not the line edits inside spin boxes.
QList<QWidget*> controls(const QWidget& panel)
{
    QList<QWidget*> result;
    for (QWidget* widget : panel.findChildren<QWidget*>()) {
        const bool isControl =
            qobject_cast<QComboBox*>(widget) || qobject_cast<QAbstractButton*>(widget) ||
            qobject_cast<QSpinBox*>(widget) || qobject_cast<QSlider*>(widget) ||
            qobject_cast<QLineEdit*>(widget) || qobject_cast<QPlainTextEdit*>(widget);
        if (isControl && !widget->objectName().isEmpty() &&
            !widget->objectName().startsWith(QLatin1String("qt_")))
            result << widget;
    }
    return result;
}

// Prefixes every translation with "X:", so a retranslated text is easy to recognize.
class PrefixTranslator : public QTranslator {
public:
    QString translate(const char*, const char* sourceText, const char*, int) const override
    {
        return QStringLiteral("X:") + QString::fromUtf8(sourceText);
    }
    bool isEmpty() const override { return false; }
};

} // namespace

class TestControlPanel : public QObject {
    Q_OBJECT

private slots:
    void roundTrip_data();
    void roundTrip();
    void setRequestDropsPendingEdit();
    void changeEmitsOnce_data();
    void changeEmitsOnce();
    void typingIsDebounced();
    void seedAcceptsFullRange();
    void headsAreDivisors_data();
    void headsAreDivisors();
    void invalidHeadsAreReplaced();
    void typedDModelIsBroughtIntoRangeAndSaysSo_data();
    void typedDModelIsBroughtIntoRangeAndSaysSo();
    void temperatureScale();
    void temperatureSlider_data();
    void temperatureSlider();
    void temperatureReset();
    void tokenChips_data();
    void tokenChips();
    void tokenChipsError();
    void everyControlExplainsItself();
    void emptyTranslatorKeepsTexts();
    void translatorChangesTexts();
};

void TestControlPanel::roundTrip_data()
{
    QTest::addColumn<Request>("request");

    addEnumRows(&Config::tokenizer);
    addEnumRows(&Config::embedding);
    addEnumRows(&Config::positional);
    addEnumRows(&Config::scale);
    addEnumRows(&Config::axis);
    addEnumRows(&Config::mask);
    addEnumRows(&Config::maskFill);
    addEnumRows(&Config::maskStage);
    addEnumRows(&Config::headSplit);

    Request request = baseRequest();
    request.config.paddingMask = false;
    QTest::newRow("paddingMask=false") << request;
    request = baseRequest();
    request.config.dModel = 768;
    request.config.heads = 12;
    QTest::newRow("dModel=768 heads=12") << request;
    request.config.dModel = attn::kMaxDModel;
    request.config.heads = attn::kMaxDModel;
    QTest::newRow("dModel=4096 heads=4096") << request;
    request = baseRequest();
    request.config.dModel = 1;
    request.config.heads = 1;
    QTest::newRow("dModel=1 heads=1") << request;
    request = baseRequest();
    request.config.seed = 0;
    QTest::newRow("seed=0") << request;
    request.config.seed = std::numeric_limits<std::uint64_t>::max();
    QTest::newRow("seed=2^64-1") << request;
    for (float tau : {0.05f, 1.0f, 1.2345f, 20.0f, 1e-6f, 1e6f}) {
        request = baseRequest();
        request.config.temperature = tau;
        QTest::newRow(qPrintable(QStringLiteral("temperature=%1").arg(double{tau}))) << request;
    }
    request = baseRequest();
    request.text.clear();
    QTest::newRow("text empty") << request;
    request.text = "The cat sat on the mat\n猫坐在垫子上\n\n😀 emoji";
    QTest::newRow("text three languages") << request;
    request = baseRequest();
    request.embeddingOverrides["猫"] = std::vector<float>(64, 0.5f);
    QTest::newRow("embeddingOverrides kept") << request;
}

void TestControlPanel::roundTrip()
{
    QFETCH(Request, request);
    ControlPanel panel;
    QSignalSpy spy(&panel, &ControlPanel::requestChanged);

    panel.setRequest(request);
    QCOMPARE(dump(panel.request()), dump(request));
    QVERIFY(panel.request() == request);

    QCoreApplication::processEvents();
    QCOMPARE(spy.count(), 0);
}

void TestControlPanel::setRequestDropsPendingEdit()
{
    ControlPanel panel;
    auto* editor = panel.findChild<QPlainTextEdit*>(QStringLiteral("sentenceEdit"));
    QSignalSpy spy(&panel, &ControlPanel::requestChanged);
    editor->setPlainText(QStringLiteral("typed, not yet sent")); // starts the debounce
    panel.setRequest(baseRequest());
    QTest::qWait(2 * ControlPanel::kDebounceMs);
    QCOMPARE(spy.count(), 0);
    QVERIFY(panel.request() == baseRequest());
}

void TestControlPanel::changeEmitsOnce_data()
{
    QTest::addColumn<QString>("control");
    QTest::addColumn<QVariant>("value"); // combo item data, check state, number; none = click
    QTest::addColumn<Request>("expected");

    auto changed = [](auto change) {
        Request request = baseRequest();
        change(request.config);
        return request;
    };
    using attn::MaskFill, attn::MaskStage, attn::SoftmaxAxis, attn::HeadSplit;
    QTest::newRow("tokenizer=chars")
        << "tokenizerCombo" << QVariant(int(attn::TokenizerMode::Chars))
        << changed([](Config& c) { c.tokenizer = attn::TokenizerMode::Chars; });
    QTest::newRow("dModel=768 keeps heads=4")
        << "dModelSpin" << QVariant(768) << changed([](Config& c) { c.dModel = 768; });
    QTest::newRow("dModel=10 moves heads 4→5")
        << "dModelSpin" << QVariant(10) << changed([](Config& c) {
               c.dModel = 10;
               c.heads = 5;
           });
    QTest::newRow("preset 512 clicked")
        << "dModelPreset512" << QVariant() << changed([](Config& c) { c.dModel = 512; });
    QTest::newRow("heads=16") << "headsCombo" << QVariant(16)
                              << changed([](Config& c) { c.heads = 16; });
    QTest::newRow("embedding=torch")
        << "embeddingCombo" << QVariant(int(attn::EmbeddingMode::Torch))
        << changed([](Config& c) { c.embedding = attn::EmbeddingMode::Torch; });
    QTest::newRow("positional=none")
        << "positionalCombo" << QVariant(int(attn::Positional::None))
        << changed([](Config& c) { c.positional = attn::Positional::None; });
    QTest::newRow("head-split=view") << "headSplitCombo" << QVariant(int(HeadSplit::View))
                                     << changed([](Config& c) { c.headSplit = HeadSplit::View; });
    QTest::newRow("scale=none") << "scaleCombo" << QVariant(int(attn::ScaleMode::None))
                                << changed([](Config& c) { c.scale = attn::ScaleMode::None; });
    QTest::newRow("scale=sqrt-dmodel")
        << "scaleCombo" << QVariant(int(attn::ScaleMode::SqrtDModel))
        << changed([](Config& c) { c.scale = attn::ScaleMode::SqrtDModel; });
    QTest::newRow("temperature slider=0")
        << "temperatureSlider" << QVariant(0) << changed([](Config& c) { c.temperature = 0.05f; });
    QTest::newRow("temperature slider=500")
        << "temperatureSlider" << QVariant(500) << changed([](Config& c) { c.temperature = 1.0f; });
    QTest::newRow("temperature slider=1000") << "temperatureSlider" << QVariant(1000)
                                             << changed([](Config& c) { c.temperature = 20.0f; });
    QTest::newRow("temperature reset")
        << "temperatureReset" << QVariant() << changed([](Config& c) { c.temperature = 1.0f; });
    QTest::newRow("mask=causal") << "causalCheck" << QVariant(true)
                                 << changed([](Config& c) { c.mask = attn::MaskKind::Causal; });
    QTest::newRow("paddingMask=false")
        << "paddingCheck" << QVariant(false) << changed([](Config& c) { c.paddingMask = false; });
    QTest::newRow("mask-fill=-1e9")
        << "maskFillCombo" << QVariant(int(MaskFill::NegBillion))
        << changed([](Config& c) { c.maskFill = MaskFill::NegBillion; });
    QTest::newRow("mask-stage=after-softmax")
        << "maskStageCombo" << QVariant(int(MaskStage::AfterSoftmax))
        << changed([](Config& c) { c.maskStage = MaskStage::AfterSoftmax; });
    QTest::newRow("axis=queries") << "axisCombo" << QVariant(int(SoftmaxAxis::Queries))
                                  << changed([](Config& c) { c.axis = SoftmaxAxis::Queries; });
    QTest::newRow("axis=batch") << "axisCombo" << QVariant(int(SoftmaxAxis::Batch))
                                << changed([](Config& c) { c.axis = SoftmaxAxis::Batch; });
}

void TestControlPanel::changeEmitsOnce()
{
    QFETCH(QString, control);
    QFETCH(QVariant, value);
    QFETCH(Request, expected);

    ControlPanel panel;
    panel.setRequest(baseRequest());
    QSignalSpy spy(&panel, &ControlPanel::requestChanged);

    auto* widget = panel.findChild<QWidget*>(control);
    QVERIFY2(widget, qPrintable(control));
    if (auto* combo = qobject_cast<QComboBox*>(widget)) {
        const int index = combo->findData(value);
        QVERIFY2(index >= 0, "the combo offers the value");
        combo->setCurrentIndex(index);
    } else if (auto* check = qobject_cast<QCheckBox*>(widget)) {
        QVERIFY(check->isChecked() != value.toBool());
        check->click();
    } else if (auto* spin = qobject_cast<QSpinBox*>(widget)) {
        spin->setValue(value.toInt());
    } else if (auto* slider = qobject_cast<QSlider*>(widget)) {
        slider->setValue(value.toInt());
    } else if (auto* button = qobject_cast<QToolButton*>(widget)) {
        button->click();
    } else {
        QFAIL("no way to change this control");
    }

    QCOMPARE(spy.count(), 1); // at once, not after the debounce
    QCOMPARE(dump(panel.request()), dump(expected));
    QVERIFY(panel.request() == expected);
    QTest::qWait(ControlPanel::kDebounceMs + 50);
    QCOMPARE(spy.count(), 1);
}

void TestControlPanel::typingIsDebounced()
{
    ControlPanel panel;
    panel.setRequest(baseRequest());
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    auto* editor = panel.findChild<QPlainTextEdit*>(QStringLiteral("sentenceEdit"));
    QVERIFY(editor);
    editor->setFocus();
    editor->moveCursor(QTextCursor::End);
    QSignalSpy spy(&panel, &ControlPanel::requestChanged);

    // 6 keys, each a press and a release 50 ms apart: 600 ms in all, three times the
    // debounce, but never a pause as long as the debounce between two keys.
    const QString typed = QStringLiteral("，猫 sat");
    const qint64 longestGap = typeText(editor, typed, ControlPanel::kDebounceMs / 4);
    if (longestGap >= ControlPanel::kDebounceMs)
        QSKIP("the machine is too busy: two keys came further apart than the debounce");
    QCOMPARE(spy.count(), 0);
    QTRY_COMPARE(spy.count(), 1);
    QTest::qWait(2 * ControlPanel::kDebounceMs);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(QString::fromStdString(panel.request().text),
             QString::fromStdString(baseRequest().text) + typed);
}

void TestControlPanel::seedAcceptsFullRange()
{
    ControlPanel panel;
    panel.setRequest(baseRequest());
    auto* seedEdit = panel.findChild<QLineEdit*>(QStringLiteral("seedEdit"));
    QVERIFY(seedEdit);
    QSignalSpy spy(&panel, &ControlPanel::requestChanged);

    seedEdit->selectAll();
    QTest::keyClicks(seedEdit, QStringLiteral("18446744073709551615"));
    QCOMPARE(spy.count(), 0);
    QTRY_COMPARE(spy.count(), 1);
    QCOMPARE(panel.request().config.seed, std::numeric_limits<std::uint64_t>::max());

    // 2⁶⁴ does not fit: the validator refuses the last digit.
    seedEdit->selectAll();
    QTest::keyClicks(seedEdit, QStringLiteral("18446744073709551616"));
    QCOMPARE(seedEdit->text(), QStringLiteral("1844674407370955161"));
    QTRY_COMPARE(spy.count(), 2);
    QCOMPARE(panel.request().config.seed, std::uint64_t{1844674407370955161ULL});

    // Letters are refused, and an emptied field returns to the seed in use.
    QTest::keyClick(seedEdit, Qt::Key_A);
    QCOMPARE(seedEdit->text(), QStringLiteral("1844674407370955161"));
    seedEdit->clear();
    emit seedEdit->editingFinished();
    QCOMPARE(seedEdit->text(), QStringLiteral("1844674407370955161"));
    QTest::qWait(ControlPanel::kDebounceMs + 50);
    QCOMPARE(spy.count(), 2);
}

void TestControlPanel::headsAreDivisors_data()
{
    QTest::addColumn<int>("startDModel");
    QTest::addColumn<int>("startHeads");
    QTest::addColumn<int>("dModel");
    QTest::addColumn<int>("expectedHeads");

    QTest::newRow("d_model=1: heads 4→1") << 64 << 4 << 1 << 1;
    QTest::newRow("d_model=12: heads 4 kept") << 64 << 4 << 12 << 4;
    QTest::newRow("d_model=16: heads 3→2 (tie 2/4, smaller)") << 48 << 3 << 16 << 2;
    QTest::newRow("d_model=768: heads 5→4 (tie 4/6, smaller)") << 40 << 5 << 768 << 4;
    QTest::newRow("d_model=768: heads 12 kept") << 48 << 12 << 768 << 12;
    QTest::newRow("d_model=4096: heads 12→8 (tie 8/16, smaller)") << 48 << 12 << 4096 << 8;
    QTest::newRow("d_model=4096: heads 60→64 (nearest)") << 60 << 60 << 4096 << 64;
    QTest::newRow("d_model=4093 (prime): heads 4→1") << 64 << 4 << 4093 << 1;
}

void TestControlPanel::headsAreDivisors()
{
    QFETCH(int, startDModel);
    QFETCH(int, startHeads);
    QFETCH(int, dModel);
    QFETCH(int, expectedHeads);

    Request request = baseRequest();
    request.config.dModel = startDModel;
    request.config.heads = startHeads;
    ControlPanel panel;
    panel.setRequest(request);
    QCOMPARE(panel.request().config.heads, startHeads);
    QSignalSpy spy(&panel, &ControlPanel::requestChanged);

    panel.findChild<QSpinBox*>(QStringLiteral("dModelSpin"))->setValue(dModel);
    QCOMPARE(spy.count(), 1);
    const auto* headsCombo = panel.findChild<QComboBox*>(QStringLiteral("headsCombo"));
    QCOMPARE(comboHeads(headsCombo), bruteForceDivisors(dModel));
    QCOMPARE(attn::headCounts(dModel), bruteForceDivisors(dModel));
    QCOMPARE(panel.request().config.heads, expectedHeads);
    QCOMPARE(attn::nearestHeadCount(dModel, startHeads), expectedHeads);
    QCOMPARE(panel.findChild<QLabel*>(QStringLiteral("dkLabel"))->text(),
             QStringLiteral("d_k = %1").arg(dModel / expectedHeads));
    // A changed head count is said, with the reason; a kept one says nothing.
    const auto* note = panel.findChild<QLabel*>(QStringLiteral("modelNote"));
    QVERIFY(note);
    QCOMPARE(note->isVisibleTo(&panel), expectedHeads != startHeads);
    if (expectedHeads != startHeads)
        QCOMPARE(note->text(),
                 QStringLiteral("%1 heads do not divide d_model %2, so the nearest divisor, "
                                "%3, is used.")
                     .arg(startHeads)
                     .arg(dModel)
                     .arg(expectedHeads));
    // Choosing the heads is the user's own change: the note goes.
    auto* heads = panel.findChild<QComboBox*>(QStringLiteral("headsCombo"));
    if (heads->count() > 1) {
        heads->setCurrentIndex(heads->currentIndex() == 0 ? 1 : 0);
        QVERIFY(!note->isVisibleTo(&panel));
    }
}

void TestControlPanel::typedDModelIsBroughtIntoRangeAndSaysSo_data()
{
    QTest::addColumn<int>("startDModel");
    QTest::addColumn<QString>("typed");
    QTest::addColumn<int>("dModel");
    QTest::addColumn<int>("heads");
    QTest::addColumn<QString>("note");

    QTest::newRow("99999 at 64 × 12 heads: 4096, heads 8")
        << 48 << "99999" << 4096 << 8
        << "d_model 99999 is outside 1 to 4096, so 4096 is used. 12 heads do not divide "
           "d_model 4096, so the nearest divisor, 8, is used.";
    QTest::newRow("99999 where 4096 stands: no new value, still said")
        << 4096 << "99999" << 4096 << 4 << "d_model 99999 is outside 1 to 4096, so 4096 is used.";
    QTest::newRow("0: the smallest, 1, and 1 head")
        << 64 << "0" << 1 << 1
        << "d_model 0 is outside 1 to 4096, so 1 is used. 4 heads do not divide d_model 1, "
           "so the nearest divisor, 1, is used.";
    QTest::newRow("512 in range: nothing to say") << 64 << "512" << 512 << 4 << "";
}

void TestControlPanel::typedDModelIsBroughtIntoRangeAndSaysSo()
{
    QFETCH(int, startDModel);
    QFETCH(QString, typed);
    QFETCH(int, dModel);
    QFETCH(int, heads);
    QFETCH(QString, note);

    Request request = baseRequest();
    request.config.dModel = startDModel;
    request.config.heads = startDModel == 48 ? 12 : 4;
    ControlPanel panel;
    panel.setRequest(request);
    auto* spin = panel.findChild<QSpinBox*>(QStringLiteral("dModelSpin"));
    spin->selectAll();
    QTest::keyClicks(spin, typed);
    QTest::keyClick(spin, Qt::Key_Return);

    QCOMPARE(panel.request().config.dModel, dModel);
    QCOMPARE(panel.request().config.heads, heads);
    const auto* label = panel.findChild<QLabel*>(QStringLiteral("modelNote"));
    QVERIFY(label);
    QCOMPARE(label->isVisibleTo(&panel), !note.isEmpty());
    QCOMPARE(label->text(), note);

    // A preset or a session sets d_model without a word: nothing of the user's changed.
    panel.setRequest(request);
    QVERIFY(!label->isVisibleTo(&panel));
}

void TestControlPanel::invalidHeadsAreReplaced()
{
    Request request = baseRequest();
    request.config.dModel = 64;
    request.config.heads = 5; // not a divisor: nearest is 4
    ControlPanel panel;
    QSignalSpy spy(&panel, &ControlPanel::requestChanged);
    panel.setRequest(request);
    QCOMPARE(panel.request().config.heads, 4);
    QCOMPARE(spy.count(), 0);

    request.config.heads = 0;
    panel.setRequest(request);
    QCOMPARE(panel.request().config.heads, 1);
}

void TestControlPanel::temperatureScale()
{
    using attn::kTemperatureSteps;
    using attn::positionOfTemperature;
    using attn::temperatureAtPosition;

    QCOMPARE(temperatureAtPosition(0), 0.05f);
    QCOMPARE(temperatureAtPosition(kTemperatureSteps), 20.0f);
    QCOMPARE(temperatureAtPosition(kTemperatureSteps / 2), 1.0f); // exactly, not fuzzily
    QCOMPARE(positionOfTemperature(1.0f), kTemperatureSteps / 2);
    QCOMPARE(temperatureAtPosition(-5), 0.05f);
    QCOMPARE(temperatureAtPosition(kTemperatureSteps + 5), 20.0f);
    QCOMPARE(positionOfTemperature(1e-6f), 0);
    QCOMPARE(positionOfTemperature(1e6f), kTemperatureSteps);

    for (int position = 1; position <= kTemperatureSteps; ++position) {
        const float previous = temperatureAtPosition(position - 1);
        const float current = temperatureAtPosition(position);
        QVERIFY2(current > previous, qPrintable(QStringLiteral("τ(%1) = %2 is not above τ(%3) = %4")
                                                    .arg(position)
                                                    .arg(double{current})
                                                    .arg(position - 1)
                                                    .arg(double{previous})));
        QCOMPARE(positionOfTemperature(current), position);
    }
}

void TestControlPanel::temperatureSlider_data()
{
    QTest::addColumn<int>("position");
    QTest::addColumn<float>("temperature");
    QTest::addColumn<QString>("shown");

    QTest::newRow("left end") << 0 << 0.05f << QStringLiteral("τ = 0.05");
    QTest::newRow("middle") << 500 << 1.0f << QStringLiteral("τ = 1.00");
    QTest::newRow("right end") << 1000 << 20.0f << QStringLiteral("τ = 20.00");
}

void TestControlPanel::temperatureSlider()
{
    QFETCH(int, position);
    QFETCH(float, temperature);
    QFETCH(QString, shown);

    ControlPanel panel;
    panel.setRequest(baseRequest());
    panel.findChild<QSlider*>(QStringLiteral("temperatureSlider"))->setValue(position);
    QCOMPARE(panel.request().config.temperature, temperature);
    QCOMPARE(panel.findChild<QLabel*>(QStringLiteral("temperatureValue"))->text(), shown);
}

void TestControlPanel::temperatureReset()
{
    // τ between two slider positions, the slider already at the middle: reset still
    // makes it exactly 1, and says so once.
    Request request = baseRequest();
    request.config.temperature = 1.0003f;
    ControlPanel panel;
    panel.setRequest(request);
    auto* slider = panel.findChild<QSlider*>(QStringLiteral("temperatureSlider"));
    QCOMPARE(slider->value(), attn::kTemperatureSteps / 2);
    QCOMPARE(panel.request().config.temperature, 1.0003f);
    QSignalSpy spy(&panel, &ControlPanel::requestChanged);

    auto* reset = panel.findChild<QToolButton*>(QStringLiteral("temperatureReset"));
    reset->click();
    QCOMPARE(spy.count(), 1);
    QCOMPARE(panel.request().config.temperature, 1.0f);
    reset->click(); // already 1: no change
    QCOMPARE(spy.count(), 1);
}

void TestControlPanel::tokenChips_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<attn::TokenizerMode>("mode");
    QTest::addColumn<int>("padChips");

    QTest::newRow("one line, no padding")
        << QStringLiteral("the cat sat") << attn::TokenizerMode::Spaces << 0;
    QTest::newRow("two lines, one pad")
        << QStringLiteral("the cat sat\na dog") << attn::TokenizerMode::Spaces << 1;
    QTest::newRow("Chinese characters, two pads")
        << QStringLiteral("我爱你\n猫") << attn::TokenizerMode::Chars << 2;
    QTest::newRow("three lines, 2 + 3 pads")
        << QStringLiteral("a b c d\nx y\ne") << attn::TokenizerMode::Spaces << 5;
}

void TestControlPanel::tokenChips()
{
    QFETCH(QString, text);
    QFETCH(attn::TokenizerMode, mode);
    QFETCH(int, padChips);

    const attn::TokenBatch batch = attn::tokenize(text.toStdString(), mode);
    ControlPanel panel;
    panel.resize(320, 900);
    panel.setTokens(batch);
    auto* chips = panel.findChild<TokenChips*>(QStringLiteral("tokenChips"));
    QVERIFY(chips);
    QVERIFY(chips->tokens() == batch);
    QCOMPARE(chips->padChipCount(), padChips);
    QVERIFY(chips->countText().contains(QStringLiteral("B = %1").arg(batch.batch())));
    QVERIFY(chips->countText().contains(QStringLiteral("T = %1").arg(batch.length())));

    for (int b = 0; b < batch.batch(); ++b) {
        for (int t = 0; t < batch.length(); ++t) {
            QVERIFY(!chips->chipRect(b, t).isEmpty());
            if (batch.isPad(b, t)) {
                QCOMPARE(chips->chipToolTip(b, t), QStringLiteral("padding: its key is masked"));
            } else {
                QVERIFY(chips->chipToolTip(b, t).contains(
                    QString::fromStdString(batch.tokens[size_t(b)][size_t(t)])));
            }
        }
    }
    // The pad tooltip follows the padding-mask switch.
    if (padChips > 0) {
        panel.findChild<QCheckBox*>(QStringLiteral("paddingCheck"))->setChecked(false);
        QVERIFY(!chips->chipToolTip(batch.batch() - 1, batch.length() - 1)
                     .contains(QStringLiteral("is masked")));
    }
    // Narrower means more lines, so taller.
    QVERIFY(chips->heightForWidth(60) > chips->heightForWidth(600));

    // A screen reader hears the count line and each sequence's real tokens in order.
    QCOMPARE(chips->accessibleName(), QStringLiteral("Tokens"));
    const QStringList heard = chips->accessibleDescription().split(QLatin1Char('\n'));
    QCOMPARE(heard.size(), 1 + batch.batch());
    QCOMPARE(heard[0], chips->countText());
    for (int b = 0; b < batch.batch(); ++b) {
        QStringList tokens;
        for (int t = 0; t < batch.lengths[size_t(b)]; ++t)
            tokens << QString::fromStdString(batch.tokens[size_t(b)][size_t(t)]);
        QCOMPARE(heard[b + 1], QStringLiteral("%1: %2").arg(b).arg(tokens.join(u" · ")));
    }
}

void TestControlPanel::tokenChipsError()
{
    ControlPanel panel;
    panel.setTokens(attn::tokenize("a b\nc", attn::TokenizerMode::Spaces));
    auto* chips = panel.findChild<TokenChips*>(QStringLiteral("tokenChips"));
    panel.setInputError(QStringLiteral("invalid UTF-8 at byte 3"));
    QCOMPARE(chips->error(), QStringLiteral("invalid UTF-8 at byte 3"));
    QCOMPARE(chips->accessibleDescription(), QStringLiteral("invalid UTF-8 at byte 3"));
    QCOMPARE(chips->padChipCount(), 0);
    QVERIFY(chips->countText().isEmpty());
    QVERIFY(chips->heightForWidth(300) > 0);
    chips->clear();
    QVERIFY(chips->error().isEmpty());
    QCOMPARE(chips->heightForWidth(300), 0);

    // A long token is elided to fit the chip.
    chips->setTokens(attn::tokenize(std::string(200, 'x'), attn::TokenizerMode::Spaces));
    chips->resize(300, 100);
    QVERIFY(chips->chipRect(0, 0).width() <= 300);

    // A sequence longer than the chips shown is heard as far as they go, then the rest's
    // count; the keys' chips of cross-attention say so in their name.
    QStringList words;
    for (int k = 0; k < TokenChips::kMaxChipsPerSequence + 5; ++k)
        words << QStringLiteral("w%1").arg(k);
    chips->setTokens(attn::tokenize(words.join(u' ').toStdString(), attn::TokenizerMode::Spaces));
    const QString heard = chips->accessibleDescription();
    QVERIFY(
        heard.contains(QStringLiteral("w%1 · +5 more").arg(TokenChips::kMaxChipsPerSequence - 1)));
    QVERIFY(!heard.contains(QStringLiteral("w%1").arg(TokenChips::kMaxChipsPerSequence)));
    chips->setKeys(true);
    QCOMPARE(chips->accessibleName(), QStringLiteral("Tokens of the keys and values"));
    QVERIFY(chips->accessibleDescription().startsWith(chips->countText()));
}

void TestControlPanel::everyControlExplainsItself()
{
    ControlPanel panel;
    const QList<QWidget*> widgets = controls(panel);
    QVERIFY(widgets.size() >= 20);
    for (const QWidget* widget : widgets) {
        QVERIFY2(!widget->toolTip().isEmpty(), qPrintable(widget->objectName()));
        QVERIFY2(!widget->statusTip().isEmpty(), qPrintable(widget->objectName()));
    }
    const QString axisHelp = panel.findChild<QComboBox*>(QStringLiteral("axisCombo"))->statusTip();
    QVERIFY(axisHelp.contains(QStringLiteral("dim=-1")));
    const QString headsHelp =
        panel.findChild<QComboBox*>(QStringLiteral("headsCombo"))->statusTip();
    QVERIFY(headsHelp.contains(QStringLiteral("d_k = d_model / heads")));
}

void TestControlPanel::emptyTranslatorKeepsTexts()
{
    ControlPanel panel;
    const QStringList before = shownTexts(panel);
    QVERIFY(!before.contains(QString()));

    QTranslator empty;
    QCoreApplication::installTranslator(&empty); // empty: Qt posts no LanguageChange
    QEvent languageChange(QEvent::LanguageChange);
    QCoreApplication::sendEvent(&panel, &languageChange);
    QCoreApplication::removeTranslator(&empty);

    QCOMPARE(shownTexts(panel), before);
}

void TestControlPanel::translatorChangesTexts()
{
    Request request = baseRequest();
    request.config.axis = attn::SoftmaxAxis::Queries;
    ControlPanel panel;
    panel.setRequest(request);
    QSignalSpy spy(&panel, &ControlPanel::requestChanged);
    auto* inputGroup = panel.findChildren<QGroupBox*>().value(0);
    QVERIFY(inputGroup);
    QCOMPARE(inputGroup->title(), QStringLiteral("Input"));
    const auto* axisCombo = panel.findChild<QComboBox*>(QStringLiteral("axisCombo"));

    PrefixTranslator prefix;
    QVERIFY(QCoreApplication::installTranslator(&prefix)); // posts LanguageChange
    QTRY_COMPARE(inputGroup->title(), QStringLiteral("X:Input"));
    QCOMPARE(axisCombo->currentText(), QStringLiteral("X:Queries (dim=-2)"));
    QCOMPARE(axisCombo->currentData().toInt(), int(attn::SoftmaxAxis::Queries));
    QVERIFY(panel.findChild<QLabel*>(QStringLiteral("dkLabel"))->text().startsWith("X:"));

    QCoreApplication::removeTranslator(&prefix);
    QTRY_COMPARE(inputGroup->title(), QStringLiteral("Input"));
    QCOMPARE(axisCombo->currentText(), QStringLiteral("Queries (dim=-2)"));
    QVERIFY(panel.request() == request);
    QCOMPARE(spy.count(), 0); // retranslating is not a change of the request
}

QTEST_MAIN(TestControlPanel)
#include "tst_controlpanel.moc"
