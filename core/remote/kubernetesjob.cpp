// SPDX-License-Identifier: Apache-2.0
#include "kubernetesjob.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace servelab::remote {

namespace {

// RFC 1123 labels (Kubernetes names of Services, Jobs, namespaces): lower case, digits, '-'.
// The pods' DNS names add "-INDEX", so the name keeps room for it within 63.
bool isDnsLabel(const QString &name, int longest)
{
    static const QRegularExpression label(QStringLiteral("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"));
    return name.size() <= longest && label.match(name).hasMatch();
}

} // namespace

QString KubernetesJob::problem() const
{
    if (agents < 1 || agents > 1000)
        return QStringLiteral("--agents wants 1 to 1000 load agents, not %1").arg(agents);
    if (!isDnsLabel(name, 50))
        return QStringLiteral("--name \"%1\" is not a Kubernetes name: lower-case letters, "
                              "digits and '-', at most 50")
            .arg(name);
    if (!isDnsLabel(kubeNamespace, 63))
        return QStringLiteral("--namespace \"%1\" is not a Kubernetes name: lower-case letters, "
                              "digits and '-'")
            .arg(kubeNamespace);
    static const QRegularExpression imageName(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._/:@-]*$"));
    if (!imageName.match(image).hasMatch())
        return QStringLiteral("--image \"%1\" is not an image reference, as "
                              "registry.example/servelab:0.1.0")
            .arg(image);
    if (lifetimeSeconds < 60 || lifetimeSeconds > 7 * 24 * 3600)
        return QStringLiteral("--lifetime wants 60 to 604800 seconds, not %1").arg(lifetimeSeconds);
    return {};
}

QByteArray KubernetesJob::yaml() const
{
    const int pods = agents + 1;
    return QStringLiteral(
               "# servelab-cli k8s-job: 1 server agent (index 0) and %1 load agents (1..%1).\n"
               "#   kubectl apply -f %2-job.yaml\n"
               "#   servelab-cli hosts check %2-hosts.json\n"
               "#   servelab-cli run SPEC.json --hosts %2-hosts.json\n"
               "# The pods only wait: the coordinator starts each agent with kubectl exec. The "
               "Job ends\n"
               "# after %3 s (activeDeadlineSeconds), whatever happens.\n"
               "apiVersion: v1\n"
               "kind: Service\n"
               "metadata:\n"
               "  name: %2\n"
               "  namespace: %4\n"
               "  labels:\n"
               "    app.kubernetes.io/name: servelab-agent\n"
               "spec:\n"
               "  clusterIP: None\n"
               "  selector:\n"
               "    job-name: %2\n"
               "---\n"
               "apiVersion: batch/v1\n"
               "kind: Job\n"
               "metadata:\n"
               "  name: %2\n"
               "  namespace: %4\n"
               "  labels:\n"
               "    app.kubernetes.io/name: servelab-agent\n"
               "spec:\n"
               "  completionMode: Indexed\n"
               "  completions: %5\n"
               "  parallelism: %5\n"
               "  backoffLimit: 0\n"
               "  activeDeadlineSeconds: %3\n"
               "  template:\n"
               "    metadata:\n"
               "      labels:\n"
               "        app.kubernetes.io/name: servelab-agent\n"
               "    spec:\n"
               "      subdomain: %2\n"
               "      restartPolicy: Never\n"
               "      containers:\n"
               "        - name: agent\n"
               "          image: %6\n"
               "          command: [\"sleep\", \"%3\"]\n")
        .arg(agents)
        .arg(name)
        .arg(lifetimeSeconds)
        .arg(kubeNamespace)
        .arg(pods)
        .arg(image)
        .toUtf8();
}

QByteArray KubernetesJob::hostsFile() const
{
    // The pod of index {host}: Kubernetes labels an Indexed Job's pods with their index
    // (batch.kubernetes.io/job-completion-index, 1.28 and later) and their Job (job-name).
    const QString find = QStringLiteral("kubectl get pod -n %1 -l job-name=%2,"
                                        "batch.kubernetes.io/job-completion-index={host} -o name")
                             .arg(kubeNamespace, name);
    const QJsonArray connector{
        QStringLiteral("sh"), QStringLiteral("-c"),
        QStringLiteral("exec kubectl exec -i -n %1 \"$(%2)\" -- {agent} agent --stdio")
            .arg(kubeNamespace, find)};
    QJsonArray load;
    for (int i = 1; i <= agents; ++i)
        load.append(QJsonObject{{QStringLiteral("host"), QString::number(i)},
                                {QStringLiteral("via"), QStringLiteral("k8s")}});
    // The server binds every address of its pod; the load agents reach it by its DNS name.
    const QJsonObject root{
        {QStringLiteral("servelab"), 1},
        {QStringLiteral("agent"), QStringLiteral("servelab-cli")},
        {QStringLiteral("connectors"), QJsonObject{{QStringLiteral("k8s"), connector}}},
        {QStringLiteral("server"),
         QJsonObject{{QStringLiteral("host"), QStringLiteral("0")},
                     {QStringLiteral("via"), QStringLiteral("k8s")},
                     {QStringLiteral("address"), QStringLiteral("%1-0.%1").arg(name)},
                     {QStringLiteral("listen"), QStringLiteral("0.0.0.0")}}},
        {QStringLiteral("load"), load}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

} // namespace servelab::remote
