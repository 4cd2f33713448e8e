// SPDX-License-Identifier: Apache-2.0
#include "lab/spec/experimentname.h"
#include "lab/spec/experimentspec.h"

#include <QTest>

using namespace servelab;

class TestExperimentName : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void namesWhatItHolds_data()
    {
        QTest::addColumn<QByteArray>("spec");
        QTest::addColumn<QString>("name");
        QTest::newRow("one") << QByteArray(
                                    R"({"servelab": 1, "targets": [{"builtin": "epoll+copy"}],
            "sizes": ["4K", "1M"]})")
                             << QStringLiteral("epoll+copy over 4K,1M");
        QTest::newRow("same label once")
            << QByteArray(R"({"servelab": 1, "sizes": "4K..16K", "targets": [
            {"builtin": "epoll+copy"}, {"builtin": "epoll+copy", "threads": 2},
            {"builtin": "poller+copy", "isolated": false}]})")
            << QStringLiteral("epoll+copy, poller+copy (in-process) over 4K..16K");
        QTest::newRow("many") << QByteArray(R"({"servelab": 1, "sizes": ["1M"], "targets": [
            {"builtin": "epoll+copy"}, {"builtin": "poller+copy"}, {"builtin": "blocking+copy"},
            {"builtin": "epoll+sendfile"}, {"builtin": "poller+sendfile"}]})")
                              << QStringLiteral(
                                     "epoll+copy, poller+copy, blocking+copy and 2 more over 1M");
        QTest::newRow("loads") << QByteArray(R"({"servelab": 1, "sizes": ["1M"],
            "targets": [{"builtin": "epoll+copy"}],
            "clients": [{"model": "closed", "requests": 10}, {"model": "duration", "seconds": 1}]})")
                               << QStringLiteral("epoll+copy over 1M under ab, wrk");
    }
    void namesWhatItHolds()
    {
        QFETCH(QByteArray, spec);
        QFETCH(QString, name);
        lab::ExperimentSpec parsed;
        QStringList errors;
        QVERIFY2(lab::ExperimentSpec::parse(spec, QStringLiteral("s.json"), &parsed, &errors),
                 qPrintable(errors.join(u'\n')));
        QCOMPARE(lab::experimentName(parsed), name);
    }
};

QTEST_MAIN(TestExperimentName)
#include "tst_experimentname.moc"
