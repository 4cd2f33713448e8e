// SPDX-License-Identifier: Apache-2.0
#include "cli.h"
#include "commandline.h"

#include "lab/results/resultexport.h"
#include "metrics/clock.h"
#include "metrics/processsampler.h"

#include <QTextStream>

#include <thread>

namespace servelab::cli {

// servelab-cli watch PID: the fd timeline of any process (an external server, say) and of the
// processes under it, summed (nginx's workers, Apache's prefork children), as the lab records
// it for its targets, one CSV row per 100 ms; and what watching cost.
int watchCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    CommandLine cl(QStringLiteral("watch"),
                   QStringLiteral("Samples a process and the processes under it every 100 ms "
                                  "(descriptors by type, fd limit, threads, RSS, CPU, summed;\nthe "
                                  "number of processes) and prints one CSV row per sample, until "
                                  "-d seconds have\npassed or the process ends."));
    auto &p = cl.parser();
    p.addPositionalArgument(QStringLiteral("pid"), QStringLiteral("The process to watch."));
    p.addOptions({{QStringLiteral("d"), QStringLiteral("Seconds to watch."),
                   QStringLiteral("seconds"), QStringLiteral("10")},
                  {QStringLiteral("no-children"),
                   QStringLiteral("Watch the process alone, not the processes under it.")}});
    int code = exitOk;
    if (!cl.parse(arguments, out, err, &code))
        return code;
    const QStringList pids = p.positionalArguments();
    bool ok = false;
    const qint64 pid = pids.value(0).toLongLong(&ok);
    if (pids.size() != 1 || !ok || pid <= 0)
        return cl.usageError(QStringLiteral("watch wants one process id, as 'watch 1234'"), err);
    qint64 seconds = 10;
    if (!cl.number(QStringLiteral("d"), 1, 86400, &seconds, err))
        return exitUsage;

    metrics::ProcessSampler sampler;
    const std::int64_t start = metrics::monotonicMicros();
    if (std::string why;
        !sampler.start(pid_t(pid), &why, !p.isSet(QStringLiteral("no-children")))) {
        err << "servelab-cli watch: " << QString::fromStdString(why) << '\n';
        return exitFailure;
    }
    out << "t_s," << lab::processCsvHeader() << '\n';
    const std::int64_t end = start + seconds * 1'000'000;
    std::vector<metrics::ProcessSample> kept; // the last two, for the CPU share
    bool gone = false;
    while (!gone && metrics::monotonicMicros() < end) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        for (const auto &s : sampler.drain()) {
            const metrics::ProcessSample *previous = kept.empty() ? nullptr : &kept.back();
            out << QString::number(double(s.atMicros - start) / 1e6, 'f', 3) << ','
                << lab::processColumns(&s, previous).join(u',') << '\n';
            gone = gone || !s.alive;
            kept = {s};
        }
        out.flush();
    }
    sampler.stop();
    const double elapsed = double(metrics::monotonicMicros() - start) / 1e6;
    err << "watch: " << sampler.samplesTaken() << " samples of " << pid << " in "
        << QString::number(elapsed, 'f', 1) << " s" << (gone ? " (it ended)" : "")
        << "; the sampler used " << QString::number(sampler.ownCpuSeconds() * 1000, 'f', 1)
        << " ms of CPU, " << QString::number(100 * sampler.ownCpuSeconds() / elapsed, 'f', 2)
        << " % of a core\n";
    return exitOk;
}

} // namespace servelab::cli
