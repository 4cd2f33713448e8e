// SPDX-License-Identifier: Apache-2.0
#include "cli/cli.h"

#include <QApplication>
#include <QCoreApplication>
#include <QTextStream>

#include <cstdio>
#include <cstring>
#include <memory>

int main(int argc, char *argv[])
{
    // `run` draws its charts with the ui layer: a QApplication, offscreen when there is no
    // display. Every other command needs no GUI at all.
    std::unique_ptr<QCoreApplication> app;
    if (argc > 1 && std::strcmp(argv[1], "run") == 0) {
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") &&
            qEnvironmentVariableIsEmpty("DISPLAY") &&
            qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        app = std::make_unique<QApplication>(argc, argv);
    } else {
        app = std::make_unique<QCoreApplication>(argc, argv);
    }
    QCoreApplication::setApplicationName(QStringLiteral("servelab-cli"));
    QTextStream out(stdout);
    QTextStream err(stderr);
    return servelab::cli::run(QCoreApplication::arguments(), out, err);
}
