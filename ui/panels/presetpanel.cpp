#include "presetpanel.h"

#include "figure.h"
#include "lab/presets.h"
#include "presetlessons.h"

#include <QAbstractTextDocumentLayout>
#include <QCoreApplication>
#include <QEvent>
#include <QFontDatabase>
#include <QFontInfo>
#include <QFontMetricsF>
#include <QGraphicsOpacityEffect>
#include <QLabel>
#include <QMenu>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextList>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

// The hint the panel shows before a preset is chosen.
QString hintHtml()
{
    return QStringLiteral("<p>%1</p>")
        .arg(PresetPanel::tr("Choose a preset from the Presets menu: each one sets up a lesson "
                             "of the tutorial, and this panel says what to look at."));
}

// The menu that lists the presets; it retranslates its title and actions itself.
class PresetMenu : public QMenu {
public:
    using QMenu::QMenu;

    void retranslate()
    {
        setTitle(PresetPanel::tr("&Presets"));
        for (QAction* action : actions()) {
            const QString name = action->data().toString();
            action->setText(PresetPanel::displayName(name));
            action->setStatusTip(PresetPanel::summary(name));
        }
    }

protected:
    void changeEvent(QEvent* event) override
    {
        if (event->type() == QEvent::LanguageChange)
            retranslate();
        QMenu::changeEvent(event);
    }
};

// The Simplified Chinese fonts among the figures' families, the first found first.
QStringList chineseFamilies()
{
    QStringList chinese;
    for (const QString& family : figureFontFamilies())
        if (QFontDatabase::writingSystems(family).contains(QFontDatabase::SimplifiedChinese))
            chinese << family;
    return chinese;
}

// Sets `document`, in `font`, alike in English and Chinese. A line holding Chinese takes
// the CJK font's taller ascent and descent, one of Latin text alone the Latin font's, so the
// lines came unevenly apart; every line is now one pitch from the next, its baseline at
// four fifths of it. Qt centres a list's bullet in the Latin font's height, above the
// middle of Chinese characters: an item with Chinese has its bullet as text instead, "•"
// of the Chinese font on the item's baseline, with a hanging indent.
void typesetEvenly(QTextDocument* document, const QFont& font)
{
    const double pitch = std::round(1.35 * QFontInfo(font).pixelSize());
    const QString bullet = QStringLiteral("•\u00a0\u00a0");
    QFont bulletFont = font;
    bulletFont.setFamilies(chineseFamilies());
    const double hanging = QFontMetricsF(bulletFont, document->documentLayout()->paintDevice())
                               .horizontalAdvance(bullet);
    QTextCharFormat bulletFormat;
    bulletFormat.setFontFamilies(bulletFont.families());
    QTextCursor cursor(document);
    cursor.beginEditBlock();
    for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
        QTextList* list = block.textList();
        const QString text = block.text();
        const bool chinese =
            std::ranges::any_of(text, [](QChar c) { return c.script() == QChar::Script_Han; });
        double indent = 0;
        if (list && chinese) {
            indent =
                (block.blockFormat().indent() + list->format().indent()) * document->indentWidth();
            list->remove(block); // before its format is read: that names the list
        }
        QTextBlockFormat format = block.blockFormat();
        format.setLineHeight(pitch, QTextBlockFormat::FixedHeight);
        if (list && chinese) {
            format.setIndent(0);
            format.setLeftMargin(format.leftMargin() + indent);
            format.setTextIndent(-hanging);
        }
        cursor.setPosition(block.position());
        cursor.setBlockFormat(format);
        if (list && chinese)
            cursor.insertText(bullet, bulletFormat);
    }
    cursor.endEditBlock();
}

} // namespace

PresetPanel::PresetPanel(QWidget* parent)
    : QWidget(parent), titleLabel_(new QLabel(this)), leftLabel_(new QLabel(this)),
      browser_(new QTextBrowser(this))
{
    titleLabel_->setObjectName(QStringLiteral("presetTitle"));
    QFont titleFont = font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.2);
    titleLabel_->setFont(titleFont);
    titleLabel_->setWordWrap(true);

    leftLabel_->setObjectName(QStringLiteral("presetLeft"));
    leftLabel_->setWordWrap(true);
    leftLabel_->setTextFormat(Qt::RichText);
    leftLabel_->setFrameShape(QFrame::StyledPanel);
    leftLabel_->setAutoFillBackground(true);
    leftLabel_->setBackgroundRole(QPalette::ToolTipBase);
    leftLabel_->setForegroundRole(QPalette::ToolTipText);
    leftLabel_->setMargin(6);
    leftLabel_->hide();
    connect(leftLabel_, &QLabel::linkActivated, this, [this] {
        if (!name_.isEmpty())
            emit reloadRequested(name_);
    });

    browser_->setObjectName(QStringLiteral("presetExplanation"));
    browser_->setOpenLinks(false);
    browser_->setFrameShape(QFrame::NoFrame);
    // Dimmed, not disabled, once the window has left the preset: it still scrolls.
    auto* dim = new QGraphicsOpacityEffect(browser_);
    dim->setOpacity(1.0);
    browser_->setGraphicsEffect(dim);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(titleLabel_);
    layout->addWidget(leftLabel_);
    layout->addWidget(browser_, 1);
    retranslateUi();
}

void PresetPanel::showPreset(const QString& name)
{
    name_ = presetNames().contains(name) ? name : QString();
    left_ = false;
    retranslateUi();
}

void PresetPanel::setCurrentRequest(const Request& request)
{
    const Preset* preset = name_.isEmpty() ? nullptr : findPreset(name_.toStdString());
    const bool left = preset && !(request == preset->request);
    if (left == left_)
        return;
    left_ = left;
    showLeft();
}

void PresetPanel::showLeft()
{
    leftLabel_->setText(
        tr("The sentence or the switches are no longer this preset's, so its numbers below "
           "no longer describe the heatmaps. <a href=\"reload\">Load the preset again</a>"));
    leftLabel_->setVisible(left_);
    static_cast<QGraphicsOpacityEffect*>(browser_->graphicsEffect())
        ->setOpacity(left_ ? 0.45 : 1.0);
}

void PresetPanel::clear()
{
    showPreset(QString());
}

QString PresetPanel::title() const
{
    return titleLabel_->text();
}

QStringList PresetPanel::presetNames()
{
    QStringList names;
    for (const Preset& preset : presets())
        names << QString::fromUtf8(preset.name.data(), static_cast<qsizetype>(preset.name.size()));
    return names;
}

QString PresetPanel::displayName(const QString& name)
{
    const QString text = lessonOf(name).menuText;
    return text.isEmpty() ? name : text;
}

QString PresetPanel::summary(const QString& name)
{
    const Preset* preset = findPreset(name.toStdString());
    return preset ? QCoreApplication::translate(kPresetContext, preset->tagline) : QString();
}

QString PresetPanel::explanationHtml(const QString& name)
{
    const Lesson lesson = lessonOf(name);
    if (lesson.setup.isEmpty())
        return {};
    QString items;
    for (const QString& reading : lesson.readings)
        items += QStringLiteral("<li>%1</li>").arg(reading);
    return QStringLiteral("<p><i>%1</i></p><p>%2</p><h4>%3</h4><ul>%4</ul><p>%5 "
                          "<code>attnscope compute --preset %6</code></p>")
        .arg(summary(name), lesson.setup,
             tr("How to read the output", "heading, as in the tutorial's lessons"), items,
             tr("On the command line:"), name);
}

void PresetPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void PresetPanel::retranslateUi()
{
    titleLabel_->setText(name_.isEmpty() ? tr("Presets") : displayName(name_));
    html_ = name_.isEmpty() ? hintHtml() : explanationHtml(name_);
    browser_->setHtml(html_);
    typesetEvenly(browser_->document(), browser_->font());
    showLeft();
}

QMenu* createPresetMenu(QWidget* parent, std::function<void(const QString&)> onChosen)
{
    auto* menu = new PresetMenu(parent);
    for (const QString& name : PresetPanel::presetNames()) {
        QAction* action = menu->addAction(QString());
        action->setObjectName(QStringLiteral("preset-") + name);
        action->setData(name);
        QObject::connect(action, &QAction::triggered, menu, [onChosen, name] { onChosen(name); });
    }
    menu->retranslate();
    return menu;
}

} // namespace attn::ui
