// The model view: every head of one sequence as a small thumbnail, layers as rows and
// heads as columns (as BertViz's model view), drawn from AttentionStack::thumbnails().
// Hover names a tile's layer and head; the arrow keys move over the tiles, Enter opens one.
// Where heads can be knocked out (a language model's window, setKnockable), a tile's context
// menu and the K key knock its head out or restore it, a layer label's menu the whole layer;
// knocked-out tiles are drawn crossed out. A head role scan marks its heads' tiles with a
// letter (P, D, I).
// Until a large stack's thumbnails come from the worker, the grid shows its tiles empty and
// says that they are being computed.
#pragma once

#include "attention/attentionstack.h"
#include "colormap.h"
#include "modelfigure.h"          // thumbnailImage
#include "models/languagemodel.h" // HeadIndex

#include <QImage>
#include <QPoint>
#include <QWidget>

#include <optional>
#include <vector>

class QMenu;
class QPainter;

namespace attn::ui {

class ModelGrid : public QWidget {
    Q_OBJECT

public:
    explicit ModelGrid(QWidget* parent = nullptr);

    // The thumbnails of one sequence, [l·H + h], of a stack of `layers` × `heads`.
    void setThumbnails(std::vector<Thumbnail> thumbnails, int layers, int heads);
    // A grid of `layers` × `heads` empty tiles that says its thumbnails are being
    // computed, until setThumbnails(). Hover, the keys and clicks work meanwhile.
    void setComputing(int layers, int heads);
    // The thumbnails are being computed: thumbnail() has none to give.
    [[nodiscard]] bool computing() const { return computing_; }
    void setColormap(ColormapName name);

    [[nodiscard]] int layers() const { return layers_; }
    [[nodiscard]] int heads() const { return heads_; }
    // The head's thumbnail; not while computing().
    [[nodiscard]] const Thumbnail& thumbnail(int layer, int head) const;

    // The room the grid may fill (its scroll area's inside, less the scroll bars): its tiles
    // grow from their usual size (about 640 pixels a row) to fill the width, as far as the
    // height keeps every layer in sight, up to kLargestTile. An invalid size: the usual size.
    void setRoom(QSize room);
    // The width the grid takes in room `height` pixels high and as wide as it likes.
    [[nodiscard]] int widthForHeight(int height) const;
    // A tile's side in pixels.
    [[nodiscard]] int tileSide() const { return tile_; }
    static constexpr int kLargestTile = 160;

    // The tile in the widget's coordinates, and the tile under `pos` as (layer, head).
    [[nodiscard]] QRect tileRect(int layer, int head) const;
    [[nodiscard]] std::optional<QPoint> tileAt(QPoint pos) const;
    // The outlined tile (x the layer, y the head), (−1, −1) when none.
    [[nodiscard]] QPoint current() const { return current_; }
    void setCurrent(int layer, int head);
    // "Layer 3, head 7" (numbered from 0, as PyTorch indexes them).
    [[nodiscard]] static QString tileName(int layer, int head);
    // Grouped-query attention (`kvHeads` K/V heads for `heads` query heads, fewer):
    // "head 5 · shares K/V head 2 with heads 4–7" (HF's repeat_kv: head h reads K/V head
    // h / (H / H_kv)); empty where every query head has its own keys and values.
    [[nodiscard]] static QString kvSharing(int head, int heads, int kvHeads);
    // Its second half: "shares K/V head 2 with heads 4–7".
    [[nodiscard]] static QString kvShares(int head, int heads, int kvHeads);
    // The K/V heads of the model shown (0: as many as query heads): the tiles' tooltips say
    // which one a head reads.
    void setKvHeads(int kvHeads) { kvHeads_ = kvHeads; }
    [[nodiscard]] int kvHeads() const { return kvHeads_; }
    // The tooltip of tile (layer, head): its name, and the K/V head it shares.
    [[nodiscard]] QString tileToolTip(int layer, int head) const;

    // Whether the context menu and K knock heads out (knockOutRequested).
    void setKnockable(bool knockable) { knockable_ = knockable; }
    // The heads drawn crossed out.
    void setKnockedOut(std::vector<HeadIndex> heads);
    [[nodiscard]] bool knockedOut(int layer, int head) const;
    // The menu a right click at `pos` opens (null where there is none): the tile's head, or
    // the layer whose label is there. The caller owns it.
    [[nodiscard]] QMenu* knockOutMenu(QPoint pos);

    // A head's role (Find Induction Heads…): a letter in its tile's corner, a phrase in its
    // tooltip. None until a scan sets them; cleared by an empty list.
    struct RoleMark {
        HeadIndex head;
        QString letter; // "P", "D" or "I"
        QString text;   // "induction head (0.83)"
    };
    void setRoleMarks(std::vector<RoleMark> marks);
    [[nodiscard]] const std::vector<RoleMark>& roleMarks() const { return roleMarks_; }
    // The mark on head (layer, head), or null.
    [[nodiscard]] const RoleMark* roleMark(int layer, int head) const;

    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override { return sizeHint(); }

signals:
    // The tile under the mouse or the keyboard's, (−1, −1) when it left the tiles.
    void hovered(int layer, int head);
    // The mouse is `fraction` (0 ≤ fraction < 1) of the way down tile (layer, head): the
    // query row it points at is fraction · T_q. (−1, −1, −1) when it left the tiles.
    void rowHovered(int layer, int head, double fraction);
    // The outlined tile changed (a click, the keys, setCurrent).
    void currentChanged(int layer, int head);
    // A tile was clicked, or Enter pressed on the current one.
    void activated(int layer, int head);
    // Knock head (layer, head) out, or restore it (`out` false); head −1: the whole layer.
    void knockOutRequested(int layer, int head, bool out);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    [[nodiscard]] int labelWidth() const;
    [[nodiscard]] int headerHeight() const;
    // A tile's side in `room` (see setRoom).
    [[nodiscard]] int fittedTile(QSize room) const;
    void setFrame(int layers, int heads);
    void rebuildImages();
    void paintComputing(QPainter& painter);
    void describe();

    std::vector<Thumbnail> thumbnails_;
    std::vector<QImage> images_;
    Colormap colormap_;
    int layers_ = 0;
    int heads_ = 0;
    int kvHeads_ = 0;
    int tile_ = 48; // a tile's side in pixels
    QSize room_;    // what setRoom() gave
    QPoint current_{-1, -1};
    QPoint hovered_{-1, -1};
    bool computing_ = false;
    bool knockable_ = false;
    std::vector<HeadIndex> knockedOut_; // sorted
    std::vector<RoleMark> roleMarks_;
};

} // namespace attn::ui
