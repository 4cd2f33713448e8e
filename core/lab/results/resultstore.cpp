// SPDX-License-Identifier: Apache-2.0
#include "resultstore.h"

#include "resultcolumns.h"
#include "resultschema.h"

#include "client/hdrhistogramlog.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStandardPaths>
#include <QVariant>

#include <atomic>
#include <unistd.h>

namespace servelab::lab {

namespace {

// When a process started (field 22 of /proc/<pid>/stat), so a pid reused by another process
// is not taken for the owner of a running experiment. Empty when there is no such process.
QString processStart(qint64 pid)
{
    QFile file(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray stat = file.readAll();
    const auto fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
    return fields.size() > 19 ? QString::fromLatin1(fields[19]) : QString();
}

// Qt binds a null QString as SQL NULL; the text columns are NOT NULL.
QString text(const QString &value)
{
    return value.isNull() ? QStringLiteral("") : value;
}

// A latency histogram's columns: PREFIX_min_us, _max_us, _sum, _sum_squares (its exact
// moments, which the encoding rounds) and PREFIX_hdr (HdrHistogram's encoding).
QStringList histogramColumns(const QString &prefix)
{
    QStringList out;
    for (const char *part : {"_min_us", "_max_us", "_sum", "_sum_squares", "_hdr"})
        out << prefix + QLatin1String(part);
    return out;
}

QVariantList histogramValues(const client::LatencyHistogram &h)
{
    return {QVariant(qint64(h.min())), QVariant(qint64(h.max())), QVariant(h.sum()),
            QVariant(h.sumSquares()),
            QVariant(QString::fromStdString(client::HdrHistogramLog::encode(h)))};
}

// The histogram from its columns, which start at `at` of the query's row.
void readHistogram(const QSqlQuery &q, int at, client::LatencyHistogram *h)
{
    auto decoded = client::HdrHistogramLog::decode(q.value(at + 4).toString().toStdString());
    if (!decoded)
        return;
    *h = std::move(*decoded);
    if (h->count() > 0)
        h->restoreMoments(q.value(at).toLongLong(), q.value(at + 1).toLongLong(),
                          q.value(at + 2).toDouble(), q.value(at + 3).toDouble());
}

// "INSERT INTO table (a, b) VALUES (?, ?)".
QString insertInto(const QString &table, const QStringList &columns)
{
    QStringList marks;
    marks.fill(QStringLiteral("?"), columns.size());
    return QStringLiteral("INSERT INTO %1 (%2) VALUES (%3)")
        .arg(table, columns.join(QStringLiteral(", ")), marks.join(QStringLiteral(", ")));
}

// `count` values of the current row of `q`, from column `first`.
QVariantList values(const QSqlQuery &q, int first, qsizetype count)
{
    QVariantList out;
    for (qsizetype i = 0; i < count; ++i)
        out << q.value(first + int(i));
    return out;
}

QString now()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
}

} // namespace

ResultStore::ResultStore()
{
    static std::atomic<int> counter{0};
    m_connection = QStringLiteral("servelab-results-%1").arg(++counter);
}

ResultStore::~ResultStore()
{
    if (QSqlDatabase::contains(m_connection)) {
        QSqlDatabase::database(m_connection, false).close();
        QSqlDatabase::removeDatabase(m_connection);
    }
}

QString ResultStore::defaultPath()
{
    // One database for the window and the command line, whatever the application's name.
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
           QStringLiteral("/servelab/servelab.db");
}

bool ResultStore::isOpen() const
{
    return QSqlDatabase::contains(m_connection) && QSqlDatabase::database(m_connection).isOpen();
}

int ResultStore::version() const
{
    return ResultSchema(m_connection).version();
}

bool ResultStore::open(const QString &path, QString *error)
{
    m_path = QFileInfo(path).absoluteFilePath();
    const auto fail = [&](const QString &why) {
        *error = QStringLiteral("results database %1: %2").arg(m_path, why);
        QSqlDatabase::database(m_connection, false).close();
        return false;
    };
    if (!QDir().mkpath(QFileInfo(m_path).absolutePath()))
        return fail(QStringLiteral("cannot create its folder (choose another with --db)"));
    QSqlDatabase db = QSqlDatabase::contains(m_connection)
                          ? QSqlDatabase::database(m_connection, false)
                          : QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), m_connection);
    if (!db.isValid())
        return fail(QStringLiteral("Qt's SQLite driver is missing (install libqt6sql6-sqlite)"));
    db.setDatabaseName(m_path);
    db.setConnectOptions(
        QStringLiteral("QSQLITE_BUSY_TIMEOUT=%1").arg(ResultSchema::busyTimeoutMs));
    if (!db.open())
        return fail(ResultSchema::sqlReason(db.lastError()));
    ResultSchema schema(m_connection);
    if (const QString refused = schema.refusal(); !refused.isEmpty())
        return fail(refused);
    if (!schema.prepare(error))
        return fail(*error);
    markInterrupted();
    return true;
}

int ResultStore::markInterrupted()
{
    QSqlDatabase db = QSqlDatabase::database(m_connection);
    QSqlQuery q(db);
    q.exec(QStringLiteral(
        "SELECT id, owner_pid, owner_start FROM experiments WHERE status = 'running'"));
    QList<qint64> dead;
    while (q.next())
        if (processStart(q.value(1).toLongLong()) != q.value(2).toString())
            dead << q.value(0).toLongLong();
    QSqlQuery update(db);
    update.prepare(QStringLiteral("UPDATE experiments SET status = 'interrupted', finished_at = ? "
                                  "WHERE id = ?"));
    for (qint64 id : dead) {
        update.addBindValue(now());
        update.addBindValue(id);
        update.exec();
    }
    return int(dead.size());
}

qint64 ResultStore::beginExperiment(const QString &name, const QByteArray &spec, QString *error,
                                    const QJsonObject &machine)
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral("INSERT INTO experiments (name, spec, machine, status, started_at, "
                             "owner_pid, owner_start) VALUES (?, ?, ?, 'running', ?, ?, ?)"));
    q.addBindValue(name);
    q.addBindValue(QString::fromUtf8(spec));
    q.addBindValue(QString::fromUtf8(QJsonDocument(machine).toJson(QJsonDocument::Compact)));
    q.addBindValue(now());
    q.addBindValue(qint64(getpid()));
    q.addBindValue(processStart(getpid()));
    if (!q.exec()) {
        *error = QStringLiteral("cannot record the experiment in %1: %2")
                     .arg(m_path, ResultSchema::sqlReason(q.lastError()));
        return 0;
    }
    return q.lastInsertId().toLongLong();
}

bool ResultStore::finishExperiment(qint64 experiment, RunStatus status, QString *error)
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral("UPDATE experiments SET status = ?, finished_at = ? WHERE id = ?"));
    q.addBindValue(runStatusText(status));
    q.addBindValue(now());
    q.addBindValue(experiment);
    if (!q.exec() || q.numRowsAffected() != 1) {
        *error = QStringLiteral("cannot finish experiment %1 in %2: %3")
                     .arg(experiment)
                     .arg(m_path, ResultSchema::sqlReason(q.lastError()));
        return false;
    }
    return true;
}

bool ResultStore::addPoint(qint64 experiment, const PointResult &p, QString *error)
{
    QSqlDatabase db = QSqlDatabase::database(m_connection);
    const auto fail = [&](const QSqlQuery &q) {
        *error = QStringLiteral("cannot store point %1 in %2: %3")
                     .arg(p.index)
                     .arg(m_path, ResultSchema::sqlReason(q.lastError()));
        db.rollback();
        return false;
    };
    if (!db.transaction()) {
        *error = QStringLiteral("cannot store point %1 in %2: %3")
                     .arg(p.index)
                     .arg(m_path, ResultSchema::sqlReason(db.lastError()));
        return false;
    }
    const auto &l = p.load;
    QSqlQuery q(db);
    // The point's scalars are ResultColumns' rows; its histograms and fds left open are kept
    // here.
    const QStringList columns = QStringList{QStringLiteral("experiment_id")} +
                                ResultColumns::sqlNames(ResultColumns::point()) +
                                histogramColumns(QStringLiteral("latency")) +
                                histogramColumns(QStringLiteral("uncorrected")) +
                                histogramColumns(QStringLiteral("tls")) +
                                QStringList{QStringLiteral("fds_left_open")};
    q.prepare(insertInto(QStringLiteral("points"), columns));
    q.addBindValue(experiment);
    for (const QVariant &v : ResultColumns::sqlValues(ResultColumns::point(), p) +
                                 histogramValues(l.latency) + histogramValues(p.uncorrected) +
                                 histogramValues(l.tlsTimes) +
                                 QVariantList{QVariant(text(p.fdsLeftOpen.join(u'\n')))})
        q.addBindValue(v);
    if (!q.exec())
        return fail(q);
    const qint64 point = q.lastInsertId().toLongLong();

    q.prepare(QStringLiteral("INSERT INTO point_errors (point_id, kind, count) VALUES (?, ?, ?)"));
    for (std::size_t k = 0; k < client::errorKindCount; ++k) {
        if (l.errors[k] == 0)
            continue;
        q.addBindValue(point);
        q.addBindValue(QString::fromUtf8(client::errorKindKey(client::ErrorKind(k))));
        q.addBindValue(quint64(l.errors[k]));
        if (!q.exec())
            return fail(q);
    }
    q.prepare(insertInto(QStringLiteral("client_samples"),
                         QStringList{QStringLiteral("point_id")} +
                             ResultColumns::sqlNames(ResultColumns::clientSample()) +
                             QStringList{QStringLiteral("latency_hdr")}));
    for (const auto &s : p.clientSamples) {
        q.addBindValue(point);
        for (const QVariant &v : ResultColumns::sqlValues(ResultColumns::clientSample(), s))
            q.addBindValue(v);
        q.addBindValue(QString::fromStdString(client::HdrHistogramLog::encode(s.latency)));
        if (!q.exec())
            return fail(q);
    }
    q.prepare(insertInto(QStringLiteral("server_samples"),
                         QStringList{QStringLiteral("point_id")} +
                             ResultColumns::sqlNames(ResultColumns::serverSample())));
    for (metrics::ProcessSample s : p.serverSamples) {
        s.atMicros -= p.startedAtMicros; // kept from the point's start
        q.addBindValue(point);
        for (const QVariant &v : ResultColumns::sqlValues(ResultColumns::serverSample(), s))
            q.addBindValue(v);
        if (!q.exec())
            return fail(q);
    }
    q.prepare(QStringLiteral(
        "INSERT INTO tune_events (point_id, at_us, change, error) VALUES (?, ?, ?, ?)"));
    for (const TuneEvent &e : p.tuneEvents) {
        q.addBindValue(point);
        q.addBindValue(qint64(e.atMicros - p.startedAtMicros)); // kept from the point's start
        q.addBindValue(text(e.change));
        q.addBindValue(text(e.error));
        if (!q.exec())
            return fail(q);
    }
    if (!db.commit())
        return fail(q);
    return true;
}

QList<ResultStore::Experiment> ResultStore::experiments(QString *error) const
{
    QList<Experiment> out;
    QSqlQuery q(QSqlDatabase::database(m_connection));
    if (!q.exec(QStringLiteral(
            "SELECT e.id, e.name, e.spec, e.status, e.started_at, "
            "e.finished_at, (SELECT count(*) FROM points p WHERE "
            "p.experiment_id = e.id), e.machine, (SELECT count(*) FROM points p WHERE "
            "p.experiment_id = e.id AND p.dnf = 1) FROM experiments e ORDER BY "
            "e.id"))) {
        if (error)
            *error = ResultSchema::sqlReason(q.lastError());
        return out;
    }
    while (q.next()) {
        Experiment e;
        e.id = q.value(0).toLongLong();
        e.name = q.value(1).toString();
        e.spec = q.value(2).toString().toUtf8();
        e.status = parseRunStatus(q.value(3).toString()).value_or(RunStatus::Failed); // CHECKed
        e.started = QDateTime::fromString(q.value(4).toString(), Qt::ISODateWithMs);
        e.finished = QDateTime::fromString(q.value(5).toString(), Qt::ISODateWithMs);
        e.points = q.value(6).toInt();
        e.machine = QJsonDocument::fromJson(q.value(7).toString().toUtf8()).object();
        e.dnfPoints = q.value(8).toInt();
        out << e;
    }
    return out;
}

double ResultStore::recentBytesPerSecond(const QString &model, quint64 minSize,
                                         const QString &target) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral("SELECT SUM(bytes_read), SUM(elapsed_us) FROM (SELECT bytes_read, "
                             "elapsed_us FROM points WHERE dnf = 0 AND model = ? AND "
                             "size_bytes >= ? AND elapsed_us > 0 AND (? = '' OR target = ?) "
                             "ORDER BY id DESC LIMIT 100)"));
    q.addBindValue(model);
    q.addBindValue(minSize);
    const QString label = target.isEmpty() ? QStringLiteral("") : target; // '' not NULL: any
    q.addBindValue(label);
    q.addBindValue(label);
    if (!q.exec() || !q.next())
        return 0;
    const double micros = q.value(1).toDouble();
    return micros > 0 ? q.value(0).toDouble() * 1e6 / micros : 0;
}

QList<PointResult> ResultStore::points(qint64 experiment, QString *error) const
{
    QList<PointResult> out;
    QSqlDatabase db = QSqlDatabase::database(m_connection);
    QSqlQuery q(db);
    const QStringList pointColumns = ResultColumns::sqlNames(ResultColumns::point());
    const QStringList histograms = histogramColumns(QStringLiteral("latency")) +
                                   histogramColumns(QStringLiteral("uncorrected")) +
                                   histogramColumns(QStringLiteral("tls"));
    q.prepare(
        QStringLiteral("SELECT id, %1, %2, fds_left_open FROM points WHERE "
                       "experiment_id = ? ORDER BY idx, repetition")
            .arg(pointColumns.join(QStringLiteral(", ")), histograms.join(QStringLiteral(", "))));
    q.addBindValue(experiment);
    if (!q.exec()) {
        if (error)
            *error = ResultSchema::sqlReason(q.lastError());
        return out;
    }
    QSqlQuery part(db);
    while (q.next()) {
        PointResult p;
        const qint64 id = q.value(0).toLongLong();
        ResultColumns::fromSql(ResultColumns::point(), values(q, 1, pointColumns.size()), &p);
        auto &l = p.load;
        const int more = 1 + int(pointColumns.size());
        readHistogram(q, more, &l.latency);
        readHistogram(q, more + 5, &p.uncorrected);
        readHistogram(q, more + 10, &l.tlsTimes);
        const QString open = q.value(more + 15).toString();
        p.fdsLeftOpen = open.isEmpty() ? QStringList() : open.split(u'\n');

        part.prepare(QStringLiteral("SELECT kind, count FROM point_errors WHERE point_id = ?"));
        part.addBindValue(id);
        part.exec();
        while (part.next())
            for (std::size_t k = 0; k < client::errorKindCount; ++k)
                if (part.value(0).toString() ==
                    QString::fromUtf8(client::errorKindKey(client::ErrorKind(k))))
                    l.errors[k] = part.value(1).toULongLong();

        const QStringList clientColumns = ResultColumns::sqlNames(ResultColumns::clientSample());
        part.prepare(QStringLiteral("SELECT %1, latency_hdr FROM client_samples WHERE point_id = ? "
                                    "ORDER BY end_us")
                         .arg(clientColumns.join(QStringLiteral(", "))));
        part.addBindValue(id);
        part.exec();
        while (part.next()) {
            client::ClientSample s;
            s.thread = -1;
            ResultColumns::fromSql(ResultColumns::clientSample(),
                                   values(part, 0, clientColumns.size()), &s);
            if (auto h = client::HdrHistogramLog::decode(
                    part.value(int(clientColumns.size())).toString().toStdString()))
                s.latency = std::move(*h);
            p.clientSamples.push_back(std::move(s));
        }
        const QStringList serverColumns = ResultColumns::sqlNames(ResultColumns::serverSample());
        part.prepare(
            QStringLiteral("SELECT %1 FROM server_samples WHERE point_id = ? ORDER BY at_us")
                .arg(serverColumns.join(QStringLiteral(", "))));
        part.addBindValue(id);
        part.exec();
        while (part.next()) {
            metrics::ProcessSample s;
            ResultColumns::fromSql(ResultColumns::serverSample(),
                                   values(part, 0, serverColumns.size()), &s);
            s.atMicros += p.startedAtMicros;
            p.serverSamples.push_back(s);
        }
        part.prepare(QStringLiteral("SELECT at_us, change, error FROM tune_events WHERE "
                                    "point_id = ? ORDER BY at_us"));
        part.addBindValue(id);
        part.exec();
        while (part.next())
            p.tuneEvents.push_back({p.startedAtMicros + part.value(0).toLongLong(),
                                    part.value(1).toString(), part.value(2).toString()});
        out << p;
    }
    return out;
}

} // namespace servelab::lab
