#include "cli/cli.h"

#include <QCoreApplication>
#include <QTextStream>

#include <cstdio>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("servelab-cli"));
    QTextStream out(stdout);
    QTextStream err(stderr);
    return servelab::cli::run(QCoreApplication::arguments(), out, err);
}
