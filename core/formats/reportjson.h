// What the two JSON reports, the engine's (core/formats/report) and an attention file's
// (core/attention/attentionreport), write the same way: a matrix as rows of numbers, and
// a head's statistics through one table of fields both walk.
#pragma once

#include "base/json.h"
#include "base/tensor.h"
#include "engine/statistics.h"

namespace attn {

// `m` as an array of rows.
void writeMatrix(JsonWriter& json, const Matrix& m);

// Whose JSON report writes a field.
enum class StatisticsReport {
    Engine, // a computed result: the scores' spread, the masked rows, the softmax's Jacobian
    File,   // an attention file's weights alone: infinities, rows that do not sum to 1
};

// `s` as an object of the fields `report` writes, in the table's order; then, in the
// engine's report, today's where they apply: "std_final_logits" when `shifted` (ALiBi or a
// cap made the logits), "sink_weights" (one per row) when the head had a sink.
void writeHeadStatistics(JsonWriter& json, const HeadStatistics& s, StatisticsReport report,
                         bool shifted = false);

} // namespace attn
