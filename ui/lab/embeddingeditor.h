// Exercise 3 by hand: the vector of any token, typed value by value, copied from another
// token, or another token's vector plus a little noise. Edited vectors become the
// request's embedding overrides (embedding "table"), so the heatmaps follow at once, and
// a saved session keeps them.
#pragma once

#include "engine/engine.h"

#include <QDialog>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace attn::ui {

using Overrides = std::map<std::string, std::vector<float>>;

// Object names: tokenCombo, vectorTable, sourceCombo, copyButton, noiseButton, sigmaSpin,
// resetButton, resetAllButton, editorNote, closeButtons.
class EmbeddingEditor : public QDialog {
    Q_OBJECT

public:
    explicit EmbeddingEditor(QWidget* parent = nullptr);

    // The request whose vectors are edited and the tokens to offer (its texts' distinct
    // tokens). Keeps the chosen token when it is still there.
    void setRequest(const Request& request, const std::vector<std::string>& tokens);

    [[nodiscard]] QString currentToken() const;
    // The vector the engine uses for `token` before positional encoding: the edited one,
    // else the table's.
    [[nodiscard]] std::vector<float> vectorOf(const std::string& token) const;
    [[nodiscard]] const Overrides& overrides() const { return overrides_; }

    // What the controls do, callable from tests too. Each emits overridesChanged.
    void selectToken(const QString& token);
    void setFeature(int feature, float value);
    void copyFrom(const QString& source);
    void copyWithNoise(const QString& source, double sigma, std::uint32_t seed);
    void resetToken();
    void resetAll();

signals:
    void overridesChanged(const attn::ui::Overrides& overrides);

protected:
    void changeEvent(QEvent* event) override;

private:
    void setVector(const std::string& token, std::vector<float> values);
    void showVector();
    void showNote();
    void itemEdited(int row);
    void retranslateUi();

    Config config_;
    Overrides overrides_;
    std::vector<std::string> tokens_;
    bool filling_ = false; // the table is being filled, not edited

    QLabel* tokenLabel_ = nullptr;
    QComboBox* tokenCombo_ = nullptr;
    QTableWidget* table_ = nullptr;
    QLabel* sourceLabel_ = nullptr;
    QComboBox* sourceCombo_ = nullptr;
    QPushButton* copyButton_ = nullptr;
    QPushButton* noiseButton_ = nullptr;
    QLabel* sigmaLabel_ = nullptr;
    QDoubleSpinBox* sigmaSpin_ = nullptr;
    QPushButton* resetButton_ = nullptr;
    QPushButton* resetAllButton_ = nullptr;
    QLabel* note_ = nullptr;
};

// The distinct tokens of `result`'s texts (and the keys' text), <pad> aside: the tokens the
// editor offers.
[[nodiscard]] std::vector<std::string> editableTokens(const Result& result);

} // namespace attn::ui
