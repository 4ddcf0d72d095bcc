// A paint device that draws nothing and counts what a painting would draw: the cost of a
// repaint, measured without a clock.
#pragma once

#include <QPaintDevice>
#include <QPaintEngine>

#include <climits>

namespace attn::test {

// Counts what a painting draws, drawing nothing: the cost of a repaint without a clock.
class CountingEngine final : public QPaintEngine {
public:
    CountingEngine() : QPaintEngine(AllFeatures) {}
    bool begin(QPaintDevice*) override { return true; }
    bool end() override { return true; }
    void updateState(const QPaintEngineState&) override {}
    void drawPixmap(const QRectF&, const QPixmap&, const QRectF&) override {}
    void drawPolygon(const QPointF*, int, PolygonDrawMode) override {}
    void drawPath(const QPainterPath&) override {}
    void drawTextItem(const QPointF&, const QTextItem&) override { ++texts; }
    void drawRects(const QRectF*, int count) override { rects += count; }
    void drawRects(const QRect*, int count) override { rects += count; }
    [[nodiscard]] Type type() const override { return User; }

    qint64 texts = 0;
    qint64 rects = 0;
};

class CountingDevice final : public QPaintDevice {
public:
    [[nodiscard]] QPaintEngine* paintEngine() const override { return &engine_; }
    [[nodiscard]] CountingEngine& engine() { return engine_; }

protected:
    [[nodiscard]] int metric(PaintDeviceMetric metric) const override
    {
        switch (metric) {
        case PdmWidth:
        case PdmHeight:
            return 1'000'000;
        case PdmWidthMM:
        case PdmHeightMM:
            return 264'583;
        case PdmDpiX:
        case PdmDpiY:
        case PdmPhysicalDpiX:
        case PdmPhysicalDpiY:
            return 96;
        case PdmDepth:
            return 32;
        case PdmNumColors:
            return INT_MAX;
        case PdmDevicePixelRatio:
            return 1;
        case PdmDevicePixelRatioScaled:
            return int(devicePixelRatioFScale());
        }
        return 0;
    }

private:
    mutable CountingEngine engine_;
};

} // namespace attn::test
