// SPDX-License-Identifier: Apache-2.0
#include "resultstablemodel.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace servelab;

class TestResultsTableModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void rowsAndSorting()
    {
        ui::ResultsTableModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        lab::PointResult big;
        big.sizeBytes = 1 << 20;
        big.target = QStringLiteral("epoll+sendfile");
        big.load.completed = big.load.ok = 2;
        big.load.bytesRead = 2 * 1024 * 1024;
        big.load.elapsedMicros = 1'000'000;
        lab::PointResult small = big;
        small.sizeBytes = 4096;
        small.load.bytesRead = 9000;
        lab::PointResult dnf = big;
        dnf.sizeBytes = 65536;
        dnf.dnf = true;
        dnf.reason = QStringLiteral("every request failed: connection refused");
        model.addPoint(big);
        model.addPoint(small);
        model.addPoint(dnf);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.index(0, ui::ResultsTableModel::Size).data().toString(),
                 QStringLiteral("1M"));
        QCOMPARE(model.index(0, ui::ResultsTableModel::KibPerSecond).data().toString(),
                 QStringLiteral("2048.00"));
        QCOMPARE(model.index(2, ui::ResultsTableModel::KibPerSecond).data().toString(),
                 QStringLiteral("DNF"));
        QVERIFY(model.index(2, ui::ResultsTableModel::Status)
                    .data()
                    .toString()
                    .contains(QStringLiteral("refused")));
        QCOMPARE(model.index(2, 0).data(Qt::ToolTipRole).toString(), dnf.reason);
        QCOMPARE(model.index(2, ui::ResultsTableModel::Target).data(Qt::ToolTipRole).toString(),
                 dnf.target); // whole, where the column elides it
        // Its figures are dashes, not zeros.
        for (int column : {ui::ResultsTableModel::RequestsPerSecond, ui::ResultsTableModel::MeanMs,
                           ui::ResultsTableModel::P99Ms, ui::ResultsTableModel::Errors})
            QCOMPARE(model.index(2, column).data().toString(), QStringLiteral("–"));

        // Sizes sort as numbers, not as text ("4K" < "64K" < "1M").
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(Qt::UserRole);
        proxy.sort(ui::ResultsTableModel::Size);
        QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("4K"));
        QCOMPARE(proxy.index(1, 0).data().toString(), QStringLiteral("64K"));
        QCOMPARE(proxy.index(2, 0).data().toString(), QStringLiteral("1M"));

        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TestResultsTableModel)
#include "tst_resultstablemodel.moc"
