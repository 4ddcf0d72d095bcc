// Step by step's tiles of today's models' switches, each added where its stage comes and
// only when its switch is on: Q_h and K_h normed (QK-norm) and rotated (RoPE), recomputed
// from the projection one step at a time (headTransformSteps); ALiBi's bias of the head and
// the logits after it and the cap; the weight each row gave the sink.
#pragma once

#include "pipelinetiles.h"

#include <vector>

namespace attn::ui {

// After the tiles of Q_h, K_h and V_h (the last three of `tiles`): with QK-norm or RoPE, the
// Q_h and K_h tiles show the heads as split, and the tiles of Q̂_h, K̂_h (QK-norm) and of the
// rotated Q_h, K_h (RoPE) follow. Nothing without a projection (a model's head trace).
void addTransformTiles(const Result& result, int b, int h, std::vector<StageTile>& tiles);

// After L's tile: ALiBi's bias −m_h·|i − j| of head h, and L after the bias and the cap
// (`scaled` is L = S·scale/τ of (b, h)).
void addLogitTiles(const Result& result, int b, int h, const Matrix& scaled,
                   std::vector<StageTile>& tiles);

// After P's tile: with a sink, the weight each query gave it, a column of T_q.
void addSinkTile(const Result& result, int b, int h, const WeightColours& colours,
                 std::vector<StageTile>& tiles);

} // namespace attn::ui
