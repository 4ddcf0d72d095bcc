#include "models/headtrace.h"

#include <memory>

namespace attn {

Result headTraceResult(const HeadTrace& trace)
{
    const int H = trace.formula.heads, h = trace.head;
    Result result;
    result.request.config = trace.formula;
    // ÷ √d_model divides by the hidden size, X's width, where the heads are split from
    // another (Qwen3), as the run did.
    if (trace.input.cols() > 0 && trace.input.cols() != trace.formula.dModel)
        result.scaleWidth = int(trace.input.cols());
    auto tokens = std::make_shared<TokenBatch>();
    tokens->tokens.emplace_back();
    for (const TokenLabel& label : trace.labels)
        tokens->tokens[0].push_back(label.label);
    tokens->lengths = {int(trace.labels.size())};
    result.tokens = tokens;
    result.keyTokens = tokens;
    result.x = std::make_shared<const std::vector<Matrix>>(std::vector<Matrix>{trace.input});
    result.xKeys = result.x;

    // Only head h: the other heads' matrices stay empty.
    const auto oneHead = [H, h](const Matrix& values) {
        HeadStack stack(1, H, 0, 0);
        stack.at(0, h) = values;
        return stack;
    };
    auto split = std::make_shared<HeadViews>();
    split->q = oneHead(trace.queries);
    split->k = oneHead(trace.keys);
    split->v = oneHead(trace.values);
    result.split = split;
    result.scores = std::make_shared<const HeadStack>(oneHead(trace.scores));
    result.mask =
        std::make_shared<const std::vector<MaskMatrix>>(std::vector<MaskMatrix>{trace.mask});
    result.weights = std::make_shared<const HeadStack>(oneHead(trace.weights));
    auto aggregation = std::make_shared<Aggregation>();
    aggregation->headOutputs = oneHead(trace.headOutput);
    aggregation->merged = {trace.merged};
    aggregation->output = {trace.output};
    result.aggregation = aggregation;
    return result;
}

} // namespace attn
