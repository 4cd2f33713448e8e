// SPDX-License-Identifier: Apache-2.0
#include "client/loadmodel.h"
#include "lab/spec/clientkey.h"
#include "lab/spec/experimentmodel.h"
#include "lab/spec/sweepspec.h"

#include <QSet>
#include <QTest>

using namespace servelab;
using lab::ClientKey;
using lab::ExperimentModel;

class TestExperimentModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // One row per client model, each key a row of ClientKey, each key taken by some model.
    void rowsCoverEveryModelAndKey()
    {
        QSet<int> models;
        QSet<QString> taken;
        for (const ExperimentModel &row : ExperimentModel::all()) {
            models.insert(int(row.model));
            QCOMPARE(&ExperimentModel::of(row.model), &row);
            for (const char *key : row.keys) {
                QVERIFY2(ClientKey::find(QLatin1String(key)), key);
                taken.insert(QLatin1String(key));
            }
        }
        QCOMPARE(models.size(), int(client::loadModels().size()));
        for (const ClientKey &key : ClientKey::all()) {
            QVERIFY2(taken.contains(QLatin1String(key.key)), key.key);
            QVERIFY2((key.kind == ClientKey::Kind::Number) == (key.field != nullptr), key.key);
            QVERIFY2(key.help && *key.help, key.key);
            // What a key writes, it reads back as a value it takes.
            const QJsonValue value = key.get(lab::SweepSpec::defaults());
            QVERIFY2(key.problem(value).isEmpty(), key.key);
        }
        QCOMPARE(ExperimentModel::takenBy(*ClientKey::find(u"threads")),
                 QStringLiteral("\"model\": \"duration\" or \"rate\" or \"ramp\""));
    }

    // Each model's defaults run, its --smoke shrink still runs (and takes about a second),
    // and its command names the tool it reproduces.
    void defaultsAndSmokeAreValid()
    {
        const QHash<int, QString> tools{{int(client::LoadModel::Closed), QStringLiteral("ab ")},
                                        {int(client::LoadModel::Duration), QStringLiteral("wrk ")},
                                        {int(client::LoadModel::Rate), QStringLiteral("wrk2 ")},
                                        {int(client::LoadModel::Ramp), QStringLiteral("fhb ")}};
        for (const ExperimentModel &row : ExperimentModel::all()) {
            lab::SweepSpec spec = lab::SweepSpec::defaults();
            spec.model = row.model;
            QCOMPARE(spec.validate(), QString());
            QVERIFY2(row.command(spec).startsWith(tools.value(int(row.model))),
                     qPrintable(row.command(spec)));
            row.shrink(&spec);
            QCOMPARE(spec.validate(), QString());
            const qint64 ms = row.countsRequests
                                  ? 0
                                  : (row.takes(*ClientKey::find(u"seconds"))
                                         ? spec.durationMs
                                         : spec.rampUpMs + spec.steadyMs + spec.rampDownMs);
            QVERIFY2(ms <= 2000, row.title);
            if (row.countsRequests)
                QVERIFY(spec.requests <= 30);
        }
    }

    // Where a value is wrong, the model says so as the place that shows it names the field.
    void problemsNameTheField()
    {
        lab::SweepSpec spec = lab::SweepSpec::defaults();
        spec.model = client::LoadModel::Rate;
        spec.ratePerSecond = 0;
        const ExperimentModel &rate = ExperimentModel::of(client::LoadModel::Rate);
        QCOMPARE(rate.problem(spec, spec.concurrency, lab::FieldNaming::Spec),
                 QStringLiteral("client.rate: wants a whole number from 1 to 10000000, not '0'"));
        QCOMPARE(rate.problem(spec, spec.concurrency, lab::FieldNaming::Flag),
                 QStringLiteral("-R wants a whole number from 1 to 10000000, not '0'"));
        spec.ratePerSecond = 500;
        spec.clientThreads = 4;
        spec.concurrency = 2;
        QCOMPARE(rate.problem(spec, spec.concurrency, lab::FieldNaming::Label),
                 QStringLiteral("Client threads 4 cannot exceed Concurrency (2): each thread "
                                "needs its own connection, as in wrk"));
        spec.model = client::LoadModel::Ramp;
        spec.clientThreads = 1;
        spec.think = QStringLiteral("uniform:9ms-1ms");
        QVERIFY(ExperimentModel::of(client::LoadModel::Ramp)
                    .problem(spec, 1, lab::FieldNaming::Spec)
                    .startsWith(QStringLiteral("client.think: 'uniform:9ms-1ms' is not a think "
                                               "time")));
    }
};

QTEST_GUILESS_MAIN(TestExperimentModel)
#include "tst_experimentmodel.moc"
