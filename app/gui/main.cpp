#include "lab/sizelist.h"
#include "mainwindow.h"
#include "servelab_config.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTextStream>
#include <QTimer>

#include <cstdio>

using namespace servelab;

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("servelab"));
    QApplication::setApplicationDisplayName(QStringLiteral("ServeLab"));
    QApplication::setApplicationVersion(QStringLiteral(SERVELAB_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("io.github.servelab.ServeLab"));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("ServeLab: a performance lab for static file serving."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOptions({
        {QStringLiteral("sizes"),
         QStringLiteral("File sizes of the loaded experiment (4K,64K,1M or 4K..32M)."),
         QStringLiteral("list")},
        {{QStringLiteral("n"), QStringLiteral("requests")},
         QStringLiteral("Requests per size."),
         QStringLiteral("n")},
        {{QStringLiteral("c"), QStringLiteral("concurrency")},
         QStringLiteral("Concurrency."),
         QStringLiteral("n")},
        {QStringLiteral("run"), QStringLiteral("Start the loaded experiment at once.")},
        {QStringLiteral("export-png"),
         QStringLiteral("Run, write the throughput chart to FILE, and quit."),
         QStringLiteral("file")},
        {QStringLiteral("export-csv"), QStringLiteral("Run, write the data to FILE, and quit."),
         QStringLiteral("file")},
    });
    QTextStream err(stderr);
    if (!parser.parse(QApplication::arguments())) {
        err << "servelab: " << parser.errorText() << " (see servelab --help)\n";
        return 2;
    }
    if (parser.isSet(QStringLiteral("help")))
        parser.showHelp(0);
    if (parser.isSet(QStringLiteral("version")))
        parser.showVersion();

    auto spec = lab::SweepSpec::defaults();
    QString error;
    if (parser.isSet(QStringLiteral("sizes")) &&
        !lab::parseSizeList(parser.value(QStringLiteral("sizes")), &spec.sizes, &error)) {
        err << "servelab: " << error << '\n';
        return 2;
    }
    for (const auto &[name, field] :
         {std::pair{QStringLiteral("n"), 0}, std::pair{QStringLiteral("c"), 1}}) {
        if (!parser.isSet(name))
            continue;
        bool ok = false;
        const qint64 value = parser.value(name).toLongLong(&ok);
        if (!ok || value < 1) {
            err << "servelab: -" << name << " wants a positive whole number, not '"
                << parser.value(name) << "'\n";
            return 2;
        }
        if (field == 0)
            spec.requests = static_cast<quint64>(value);
        else
            spec.concurrency = static_cast<int>(value);
    }
    if (const QString problem = spec.validate(); !problem.isEmpty()) {
        err << "servelab: " << problem << '\n';
        return 2;
    }

    ui::MainWindow window;
    window.setSpec(spec);
    window.show();

    const QString png = parser.value(QStringLiteral("export-png"));
    const QString csv = parser.value(QStringLiteral("export-csv"));
    const bool batch = !png.isEmpty() || !csv.isEmpty();
    if (batch) {
        QObject::connect(&window, &ui::MainWindow::runFinished, &app, [&](bool ok) {
            QString failure;
            if (!ok)
                failure =
                    QStringLiteral("the experiment did not finish: ") + window.statusMessage();
            if (failure.isEmpty() && !png.isEmpty())
                window.exportChartPng(png, &failure);
            if (failure.isEmpty() && !csv.isEmpty())
                window.exportCsv(csv, &failure);
            if (!failure.isEmpty())
                err << "servelab: " << failure << '\n';
            err.flush();
            QApplication::exit(failure.isEmpty() ? 0 : 1);
        });
    }
    if (batch || parser.isSet(QStringLiteral("run")))
        QTimer::singleShot(0, &window, &ui::MainWindow::startRun);
    return QApplication::exec();
}
