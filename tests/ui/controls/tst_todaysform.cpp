// The control panel's Today's models group: every new field round-trips through the panel,
// each control changes the request at once and once, and a control that cannot take a value
// (or whose value the heads, d_k or the softmax axis make invalid) changes it and says why,
// never leaving a config checkConfig refuses.
#include "controlpanel.h"
#include "formats/requestfields.h"
#include "todaysform.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTest>
#include <QTranslator>

#include <functional>

Q_DECLARE_METATYPE(attn::Request)

using attn::Config;
using attn::Request;
using attn::ui::ControlPanel;

namespace {

// Every field of the table on its own line, as the command line prints it.
QString dump(const Request& request)
{
    QStringList lines;
    for (const attn::RequestField& field : attn::requestFields())
        lines << QString::fromStdString(field.name + "=" + field.print(request));
    return lines.join(u'\n');
}

Request baseRequest()
{
    Request request;
    request.text = "the cat sat on the mat";
    request.config.dModel = 64;
    request.config.heads = 8;
    return request;
}

Request changed(const std::function<void(Config&)>& change)
{
    Request request = baseRequest();
    change(request.config);
    return request;
}

template <typename T> T* child(const QWidget& panel, const char* name)
{
    auto* widget = panel.findChild<T*>(QLatin1StringView(name));
    if (!widget)
        qFatal("no %s", name);
    return widget;
}

QString note(const QWidget& panel)
{
    const auto* label = child<QLabel>(panel, "todaysNote");
    return label->isHidden() ? QString() : label->text();
}

// Types `text` into a line edit and presses Enter.
void enter(QLineEdit* edit, const QString& text)
{
    edit->setText(text);
    emit edit->editingFinished();
}

// Prefixes every translation with "X:".
class PrefixTranslator : public QTranslator {
public:
    QString translate(const char*, const char* sourceText, const char*, int) const override
    {
        return QStringLiteral("X:") + QString::fromUtf8(sourceText);
    }
    bool isEmpty() const override { return false; }
};

} // namespace

class TestTodaysForm : public QObject {
    Q_OBJECT

private slots:
    void roundTrip_data();
    void roundTrip();
    void changeEmitsOnce_data();
    void changeEmitsOnce();
    void kvHeadsAreDivisors();
    void headsChangeAdjustsKvHeadsAndSaysSo();
    void ropeNeedsAnEvenDk();
    void alibiSetsThePositionsToNone();
    void badNumbersAreRefusedWithAReason_data();
    void badNumbersAreRefusedWithAReason();
    void windowOutOfRangeIsClampedAndSaysSo();
    void sinkNeedsTheKeysAxis();
    void everyControlExplainsItself();
    void retranslates();
};

void TestTodaysForm::roundTrip_data()
{
    QTest::addColumn<Request>("request");
    QTest::newRow("defaults") << baseRequest();
    for (int k : {1, 2, 4, 8})
        QTest::newRow(qPrintable(QStringLiteral("kv-heads=%1").arg(k)))
            << changed([k](Config& c) { c.kvHeads = k; });
    QTest::newRow("qk-norm") << changed([](Config& c) { c.qkNorm = true; });
    QTest::newRow("positional=rope")
        << changed([](Config& c) { c.positional = attn::Positional::Rope; });
    QTest::newRow("rope-theta=500000") << changed([](Config& c) {
        c.positional = attn::Positional::Rope;
        c.ropeTheta = 500000;
    });
    QTest::newRow("rope-theta=0.1 kept under sinusoidal")
        << changed([](Config& c) { c.ropeTheta = 0.1f; });
    QTest::newRow("alibi") << changed([](Config& c) {
        c.alibi = true;
        c.positional = attn::Positional::None;
    });
    QTest::newRow("alibi with sinusoidal") << changed([](Config& c) { c.alibi = true; });
    for (float cap : {50.0f, 0.1234567f, 1e-6f, 1e6f})
        QTest::newRow(qPrintable(QStringLiteral("softcap=%1").arg(double{cap})))
            << changed([cap](Config& c) { c.softcap = cap; });
    for (int w : {1, 3, attn::kMaxTokens})
        QTest::newRow(qPrintable(QStringLiteral("window=%1").arg(w)))
            << changed([w](Config& c) { c.window = w; });
    for (float s : {0.0f, -2.5f, 7.125f, 1e-7f})
        QTest::newRow(qPrintable(QStringLiteral("sink=%1").arg(double{s})))
            << changed([s](Config& c) { c.sink = s; });
    QTest::newRow("every switch") << changed([](Config& c) {
        c.kvHeads = 2;
        c.qkNorm = true;
        c.positional = attn::Positional::Rope;
        c.ropeTheta = 1e6f;
        c.alibi = true;
        c.softcap = 30;
        c.window = 2;
        c.sink = -1;
        c.mask = attn::MaskKind::Causal;
    });
}

void TestTodaysForm::roundTrip()
{
    QFETCH(Request, request);
    QVERIFY(!attn::checkConfig(request.config));
    ControlPanel panel;
    QSignalSpy spy(&panel, &ControlPanel::requestChanged);
    panel.setRequest(request);
    QCOMPARE(dump(panel.request()), dump(request));
    QVERIFY(panel.request() == request);
    QCOMPARE(spy.count(), 0);
}

void TestTodaysForm::changeEmitsOnce_data()
{
    QTest::addColumn<QString>("control");
    QTest::addColumn<QVariant>("value"); // combo item data, check state, spin value, edit text
    QTest::addColumn<Request>("expected");

    QTest::newRow("kv-heads=2") << "kvHeadsCombo" << QVariant(2)
                                << changed([](Config& c) { c.kvHeads = 2; });
    QTest::newRow("kv-heads=1") << "kvHeadsCombo" << QVariant(1)
                                << changed([](Config& c) { c.kvHeads = 1; });
    QTest::newRow("qk-norm") << "qkNormCheck" << QVariant(true)
                             << changed([](Config& c) { c.qkNorm = true; });
    QTest::newRow("positional=rope")
        << "positionalCombo" << QVariant(int(attn::Positional::Rope))
        << changed([](Config& c) { c.positional = attn::Positional::Rope; });
    QTest::newRow("alibi") << "alibiCheck" << QVariant(true) << changed([](Config& c) {
        c.alibi = true;
        c.positional = attn::Positional::None;
    });
    QTest::newRow("softcap on") << "softcapCheck" << QVariant(true) << changed([](Config& c) {
        c.softcap = attn::ui::TodaysForm::kFirstSoftcap;
    });
    QTest::newRow("window on") << "windowCheck" << QVariant(true) << changed([](Config& c) {
        c.window = attn::ui::TodaysForm::kFirstWindow;
    });
    QTest::newRow("sink on") << "sinkCheck" << QVariant(true) << changed([](Config& c) {
        c.sink = attn::ui::TodaysForm::kFirstSink;
    });
}

void TestTodaysForm::changeEmitsOnce()
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
    } else {
        QFAIL("no way to change this control");
    }
    QCOMPARE(spy.count(), 1);
    QCOMPARE(dump(panel.request()), dump(expected));
    QVERIFY(panel.request() == expected);
    QTest::qWait(ControlPanel::kDebounceMs + 50);
    QCOMPARE(spy.count(), 1);
}

void TestTodaysForm::kvHeadsAreDivisors()
{
    ControlPanel panel;
    panel.setRequest(changed([](Config& c) {
        c.heads = 12;
        c.dModel = 768;
    }));
    const auto* combo = child<QComboBox>(panel, "kvHeadsCombo");
    QList<int> offered;
    for (int i = 0; i < combo->count(); ++i)
        offered << combo->itemData(i).toInt();
    QCOMPARE(offered, (QList<int>{0, 1, 2, 3, 4, 6, 12}));
    QCOMPARE(combo->currentData().toInt(), 0);
    QVERIFY(combo->currentText().contains(QStringLiteral("12")));
}

void TestTodaysForm::headsChangeAdjustsKvHeadsAndSaysSo()
{
    ControlPanel panel;
    panel.setRequest(changed([](Config& c) { c.kvHeads = 4; }));
    QSignalSpy spy(&panel, &ControlPanel::requestChanged);
    auto* heads = child<QComboBox>(panel, "headsCombo");
    heads->setCurrentIndex(heads->findData(2)); // 4 K/V heads do not divide 2 heads
    QCOMPARE(spy.count(), 1);
    QCOMPARE(panel.request().config.heads, 2);
    QCOMPARE(panel.request().config.kvHeads, 2);
    QVERIFY(!attn::checkConfig(panel.request().config));
    QVERIFY2(note(panel).contains(QStringLiteral("4 K/V heads do not divide the 2 heads")),
             qPrintable(note(panel)));

    // Heads that K still divides keep it, and the note goes with the next change.
    heads->setCurrentIndex(heads->findData(16));
    QCOMPARE(panel.request().config.kvHeads, 2);
    QVERIFY(note(panel).isEmpty());
    // d_model changing the heads does the same.
    panel.setRequest(changed([](Config& c) { c.kvHeads = 8; }));
    child<QSpinBox>(panel, "dModelSpin")->setValue(12); // heads 8 → the nearest divisor, 6
    const Config config = panel.request().config;
    QCOMPARE(config.heads, 6);
    QCOMPARE(config.kvHeads, 6);
    QVERIFY(!attn::checkConfig(config));
}

void TestTodaysForm::ropeNeedsAnEvenDk()
{
    ControlPanel panel;
    panel.setRequest(changed([](Config& c) { c.positional = attn::Positional::Rope; }));
    auto* heads = child<QComboBox>(panel, "headsCombo");
    // d_model 64 ÷ 64 heads: d_k = 1, odd.
    heads->setCurrentIndex(heads->findData(64));
    const Config config = panel.request().config;
    QCOMPARE(config.positional, attn::Positional::None);
    QVERIFY(!attn::checkConfig(config));
    QVERIFY2(note(panel).contains(QStringLiteral("d_k = 1 is odd")), qPrintable(note(panel)));
    // RoPE is offered again only with an even d_k.
    const auto* positional = child<QComboBox>(panel, "positionalCombo");
    auto* model = qobject_cast<QStandardItemModel*>(positional->model());
    const int rope = positional->findData(int(attn::Positional::Rope));
    QVERIFY(!model->item(rope)->isEnabled());
    heads->setCurrentIndex(heads->findData(8));
    QVERIFY(model->item(rope)->isEnabled());
}

void TestTodaysForm::alibiSetsThePositionsToNone()
{
    ControlPanel panel;
    panel.setRequest(baseRequest());
    child<QCheckBox>(panel, "alibiCheck")->click();
    QCOMPARE(panel.request().config.positional, attn::Positional::None);
    QVERIFY(!note(panel).isEmpty());
    // The user may set them back; ALiBi stays.
    auto* positional = child<QComboBox>(panel, "positionalCombo");
    positional->setCurrentIndex(positional->findData(int(attn::Positional::Sinusoidal)));
    QCOMPARE(panel.request().config.positional, attn::Positional::Sinusoidal);
    QVERIFY(panel.request().config.alibi);
}

void TestTodaysForm::badNumbersAreRefusedWithAReason_data()
{
    QTest::addColumn<QString>("check"); // empty: θ, whose edit needs RoPE
    QTest::addColumn<QString>("edit");
    QTest::addColumn<QString>("typed");
    QTest::addColumn<QString>("reason");
    QTest::newRow("softcap -1") << "softcapCheck"
                                << "softcapEdit"
                                << "-1"
                                << "positive number";
    QTest::newRow("softcap 0") << "softcapCheck"
                               << "softcapEdit"
                               << "0"
                               << "positive number";
    QTest::newRow("softcap abc") << "softcapCheck"
                                 << "softcapEdit"
                                 << "abc"
                                 << "“abc”";
    QTest::newRow("sink abc") << "sinkCheck"
                              << "sinkEdit"
                              << "abc"
                              << "finite number";
    QTest::newRow("sink inf") << "sinkCheck"
                              << "sinkEdit"
                              << "inf"
                              << "finite number";
    QTest::newRow("theta 0") << ""
                             << "ropeThetaEdit"
                             << "0"
                             << "positive number";
}

void TestTodaysForm::badNumbersAreRefusedWithAReason()
{
    QFETCH(QString, check);
    QFETCH(QString, edit);
    QFETCH(QString, typed);
    QFETCH(QString, reason);
    ControlPanel panel;
    panel.setRequest(changed([](Config& c) { c.positional = attn::Positional::Rope; }));
    if (!check.isEmpty())
        child<QCheckBox>(panel, qPrintable(check))->click();
    const Request before = panel.request();
    QSignalSpy spy(&panel, &ControlPanel::requestChanged);
    auto* line = child<QLineEdit>(panel, qPrintable(edit));
    const QString shown = line->text();
    enter(line, typed);
    QCOMPARE(spy.count(), 0);
    QVERIFY(panel.request() == before);
    QCOMPARE(line->text(), shown); // the value in use again
    QVERIFY2(note(panel).contains(reason), qPrintable(note(panel)));
    // A good number replaces it and the note goes.
    enter(line, QStringLiteral("3"));
    QCOMPARE(spy.count(), 1);
    QVERIFY(note(panel).isEmpty());
}

void TestTodaysForm::windowOutOfRangeIsClampedAndSaysSo()
{
    ControlPanel panel;
    panel.setRequest(changed([](Config& c) { c.window = 3; }));
    auto* spin = child<QSpinBox>(panel, "windowSpin");
    spin->selectAll();
    QTest::keyClicks(spin, QStringLiteral("9999"));
    QTest::keyClick(spin, Qt::Key_Return);
    QCOMPARE(panel.request().config.window, attn::kMaxTokens);
    QVERIFY2(note(panel).contains(QStringLiteral("9999 keys is outside 1 to 4096, so 4096")),
             qPrintable(note(panel)));
}

void TestTodaysForm::sinkNeedsTheKeysAxis()
{
    ControlPanel panel;
    panel.setRequest(changed([](Config& c) { c.sink = 0.5f; }));
    auto* sink = child<QCheckBox>(panel, "sinkCheck");
    const QString keysHelp = sink->toolTip();
    auto* axis = child<QComboBox>(panel, "axisCombo");
    axis->setCurrentIndex(axis->findData(int(attn::SoftmaxAxis::Queries)));
    QVERIFY(!sink->isEnabled());
    QVERIFY(!panel.request().config.sink);
    QVERIFY(!attn::checkConfig(panel.request().config));
    QVERIFY(sink->toolTip() != keysHelp);
    QVERIFY2(sink->toolTip().contains(QStringLiteral("dim=-1")), qPrintable(sink->toolTip()));
    // Back over the keys, the sink is back, with its value.
    axis->setCurrentIndex(axis->findData(int(attn::SoftmaxAxis::Keys)));
    QVERIFY(sink->isEnabled());
    QCOMPARE(panel.request().config.sink, std::optional<float>(0.5f));
    QCOMPARE(sink->toolTip(), keysHelp);
    // A request over the queries shows the sink off and disabled too.
    panel.setRequest(changed([](Config& c) { c.axis = attn::SoftmaxAxis::Batch; }));
    QVERIFY(!sink->isEnabled());
}

void TestTodaysForm::everyControlExplainsItself()
{
    ControlPanel panel;
    for (const char* name :
         {"kvHeadsCombo", "qkNormCheck", "positionalCombo", "ropeThetaEdit", "alibiCheck",
          "softcapCheck", "softcapEdit", "windowCheck", "windowSpin", "sinkCheck", "sinkEdit"}) {
        const QWidget* widget = child<QWidget>(panel, name);
        QVERIFY2(!widget->toolTip().isEmpty(), name);
        QVERIFY2(!widget->statusTip().isEmpty(), name);
    }
}

void TestTodaysForm::retranslates()
{
    ControlPanel panel;
    panel.setRequest(changed([](Config& c) { c.kvHeads = 2; }));
    QGroupBox* group = nullptr;
    for (QGroupBox* box : panel.findChildren<QGroupBox*>())
        if (box->title() == QStringLiteral("Today's models"))
            group = box;
    QVERIFY(group);
    QSignalSpy spy(&panel, &ControlPanel::requestChanged);
    PrefixTranslator prefix;
    QVERIFY(QCoreApplication::installTranslator(&prefix));
    QTRY_COMPARE(group->title(), QStringLiteral("X:Today's models"));
    QVERIFY(child<QCheckBox>(panel, "alibiCheck")->text().startsWith(QStringLiteral("X:")));
    QVERIFY(child<QComboBox>(panel, "kvHeadsCombo")->itemText(0).startsWith(QStringLiteral("X:")));
    QCoreApplication::removeTranslator(&prefix);
    QTRY_COMPARE(group->title(), QStringLiteral("Today's models"));
    QCOMPARE(panel.request().config.kvHeads, 2);
    QCOMPARE(spy.count(), 0);
}

QTEST_MAIN(TestTodaysForm)
#include "tst_todaysform.moc"
