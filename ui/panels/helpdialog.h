// "How to read these heatmaps": a short page in the interface language.
#pragma once

#include <QDialog>

class QTextBrowser;

namespace attn::ui {

// The page's HTML, translated.
[[nodiscard]] QString howToReadHtml();

class HelpDialog : public QDialog {
    Q_OBJECT

public:
    explicit HelpDialog(QWidget* parent = nullptr);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    QTextBrowser* browser_;
};

// Help → About AttnScope: the version and what it is for.
void showAbout(QWidget* parent);

} // namespace attn::ui
