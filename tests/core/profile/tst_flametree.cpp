// SPDX-License-Identifier: Apache-2.0
#include "profile/flametree.h"

#include <QTest>

using namespace servelab::profile;

class TestFlameTree : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void framesAddUpToTheirCallers()
    {
        FoldedStacks stacks;
        stacks.add(QStringLiteral("main;serve;sendfile"), 60);
        stacks.add(QStringLiteral("main;serve;read"), 30);
        stacks.add(QStringLiteral("main;log"), 10);
        const FlameTree tree = FlameTree::of(stacks);
        QCOMPARE(tree.total(), 100.0);
        QCOMPARE(tree.maxDepth(), 3);
        const int serve = tree.find(QStringLiteral("serve"));
        QCOMPARE(tree.node(serve).weight, 90.0);
        QCOMPARE(tree.share(serve), 0.9);
        // Children in name order, whatever order the stacks came in.
        QCOMPARE(tree.node(tree.node(serve).children.front()).name, QStringLiteral("read"));
        QCOMPARE(tree.delta(serve), 0.0);
        QCOMPARE(tree.find(QStringLiteral("nowhere")), -1);
    }

    void searchCountsNestedMatchesOnce()
    {
        FoldedStacks stacks;
        stacks.add(QStringLiteral("main;lock_outer;lock_inner"), 40);
        stacks.add(QStringLiteral("main;work"), 60);
        const FlameTree tree = FlameTree::of(stacks);
        QCOMPARE(tree.matchedShare(QStringLiteral("LOCK")), 0.4);
        QCOMPARE(tree.matchedShare(QStringLiteral("nothing")), 0.0);
        QCOMPARE(tree.matchedShare(QString()), 0.0);
    }

    void aDiffSaysWhatGrewAndWhatShrank()
    {
        FoldedStacks before;
        before.add(QStringLiteral("main;copy"), 800);
        before.add(QStringLiteral("main;parse"), 200);
        FoldedStacks after; // half the samples: shares, not weights, are compared
        after.add(QStringLiteral("main;sendfile"), 300);
        after.add(QStringLiteral("main;parse"), 200);
        const FlameTree tree = FlameTree::diff(before, after);
        QVERIFY(tree.isDiff());
        const int parse = tree.find(QStringLiteral("parse"));
        const int copy = tree.find(QStringLiteral("copy"));
        const int sendfile = tree.find(QStringLiteral("sendfile"));
        QCOMPARE(tree.delta(parse), 0.4 - 0.2);
        QCOMPARE(tree.delta(copy), -0.8);
        QCOMPARE(tree.delta(sendfile), 0.6);
        // Gone, yet drawn: as wide as the mean of its shares; children fit in their parent.
        QCOMPARE(tree.share(copy), 0.4);
        QVERIFY(tree.share(copy) + tree.share(parse) + tree.share(sendfile) <=
                tree.share(tree.find(QStringLiteral("main"))) + 1e-9);
    }
};

QTEST_GUILESS_MAIN(TestFlameTree)
#include "tst_flametree.moc"
