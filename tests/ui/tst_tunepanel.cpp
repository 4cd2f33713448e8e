// SPDX-License-Identifier: Apache-2.0
#include "lab/spec/serveroptiontable.h"
#include "tunepanel.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

using namespace servelab;

// The Tune panel checks a value as it is typed, by the option's own rule, and keeps a refusal
// in sight.
class TestTunePanel : public QObject
{
    Q_OBJECT

    static QTableWidgetItem *valueCell(ui::TunePanel &panel, const QString &name)
    {
        auto *table = panel.findChild<QTableWidget *>(QStringLiteral("tuneOptions"));
        for (int row = 0; table && row < table->rowCount(); ++row)
            if (table->item(row, 0)->text() == name)
                return table->item(row, 1);
        return nullptr;
    }

private Q_SLOTS:
    void aBadValueIsRefusedAsTyped()
    {
        const lab::ServerOptionTable::Row *fixed = nullptr;
        for (const auto &row : lab::ServerOptionTable::rows())
            if (row.fixed && !fixed)
                fixed = &row;
        QVERIFY(fixed);
        const QString fixedName = QLatin1String(fixed->name);
        ui::TunePanel panel;
        panel.showOptions({QStringLiteral("threads=4"), QStringLiteral("chunk=2M"),
                           fixedName + QStringLiteral("=x")},
                          true);
        auto *apply = panel.findChild<QPushButton *>(QStringLiteral("tuneApply"));
        auto *result = panel.findChild<QLabel *>(QStringLiteral("tuneResult"));
        QVERIFY(apply && result && apply->isEnabled());

        valueCell(panel, QStringLiteral("threads"))->setText(QStringLiteral("banana"));
        QVERIFY2(panel.problems().startsWith(QStringLiteral("threads: ")),
                 qPrintable(panel.problems()));
        QVERIFY(!apply->isEnabled());
        QVERIFY(result->text().startsWith(QStringLiteral("Not sent: threads: ")));
        QVERIFY(valueCell(panel, QStringLiteral("threads"))->background() != QBrush());

        valueCell(panel, fixedName)->setText(QStringLiteral("y"));
        QVERIFY2(panel.problems().contains(fixedName + QStringLiteral(": cannot change while the "
                                                                      "server runs")),
                 qPrintable(panel.problems()));
        valueCell(panel, fixedName)->setText(QStringLiteral("x")); // as it was: no change
        valueCell(panel, QStringLiteral("threads"))->setText(QStringLiteral("8"));
        QVERIFY2(panel.problems().isEmpty(), qPrintable(panel.problems()));
        QVERIFY(apply->isEnabled());
        QVERIFY(result->text().isEmpty());

        QSignalSpy asked(&panel, &ui::TunePanel::tuneRequested);
        apply->click();
        QCOMPARE(asked.size(), 1);
        QCOMPARE(asked[0][0].toStringList(), QStringList{QStringLiteral("threads=8")});
        // The server refuses: back to its values, the reason in the panel, kept when the next
        // point's options come.
        panel.showResult(false, QStringLiteral("threads: the server says no"));
        QCOMPARE(valueCell(panel, QStringLiteral("threads"))->text(), QStringLiteral("4"));
        QCOMPARE(result->text(), QStringLiteral("Refused: threads: the server says no"));
        QVERIFY(result->styleSheet().contains(QStringLiteral("color")));
        panel.showOptions({QStringLiteral("threads=4"), QStringLiteral("chunk=2M")}, true);
        QCOMPARE(result->text(), QStringLiteral("Refused: threads: the server says no"));
        panel.showOptions({}, false); // the run is over
        QVERIFY(result->text().startsWith(QStringLiteral("Changes apply while")));
    }
};

QTEST_MAIN(TestTunePanel)
#include "tst_tunepanel.moc"
