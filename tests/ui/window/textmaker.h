// Random text for the monkey, from its seeded generator: every kind a person types or
// pastes (languages, emoji, controls, nothing, a book).
#pragma once

#include "engine/options.h"

#include <QChar>
#include <QString>
#include <QStringList>

#include <random>

namespace attn::test {

inline constexpr int kLongTextTokens = 3000;

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

} // namespace attn::test
