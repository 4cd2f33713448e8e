// SPDX-License-Identifier: Apache-2.0
#include "server/eventmodel.h"
#include "server/server.h"
#include "server/servermode.h"
#include "server/serveroptions.h"

#include <QTemporaryDir>
#include <QTest>

#include <set>
#include <string>

using namespace servelab::server;

class TestEventModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // The modes are the rows' models times the transfers each takes, less what cannot run here
    // (listed with a reason instead): nothing is named outside the table.
    void theModesComeFromTheRows()
    {
        std::set<std::string> listed;
        for (const auto &mode : availableModes())
            listed.insert(mode.name());
        for (const auto &[mode, reason] : unavailableModes()) {
            QVERIFY2(!reason.empty(), mode.name().c_str());
            listed.insert(mode.name());
        }
        std::set<std::string> expected;
        for (const auto &model : eventModels()) {
            QVERIFY(findEventModel(model.name) == &model);
            QVERIFY2(std::string(model.reproduces).size() > 10, model.name);
            for (const char *transfer : {"sendfile", "copy", "mmap"})
                if (model.takes(transfer))
                    expected.insert(std::string(model.name) + '+' + transfer);
        }
        QCOMPARE(listed, expected);
        QVERIFY(!findEventModel("apache"));
    }

    // Each available mode's row makes a server that runs that mode.
    void eachRowMakesItsServer()
    {
        QTemporaryDir root;
        for (const auto &mode : availableModes()) {
            ServerOptions options;
            options.mode = mode.name();
            options.root = root.path().toStdString();
            options.host = "127.0.0.1";
            options.port = 0;
            std::string error;
            auto server = createServer(options, &error);
            QVERIFY2(server, error.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestEventModel)
#include "tst_eventmodel.moc"
