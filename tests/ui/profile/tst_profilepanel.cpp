// SPDX-License-Identifier: Apache-2.0
#include "flamegraphview.h"
#include "profilepanel.h"
#include "session.h"

#include <QComboBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTest>

using namespace servelab;

namespace {

lab::PointResult profiled(const QString &target, const QString &lockedIn)
{
    lab::PointResult p;
    p.target = target;
    p.sizeBytes = 12;
    p.profile.requested = true;
    p.profile.onCpu = QStringLiteral("start_thread;PoolWorker::run;CopyTransfer::write 9000\n"
                                     "start_thread;Watcher::run;epoll_wait 1000\n");
    p.profile.offCpu =
        QStringLiteral("start_thread;Watcher::run;%1;std::mutex::lock;__lll_lock_wait 2500\n"
                       "start_thread;PoolWorker::run;std::condition_variable::wait 90000\n")
            .arg(lockedIn);
    p.profile.perfData = QStringLiteral("/nonexistent/perf.data");
    p.profile.requestsPerSecond = 950;
    p.profile.unprofiledRequestsPerSecond = 1000;
    return p;
}

} // namespace

class TestProfilePanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void showsTheProfiledPointsOfTheRun()
    {
        ui::Session session;
        ui::ProfilePanel panel(&session);
        QCOMPARE(panel.profiledCount(), 0);
        QVERIFY(panel.summary().contains(QStringLiteral("--profile")));

        lab::ExperimentSpec spec;
        lab::SweepSpec target = lab::SweepSpec::defaults();
        target.sizes = {12};
        spec.targets = {target};
        session.beginRun(spec);
        session.addRunPoint(profiled(QStringLiteral("poller+copy handoff=mutex"),
                                     QStringLiteral("PollerShared::push")));
        lab::PointResult unprofiled = profiled(QStringLiteral("poller+copy handoff=lockfree"), {});
        unprofiled.profile.onCpu.clear();
        unprofiled.profile.offCpu.clear();
        unprofiled.profile.note = QStringLiteral("not profiled: perf is not installed");
        session.addRunPoint(unprofiled);
        session.addRunPoint(profiled(QStringLiteral("poller+copy handoff=spin"),
                                     QStringLiteral("Registry::handBack")));
        QCOMPARE(panel.profiledCount(), 3);

        panel.show(0, ui::ProfilePanel::Kind::OnCpu);
        QVERIFY(panel.summary().contains(QStringLiteral("5.0 % overhead")));
        QVERIFY2(panel.summary().contains(QStringLiteral("Top lock waiters: PollerShared::push")),
                 qPrintable(panel.summary()));
        QCOMPARE(panel.graph()->tree().total(), 10000.0);

        panel.show(0, ui::ProfilePanel::Kind::LockWaits);
        QCOMPARE(panel.graph()->tree().total(), 2500.0); // the wait for work is not a lock's
        panel.show(0, ui::ProfilePanel::Kind::OffCpu);
        QCOMPARE(panel.graph()->tree().total(), 92500.0);

        // The point without a profile says why.
        panel.show(1, ui::ProfilePanel::Kind::OnCpu);
        QVERIFY(panel.summary().contains(QStringLiteral("perf is not installed")));
        QCOMPARE(panel.graph()->tree().total(), 0.0);

        // Against another point: a difference.
        panel.show(2, ui::ProfilePanel::Kind::LockWaits, 0);
        QVERIFY(panel.graph()->tree().isDiff());
        panel.setSearch(QStringLiteral("handBack"));
        QVERIFY(panel.graph()->matchedShare() > 0);

        QTemporaryDir dir;
        QString error;
        QVERIFY2(panel.exportGraph(dir.filePath(QStringLiteral("diff.svg")), &error),
                 qPrintable(error));
        QVERIFY2(panel.exportGraph(dir.filePath(QStringLiteral("diff.png")), &error),
                 qPrintable(error));
    }

    // A flame graph is read from its root: shown first in a hidden tab and laid out later, or
    // taller than its view, it opens scrolled to the bottom, and stays where the user scrolls.
    void opensAtTheRoot()
    {
        ui::Session session;
        lab::ExperimentSpec spec;
        spec.targets = {lab::SweepSpec::defaults()};
        session.beginRun(spec);
        lab::PointResult deep = profiled(QStringLiteral("epoll+copy"), QStringLiteral("a"));
        QStringList frames;
        for (int i = 0; i < 60; ++i)
            frames << QStringLiteral("frame%1").arg(i);
        deep.profile.onCpu = frames.join(u';') + QStringLiteral(" 100\n");
        session.addRunPoint(deep);
        ui::ProfilePanel panel(&session);
        panel.show(0, ui::ProfilePanel::Kind::OnCpu); // before the panel is on screen
        panel.resize(800, 300);
        panel.QWidget::show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto *scroll = panel.findChild<QScrollArea *>();
        QVERIFY(scroll);
        QScrollBar *bar = scroll->verticalScrollBar();
        QTRY_VERIFY(bar->maximum() > 0);
        QTRY_COMPARE(bar->value(), bar->maximum());
        bar->triggerAction(QAbstractSlider::SliderPageStepSub); // the user looks up
        const int looked = bar->value();
        QVERIFY(looked < bar->maximum());
        panel.resize(panel.width(), 320); // a relayout leaves the user's place
        QTRY_COMPARE(panel.height(), 320);
        QCOMPARE(bar->value(), looked);
    }
};

QTEST_MAIN(TestProfilePanel)
#include "tst_profilepanel.moc"
