// SPDX-License-Identifier: Apache-2.0
#include "lab/results/resultbundle.h"
#include "lab/results/resultcolumns.h"
#include "lab/results/resultexport.h"
#include "lab/results/resultstore.h"
#include "samplepoint.h"

#include <QSet>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace servelab;
using lab::ResultColumns;

namespace {

// Gives every settable column of `value` its own value (i-th: 1000 + i, as its type takes it),
// so that a column a store drops or swaps with another shows as a difference.
template<typename T>
void setEach(std::span<const lab::ResultColumn<T>> columns, T *value)
{
    qint64 n = 1000;
    for (const auto &c : columns)
        if (c.set)
            c.set(value, QVariant(n++));
}

template<typename T>
bool sameColumns(std::span<const lab::ResultColumn<T>> columns, const T &got, const T &want,
                 const char *store)
{
    for (const auto &c : columns) {
        if (!(store == QByteArrayView("bundle") ? c.json : c.sql))
            continue;
        if (c.get(got) != c.get(want)) {
            qWarning("%s: column %s: %s, wanted %s", store, c.sql ? c.sql : c.json,
                     qPrintable(c.get(got).toString()), qPrintable(c.get(want).toString()));
            return false;
        }
    }
    return true;
}

// The point with every column changed; its samples too (the sample times stay after the
// point's start, as the stores keep them from it).
lab::PointResult everyColumnSet()
{
    lab::PointResult p = testing::samplePoint(1);
    setEach(ResultColumns::point(), &p);
    p.startedAtMicros = 7'000'000;
    for (auto &s : p.clientSamples)
        setEach(ResultColumns::clientSample(), &s);
    for (auto &s : p.serverSamples) {
        setEach(ResultColumns::serverSample(), &s);
        s.atMicros += p.startedAtMicros;
        s.parts = {{1234, 40, 1, 8 << 20, 0.25}, {1240, 12, 3, 4 << 20, 1.5}}; // a prefork tree
    }
    return p;
}

// The cell under `column` in the first row of a CSV text whose cells hold no comma.
QString csvCell(const QString &csv, const QString &column)
{
    const QStringList lines = csv.split(u'\n');
    const qsizetype at = lines.value(0).split(u',').indexOf(column);
    return at < 0 ? QStringLiteral("<no column %1>").arg(column)
                  : lines.value(1).split(u',').value(at);
}

} // namespace

class TestResultColumns : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void namesAreUnique()
    {
        QSet<QString> sql;
        QSet<QString> json;
        QSet<QString> csv;
        for (const auto &c : ResultColumns::point()) {
            QVERIFY(c.sql || c.json || c.csv);
            QVERIFY2(!c.csv || !csv.contains(QLatin1String(c.csv)), c.csv);
            if (c.csv)
                csv.insert(QLatin1String(c.csv));
            QVERIFY2(!c.sql || !sql.contains(QLatin1String(c.sql)), c.sql);
            QVERIFY2(!c.json || !json.contains(QLatin1String(c.json)), c.json);
            if (c.sql)
                sql.insert(QLatin1String(c.sql));
            if (c.json)
                json.insert(QLatin1String(c.json));
        }
        QVERIFY(sql.size() >= 20);
    }

    // Every column the table lists comes back from a bundle and from the database as it went
    // in: a new row is checked by being added.
    void everyColumnRoundTrips()
    {
        const lab::PointResult want = everyColumnSet();

        lab::ResultBundle bundle;
        bundle.points = {want};
        lab::ResultBundle back;
        QString error;
        QVERIFY2(lab::ResultBundle::fromJson(bundle.toJson(), &back, &error), qPrintable(error));
        QCOMPARE(back.points.size(), 1);
        const lab::PointResult &fromBundle = back.points.first();
        QVERIFY(sameColumns(ResultColumns::point(), fromBundle, want, "bundle"));
        QCOMPARE(fromBundle.serverSamples.size(), want.serverSamples.size());
        for (std::size_t i = 0; i < want.serverSamples.size(); ++i) {
            QVERIFY(sameColumns(ResultColumns::clientSample(), fromBundle.clientSamples[i],
                                want.clientSamples[i], "bundle"));
            QVERIFY(sameColumns(ResultColumns::serverSample(), fromBundle.serverSamples[i],
                                want.serverSamples[i], "bundle"));
        }

        QTemporaryDir dir;
        lab::ResultStore store;
        QVERIFY2(store.open(dir.filePath(QStringLiteral("r.db")), &error), qPrintable(error));
        const qint64 id = store.beginExperiment(QStringLiteral("columns"), "{}", &error);
        QVERIFY2(id, qPrintable(error));
        QVERIFY2(store.addPoint(id, want, &error), qPrintable(error));
        const QList<lab::PointResult> stored = store.points(id, &error);
        QCOMPARE(stored.size(), 1);
        QVERIFY(sameColumns(ResultColumns::point(), stored.first(), want, "database"));
        for (std::size_t i = 0; i < want.serverSamples.size(); ++i) {
            QVERIFY(sameColumns(ResultColumns::clientSample(), stored.first().clientSamples[i],
                                want.clientSamples[i], "database"));
            QVERIFY(sameColumns(ResultColumns::serverSample(), stored.first().serverSamples[i],
                                want.serverSamples[i], "database"));
        }
    }

    // A server counter is one row of ServerStats' table (server/serverstats.cpp) and its
    // producer: each row is a column of the database (added to one that lacks it, no migration
    // written), the bundle (what a server agent sends of a distributed point), runs.csv (blank
    // where the server could not be counted) and results.csv (over the repetitions, summed or,
    // for a maximum or a gauge, the larger). Walks the table, so a row added later is checked here.
    void aServerCounterIsOneRow()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("r.db"));
        QString error;
        {
            lab::ResultStore created;
            QVERIFY2(created.open(path, &error), qPrintable(error));
        }
        const auto fields = server::serverStatsFields();
        QVERIFY(fields.size() >= 20);
        for (std::size_t k = 0; k < fields.size(); ++k) {
            const server::ServerStatsField &f = fields[k];
            const lab::ResultColumn<lab::PointResult> *row = nullptr;
            for (const auto &c : ResultColumns::point())
                if (c.repetitions != lab::ResultMerge::None && c.agents == lab::ResultMerge::None &&
                    QByteArrayView(c.sql).endsWith(QByteArrayView(f.key)))
                    row = &c;
            QVERIFY2(row && row->sql && row->json && row->csv, f.key);
            const QString name = QLatin1String(row->csv);

            // A database of before this counter: the column is gone, and comes back on opening
            // (the four that schema 1 made are checked as its tables are: without one, the
            // database is refused as not ServeLab's, and made anew here).
            {
                QSqlDatabase raw =
                    QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw"));
                raw.setDatabaseName(path);
                QVERIFY(raw.open());
                QSqlQuery drop(raw);
                QVERIFY2(drop.exec(QStringLiteral("ALTER TABLE points DROP COLUMN %1").arg(name)),
                         qPrintable(drop.lastError().text()));
                raw.close();
            }
            QSqlDatabase::removeDatabase(QStringLiteral("raw"));
            lab::ResultStore store;
            if (!store.open(path, &error)) {
                QVERIFY2(error.contains(QStringLiteral("points.%1 is missing").arg(name)),
                         qPrintable(error));
                QVERIFY(QFile::remove(path));
                QFile::remove(path + QStringLiteral("-wal"));
                QFile::remove(path + QStringLiteral("-shm"));
                QVERIFY2(store.open(path, &error), qPrintable(error));
            }
            const qint64 id = store.beginExperiment(QString::fromLatin1(f.key), "{}", &error);
            QVERIFY2(id, qPrintable(error));

            lab::PointResult first = testing::samplePoint(1);
            first.serverCounted = true;
            first.server = {};
            first.server.*f.total = 1000 + k;
            first.reason = first.verdictWhy = first.costNote = QString(); // no comma in any cell
            first.tuneEvents = {};
            lab::PointResult second = first;
            second.repetition = 1;
            second.server.*f.total = 3 * (1000 + k);
            QVERIFY2(store.addPoint(id, first, &error), qPrintable(error));
            const QList<lab::PointResult> stored = store.points(id, &error);
            QCOMPARE(stored.size(), 1);
            QCOMPARE(stored.first().server.*f.total, std::uint64_t(1000 + k));

            lab::PointResult fromJson;
            QVERIFY(
                lab::ResultBundle::pointFromJson(lab::ResultBundle::pointToJson(first), &fromJson));
            QCOMPARE(fromJson.server.*f.total, std::uint64_t(1000 + k));

            QCOMPARE(csvCell(lab::formatCsv({first}), name), QString::number(1000 + k));
            lab::PointResult uncounted = first;
            uncounted.serverCounted = false;
            QCOMPARE(csvCell(lab::formatCsv({uncounted}), name), QString());
            const std::uint64_t merged = f.isTotal() ? 4 * (1000 + k) : 3 * (1000 + k);
            QCOMPARE(csvCell(lab::formatSummaryCsv({first, second}), name),
                     QString::number(merged));
        }
    }

    // A client figure is one row and its producer too: each row the load agents' shares merge
    // by (a count summed, a check that must pass in each, a mean over requests, ...) is merged
    // so from two shares of one point, round-trips the database and the bundle, is its
    // runs.csv cell, and, where results.csv carries it, is merged over two repetitions as its
    // row says. Walks the table, so a row added later is checked here.
    void aClientFigureIsOneRow()
    {
        QTemporaryDir dir;
        lab::ResultStore store;
        QString error;
        QVERIFY2(store.open(dir.filePath(QStringLiteral("r.db")), &error), qPrintable(error));
        const qint64 id = store.beginExperiment(QStringLiteral("client"), "{}", &error);
        QVERIFY2(id, qPrintable(error));
        // What a distributed point means by some of them (agents, then repetitions).
        using M = lab::ResultMerge;
        const QHash<QByteArray, QPair<M, M>> meant{
            {"completed", {M::Sum, M::None}},
            {"elapsed_us", {M::Max, M::None}},
            {"concurrency", {M::Sum, M::None}},
            {"offered_per_s", {M::Sum, M::Max}},
            {"late", {M::Sum, M::Sum}},
            {"little_users", {M::Sum, M::Mean}},
            {"little_pass", {M::All, M::All}},
            {"think_actual_ms", {M::MeanByRequests, M::MeanByRequests}},
            {"client_user_us", {M::Sum, M::None}},
            {"server_user_us", {M::None, M::None}},
        };
        int walked = 0;
        int k = 0;
        int meantSeen = 0;
        for (const auto &c : ResultColumns::point()) {
            if (const auto it = meant.constFind(QByteArray(c.sql ? c.sql : ""));
                it != meant.cend()) {
                QVERIFY2(c.agents == it->first && c.repetitions == it->second, c.sql);
                ++meantSeen;
            }
            if (c.agents == lab::ResultMerge::None)
                continue;
            ++k;
            const char *name = c.sql ? c.sql : c.json;
            QVERIFY2(c.set && c.sql && c.json, name);
            // A point on which the figure is measured: closed, rate, ramp or https.
            lab::PointResult base = testing::samplePoint(1);
            base.reason = base.verdictWhy = base.costNote = QString(); // no comma in any cell
            base.tuneEvents = {};
            base.load.tlsTimes.record(900);
            base.uncorrected.record(700);
            for (auto model :
                 {client::LoadModel::Closed, client::LoadModel::Rate, client::LoadModel::Ramp})
                if (!c.measured || !c.measured(base))
                    base.model = model;

            // Two shares (and two repetitions) that differ in this figure and in their requests.
            lab::PointResult a = base;
            lab::PointResult b = base;
            a.load.ok = 100;
            b.load.ok = 300;
            b.repetition = 1;
            const int type = c.get(base).typeId();
            const bool check = type == QMetaType::Bool;
            const bool fraction = type == QMetaType::Double;
            const double va = check ? 1 : fraction ? 1.5 + k : 1000 + k;
            const double vb = check ? 0 : fraction ? 4.5 + k : 3 * (1000 + k);
            c.set(&a, check ? QVariant(true) : fraction ? QVariant(va) : QVariant(qint64(va)));
            c.set(&b, check ? QVariant(false) : fraction ? QVariant(vb) : QVariant(qint64(vb)));
            QVERIFY2(!c.measured || (c.measured(a) && c.measured(b)), name);
            const double oka = double(a.load.ok);
            const double okb = double(b.load.ok);
            const auto expected = [&](lab::ResultMerge how) {
                switch (how) {
                case lab::ResultMerge::Sum: return va + vb;
                case lab::ResultMerge::Max: return std::max(va, vb);
                case lab::ResultMerge::All: return std::min(va, vb);
                case lab::ResultMerge::Mean: return (va + vb) / 2;
                case lab::ResultMerge::MeanByRequests: return (va * oka + vb * okb) / (oka + okb);
                case lab::ResultMerge::None: break;
                }
                return -1.0;
            };

            lab::PointResult together = base;
            ResultColumns::mergeAgents({&a, &b}, &together);
            QVERIFY2(qFuzzyCompare(1 + c.get(together).toDouble(), 1 + expected(c.agents)),
                     qPrintable(QStringLiteral("%1 over agents: %2, wanted %3")
                                    .arg(QLatin1String(name), c.get(together).toString())
                                    .arg(expected(c.agents))));

            QVERIFY2(store.addPoint(id, a, &error), qPrintable(error));
            const QList<lab::PointResult> stored = store.points(id, &error);
            QVERIFY(!stored.isEmpty());
            QCOMPARE(c.get(stored.last()), c.get(a));
            lab::PointResult fromJson;
            QVERIFY(lab::ResultBundle::pointFromJson(lab::ResultBundle::pointToJson(a), &fromJson));
            QCOMPARE(c.get(fromJson), c.get(a));

            const double tolerance = c.decimals >= 0 ? std::pow(10.0, -c.decimals) : 1e-9;
            if (c.csv) {
                const QString cell = csvCell(lab::formatCsv({a}), QLatin1String(c.csv));
                QVERIFY2(
                    std::abs(cell.toDouble() - va) <= tolerance,
                    qPrintable(QStringLiteral("runs.csv %1: %2").arg(QLatin1String(c.csv), cell)));
            }
            if (c.repetitions != lab::ResultMerge::None) {
                const QString column = QLatin1String(c.csv ? c.csv : c.json);
                const QString cell = csvCell(lab::formatSummaryCsv({a, b}), column);
                QVERIFY2(std::abs(cell.toDouble() - expected(c.repetitions)) <= tolerance,
                         qPrintable(QStringLiteral("results.csv %1: %2, wanted %3")
                                        .arg(column, cell)
                                        .arg(expected(c.repetitions))));
            }
            ++walked;
        }
        QVERIFY(walked >= 20); // the load's counts, its cost, a rate's and a ramp's figures
        QCOMPARE(meantSeen, meant.size());
    }

    // A rate point keeps both histograms and its schedule's counts, a ramp point faban's
    // checks: stored and read back whole from the database and from a bundle.
    void rateAndRampPointsComeBackWhole()
    {
        lab::PointResult rate = testing::samplePoint(1);
        rate.model = client::LoadModel::Rate;
        rate.offeredPerSecond = 2500;
        rate.late = 17;
        rate.missed = 4;
        for (std::int64_t us : {120, 180, 950, 40'000, 1'200'000})
            rate.uncorrected.record(us);
        lab::PointResult ramp = testing::samplePoint(2);
        ramp.model = client::LoadModel::Ramp;
        ramp.outsideSteady = 311;
        ramp.littleUsers = 99.25;
        ramp.littlePass = true;
        ramp.thinkTargetMs = 500;
        ramp.thinkActualMs = 498.5;
        ramp.thinkPass = true;

        QString error;
        lab::ResultBundle bundle;
        bundle.points = {rate, ramp};
        lab::ResultBundle back;
        QVERIFY2(lab::ResultBundle::fromJson(bundle.toJson(), &back, &error), qPrintable(error));
        QTemporaryDir dir;
        lab::ResultStore store;
        QVERIFY2(store.open(dir.filePath(QStringLiteral("r.db")), &error), qPrintable(error));
        const qint64 id = store.beginExperiment(QStringLiteral("models"), "{}", &error);
        QVERIFY2(store.addPoint(id, rate, &error) && store.addPoint(id, ramp, &error),
                 qPrintable(error));
        const QList<lab::PointResult> stored = store.points(id, &error);
        for (const QList<lab::PointResult> &got : {back.points, stored}) {
            QCOMPARE(got.size(), 2);
            const lab::PointResult &r = got[0];
            QCOMPARE(r.model, client::LoadModel::Rate);
            QCOMPARE(r.offeredPerSecond, 2500.0);
            QCOMPARE(r.late, 17u);
            QCOMPARE(r.missed, 4u);
            QCOMPARE(r.uncorrected.count(), rate.uncorrected.count());
            QCOMPARE(r.uncorrected.max(), rate.uncorrected.max());
            QCOMPARE(r.uncorrected.mean(), rate.uncorrected.mean());
            QCOMPARE(r.uncorrected.valueAtPercentile(60), rate.uncorrected.valueAtPercentile(60));
            QCOMPARE(r.load.latency.count(), rate.load.latency.count());
            const lab::PointResult &f = got[1];
            QCOMPARE(f.model, client::LoadModel::Ramp);
            QCOMPARE(f.outsideSteady, 311u);
            QCOMPARE(f.littleUsers, 99.25);
            QVERIFY(f.littlePass);
            QCOMPARE(f.thinkTargetMs, 500.0);
            QCOMPARE(f.thinkActualMs, 498.5);
            QVERIFY(f.thinkPass);
            QCOMPARE(f.uncorrected.count(), 0u);
        }
    }
};

QTEST_GUILESS_MAIN(TestResultColumns)
#include "tst_resultcolumns.moc"
