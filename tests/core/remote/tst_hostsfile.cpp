// SPDX-License-Identifier: Apache-2.0
#include "remote/hostsfile.h"

#include <QJsonDocument>
#include <QTest>

using servelab::remote::HostsFile;

class TestHostsFile : public QObject
{
    Q_OBJECT

private slots:
    void readsEveryField()
    {
        const QByteArray text = R"({
  "servelab": 1,
  "server": {"host": "alice@web1", "address": "10.0.0.1", "options": ["-p", "2222"]},
  "load": [
    {"host": "load1"},
    {"host": "load2", "weight": 2, "via": "lab", "agent": "/opt/sl/servelab-cli"}
  ],
  "agent": "/usr/bin/servelab-cli",
  "connectors": {"lab": ["ssh", "-J", "bastion", "{host}", "{agent}", "agent", "--stdio"]}
})";
        QString why;
        const auto hosts = HostsFile::parse(text, "hosts.json", &why);
        QVERIFY2(hosts, qPrintable(why));
        QCOMPARE(hosts->server.host, QStringLiteral("alice@web1"));
        QCOMPARE(hosts->server.address, QStringLiteral("10.0.0.1"));
        QCOMPARE(hosts->load.size(), 2);
        QCOMPARE(hosts->load[1].weight, 2.0);
        QCOMPARE(hosts->load[0].weight, 1.0);

        // ssh: the safe options first, the host's own before its name, the agent after.
        const QStringList server = hosts->command(hosts->server);
        QCOMPARE(server.first(), QStringLiteral("ssh"));
        QVERIFY(server.contains("BatchMode=yes"));
        QVERIFY(server.contains("StrictHostKeyChecking=yes"));
        QCOMPARE(server.mid(server.indexOf("-p"), 3), (QStringList{"-p", "2222", "alice@web1"}));
        QCOMPARE(server.mid(server.size() - 3),
                 (QStringList{"/usr/bin/servelab-cli", "agent", "--stdio"}));
        QCOMPARE(hosts->command(hosts->load[1]),
                 (QStringList{"ssh", "-J", "bastion", "load2", "/opt/sl/servelab-cli", "agent",
                              "--stdio"}));

        // What toJson writes reads back the same.
        const QByteArray again = QJsonDocument(hosts->toJson()).toJson();
        const auto reread = HostsFile::parse(again, "again.json", &why);
        QVERIFY2(reread, qPrintable(why));
        QCOMPARE(QJsonDocument(reread->toJson()).toJson(), again);
        QCOMPARE(hosts->serverListen(), QStringLiteral("10.0.0.1")); // no "listen": its address
    }

    // "listen": the server binds apart from the name the load hosts reach it by (a pod's DNS
    // name), and it is written back.
    void theServerCanListenApart()
    {
        QString why;
        const auto hosts = HostsFile::parse(R"({"servelab": 1,
  "server": {"host": "0", "address": "lab-0.lab", "listen": "0.0.0.0"}, "load": [{"host": "1"}]})",
                                            "hosts.json", &why);
        QVERIFY2(hosts, qPrintable(why));
        QCOMPARE(hosts->server.address, QStringLiteral("lab-0.lab"));
        QCOMPARE(hosts->serverListen(), QStringLiteral("0.0.0.0"));
        const auto reread =
            HostsFile::parse(QJsonDocument(hosts->toJson()).toJson(), "again.json", &why);
        QVERIFY2(reread, qPrintable(why));
        QCOMPARE(reread->server.listen, QStringLiteral("0.0.0.0"));
        QVERIFY(!HostsFile::parse(R"({"servelab": 1,
  "server": {"host": "0", "address": "x"}, "load": [{"host": "1", "listen": "0.0.0.0"}]})",
                                  "hosts.json", &why));
        QVERIFY2(why.contains(QStringLiteral("load[0]")), qPrintable(why));
    }

    void sameMachineConnectorsRunTheLocalAgent()
    {
        QString why;
        const auto hosts = HostsFile::parse(
            R"({"servelab": 1, "server": {"host": "s", "via": "netns", "address": "10.9.0.1"},
                "load": [{"host": "here", "via": "local"}]})",
            "h.json", &why);
        QVERIFY2(hosts, qPrintable(why));
        const QStringList netns = hosts->command(hosts->server);
        QCOMPARE(netns.mid(0, 4), (QStringList{"ip", "netns", "exec", "s"}));
        QVERIFY2(netns[4].endsWith("servelab-cli"), qPrintable(netns[4]));
        QCOMPARE(hosts->command(hosts->load[0]).mid(1), (QStringList{"agent", "--stdio"}));
    }

    void errorsNameTheLineAndTheField_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("error");
        QTest::newRow("not json") << QByteArray("{\n\"servelab\": 1,\n}") << "h.json:3:2: not JSON";
        QTest::newRow("version") << QByteArray("{\"servelab\": 2}")
                                 << "h.json:1: servelab: must be 1";
        QTest::newRow("unknown field")
            << QByteArray("{\"servelab\": 1,\n \"server\": {\"host\": \"a\", \"adress\": \"x\"}}")
            << "h.json:2: server.adress: unknown field; this object takes host, via, options, "
               "agent, address";
        QTest::newRow("no address")
            << QByteArray("{\"servelab\": 1,\n \"server\": {\"host\": \"a\"}}")
            << "h.json:2: server: \"address\" is missing";
        QTest::newRow("no load")
            << QByteArray("{\"servelab\": 1, \"server\": {\"host\": \"a\", \"address\": \"b\"},\n"
                          " \"load\": []}")
            << "h.json:2: load: must list one load host or more";
        QTest::newRow("weight")
            << QByteArray("{\"servelab\": 1, \"server\": {\"host\": \"a\", \"address\": \"b\"},\n"
                          " \"load\": [{\"host\": \"c\",\n \"weight\": 0}]}")
            << "h.json:3: load[0].weight: must be a number above 0";
        QTest::newRow("connector")
            << QByteArray("{\"servelab\": 1, \"server\": {\"host\": \"a\", \"address\": \"b\"},\n"
                          " \"load\": [{\"host\": \"c\",\n \"via\": \"rsh\"}]}")
            << "h.json:3: load[0].via: no connector \"rsh\": use ssh, kubectl, netns, local";
        QTest::newRow("template")
            << QByteArray("{\"servelab\": 1,\n \"connectors\": {\"x\": [\"ssh\", \"{host}\"]}}")
            << "h.json:2: connectors.x: connector \"x\" never names {agent}";
    }
    void errorsNameTheLineAndTheField()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, error);
        QString why;
        QVERIFY(!HostsFile::parse(text, "h.json", &why));
        QVERIFY2(why.startsWith(error), qPrintable(why));
    }

    void aMissingFileIsNamed()
    {
        QString why;
        QVERIFY(!HostsFile::read("/nonexistent/hosts.json", &why));
        QVERIFY2(why.contains("/nonexistent/hosts.json"), qPrintable(why));
    }
};

QTEST_GUILESS_MAIN(TestHostsFile)
#include "tst_hostsfile.moc"
