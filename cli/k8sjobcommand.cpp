// SPDX-License-Identifier: Apache-2.0
#include "cli.h"
#include "commandline.h"

#include "lab/results/resultexport.h"
#include "remote/kubernetesjob.h"

#include <QDir>
#include <QFileInfo>
#include <QTextStream>

namespace servelab::cli {

int k8sJobCommand(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    remote::KubernetesJob job;
    CommandLine cl(
        QStringLiteral("k8s-job"),
        QStringLiteral("Writes a fleet of agents for Kubernetes: NAME-job.yaml (an Indexed Job "
                       "whose pod 0 is the server agent and 1..N the load agents, and a headless "
                       "Service that names them) and NAME-hosts.json (the hosts file that reaches "
                       "them with kubectl exec). kubectl apply -f NAME-job.yaml, then "
                       "servelab-cli hosts check NAME-hosts.json and run SPEC --hosts "
                       "NAME-hosts.json. The image must have servelab-cli on its PATH."));
    auto &p = cl.parser();
    p.addOptions({
        {QStringLiteral("agents"), QStringLiteral("Load agents (default %1).").arg(job.agents),
         QStringLiteral("n")},
        {QStringLiteral("name"), QStringLiteral("The Job's name (default %1).").arg(job.name),
         QStringLiteral("name")},
        {QStringLiteral("namespace"),
         QStringLiteral("Its namespace (default %1).").arg(job.kubeNamespace),
         QStringLiteral("ns")},
        {QStringLiteral("image"), QStringLiteral("The agents' image (default %1).").arg(job.image),
         QStringLiteral("image")},
        {QStringLiteral("lifetime"),
         QStringLiteral("Seconds before the Job ends, whatever happens (default %1).")
             .arg(job.lifetimeSeconds),
         QStringLiteral("seconds")},
        {QStringLiteral("out"), QStringLiteral("The folder to write the two files into."),
         QStringLiteral("dir")},
    });
    int code = exitOk;
    if (!cl.parseOptions(arguments, out, err, &code))
        return code;
    qint64 agents = job.agents;
    qint64 lifetime = job.lifetimeSeconds;
    if ((p.isSet(QStringLiteral("agents")) &&
         !cl.number(QStringLiteral("agents"), 1, 1000, &agents, err)) ||
        (p.isSet(QStringLiteral("lifetime")) &&
         !cl.number(QStringLiteral("lifetime"), 60, 7 * 24 * 3600, &lifetime, err)))
        return exitUsage;
    job.agents = int(agents);
    job.lifetimeSeconds = int(lifetime);
    for (const auto &[option, field] : {std::pair{QStringLiteral("name"), &job.name},
                                        std::pair{QStringLiteral("namespace"), &job.kubeNamespace},
                                        std::pair{QStringLiteral("image"), &job.image}})
        if (p.isSet(option))
            *field = p.value(option);
    if (const QString problem = job.problem(); !problem.isEmpty())
        return cl.usageError(problem, err);
    const QString folder = p.value(QStringLiteral("out"));
    if (folder.isEmpty())
        return cl.usageError(QStringLiteral("say where to write the files: --out DIR"), err);
    if (!QDir().mkpath(folder) || !QFileInfo(folder).isWritable())
        return cl.usageError(
            QStringLiteral("cannot write into --out %1: choose a folder you can write").arg(folder),
            err);
    const QDir dir(folder);
    QString error;
    const QString yaml = dir.filePath(job.name + QStringLiteral("-job.yaml"));
    const QString hosts = dir.filePath(job.name + QStringLiteral("-hosts.json"));
    if (!lab::writeTextFile(yaml, QString::fromUtf8(job.yaml()), &error) ||
        !lab::writeTextFile(hosts, QString::fromUtf8(job.hostsFile()), &error)) {
        err << "servelab-cli k8s-job: " << error << '\n';
        return exitFailure;
    }
    out << "wrote " << yaml << " and " << hosts << '\n'
        << "next: kubectl apply -f " << yaml << "; servelab-cli hosts check " << hosts << '\n';
    return exitOk;
}

} // namespace servelab::cli
