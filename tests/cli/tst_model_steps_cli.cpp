// `attnscope steps --model DIR --text TEXT [switches] --layer L --head H --out FIG`: the real
// binary draws one head's pipeline inside a model's layer as `steps` draws the lab's — the
// tiles with GPT-2's formulas (ln_1, c_attn's column blocks, c_proj), the tokens as labels,
// the switches in the formulas, and below them the arithmetic of the outlined cell with the
// model's own numbers (the trace's score and weight); and its refusals (one line, exit
// status 2, nothing written); and the tiles it draws, made in-process, holding the
// trace's matrices stage by stage.
#include "exportrun.h"
#include "models/families.h"
#include "models/headtrace.h"
#include "models/languagemodel.h"
#include "tracetiles.h"

#include <QImage>
#include <QTest>

using namespace attn;
using namespace attn::test;

namespace {

const QString kModel = QStringLiteral(ATTN_REFERENCE_DIR "/gpt2/small-f32");
// Qwen3: 4 query heads reading 2 K/V heads, head_dim 16, q/k norms, rotary positions.
const QString kQwen = QStringLiteral(ATTN_REFERENCE_DIR "/llama/qwen3-bf16");
// BERT: bidirectional (its textbook formula has no mask), post-LN, 4 heads of d_k 8.
const QString kBert = QStringLiteral(ATTN_REFERENCE_DIR "/bert/bert-f32");
const QString kText = QStringLiteral("The cat sat on the mat and the dog");

// A number as the explanation prints it.
QString printed(double value)
{
    return QString::number(value, 'g', 4);
}

} // namespace

class TestModelStepsCli : public QObject {
    Q_OBJECT

private slots:
    void tilesAreTheTrace();
    void svg_data();
    void svg();
    void pngAndPdf_data();
    void pngAndPdf();
    void refuses_data();
    void refuses();
};

// The tiles the command draws hold the trace's matrices, stage by stage, in the lab's order.
void TestModelStepsCli::tilesAreTheTrace()
{
    const auto model = openModel(kModel.toStdString());
    ModelSwitches switches;
    switches.formula.scale = ScaleMode::None;
    const HeadTrace trace = model->trace(kText.toStdString(), switches, 1, 3);
    const std::vector<ui::StageTile> tiles = ui::headTraceTiles(trace);
    using ui::PipelineStage;
    const std::vector<std::pair<PipelineStage, const Matrix*>> expected{
        {PipelineStage::Input, &trace.input},
        {PipelineStage::Queries, &trace.queries},
        {PipelineStage::Keys, &trace.keys},
        {PipelineStage::Values, &trace.values},
        {PipelineStage::Scores, &trace.scores},
        {PipelineStage::Logits, &trace.scores},
        {PipelineStage::Masked, nullptr},
        {PipelineStage::Weights, &trace.weights},
        {PipelineStage::HeadOutput, &trace.headOutput},
        {PipelineStage::Concat, &trace.merged},
        {PipelineStage::Output, &trace.output},
    };
    QCOMPARE(tiles.size(), expected.size());
    for (std::size_t k = 0; k < tiles.size(); ++k) {
        QCOMPARE(int(tiles[k].stage), int(expected[k].first));
        QVERIFY2(tiles[k].title.startsWith(QStringLiteral("%1. ").arg(k + 1)),
                 qPrintable(tiles[k].title));
        if (expected[k].second) // L = S with no scaling and τ = 1
            QVERIFY2(tiles[k].values.get() == *expected[k].second, qPrintable(tiles[k].title));
    }
    // The rows of the token tiles are the model's tokens.
    QCOMPARE(tiles[7].heatmap.queryLabel(1), QString::fromStdString(trace.labels[1].label));
}

void TestModelStepsCli::svg_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QStringList>("switches");
    QTest::addColumn<int>("layer");
    QTest::addColumn<int>("head");
    QTest::addColumn<QStringList>("texts"); // each in the SVG's text
    const QStringList tiles{"1. X — layer %1's input after ln_1",
                            "2. Q_h — queries",
                            "5. S — scores",
                            "8. P — attention weights",
                            "9. O_h — head output",
                            "11. output — through c_proj"};
    QTest::newRow("textbook, layer 1 head 2")
        << kModel << QStringList{} << 1 << 2
        << tiles + QStringList{"X = ln_1(h_1)",
                               "Q = X·c_attn.W[:, 0:32] + c_attn.b[0:32]",
                               "K = X·c_attn.W[:, 32:64]",
                               "V = X·c_attn.W[:, 64:96]",
                               "c_attn's columns 48–55",
                               "× 0.3536 = 1/√8",
                               "L.masked_fill(M, -inf)"};
    QTest::newRow("layer 0: X from the embeddings")
        << kModel << QStringList{} << 0 << 0 << QStringList{"X = ln_1(wte[token] + wpe[t])"};
    QTest::newRow("scale=none: no scaling in L")
        << kModel << QStringList{"--scale", "none"} << 1 << 0 << QStringList{"× 1 (no scaling)"};
    QTest::newRow("only-layer=1 scale=none, layer 0 runs the textbook formula")
        << kModel << QStringList{"--only-layer", "1", "--scale", "none"} << 0 << 3
        << QStringList{"× 0.3536 = 1/√8"};
    QTest::newRow("mask=none: no mask")
        << kModel << QStringList{"--mask", "none"} << 1 << 1 << QStringList{"L + M — no mask"};
    QTest::newRow("head-split=view: rows are pieces of tokens")
        << kModel << QStringList{"--head-split", "view"} << 0 << 3
        << QStringList{"(bug)", "dog[0:8]"};
    QTest::newRow("in Chinese") << kModel << QStringList{"--language", "zh_CN"} << 1 << 2
                                << QStringList{"注意力权重", "第 1 层经过 ln_1 后的输入",
                                               "输出 —— 经过 c_proj", "c_attn 的第 48–55 列"};
    // Qwen3: query head 3 reads K/V head 1; d_k = head_dim 16, 1/√16 = 0.25.
    QTest::newRow("qwen3, layer 1 head 3")
        << kQwen << QStringList{} << 1 << 3
        << QStringList{"1. X — layer %1's input after input_layernorm",
                       "X = input_layernorm(h_1)",
                       "Q = X·q_proj.Wᵀ",
                       "K = X·k_proj.Wᵀ",
                       "V = X·v_proj.Wᵀ",
                       "K/V head 1, shared by heads 2–3",
                       "rotated by its position (RoPE)",
                       "× 0.25 = 1/√16",
                       "11. output — through o_proj",
                       "out = concat·o_proj.Wᵀ"};
    QTest::newRow("qwen3, --rope off, layer 0 head 0")
        << kQwen << QStringList{"--rope", "off"} << 0 << 0
        << QStringList{"X = input_layernorm(embed_tokens[token])", "not rotated (RoPE off)",
                       "K/V head 0, shared by heads 0–1"};
    QTest::newRow("bert, layer 1 head 2")
        << kBert << QStringList{} << 1 << 2
        << QStringList{"1. X — layer %1's input",
                       "X = h_1",
                       "Q = X·query.Wᵀ + query.b",
                       "K = X·key.Wᵀ + key.b",
                       "V = X·value.Wᵀ + value.b",
                       "query's output columns 16–23",
                       "× 0.3536 = 1/√8",
                       "L + M — no mask",
                       "11. output — through attention.output.dense",
                       "out = concat·dense.Wᵀ + dense.b"};
    QTest::newRow("bert, --mask causal, layer 0 head 0")
        << kBert << QStringList{"--mask", "causal"} << 0 << 0
        << QStringList{"X = LayerNorm(word[token] + position[t] + type[0])",
                       "L.masked_fill(M, -inf)"};
}

// The SVG parsed back: the tiles, the tokens as labels, the switches' formulas, and the
// arithmetic of the default cell (the last query, key 0) with the trace's own score and
// weight.
void TestModelStepsCli::svg()
{
    QFETCH(QString, model);
    QFETCH(QStringList, switches);
    QFETCH(int, layer);
    QFETCH(int, head);
    QFETCH(QStringList, texts);
    QString problem;
    const QByteArray bytes =
        writtenFigure(QStringList{"steps", "--model", model, "--text", kText} + switches +
                          QStringList{"--layer", QString::number(layer), "--head",
                                      QString::number(head), "--out", "s.svg"},
                      "s.svg", &problem);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    const QString svg = svgTexts(bytes);
    QVERIFY(!svg.isEmpty());
    for (const QString& text : texts)
        QVERIFY2(svg.contains(text.contains(u'%') ? text.arg(layer) : text),
                 qPrintable(text + " not in " + svg.left(400)));

    const auto opened = openModel(model.toStdString());
    ModelSwitches textbook; // the model's own: BERT's has no mask
    textbook.formula = ModelSwitches::textbookFormula(opened->info().causal);
    const HeadTrace trace = opened->trace(kText.toStdString(), textbook, 0, 0);
    for (const TokenLabel& label : trace.labels)
        QVERIFY2(svg.contains(QString::fromStdString(label.label).trimmed()),
                 qPrintable("token " + QString::fromStdString(label.label)));
    if (!switches.isEmpty() && !switches.contains("--language"))
        return; // the numbers under switches: tst_modeltrace
    const HeadTrace traced = opened->trace(kText.toStdString(), textbook, layer, head);
    const int last = int(traced.ids.size()) - 1;
    QVERIFY(svg.contains(printed(traced.scores(last, 0))));
    QVERIFY2(svg.contains(printed(traced.weights(last, 0))),
             qPrintable(printed(traced.weights(last, 0))));
}

void TestModelStepsCli::pngAndPdf_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("file");
    QTest::newRow("png 900 px wide") << QStringList{"--width", "900", "--out", "s.png"} << "s.png";
    QTest::newRow("pdf, --cell and --colormap")
        << QStringList{"--cell", "3,1", "--colormap", "magma", "--out", "s.pdf"} << "s.pdf";
}

void TestModelStepsCli::pngAndPdf()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, file);
    QString problem;
    const QByteArray bytes = writtenFigure(
        QStringList{"steps", "--model", kModel, "--text", kText, "--layer", "1", "--head", "0"} +
            arguments,
        file, &problem);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    if (file.endsWith(".png")) {
        const QImage image = QImage::fromData(bytes);
        QCOMPARE(image.width(), 1800); // the strip's 900 px, two pixels each
        QVERIFY(image.height() > image.width());
    }
}

void TestModelStepsCli::refuses_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("keyword");
    const QStringList steps{"steps", "--model", kModel, "--text", "the cat sat"};
    const QStringList png{"--out", "f.png"};
    QTest::newRow("--layer past the last")
        << steps + QStringList{"--layer", "2", "--head", "0"} + png << 2
        << "--layer 2: small-f32 has 2 layers, 0 to 1";
    QTest::newRow("--head past the last")
        << steps + QStringList{"--layer", "0", "--head", "4"} + png << 2
        << "--head 4: small-f32 has 4 heads, 0 to 3";
    QTest::newRow("negative --head")
        << steps + QStringList{"--layer", "0", "--head", "-1"} + png << 2 << "--head";
    QTest::newRow("--d-model with a model")
        << steps + QStringList{"--d-model", "64", "--layer", "0", "--head", "0"} + png << 2
        << "--d-model does not apply with --model";
    QTest::newRow("no --layer") << steps + QStringList{"--head", "0"} + png << 2
                                << "steps --model needs --layer L and --head H";
    QTest::newRow("no --head") << steps + QStringList{"--layer", "0"} + png << 2
                               << "steps --model needs --layer L and --head H";
    QTest::newRow("--what instead of --head")
        << steps + QStringList{"--layer", "0", "--what", "head:1"} + png << 2
        << "--what does not apply with --model";
    QTest::newRow("--session with a model")
        << steps + QStringList{"--session", "a.attnscope", "--layer", "0", "--head", "0"} + png << 2
        << "--session does not apply with --model";
    QTest::newRow("--only-layer past the last")
        << steps + QStringList{"--only-layer", "2", "--layer", "0", "--head", "0"} + png << 2
        << "--only-layer 2: the model has 2 layers";
    QTest::newRow("--cell outside the text")
        << steps + QStringList{"--layer", "0", "--head", "0", "--cell", "30,0"} + png << 2
        << "--cell 30,0 is not a cell";
    QTest::newRow("--sequence: a model reads one text")
        << steps + QStringList{"--layer", "0", "--head", "0", "--sequence", "0"} + png << 2
        << "unknown option --sequence";
    QTest::newRow("no --out") << steps + QStringList{"--layer", "0", "--head", "0"} << 2
                              << "steps --model needs --out";
    QTest::newRow("no such folder")
        << QStringList{"steps",  "--model", "/nonexistent/gpt2", "--text", "cat", "--layer", "0",
                       "--head", "0"} +
               png
        << 2 << "/nonexistent/gpt2: not a folder";
    QTest::newRow("png into a missing directory")
        << steps + QStringList{"--layer", "0", "--head", "0", "--out", "missing/f.png"} << 1
        << "missing/f.png";
}

void TestModelStepsCli::refuses()
{
    checkRefusal(); // one line, the exit status, nothing written or left behind
}

QTEST_MAIN(TestModelStepsCli)
#include "tst_model_steps_cli.moc"
