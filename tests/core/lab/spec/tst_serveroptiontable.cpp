// SPDX-License-Identifier: Apache-2.0
#include "lab/spec/serveroptiontable.h"
#include "lab/spec/sweepspec.h"
#include "server/serveroptions.h"

#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace servelab;
using lab::ServerOptionTable;

class TestServerOptionTable : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // The default each row shows in --help is what ServerOptions starts with, read back.
    void defaultsReadBack()
    {
        const server::ServerOptions defaults;
        QSet<QString> names;
        static const QRegularExpression flag(QStringLiteral("^[a-z][a-z0-9-]*$"));
        for (const auto &row : ServerOptionTable::rows()) {
            const QString name = QString::fromLatin1(row.name);
            QVERIFY2(flag.match(name).hasMatch(), row.name);
            QVERIFY2(!names.contains(name), row.name);
            names.insert(name);
            QVERIFY2(std::string_view(row.help).ends_with('.'), row.name);
            server::ServerOptions changed;
            QString error;
            QVERIFY2(ServerOptionTable::set(&changed, name, row.text(defaults), &error),
                     qPrintable(error));
            QCOMPARE(row.text(changed), row.text(defaults));
            QCOMPARE(ServerOptionTable::find(name), &row);
        }
        QVERIFY(names.size() >= 20);
    }

    void valuesSetTheirFields()
    {
        server::ServerOptions o;
        o.mode = "poller+sendfile";
        QString error;
        QVERIFY2(
            ServerOptionTable::apply(
                &o,
                {QStringLiteral("--chunk"), QStringLiteral("81000"), QStringLiteral("--nopush"),
                 QStringLiteral("on"), QStringLiteral("--max-connections"),
                 QStringLiteral("unlimited"), QStringLiteral("--handoff"),
                 QStringLiteral("lockfree"), QStringLiteral("--accept-strategy"),
                 QStringLiteral("backoff"), QStringLiteral("--keepalive-timeout"),
                 QStringLiteral("250ms"), QStringLiteral("--defer-accept"), QStringLiteral("yes")},
                &error),
            qPrintable(error));
        QCOMPARE(o.sendfileChunk, std::size_t(81000));
        QVERIFY(o.tcpNoPush);
        QCOMPARE(o.maxConnections, -1);
        QCOMPARE(o.handoff, server::Handoff::LockFree);
        QCOMPARE(o.acceptStrategy, server::AcceptStrategy::Backoff);
        QCOMPARE(o.keepAliveTimeoutMs, 250);
        QVERIFY(o.deferAccept);
    }

    // One line, the option's name first, and what it wants: the same words as `serve`.
    void badValuesAreNamed_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("error");
        QTest::newRow("number") << "threads"
                                << "0"
                                << "--threads wants a whole number from 1 to 1024, not '0'";
        QTest::newRow("size") << "sendfile-threshold"
                              << "abc"
                              << "--sendfile-threshold wants a size from 1 to 64M (like 8K or "
                                 "81000), not 'abc'";
        QTest::newRow("on or off") << "nodelay"
                                   << "maybe"
                                   << "--nodelay wants on or off, not 'maybe'";
        QTest::newRow("duration") << "header-timeout"
                                  << "soon"
                                  << "--header-timeout wants a duration like 500ms or 5s (at most "
                                     "3600 s), not 'soon'";
        QTest::newRow("choice")
            << "accept-strategy"
            << "pray"
            << "--accept-strategy wants reserve-fd, backoff or none, not 'pray'";
        QTest::newRow("number or word") << "max-connections"
                                        << "lots"
                                        << "--max-connections wants auto, unlimited or a whole "
                                           "number from 1 to 10000000, not 'lots'";
        QTest::newRow("unknown") << "frobnicate"
                                 << "yes"
                                 << "--frobnicate is not a server option (servelab-cli serve "
                                    "--help lists them)";
    }
    void badValuesAreNamed()
    {
        QFETCH(QString, name);
        QFETCH(QString, value);
        QFETCH(QString, error);
        server::ServerOptions o;
        QString got;
        QVERIFY(!ServerOptionTable::set(&o, name, value, &got));
        QCOMPARE(got, error);
    }

    void modeDependentOptionsAreChecked()
    {
        server::ServerOptions o;
        o.mode = "epoll+sendfile";
        QString error;
        QVERIFY(!ServerOptionTable::apply(
            &o, {QStringLiteral("--handoff"), QStringLiteral("lockfree")}, &error));
        QCOMPARE(error, QStringLiteral("--handoff lockfree applies to the poller model, not "
                                       "'epoll+sendfile'"));
        QVERIFY(!ServerOptionTable::apply(&o, {QStringLiteral("--chunk")}, &error));
        QCOMPARE(error, QStringLiteral("'--chunk' is not --name value"));
    }

    // A target's options are checked where the target is (the wizard, a spec, run), with the
    // table's words.
    void aTargetRefusesWhatTheServerWould()
    {
        auto t = lab::SweepSpec::defaults();
        t.target = QStringLiteral("builtin");
        t.mode = QStringLiteral("epoll+sendfile");
        t.serverArguments = {QStringLiteral("--sendfile-threshold"), QStringLiteral("abc")};
        QVERIFY(t.validate().startsWith(QStringLiteral("--sendfile-threshold wants a size")));
        t.serverArguments = {QStringLiteral("--frobnicate"), QStringLiteral("yes")};
        QVERIFY(t.validate().startsWith(QStringLiteral("--frobnicate is not a server option")));
        t.serverArguments = {QStringLiteral("--sendfile-threshold"), QStringLiteral("64K")};
        QCOMPARE(t.validate(), QString());
    }
};

QTEST_GUILESS_MAIN(TestServerOptionTable)
#include "tst_serveroptiontable.moc"
