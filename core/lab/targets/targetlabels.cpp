// SPDX-License-Identifier: Apache-2.0
#include "targetlabels.h"

namespace servelab::lab {

QStringList targetLabels(const QList<SweepSpec> &targets)
{
    QStringList names;
    for (const auto &t : targets)
        names << t.label() + (t.variant.isEmpty() ? QString() : u' ' + t.variant);
    // Targets that would read the same are told apart by what differs: their options, thread
    // count or fd limit (and their place in the spec if nothing does).
    QStringList labels = names;
    for (int i = 0; i < names.size(); ++i) {
        if (names.count(names[i]) < 2)
            continue;
        const auto differs = [&](auto field) {
            for (int j = 0; j < names.size(); ++j)
                if (names[j] == names[i] && field(targets[j]) != field(targets[i]))
                    return true;
            return false;
        };
        QStringList details;
        if (differs([](const SweepSpec &t) { return t.serverThreads; }))
            details << QStringLiteral("%1 threads").arg(targets[i].serverThreads);
        if (differs([](const SweepSpec &t) { return t.fdLimit; }))
            details << QStringLiteral("fd limit %1").arg(targets[i].fdLimit);
        if (differs([](const SweepSpec &t) { return t.serverArguments; })) {
            QStringList options;
            for (qsizetype a = 0; a + 1 < targets[i].serverArguments.size(); a += 2)
                options << targets[i].serverArguments[a].mid(2) + u'=' +
                               targets[i].serverArguments[a + 1];
            details << (options.isEmpty() ? QStringLiteral("defaults") : options.join(u' '));
        }
        if (details.isEmpty())
            details << QStringLiteral("#%1").arg(i + 1);
        labels[i] += QStringLiteral(" (%1)").arg(details.join(QStringLiteral(", ")));
    }
    return labels;
}

} // namespace servelab::lab
