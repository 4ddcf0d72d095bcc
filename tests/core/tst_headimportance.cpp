// What the heads do, in every family, against PyTorch on the same checkpoints
// (gen_*_model.py, the textbook formula): which heads matter (core/models/headimportance:
// every head knocked out alone, the change in log p(target); the resumed forwards it runs
// equal the whole run; its refusals, progress and cancel), the head detector's scores on a
// text that repeats itself and attention rollout (core/attention/headscores), and the
// induction test's ids (core/models/inductiontest).
#include "attention/headscores.h"
#include "engine/engine.h"
#include "engine/options.h"
#include "modelfiles.h"
#include "models/families.h"
#include "models/headimportance.h"
#include "models/inductiontest.h"
#include "models/logitlens.h"
#include "text/wordgroups.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QPoint>
#include <QTest>

#include <atomic>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using attn::Matrix;
using attn::ModelSwitches;
using modelfiles::readJson;
using modelfiles::switchesOf;

namespace {

const fs::path kReference = ATTN_REFERENCE_DIR;

std::vector<int> idsOf(const QJsonObject& expected)
{
    std::vector<int> ids;
    for (const QJsonValue id : expected.value(QLatin1String("ids")).toArray())
        ids.push_back(id.toInt());
    return ids;
}

} // namespace

class TestHeadImportance : public QObject {
    Q_OBJECT

private slots:
    void matchesTorch_data();
    void matchesTorch();
    void resumedForwardIsTheRunsOwn();
    void refusals();
    void progressAndCancel();
    void scoresAndRolloutMatchTorch_data();
    void scoresAndRolloutMatchTorch();
    void inductionTestIds();
    void roles_data();
    void roles();
    void topHeads();
};

void TestHeadImportance::matchesTorch_data()
{
    QTest::addColumn<QString>("model");
    for (const char* model :
         {"gpt2/small-f32", "gpt2/small-bf16", "llama/qwen2-f32", "llama/qwen3-bf16",
          "llama/mistral-f32", "llama/smollm2-f32", "bert/bert-f32"})
        QTest::newRow(model) << QString(model);
}

// L × H changes of log p(target) within 1e-4 of PyTorch's, the target its intact top 1, at
// the last position (a decoder) or the first [MASK] (BERT).
void TestHeadImportance::matchesTorch()
{
    QFETCH(QString, model);
    const auto opened = attn::openModel(kReference / model.toStdString());
    const QJsonObject expected = readJson(kReference / (model.toStdString() + ".json"));
    const QJsonObject torch = expected.value(QLatin1String("head_importance")).toObject();
    QVERIFY(!torch.isEmpty());
    const attn::HeadImportance scan = attn::headImportance(
        *opened, idsOf(expected), switchesOf(QJsonObject{}, -1, opened->info()));
    QCOMPARE(scan.target, torch.value(QLatin1String("target")).toInt());
    QVERIFY2(std::abs(scan.intact - torch.value(QLatin1String("intact")).toDouble()) < 1e-4,
             qPrintable(QString::number(scan.intact)));
    const QJsonArray change = torch.value(QLatin1String("change")).toArray();
    QCOMPARE(int(scan.change.size()), int(change.size()));
    double largest = 0;
    for (int l = 0; l < change.size(); ++l) {
        const QJsonArray row = change[l].toArray();
        QCOMPARE(int(scan.change[std::size_t(l)].size()), int(row.size()));
        for (int h = 0; h < row.size(); ++h) {
            const double got = scan.change[std::size_t(l)][std::size_t(h)];
            const double want = row[h].toDouble();
            QVERIFY2(
                std::abs(got - want) < 1e-4,
                qPrintable(
                    QStringLiteral("head %1.%2: %3, torch %4").arg(l).arg(h).arg(got).arg(want)));
            largest = std::max(largest, std::abs(want));
        }
    }
    QVERIFY(largest > 1e-3); // some head matters: the comparison is not of zeros
}

// A forward resumed at block l from the residual the whole run gave after block l − 1 ends
// where the whole run ends, bit for bit: the scan's runs differ from it only by their head.
void TestHeadImportance::resumedForwardIsTheRunsOwn()
{
    for (const char* name : {"gpt2/small-bf16", "llama/qwen3-bf16", "bert/bert-f32"}) {
        const auto model = attn::openModel(kReference / name);
        const std::vector<int> ids = idsOf(readJson(kReference / (std::string(name) + ".json")));
        const ModelSwitches switches = switchesOf(QJsonObject{}, -1, model->info());
        std::vector<Matrix> residuals;
        const attn::Forward whole = model->forward(ids, switches, attn::residualCapture(residuals));
        QCOMPARE(int(residuals.size()), model->info().layers);
        for (int l = 1; l < model->info().layers; ++l) {
            attn::ForwardHooks resumed;
            resumed.startLayer = l;
            resumed.startResidual = &residuals[std::size_t(l - 1)];
            const attn::Forward part = model->forward(ids, switches, resumed);
            QCOMPARE(part.hidden.rows(), whole.hidden.rows());
            QVERIFY2(std::memcmp(part.hidden.data(), whole.hidden.data(),
                                 sizeof(float) * std::size_t(whole.hidden.size())) == 0,
                     name);
        }
        attn::ForwardHooks wrong;
        wrong.startLayer = model->info().layers; // past the last block
        wrong.startResidual = &residuals[0];
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, (void)model->forward(ids, switches, wrong));
        wrong.startLayer = 1;
        const Matrix narrow = residuals[0].leftCols(2);
        wrong.startResidual = &narrow;
        QVERIFY_THROWS_EXCEPTION(std::out_of_range, (void)model->forward(ids, switches, wrong));
    }
}

void TestHeadImportance::refusals()
{
    const auto bert = attn::openModel(kReference / "bert/bert-f32");
    std::vector<int> ids;
    std::vector<attn::TokenLabel> labels;
    bert->tokenize("the cat sat", ids, labels); // no [MASK]
    const ModelSwitches unmasked = switchesOf(QJsonObject{}, -1, false);
    QVERIFY_THROWS_EXCEPTION(attn::InputError, (void)attn::headImportance(*bert, ids, unmasked));

    const auto gpt2 = attn::openModel(kReference / "gpt2/small-f32");
    gpt2->tokenize("The cat sat", ids, labels);
    const int V = gpt2->info().vocabulary;
    QVERIFY_THROWS_EXCEPTION(attn::InputError, (void)attn::headImportance(*gpt2, ids, {}, V));
    QVERIFY_THROWS_EXCEPTION(attn::InputError, (void)attn::headImportance(*gpt2, ids, {}, -1));
    // A named target: its own log-probability, whatever the top 1 is.
    const attn::HeadImportance named = attn::headImportance(*gpt2, ids, {}, 3);
    QCOMPARE(named.target, 3);
    QVERIFY(named.intact < 0);
}

// progress(done, total) after every head, in order; a cancel between layers stops the scan.
void TestHeadImportance::progressAndCancel()
{
    const auto gpt2 = attn::openModel(kReference / "gpt2/small-f32"); // 2 layers of 4 heads
    std::vector<int> ids, calls;
    std::vector<attn::TokenLabel> labels;
    gpt2->tokenize("The cat sat on the mat", ids, labels);
    const attn::HeadImportance scan =
        attn::headImportance(*gpt2, ids, {}, std::nullopt, [&](int done, int total) {
            QCOMPARE(total, 8);
            calls.push_back(done);
        });
    QCOMPARE(calls, (std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8}));
    // A head already knocked out is not scanned again: its change is 0.
    ModelSwitches knocked;
    knocked.knockedOut = {{1, 2}};
    const attn::HeadImportance again = attn::headImportance(*gpt2, ids, knocked);
    QCOMPARE(again.change[1][2], 0.0);
    QVERIFY(again.change[0][0] != scan.change[0][0]); // the baseline lacks head 1.2

    std::atomic<bool> cancel{false};
    QVERIFY_THROWS_EXCEPTION(attn::Cancelled, (void)attn::headImportance(
                                                  *gpt2, ids, {}, std::nullopt,
                                                  [&](int done, int) {
                                                      if (done == 3)
                                                          cancel = true;
                                                  },
                                                  &cancel));
}

void TestHeadImportance::scoresAndRolloutMatchTorch_data()
{
    matchesTorch_data();
}

// previous-token, duplicate-token and induction L × H, and the rollout T × T, within 1e-5 of
// PyTorch's on the same run's attention; a copy that does not repeat has no induction.
void TestHeadImportance::scoresAndRolloutMatchTorch()
{
    QFETCH(QString, model);
    const auto opened = attn::openModel(kReference / model.toStdString());
    const QJsonObject torch = readJson(kReference / (model.toStdString() + ".json"))
                                  .value(QLatin1String("head_scores"))
                                  .toObject();
    const std::vector<int> ids = idsOf(torch);
    const attn::ModelRun run = opened->runIds(ids, switchesOf(QJsonObject{}, -1, opened->info()));
    const int first = torch.value(QLatin1String("first")).toInt();
    const int end = torch.value(QLatin1String("end")).toInt();
    const attn::HeadScores scores = attn::headScores(*run.attention, 0, ids, first, end);
    QCOMPARE(scores.copy, torch.value(QLatin1String("copy")).toInt());
    QVERIFY(scores.copy > 0);
    const auto compare = [&](const std::vector<std::vector<double>>& got, const char* key) {
        const QJsonArray want = torch.value(QLatin1String(key)).toArray();
        QCOMPARE(int(got.size()), int(want.size()));
        for (int l = 0; l < want.size(); ++l)
            for (int h = 0; h < want[l].toArray().size(); ++h)
                QVERIFY2(std::abs(got[std::size_t(l)][std::size_t(h)] -
                                  want[l].toArray()[h].toDouble()) < 1e-5,
                         qPrintable(QStringLiteral("%1 of head %2.%3").arg(key).arg(l).arg(h)));
    };
    compare(scores.previousToken, "previous_token");
    compare(scores.duplicateToken, "duplicate_token");
    compare(scores.induction, "induction");

    const Matrix rollout = attn::attentionRollout(*run.attention, 0);
    const QJsonArray want = torch.value(QLatin1String("rollout")).toArray();
    QCOMPARE(int(rollout.rows()), int(want.size()));
    for (int i = 0; i < want.size(); ++i) {
        QVERIFY(std::abs(rollout.row(i).sum() - 1.0f) < 1e-5f);
        for (int j = 0; j < want.size(); ++j)
            QVERIFY2(std::abs(rollout(i, j) - want[i].toArray()[j].toDouble()) < 1e-5,
                     qPrintable(QStringLiteral("rollout (%1, %2)").arg(i).arg(j)));
    }

    // Not a repeat: the last token changed. Previous-token stays, the others are none.
    std::vector<int> changed = ids;
    changed[std::size_t(end - 1)] = changed[std::size_t(end - 1)] == 5 ? 6 : 5;
    const attn::ModelRun other =
        opened->runIds(changed, switchesOf(QJsonObject{}, -1, opened->info()));
    const attn::HeadScores none = attn::headScores(*other.attention, 0, changed, first, end);
    QCOMPARE(none.copy, 0);
    QVERIFY(none.induction.empty() && none.duplicateToken.empty());
    QCOMPARE(int(none.previousToken.size()), opened->info().layers);
    QVERIFY_THROWS_EXCEPTION(attn::InputError,
                             (void)attn::headScores(*run.attention, 0, ids, first, first + 1));
}

// The test's ids: the template's tokens around two equal copies of N ordinary ids, the same
// for the same seed; textPositions finds the copies between them.
void TestHeadImportance::inductionTestIds()
{
    for (const char* name : {"gpt2/small-f32", "llama/mistral-f32", "bert/bert-f32"}) {
        const auto model = attn::openModel(kReference / name);
        const std::vector<int> ids = attn::inductionIds(*model, 5, 7);
        QCOMPARE(ids, attn::inductionIds(*model, 5, 7));
        QVERIFY(ids != attn::inductionIds(*model, 5, 8));
        const auto [first, end] = attn::textPositions(*model, ids);
        QCOMPARE(end - first, 10);
        QVERIFY(std::equal(ids.begin() + first, ids.begin() + first + 5, ids.begin() + first + 5));
        const std::vector<int>& frame = model->templateIds();
        QCOMPARE(int(ids.size()), 10 + int(std::min<std::size_t>(frame.size(), 2)));
        for (int t = first; t < end; ++t) {
            const int id = ids[std::size_t(t)];
            QVERIFY(id >= 0 && id < model->info().vocabulary);
            QVERIFY(std::find(frame.begin(), frame.end(), id) == frame.end());
            const std::string& spelling = model->tokenizer()->token(id);
            QVERIFY2(!attn::readsAsSpecial(spelling) || spelling != model->tokenizer()->bytes(id),
                     spelling.c_str());
        }
        QVERIFY_THROWS_EXCEPTION(attn::InputError, (void)attn::inductionIds(*model, 1, 7));
        QVERIFY_THROWS_EXCEPTION(attn::InputError,
                                 (void)attn::inductionIds(*model, model->info().maxPositions, 7));
    }
}

void TestHeadImportance::roles_data()
{
    QTest::addColumn<double>("previous");
    QTest::addColumn<double>("duplicate");
    QTest::addColumn<double>("induction");
    QTest::addColumn<int>("role");
    QTest::addColumn<double>("score");
    using R = attn::DetectorRole;
    QTest::newRow("none reaches 0.4") << 0.3 << 0.2 << 0.39 << int(R::None) << 0.0;
    QTest::newRow("previous-token alone") << 0.9 << 0.1 << 0.2 << int(R::PreviousToken) << 0.9;
    QTest::newRow("induction strongest") << 0.5 << 0.45 << 0.83 << int(R::Induction) << 0.83;
    QTest::newRow("duplicate strongest") << 0.41 << 0.7 << 0.6 << int(R::DuplicateToken) << 0.7;
    QTest::newRow("a tie goes to induction") << 0.6 << 0.6 << 0.6 << int(R::Induction) << 0.6;
    QTest::newRow("exactly the threshold") << 0.4 << 0.0 << 0.0 << int(R::PreviousToken) << 0.4;
    QTest::newRow("NaN is no role") << qQNaN() << 0.0 << 0.0 << int(R::None) << 0.0;
}

// A head's role is its strongest score at or above the threshold; a text that does not
// repeat has only previous-token heads.
void TestHeadImportance::roles()
{
    QFETCH(double, previous);
    QFETCH(double, duplicate);
    QFETCH(double, induction);
    QFETCH(int, role);
    QFETCH(double, score);
    attn::HeadScores scores;
    scores.copy = 3;
    scores.previousToken = {{0.0, previous}};
    scores.duplicateToken = {{0.0, duplicate}};
    scores.induction = {{0.0, induction}};
    double got = -1;
    QCOMPARE(int(attn::detectorRole(scores, 0, 1, 0.4, &got)), role);
    QCOMPARE(got, score);
    QCOMPARE(int(attn::detectorRole(scores, 0, 0, 0.4)), int(attn::DetectorRole::None));
    scores.copy = 0;
    scores.duplicateToken.clear();
    scores.induction.clear();
    QCOMPARE(int(attn::detectorRole(scores, 0, 1, 0.4)),
             int(previous >= 0.4 ? attn::DetectorRole::PreviousToken : attn::DetectorRole::None));
    QCOMPARE(attn::detectorRoleSpelling(attn::DetectorRole(role)),
             std::vector<const char*>(
                 {"none", "previous_token", "duplicate_token", "induction"})[std::size_t(role)]);
}

// The top heads of a grid: highest first, ties in layer-then-head order, NaN last.
void TestHeadImportance::topHeads()
{
    const std::vector<std::vector<double>> grid{{0.2, qQNaN(), 0.9}, {0.5, 0.9, 0.1}};
    const std::vector<attn::RankedHead> top = attn::topHeads(grid, 4);
    QCOMPARE(int(top.size()), 4);
    QCOMPARE(QPoint(top[0].layer, top[0].head), QPoint(0, 2));
    QCOMPARE(QPoint(top[1].layer, top[1].head), QPoint(1, 1));
    QCOMPARE(QPoint(top[2].layer, top[2].head), QPoint(1, 0));
    QCOMPARE(top[2].score, 0.5);
    QCOMPARE(QPoint(top[3].layer, top[3].head), QPoint(0, 0));
    QCOMPARE(int(attn::topHeads(grid, 10).size()), 6);
    QVERIFY(std::isnan(attn::topHeads(grid, 10).back().score));
    QVERIFY(attn::topHeads({}, 3).empty());
}

QTEST_APPLESS_MAIN(TestHeadImportance)
#include "tst_headimportance.moc"
