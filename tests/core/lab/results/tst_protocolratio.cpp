// SPDX-License-Identifier: Apache-2.0
#include "lab/results/protocolratio.h"

#include <QTest>

using namespace servelab;
using lab::PointResult;

class TestProtocolRatio : public QObject
{
    Q_OBJECT

    // A point of `label` over `protocol`: `kib` KiB/s in one second, `cpuMicros` of server
    // CPU for its 100 requests.
    static PointResult point(const QString &label, const QString &protocol, quint64 size,
                             double kib, std::int64_t cpuMicros)
    {
        PointResult p;
        p.target = label;
        p.protocol = protocol;
        p.sizeBytes = size;
        p.load.completed = 100;
        p.load.ok = 100;
        p.load.bytesRead = quint64(kib * 1024);
        p.load.elapsedMicros = 1'000'000;
        p.serverUse.userMicros = cpuMicros;
        p.serverUse.systemMicros = 0;
        return p;
    }

private Q_SLOTS:
    // h2c pairs with http and h2 with https, per size, over the means of the repetitions; a
    // target over one protocol, a DNF side, a label with no transport word pair with nothing.
    void pairsEachTargetsProtocolsBySize()
    {
        const QString h1 = QStringLiteral("http/1.1");
        QList<PointResult> points{
            point(QStringLiteral("epoll+copy http"), h1, 4096, 1000, 1000),
            point(QStringLiteral("epoll+copy http"), h1, 4096, 3000, 3000), // mean 2000, 2000
            point(QStringLiteral("epoll+copy h2c"), QStringLiteral("h2c"), 4096, 1000, 3000),
            point(QStringLiteral("epoll+copy https"), h1, 4096, 800, 4000),
            point(QStringLiteral("epoll+copy h2"), QStringLiteral("h2"), 4096, 400, 2000),
            point(QStringLiteral("nginx http"), h1, 4096, 500, 100),
            point(QStringLiteral("epoll+copy http"), h1, 1 << 20, 9000, 9000),
            point(QStringLiteral("epoll+copy h2c"), QStringLiteral("h2c"), 1 << 20, 3000, 9000),
            point(QStringLiteral("lone"), QStringLiteral("h2c"), 4096, 1, 1),
        };
        PointResult dnf = point(QStringLiteral("nginx h2c"), QStringLiteral("h2c"), 4096, 0, 0);
        dnf.dnf = true;
        points << dnf;
        const auto ratios = lab::protocolRatios(points);
        QCOMPARE(ratios.size(), 3);
        QCOMPARE(ratios[0].target, QStringLiteral("epoll+copy"));
        QCOMPARE(ratios[0].pair, QStringLiteral("h2c ÷ http"));
        QCOMPARE(ratios[0].label, QStringLiteral("epoll+copy h2c"));
        QCOMPARE(ratios[0].sizeBytes, 4096u);
        QCOMPARE(ratios[0].throughput, 0.5);
        QCOMPARE(ratios[0].serverCpu, 1.5);
        QCOMPARE(ratios[1].sizeBytes, quint64(1) << 20);
        QCOMPARE(ratios[1].throughput, 3000.0 / 9000.0);
        QCOMPARE(ratios[1].serverCpu, 1.0);
        QCOMPARE(ratios[2].pair, QStringLiteral("h2 ÷ https"));
        QCOMPARE(ratios[2].label, QStringLiteral("epoll+copy h2"));
        QCOMPARE(ratios[2].throughput, 0.5);
        QCOMPARE(ratios[2].serverCpu, 0.5);
    }

    // Server CPU not read (a url target): the throughput ratio alone.
    void cpuUnknownLeavesItsRatioOut()
    {
        auto a = point(QStringLiteral("u http"), QStringLiteral("http/1.1"), 4096, 100, 0);
        auto b = point(QStringLiteral("u h2c"), QStringLiteral("h2c"), 4096, 150, 0);
        a.serverUse.userMicros = -1;
        b.serverUse.userMicros = -1;
        const auto ratios = lab::protocolRatios({a, b});
        QCOMPARE(ratios.size(), 1);
        QCOMPARE(ratios[0].throughput, 1.5);
        QCOMPARE(ratios[0].serverCpu, -1.0);
    }
};

QTEST_GUILESS_MAIN(TestProtocolRatio)
#include "tst_protocolratio.moc"
