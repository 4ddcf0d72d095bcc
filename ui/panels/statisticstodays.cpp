// The statistics panel's figures of today's models' switches (statisticspanel.h).
#include "statisticspanel.h"

#include <cmath>

namespace attn::ui {

// A sink over the keys, the mask before the softmax: every row sums to 1 minus what the sink
// took, by design, not by a bug.
bool StatisticsPanel::sinkTakes() const
{
    const Config& config = result_.config();
    return config.sink && config.axis == SoftmaxAxis::Keys &&
           config.maskStage == MaskStage::BeforeSoftmax;
}

// The figures of today's models' switches: the std of the logits after ALiBi and the cap,
// and what the sink took (its largest and mean weight, the rows where it took more than half).
void StatisticsPanel::todaysFigures(QStringList& figures,
                                    const std::function<QString(const QString&, bool)>& flag) const
{
    const Statistics& stats = *result_.stats;
    const Config& config = result_.config();
    if (config.softcap > 0)
        figures << tr("std after the cap %1", "of the logits, after c·tanh(L/c)")
                       .toHtmlEscaped()
                       .arg(fixed(stats.stdFinalLogits, 4));
    else if (config.alibi)
        figures << tr("std after ALiBi %1", "of the logits, after the bias −m·|i − j|")
                       .toHtmlEscaped()
                       .arg(fixed(stats.stdFinalLogits, 4));
    if (!config.sink)
        return;
    double sum = 0;
    std::size_t rows = 0;
    for (const HeadStatistics& head : stats.heads) {
        for (double weight : head.sinkWeights)
            sum += weight;
        rows += head.sinkWeights.size();
    }
    //: %1 the largest weight a sink took from a row, %2 the mean, %3 how many rows it took
    //: more than half of
    figures << flag(tr("sink took at most %1, %2 on average, more than half in %3 rows")
                        .toHtmlEscaped()
                        .arg(fixed(stats.maxSinkWeight, 3),
                             fixed(rows > 0 ? sum / static_cast<double>(rows) : 0.0, 3))
                        .arg(stats.sinkRows),
                    stats.sinkRows > 0);
}

} // namespace attn::ui
