// .attnscope session files: every switch survives a round trip and every damaged file
// is refused with a reason. The window's settings keep every field of the request in
// the format they always had.
#include "sessiontest.h"

using namespace attn;
using namespace attn::ui;
using namespace Qt::StringLiterals;
using namespace attn::ui::test;

class TestSession : public QObject {
    Q_OBJECT

private slots:
    void roundTrip_data();
    void roundTrip();
    void configMatchesWriteConfig();
    void everyFieldRoundTrips();
    void settingsKeepEveryField();
    void settingsFormatIsKept_data();
    void settingsFormatIsKept();
    void seedIsWrittenAsString();
    void nonFiniteOverridesRoundTrip();
    void acceptsHandWrittenFiles_data();
    void acceptsHandWrittenFiles();
    void rejects_data();
    void rejects();
};

void TestSession::roundTrip_data()
{
    QTest::addColumn<Session>("session");

    QTest::newRow("defaults") << Session{};
    addEnumRows<TokenizerMode>([](Config& c, TokenizerMode v) { c.tokenizer = v; });
    addEnumRows<EmbeddingMode>([](Config& c, EmbeddingMode v) { c.embedding = v; });
    addEnumRows<Positional>([](Config& c, Positional v) { c.positional = v; });
    addEnumRows<ScaleMode>([](Config& c, ScaleMode v) { c.scale = v; });
    addEnumRows<SoftmaxAxis>([](Config& c, SoftmaxAxis v) { c.axis = v; });
    addEnumRows<MaskKind>([](Config& c, MaskKind v) { c.mask = v; });
    addEnumRows<MaskFill>([](Config& c, MaskFill v) { c.maskFill = v; });
    addEnumRows<MaskStage>([](Config& c, MaskStage v) { c.maskStage = v; });
    addEnumRows<HeadSplit>([](Config& c, HeadSplit v) { c.headSplit = v; });
    addEnumRows<AttentionKind>([](Config& c, AttentionKind v) { c.attention = v; });

    auto with = [](auto edit) {
        Session s = baseSession();
        edit(s);
        return s;
    };
    QTest::newRow("padding-mask=off")
        << with([](Session& s) { s.request.config.paddingMask = false; });
    QTest::newRow("d-model=4096, heads=4096") << with([](Session& s) {
        s.request.config.dModel = kMaxDModel;
        s.request.config.heads = kMaxDModel;
    });
    QTest::newRow("d-model=1, heads=1") << with([](Session& s) {
        s.request.config.dModel = 1;
        s.request.config.heads = 1;
    });
    for (float tau : {0.7f, 0.1f, 1e-6f, 1e6f, 3.14159265f, 1.0f / 3.0f})
        QTest::addRow("temperature=%.9g", double(tau))
            << with([tau](Session& s) { s.request.config.temperature = tau; });
    for (std::uint64_t seed :
         {std::uint64_t(0), std::uint64_t(42), std::uint64_t(1) << 53, (std::uint64_t(1) << 53) + 1,
          std::numeric_limits<std::uint64_t>::max()})
        QTest::addRow("seed=%llu", static_cast<unsigned long long>(seed))
            << with([seed](Session& s) { s.request.config.seed = seed; });
    QTest::newRow("text: Chinese, emoji, quotes, tabs, CRLF") << with([](Session& s) {
        s.request.text = "小猫坐在垫子上。\r\n\"quoted\" \\ back\tslash 👩‍👩‍👧 "
                         "<b>&amp;</b>\n";
    });
    QTest::newRow("text: empty") << with([](Session& s) { s.request.text.clear(); });
    QTest::newRow("cross-attention with its second text") << with([](Session& s) {
        s.request.config.attention = AttentionKind::Cross;
        s.request.crossText = "猫 坐 在 垫子 上\nline two";
    });
    QTest::newRow("self-attention keeps a second text")
        << with([](Session& s) { s.request.crossText = "kept for the switch back"; });
    QTest::newRow("overrides of another d_model are kept") << with([](Session& s) {
        s.request.embeddingOverrides["cat"] = std::vector<float>(8, 0.5f); // d_model is 16
        s.request.embeddingOverrides["dog"] = std::vector<float>(1, -2.0f);
    });
    QTest::newRow("overrides") << with([](Session& s) {
        std::vector<float> v(16);
        for (std::size_t k = 0; k < v.size(); ++k)
            v[k] = 0.1f * float(k) - 0.75f;
        s.request.embeddingOverrides["cat"] = v;
        v[3] = 1e-30f;
        v[4] = -std::numeric_limits<float>::max();
        v[7] = std::numeric_limits<float>::min();
        v[5] = std::numeric_limits<float>::denorm_min();
        s.request.embeddingOverrides["小猫"] = v;
        s.request.embeddingOverrides["=SUM(A1)"] = v;
        s.request.embeddingOverrides[""] = v;
    });
    for (ColormapName name : Colormap::names())
        QTest::addRow("view colormap=%s", qPrintable(Colormap::spelling(name)))
            << with([name](Session& s) { s.view.colormap = name; });
    QTest::newRow("view shared-scale=false, annotate=false, sequence=3") << with([](Session& s) {
        s.view.sharedScale = false;
        s.view.annotate = false;
        s.view.sequence = 3;
    });
    QTest::newRow("view margin-sums=true") << with([](Session& s) { s.view.marginSums = true; });
    // Today's models' switches, each and all at once.
    QTest::newRow("kv-heads=2") << with([](Session& s) { s.request.config.kvHeads = 2; });
    QTest::newRow("qk-norm") << with([](Session& s) { s.request.config.qkNorm = true; });
    QTest::newRow("rope-theta=500000") << with([](Session& s) {
        s.request.config.positional = Positional::Rope;
        s.request.config.ropeTheta = 500000;
    });
    QTest::newRow("alibi") << with([](Session& s) { s.request.config.alibi = true; });
    QTest::newRow("softcap=0.7") << with([](Session& s) { s.request.config.softcap = 0.7f; });
    QTest::newRow("window=3") << with([](Session& s) { s.request.config.window = 3; });
    QTest::newRow("sink=-1.5") << with([](Session& s) { s.request.config.sink = -1.5f; });
    QTest::newRow("sink=0") << with([](Session& s) { s.request.config.sink = 0.0f; });
    QTest::newRow("every new switch") << with([](Session& s) {
        Config& c = s.request.config;
        c.kvHeads = 1;
        c.qkNorm = true;
        c.positional = Positional::Rope;
        c.ropeTheta = 1e6f;
        c.alibi = true;
        c.softcap = 30;
        c.window = 4096;
        c.sink = 2.25f;
    });
    QTest::newRow("view color-scale=log") << with([](Session& s) { s.view.logScale = true; });
}

void TestSession::roundTrip()
{
    QFETCH(Session, session);

    const QByteArray json = sessionToJson(session);
    QString error;
    const std::optional<Session> back = sessionFromJson(json, &error);
    QVERIFY2(back, qPrintable(error));
    QVERIFY(error.isEmpty());
    QVERIFY2(*back == session, json.constData());
    // Writing again gives the same bytes: nothing drifts over save/open cycles.
    QCOMPARE(sessionToJson(*back), json);
}

void TestSession::configMatchesWriteConfig()
{
    Config c;
    c.seed = 12345;
    c.temperature = 0.7f;
    c.axis = SoftmaxAxis::Batch;
    c.maskFill = MaskFill::NegBillion;
    c.paddingMask = false;
    JsonWriter writer;
    writeConfig(writer, c);
    const QJsonObject expected =
        QJsonDocument::fromJson(QByteArray::fromStdString(writer.take())).object();

    Session s;
    s.request.config = c;
    const QJsonObject config =
        QJsonDocument::fromJson(sessionToJson(s)).object().value(u"config").toObject();
    QCOMPARE(config.keys(), expected.keys());
    for (const QString& key : expected.keys()) {
        if (key == u"seed")
            QCOMPARE(config.value(key).toString(),
                     QString::number(expected.value(key).toInteger()));
        else
            QVERIFY2(config.value(key) == expected.value(key), qPrintable(key));
    }
    QCOMPARE(config.value(u"temperature").toDouble(), 0.7); // not 0.699999988…
}

void TestSession::everyFieldRoundTrips()
{
    // Every field of the table is in the file's config and comes back as it was.
    for (bool cross : {true, false}) {
        Session s;
        s.request = everyField(cross);
        s.request.embeddingOverrides["cat"] = std::vector<float>(24, 0.5f);
        const QByteArray json = sessionToJson(s);
        const QJsonObject config =
            QJsonDocument::fromJson(json).object().value(u"config").toObject();
        for (const RequestField& field : requestFields())
            if (field.inConfig)
                QVERIFY2(config.contains(QString::fromStdString(field.name)), field.name.c_str());
        QString error;
        const std::optional<Session> back = sessionFromJson(json, &error);
        QVERIFY2(back, qPrintable(error));
        QVERIFY2(back->request == s.request, json.constData());
    }
}

void TestSession::settingsKeepEveryField()
{
    QTemporaryDir dir;
    QSettings ini(dir.filePath("settings.ini"), QSettings::IniFormat);
    AppSettings settings(&ini);
    const Request r = everyField(true);
    settings.setRequest(r);
    QCOMPARE(settings.request(u"en"_s), r);
    // The types they were always stored with: the seed as digits, numbers and flags as such.
    QCOMPARE(ini.value("formula/seed"), QVariant(u"18446744073709551615"_s));
    QCOMPARE(ini.value("formula/d-model"), QVariant(24));
    QCOMPARE(ini.value("formula/temperature"), QVariant(double(0.7f)));
    QCOMPARE(ini.value("formula/padding-mask"), QVariant(false));
    QCOMPARE(ini.value("formula/mask-fill"), QVariant(u"-1e9"_s));
    QCOMPARE(ini.value("input/cross-text"), QVariant(u"le chat a dormi"_s));
}

void TestSession::settingsFormatIsKept_data()
{
    // Settings files as earlier versions wrote them, and damaged ones.
    QTest::addColumn<QByteArray>("ini");
    QTest::addColumn<Request>("expected");
    const QByteArray written = "[formula]\nattention=cross\naxis=queries\nd-model=24\n"
                               "embedding=torch\nhead-split=view\nheads=3\nmask=none\n"
                               "mask-fill=-1e9\nmask-stage=after-softmax\npadding-mask=false\n"
                               "positional=none\nscale=sqrt-dmodel\n"
                               "seed=18446744073709551615\ntemperature=0.699999988079071\n"
                               "tokenizer=spaces\n\n[input]\ncross-text=le chat a dormi\n"
                               "text=the cat sat\n";
    Request every = everyField(true);
    every.text = "the cat sat";
    // Written before today's models: a file without their keys has their defaults.
    const Config textbook;
    every.config.kvHeads = textbook.kvHeads;
    every.config.qkNorm = textbook.qkNorm;
    every.config.ropeTheta = textbook.ropeTheta;
    every.config.alibi = textbook.alibi;
    every.config.softcap = textbook.softcap;
    every.config.window = textbook.window;
    every.config.sink = textbook.sink;
    QTest::newRow("every field changed") << written << every;
    Request defaults;
    defaults.text = exampleSentence(u"en"_s).toStdString();
    QTest::newRow("empty: the defaults") << QByteArray() << defaults;
    Request badAxis = every;
    badAxis.config.axis = SoftmaxAxis::Keys;
    QTest::newRow("an unknown spelling keeps that default")
        << QByteArray(written).replace("axis=queries", "axis=rows") << badAxis;
    Request badSize = every;
    badSize.config = Config{};
    QTest::newRow("an invalid size resets every switch")
        << QByteArray(written).replace("heads=3", "heads=5") << badSize;
}

void TestSession::settingsFormatIsKept()
{
    QFETCH(QByteArray, ini);
    QFETCH(Request, expected);
    QTemporaryDir dir;
    QFile file(dir.filePath("settings.ini"));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(ini);
    file.close();
    QSettings settings(file.fileName(), QSettings::IniFormat);
    QCOMPARE(AppSettings(&settings).request(u"en"_s), expected);
}

void TestSession::seedIsWrittenAsString()
{
    Session s = baseSession();
    s.request.config.seed = std::numeric_limits<std::uint64_t>::max();
    const QJsonObject config =
        QJsonDocument::fromJson(sessionToJson(s)).object().value(u"config").toObject();
    QCOMPARE(config.value(u"seed"), QJsonValue(u"18446744073709551615"_s));
}

void TestSession::nonFiniteOverridesRoundTrip()
{
    Session s = baseSession();
    std::vector<float> v(16, 1.0f);
    v[0] = std::numeric_limits<float>::quiet_NaN();
    v[1] = std::numeric_limits<float>::infinity();
    v[2] = -std::numeric_limits<float>::infinity();
    s.request.embeddingOverrides["odd"] = v;
    QString error;
    const auto back = sessionFromJson(sessionToJson(s), &error);
    QVERIFY2(back, qPrintable(error));
    const auto& read = back->request.embeddingOverrides.at("odd");
    QVERIFY(std::isnan(read[0]));
    QCOMPARE(read[1], std::numeric_limits<float>::infinity());
    QCOMPARE(read[2], -std::numeric_limits<float>::infinity());
    QCOMPARE(read[3], 1.0f);
}

void TestSession::acceptsHandWrittenFiles_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<Session>("expected");

    const Session base = baseSession();
    auto with = [&base](auto edit) {
        Session s = base;
        edit(s);
        return s;
    };
    QTest::newRow("seed as a number") << edited(setIn(u"config"_s, u"seed"_s, 7))
                                      << with([](Session& s) { s.request.config.seed = 7; });
    QTest::newRow("seed 2^53 as a number")
        << edited(setIn(u"config"_s, u"seed"_s, 9007199254740992.0))
        << with([](Session& s) { s.request.config.seed = std::uint64_t(1) << 53; });
    QTest::newRow("padding-mask as false")
        << edited(setIn(u"config"_s, u"padding-mask"_s, false))
        << with([](Session& s) { s.request.config.paddingMask = false; });
    QTest::newRow("no view, no overrides") << edited([](QJsonObject& root) {
        root.remove(u"view"_s);
        root.remove(u"embedding_overrides"_s);
    }) << base;
    QTest::newRow("view with one key")
        << edited(setRoot(u"view"_s, QJsonObject{{u"annotate"_s, false}}))
        << with([](Session& s) { s.view.annotate = false; });
    QTest::newRow("older file without today's switches has the 2017 formula")
        << edited([](QJsonObject& root) {
               for (const RequestField& field : requestFields())
                   if (field.addedLater)
                       setIn(u"config"_s, QString::fromStdString(field.name), kRemoved)(root);
           })
        << base;
    QTest::newRow("softcap as a number") << edited(setIn(u"config"_s, u"softcap"_s, 30))
                                         << with([](Session& s) { s.request.config.softcap = 30; });
    QTest::newRow("window as a number") << edited(setIn(u"config"_s, u"window"_s, 4))
                                        << with([](Session& s) { s.request.config.window = 4; });
    QTest::newRow("sink as a number") << edited(setIn(u"config"_s, u"sink"_s, -1.5))
                                      << with([](Session& s) { s.request.config.sink = -1.5f; });
    QTest::newRow("sink 0 as a number") << edited(setIn(u"config"_s, u"sink"_s, 0))
                                        << with([](Session& s) { s.request.config.sink = 0.0f; });
    QTest::newRow("older file without attention or cross_text is self-attention")
        << edited([](QJsonObject& root) {
               setIn(u"config"_s, u"attention"_s, kRemoved)(root);
               root.remove(u"cross_text"_s);
           })
        << base;
    QTest::newRow("older file without margin-sums shows no sums")
        << edited(setIn(u"view"_s, u"margin-sums"_s, kRemoved)) << base;
    QTest::newRow("margin-sums true") << edited(setIn(u"view"_s, u"margin-sums"_s, true))
                                      << with([](Session& s) { s.view.marginSums = true; });
    QTest::newRow("older file without color-scale colours linearly")
        << edited(setIn(u"view"_s, u"color-scale"_s, kRemoved)) << base;
    QTest::newRow("color-scale log") << edited(setIn(u"view"_s, u"color-scale"_s, u"log"_s))
                                     << with([](Session& s) { s.view.logScale = true; });
    QTest::newRow("colormap in capitals")
        << edited(setIn(u"view"_s, u"colormap"_s, u"MAGMA"_s))
        << with([](Session& s) { s.view.colormap = ColormapName::Magma; });
    QTest::newRow("unknown keys") << edited([](QJsonObject& root) {
        root.insert(u"comment"_s, u"for Tuesday's class"_s);
        setIn(u"config"_s, u"future-switch"_s, 1)(root);
    }) << base;
    QTest::newRow("byte order mark") << "\xEF\xBB\xBF" + sessionToJson(base) << base;
}

void TestSession::acceptsHandWrittenFiles()
{
    QFETCH(QByteArray, json);
    QFETCH(Session, expected);

    QString error;
    const auto session = sessionFromJson(json, &error);
    QVERIFY2(session, qPrintable(error));
    QVERIFY(*session == expected);
}

void TestSession::rejects_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QStringList>("mentions"); // what the error must name

    const QByteArray valid = sessionToJson(baseSession());
    QTest::newRow("empty file") << QByteArray() << QStringList{u"empty"_s};
    QTest::newRow("blank file") << QByteArray(" \n\t\n") << QStringList{u"empty"_s};
    QTest::newRow("truncated file")
        << valid.left(valid.size() / 2) << QStringList{u"not valid JSON"_s, u"at byte"_s};
    QTest::newRow("garbage bytes") << QByteArray("\x00\x93\xff\xfe garbage", 13)
                                   << QStringList{u"not valid JSON"_s, u"at byte"_s};
    QTest::newRow("invalid UTF-8 in text") << QByteArray(valid).replace("the cat", "the \xc3\x28t")
                                           << QStringList{u"not valid JSON"_s};
    QTest::newRow("JSON array") << QByteArray("[1, 2, 3]")
                                << QStringList{u"not an AttnScope session"_s};
    QTest::newRow("JSON string") << QByteArray("\"attnscope-session\"")
                                 << QStringList{u"not an AttnScope session"_s};
    QTest::newRow("JSON number") << QByteArray("1") << QStringList{u"not an AttnScope session"_s};
    QTest::newRow("JSON null") << QByteArray("null") << QStringList{u"not an AttnScope session"_s};
    QTest::newRow("no format") << edited(setRoot(u"format"_s, kRemoved))
                               << QStringList{u"not an AttnScope session"_s};
    QTest::newRow("other format") << edited(setRoot(u"format"_s, u"attnscope-result"_s))
                                  << QStringList{u"attnscope-result"_s};
    QTest::newRow("format is a number")
        << edited(setRoot(u"format"_s, 1)) << QStringList{u"not an AttnScope session"_s};
    // Today's models' switches: the field and what it may be.
    QTest::newRow("window 0") << edited(setIn(u"config"_s, u"window"_s, 0))
                              << QStringList{u"config.window"_s, u"from 1 to 4096"_s, u"off"_s};
    QTest::newRow("window \"0\"") << edited(setIn(u"config"_s, u"window"_s, u"0"_s))
                                  << QStringList{u"config.window"_s, u"from 1 to 4096"_s};
    QTest::newRow("window 2.5") << edited(setIn(u"config"_s, u"window"_s, 2.5))
                                << QStringList{u"config.window"_s, u"whole number"_s};
    QTest::newRow("softcap -1") << edited(setIn(u"config"_s, u"softcap"_s, -1))
                                << QStringList{u"config.softcap"_s, u"positive number"_s};
    QTest::newRow("softcap \"-1\"") << edited(setIn(u"config"_s, u"softcap"_s, u"-1"_s))
                                    << QStringList{u"config.softcap"_s, u"positive number"_s};
    QTest::newRow("sink \"abc\"") << edited(setIn(u"config"_s, u"sink"_s, u"abc"_s))
                                  << QStringList{u"config.sink"_s, u"a number or \"off\""_s,
                                                 u"abc"_s};
    QTest::newRow("sink true") << edited(setIn(u"config"_s, u"sink"_s, true))
                               << QStringList{u"config.sink"_s};
    QTest::newRow("kv-heads 3 of 4 heads") << edited(setIn(u"config"_s, u"kv-heads"_s, 3))
                                           << QStringList{u"invalid"_s, u"K/V heads (3)"_s};
    QTest::newRow("qk-norm maybe")
        << edited(setIn(u"config"_s, u"qk-norm"_s, u"maybe"_s)) << QStringList{u"config.qk-norm"_s};
    QTest::newRow("rope-theta -5")
        << edited(setIn(u"config"_s, u"rope-theta"_s, -5)) << QStringList{u"invalid"_s, u"RoPE"_s};
    QTest::newRow("sink with the softmax over the queries") << edited([](QJsonObject& root) {
        setIn(u"config"_s, u"sink"_s, 1)(root);
        setIn(u"config"_s, u"axis"_s, u"queries"_s)(root);
    }) << QStringList{u"invalid"_s, u"dim=-1"_s};
    QTest::newRow("version 2") << edited(setRoot(u"version"_s, 2))
                               << QStringList{u"newer AttnScope (format 2)"_s, u"format 1"_s};
    QTest::newRow("version 0") << edited(setRoot(u"version"_s, 0)) << QStringList{u"version"_s};
    QTest::newRow("version 1.5") << edited(setRoot(u"version"_s, 1.5)) << QStringList{u"version"_s};
    QTest::newRow("version as a string")
        << edited(setRoot(u"version"_s, u"1"_s)) << QStringList{u"version"_s, u"\"1\""_s};
    QTest::newRow("no version") << edited(setRoot(u"version"_s, kRemoved))
                                << QStringList{u"has no \"version\""_s};
    QTest::newRow("no text") << edited(setRoot(u"text"_s, kRemoved))
                             << QStringList{u"has no \"text\""_s};
    QTest::newRow("text is null") << edited(setRoot(u"text"_s, QJsonValue::Null))
                                  << QStringList{u"\"text\""_s, u"null"_s};
    QTest::newRow("text is a number")
        << edited(setRoot(u"text"_s, 42)) << QStringList{u"\"text\""_s, u"a string"_s, u"42"_s};
    QTest::newRow("text is a list") << edited(setRoot(u"text"_s, QJsonArray{u"a"_s}))
                                    << QStringList{u"\"text\""_s, u"a list"_s};
    QTest::newRow("no config") << edited(setRoot(u"config"_s, kRemoved))
                               << QStringList{u"has no \"config\""_s};
    QTest::newRow("config is a list") << edited(setRoot(u"config"_s, QJsonArray{}))
                                      << QStringList{u"\"config\""_s, u"an object"_s};
    for (const char* key :
         {"tokenizer", "d-model", "heads", "seed", "embedding", "positional", "scale",
          "temperature", "axis", "mask", "mask-fill", "mask-stage", "head-split", "padding-mask"})
        QTest::addRow("config without %s", key)
            << edited(setIn(u"config"_s, QString::fromLatin1(key), kRemoved))
            << QStringList{u"has no \"config."_s + QString::fromLatin1(key) + u'"'};
    auto badEnum = [](std::string_view option, const QString& value) {
        QTest::addRow("bad spelling %s=%s", option.data(), qPrintable(value))
            << edited(setIn(u"config"_s, latin1(option), value))
            << QStringList{u"config."_s + latin1(option), u'"' + value + u'"'};
    };
    badEnum(EnumTable<SoftmaxAxis>::option, u"rows"_s);
    badEnum(EnumTable<AttentionKind>::option, u"both"_s);
    QTest::newRow("cross_text is a number")
        << edited(setRoot(u"cross_text"_s, 7)) << QStringList{u"\"cross_text\""_s, u"a string"_s};
    QTest::newRow("cross-attention with a causal mask") << edited([](QJsonObject& root) {
        setIn(u"config"_s, u"attention"_s, u"cross"_s)(root);
        setIn(u"config"_s, u"mask"_s, u"causal"_s)(root);
    }) << QStringList{u"causal mask has no meaning in cross-attention"_s};
    badEnum(EnumTable<ScaleMode>::option, u"Sqrt-Dk"_s);
    badEnum(EnumTable<MaskFill>::option, u"-1e10"_s);
    badEnum(EnumTable<HeadSplit>::option, u""_s);
    badEnum(EnumTable<TokenizerMode>::option, u"words"_s);
    QTest::newRow("enum is a number")
        << edited(setIn(u"config"_s, u"mask"_s, 1)) << QStringList{u"config.mask"_s, u"a string"_s};
    QTest::newRow("heads is a string") << edited(setIn(u"config"_s, u"heads"_s, u"4"_s))
                                       << QStringList{u"config.heads"_s, u"\"4\""_s};
    QTest::newRow("heads is 2.5") << edited(setIn(u"config"_s, u"heads"_s, 2.5))
                                  << QStringList{u"config.heads"_s, u"2.5"_s};
    QTest::newRow("heads not dividing d_model")
        << edited(setIn(u"config"_s, u"heads"_s, 3))
        << QStringList{u"invalid"_s, u"heads (3) must divide d_model (16)"_s};
    QTest::newRow("d-model 0") << edited(setIn(u"config"_s, u"d-model"_s, 0))
                               << QStringList{u"config.d-model"_s};
    QTest::newRow("temperature 0") << edited(setIn(u"config"_s, u"temperature"_s, 0))
                                   << QStringList{u"invalid"_s, u"temperature"_s};
    QTest::newRow("temperature is a string")
        << edited(setIn(u"config"_s, u"temperature"_s, u"warm"_s))
        << QStringList{u"config.temperature"_s, u"\"warm\""_s};
    QTest::newRow("seed negative")
        << edited(setIn(u"config"_s, u"seed"_s, -1)) << QStringList{u"config.seed"_s};
    QTest::newRow("seed 1.5") << edited(setIn(u"config"_s, u"seed"_s, 1.5))
                              << QStringList{u"config.seed"_s};
    QTest::newRow("seed beyond 2^53 as a number") << edited(setIn(u"config"_s, u"seed"_s, 1e19))
                                                  << QStringList{u"config.seed"_s, u"string"_s};
    QTest::newRow("seed 2^64 as a string")
        << edited(setIn(u"config"_s, u"seed"_s, u"18446744073709551616"_s))
        << QStringList{u"config.seed"_s, u"18446744073709551616"_s};
    QTest::newRow("seed with a sign")
        << edited(setIn(u"config"_s, u"seed"_s, u"+5"_s)) << QStringList{u"config.seed"_s};
    QTest::newRow("seed with letters")
        << edited(setIn(u"config"_s, u"seed"_s, u"42abc"_s)) << QStringList{u"config.seed"_s};
    QTest::newRow("seed empty") << edited(setIn(u"config"_s, u"seed"_s, u""_s))
                                << QStringList{u"config.seed"_s};
    QTest::newRow("padding-mask maybe") << edited(setIn(u"config"_s, u"padding-mask"_s, u"maybe"_s))
                                        << QStringList{u"config.padding-mask"_s, u"maybe"_s};
    QJsonArray sixteen;
    for (int k = 0; k < 16; ++k)
        sixteen.append(0.5);
    // A vector of another length than d_model is kept (tests roundTrip); none, or more
    // numbers than any d_model, is not a vector.
    QTest::newRow("override without numbers")
        << edited(setIn(u"embedding_overrides"_s, u"cat"_s, QJsonArray{}))
        << QStringList{u"embedding_overrides.cat"_s, u"0 numbers"_s, u"1 to 4096"_s};
    QJsonArray tooMany;
    for (int k = 0; k <= kMaxDModel; ++k)
        tooMany.append(0.5);
    QTest::newRow("override longer than any d_model")
        << edited(setIn(u"embedding_overrides"_s, u"cat"_s, tooMany))
        << QStringList{u"embedding_overrides.cat"_s, u"4097 numbers"_s};
    QJsonArray withText = sixteen;
    withText[7] = u"half"_s;
    QTest::newRow("override holding text")
        << edited(setIn(u"embedding_overrides"_s, u"cat"_s, withText))
        << QStringList{u"embedding_overrides.cat[7]"_s, u"\"half\""_s};
    QJsonArray withNull = sixteen;
    withNull[0] = QJsonValue::Null;
    QTest::newRow("override holding null")
        << edited(setIn(u"embedding_overrides"_s, u"cat"_s, withNull))
        << QStringList{u"embedding_overrides.cat[0]"_s, u"null"_s};
    QJsonArray tooLarge = sixteen;
    tooLarge[2] = 3.4028236e38; // just past float32's largest, 3.40282347e38
    QTest::newRow("override beyond float32")
        << edited(setIn(u"embedding_overrides"_s, u"cat"_s, tooLarge))
        << QStringList{u"embedding_overrides.cat[2]"_s, u"float32"_s};
    QTest::newRow("override not a list") << edited(setIn(u"embedding_overrides"_s, u"cat"_s, 0.5))
                                         << QStringList{u"embedding_overrides.cat"_s, u"a list"_s};
    QTest::newRow("overrides a list") << edited(setRoot(u"embedding_overrides"_s, QJsonArray{}))
                                      << QStringList{u"embedding_overrides"_s, u"an object"_s};
    QTest::newRow("unknown colormap")
        << edited(setIn(u"view"_s, u"colormap"_s, u"jet"_s))
        << QStringList{u"view.colormap"_s, u"\"jet\""_s, u"viridis"_s};
    QTest::newRow("sequence -1") << edited(setIn(u"view"_s, u"sequence"_s, -1))
                                 << QStringList{u"view.sequence"_s, u"-1"_s};
    QTest::newRow("annotate yes") << edited(setIn(u"view"_s, u"annotate"_s, u"yes"_s))
                                  << QStringList{u"view.annotate"_s, u"true or false"_s};
    QTest::newRow("margin-sums 1") << edited(setIn(u"view"_s, u"margin-sums"_s, 1))
                                   << QStringList{u"view.margin-sums"_s, u"true or false"_s};
    QTest::newRow("color-scale true") << edited(setIn(u"view"_s, u"color-scale"_s, true))
                                      << QStringList{u"view.color-scale"_s, u"a string"_s};
    QTest::newRow("color-scale sqrt")
        << edited(setIn(u"view"_s, u"color-scale"_s, u"sqrt"_s))
        << QStringList{u"view.color-scale"_s, u"\"sqrt\""_s, u"linear, log"_s};
    QTest::newRow("long bad value is shortened")
        << edited(setIn(u"config"_s, u"axis"_s, QString(500, u'x') + u"\nline"_s))
        << QStringList{u"config.axis"_s, u"…"_s};
    QByteArray huge = valid;
    huge.append(kMaxSessionBytes + 1 - huge.size(), ' ');
    QTest::newRow("file over 64 MiB") << huge << QStringList{u"too large"_s, u"64 MiB"_s};
    QTest::newRow("padding-mask null")
        << edited(setIn(u"config"_s, u"padding-mask"_s, QJsonValue::Null))
        << QStringList{u"config.padding-mask"_s, u"\"on\" or \"off\""_s};
}

void TestSession::rejects()
{
    QFETCH(QByteArray, json);
    QFETCH(QStringList, mentions);

    QString error;
    const std::optional<Session> session = sessionFromJson(json, &error);
    QVERIFY2(!session, "a damaged session was accepted");
    QVERIFY(!error.isEmpty());
    QVERIFY2(!error.contains(u'\n'), qPrintable(error));
    QVERIFY2(error.size() < 300, qPrintable(error));
    for (const QString& mention : mentions)
        QVERIFY2(error.contains(mention),
                 qPrintable(QStringLiteral("\"%1\" does not mention \"%2\"").arg(error, mention)));
}

QTEST_GUILESS_MAIN(TestSession)
#include "tst_session.moc"
