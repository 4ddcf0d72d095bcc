// Every number of a Result in the formats a class opens: CSV for spreadsheets, .npy
// for NumPy. JSON is report.h's jsonReport.
//
// Legend: B sequences, T tokens each, H heads. Weights are indexed [b][h][i][j]: row i
// is query token i, column j key token j.
#pragma once

#include "engine/engine.h"

#include <string>
#include <string_view>

namespace attn {

// Whether a CSV file starts with the UTF-8 byte order mark EF BB BF.
enum class CsvBom { With, Without };

// A long table, one row per (b, h, i, j) in C order under the header
// b,h,i,j,query,key,score,logit,weight, lines ended by CRLF as RFC 4180 has them.
//  * By default the text starts with a UTF-8 byte order mark: without it Excel reads
//    a CSV file in the system's legacy code page, and a Chinese sentence turns into
//    mojibake. LibreOffice, Google Sheets and pandas.read_csv skip the mark; Python's
//    csv module needs open(..., encoding="utf-8-sig"). CsvBom::Without leaves it out.
//  * Numbers are the shortest text that reads back as the same float32; non-finite
//    ones are spelled nan, inf and -inf (what NumPy and pandas read).
//  * Token text is data, never a formula: a token that a spreadsheet would evaluate
//    (one starting with = + - @, a tab or a carriage return, per OWASP's advice on
//    CSV injection) gets one ' in front. So that the mark can be undone without
//    guessing, a token that already starts with ' before such a character gets one
//    more: remove one leading ' exactly when the field, stripped of its leading 's,
//    starts with one of those characters. See csvToken().
//  * Fields holding a comma, a quote or an ASCII control character (a line break among
//    them) are quoted, with quotes doubled, so no character splits a row or a cell.
// A result that is not valid() gives the header alone.
[[nodiscard]] std::string csvReport(const Result& result, CsvBom bom = CsvBom::With);

// `token` as it stands in csvReport's query and key columns, before quoting: with the
// formula guard ' in front where one is needed.
[[nodiscard]] std::string csvToken(std::string_view token);

// `field` as an RFC 4180 field: quoted when it holds a comma, a quote or an ASCII control
// character, unchanged otherwise.
[[nodiscard]] std::string csvField(std::string_view field);

// A (B, H, rows, cols) stack as a NumPy .npy file, format version 1.0: little-endian
// float32 ('<f4') in C order, the header padded to a multiple of 64 bytes as
// numpy.save pads it. NaN and ±inf are kept as they are.
[[nodiscard]] std::string npyMatrixStack(const HeadStack& stack);

// The attention weights P (B, H, T, T) as .npy: numpy.load(path)[b, h, i, j].
[[nodiscard]] std::string npyWeights(const Result& result);

} // namespace attn
