// SPDX-License-Identifier: Apache-2.0
#include "remote/agentprotocol.h"
#include "remote/agentsession.h"
#include "remote/clocksync.h"
#include "remote/messageframer.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <sys/socket.h>
#include <unistd.h>

using namespace servelab::remote;

namespace {

QJsonObject ask(AgentSession &session, const char *name, const QJsonObject &params = {})
{
    return QJsonDocument::fromJson(session.answer(requestMessage(1, name, params))).object();
}

QJsonObject greet(AgentSession &session)
{
    return ask(session, method::hello, {{"protocol", protocolVersion}, {"version", buildName()}});
}

} // namespace

class TestAgentSession : public QObject
{
    Q_OBJECT

private slots:
    void helloFirstAndVersionsMatch()
    {
        AgentSession session(-1, -1);
        const auto early = ask(session, method::clock);
        QVERIFY2(early.value("error").toObject().value("message").toString().contains(
                     "before \"hello\""),
                 QJsonDocument(early).toJson().constData());

        const auto refused =
            ask(session, method::hello, {{"protocol", 99}, {"version", "servelab 9.9"}});
        const QString why = refused.value("error").toObject().value("message").toString();
        QCOMPARE(refused.value("error").toObject().value("code").toInt(),
                 rpcError::versionMismatch);
        // Both sides named: the coordinator's protocol and build, and the agent's.
        QVERIFY2(why.contains("protocol 99 (servelab 9.9)"), qPrintable(why));
        QVERIFY2(
            why.contains(QStringLiteral("protocol %1 (%2)").arg(protocolVersion).arg(buildName())),
            qPrintable(why));

        const auto hello = greet(session).value("result").toObject();
        QCOMPARE(hello.value("protocol").toInt(), protocolVersion);
        QVERIFY(hello.value("cores").toInt() >= 1);
        QVERIFY(hello.value("nofile_soft").toInteger() != 0);
        QCOMPARE(hello.value("pid").toInteger(), qint64(getpid()));

        const qint64 before = monotonicNanos();
        const qint64 agent = ask(session, method::clock)
                                 .value("result")
                                 .toObject()
                                 .value("monotonic_ns")
                                 .toInteger();
        QVERIFY(agent >= before && agent <= monotonicNanos());
    }

    void unknownMethodsAndBadJson()
    {
        AgentSession session(-1, -1);
        const auto unknown = ask(session, "launch");
        const QString why = unknown.value("error").toObject().value("message").toString();
        QVERIFY2(why.contains("no method \"launch\"") && why.contains("hello, clock"),
                 qPrintable(why));
        const auto bad = QJsonDocument::fromJson(session.answer("{oops")).object();
        QCOMPARE(bad.value("error").toObject().value("code").toInt(), rpcError::parse);
        QVERIFY(bad.value("id").isNull());
    }

    void servesAndProbes()
    {
        AgentSession server(-1, -1);
        AgentSession load(-1, -1);
        greet(server);
        greet(load);
        const auto served = ask(server, method::serve, {{"address", "127.0.0.1"}, {"port", 0}})
                                .value("result")
                                .toObject();
        const int port = served.value("port").toInt();
        QVERIFY(port > 0);
        QVERIFY2(ask(server, method::serve, {{"address", "127.0.0.1"}}).contains("error"),
                 "a second server at once");

        const auto probe = ask(load, method::probe,
                               {{"host", "127.0.0.1"},
                                {"port", port},
                                {"path", served.value("path")},
                                {"bytes", served.value("bytes")}})
                               .value("result")
                               .toObject();
        QVERIFY2(probe.value("ok").toBool(), QJsonDocument(probe).toJson().constData());
        QVERIFY(probe.value("micros").toInteger() > 0);

        // The wrong length expected: the probe says it failed, and why.
        const auto wrong = ask(load, method::probe,
                               {{"host", "127.0.0.1"},
                                {"port", port},
                                {"path", served.value("path")},
                                {"bytes", 1}})
                               .value("result")
                               .toObject();
        QVERIFY(!wrong.value("ok").toBool());
        QVERIFY(!wrong.value("error").toString().isEmpty());

        QVERIFY(ask(server, method::stopServe).contains("result"));
        const auto refused =
            ask(load, method::probe, {{"host", "127.0.0.1"}, {"port", port}, {"path", "/"}})
                .value("result")
                .toObject();
        QVERIFY(!refused.value("ok").toBool());
    }

    void runEndsAtEofAndAtShutdown()
    {
        int toAgent[2];
        int fromAgent[2];
        QCOMPARE(socketpair(AF_UNIX, SOCK_STREAM, 0, toAgent), 0);
        QCOMPARE(socketpair(AF_UNIX, SOCK_STREAM, 0, fromAgent), 0);
        const QByteArray requests =
            MessageFramer::frame(
                requestMessage(1, method::hello, {{"protocol", protocolVersion}})) +
            MessageFramer::frame(requestMessage(2, method::shutdown, {})) +
            MessageFramer::frame(requestMessage(3, method::clock, {})); // never answered
        QCOMPARE(::write(toAgent[0], requests.constData(), size_t(requests.size())),
                 ssize_t(requests.size()));
        AgentSession session(toAgent[1], fromAgent[1]);
        QCOMPARE(session.run(), 0);
        QVERIFY(session.shutdownAsked());
        ::close(fromAgent[1]);
        MessageFramer framer;
        char buffer[4096];
        ssize_t n;
        while ((n = ::read(fromAgent[0], buffer, sizeof buffer)) > 0)
            framer.feed(buffer, n);
        QList<int> ids;
        while (auto message = framer.next())
            ids << QJsonDocument::fromJson(*message).object().value("id").toInt();
        QCOMPARE(ids, (QList<int>{1, 2}));

        // EOF alone ends it too.
        AgentSession quiet(toAgent[1], fromAgent[0]);
        ::shutdown(toAgent[0], SHUT_WR);
        QCOMPARE(quiet.run(), 0);
        for (int fd : {toAgent[0], toAgent[1], fromAgent[0]})
            ::close(fd);
    }
};

QTEST_GUILESS_MAIN(TestAgentSession)
#include "tst_agentsession.moc"
