// SPDX-License-Identifier: Apache-2.0
#include "apptheme.h"
#include "chartrow.h"
#include "lab/results/buildinfo.h"
#include "lab/results/resultstore.h"
#include "lab/spec/clientrules.h"
#include "lab/spec/optionvalue.h"
#include "lab/spec/sizelist.h"
#include "mainwindow.h"
#include "servelab_config.h"
#include "threadpriority.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QIcon>
#include <QTextStream>
#include <QTimer>

#include <cstdio>
#include <cstring>

using namespace servelab;

namespace {

void describeOptions(QCommandLineParser &parser)
{
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
        {QStringLiteral("spec"),
         QStringLiteral("Load an experiment: a spec file or a preset name (servelab-cli presets)."),
         QStringLiteral("spec")},
        {QStringLiteral("db"),
         QStringLiteral("Results database to keep runs in and show (default: %1).")
             .arg(lab::ResultStore::defaultPath()),
         QStringLiteral("file")},
        {QStringLiteral("open"),
         QStringLiteral("Show the latest experiment of a results database, or a bundle.json."),
         QStringLiteral("db-or-bundle")},
        {QStringLiteral("run"), QStringLiteral("Start the loaded experiment at once.")},
        {QStringLiteral("wizard"),
         QStringLiteral("Open the experiment wizard, pre-filled with the loaded experiment.")},
        {QStringLiteral("export-png"),
         QStringLiteral("Write a chart to FILE (.png, or .svg) and quit: of what --open shows, "
                        "or of a run made first."),
         QStringLiteral("file")},
        {QStringLiteral("chart"),
         QStringLiteral("The chart --export-png writes: %1 (throughput by default).")
             .arg(ui::chartNames().join(QStringLiteral(", "))),
         QStringLiteral("name"), QStringLiteral("throughput")},
        {QStringLiteral("export-csv"),
         QStringLiteral("Write the data to FILE and quit (as above)."), QStringLiteral("file")},
        {QStringLiteral("tab"),
         QStringLiteral("Open on a tab: %1, spec, log, compare or profile.")
             .arg(ui::chartPages().join(QStringLiteral(", "))),
         QStringLiteral("name")},
        {QStringLiteral("theme"), QStringLiteral("system (the desktop's palette), light or dark."),
         QStringLiteral("name"), QStringLiteral("system")},
    });
}

// --help and --version answer on a terminal without a display (no QApplication, which would
// need one): true when one of them was asked, with `status` what to exit with.
bool answeredWithoutWindow(int argc, char *argv[], int *status)
{
    bool asked = false;
    for (int i = 1; i < argc; ++i)
        for (const char *option : {"-h", "--help", "--help-all", "-v", "--version"})
            asked = asked || std::strcmp(argv[i], option) == 0;
    if (!asked)
        return false;
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("servelab"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SERVELAB_VERSION));
    QCommandLineParser parser;
    describeOptions(parser);
    if (!parser.parse(QCoreApplication::arguments())) {
        QTextStream(stderr) << "servelab: " << parser.errorText() << " (see servelab --help)\n";
        *status = 2;
    } else if (parser.isSet(QStringLiteral("version"))) {
        QTextStream(stdout) << lab::BuildInfo::current().text(QStringLiteral("servelab"));
        *status = 0;
    } else {
        parser.showHelp(0); // exits
    }
    return true;
}

} // namespace

int main(int argc, char *argv[])
{
    if (int status = 0; answeredWithoutWindow(argc, argv, &status))
        return status;
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("servelab"));
    QApplication::setApplicationDisplayName(QStringLiteral("ServeLab"));
    QApplication::setApplicationVersion(QStringLiteral(SERVELAB_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("io.github.servelab.ServeLab"));
    QIcon icon;
    for (int size : {16, 32, 48, 64, 128, 256})
        icon.addFile(QStringLiteral(":/icons/servelab-%1.png").arg(size), QSize(size, size));
    QApplication::setWindowIcon(icon);

    ui::raiseGuiThread(); // where allowed: see threadpriority.h

    QCommandLineParser parser;
    describeOptions(parser);
    QTextStream err(stderr);
    if (!parser.parse(QApplication::arguments())) {
        err << "servelab: " << parser.errorText() << " (see servelab --help)\n";
        return 2;
    }

    auto spec = lab::SweepSpec::defaults();
    QString error;
    if (!ui::applyTheme(parser.value(QStringLiteral("theme")), &error)) {
        err << "servelab: " << error << '\n';
        return 2;
    }
    if (parser.isSet(QStringLiteral("sizes")) &&
        !lab::parseSizeList(parser.value(QStringLiteral("sizes")), &spec.sizes, &error)) {
        err << "servelab: " << error << '\n';
        return 2;
    }
    // -n and -c are the spec's fields: their ranges and rules are those of `load` and the form.
    namespace F = lab::SpecFields;
    constexpr auto flag = lab::FieldNaming::Flag;
    for (const lab::SpecField *field : {&F::requests, &F::concurrency}) {
        const QString name = QString::fromLatin1(field->flag);
        if (!parser.isSet(name))
            continue;
        qint64 value = 0;
        if (!lab::OptionValue::wholeNumber(parser.value(name), field->low, field->high, &value,
                                           &error)) {
            err << "servelab: " << field->name(flag) << ' ' << error << '\n';
            return 2;
        }
        if (field == &F::requests)
            spec.requests = static_cast<quint64>(value);
        else
            spec.concurrency = static_cast<int>(value);
    }
    if (const auto problem =
            lab::ClientRules::check({true, qint64(spec.requests), spec.concurrency, 1}, flag)) {
        err << "servelab: " << problem.text(flag) << '\n';
        return 2;
    }
    if (const QString problem = spec.validate(); !problem.isEmpty()) {
        err << "servelab: " << problem << '\n';
        return 2;
    }

    const QString chart = parser.value(QStringLiteral("chart"));
    if (!ui::chartNames().contains(chart)) {
        err << "servelab: --chart is one of " << ui::chartNames().join(u", ") << ", not '" << chart
            << "'\n";
        return 2;
    }

    ui::MainWindow window;
    window.setSpec(spec);
    if (parser.isSet(QStringLiteral("db")))
        window.session()->setDatabase(parser.value(QStringLiteral("db")));
    if (parser.isSet(QStringLiteral("spec"))) {
        const QString source = parser.value(QStringLiteral("spec"));
        if (!window.session()->loadSpec(source, &error)) {
            err << "servelab: " << error.section(u'\n', 0, 0) << '\n';
            return 2;
        }
    }
    if (parser.isSet(QStringLiteral("tab")) &&
        !window.showTab(parser.value(QStringLiteral("tab")))) {
        err << "servelab: --tab is one of " << ui::chartPages().join(QStringLiteral(", "))
            << ", spec, log, compare or profile, not '" << parser.value(QStringLiteral("tab"))
            << "'\n";
        return 2;
    }
    window.show();

    const QString png = parser.value(QStringLiteral("export-png"));
    const QString csv = parser.value(QStringLiteral("export-csv"));
    const bool batch = !png.isEmpty() || !csv.isEmpty();
    // Writes what was asked and says how it went: the exit status of a batch run.
    const auto exportAndQuit = [&](QString failure) {
        if (failure.isEmpty() && !png.isEmpty())
            window.exportChart(chart, png, &failure);
        if (failure.isEmpty() && !csv.isEmpty())
            window.session()->exportCsv(csv, &failure);
        if (!failure.isEmpty())
            err << "servelab: " << failure << '\n';
        err.flush();
        return failure.isEmpty() ? 0 : 1;
    };
    if (parser.isSet(QStringLiteral("open"))) {
        if (!window.session()->openResults(parser.value(QStringLiteral("open")), &error)) {
            err << "servelab: " << error << '\n';
            return 1;
        }
        if (batch)
            return exportAndQuit(QString());
    } else if (batch) {
        QObject::connect(
            &window, &ui::MainWindow::runFinished, &app, [&](bool ok, const QString &status) {
                QApplication::exit(exportAndQuit(
                    ok ? QString() : QStringLiteral("the experiment did not finish: ") + status));
            });
    }
    if (parser.isSet(QStringLiteral("wizard")))
        window.openWizard(window.experiment());
    if ((batch && !parser.isSet(QStringLiteral("open"))) || parser.isSet(QStringLiteral("run")))
        QTimer::singleShot(0, &window, &ui::MainWindow::startRun);
    return QApplication::exec();
}
