// SPDX-License-Identifier: Apache-2.0
// Soak: 1,000 experiment points back to back (tiny files, 20 requests each) through the real
// `servelab-cli run`, watched from outside every 200 ms: no growth of descriptors or threads,
// resident memory flat (its slope over the points after the first 100), and a database whose
// size follows the number of points.

#include "childprocess.h"
#include "procstat.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <climits>

namespace {

struct Sample
{
    int point = 0; // points finished when the sample was taken
    qint64 rssKiB = 0;
    int fds = 0;
    int threads = 0;
};

// Least-squares slope of y over x.
double slope(const std::vector<double> &x, const std::vector<double> &y)
{
    const double n = double(x.size());
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        sx += x[i];
        sy += y[i];
        sxx += x[i] * x[i];
        sxy += x[i] * y[i];
    }
    return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

qint64 databaseBytes(const QString &path)
{
    qint64 total = 0;
    for (const char *suffix : {"", "-wal", "-shm"})
        total += QFileInfo(path + QLatin1String(suffix)).size();
    return total;
}

} // namespace

class TestLongRun : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    int m_pointsRun = 0; // the highest [N/…] the last run printed

    QString writeSpec(int repetitions)
    {
        const QString path = m_dir.filePath(QStringLiteral("points-%1.json").arg(repetitions));
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            return {};
        file.write(QStringLiteral(R"({"servelab": 1, "name": "soak: %1 tiny points",
 "targets": [{"builtin": "epoll+sendfile", "threads": 1}],
 "sizes": ["1K", "2K", "4K", "8K"],
 "client": {"model": "closed", "requests": 20, "concurrency": 1, "keep_alive": true},
 "warmup_requests": 0, "repetitions": %2})")
                       .arg(repetitions * 4)
                       .arg(repetitions)
                       .toUtf8());
        return path;
    }

    // Runs the spec into `database`, sampling the process; false (and a message) on failure.
    bool run(int repetitions, const QString &database, std::vector<Sample> *samples)
    {
        ChildProcess run;
        run.start(QStringLiteral(SERVELAB_CLI), {QStringLiteral("run"), writeSpec(repetitions),
                                                 QStringLiteral("--db"), database});
        if (!run.waitForStarted(10000))
            return false;
        const qint64 pid = run.processId();
        const QRegularExpression progress(QStringLiteral("^\\[(\\d+)/\\d+\\]"),
                                          QRegularExpression::MultilineOption);
        int points = 0;
        QByteArray log;
        // Every 50 ms: a point can take 6 ms here, so the watch must be fine enough to see the
        // run's last tenth.
        while (!run.waitForFinished(50)) {
            log += run.readAllStandardError();
            for (auto it = progress.globalMatch(QString::fromUtf8(log)); it.hasNext();)
                points = std::max(points, it.next().captured(1).toInt());
            const Sample s{points, procstat::rssKiB(pid), procstat::fdCount(pid),
                           procstat::threadCount(pid)};
            if (samples && s.rssKiB > 0)
                samples->push_back(s);
            const auto cut = log.lastIndexOf('\n');
            log = log.mid(cut + 1); // keep only the unfinished line
        }
        const QByteArray rest = run.readAllStandardError();
        if (run.exitStatus() != QProcess::NormalExit || run.exitCode() != 0) {
            qWarning("servelab-cli run failed: %s", rest.constData());
            return false;
        }
        log += rest;
        for (auto it = progress.globalMatch(QString::fromUtf8(log)); it.hasNext();)
            points = std::max(points, it.next().captured(1).toInt());
        m_pointsRun = points;
        return true;
    }

private Q_SLOTS:
    void thousandPointsDoNotGrow()
    {
        std::vector<Sample> samples;
        const QString database = m_dir.filePath(QStringLiteral("soak.db"));
        QVERIFY(run(250, database, &samples));
        QVERIFY2(samples.size() > 20, "the run ended too quickly to be watched");
        QCOMPARE(m_pointsRun, 1000);
        // Watched to its last tenth (the last points may pass between two looks).
        QVERIFY2(samples.back().point >= 900, qPrintable(QString::number(samples.back().point)));

        // From point 100 on (the first points grow the arenas, the caches, SQLite's pages).
        std::vector<double> x, rss;
        // Descriptors and threads come and go within a point (the client's sockets, the
        // sampler, 5 at most here, and the syscall counters: one per client thread and per
        // server thread, and the sweep's own, 5 more): the least seen among the last 300 points
        // must be no more than among the first 300, the most within 13 of that. One leaked per
        // point would add hundreds.
        struct Range
        {
            int least = INT_MAX, most = 0;
            void add(int v) { least = std::min(least, v), most = std::max(most, v); }
        } fdsEarly, fdsLate, threadsEarly, threadsLate;
        for (const Sample &s : samples) {
            if (s.point >= 100) {
                x.push_back(s.point);
                rss.push_back(double(s.rssKiB));
            }
            if (s.point < 300) {
                fdsEarly.add(s.fds);
                threadsEarly.add(s.threads);
            } else if (s.point >= 700) {
                fdsLate.add(s.fds);
                threadsLate.add(s.threads);
            }
        }
        QVERIFY(x.size() > 10);
        const double kibPerPoint = slope(x, rss);
        qInfo("1,000 points: RSS %lld KiB at point %d, %lld KiB at point %d: slope %.2f KiB per "
              "point; fds %d…%d (points < 300), %d…%d (≥ 700); threads %d…%d and %d…%d",
              static_cast<long long>(samples.front().rssKiB), samples.front().point,
              static_cast<long long>(samples.back().rssKiB), samples.back().point, kibPerPoint,
              fdsEarly.least, fdsEarly.most, fdsLate.least, fdsLate.most, threadsEarly.least,
              threadsEarly.most, threadsLate.least, threadsLate.most);
        // A point kept whole (its histograms alone are 26 KiB) would show as ≥ 26 KiB a point;
        // the table's totals and SQLite's page cache come to ~1.5 KiB a point here.
        QVERIFY2(kibPerPoint < 4.0,
                 qPrintable(QStringLiteral("RSS grows %1 KiB per point").arg(kibPerPoint)));
        QVERIFY2(fdsLate.least <= fdsEarly.least && fdsLate.most <= fdsEarly.least + 13,
                 "descriptors grew over the run");
        QVERIFY2(threadsLate.most <= threadsEarly.most, "threads grew over the run");

        // The database follows the data: 1,000 points take four times what 250 do, over what
        // a one-point experiment's database takes (schema, pages).
        const QString one = m_dir.filePath(QStringLiteral("one.db"));
        const QString quarter = m_dir.filePath(QStringLiteral("quarter.db"));
        QVERIFY(run(1, one, nullptr) && run(250 / 4, quarter, nullptr));
        const double base = double(databaseBytes(one));
        const double ratio =
            (double(databaseBytes(database)) - base) / (double(databaseBytes(quarter)) - base);
        qInfo("database: %lld bytes for 1,000 points, %lld for 248, %lld for 4 (%.2f bytes a "
              "point); 1,000 over 248 points: %.2f (4.08 expected)",
              static_cast<long long>(databaseBytes(database)),
              static_cast<long long>(databaseBytes(quarter)),
              static_cast<long long>(databaseBytes(one)),
              (double(databaseBytes(database)) - base) / 996.0, ratio);
        QVERIFY2(ratio > 3.4 && ratio < 4.7,
                 qPrintable(QStringLiteral("database size is not proportional: %1").arg(ratio)));
    }
};

QTEST_GUILESS_MAIN(TestLongRun)
#include "tst_longrun.moc"
