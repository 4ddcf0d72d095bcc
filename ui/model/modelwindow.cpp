#include "modelwindow.h"

#include "fileheaddialog.h"
#include "headpatternsmodel.h"
#include "modelfigure.h"
#include "modelgrid.h"

#include <QComboBox>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSizePolicy>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace attn::ui {
ModelWindow::ModelWindow(std::shared_ptr<const AttentionStack> stack, QWidget* parent)
    : QWidget(parent, Qt::Window), stack_(std::move(stack)), grid_(new ModelGrid),
      patterns_(new HeadPatternsModel(this)), table_(new QTableView), sequenceCombo_(new QComboBox),
      layerCombo_(new QComboBox), colormapCombo_(new QComboBox), sequenceLabel_(new QLabel),
      layerLabel_(new QLabel), colormapLabel_(new QLabel), fileLabel_(new QLabel),
      hover_(new QLabel), patternsTitle_(new QLabel), likeButton_(new QPushButton),
      openButton_(new QPushButton), meanButton_(new QPushButton), numbersButton_(new QPushButton),
      figureButton_(new QPushButton),
      worker_(
          [this](SequenceJob& job, const std::atomic<bool>& cancel) { return run(job, cancel); })
{
    setObjectName("modelWindow");
    setAttribute(Qt::WA_DeleteOnClose);
    sequenceCombo_->setObjectName("sequence");
    layerCombo_->setObjectName("layer");
    likeButton_->setObjectName("headsLike");
    openButton_->setObjectName("openHead");
    meanButton_->setObjectName("openMean");
    numbersButton_->setObjectName("exportNumbers");
    figureButton_->setObjectName("exportFigure");
    hover_->setObjectName("hover");
    fileLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    sequenceLabel_->setBuddy(sequenceCombo_);
    layerLabel_->setBuddy(layerCombo_);
    colormapLabel_->setBuddy(colormapCombo_);
    for (const ColormapName name : Colormap::names())
        colormapCombo_->addItem(QString(), int(name));

    auto* controls = new QHBoxLayout;
    for (QWidget* widget :
         std::initializer_list<QWidget*>{sequenceLabel_, sequenceCombo_, layerLabel_, layerCombo_,
                                         colormapLabel_, colormapCombo_})
        controls->addWidget(widget);
    controls->addStretch(1);

    scroll_ = new QScrollArea;
    QScrollArea* scroll = scroll_;
    scroll->setWidget(grid_);
    scroll->setWidgetResizable(false);
    scroll->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    scroll->installEventFilter(this); // its size is the room the tiles grow into
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(scroll, 1);
    leftLayout->addWidget(hover_);
    // The hover line changes with every tile pointed at: it neither widens the grid's side
    // nor comes and goes in height, or the tiles would resize under the pointer: two lines
    // always, so that a narrow side wraps it rather than cutting "press Enter" off.
    hover_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    hover_->setWordWrap(true);
    hover_->setFixedHeight(2 * hover_->fontMetrics().lineSpacing());
    hover_->setAlignment(Qt::AlignLeft | Qt::AlignTop);

    table_->setModel(patterns_);
    table_->setSortingEnabled(true);
    table_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    // The numbers as wide as they are; the Pattern column takes what is left, its name cut
    // with "…" (and whole on hover) rather than widening the table past its side.
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(HeadPatternsModel::Named,
                                                     QHeaderView::Stretch);
    table_->horizontalHeader()->setMinimumSectionSize(table_->fontMetrics().averageCharWidth() * 4);
    table_->setTextElideMode(Qt::ElideRight);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    auto* tableButtons = new QHBoxLayout;
    tableButtons->addWidget(likeButton_);
    tableButtons->addWidget(openButton_);
    tableButtons->addWidget(meanButton_);
    tableButtons->addStretch(1);
    auto* right = new QWidget;
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(patternsTitle_);
    rightLayout->addWidget(table_, 1);
    rightLayout->addLayout(tableButtons);

    splitter_ = new QSplitter;
    QSplitter* splitter = splitter_;
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 0);

    auto* exports = new QHBoxLayout;
    exports->addStretch(1);
    exports->addWidget(numbersButton_);
    exports->addWidget(figureButton_);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(fileLabel_);
    layout->addLayout(controls);
    layout->addWidget(splitter, 1);
    layout->addLayout(exports);

    fillCombos();

    connect(sequenceCombo_, &QComboBox::currentIndexChanged, this,
            [this](int index) { setSequence(index); });
    connect(layerCombo_, &QComboBox::activated, this,
            [this](int layer) { setCurrentHead(layer, std::max(0, head())); });
    connect(colormapCombo_, &QComboBox::currentIndexChanged, this,
            [this] { grid_->setColormap(ColormapName(colormapCombo_->currentData().toInt())); });
    connect(grid_, &ModelGrid::hovered, this, &ModelWindow::showHover);
    connect(grid_, &ModelGrid::currentChanged, this, [this](int layer, int head) {
        selectTableRow(layer, head);
        updateLayerCombo();
    });
    connect(grid_, &ModelGrid::activated, this, &ModelWindow::openHead);
    connect(grid_, &ModelGrid::rowHovered, this, [this](int layer, int, double fraction) {
        setHoveredQuery(layer < 0 ? -1 : int(fraction * stack_->shape().queries));
    });
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& index) {
                if (!index.isValid())
                    return;
                const int head = patterns_->headAt(index.row());
                const int heads = stack_->shape().heads;
                grid_->setCurrent(head / heads, head % heads);
            });
    connect(table_, &QTableView::activated, this, [this](const QModelIndex& index) {
        const int head = patterns_->headAt(index.row());
        openHead(head / stack_->shape().heads, head % stack_->shape().heads);
    });
    connect(likeButton_, &QPushButton::clicked, this, &ModelWindow::showHeadsLikeCurrent);
    connect(openButton_, &QPushButton::clicked, this, [this] {
        if (layer() >= 0)
            openHead(layer(), head());
    });
    connect(meanButton_, &QPushButton::clicked, this, [this] { openMean(std::max(0, layer())); });
    connect(numbersButton_, &QPushButton::clicked, this, &ModelWindow::exportNumbers);
    connect(figureButton_, &QPushButton::clicked, this, &ModelWindow::exportFigure);

    showSequence();
    setCurrentHead(0, 0);
    retranslateUi();
    resize(1320, 820);
    fitGrid();
    grid_->setFocus(); // the arrow keys move over the heads at once
}

ModelWindow::~ModelWindow() = default;

void ModelWindow::fillCombos()
{
    const QSignalBlocker sequences(sequenceCombo_);
    const QSignalBlocker layers(layerCombo_);
    const StackShape& shape = stack_->shape();
    sequenceCombo_->clear();
    for (int b = 0; b < shape.sequences; ++b)
        sequenceCombo_->addItem(QString(), b);
    sequenceCombo_->setEnabled(shape.sequences > 1);
    layerCombo_->clear();
    for (int l = 0; l < shape.layers; ++l)
        layerCombo_->addItem(QString(), l);
}

void ModelWindow::setStack(std::shared_ptr<const AttentionStack> stack)
{
    const StackShape before = stack_->shape();
    stack_ = std::move(stack);
    const StackShape& after = stack_->shape();
    if (after.layers != before.layers || after.sequences != before.sequences) {
        fillCombos();
        retranslateUi();
    }
    sequence_ = std::clamp(sequence_, 0, after.sequences - 1);
    sequenceCombo_->setCurrentIndex(sequence_);
    if (layer() >= after.layers || head() >= after.heads)
        grid_->setCurrent(-1, -1);
    if (headDialog_ && (headDialog_->layer() >= after.layers || headDialog_->head() >= after.heads))
        headDialog_->hide();
    showSequence();
    if (layer() < 0)
        setCurrentHead(0, 0);
    if (hoveredQuery_ >= after.queries)
        setHoveredQuery(-1);
    retranslateUi();
}

void ModelWindow::fitGrid()
{
    // The grid whole when it fits, the table the rest — but never less than the table's own
    // columns: the grid's tiles shrink to their room, the table's numbers would not.
    const int gridWidth = grid_->widthForHeight(gridRoom().height()) + scroll_->frameWidth() * 2 +
                          scroll_->verticalScrollBar()->sizeHint().width();
    const int room = splitter_->width() > 0 ? splitter_->width() : width();
    const int table = std::max(360, tableWidth());
    const int grid = std::max(room / 3, std::min(gridWidth, room - table));
    splitter_->setSizes({grid, std::max(table, room - grid)});
}

int ModelWindow::tableWidth() const
{
    // Each number column as wide as its header and values; the Pattern column its header,
    // or its longest name up to 16 characters' width (longer ones end in "…", whole on hover).
    const QHeaderView* header = table_->horizontalHeader();
    const QAbstractItemView* view = table_; // sizeHintForColumn is public there
    int width = 0;
    for (int c = 0; c < HeadPatternsModel::Named; ++c)
        width += std::max(header->sectionSizeHint(c), view->sizeHintForColumn(c));
    width += std::max(header->sectionSizeHint(HeadPatternsModel::Named),
                      std::min(view->sizeHintForColumn(HeadPatternsModel::Named),
                               16 * table_->fontMetrics().averageCharWidth()));
    return width + 2 * table_->frameWidth() + table_->verticalScrollBar()->sizeHint().width();
}

QSize ModelWindow::gridRoom() const
{
    const int frame = scroll_->frameWidth() * 2;
    return {scroll_->width() - frame - scroll_->verticalScrollBar()->sizeHint().width(),
            scroll_->height() - frame - scroll_->horizontalScrollBar()->sizeHint().height()};
}

bool ModelWindow::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == scroll_ && event->type() == QEvent::Resize)
        grid_->setRoom(gridRoom());
    return QWidget::eventFilter(watched, event);
}

void ModelWindow::setEmbedded()
{
    setWindowFlags(Qt::Widget); // this hides it, as a new parent would
    setAttribute(Qt::WA_DeleteOnClose, false);
    fileLabel_->hide();
    show();
}

void ModelWindow::setKvHeads(int kvHeads)
{
    kvHeads_ = kvHeads;
    grid_->setKvHeads(kvHeads);
    if (headDialog_)
        headDialog_->setKvHeads(kvHeads);
}

void ModelWindow::setHoveredQuery(int query)
{
    if (query == hoveredQuery_)
        return;
    hoveredQuery_ = query;
    emit queryHovered(query);
}

int ModelWindow::layer() const
{
    return grid_->current().x();
}
int ModelWindow::head() const
{
    return grid_->current().y();
}

void ModelWindow::setSequence(int sequence)
{
    sequence = std::clamp(sequence, 0, stack_->shape().sequences - 1);
    if (sequence == sequence_)
        return;
    sequence_ = sequence;
    const QSignalBlocker blocker(sequenceCombo_);
    sequenceCombo_->setCurrentIndex(sequence);
    showSequence();
}

void ModelWindow::showHover(int layer, int head)
{
    hovered_ = {layer, head};
    if (layer < 0)
        hover_->clear();
    else if (grid_->computing())
        hover_->setText(
            tr("%1 · click or press Enter to open it").arg(grid_->tileToolTip(layer, head)));
    else
        hover_->setText(
            tr("%1 · largest weight %2 · click or press Enter to open it")
                .arg(grid_->tileToolTip(layer, head),
                     QLocale().toString(grid_->thumbnail(layer, head).maximum, 'f', 3)));
}

void ModelWindow::setCurrentHead(int layer, int head)
{
    grid_->setCurrent(layer, head);
}

void ModelWindow::selectTableRow(int layer, int head)
{
    if (layer < 0)
        return;
    const int row = patterns_->rowOf(layer * stack_->shape().heads + head);
    if (row < 0)
        return; // the patterns are still being computed
    const QModelIndex index = patterns_->index(row, 0);
    if (table_->selectionModel()->currentIndex().row() != row)
        table_->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                             QItemSelectionModel::Rows);
    table_->scrollTo(index);
}

void ModelWindow::updateLayerCombo()
{
    const QSignalBlocker blocker(layerCombo_);
    layerCombo_->setCurrentIndex(std::max(0, layer()));
}

void ModelWindow::makeHeadDialog()
{
    headDialog_ = new FileHeadDialog(this);
    connect(headDialog_->view(), &HeatmapView::cellHovered, this,
            [this](int row, int) { setHoveredQuery(row); });
    // Closed under the mouse, it sends no "left": the row it pointed at is no longer pointed at.
    connect(headDialog_, &FileHeadDialog::hidden, this, [this] { setHoveredQuery(-1); });
}

void ModelWindow::openHead(int layer, int head)
{
    setCurrentHead(layer, head);
    if (!headDialog_) {
        makeHeadDialog();
    }
    headDialog_->setKvHeads(kvHeads_);
    headDialog_->showHead(stack_, layer, sequence_, head,
                          ColormapName(colormapCombo_->currentData().toInt()));
    headDialog_->show();
    headDialog_->raise();
    headDialog_->activateWindow();
}

void ModelWindow::openMean(int layer)
{
    if (!headDialog_)
        makeHeadDialog();
    headDialog_->setKvHeads(kvHeads_);
    headDialog_->showSelection(stack_, layer, sequence_, {FileWhat::Mean, 0},
                               ColormapName(colormapCombo_->currentData().toInt()));
    headDialog_->show();
    headDialog_->raise();
    headDialog_->activateWindow();
}

void ModelWindow::showHeadsLikeCurrent()
{
    if (layer() < 0 || patternsPending_)
        return;
    // The table's order is the likeness now, not a column's.
    table_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    patterns_->orderLike(layer() * stack_->shape().heads + head());
    selectTableRow(layer(), head());
}

QString ModelWindow::hoverText() const
{
    return hover_->text();
}

bool ModelWindow::thumbnailsPending() const
{
    return grid_->computing();
}

void ModelWindow::retranslateUi()
{
    const StackShape& s = stack_->shape();
    const QString file = stackName(*stack_);
    setWindowTitle(tr("%1 — Attention File").arg(file));
    fileLabel_->setText(
        tr("<b>%1</b> · %2 · layers × sequences × heads × queries × keys = %3 × %4 × %5 × %6 × "
           "%7%8")
            .arg(file.toHtmlEscaped(), QString::fromLatin1(elementName(stack_->storedType())))
            .arg(s.layers)
            .arg(s.sequences)
            .arg(s.heads)
            .arg(s.queries)
            .arg(s.keys)
            .arg(stack_->queryTokens(sequence_).empty()
                     ? tr(" · no tokens in the file: rows and columns are numbered")
                     : QString()));
    sequenceLabel_->setText(tr("Se&quence:"));
    layerLabel_->setText(tr("&Layer:"));
    colormapLabel_->setText(tr("&Colormap:"));
    for (int b = 0; b < sequenceCombo_->count(); ++b)
        sequenceCombo_->setItemText(b, QLocale().toString(b));
    for (int l = 0; l < layerCombo_->count(); ++l)
        layerCombo_->setItemText(l, tr("Layer %1").arg(l));
    for (int i = 0; i < colormapCombo_->count(); ++i)
        colormapCombo_->setItemText(
            i, Colormap::displayName(ColormapName(colormapCombo_->itemData(i).toInt())));
    patternsTitle_->setText(
        patternsPending_
            ? tr("<b>Head patterns</b> — computing, every weight of the sequence is read…")
            : tr("<b>Head patterns</b> — click a column to sort; previous, self and first are "
                 "mean weights, entropy in bits"));
    patternsTitle_->setWordWrap(true);
    likeButton_->setEnabled(!patternsPending_);
    likeButton_->setText(tr("Show Heads &Like This One"));
    likeButton_->setToolTip(tr("Order the table by how alike the heads' patterns are to the "
                               "chosen head's"));
    openButton_->setText(tr("&Open Head"));
    meanButton_->setText(tr("Open Layer &Mean"));
    meanButton_->setToolTip(tr("Open the mean of the chosen layer's heads in the head view"));
    numbersButton_->setText(tr("Export &Numbers…"));
    numbersButton_->setToolTip(tr("Save the chosen layer's weights as JSON (with statistics and "
                                  "patterns), CSV or NPY"));
    figureButton_->setText(tr("Export &Figure…"));
    figureButton_->setToolTip(tr("Save the chosen head as a PNG, SVG or PDF figure"));
}

void ModelWindow::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

} // namespace attn::ui
