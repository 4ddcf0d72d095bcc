#include "sweepdialog.h"

#include "exportpath.h"
#include "figurewriter.h"
#include "lab/presets.h"
#include "sweepfigure.h"
#include "sweeprunner.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QVBoxLayout>

namespace attn::ui {
namespace {

constexpr int kDefaultFrom = 16;
constexpr int kDefaultTo = 1024;
constexpr FigureFormat kExportFormats[] = {FigureFormat::Png, FigureFormat::Svg, FigureFormat::Pdf,
                                           FigureFormat::Json};

void fillPowersOfTwo(QComboBox* combo)
{
    for (int dK = 1; dK <= kMaxSweepDk; dK *= 2)
        combo->addItem(QString::number(dK), dK);
}

void choose(QComboBox* combo, int dK)
{
    if (const int index = combo->findData(dK); index >= 0)
        combo->setCurrentIndex(index);
}

} // namespace

SweepDialog::SweepDialog(QWidget* parent)
    : QDialog(parent), base_(findPreset("article")->request), runner_(new SweepRunner(this)),
      chart_(new SweepChart), fromLabel_(new QLabel), fromCombo_(new QComboBox),
      toLabel_(new QLabel), toCombo_(new QComboBox), computeButton_(new QPushButton),
      progress_(new QProgressBar), exportButton_(new QPushButton), closeButton_(nullptr),
      lessonLabel_(new QLabel), captionLabel_(new QLabel), statusLabel_(new QLabel)
{
    setObjectName("SweepDialog");

    // 1. The range and the actions in one row above the charts.
    fillPowersOfTwo(fromCombo_);
    fillPowersOfTwo(toCombo_);
    choose(fromCombo_, kDefaultFrom);
    choose(toCombo_, kDefaultTo);
    fromLabel_->setBuddy(fromCombo_);
    toLabel_->setBuddy(toCombo_);
    computeButton_->setDefault(true);
    progress_->setTextVisible(true);
    progress_->setMinimumWidth(160);
    progress_->setRange(0, 1);
    progress_->setValue(0);
    auto* controls = new QHBoxLayout;
    controls->addWidget(fromLabel_);
    controls->addWidget(fromCombo_);
    controls->addWidget(toLabel_);
    controls->addWidget(toCombo_);
    controls->addWidget(computeButton_);
    controls->addWidget(progress_, 1);
    controls->addWidget(exportButton_);

    // 2. The lesson the charts tell, and what every point shares.
    lessonLabel_->setWordWrap(true);
    captionLabel_->setWordWrap(true);
    captionLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    statusLabel_->setWordWrap(true);
    statusLabel_->setStyleSheet(QStringLiteral("color: #b00020;"));
    statusLabel_->hide();

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    closeButton_ = buttons->button(QDialogButtonBox::Close);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(chart_, 1);
    layout->addWidget(lessonLabel_);
    layout->addWidget(captionLabel_);
    layout->addWidget(statusLabel_);
    layout->addWidget(buttons);

    connect(computeButton_, &QPushButton::clicked, this, &SweepDialog::compute);
    connect(exportButton_, &QPushButton::clicked, this, &SweepDialog::chooseFileAndExport);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // The range stays ordered: moving one end past the other moves the other along.
    connect(fromCombo_, &QComboBox::currentIndexChanged, this, [this] {
        if (to() < from())
            choose(toCombo_, from());
    });
    connect(toCombo_, &QComboBox::currentIndexChanged, this, [this] {
        if (to() < from())
            choose(fromCombo_, to());
    });
    connect(runner_, &SweepRunner::progress, this, &SweepDialog::showProgress);
    connect(runner_, &SweepRunner::finished, this, &SweepDialog::showRun);
    connect(runner_, &SweepRunner::failed, this, &SweepDialog::showFailure);
    connect(runner_, &SweepRunner::busyChanged, this, &SweepDialog::updateEnabled);

    retranslateUi();
    updateEnabled();
    resize(1180, 860);
}

void SweepDialog::setBaseRequest(const attn::Request& request)
{
    base_ = request;
    captionLabel_->setText(sweepCaption(base_));
    if (isVisible() && submitted_ != base_)
        compute();
}

void SweepDialog::setRange(int from, int to)
{
    choose(fromCombo_, from);
    choose(toCombo_, to);
}

int SweepDialog::from() const
{
    return fromCombo_->currentData().toInt();
}

int SweepDialog::to() const
{
    return toCombo_->currentData().toInt();
}

void SweepDialog::compute()
{
    statusLabel_->hide();
    progress_->setRange(0, 2 * int(sweepDkValues(from(), to()).size()));
    progress_->setValue(0);
    progress_->setFormat(tr("computing… %v of %m", "points of the sweep"));
    submitted_ = base_;
    runner_->submit(base_, from(), to());
}

bool SweepDialog::busy() const
{
    return runner_->busy();
}

QString SweepDialog::exportTo(const QString& path) const
{
    const std::optional<FigureFormat> format = formatFromPath(path);
    if (format == FigureFormat::Json) // atomically, with the reason of a failure translated
        return writeFigureFile(
            path, QByteArray::fromStdString(sweepJson(chart_->points(), computedBase_)));
    if (!format || !isFigureFormat(*format))
        return tr("Cannot tell the format of %1: name it .png, .svg, .pdf or .json.")
            .arg(QDir::toNativeSeparators(path));
    return exportSweepFigure(path, *format, chart_->points(), sweepCaption(computedBase_));
}

void SweepDialog::showEvent(QShowEvent* event)
{
    QDialog::showEvent(event);
    if (submitted_ != base_)
        compute();
}

void SweepDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QDialog::changeEvent(event);
}

void SweepDialog::chooseFileAndExport()
{
    chooseAndExport(this, tr("Export the Sweep"), QStringLiteral("dk-sweep.png"), kExportFormats,
                    [this](const QString& path) { return exportTo(path); });
}

void SweepDialog::showRun(const SweepRun& run)
{
    computedBase_ = run.base;
    computed_ = true;
    chart_->setPoints(run.points);
    progress_->setRange(0, 1);
    progress_->setValue(1);
    progress_->setFormat(tr("points computed: %1").arg(int(run.points.size())));
    updateEnabled();
    emit sweepFinished();
}

void SweepDialog::showFailure(const QString& message)
{
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setFormat(QString());
    statusLabel_->setText(tr("The sweep failed: %1").arg(message));
    statusLabel_->show();
    updateEnabled();
    emit sweepFinished();
}

void SweepDialog::showProgress(int done, int total)
{
    progress_->setRange(0, total);
    progress_->setValue(done);
}

void SweepDialog::updateEnabled()
{
    exportButton_->setEnabled(computed_ && !runner_->busy());
}

void SweepDialog::retranslateUi()
{
    setWindowTitle(tr("Why √d_k? The d_k Sweep"));
    fromLabel_->setText(tr("d_k &from"));
    toLabel_->setText(tr("&to", "d_k from … to …"));
    computeButton_->setText(tr("&Compute"));
    computeButton_->setToolTip(tr("Compute every d_k of the range, with and without scaling"));
    exportButton_->setText(tr("&Export…"));
    exportButton_->setToolTip(tr("Save the charts as PNG, SVG or PDF, or the numbers as JSON"));
    lessonLabel_->setText(
        tr("Every point computes the same text with one head and d_model = d_k. Without the "
           "scaling (vermilion) the spread of QKᵀ grows like √d_k: each row's softmax "
           "saturates towards one-hot — its entropy falls, its largest weight nears 1 — and the "
           "gradient through the softmax vanishes. Dividing by √d_k (blue) keeps the spread, "
           "and the softmax, the same at every d_k."));
    captionLabel_->setText(sweepCaption(base_));
    if (!runner_->busy() && computed_)
        progress_->setFormat(tr("points computed: %1").arg(int(chart_->points().size())));
}

} // namespace attn::ui
