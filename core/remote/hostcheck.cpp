// SPDX-License-Identifier: Apache-2.0
#include "hostcheck.h"

#include "agentchannel.h"
#include "agentprotocol.h"
#include "agentreach.h"
#include "hostsfile.h"

#include <QJsonObject>

#include <memory>
#include <vector>

namespace servelab::remote {

namespace {

constexpr int callTimeoutMs = 10000;

struct Agent
{
    std::unique_ptr<AgentChannel> channel;
    HostCheckRow row;
    bool ready = false;
};

void reach(const HostsFile &hosts, const HostEntry &entry, int loadIndex, Agent *agent,
           const std::function<void(const QString &)> &say)
{
    AgentReach reached = AgentReach::reach(hosts, entry, loadIndex, HostCheck::clockPings);
    const bool ok = reached.ok();
    agent->channel = std::move(reached.channel);
    agent->row.role =
        loadIndex < 0 ? QStringLiteral("server") : QStringLiteral("load %1").arg(loadIndex + 1);
    agent->row.host = entry.host;
    const QJsonObject &hello = reached.hello;
    agent->row.version = hello.value(QStringLiteral("version")).toString();
    agent->row.kernel = hello.value(QStringLiteral("kernel")).toString();
    agent->row.cores = hello.value(QStringLiteral("cores")).toInt();
    agent->row.nofileSoft = hello.value(QStringLiteral("nofile_soft")).toInteger();
    agent->row.nofileHard = hello.value(QStringLiteral("nofile_hard")).toInteger();
    agent->row.clock = reached.clock;
    if (!ok) {
        agent->row.problem = reached.problem;
        return;
    }
    agent->ready = true;
    if (say)
        say(QStringLiteral("%1: reached, %2").arg(agent->channel->name(), agent->row.version));
}

QString millis(qint64 nanos, int decimals)
{
    return QString::number(double(nanos) / 1e6, 'f', decimals);
}

QString limits(const HostCheckRow &row)
{
    const auto one = [](qint64 v) {
        return v < 0 ? QStringLiteral("unlimited") : QString::number(v);
    };
    return one(row.nofileSoft) + u'/' + one(row.nofileHard);
}

} // namespace

QList<HostCheckRow> HostCheck::run(const HostsFile &hosts,
                                   const std::function<void(const QString &)> &progress)
{
    std::vector<Agent> agents(size_t(hosts.load.size() + 1));
    reach(hosts, hosts.server, -1, &agents[0], progress);
    for (qsizetype i = 0; i < hosts.load.size(); ++i)
        reach(hosts, hosts.load[i], int(i), &agents[size_t(i + 1)], progress);

    Agent &server = agents[0];
    QString why;
    std::optional<QJsonObject> served;
    if (server.ready) {
        served = server.channel->call(
            method::serve,
            {{QStringLiteral("address"), hosts.serverListen()}, {QStringLiteral("port"), 0}},
            callTimeoutMs, &why);
        if (served)
            server.row.get = QStringLiteral("serving on %1:%2")
                                 .arg(hosts.server.address)
                                 .arg(served->value(QStringLiteral("port")).toInt());
        else
            server.row.problem = why;
    }
    for (size_t i = 1; i < agents.size(); ++i) {
        Agent &load = agents[i];
        if (!load.ready)
            continue;
        if (!served) {
            load.row.get = QStringLiteral("not tried: no server");
            continue;
        }
        const auto probe =
            load.channel->call(method::probe,
                               {{QStringLiteral("host"), hosts.server.address},
                                {QStringLiteral("port"), served->value(QStringLiteral("port"))},
                                {QStringLiteral("path"), served->value(QStringLiteral("path"))},
                                {QStringLiteral("bytes"), served->value(QStringLiteral("bytes"))}},
                               callTimeoutMs, &why);
        if (!probe) {
            load.row.problem = why;
        } else if (probe->value(QStringLiteral("ok")).toBool()) {
            load.row.get =
                QStringLiteral("ok, %1 ms")
                    .arg(millis(probe->value(QStringLiteral("micros")).toInteger() * 1000, 2));
        } else {
            load.row.get = QStringLiteral("failed");
            load.row.problem = QStringLiteral("%1: GET http://%2:%3%4 failed: %5")
                                   .arg(load.channel->name(), hosts.server.address)
                                   .arg(served->value(QStringLiteral("port")).toInt())
                                   .arg(served->value(QStringLiteral("path")).toString(),
                                        probe->value(QStringLiteral("error")).toString());
        }
    }
    if (served)
        server.channel->call(method::stopServe, {}, callTimeoutMs, &why);

    QList<HostCheckRow> rows;
    for (Agent &agent : agents) {
        if (agent.ready)
            agent.channel->call(method::shutdown, {}, callTimeoutMs, &why);
        if (agent.channel)
            agent.channel->end();
        rows << agent.row;
    }
    return rows;
}

QString HostCheck::table(const QList<HostCheckRow> &rows)
{
    const QStringList header{
        QStringLiteral("role"),      QStringLiteral("host"),   QStringLiteral("version"),
        QStringLiteral("cores"),     QStringLiteral("nofile"), QStringLiteral("rtt ms"),
        QStringLiteral("offset ms"), QStringLiteral("± ms"),   QStringLiteral("GET")};
    QList<QStringList> cells{header};
    for (const HostCheckRow &row : rows) {
        if (!row.problem.isEmpty() && row.version.isEmpty()) {
            cells << QStringList{row.role, row.host, QStringLiteral("unreachable"), {}, {}, {}, {},
                                 {},       {}};
            continue;
        }
        cells << QStringList{row.role,
                             row.host,
                             row.version,
                             QString::number(row.cores),
                             limits(row),
                             millis(row.clock.roundTripNs, 3),
                             (row.clock.offsetNs >= 0 ? QStringLiteral("+") : QString()) +
                                 millis(row.clock.offsetNs, 3),
                             millis(row.clock.errorNs, 3),
                             row.get};
    }
    QList<int> widths(header.size(), 0);
    for (const QStringList &line : cells)
        for (qsizetype c = 0; c < line.size(); ++c)
            widths[c] = std::max(widths[c], int(line[c].size()));
    QString text;
    for (const QStringList &line : cells) {
        QString out;
        for (qsizetype c = 0; c < line.size(); ++c)
            out += line[c].leftJustified(widths[c] + 2);
        text += out.trimmed() + u'\n';
    }
    for (const HostCheckRow &row : rows)
        if (!row.problem.isEmpty())
            text += QStringLiteral("problem: %1\n").arg(row.problem);
    return text;
}

} // namespace servelab::remote
