// The exports of the model window's four experiments (Logit Lens, Which Heads Matter, Head
// Roles, Rollout), on a tiny random GPT-2 written at test time, each read back: a PNG loads
// at the figure's size (twice the SVG's points), an SVG parses as XML, a PDF starts with
// %PDF, and the CSV's and the JSON's numbers (the command line's keys) equal the dialog's.
// A name without a known suffix, a folder that is a file, or nothing to export yet: a
// message, and no file made or changed.
#include "attention/headscores.h"
#include "headimportancedialog.h"
#include "headrolesdialog.h"
#include "languagemodelwindow.h"
#include "logitlensdialog.h"
#include "models/families.h"
#include "rolloutdialog.h"
#include "tinygpt2.h"

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include <memory>

using namespace attn;
using namespace attn::ui;

namespace {

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// The CSV's rows after the header, split at commas (the numbers' rows need no quoting;
// a token field is taken as it is).
QList<QByteArrayList> csvRows(const QByteArray& csv, QByteArray* header)
{
    QList<QByteArray> lines = csv.split('\n');
    if (!lines.isEmpty() && lines.back().isEmpty())
        lines.pop_back();
    *header = lines.isEmpty() ? QByteArray() : lines.takeFirst();
    QList<QByteArrayList> rows;
    for (const QByteArray& line : lines)
        rows << line.split(',');
    return rows;
}

} // namespace

class TestExperimentExport : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void figures_data();
    void figures();
    void logitLensNumbers();
    void headImportanceNumbers();
    void headRolesNumbers();
    void rolloutNumbers();
    void badPaths_data();
    void badPaths();
    void nothingToExportYet();

private:
    using Export = std::function<QString(const QString&)>;
    [[nodiscard]] Export exporter(const QString& name) const;
    [[nodiscard]] QString write(const QString& name, const QString& suffix) const;

    QTemporaryDir dir_;
    std::shared_ptr<const LanguageModel> model_;
    std::unique_ptr<LanguageModelWindow> window_;
    LogitLensDialog* lens_ = nullptr;
    HeadImportanceDialog* importance_ = nullptr;
    HeadRolesDialog* roles_ = nullptr;
    RolloutDialog* rollout_ = nullptr;
};

void TestExperimentExport::initTestCase()
{
    model_ = openModel(test::writeTinyGpt2(dir_.filePath("tiny")).toStdString());
    window_ = std::make_unique<LanguageModelWindow>(
        model_, model_->run(LanguageModelWindow::kFirstText, {}),
        QString::fromUtf8(LanguageModelWindow::kFirstText));
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));

    auto* lens = window_->findChild<LogitLensButton*>(QStringLiteral("logitLens"));
    lens->click();
    lens_ = lens->dialog();
    QTRY_VERIFY(!lens_->reading());

    auto* importance = window_->findChild<HeadImportanceButton*>(QStringLiteral("headImportance"));
    importance->click();
    importance_ = importance->dialog();
    QTRY_VERIFY(importance_->targetCombo()->count() > 0);
    QSignalSpy scanned(importance_, &HeadImportanceDialog::finished);
    importance_->scan();
    QVERIFY(scanned.wait(20000));

    auto* roles = window_->findChild<HeadRolesButton*>(QStringLiteral("headRoles"));
    roles->click();
    roles_ = roles->dialog();
    QSignalSpy finished(roles_, &HeadRolesDialog::finished);
    roles_->copySpin()->setValue(6);
    roles_->run();
    QVERIFY(finished.wait(20000));

    auto* rollout = window_->findChild<RolloutButton*>(QStringLiteral("rollout"));
    rollout->click();
    rollout_ = rollout->dialog();
    QTRY_VERIFY(!rollout_->computing());
}

void TestExperimentExport::cleanupTestCase()
{
    window_.reset();
}

TestExperimentExport::Export TestExperimentExport::exporter(const QString& name) const
{
    if (name == QLatin1String("logit-lens"))
        return [this](const QString& path) { return lens_->exportTo(path); };
    if (name == QLatin1String("head-importance"))
        return [this](const QString& path) { return importance_->exportTo(path); };
    if (name == QLatin1String("head-roles"))
        return [this](const QString& path) { return roles_->exportTo(path); };
    return [this](const QString& path) { return rollout_->exportTo(path); };
}

// Exports `name`'s file as `suffix` into the temporary folder; its path.
QString TestExperimentExport::write(const QString& name, const QString& suffix) const
{
    const QString path = dir_.filePath(name + QLatin1Char('.') + suffix);
    const QString error = exporter(name)(path);
    if (!error.isEmpty())
        qWarning("%s", qPrintable(error));
    return error.isEmpty() ? path : QString();
}

void TestExperimentExport::figures_data()
{
    QTest::addColumn<QString>("name");
    for (const char* name : {"logit-lens", "head-importance", "head-roles", "rollout"})
        QTest::newRow(name) << QString::fromLatin1(name);
}

// PNG, SVG and PDF of each dialog: the PNG twice the SVG's size in points.
void TestExperimentExport::figures()
{
    QFETCH(QString, name);
    const QString svgPath = write(name, QStringLiteral("svg"));
    QVERIFY(!svgPath.isEmpty());
    QXmlStreamReader svg(readAll(svgPath));
    QSizeF points;
    while (!svg.atEnd()) {
        svg.readNext();
        if (svg.isStartElement() && svg.name() == QLatin1String("svg")) {
            const QStringList box =
                svg.attributes().value(QLatin1String("viewBox")).toString().split(u' ');
            QCOMPARE(box.size(), 4);
            points = QSizeF(box[2].toDouble(), box[3].toDouble());
        }
    }
    QVERIFY2(!svg.hasError(), qPrintable(svg.errorString()));
    QVERIFY(!points.isEmpty());

    const QString pngPath = write(name, QStringLiteral("png"));
    QVERIFY(!pngPath.isEmpty());
    const QImage png(pngPath);
    QVERIFY(!png.isNull());
    QVERIFY2(std::abs(png.width() - 2 * points.width()) <= 2 &&
                 std::abs(png.height() - 2 * points.height()) <= 2,
             qPrintable(QStringLiteral("PNG %1 × %2, SVG %3 × %4 points")
                            .arg(png.width())
                            .arg(png.height())
                            .arg(points.width())
                            .arg(points.height())));

    const QString pdfPath = write(name, QStringLiteral("pdf"));
    QVERIFY(!pdfPath.isEmpty());
    QVERIFY(readAll(pdfPath).startsWith("%PDF"));
}

void TestExperimentExport::logitLensNumbers()
{
    const LogitLens& lens = lens_->lens();
    QByteArray header;
    const QList<QByteArrayList> rows =
        csvRows(readAll(write(QStringLiteral("logit-lens"), QStringLiteral("csv"))), &header);
    QCOMPARE(header, QByteArray("block,position,position_token,rank,id,token,probability"));
    int count = 0;
    for (const QByteArrayList& row : rows) {
        const Prediction& p =
            lens[row[0].toULongLong()][row[1].toULongLong()][row[3].toULongLong()];
        QCOMPARE(row[4].toInt(), p.id);
        QCOMPARE(row.back().toDouble(), double(p.probability));
        ++count;
    }
    QCOMPARE(count, int(lens.size() * lens.front().size() * 5));

    const QJsonObject json = QJsonDocument::fromJson(readAll(write(QStringLiteral("logit-lens"),
                                                                   QStringLiteral("json"))))
                                 .object();
    const QJsonArray read = json.value(QLatin1String("logit_lens")).toArray();
    QCOMPARE(read.size(), qsizetype(lens.size()));
    for (std::size_t l = 0; l < lens.size(); ++l)
        for (std::size_t t = 0; t < lens[l].size(); ++t) {
            const QJsonObject top = read[l].toArray()[t].toArray()[0].toObject();
            QCOMPARE(top.value(QLatin1String("id")).toInt(), lens[l][t].front().id);
            QCOMPARE(float(top.value(QLatin1String("probability")).toDouble()),
                     lens[l][t].front().probability);
        }
    QVERIFY(json.value(QLatin1String("layers")).toArray().isEmpty()); // no weights
}

void TestExperimentExport::headImportanceNumbers()
{
    const std::vector<std::vector<double>>& change = importance_->result()->change;
    QByteArray header;
    const QList<QByteArrayList> rows =
        csvRows(readAll(write(QStringLiteral("head-importance"), QStringLiteral("csv"))), &header);
    QCOMPARE(header, QByteArray("layer,head,log_probability_change"));
    QCOMPARE(rows.size(), qsizetype(change.size() * change.front().size()));
    for (const QByteArrayList& row : rows)
        QCOMPARE(row[2].toDouble(), change[row[0].toULongLong()][row[1].toULongLong()]);

    const QJsonObject json =
        QJsonDocument::fromJson(
            readAll(write(QStringLiteral("head-importance"), QStringLiteral("json"))))
            .object();
    const QJsonArray read = json.value(QLatin1String("head_importance")).toArray();
    for (std::size_t l = 0; l < change.size(); ++l)
        for (std::size_t h = 0; h < change[l].size(); ++h)
            QCOMPARE(read[l].toArray()[h].toDouble(), change[l][h]);
    QCOMPARE(json.value(QLatin1String("head_importance_target"))
                 .toObject()
                 .value(QLatin1String("id"))
                 .toInt(),
             importance_->result()->target);
}

void TestExperimentExport::headRolesNumbers()
{
    const HeadScores& scores = *roles_->scores();
    const std::array grids{&scores.previousToken, &scores.duplicateToken, &scores.induction};
    QByteArray header;
    const QList<QByteArrayList> rows =
        csvRows(readAll(write(QStringLiteral("head-roles"), QStringLiteral("csv"))), &header);
    QCOMPARE(header, QByteArray("layer,head,previous_token,duplicate_token,induction,role"));
    QCOMPARE(rows.size(), qsizetype(scores.induction.size() * scores.induction.front().size()));
    for (const QByteArrayList& row : rows) {
        const std::size_t l = row[0].toULongLong(), h = row[1].toULongLong();
        for (std::size_t k = 0; k < grids.size(); ++k)
            QCOMPARE(row[qsizetype(k) + 2].toDouble(), (*grids[k])[l][h]);
        QCOMPARE(row[5], QByteArray(detectorRoleSpelling(detectorRole(
                             scores, int(l), int(h), HeadRolesDialog::kMarkThreshold))));
    }

    const QJsonObject json = QJsonDocument::fromJson(readAll(write(QStringLiteral("head-roles"),
                                                                   QStringLiteral("json"))))
                                 .object()
                                 .value(QLatin1String("head_scores"))
                                 .toObject();
    QCOMPARE(json.value(QLatin1String("copy")).toInt(), 6);
    const std::array keys{"previous_token", "duplicate_token", "induction"};
    for (std::size_t k = 0; k < keys.size(); ++k) {
        const QJsonArray read = json.value(QLatin1String(keys[k])).toArray();
        for (std::size_t l = 0; l < grids[k]->size(); ++l)
            for (std::size_t h = 0; h < (*grids[k])[l].size(); ++h)
                QCOMPARE(read[l].toArray()[h].toDouble(), (*grids[k])[l][h]);
    }
}

void TestExperimentExport::rolloutNumbers()
{
    const Matrix& rollout = rollout_->rollout();
    QByteArray header;
    const QList<QByteArrayList> rows =
        csvRows(readAll(write(QStringLiteral("rollout"), QStringLiteral("csv"))), &header);
    QCOMPARE(header, QByteArray("query,query_token,key,key_token,rollout"));
    QCOMPARE(rows.size(), qsizetype(rollout.size()));
    for (const QByteArrayList& row : rows)
        QCOMPARE(float(row.back().toDouble()), rollout(row[0].toInt(), row[2].toInt()));

    const QJsonArray read =
        QJsonDocument::fromJson(readAll(write(QStringLiteral("rollout"), QStringLiteral("json"))))
            .object()
            .value(QLatin1String("rollout"))
            .toArray();
    QCOMPARE(read.size(), qsizetype(rollout.rows()));
    for (int i = 0; i < int(rollout.rows()); ++i)
        for (int j = 0; j < int(rollout.cols()); ++j)
            QCOMPARE(float(read[i].toArray()[j].toDouble()), rollout(i, j));
}

void TestExperimentExport::badPaths_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("message");
    for (const char* name : {"logit-lens", "head-importance", "head-roles", "rollout"}) {
        QTest::addRow("%s: no known suffix", name)
            << QString::fromLatin1(name) << QStringLiteral("kept.txt")
            << QStringLiteral("Cannot tell the format");
        QTest::addRow("%s: NPY is not offered", name)
            << QString::fromLatin1(name) << QStringLiteral("kept.npy")
            << QStringLiteral("Cannot tell the format");
        QTest::addRow("%s: its folder is a file", name)
            << QString::fromLatin1(name) << QStringLiteral("kept.txt/figure.png")
            << QStringLiteral("Cannot write");
    }
}

// A file that cannot be written: a message, and what was there stays.
void TestExperimentExport::badPaths()
{
    QFETCH(QString, name);
    QFETCH(QString, file);
    QFETCH(QString, message);
    for (const char* kept : {"kept.txt", "kept.npy"}) {
        QFile existing(dir_.filePath(QString::fromLatin1(kept)));
        QVERIFY(existing.open(QIODevice::WriteOnly | QIODevice::Truncate));
        existing.write("kept");
    }
    const QString error = exporter(name)(dir_.filePath(file));
    QVERIFY2(error.contains(message), qPrintable(error));
    QCOMPARE(readAll(dir_.filePath(QStringLiteral("kept.txt"))), QByteArray("kept"));
    QCOMPARE(readAll(dir_.filePath(QStringLiteral("kept.npy"))), QByteArray("kept"));
}

// Before a result: a message and no file.
void TestExperimentExport::nothingToExportYet()
{
    HeadRolesDialog roles(window_.get());
    const QString path = dir_.filePath(QStringLiteral("early.png"));
    QVERIFY(roles.exportTo(path).contains(QStringLiteral("Run the test first")));
    QVERIFY(!QFile::exists(path));
    RolloutDialog rollout;
    QVERIFY(!rollout.exportTo(path).isEmpty());
    LogitLensDialog lens;
    QVERIFY(!lens.exportTo(path).isEmpty());
    QVERIFY(!QFile::exists(path));
}

QTEST_MAIN(TestExperimentExport)
#include "tst_experimentexport.moc"
