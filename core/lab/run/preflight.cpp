// SPDX-License-Identifier: Apache-2.0
#include "preflight.h"

#include "lab/spec/sizelist.h"
#include "lab/spec/transport.h"
#include "profile/perfrecorder.h"
#include "tls/tlsservercontext.h"

namespace servelab::lab {

namespace {

// Whether perf runs here, asked once a process: it starts `perf --version`, and the review page
// checks as the user types.
const QString &perfUnavailable()
{
    static const QString why = profile::PerfRecorder::unavailable();
    return why;
}

} // namespace

QStringList Preflight::warnings(const ExperimentSpec &spec)
{
    QStringList out;
    const auto add = [&out](const QString &line) {
        if (!out.contains(line))
            out << line;
    };
    const QString noKernelTls = QString::fromStdString(tls::TlsServerContext::kernelTlsMissing());
    for (const SweepSpec &t : spec.expanded()) {
        Transport transport;
        QString unused;
        if (t.kind() == TargetKind::Builtin && t.mode.contains(QStringLiteral("sendfile")) &&
            Transport::parse(t.transport, &transport, &unused) && transport.https &&
            !noKernelTls.isEmpty())
            add(QStringLiteral("%1 over https is kernel TLS (SSL_sendfile), and %2: its points "
                               "will be DNF; serve https with copy or mmap instead")
                    .arg(t.mode, noKernelTls));
        if (t.profile.enabled && !perfUnavailable().isEmpty())
            add(QStringLiteral("profiling: %1; the points will run unprofiled")
                    .arg(perfUnavailable()));
        QList<quint64> unmeasured;
        for (quint64 size : t.profile.enabled ? t.profile.sizes : QList<quint64>())
            if (!t.sizes.contains(size))
                unmeasured << size;
        if (!unmeasured.isEmpty())
            add(QStringLiteral("profiled size%1 %2 %3 not among the sizes measured (%4): "
                               "nothing will be profiled there; pick from those")
                    .arg(unmeasured.size() == 1 ? QString() : QStringLiteral("s"),
                         formatSizeList(unmeasured),
                         unmeasured.size() == 1 ? QStringLiteral("is") : QStringLiteral("are"),
                         formatSizeList(t.sizes)));
    }
    return out;
}

} // namespace servelab::lab
