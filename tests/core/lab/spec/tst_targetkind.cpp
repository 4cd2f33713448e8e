// SPDX-License-Identifier: Apache-2.0
#include "lab/spec/sweepspec.h"
#include "lab/spec/targetkind.h"

#include <QTest>

using namespace servelab;

// A target's kind is read from its text in one place; its value is what follows the prefix.
class TestTargetKind : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void kinds_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("value");
        QTest::newRow("builtin") << QStringLiteral("builtin") << int(lab::TargetKind::Builtin)
                                 << QStringLiteral("builtin");
        QTest::newRow("template") << QStringLiteral("nginx") << int(lab::TargetKind::Template)
                                  << QStringLiteral("nginx");
        QTest::newRow("command") << QStringLiteral("command:srv -p {port}")
                                 << int(lab::TargetKind::Command)
                                 << QStringLiteral("srv -p {port}");
        QTest::newRow("url") << QStringLiteral("url:http://127.0.0.1:8080/")
                             << int(lab::TargetKind::Url)
                             << QStringLiteral("http://127.0.0.1:8080/");
        // Not a prefix of its own: a template name, refused by validate().
        QTest::newRow("builtins") << QStringLiteral("builtins") << int(lab::TargetKind::Template)
                                  << QStringLiteral("builtins");
    }
    void kinds()
    {
        QFETCH(QString, target);
        QFETCH(int, kind);
        QFETCH(QString, value);
        QCOMPARE(int(lab::targetKindOf(target)), kind);
        QCOMPARE(lab::targetValue(target), value);
        lab::SweepSpec spec = lab::SweepSpec::defaults();
        spec.target = target;
        QCOMPARE(int(spec.kind()), kind);
        QCOMPARE(spec.isUrl(), kind == int(lab::TargetKind::Url));
    }
    void unknownTemplateIsRefused()
    {
        lab::SweepSpec spec = lab::SweepSpec::defaults();
        spec.target = QStringLiteral("builtins");
        QVERIFY(spec.validate().contains(QStringLiteral("unknown target 'builtins'")));
        spec.target = QStringLiteral("command:srv");
        QCOMPARE(spec.validate(), QStringLiteral("a command target must contain {port}"));
    }
};

QTEST_MAIN(TestTargetKind)
#include "tst_targetkind.moc"
