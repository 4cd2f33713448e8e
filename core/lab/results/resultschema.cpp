// SPDX-License-Identifier: Apache-2.0
#include "resultschema.h"

#include "resultcolumns.h"
#include "resultmigrations.h"

#include <QElapsedTimer>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <chrono>
#include <thread>
#include <utility>

namespace servelab::lab {

namespace {

bool isBusy(const QSqlError &error)
{
    return error.nativeErrorCode() == u"5";
}

// PRAGMA journal_mode=WAL, retried while another connection holds the lock. Two programs
// switching a new database at once both hold a read lock and want the write lock; SQLite
// answers one of them "busy" at once rather than wait (it would deadlock), so its busy
// timeout does not apply here: the retry, bounded by the same timeout, does its job.
bool switchToWal(QSqlQuery &q)
{
    QElapsedTimer waited;
    waited.start();
    while (!(q.exec(QStringLiteral("PRAGMA journal_mode=WAL")) && q.next())) {
        if (!isBusy(q.lastError()) || waited.elapsed() > ResultSchema::busyTimeoutMs)
            return false;
        q.finish();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
}

} // namespace

ResultSchema::ResultSchema(QString connection) : m_connection(std::move(connection)) {}

QString ResultSchema::sqlReason(const QSqlError &error)
{
    const QString code = error.nativeErrorCode();
    if (code == u"5" || code == u"6" || error.text().contains(QStringLiteral("locked")))
        return QStringLiteral("the database is locked by another program (waited %1 s): close "
                              "it (an sqlite3 shell, another ServeLab writing) and try again, or "
                              "choose another database with --db")
            .arg(busyTimeoutMs / 1000);
    return error.text();
}

int ResultSchema::version() const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    return q.exec(QStringLiteral("PRAGMA user_version")) && q.next() ? q.value(0).toInt() : -1;
}

QString ResultSchema::refusal() const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    // A file that is not SQLite, or a damaged one, is refused and left as it is.
    if (!q.exec(QStringLiteral("PRAGMA quick_check")) || !q.next())
        return QStringLiteral("not a readable SQLite database (%1); move it away or choose "
                              "another with --db")
            .arg(sqlReason(q.lastError()));
    if (const QString check = q.value(0).toString(); check != u"ok")
        return QStringLiteral("the database is damaged (%1); move it away or choose another "
                              "with --db")
            .arg(check);
    // The version and the tables read in one snapshot: another ServeLab may be creating this
    // database right now, and its first schema must not look like "something else".
    q.exec(QStringLiteral("BEGIN"));
    const int current = version();
    const bool hasTables = q.exec(QStringLiteral("SELECT count(*) FROM sqlite_master")) &&
                           q.next() && q.value(0).toInt() > 0;
    q.exec(QStringLiteral("COMMIT"));
    if (current > schemaVersion)
        return QStringLiteral("written by a newer ServeLab (schema %1, this one knows %2); "
                              "open it with that version")
            .arg(current)
            .arg(schemaVersion);
    if (current == 0 && hasTables)
        return QStringLiteral("an SQLite database of something else; choose another with --db");
    // Checked before anything is written (WAL changes the file's header): one that claims
    // a version but lacks its tables is left as it is.
    if (const QString missing = missingColumns(current); current > 0 && !missing.isEmpty())
        return QStringLiteral("its tables are not the ones this ServeLab writes (%1); move it "
                              "away or choose another with --db")
            .arg(missing);
    return {};
}

bool ResultSchema::prepare(QString *error)
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    if (!switchToWal(q)) {
        *error = QStringLiteral("cannot switch to WAL: %1").arg(sqlReason(q.lastError()));
        return false;
    }
    q.exec(QStringLiteral("PRAGMA foreign_keys=ON"));
    q.exec(QStringLiteral("PRAGMA synchronous=NORMAL")); // WAL: durable at checkpoints, never torn
    return migrate(error) && addMissingColumns(error);
}

// What the current schema's tables must have: a database that claims the version but lacks
// them (written by a build between releases, or edited by hand) is refused, not half-used.
QString ResultSchema::missingColumns(int version) const
{
    // Since schema 1, but for the columns of later schemas, listed apart.
    static const QList<QPair<QString, QStringList>> expected = {
        {QStringLiteral("experiments"),
         {QStringLiteral("id"), QStringLiteral("name"), QStringLiteral("spec"),
          QStringLiteral("machine"), QStringLiteral("status"), QStringLiteral("started_at"),
          QStringLiteral("finished_at"), QStringLiteral("owner_pid"),
          QStringLiteral("owner_start")}},
        {QStringLiteral("points"),
         {QStringLiteral("repetition"), QStringLiteral("latency_hdr"),
          QStringLiteral("server_counted"), QStringLiteral("handoff_wait_us"),
          QStringLiteral("started_at_us")}},
        {QStringLiteral("server_samples"), {QStringLiteral("total"), QStringLiteral("by_type")}},
        {QStringLiteral("client_samples"), {QStringLiteral("latency_hdr")}},
        {QStringLiteral("point_errors"), {QStringLiteral("kind"), QStringLiteral("count")}},
    };
    static const QList<QPair<QString, QStringList>> since2 = {
        {QStringLiteral("points"), {QStringLiteral("model"), QStringLiteral("uncorrected_hdr")}},
    };
    static const QList<QPair<QString, QStringList>> since3 = {
        {QStringLiteral("server_samples"), {QStringLiteral("processes"), QStringLiteral("parts")}},
    };
    static const QList<QPair<QString, QStringList>> since4 = {
        {QStringLiteral("tune_events"),
         {QStringLiteral("point_id"), QStringLiteral("at_us"), QStringLiteral("change"),
          QStringLiteral("error")}},
    };
    static const QList<QPair<QString, QStringList>> since6 = {
        {QStringLiteral("points"),
         {QStringLiteral("verdict"), QStringLiteral("server_user_us"),
          QStringLiteral("client_busy_threads")}},
    };
    static const QList<QPair<QString, QStringList>> since7 = {
        {QStringLiteral("points"),
         {QStringLiteral("profile_requested"), QStringLiteral("profile_on_cpu"),
          QStringLiteral("profile_unprofiled_rps")}},
    };
    const QList<QPair<QString, QStringList>> none;
    QSqlQuery q(QSqlDatabase::database(m_connection));
    for (const auto &[table, columns] :
         expected + (version >= 2 ? since2 : none) + (version >= 3 ? since3 : none) +
             (version >= 4 ? since4 : none) + (version >= 6 ? since6 : none) +
             (version >= 7 ? since7 : none)) {
        QStringList have;
        if (q.exec(QStringLiteral("PRAGMA table_info(%1)").arg(table)))
            while (q.next())
                have << q.value(1).toString();
        for (const QString &column : columns)
            if (!have.contains(column))
                return QStringLiteral("%1.%2 is missing").arg(table, column);
    }
    return {};
}

// Under the write lock, from the version read under it: two programs opening a new database
// at once (a sweep creating it, the window opening it) migrate it once, the second finding it
// done. All steps in one transaction, so that a database is at its old schema or the new one.
bool ResultSchema::migrate(QString *error)
{
    if (version() >= schemaVersion)
        return true;
    QSqlQuery q(QSqlDatabase::database(m_connection));
    const auto failed = [&](const QString &what, const QSqlError &why) {
        *error = QStringLiteral("%1: %2").arg(what, sqlReason(why));
        q.exec(QStringLiteral("ROLLBACK"));
        return false;
    };
    if (!q.exec(QStringLiteral("BEGIN IMMEDIATE")))
        return failed(QStringLiteral("cannot migrate"), q.lastError());
    for (int v = version(); v < schemaVersion; ++v) {
        const QString step = QStringLiteral("migration to schema %1 failed").arg(v + 1);
        for (const QString &statement : resultMigrations()[v])
            if (!q.exec(statement))
                return failed(step, q.lastError());
        if (!q.exec(QStringLiteral("PRAGMA user_version = %1").arg(v + 1)))
            return failed(step, q.lastError());
    }
    if (!q.exec(QStringLiteral("COMMIT")))
        return failed(QStringLiteral("migration failed"), q.lastError());
    return true;
}

// The columns of ResultColumns' rows that this database lacks, added empty (NULL, which the
// rows read as 0 or "unknown"): a figure added to the table needs no migration of its own. Under
// the write lock, in one transaction, as migrate() is; a ServeLab that predates a column
// neither reads nor writes it.
bool ResultSchema::addMissingColumns(QString *error)
{
    const QList<QPair<QString, QStringList>> tables = {
        {QStringLiteral("points"), ResultColumns::sqlNames(ResultColumns::point())},
        {QStringLiteral("client_samples"), ResultColumns::sqlNames(ResultColumns::clientSample())},
        {QStringLiteral("server_samples"), ResultColumns::sqlNames(ResultColumns::serverSample())},
    };
    QSqlQuery q(QSqlDatabase::database(m_connection));
    const auto missing = [&](const QString &table, const QStringList &columns) {
        QStringList have;
        if (q.exec(QStringLiteral("PRAGMA table_info(%1)").arg(table)))
            while (q.next())
                have << q.value(1).toString();
        QStringList out;
        for (const QString &column : columns)
            if (!have.contains(column))
                out << column;
        return out;
    };
    bool any = false;
    for (const auto &[table, columns] : tables)
        any = any || !missing(table, columns).isEmpty();
    if (!any)
        return true; // the usual case: nothing locked, nothing written
    const auto failed = [&](const QSqlError &why) {
        *error = QStringLiteral("cannot add the new columns: %1").arg(sqlReason(why));
        q.exec(QStringLiteral("ROLLBACK"));
        return false;
    };
    if (!q.exec(QStringLiteral("BEGIN IMMEDIATE")))
        return failed(q.lastError());
    for (const auto &[table, columns] : tables) // again, under the lock: another may have
        for (const QString &column : missing(table, columns))
            if (!q.exec(QStringLiteral("ALTER TABLE %1 ADD COLUMN %2").arg(table, column)))
                return failed(q.lastError());
    if (!q.exec(QStringLiteral("COMMIT")))
        return failed(q.lastError());
    return true;
}

} // namespace servelab::lab
