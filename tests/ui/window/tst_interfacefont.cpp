// The window's font under a system whose sans-serif is a CJK font, as fontconfig answers
// under a zh_CN locale: Latin text and mathematics must come from a Latin font, so that √
// stays beside d_k, "·" stays narrow and T_k keeps its underscore; Chinese from the CJK font.
#include "engine/tokenizer.h"
#include "formulabar.h"
#include "interfacefont.h"
#include "language.h"
#include "statisticspanel.h"
#include "tokenchips.h"

#include <QApplication>
#include <QFontDatabase>
#include <QImage>
#include <QLabel>
#include <QRawFont>
#include <QTest>
#include <QTextLayout>

using attn::ui::interfaceFont;

namespace {

const QString kCjkFamily = QStringLiteral("Noto Sans CJK SC");

bool isCjk(const QString& family)
{
    const auto systems = QFontDatabase::writingSystems(family);
    return systems.contains(QFontDatabase::SimplifiedChinese) ||
           systems.contains(QFontDatabase::Japanese);
}

// The family each character of `text` is drawn with in `font`, in order.
QStringList familiesOf(const QString& text, const QFont& font)
{
    QTextLayout layout(text, font);
    layout.beginLayout();
    layout.createLine();
    layout.endLayout();
    QStringList families;
    for (int k = 0; k < text.size(); ++k) {
        const QList<QGlyphRun> runs = layout.glyphRuns(k, 1);
        families << (runs.isEmpty() ? QString() : runs.first().rawFont().familyName());
    }
    return families;
}

// The darkest ink in the columns [left, right) of `image`: 0 for none, 255 for black.
int inkIn(const QImage& image, int left, int right, QRgb background)
{
    int ink = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = std::max(0, left); x < std::min(image.width(), right); ++x)
            ink = std::max(ink, qGray(background) - qGray(image.pixel(x, y)));
    return ink;
}

} // namespace

class TestInterfaceFont : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void mathematicsTakesALatinFont_data();
    void mathematicsTakesALatinFont();
    void chineseKeepsTheCjkFont();
    void latinSystemFontStaysFirst();
    void underscoreOfTkIsInked_data();
    void underscoreOfTkIsInked();

private:
    QFont system_;
};

void TestInterfaceFont::initTestCase()
{
    if (!QFontDatabase::families().contains(kCjkFamily))
        QSKIP("Noto Sans CJK SC is not installed (fonts-noto-cjk)");
    system_ = QFont(kCjkFamily, 9);
    QApplication::setFont(system_);
    attn::ui::useInterfaceFont();
}

void TestInterfaceFont::mathematicsTakesALatinFont_data()
{
    QTest::addColumn<QString>("where");
    QTest::addColumn<QString>("text");
    QTest::newRow("formula bar √d_k") << "formula" << QStringLiteral("√d_k");
    QTest::newRow("statistics 1/√d_k") << "statistics" << QStringLiteral("×0.25 = 1/√d_k");
    QTest::newRow("separator ·") << "application" << QStringLiteral("B = 1 · T = 3");
    QTest::newRow("count line T_k") << "chips" << QStringLiteral("T_k = 4");
}

void TestInterfaceFont::mathematicsTakesALatinFont()
{
    QFETCH(QString, where);
    QFETCH(QString, text);
    // The font each place draws its text with, as it inherits the application's.
    QFont font = QApplication::font();
    attn::ui::FormulaBar bar;
    attn::ui::StatisticsPanel panel;
    attn::ui::TokenChips chips;
    const auto labelFont = [](const QWidget& widget, const QString& needle) {
        for (const QLabel* label : widget.findChildren<QLabel*>())
            if (label->text().contains(needle))
                return label->font();
        return widget.font();
    };
    if (where == "formula")
        font = labelFont(bar, QStringLiteral("√"));
    else if (where == "statistics")
        font = labelFont(panel, QStringLiteral("d_k"));
    else if (where == "chips")
        font = chips.font();

    const QStringList families = familiesOf(text, font);
    for (int k = 0; k < text.size(); ++k) {
        if (text.at(k).isSpace())
            continue;
        QVERIFY2(!families[k].isEmpty() && !isCjk(families[k]),
                 qPrintable(QStringLiteral("“%1” of “%2” is drawn with %3")
                                .arg(text.at(k), text, families[k])));
        QCOMPARE(families[k], families.first()); // one font: √ beside d, · beside digits
    }
}

void TestInterfaceFont::chineseKeepsTheCjkFont()
{
    const QString text = QStringLiteral("键和值：序列长");
    for (const QString& family : familiesOf(text, QApplication::font()))
        QVERIFY2(isCjk(family), qPrintable(family));
}

void TestInterfaceFont::latinSystemFontStaysFirst()
{
    // A Latin system font is kept as it is, with the Chinese font only as a fallback.
    const QFont latin(QStringLiteral("DejaVu Serif"), 11);
    const QFont font = interfaceFont(latin);
    QCOMPARE(font.families().first(), QStringLiteral("DejaVu Serif"));
    QVERIFY(font.families().contains(kCjkFamily));
    QCOMPARE(font.pointSize(), 11);
    // A CJK system font still gives its Chinese, after the Latin ones.
    const QFont cjk = interfaceFont(QFont(kCjkFamily, 11));
    QVERIFY(!isCjk(cjk.families().first()));
    QVERIFY(cjk.families().contains(kCjkFamily));
}

void TestInterfaceFont::underscoreOfTkIsInked_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<int>("points");
    for (const char* language : {"en", "zh_CN"})
        for (const int points : {8, 9, 10, 11, 12})
            QTest::addRow("%s, %d pt", language, points) << QString::fromLatin1(language) << points;
}

void TestInterfaceFont::underscoreOfTkIsInked()
{
    QFETCH(QString, language);
    QFETCH(int, points);
    attn::ui::Language languages;
    QVERIFY(languages.apply(language));
    // The keys' count line of cross-attention, "键和值：序列长 T_k = 4": the Chinese in it
    // makes the line taller than the Latin font's, and the underscore must not fall out.
    attn::ui::TokenChips chips;
    QFont font = QApplication::font();
    font.setPointSize(points);
    chips.setFont(font);
    chips.setKeys(true);
    chips.setTokens(attn::tokenize("I love machine learning", attn::TokenizerMode::Spaces));
    chips.resize(400, chips.heightForWidth(400));
    const QString text = chips.countText();
    const qsizetype underscore = text.indexOf(QStringLiteral("T_k"));
    QVERIFY(underscore >= 0);
    const QFontMetricsF metrics(font);
    QImage image = chips.grab().toImage();
    const double scale = image.devicePixelRatio();
    // Down to the chips, which start below the count line.
    image = image.copy(0, 0, image.width(), int(chips.chipRect(0, 0).top() * scale));
    const QRgb background = image.pixel(image.width() - 1, 0);
    const auto columns = [&](qsizetype from, qsizetype length) {
        const double left = metrics.horizontalAdvance(text.left(from));
        const double right = metrics.horizontalAdvance(text.left(from + length));
        return std::pair(int(std::ceil(left * scale)) + 1, int(std::floor(right * scale)) - 1);
    };
    const auto [tLeft, tRight] = columns(underscore, 1);
    const auto [left, right] = columns(underscore + 1, 1);
    const int stem = inkIn(image, tLeft, tRight, background);
    const int line = inkIn(image, left, right, background);
    QVERIFY2(stem > 0, "the T is not drawn");
    // The underscore as dark as the T's stem, within the anti-aliasing of a thin line.
    QVERIFY2(line >= 0.6 * stem,
             qPrintable(QStringLiteral("underscore ink %1 beside the T's %2").arg(line).arg(stem)));
}

QTEST_MAIN(TestInterfaceFont)
#include "tst_interfacefont.moc"
