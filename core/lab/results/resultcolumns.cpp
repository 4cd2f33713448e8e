// SPDX-License-Identifier: Apache-2.0
#include "resultcolumns.h"

#include "lab/spec/sizelist.h"
#include "tuneevent.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>

#include <algorithm>
#include <utility>
#include <vector>

namespace servelab::lab {

namespace {

// Counters leave as qint64: a bundle's JSON keeps those exactly (a quint64 would become a
// double), and SQLite's INTEGER is signed.
template<typename N>
QVariant whole(N n)
{
    return QVariant(qint64(n));
}

// Qt binds a null QString as SQL NULL; the text columns are NOT NULL.
QVariant text(const QString &s)
{
    return QVariant(s.isNull() ? QStringLiteral("") : s);
}

using client::ClientSample;
using metrics::ProcessSample;

// A server of several processes: each one's figures, as a JSON array (text in the database).
QVariant partsOf(const ProcessSample &s)
{
    QJsonArray parts;
    for (const auto &p : s.parts)
        parts.append(QJsonObject{{QStringLiteral("pid"), qint64(p.pid)},
                                 {QStringLiteral("fds"), p.fds},
                                 {QStringLiteral("threads"), p.threads},
                                 {QStringLiteral("rss_bytes"), qint64(p.rssBytes)},
                                 {QStringLiteral("cpu_s"), p.cpuSeconds}});
    return QVariant(parts);
}

// A JSON array column: a QJsonArray to write (text in the database), text or an array to read.
QJsonArray arrayOf(const QVariant &v)
{
    return v.typeId() == QMetaType::QString ? QJsonDocument::fromJson(v.toString().toUtf8()).array()
                                            : v.toJsonArray();
}

// A distributed point's agents (AgentLane), an empty array for any other.
QVariant agentsOf(const PointResult &p)
{
    return QVariant(AgentLane::toJson(p.agents));
}

void setAgents(PointResult *p, const QVariant &v)
{
    p->agents = AgentLane::fromJson(arrayOf(v));
}

void setParts(ProcessSample *s, const QVariant &v)
{
    const QJsonArray parts = arrayOf(v);
    s->parts.clear();
    for (const QJsonValue &value : parts) {
        const QJsonObject o = value.toObject();
        s->parts.push_back({pid_t(o.value(QStringLiteral("pid")).toInteger()),
                            o.value(QStringLiteral("fds")).toInt(),
                            o.value(QStringLiteral("threads")).toInt(),
                            o.value(QStringLiteral("rss_bytes")).toInteger(),
                            o.value(QStringLiteral("cpu_s")).toDouble()});
    }
}

using M = ResultMerge;

bool isRate(const PointResult &p)
{
    return p.model == client::LoadModel::Rate;
}
bool isRamp(const PointResult &p)
{
    return p.model == client::LoadModel::Ramp;
}
bool madeTls(const PointResult &p)
{
    return p.load.tlsTimes.count() > 0;
}
bool hasUncorrected(const PointResult &p)
{
    return p.uncorrected.count() > 0;
}

// A latency of a histogram in ms, as runs.csv gives it (3 decimals).
QVariant ms(double micros)
{
    return QVariant(micros / 1000.0);
}

// clang-format off
// The point's rows, in runs.csv's order up to its verdict (rows without a csv name sit where
// they read best); the cost per request, the ResourceUse and server counter rows and
// tailColumns follow.
const ResultColumn<PointResult> pointColumns[] = {
    {"size_bytes", "size_bytes",
     [](const PointResult &p) { return whole(p.sizeBytes); },
     [](PointResult *p, const QVariant &v) { p->sizeBytes = v.toULongLong(); }, "size_bytes"},
    {nullptr, nullptr, [](const PointResult &p) { return QVariant(formatSize(p.sizeBytes)); }, nullptr, "size"},
    {"target", "target",
     [](const PointResult &p) { return text(p.target); },
     [](PointResult *p, const QVariant &v) { p->target = v.toString(); }, "target"},
    // What the client and the server spoke (a point kept before HTTP/2 reads http/1.1).
    {"protocol", "protocol",
     [](const PointResult &p) { return text(p.protocol); },
     [](PointResult *p, const QVariant &v) {
         p->protocol = v.toString().isEmpty() ? QStringLiteral("http/1.1") : v.toString(); },
     "protocol"},
    {"dnf", "dnf",
     [](const PointResult &p) { return QVariant(p.dnf); },
     [](PointResult *p, const QVariant &v) { p->dnf = v.toBool(); }},
    {nullptr, nullptr,
     [](const PointResult &p) { return QVariant(p.dnf ? QStringLiteral("dnf") : QStringLiteral("ok")); },
     nullptr, "status"},
    {"idx", "index",
     [](const PointResult &p) { return QVariant(p.index); },
     [](PointResult *p, const QVariant &v) { p->index = v.toInt(); }},
    {"repetition", "repetition",
     [](const PointResult &p) { return QVariant(p.repetition); },
     [](PointResult *p, const QVariant &v) { p->repetition = v.toInt(); }},
    {nullptr, nullptr, [](const PointResult &p) { return QVariant(p.repetition + 1); }, nullptr, "repetition"},
    {"concurrency", "concurrency",
     [](const PointResult &p) { return QVariant(p.load.concurrency); },
     [](PointResult *p, const QVariant &v) { p->load.concurrency = v.isValid() ? v.toInt() : 1; },
     "concurrency", nullptr, M::None, M::Sum},
    // HTTP/2: requests in flight per connection (concurrency / streams connections).
    {"streams", "streams",
     [](const PointResult &p) { return QVariant(p.load.streams); },
     [](PointResult *p, const QVariant &v) { p->load.streams = v.isValid() && v.toInt() > 0 ? v.toInt() : 1; },
     "streams"},
    {"completed", "completed",
     [](const PointResult &p) { return whole(p.load.completed); },
     [](PointResult *p, const QVariant &v) { p->load.completed = v.toULongLong(); },
     "completed", nullptr, M::None, M::Sum},
    {"ok", "ok",
     [](const PointResult &p) { return whole(p.load.ok); },
     [](PointResult *p, const QVariant &v) { p->load.ok = v.toULongLong(); },
     "ok", nullptr, M::None, M::Sum},
    {nullptr, nullptr, [](const PointResult &p) { return whole(p.load.failed()); }, nullptr, "failed"},
    {"unfinished", "unfinished",
     [](const PointResult &p) { return whole(p.load.unfinished); },
     [](PointResult *p, const QVariant &v) { p->load.unfinished = v.toULongLong(); },
     nullptr, nullptr, M::None, M::Sum},
    {"connects", "connects",
     [](const PointResult &p) { return whole(p.load.connects); },
     [](PointResult *p, const QVariant &v) { p->load.connects = v.toULongLong(); },
     nullptr, nullptr, M::None, M::Sum},
    {"bytes_read", "bytes_read",
     [](const PointResult &p) { return whole(p.load.bytesRead); },
     [](PointResult *p, const QVariant &v) { p->load.bytesRead = v.toULongLong(); },
     "bytes_read", nullptr, M::None, M::Sum},
    {"body_bytes", "body_bytes",
     [](const PointResult &p) { return whole(p.load.bodyBytes); },
     [](PointResult *p, const QVariant &v) { p->load.bodyBytes = v.toULongLong(); },
     "body_bytes", nullptr, M::None, M::Sum},
    // The agents run side by side: the point lasts as long as the longest share.
    {"elapsed_us", "elapsed_us",
     [](const PointResult &p) { return whole(p.load.elapsedMicros); },
     [](PointResult *p, const QVariant &v) { p->load.elapsedMicros = v.toLongLong(); },
     nullptr, nullptr, M::None, M::Max},
    {nullptr, nullptr, [](const PointResult &p) { return QVariant(p.load.elapsedSeconds()); },
     nullptr, "elapsed_s", nullptr, M::None, M::None, 6},
    {"requests_per_s", nullptr,
     [](const PointResult &p) { return QVariant(p.load.requestsPerSecond()); }, nullptr,
     "requests_per_s", nullptr, M::None, M::None, 2},
    {"kib_per_s", "kib_per_s",
     [](const PointResult &p) { return QVariant(p.kibPerSecond()); }, nullptr,
     "kib_per_s", [](const PointResult &p) { return !p.dnf; }, M::None, M::None, 2},
    {nullptr, nullptr, [](const PointResult &p) { return ms(p.load.latency.mean()); }, nullptr,
     "latency_mean_ms", nullptr, M::None, M::None, 3},
    {nullptr, nullptr, [](const PointResult &p) { return ms(double(p.load.latency.valueAtPercentile(50))); }, nullptr,
     "latency_p50_ms", nullptr, M::None, M::None, 3},
    {nullptr, nullptr, [](const PointResult &p) { return ms(double(p.load.latency.valueAtPercentile(90))); }, nullptr,
     "latency_p90_ms", nullptr, M::None, M::None, 3},
    {nullptr, nullptr, [](const PointResult &p) { return ms(double(p.load.latency.valueAtPercentile(99))); }, nullptr,
     "latency_p99_ms", nullptr, M::None, M::None, 3},
    {nullptr, nullptr, [](const PointResult &p) { return ms(double(p.load.latency.max())); }, nullptr,
     "latency_max_ms", nullptr, M::None, M::None, 3},
    // The client model by name (a point kept before schema 2 reads its experiment's).
    {"model", "model",
     [](const PointResult &p) { return QVariant(QString::fromLatin1(client::loadModelName(p.model))); },
     [](PointResult *p, const QVariant &v) {
         p->model = client::parseLoadModel(v.toString().toStdString()).value_or(client::LoadModel::Closed); },
     "model"},
    // rate (wrk2): latency above is from the intended send time; uncorrected from the actual
    // send. Each agent offers its share of the rate.
    {"offered_per_s", "offered_per_s",
     [](const PointResult &p) { return QVariant(p.offeredPerSecond); },
     [](PointResult *p, const QVariant &v) { p->offeredPerSecond = v.toDouble(); },
     "offered_per_s", isRate, M::Max, M::Sum, 2},
    {"late", "late",
     [](const PointResult &p) { return whole(p.late); },
     [](PointResult *p, const QVariant &v) { p->late = v.toULongLong(); },
     "late", isRate, M::Sum, M::Sum},
    {"missed", "missed",
     [](const PointResult &p) { return whole(p.missed); },
     [](PointResult *p, const QVariant &v) { p->missed = v.toULongLong(); },
     "missed", isRate, M::Sum, M::Sum},
    {nullptr, nullptr, [](const PointResult &p) { return ms(double(p.uncorrected.valueAtPercentile(50))); }, nullptr,
     "uncorrected_p50_ms", hasUncorrected, M::None, M::None, 3},
    {nullptr, nullptr, [](const PointResult &p) { return ms(double(p.uncorrected.valueAtPercentile(99))); }, nullptr,
     "uncorrected_p99_ms", hasUncorrected, M::None, M::None, 3},
    // https: the handshakes the point made, the resumed ones, and how long they took.
    {"tls_handshakes", "tls_handshakes",
     [](const PointResult &p) { return whole(p.load.tlsHandshakes); },
     [](PointResult *p, const QVariant &v) { p->load.tlsHandshakes = v.toULongLong(); },
     "tls_handshakes", madeTls, M::Sum, M::Sum},
    {"tls_resumed", "tls_resumed",
     [](const PointResult &p) { return whole(p.load.tlsResumed); },
     [](PointResult *p, const QVariant &v) { p->load.tlsResumed = v.toULongLong(); },
     "tls_resumed", madeTls, M::Sum, M::Sum},
    {nullptr, nullptr, [](const PointResult &p) { return ms(double(p.load.tlsTimes.valueAtPercentile(50))); }, nullptr,
     "tls_p50_ms", madeTls, M::None, M::None, 3},
    {nullptr, nullptr, [](const PointResult &p) { return ms(double(p.load.tlsTimes.valueAtPercentile(99))); }, nullptr,
     "tls_p99_ms", madeTls, M::None, M::None, 3},
    // ramp (faban): the steady state's figures above; these its checks.
    {"outside_steady", "outside_steady",
     [](const PointResult &p) { return whole(p.outsideSteady); },
     [](PointResult *p, const QVariant &v) { p->outsideSteady = v.toULongLong(); },
     "outside_steady", isRamp, M::Sum, M::Sum},
    {"little_users", "little_users",
     [](const PointResult &p) { return QVariant(p.littleUsers); },
     [](PointResult *p, const QVariant &v) { p->littleUsers = v.toDouble(); },
     "little_users", isRamp, M::Mean, M::Sum, 2},
    {"little_pass", "little_pass",
     [](const PointResult &p) { return QVariant(p.littlePass); },
     [](PointResult *p, const QVariant &v) { p->littlePass = v.toBool(); },
     "little_pass", isRamp, M::All, M::All},
    {"think_target_ms", "think_target_ms",
     [](const PointResult &p) { return QVariant(p.thinkTargetMs); },
     [](PointResult *p, const QVariant &v) { p->thinkTargetMs = v.toDouble(); },
     "think_target_ms", isRamp, M::Max, M::Max, 3},
    {"think_actual_ms", "think_actual_ms",
     [](const PointResult &p) { return QVariant(p.thinkActualMs); },
     [](PointResult *p, const QVariant &v) { p->thinkActualMs = v.toDouble(); },
     "think_actual_ms", isRamp, M::MeanByRequests, M::MeanByRequests, 3},
    {"think_pass", "think_pass",
     [](const PointResult &p) { return QVariant(p.thinkPass); },
     [](PointResult *p, const QVariant &v) { p->thinkPass = v.toBool(); },
     "think_pass", isRamp, M::All, M::All},
    // What limited the point; its cost per request follows in runs.csv (PointCost's rows).
    {"verdict", "verdict",
     [](const PointResult &p) { return text(p.verdict); },
     [](PointResult *p, const QVariant &v) { p->verdict = v.toString(); }, "verdict"},
    {"verdict_why", "verdict_why",
     [](const PointResult &p) { return text(p.verdictWhy); },
     [](PointResult *p, const QVariant &v) { p->verdictWhy = v.toString(); }, "verdict_why"},
    // On the machine's monotonic clock: where the point sits in the run's timelines.
    {"started_at_us", "started_at_us",
     [](const PointResult &p) { return whole(p.startedAtMicros); },
     [](PointResult *p, const QVariant &v) { p->startedAtMicros = v.toLongLong(); }},
    {"server_counted", "server_counted",
     [](const PointResult &p) { return QVariant(p.serverCounted); },
     [](PointResult *p, const QVariant &v) { p->serverCounted = v.toBool(); }},
    // What the point cost (the server_* and client_* totals follow, one per ResourceUse field).
    {"client_threads", "client_threads",
     [](const PointResult &p) { return QVariant(p.load.clientThreads); },
     [](PointResult *p, const QVariant &v) { p->load.clientThreads = v.toInt(); },
     nullptr, nullptr, M::None, M::Sum},
    // Its perf profile (PointProfile): the stacks as folded text.
    {"profile_requested", "profile_requested",
     [](const PointResult &p) { return QVariant(p.profile.requested); },
     [](PointResult *p, const QVariant &v) { p->profile.requested = v.toBool(); }},
    {"profile_note", "profile_note",
     [](const PointResult &p) { return text(p.profile.note); },
     [](PointResult *p, const QVariant &v) { p->profile.note = v.toString(); }},
    {"profile_on_cpu", "profile_on_cpu",
     [](const PointResult &p) { return text(p.profile.onCpu); },
     [](PointResult *p, const QVariant &v) { p->profile.onCpu = v.toString(); }},
    {"profile_off_cpu", "profile_off_cpu",
     [](const PointResult &p) { return text(p.profile.offCpu); },
     [](PointResult *p, const QVariant &v) { p->profile.offCpu = v.toString(); }},
    {"profile_perf_data", "profile_perf_data",
     [](const PointResult &p) { return text(p.profile.perfData); },
     [](PointResult *p, const QVariant &v) { p->profile.perfData = v.toString(); }},
    {"profile_rps", "profile_rps",
     [](const PointResult &p) { return QVariant(p.profile.requestsPerSecond); },
     [](PointResult *p, const QVariant &v) { p->profile.requestsPerSecond = v.toDouble(); }},
    {"profile_unprofiled_rps", "profile_unprofiled_rps",
     [](const PointResult &p) { return QVariant(p.profile.unprofiledRequestsPerSecond); },
     [](PointResult *p, const QVariant &v) {
         p->profile.unprofiledRequestsPerSecond = v.toDouble();
     }},
    // A distributed point (schema 8): each load agent's part, and how far apart they started.
    {"agents", "agents", agentsOf, setAgents},
    {"start_skew_us", "start_skew_us",
     [](const PointResult &p) { return whole(p.startSkewMicros); },
     [](PointResult *p, const QVariant &v) { p->startSkewMicros = v.toLongLong(); }},
};

// After the server's counters, the free text, last.
const ResultColumn<PointResult> tailColumns[] = {
    {"cost_note", "cost_note",
     [](const PointResult &p) { return text(p.costNote); },
     [](PointResult *p, const QVariant &v) { p->costNote = v.toString(); }, "cost_note"},
    {"reason", "reason",
     [](const PointResult &p) { return text(p.reason); },
     [](PointResult *p, const QVariant &v) { p->reason = v.toString(); }, "reason"},
    {nullptr, nullptr,
     [](const PointResult &p) { return QVariant(describeTuneEvents(p.tuneEvents, p.startedAtMicros)); },
     nullptr, "tune"},
};

const ResultColumn<ClientSample> clientSampleColumns[] = {
    {"end_us", "end_us",
     [](const ClientSample &s) { return whole(s.endMicros); },
     [](ClientSample *s, const QVariant &v) { s->endMicros = v.toLongLong(); }},
    {"interval_us", "interval_us",
     [](const ClientSample &s) { return whole(s.intervalMicros); },
     [](ClientSample *s, const QVariant &v) { s->intervalMicros = v.toLongLong(); }},
    {"completed", "completed",
     [](const ClientSample &s) { return whole(s.completed); },
     [](ClientSample *s, const QVariant &v) { s->completed = v.toULongLong(); }},
    {"ok", "ok",
     [](const ClientSample &s) { return whole(s.ok); },
     [](ClientSample *s, const QVariant &v) { s->ok = v.toULongLong(); }},
    {"failed", "failed",
     [](const ClientSample &s) { return whole(s.failed); },
     [](ClientSample *s, const QVariant &v) { s->failed = v.toULongLong(); }},
    {"bytes_read", "bytes_read",
     [](const ClientSample &s) { return whole(s.bytesRead); },
     [](ClientSample *s, const QVariant &v) { s->bytesRead = v.toULongLong(); }},
    {"open_connections", "open",
     [](const ClientSample &s) { return QVariant(s.openConnections); },
     [](ClientSample *s, const QVariant &v) { s->openConnections = v.toInt(); }},
};

const ResultColumn<ProcessSample> serverSampleColumns[] = {
    {"at_us", "at_us",
     [](const ProcessSample &s) { return whole(s.atMicros); },
     [](ProcessSample *s, const QVariant &v) { s->atMicros = v.toLongLong(); }},
    {"alive", "alive",
     [](const ProcessSample &s) { return QVariant(s.alive); },
     [](ProcessSample *s, const QVariant &v) { s->alive = v.toBool(); }},
    {"total", "total",
     [](const ProcessSample &s) { return QVariant(s.total); },
     [](ProcessSample *s, const QVariant &v) { s->total = v.toInt(); }},
    {"by_type", "by_type",
     [](const ProcessSample &s) { return QVariant(s.byType); },
     [](ProcessSample *s, const QVariant &v) { s->byType = v.toBool(); }},
    {"sockets", "sockets",
     [](const ProcessSample &s) { return QVariant(s.sockets); },
     [](ProcessSample *s, const QVariant &v) { s->sockets = v.toInt(); }},
    {"files", "files",
     [](const ProcessSample &s) { return QVariant(s.files); },
     [](ProcessSample *s, const QVariant &v) { s->files = v.toInt(); }},
    {"pipes", "pipes",
     [](const ProcessSample &s) { return QVariant(s.pipes); },
     [](ProcessSample *s, const QVariant &v) { s->pipes = v.toInt(); }},
    {"anon_inodes", "anon_inodes",
     [](const ProcessSample &s) { return QVariant(s.anonInodes); },
     [](ProcessSample *s, const QVariant &v) { s->anonInodes = v.toInt(); }},
    {"other", "other",
     [](const ProcessSample &s) { return QVariant(s.other); },
     [](ProcessSample *s, const QVariant &v) { s->other = v.toInt(); }},
    {"fd_limit", "fd_limit",
     [](const ProcessSample &s) { return QVariant(s.fdLimit); },
     [](ProcessSample *s, const QVariant &v) { s->fdLimit = v.isValid() ? v.toInt() : -1; }},
    {"threads", "threads",
     [](const ProcessSample &s) { return QVariant(s.threads); },
     [](ProcessSample *s, const QVariant &v) { s->threads = v.toInt(); }},
    {"rss_bytes", "rss_bytes",
     [](const ProcessSample &s) { return whole(s.rssBytes); },
     [](ProcessSample *s, const QVariant &v) { s->rssBytes = v.toLongLong(); }},
    {"user_s", "user_s",
     [](const ProcessSample &s) { return QVariant(s.userSeconds); },
     [](ProcessSample *s, const QVariant &v) { s->userSeconds = v.toDouble(); }},
    {"system_s", "system_s",
     [](const ProcessSample &s) { return QVariant(s.systemSeconds); },
     [](ProcessSample *s, const QVariant &v) { s->systemSeconds = v.toDouble(); }},
    {"processes", "processes",
     [](const ProcessSample &s) { return QVariant(s.processes); },
     [](ProcessSample *s, const QVariant &v) { s->processes = v.isNull() ? 1 : v.toInt(); }},
    {"parts", "parts", partsOf, setParts},
};
// clang-format on

// A counter of the server's (ServerStats' row F): "server_<key>" in the database, the bundle
// and runs.csv, blank there where the server's counters could not be read; the hand-off ones
// keep the unprefixed names schema 1 gave the first two. Over repetitions (results.csv): summed,
// but a maximum or a gauge (a value at the point's end, not a total) takes the larger.
template<std::size_t F>
ResultColumn<PointResult> serverColumn()
{
    static const QByteArray name = [] {
        const QByteArray key = server::serverStatsFields()[F].key;
        return key.startsWith("handoff") ? key : QByteArray("server_") + key;
    }();
    return {
        name.constData(),
        name.constData(),
        [](const PointResult &p) { return whole(p.server.*server::serverStatsFields()[F].total); },
        [](PointResult *p, const QVariant &v) {
            p->server.*server::serverStatsFields()[F].total = v.toULongLong();
        },
        name.constData(),
        [](const PointResult &p) { return p.serverCounted; },
        server::serverStatsFields()[F].isTotal() ? ResultMerge::Sum : ResultMerge::Max};
}

template<std::size_t... F>
void appendServerColumns(std::vector<ResultColumn<PointResult>> *out, std::index_sequence<F...>)
{
    (out->push_back(serverColumn<F>()), ...);
}

metrics::ResourceUse &useOf(PointResult &p, bool server)
{
    return server ? p.serverUse : p.load.clientUse;
}

// A ResourceUse figure of one side: "server_user_us", "client_syscalls", ...; -1 (unknown) in
// a point kept before they were.
template<bool Server, std::size_t F>
ResultColumn<PointResult> useColumn()
{
    static const QByteArray name =
        QByteArray(Server ? "server_" : "client_") + metrics::ResourceUse::fields[F].key;
    constexpr auto member = metrics::ResourceUse::fields[F].member;
    return {name.constData(), name.constData(),
            [](const PointResult &p) {
                return whole(useOf(const_cast<PointResult &>(p), Server).*member);
            },
            [](PointResult *p, const QVariant &v) {
                useOf(*p, Server).*member = v.isValid() && !v.isNull() ? v.toLongLong() : -1;
            },
            nullptr,
            [](const PointResult &p) {
                return useOf(const_cast<PointResult &>(p), Server).*member >= 0;
            },
            ResultMerge::None,
            // The agents' clients cost what they cost together; the server is one.
            Server ? ResultMerge::None : ResultMerge::Sum};
}

template<bool Server, std::size_t... F>
void appendUseColumns(std::vector<ResultColumn<PointResult>> *out, std::index_sequence<F...>)
{
    (out->push_back(useColumn<Server, F>()), ...);
}

} // namespace

std::span<const ResultColumn<PointResult>> ResultColumns::point()
{
    static const std::vector<ResultColumn<PointResult>> all = [] {
        std::vector<ResultColumn<PointResult>> out(std::begin(pointColumns),
                                                   std::end(pointColumns));
        constexpr auto fields = std::make_index_sequence<metrics::ResourceUse::fields.size()>();
        appendUseColumns<true>(&out, fields);
        appendUseColumns<false>(&out, fields);
        appendServerColumns(&out, std::make_index_sequence<server::serverStatsFieldCount>());
        out.insert(out.end(), std::begin(tailColumns), std::end(tailColumns));
        return out;
    }();
    return all;
}

std::size_t ResultColumns::csvCostAt()
{
    return std::size(pointColumns);
}

std::span<const ResultColumn<client::ClientSample>> ResultColumns::clientSample()
{
    return clientSampleColumns;
}

std::span<const ResultColumn<metrics::ProcessSample>> ResultColumns::serverSample()
{
    return serverSampleColumns;
}

template<typename T>
QStringList ResultColumns::sqlNames(std::span<const ResultColumn<T>> columns)
{
    QStringList out;
    for (const auto &c : columns)
        if (c.sql)
            out << QString::fromLatin1(c.sql);
    return out;
}

template<typename T>
QVariantList ResultColumns::sqlValues(std::span<const ResultColumn<T>> columns, const T &value)
{
    QVariantList out;
    for (const auto &c : columns)
        if (const QVariant v = c.get(value); !c.sql)
            continue;
        else if (v.typeId() == QMetaType::QJsonArray) // as JSON text
            out << QString::fromUtf8(QJsonDocument(v.toJsonArray()).toJson(QJsonDocument::Compact));
        else
            out << v;
    return out;
}

template<typename T>
void ResultColumns::fromSql(std::span<const ResultColumn<T>> columns, const QVariantList &row,
                            T *value)
{
    qsizetype i = 0;
    for (const auto &c : columns) {
        if (!c.sql)
            continue;
        if (c.set)
            c.set(value, row.value(i));
        ++i;
    }
}

template<typename T>
void ResultColumns::toJson(std::span<const ResultColumn<T>> columns, const T &value,
                           QJsonObject *out)
{
    for (const auto &c : columns)
        if (c.json)
            out->insert(QLatin1String(c.json), QJsonValue::fromVariant(c.get(value)));
}

template<typename T>
void ResultColumns::fromJson(std::span<const ResultColumn<T>> columns, const QJsonObject &in,
                             T *value)
{
    for (const auto &c : columns)
        if (c.json && c.set)
            c.set(value, in.value(QLatin1String(c.json)).toVariant());
}

#define SERVELAB_RESULT_COLUMNS(T)                                                                 \
    template QStringList ResultColumns::sqlNames<T>(std::span<const ResultColumn<T>>);             \
    template QVariantList ResultColumns::sqlValues<T>(std::span<const ResultColumn<T>>,            \
                                                      const T &);                                  \
    template void ResultColumns::fromSql<T>(std::span<const ResultColumn<T>>,                      \
                                            const QVariantList &, T *);                            \
    template void ResultColumns::toJson<T>(std::span<const ResultColumn<T>>, const T &,            \
                                           QJsonObject *);                                         \
    template void ResultColumns::fromJson<T>(std::span<const ResultColumn<T>>,                     \
                                             const QJsonObject &, T *);
SERVELAB_RESULT_COLUMNS(PointResult)
SERVELAB_RESULT_COLUMNS(client::ClientSample)
SERVELAB_RESULT_COLUMNS(metrics::ProcessSample)
#undef SERVELAB_RESULT_COLUMNS

} // namespace servelab::lab
