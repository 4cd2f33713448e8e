// SPDX-License-Identifier: Apache-2.0
#include "pointrun.h"

#include "client/closedclient.h"
#include "client/durationclient.h"
#include "client/rampclient.h"
#include "client/rateclient.h"
#include "lab/results/pointresult.h"
#include "lab/spec/sweepspec.h"

#include <array>

namespace servelab::lab {

namespace {

using client::ClientOptions;
using client::LoadModel;

// A client class of core/client/ as a PointClient: `take` moves its result into the point.
template<typename Client, typename Take>
class ClientPoint final : public PointClient
{
public:
    ClientPoint(std::unique_ptr<Client> client, Take take)
        : m_client(std::move(client)), m_take(take)
    {}
    void run(PointResult *point) override { m_take(m_client->run(), point); }
    void stop() override { m_client->stop(); }

private:
    std::unique_ptr<Client> m_client;
    Take m_take;
};

template<typename Client, typename Take>
std::unique_ptr<PointClient> pointOf(std::unique_ptr<Client> client, Take take)
{
    return std::make_unique<ClientPoint<Client, Take>>(std::move(client), take);
}

// The models that run for a time: only a cancel leaves their point unfinished.
QString cancelledOnly(const SweepSpec &, const PointResult &, bool cancelled)
{
    return cancelled ? QStringLiteral("cancelled") : QString();
}

// clang-format off
const std::array<PointRun, 4> pointRuns{
    PointRun{
        LoadModel::Closed,
        [](const SweepSpec &, const ClientOptions &o) {
            return pointOf(std::make_unique<client::ClosedClient>(o),
                           [](client::LoadResult r, PointResult *p) { p->load = std::move(r); });
        },
        [](const SweepSpec &s, const PointResult &p, bool cancelled) {
            const auto aborted = p.load.errorCount(client::ErrorKind::AbortedAtDeadline);
            if (cancelled && p.load.completed - aborted < s.requests)
                return QStringLiteral("cancelled");
            if (aborted > 0 || p.load.completed < s.requests)
                return QStringLiteral("deadline of %1 s reached after %2 of %3 requests")
                    .arg(s.pointDeadlineMs / 1000.0)
                    .arg(p.load.completed - aborted)
                    .arg(s.requests);
            return QString();
        }},
    PointRun{
        LoadModel::Duration,
        [](const SweepSpec &s, const ClientOptions &o) {
            ClientOptions kept = o;
            kept.keepAlive = true; // wrk's connections are kept alive
            return pointOf(std::make_unique<client::DurationClient>(kept, s.clientThreads,
                                                                    s.durationMs),
                           [](client::DurationClient::Result r, PointResult *p) {
                               p->load = std::move(r.total);
                           });
        },
        cancelledOnly},
    PointRun{
        LoadModel::Rate,
        [](const SweepSpec &s, const ClientOptions &o) {
            return pointOf(std::make_unique<client::RateClient>(o, s.clientThreads, s.durationMs,
                                                                double(s.ratePerSecond)),
                           [](client::RateClient::Result r, PointResult *p) {
                               p->load = std::move(r.total);
                               p->offeredPerSecond = r.offeredPerSecond;
                               p->uncorrected = std::move(r.uncorrected);
                               p->late = r.late;
                               p->missed = r.missed;
                           });
        },
        cancelledOnly},
    PointRun{
        LoadModel::Ramp,
        [](const SweepSpec &s, const ClientOptions &o) {
            client::ThinkTime think;
            std::string why;
            client::ThinkTime::parse(s.think.toStdString(), &think, &why); // checked by validate
            return pointOf(
                std::make_unique<client::RampClient>(
                    o, s.clientThreads,
                    client::RampClient::Phases{s.rampUpMs, s.steadyMs, s.rampDownMs}, think),
                [](client::RampClient::Result r, PointResult *p) {
                    p->load = std::move(r.steady);
                    p->outsideSteady = r.outsideSteady;
                    p->littleUsers = r.littleUsers;
                    p->littlePass = r.littlePass;
                    p->thinkTargetMs = r.thinkTargetMs;
                    p->thinkActualMs = r.thinkActualMs;
                    p->thinkPass = r.thinkPass;
                });
        },
        [](const SweepSpec &s, const PointResult &p, bool cancelled) {
            if (cancelled)
                return QStringLiteral("cancelled");
            if (p.load.completed == 0)
                return QStringLiteral("no request both started and ended in the %1 s steady "
                                      "state: lengthen it or shorten the think time")
                    .arg(s.steadyMs / 1000.0);
            return QString();
        }},
};
// clang-format on

} // namespace

std::span<const PointRun> PointRun::all()
{
    return pointRuns;
}

const PointRun &PointRun::of(client::LoadModel model)
{
    for (const PointRun &row : pointRuns)
        if (row.model == model)
            return row;
    return pointRuns.front(); // unreachable: every model has its row (tst_pointrun)
}

} // namespace servelab::lab
