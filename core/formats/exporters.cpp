#include "formats/exporters.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace attn {
namespace {

// What a spreadsheet takes as the start of a formula (OWASP, "CSV Injection").
constexpr std::string_view kFormulaStarts = "=+-@\t\r";

constexpr std::size_t kNpyAlignment = 64; // numpy.save aligns the data to 64 bytes

bool needsFormulaGuard(std::string_view token)
{
    const std::size_t first = token.find_first_not_of('\'');
    return first != std::string_view::npos &&
           kFormulaStarts.find(token[first]) != std::string_view::npos;
}

bool needsQuotes(std::string_view field)
{
    for (char c : field) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == ',' || c == '"' || byte < 0x20 || byte == 0x7f)
            return true;
    }
    return false;
}

void appendNumber(std::string& out, float value)
{
    if (std::isnan(value)) {
        out += "nan";
        return;
    }
    if (std::isinf(value)) {
        out += value > 0 ? "inf" : "-inf";
        return;
    }
    char buffer[32];
    // Without a precision, std::to_chars writes the shortest round-trip text.
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, result.ptr);
}

void appendInteger(std::string& out, long long value)
{
    char buffer[24];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, result.ptr);
}

// Appends the floats of `m` as little-endian 4-byte words, row after row.
void appendLittleEndian(std::string& out, const Matrix& m)
{
    const auto count = static_cast<std::size_t>(m.size());
    if constexpr (std::endian::native == std::endian::little) {
        const std::size_t at = out.size();
        out.resize(at + count * sizeof(float));
        std::memcpy(out.data() + at, m.data(), count * sizeof(float)); // row-major: C order
    } else {
        for (std::size_t k = 0; k < count; ++k) {
            const auto bits = std::bit_cast<std::uint32_t>(m.data()[k]);
            for (int shift = 0; shift < 32; shift += 8)
                out += static_cast<char>((bits >> shift) & 0xffu);
        }
    }
}

} // namespace

std::string csvToken(std::string_view token)
{
    if (needsFormulaGuard(token))
        return "'" + std::string(token);
    return std::string(token);
}

std::string csvField(std::string_view field)
{
    if (!needsQuotes(field))
        return std::string(field);
    std::string out;
    out.reserve(field.size() + 2);
    out += '"';
    for (char c : field) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
    return out;
}

std::string csvReport(const Result& r, CsvBom bom)
{
    std::string out = bom == CsvBom::With ? "\xEF\xBB\xBF" : "";
    out += "b,h,i,j,query,key,score,logit,weight\r\n";
    if (!r.valid())
        return out;

    const int B = r.batch(), H = r.heads(), Tq = r.length(), Tk = r.keyLength();
    // 1. Each token's field once: (B, T) of guarded, quoted text, for the queries and,
    //    in cross-attention, the keys.
    auto quotedFields = [B](const TokenBatch& batch) {
        std::vector<std::vector<std::string>> fields(static_cast<std::size_t>(B));
        for (int b = 0; b < B; ++b)
            for (const std::string& token : batch.tokens[static_cast<std::size_t>(b)])
                fields[static_cast<std::size_t>(b)].push_back(csvField(csvToken(token)));
        return fields;
    };
    const auto queryFields = quotedFields(*r.tokens);
    const auto keyFields = r.keyTokens == r.tokens ? queryFields : quotedFields(*r.keyTokens);

    // 2. One row per (b, h, i, j), in the C order of the (B, H, T_q, T_k) tensors.
    out.reserve(out.size() + static_cast<std::size_t>(B) * H * Tq * Tk * 64);
    for (int b = 0; b < B; ++b) {
        const auto& queries = queryFields[static_cast<std::size_t>(b)];
        const auto& keys = keyFields[static_cast<std::size_t>(b)];
        for (int h = 0; h < H; ++h) {
            const Matrix& scores = r.scores->at(b, h);
            const Matrix logits = r.logits(b, h);
            const Matrix& weights = r.weights->at(b, h);
            for (int i = 0; i < Tq; ++i) {
                for (int j = 0; j < Tk; ++j) {
                    for (int index : {b, h, i, j}) {
                        appendInteger(out, index);
                        out += ',';
                    }
                    out += queries[static_cast<std::size_t>(i)];
                    out += ',';
                    out += keys[static_cast<std::size_t>(j)];
                    out += ',';
                    appendNumber(out, scores(i, j));
                    out += ',';
                    appendNumber(out, logits(i, j));
                    out += ',';
                    appendNumber(out, weights(i, j));
                    out += "\r\n";
                }
            }
        }
    }
    return out;
}

std::string npyMatrixStack(const HeadStack& stack)
{
    const Eigen::Index rows = stack.empty() ? 0 : stack.items().front().rows();
    const Eigen::Index cols = stack.empty() ? 0 : stack.items().front().cols();

    // 1. The header dict, as numpy.lib.format writes it (keys sorted).
    std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (";
    for (long long dim :
         {static_cast<long long>(stack.batch()), static_cast<long long>(stack.heads()),
          static_cast<long long>(rows), static_cast<long long>(cols)}) {
        appendInteger(dict, dim);
        dict += ", ";
    }
    dict.resize(dict.size() - 2);
    dict += "), }";

    // 2. Magic, version 1.0 and the header length (uint16, little-endian); spaces and
    //    a final newline pad magic + version + length + dict to a multiple of 64 bytes,
    //    so the data starts aligned and numpy can memory-map it.
    constexpr std::size_t prefix = 6 + 2 + 2;
    const std::size_t unpadded = prefix + dict.size() + 1;
    dict.append((kNpyAlignment - unpadded % kNpyAlignment) % kNpyAlignment, ' ');
    dict += '\n';
    const auto headerLength = static_cast<std::uint16_t>(dict.size());

    std::string out = "\x93NUMPY";
    out += '\x01';
    out += '\x00';
    out += static_cast<char>(headerLength & 0xffu);
    out += static_cast<char>(headerLength >> 8);
    out += dict;

    // 3. The floats in C order: [b][h][i][j].
    out.reserve(out.size() + static_cast<std::size_t>(stack.batch()) * stack.heads() * rows * cols *
                                 sizeof(float));
    for (const Matrix& m : stack.items())
        appendLittleEndian(out, m);
    return out;
}

std::string npyWeights(const Result& result)
{
    return npyMatrixStack(result.weights ? *result.weights : HeadStack{});
}

} // namespace attn
