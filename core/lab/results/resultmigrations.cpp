// SPDX-License-Identifier: Apache-2.0
#include "resultmigrations.h"

namespace servelab::lab {

namespace {

// A point's ResourceUse figure (schema 6): -1 where it was not read, as in points kept before.
QString useColumn(const char *name)
{
    return QStringLiteral("ALTER TABLE points ADD COLUMN %1 INTEGER NOT NULL DEFAULT -1")
        .arg(QLatin1StringView(name));
}

} // namespace

// Schema migrations: entry i takes a database from version i to i + 1.
const QList<QStringList> &resultMigrations()
{
    static const QList<QStringList> steps = {
        {
            QStringLiteral("CREATE TABLE experiments ("
                           " id INTEGER PRIMARY KEY,"
                           " name TEXT NOT NULL,"
                           " spec TEXT NOT NULL,"
                           " machine TEXT NOT NULL,"
                           " status TEXT NOT NULL CHECK (status IN ('running', 'done', "
                           "'cancelled', 'interrupted', 'failed')),"
                           " started_at TEXT NOT NULL,"
                           " finished_at TEXT,"
                           " owner_pid INTEGER NOT NULL,"
                           " owner_start TEXT NOT NULL)"),
            QStringLiteral("CREATE TABLE points ("
                           " id INTEGER PRIMARY KEY,"
                           " experiment_id INTEGER NOT NULL REFERENCES experiments(id) ON DELETE "
                           "CASCADE,"
                           " idx INTEGER NOT NULL,"
                           " repetition INTEGER NOT NULL,"
                           " target TEXT NOT NULL,"
                           " size_bytes INTEGER NOT NULL,"
                           " dnf INTEGER NOT NULL,"
                           " reason TEXT NOT NULL,"
                           " concurrency INTEGER NOT NULL,"
                           " completed INTEGER NOT NULL, ok INTEGER NOT NULL,"
                           " unfinished INTEGER NOT NULL, connects INTEGER NOT NULL,"
                           " bytes_read INTEGER NOT NULL, body_bytes INTEGER NOT NULL,"
                           " elapsed_us INTEGER NOT NULL,"
                           " kib_per_s REAL NOT NULL, requests_per_s REAL NOT NULL,"
                           " latency_min_us INTEGER NOT NULL, latency_max_us INTEGER NOT NULL,"
                           " latency_sum REAL NOT NULL, latency_sum_squares REAL NOT NULL,"
                           " latency_hdr TEXT NOT NULL,"
                           " fds_left_open TEXT NOT NULL,"
                           " server_counted INTEGER NOT NULL, server_requests INTEGER NOT NULL,"
                           " server_emfile INTEGER NOT NULL, handoffs INTEGER NOT NULL,"
                           " handoff_wait_us INTEGER NOT NULL,"
                           " started_at_us INTEGER NOT NULL)"),
            QStringLiteral("CREATE INDEX points_by_experiment ON points(experiment_id, idx)"),
            QStringLiteral("CREATE TABLE point_errors ("
                           " point_id INTEGER NOT NULL REFERENCES points(id) ON DELETE CASCADE,"
                           " kind TEXT NOT NULL, count INTEGER NOT NULL)"),
            QStringLiteral("CREATE TABLE client_samples ("
                           " point_id INTEGER NOT NULL REFERENCES points(id) ON DELETE CASCADE,"
                           " end_us INTEGER NOT NULL, interval_us INTEGER NOT NULL,"
                           " completed INTEGER NOT NULL, ok INTEGER NOT NULL,"
                           " failed INTEGER NOT NULL, bytes_read INTEGER NOT NULL,"
                           " open_connections INTEGER NOT NULL, latency_hdr TEXT NOT NULL)"),
            QStringLiteral("CREATE TABLE server_samples ("
                           " point_id INTEGER NOT NULL REFERENCES points(id) ON DELETE CASCADE,"
                           " at_us INTEGER NOT NULL, alive INTEGER NOT NULL,"
                           " total INTEGER NOT NULL, by_type INTEGER NOT NULL,"
                           " sockets INTEGER NOT NULL, files INTEGER NOT NULL,"
                           " pipes INTEGER NOT NULL, anon_inodes INTEGER NOT NULL,"
                           " other INTEGER NOT NULL, fd_limit INTEGER NOT NULL,"
                           " threads INTEGER NOT NULL, rss_bytes INTEGER NOT NULL,"
                           " user_s REAL NOT NULL, system_s REAL NOT NULL)"),
            QStringLiteral("CREATE INDEX client_samples_by_point ON client_samples(point_id)"),
            QStringLiteral("CREATE INDEX server_samples_by_point ON server_samples(point_id)"),
        },
        // 2: every client model in experiments. A point's model (those kept before read their
        // experiment's spec), a rate point's offered rate, late requests, missed slots and
        // uncorrected latency, a ramp point's requests outside the steady state and checks.
        {
            QStringLiteral("ALTER TABLE points ADD COLUMN model TEXT NOT NULL DEFAULT 'closed'"),
            QStringLiteral("UPDATE points SET model = COALESCE((SELECT json_extract(e.spec, "
                           "'$.client.model') FROM experiments e WHERE e.id = "
                           "points.experiment_id), 'closed')"),
            QStringLiteral("ALTER TABLE points ADD COLUMN offered_per_s REAL NOT NULL DEFAULT 0"),
            QStringLiteral("ALTER TABLE points ADD COLUMN late INTEGER NOT NULL DEFAULT 0"),
            QStringLiteral("ALTER TABLE points ADD COLUMN missed INTEGER NOT NULL DEFAULT 0"),
            QStringLiteral("ALTER TABLE points ADD COLUMN uncorrected_min_us INTEGER NOT NULL "
                           "DEFAULT 0"),
            QStringLiteral("ALTER TABLE points ADD COLUMN uncorrected_max_us INTEGER NOT NULL "
                           "DEFAULT 0"),
            QStringLiteral("ALTER TABLE points ADD COLUMN uncorrected_sum REAL NOT NULL DEFAULT 0"),
            QStringLiteral("ALTER TABLE points ADD COLUMN uncorrected_sum_squares REAL NOT NULL "
                           "DEFAULT 0"),
            QStringLiteral(
                "ALTER TABLE points ADD COLUMN uncorrected_hdr TEXT NOT NULL DEFAULT ''"),
            QStringLiteral("ALTER TABLE points ADD COLUMN outside_steady INTEGER NOT NULL "
                           "DEFAULT 0"),
            QStringLiteral("ALTER TABLE points ADD COLUMN little_users REAL NOT NULL DEFAULT 0"),
            QStringLiteral("ALTER TABLE points ADD COLUMN little_pass INTEGER NOT NULL DEFAULT 0"),
            QStringLiteral("ALTER TABLE points ADD COLUMN think_target_ms REAL NOT NULL "
                           "DEFAULT 0"),
            QStringLiteral("ALTER TABLE points ADD COLUMN think_actual_ms REAL NOT NULL "
                           "DEFAULT 0"),
            QStringLiteral("ALTER TABLE points ADD COLUMN think_pass INTEGER NOT NULL DEFAULT 0"),
        },
        // 3: servers of several processes: how many a sample summed, and each one's figures.
        {
            QStringLiteral("ALTER TABLE server_samples ADD COLUMN processes INTEGER NOT NULL "
                           "DEFAULT 1"),
            QStringLiteral("ALTER TABLE server_samples ADD COLUMN parts TEXT NOT NULL "
                           "DEFAULT '[]'"),
        },
        // 4: changes made to the server while a point ran (live tuning), its timelines' markers.
        {
            QStringLiteral("CREATE TABLE tune_events ("
                           " point_id INTEGER NOT NULL REFERENCES points(id) ON DELETE CASCADE,"
                           " at_us INTEGER NOT NULL," // from the point's start
                           " change TEXT NOT NULL,"
                           " error TEXT NOT NULL)"), // empty: made
            QStringLiteral("CREATE INDEX tune_events_by_point ON tune_events(point_id)"),
        },
        // 5: https: each point's handshakes, resumed ones, and their latency histogram.
        {
            QStringLiteral("ALTER TABLE points ADD COLUMN tls_handshakes INTEGER NOT NULL "
                           "DEFAULT 0"),
            QStringLiteral("ALTER TABLE points ADD COLUMN tls_resumed INTEGER NOT NULL DEFAULT 0"),
            QStringLiteral("ALTER TABLE points ADD COLUMN tls_min_us INTEGER NOT NULL DEFAULT 0"),
            QStringLiteral("ALTER TABLE points ADD COLUMN tls_max_us INTEGER NOT NULL DEFAULT 0"),
            QStringLiteral("ALTER TABLE points ADD COLUMN tls_sum REAL NOT NULL DEFAULT 0"),
            QStringLiteral("ALTER TABLE points ADD COLUMN tls_sum_squares REAL NOT NULL "
                           "DEFAULT 0"),
            QStringLiteral("ALTER TABLE points ADD COLUMN tls_hdr TEXT NOT NULL DEFAULT ''"),
        },
        // 6: what each point cost the machine (server and client; -1: not read) and what
        // limited it.
        {
            QStringLiteral("ALTER TABLE points ADD COLUMN client_threads INTEGER NOT NULL "
                           "DEFAULT 0"),
            QStringLiteral("ALTER TABLE points ADD COLUMN cost_note TEXT NOT NULL DEFAULT ''"),
            QStringLiteral("ALTER TABLE points ADD COLUMN verdict TEXT NOT NULL DEFAULT ''"),
            QStringLiteral("ALTER TABLE points ADD COLUMN verdict_why TEXT NOT NULL DEFAULT ''"),
            useColumn("server_user_us"),
            useColumn("server_system_us"),
            useColumn("server_voluntary_switches"),
            useColumn("server_involuntary_switches"),
            useColumn("server_minor_faults"),
            useColumn("server_major_faults"),
            useColumn("server_disk_read_bytes"),
            useColumn("server_syscalls"),
            useColumn("server_busy_threads"),
            useColumn("client_user_us"),
            useColumn("client_system_us"),
            useColumn("client_voluntary_switches"),
            useColumn("client_involuntary_switches"),
            useColumn("client_minor_faults"),
            useColumn("client_major_faults"),
            useColumn("client_disk_read_bytes"),
            useColumn("client_syscalls"),
            useColumn("client_busy_threads"),
        },
        // 7: a point's perf profile, when the spec asked for one.
        {
            QStringLiteral("ALTER TABLE points ADD COLUMN profile_requested INTEGER NOT NULL "
                           "DEFAULT 0"),
            QStringLiteral("ALTER TABLE points ADD COLUMN profile_note TEXT NOT NULL DEFAULT ''"),
            QStringLiteral("ALTER TABLE points ADD COLUMN profile_on_cpu TEXT NOT NULL "
                           "DEFAULT ''"),
            QStringLiteral("ALTER TABLE points ADD COLUMN profile_off_cpu TEXT NOT NULL "
                           "DEFAULT ''"),
            QStringLiteral("ALTER TABLE points ADD COLUMN profile_perf_data TEXT NOT NULL "
                           "DEFAULT ''"),
            QStringLiteral("ALTER TABLE points ADD COLUMN profile_rps REAL NOT NULL DEFAULT 0"),
            QStringLiteral("ALTER TABLE points ADD COLUMN profile_unprofiled_rps REAL NOT NULL "
                           "DEFAULT 0"),
        },
        // 7 -> 8: distributed points (run --hosts), their load agents' parts.
        {
            QStringLiteral("ALTER TABLE points ADD COLUMN agents TEXT NOT NULL DEFAULT '[]'"),
            QStringLiteral("ALTER TABLE points ADD COLUMN start_skew_us INTEGER NOT NULL "
                           "DEFAULT 0"),
        },
        // 8 -> 9: the time each side waited for a CPU (what it wanted beyond what it ran).
        {
            useColumn("server_wait_us"),
            useColumn("client_wait_us"),
        },
    };
    return steps;
}

} // namespace servelab::lab
