#include "todaysform.h"

#include "controlform.h"
#include "dmodelspin.h"
#include "enumcombo.h"
#include "lab/controlscales.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QStandardItemModel>

#include <charconv>
#include <cmath>

namespace attn::ui {
namespace {

// The shortest decimal that reads back as the same float, as the request's fields write it:
// "10000", "0.5", "1e-06".
QString shortestText(float value)
{
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, value);
    return QString::fromLatin1(buffer, end.ptr - buffer);
}

// A number as the user may type it, "30", "0.5", "-2", "1e3"; nothing when it is not one.
std::optional<double> parseNumber(const QString& text)
{
    bool ok = false;
    const double value = text.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(value))
        return std::nullopt;
    return value;
}

bool positiveFloat(double value)
{
    return value > 0 && value <= 1e30;
}

QLineEdit* createNumberEdit(const char* objectName, QWidget* parent)
{
    auto* edit = new QLineEdit(parent);
    edit->setObjectName(QLatin1StringView(objectName));
    return edit;
}

QCheckBox* createCheck(const char* objectName, QWidget* parent)
{
    auto* check = new QCheckBox(parent);
    check->setObjectName(QLatin1StringView(objectName));
    return check;
}

} // namespace

TodaysForm::TodaysForm(QWidget* parent)
    : QGroupBox(parent), kvHeadsCombo_(new QComboBox(this)),
      qkNormCheck_(createCheck("qkNormCheck", this)),
      positionalCombo_(createEnumCombo<Positional>("positionalCombo", this)),
      ropeThetaEdit_(createNumberEdit("ropeThetaEdit", this)),
      alibiCheck_(createCheck("alibiCheck", this)),
      softcapCheck_(createCheck("softcapCheck", this)),
      softcapEdit_(createNumberEdit("softcapEdit", this)),
      windowCheck_(createCheck("windowCheck", this)), windowSpin_(new DModelSpin(this)),
      sinkCheck_(createCheck("sinkCheck", this)), sinkEdit_(createNumberEdit("sinkEdit", this)),
      noteLabel_(new QLabel(this))
{
    setObjectName(QStringLiteral("todaysGroup"));
    kvHeadsCombo_->setObjectName(QStringLiteral("kvHeadsCombo"));
    kvHeadsLabel_ = createLabel(kvHeadsCombo_);
    positionalLabel_ = createLabel(positionalCombo_);
    ropeThetaLabel_ = createLabel(ropeThetaEdit_);
    windowSpin_->setObjectName(QStringLiteral("windowSpin"));
    windowSpin_->setRange(1, kMaxTokens);
    windowSpin_->setKeyboardTracking(false);
    windowSpin_->setValue(kFirstWindow);
    noteLabel_->setObjectName(QStringLiteral("todaysNote"));
    noteLabel_->setWordWrap(true);
    noteLabel_->setTextFormat(Qt::PlainText);
    noteLabel_->setForegroundRole(QPalette::Link); // as the Model group's note
    noteLabel_->hide();

    connect(kvHeadsCombo_, &QComboBox::currentIndexChanged, this, &TodaysForm::userChanged);
    connect(qkNormCheck_, &QCheckBox::toggled, this, &TodaysForm::userChanged);
    connect(positionalCombo_, &QComboBox::currentIndexChanged, this, &TodaysForm::positionalChosen);
    connect(alibiCheck_, &QCheckBox::toggled, this, &TodaysForm::alibiToggled);
    for (QCheckBox* check : {softcapCheck_, windowCheck_, sinkCheck_})
        connect(check, &QCheckBox::toggled, this, [this] {
            showEnabled();
            userChanged();
        });
    connect(ropeThetaEdit_, &QLineEdit::editingFinished, this, [this] {
        readNumber(ropeThetaEdit_, ropeTheta_, positiveFloat, [](const QString& text) {
            return tr("The RoPE base θ must be a positive number, not “%1”.").arg(text);
        });
    });
    connect(softcapEdit_, &QLineEdit::editingFinished, this, [this] {
        readNumber(softcapEdit_, softcap_, positiveFloat, [](const QString& text) {
            return tr("The soft-capping c must be a positive number, not “%1”.").arg(text);
        });
    });
    connect(sinkEdit_, &QLineEdit::editingFinished, this, [this] {
        readNumber(
            sinkEdit_, sink_, [](double value) { return std::abs(value) <= 1e30; },
            [](const QString& text) {
                return tr("The sink logit must be a finite number, not “%1”.").arg(text);
            });
    });
    connect(windowSpin_, &QSpinBox::valueChanged, this, [this] {
        setNote({});
        userChanged();
    });
    // A number past the range is brought into it: say so, as d_model's spin box does.
    connect(windowSpin_, &QAbstractSpinBox::editingFinished, this, [this] {
        if (const auto typed = windowSpin_->takeClamped())
            setNote(tr("A window of %1 keys is outside 1 to %2, so %3 is used.")
                        .arg(*typed)
                        .arg(kMaxTokens)
                        .arg(windowSpin_->value()));
    });

    // Rows in the order the pipeline applies them: the projection's K/V heads, QK-norm, the
    // positions, ALiBi, the cap, the window's mask, the sink in the softmax.
    auto* form = createFormLayout(this);
    form->addRow(kvHeadsLabel_, kvHeadsCombo_);
    form->addRow(qkNormCheck_);
    form->addRow(positionalLabel_, positionalCombo_);
    form->addRow(ropeThetaLabel_, ropeThetaEdit_);
    form->addRow(alibiCheck_);
    form->addRow(softcapCheck_, softcapEdit_);
    form->addRow(windowCheck_, windowSpin_);
    form->addRow(sinkCheck_, sinkEdit_);
    form->addRow(noteLabel_);

    setConfig(Config{});
    retranslateUi();
}

void TodaysForm::showModelSwitchesOnly()
{
    auto* form = static_cast<QFormLayout*>(layout());
    for (QWidget* row : {static_cast<QWidget*>(kvHeadsCombo_), static_cast<QWidget*>(qkNormCheck_),
                         static_cast<QWidget*>(positionalCombo_),
                         static_cast<QWidget*>(ropeThetaEdit_), static_cast<QWidget*>(alibiCheck_)})
        form->setRowVisible(row, false);
}

Config TodaysForm::apply(Config config) const
{
    config.kvHeads = kvHeadsCombo_->currentData().toInt();
    config.qkNorm = qkNormCheck_->isChecked();
    config.positional = currentValue<Positional>(positionalCombo_);
    config.ropeTheta = ropeTheta_;
    config.alibi = alibiCheck_->isChecked();
    config.softcap = softcapCheck_->isChecked() ? softcap_ : 0.0f;
    config.window = windowCheck_->isChecked() ? windowSpin_->value() : 0;
    // The sink is off and disabled while the softmax runs over another axis (setAxis).
    if (sinkCheck_->isChecked() && sinkCheck_->isEnabled())
        config.sink = sink_;
    else
        config.sink.reset();
    return config;
}

void TodaysForm::setConfig(const Config& config)
{
    const QSignalBlocker blocker(this);
    const QSignalBlocker blockers[] = {
        QSignalBlocker(kvHeadsCombo_),    QSignalBlocker(qkNormCheck_),
        QSignalBlocker(positionalCombo_), QSignalBlocker(alibiCheck_),
        QSignalBlocker(softcapCheck_),    QSignalBlocker(windowCheck_),
        QSignalBlocker(windowSpin_),      QSignalBlocker(sinkCheck_)};
    heads_ = config.heads;
    dK_ = config.dK();
    rebuildKvHeads(config.kvHeads);
    qkNormCheck_->setChecked(config.qkNorm);
    showPositionalItems();
    setCurrentValue(positionalCombo_, config.positional);
    ropeTheta_ = config.ropeTheta;
    alibiCheck_->setChecked(config.alibi);
    softcapCheck_->setChecked(config.softcap > 0);
    if (config.softcap > 0)
        softcap_ = config.softcap;
    windowCheck_->setChecked(config.window > 0);
    if (config.window > 0)
        windowSpin_->setValue(config.window);
    sinkCheck_->setChecked(config.sink.has_value());
    sinkCheck_->setEnabled(true);
    if (config.sink)
        sink_ = *config.sink;
    axis_ = SoftmaxAxis::Keys;
    setAxis(config.axis);
    showSinkHelp();
    setNote({});
    showNumbers();
    showEnabled();
}

void TodaysForm::setHeads(int heads, int dK)
{
    if (heads == heads_ && dK == dK_)
        return;
    const QSignalBlocker blockers[] = {QSignalBlocker(kvHeadsCombo_),
                                       QSignalBlocker(positionalCombo_)};
    heads_ = heads;
    dK_ = dK;
    const int kvHeads = kvHeadsCombo_->currentData().toInt();
    rebuildKvHeads(kvHeads);
    QStringList notes;
    if (kvHeads > 0 && kvHeadsCombo_->currentData().toInt() != kvHeads)
        notes << tr("%1 K/V heads do not divide the %2 heads, so the nearest divisor, %3, is "
                    "used.",
                    "the K/V heads must divide the heads")
                     .arg(kvHeads)
                     .arg(heads)
                     .arg(kvHeadsCombo_->currentData().toInt());
    const bool rope = currentValue<Positional>(positionalCombo_) == Positional::Rope;
    showPositionalItems();
    if (rope && dK % 2 != 0) {
        setCurrentValue(positionalCombo_, Positional::None);
        notes << tr("RoPE rotates pairs of features and d_k = %1 is odd, so the positions are "
                    "none.")
                     .arg(dK);
    }
    setNote(notes.join(u' '));
    showEnabled();
}

void TodaysForm::setAxis(SoftmaxAxis axis)
{
    if (axis == axis_)
        return;
    const bool keys = axis == SoftmaxAxis::Keys;
    const QSignalBlocker blocker(sinkCheck_);
    if (!keys && axis_ == SoftmaxAxis::Keys) {
        sinkBeforeAxis_ = sinkCheck_->isChecked();
        sinkCheck_->setChecked(false);
    } else if (keys) {
        sinkCheck_->setChecked(sinkBeforeAxis_);
    }
    axis_ = axis;
    sinkCheck_->setEnabled(keys);
    showSinkHelp(); // its tooltip says why it is off
    showEnabled();
}

void TodaysForm::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QGroupBox::changeEvent(event);
}

void TodaysForm::rebuildKvHeads(int preferred)
{
    const QSignalBlocker blocker(kvHeadsCombo_);
    kvHeadsCombo_->clear();
    kvHeadsCombo_->addItem(QString(), 0); // "as many as the heads", named by retranslateUi
    for (int k : headCounts(heads_))
        kvHeadsCombo_->addItem(QString::number(k), k);
    const int chosen = preferred > 0 ? nearestHeadCount(heads_, preferred) : 0;
    kvHeadsCombo_->setCurrentIndex(kvHeadsCombo_->findData(chosen));
    if (kvHeadsCombo_->count() > 0)
        kvHeadsCombo_->setItemText(
            0, tr("As many as the heads (%1)", "K/V heads: 0, the default").arg(heads_));
}

// RoPE is offered only for an even d_k: it rotates pairs of features.
void TodaysForm::showPositionalItems()
{
    auto* model = qobject_cast<QStandardItemModel*>(positionalCombo_->model());
    const int row = positionalCombo_->findData(static_cast<int>(Positional::Rope));
    if (!model || row < 0)
        return;
    QStandardItem* item = model->item(row);
    item->setEnabled(dK_ % 2 == 0);
    item->setToolTip(dK_ % 2 == 0
                         ? QString()
                         : tr("RoPE rotates pairs of features: d_k (%1) must be even.").arg(dK_));
}

void TodaysForm::showEnabled()
{
    ropeThetaEdit_->setEnabled(currentValue<Positional>(positionalCombo_) == Positional::Rope);
    ropeThetaLabel_->setEnabled(ropeThetaEdit_->isEnabled());
    softcapEdit_->setEnabled(softcapCheck_->isChecked());
    windowSpin_->setEnabled(windowCheck_->isChecked());
    sinkEdit_->setEnabled(sinkCheck_->isChecked() && sinkCheck_->isEnabled());
}

void TodaysForm::positionalChosen()
{
    setNote({});
    // RoPE's item is disabled with an odd d_k, but a program may still choose it.
    if (currentValue<Positional>(positionalCombo_) == Positional::Rope && dK_ % 2 != 0) {
        const QSignalBlocker blocker(positionalCombo_);
        setCurrentValue(positionalCombo_, Positional::None);
        setNote(tr("RoPE rotates pairs of features and d_k = %1 is odd, so the positions are "
                   "none.")
                    .arg(dK_));
    }
    showEnabled();
    emit switchesChanged();
}

void TodaysForm::alibiToggled(bool on)
{
    // BLOOM and MPT have no positional embedding: ALiBi's bias is their positions. The
    // user may set them back.
    setNote({});
    if (on && currentValue<Positional>(positionalCombo_) != Positional::None) {
        const QSignalBlocker blocker(positionalCombo_);
        setCurrentValue(positionalCombo_, Positional::None);
        setNote(tr("With ALiBi the positions are none, as in BLOOM; you may set them back."));
    }
    showEnabled();
    emit switchesChanged();
}

void TodaysForm::userChanged()
{
    setNote({});
    emit switchesChanged();
}

void TodaysForm::readNumber(QLineEdit* edit, float& value, const std::function<bool(double)>& valid,
                            const std::function<QString(const QString&)>& why)
{
    const QString text = edit->text().trimmed();
    const std::optional<double> number = parseNumber(text);
    if (!number || !valid(*number)) {
        showNumbers();
        setNote(why(text));
        return;
    }
    const auto read = static_cast<float>(*number);
    const bool changed = read != value;
    value = read;
    showNumbers(); // "1e3" as 1000
    if (!changed)
        return;
    setNote({});
    emit switchesChanged();
}

void TodaysForm::setNote(const QString& text)
{
    noteLabel_->setText(text);
    noteLabel_->setVisible(!text.isEmpty());
}

void TodaysForm::showNumbers()
{
    ropeThetaEdit_->setText(shortestText(ropeTheta_));
    softcapEdit_->setText(shortestText(softcap_));
    sinkEdit_->setText(shortestText(sink_));
}

void TodaysForm::retranslateUi()
{
    setTitle(tr("Today's models", "group box: the switches models added since 2017"));
    kvHeadsLabel_->setText(tr("K/&V heads:", "grouped-query attention: heads of K and V"));
    if (kvHeadsCombo_->count() > 0)
        kvHeadsCombo_->setItemText(
            0, tr("As many as the heads (%1)", "K/V heads: 0, the default").arg(heads_));
    setHelp({kvHeadsLabel_, kvHeadsCombo_}, helpText(ControlHelp::KvHeads));
    qkNormCheck_->setText(tr("&QK-norm (divide Q and K by their RMS)"));
    setHelp({qkNormCheck_}, helpText(ControlHelp::QkNorm));
    positionalLabel_->setText(tr("&Positions:", "the positional encoding"));
    retranslateItems<Positional>(positionalCombo_);
    showPositionalItems();
    setHelp({positionalLabel_, positionalCombo_}, helpText(ControlHelp::Positional));
    ropeThetaLabel_->setText(tr("&RoPE θ:", "the base of RoPE's frequencies; keep the symbol"));
    setHelp({ropeThetaLabel_, ropeThetaEdit_}, helpText(ControlHelp::RopeTheta));
    alibiCheck_->setText(tr("A&LiBi (linear bias −m·|i − j|)"));
    setHelp({alibiCheck_}, helpText(ControlHelp::Alibi));
    softcapCheck_->setText(tr("Soft-cappi&ng c:", "L = c·tanh(L/c)"));
    setHelp({softcapCheck_, softcapEdit_}, helpText(ControlHelp::Softcap));
    windowCheck_->setText(tr("Sliding &window W:", "keys |i − j| < W"));
    setHelp({windowCheck_, windowSpin_}, helpText(ControlHelp::Window));
    sinkCheck_->setText(tr("Attention s&ink s:", "one more logit in every row"));
    showSinkHelp();
}

void TodaysForm::showSinkHelp()
{
    setHelp({sinkCheck_, sinkEdit_},
            helpText(axis_ == SoftmaxAxis::Keys ? ControlHelp::Sink : ControlHelp::SinkNeedsKeys));
}

} // namespace attn::ui
