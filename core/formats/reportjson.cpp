#include "formats/reportjson.h"

#include <string_view>
#include <variant>
#include <vector>

namespace attn {
namespace {

using Member =
    std::variant<double HeadStatistics::*, int HeadStatistics::*,
                 std::vector<double> HeadStatistics::*, std::vector<float> HeadStatistics::*,
                 std::vector<int> HeadStatistics::*>;

enum Reports : unsigned { kEngine = 1, kFile = 2, kBoth = kEngine | kFile };

struct StatisticField {
    std::string_view name;
    Member member;
    unsigned reports;
};

// The one table: each report writes its fields in this order.
const StatisticField kFields[] = {
    {"std_scores", &HeadStatistics::stdScores, kEngine},
    {"std_scaled", &HeadStatistics::stdLogits, kEngine},
    {"row_sums", &HeadStatistics::rowSums, kBoth},
    {"col_sums", &HeadStatistics::colSums, kBoth},
    {"row_entropy", &HeadStatistics::rowEntropy, kBoth},
    {"row_entropy_max", &HeadStatistics::rowEntropyMax, kEngine},
    {"row_max", &HeadStatistics::rowMax, kBoth},
    {"jacobian_norm", &HeadStatistics::jacobianNorm, kEngine},
    {"mean_entropy", &HeadStatistics::meanEntropy, kBoth},
    {"mean_entropy_max", &HeadStatistics::meanEntropyMax, kEngine},
    {"mean_row_max", &HeadStatistics::meanRowMax, kBoth},
    {"saturated_share", &HeadStatistics::saturatedShare, kBoth},
    {"nan_count", &HeadStatistics::nanCount, kBoth},
    {"pos_inf_count", &HeadStatistics::posInfCount, kFile},
    {"neg_inf_count", &HeadStatistics::negInfCount, kFile},
    {"nan_rows", &HeadStatistics::nanRows, kBoth},
    {"fully_masked_rows", &HeadStatistics::fullyMaskedRows, kEngine},
    // Imported rows that do not sum to 1 (within 1e-3) are a finding of their own.
    {"not_normalized_rows", &HeadStatistics::notNormalizedRows, kFile},
    {"uniform_rows", &HeadStatistics::uniformRows, kFile},
};

template <typename T> void writeValue(JsonWriter& json, const T& value)
{
    json.value(value);
}

template <typename T> void writeValue(JsonWriter& json, const std::vector<T>& values)
{
    json.beginArray();
    for (const T& v : values)
        json.value(v);
    json.endArray();
}

} // namespace

void writeMatrix(JsonWriter& json, const Matrix& m)
{
    json.beginArray();
    for (Eigen::Index i = 0; i < m.rows(); ++i) {
        json.beginArray();
        for (Eigen::Index j = 0; j < m.cols(); ++j)
            json.value(m(i, j));
        json.endArray();
    }
    json.endArray();
}

void writeHeadStatistics(JsonWriter& json, const HeadStatistics& s, StatisticsReport report,
                         bool shifted)
{
    const unsigned wanted = report == StatisticsReport::Engine ? kEngine : kFile;
    json.beginObject();
    for (const StatisticField& field : kFields) {
        if (!(field.reports & wanted))
            continue;
        json.key(field.name);
        std::visit([&](auto member) { writeValue(json, s.*member); }, field.member);
    }
    // After the table's, so that the keys before them keep their order.
    if (report == StatisticsReport::Engine && shifted) {
        json.key("std_final_logits");
        json.value(s.stdFinalLogits);
    }
    if (report == StatisticsReport::Engine && !s.sinkWeights.empty()) {
        json.key("sink_weights");
        writeValue(json, s.sinkWeights);
    }
    json.endObject();
}

} // namespace attn
