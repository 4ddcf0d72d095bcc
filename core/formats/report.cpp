#include "formats/report.h"

#include "base/json.h"
#include "formats/reportjson.h"
#include "formats/requestfields.h"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <vector>

namespace attn {
namespace {

std::string fixed(double value, int decimals)
{
    if (std::isnan(value))
        return "nan";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

std::string padRight(std::string text, int width)
{
    if (const int columns = terminalColumns(text); columns < width)
        text.append(std::size_t(width - columns), ' ');
    return text;
}

template <typename T> void writeList(JsonWriter& json, const std::vector<T>& values)
{
    json.beginArray();
    for (const T& v : values)
        json.value(v);
    json.endArray();
}

bool isWide(UChar32 c)
{
    const auto width = u_getIntPropertyValue(c, UCHAR_EAST_ASIAN_WIDTH);
    return width == U_EA_WIDE || width == U_EA_FULLWIDTH;
}

// Punctuation a line may not start with (closing) or end with (opening), as Chinese
// typesetting has it.
bool closes(UChar32 c)
{
    const auto category = u_charType(c);
    return category == U_END_PUNCTUATION || category == U_FINAL_PUNCTUATION ||
           (category == U_OTHER_PUNCTUATION && isWide(c));
}

bool opens(UChar32 c)
{
    const auto category = u_charType(c);
    return category == U_START_PUNCTUATION || category == U_INITIAL_PUNCTUATION;
}

} // namespace

std::vector<std::string> wrapColumns(std::string_view text, int width)
{
    // The code points with where each starts, then a greedy fill: the last break
    // opportunity that fits ends the line.
    struct Point {
        std::size_t at;
        UChar32 c;
    };
    std::vector<Point> points;
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
    const auto length = static_cast<std::int32_t>(text.size());
    for (std::int32_t i = 0; i < length;) {
        const std::int32_t at = i;
        UChar32 c = 0;
        U8_NEXT(bytes, i, length, c);
        points.push_back({std::size_t(at), c});
    }
    const auto byteAt = [&](std::size_t k) {
        return k < points.size() ? points[k].at : text.size();
    };
    // A break before point k: a space, or a wide character on either side, unless the
    // next one closes or the previous one opens.
    const auto breaksBefore = [&](std::size_t k) {
        if (k == 0 || k >= points.size())
            return false;
        const UChar32 before = points[k - 1].c, after = points[k].c;
        if (after == ' ')
            return true;
        if (before == ' ' || before < 0 || after < 0)
            return false;
        return (isWide(before) || isWide(after)) && !closes(after) && !opens(before);
    };
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < points.size()) {
        while (start < points.size() && points[start].c == ' ')
            ++start;
        if (start == points.size())
            break;
        std::size_t end = start, lastBreak = start;
        int columns = 0;
        for (; end < points.size(); ++end) {
            if (end > start && breaksBefore(end))
                lastBreak = end;
            const std::string_view one = text.substr(byteAt(end), byteAt(end + 1) - byteAt(end));
            columns += terminalColumns(one);
            if (columns > width && lastBreak > start)
                break;
        }
        if (end < points.size())
            end = lastBreak;
        std::string line(text.substr(byteAt(start), byteAt(end) - byteAt(start)));
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        lines.push_back(std::move(line));
        start = end;
    }
    return lines;
}

int terminalColumns(std::string_view utf8)
{
    int columns = 0;
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(utf8.data());
    const auto length = static_cast<std::int32_t>(utf8.size());
    for (std::int32_t i = 0; i < length;) {
        UChar32 c = 0;
        U8_NEXT(bytes, i, length, c); // an invalid sequence gives c < 0: one column
        if (c < 0) {
            ++columns;
            continue;
        }
        const auto category = u_charType(c);
        if (category == U_NON_SPACING_MARK || category == U_ENCLOSING_MARK ||
            category == U_FORMAT_CHAR || c == 0x200B)
            continue;
        columns += isWide(c) ? 2 : 1;
    }
    return columns;
}

std::string shapeText(std::initializer_list<long long> dims)
{
    std::string out = "(";
    for (long long d : dims)
        out += (out.size() > 1 ? ", " : "") + std::to_string(d);
    return out + ")";
}

namespace {

// Every field of the table that `keep` keeps, into the open object.
template <typename Keep> void writeConfigFields(JsonWriter& json, const Config& c, Keep keep)
{
    // Every switch of the field table, keyed and spelled as on the command line; numbers and
    // the seed as numbers. The texts are not the config's: the report writes tokens instead.
    Request request;
    request.config = c;
    for (const RequestField& field : requestFields()) {
        if (!field.inConfig || !keep(field))
            continue;
        json.key(field.name);
        if (const auto* m = std::get_if<int Config::*>(&field.member))
            json.value(c.**m);
        else if (const auto* m = std::get_if<std::uint64_t Config::*>(&field.member))
            json.value(c.**m);
        else if (const auto* m = std::get_if<float Config::*>(&field.member))
            json.value(c.**m);
        else
            json.value(field.print(request)); // spellings, and on|off
    }
}

} // namespace

void writeConfig(JsonWriter& json, const Config& c)
{
    json.beginObject();
    writeConfigFields(json, c, [](const RequestField&) { return true; });
    json.endObject();
}

void beginConfigObject(JsonWriter& json, const Config& c, std::span<const std::string_view> names)
{
    json.beginObject();
    writeConfigFields(json, c, [names](const RequestField& field) {
        return std::ranges::find(names, std::string_view(field.name)) != names.end();
    });
}

std::string jsonReport(const Result& r)
{
    const TokenBatch& tokens = *r.tokens;
    const Statistics& stats = *r.stats;
    JsonWriter json;
    json.beginObject();
    json.key("format");
    json.value("attnscope-result");
    json.key("version");
    json.value(1);

    json.key("tokens");
    json.beginArray();
    for (const auto& sequence : tokens.tokens)
        writeList(json, sequence);
    json.endArray();
    json.key("lengths");
    writeList(json, tokens.lengths);
    // The keys' and values' tokens: the same as "tokens" in self-attention.
    json.key("key_tokens");
    json.beginArray();
    for (const auto& sequence : r.keyTokens->tokens)
        writeList(json, sequence);
    json.endArray();
    json.key("key_lengths");
    writeList(json, r.keyTokens->lengths);

    json.key("config");
    writeConfig(json, r.config());

    json.key("shape");
    json.beginObject();
    for (auto [name, value] : {std::pair{"B", r.batch()},
                               {"H", r.heads()},
                               {"T", r.length()},
                               {"T_k", r.keyLength()},
                               {"C", r.dModel()},
                               {"d_k", r.dK()}}) {
        json.key(name);
        json.value(value);
    }
    json.endObject();

    json.key("stats");
    json.beginObject();
    json.key("std_scores");
    json.value(stats.stdScores);
    json.key("std_scaled");
    json.value(stats.stdLogits);
    json.key("scale");
    json.value(scaleFactor(r.config()));
    json.key("mean_entropy");
    json.value(stats.meanEntropy);
    json.key("mean_entropy_max");
    json.value(stats.meanEntropyMax);
    json.key("mean_row_max");
    json.value(stats.meanRowMax);
    json.key("mean_jacobian_norm");
    json.value(stats.meanJacobianNorm);
    json.key("saturated_share");
    json.value(stats.saturatedShare);
    json.key("row_sum_min");
    json.value(stats.rowSumMin);
    json.key("row_sum_max");
    json.value(stats.rowSumMax);
    json.key("col_sum_min");
    json.value(stats.colSumMin);
    json.key("col_sum_max");
    json.value(stats.colSumMax);
    json.key("nan_count");
    json.value(stats.nanCount);
    // Today's figures, only where a switch makes them (a report of the 2017 formula keeps
    // its keys): the std of L after ALiBi and the cap, and what a sink takes.
    const bool shifted = r.config().alibi || r.config().softcap > 0;
    if (shifted) {
        json.key("std_final_logits");
        json.value(stats.stdFinalLogits);
    }
    if (r.config().sink) {
        json.key("max_sink_weight");
        json.value(stats.maxSinkWeight);
        json.key("sink_rows");
        json.value(stats.sinkRows);
    }
    json.endObject();

    json.key("warnings");
    json.beginArray();
    for (const Warning& w : stats.warnings) {
        json.beginObject();
        json.key("text");
        json.value(warningText(w));
        json.endObject();
    }
    json.endArray();

    json.key("heads");
    json.beginArray();
    for (int b = 0; b < r.batch(); ++b) {
        for (int h = 0; h < r.heads(); ++h) {
            json.beginObject();
            json.key("batch");
            json.value(b);
            json.key("head");
            json.value(h);
            json.key("scores");
            writeMatrix(json, r.scores->at(b, h));
            json.key("scaled");
            writeMatrix(json, r.logits(b, h));
            json.key("weights");
            writeMatrix(json, r.weights->at(b, h));
            json.key("stats");
            writeHeadStatistics(json, stats.heads[static_cast<std::size_t>(b * r.heads() + h)],
                                StatisticsReport::Engine, shifted);
            json.endObject();
        }
    }
    json.endArray();

    json.key("output");
    json.beginArray();
    for (const Matrix& o : r.aggregation->output)
        writeMatrix(json, o);
    json.endArray();

    // Counted last, so it includes every null written above.
    const std::uint64_t nonfinite = json.nonfinite();
    json.key("nonfinite");
    json.value(nonfinite);
    json.endObject();
    return json.take() + "\n";
}

std::string textReport(const Result& r, const ReportWords& words)
{
    const TokenBatch& tokens = *r.tokens;
    const Statistics& stats = *r.stats;
    const Config& c = r.config();
    const int B = r.batch(), T = r.length(), Tk = r.keyLength(), C = r.dModel(), H = r.heads(),
              dK = r.dK();
    const bool cross = r.isCross();
    std::string out;

    auto listTokens = [&](const std::string& title, const TokenBatch& batch, int length) {
        out += title + " (B=" + std::to_string(B) + ", T=" + std::to_string(length) + "):\n";
        for (int b = 0; b < B; ++b) {
            out += "  [" + std::to_string(b) + "] ";
            for (int t = 0; t < length; ++t)
                out += (t > 0 ? " | " : "") +
                       batch.tokens[static_cast<std::size_t>(b)][static_cast<std::size_t>(t)];
            out += "\n";
        }
    };
    if (cross) {
        listTokens(words.crossQueries, tokens, T);
        listTokens(words.crossKeys, *r.keyTokens, Tk);
    } else {
        listTokens(words.tokens, tokens, T);
    }
    // Every switch of the field table, as name=value spelled as on the command line (the
    // JSON report's writeConfig walks the same rows); today's models' only where switched,
    // so that the 2017 formula's report reads as the tutorial's.
    out += words.config;
    const Request defaults;
    for (const RequestField& field : requestFields())
        if (field.inConfig &&
            (!field.addedLater || field.print(r.request) != field.print(defaults)))
            out += " " + field.name + "=" + field.print(r.request);
    out += "\n\n";

    if (cross) {
        out += "x        (B, T_q, C)        = " + shapeText({B, T, C}) + "\n";
        out += "y        (B, T_k, C)        = " + shapeText({B, Tk, C}) + "\n";
        out += "Q        (B, H, T_q, d_k)   = " + shapeText({B, H, T, dK}) + "\n";
        out += "K, V     (B, H, T_k, d_k)   = " + shapeText({B, H, Tk, dK}) + "\n";
        out += "scores   (B, H, T_q, T_k)   = " + shapeText({B, H, T, Tk}) + "\n";
        out += "output   (B, T_q, C)        = " + shapeText({B, T, C}) + "\n\n";
    } else {
        out += "x        (B, T, C)      = " + shapeText({B, T, C}) + "\n";
        out += "Q, K, V  (B, H, T, d_k) = " + shapeText({B, H, T, dK}) + "\n";
        out += "scores   (B, H, T, T)   = " + shapeText({B, H, T, T}) + "\n";
        out += "output   (B, T, C)      = " + shapeText({B, T, C}) + "\n\n";
    }

    // The two std lines' numbers one under the other.
    const int labelWidth =
        std::max(terminalColumns(words.stdBefore), terminalColumns(words.stdAfter)) + 1;
    auto label = [labelWidth](const std::string& text) { return padRight(text, labelWidth); };
    out += label(words.stdBefore) + fixed(stats.stdScores, 4) + "\n";
    out += label(words.stdAfter) + fixed(stats.stdLogits, 4) + "  (" + words.scale + " " +
           fixed(scaleFactor(c), 4) + ", " + words.temperature + " " + fixed(c.temperature, 4) +
           ")\n";
    out += words.rowSums + " " + fixed(stats.rowSumMin, 4) +
           (stats.rowSumMin == stats.rowSumMax ? std::string()
                                               : " " + words.to + " " + fixed(stats.rowSumMax, 4)) +
           "    " + words.columnSums + " " + fixed(stats.colSumMin, 4) + " " + words.to + " " +
           fixed(stats.colSumMax, 4) + "\n\n";

    // The heads' table: each column as wide as its numbers, or its heading and a space.
    struct Column {
        const std::string& heading;
        int width;
        std::function<std::string(const HeadStatistics&)> cell;
    };
    const std::string stdS = "std(S)", stdL = "std(L)", nan = "NaN";
    std::vector<Column> columns = {
        {words.sequence, 4, [](const HeadStatistics& s) { return std::to_string(s.batch); }},
        {words.head, 6, [](const HeadStatistics& s) { return std::to_string(s.head); }},
        {stdS, 9, [](const HeadStatistics& s) { return fixed(s.stdScores, 4); }},
        {stdL, 9, [](const HeadStatistics& s) { return fixed(s.stdLogits, 4); }},
        {words.ratio, 8,
         [](const HeadStatistics& s) {
             return fixed(s.stdScores > 0 ? s.stdLogits / s.stdScores : 0.0, 4);
         }},
        {words.entropyOfMax, 14,
         [](const HeadStatistics& s) {
             return fixed(s.meanEntropy, 2) + "/" + fixed(s.meanEntropyMax, 2);
         }},
        {words.largestWeight, 8, [](const HeadStatistics& s) { return fixed(s.meanRowMax, 3); }},
        {words.saturated, 11,
         [](const HeadStatistics& s) { return fixed(100.0 * s.saturatedShare, 0) + "%"; }},
        {words.headRowSums, 18,
         [](const HeadStatistics& s) {
             return fixed(s.rowSumMin, 4) + "-" + fixed(s.rowSumMax, 4);
         }},
        {words.headColumnSums, 18,
         [](const HeadStatistics& s) {
             return fixed(s.colSumMin, 4) + "-" + fixed(s.colSumMax, 4);
         }},
        {nan, 0, [](const HeadStatistics& s) { return std::to_string(s.nanCount); }},
    };
    for (Column& column : columns) {
        if (&column != &columns.back())
            column.width = std::max(column.width, terminalColumns(column.heading) + 1);
        out += padRight(column.heading, column.width);
    }
    out += "\n";
    for (const HeadStatistics& s : stats.heads) {
        for (const Column& column : columns)
            out += padRight(column.cell(s), column.width);
        out += "\n";
    }
    out += "\n";
    if (stats.warnings.empty()) {
        out += words.noWarnings + "\n";
    } else {
        out += words.warnings + "\n";
        for (const Warning& w : stats.warnings)
            out += "  - " + (words.warning ? words.warning(w) : warningText(w)) + "\n";
    }
    return out;
}

} // namespace attn
