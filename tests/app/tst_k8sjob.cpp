// SPDX-License-Identifier: Apache-2.0
// `servelab-cli k8s-job`: the Job and the hosts file checked against golden files (no cluster
// runs here: what they do is documented, not tested), the hosts file read back as one, and the
// refusals of names Kubernetes would refuse.
#include "clirun.h"
#include "remote/hostsfile.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

namespace {

CliRun runCli(const QStringList &arguments)
{
    return runProgram(QStringLiteral(SERVELAB_CLI), arguments, 30000);
}

} // namespace

class TestK8sJob : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void writesTheGoldenFiles()
    {
        QTemporaryDir dir;
        const CliRun run =
            runCli({QStringLiteral("k8s-job"), QStringLiteral("--agents"), QStringLiteral("2"),
                    QStringLiteral("--name"), QStringLiteral("lab"), QStringLiteral("--namespace"),
                    QStringLiteral("perf"), QStringLiteral("--image"),
                    QStringLiteral("registry.example/servelab:0.1.0"), QStringLiteral("--out"),
                    dir.path()});
        QVERIFY2(run.code == 0, qPrintable(run.err));
        for (const char *name : {"lab-job.yaml", "lab-hosts.json"})
            QVERIFY2(readWholeFile(dir.filePath(QLatin1String(name))) ==
                         readWholeFile(QStringLiteral(SERVELAB_GOLDEN "/") + QLatin1String(name)),
                     name);

        // The hosts file is one: pod 0 serves on every address of its pod and is reached by
        // its DNS name; each load pod is found by its index and attached with kubectl exec.
        QString why;
        const auto hosts =
            servelab::remote::HostsFile::read(dir.filePath(QStringLiteral("lab-hosts.json")), &why);
        QVERIFY2(hosts, qPrintable(why));
        QCOMPARE(hosts->load.size(), 2);
        QCOMPARE(hosts->server.address, QStringLiteral("lab-0.lab"));
        QCOMPARE(hosts->serverListen(), QStringLiteral("0.0.0.0"));
        QCOMPARE(hosts->command(hosts->load[1]),
                 (QStringList{QStringLiteral("sh"), QStringLiteral("-c"),
                              QStringLiteral("exec kubectl exec -i -n perf \"$(kubectl get pod -n "
                                             "perf -l job-name=lab,batch.kubernetes.io/"
                                             "job-completion-index=2 -o name)\" -- servelab-cli "
                                             "agent --stdio")}));
    }

    void refusesWhatKubernetesWould_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("no agents") << QStringList{QStringLiteral("--agents"), QStringLiteral("0")}
                                   << QStringLiteral("--agents");
        QTest::newRow("a bad name")
            << QStringList{QStringLiteral("--name"), QStringLiteral("Lab_1")}
            << QStringLiteral("--name \"Lab_1\" is not a Kubernetes name");
        QTest::newRow("no folder") << QStringList{} << QStringLiteral("--out DIR");
    }
    void refusesWhatKubernetesWould()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        QTemporaryDir dir;
        if (!message.contains(QStringLiteral("--out")))
            arguments << QStringLiteral("--out") << dir.path();
        const CliRun run = runCli(QStringList{QStringLiteral("k8s-job")} + arguments);
        QCOMPARE(run.code, 2);
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
        QVERIFY(QDir(dir.path()).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestK8sJob)
#include "tst_k8sjob.moc"
