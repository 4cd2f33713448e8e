// SPDX-License-Identifier: Apache-2.0
#include "client/loadmodel.h"
#include "lab/results/pointresult.h"
#include "lab/run/pointrun.h"
#include "lab/spec/sweepspec.h"

#include <QSet>
#include <QTest>

using namespace servelab;
using lab::PointRun;

class TestPointRun : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // One row per client model, found by its model: a model added to client::loadModels()
    // without its row here fails this, not a run.
    void everyModelHasItsRow()
    {
        QSet<int> models;
        for (const PointRun &row : PointRun::all()) {
            QVERIFY(row.client && row.unfinished);
            QVERIFY(!models.contains(int(row.model)));
            models.insert(int(row.model));
            QCOMPARE(&PointRun::of(row.model), &row);
        }
        for (const client::LoadModelRow &model : client::loadModels())
            QVERIFY2(models.contains(int(model.model)), model.name);
        QCOMPARE(models.size(), int(client::loadModels().size()));
    }

    // A cancel leaves every model's point unfinished, and says so; a closed point that got
    // fewer answers than it asked for names the deadline it reached.
    void unfinishedSaysWhy()
    {
        lab::SweepSpec spec = lab::SweepSpec::defaults();
        lab::PointResult point;
        for (const PointRun &row : PointRun::all()) {
            spec.model = row.model;
            QCOMPARE(row.unfinished(spec, point, true), QStringLiteral("cancelled"));
        }
        spec.model = client::LoadModel::Closed;
        spec.requests = 10;
        point.load.completed = 4;
        QVERIFY2(PointRun::of(spec.model)
                     .unfinished(spec, point, false)
                     .contains(QStringLiteral("after 4 of 10 requests")),
                 qPrintable(PointRun::of(spec.model).unfinished(spec, point, false)));
        point.load.completed = 10;
        QCOMPARE(PointRun::of(spec.model).unfinished(spec, point, false), QString());
    }
};

QTEST_GUILESS_MAIN(TestPointRun)
#include "tst_pointrun.moc"
