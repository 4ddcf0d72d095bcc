#include "experimentfiles.h"

#include "colormap.h"
#include "headrolesdialog.h" // kMarkThreshold
#include "modelcomparison.h" // quotedToken

#include <QCoreApplication>
#include <QLocale>
#include <QTableWidget>

#include <cmath>

namespace attn::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ExperimentFiles", text);
}

QStringList tokensOf(const ModelRun& run)
{
    QStringList labels;
    for (const TokenLabel& label : run.labels)
        labels << QString::fromStdString(label.label);
    return labels;
}

} // namespace

const std::vector<std::vector<double>>& scoresOf(const HeadScores& scores, DetectorRole role)
{
    return role == DetectorRole::PreviousToken    ? scores.previousToken
           : role == DetectorRole::DuplicateToken ? scores.duplicateToken
                                                  : scores.induction;
}

TableFigure logitLensTable(const ModelRun& run, const LogitLens& lens)
{
    TableFigure figure;
    figure.title = tr("Logit lens");
    figure.caption = runCaption(run);
    figure.columnLabels = tokensOf(run);
    const Colormap viridis(ColormapName::Viridis);
    for (std::size_t l = 0; l < lens.size(); ++l) {
        figure.rowLabels << tr("after block %1").arg(l);
        for (const std::vector<Prediction>& top : lens[l]) {
            if (top.empty()) {
                figure.texts.emplace_back();
                figure.fills.emplace_back(Qt::white);
                continue;
            }
            const float p = top.front().probability;
            figure.texts.push_back(quotedToken(top.front().label));
            figure.fills.push_back(std::isnan(p) ? QColor(Qt::lightGray)
                                                 : QColor(viridis.color(double(p))));
        }
    }
    return figure;
}

std::optional<QByteArray> logitLensFile(FigureFormat format, const ModelRun& run,
                                        const LogitLens& lens, QString* error)
{
    if (format == FigureFormat::Json) {
        ModelRunExtras extras;
        extras.logitLens = &lens;
        return experimentJson(run, extras);
    }
    if (format == FigureFormat::Csv) {
        QByteArray csv = "block,position,position_token,rank,id,token,probability\n";
        for (std::size_t l = 0; l < lens.size(); ++l)
            for (std::size_t t = 0; t < lens[l].size(); ++t)
                for (std::size_t k = 0; k < lens[l][t].size(); ++k) {
                    const Prediction& p = lens[l][t][k];
                    csv += QByteArray::number(qulonglong(l)) + ',' +
                           QByteArray::number(qulonglong(t)) + ',' +
                           csvText(QString::fromStdString(run.labels[t].label)) + ',' +
                           QByteArray::number(qulonglong(k)) + ',' + QByteArray::number(p.id) +
                           ',' + csvText(QString::fromStdString(p.label)) + ',' +
                           csvNumber(double(p.probability)) + '\n';
                }
        return csv;
    }
    return tableFigureBytes(format, logitLensTable(run, lens), error);
}

TableFigure headImportanceTable(const ModelRun& run, const HeadImportance& scan)
{
    const int L = int(scan.change.size()), H = L > 0 ? int(scan.change.front().size()) : 0;
    double largest = 0;
    for (const std::vector<double>& layer : scan.change)
        for (const double c : layer)
            if (std::isfinite(c))
                largest = std::max(largest, std::abs(c));
    TableFigure figure;
    figure.title = tr("Which heads matter for %1 at position %2")
                       .arg(quotedToken(run.model->tokenLabel(scan.target)))
                       .arg(scan.position);
    figure.caption = tr("Each head knocked out alone: the change in log p. Red: the token loses "
                        "without the head; blue: it gains. %1")
                         .arg(runCaption(run));
    // Blue where the token gains, red where it loses (the diverging map runs blue → red).
    const Colormap diverging(ColormapName::Diverging);
    const HeatmapData grid = layerHeadData(scan.change, {}); // its "layer l", "head h"
    figure.rowLabels = grid.queryLabels;
    figure.columnLabels = grid.keyLabels;
    for (int l = 0; l < L; ++l) {
        for (int h = 0; h < H; ++h) {
            const double c = scan.change[std::size_t(l)][std::size_t(h)];
            const double t = largest > 0 ? 0.5 - 0.5 * c / largest : 0.5;
            figure.texts.push_back(QLocale().toString(c, 'f', 3));
            figure.fills.emplace_back(diverging.color(std::isfinite(t) ? t : 0.5));
        }
    }
    return figure;
}

std::optional<QByteArray> headImportanceFile(FigureFormat format, const ModelRun& run,
                                             const HeadImportance& scan, QString* error)
{
    if (format == FigureFormat::Json) {
        ModelRunExtras extras;
        extras.headImportance = &scan;
        return experimentJson(run, extras);
    }
    if (format == FigureFormat::Csv) {
        QByteArray csv = "layer,head,log_probability_change\n";
        for (std::size_t l = 0; l < scan.change.size(); ++l)
            for (std::size_t h = 0; h < scan.change[l].size(); ++h)
                csv += QByteArray::number(qulonglong(l)) + ',' + QByteArray::number(qulonglong(h)) +
                       ',' + csvNumber(scan.change[l][h]) + '\n';
        return csv;
    }
    return tableFigureBytes(format, headImportanceTable(run, scan), error);
}

std::array<HeatmapData, 3> headRoleData(const HeadScores& scores)
{
    const std::array<QString, 3> titles{tr("Previous-token"), tr("Duplicate-token"),
                                        tr("Induction")};
    std::array<HeatmapData, 3> data;
    for (std::size_t k = 0; k < kDetectorRoles.size(); ++k)
        data[k] = layerHeadData(scoresOf(scores, kDetectorRoles[k]), titles[k]);
    return data;
}

HeatmapStyle headRoleStyle()
{
    HeatmapStyle style;
    style.axisTitles = false;
    style.annotate = true; // where the cells hold a number
    return style;
}

std::optional<QByteArray> headRolesFile(FigureFormat format, const ModelRun& run,
                                        const HeadScores& scores, std::optional<std::uint32_t> seed,
                                        QString* error)
{
    if (format == FigureFormat::Json) {
        ModelRunExtras extras;
        extras.headScores = &scores;
        return experimentJson(run, extras);
    }
    const int L = int(scores.previousToken.size());
    const int H = L > 0 ? int(scores.previousToken.front().size()) : 0;
    if (format == FigureFormat::Csv) {
        QByteArray csv = "layer,head,previous_token,duplicate_token,induction,role\n";
        for (int l = 0; l < L; ++l)
            for (int h = 0; h < H; ++h) {
                csv += QByteArray::number(l) + ',' + QByteArray::number(h);
                for (const DetectorRole role : kDetectorRoles) {
                    const auto& grid = scoresOf(scores, role);
                    csv += ',' + (grid.empty() ? QByteArray()
                                               : csvNumber(grid[std::size_t(l)][std::size_t(h)]));
                }
                csv += ',' +
                       QByteArray(detectorRoleSpelling(
                           detectorRole(scores, l, h, HeadRolesDialog::kMarkThreshold))) +
                       '\n';
            }
        return csv;
    }
    std::vector<FigureHeatmap> maps;
    const std::array<HeatmapData, 3> data = headRoleData(scores);
    for (std::size_t k = 0; k < data.size(); ++k) {
        if (data[k].weights.size() == 0) // no second copy: previous-token alone
            continue;
        FigureHeatmap map{data[k], headRoleStyle()};
        map.style.colorbar = false;
        maps.push_back(std::move(map));
    }
    maps.back().style.colorbar = true; // one scale, 0 to 1, for all of them
    const QString title =
        seed ? tr("Head roles: %1 random tokens, twice (seed %2)").arg(scores.copy).arg(*seed)
             : tr("Head roles");
    return heatmapsFigureBytes(format, heatmapsFigure(std::move(maps), title, runCaption(run)),
                               error);
}

HeatmapData rolloutData(const ModelRun& run, const Matrix& rollout)
{
    HeatmapData data;
    data.weights = rollout;
    data.queryLabels = tokensOf(run);
    data.keyLabels = data.queryLabels;
    data.title = tr("Attention rollout");
    return data;
}

std::optional<QByteArray> rolloutFile(FigureFormat format, const ModelRun& run,
                                      const Matrix& rollout, int row, QString* error)
{
    const QStringList labels = tokensOf(run);
    const Eigen::Index T = rollout.rows();
    if (format == FigureFormat::Json) {
        ModelRunExtras extras;
        extras.rollout = &rollout;
        return experimentJson(run, extras);
    }
    if (format == FigureFormat::Csv) {
        QByteArray csv = "query,query_token,key,key_token,rollout\n";
        for (Eigen::Index i = 0; i < T; ++i)
            for (Eigen::Index j = 0; j < T; ++j)
                csv += QByteArray::number(i) + ',' + csvText(labels.value(int(i))) + ',' +
                       QByteArray::number(j) + ',' + csvText(labels.value(int(j))) + ',' +
                       csvNumber(double(rollout(i, j))) + '\n';
        return csv;
    }
    // The heatmap, and the row shown as one annotated row under the same colours.
    FigureHeatmap whole{rolloutData(run, rollout), HeatmapStyle{}};
    whole.style.highlightRow = row;
    whole.style.colorbar = false;
    FigureHeatmap shown;
    shown.data.weights = Matrix(rollout.row(row));
    shown.data.queryLabels = QStringList{labels.value(row)};
    shown.data.keyLabels = labels;
    shown.data.title = tr("Row %1, “%2”").arg(row).arg(labels.value(row));
    shown.style.annotate = true;
    shown.style.axisTitles = false;
    return heatmapsFigureBytes(
        format, heatmapsFigure({whole, shown}, tr("Attention rollout"), runCaption(run)), error);
}

void fillTable(QTableWidget& table, const TableFigure& figure)
{
    const int rows = int(figure.rowLabels.size()), columns = int(figure.columnLabels.size());
    table.clear();
    table.setRowCount(rows);
    table.setColumnCount(columns);
    table.setHorizontalHeaderLabels(figure.columnLabels);
    table.setVerticalHeaderLabels(figure.rowLabels);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < columns; ++c) {
            const std::size_t i = std::size_t(r * columns + c);
            auto* item = new QTableWidgetItem(figure.texts[i]);
            const QColor fill = figure.fills[i];
            item->setBackground(fill);
            item->setForeground(fill.lightnessF() > 0.55 ? Qt::black : Qt::white);
            table.setItem(r, c, item);
        }
}

} // namespace attn::ui
