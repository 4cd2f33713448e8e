// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <QByteArray>
#include <QString>

namespace servelab::remote {

// A fleet of agents as Kubernetes pods (`servelab-cli k8s-job`): an Indexed Job of agents + 1
// pods (index 0 the server agent, 1..agents the load agents) that only wait, a headless
// Service that gives each its DNS name (NAME-INDEX.NAME), and the hosts file that reaches them:
// a connector that finds the pod of an index and attaches with `kubectl exec -i`, so the
// coordinator speaks to each agent over the API server as it would over ssh, and nothing new
// listens but the server under test. The Job ends at its deadline whatever happens.
// Hand-written YAML: no YAML library is among the project's dependencies, and this is a fixed
// shape with a handful of values, each of which is checked to need no quoting.
struct KubernetesJob
{
    int agents = 2;                            // load agents
    QString name = QStringLiteral("servelab"); // the Job's, the Service's, the pods' prefix
    QString kubeNamespace = QStringLiteral("default");
    QString image = QStringLiteral("debian:bookworm"); // one with servelab-cli on its PATH
    int lifetimeSeconds = 3600; // activeDeadlineSeconds, and how long each pod waits

    // Empty when every field can be written as it is; else what is wrong and what to write.
    QString problem() const;
    QByteArray yaml() const;      // the Service and the Job
    QByteArray hostsFile() const; // for run --hosts and hosts check
};

} // namespace servelab::remote
